"""The one place that turns a refusal into what the player reads, in the player's language.

A refusal of the engine (:class:`wizard.errors.RuleError`) or of the game service
(:class:`wizard.service.ServiceError`) carries a stable ``code`` and its ``params``; this
module renders it from those alone, through the translation layer, never from the English
``message``. Each code has a :class:`Refusal`: an emoji, a short *gist* that always shows
("That bid is not allowed.") and, when every parameter it names was given, a *detail* that
says why ("With uneven bids the dealer may not bid 1: …"). Parameters that are cards, suits
or variants are shown in the player's words (the card theme's labels, suit names in their
language); a code without a text here reads as a generic sentence, still translated.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import discord

from bot.i18n import (
    N_,
    VARIANT_NAMES,
    Texts,
    card_text,
    duration_text,
    minus,
    reader_texts,
    suit_text,
)
from bot.ui.buttons import reply_privately
from wizard.cards import Card, Suit, Theme
from wizard.options import Options
from wizard.service import (
    GameNotFoundError,
    InvalidSettingsError,
    ServiceError,
    StorageError,
)

__all__ = [
    "BY_PARAM",
    "GENERIC",
    "MUST_FOLLOW",
    "REFUSALS",
    "SERVICE_CODES",
    "STALE",
    "Refusal",
    "refusal_detail",
    "refusal_of",
    "refusal_reason",
    "refusal_reason_of",
    "refusal_text",
    "refuse",
]


@dataclass(frozen=True)
class Refusal:
    """How one refusal code reads: ``emoji gist detail`` (the detail only with its params)."""

    emoji: str
    gist: str
    """What was refused, without placeholders (marked with ``N_``)."""
    detail: str | None = None
    """Why, with ``{param}`` placeholders; left out when a param it names is missing."""
    durations: frozenset[str] = frozenset()
    """The params that are seconds, shown as a duration ("24 hours", not "86,400")."""


STALE: Final = N_("🔄 This has moved on since that was shown. Here is your hand as it is now.")
"""The note on top of a hand opened instead of a click on an earlier surface."""
MUST_FOLLOW: Final = N_("You must follow suit.")
GENERIC: Final = N_("That is not possible right now.")
"""The gist of a code this module does not know (a newer service, say)."""

NOT_ALLOWED_BID: Final = N_("That bid is not allowed.")
NOT_ALLOWED_MOVE: Final = N_("That move is not allowed.")
NOT_YOUR_TURN: Final = N_("Not your turn.")
CANNOT_COMBINE: Final = N_("These options cannot be played together.")
BAD_SETUP: Final = N_("This game cannot be set up like that.")
BAD_DEAL: Final = N_("That deal does not fit the rules.")
NOT_PLAYING: Final = N_("You are not playing in this game.")
GAME_OVER: Final = N_("This game is over.")
FORBIDDEN_UNEVEN: Final = N_(
    "With uneven bids the dealer may not bid {bid}: the bids would add up to "
    "{tricks}, the tricks of this round."
)
"""Why the dealer's one bid is refused under uneven bids (R7.1): the refusal's detail, and
the note of the table and of the dealer's own hand while the dealer bids."""
FORBIDDEN_UNEVEN_LAST: Final = N_(
    "With uneven bids the last to bid may not bid {bid}: the bids would add up to "
    "{tricks}, the tricks of this round."
)
""":data:`FORBIDDEN_UNEVEN` in single suit (R7.7), where nobody deals: the seat that takes
the dealer's place bids last."""


def forbidden_uneven(options: Options) -> str:
    """The note on the one bid uneven bids forbid (R7.1), as the game names the seat."""
    return FORBIDDEN_UNEVEN_LAST if options.single_suit else FORBIDDEN_UNEVEN


