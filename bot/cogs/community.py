"""``/wizard leaderboard``, ``/wizard stats``, ``/wizard history`` (and, from
:mod:`bot.cogs.settings_panel`, ``/wizard settings``): what keeps a server coming back.

* **Leaderboard** (public, in the server's language): one page of a board (rating, wins or
  average score) with the caller's own rank even when it is off the page. Its buttons are
  restart-proof (``wizb:lb:…`` ``DynamicItem``\\s): the caller's clicks turn the page in
  place; anyone else's click opens the same page privately, with *their* rank.
* **Stats** (public): a player's games, wins, scores, bid accuracy, rating (one number,
  marked provisional until the server's minimum of games), favourite options and recent
  form, with the score chart of their latest game.
* **History** (private, in the reader's language): the server's recent games, a select to
  pick one (its scorepad as a picture and its record file, RULES §9) and buttons for older
  pages.

Install everything with :func:`install_community` from the bot's ``setup_hook`` (see its
docstring for the one-line hookup).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Awaitable, Sequence
from typing import Any, Final, Self

import discord
from babel.numbers import format_decimal, format_percent
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.cogs.replies import refusal_of, refusal_reason, refusal_text
from bot.i18n import N_, Texts, texts
from bot.i18n.commands import command_name
from bot.images import chart_labels, score_chart_png, scorepad_labels, scorepad_png
from bot.ui.buttons import detached_view, reply_privately
from wizard.cards import Theme
from wizard.options import Bidding, Options
from wizard.service import (
    GameNotFoundError,
    GameService,
    GameSummary,
    InvalidSettingsError,
    LeaderboardOrder,
    ServiceError,
    StorageError,
)
from wizard.service.boards import Board, BoardLine, FinishedGame, OwnRank, PlayerCard

log = logging.getLogger(__name__)

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
LEVEL_LABELS: Final[dict[str, str]] = {
    "random": N_("Computer (random)"),
    "easy": N_("Computer (easy)"),
    "normal": N_("Computer (normal)"),
    "hard": N_("Computer (hard)"),
}
VARIANT_LABELS: Final[dict[str, str]] = {
    "uneven_bids": N_("uneven bids"),
    "hidden": N_("hidden bids"),
    "secret": N_("secret bids"),
    "clairvoyance": N_("clairvoyance"),
    "canadian": N_("Canadian rule"),
    "magic_twos": N_("magic twos"),
    "single_suit": N_("single suit"),
}
"""The variants of R7 as lists of options show them (the keys name :class:`Options` fields,
with ``hidden`` and ``secret`` for the two bidding modes)."""
THEME_LABELS: Final[dict[Theme, str]] = {
    Theme.CLASSIC: N_("classic colours (B R G Y)"),
    Theme.STANDARD: N_("standard deck (♠ ♥ ♦ ♣)"),
}
MEDALS: Final = {1: "🥇", 2: "🥈", 3: "🥉"}
SERVER_ONLY: Final = N_("Wizard's commands work in a server's channels.")
NOT_READY: Final = N_("Wizard is starting up. Try again in a moment.")
FAILED: Final = N_("Something went wrong on our side. Please try again.")
OUTDATED: Final = N_("This button is from an older version of the bot. Run the command again.")


# --------------------------------------------------------------------------- texts


def number(t: Texts, value: float, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals, written the way the language writes numbers."""
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=t.language)


def percent(t: Texts, value: float) -> str:
    """A share as a whole percentage, written the way the language writes it (``42%``,
    ``42 %``)."""
    return format_percent(value, locale=t.language)


def variant_names(t: Texts, options: Options) -> list[str]:
    """The variants that are on, in the language of ``t`` (empty for the standard game)."""
    keys = [
        key
        for key, on in (
            ("uneven_bids", options.uneven_bids),
            ("hidden", options.bidding is Bidding.HIDDEN),
            ("secret", options.bidding is Bidding.SECRET),
            ("clairvoyance", options.clairvoyance),
            ("canadian", options.canadian),
            ("magic_twos", options.magic_twos),
            ("single_suit", options.single_suit),
        )
        if on
    ]
    return [t(VARIANT_LABELS[key]) for key in keys]


