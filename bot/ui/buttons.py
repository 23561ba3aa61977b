"""Restart-proof buttons: the custom ids of the game's buttons (and of the lobby's selects)
and the one ``DynamicItem`` that routes them (:class:`GameButton`), with no game logic in it.

A game button's custom id is ``wiz:{game}:{verb}:{arg}:{version}`` (at most 100 characters);
a select's is the same, and the values picked come with the click
(:func:`chosen_values`).

A custom id carries everything a click needs, so a button works after a restart with no
view kept in memory (DESIGN.md, "One click, end to end"):

- ``game``: the game's id (a positive integer, as the service numbers games);
- ``verb``: what the button does (:class:`Verb`);
- ``arg``: the verb's argument: a bid (``0``…``99``), a card code (``B7``, ``Z``, ``N``),
  a suit letter (``B``, ``R``, ``G``, ``Y``), or empty;
- ``version``: the game's version when the button was drawn, so that a click on an old
  surface can be told apart from a click on the current one.

>>> CustomId(12, Verb.PLAY, "B7", 40).format()
'wiz:12:play:B7:40'
>>> CustomId.parse("wiz:12:bid:3:41").bid
3

A click's custom id is parsed once (:meth:`CustomId.parse`) and handed, as a
:class:`CustomId`, to the one :class:`ComponentHandler` the bot holds in
``bot.component_handler`` (the game cog provides it), which dispatches on the verb. The item
only routes: it never touches the service, so a restart loses nothing and every click takes
the same path. Its template matches every ``wiz:`` id, so an id no current verb understands
(a button of an older bot) is answered here too, with :data:`OUTDATED`.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, Protocol, Self, runtime_checkable

import discord

from bot.discord_faults import (
    ALREADY_ACKNOWLEDGED,
    DISCORD_FAILED,
    DiscordFailure,
    discords_own,
    failure_text,
)
from bot.i18n import N_, reader_texts
from bot.ui.layout import BLUE, GREEN, GREY, MAX_ROWS, even_width
from wizard.cards import Card, Suit

PREFIX: Final = "wiz"
MAX_LENGTH: Final = 100
"""Discord's limit on a component's custom id."""
MAX_ID: Final = 2**63 - 1
"""Largest game id or version: SQLite's largest integer."""
MAX_BID: Final = 99


class Verb(StrEnum):
    """What a button does."""

    JOIN = "join"
    """Lobby: take a seat."""
    LEAVE = "leave"
    """Lobby: give up one's seat. Hand: hand one's seat to a computer; ``arg`` ``1``: even as
    the last person playing, which stops the game (asked first, without it)."""
    ADDBOT = "addbot"
    """Lobby: add a computer player."""
    DROPBOT = "dropbot"
    """Lobby (host): remove the last computer player, unless ``arg`` computers or fewer are
    left already (the count the lobby showed, less one: a double click removes one)."""
    START = "start"
    """Lobby (host): start the game."""
    CANCEL = "cancel"
    """Lobby (host): cancel the game. ``arg`` ``y`` or ``n``: the answer to ``/wizard
    cancel``'s private question about a running game (cancel it, or keep playing)."""
    HAND = "hand"
    """Table: open one's hand in a private (ephemeral) message."""
    BID = "bid"
    """Hand: bid ``arg`` tricks."""
    PLAY = "play"
    """Hand: play the card ``arg``."""
    TRUMP = "trump"
    """Hand (dealer, after a turned Wizard): choose the suit ``arg`` as trump."""
    PLAYHIDDEN = "playhidden"
    """Hand, round 1 under clairvoyance (R7.4): play one's own card, unseen."""
    TAKEBACK = "takeback"
    """Hand: play one's own seat again after a computer player held it."""
    AGAIN = "again"
    """Final standings: a new lobby in the same place, with the same options and computers,
    the people of the finished game ``game`` invited."""
    LEVEL = "level"
    """Lobby (host): set the computer in seat ``arg[0]`` to the level ``arg[1]`` (see
    :data:`LEVEL_CODES`)."""
    SEATTAKING = "seattaking"
    """Lobby (host): let people who are not seated take computer seats (``arg`` ``1``) or
    not (``0``); the custom id holds the value it sets, so a double click sets it once."""
    TAKESEAT = "takeseat"
    """Table: take a computer's seat (one's own back, the only one open, or a choice);
    with ``arg`` (a 0-based seat), from the private choice of seats: that seat."""
    HINT = "hint"
    """Hand (servers that allow hints): what the ``normal`` computer would do now."""
    OPTIONS = "options"
    """Lobby (host), a select: the variants picked are the game's (the values, not ``arg``)."""
    TIMER = "timer"
    """Lobby (host), a select: the turn timer picked, in seconds (``0``: none)."""


