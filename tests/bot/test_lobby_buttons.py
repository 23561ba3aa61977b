"""The lobby's buttons say what can be done: "Add computer player" is disabled once the table
is full, Start until three players are in, each with the count that says why in its label;
both come back as seats change (a click, or a kick by command)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.features.lobby import lobby_view, seat_limit
from bot.i18n import texts
from tests.bot.conftest import buttons, clicks_at_once, simulation
from wizard.options import Options
from wizard.service import GameStatus

pytestmark = pytest.mark.usefixtures("fast_settle")


def lobby_buttons(message: Any) -> dict[str, tuple[str, bool]]:
    """The lobby's buttons by verb: their label, and whether they are disabled."""
    return {
        str(b["custom_id"]).split(":")[2]: (str(b["label"]), bool(b.get("disabled")))
        for b in buttons(message)
    }


async def test_start_waits_for_three_and_add_computer_stops_at_six(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.new_game(ann)
        lobby = sim.message(sim.raw()[-1].id)
        shown = lobby_buttons(lobby)
        assert shown["start"] == ("Start (1/3)", True)
        assert shown["addbot"] == ("Add computer player", False)
        assert shown["join"] == ("Join", False) and shown["cancel"] == ("Cancel", False)
        with pytest.raises(simcord.SetupError, match="disabled"):
            await ann.click(lobby, label="Start (1/3)")  # no one can press it

        await bob.click(lobby, label="Join")
        assert lobby_buttons(sim.message(lobby.id))["start"] == ("Start (2/3)", True)
        await ann.click(lobby, label="Add computer player")
        shown = lobby_buttons(sim.message(lobby.id))
        assert shown["start"] == ("Start", False)
        for seats in (4, 5):
            await ann.click(lobby, label="Add computer player")
            now = sim.message(lobby.id)
            assert lobby_buttons(now)["addbot"] == ("Add computer player", False)
            assert f"Players ({seats} of 3–6)" in (now.embeds[0].description or "")
        await ann.click(lobby, label="Add computer player")
        shown = lobby_buttons(sim.message(lobby.id))
        assert shown["addbot"] == ("Add computer player (6/6)", True)
        assert shown["start"] == ("Start", False)
        with pytest.raises(simcord.SetupError, match="disabled"):
            await ann.click(lobby, label="Add computer player (6/6)")

        # A seat frees up: the button is back.
        await bob.click(lobby, label="Leave")
        assert lobby_buttons(sim.message(lobby.id))["addbot"] == ("Add computer player", False)
        await ann.click(lobby, label="Add computer player")
        started = await ann.click(lobby, label="Start")
        assert started.acknowledged and not started.ephemeral
        assert (await sim.service.get_game(info.id)).status is GameStatus.ACTIVE


async def test_single_suit_is_full_at_four(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        await sim.new_game(ann, single_suit=True)
        lobby = sim.message(sim.raw()[-1].id)
        for _ in range(3):
            await ann.click(lobby, label="Add computer player")
        shown = lobby_buttons(sim.message(lobby.id))
        assert shown["addbot"] == ("Add computer player (4/4)", True)
        assert shown["start"] == ("Start", False)


async def test_join_in_a_full_lobby_takes_a_computer_s_seat_only_where_the_host_allows(
    tmp_path: Path,
) -> None:
    # QA: "Join" stayed pressable in a full lobby and answered "This game is full". It is
    # disabled there, with its count, unless the host lets people take computer seats: then
    # a person takes the last computer's seat, until people fill the table.
    async with simulation(tmp_path, members=5) as sim:
        ann, bob, cy, dee, eve = sim.members
        await sim.new_game(ann, single_suit=True)
        lobby = sim.message(sim.raw()[-1].id)
        for _ in range(3):
            await ann.click(lobby, label="Add computer player")
        assert lobby_buttons(sim.message(lobby.id))["join"] == ("Join (4/4)", True)
        switch = next(
            str(b["label"])
            for b in buttons(sim.message(lobby.id))
            if "computer seats" in b["label"]
        )
        await ann.click(lobby, label=switch)
        assert lobby_buttons(sim.message(lobby.id))["join"] == ("Join", False)
        joined = await bob.click(lobby, label="Join")
        assert joined.acknowledged
        players = sim.message(lobby.id).embeds[0].description or ""
        assert "bob" in players and "Morgana" in players and "Nimue" not in players, players
        for member in (cy, dee):
            await member.click(lobby, label="Join")
        assert lobby_buttons(sim.message(lobby.id))["join"] == ("Join (4/4)", True)
        with pytest.raises(simcord.SetupError, match="disabled"):
            await eve.click(lobby, label="Join (4/4)")


async def test_a_kick_from_the_lobby_redraws_its_buttons(tmp_path: Path) -> None:
    """A change no click answers (``/wizard kick``) redraws the buttons with the embed."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        await sim.new_game(ann)
        lobby = sim.message(sim.raw()[-1].id)
        await bob.click(lobby, label="Join")
        await cy.click(lobby, label="Join")
        assert lobby_buttons(sim.message(lobby.id))["start"] == ("Start", False)
        kicked = await ann.slash(sim.channel, "wizard kick", player=cy)
        assert kicked.acknowledged
        after = sim.message(lobby.id)
        assert "cy" not in (after.embeds[0].description or "")
        assert lobby_buttons(after)["start"] == ("Start (2/3)", True)


def test_the_limits_come_from_the_engine() -> None:
    assert seat_limit(Options()) == 6
    assert seat_limit(Options(single_suit=True)) == 4
    t = texts("de")
    labels = {
        str(c["custom_id"]).split(":")[2]: (c["label"], c.get("disabled", False))
        for row in lobby_view(1, 1, t=t, players=6, max_seats=6).to_components()
        for c in row["components"]
    }
    assert labels["addbot"][1] is True and labels["addbot"][0].endswith("(6/6)")
    assert labels["addbot"][0] != "Add computer player (6/6)"  # translated
    # Without the seat count (an old caller), nothing is disabled.
    plain = lobby_view(1, 1, t=t).to_components()
    assert not any(c.get("disabled") for row in plain for c in row["components"])


async def test_leave_clicked_in_the_lobby_as_the_game_starts_does_not_hand_the_seat_over(
    tmp_path: Path,
) -> None:
    """QA (it): bob's "Leave" in the lobby, reaching the bot just after the host's "Start",
    handed his seat in the running game to a computer without a word of asking, where the
    hand's own Leave asks first. He is told the game has started; he plays on."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.new_game(ann)
        lobby_id = sim.raw()[-1].id
        for member in (bob, cy):
            await member.click(sim.message(lobby_id), label="Join")
        ids = _custom_ids(sim.message(lobby_id))
        start, leave = await clicks_at_once(
            sim, [(ann, lobby_id, ids["start"]), (bob, lobby_id, ids["leave"])]
        )
        assert start.acknowledged and leave.acknowledged
        game = await sim.service.get_game(info.id)
        assert game.status is GameStatus.ACTIVE
        assert not game.seats[1].away, "bob's seat went to a computer"
        assert leave.response is not None and leave.response.ephemeral
        assert leave.response.content == "ℹ️ " + texts("en")("This game has already started.")


def _custom_ids(message: Any) -> dict[str, str]:
    return {str(b["custom_id"]).split(":")[2]: str(b["custom_id"]) for b in buttons(message)}


async def test_the_host_removes_a_computer_added_too_many(tmp_path: Path) -> None:
    """QA: the lobby could add computers but not remove one (its button only changed the
    level, and /wizard kick takes members): "Remove computer player" takes the last one off,
    once per click however often it is pressed, and only for the host."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        await sim.new_game(ann)
        lobby = sim.message(sim.raw()[-1].id)
        assert lobby_buttons(lobby)["dropbot"] == ("Remove computer player", True)
        for _ in range(3):
            await ann.click(lobby, label="Add computer player")
        await bob.click(lobby, label="Join")
        shown = sim.message(lobby.id)
        assert lobby_buttons(shown)["dropbot"] == ("Remove computer player", False)
        refused = await bob.click(shown, label="Remove computer player")
        assert refused.response is not None
        assert refused.response.content == "🚫 Only the host can remove computer players. Ask ann."
        [drop] = [b for b in buttons(shown) if ":dropbot:" in str(b["custom_id"])]
        await clicks_at_once(sim, [(ann, lobby.id, str(drop["custom_id"]))] * 2)  # a double click
        info = await sim.service.game_in_channel(sim.channel.id)
        assert info is not None
        assert [s.name for s in info.seats] == ["ann", "Merlin", "Morgana", "bob"]
        assert "Nimue" not in (sim.message(lobby.id).embeds[0].description or "")
        for _ in range(2):
            await ann.click(sim.message(lobby.id), label="Remove computer player")
        after = sim.message(lobby.id)
        assert lobby_buttons(after)["dropbot"] == ("Remove computer player", True)
        assert [s.name for s in (await sim.service.get_game(info.id)).seats] == ["ann", "bob"]
        assert not sim.env.errors
