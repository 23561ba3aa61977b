"""Every word of the rendered surfaces (bot.i18n, bot.features, bot.ui.buttons) comes from
the translation layer.

The proof is a made-up language, :class:`Fullwidth`, whose catalogue turns every Latin letter
of a text into its fullwidth form (``Round {round}`` → ``Ｒｏｕｎｄ {round}``), leaving the
placeholders alone. Rendered in it, with players whose names are written in Greek, the
surfaces may show no Latin letter at all, except card codes (R1.4, R1.5: the same in every
language) and Discord's own markup (timestamps, mentions). A word built outside ``t`` (an
f-string, an engine text such as ``Options.describe``) would show up as plain Latin letters.
The scenarios also render every text these modules mark for translation at least once, so no
branch escapes the check.

English (``texts("en")``) stays the English the tests and players know: a fixed game's
surfaces are compared with their full texts.
"""

from __future__ import annotations

import dataclasses
import gettext
import random
import re
import string
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock

import discord
import pytest

import bot.i18n
from bot.cogs.messages import LeaveStep
from bot.features.hand import (
    HAND_BOT_STOPPED,
    HAND_EXPIRED,
    LEAVE_ASKED,
    hand_message,
    hand_view,
    leave_question,
    replaced_hand_message,
    stopped_hand_message,
    timed_out_move,
    with_leave,
)
from bot.features.hand import LEFT as LEFT_GAME
from bot.features.hints import hint_text
from bot.features.lobby import (
    CANCEL_REASONS,
    COMPUTER_ADDED,
    COMPUTER_REMOVED,
    JOINED,
    LEFT,
    STARTED,
    cancelled_embed,
    cancelled_note,
    damaged_embed,
    invitation_text,
    lobby_embed,
    lobby_view,
)
from bot.features.pings import ping_text
from bot.features.rules import rules_embed, rules_text
from bot.features.seat_notes import (
    back_note,
    handed_over_note,
    left_note,
    removed_note,
    taken_over_text,
)
from bot.features.seats import (
    CHOOSE_SEAT,
    NOT_A_LEAVER,
    PLAYING_OWN_SEAT,
    seat_choice_view,
)
from bot.features.settings_words import variant_choices
from bot.features.summaries import (
    PLAY_AGAIN_LABEL,
    final_embed,
    game_over_line,
    round_end_embed,
    round_summary_embed,
    scorepad_text,
)
from bot.features.table import (
    FORBIDDEN_CANADIAN,
    SHOW_HAND_LABEL,
    TAKE_BACK_LABEL,
    TAKE_SEAT_LABEL,
    NamedBy,
    bids_on_table,
    table_embed,
    table_view,
    trump_line,
    won_trick_text,
)
from bot.i18n import (
    LEVEL_CHOICES_TEXT,
    LEVEL_NAMES,
    Texts,
    catalogues,
    duration_text,
    suit_text,
    texts,
    timer_text,
    variants_text,
)
from bot.ui import buttons
from bot.ui.buttons import CustomId, Verb
from wizard.cards import CARDS, SUITS, WIZARD, Theme, card_label, parse_cards, suit_label
from wizard.options import Bidding, Options
from wizard.rules import apply, legal_actions, new_game
from wizard.service import (
    Hint,
    MakeBid,
    NameTrump,
    PlayCard,
    PlayHiddenCard,
    SeatInfo,
    SeatTakenOver,
)
from wizard.state import Bid, ChooseTrump, Deal, GameState, Phase, Play
from wizard.view import table_view as service_table_view
from wizard.view import view

ROOT = Path(__file__).resolve().parents[2]
CHECKED = (
    "bot/i18n/__init__.py",
    "bot/features/lobby.py",
    "bot/features/table.py",
    "bot/features/hand.py",
    "bot/features/summaries.py",
    "bot/features/pings.py",
    "bot/features/rules.py",
    "bot/features/seats.py",
    "bot/features/seat_notes.py",
    "bot/features/hints.py",
)
"""The modules whose every marked text the scenarios must render (but :data:`NOT_RENDERED`)."""
NOT_RENDERED = frozenset(
    {
        "Already done.",
        "Game {game} · scorepad",
        "Wizard · game {game}",
        "Wizard · game {game} · the record of the game is attached",
        "You are playing your seat again.",
        "You now play this seat: your hand is below.",
        "🔄 This has moved on since that was shown: the table shows the game as it is now.",
    }
)
"""Texts of the features' publishing and clicks (in bot/cogs/surfaces.py and game.py before
the features held them), which the scenarios here do not draw: the game tests show them."""

GREEK = ("Άλφα", "Βήτα", "Γάμμα", "Δέλτα", "Έψιλον", "Ζήτα")
"""Player names without a Latin letter: whatever Latin letter is shown is a word."""
ENGLISH = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")