FORBIDDEN_CANADIAN_OWN: Final = N_(
    "Under the Canadian rule you, alone at the top of the scores, may not bid {bid}: "
    "the bids would add up to {tricks}, the tricks of this round."
)
"""Why the sole leader's one bid is refused in the last round (R7.5): the refusal's detail,
and the note on their own hand while they bid."""
KICKED: Final = N_("You were removed from this game; a computer took your seat over.")
AFTER_KICKED: Final = N_("You can watch it on the table and play in the next game.")
"""What is left to one removed from a running game (player QA: the refusal said only what
had happened)."""
STARTED: Final = N_("This game has already started.")
WATCH_OR_PLAY: Final = N_(
    "You can watch it on the table. To play, take a seat there if the table offers one, or "
    "join the next game."
)
"""What one who is not playing a running game can do."""
FINISHED_FOR_YOU: Final = N_(
    "A computer player finished this game in your seat: it counts as lost for you."
)
"""On the hand, after the game, of a player whose seat a computer held at the end (they
left, or timed out, and did not take it back): a forfeit, as /wizard stats counts it."""
TIMED_OUT: Final = N_("Your time ran out, so a computer made your last move for you.")
"""To a player whose turn timer ran out (until they move themselves again), followed by
:data:`IF_IT_KEEPS` or :data:`IF_IT_KEEPS_LAST`; their hand names the move when it can
(:func:`bot.features.hand.timed_out_move`)."""
IF_IT_KEEPS: Final = N_(
    "If it keeps running out, a computer takes over your seat, and a game it finishes for you "
    "counts as lost."
)
IF_IT_KEEPS_LAST: Final = N_(
    "If it keeps running out, the game stops with no result: you are the last person playing it."
)
""":data:`IF_IT_KEEPS` for the last person playing: a computer taking their seat stops the game."""


def timed_out_text(move: str, *, last: bool, t: Texts) -> str:
    """``move`` (what the computer did, already in ``t``'s language), then what the next
    timeout does."""
    return f"{move} {t(IF_IT_KEEPS_LAST if last else IF_IT_KEEPS)}"


# Translators: after "Only the host can …": {host} is the host's name.
ASK_HOST: Final = N_("Ask {host}.")
"""The detail of a refusal of what only the host may do: whom to ask."""

DAMAGED: Final = N_(
    "This game is damaged and cannot go on. The bot's operator has been told about it."
)

SERVICE_CODES: Final = (
    "game_not_found",
    "game_status",
    "not_seated",
    "already_seated",
    "lobby_full",
    "not_host",
    "channel_busy",
    "seat_not_found",
    "not_enough_players",
    "invalid_options",
    "invalid_settings",
    "stale",
    "illegal_move",
    "not_your_turn",
    "not_away",
    "storage",
    "busy",
    "game_damaged",
    "seat_taking_off",
    "seat_held",
    "hints_off",
    "last_person",
)
"""The codes of the game service's refusals (``wizard.service.errors``)."""