def options_text(t: Texts, options: Options) -> str:
    """The options as one phrase: the variants, or "standard rules"."""
    return ", ".join(variant_names(t, options)) or t("standard rules")


def line_name(t: Texts, line: BoardLine) -> str:
    """The name a board shows for a line (a computer level in words)."""
    if line.level is not None:
        return "🤖 " + t(LEVEL_LABELS.get(line.level, N_("Computer")))
    return discord.utils.escape_markdown(line.name)


def rank_text(t: Texts, own: OwnRank) -> str:
    """A player's place on a board, or why they have none yet."""
    if own.rank is not None:
        return t("#{rank} of {total}", rank=own.rank, total=own.total)
    if own.games == 0:
        return t("no finished game yet")
    return t.plural("unranked: {n} more game needed", "unranked: {n} more games needed", own.needed)


# Translators: the note under a rating, on the leaderboard and in /wizard stats.
RATING_NOTE: Final = N_(
    "Rating: your skill as your games show it so far, counted cautiously: it grows as you "
    "play and win, most against strong players."
)


def rating_text(t: Texts, rating: float, *, provisional: bool) -> str:
    """A rating as one number a player reads at a glance (the cautious estimate, whole),
    marked ≈ and "provisional" until the server's minimum number of games: never the
    model's own figures (μ, σ)."""
    value = _bold(number(t, round(rating), 0))  # round first: never "-0"
    if provisional:
        # Translators: a rating before the server's minimum number of games, e.g. “≈ **3**”.
        return t("≈ {rating} (provisional)", rating=value)
    return value


def _bold(text: str) -> str:
    return f"**{text}**"


def board_value(t: Texts, order: LeaderboardOrder, line: BoardLine, min_games: int = 1) -> str:
    """What a line of the board is sorted by, and its games."""
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
        value = t("**{points}** points per game", points=number(t, line.average))
    return f"{value} · {games}"


def board_embed(t: Texts, board: Board, whose: str | None) -> discord.Embed:
    """A leaderboard page; ``whose`` names the reader on a public page (``None``: "Your
    rank", on the reader's private copy)."""
    title = t("🏆 Leaderboard · {order}", order=t(ORDER_LABELS[board.order]))
    lines = []
    for line in board.lines:
        medal = MEDALS.get(line.rank, f"`#{line.rank}`")
        lines.append(
            f"{medal} {line_name(t, line)} — {board_value(t, board.order, line, board.min_games)}"
        )
    if not lines:
        if board.min_games > 1:
            lines.append(
                t.plural(
                    "Nobody has finished {n} game on this server yet: play and come back!",
                    "Nobody has finished {n} games on this server yet: play and come back!",
                    board.min_games,
                )
            )
        else:
            lines.append(t("Nobody has finished a game on this server yet: be the first!"))
    embed = discord.Embed(title=title, description="\n".join(lines), colour=0xF0B232)
    if board.you is not None:
        label = t("Your rank") if whose is None else t("{name}'s rank", name=whose)
        embed.add_field(name=label, value=rank_text(t, board.you), inline=False)
    notes = []
    if board.min_games > 1:
        notes.append(
            t.plural(
                "Ranked after {n} game, so that one lucky game does not top the board.",
                "Ranked after {n} games, so that one lucky game does not top the board.",
                board.min_games,
            )
        )
    if board.order is LeaderboardOrder.RATING:
        notes.append(t(RATING_NOTE))
    if board.computers:
        notes.append(t("🤖 Computer players are shown; they keep the starting rating."))
    notes.append(t("Page {page} of {pages}", page=board.page, pages=board.pages))
    embed.set_footer(text="\n".join(notes))
    return embed