OPTION_SETS = [
    Options(),
    Options(bidding=Bidding.HIDDEN),
    Options(bidding=Bidding.SECRET),
    Options(clairvoyance=True),
    Options(clairvoyance=True, bidding=Bidding.SECRET),
    Options(magic_twos=True, uneven_bids=True, canadian=True),
    Options(single_suit=True, bidding=Bidding.HIDDEN),
    Options(single_suit=True),
]
DEADLINE = 1_700_000_000.0


# ------------------------------------------------------- the made-up language

_FULLWIDTH = {c: chr(ord(c) + 0xFEE0) for c in string.ascii_letters}


def fullwidth(message: str) -> str:
    """``message`` with the letters of its own words fullwidth, its placeholders unchanged."""
    out = []
    for literal, name, spec, conversion in string.Formatter().parse(message):
        out.append("".join(_FULLWIDTH.get(c, c) for c in literal).replace("{", "{{"))
        out[-1] = out[-1].replace("}", "}}")
        if name is not None:
            out.append(
                "{"
                + name
                + (f"!{conversion}" if conversion else "")
                + (f":{spec}" if spec else "")
                + "}"
            )
    return "".join(out)


class Fullwidth(gettext.NullTranslations):
    """A catalogue translating every text into fullwidth letters, and noting what it was
    asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: set[str] = set()

    def gettext(self, message: str) -> str:
        self.asked.add(message)
        return fullwidth(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        self.asked.update((msgid1, msgid2))
        return fullwidth(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        self.asked.add(message)
        return fullwidth(message)


# Card codes and suit letters: notation, the same in every language (R1.4, R1.5).
_CLASSIC_CARD = r"(?:🟦|🟥|🟩|🟨)[BRGY](?:1[0-3]|[1-9])(?![0-9])|🧙Z|🃏N"
_STANDARD_CARD = r"(?:10|[2-9JQKA])[♠♥♦♣]\ufe0f?|🧙W|🃏JE"
_SUIT_LETTER = r"(?<=[\u3000-\uffef] )\([BRGY]\)"  # “🟦 Ｈｕｍａｎｓ (B)”
_DISCORD_MARKUP = r"<t:\d+:R>|<@!?\d+>"
ALLOWED = re.compile("|".join((_CLASSIC_CARD, _STANDARD_CARD, _SUIT_LETTER, _DISCORD_MARKUP)))
LATIN = re.compile(r"[A-Za-zÀ-ɏ]+")
BUTTON_CODES = (
    {card_label(c, theme) for c in CARDS for theme in Theme}
    | {suit_label(s, theme) for s in SUITS for theme in Theme}
    | {str(n) for n in range(100)}
)


def untranslated(text: str) -> list[str]:
    """The Latin words of ``text`` that are not card codes or Discord markup."""
    return LATIN.findall(ALLOWED.sub(" ", text))


def embed_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for field in embed.fields:
        parts += [field.name or "", field.value or ""]
    return "\n".join(parts)


def take_back_view(game: int, version: int, *, t: Texts) -> discord.ui.View:
    """A hand's "Take my seat back", as the hand draws it."""
    return buttons.one_button_view(
        CustomId(game, Verb.TAKEBACK, "", version), t(TAKE_BACK_LABEL), "🙋"
    )


def play_again_view(game: int, version: int, *, t: Texts) -> discord.ui.View:
    """Final standings' "Play again", as they draw it."""
    return buttons.one_button_view(
        CustomId(game, Verb.AGAIN, "", version), t(PLAY_AGAIN_LABEL), "🔁"
    )


def test_one_button_view_is_one_green_button_with_its_id_label_and_emoji() -> None:
    cid = CustomId(4, Verb.AGAIN, "", 9)
    view = buttons.one_button_view(cid, "Play again", "🔁")
    [item] = view.children
    assert isinstance(item, buttons.GameButton) and item.cid == cid
    assert item.item.label == "Play again" and str(item.item.emoji) == "🔁"
    assert item.item.style is discord.ButtonStyle.success


def labels(ui: discord.ui.View | None) -> list[str]:
    if ui is None:
        return []
    return [item.item.label or "" for item in ui.children]  # type: ignore[attr-defined]


# --------------------------------------------------------------- scenarios


def play_through(
    players: int, options: Options, seed: int, rng_seed: int = 0
) -> Iterator[GameState]:
    rng = random.Random(rng_seed)
    state = new_game(list(GREEK[:players]), options, seed=seed)
    yield state
    while state.phase is not Phase.GAME_OVER:
        state = apply(state, rng.choice(legal_actions(state)))
        yield state


def choosing_trump(names: tuple[str, ...] = GREEK) -> GameState:
    """Round 1, a Wizard turned: the dealer chooses trump."""
    state = new_game(list(names[:3]), Options(), seed=None, first_dealer=1)
    hands = (parse_cards("B1"), parse_cards("R5"), parse_cards("G9"))
    return apply(state, Deal(hands, WIZARD))


