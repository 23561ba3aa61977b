"""The lobby: its embed, its buttons (Join, Leave, Add computer, Start, Cancel,
computers' levels) and the host's selects of the variants and the turn timer, the invitation
to play again and the cancelled game's embed."""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Iterator, Sequence
from typing import Any, Final

import discord

from bot.cogs.clicks import ClickBase, user_is_manager
from bot.cogs.look import public_look, update_look
from bot.cogs.messages import GameMessages, Surface
from bot.cogs.replies import DAMAGED
from bot.discord_faults import DISCORD_FAILED, failure_text
from bot.features.settings_words import (
    BOTH_BIDDINGS,
    VARIANT_KEYS,
    picked_options,
    timer_choices,
    variant_choices,
)
from bot.features.table import table_parts
from bot.i18n import (
    COLOUR,
    N_,
    Texts,
    _bold,
    _escape,
    _relative,
    level_name,
    on_off,
    reader_texts,
    timer_text,
    variants_text,
)
from bot.ui.buttons import (
    DONE_NOTE,
    OUTDATED,
    CustomId,
    Verb,
    button,
    chosen_values,
    detached_view,
    reply_privately,
    select,
)
from bot.ui.layout import BLUE, GREEN, GREY, RED
from wizard.errors import OptionsError
from wizard.options import MAX_PLAYERS, MIN_PLAYERS, Bidding, Options, check_setup
from wizard.service import (
    GameInfo,
    GameStatus,
    GameStatusError,
    GuildSettings,
    ServiceError,
)

log = logging.getLogger(__name__)

# The labels of the lobby's buttons, beside the texts that name them too.
# Translators: a button of the lobby.
JOIN_LABEL: Final = N_("Join")


# Translators: a button of the lobby.
LEAVE_LABEL: Final = N_("Leave")


# Translators: a button of the lobby.
ADD_COMPUTER_LABEL: Final = N_("Add computer player")


# Translators: a button of the lobby (the host removes the computer player added last).
REMOVE_COMPUTER_LABEL: Final = N_("Remove computer player")


# Translators: a button of the lobby (the host starts the game).
START_LABEL: Final = N_("Start")


# Translators: a button of the lobby (the host cancels the game).
CANCEL_LABEL: Final = N_("Cancel")


# Translators: the host's switch in the lobby; {state} is “on” or “off”.
SEAT_TAKING_LABEL: Final = N_("Let others take computer seats: {state}")


def seat_taking_line(allowed: bool, *, t: Texts) -> str:
    """The lobby's line saying whether people who are not seated may take computer seats."""
    if allowed:
        return "🙋 " + t("People who are not playing may take over a computer's seat.")
    return "🙋 " + t("Nobody else can take over a computer's seat.")


def lobby_embed(
    *,
    game_id: int,
    seats: Sequence[tuple[str, bool]],
    host_seat: int | None,
    options: Options,
    turn_seconds: float | None,
    max_seats: int,
    deadline: float | None = None,
    t: Texts,
    levels: Sequence[str | None] = (),
    lobby_level: str | None = None,
    seat_taking: bool | None = None,
) -> discord.Embed:
    """The lobby: who has joined (``seats`` are ``(name, is_computer)`` pairs, ``levels`` the
    level of each computer seat), the level of computers added, the variants, the turn timer
    and how to start."""
    names = _escape(name for name, _ in seats)
    lines = [
        t("**Players ({players} of 3–{max_seats}):**", players=len(seats), max_seats=max_seats)
    ]
    for seat, (name, (_, computer)) in enumerate(zip(names, seats, strict=True)):
        tags = []
        if computer:
            # Translators: a tag after a name in the lobby: a computer player.
            tags.append("🤖 " + t("computer"))
            if seat < len(levels) and levels[seat] is not None:
                tags.append(level_name(levels[seat], t=t))
        if seat == host_seat:
            tags.append(t("host"))
        suffix = f" ({', '.join(tags)})" if tags else ""
        lines.append(f"{seat + 1}. **{name}**{suffix}")
    lines += [
        "",
        t(VARIANTS_LINE, variants=variants_text(options, t=t)),
        t(TIMER_LINE, timer=timer_text(turn_seconds, t=t)),
        *(
            [
                # Translators: the level of the computer players the lobby's button adds from
                # now on (those seated already show their own level above).
                t("**New computer players:** {level}", level=level_name(lobby_level, t=t))
            ]
            if lobby_level is not None
            else []
        ),
        *([] if seat_taking is None else [seat_taking_line(seat_taking, t=t)]),
        "",
        t(
            # Translators: {join} and {start} are the lobby's buttons.
            "Press {join} to take a seat. The host presses {start} once 3 to {max_seats} "
            "players are in (add computer players to fill seats).",
            join=_bold(t(JOIN_LABEL)),
            start=_bold(t(START_LABEL)),
            max_seats=max_seats,
        ),
    ]
    if deadline is not None:
        lines.append(
            t("This lobby closes {when} unless the game starts.", when=_relative(deadline))
        )
    embed = discord.Embed(title=t("Wizard · game {game} · lobby", game=game_id), colour=COLOUR)
    embed.description = "\n".join(lines)
    return embed