_NUMBER = r"0|[1-9][0-9]{0,18}"
_POSITIVE = r"[1-9][0-9]{0,18}"
_CARD = r"[BRGY](?:[1-9]|1[0-3])|Z|N"
_SUIT = r"[BRGY]"
_BID = r"0|[1-9][0-9]?"
_LEVEL = r"[0-5][enh]"
_SWITCH = r"[01]"
_SEAT = r"[0-5]?"
_LEAVE = r"[yn1]?"
"""A hand's Leave: asks (empty), confirmed (``y``), confirmed by the last person playing, which
stops the game (``1``), or not after all (``n``): ``bot.cogs.messages.LeaveStep``."""

LEVEL_CODES: Final[dict[str, str]] = {"e": "easy", "n": "normal", "h": "hard"}
"""The one-letter code of each level a person may choose, in a ``level`` custom id."""

ARG_PATTERNS: Final[dict[Verb, str]] = {
    Verb.JOIN: "",
    Verb.LEAVE: _LEAVE,
    Verb.ADDBOT: "",
    Verb.DROPBOT: r"[0-5]",
    Verb.START: "",
    Verb.CANCEL: r"[yn]?",
    Verb.HAND: "",
    Verb.BID: _BID,
    Verb.PLAY: _CARD,
    Verb.TRUMP: _SUIT,
    Verb.PLAYHIDDEN: "",
    Verb.TAKEBACK: "",
    Verb.AGAIN: "",
    Verb.LEVEL: _LEVEL,
    Verb.SEATTAKING: _SWITCH,
    Verb.TAKESEAT: _SEAT,
    Verb.HINT: "",
    Verb.OPTIONS: "",
    Verb.TIMER: "",
}
"""The argument each verb takes, as a regular expression (empty: no argument)."""


def template(verb: Verb | None = None) -> str:
    """The regular expression matching the custom ids of ``verb`` (of every verb if ``None``).

    Named groups: ``game``, ``verb``, ``arg``, ``version``.
    """
    if verb is None:
        verbs = "|".join(v.value for v in Verb)
        arg = "|".join(sorted({p for p in ARG_PATTERNS.values() if p}))
        arg_group = f"(?P<arg>(?:{arg})?)"
    else:
        verbs = verb.value
        pattern = ARG_PATTERNS[verb]
        arg_group = f"(?P<arg>{pattern})" if pattern else "(?P<arg>)"
    return f"{PREFIX}:(?P<game>{_POSITIVE}):(?P<verb>{verbs}):{arg_group}:(?P<version>{_NUMBER})"


_ANY: Final = re.compile(template())
_BY_VERB: Final = {v: re.compile(template(v)) for v in Verb}


class CustomIdError(ValueError):
    """A string that is not one of the bot's custom ids, or values that cannot make one."""