def surfaces(t: Texts) -> Iterator[tuple[str, str]]:
    """``(where, text)`` for everything these modules render, over games of every option
    set, both themes and every phase, and the lobby, rules, pings and cancellations."""
    for index, options in enumerate(OPTION_SETS):
        for players in (3, 4, 6):
            if options.single_suit and players > 4:
                continue
            states = play_through(players, options, seed=players + index, rng_seed=index)
            for step, state in enumerate(states):
                over = state.phase is Phase.GAME_OVER
                if step % 3 and not over:
                    continue
                theme = Theme.STANDARD if step % 2 else Theme.CLASSIC
                yield from _game_moment(t, f"{index}/{players}/{step}", state, theme)
    state = choosing_trump()
    yield from _game_moment(t, "choose trump", state, Theme.CLASSIC)
    chosen = apply(state, ChooseTrump(state.dealer, SUITS[2]))
    yield from _game_moment(t, "trump chosen", chosen, Theme.STANDARD)
    # Nobody left to wait for while it is not one's turn (a moment between two updates).
    waiting = dataclasses.replace(view(state, 0), to_act=())
    yield "hand, nobody to act", hand_message(waiting, t=t)
    yield "hand, replaced by a newer one", replaced_hand_message(t=t)
    for why in (HAND_EXPIRED, HAND_BOT_STOPPED):  # redrawn no more: it says so
        yield "hand, stopped", stopped_hand_message(why, t=t, button=t(SHOW_HAND_LABEL))
    for step in LeaveStep:  # asked first, the last person playing that it stops the game
        for label in labels(with_leave(None, 3, t=t, step=step)):
            yield f"hand, leave ({step.name}) button", label
    yield "hand, leave asked", t(LEAVE_ASKED)
    yield "hand, leave asked as the turn came", leave_question(LeaveStep.CONFIRM, t=t, at_turn=True)
    yield "hand, the last person left", t(LEFT_GAME)
    # A computer stands in for seat 0: what it did for the seat this round, in full.
    moves = (ChooseTrump(0, SUITS[1]), Bid(0, 2), Play(0, CARDS[3]), Play(0, CARDS[17]))
    yield "hand, away", hand_message(view(chosen, 0), away=True, t=t, computer_moves=moves)
    yield "table, take back pressed by a player who plays their seat", t(PLAYING_OWN_SEAT)
    yield "table, take back pressed by one never seated", t(NOT_A_LEAVER, button=t(TAKE_BACK_LABEL))
    yield from _lobby_and_rules(t)


def _game_moment(t: Texts, where: str, state: GameState, theme: Theme) -> Iterator[tuple[str, str]]:
    table = service_table_view(state)
    players = len(state.players)
    yield (
        f"{where} table",
        embed_text(table_embed(table, theme=theme, computer={1}, deadline=DEADLINE, t=t)),
    )
    yield (
        f"{where} table with levels",
        embed_text(
            table_embed(
                table,
                theme=theme,
                computer={0, 1},
                levels={0: "hard", 1: "normal"},
                away={0, 1},
                timed_out={2},
                removed={1},
                t=t,
            )
        ),
    )
    yield f"{where} trump line", trump_line(table, table.players, theme, t=t)
    for named_by in NamedBy:  # after a turned Wizard: who named trump
        line = trump_line(table, table.players, theme, t=t, named_by=named_by)
        yield f"{where} trump line, named by {named_by.value}", line
    for seat in range(players):
        pv = view(state, seat)
        yield f"{where} hand {seat}", hand_message(pv, away=seat == 1, theme=theme, t=t)
        # A seat taken over: its bids so far were made by others.
        taken = hand_message(
            pv, theme=theme, bids_not_theirs=range(state.round + 1), helped=True, t=t
        )
        yield f"{where} hand {seat}, taken over", taken
        yield f"{where} hand {seat}, time ran out", timed_out_move(pv, theme, t=t)
        for label in labels(hand_view(pv, 3, 4, theme, t=t, hints=seat == 0)):
            yield f"{where} hand {seat} button", label
    if table.history:
        summary = table.history[-1]
        yield (
            f"{where} round end",
            embed_text(
                round_end_embed(
                    summary,
                    table.players,
                    moved={0, 1},
                    computers={1},
                    people={1},  # who then left: a computer finished the round for them
                    num_rounds=table.num_rounds,
                    last_trick=table.last_trick,
                    last_winner=table.last_winner,
                    history=table.history,
                    theme=theme,
                    t=t,
                    single_suit=table.options.single_suit,
                )
            ),
        )
        yield (
            f"{where} round summary",
            embed_text(
                round_summary_embed(
                    summary,
                    table.players,
                    theme=theme,
                    t=t,
                    single_suit=table.options.single_suit,
                )
            ),
        )
    if state.phase is Phase.GAME_OVER:
        yield f"{where} final", embed_text(final_embed(table, t=t))
        yield f"{where} final image", embed_text(final_embed(table, scorepad_image="x", t=t))
        tied = dataclasses.replace(table, scores=(40,) * players)
        yield f"{where} final tie", embed_text(final_embed(tied, t=t))
        yield f"{where} final hinted", embed_text(final_embed(table, hinted={0}, t=t))
        a, b, c = table.players[:3]
        for won, forfeited in (([a], []), ([], [b]), ([], [b, c]), ([a], [b]), ([a], [b, c])):
            yield f"{where} game over", game_over_line(1, won, forfeited, t=t)
        yield f"{where} game over", game_over_line(1, [], [], t=t)
    yield f"{where} ping", ping_text(["<@1>", "<@2>"], state.phase, state.round, t=t)
    if bids_on_table(table):
        yield (
            f"{where} ping on the table",
            ping_text(["<@1>"], state.phase, state.round, t=t, on_table=True),
        )
    for label in labels(table_view(3, 4, t=t, table=table)):
        yield f"{where} table button", label