def stats_embed(t: Texts, card: PlayerCard, name: str) -> discord.Embed:
    """``/wizard stats``: everything about one player on one server."""
    embed = discord.Embed(
        title=t("📊 {name} at Wizard", name=discord.utils.escape_markdown(name)),
        colour=0x57B4E9,
    )
    embed.add_field(
        name=t("Games"),
        value=t.plural("{n} played", "{n} played", card.games)
        + " · "
        + t.plural("{n} won", "{n} won", card.wins)
        + f" ({percent(t, card.win_rate)})",
        inline=False,
    )
    best = "–" if card.best_score is None else str(card.best_score)
    embed.add_field(
        name=t("Scores"),
        value=t(
            "average {average} · best {best}", average=number(t, card.average_score), best=best
        ),
        inline=False,
    )
    embed.add_field(
        name=t("Bids"),
        value=t(
            "{accuracy} made exactly ({exact} of {rounds} rounds)",
            accuracy=percent(t, card.bid_accuracy),
            exact=card.exact_bids,
            rounds=card.bids,
        ),
        inline=False,
    )
    rating = rating_text(t, card.rating, provisional=card.rank.needed > 0)
    embed.add_field(name=t("Rating"), value=f"{rating} · {rank_text(t, card.rank)}", inline=False)
    if card.favourite is not None:
        embed.add_field(
            name=t("Favourite options"),
            value=t(
                "{options} ({share} of games)",
                options=options_text(t, card.favourite.options),
                share=percent(t, card.favourite.share),
            ),
            inline=False,
        )
    if card.form:
        form = " · ".join(
            f"{MEDALS.get(f.place, '')}{t('{place}/{seats}', place=f.place, seats=f.seats)}"
            for f in card.form
        )
        embed.add_field(name=t("Recent form (newest first)"), value=form, inline=False)
    embed.set_footer(text=t(RATING_NOTE))
    return embed


def history_embed(t: Texts, games: Sequence[GameSummary], older: bool) -> discord.Embed:
    """A page of the server's history, newest first."""
    lines = []
    for game in games:
        people = " · ".join(
            f"{MEDALS.get(s.place, '')}{discord.utils.escape_markdown(s.name)} {s.score}"
            for s in game.standings
        )
        lines.append(
            t(
                "**Game {game}** · <t:{when}:R> · {people}",
                game=game.id,
                when=int(game.finished_at),
                people=people,
            )
        )
    if not lines:
        lines.append(
            t("No older games.") if older else t("No game has finished on this server yet.")
        )
    embed = discord.Embed(title=t("📜 Recent games"), description="\n".join(lines), colour=0x9B84EC)
    if games:
        embed.set_footer(text=t("Pick a game below for its scorepad and its record."))
    return embed


def game_embed(t: Texts, game: FinishedGame, picture: str) -> discord.Embed:
    """A finished game picked from the history: standings, options, the scorepad picture."""
    lines = [
        f"{MEDALS.get(s.place, f'{s.place}.')} **{discord.utils.escape_markdown(s.name)}**: "
        + t.plural("{n} point", "{n} points", s.score)
        for s in game.standings
    ]
    lines.append("")
    lines.append(t("Options: {options}", options=options_text(t, game.options)))
    if game.finished_at is not None:
        lines.append(t("Finished <t:{when}:f>", when=int(game.finished_at)))
    lines.append(
        t(
            "The record file replays with `python -m wizard replay {file}`.",
            file=record_filename(game.id),
        )
    )
    embed = discord.Embed(
        title=t("Game {game} · scorepad", game=game.id),
        description="\n".join(lines),
        colour=0x9B84EC,
    )
    embed.set_image(url=f"attachment://{picture}")
    return embed


def record_filename(game_id: int) -> str:
    """The name of a game's record file (the same as on the final standings)."""
    return f"wizard-game-{game_id}.json"


def refusal(t: Texts, error: ServiceError) -> str:
    """What a reader sees when the service refuses a community query."""
    if isinstance(error, GameNotFoundError):
        return "❓ " + t("That game is not in this server's history.")
    if isinstance(error, InvalidSettingsError):
        reason = refusal_reason(*refusal_of(error), t=t)
        return "⚠️ " + t("That is not a valid choice: {reason}", reason=reason)
    if isinstance(error, StorageError):
        return "⚠️ " + t("The game database is not available right now. Try again in a moment.")
    return refusal_text(error, t=t)


