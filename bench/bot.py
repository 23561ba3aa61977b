"""The bot through SimCord: REST calls per player action and click-to-response time.

    python bench/bot.py                       # 6 people, one full game (10 rounds)
    python bench/bot.py --humans 1            # 1 person and 5 computer players
    python bench/bot.py --think 5             # people take 5 s (virtual) per move
    python bench/bot.py --no-live-hands       # people press "Show my hand" on every turn
    python bench/bot.py --edit-interval 0     # no edit pacing (only one edit in flight)

A full 6-seat game runs in SimCord's in-memory Discord with the real bot and a real game
service (SQLite in a temporary directory). Simulated members play only by clicking: each
opens their hand once with "Show my hand" (it then redraws itself when their turn comes) and
clicks a random enabled card (or trump) there; open bids are made with the table's buttons.
Printed:

* REST calls per player action (bids, trump choices, plays) and per game, by kind:
  interaction responses, table edits and posts, hand redraws, pings, the rest;
* how often a person's open hand already said it was their turn when they made an open bid
  on the table (issue 12: the hand must agree with the table; within one edit interval);
* p50/p99 of our own processing per click, from the handler's start to the moment the
  response is sent (service call, rendering; ``time.perf_counter``), and the same until the
  response call returned (adds SimCord's handling of the REST call).

Computer players move without delay here (their delay is only there for people to watch);
with ``--think`` virtual time passes before each click (uniformly 0.2 s to twice the mean),
so edit pacing, the turn ping (after 30 s of waiting) and turn timers behave as in a game
at that pace. Without it every click comes at the same virtual instant: the fastest game
there can be, where each interval of edit pacing merges everything that follows it.

The bot's own timers (edit pacing, pings) run on virtual time only, moved by the benchmark
(``bot.clock.SimCordClock``). With SimCord's ordinary timers, one shorter than the
settle timeout is waited for in real time within the click, and a longer one fires on the
real clock anyway after that many seconds: either way the pace measured would be the
machine's, not the one asked for.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# This file is named bot.py, and Python puts its folder first on the path: without this,
# "import bot" would import this script instead of the bot package. The repository root
# takes its place, for the bot and for the REST classifier shared with the tests.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    del sys.path[0]
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import simcord

from bot.app import WizardBot, create_bot
from bot.clock import DiscordClock, SimCordClock
from bot.cogs import GameConfig
from bot.cogs.clicks import ClickStats
from bot.features.table import bids_on_table
from bot.settings import Settings
from tests.bot.simtools import rest_kinds
from wizard.record import load
from wizard.service import GameService, GameStatus, ServiceConfig

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")
ACTIONS = ("bid", "play", "trump", "playhidden", "takeback")


def _buttons(stored: Any) -> list[dict[str, Any]]:
    return [c for row in stored.components for c in row["components"] if c.get("type") == 2]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def run(humans: int, think: float, seed: int, live_hands: bool, interval: float) -> None:
    # SimCord polls for the bot's work every 50 ms while it settles; that is SimCord's
    # bookkeeping, not the bot's, and would make this a 60-second run. Poll faster.
    defaults = simcord.Env._settle_internal.__kwdefaults__
    assert defaults is not None
    defaults["idle"] = 0.002
    folder = Path(tempfile.mkdtemp(prefix="wizard-bench-"))
    clock = DiscordClock()
    bot_clock = SimCordClock()
    service = await GameService.open(
        folder / "bench.db", clock=clock, config=ServiceConfig(computer_delay=0.0)
    )
    config = GameConfig(seeds=lambda: seed, live_hands=live_hands, edit_interval=interval)
    bot = create_bot(Settings(shard_count=1), service=service, clock=bot_clock, game_config=config)
    stats = ClickStats()  # the bot times its clicks only when asked
    rng = random.Random(seed)
    wall: list[float] = []
    try:
        async with simcord.run(bot, shard_count=1) as env:
            bot_clock.env = env
            assert bot.game_cog is not None
            bot.game_cog.stats = stats
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("wizard")
            members = [guild.add_member(env.create_user(n)) for n in NAMES[:humans]]
            by_id = {m.id: m for m in members}
            start = len(env.http_requests)
            host = members[0]
            await host.slash(channel, "wizard new")
            info = await service.game_in_channel(channel.id)
            assert info is not None
            stored = env.backend.messages[channel.id]
            lobby = simcord.ResponseMessage(env, stored[max(stored)])
            for member in members[1:]:
                await member.click(lobby, label="Join")
            for _ in range(6 - humans):
                await host.click(lobby, label="Add computer player")
            await host.click(lobby, label="Start")
            hands: dict[int, int] = {}
            actions = clicks = table_bids = hand_bid_turns = hand_says_so = 0
            while True:
                game = await service.get_game(info.id)
                if game.status is not GameStatus.ACTIVE:
                    break
                assert game.table is not None
                movers = [
                    game.seats[s].user_id
                    for s in game.table.to_act
                    if not game.seats[s].computer_controlled
                ]
                if not movers:
                    await env.advance_time(1.0)
                    continue
                member = by_id[movers[0]]  # type: ignore[index]
                if think:
                    await env.advance_time(rng.uniform(0.2, 2 * think))
                if bids_on_table(game.table):
                    # An open bid is made on the table, once it shows this moment's buttons.
                    game = await service.get_game(info.id)
                    assert game.table_message_id is not None
                    table = env.backend.get_message(channel.id, game.table_message_id)
                    bids = [
                        b
                        for b in _buttons(table)
                        if not b.get("disabled")
                        and b["custom_id"].split(":")[2] == "bid"
                        and int(b["custom_id"].split(":")[4]) == game.version
                    ]
                    if not bids:
                        await env.advance_time(0.25)  # a paced edit is still due
                        continue
                    if member.id in hands:
                        # Does the person's open hand say it is their bid, as the table does?
                        shown = env.backend.get_message(channel.id, hands[member.id])
                        hand_bid_turns += 1
                        hand_says_so += "**Your turn:**" in shown.content
                    chosen = rng.choice(bids)
                    t0 = time.perf_counter()
                    result = await member.click(
                        simcord.ResponseMessage(env, table), custom_id=chosen["custom_id"]
                    )
                    wall.append(time.perf_counter() - t0)
                    assert result.acknowledged
                    clicks += 1
                    actions += 1
                    table_bids += 1
                    continue
                hand_id = hands.get(member.id)
                enabled: list[dict[str, Any]] = []
                if hand_id is not None:
                    hand = env.backend.get_message(channel.id, hand_id)
                    enabled = [
                        b
                        for b in _buttons(hand)
                        if not b.get("disabled") and b["custom_id"].split(":")[2] in ACTIONS
                    ]
                if not enabled:
                    table_id = (await service.get_game(info.id)).table_message_id
                    assert table_id is not None
                    table = simcord.ResponseMessage(
                        env, env.backend.get_message(channel.id, table_id)
                    )
                    t0 = time.perf_counter()
                    opened = await member.click(table, label="Show my hand")
                    wall.append(time.perf_counter() - t0)
                    clicks += 1
                    assert opened.response is not None
                    hands[member.id] = hand_id = opened.response.id
                    hand = env.backend.get_message(channel.id, hand_id)
                    enabled = [
                        b
                        for b in _buttons(hand)
                        if not b.get("disabled") and b["custom_id"].split(":")[2] in ACTIONS
                    ]
                assert hand_id is not None
                chosen = rng.choice(enabled)
                message = simcord.ResponseMessage(env, env.backend.get_message(channel.id, hand_id))
                t0 = time.perf_counter()
                result = await member.click(message, custom_id=chosen["custom_id"])
                wall.append(time.perf_counter() - t0)
                assert result.acknowledged
                clicks += 1
                actions += 1
            calls = env.http_requests[start:]
            final = await service.get_game(info.id)
            record = load(await service.game_record(info.id))
            bot_ = env.bot
            assert isinstance(bot_, WizardBot) and bot_.game_cog is not None
            surfaces = bot_.game_cog.surfaces.stats
            assert not env.errors
    finally:
        await service.close()
        shutil.rmtree(folder, ignore_errors=True)

    assert final.status is GameStatus.FINISHED
    record_actions = sum(
        len(r.bids) + len(r.plays) + (1 if r.turned == "Z" else 0) for r in record.rounds
    )
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    print(
        f"game: 6 seats ({humans} people, {6 - humans} computer players), "
        f"live hands {'on' if live_hands else 'off'}, edit interval {interval:g} s, "
        f"{f'{think:g} s per move' if think else 'no time between moves'}, "
        f"{final.table.num_rounds if final.table else '?'} rounds, "
        f"{record_actions} actions in all ({actions} by people, {table_bids} bids on the "
        f"table), {clicks} clicks"
    )
    kinds = rest_kinds(calls)
    print(f"REST calls for the whole game (from /wizard new to the standings): {len(calls)}")
    for name, count in kinds.most_common():
        print(f"  {count:6d}  {name}")
    print(f"REST calls per player action (all seats' actions): {len(calls) / record_actions:.2f}")
    if actions:
        print(f"REST calls per action made by a person's click: {len(calls) / actions:.2f}")
    print(
        f"bot's own count: {surfaces.table_edits} table edits, {surfaces.table_posts} table "
        f"posts, {surfaces.summaries} round summaries, {surfaces.hand_refreshes} hand redraws, "
        f"{surfaces.pings} pings, {surfaces.failures} refused"
    )
    print(
        f"open bids clicked on the table by a person with an open hand: {hand_bid_turns}, "
        f"of which their hand said it was their turn at that moment: {hand_says_so} "
        f"(a hand drawn less than the edit interval before waits for its end)"
    )
    ms = [1000 * x for x in stats.processing]
    total = [1000 * x for x in stats.total]
    print(
        f"click → response sent (our processing), {len(ms)} clicks: "
        f"p50 {_pct(ms, 0.5):.2f} ms, p99 {_pct(ms, 0.99):.2f} ms, max {max(ms):.2f} ms"
    )
    print(
        f"click → response call returned (adds SimCord's REST handling): "
        f"p50 {_pct(total, 0.5):.2f} ms, p99 {_pct(total, 0.99):.2f} ms"
    )
    print(
        f"whole click as the test driver sees it (SimCord dispatch and settle included): "
        f"p50 {1000 * statistics.median(wall):.1f} ms"
    )


def main() -> None:
    """Parse the options and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--humans", type=int, default=6, choices=range(1, 7))
    parser.add_argument("--think", type=float, default=0.0, help="mean virtual seconds per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-live-hands",
        action="store_true",
        help="hands do not redraw themselves: people press Show my hand on each turn",
    )
    parser.add_argument(
        "--edit-interval",
        type=float,
        default=GameConfig().edit_interval,
        help="seconds between two edits of the table (0: no pacing)",
    )
    args = parser.parse_args()
    asyncio.run(run(args.humans, args.think, args.seed, not args.no_live_hands, args.edit_interval))


if __name__ == "__main__":
    main()