def invitation_text(game_id: int, previous: int, mentions: Sequence[str], *, t: Texts) -> str:
    """The line above a "Play again" lobby: who played game ``previous`` (``mentions``,
    each told once, by Discord) and how they take their seat again. It does not say "same
    options": the host may change them before the start, and the lobby shows them."""
    line = t("🔁 **Game {game}:** a rematch of game {previous}.", game=game_id, previous=previous)
    if mentions:
        line += "\n" + _invite_line(mentions, t=t)
    return line


def _invite_line(mentions: Sequence[str], *, t: Texts) -> str:
    return t(
        # Translators: {players} are mentions; {join} is the lobby's button.
        "{players}: press {join} to play again.",
        players=" ".join(mentions),
        join=_bold(t(JOIN_LABEL)),
    )


_MENTION = re.compile(r"<@(\d+)>")


def invitation_left(content: str, info: GameInfo, *, t: Texts) -> str:
    """The invitation above a "Play again" lobby (``content``, see :func:`invitation_text`)
    once some of the people it mentions have a seat: it asks only those still without one,
    and no one once all have joined (QA: it kept asking those who had)."""
    first, _, rest = content.partition("\n")
    waiting = [f"<@{m}>" for m in _MENTION.findall(rest) if info.seat_of(int(m)) is None]
    return "\n".join([first, _invite_line(waiting, t=t)] if waiting else [first])


VARIANTS_LINE: Final = N_("**Variants:** {variants}")
TIMER_LINE: Final = N_("**Timer:** {timer}")
"""The lobby's lines of its options, also what a pick in its selects says it saved."""


CANCEL_REASONS: Final[dict[str, str]] = {
    "host": N_("The host cancelled the game."),
    "manager": N_("A server manager cancelled the game."),
    "expired": N_("Nobody started the game in time, so the lobby closed."),
    "empty": N_("Everyone left the lobby."),
    "abandoned": N_("Nobody plays this game any more, so it stopped."),
    "channel_deleted": N_("The game's channel or thread was deleted."),
    "server_left": N_("The Wizard bot was removed from this server."),
}


CANCELLED: Final = N_("The game was cancelled.")
"""Why a game was cancelled, for a reason :data:`CANCEL_REASONS` does not know."""


def cancelled_by(info: GameInfo, user_id: int) -> str:
    """The reason (of :data:`CANCEL_REASONS`) of a game ``user_id`` cancelled: the host's,
    or otherwise a server manager's (``info`` as the cancel returned it)."""
    return "host" if user_id == info.host_id else "manager"


JOINED: Final = N_("You joined game {game}.")
LEFT: Final = N_("You left game {game}.")
COMPUTER_ADDED: Final = N_("A computer player joined game {game}.")
COMPUTER_REMOVED: Final = N_("A computer player left game {game}.")
STARTED: Final = N_("Game {game} has started.")


async def counted(interaction: discord.Interaction[Any], done: str | None, **params: Any) -> None:
    """Keep what a lobby click did (``done``, with ``params``; "✅" alone for ``None``) for
    the player, in their language: should Discord refuse the click's answer, they are told
    that it counted rather than to try again."""
    note = None if done is None else "✅ " + (await reader_texts(interaction))(done, **params)
    interaction.extras[DONE_NOTE] = note


def cancelled_embed(game_id: int, reason: str, *, t: Texts) -> discord.Embed:
    """A lobby or table that will not go on."""
    text = t(CANCEL_REASONS.get(reason, CANCELLED))
    embed = discord.Embed(title=t("Wizard · game {game} · cancelled", game=game_id), colour=COLOUR)
    embed.description = f"🛑 {text} " + t("No result is recorded.")
    return embed


