"""The one translation layer: every text a person reads goes through a :class:`Texts`.

Texts are written in English in the code and looked up, by that English text (gettext's
*msgid*), in one gettext catalogue per language: ``bot/i18n/locales/<language>.po``. The
catalogues are read with Babel and served by the standard library's ``gettext``, so plural
forms follow each language's own rule.

Which language:

* a player's own (ephemeral) messages follow their Discord locale: ``await
  reader_texts(interaction)`` (on a server set to Catalan, which Discord offers no client in,
  members whose Discord is in English or Spanish read Catalan: :func:`reader_language`);
* public messages (lobby, table, summaries) follow the server's setting:
  ``texts(settings.language)``.

Placeholders are named and written the way ``str.format`` reads them::

    t = await reader_texts(interaction)
    t("Round {round} of {rounds}", round=3, rounds=20)
    t.plural("{n} trick", "{n} tricks", n)           # ``n`` is passed to the text too
    t.context("command name", "new")                  # same English, another meaning

A text defined away from where it is shown (a module constant, a label table) is marked with
:func:`N_` so that extraction finds it, and translated where it is shown: ``t(LABEL)``.

Marking texts (what extraction reads, :mod:`bot.i18n.catalogues`):

* a :class:`Texts` instance is always named ``t`` (or used at once: ``texts(locale)("…")``);
  ``check`` refuses another name, whose texts extraction would miss;
* the English text is a string literal, never an f-string, ``+``, ``%`` or ``.format``: the
  values go in as named placeholders, passed by keyword;
* slash command texts are ``locale_str("…")``, and command, group and option names
  ``command_name("new")`` (:mod:`bot.i18n.commands`, whose translator localises them);
* a comment ``# Translators: …`` right above a text is shown to the translators.

The game's own words, shared by every surface, are here too (below :func:`texts`): card and
suit names and emoji, levels, variants, timers, names of players, in the reader's language
and never with a rule id.

The catalogues' workflow, after changing texts in the code::

    python -m bot.i18n update   # extract into wizard.pot, merge into every <language>.po
                                # (translations kept), then list what is left to translate
    python -m bot.i18n check    # only the list; exit status 1 while anything is missing

Translate the listed entries in ``bot/i18n/locales/<language>.po`` (empty ``msgstr``, or
marked ``#, fuzzy``: a guess from a similar text, to check and then unmark), keeping every
``{placeholder}``, until ``check`` is clean. ``tests/bot/test_i18n_catalogues.py`` fails
while the template is stale or a catalogue misses a text, a plural form or a placeholder.
"""

from __future__ import annotations

import gettext
import io
import logging
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, Final

import discord
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from discord.app_commands import locale_str

from wizard.cards import Card, Suit, Theme, card_label, suit_label
from wizard.names import clean_name
from wizard.options import Bidding, Options
from wizard.service import GameService
from wizard.view import TableView

log = logging.getLogger(__name__)

LANGUAGES: Final[tuple[str, ...]] = ("en", "de", "it", "es", "pt", "ca")
"""Languages with a catalogue: English (the source) and those of the seed rule texts."""
LANGUAGE_NAMES: Final[dict[str, str]] = {
    "en": "English",
    "de": "Deutsch",
    "it": "Italiano",
    "es": "Español",
    "pt": "Português",
    "ca": "Català",
}
"""Each language in its own words (settings menus show these untranslated)."""
DEFAULT_LANGUAGE: Final = "en"

LOCALES: Final = Path(__file__).parent / "locales"
"""Where the catalogues live: ``<language>.po``, and the template ``wizard.pot``."""


MINUS: Final = "\u2212"
"""The minus sign of a score below zero (−10), as the rules write it; a hyphen reads as a
dash beside other words."""


def minus(number: str) -> str:
    """``number`` (digits, as written) with a true minus for its hyphen-minus, if it has one.

    >>> minus("-1,500"), minus("20")
    ('−1,500', '20')
    """
    return MINUS + number[1:] if number.startswith("-") else number


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it here."""
    return message


def language_of(locale: object) -> str:
    """The catalogue language for a Discord locale (``"de"``, ``"pt-BR"``, ``es-419``…) or a
    language code; English for anything without a catalogue."""
    spoken = spoken_language(locale)
    return spoken if spoken in LANGUAGES else DEFAULT_LANGUAGE


SPOKEN_INSTEAD: Final[dict[str, frozenset[str]]] = {"ca": frozenset({"en", "es"})}
"""The bot's languages that Discord offers no client in, each with the languages its speakers'
Discord is in instead: a Catalan speaker's Discord speaks Spanish, or English (its default)."""