@dataclass(frozen=True, slots=True)
class CustomId:
    """One button's custom id, parsed; immutable and validated on creation."""

    game: int
    verb: Verb
    arg: str = ""
    version: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.game, bool) or not isinstance(self.game, int):
            raise CustomIdError(f"game id must be an int, not {type(self.game).__name__}")
        if not 1 <= self.game <= MAX_ID:
            raise CustomIdError(f"game id must be between 1 and {MAX_ID}, not {self.game}")
        if isinstance(self.version, bool) or not isinstance(self.version, int):
            raise CustomIdError(f"version must be an int, not {type(self.version).__name__}")
        if not 0 <= self.version <= MAX_ID:
            raise CustomIdError(f"version must be between 0 and {MAX_ID}, not {self.version}")
        if not isinstance(self.verb, Verb):
            try:
                object.__setattr__(self, "verb", Verb(self.verb))
            except ValueError:
                raise CustomIdError(f"unknown verb {self.verb!r}") from None
        if not isinstance(self.arg, str):
            raise CustomIdError(f"arg must be a str, not {type(self.arg).__name__}")
        pattern = ARG_PATTERNS[self.verb]
        if not re.fullmatch(pattern, self.arg):
            wanted = f"matching {pattern!r}" if pattern else "empty"
            raise CustomIdError(f"arg of {self.verb.value!r} must be {wanted}, not {self.arg!r}")

    def format(self) -> str:
        """The custom id as sent to Discord."""
        text = f"{PREFIX}:{self.game}:{self.verb.value}:{self.arg}:{self.version}"
        assert len(text) <= MAX_LENGTH, text  # bounded by construction: at most 55 characters
        return text

    def __str__(self) -> str:
        return self.format()

    @classmethod
    def parse(cls, text: str) -> CustomId:
        """The custom id ``text``; :class:`CustomIdError` if it is not one of ours."""
        if not isinstance(text, str):
            raise CustomIdError(f"a custom id is a str, not {type(text).__name__}")
        if len(text) > MAX_LENGTH:
            raise CustomIdError(f"a custom id has at most {MAX_LENGTH} characters")
        match = _ANY.fullmatch(text)
        if match is None:
            raise CustomIdError(f"not a Wizard custom id: {text[:MAX_LENGTH]!r}")
        verb = Verb(match["verb"])
        if _BY_VERB[verb].fullmatch(text) is None:
            raise CustomIdError(f"bad argument for {verb.value!r}: {match['arg']!r}")
        return cls(int(match["game"]), verb, match["arg"], int(match["version"]))

    @property
    def bid(self) -> int:
        """The bid of a ``bid`` button."""
        self._expect(Verb.BID)
        return int(self.arg)

    @property
    def card(self) -> Card:
        """The card of a ``play`` button."""
        self._expect(Verb.PLAY)
        return Card.parse(self.arg)

    @property
    def suit(self) -> Suit:
        """The suit of a ``trump`` button."""
        self._expect(Verb.TRUMP)
        return Suit.parse(self.arg)

    @property
    def seat_level(self) -> tuple[int, str]:
        """The seat (0-based) and the level a ``level`` button sets."""
        self._expect(Verb.LEVEL)
        return int(self.arg[0]), LEVEL_CODES[self.arg[1]]

    @classmethod
    def for_level(cls, game: int, seat: int, level: str, version: int) -> CustomId:
        """The custom id of a button setting the computer in ``seat`` to ``level``."""
        codes = {name: code for code, name in LEVEL_CODES.items()}
        if level not in codes or not 0 <= seat <= 5:
            raise CustomIdError(f"no level button for seat {seat!r} and level {level!r}")
        return cls(game, Verb.LEVEL, f"{seat}{codes[level]}", version)

    @property
    def seat(self) -> int | None:
        """The seat (0-based) a ``takeseat`` button takes, or ``None`` (the table's button)."""
        self._expect(Verb.TAKESEAT)
        return int(self.arg) if self.arg else None

    @property
    def keep(self) -> int:
        """The computers a ``dropbot`` click leaves at most."""
        self._expect(Verb.DROPBOT)
        return int(self.arg)

    @property
    def switch(self) -> bool:
        """The value a ``seattaking`` button sets."""
        self._expect(Verb.SEATTAKING)
        return self.arg == "1"

    def _expect(self, verb: Verb) -> None:
        if self.verb is not verb:
            raise CustomIdError(f"a {self.verb.value!r} button has no {verb.value} argument")

    @classmethod
    def for_bid(cls, game: int, bid: int, version: int) -> CustomId:
        """The custom id of a button bidding ``bid`` tricks."""
        if isinstance(bid, bool) or not isinstance(bid, int) or not 0 <= bid <= MAX_BID:
            raise CustomIdError(f"a bid is a number from 0 to {MAX_BID}, not {bid!r}")
        return cls(game, Verb.BID, str(bid), version)

    @classmethod
    def for_play(cls, game: int, card: Card, version: int) -> CustomId:
        """The custom id of a button playing ``card``."""
        return cls(game, Verb.PLAY, card.code, version)

    @classmethod
    def for_trump(cls, game: int, suit: Suit, version: int) -> CustomId:
        """The custom id of a button choosing ``suit`` as trump."""
        return cls(game, Verb.TRUMP, suit.value, version)


# --- the dynamic item ----------------------------------------------------------------------

log = logging.getLogger(__name__)

UNAVAILABLE = N_("The game table is not ready yet (the bot is starting up). Try again in a moment.")
"""Reply to a click that arrives before a handler is installed (translated where sent)."""
FAILED = N_("Something went wrong on our side with that click. Please try again.")
"""Reply to a click whose handler raised (translated where sent)."""
MAYBE_DEFERRED: Final = "wizard_maybe_deferred"
"""``interaction.extras`` key: the bot deferred the interaction and no answer came back, so
Discord may hold the deferral (then only followups reach the user)."""
DONE_NOTE: Final = "wizard_done_note"
"""``interaction.extras`` key set once the service applied the click: what the player did
("✅ You bid 2."), or ``None``. A click whose answer Discord then refuses is answered with it
instead of :data:`FAILED` (trying again would be refused)."""
UNKNOWN_INTERACTION: Final = 10062
"""Discord's code for an interaction it no longer knows (answered too late): its token is
dead, so nothing more can be sent on it."""
OUTDATED = N_(
    "This button is from an older version of the bot. Use the newest message of the game."
)
"""Reply to a click on a ``wiz:`` button that is not one of today's custom ids (translated
where sent: ``(await reader_texts(interaction))(OUTDATED)``)."""