REFUSALS: Final[dict[str, Refusal]] = {
    # --- the service: games, seats, lobbies, settings
    "game_not_found": Refusal("❓", N_("That game does not exist any more.")),
    "game_status": Refusal("ℹ️", N_("That cannot be done in this game now.")),
    "game_status.cancelled": Refusal("🛑", N_("This game was cancelled.")),
    "game_status.finished": Refusal("🏁", GAME_OVER),
    "game_status.lobby": Refusal("⏳", N_("This game has not started yet.")),
    "game_status.active": Refusal("ℹ️", STARTED),
    # Player QA (es): a Join pressed as the host pressed Start was told no more than that.
    "game_status.active.join": Refusal("ℹ️", STARTED, WATCH_OR_PLAY),
    "game_status.broken": Refusal("⚠️", DAMAGED),
    "game_status.damaged": Refusal("⚠️", DAMAGED),
    "not_seated": Refusal("🚫", NOT_PLAYING, WATCH_OR_PLAY),
    "not_seated.seat_taken": Refusal(
        "🙋",
        N_("Someone else took over your seat in this game."),
        # Translators: {name} took over the seat this player left in a running game; one
        # person plays one seat of a game, so they may not take another.
        N_("**{name}** plays it now. You can watch the game on the table."),
    ),
    "not_seated.own_seat_only": Refusal(
        "🙋",
        # Translators: said to one who left their seat in a running game and then chose
        # another computer seat to take: one person plays one seat of a game.
        N_("You played another seat of this game: that one is the only seat you can take."),
    ),
    "not_seated.away": Refusal(
        "🤖",
        N_("A computer is playing your seat: take it back with **Take my seat back** first."),
    ),
    "not_seated.not_in_lobby": Refusal("🚫", N_("You are not in this lobby.")),
    "not_seated.kicked": Refusal("🚫", KICKED, AFTER_KICKED),
    "not_seated.removed_from_lobby": Refusal(
        "🚫", N_("You were removed from this lobby, so you cannot join it again.")
    ),
    "not_seated.removed": Refusal(
        "🚫", N_("You were removed from this game, so you cannot play in it."), AFTER_KICKED
    ),
    "already_seated": Refusal("ℹ️", N_("You are already in this game.")),
    "lobby_full": Refusal(
        "🚫", N_("This game is full."), N_("{limit} players is the most these options allow.")
    ),
    "not_host": Refusal("🚫", N_("Only the host can do that."), ASK_HOST),
    "not_host.start": Refusal("🚫", N_("Only the host can start the game."), ASK_HOST),
    "not_host.cancel": Refusal(
        "🚫", N_("Only the host or a server manager can cancel this game."), ASK_HOST
    ),
    "not_host.remove_players": Refusal(
        "🚫", N_("Only the host or a server manager can remove players."), ASK_HOST
    ),
    "not_host.remove_seats": Refusal("🚫", N_("Only the host can remove players."), ASK_HOST),
    "not_host.remove_host": Refusal(
        "🚫", N_("The host cannot be removed. The host can leave or cancel the game.")
    ),
    "not_host.add_computer": Refusal("🚫", N_("Only the host can add computer players."), ASK_HOST),
    "not_host.remove_computer": Refusal(
        "🚫", N_("Only the host can remove computer players."), ASK_HOST
    ),
    "not_host.change_level": Refusal(
        "🚫", N_("Only the host can change the level of computer players."), ASK_HOST
    ),
    "not_host.change_options": Refusal("🚫", N_("Only the host can change the options."), ASK_HOST),
    "not_host.change_timer": Refusal(
        "🚫", N_("Only the host can change the turn timer."), ASK_HOST
    ),
    "channel_busy": Refusal(
        "🚫",
        N_("There is already a game in this channel."),
        N_("Game {game_id} is open here: join or watch it, or open a new game in another channel."),
    ),
    "channel_busy.active": Refusal(
        "🚫",
        N_("There is already a game in this channel."),
        N_("Game {game_id} is being played here: watch it, or open a new game in another channel."),
    ),
    "seat_not_found": Refusal("❓", N_("That player has no seat in this game.")),
    "not_enough_players": Refusal(
        "⏳",
        N_("Not enough players yet."),
        N_("Wizard needs at least {min} players; this game has {players}."),
    ),
    "invalid_options": Refusal("⚠️", CANNOT_COMBINE),
    "invalid_settings": Refusal(
        "⚠️", N_("That value is out of range."), N_("Choose from {min} to {max}.")
    ),
    "invalid_settings.turn_seconds": Refusal(
        "⚠️",
        N_("That turn timer is not possible."),
        # Translators: {min} and {max} are durations: “10 seconds”, “24 hours”.
        N_("It can be from {min} to {max}; 0 means no limit."),
        durations=frozenset({"min", "max"}),
    ),
    "stale": Refusal("", STALE),
    "illegal_move": Refusal("⛔", NOT_ALLOWED_MOVE),
    "not_away": Refusal("ℹ️", N_("Your seat is already yours: no computer is playing for you.")),
    "storage": Refusal("⚠️", N_("The game could not be saved. Please try again.")),
    "storage.read_failed": Refusal(
        "⚠️", N_("The game could not be read just now. Please try again.")
    ),
    "busy": Refusal("⏳", N_("The game is busy. Please try again in a moment.")),
    "game_damaged": Refusal("⚠️", DAMAGED),
    "seat_taking_off": Refusal(
        "🚫", N_("The host has not allowed taking over computer seats in this game.")
    ),
    "seat_held": Refusal(
        # Translators: {name} plays the seat now: they took it first, or it was their own
        # seat and they took it back (QA: "bob took it" of bob's own seat).
        "🚫",
        N_("A person plays that seat, not a computer."),
        N_("{name} plays it now."),
    ),
    "hints_off": Refusal("🚫", N_("Hints are not allowed on this server.")),
    "last_person": Refusal(
        "⚠️",
        N_(
            "You are the last person playing: if you leave, the game stops and no result is "
            "recorded."
        ),
    ),
    # --- the engine: setting up (R2.1, R2.3, R7.8)
    "players_out_of_range": Refusal(
        "⏳",
        N_("Not the right number of players."),
        N_("Wizard is played by {min} to {max} players, not {players}."),
    ),
    "needs_seed_or_dealer": Refusal("⚠️", BAD_SETUP),
    "first_dealer_out_of_range": Refusal("⚠️", BAD_SETUP),
    "uneven_bids_need_open_bidding": Refusal(
        "⚠️",
        CANNOT_COMBINE,
        # Translators: {bidding} is a variant's name, “hidden bids” or “secret bids”.
        N_(
            "Uneven bids need open bidding: with {bidding}, nobody knows the total when the "
            "last bid is made."
        ),
    ),
    "canadian_needs_open_bidding": Refusal(
        "⚠️",
        CANNOT_COMBINE,
        # Translators: {bidding} is a variant's name, “hidden bids” or “secret bids”.
        N_(
            "The Canadian rule needs open bidding: with {bidding}, the last bidder cannot "
            "know the total."
        ),
    ),
    "magic_twos_need_a_suit": Refusal(
        "⚠️", CANNOT_COMBINE, N_("Magic twos need a suit to follow, and single suit has none.")
    ),
    "clairvoyance_with_single_suit": Refusal(
        "⚠️",
        CANNOT_COMBINE,
        N_("Clairvoyance needs a first round of one card, and single suit starts with four cards."),
    ),
    "single_suit_players": Refusal(
        "🚫",
        N_("Too many players for single suit."),
        N_("Single suit is for 3 or {max} players (each owns one suit), not {players}."),
    ),
    # --- whose turn (R2.1, R3.3, R4.2, R5.1, R7.2, R7.3)
    "no_such_seat": Refusal("🚫", NOT_PLAYING),
    "not_your_turn": Refusal("⏳", NOT_YOUR_TURN, N_("It is {waiting_for}'s turn to play.")),
    "not_your_turn_to_bid": Refusal("⏳", NOT_YOUR_TURN, N_("It is {waiting_for}'s turn to bid.")),
    "only_dealer_chooses_trump": Refusal(
        "⏳", NOT_YOUR_TURN, N_("Only the dealer, {dealer}, chooses trump.")
    ),
    # Open bidding names whose turn it is; hidden and secret bids have no one turn.
    "already_bid": Refusal(
        "ℹ️", N_("You have already bid this round."), N_("It is {waiting_for}'s turn to bid.")
    ),
    # --- the phase of the game (R2.2, R2.3, R3.3, R4.2, R4.3, R5.1)
    "still_bidding": Refusal("⏳", N_("Not now: players are still bidding.")),
    "choosing_trump": Refusal(
        "⏳", N_("Not now: trump is being chosen."), N_("The dealer, {dealer}, is choosing it.")
    ),
    "cards_in_play": Refusal("⏳", N_("Not now: the cards are being played.")),
    "round_not_dealt": Refusal("⏳", N_("Not now: the next round has not been dealt yet.")),
    "game_over": Refusal("🏁", GAME_OVER),
    "no_trump_to_choose": Refusal(
        "⛔",
        N_("There is no trump to choose now."),
        N_("Trump is chosen only when a Wizard is turned up, before bidding."),
    ),
    "not_a_suit": Refusal("⛔", N_("That is not a suit.")),
    # --- bids (R4.1, R7.1, R7.5)
    "bid_out_of_range": Refusal(
        "⛔", NOT_ALLOWED_BID, N_("In round {round} a bid is a whole number from 0 to {max}.")
    ),
    "bid_forbidden": Refusal("⛔", NOT_ALLOWED_BID, FORBIDDEN_UNEVEN),
    "bid_forbidden_canadian": Refusal("⛔", NOT_ALLOWED_BID, FORBIDDEN_CANADIAN_OWN),
    # --- cards (R2.2, R5.3)
    "card_not_held": Refusal("⛔", N_("That card is not in your hand.")),
    "must_follow_suit": Refusal(
        "⛔",
        MUST_FOLLOW,
        # Translators: {suit} is a suit with its emoji, e.g. “🟦 Humans (B)”.
        N_("You hold a card of {suit}: play one, or a 🧙 Wizard or a 🃏 Jester."),
    ),
    # --- deals, which only records supply (R1, R2, R3, R7.7)
    **dict.fromkeys(
        (
            "not_the_seeded_deal",
            "no_such_round",
            "hands_for_players",
            "hand_size",
            "not_a_card",
            "turned_in_single_suit",
            "wrong_single_suit_deck",
            "card_must_be_turned",
            "nothing_to_turn",
            "card_dealt_too_often",
        ),
        Refusal("⚠️", BAD_DEAL),
    ),
}
"""Every refusal code the bot can explain (engine and service), and how it reads."""