def cancelled_note(game_id: int, reason: str, *, t: Texts) -> str:
    """A game's cancellation in one line, for a channel where its lobby or table is not
    (the channel of its thread, which was deleted)."""
    text = t(CANCEL_REASONS.get(reason, CANCELLED))
    cancelled = t("Game {game} is cancelled.", game=game_id)
    return f"🛑 {cancelled} {text} " + t("No result is recorded.")


def damaged_embed(game_id: int, *, t: Texts) -> discord.Embed:
    """A lobby or table whose game was found damaged (quarantined by the service)."""
    embed = discord.Embed(title=t("Wizard · game {game} · damaged", game=game_id), colour=COLOUR)
    embed.description = f"⚠️ {t(DAMAGED)} " + t("No result is recorded.")
    return embed


def seat_limit(options: Options) -> int:
    """The most players a game with ``options`` can have, as the engine says (R2.1; single
    suit is for 3 or 4, R7.7)."""
    for players in range(MAX_PLAYERS, MIN_PLAYERS - 1, -1):
        try:
            check_setup(options, players)
        except OptionsError:
            continue
        return players
    return MAX_PLAYERS  # options that no table size fixes: the start will say why


def lobby_view(
    game: int,
    version: int,
    *,
    t: Texts,
    players: int | None = None,
    max_seats: int = MAX_PLAYERS,
    computers: Sequence[tuple[int, str, str | None]] = (),
    seat_taking: bool | None = None,
    options: Options | None = None,
    turn_seconds: float | None = None,
) -> discord.ui.View:
    """Join, Leave, Add computer player, Start (host), Cancel (host); a button per
    computer (``computers``: seat, name, level) that moves it to the next level (host),
    "Remove computer player" (host); with ``seat_taking`` known,
    the host's switch letting others take computer seats; and with ``options`` known, the
    host's selects of the variants and of the turn timer (``turn_seconds`` chosen).

    With ``players`` (the seats taken) known: "Remove computer player" is disabled while
    there is none, "Add computer player" once the table is full, Join too unless a person
    may take a computer's seat, and Start until :data:`~wizard.options.MIN_PLAYERS` have
    joined, each with the count that says why in its label ("Add computer player (6/6)",
    "Join (6/6)", "Start (2/3)").
    """
    full = players is not None and players >= max_seats
    too_few = players is not None and players < MIN_PLAYERS
    count = f" ({players}/{max_seats})"
    add = t(ADD_COMPUTER_LABEL) + (count if full else "")
    # A person joining a full lobby takes a computer's seat where the host lets them.
    closed = full and not (computers and seat_taking)
    join = t(JOIN_LABEL) + (count if closed else "")
    start = t(START_LABEL) + (f" ({players}/{MIN_PLAYERS})" if too_few else "")
    view = detached_view()
    view.add_item(
        button(CustomId(game, Verb.JOIN, "", version), label=join, style=GREEN, disabled=closed)
    )
    view.add_item(button(CustomId(game, Verb.LEAVE, "", version), label=t(LEAVE_LABEL)))
    view.add_item(
        button(CustomId(game, Verb.ADDBOT, "", version), label=add, emoji="🤖", disabled=full)
    )
    view.add_item(
        button(
            CustomId(game, Verb.START, "", version),
            label=start,
            style=GREY if too_few else BLUE,
            disabled=too_few,
        )
    )
    view.add_item(
        button(CustomId(game, Verb.CANCEL, "", version), label=t(CANCEL_LABEL), style=RED)
    )
    for seat, name, level in computers[: MAX_PLAYERS - 1]:
        # The label says the level now; the click moves on to the next one.
        following = next_level(level)
        view.add_item(
            button(
                CustomId.for_level(game, seat, following, version),
                label=f"{name}: {level_name(level, t=t)}"[:80],
                emoji="🤖",
                row=1,
            )
        )
    # The id holds the computers a click leaves: a double click removes one.
    keep = max(len(computers) - 1, 0)
    view.add_item(
        button(
            CustomId(game, Verb.DROPBOT, str(keep), version),
            label=t(REMOVE_COMPUTER_LABEL),
            emoji="🤖",
            disabled=players is not None and not computers,
            row=2,
        )
    )
    if seat_taking is not None:
        # The id holds the value a click sets: a double click sets it once.
        view.add_item(
            button(
                CustomId(game, Verb.SEATTAKING, "0" if seat_taking else "1", version),
                label=t(SEAT_TAKING_LABEL, state=on_off(seat_taking, t=t)),
                emoji="🙋",
                style=GREEN if seat_taking else GREY,
                row=2,
            )
        )
    if options is not None:
        view.add_item(variants_select(game, options, t=t))
        view.add_item(timer_select(game, turn_seconds, t=t))
    return view


