"""Time, on SimCord's virtual clock: a player who does not act is played for (and after two
timeouts a computer takes the seat) and the game finishes, also across a restart; the turn
ping mentions whoever the game waits on, without flooding; an open hand stops updating once
Discord would refuse the edit (15 minutes)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.cogs import GameConfig
from tests.bot.conftest import Sim, buttons, simulation, verb_of
from wizard.service import GameStatus

pytestmark = pytest.mark.usefixtures("fast_settle")


def pings(sim: Sim) -> list[str]:
    return [m.content for m in sim.raw() if m.content.startswith("🔔")]


async def test_idle_player_is_played_for_and_pinged_once(tmp_path: Path) -> None:
    seeds = iter(range(1, 100))
    config = GameConfig(ping_delay=20.0, edit_interval=0.0, seeds=lambda: next(seeds))
    async with simulation(tmp_path, members=2, config=config) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=4, turn_timer=30)
        assert info.turn_seconds == 30
        most_pings = 0
        mentioned: set[str] = set()
        restarted = False

        async def step() -> None:
            nonlocal most_pings, restarted
            now = pings(sim)
            most_pings = max(most_pings, len(now))
            mentioned.update(now)
            current = await sim.service.get_game(info.id)
            if not restarted and current.seats[1].timeouts == 1:
                # Restart while the game waits on bob: his turn timer resumes.
                restarted = True
                await sim.restart()

        rng = random.Random(8)
        end = await sim.play(info.id, rng, idle=frozenset({bob.id}), step=step, advance=10.0)
        assert restarted
        assert end.status is GameStatus.FINISHED
        bob_seat = end.seats[1]
        assert bob_seat.away and bob_seat.timeouts >= 2  # handed to a computer (R: 2 timeouts)
        await sim.final_standings(info.id)
        assert most_pings == 1  # never more than one reminder in the channel
        assert any(f"<@{bob.id}>" in text for text in mentioned)
        assert not any(
            f"<@{ann.id}>" in text for text in mentioned
        )  # ann never kept anyone waiting
        assert pings(sim) == []  # the last reminder went with the game
        assert not sim.env.errors


async def test_ping_at_once_and_a_hand_that_expired(tmp_path: Path) -> None:
    seeds = iter(range(1, 100))
    config = GameConfig(ping_delay=0.0, edit_interval=0.0, seeds=lambda: next(seeds))
    async with simulation(tmp_path, members=3, config=config) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy])
        table = info.table
        assert table is not None
        first = sim.member(info.seats[table.to_act[0]].user_id or 0)
        [ping] = pings(sim)
        assert ping.startswith(
            f"🔔 <@{first.id}>: your turn to bid (Wizard, round 1), with the buttons on the table."
        )
        last = sim.raw()[-1]
        assert any(b.get("label") == "Show my hand" for b in buttons(last))  # a shortcut

        # The bids are made on the table; then everyone opens their hand, and the leader
        # thinks for 16 minutes.
        for _ in range(3):
            [bidder] = await sim.to_act(info.id)
            await sim.act(bidder, lambda enabled: enabled[0])
        hands = {m.id: await sim.open_hand(m) for m in sim.members}
        [leader] = await sim.to_act(info.id)
        await sim.env.advance_time(16 * 60)
        await sim.act(leader, lambda enabled: enabled[0])
        [ping] = pings(sim)
        assert f"<@{leader.id}>" not in ping  # the reminder moved on to the next player
        # The next player's hand is too old to be edited: it stayed as it was...
        second = next(m for m in sim.members if f"<@{m.id}>" in ping)
        stale = sim.message(hands[second.id].id)
        assert stale.content == hands[second.id].content
        assert not [b for b in buttons(stale) if verb_of(b) == "play" and not b["disabled"]]
        assert "updates itself for 15 minutes" in stale.content
        # ...and "Show my hand" gives a fresh one with the buttons.
        fresh = await sim.open_hand(second)
        assert [b for b in buttons(fresh) if verb_of(b) == "play" and not b["disabled"]]
        assert not sim.env.errors
