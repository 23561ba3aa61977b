"""Players' words, not ours (issue 12): Wizards and Jesters named in the reader's language in
both card themes, wherever a card shows (table, summaries, hands and their buttons), never as
the rules' initials; a rating is one number, marked provisional until the server's minimum
number of games, never the model's μ and σ."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from tests.bot.conftest import Sim, buttons, message_text, simulation
from tests.bot.i18n_support import user_locales
from tests.bot.test_community import add_players, field
from wizard.service import GameInfo

pytestmark = pytest.mark.usefixtures("fast_settle")

NAMES = {"en": ("Wizard", "Jester"), "de": ("Zauberer", "Narr")}


def stored_text(stored: Any) -> str:
    parts = [stored.content or ""]
    for embed in stored.embeds:
        parts += [embed.get("title", ""), embed.get("description", "")]
        for f in embed.get("fields", []):
            parts += [f.get("name", ""), f.get("value", "")]
    return "\n".join(parts)


async def play_rounds(
    sim: Sim, rounds: int, seed: int, language: str = "en"
) -> list[dict[str, Any]]:
    """ann and bob against a computer, played by clicks until ``rounds`` rounds are over,
    the table in ``language`` from the first round on; every button of every message a
    player clicked, as it was when clicked."""
    ann, bob = sim.members[:2]
    info = await sim.lobby(ann, [bob], computers=1)
    await sim.service.update_settings(sim.guild.id, language=language)
    rng = random.Random(seed)
    clicked_on: list[dict[str, Any]] = []
    original = sim.act

    async def act(member: Any, _: Any) -> Any:
        def choose(enabled: list[dict[str, Any]]) -> dict[str, Any]:
            assert sim.last_clicked is not None
            clicked_on.extend(buttons(sim.last_clicked))
            return rng.choice(enabled)

        return await original(member, choose)

    sim.act = act  # type: ignore[method-assign]

    def far_enough(game: GameInfo) -> bool:
        return game.table is not None and game.table.round > rounds

    await sim.play(info.id, rng, until=far_enough)
    return clicked_on


def everything_shown(sim: Sim) -> tuple[str, list[dict[str, Any]]]:
    """The text of every message each member sees (public and their hands), and every
    button of them."""
    seen: dict[int, Any] = {}
    for member in sim.members:
        for stored in sim.raw(viewer=member):
            seen[stored.id] = stored
    text = "\n".join(stored_text(s) for s in seen.values())
    return text, [b for s in seen.values() for b in buttons(s)]


@pytest.mark.parametrize(
    ("theme", "language"),
    [("classic", "en"), ("standard", "en"), ("classic", "de"), ("standard", "de")],
)
async def test_wizards_and_jesters_are_named_in_both_themes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, theme: str, language: str
) -> None:
    """R1.5: the themes change how suit cards look; Wizards and Jesters read as words, in
    the server's language on the table and in the player's own in their hand."""
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=2) as sim:
        for member in sim.members:
            locales[member] = "en-US" if language == "en" else language
        await sim.service.update_settings(sim.guild.id, theme=theme)
        clicked_on = await play_rounds(sim, 4, seed=11, language=language)
        text, shown = everything_shown(sim)
        shown += clicked_on
        wizard, jester = NAMES[language]
        # The rounds played hold Wizards and Jesters (turned, played, held).
        assert "🧙" in text and "🃏" in text
        assert re.findall(r"🧙(\S*)", text) and all(
            w == wizard or w.startswith(wizard) for w in re.findall(r"🧙(\S*)", text)
        ), set(re.findall(r"🧙\S*", text))
        jesters = re.findall(r"🃏(\S*)", text)
        assert jesters and all(j.startswith(jester) for j in jesters), set(jesters)
        # No initials anywhere a player looks: 🧙Z 🃏N (classic), 🧙W 🃏JE (standard).
        assert not re.search(r"🧙(?:Z|W)\b|🃏(?:N|JE)\b", text)
        card_buttons = [b for b in shown if str(b.get("custom_id", "")).count(":play:")]
        specials = [b for b in card_buttons if b["custom_id"].split(":")[3] in ("Z", "N")]
        assert specials, "a hand held a Wizard or a Jester in the rounds played"
        for b in specials:
            code = b["custom_id"].split(":")[3]
            name, emoji = (wizard, "🧙") if code == "Z" else (jester, "🃏")
            assert b["label"].split(" ×")[0] == name, b
            assert b["emoji"]["name"] == emoji
        if theme == "standard":
            assert re.search(r"(?:10|[2-9JQKA])[♠♥♦♣]", text)  # suit cards in deck notation


async def test_ratings_are_one_number_provisional_until_the_minimum(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        settings = await sim.service.get_settings(sim.guild.id)
        minimum = settings.rated_min_games
        add_players(sim, {ann.id: 31.0}, games=minimum - 1)
        add_players(sim, {bob.id: 33.0}, games=minimum)
        ann_card = await sim.service.player_card(sim.guild.id, ann.id)
        bob_card = await sim.service.player_card(sim.guild.id, bob.id)
        assert ann_card is not None and bob_card is not None

        before = await cy.slash(sim.channel, "wizard stats", member=ann)
        assert before.response is not None
        rating = field(before.response, "Rating")
        assert rating.startswith(f"≈ **{round(ann_card.rating)}** (provisional)"), rating
        assert "1 more game needed" in rating

        after = await cy.slash(sim.channel, "wizard stats", member=bob)
        assert after.response is not None
        rating = field(after.response, "Rating")
        assert rating.startswith(f"**{round(bob_card.rating)}** · "), rating
        assert "provisional" not in rating and "≈" not in rating

        board = await cy.slash(sim.channel, "wizard leaderboard", order="rating")
        assert board.response is not None
        shown = message_text(board.response)
        assert f"**{round(bob_card.rating)}** · " in shown
        for word in (before.response, after.response, board.response):
            assert not re.search("[μσ]", message_text(word))

        # German: the same number, the mark in words of the language.
        await sim.service.update_settings(sim.guild.id, language="de")
        german = await cy.slash(sim.channel, "wizard stats", member=ann)
        assert german.response is not None
        assert "(vorläufig)" in message_text(german.response)