BY_PARAM: Final[dict[str, str]] = {
    "game_status": "status",
    "channel_busy": "status",
    "not_host": "action",
    "invalid_settings": "setting",
    "not_seated": "reason",
    "storage": "reason",
}
"""Codes whose text depends on one param: ``code.value`` is looked up first, and before it
``code.value.action`` when the refusal names the action refused (:func:`_lookup`)."""
_NAMES: Final = frozenset({"player", "waiting_for", "dealer", "name", "host"})


def refusal_of(error: BaseException) -> tuple[str, Mapping[str, object]]:
    """The code and params of a refusal (``{}`` when the error carries none)."""
    code = str(getattr(error, "code", "") or "error")
    params: Mapping[str, object] = getattr(error, "params", None) or {}
    return code, params


def refusal_reason(
    code: str, params: Mapping[str, object], *, t: Texts, theme: Theme = Theme.CLASSIC
) -> str:
    """Why ``code`` was refused, in ``t``'s language: the gist, and the detail when every
    param it names can be shown."""
    refusal = _lookup(code, params)
    if refusal is None:
        return t(GENERIC)
    text = t(refusal.gist)
    detail = refusal_detail(code, params, t=t, theme=theme)
    return text if detail is None else f"{text} {detail}"


def refusal_detail(
    code: str, params: Mapping[str, object], *, t: Texts, theme: Theme = Theme.CLASSIC
) -> str | None:
    """The detail of ``code``'s refusal in ``t``'s language; ``None`` if it has none, or
    names a param that cannot be shown."""
    refusal = _lookup(code, params)
    if refusal is None or refusal.detail is None:
        return None
    shown = {}
    for name in _placeholders(refusal.detail):
        value = _shown(name, params.get(name), t=t, theme=theme)
        if value is not None and name in refusal.durations:  # a whole number of seconds
            seconds = float(str(params[name]))
            value = duration_text(t, seconds) if seconds > 0 else None
        if value is None:
            return None
        shown[name] = value
    return t(refusal.detail, **shown)


