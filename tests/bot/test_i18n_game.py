"""A game's messages in the right language: public surfaces (lobby, table, pings, round
summaries) in the server's language, private ones (hands, notes, replies) in each member's
Discord locale, also when a hand is redrawn outside any interaction; and the server's card
theme on the table.

The catalogues are the test's own (``bot.i18n.LOCALES`` pointed at a folder holding a tiny
``de.po`` and ``it.po``) with marked translations ("DE …", "IT …"): what the real catalogues
hold does not matter, and a surface in the wrong language shows the wrong marks.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

import bot.i18n
from bot.cogs.config import GameConfig
from bot.features.hand import HAND_EXPIRY_NOTE
from bot.features.pings import PING_BID_ON_TABLE, PING_TEXTS
from bot.i18n import STANDARD_SUIT_SIGNS, SUIT_SQUARES
from tests.bot.conftest import Sim, buttons, message_text, simulation
from tests.bot.i18n_support import user_locales
from wizard.service import GameInfo
from wizard.state import Phase

pytestmark = pytest.mark.usefixtures("fast_settle")

ENTRIES: dict[str, str] = {
    "Wizard · game {game} · lobby": "{lang} lobby of game {game}",
    "Join": "{lang} join",
    "Start": "{lang} start",
    "Add computer player": "{lang} add computer",
    "Show my hand": "{lang} my hand",
    "Wizard · game {game}": "{lang} game {game}",
    "Turn timer": "{lang} turn timer",
    "Round {round} of {rounds} scored": "{lang} round {round}/{rounds} scored",
    HAND_EXPIRY_NOTE: "{lang} this hand updates itself",
    "You bid {bid}.": "{lang} you bid {bid}.",
    PING_TEXTS[Phase.BID]: "{lang} ping {players} bid {round} {button}",
    PING_TEXTS[Phase.PLAY]: "{lang} ping {players} play {round} {button}",
    PING_BID_ON_TABLE: "{lang} ping {players} bid {round} on the table",
}
"""English → translation, with ``{lang}`` the language's mark (``DE`` or ``IT``)."""


def mark(language: str) -> str:
    return f"«{language.upper()}»"