def _lobby_and_rules(t: Texts) -> Iterator[tuple[str, str]]:
    seats = [(GREEK[0], False), ("Ωμέγα 1", True), ("@Ωμέγα*", False)]
    for options in OPTION_SETS:
        for seconds in (None, 1, 45, 60, 120):
            lobby = lobby_embed(
                game_id=5,
                seats=seats,
                host_seat=0,
                options=options,
                turn_seconds=seconds,
                max_seats=4 if options.single_suit else 6,
                deadline=DEADLINE if seconds else None,
                t=t,
            )
            yield f"lobby {options} {seconds}", embed_text(lobby)
            for players in (None, 3, 5):
                text = rules_text(options, players=players, turn_seconds=seconds, t=t)
                rules = rules_embed(text, where="", t=t)
                yield f"rules {options} {players} {seconds}", embed_text(rules)
        yield f"variants {options}", variants_text(options, t=t)
    empty = lobby_embed(
        game_id=1, seats=[], host_seat=None, options=Options(), turn_seconds=None, max_seats=6, t=t
    )
    yield "empty lobby", embed_text(empty)
    for level in LEVEL_NAMES:
        leveled = lobby_embed(
            game_id=2,
            seats=seats,
            host_seat=0,
            options=Options(),
            turn_seconds=None,
            max_seats=6,
            levels=[None, level, None],
            lobby_level=level,
            t=t,
        )
        yield f"lobby of level {level}", embed_text(leveled)
    for level, text in LEVEL_CHOICES_TEXT.items():
        yield f"level choice {level}", t(text)
    for reason in (*CANCEL_REASONS, "unknown"):
        yield f"cancelled {reason}", embed_text(cancelled_embed(9, reason, t=t))
        yield f"cancelled {reason}, in a line", cancelled_note(9, reason, t=t)
    yield "damaged", embed_text(damaged_embed(9, t=t))
    for done in (JOINED, LEFT, COMPUTER_ADDED, COMPUTER_REMOVED, STARTED):  # a click refused
        yield f"lobby click done {done}", t(done, game=4)
    yield "canadian bid on the table", t(FORBIDDEN_CANADIAN, player=GREEK[1], bid=3, tricks=10)
    magic = [(0, parse_cards("G9")[0]), (1, WIZARD), (2, parse_cards("G2")[0])]
    yield "magic two", won_trick_text(magic, GREEK[:3], 2, Theme.CLASSIC, t=t, magic_twos=True)
    tie = [(0, parse_cards("R10")[0]), (1, parse_cards("G10")[0])]
    yield (
        "a tie in single suit",
        won_trick_text(tie, GREEK[:2], 0, Theme.CLASSIC, t=t, single_suit=True),
    )
    for phase in Phase:
        yield f"ping {phase}", ping_text(["<@1>"], phase, 3, t=t)
    yield "scorepad, nothing scored", scorepad_text((), GREEK[:3], t=t)
    yield "timer", timer_text(90, t=t)
    yield "timer in hours", timer_text(7200, t=t)
    yield "timer of one hour", timer_text(3600, t=t)
    yield "timer of hours, minutes and seconds", timer_text(3661, t=t)
    yield "no time limit", duration_text(t, None)
    for theme in Theme:
        for suit in SUITS:
            yield f"suit {theme}", suit_text(suit, theme, t=t)
    for name, ui in (
        ("lobby", lobby_view(1, 2, t=t)),
        ("table", table_view(1, 2, t=t)),
        ("take back", take_back_view(1, 2, t=t)),
        ("play again", play_again_view(1, 2, t=t)),
        ("lobby, seat taking off", lobby_view(1, 2, t=t, seat_taking=False)),
        ("lobby, seat taking on", lobby_view(1, 2, t=t, seat_taking=True)),
        ("table, a seat to take", table_view(1, 2, t=t, seatable=TAKE_SEAT_LABEL)),
        ("table, a seat to take back", table_view(1, 2, t=t, seatable=TAKE_BACK_LABEL)),
    ):
        for label in labels(ui):
            yield f"{name} button", label
    yield "play again lobby", invitation_text(8, 7, ["<@1>", "<@2>"], t=t)
    for option in variant_choices(Options(), t=t):
        yield "variants select", f"{option.label}: {option.description}"
    single_uneven = Options(single_suit=True, uneven_bids=True)
    yield "rules, single suit and uneven bids", rules_text(single_uneven, t=t)
    yield from _seats_and_hints(t)


