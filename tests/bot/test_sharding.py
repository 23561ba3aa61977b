"""Two shard processes on one SQLite file: each plays, recovers and runs only its own server.

Each process is ``python -m tests.bot.test_sharding SHARD`` (the child at the bottom of this
file): the bot from ``create_bot`` with ``SHARD_COUNT=2`` and ``SHARD_IDS=SHARD`` read from
the environment like ``python -m bot``, the game service opened by ``bot.start``'s
``open_service``, and its own SimCord Discord in which both servers exist but only the
shard's own one is served. Each starts a game in its server through ``/wizard new`` and the
lobby's buttons and plays some moves by clicking. Once both games are running, both
"restart" (close the service, reopen it on the file, a new bot) and must recover exactly their
own game, leave the other shard's alone, and play on through the old buttons.

A second test runs ``python -m bot`` itself with ``SHARD_IDS`` (Discord's login replaced by a
wait) on a file with a lobby of each shard, and stops it with SIGTERM as ``docker stop`` does.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from bot.demo import Player
    from wizard.service import GameService

ROOT = Path(__file__).resolve().parents[2]
SHARDS = 2
MOVES_BEFORE = 6
"""Moves each human plays before the restart (bids and cards, through the hand's buttons)."""
MOVES_AFTER = 6
DEADLINE = 900.0
"""Seconds after which a hung child is killed and the test fails: only a guard against a
hang, far above what the test takes on a loaded machine (it waits for readiness lines)."""


def _start(shard: int, db: Path, log: IO[str]) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SHARD_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        WIZARD_ENV_FILE="",  # never a developer's .env
        DATABASE_PATH=str(db),
        SHARD_COUNT=str(SHARDS),
        SHARD_IDS=str(shard),
        COMPUTER_DELAY_SECONDS="0",
        LOG_LEVEL="WARNING",
    )
    return subprocess.Popen(
        [sys.executable, "-m", "tests.bot.test_sharding", str(shard)],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=log,  # a file, not a pipe nobody reads while the child runs
        text=True,
    )


class Child:
    """A shard process and the lines it prints, read by a thread so that waits can time out."""

    def __init__(self, shard: int, db: Path) -> None:
        self.log_path = db.with_name(f"shard{shard}.log")
        self.log = self.log_path.open("w")
        self.process = _start(shard, db, self.log)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def report(self, phase: str, deadline: float) -> dict[str, Any]:
        """The child's next JSON line, which must be of ``phase``."""
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                self.process.kill()
                self.process.wait()
                err = self.log_path.read_text()
                raise AssertionError(f"shard child gave no {phase!r} report:\n{err[-4000:]}")
            if line.startswith("{"):
                report: dict[str, Any] = json.loads(line)
                assert report["phase"] == phase, report
                return report

    def tell(self, line: str) -> None:
        """Write a line to the child."""
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()


def test_two_shard_processes_share_one_database(tmp_path: Path) -> None:
    db = tmp_path / "wizard.db"
    deadline = time.monotonic() + DEADLINE
    children = [Child(shard, db) for shard in range(SHARDS)]
    try:
        played = [child.report("played", deadline) for child in children]
        # Both games are running in the file now; let both processes restart.
        for child in children:
            child.tell("go")
        done = [child.report("done", deadline) for child in children]
        for child in children:
            child.process.wait(timeout=max(1.0, deadline - time.monotonic()))
            assert child.process.returncode == 0
    finally:
        for child in children:
            if child.process.poll() is None:
                child.process.kill()
            child.process.wait()
            for stream in (child.process.stdin, child.process.stdout, child.log):
                if stream is not None:
                    stream.close()

    games = [report["game"] for report in played]
    assert len(set(games)) == SHARDS
    for shard, (before, after) in enumerate(zip(played, done, strict=True)):
        # Discord's routing: the server of each process maps to that process's shard.
        assert (before["guild"] >> 22) % SHARDS == shard
        assert before["served_guilds"] == [before["guild"]]
        assert before["status"] == "active"
        # Restarted with the other game running in the file: its own game only.
        assert after["recovered"] == [before["game"]]
        assert after["skipped"] == SHARDS - 1
        # Its clocks and listeners only ever saw its own game.
        assert set(before["background_games"]) <= {before["game"]}
        assert set(after["background_games"]) <= {before["game"]}
        # The old buttons worked after the restart and the game went on.
        assert before["moves"] == MOVES_BEFORE and after["moves"] == MOVES_AFTER
        assert after["version"] >= before["version"] + MOVES_AFTER
        assert after["errors"] == []
        # Every click of the player was a move the game took: nothing refused as stale, no
        # write failed (the shared file took every commit of both processes).
        assert before["unapplied"] == [] and after["unapplied"] == []

    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        rows = conn.execute(
            "SELECT id, guild_id, status, version FROM games ORDER BY id"
        ).fetchall()
    assert [(r[0], r[1], r[2]) for r in rows] == sorted(
        (report["game"], report["guild"], "active") for report in played
    )
    by_game = {after["game"]: after for after in done}
    for game_id, _, _, version in rows:
        assert version == by_game[game_id]["version"]

    # Every action of both games replays: a fresh service loads them both, nothing broken.
    asyncio.run(_replays(db, games))