@pytest.fixture
def catalogues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The test's catalogues instead of the bot's (and no cached texts either side)."""
    folder = tmp_path / "locales"
    folder.mkdir()
    for language in ("de", "it"):
        catalogue = Catalog(locale=language)
        for english, translated in ENTRIES.items():
            # Placeholders other than {lang} stay as they are in the translation.
            catalogue.add(english, translated.replace("{lang}", mark(language)))
        with (folder / f"{language}.po").open("wb") as po:
            write_po(po, catalogue)
    monkeypatch.setattr(bot.i18n, "LOCALES", folder)
    bot.i18n.texts.cache_clear()
    yield
    bot.i18n.texts.cache_clear()


def labels(message: Any) -> list[str]:
    return [str(b.get("label")) for b in buttons(message)]


def public_texts(sim: Sim) -> list[str]:
    """Everything the channel shows to someone outside the game, message by message."""
    return [message_text(m) + "\n" + " ".join(labels(m)) for m in sim.public()]


def in_german(text: str) -> None:
    assert mark("de") in text and mark("it") not in text, text


def in_italian(text: str) -> None:
    assert mark("it") in text and mark("de") not in text, text


@pytest.mark.usefixtures("catalogues")
async def test_public_in_the_servers_language_private_in_the_members(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locales = user_locales(monkeypatch)
    seeds = iter(range(1, 100))
    config = GameConfig(ping_delay=0.0, edit_interval=0.0, seeds=lambda: next(seeds))
    async with simulation(tmp_path, members=2, config=config) as sim:
        bea, ann = sim.members[1], sim.members[0]
        locales[bea] = "it"  # the host speaks Italian; ann keeps SimCord's en-US
        await sim.service.update_settings(sim.guild.id, language="de")
        de, it = mark("de"), mark("it")

        # The lobby: opened by an Italian host, joined by an English member, in German.
        opened = await bea.slash(sim.channel, "wizard new")
        assert opened.response is not None and not opened.ephemeral
        lobby = opened.response
        assert lobby.embeds[0].title == f"{de} lobby of game 1"
        assert f"{de} join" in labels(lobby) and f"{de} start (1/3)" in labels(lobby)
        joined = await ann.click(lobby, label=f"{de} join")
        assert joined.response is not None
        assert joined.response.embeds[0].title == f"{de} lobby of game 1"
        added = await bea.click(lobby, label=f"{de} add computer")
        assert added.response is not None
        assert added.response.embeds[0].title == f"{de} lobby of game 1"
        # Started by the Italian host: the lobby becomes the table, in German.
        started = await bea.click(lobby, label=f"{de} start")
        assert started.response is not None
        table = started.response
        assert (table.embeds[0].title or "").startswith(f"{de} game 1 · ")
        # The first bid is made on the table (open bidding): bids are numbers.
        assert labels(table) == ["0", "1", f"{de} my hand"]

        # Private hands follow each member's locale.
        bea_hand = await sim.open_hand(bea)
        in_italian(bea_hand.content)
        # The hand names the table's button as the table shows it: in the server's language.
        show_hand = f"“{de} my hand”"
        assert "this hand updates itself" in bea_hand.content
        ann_hand = await sim.open_hand(ann)
        expiry = HAND_EXPIRY_NOTE.replace("“{button}”", show_hand)
        assert expiry in ann_hand.content, ann_hand.content
        english = ann_hand.content.replace(show_hand, "")
        assert de not in english and it not in english

        # Every hand the bot draws, in a click's answer or on its own afterwards (a live
        # hand redrawn when the turn comes, outside any interaction), and in which language.
        surfaces = sim.cog.surfaces
        drawn: list[tuple[int, str]] = []
        original = surfaces.hand_parts

        async def hand_parts(
            game_id: int, user_id: int, note: str | None = None, *, t: Any, **more: Any
        ) -> Any:
            drawn.append((user_id, t.language))
            return await original(game_id, user_id, note, t=t, **more)

        monkeypatch.setattr(surfaces, "hand_parts", hand_parts)

        # Round 1, played through the hands' buttons (pings are posted at once).
        rng = random.Random(3)
        info = await sim.service.get_game(1)
        bids = 0
        while not scored(1)(info):
            [mover, *_] = await sim.to_act(1)
            assert info.table is not None
            bidding = info.table.phase is Phase.BID
            result = await sim.act(mover, rng.choice)
            assert result.response is not None
            content = result.response.content
            if bidding:
                # An open bid: the answer is the table, redrawn in public, in German.
                assert not result.response.ephemeral
                assert (result.response.embeds[0].title or "").startswith(f"{de} game 1 · ")
                bids += mover is bea
            elif mover is bea:
                in_italian(content)
            else:
                english = content.replace(show_hand, "")
                assert de not in english and it not in english, content
                assert expiry in content
            info = await sim.service.get_game(1)
        await surfaces.idle()
        assert bids == 1
        assert surfaces.stats.hand_refreshes > 0, "no hand was redrawn outside a click"
        assert {language for user, language in drawn if user == bea.id} == {"it"}
        assert {language for user, language in drawn if user == ann.id} == {"en"}
        for hand_id in sim.all_hands[bea.id]:
            in_italian(sim.message(hand_id).content)

        # Every public message is German: lobby-turned-table, summary, the new table, pings.
        shown = public_texts(sim)
        for text in shown:
            in_german(text)
        assert any(f"{de} round 1/20 scored" in text for text in shown)
        assert any(f"{de} turn timer" in text for text in shown)
        pings = [m for m in sim.public() if m.content.startswith("🔔")]
        assert pings, "a ping was posted"
        for ping in pings:
            assert ping.content.startswith(f"🔔 {de} ping <@")
            assert labels(ping) == [f"{de} my hand"]


def scored(rounds: int) -> Any:
    def until(info: GameInfo) -> bool:
        return info.table is not None and len(info.table.history) >= rounds

    return until


async def test_the_servers_theme_shows_on_the_table(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        await sim.service.update_settings(sim.guild.id, theme="standard")
        info = await sim.lobby(ann, [bob, cy])
        await sim.play(info.id, random.Random(5), until=scored(2))
        await sim.cog.surfaces.idle()
        public = "\n".join(message_text(m) for m in sim.public() if m.embeds)
        hands = "\n".join(sim.message(h).content for hs in sim.all_hands.values() for h in hs)
        for square in SUIT_SQUARES.values():
            assert square not in public and square not in hands
        assert any(suit in public for suit in STANDARD_SUIT_SIGNS.values()), public
        assert any(suit in hands for suit in STANDARD_SUIT_SIGNS.values()), hands