def _seats_and_hints(t: Texts) -> Iterator[tuple[str, str]]:
    """The lobby's seat-taking line, the choice of seats, the channel's notes and hints."""
    for allowed in (False, True):
        lobby = lobby_embed(
            game_id=3,
            seats=[(GREEK[0], False), ("Ωμέγα 1", True)],
            host_seat=0,
            options=Options(),
            turn_seconds=None,
            max_seats=6,
            seat_taking=allowed,
            t=t,
        )
        yield f"lobby, seat taking {allowed}", embed_text(lobby)
    yield "choice of seats", t(CHOOSE_SEAT)
    computer = SeatInfo(1, None, "Ωμέγα", "normal", False, False, 0)
    away = SeatInfo(1, 7, "Ωμέγα", "easy", True, False, 0)
    taken = SeatTakenOver(1, 8, GREEK[1], "Ωμέγα")
    for before in (computer, away, None):
        yield f"seat taken from {before}", taken_over_text(taken, before, t=t)
    yield "a player left", left_note(away, t=t)
    yield "a player came back", back_note(away, t=t)
    yield "the host left", left_note(away, host=computer, t=t)
    for timeouts in (1, 2):
        yield f"a seat handed over after {timeouts} timeouts", handed_over_note(away, timeouts, t=t)
        yield (
            f"a seat open to others handed over after {timeouts} timeouts",
            handed_over_note(away, timeouts, open_to_others=True, t=t),
        )
    yield "the host's time ran out", handed_over_note(away, 2, host=computer, t=t)
    yield "a player removed", removed_note(away, t=t)
    yield "the host removed", removed_note(away, host=computer, t=t)
    removed = SeatInfo(2, 9, "Ωμέγα", "easy", True, True, 0)
    timed_out = SeatInfo(3, 10, "Ωμέγα", "easy", True, False, 2)
    info = SimpleNamespace(id=1, version=2, seats=(away, computer, removed, timed_out))
    for label in labels(seat_choice_view(info, [0, 1, 2, 3], t=t)):  # type: ignore[arg-type]
        yield "seat choice button", label
    moves = (MakeBid(2), NameTrump(SUITS[0]), PlayCard(WIZARD), PlayHiddenCard())
    for move in moves:
        for won in (0, 1, 2):
            hint = Hint(1, 2, 0, Phase.BID, move, 1.6 + won, won)
            yield f"hint {move} {won}", hint_text(hint, t=t)
    yield "hint of no trick", hint_text(Hint(1, 2, 0, Phase.BID, MakeBid(0), 0.0, 0), t=t)


def marked_texts(path: str) -> set[str]:
    """Every English text (singular and plural) marked in the file ``path``."""
    finder = catalogues.find((ROOT / path).read_text("utf-8"), path)
    assert not finder.problems
    out: set[str] = set()
    for marked in finder.marked:
        messages = marked.messages if isinstance(marked.messages, tuple) else (marked.messages,)
        out.update(messages[1:] if marked.function == catalogues.PGETTEXT else messages)
    return out


# ----------------------------------------------------------------- tests


def test_fullwidth_translates_words_and_keeps_placeholders() -> None:
    t = Texts("xx", Fullwidth())
    assert t("Round {round} of {rounds}", round=3, rounds=20) == "Ｒｏｕｎｄ 3 ｏｆ 20"
    assert t.plural("{n} card", "{n} cards", 2) == "2 ｃａｒｄｓ"
    assert t("{points:+d} (x)", points=5) == "+5 (ｘ)"
    assert untranslated("Ｒｏｕｎｄ 3 · 🟦B7 🧙Z 🃏JE 10♥️ <t:5:R> <@12> Άλφα") == []
    assert untranslated("Ｈｕｍａｎｓ (B) · won by") == ["won", "by"]