FAMILY_TEMPLATE = rf"(?s){PREFIX}:.*"
"""Every ``wiz:`` custom id, well-formed or not: :class:`GameButton` sorts them out."""


@runtime_checkable
class ComponentHandler(Protocol):
    """What the bot calls for every click on a Wizard button (provided by the game cog).

    A handler may also offer ``async repair_after_refusal(interaction, cid)``: called when
    Discord refused a request made for the click, to undo or redraw what nobody saw."""

    async def on_component(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        """Answer the click ``cid`` (within Discord's 3 seconds)."""
        ...


async def reply_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer ``interaction`` with an ephemeral ``text``, whether or not it was answered before."""
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
            return
    except DISCORD_FAILED as error:
        if not (isinstance(error, discord.HTTPException) and error.code == ALREADY_ACKNOWLEDGED):
            _not_replied(interaction, error)
            return
        if not interaction.extras.get(MAYBE_DEFERRED):
            # An answer that seemed lost (no answer came back) had reached the user after all.
            log.info("interaction %s was answered already", interaction.id)
            return
        # A deferral whose answer was lost had reached Discord: the user waits on its
        # "thinking…", which a followup replaces.
    try:
        await interaction.followup.send(text, ephemeral=True)
    except DISCORD_FAILED as error:
        _not_replied(interaction, error)


def _not_replied(interaction: discord.Interaction[Any], error: DiscordFailure) -> None:
    log.warning(
        "could not send a private reply to interaction %s: %s", interaction.id, failure_text(error)
    )


async def dispatch_component(interaction: discord.Interaction[Any], cid: CustomId) -> None:
    """Hand one click to ``interaction.client.component_handler``; never let it go unanswered.

    discord.py only logs exceptions raised by a ``DynamicItem`` callback, so an error here is
    caught, answered with :data:`FAILED` and passed to ``client.on_error`` (where logging,
    and SimCord's error capture in tests, see it). Both replies are private, so they are in
    the clicking member's language. Discord refusing a request made for the click (an outage,
    an expired interaction) is no bug: one warning, and the player is told what counted.
    """
    t = await reader_texts(interaction)
    handler = getattr(interaction.client, "component_handler", None)
    if handler is None:
        await reply_privately(interaction, t(UNAVAILABLE))
        return
    try:
        await handler.on_component(interaction, cid)
    except Exception as error:
        if discords_own(error):
            repair = getattr(handler, "repair_after_refusal", None)
            if repair is not None:
                await repair(interaction, cid)
            asked = f"game {cid.game} ({cid.verb.value} click)"
            await answer_refused(interaction, error, asked=asked, failed=t(FAILED))
            return
        log.exception("component handler failed for %s", cid)
        await reply_privately(interaction, t(FAILED))
        await interaction.client.on_error("wizard_component", interaction, cid)


async def answer_refused(
    interaction: discord.Interaction[Any], error: DiscordFailure, *, asked: str, failed: str
) -> None:
    """Discord refused a request made for ``interaction``, or did not answer it (``asked``:
    what it was, for the log), for a reason of its own (:func:`discords_own`): one warning
    for the operator, with no traceback since nothing is wrong with the bot; and the user
    told what counted (:data:`DONE_NOTE`, once the service applied it), else ``failed`` (try
    again). Nothing is said when the interaction itself has expired: no answer can reach the
    user."""
    log.warning(
        "%s: the answer to user %s did not go through (%s)",
        asked,
        interaction.user.id,
        failure_text(error),
    )
    if isinstance(error, discord.HTTPException) and error.code == UNKNOWN_INTERACTION:
        return
    if DONE_NOTE in interaction.extras:
        await reply_privately(interaction, str(interaction.extras[DONE_NOTE] or "✅"))
        return
    await reply_privately(interaction, failed)


class GameButton(discord.ui.DynamicItem[discord.ui.Item[Any]], template=FAMILY_TEMPLATE):
    """A game button (or one of the lobby's selects): its custom id is a :class:`CustomId`
    (``cid``), or, for a button of an older bot that no verb of today understands, ``cid`` is
    ``None``."""

    def __init__(
        self,
        item: discord.ui.Button[Any] | discord.ui.Select[Any],
        cid: CustomId | None,
        *,
        row: int | None = None,
    ) -> None:
        super().__init__(item, row=row)
        self.cid = cid

    # discord.py 2.7.1's selects keep their row in a plain attribute of their own, which
    # ``DynamicItem.row`` does not read: a wrapped select's row was lost, and the view placed
    # it wherever there was room. Both kinds of item say their row through ``item.row``.
    @property
    def row(self) -> int | None:
        """The row this button or select is placed in (``None``: wherever there is room)."""
        return self.item.row

    @row.setter
    def row(self, value: int | None) -> None:
        self.item.row = value

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
        /,
    ) -> Self:
        """The clicked button or select, its custom id parsed (called by discord.py on a
        click)."""
        text = str(match.string)
        try:
            cid: CustomId | None = CustomId.parse(text)
        except CustomIdError:
            cid = None
        if not isinstance(item, discord.ui.Button | discord.ui.Select):
            item = discord.ui.Button(custom_id=text)
        return cls(item, cid)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Delegate the click to the bot's component handler (or say the button is outdated)."""
        if self.cid is None:
            await reply_privately(interaction, (await reader_texts(interaction))(OUTDATED))
            return
        await dispatch_component(interaction, self.cid)


class ItemAsSent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"(?!)"):
    """The base of a family of components that routes on its custom id itself: the item is
    the clicked component as it is in the message. Never registered (its template matches
    nothing): each subclass gives its own ``template=`` and ``callback``."""

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        """The clicked component, as it is in the message (called by discord.py)."""
        return cls(item)


def detached_view() -> discord.ui.View:
    """An empty view to fill with dynamic items, send and forget.

    Its items are dynamic items registered with ``bot.add_dynamic_items``, which discord.py
    dispatches from the clicked message itself. The view is stopped before it is sent (the
    public ``View.stop``), so discord.py does not store it: a stored view would only cost
    memory (one per message sent or edited) and, for a private follow-up, a 15-minute
    timeout whose expiry unregisters the dynamic item classes.
    """
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (GameButton,)
"""The game's dynamic item classes, for ``bot.add_dynamic_items``."""


def button(
    cid: CustomId,
    *,
    label: str | None = None,
    emoji: str | None = None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
    row: int | None = None,
) -> GameButton:
    """The button of ``cid``."""
    item: discord.ui.Button[Any] = discord.ui.Button(
        label=label, emoji=emoji, style=style, disabled=disabled, custom_id=cid.format()
    )
    return GameButton(item, cid, row=row)


def select(
    cid: CustomId,
    options: list[discord.SelectOption],
    *,
    placeholder: str | None = None,
    min_values: int = 1,
    max_values: int = 1,
    row: int | None = None,
) -> GameButton:
    """The select of ``cid`` (a whole row of its own)."""
    item: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=cid.format(),
        options=options,
        placeholder=placeholder,
        min_values=min_values,
        max_values=max_values,
    )
    return GameButton(item, cid, row=row)