def refusal_reason_of(error: BaseException, *, t: Texts, theme: Theme = Theme.CLASSIC) -> str:
    """Why ``error`` was refused, in ``t``'s language; options that clash in several ways
    (:attr:`~wizard.service.InvalidOptionsError.conflicts`) are all named, each reason on a
    line of its own, so that one try shows everything to mend."""
    found: Sequence[BaseException] = getattr(error, "conflicts", ())
    if len(found) < 2:
        return refusal_reason(*refusal_of(error), t=t, theme=theme)
    lines = [t(CANNOT_COMBINE)]
    for conflict in found:
        detail = refusal_detail(*refusal_of(conflict), t=t, theme=theme)
        if detail is not None:
            lines.append("• " + detail)
    return "\n".join(lines)


def refusal_text(error: BaseException, *, t: Texts, theme: Theme = Theme.CLASSIC) -> str:
    """What a player reads when their click or command is refused, in the language of ``t``."""
    refusal = _lookup(*refusal_of(error))
    emoji = "⚠️" if refusal is None else refusal.emoji
    reason = refusal_reason_of(error, t=t, theme=theme)
    return f"{emoji} {reason}" if emoji else reason


async def refuse(
    interaction: discord.Interaction[Any], error: BaseException, *, theme: Theme = Theme.CLASSIC
) -> None:
    """Answer a refused click or command privately with the reason (in the user's language)."""
    await reply_privately(
        interaction, refusal_text(error, t=await reader_texts(interaction), theme=theme)
    )