# --------------------------------------------------------------------------- components


def chosen_values(interaction: discord.Interaction[Any]) -> list[str]:
    """The values picked in a select interaction."""
    data: dict[str, Any] = dict(interaction.data or {})
    return [str(v) for v in data.get("values") or []]


def community_cog(client: discord.Client) -> CommunityCog | None:
    """The community cog of a bot (``None`` before it is installed)."""
    get_cog = getattr(client, "get_cog", None)
    cog = get_cog(COG_NAME) if callable(get_cog) else None
    return cog if isinstance(cog, CommunityCog) else None


async def _ready_cog(interaction: discord.Interaction[Any]) -> CommunityCog | None:
    """The community cog, or ``None`` once the clicker has been told it is not ready yet."""
    cog = community_cog(interaction.client)
    if cog is None:
        await reply_privately(interaction, texts(interaction.locale)(NOT_READY))
    return cog


async def guarded(interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
    """Run a command's or a click's work; never leave the interaction unanswered.

    Refusals of the service are answered privately with the reason. Other errors are
    answered with :data:`FAILED` and passed to ``client.on_error`` (discord.py only logs
    errors of ``DynamicItem`` callbacks, so tests would not see them otherwise).
    """
    t = texts(interaction.locale)
    try:
        await work
    except ServiceError as error:
        await reply_privately(interaction, refusal(t, error))
    except Exception:
        log.exception("community interaction failed")
        await reply_privately(interaction, t(FAILED))
        await interaction.client.on_error("wizard_community", interaction)


BOARD_ID: Final = re.compile(
    rf"{PREFIX}:lb:(?P<action>[pno]):(?P<order>[rwa]):(?P<page>[0-9]{{1,6}}):(?P<owner>[0-9]{{1,20}})"
)
"""A leaderboard button: previous or next page (``p``, ``n``) or another order (``o``), on
the board of ``owner`` (whose rank the page shows)."""
HISTORY_PAGE_ID: Final = re.compile(rf"{PREFIX}:hist:page:(?P<before>[0-9]{{1,20}})")
"""A history page: the games that finished before game ``before`` (0: the newest)."""
HISTORY_PICK_ID: Final = re.compile(rf"{PREFIX}:hist:pick:(?P<before>[0-9]{{1,20}})")
"""The select of a history page's games; picking one shows its scorepad and record."""


class CommunityItem(
    discord.ui.DynamicItem[discord.ui.Item[Any]],
    # Every wizb: id but the settings panel's: one not understood is answered as outdated.
    template=rf"(?s){PREFIX}:(?!set:).*",
):
    """Every leaderboard and history component (buttons and the history select): a click
    is routed on its custom id, read once, to the community cog."""

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        """The clicked component as it is in the message."""
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Turn the board's page or order, turn the history's page, or show a picked game."""
        custom_id = self.custom_id
        board = BOARD_ID.fullmatch(custom_id)
        page = HISTORY_PAGE_ID.fullmatch(custom_id)
        pick = HISTORY_PICK_ID.fullmatch(custom_id)
        if board is None and page is None and pick is None:
            await reply_privately(interaction, texts(interaction.locale)(OUTDATED))
            return
        cog = await _ready_cog(interaction)
        if cog is None:
            return
        if board is not None:
            order, number = ORDERS_BY_CODE[board["order"]], int(board["page"])
            await guarded(
                interaction, cog.board_click(interaction, order, number, int(board["owner"]))
            )
        elif page is not None:
            await guarded(interaction, cog.history_page(interaction, int(page["before"]) or None))
        else:
            values = chosen_values(interaction)
            try:
                game_id = int(values[0])
            except (IndexError, TypeError, ValueError):
                await reply_privately(interaction, texts(interaction.locale)(OUTDATED))
                return
            await guarded(interaction, cog.show_game(interaction, game_id))


def board_button(
    action: str,
    order: LeaderboardOrder,
    page: int,
    owner: int,
    *,
    label: str | None = None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
    row: int | None = None,
) -> CommunityItem:
    """A leaderboard button (see :data:`BOARD_ID`)."""
    custom_id = f"{PREFIX}:lb:{action}:{ORDER_CODES[order]}:{page}:{owner}"
    item: discord.ui.Button[Any] = discord.ui.Button(
        label=label, style=style, disabled=disabled, custom_id=custom_id
    )
    return CommunityItem(item, row=row)


def history_button(
    before: int, *, label: str | None = None, row: int | None = None
) -> CommunityItem:
    """A history page button (see :data:`HISTORY_PAGE_ID`)."""
    item: discord.ui.Button[Any] = discord.ui.Button(
        label=label, custom_id=f"{PREFIX}:hist:page:{before}"
    )
    return CommunityItem(item, row=row)


def history_select(
    before: int,
    options: list[discord.SelectOption],
    *,
    placeholder: str | None = None,
    row: int | None = None,
) -> CommunityItem:
    """The select of a history page's games (see :data:`HISTORY_PICK_ID`)."""
    item: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=f"{PREFIX}:hist:pick:{before}",
        options=options,
        placeholder=placeholder,
        min_values=1,
        max_values=1,
    )
    return CommunityItem(item, row=row)


