"""A server's look: the language and card theme of its public messages.

Every feature renders under the server's settings; while one update is being rendered
(:func:`known_settings`), the settings it was made under are used without reading them again.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import discord

from bot.i18n import Texts, language_of, texts
from wizard.cards import Theme
from wizard.service import GameService, GameUpdate, GuildSettings


@dataclass(eq=False)
class _Known:
    """A server's settings as the update being rendered carried them."""

    service: GameService
    guild_id: int
    settings: GuildSettings
    live: bool = True
    """Only while the render runs: a timer or task armed meanwhile copies the context, and
    must read the settings as they are when it fires."""


_KNOWN: ContextVar[_Known | None] = ContextVar("wizard_known_settings", default=None)


@contextmanager
def known_settings(service: GameService, guild_id: int, settings: GuildSettings) -> Iterator[None]:
    """Within the block (one sync task rendering an update), ``service``'s settings of
    ``guild_id`` are ``settings``: the ones the update was made under, so that every
    feature's rendering of it speaks the server's language without reading them again."""
    known = _Known(service, guild_id, settings)
    token = _KNOWN.set(known)
    try:
        yield
    finally:
        known.live = False
        _KNOWN.reset(token)


async def server_settings(service: GameService, guild_id: int | None) -> GuildSettings:
    """The server's settings (the defaults outside a server)."""
    if guild_id is None:
        return GuildSettings()
    known = _KNOWN.get()
    if known is not None and known.live and known.service is service and known.guild_id == guild_id:
        return known.settings
    return await service.get_settings(guild_id)


async def public_texts(service: GameService, guild_id: int | None) -> Texts:
    """The texts of a server's public messages: the language the server chose."""
    return texts((await server_settings(service, guild_id)).language)


async def public_theme(service: GameService, guild_id: int | None) -> Theme:
    """How cards look in a server's messages and pictures (R1.5)."""
    return (await server_settings(service, guild_id)).theme


def hear_languages(service: GameService, guilds: Iterable[discord.Guild]) -> None:
    """Tell the service the language each server speaks on Discord (its preferred locale):
    the language of its public messages until a manager saves settings."""
    for guild in guilds:
        service.set_home_language(guild.id, language_of(guild.preferred_locale))


async def public_look(service: GameService, guild_id: int | None) -> tuple[Texts, Theme]:
    """The language (as its texts) and the card theme of a server's public messages."""
    settings = await server_settings(service, guild_id)
    return texts(settings.language), settings.theme


async def update_look(
    service: GameService, update: GameUpdate, guild_id: int | None
) -> tuple[Texts, Theme]:
    """:func:`public_look` under the settings ``update`` was made under (read if it has none)."""
    if update.settings is None or guild_id is None:
        return await public_look(service, guild_id)
    return texts(update.settings.language), update.settings.theme