SELECT_VERSION: Final = 0
"""The version in a lobby select's custom id, whatever the lobby's: a pick is the whole
choice, and a join while the host picks must not make Discord refuse the pick of a menu
whose id the lobby's redraw changed (QA)."""


def variants_select(game: int, options: Options, *, t: Texts) -> discord.ui.Item[Any]:
    """The host's select of the variants, those of ``options`` picked (none: the classic
    game, which its placeholder names)."""
    return select(
        CustomId(game, Verb.OPTIONS, "", SELECT_VERSION),
        variant_choices(options, t=t),
        placeholder=t("Variants: {variants}", variants=variants_text(Options(), t=t)),
        min_values=0,
        max_values=len(VARIANT_KEYS),
        row=3,
    )


def timer_select(game: int, turn_seconds: float | None, *, t: Texts) -> discord.ui.Item[Any]:
    """The host's select of the turn timer: the usual limits, and ``turn_seconds`` (picked)
    where a command chose another."""
    current = round(turn_seconds or 0)
    return select(
        CustomId(game, Verb.TIMER, "", SELECT_VERSION),
        [
            discord.SelectOption(
                label=timer_text(seconds or None, t=t),
                value=str(seconds),
                default=seconds == current,
            )
            for seconds in timer_choices(turn_seconds)
        ],
        row=4,
    )


def next_level(level: str | None) -> str:
    """The level a computer's level button moves to: the next of the levels people are
    offered (Easy → Normal → Easy), or the first for a level they are not offered."""
    order = GuildSettings.USER_LEVELS
    if level not in order:
        return order[0]
    return order[(order.index(level) + 1) % len(order)]


def lobby_view_of(info: GameInfo, *, t: Texts) -> discord.ui.View:
    """The lobby buttons of ``info``, disabled where its seats say so (:func:`lobby_view`)."""
    return lobby_view(
        info.id,
        info.version,
        t=t,
        players=len(info.seats),
        max_seats=seat_limit(info.options),
        computers=[(s.seat, s.name, s.level) for s in info.seats if s.is_computer],
        seat_taking=info.allow_seat_taking,
        options=info.options,
        turn_seconds=info.turn_seconds,
    )


SINGLE_SUIT_SEATS = 4
"""Single suit (R7.7) is for 3 or 4 players."""


def lobby_embed_of(info: GameInfo, *, t: Texts) -> discord.Embed:
    """The lobby message of ``info``, in the language of ``t`` (the server's)."""
    host = info.seat_of(info.host_id)
    return lobby_embed(
        t=t,
        game_id=info.id,
        seats=[(s.name, s.is_computer) for s in info.seats],
        levels=[s.level if s.is_computer else None for s in info.seats],
        lobby_level=info.computer_level,
        host_seat=host,
        options=info.options,
        turn_seconds=info.turn_seconds,
        max_seats=SINGLE_SUIT_SEATS if info.options.single_suit else MAX_PLAYERS,
        deadline=info.deadline,
        seat_taking=info.allow_seat_taking,
    )


class LobbyMessages(GameMessages):
    """Publishing the lobby: what no click's own response redraws."""

    async def _lobby(self, surface: Surface, info: GameInfo) -> None:
        if surface.lobby_id is None:
            return
        # Clicks redraw the lobby in their own responses; this covers what no click answers
        # (a kick by command), so it is never skipped as "already shown".
        t, _ = await public_look(self.service, info.guild_id)
        lobby = {"embed": lobby_embed_of(info, t=t), "view": lobby_view_of(info, t=t)}
        await self._edit(surface, surface.lobby_id, **lobby)

    async def invitation_answered(self, info: GameInfo) -> None:
        """A "Play again" press seated someone in the rematch's open lobby: the lobby's text
        then asks only those still without a seat, as after its own Join (which redraws it
        in the click's response). Read from the message as it stands, so that it holds
        after a restart and never asks again someone who was removed (QA)."""
        surface = self.adopt(info)
        if surface.lobby_id is None:
            return
        try:
            message = await self._channel(surface).fetch_message(surface.lobby_id)
        except DISCORD_FAILED as error:
            log.info(
                "game %s: lobby %s not read: %s", info.id, surface.lobby_id, failure_text(error)
            )
            return
        if message.content:
            t, _ = await public_look(self.service, info.guild_id)
            content = invitation_left(message.content, info, t=t)
            if content != message.content:
                await self._edit(surface, surface.lobby_id, content=content)


