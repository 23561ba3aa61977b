"""The catalogues are complete: every text the code marks is in the template and translated
in every language, with the same placeholders, every plural form and valid command names.
And the checks and the extraction behind that find what they must (on made-up catalogues and
code).

When a test here fails: ``python -m bot.i18n update``, translate what ``python -m bot.i18n
check`` lists, run it again.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from bot.i18n import catalogues
from bot.i18n.catalogues import (
    NAME_NOTE,
    TEXT_NOTE,
    TRANSLATED,
    Extraction,
    catalogue_problems,
    check,
    extract,
    find,
    new_catalogue,
    placeholders,
    read_catalogue,
    template_problems,
)
from bot.i18n.commands import NAME_CONTEXT


@pytest.fixture(scope="module")
def extraction() -> Extraction:
    return extract()


@pytest.fixture(scope="module")
def report(extraction: Extraction) -> dict[str, list[str]]:
    return check(extraction)


@pytest.mark.parametrize("section", ["code", "template", *TRANSLATED])
def test_catalogues_are_complete(report: dict[str, list[str]], section: str) -> None:
    problems = "\n".join(report[section])
    assert not report[section], f"{section}:\n{problems}\n(python -m bot.i18n update, then check)"


def test_the_code_marks_texts(extraction: Extraction) -> None:
    ids = {(m.context, m.id) for m in extraction.template if m.id}
    assert (NAME_CONTEXT, "new") in ids
    assert (None, "Pong! Wizard is up (shard {shard} of {count}).") in ids


# --- what the checks find ---------------------------------------------------------------------


def template(*entries: tuple[str | tuple[str, str], str | None, list[str]]) -> Catalog:
    catalogue = new_catalogue(None)
    for message, context, notes in entries:
        catalogue.add(message, context=context, auto_comments=notes)
    return catalogue


ENGLISH = template(
    ("Round {round} of {rounds}", None, []),
    (("{n} trick", "{n} tricks"), None, []),
    (("one round", "{n} rounds"), None, []),
    ("new", NAME_CONTEXT, [NAME_NOTE]),
    ("Open a game", None, [TEXT_NOTE]),
    ("New", "button", []),
)


def german(**changes: str | tuple[str, ...] | None) -> Catalog:
    """A complete German catalogue for :data:`ENGLISH`, with ``changes`` (None: left out)."""
    good: dict[str, str | tuple[str, ...]] = {
        "Round {round} of {rounds}": "Runde {round} von {rounds}",
        "{n} trick": ("{n} Stich", "{n} Stiche"),
        "one round": ("eine Runde", "{n} Runden"),
        "new": "neu",
        "Open a game": "Eröffne eine Partie",
        "New": "Neu",
    }
    catalogue = new_catalogue("de")
    for message in ENGLISH:
        if not message.id:
            continue
        key = str(message.id[0] if isinstance(message.id, tuple | list) else message.id)
        translation = changes[key] if key in changes else good[key]
        if translation is not None:
            catalogue.add(message.id, translation, context=message.context)
    return catalogue


def test_a_complete_catalogue_has_no_problem() -> None:
    assert catalogue_problems("de", ENGLISH, german()) == []


@pytest.mark.parametrize(
    ("key", "translation", "complaint"),
    [
        ("Round {round} of {rounds}", None, "missing: 'Round {round} of {rounds}'"),
        ("Round {round} of {rounds}", "", "untranslated: 'Round {round} of {rounds}'"),
        ("Round {round} of {rounds}", "Runde {runde} von {rounds}", "other placeholders"),
        ("Round {round} of {rounds}", "Runde {round}", "other placeholders"),
        ("Round {round} of {rounds}", "Runde {round von {rounds}", "no valid format string"),
        ("{n} trick", ("{n} Stich", ""), "needs 2 plural forms"),
        ("{n} trick", ("{n} Stich",), "needs 2 plural forms"),
        ("{n} trick", ("{n} Stich", "{count} Stiche"), "other placeholders"),
        ("new", "neues spiel", "no valid Discord command name"),
        ("new", "Neu", "no valid Discord command name"),
        ("Open a game", "x" * 101, "longer than Discord's 100 characters"),
        ("New", None, "missing: 'New' (context 'button')"),
    ],
)
def test_the_check_finds_a_bad_translation(
    key: str, translation: str | tuple[str, ...] | None, complaint: str
) -> None:
    problems = catalogue_problems("de", ENGLISH, german(**{key: translation}))
    assert len(problems) == 1 and complaint in problems[0], problems


def test_plural_forms_may_leave_out_or_add_the_count() -> None:
    catalogue = german(**{"one round": ("{n} Runde", "{n} Runden")})
    assert catalogue_problems("de", ENGLISH, catalogue) == []


def test_the_check_finds_fuzzy_and_leftover_entries() -> None:
    catalogue = german()
    message = catalogue.get("Open a game")
    assert message is not None
    message.flags.add("fuzzy")
    catalogue.add("Gone from the code", "Weg")
    problems = catalogue_problems("de", ENGLISH, catalogue)
    assert len(problems) == 2
    assert problems[0].startswith("fuzzy") and "'Open a game'" in problems[0]
    assert "not in the code" in problems[1] and "'Gone from the code'" in problems[1]


def test_the_check_finds_a_stale_template() -> None:
    stale = template(("Round {round} of {rounds}", None, []), ("Old text", None, []))
    problems = template_problems(ENGLISH, stale)
    assert any("not in the template: '{n} trick'" in p for p in problems)
    assert any("not in the template: 'new' (context 'command name')" in p for p in problems)
    assert any("no longer in the code: 'Old text'" in p for p in problems)
    assert template_problems(ENGLISH, ENGLISH) == []
    assert template_problems(ENGLISH, None) != []


def test_placeholders() -> None:
    assert placeholders("{a} and {b.c} and {d[0]} {{not}}") == {"a", "b", "d"}
    with pytest.raises(ValueError):
        placeholders("{a")


# --- what extraction reads --------------------------------------------------------------------

SOURCE = textwrap.dedent(
    """
    LABEL = N_("Show my hand")

    def reply(interaction, n, name):
        t = texts(interaction.locale)
        t("Hello {name}", name=name)
        # Translators: the number of tricks a player won.
        t.plural("{n} trick", "{n} tricks", n)
        t.context("button", "New")
        t(LABEL)
        texts("de")("Pong!")
        t("Two lines "
          "in one text")
        command_name("new")
        locale_str("Open a game")
        locale_str("Open", context="button")
        app_commands.locale_str("Dotted")
        t.translated("Kept")
        t.translated("Kept too", "a context")
        other.context("not a text")
        other("not a text either")
    """
)


def test_extraction_reads_every_marked_form() -> None:
    finder = find(SOURCE)
    assert finder.problems == []
    found = [(m.function, m.messages) for m in finder.marked]
    assert found == [
        ("gettext", "Show my hand"),
        ("gettext", "Hello {name}"),
        ("ngettext", ("{n} trick", "{n} tricks")),
        ("pgettext", ("button", "New")),
        ("gettext", "Pong!"),
        ("gettext", "Two lines in one text"),
        ("pgettext", (NAME_CONTEXT, "new")),
        ("gettext", "Open a game"),
        ("pgettext", ("button", "Open")),
        ("gettext", "Dotted"),
        ("gettext", "Kept"),
        ("pgettext", ("a context", "Kept too")),
    ]
    comments = {m.messages: m.comments for m in finder.marked}
    assert comments[("{n} trick", "{n} tricks")] == [
        "Translators: the number of tricks a player won."
    ]
    assert comments[(NAME_CONTEXT, "new")] == [NAME_NOTE]
    assert comments["Open a game"] == [TEXT_NOTE]


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ('t(f"Hello {name}")', "must be a string literal"),
        ('t("Hello " + name)', "must be a string literal"),
        ('t("Hello {}".format(name))', "must be a string literal"),
        ('t("Hello %s" % name)', "must be a string literal"),
        ('t("Hello {name}")', "placeholder {name} is not passed"),
        ('t.plural("{n} trick of {who}", "{n} tricks", n)', "placeholder {who} is not passed"),
        ('t("Hello {}", x)', "name every placeholder"),
        ('t("Hello {", x=1)', "no valid format string"),
        ('t("")', "empty text"),
        ("t.context(CONTEXT, 'New')", "the context (msgctxt) must be a string literal"),
        ("words = texts(locale)", "name a Texts instance `t`"),
        ("self.t = texts(locale)", "name a Texts instance `t`"),
        ("def f(words: Texts): pass", "name a Texts instance `t`"),
    ],
)
def test_extraction_refuses_texts_it_cannot_read(line: str, complaint: str) -> None:
    problems = find(line, "bot/example.py").problems
    assert len(problems) == 1 and complaint in problems[0], problems
    assert problems[0].startswith("bot/example.py:1: ")


def test_extraction_accepts_what_it_cannot_check() -> None:
    fine = 't("Hello {name}", **params)\nt.plural("one trick", "{n} tricks", n)\nt(TEXTS[key])'
    assert find(fine).problems == []


def test_extraction_refuses_one_text_as_plural_and_not(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text('t("Round")\n')
    (package / "b.py").write_text(
        't.plural("Round", "Rounds", n)\nt.plural("Round", "Rounds", n)\n'
    )
    found = extract(package)
    assert [m.id for m in found.template if m.id] == ["Round"]
    assert len(found.problems) == 2 and found.problems[0].startswith("pkg/b.py:1: ")


# --- the workflow -----------------------------------------------------------------------------


def test_update_keeps_translations_and_writes_only_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(catalogues, "LOCALES", tmp_path)
    monkeypatch.setattr(catalogues, "TEMPLATE", tmp_path / "wizard.pot")
    old = new_catalogue("de")
    old.add("Round {round} of {rounds}", "Runde {round} von {rounds}")
    old.add("Gone", "Weg")
    (tmp_path / "de.po").write_bytes(catalogues.serialise(old))

    assert catalogues.write_template(ENGLISH)
    assert catalogues.update_catalogue("de", ENGLISH)
    updated = read_catalogue(tmp_path / "de.po", "de")
    kept = updated.get("Round {round} of {rounds}")
    assert kept is not None and kept.string == "Runde {round} von {rounds}"
    assert updated.get("Gone") is None
    assert {m.id for m in updated if m.id} == {m.id for m in ENGLISH if m.id}
    problems = catalogue_problems("de", ENGLISH, updated)
    assert len(problems) == 5 and not any("Round" in p for p in problems), problems

    # nothing new: nothing written (no churn of dates)
    assert not catalogues.write_template(ENGLISH)
    assert not catalogues.update_catalogue("de", ENGLISH)
    assert catalogues.update_catalogue("it", ENGLISH)  # a new language starts empty
    assert len(catalogue_problems("it", ENGLISH, read_catalogue(tmp_path / "it.po", "it"))) == 6


def test_the_command_line_check(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.i18n.__main__ import main

    status = main(["check"])
    out = capsys.readouterr().out
    assert "code: no problems" in out
    for language in TRANSLATED:
        assert f"\n{language} (" in out
    assert status == (0 if "to do" not in out and "template: no" in out else 1)
