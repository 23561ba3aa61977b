"""Discord locales for simulated members: SimCord 3.2.1 sends every interaction as ``en-US``.

Real Discord tells the bot, in every interaction, the member's own client language
(``locale``) and the server's (``guild_locale``, its *preferred locale*). SimCord 3.2.1
hard-codes both to ``"en-US"`` in :func:`simcord.interactions.base_payload`, which builds the
``INTERACTION_CREATE`` payload of every slash command, click, select and modal (and which
``tests.bot.conftest.clicks_at_once`` calls too). :func:`user_locales` wraps that builder for
one test::

    def test_something(monkeypatch: pytest.MonkeyPatch) -> None:
        locales = user_locales(monkeypatch)
        async with simulation(tmp_path) as sim:
            ann, bob = sim.members[:2]
            locales[ann] = "de"                   # or discord.Locale.german
            locales[bob] = "it"
            await ann.slash(sim.channel, "wizard ping")   # interaction.locale == Locale.german

- members without a chosen locale keep SimCord's ``en-US``;
- ``guild_locale`` becomes the server's preferred locale, as on Discord: set it with
  ``env.create_guild(..., preferred_locale="it")`` (or ``guild.edit``); SimCord's default
  server is ``en-US``;
- ``monkeypatch`` undoes the wrapping when the test ends.

Only the two locale fields change; everything else is SimCord's own payload.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import discord
from simcord import interactions as simcord_interactions

if TYPE_CHECKING:
    import pytest

SIMCORD_DEFAULT = "en-US"
"""What SimCord sends for a member without a chosen locale."""


class UserLocales:
    """The Discord locale of each simulated user (by id, or any handle with an ``id``)."""

    def __init__(self) -> None:
        self._by_user: dict[int, str] = {}

    def __setitem__(self, user: object, locale: str | discord.Locale) -> None:
        chosen = locale if isinstance(locale, discord.Locale) else discord.Locale(locale)
        self._by_user[_user_id(user)] = chosen.value

    def __getitem__(self, user: object) -> str:
        return self._by_user.get(_user_id(user), SIMCORD_DEFAULT)

    def __delitem__(self, user: object) -> None:
        self._by_user.pop(_user_id(user), None)

    def wrap(self, build: Callable[..., tuple[Any, dict[str, Any]]]) -> Callable[..., Any]:
        """``build`` (SimCord's payload builder), giving each user their locale."""

        def base_payload(backend: Any, **fields: Any) -> tuple[Any, dict[str, Any]]:
            record, payload = build(backend, **fields)
            payload["locale"] = self[fields["user_id"]]
            guild_id = fields.get("guild_id")
            if guild_id is not None:
                payload["guild_locale"] = backend.get_guild(guild_id).preferred_locale
            return record, payload

        return base_payload


def user_locales(monkeypatch: pytest.MonkeyPatch) -> UserLocales:
    """Make this test's interactions carry per-user locales (see the module)."""
    locales = UserLocales()
    wrapped = locales.wrap(simcord_interactions.base_payload)
    monkeypatch.setattr(simcord_interactions, "base_payload", wrapped)
    return locales


@contextlib.contextmanager
def users_locales() -> Iterator[UserLocales]:
    """:func:`user_locales` outside a test (``scripts/screenshots.py``, which the ``demo``
    extra runs without pytest): undone when the ``with`` block ends."""
    locales = UserLocales()
    build = simcord_interactions.base_payload
    simcord_interactions.base_payload = locales.wrap(build)
    try:
        yield locales
    finally:
        simcord_interactions.base_payload = build


def _user_id(user: object) -> int:
    return user if isinstance(user, int) else int(getattr(user, "id"))  # noqa: B009
