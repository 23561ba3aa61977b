"""Child process of the crash test: plays games through the service and reports each action.

Before each ``act`` it prints ``INTENT game seat kind arg``; after ``act`` has returned
(the action is committed) it prints ``ACK game version seat kind arg``; both flushed.
Run: ``python crash_child.py DB GAMES SEED``. It never exits by itself: the parent kills it.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import sys
import time

from wizard.service import GameService, GameStatus, ServiceConfig
from wizard.service.game import encode_action

USERS = [1, 2, 3]


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def drive(svc: GameService, game_id: int, rng: random.Random) -> None:
    while True:
        info = await svc.get_game(game_id)
        if info.status is not GameStatus.ACTIVE or info.table is None:
            return
        seat = info.table.to_act[0]
        sv = await svc.seat_view(game_id, USERS[seat])
        action = rng.choice(sv.view.legal)
        kind, arg = encode_action(action)
        say(f"INTENT {game_id} {seat} {kind} {arg}")
        update = await svc.act(game_id, USERS[seat], action, sv.version)
        say(f"ACK {game_id} {update.version} {seat} {kind} {arg}")


async def main(path: str, games: int, seed: int) -> None:
    svc = await GameService.open(path, config=ServiceConfig(computer_delay=0))
    conn = sqlite3.connect(path)
    ids = [r[0] for r in conn.execute("SELECT id FROM games WHERE status = 'active' ORDER BY id")]
    conn.close()
    if not ids:
        for k in range(games):
            info = await svc.create_game(
                guild_id=1, channel_id=k, host_id=1, host_name="P1", seed=1000 + k
            )
            await svc.join(info.id, 2, "P2")
            await svc.join(info.id, 3, "P3")
            await svc.start(info.id, 1)
            ids.append(info.id)
    say("READY " + " ".join(map(str, ids)))
    rng = random.Random(seed)
    await asyncio.gather(*(drive(svc, g, random.Random(rng.random())) for g in ids))
    say("DONE")
    while True:  # wait to be killed, like a server would run on
        time.sleep(1)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
