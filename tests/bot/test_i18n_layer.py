"""The translation layer: which language a Discord locale gets, texts with placeholders,
plural forms and contexts, and the slash commands' translator."""

from __future__ import annotations

import gettext
import io
import logging
from typing import Any

import discord
import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from discord.app_commands import TranslationContext, locale_str
from discord.app_commands import TranslationContextLocation as Location

from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, Texts, language_of, texts
from bot.i18n import commands as i18n_commands
from bot.i18n.commands import NAME_CONTEXT, CommandTranslator, command_name, valid_command_name


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        (discord.Locale.german, "de"),
        (discord.Locale.italian, "it"),
        (discord.Locale.spain_spanish, "es"),
        (discord.Locale.latin_american_spanish, "es"),
        (discord.Locale.brazil_portuguese, "pt"),
        (discord.Locale.american_english, "en"),
        (discord.Locale.british_english, "en"),
        (discord.Locale.french, "en"),
        (discord.Locale.japanese, "en"),
        ("pt-BR", "pt"),
        ("es-419", "es"),
        ("en-GB", "en"),
        ("de_AT", "de"),
        ("ca", "ca"),
        ("CA", "ca"),
        ("xx", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_language_of_a_discord_locale(locale: object, language: str) -> None:
    assert language_of(locale) == language
    assert texts(locale).language == language


def test_every_discord_locale_has_a_language() -> None:
    served = {language_of(locale) for locale in discord.Locale}
    assert served == set(LANGUAGES) - {"ca"}  # Discord has no Catalan locale
    assert texts(discord.Locale.german) is texts("de")


def test_texts_in_english_and_in_the_catalogues() -> None:
    pong = "Pong! Wizard is up (shard {shard} of {count})."
    assert texts("en")(pong, shard=0, count=1) == "Pong! Wizard is up (shard 0 of 1)."
    assert texts("de")(pong, shard=0, count=2) == "Pong! Wizard läuft (Shard 0 von 2)."
    assert texts("it")(pong, shard=1, count=2) == "Pong! Wizard è attivo (shard 1 di 2)."
    assert texts("de")("A text nobody translated") == "A text nobody translated"


def test_contexts_keep_texts_apart() -> None:
    t = texts("de")
    assert t.context(NAME_CONTEXT, "new") == "neu"
    assert t("new") == "new"  # the same English without the context is another text
    assert t.translated("new", NAME_CONTEXT) == "neu"
    assert t.translated("new") is None
    assert texts("en").translated("new", NAME_CONTEXT) is None


def made_up(language: str, entries: dict[Any, Any], context: str | None = None) -> Texts:
    """A Texts over an in-memory catalogue of ``entries``."""
    catalogue = Catalog(locale=language, fuzzy=False)
    for english, translation in entries.items():
        catalogue.add(english, translation, context=context)
    mo = io.BytesIO()
    write_mo(mo, catalogue)
    mo.seek(0)
    return Texts(language, gettext.GNUTranslations(mo))


def test_plural_forms() -> None:
    english = Texts(DEFAULT_LANGUAGE, gettext.NullTranslations())
    german = made_up("de", {("{n} trick", "{n} tricks"): ("{n} Stich", "{n} Stiche")})
    for n, en, de in [
        (0, "0 tricks", "0 Stiche"),
        (1, "1 trick", "1 Stich"),
        (2, "2 tricks", "2 Stiche"),
    ]:
        assert english.plural("{n} trick", "{n} tricks", n) == en
        assert german.plural("{n} trick", "{n} tricks", n) == de
    italian = made_up(
        "it",
        {
            ("one trick for {who}", "{n} tricks for {who}"): (
                "una presa per {who}",
                "{n} prese per {who}",
            )
        },
    )
    assert (
        italian.plural("one trick for {who}", "{n} tricks for {who}", 1, who="Ann")
        == "una presa per Ann"
    )
    assert (
        italian.plural("one trick for {who}", "{n} tricks for {who}", 5, who="Ann")
        == "5 prese per Ann"
    )


def test_a_translation_with_wrong_placeholders_falls_back_to_english(
    caplog: pytest.LogCaptureFixture,
) -> None:
    german = made_up("de", {"Round {round}": "Runde {runde}"})
    with caplog.at_level(logging.ERROR, logger="bot.i18n"):
        assert german("Round {round}", round=3) == "Round 3"
    assert "bad placeholders" in caplog.text


# --- the command translator -------------------------------------------------------------------


def context(location: Location) -> Any:
    return TranslationContext(location=location, data=None)  # type: ignore[call-overload]


async def test_the_translator_localises_marked_command_texts() -> None:
    translator = CommandTranslator()
    name = command_name("new")
    described = locale_str("Open a game of Wizard in this channel")
    assert (
        await translator.translate(name, discord.Locale.german, context(Location.command_name))
        == "neu"
    )
    assert (
        await translator.translate(name, discord.Locale.italian, context(Location.command_name))
        == "nuova"
    )
    assert (
        await translator.translate(
            name, discord.Locale.latin_american_spanish, context(Location.command_name)
        )
        == "nueva"
    )
    assert (
        await translator.translate(
            name, discord.Locale.brazil_portuguese, context(Location.command_name)
        )
        == "nova"
    )
    for english in (discord.Locale.american_english, discord.Locale.british_english):
        assert await translator.translate(name, english, context(Location.command_name)) is None
    assert (
        await translator.translate(name, discord.Locale.french, context(Location.command_name))
        is None
    )
    german = await translator.translate(
        described, discord.Locale.german, context(Location.command_description)
    )
    assert german == "Eröffne eine Partie Wizard in diesem Kanal"
    # a name given as a plain string is looked up as a name too; unknown ones stay English
    plain = locale_str("new")
    assert (
        await translator.translate(plain, discord.Locale.german, context(Location.command_name))
        == "neu"
    )
    unknown = locale_str("post")
    assert (
        await translator.translate(unknown, discord.Locale.german, context(Location.command_name))
        is None
    )


async def test_the_translator_leaves_out_what_discord_would_refuse(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    names = made_up("de", {"new": "Neues Spiel"}, context=NAME_CONTEXT)
    monkeypatch.setattr(i18n_commands, "texts", lambda _: names)
    translator = CommandTranslator()
    with caplog.at_level(logging.ERROR, logger="bot.i18n.commands"):
        result = await translator.translate(
            command_name("new"), discord.Locale.german, context(Location.command_name)
        )
    assert result is None
    assert "not a valid Discord command_name" in caplog.text


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("neu", True),
        ("più_o_meno_uno", True),
        ("previsões", True),
        ("turn-timer", True),
        ("x" * 32, True),
        ("x" * 33, False),
        ("", False),
        ("Neu", False),
        ("neues spiel", False),
        ("cancel·lar", False),
    ],
)
def test_valid_command_names(name: str, valid: bool) -> None:
    assert valid_command_name(name) is valid