def _lookup(code: str, params: Mapping[str, object]) -> Refusal | None:
    """``code``'s refusal: the one for its :data:`BY_PARAM` value and the refused
    ``action``, if there is one, else for that value, else the code's own."""
    by = BY_PARAM.get(code)
    if by is not None:
        value = f"{code}.{params.get(by)}"
        specific = REFUSALS.get(f"{value}.{params.get('action')}") or REFUSALS.get(value)
        if specific is not None:
            return specific
    return REFUSALS.get(code)


def _placeholders(text: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(text) if name]


def _shown(name: str, value: object, *, t: Texts, theme: Theme) -> str | None:
    """A param as the player reads it, or ``None`` when it cannot be shown."""
    if value is None or isinstance(value, bool):
        return None
    try:
        if name == "suit":
            return suit_text(Suit(str(value)), theme, t=t)
        if name == "card":
            return card_text(Card.parse(str(value)), theme, t=t)
    except ValueError:
        return None
    if name == "bidding":
        key = VARIANT_NAMES.get(str(value))
        return None if key is None else t(key)
    if name in _NAMES:
        return discord.utils.escape_markdown(str(value))
    # Digits grouped as the language writes them (86.400 in German), as on the boards.
    if isinstance(value, int):
        return t.count(value)
    if isinstance(value, float) and value.is_integer():
        return t.count(int(value))  # a limit such as 10.0 seconds
    # Anything else is a number sent as text or English we must not show.
    text = str(value)
    return minus(text) if text.lstrip("-").isdigit() else None


def query_refusal_text(error: ServiceError, *, t: Texts) -> str:
    """What a reader sees when the service refuses a query of the boards, the statistics or
    the history (a game not found, an invalid choice, the database away)."""
    if isinstance(error, GameNotFoundError):
        return "❓ " + t("That game is not in this server's history.")
    if isinstance(error, InvalidSettingsError):
        reason = refusal_reason(*refusal_of(error), t=t)
        return "⚠️ " + t("That is not a valid choice: {reason}", reason=reason)
    if isinstance(error, StorageError):
        return "⚠️ " + t("The game database is not available right now. Try again in a moment.")
    return refusal_text(error, t=t)