def test_every_word_of_every_surface_is_translated() -> None:
    catalogue = Fullwidth()
    t = Texts("xx", catalogue)
    leaks: list[tuple[str, list[str], str]] = []
    shown = 0
    for where, text in surfaces(t):
        assert "{" not in text and "}" not in text, (where, text)
        if where.endswith("button"):
            label = text.split(" ×")[0]  # "×2": two copies of a card
            if label in BUTTON_CODES:
                continue  # a bid, a suit card or a suit: numbers and codes (R1.4, R1.5)
        else:
            label = text
        words = untranslated(label)
        if words:
            leaks.append((where[:60], words, text[:300]))
        shown += any(c in text for c in _FULLWIDTH.values())
    assert not leaks, leaks[:5]
    assert shown > 1000  # the check did see translated text
    marked = set().union(*(marked_texts(path) for path in CHECKED)) - NOT_RENDERED
    not_rendered = marked - catalogue.asked
    assert not not_rendered, f"texts the scenarios never rendered: {sorted(not_rendered)}"


def test_button_labels_are_translated() -> None:
    t = Texts("xx", Fullwidth())
    for ui in (lobby_view(1, 2, t=t), table_view(1, 2, t=t), take_back_view(1, 2, t=t)):
        for label in labels(ui):
            assert label and not untranslated(label), label
    # The labels the texts name are the buttons' own.
    lobby = embed_text(
        lobby_embed(
            game_id=1,
            seats=[],
            host_seat=None,
            options=Options(),
            turn_seconds=None,
            max_seats=6,
            t=t,
        )
    )
    join, _, _, start, _, _ = labels(lobby_view(1, 2, t=t))
    assert f"**{join}**" in lobby and f"**{start}**" in lobby
    (show,) = labels(table_view(1, 2, t=t))
    assert f"**{show}**" in rules_text(Options(), t=t)
    assert f"**{show}**" in ping_text(["<@1>"], Phase.BID, 2, t=t)


@pytest.mark.parametrize("language", ["de", "it"])
def test_surfaces_render_in_the_catalogue_languages(language: str) -> None:
    """Whatever the catalogues hold so far, every surface renders, fully filled in."""
    t = texts(language)
    for where, text in surfaces(t):
        assert "{" not in text and "}" not in text, (where, text)


# ------------------------------------------------- replies of the buttons


def _interaction(client: Any, locale: str) -> Any:
    response = SimpleNamespace(is_done=lambda: False, send_message=AsyncMock())
    return SimpleNamespace(
        client=client,
        locale=discord.Locale(locale),
        guild_id=None,
        extras={},
        response=response,
        id=1,
        followup=None,
    )


async def test_button_replies_are_in_the_members_language(monkeypatch: pytest.MonkeyPatch) -> None:
    made_up = Texts("xx", Fullwidth())
    asked: list[object] = []

    def texts_of(locale: object) -> Texts:
        asked.append(locale)
        return made_up

    monkeypatch.setattr(bot.i18n, "texts", texts_of)  # what reader_texts asks
    cid = CustomId(1, Verb.JOIN, "", 1)

    starting = _interaction(SimpleNamespace(), "de")
    await buttons.dispatch_component(starting, cid)
    starting.response.send_message.assert_awaited_once_with(
        fullwidth(buttons.UNAVAILABLE), ephemeral=True
    )

    class Broken:
        async def on_component(self, interaction: Any, cid: CustomId) -> None:
            raise RuntimeError("boom")

    client = SimpleNamespace(component_handler=Broken(), on_error=AsyncMock())
    failing = _interaction(client, "it")
    await buttons.dispatch_component(failing, cid)
    failing.response.send_message.assert_awaited_once_with(
        fullwidth(buttons.FAILED), ephemeral=True
    )
    assert asked == ["de", "it"]


async def test_button_replies_in_english_are_unchanged() -> None:
    interaction = _interaction(SimpleNamespace(), "en-US")
    await buttons.dispatch_component(interaction, CustomId(1, Verb.JOIN, "", 1))
    interaction.response.send_message.assert_awaited_once_with(
        "The game table is not ready yet (the bot is starting up). Try again in a moment.",
        ephemeral=True,
    )


# ------------------------------------------------------------ English


def english_game() -> list[GameState]:
    rng = random.Random(4)
    state = new_game(list(ENGLISH[:4]), Options(), seed=21)
    states = [state]
    while state.phase is not Phase.GAME_OVER:
        state = apply(state, rng.choice(legal_actions(state)))
        states.append(state)
    return states


EXPIRY = (
    "-# This private message updates itself for 15 minutes after you open it or click in it "
    "(Discord's limit); after that, press “Show my hand” on the table for a fresh one."
)


