"""``/wizard leaderboard``, ``/wizard stats``, ``/wizard history`` (``/wizard settings`` is
:mod:`bot.features.settings`): what keeps a server coming back.

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
from typing import Any, Final

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.cogs.look import public_texts
from bot.cogs.replies import query_refusal_text
from bot.discord_faults import discords_own
from bot.features.community.render import (
    board_embed,
    computer_mark,
    game_embed,
    history_embed,
    record_filename,
    stats_embed,
)
from bot.features.community.words import (
    COG_NAME,
    FAILED,
    HISTORY_PAGE,
    NOT_READY,
    ORDER_CHOICES,
    ORDER_CODES,
    ORDER_LABELS,
    ORDERS_BY_CODE,
    OUTDATED,
    PER_PAGE,
    PREFIX,
    SERVER_ONLY,
)
from bot.features.summaries import and_list, picture_names
from bot.i18n import Texts, member_name, reader_texts
from bot.i18n.commands import command_name
from bot.images.canvas import chart_labels, scorepad_labels
from bot.images.chart import score_chart_png
from bot.images.scorepad import scorepad_png
from bot.ui.buttons import (
    ItemAsSent,
    answer_refused,
    chosen_values,
    detached_view,
    reply_privately,
)
from wizard.service import (
    GameService,
    GameSummary,
    LeaderboardOrder,
    ServiceError,
)
from wizard.service.boards import Board, FinishedGame

log = logging.getLogger(__name__)


def community_cog(client: discord.Client) -> CommunityCog | None:
    """The community cog of a bot (``None`` before it is installed)."""
    get_cog = getattr(client, "get_cog", None)
    cog = get_cog(COG_NAME) if callable(get_cog) else None
    return cog if isinstance(cog, CommunityCog) else None


async def _ready_cog(interaction: discord.Interaction[Any]) -> CommunityCog | None:
    """The community cog, or ``None`` once the clicker has been told it is not ready yet."""
    cog = community_cog(interaction.client)
    if cog is None:
        await reply_privately(interaction, (await reader_texts(interaction))(NOT_READY))
    return cog


async def guarded(interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
    """Run a command's or a click's work; never leave the interaction unanswered.

    Refusals of the service are answered privately with the reason. Discord refusing the
    answer for a reason of its own (an outage, a lost permission) is one warning, and the
    user told what counted (:func:`bot.ui.buttons.answer_refused`). Other errors are
    answered with :data:`FAILED` and passed to ``client.on_error`` (discord.py only logs
    errors of ``DynamicItem`` callbacks, so tests would not see them otherwise).
    """
    t = await reader_texts(interaction)
    try:
        await work
    except ServiceError as error:
        await reply_privately(interaction, query_refusal_text(error, t=t))
    except Exception as error:
        if discords_own(error):
            await answer_refused(interaction, error, asked=_asked(interaction), failed=t(FAILED))
            return
        log.exception("community interaction failed")
        await reply_privately(interaction, t(FAILED))
        await interaction.client.on_error("wizard_community", interaction)


def _asked(interaction: discord.Interaction[Any]) -> str:
    """What ``interaction`` asked, for the log: ``/wizard stats``, or a click's custom id."""
    command = interaction.command
    if command is not None:
        return f"/{command.qualified_name}"
    data: dict[str, Any] = dict(interaction.data or {})
    return f"the click {data.get('custom_id', '?')}"


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
    ItemAsSent,
    # Every wizb: id but the settings panel's: one not understood is answered as outdated.
    template=rf"(?s){PREFIX}:(?!set:).*",
):
    """Every leaderboard and history component (buttons and the history select): a click
    is routed on its custom id, read once, to the community cog."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Turn the board's page or order, turn the history's page, or show a picked game."""
        custom_id = self.custom_id
        board = BOARD_ID.fullmatch(custom_id)
        page = HISTORY_PAGE_ID.fullmatch(custom_id)
        pick = HISTORY_PICK_ID.fullmatch(custom_id)
        if board is None and page is None and pick is None:
            await reply_privately(interaction, (await reader_texts(interaction))(OUTDATED))
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
                await reply_privately(interaction, (await reader_texts(interaction))(OUTDATED))
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
    """Previous / next (when there is more than one page), and the three orders (the current
    one highlighted)."""
    view = detached_view()
    if board.pages > 1:  # QA: one page showed two greyed-out buttons
        for verb, page, label, disabled in (
            ("p", max(1, board.page - 1), "◀ " + t("Previous"), board.page <= 1),
            ("n", min(board.pages, board.page + 1), t("Next") + " ▶", board.page >= board.pages),
        ):
            view.add_item(
                board_button(verb, board.order, page, owner, label=label, disabled=disabled, row=0)
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


def history_view(
    t: Texts, games: Sequence[GameSummary], before: int | None, *, more: bool
) -> discord.ui.View:
    """The select of the page's games, and the buttons to older games (``more``: there are
    some) and to the newest ones."""
    view = detached_view()
    if games:
        options = []
        for game in games:
            winners = and_list([s.name + computer_mark(s) for s in game.winners], t=t)
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
    if more and games:
        view.add_item(history_button(games[-1].id, label=t("Older games") + " ▶", row=1))
    if before is not None:
        view.add_item(history_button(0, label="⏮ " + t("Newest games"), row=1))
    return view


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


COMMUNITY_ITEMS: Final[tuple[type[discord.ui.DynamicItem[Any]], ...]] = (CommunityItem,)
"""The restart-proof components of this module (``bot.add_dynamic_items``)."""


class CommunityCog(commands.Cog, name=COG_NAME):
    """Leaderboards, statistics and history of one server, read from the game service."""

    def __init__(self, bot: commands.Bot | commands.AutoShardedBot, service: GameService) -> None:
        self.bot = bot
        self.service = service

    # --- leaderboard ------------------------------------------------------------------------

    async def leaderboard(self, interaction: discord.Interaction[Any], order: str | None) -> None:
        """``/wizard leaderboard [order]``: the first page, in public, with the caller's rank;
        only to the caller while the board is empty (as ``/wizard stats`` before a first game),
        rather than a notice of nothing in the channel."""
        guild_id = interaction.guild_id
        if guild_id is None:
            await reply_privately(interaction, (await reader_texts(interaction))(SERVER_ONLY))
            return
        board = await self.service.board(
            guild_id,
            order=order or LeaderboardOrder.RATING,
            per_page=PER_PAGE,
            viewer_id=interaction.user.id,
        )
        private = board.total == 0
        if private:
            t = await reader_texts(interaction)
        else:
            t = await public_texts(self.service, guild_id)
        await interaction.response.send_message(
            embed=board_embed(t, board, None if private else interaction.user.display_name),
            view=board_view(t, board, interaction.user.id),
            ephemeral=private,
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
                t = await reader_texts(interaction)
                embed = board_embed(t, board, None)
            else:
                t = await public_texts(self.service, guild_id)
                embed = board_embed(t, board, interaction.user.display_name)
            await interaction.response.edit_message(embed=embed, view=board_view(t, board, owner))
            return
        # Someone else's board: the page they asked for, just for them, with their rank.
        t = await reader_texts(interaction)
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
            await reply_privately(interaction, (await reader_texts(interaction))(SERVER_ONLY))
            return
        who = member or interaction.user
        card = await self.service.player_card(guild_id, who.id)
        if card is None:
            t = await reader_texts(interaction)
            if who.id == interaction.user.id:  # QA (es): not "eve has not…" to eve herself
                text = t("You have not finished a game of Wizard on this server yet.")
            else:
                text = t(
                    "{name} has not finished a game of Wizard on this server yet.",
                    name=member_name(who.display_name),
                )
            await interaction.response.send_message(text, ephemeral=True)
            return
        # Replaying the latest game and drawing the chart take a moment: say so first.
        await interaction.response.defer(thinking=True)
        t = await public_texts(self.service, guild_id)
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
                # A seat a computer finished is its line, as on the scorepad: its points
                # are the computer's, not the player's (the card above counts a loss). So is
                # one another person took over: "bob → cy".
                names = picture_names(game.players, game.standings, t=t)
                seat, left_as = game.seat_of(who.id), game.left_as(who.id)
                if seat is not None and left_as is not None:
                    names[seat] = f"{left_as} → {names[seat]}"
                png = await asyncio.to_thread(
                    score_chart_png,
                    names,
                    game.history,
                    highlight=seat,
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
            await reply_privately(interaction, (await reader_texts(interaction))(SERVER_ONLY))
            return
        t = await reader_texts(interaction)
        games, more = await self._history_page(guild_id, None)
        await interaction.response.send_message(
            embed=history_embed(t, games, older=False),
            view=history_view(t, games, None, more=more),
            ephemeral=True,
        )

    async def _history_page(
        self, guild_id: int, before: int | None
    ) -> tuple[list[GameSummary], bool]:
        """A page of the history, and whether older games follow it (one more is read)."""
        games = await self.service.recent_games(guild_id, limit=HISTORY_PAGE + 1, before=before)
        return games[:HISTORY_PAGE], len(games) > HISTORY_PAGE

    async def history_page(self, interaction: discord.Interaction[Any], before: int | None) -> None:
        """Older (or the newest) games, in place."""
        guild_id = interaction.guild_id
        if guild_id is None:
            return
        t = await reader_texts(interaction)
        games, more = await self._history_page(guild_id, before)
        await interaction.response.edit_message(
            embed=history_embed(t, games, older=before is not None),
            view=history_view(t, games, before, more=more),
        )

    async def show_game(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """A game picked from the history: its scorepad picture and record file, privately."""
        guild_id = interaction.guild_id
        if guild_id is None:
            return
        t = await reader_texts(interaction)
        game = await self.service.finished_game(guild_id, game_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        theme = (await self.service.get_settings(guild_id)).theme
        png = await asyncio.to_thread(
            scorepad_png,
            picture_names(game.players, game.standings, t=t),
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


def community_commands(cog: CommunityCog) -> list[app_commands.Command[Any, ..., Any]]:
    """The ``/wizard`` subcommands of the community: leaderboard, stats, history."""

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

    return [leaderboard, stats, history]


async def install_community(
    bot: commands.Bot | commands.AutoShardedBot, service: GameService, group: app_commands.Group
) -> CommunityCog:
    """Add the community cog, its ``/wizard`` subcommands (to ``group``) and its restart-proof
    components to ``bot``; call it in ``setup_hook`` before the commands are synced. Running
    it again on the same bot (a reconnect runs ``setup_hook`` again) changes nothing."""
    existing = bot.get_cog(COG_NAME)
    if isinstance(existing, CommunityCog):
        return existing
    bot.add_dynamic_items(*COMMUNITY_ITEMS)
    cog = CommunityCog(bot, service)
    await bot.add_cog(cog)
    for command in community_commands(cog):
        group.add_command(command)
    return cog