def reader_language(locale: object, server_language: str) -> str:
    """The language of a reply to one member: their Discord language (``locale``), unless the
    server speaks one that Discord has no client in and theirs is one its speakers use
    instead (a server set to Catalan speaks Catalan to members whose Discord is in English or
    Spanish; a French one gets English, as on any server)."""
    spoken = spoken_language(locale)
    if spoken in SPOKEN_INSTEAD.get(server_language, ()):
        return server_language
    return language_of(spoken)


def spoken_language(locale: object) -> str:
    """The language a Discord ``locale`` is in, whether or not the bot has it (``"pt-BR"`` is
    ``"pt"``, ``"fr"`` stays ``"fr"``): what :func:`reader_language` reads of a member."""
    code = str(getattr(locale, "value", locale) or "").strip().lower().replace("_", "-")
    return code.split("-", 1)[0]


_READER: Final = "wizard_reader_language"
"""Where an interaction keeps its reader's language once known (``interaction.extras``)."""


async def reader_texts(interaction: discord.Interaction[Any]) -> Texts:
    """The texts of a private reply to the member of ``interaction``: their Discord language,
    or their server's where :func:`reader_language` says so (the server's settings as the
    bot's game service has them; the member's alone outside a server, or with no service).

    Found once per interaction: a click asks first, so that what it answers after the
    service's update reads nothing more of the service."""
    language = interaction.extras.get(_READER)
    if language is None:
        language = language_of(interaction.locale)
        service = getattr(interaction.client, "service", None)
        if interaction.guild_id is not None and isinstance(service, GameService):
            try:
                server = (await service.get_settings(interaction.guild_id)).language
            except Exception as error:  # (a closing database): the reply still goes out
                log.warning("a reply in the member's own language: %s", error)
            else:
                language = reader_language(interaction.locale, server)
        interaction.extras[_READER] = language
    return texts(language)


