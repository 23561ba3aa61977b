"""The one translation layer: every text a person reads goes through a :class:`Texts`.

Texts are written in English in the code and looked up, by that English text (gettext's
*msgid*), in one gettext catalogue per language: ``bot/i18n/locales/<language>.po``. The
catalogues are read with Babel and served by the standard library's ``gettext``, so plural
forms follow each language's own rule.

Which language:

* a player's own (ephemeral) messages follow their Discord locale: ``texts(interaction.locale)``;
* public messages (lobby, table, summaries) follow the server's setting:
  ``texts(settings.language)``.

Placeholders are named and written the way ``str.format`` reads them::

    t = texts(interaction.locale)
    t("Round {round} of {rounds}", round=3, rounds=20)
    t.plural("{n} trick", "{n} tricks", n)           # ``n`` is passed to the text too
    t.context("command name", "new")                  # same English, another meaning

A text defined away from where it is shown (a module constant, a label table) is marked with
:func:`N_` so that extraction finds it, and translated where it is shown: ``t(LABEL)``.

Marking texts (what extraction reads, :mod:`bot.i18n.catalogues`):

* a :class:`Texts` instance is always named ``t`` (or used at once: ``texts(locale)("…")``);
  ``check`` refuses another name, whose texts extraction would miss;
* the English text is a string literal, never an f-string, ``+``, ``%`` or ``.format``: the
  values go in as named placeholders, passed by keyword;
* slash command texts are ``locale_str("…")``, and command, group and option names
  ``command_name("new")`` (:mod:`bot.i18n.commands`, whose translator localises them);
* a comment ``# Translators: …`` right above a text is shown to the translators.

The catalogues' workflow, after changing texts in the code::

    python -m bot.i18n update   # extract into wizard.pot, merge into every <language>.po
                                # (translations kept), then list what is left to translate
    python -m bot.i18n check    # only the list; exit status 1 while anything is missing

Translate the listed entries in ``bot/i18n/locales/<language>.po`` (empty ``msgstr``, or
marked ``#, fuzzy``: a guess from a similar text, to check and then unmark), keeping every
``{placeholder}``, until ``check`` is clean. ``tests/bot/test_i18n_catalogues.py`` fails
while the template is stale or a catalogue misses a text, a plural form or a placeholder.
"""

from __future__ import annotations

import gettext
import io
import logging
from functools import cache
from pathlib import Path
from typing import Final

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

log = logging.getLogger(__name__)

LANGUAGES: Final[tuple[str, ...]] = ("en", "de", "it", "es", "pt", "ca")
"""Languages with a catalogue: English (the source) and those of the seed rule texts."""
LANGUAGE_NAMES: Final[dict[str, str]] = {
    "en": "English",
    "de": "Deutsch",
    "it": "Italiano",
    "es": "Español",
    "pt": "Português",
    "ca": "Català",
}
"""Each language in its own words (settings menus show these untranslated)."""
DEFAULT_LANGUAGE: Final = "en"
LOCALES: Final = Path(__file__).parent / "locales"
"""Where the catalogues live: ``<language>.po``, and the template ``wizard.pot``."""


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it here."""
    return message


def language_of(locale: object) -> str:
    """The catalogue language for a Discord locale (``"de"``, ``"pt-BR"``, ``es-419``…) or a
    language code; English for anything without a catalogue."""
    code = str(getattr(locale, "value", locale) or "").strip().lower().replace("_", "-")
    primary = code.split("-", 1)[0]
    return primary if primary in LANGUAGES else DEFAULT_LANGUAGE


class Texts:
    """The texts of one language."""

    __slots__ = ("_catalogue", "language")

    def __init__(self, language: str, catalogue: gettext.NullTranslations) -> None:
        self.language = language
        self._catalogue = catalogue

    def __call__(self, message: str, /, **params: object) -> str:
        """``message`` in this language, with ``params`` filled in."""
        return self._format(self._catalogue.gettext(message), message, params)

    def plural(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """The form of ``singular``/``plural`` for ``n`` (passed to the text as ``{n}``)."""
        params.setdefault("n", n)
        text = self._catalogue.ngettext(singular, plural, n)
        return self._format(text, singular if n == 1 else plural, params)

    def context(self, context: str, message: str, /, **params: object) -> str:
        """``message`` in the sense ``context`` gives it (gettext's ``msgctxt``)."""
        return self._format(self._catalogue.pgettext(context, message), message, params)

    def translated(self, message: str, context: str | None = None) -> str | None:
        """The catalogue's own translation of ``message``, or ``None`` when it has none
        (English, or a text still missing): for Discord's command localisations, where an
        absent translation must stay absent."""
        if self.language == DEFAULT_LANGUAGE:
            return None
        text = (
            self._catalogue.pgettext(context, message)
            if context is not None
            else self._catalogue.gettext(message)
        )
        return None if text == message else text

    def _format(self, text: str, english: str, params: dict[str, object]) -> str:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            # A catalogue naming a placeholder the code does not pass: say so, show English.
            log.error("catalogue %s: bad placeholders in %r", self.language, text)
            return english.format(**params)


@cache
def texts(locale: object = DEFAULT_LANGUAGE) -> Texts:
    """The texts for a Discord locale or language code (see :func:`language_of`)."""
    language = language_of(locale)
    if language != locale:
        return texts(language)
    return Texts(language, _load(language))


def _load(language: str) -> gettext.NullTranslations:
    path = LOCALES / f"{language}.po"
    if language == DEFAULT_LANGUAGE or not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as po:
        catalogue = read_po(po, locale=language.replace("-", "_"))
    buffer = io.BytesIO()
    write_mo(buffer, catalogue)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)
