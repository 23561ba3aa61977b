"""The bot restarts while Discord refuses its table edits: what the service committed before
the restart reaches the table after it, without waiting for another move."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.bot.conftest import simulation
from tests.bot.test_game_faults import one_move, table_is_current
from wizard.service import GameStatus
from wizard.state import Phase

pytestmark = pytest.mark.usefixtures("fast_settle")


async def test_a_move_the_table_missed_shows_after_a_restart(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], bidding="hidden")
        # Discord refuses every table edit until the process goes away (an outage, or the
        # process dies before its retry): a hidden bid counts, the table does not show it.
        sim.env.inject_error(
            "PATCH", f"/channels/{sim.channel.id}/messages/*", status=503, times=None
        )
        await one_move(sim, info.id, random.Random(1))
        sim.env.backend.faults.clear()
        await sim.restart()
        # Nobody moves: the next one to bid must still see on the table that a bid was made.
        await sim.env.advance_time(60)
        await table_is_current(sim, info.id)


@pytest.mark.parametrize("end", ["round", "game"])
async def test_a_round_or_game_end_discord_never_got_is_shown_after_a_restart(
    tmp_path: Path, end: str
) -> None:
    """QA: the process stopped after a round's (or the game's) last card, before Discord took
    the summary (an outage, or the edits still on their way). The round was committed, but
    nothing in memory survives a restart: its summary never came, the next table was drawn
    over the old one, and a finished game's table showed it running, with no standings.
    How many rounds the channel was shown is stored; a new process shows the rest."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        rng = random.Random(5)
        last = 2 if end == "round" else info.table.num_rounds if info.table else 0
        await sim.play(info.id, rng, until=lambda i: bool(i.table and i.table.round == last))
        await sim.play(info.id, rng, until=lambda i: bool(i.table and i.table.phase is Phase.PLAY))
        sim.env.inject_error("*", f"/channels/{sim.channel.id}/messages*", status=503, times=None)
        after = await sim.play(
            info.id, rng, until=lambda i: i.table is None or i.table.round != last
        )
        sim.env.backend.faults.clear()
        await sim.restart()  # no retry got through before the process stopped
        await sim.env.advance_time(sim.config.retry_after + 1)
        titles = [m.embeds[0].get("title") for m in sim.raw() if m.embeds]
        scored = [t for t in titles if t and t.startswith(f"Round {last} of ") and "scored" in t]
        assert len(scored) == 1, titles
        if end == "game":
            assert after.status is GameStatus.FINISHED
            await sim.final_standings(info.id)
        else:
            await table_is_current(sim, info.id)
            assert (await sim.play(info.id, rng)).status is GameStatus.FINISHED
        # Every round's summary, once each: none lost, none posted twice.
        rounds = (await sim.service.get_game(info.id)).table
        assert rounds is not None
        titles = [m.embeds[0].get("title") or "" for m in sim.raw() if m.embeds]
        for number in range(1, rounds.num_rounds + 1):
            heading = f"Round {number} of {rounds.num_rounds} scored"
            assert sum(t.startswith(heading) for t in titles) == 1, (number, titles)
        assert not sim.env.errors