def board_view(t: Texts, board: Board, owner: int) -> discord.ui.View:
    """Previous / next, and the three orders (the current one highlighted)."""
    view = detached_view()
    view.add_item(
        board_button(
            "p",
            board.order,
            max(1, board.page - 1),
            owner,
            label="◀ " + t("Previous"),
            disabled=board.page <= 1,
            row=0,
        )
    )
    view.add_item(
        board_button(
            "n",
            board.order,
            min(board.pages, board.page + 1),
            owner,
            label=t("Next") + " ▶",
            disabled=board.page >= board.pages,
            row=0,
        )
    )
    for order in LeaderboardOrder:
        current = order is board.order
        view.add_item(
            board_button(
                "o",
                order,
                1,
                owner,
                label=t(ORDER_LABELS[order]),
                style=discord.ButtonStyle.primary if current else discord.ButtonStyle.secondary,
                disabled=current,
                row=1,
            )
        )
    return view


def history_view(t: Texts, games: Sequence[GameSummary], before: int | None) -> discord.ui.View:
    """The select of the page's games, and the buttons to older and newest games."""
    view = detached_view()
    if games:
        options = []
        for game in games:
            winners = ", ".join(s.name for s in game.winners)
            label = t("Game {game} · {players}", game=game.id, players=", ".join(game.players))
            description = t(
                "Won by {names} with {points}",
                names=winners,
                points=t.plural("{n} point", "{n} points", game.winners[0].score),
            )
            options.append(
                discord.SelectOption(
                    label=_clip(label, 100), value=str(game.id), description=_clip(description, 100)
                )
            )
        view.add_item(
            history_select(
                before or 0, options, placeholder=t("Pick a game to see its scorepad"), row=0
            )
        )
    if len(games) == HISTORY_PAGE:
        view.add_item(history_button(games[-1].id, label=t("Older games") + " ▶", row=1))
    if before is not None:
        view.add_item(history_button(0, label="⏮ " + t("Newest games"), row=1))
    return view


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


COMMUNITY_ITEMS: Final[tuple[type[discord.ui.DynamicItem[Any]], ...]] = (CommunityItem,)
"""The restart-proof components of this module (``bot.add_dynamic_items``)."""


# --------------------------------------------------------------------------- the cog