def chosen_values(interaction: discord.Interaction[Any]) -> list[str]:
    """The values picked in a select interaction."""
    data: dict[str, Any] = dict(interaction.data or {})
    return [str(v) for v in data.get("values") or []]


def bid_button(
    game: int, bid: int, version: int, allowed: set[int], *, row: int | None = None
) -> GameButton:
    """The button for bidding ``bid``: blue if ``allowed`` holds it, else grey and disabled
    (on the hand and on the table alike)."""
    ok = bid in allowed
    return button(
        CustomId.for_bid(game, bid, version),
        label=str(bid),
        style=BLUE if ok else GREY,
        disabled=not ok,
        row=row,
    )


def add_bids(view: discord.ui.View, game: int, version: int, count: int, allowed: set[int]) -> int:
    """Add the buttons of bids ``0…count-1`` to ``view`` (:func:`bid_button`), in rows filled
    evenly (:func:`~bot.ui.layout.even_width`); the row after them, or the last row when none
    is left after them, for the buttons that follow (on the table and in a hand alike)."""
    width = even_width(count)
    for bid in range(count):
        view.add_item(bid_button(game, bid, version, allowed, row=bid // width))
    return min(-(-count // width), MAX_ROWS - 1)


def one_button_view(
    cid: CustomId,
    label: str,
    emoji: str,
    *,
    style: discord.ButtonStyle = GREEN,
) -> discord.ui.View:
    """A detached view of one button (e.g. "Take my seat back", "Play again")."""
    view = detached_view()
    view.add_item(button(cid, label=label, emoji=emoji, style=style))
    return view
