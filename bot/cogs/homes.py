"""Where a game lives, from the server's settings: its own thread when the server wants
games in threads (the language and card theme of its public messages are read in
:mod:`bot.cogs.look`).

These are the pieces the lobby and table code calls (see each function for where):

* :func:`game_home` before ``create_game`` in ``/wizard new``: the channel id to create the
  game in (the new thread's, or the channel's own when threads are off or impossible);
* :func:`retire_home` once a game is over or cancelled: archives the game's thread (a
  finished game's an hour later, so that "Play again" can be pressed).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Final

import discord

from bot.discord_faults import DISCORD_FAILED, failure_text
from bot.i18n import Texts, reader_texts, texts
from wizard.service import GuildSettings

log = logging.getLogger(__name__)

THREAD_NAME_LIMIT: Final = 100
"""Discord's longest channel (and thread) name."""
ARCHIVE_MINUTES: Final = 1440
"""A game's thread archives itself after a day without messages (a game waiting longer opens
it again: ``bot.cogs.messages``)."""
FINISHED_ARCHIVE_MINUTES: Final = 60
"""A finished game's thread archives itself an hour after its last message: its final
standings' "Play again" stays usable meanwhile (Discord greys out the buttons of an archived
thread, and refuses a click there)."""


@dataclass(frozen=True, slots=True)
class GameHome:
    """Where a new game is played."""

    channel_id: int
    """The channel to create the game in: its thread, or the channel itself."""
    thread: discord.Thread | None
    """The game's own thread, if one was opened."""
    note: str | None
    """Why the game stays in the channel although the server wants threads (for the host,
    already translated), or ``None``."""


def thread_name(t: Texts, host: str, game_id: int | None = None) -> str:
    """The name of a game's thread, at most Discord's 100 characters."""
    if game_id is None:
        name = t("Wizard · {host}'s game", host=host)
    else:
        name = t("Wizard · game {game} · {host}", game=game_id, host=host)
    return name[:THREAD_NAME_LIMIT]


async def game_home(
    interaction: discord.Interaction[Any], settings: GuildSettings, *, name: str | None = None
) -> GameHome:
    """Where the game that ``interaction`` (``/wizard new``) opens is played.

    With ``settings.threads`` a public thread of the channel is opened, named ``name``
    (default :func:`thread_name` of the host, in the server's language). The game stays in
    the channel when threads are off, when the command was used inside a thread already
    (that thread is the home), in a channel that has no threads, or when the bot lacks the
    permission or Discord refuses: then ``note`` says why, in the user's language, for the
    host (an ephemeral follow-up, or a line under "the game is open").
    """
    channel_id = interaction.channel_id
    assert channel_id is not None, "a slash command in a server has a channel"
    here = GameHome(channel_id, None, None)
    if not settings.threads:
        return here
    t = await reader_texts(interaction)
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return GameHome(channel.id, channel, None)
    if not isinstance(channel, discord.TextChannel):
        return GameHome(
            channel_id,
            None,
            t("This channel cannot have threads, so the game is played here."),
        )
    allowed = interaction.app_permissions
    if not (allowed.create_public_threads and allowed.send_messages_in_threads):
        return GameHome(channel_id, None, missing_permissions(t))
    title = name or thread_name(texts(settings.language), interaction.user.display_name)
    try:
        thread = await channel.create_thread(
            name=title[:THREAD_NAME_LIMIT],
            type=discord.ChannelType.public_thread,
            auto_archive_duration=ARCHIVE_MINUTES,
            reason="Wizard: a new game",
        )
    except discord.Forbidden:
        return GameHome(channel_id, None, missing_permissions(t))
    except DISCORD_FAILED as error:
        log.warning("could not open a thread for a game in %s: %s", channel_id, failure_text(error))
        return GameHome(
            channel_id,
            None,
            t("Discord did not open a thread for the game, so it is played here."),
        )
    return GameHome(thread.id, thread, None)


def missing_permissions(t: Texts) -> str:
    """What a host reads when the server wants threads the bot may not open."""
    return t(
        "This server plays games in threads, but I may not open one here: I need the "
        "**Create Public Threads** and **Send Messages in Threads** permissions in this "
        "channel. The game is played in the channel instead."
    )


def games_thread(client: discord.Client, channel: object) -> discord.Thread | None:
    """``channel`` if it is a thread this bot opened for a game, else ``None`` (a game
    started inside someone else's thread leaves that thread as it is)."""
    if not isinstance(channel, discord.Thread) or client.user is None:
        return None
    return channel if channel.owner_id == client.user.id else None


async def revive_home(client: discord.Client, channel: object) -> None:
    """A new game opens in ``channel``: if it is a game's thread whose game is over (it
    archives itself an hour after its last message), it keeps a day again, as a game's
    thread does (review: a rematch's lobby went grey an hour after the last game)."""
    thread = games_thread(client, channel)
    if thread is None or thread.auto_archive_duration == ARCHIVE_MINUTES:
        return
    try:
        await thread.edit(auto_archive_duration=ARCHIVE_MINUTES, reason="Wizard: a new game")
    except DISCORD_FAILED as error:
        log.info(
            "could not keep the thread %s of a new game open for a day: %s",
            thread.id,
            failure_text(error),
        )


async def retire_home(client: discord.Client, channel_id: int, *, finished: bool = False) -> None:
    """Archive a cancelled game's thread (nothing for a channel): the thread stays readable,
    and leaves the channel's list of active threads. A ``finished`` game's archives itself
    an hour after its last message (:data:`FINISHED_ARCHIVE_MINUTES`), so that "Play again"
    can be pressed. Only a thread the bot opened is archived (:func:`games_thread`)."""
    try:
        channel = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
        thread = games_thread(client, channel)
        if thread is None or thread.archived:
            return
        if finished:
            await thread.edit(
                auto_archive_duration=FINISHED_ARCHIVE_MINUTES, reason="Wizard: the game is over"
            )
            return
        await thread.edit(archived=True, reason="Wizard: the game is over")
    except DISCORD_FAILED as error:
        log.info(
            "could not archive the thread %s of a finished game: %s",
            channel_id,
            failure_text(error),
        )