class CommunityCog(commands.Cog, name=COG_NAME):
    """Leaderboards, statistics and history of one server, read from the game service."""

    def __init__(self, bot: commands.Bot | commands.AutoShardedBot, service: GameService) -> None:
        self.bot = bot
        self.service = service

    async def _public_texts(self, guild_id: int) -> Texts:
        return texts((await self.service.get_settings(guild_id)).language)

    # --- leaderboard ------------------------------------------------------------------------

    async def leaderboard(self, interaction: discord.Interaction[Any], order: str | None) -> None:
        """``/wizard leaderboard [order]``: the first page, in public, with the caller's rank."""
        guild_id = interaction.guild_id
        if guild_id is None:
            await reply_privately(interaction, texts(interaction.locale)(SERVER_ONLY))
            return
        board = await self.service.board(
            guild_id,
            order=order or LeaderboardOrder.RATING,
            per_page=PER_PAGE,
            viewer_id=interaction.user.id,
        )
        t = await self._public_texts(guild_id)
        await interaction.response.send_message(
            embed=board_embed(t, board, interaction.user.display_name),
            view=board_view(t, board, interaction.user.id),
        )

    async def board_click(
        self, interaction: discord.Interaction[Any], order: LeaderboardOrder, page: int, owner: int
    ) -> None:
        """A page or order button: in place for the board's owner, privately for others."""
        guild_id = interaction.guild_id
        if guild_id is None:
            return
        reader = interaction.user.id
        board = await self.service.board(
            guild_id, order=order, page=page, per_page=PER_PAGE, viewer_id=reader
        )
        message = interaction.message
        private = message is not None and message.flags.ephemeral
        if reader == owner:
            if private:
                t = texts(interaction.locale)
                embed = board_embed(t, board, None)
            else:
                t = await self._public_texts(guild_id)
                embed = board_embed(t, board, interaction.user.display_name)
            await interaction.response.edit_message(embed=embed, view=board_view(t, board, owner))
            return
        # Someone else's board: the page they asked for, just for them, with their rank.
        t = texts(interaction.locale)
        await interaction.response.send_message(
            embed=board_embed(t, board, None), view=board_view(t, board, reader), ephemeral=True
        )

    # --- stats ------------------------------------------------------------------------------

    async def stats(
        self, interaction: discord.Interaction[Any], member: discord.abc.User | None
    ) -> None:
        """``/wizard stats [member]``: the statistics card, with the latest game's chart."""
        guild_id = interaction.guild_id
        if guild_id is None:
            await reply_privately(interaction, texts(interaction.locale)(SERVER_ONLY))
            return
        who = member or interaction.user
        card = await self.service.player_card(guild_id, who.id)
        if card is None:
            t = texts(interaction.locale)
            await interaction.response.send_message(
                t(
                    "{name} has not finished a game of Wizard on this server yet.",
                    name=discord.utils.escape_markdown(who.display_name),
                ),
                ephemeral=True,
            )
            return
        # Replaying the latest game and drawing the chart take a moment: say so first.
        await interaction.response.defer(thinking=True)
        t = await self._public_texts(guild_id)
        embed = stats_embed(t, card, who.display_name)
        files = []
        if card.latest_game_id is not None:
            try:
                game: FinishedGame | None = await self.service.finished_game(
                    guild_id, card.latest_game_id
                )
            except ServiceError as error:
                # The statistics stand without the picture (a game that no longer replays).
                log.warning("no chart of game %s: %s", card.latest_game_id, error.message)
                game = None
            if game is not None:
                png = await asyncio.to_thread(
                    score_chart_png,
                    game.players,
                    game.history,
                    highlight=game.seat_of(who.id),
                    title=t("Latest game ({game}): score by round", game=game.id),
                    labels=chart_labels(t),
                )
                filename = f"wizard-chart-{game.id}-{who.id}.png"
                files.append(discord.File(io.BytesIO(png), filename=filename))
                embed.set_image(url=f"attachment://{filename}")
        await interaction.followup.send(embed=embed, files=files)

    # --- history ----------------------------------------------------------------------------

    async def history(self, interaction: discord.Interaction[Any]) -> None:
        """``/wizard history``: the newest page, privately."""
        guild_id = interaction.guild_id
        if guild_id is None:
            await reply_privately(interaction, texts(interaction.locale)(SERVER_ONLY))
            return
        t = texts(interaction.locale)
        games = await self.service.recent_games(guild_id, limit=HISTORY_PAGE)
        await interaction.response.send_message(
            embed=history_embed(t, games, older=False),
            view=history_view(t, games, None),
            ephemeral=True,
        )

    async def history_page(self, interaction: discord.Interaction[Any], before: int | None) -> None:
        """Older (or the newest) games, in place."""
        guild_id = interaction.guild_id
        if guild_id is None:
            return
        t = texts(interaction.locale)
        games = await self.service.recent_games(guild_id, limit=HISTORY_PAGE, before=before)
        await interaction.response.edit_message(
            embed=history_embed(t, games, older=before is not None),
            view=history_view(t, games, before),
        )

    async def show_game(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """A game picked from the history: its scorepad picture and record file, privately."""
        guild_id = interaction.guild_id
        if guild_id is None:
            return
        t = texts(interaction.locale)
        game = await self.service.finished_game(guild_id, game_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        theme = (await self.service.get_settings(guild_id)).theme
        png = await asyncio.to_thread(
            scorepad_png,
            game.players,
            game.history,
            theme=theme,
            title=t("Game {game} · scorepad", game=game.id),
            labels=scorepad_labels(t),
        )
        picture = f"wizard-scorepad-{game.id}.png"
        files = [
            discord.File(io.BytesIO(png), filename=picture),
            discord.File(io.BytesIO(game.record.encode()), filename=record_filename(game.id)),
        ]
        await interaction.followup.send(
            embed=game_embed(t, game, picture), files=files, ephemeral=True
        )


def all_items() -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    """Every ``wizb:`` component class (those of the settings panel too)."""
    from bot.cogs.settings_panel import SETTINGS_ITEMS

    return COMMUNITY_ITEMS + SETTINGS_ITEMS


# --------------------------------------------------------------------------- commands


def community_commands(cog: CommunityCog) -> list[app_commands.Command[Any, ..., Any]]:
    """The ``/wizard`` subcommands of the community: leaderboard, stats, history, settings."""
    from bot.cogs.settings_panel import settings_command

    @app_commands.command(
        name=command_name("leaderboard"),
        description=locale_str("The server's best Wizard players, by rating, wins or average"),
    )
    @app_commands.rename(order=command_name("order"))
    @app_commands.describe(order=locale_str("How the board is sorted (default: rating)"))
    @app_commands.choices(order=ORDER_CHOICES)
    async def leaderboard(interaction: discord.Interaction[Any], order: str | None = None) -> None:
        await guarded(interaction, cog.leaderboard(interaction, order))

    @app_commands.command(
        name=command_name("stats"),
        description=locale_str("A player's Wizard statistics on this server, with a chart"),
    )
    @app_commands.rename(member=command_name("member"))
    @app_commands.describe(member=locale_str("Whose statistics (default: yours)"))
    async def stats(
        interaction: discord.Interaction[Any], member: discord.User | None = None
    ) -> None:
        await guarded(interaction, cog.stats(interaction, member))

    @app_commands.command(
        name=command_name("history"),
        description=locale_str("The server's recent games: scorepads and record files"),
    )
    async def history(interaction: discord.Interaction[Any]) -> None:
        await guarded(interaction, cog.history(interaction))

    return [leaderboard, stats, history, settings_command(cog.service)]


async def install_community(
    bot: commands.Bot | commands.AutoShardedBot, service: GameService, group: app_commands.Group
) -> CommunityCog:
    """Add the community cog, its ``/wizard`` subcommands (to ``group``) and its restart-proof
    components to ``bot``; call it in ``setup_hook`` before the commands are synced. Running
    it again on the same bot (a reconnect runs ``setup_hook`` again) changes nothing."""
    existing = bot.get_cog(COG_NAME)
    if isinstance(existing, CommunityCog):
        return existing
    bot.add_dynamic_items(*all_items())
    cog = CommunityCog(bot, service)
    await bot.add_cog(cog)
    for command in community_commands(cog):
        group.add_command(command)
    return cog
