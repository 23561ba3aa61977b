"""After a restart of the process (a new service on the same database, a new bot), every button
of a running game still works: the hand's card buttons, the table's "Show my hand", the
lobby's buttons, and the game goes on to its end."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.bot.conftest import SPECTATOR_REFUSED, buttons, hand_body, simulation, verb_of
from wizard.service import GameStatus

pytestmark = pytest.mark.usefixtures("fast_settle")


async def test_restart_in_the_middle_of_a_trick_then_old_buttons(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=4) as sim:
        ann, bob, cy, dee = sim.members
        lobby_info = await sim.new_game(ann)
        lobby = sim.message(sim.raw()[-1].id)
        await bob.click(lobby, label="Join")
        await sim.restart()  # restart while in the lobby: its buttons still work
        await cy.click(lobby, label="Join")
        for _ in range(3):
            await ann.click(lobby, label="Add computer player")
        started = await ann.click(lobby, label="Start")
        assert started.acknowledged and not started.ephemeral
        info = await sim.service.get_game(lobby_info.id)
        assert info.status is GameStatus.ACTIVE and len(info.seats) == 6
        for member in (ann, bob, cy):
            await sim.open_hand(member)

        rng = random.Random(11)
        middle = await sim.play(
            info.id,
            rng,
            until=lambda i: i.table is not None and i.table.round >= 3 and len(i.table.trick) > 0,
        )
        assert middle.table is not None
        [mover] = await sim.to_act(info.id)
        old_hand = sim.hand(mover)
        assert old_hand is not None
        playable = [b for b in buttons(old_hand) if verb_of(b) == "play" and not b["disabled"]]
        assert playable, old_hand.content  # the live hand was redrawn with its buttons
        old_table = sim.table()
        tables_before = {m.id for m in sim.raw()}

        await sim.restart()

        played = await mover.click(old_hand, custom_id=playable[0]["custom_id"])
        assert played.response is not None
        assert hand_body(played.response.content).startswith("✅ You played ")
        after = await sim.service.get_game(info.id)
        assert after.table is not None and after.version > middle.version
        # The table from before the restart is still the table, edited in place.
        assert after.table_message_id == old_table.id
        assert old_table.id in tables_before
        shown = await dee.click(old_table, label="Show my hand")
        assert shown.response is not None
        assert shown.response.content == SPECTATOR_REFUSED

        end = await sim.play(info.id, rng)
        assert end.status is GameStatus.FINISHED
        await sim.final_standings(info.id)
        assert not sim.env.errors