async def _replays(db: Path, games: list[int]) -> None:
    from wizard.service import GameService, GameStatus

    service = await GameService.open(db)
    try:
        for game_id in games:
            info = await service.get_game(game_id)
            assert info.status is GameStatus.ACTIVE, info.broken_reason
            assert info.table is not None
    finally:
        await service.close()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_python_m_bot_recovers_its_shards_games_and_stops_on_sigterm(
    tmp_path: Path, stop: signal.Signals
) -> None:
    """``python -m bot`` itself, all but the connection: settings from the environment, the
    database opened and recovered for this process's shard, the bot started with its shard
    ids; SIGTERM (``docker stop``) closes the bot, then the database, and exits 0. So does
    SIGHUP, a closed terminal (operator QA: it ended with 129 and the database unclosed)."""
    db = tmp_path / "wizard.db"
    guilds = {shard: _guild_of_shard(shard) for shard in range(SHARDS)}
    asyncio.run(_lobbies(db, guilds))
    log = (tmp_path / "bot.log").open("w")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SHARD_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        WIZARD_ENV_FILE="",
        DISCORD_TOKEN="not.a.token",
        DATABASE_PATH=str(db),
        SHARD_COUNT=str(SHARDS),
        SHARD_IDS="1",
    )
    bot = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.test_sharding", "entry"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
    )
    try:
        lines = queue.Queue[str]()

        def pump() -> None:
            for line in bot.stdout or ():
                lines.put(line)

        threading.Thread(target=pump, daemon=True).start()
        started = lines.get(timeout=DEADLINE)
        assert json.loads(started) == {"started": True, "shard_count": SHARDS, "shard_ids": [1]}
        bot.send_signal(stop)
        assert bot.wait(timeout=DEADLINE) == 0
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
        log.close()
    output = (tmp_path / "bot.log").read_text()
    assert "1 unfinished games of this process's servers to resume" in output
    assert "(1 of other shards left alone, 0 set aside as damaged)" in output
    assert "stopped; database closed" in output
    assert "not.a.token" not in output


def _guild_of_shard(shard: int) -> int:
    """A server id that Discord routes to ``shard``: ``(guild_id >> 22) % SHARDS``."""
    return ((1456074443980800000 >> 22) + shard) << 22


async def _lobbies(db: Path, guilds: dict[int, int]) -> None:
    """One open lobby per shard's server in the file."""
    from wizard.service import GameService

    service = await GameService.open(db)
    try:
        for shard, guild in guilds.items():
            assert (guild >> 22) % SHARDS == shard
            await service.create_game(
                guild_id=guild, channel_id=guild + 1, host_id=guild + 2, host_name="Sam"
            )
    finally:
        await service.close()


def _entry() -> None:
    """``python -m bot`` with Discord's login replaced by a wait: nothing leaves the machine."""
    from discord.ext import commands

    from bot.cli import main

    async def login(self: commands.AutoShardedBot, token: str) -> None:
        pass

    async def connect(self: commands.AutoShardedBot, *, reconnect: bool = True) -> None:
        started = {"started": True, "shard_count": self.shard_count, "shard_ids": self.shard_ids}
        print(json.dumps(started), flush=True)
        await asyncio.Event().wait()  # until the signal cancels it

    commands.AutoShardedBot.login = login  # type: ignore[method-assign]
    commands.AutoShardedBot.connect = connect  # type: ignore[method-assign]
    sys.exit(main([]))


# --- the child: one shard process ------------------------------------------------------------


async def _play(
    service: GameService, game: int, player: Player, moves: int
) -> tuple[int, list[str]]:
    """``moves`` moves of ``player`` that the game took, counted by its version.

    A click may be answered without a move (a button that was outdated by the time it was
    clicked: the bot then shows the current hand); it is noted, and the player plays on.
    """
    made = 0
    unapplied: list[str] = []
    for _ in range(3 * moves):
        if made == moves:
            break
        before = (await service.get_game(game)).version
        clicked = await player.move()
        if (await service.get_game(game)).version > before:
            made += 1
        else:
            hand = player.hand
            unapplied.append(f"clicked={clicked} v{before}: {hand.content[:150] if hand else None}")
    return made, unapplied