def test_the_timer_of_bids_chosen_at_once_says_it_bids() -> None:
    # Player QA (pt): "o computador joga por quem ainda não jogou" while nobody had played.
    state = new_game(list(ENGLISH[:3]), Options(bidding=Bidding.HIDDEN), seed=21)
    state = apply(state, legal_actions(state)[0])
    assert state.phase is Phase.BID and state.turn is None
    table = table_embed(service_table_view(state), deadline=DEADLINE, t=texts("en"))
    assert (
        "⏰ Time runs out <t:1700000000:R>: then a computer bids for whoever has not bid yet."
        in embed_text(table).split("\n")
    )


def test_english_is_unchanged() -> None:
    t = texts("en")
    states = english_game()
    mid = next(
        s
        for s in states
        if s.phase is Phase.PLAY and s.round == 4 and len(s.played) == 1 and len(s.trick) == 2
    )
    table = table_embed(service_table_view(mid), computer={2}, deadline=DEADLINE, t=t)
    assert embed_text(table).split("\n") == [
        "Wizard · round 4 of 15 (4 tricks)",
        "Turned 🟦B8: trump is 🟦 Humans (B).",
        "⏳ **Ann** to play. Suit to follow: 🟨 Giants (Y).",
        # QA: only the bidder's hand added the bids up.
        "Bids together: 12 for 4 tricks.",
        "",
        "▶️ **Ann** · bid\u00a02 · won\u00a00 · 3\u00a0cards · **−10**\u00a0pts",
        "▫️ **Bob** · 🔀 dealer · bid\u00a04 · won\u00a00 · 3\u00a0cards · **−30**\u00a0pts",
        "▫️ **Cy** 🤖 · bid\u00a02 · won\u00a01 · 2\u00a0cards · **10**\u00a0pts",
        "▫️ **Dee** · bid\u00a04 · won\u00a00 · 2\u00a0cards · **30**\u00a0pts",
        "Variants: none (the classic game)",
        "Current trick",
        "Cy 🟨Y12 · Dee 🧙Wizard → **Dee** is ahead",
        "Last trick",
        "Cy 🟨Y10 · Dee 🟨Y4 · Ann 🟨Y8 · Bob 🟥R9 → won by **Cy**",
        "Turn timer",
        # QA: "for whoever has not acted yet" read as everyone while one player is to act.
        "⏰ Time runs out <t:1700000000:R>: then a computer moves for **Ann**.",
    ]
    assert hand_message(view(mid, 0), t=t).split("\n") == [
        "**Round 4 of 15 · your hand** (3 cards):",
        "🟦B2 🟦B10 🟥R7",
        "Trump: 🟦 Humans (B) · your bid: 2 · tricks won: 0",
        # Who took the trick before, as the table says: the hand is where a player looks.
        "Last trick: Cy 🟨Y10 · Dee 🟨Y4 · Ann 🟨Y8 · Bob 🟥R9 → won by **Cy**",
        # Whose card is ahead, as the table says (QA: a magic two ahead said nothing why).
        "On the table: Cy 🟨Y12 · Dee 🧙Wizard → **Dee** is ahead",
        # QA: without a word more this read as a rule that blocks her, holding no Giants.
        "Suit to follow: 🟨 Giants (Y). You have none: play any card.",
        "**Your turn:** play a card.",
        EXPIRY,
    ]
    assert hand_message(view(mid, 1), away=True, t=t).split("\n") == [
        "🤖 **A computer player is playing your seat.** Press **Take my seat back** to play "
        "again yourself.",
        "**Round 4 of 15 · your hand** (3 cards):",
        "🟦B3 🟥R4 🟩G6",
        "Trump: 🟦 Humans (B) · your bid: 4 · tricks won: 0",
        "Waiting for **Ann**.",
        EXPIRY,
    ]
    # Demo QA: a seat a computer plays has no bid to make on the table.
    bidding = next(s for s in states if s.phase is Phase.BID and s.turn not in (None, 1))
    away = hand_message(view(bidding, 1), away=True, t=t)
    assert "Waiting for **" in away and "buttons on the table" not in away, away
    assert "buttons on the table" in hand_message(view(bidding, 1), t=t)
    scored = next(s for s in states if s.phase is Phase.ROUND_OVER and s.round == 2)
    tv = service_table_view(scored)
    round_end = round_end_embed(
        tv.history[-1],
        tv.players,
        moved=(),
        computers=(),
        num_rounds=tv.num_rounds,
        last_trick=tv.last_trick,
        last_winner=tv.last_winner,
        history=tv.history,
        t=t,
    )
    assert embed_text(round_end).split("\n") == [
        "Round 2 of 15 scored",
        "Dealer **Dee** · turned 🟩G3 · trump 🟩 Elves (G)",
        "",
        "❌ **Ann**: bid 2, won 1 → −10 (total **10**)",
        "❌ **Bob**: bid 1, won 0 → −10 (total **−20**)",
        "❌ **Cy**: bid 0, won 1 → −10 (total **−20**)",
        "✅ **Dee**: bid 0, won 0 → +20 (total **50**)",
        "",
        "**Standings** (✅ bid made, ❌ missed, round by round)",
        "🥇 **Dee** · **50** · ✅✅",
        "🥈 **Ann** · **10** · ✅❌",
        "🥉 **Bob** · **−20** · ❌❌",
        "🥉 **Cy** · **−20** · ❌❌",
        "",
        "Final trick",
        "Cy 🟥R2 · Dee 🟥R7 · Ann 🟩G5 · Bob 🟥R8 → won by **Ann**",
    ]
    final = final_embed(service_table_view(states[-1]), scorepad_image="attachment://x.png", t=t)
    assert embed_text(final).split("\n") == [
        "🏆 Winners: Ann and Dee",
        "🥇 **Ann**: −270 points",
        "🥇 **Dee**: −270 points",
        "🥉 **Bob**: −350 points",
        "4th **Cy**: −400 points",  # English writes its places as it says them
        "",
    ]
    lobby = lobby_embed(
        game_id=5,
        seats=[("Ann", False), ("Bot", True)],
        host_seat=0,
        options=Options(bidding=Bidding.SECRET, clairvoyance=True),
        turn_seconds=120,
        max_seats=6,
        deadline=DEADLINE,
        t=t,
    )
    assert embed_text(lobby).split("\n") == [
        "Wizard · game 5 · lobby",
        "**Players (2 of 3–6):**",
        "1. **Ann** (host)",
        "2. **Bot** (🤖 computer)",
        "",
        "**Variants:** secret bids, clairvoyance",
        "**Timer:** 2 minutes per turn",
        "",
        "Press **Join** to take a seat. The host presses **Start** once 3 to 6 players are in "
        "(add computer players to fill seats).",
        "This lobby closes <t:1700000000:R> unless the game starts.",
        "",
    ]
    rules = rules_text(
        Options(bidding=Bidding.HIDDEN, clairvoyance=True), players=4, turn_seconds=60, t=t
    )
    assert rules.split("\n") == [
        # The letters of the card codes (🟦B12) said once (demo QA: never explained).
        "60 cards: four suits of 1–13 (🟦 Humans (B), 🟥 Dwarves (R), 🟩 Elves (G), 🟨 Giants "
        "(Y)), 4 🧙 Wizards and 4 🃏 Jesters. Round *r* deals *r* cards each (15 rounds for 4 "
        "players). The next card is turned: its suit is trump; a Jester means no trump; a "
        "Wizard lets the dealer choose trump. In the last round no card is left to turn: no "
        "trump.",
        "**Bidding:** everyone chooses at the same time how many tricks they will win, from 0 "
        "to the cards in hand.",
        "**Play:** the player left of the dealer leads the first trick, the winner of a trick "
        "the next. Follow suit if you can: the suit of the trick's first suited card (none if a "
        "Wizard came first); if you cannot, play any card, trump or not. A 🧙 Wizard or a 🃏 "
        "Jester may always be played. The first Wizard wins the trick, else the highest trump, "
        "else the highest card of the suit to follow (only Jesters: the first Jester).",
        "**Scoring:** bid exactly right: 20 + 10 per trick. Otherwise −10 per trick too many or "
        "too few. Highest total after the last round wins; a tie shares the win.",
        "",
        "**Variants in force:**",
        "• Hidden bids: everyone bids privately; all bids are shown together.",
        "• Clairvoyance: in round 1 you see everyone's card but your own.",
        "**Timer:** 1 minute per turn; when it runs out a computer moves for you. After 2 in "
        "a row it plays your seat until you take it back, and a game it finishes for you "
        "counts as lost.",
        "Press **Show my hand** on the table to see your cards and play.",
    ]
    assert ping_text(["<@1>"], Phase.BID, 3, t=t) == (
        "🔔 <@1>: your turn to bid (Wizard, round 3). Press **Show my hand**."
    )
    assert embed_text(cancelled_embed(9, "expired", t=t)).split("\n") == [
        "Wizard · game 9 · cancelled",
        "🛑 Nobody started the game in time, so the lobby closed. No result is recorded.",
        "",
    ]
    assert labels(lobby_view(1, 1, t=t)) == [
        "Join",
        "Leave",
        "Add computer player",
        "Start",
        "Cancel",
        "Remove computer player",
    ]
    assert labels(table_view(1, 1, t=t)) == ["Show my hand"]
    assert labels(take_back_view(1, 1, t=t)) == ["Take my seat back"]
    assert [timer_text(s, t=t) for s in (None, 1, 45, 60, 300)] == [
        "no turn timer",
        "1 second per turn",
        "45 seconds per turn",
        "1 minute per turn",
        "5 minutes per turn",
    ]
