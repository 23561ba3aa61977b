"""The bot restarts while Discord refuses its table edits: what the service committed before
the restart reaches the table after it, without waiting for another move."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.bot.conftest import simulation
from tests.bot.test_game_faults import one_move, table_is_current

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