class Texts:
    """The texts of one language."""

    __slots__ = ("_catalogue", "language")

    def __init__(self, language: str, catalogue: gettext.NullTranslations) -> None:
        self.language = language
        self._catalogue = catalogue

    def __call__(self, message: str, /, **params: object) -> str:
        """``message`` in this language, with ``params`` filled in."""
        return self._format(self._catalogue.gettext(message), message, params)

    def plural(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """The form of ``singular``/``plural`` for ``n`` (passed to the text as ``{n}``,
        written the way the language writes numbers: 1,500 in English, 1.500 in German)."""
        params.setdefault("n", self.count(n))
        text = self._catalogue.ngettext(singular, plural, n)
        return self._format(text, singular if n == 1 else plural, params)

    def count(self, n: int) -> str:
        """A whole number as this language writes it (digits grouped from 1,000 on; below
        zero with a true minus, :func:`minus`)."""
        grouped = abs(n) >= 1000
        return minus(format_decimal(n, format="#,##0", locale=self.language) if grouped else str(n))

    def signed(self, n: int) -> str:
        """A change of score, always with its sign: ``+20``, ``−10``."""
        return self.count(n) if n < 0 else "+" + self.count(n)

    def context(self, context: str, message: str, /, **params: object) -> str:
        """``message`` in the sense ``context`` gives it (gettext's ``msgctxt``)."""
        return self._format(self._catalogue.pgettext(context, message), message, params)

    def translated(self, message: str, context: str | None = None) -> str | None:
        """The catalogue's own translation of ``message``, or ``None`` when it has none
        (English, or a text still missing): for Discord's command localisations, where an
        absent translation must stay absent."""
        if self.language == DEFAULT_LANGUAGE:
            return None
        text = (
            self._catalogue.pgettext(context, message)
            if context is not None
            else self._catalogue.gettext(message)
        )
        return None if text == message else text

    def _format(self, text: str, english: str, params: dict[str, object]) -> str:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            # A catalogue naming a placeholder the code does not pass: say so, show English.
            log.error("catalogue %s: bad placeholders in %r", self.language, text)
            return english.format(**params)


@cache
def texts(locale: object = DEFAULT_LANGUAGE) -> Texts:
    """The texts for a Discord locale or language code (see :func:`language_of`)."""
    language = language_of(locale)
    if language != locale:
        return texts(language)
    return Texts(language, _load(language))


def _load(language: str) -> gettext.NullTranslations:
    path = LOCALES / f"{language}.po"
    if language == DEFAULT_LANGUAGE or not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as po:
        catalogue = read_po(po, locale=language.replace("-", "_"))
    buffer = io.BytesIO()
    write_mo(buffer, catalogue)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


# --- the game's words ------------------------------------------------------------------------

SUIT_SQUARES: Final[dict[Suit, str]] = {
    Suit.HUMANS: "🟦",
    Suit.DWARVES: "🟥",
    Suit.ELVES: "🟩",
    Suit.GIANTS: "🟨",
}
"""The classic theme's colour of each suit (R1.2: blue, red, green, yellow)."""


STANDARD_SUIT_EMOJI: Final[dict[Suit, str]] = {
    Suit.HUMANS: "♠\ufe0f",
    Suit.DWARVES: "♥\ufe0f",
    Suit.ELVES: "♦\ufe0f",
    Suit.GIANTS: "♣\ufe0f",
}
"""The standard-deck theme's suit emoji (R1.5): spades, hearts, diamonds, clubs, in their
emoji form (U+FE0F), as a button's emoji must be (Discord refuses a button with any other)."""


STANDARD_SUIT_SIGNS: Final[dict[Suit, str]] = {
    **STANDARD_SUIT_EMOJI,
    Suit.HUMANS: "♠\ufe0e",
    Suit.GIANTS: "♣\ufe0e",
}
"""The standard-deck theme's suit signs in text: hearts and diamonds as red emoji; spades and
clubs in their text form (U+FE0E), drawn in the text's colour (their emoji form is black,
next to invisible on Discord's dark theme)."""


SUIT_NAMES: Final[dict[Theme, dict[Suit, str]]] = {
    Theme.CLASSIC: {
        # Translators: a suit of the Wizard deck (R1.2), blue.
        Suit.HUMANS: N_("Humans"),
        # Translators: a suit of the Wizard deck (R1.2), red.
        Suit.DWARVES: N_("Dwarves"),
        # Translators: a suit of the Wizard deck (R1.2), green.
        Suit.ELVES: N_("Elves"),
        # Translators: a suit of the Wizard deck (R1.2), yellow.
        Suit.GIANTS: N_("Giants"),
    },
    Theme.STANDARD: {
        # Translators: a suit of a standard deck of cards.
        Suit.HUMANS: N_("Spades"),
        # Translators: a suit of a standard deck of cards.
        Suit.DWARVES: N_("Hearts"),
        # Translators: a suit of a standard deck of cards.
        Suit.ELVES: N_("Diamonds"),
        # Translators: a suit of a standard deck of cards.
        Suit.GIANTS: N_("Clubs"),
    },
}
"""Each suit's name (translated where shown)."""


WIZARD_EMOJI: Final = "🧙"


JESTER_EMOJI: Final = "🃏"


COLOUR: Final = discord.Colour(0x5B3FA8)
"""The embeds' accent colour."""


EMPTY: Final = "—"


LEVEL_NAMES: Final[dict[str, str]] = {
    # Translators: a computer player's level (strength).
    "easy": N_("Easy"),
    # Translators: a computer player's level (strength).
    "normal": N_("Normal"),
    # Translators: a computer player's level (strength).
    "hard": N_("Hard"),
    # Translators: a computer player's level (strength): plays at random (tests only).
    "random": N_("Random"),
}
"""The name of each computer level (``wizard.levels.LEVELS``)."""


LEVEL_CHOICES_TEXT: Final[dict[str, str]] = {
    "easy": N_("Easy: plays by simple rules, for learning the game"),
    "normal": N_("Normal: thinks ahead about the cards still out, a good opponent"),
}
"""A level people may choose (``GuildSettings.USER_LEVELS``) with its one-line description,
as commands offer it."""


def level_name(level: str | None, *, t: Texts) -> str:
    """A computer level's name in ``t``'s language (an unknown one as it is stored)."""
    if level is None:
        return ""
    key = LEVEL_NAMES.get(level)
    return t(key) if key is not None else level


def on_off(value: bool, *, t: Texts) -> str:
    """A switch's state in words."""
    # Translators: the state of a switch (a setting or a lobby option).
    return t("on") if value else t("off")


VARIANT_NAMES: Final[dict[str, str]] = {
    "uneven_bids": N_("uneven bids"),
    Bidding.HIDDEN.value: N_("hidden bids"),
    Bidding.SECRET.value: N_("secret bids"),
    "clairvoyance": N_("clairvoyance"),
    "canadian": N_("Canadian rule"),
    "magic_twos": N_("magic twos"),
    "single_suit": N_("single suit"),
}
"""Each variant's name (R7), by option (the bidding modes by their value): words a player
reads, never a rule id."""

VARIANT_ABOUT: Final[dict[str, locale_str]] = {
    "uneven_bids": locale_str("The dealer may not make the bids add up to the tricks"),
    Bidding.HIDDEN.value: locale_str("Everyone bids privately; all bids are shown together"),
    Bidding.SECRET.value: locale_str("Bids stay private until the round is scored"),
    "clairvoyance": locale_str("In round 1 you see everyone's card but your own"),
    "canadian": locale_str(
        "Last round: the only top scorer, bidding last, may not make the bids add up"
    ),
    "magic_twos": locale_str(
        "A 2 (a 3 in the standard deck) played into a trick of its suit wins it"
    ),
    "single_suit": locale_str("3–4 players: everyone plays their own suit deck, 12 rounds"),
}
"""What each variant of :data:`VARIANT_NAMES` does, in a line: the options of ``/wizard
new`` and the entries of the variants' selects (variants QA: the lobby's menu named
"Canadian rule" and "clairvoyance" without a word of what they are)."""


BID_MARKS: Final[dict[Bidding, tuple[str, str]]] = {
    # Translators: on the table, a bid made but kept private until the round is scored (R7.3).
    Bidding.SECRET: ("🔒", N_("secret")),
    # Translators: on the table, a bid made but not shown until all have bid (R7.2).
    Bidding.HIDDEN: ("✔", N_("hidden")),
}
"""The mark of a bid made but not shown yet, by bidding mode."""


def suit_emoji(suit: Suit, theme: Theme = Theme.CLASSIC) -> str:
    """The emoji of a suit, for a button: its colour square (classic) or its suit sign as an
    emoji (standard)."""
    return SUIT_SQUARES[suit] if theme is Theme.CLASSIC else STANDARD_SUIT_EMOJI[suit]


def suit_sign(suit: Suit, theme: Theme = Theme.CLASSIC) -> str:
    """The mark of a suit in text: its colour square (classic) or its suit sign, readable on
    a dark theme (standard: :data:`STANDARD_SUIT_SIGNS`)."""
    return SUIT_SQUARES[suit] if theme is Theme.CLASSIC else STANDARD_SUIT_SIGNS[suit]


def card_emoji(card: Card, theme: Theme = Theme.CLASSIC) -> str:
    """The emoji that marks ``card``: its suit's emoji, 🧙 or 🃏."""
    if card.is_wizard:
        return WIZARD_EMOJI
    if card.is_jester:
        return JESTER_EMOJI
    suit = card.suit
    assert suit is not None
    return suit_emoji(suit, theme)


def card_name(card: Card, *, t: Texts) -> str | None:
    """The word for a Wizard or a Jester in ``t``'s language (``None`` for a suit card):
    players read words, not the rules' initials ``Z`` and ``N`` (German) or ``W`` and ``JE``."""
    if card.is_wizard:
        # Translators: the card (not the game), as it is named on buttons and tables.
        return t.context("card", "Wizard")
    if card.is_jester:
        # Translators: the card, as it is named on buttons and tables.
        return t.context("card", "Jester")
    return None


def card_label_text(card: Card, theme: Theme = Theme.CLASSIC, *, t: Texts) -> str:
    """A card's label without its emoji (hand buttons): ``B7``, ``8♥``, or the name of a
    Wizard or a Jester in ``t``'s language, in both themes."""
    return card_name(card, t=t) or card_label(card, theme)


def card_text(card: Card, theme: Theme = Theme.CLASSIC, *, t: Texts) -> str:
    """``card`` as one short token: ``🟦B7``, ``8♥️``, ``8♠︎``; a Wizard or a Jester by its emoji and
    its name in ``t``'s language (``🧙Wizard``, ``🃏Jester``; ``🧙Zauberer``, ``🃏Narr``) in
    both themes, never by the rules' initials."""
    name = card_name(card, t=t)
    if name is not None:
        return card_emoji(card, theme) + name
    label = card_label(card, theme)
    if theme is Theme.STANDARD:  # "8♠" and its suit sign in the form above
        suit = card.suit
        assert suit is not None
        return label[:-1] + STANDARD_SUIT_SIGNS[suit]
    return card_emoji(card, theme) + label


def cards_text(cards: Iterable[Card], theme: Theme = Theme.CLASSIC, *, t: Texts) -> str:
    """Cards separated by spaces, or a dash when there are none."""
    text = " ".join(card_text(c, theme, t=t) for c in cards)
    return text or EMPTY


def suit_name(suit: Suit, theme: Theme = Theme.CLASSIC, *, t: Texts) -> str:
    """A suit's name as ``Humans (B)`` (its card-code letter too) or ``Spades``."""
    name = t(SUIT_NAMES[theme][suit])
    if theme is Theme.CLASSIC:
        return f"{name} ({suit_label(suit, theme)})"
    return name


def suit_text(suit: Suit, theme: Theme = Theme.CLASSIC, *, t: Texts) -> str:
    """A suit as ``🟦 Humans (B)`` or ``♠️ Spades``."""
    return f"{suit_sign(suit, theme)} {suit_name(suit, theme, t=t)}"


def sort_key(card: Card) -> tuple[int, int]:
    """Hand order: Jesters, then suits B R G Y by rank, then Wizards (weakest to strongest)."""
    if card.is_jester:
        return (0, 0)
    if card.is_wizard:
        return (2, 0)
    return (1, int(card))


def sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """``cards`` in hand order (see :func:`sort_key`)."""
    return tuple(sorted(cards, key=sort_key))


def display_names(table: TableView, names: Sequence[str] | None = None) -> tuple[str, ...]:
    """Seat names safe to put in a message (see :func:`_escape`)."""
    raw = table.players if names is None else tuple(names)
    if len(raw) != len(table.players):
        raise ValueError(f"{len(raw)} names for {len(table.players)} seats")
    return tuple(_escape(raw))


def _bold(text: object) -> str:
    return f"**{text}**"


def variant_names(options: Options, *, t: Texts) -> list[str]:
    """The names of the variants in force (empty for the standard game), in ``t``'s language;
    the same variants as ``Options.describe``, in the same order."""
    return [t(VARIANT_NAMES[key]) for key in options.variants_on().values()]


def _relative(when: float) -> str:
    """A Unix time as a Discord timestamp that every client shows as "in 5 minutes"."""
    return f"<t:{int(when)}:R>"


def duration_text(t: Texts, seconds: float | None) -> str:
    """A turn limit in words, as a clock would say it: "90 seconds", "2 hours",
    "1 hour 1 minute 1 second" (minutes or seconds of a hundred or more are split into
    larger units: 3,661 s once read "3,661 seconds")."""
    whole = round(seconds or 0)
    if whole <= 0:
        return t("no time limit")
    if whole % 3600 == 0:
        return t.plural("{n} hour", "{n} hours", whole // 3600)
    if whole % 60 == 0 and whole < 100 * 60:
        return t.plural("{n} minute", "{n} minutes", whole // 60)
    if whole < 100:
        return t.plural("{n} second", "{n} seconds", whole)
    minutes, second = divmod(whole, 60)
    hour, minute = divmod(minutes, 60)
    parts = [
        t.plural(one, many, n)
        for one, many, n in (
            ("{n} hour", "{n} hours", hour),
            ("{n} minute", "{n} minutes", minute),
            ("{n} second", "{n} seconds", second),
        )
        if n
    ]
    return " ".join(parts)


def timer_text(turn_seconds: float | None, *, t: Texts) -> str:
    """The turn timer in words."""
    if round(turn_seconds or 0) <= 0:
        return t("no turn timer")
    # Translators: {duration} is a time limit, e.g. “2 minutes” or “1 hour 30 seconds”.
    return t("{duration} per turn", duration=duration_text(t, turn_seconds))


def variants_text(options: Options, *, t: Texts) -> str:
    """The variants in force, in words."""
    names = variant_names(options, t=t)
    return ", ".join(names) if names else t("none (the classic game)")


def _escape(names: Iterable[str]) -> list[str]:
    """Names as texts show them: markdown and mentions escaped, and every ``<`` followed by a
    zero-width space, so that a name such as ``<#channel id>`` or ``<t:… :R>`` is not shown
    as a channel link or a date (faults QA)."""
    return [
        discord.utils.escape_mentions(discord.utils.escape_markdown(n)).replace("<", "<\u200b")
        or "?"
        for n in names
    ]


def member_name(display_name: str) -> str:
    """A member's Discord name as a text shows it: cleaned as a seat's name is (no invisible
    direction overrides or zero-width characters), markdown and mentions escaped."""
    return _escape([clean_name(display_name)])[0]
