"""Computer levels through the bot (issue 11): chosen with ``/wizard new``, the lobby's level
buttons and ``/wizard settings``; shown in the lobby and on the table; and, at the settings a
new server gets, five computers added by the lobby's button play a sound game."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from bot.features.lobby import next_level
from bot.features.table import table_embed_of
from bot.i18n import texts
from tests.bot.conftest import buttons, message_text, record_file, simulation
from tests.bot.test_game_refusals import private
from wizard.cards import Theme
from wizard.record import load, replay
from wizard.service import GameStatus

pytestmark = pytest.mark.usefixtures("fast_settle")


def level_buttons(message: Any) -> dict[str, str]:
    """The lobby's level buttons: label → custom id."""
    return {
        str(b["label"]): str(b["custom_id"])
        for b in buttons(message)
        if str(b["custom_id"]).split(":")[2] == "level"
    }


def description(message: Any) -> str:
    return message.embeds[0].description or ""


async def test_new_takes_a_level_the_lobby_adds_and_the_host_changes(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.new_game(ann, computer_level="easy")
        assert info.computer_level == "easy"
        lobby = sim.message(sim.raw()[-1].id)
        assert "**New computer players:** Easy" in description(lobby)
        await ann.click(lobby, label="Add computer player")
        lobby = sim.message(lobby.id)
        assert "**Merlin** (🤖 computer, Easy)" in description(lobby)
        assert list(level_buttons(lobby)) == ["Merlin: Easy"]

        # The button moves the computer on: Easy → Normal → Easy → Normal.
        await ann.click(lobby, label="Merlin: Easy")
        lobby = sim.message(lobby.id)
        assert "**Merlin** (🤖 computer, Normal)" in description(lobby)
        await ann.click(lobby, label="Merlin: Normal")
        lobby = sim.message(lobby.id)
        assert list(level_buttons(lobby)) == ["Merlin: Easy"]
        await ann.click(lobby, label="Merlin: Easy")
        lobby = sim.message(lobby.id)
        seats = (await sim.service.get_game(info.id)).seats
        assert [s.level for s in seats] == [None, "normal"]

        # Only the host changes levels; the lobby's level still adds Easy computers.
        await bob.click(lobby, label="Join")
        refused = await bob.click(sim.message(lobby.id), label="Merlin: Normal")
        assert refused.ephemeral
        # What bob tried, not another thing ("Only the host can add computer players").
        assert private(refused) == (
            "🚫 Only the host can change the level of computer players. Ask ann."
        )
        await ann.click(sim.message(lobby.id), label="Add computer player")
        lobby = sim.message(lobby.id)
        assert list(level_buttons(lobby)) == ["Merlin: Normal", "Morgana: Easy"]

        # The buttons work after a restart (restart-proof custom ids).
        await sim.restart()
        await ann.click(sim.message(lobby.id), label="Morgana: Easy")
        seats = (await sim.service.get_game(info.id)).seats
        assert [s.level for s in seats] == [None, "normal", None, "normal"]


async def test_hard_is_not_offered_until_it_is_stronger(tmp_path: Path) -> None:
    """``hard`` has not beaten ``normal`` in duplicate matches (docs/ai-strength.md): no
    choice, button or panel offers it."""
    from bot.features.settings import LEVEL_CHOICES

    assert [c.value for c in LEVEL_CHOICES] == ["easy", "normal"]
    assert next_level("normal") == "easy" and next_level("hard") == "easy"


async def test_level_names_are_translated(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        boss = sim.add_manager("boss")
        await boss.slash(sim.channel, "wizard settings", language="de")
        await sim.new_game(ann, computer_level="easy")
        lobby = sim.message(sim.raw()[-1].id)
        await ann.click(lobby, label=texts("de")("Add computer player"))
        lobby = sim.message(lobby.id)
        assert "Leicht" in description(lobby)
        assert "Merlin: Leicht" in level_buttons(lobby)


async def test_settings_choose_the_servers_level(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        guild = sim.guild.id
        assert (await sim.service.get_settings(guild)).computer_level == "normal"
        boss = sim.add_manager("boss")
        shown = await boss.slash(sim.channel, "wizard settings", computer_level="easy")
        assert shown.ephemeral and shown.response is not None
        assert "Computer players: Easy" in message_text(shown.response)
        assert (await sim.service.get_settings(guild)).computer_level == "easy"
        # The panel's button moves on to the next level.
        clicked = await boss.click(shown.response, label="Computer players: Easy")
        assert clicked.acknowledged
        assert (await sim.service.get_settings(guild)).computer_level == "normal"
        # A new lobby takes the server's level.
        info = await sim.new_game(ann)
        assert info.computer_level == "normal"
        lobby = sim.message(sim.raw()[-1].id)
        assert "**New computer players:** Normal" in description(lobby)


async def test_the_table_marks_computer_seats_with_their_level(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], computers=1, computer_level="easy")
        table = sim.table_of(info)
        assert "**Merlin** 🤖 Easy" in description(table)
        # Bob walks away: a computer of the game's level plays his seat, and the table says so.
        after = await sim.service.leave(info.id, bob.id)
        text = table_embed_of(after, t=texts("en"), theme=Theme.CLASSIC).description or ""
        assert "**bob** 🤖 played by a computer (Easy)" in text
        assert "**ann**" in text and "**ann** 🤖" not in text


async def test_five_default_computers_play_a_sound_game(tmp_path: Path) -> None:
    """At the settings a new server gets: ann and five computers from the lobby's button.
    Before issue 11 (``random``) computers missed their bids by ~2.9 tricks a round and
    ended near −150."""
    began = time.monotonic()
    async with simulation(tmp_path, members=1, seed=11) as sim:
        [ann] = sim.members
        info = await sim.lobby(ann, [], computers=5)
        assert [s.level for s in info.seats] == [None, *["normal"] * 5]
        end = await sim.play(info.id, random.Random(3))
        assert end.status is GameStatus.FINISHED
        final = [m for m in sim.public() if m.content.startswith(f"🏁 **Game {info.id} is over")]
        state = replay(load((await record_file(final[0]).read()).decode()))
    misses = [abs(r.bids[s] - r.tricks[s]) for r in state.history for s in range(1, 6)]
    mean_miss = sum(misses) / len(misses)
    mean_score = sum(state.scores[1:]) / 5
    print(
        f"\nnormal ×5 (seed 11): mean |bid − tricks| {mean_miss:.2f}, mean final score"
        f" {mean_score:.1f}, scores {list(state.scores)}, {time.monotonic() - began:.0f} s"
    )
    assert mean_miss <= 1.0
    assert mean_score > 0