def _emit(**report: Any) -> None:
    print(json.dumps(report), flush=True)


async def _child(shard: int) -> None:
    opened: list[GameService] = []
    try:
        await _shard_plays(shard, opened)
    finally:
        # A failing child must exit, so that the test fails on its missing report at once:
        # an open database's thread would keep the process alive until the test's deadline.
        for service in opened:
            await service.close()


async def _shard_plays(shard: int, opened: list[GameService]) -> None:
    import simcord

    from bot.app import create_bot
    from bot.clock import SimCordClock
    from bot.demo import SETTLE_SECONDS, Player, find_table
    from bot.settings import Settings
    from bot.start import open_service
    from wizard.service import GameUpdate

    settings = Settings.load()
    assert settings.shard_ids == (shard,) and settings.shard_count == SHARDS
    seen: set[int] = set()
    errors: list[str] = []

    async def listen(update: GameUpdate) -> None:
        seen.add(update.game_id)

    # The demo's clock: the bot's and the service's timers fire only when SimCord's clock is
    # moved, so SimCord's settle timeout bounds only the work of a click (a computer's move
    # due at once is part of it), never a wait for a timer on the real clock.
    clock = SimCordClock()
    service, first = await open_service(settings, clock=clock)
    opened.append(service)
    service.subscribe(listen)
    async with simcord.run(
        create_bot(settings, service=service, clock=clock),
        check_errors=False,
        settle_timeout=SETTLE_SECONDS,
    ) as env:
        clock.env = env
        # Discord's ids are unique everywhere; SimCord's come from its clock, from the same
        # start in every process. A day apart, the two worlds' interaction ids (the service's
        # keys for counting a click once, in the shared file) cannot collide.
        await env.advance_time(shard * 86400)
        # Both servers exist in every world; each process is only sent its own shard's.
        guilds = [env.create_guild(f"server {i}", shard_id=i) for i in range(SHARDS)]
        channels = [g.create_text_channel("wizard") for g in guilds]
        players = [
            g.add_member(env.create_user(f"sam{i}", global_name="Sam"))
            for i, g in enumerate(guilds)
        ]
        mine = guilds[shard]
        channel = channels[shard]
        sam = players[shard]

        created = await sam.slash(channel, "wizard new")
        assert created.acknowledged and created.response is not None
        lobby = created.response.message
        game = next(
            int(str(item.custom_id).split(":")[1])
            for row in lobby.components
            for item in getattr(row, "children", ())
            if str(getattr(item, "custom_id", "")).startswith("wiz:")
        )
        for _ in range(2):
            added = await sam.click(lobby, label="Add computer player")
            assert added.acknowledged
        started = await sam.click(lobby, label="Start")
        assert started.acknowledged
        table = find_table(channel)
        assert table is not None

        player = Player(sam, channel)
        moves, unapplied = await _play(service, game, player, MOVES_BEFORE)
        info = await service.get_game(game)
        _emit(
            phase="played",
            game=game,
            guild=mine.id,
            served_guilds=[g.id for g in env.bot.guilds],
            first_recovery=list(first.loaded),
            moves=moves,
            version=info.version,
            status=str(info.status),
            background_games=sorted(seen),
            unapplied=unapplied,
        )
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)

        # A restart in all but the simulated Discord: the old service closes, a new one
        # recovers from the file, a new bot is attached; the messages and buttons remain.
        await service.close()
        seen.clear()
        service, second = await open_service(settings, clock=clock)
        opened.append(service)
        service.subscribe(listen)
        await env.restart_bot(create_bot(settings, service=service, clock=clock))
        player = Player(sam, channel)  # opens a fresh hand with the table's old button
        moves, unapplied = await _play(service, game, player, MOVES_AFTER)
        info = await service.get_game(game)
        errors = [repr(e) for e in env.errors]
        _emit(
            phase="done",
            game=game,
            recovered=list(second.loaded),
            skipped=second.skipped,
            moves=moves,
            version=info.version,
            status=str(info.status),
            background_games=sorted(seen),
            errors=errors,
            unapplied=unapplied,
        )
    await service.close()


if __name__ == "__main__":
    if sys.argv[1] == "entry":
        _entry()
    else:
        asyncio.run(_child(int(sys.argv[1])))
