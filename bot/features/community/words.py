"""The community's words: leaderboard orders, option and level labels, numbers and
ratings as a player reads them, and its replies."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Final

import discord
from babel.numbers import format_decimal, format_percent
from discord import app_commands
from discord.app_commands import locale_str

from bot.i18n import N_, Texts, level_name, minus
from wizard.cards import Theme
from wizard.service import (
    LeaderboardOrder,
)
from wizard.service.boards import BoardLine, OwnRank, shown_average, shown_rating

PREFIX: Final = "wizb"
"""Custom ids of the community's components start ``wizb:`` (the game's are ``wiz:``)."""


COG_NAME: Final = "WizardCommunity"


PER_PAGE: Final = 10
"""Lines of a leaderboard page."""


HISTORY_PAGE: Final = 10
"""Games of a history page (a select holds at most 25)."""


ORDER_CODES: Final[dict[LeaderboardOrder, str]] = {
    LeaderboardOrder.RATING: "r",
    LeaderboardOrder.WINS: "w",
    LeaderboardOrder.AVERAGE: "a",
}


ORDERS_BY_CODE: Final = {code: order for order, code in ORDER_CODES.items()}


ORDER_LABELS: Final[dict[LeaderboardOrder, str]] = {
    LeaderboardOrder.RATING: N_("Rating"),
    LeaderboardOrder.WINS: N_("Wins"),
    LeaderboardOrder.AVERAGE: N_("Average score"),
}


ORDER_CHOICES: Final = [
    app_commands.Choice(name=locale_str("rating (skill, after a few games)"), value="rating"),
    app_commands.Choice(name=locale_str("wins"), value="wins"),
    app_commands.Choice(name=locale_str("average score per game"), value="average"),
]


THEME_LABELS: Final[dict[Theme, str]] = {
    Theme.CLASSIC: N_("classic colours (B R G Y)"),
    Theme.STANDARD: N_("standard deck (♠ ♥ ♦ ♣)"),
}


SERVER_ONLY: Final = N_("Wizard's commands work in a server's channels.")


NOT_READY: Final = N_("Wizard is starting up. Try again in a moment.")


FAILED: Final = N_("Something went wrong on our side. Please try again.")


OUTDATED: Final = N_("This button is from an older version of the bot. Run the command again.")


def number(t: Texts, value: float | Decimal, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals, written the way the language writes numbers (below
    zero with a true minus; one that rounds to zero with none: ``0.0``, not ``-0.0``)."""
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    written = format_decimal(value, format=pattern, locale=t.language)
    if not any(c in "123456789" for c in written):
        return written.removeprefix("-")
    return minus(written)


def percent(t: Texts, value: float) -> str:
    """A share as a whole percentage, written the way the language writes it (``42%``,
    ``42 %``), a half rounded up as people do (Babel rounds it to even: 12.5 % as 12 %)."""
    whole = (Decimal(repr(value)) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return format_percent(whole / 100, locale=t.language)


def line_name(t: Texts, line: BoardLine) -> str:
    """The name a board shows for a line (a computer level in words)."""
    if line.level is not None:
        # Translators: the board's line of a level's computer players, e.g. “Computers (Normal)”.
        return "🤖 " + t("Computers ({level})", level=level_name(line.level, t=t))
    return discord.utils.escape_markdown(line.name)


def rank_text(t: Texts, own: OwnRank) -> str:
    """A player's place on a board, or why they have none yet."""
    if own.rank is not None:
        return t("#{rank} of {total}", rank=t.count(own.rank), total=t.count(own.total))
    if own.games == 0:
        return t("no finished game yet")
    return t.plural("unranked: {n} more game needed", "unranked: {n} more games needed", own.needed)


# Translators: in /wizard stats, under a recent form with a game marked "not finished".
FORFEIT_NOTE: Final = N_(
    "🏳️ A game someone else finished for the player (a computer, or a person who took "
    "the seat over) counts as lost: last place, with the lowest score at its table, and none "
    "of the player's bids in it count."
)
"""Why a game the player left counts as it does (``player_rows.forfeit_counts``)."""

# Translators: under /wizard history, when a person's name in it is followed by 🤖.
HISTORY_LEFT_NOTE: Final = N_(
    "🤖 after a person's name: they left the game, and a computer played their seat to the "
    "end; the game counts as lost for them."
)
"""What the history's 🤖 after a person's name means (:func:`render.computer_mark`)."""

# Translators: the note under a rating, on the leaderboard and in /wizard stats.
RATING_NOTE: Final = N_(
    "Rating: a player's skill as their games show it so far, counted cautiously: everyone "
    "starts at 0; every game makes it surer, which lifts it a little; a high place lifts it "
    "more, most against strong players, and a low place brings it down, below 0 too."
)
"""How the shown rating moves (test_a_first_game_moves_the_rating_as_the_boards_footnote_says;
player QA: "falls when they lose" while a 3rd place of 4 lifted it)."""


def rating_text(t: Texts, rating: float, *, provisional: bool) -> str:
    """A rating as one number a player reads at a glance (the cautious estimate, whole),
    marked ≈ and "provisional" until the server's minimum number of games: never the
    model's own figures (μ, σ)."""
    # Rounded as the boards rank (lines showing the same figure share a rank); never "-0".
    value = _bold(number(t, shown_rating(rating), 0))
    if provisional:
        # Translators: a rating before the server's minimum number of games, e.g. “≈ **3**”.
        return t("≈ {rating} (provisional)", rating=value)
    return value


def _bold(text: str) -> str:
    return f"**{text}**"


def board_value(t: Texts, order: LeaderboardOrder, line: BoardLine, min_games: int = 1) -> str:
    """What a line of the board is sorted by, and its games (a computer line's are its
    seats: two computers of a level in one game count twice, as two players would)."""
    if line.is_computer:
        games = t.plural("{n} seat played", "{n} seats played", line.games)
    else:
        games = t.plural("{n} game", "{n} games", line.games)
    if order is LeaderboardOrder.RATING:
        value = rating_text(
            t, line.rating, provisional=not line.is_computer and line.games < min_games
        )
    elif order is LeaderboardOrder.WINS:
        value = (
            t.plural("**{n}** win", "**{n}** wins", line.wins) + f" ({percent(t, line.win_rate)})"
        )
    else:
        # Rounded as the board ranks: lines showing the same average share a rank.
        average = shown_average(line.total_score, line.games)
        value = t("**{points}** points per game", points=number(t, average))
    return f"{value} · {games}"