class LobbyClicks(ClickBase):
    """The lobby's buttons: Join, Leave, Add computer, a computer's level, Start, Cancel."""

    async def _join(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        user = interaction.user
        info = await self._timely(
            interaction, self.service.join(cid.game, user.id, user.display_name), update=True
        )
        await self._show_lobby(interaction, info, JOINED)

    async def _leave(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        # A game that started meanwhile is refused ("already started"): a seat in a running
        # game goes to a computer only from the hand's Leave, which asks first.
        info = await self._timely(
            interaction,
            self.service.leave(cid.game, interaction.user.id, lobby_only=True),
            update=True,
        )
        if info.status is GameStatus.CANCELLED:
            await self._show_cancelled(interaction, info, "empty")
            return
        await self._show_lobby(interaction, info, LEFT)

    async def _addbot(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        info = await self._timely(
            interaction,
            self.service.add_computer(
                cid.game, interaction.user.id, is_manager=user_is_manager(interaction)
            ),
            update=True,
        )
        await self._show_lobby(interaction, info, COMPUTER_ADDED)

    async def _dropbot(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        info = await self._timely(
            interaction,
            self.service.remove_computer(
                cid.game,
                interaction.user.id,
                keep=cid.keep,
                is_manager=user_is_manager(interaction),
            ),
            update=True,
        )
        await self._show_lobby(interaction, info, COMPUTER_REMOVED)

    async def _level(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        seat, level = cid.seat_level
        info = await self._timely(
            interaction,
            self.service.set_computer_level(
                cid.game,
                interaction.user.id,
                level,
                seat=seat,
                is_manager=user_is_manager(interaction),
            ),
            update=True,
        )
        await self._show_lobby(interaction, info)

    async def _seat_taking(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        """The host's switch: others may take computer seats, or not (``not_host`` else)."""
        info = await self._timely(
            interaction,
            self.service.set_seat_taking(
                cid.game,
                interaction.user.id,
                cid.switch,
                is_manager=user_is_manager(interaction),
            ),
            update=True,
        )
        await self._show_lobby(interaction, info)

    async def _options(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        """The host's select of the variants: the variants picked are the game's, unless the
        service refuses them (``not_host``, or options the rules refuse: R7.8)."""
        keys = set(chosen_values(interaction))
        t = await reader_texts(interaction)
        if not keys <= set(VARIANT_KEYS):
            await reply_privately(interaction, t(OUTDATED))
            return
        if {"hidden", "secret"} <= keys:
            self._put_back(cid)
            await reply_privately(interaction, "⚠️ " + t(BOTH_BIDDINGS))
            return
        with self._put_back_if_refused(cid):
            info = await self._timely(
                interaction,
                self.service.set_options(
                    cid.game,
                    interaction.user.id,
                    picked_options(keys),
                    is_manager=user_is_manager(interaction),
                ),
                update=True,
            )
        shown = variants_text(info.options, t=await reader_texts(interaction))
        await self._show_lobby(interaction, info, VARIANTS_LINE, variants=shown)

    async def _timer(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        """The host's select of the turn timer (seconds, ``0`` for none)."""
        try:
            [seconds] = [int(value) for value in chosen_values(interaction)]
        except ValueError:
            await reply_privately(interaction, (await reader_texts(interaction))(OUTDATED))
            return
        with self._put_back_if_refused(cid):
            info = await self._timely(
                interaction,
                self.service.set_turn_timer(
                    cid.game,
                    interaction.user.id,
                    float(seconds) if seconds else None,
                    is_manager=user_is_manager(interaction),
                ),
                update=True,
            )
        shown = timer_text(info.turn_seconds, t=await reader_texts(interaction))
        await self._show_lobby(interaction, info, TIMER_LINE, timer=shown)

    def _put_back(self, cid: CustomId) -> None:
        """The lobby drawn again as stored: Discord keeps a pick nobody saved in the
        picker's select until the message changes."""
        self.surfaces.request(self.surfaces.get(cid.game))

    @contextlib.contextmanager
    def _put_back_if_refused(self, cid: CustomId) -> Iterator[None]:
        """A select's pick that the service refuses leaves the lobby as stored
        (:meth:`_put_back`); the refusal goes on to the player."""
        try:
            yield
        except ServiceError:
            self._put_back(cid)
            raise

    async def _show_lobby(
        self,
        interaction: discord.Interaction[Any],
        info: GameInfo,
        done: str | None = None,
        **params: str,
    ) -> None:
        """The clicked lobby redrawn (public: in the server's language). ``done`` (with
        ``params``) says what the click did: should Discord refuse the redraw, the player is
        told it privately."""
        await counted(interaction, done, game=info.id, **params)
        parts = await self._lobby_parts(info)
        message = interaction.message
        if message is not None and message.content:  # a "Play again" lobby's invitation
            t, _ = await public_look(self.service, info.guild_id)
            parts["content"] = invitation_left(message.content, info, t=t)
        await self._edit_clicked(interaction, **parts)

    async def _show_cancelled(
        self, interaction: discord.Interaction[Any], info: GameInfo, reason: str
    ) -> None:
        """The clicked lobby or table becomes the cancellation; the game's thread retires."""
        t, _ = await public_look(self.service, info.guild_id)
        embed = cancelled_embed(info.id, reason, t=t)
        await counted(interaction, CANCEL_REASONS.get(reason, CANCELLED))
        surface = self.surfaces.adopt(info)
        self.surfaces.note_cancelled(surface, embed)
        # A rematch's invitation goes too: there is no lobby left to join.
        await self._edit_clicked(interaction, content="", embed=embed, view=None)
        self.surfaces.refresh_hands(info.id, None)
        await self.surfaces.retire(surface)

    async def _start(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        try:
            update = await self._timely(
                interaction,
                self.service.start(
                    cid.game, interaction.user.id, is_manager=user_is_manager(interaction)
                ),
                update=True,
            )
        except GameStatusError:
            # The second click of the host's double click: the game they started, started.
            info = await self.service.get_game(cid.game)
            if info.status is not GameStatus.ACTIVE or info.host_id != interaction.user.id:
                raise
            t = await reader_texts(interaction)
            await self._send_private(interaction, "✅ " + t(STARTED, game=cid.game))
            return
        await counted(interaction, STARTED, game=cid.game)
        message = interaction.message
        assert message is not None
        # The lobby message becomes the table: one edit, and the table's id is the lobby's.
        # The surface is set up and locked before anything can yield, so that computer moves
        # made meanwhile are rendered after (and on top of) this edit.
        surface = self.surfaces.get(cid.game)
        surface.loaded = True
        surface.channel_id = interaction.channel_id
        surface.guild_id = interaction.guild_id
        surface.lobby_id = surface.table_id = message.id
        # The update shows the whole game as it started: the sync renders it, reads nothing.
        surface.must_read = update.info is None
        try:
            async with surface.lock:
                self.surfaces.after_update(update)
                info = update.info or await self.service.get_game(cid.game)
                surface.open_bidding = info.options.bidding is Bidding.OPEN
                t, theme = await update_look(self.service, update, info.guild_id)
                embed, view = table_parts(info, t=t, theme=theme)
                # A "Play again" lobby's invitation is no part of the table.
                content = "" if message.content else None
                await self._edit_clicked(interaction, content=content, embed=embed, view=view)
                # Not before the edit succeeded: if it failed, the sync task edits it again.
                self.surfaces.note_table(surface, message.id, embed, view)
        finally:
            await self.service.set_message_ids(cid.game, table_message_id=message.id)

    async def _cancel(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        user = interaction.user.id
        info = await self._timely(
            interaction,
            self.service.cancel(
                cid.game, user, is_manager=user_is_manager(interaction), lobby_only=True
            ),
            update=True,
        )
        await self._show_cancelled(interaction, info, cancelled_by(info, user))

    async def _lobby_parts(self, info: GameInfo) -> dict[str, Any]:
        """The lobby message of ``info`` (embed and buttons), in the server's language."""
        t, _ = await public_look(self.service, info.guild_id)
        return {"embed": lobby_embed_of(info, t=t), "view": lobby_view_of(info, t=t)}
