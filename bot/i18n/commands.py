"""Slash commands in every language: Discord's own localisations, from the same catalogues.

Command texts are written in the code as ``locale_str`` (discord.py's marker for a text the
tree's translator localises) and extracted like every other text:

* a command, group or option **name**: :func:`command_name` (``locale_str`` in the gettext
  context :data:`NAME_CONTEXT`, so that the name ``new`` and a button ``New`` are two texts);
* a description or a choice's name: ``locale_str("Open a game of Wizard in this channel")``.

An option's name is only localised when the option is renamed to a marked name:
``@app_commands.rename(bidding=command_name("bidding"))``.

:class:`CommandTranslator`, set on the bot's tree before the commands are synced, turns these
into ``name_localizations`` and ``description_localizations`` for every Discord locale with a
catalogue: German (``de``), Italian (``it``), Spanish (``es-ES``, ``es-419``) and Portuguese
(``pt-BR``). English (``en-US``, ``en-GB``) is the text in the code. Discord has no Catalan
locale: Catalan only reaches people as a server's language for public messages.
"""

from __future__ import annotations

import logging
from typing import Final

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Location
from discord.app_commands import TranslationContextTypes, locale_str

from bot.i18n import DEFAULT_LANGUAGE, Texts, language_of, texts

log = logging.getLogger(__name__)

NAME_CONTEXT: Final = "command name"
"""The gettext context (``msgctxt``) of command, group and option names."""
NAME_LOCATIONS: Final = frozenset(
    {Location.command_name, Location.group_name, Location.parameter_name}
)
NAME_LIMIT: Final = 32
"""Discord's longest command, group or option name."""
TEXT_LIMIT: Final = 100
"""Discord's longest command description, option description or choice name."""


def command_name(name: str) -> locale_str:
    """Mark the name of a command, group or option for translation (see the module)."""
    return locale_str(name, context=NAME_CONTEXT)


DISCORD_LANGUAGES: Final = frozenset(language_of(locale) for locale in discord.Locale)
"""The catalogue languages Discord shows commands in (Catalan is none: Discord has no
Catalan locale, so a Catalan server's members see the English names)."""


def typed_command(*names: str, t: Texts) -> str:
    """A ``/wizard`` command as the members of a server speaking ``t``'s language find it
    in Discord, for a public message (``typed_command("new", t=t)``: `` `/wizard new` ``):
    its names as Discord localises them there, else the English ones."""
    words = ("wizard", *names)
    if t.language in DISCORD_LANGUAGES:
        words = tuple(t.context(NAME_CONTEXT, word) for word in words)
    return "`/" + " ".join(words) + "`"


def valid_command_name(name: str) -> bool:
    """Whether Discord accepts ``name`` as a (localised) command, group or option name:
    1 to 32 lowercase letters, digits, ``-`` or ``_``, letters of any script."""
    return (
        0 < len(name) <= NAME_LIMIT
        and name == name.lower()
        and all(c.isalnum() or c in "-_" for c in name)
    )


class CommandTranslator(app_commands.Translator):
    """Localises the marked command texts from the catalogues (see the module).

    A text without a translation, or with one Discord would refuse (an invalid name, a text
    too long), gets no localisation: Discord then shows the English one.
    """

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: TranslationContextTypes
    ) -> str | None:
        language = language_of(locale)
        if language == DEFAULT_LANGUAGE:
            return None
        is_name = context.location in NAME_LOCATIONS
        msgctxt = string.extras.get("context", NAME_CONTEXT if is_name else None)
        text = texts(language).translated(string.message, msgctxt)
        if text is None:
            return None
        valid = valid_command_name(text) if is_name else 0 < len(text) <= TEXT_LIMIT
        if not valid:
            log.error(
                "catalogue %s: %r is not a valid Discord %s", language, text, context.location.name
            )
            return None
        return text
