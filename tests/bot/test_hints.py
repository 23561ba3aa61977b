"""Hints for learners through the bot (issue 11): off by default (no 💡 button, a crafted one
refused), switched on in ``/wizard settings``, the 💡 button's private reply names a legal
move with the trick estimate, and the game is marked on its final standings and not rated."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import card_text, texts
from tests.bot.conftest import buttons, post_buttons, simulation, verb_of
from wizard.cards import Theme
from wizard.service import GameStatus
from wizard.service.ratings import default_rating, ordinal
from wizard.state import Bid, Phase, Play

pytestmark = pytest.mark.usefixtures("fast_settle")


def hint_buttons(message: Any) -> list[dict[str, Any]]:
    return [b for b in buttons(message) if verb_of(b) == "hint"]


async def test_no_hint_button_by_default_and_a_crafted_one_is_refused(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=1, test_buttons=True) as sim:
        (ann,) = sim.members
        info = await sim.lobby(ann, [], computers=2)
        hand = await sim.open_hand(ann)
        assert "Your turn" in str(hand.content)
        assert hint_buttons(hand) == []
        custom_id = f"wiz:{info.id}:hint::{info.version}"
        crafted = await post_buttons(sim, ann, custom_id)
        refused = await ann.click(crafted, custom_id=custom_id)
        assert refused.ephemeral and refused.response is not None
        assert refused.response.content == "🚫 Hints are not allowed on this server."
        assert (await sim.service.get_game(info.id)).hints_used == ()


def legal_texts(sim_view: Any) -> list[str]:
    """What a hint may name for each legal action of ``sim_view``'s seat."""
    t = texts("en")
    out = []
    for action in sim_view.legal:
        if isinstance(action, Bid):
            out.append(f"would bid {action.bid} here.")
        elif isinstance(action, Play):
            out.append(f"would play {card_text(action.card, Theme.CLASSIC, t=t)}.")
    return out


async def test_hints_allowed_in_settings_mark_the_game_and_it_is_not_rated(
    tmp_path: Path,
) -> None:
    async with simulation(tmp_path, members=1) as sim:
        (ann,) = sim.members
        boss = sim.add_manager("boss")
        panel = await boss.slash(sim.channel, "wizard settings")
        assert panel.response is not None
        await boss.click(panel.response, label="Hints: off")
        assert (await sim.service.get_settings(sim.guild.id)).hints_allowed

        info = await sim.lobby(ann, [], computers=5)
        game = info.id
        rng = random.Random(5)
        replies: list[str] = []
        phases: set[Phase] = set()
        # A hint on ann's first turns: while bidding (on the table's buttons) and playing.
        while len(replies) < 4:
            seat_view = await sim.service.seat_view(game, ann.id)
            for _ in range(50):  # the computers move on their own until ann's turn
                if seat_view.view.my_turn:
                    break
                await sim.env.advance_time(1.0)
                seat_view = await sim.service.seat_view(game, ann.id)
            assert seat_view.view.my_turn
            hand = await sim.open_hand(ann)
            [hint] = hint_buttons(hand)
            assert hint["label"] == "Hint" and hint["emoji"]["name"] == "💡"
            result = await ann.click(hand, custom_id=hint["custom_id"])
            assert result.response is not None and result.response.ephemeral
            text = str(result.response.content)
            replies.append(text)
            phases.add(seat_view.view.phase)
            first = text.splitlines()[0]
            assert first.startswith("💡 **Normal** would ")
            assert any(option in first for option in legal_texts(seat_view.view)), first
            expected = re.search(r"win (?:about (\d+\.\d) tricks|no trick) this round\.", first)
            assert expected is not None, first
            assert 0.0 < float(expected.group(1) or 0.1) <= seat_view.view.round_tricks
            assert "not rated" in text
            await sim.act(ann, rng.choice)
        assert {Phase.BID, Phase.PLAY} <= phases
        assert (await sim.service.get_game(game)).hints_used == (0,)

        info = await sim.play(game, rng)
        assert info.status is GameStatus.FINISHED
        [final] = [m for m in sim.public() if m.content.startswith(f"🏁 **Game {game} is over")]
        lines = (final.embeds[0].description or "").splitlines()
        assert "💡 hints used — not rated" in lines
        [mine] = [line for line in lines if "**ann**" in line]
        assert mine.endswith(" 💡")
        assert sum(line.endswith(" 💡") for line in lines) == 1

        # Not rated: ann's rating is where every player starts; the game still counts.
        stats = await sim.service.player_card(sim.guild.id, ann.id)
        assert stats is not None and stats.games == 1
        assert stats.rating == pytest.approx(ordinal(*default_rating()))


async def test_a_hand_opened_after_hints_are_switched_shows_the_new_setting(
    tmp_path: Path,
) -> None:
    """Switched in the panel mid-game, hints show (or go) in the next hand opened, before
    anyone moves: the hand does not keep the settings of the game's last update."""
    async with simulation(tmp_path, members=1) as sim:
        (ann,) = sim.members
        boss = sim.add_manager("boss")
        await sim.lobby(ann, [], computers=2)
        hand = await sim.open_hand(ann)
        assert "Your turn" in str(hand.content)
        assert hint_buttons(hand) == []

        panel = await boss.slash(sim.channel, "wizard settings")
        assert panel.response is not None
        await boss.click(panel.response, label="Hints: off")
        assert (await sim.service.get_settings(sim.guild.id)).hints_allowed
        hand = await sim.open_hand(ann)
        assert len(hint_buttons(hand)) == 1

        panel = await boss.slash(sim.channel, "wizard settings")
        assert panel.response is not None
        await boss.click(panel.response, label="Hints: on")
        assert not (await sim.service.get_settings(sim.guild.id)).hints_allowed
        hand = await sim.open_hand(ann)
        assert hint_buttons(hand) == []


def test_a_hint_that_expects_no_trick_says_so() -> None:
    """Player QA (de): "etwa 0,0 Stiche" ("about 0.0 tricks") read as a precise nothing; an
    estimate that rounds to no trick says "no trick"."""
    from bot.features.hints import hint_text
    from bot.i18n import texts
    from wizard.service import Hint, MakeBid
    from wizard.state import Phase

    none = hint_text(Hint(1, 2, 0, Phase.BID, MakeBid(0), 0.04, 0), t=texts("en"))
    assert "It expects you to win no trick this round." in none, none
    some = hint_text(Hint(1, 2, 0, Phase.BID, MakeBid(0), 0.4, 0), t=texts("en"))
    assert "It expects you to win about 0.4 tricks this round." in some, some
