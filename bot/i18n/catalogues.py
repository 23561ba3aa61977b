"""The catalogues' workflow: extract the marked texts from ``bot/``, update the catalogues,
check them. Run it as ``python -m bot.i18n update|extract|check`` (see :mod:`bot.i18n`).

How a text is marked, the only forms extraction reads (a Texts instance is always named ``t``)::

    t("Round {round} of {rounds}", round=r, rounds=n)     # a text
    t.plural("{n} trick", "{n} tricks", n)                # singular, plural
    t.context("button", "New")                            # a text in a context (msgctxt)
    texts(locale)("Pong!")                                # the same without a name
    N_("Something went wrong.")                           # marked here, translated elsewhere
    locale_str("Open a game of Wizard in this channel")   # a command description or choice
    command_name("new")                                   # a command, group or option name

The English text must be a string literal (adjacent literals are joined), its placeholders
named (``{name}``, never ``{}``) and passed by keyword. ``check`` reports what breaks these
rules: an f-string, a concatenation or ``.format`` as the text, a placeholder not passed, a
Texts instance with another name than ``t``. A comment starting ``Translators:`` right above
a marked text reaches the translators (``#.`` in the catalogues).

Extraction is Babel's (:func:`babel.messages.extract.extract`, keyword specs, catalogues,
``Catalog.update``), with an extraction method of its own that reads the code's syntax tree
instead of Babel's token scanner: it only takes calls on ``t`` (not any function called
``context`` or ``plural``), reads ``locale_str(…, context=…)`` and rejects dynamic texts
instead of skipping them silently.
"""

from __future__ import annotations

import ast
import io
import string
import tokenize
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, cast

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract as babel_extract
from babel.messages.pofile import read_po, write_po

from bot.i18n import DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, LOCALES
from bot.i18n.commands import NAME_CONTEXT, NAME_LIMIT, TEXT_LIMIT, valid_command_name

SOURCE: Final = Path(__file__).resolve().parents[1]
"""The code whose texts are extracted: the ``bot`` package."""
TEMPLATE: Final = LOCALES / "wizard.pot"
TRANSLATED: Final = tuple(language for language in LANGUAGES if language != DEFAULT_LANGUAGE)
"""The languages with a catalogue to translate (English is the code's own)."""
PROJECT: Final = "Wizard for Discord"
COMMENT_TAG: Final = "Translators:"
WIDTH: Final = 100
"""Line width of the written catalogues."""

GETTEXT, PGETTEXT, NGETTEXT = "gettext", "pgettext", "ngettext"
KEYWORDS: Final[dict[str, Any]] = {GETTEXT: None, PGETTEXT: ((1, "c"), 2), NGETTEXT: (1, 2)}
"""Babel keyword specs of the normalised calls :meth:`Finder.babel_method` reports."""

NAME_NOTE: Final = f"Discord command name: lowercase letters, digits, - or _, at most {NAME_LIMIT}."
TEXT_NOTE: Final = f"Discord command text: at most {TEXT_LIMIT} characters."
UPDATE_HINT: Final = "run: python -m bot.i18n update"

_TEXTS_METHODS: Final = frozenset({"plural", "context", "translated"})


# --- extraction -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Marked:
    """One marked text, as Babel's extraction methods report it."""

    lineno: int
    function: str
    """:data:`GETTEXT`, :data:`PGETTEXT` (context first) or :data:`NGETTEXT`."""
    messages: str | tuple[str, ...]
    comments: list[str]


@dataclass
class Finder(ast.NodeVisitor):
    """The marked texts of one Python file, and the problems of the way they are marked."""

    source: str
    filename: str
    marked: list[Marked] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._comments = _comment_lines(self.source)
        self.visit(ast.parse(self.source, self.filename))

    def babel_method(
        self,
        fileobj: object,
        keywords: Mapping[str, Any],
        comment_tags: Collection[str],
        options: Mapping[str, Any],
    ) -> Iterator[tuple[int, str, str | tuple[str, ...], list[str]]]:
        """This file's texts in the shape of a Babel extraction method's results."""
        for m in self.marked:
            yield m.lineno, m.function, m.messages, m.comments

    # --- what is a marked text --------------------------------------------------------------

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = _name(func)
        if _is_texts(func):
            self._text(node, GETTEXT, node.args[:1], formats=True)
        elif isinstance(func, ast.Attribute) and _is_texts(func.value):
            if func.attr == "plural":
                self._text(node, NGETTEXT, node.args[:2], formats=True)
            elif func.attr == "context":
                self._text(node, PGETTEXT, node.args[:2], formats=True)
            elif func.attr == "translated":
                context = node.args[1] if len(node.args) > 1 else _keyword(node, "context")
                self._text(node, PGETTEXT if context else GETTEXT, _context_first(node, context))
        elif name == "N_":
            self._text(node, GETTEXT, node.args[:1])
        elif name == "locale_str":
            context = _keyword(node, "context")
            args = _context_first(node, context)
            self._text(node, PGETTEXT if context else GETTEXT, args, note=TEXT_NOTE)
        elif name == "command_name" and node.args:
            self._text(node, PGETTEXT, [ast.Constant(NAME_CONTEXT), node.args[0]], note=NAME_NOTE)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if _is_texts_call(node.value):
            for target in node.targets:
                self._texts_name(target)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None and _is_texts_call(node.value):
            self._texts_name(node.target)
        self.generic_visit(node)

    def visit_arg(self, node: ast.arg) -> None:
        annotation = node.annotation
        if annotation is not None and (
            _name(annotation) == "Texts"
            or (isinstance(annotation, ast.Constant) and annotation.value == "Texts")
        ):
            self._texts_name(ast.Name(node.arg), node)
        self.generic_visit(node)

    # --- helpers ------------------------------------------------------------------------------

    def _texts_name(self, target: ast.expr, where: ast.AST | None = None) -> None:
        if not (isinstance(target, ast.Name) and target.id == "t"):
            line = getattr(where or target, "lineno", 0)
            self._problem(line, "name a Texts instance `t`, so that its texts are extracted")

    def _text(
        self,
        node: ast.Call,
        function: str,
        args: list[ast.expr],
        *,
        formats: bool = False,
        note: str | None = None,
    ) -> None:
        """Record the call ``node`` if its text arguments are literals; complain if they are
        built at run time (an absent or non-literal text is one marked elsewhere)."""
        wanted = {GETTEXT: 1, PGETTEXT: 2, NGETTEXT: 2}[function]
        if len(args) < wanted:
            return
        texts = [_literal(a) for a in args]
        message_args = args[1:] if function == PGETTEXT else args
        for arg in message_args:
            if _dynamic(arg):
                self._problem(node.lineno, "the English text must be a string literal")
                return
        if any(t is None for t in texts[-1 if function == PGETTEXT else 0 :]):
            return  # a constant marked with N_ where it is defined
        if function == PGETTEXT and texts[0] is None:
            self._problem(node.lineno, "the context (msgctxt) must be a string literal")
            return
        literal = [t for t in texts if t is not None]
        messages = literal[1:] if function == PGETTEXT else literal
        if not all(messages):
            self._problem(node.lineno, "empty text (gettext reserves the empty msgid)")
            return
        if formats:
            self._check_placeholders(node, messages, plural=function == NGETTEXT)
        comments = self._translator_comments(node, args[-1])
        if note is not None:
            comments.append(note)
        self.marked.append(
            Marked(
                lineno=node.lineno,
                function=function,
                messages=literal[0] if len(literal) == 1 else tuple(literal),
                comments=comments,
            )
        )

    def _check_placeholders(self, node: ast.Call, messages: list[str], *, plural: bool) -> None:
        wanted: set[str] = set()
        for message in messages:
            try:
                fields = placeholders(message)
            except ValueError as error:
                self._problem(node.lineno, f"{message!r} is no valid format string: {error}")
                return
            if any(not f or f.isdigit() for f in fields):
                self._problem(node.lineno, f"{message!r}: name every placeholder ({{name}})")
                return
            wanted |= fields
        if any(k.arg is None for k in node.keywords):
            return  # **params: cannot tell
        given = {k.arg for k in node.keywords if k.arg is not None} | ({"n"} if plural else set())
        for missing in sorted(wanted - given):
            self._problem(node.lineno, f"placeholder {{{missing}}} is not passed")

    def _translator_comments(self, node: ast.Call, message: ast.expr) -> list[str]:
        """The comment block right above the call (or above its text inside the call), from
        its ``Translators:`` line on."""
        for start in (node.lineno, message.lineno):
            block: list[str] = []
            line = start - 1
            while line in self._comments:
                block.insert(0, self._comments[line])
                line -= 1
            tagged = [i for i, text in enumerate(block) if text.startswith(COMMENT_TAG)]
            if tagged:
                return block[tagged[0] :]
        return []

    def _problem(self, line: int, text: str) -> None:
        self.problems.append(f"{self.filename}:{line}: {text}")


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _is_texts_call(node: ast.expr) -> bool:
    """``texts(...)``: a new Texts instance."""
    return isinstance(node, ast.Call) and _name(node.func) == "texts"


def _is_texts(node: ast.expr) -> bool:
    """A Texts instance: ``t`` or ``texts(...)``."""
    return (isinstance(node, ast.Name) and node.id == "t") or _is_texts_call(node)


def _keyword(node: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in node.keywords if k.arg == name), None)


def _context_first(node: ast.Call, context: ast.expr | None) -> list[ast.expr]:
    """The message (first argument) with the context before it, if any."""
    if not node.args:
        return []
    return [node.args[0]] if context is None else [context, node.args[0]]


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _dynamic(node: ast.expr) -> bool:
    """A text built at run time: an f-string, ``+`` or ``%``, or ``"…".format(…)``."""
    if isinstance(node, ast.JoinedStr | ast.BinOp):
        return True
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
        and _literal(node.func.value) is not None
    )


def _comment_lines(source: str) -> dict[int, str]:
    """Line number → comment text, for the lines that hold only a comment."""
    lines: dict[int, str] = {}
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    for token in tokens:
        if token.type == tokenize.COMMENT and token.line.lstrip().startswith("#"):
            lines[token.start[0]] = token.string.lstrip("#").strip()
    return lines


def placeholders(text: str) -> set[str]:
    """The placeholder names of a ``str.format`` text (``{a.b}``, ``{a[0]}`` → ``a``).

    Raises ``ValueError`` for a text ``str.format`` cannot read (an unmatched brace)."""
    names: set[str] = set()
    for _, name, _, _ in string.Formatter().parse(text):
        if name is not None:
            names.add(name.split(".", 1)[0].split("[", 1)[0])
    return names


def find(source: str, filename: str = "<source>") -> Finder:
    """The marked texts of Python ``source`` (and the problems of how they are marked)."""
    return Finder(source, filename)


@dataclass
class Extraction:
    """What the code says the template must be."""

    template: Catalog
    problems: list[str]


def extract(source: Path = SOURCE) -> Extraction:
    """Extract every marked text of the Python files under ``source`` into a template."""
    template = new_catalogue(None)
    problems: list[str] = []
    for path in sorted(source.rglob("*.py")):
        filename = path.relative_to(source.parent).as_posix()
        finder = find(path.read_text("utf-8"), filename)
        problems += finder.problems
        results = babel_extract(
            cast(Any, finder.babel_method),
            io.BytesIO(),
            keywords=KEYWORDS,
            comment_tags=(COMMENT_TAG,),
            strip_comment_tags=False,
        )
        for lineno, message, comments, context in results:
            known = template.get(message, context)
            if known is not None and known.id != message:
                problems.append(
                    f"{filename}:{lineno}: {message!r} differs from the same text elsewhere "
                    f"({known.id!r}): one English text is either plural or not, with one plural"
                )
                continue
            template.add(
                message, locations=[(filename, lineno)], auto_comments=comments, context=context
            )
    return Extraction(template, problems)


# --- catalogues -------------------------------------------------------------------------------


def new_catalogue(language: str | None) -> Catalog:
    """An empty catalogue for ``language`` (``None``: the template)."""
    if language is None:
        header = (
            f"# Translations template of {PROJECT}: every text of the bot, in English.\n"
            f"# Generated from the code by `python -m bot.i18n update`; do not edit."
        )
    else:
        header = (
            f"# {Locale.parse(language).english_name} texts of {PROJECT}.\n"
            f"# Translate the empty msgstr entries; `python -m bot.i18n check` lists them."
        )
    return Catalog(
        locale=language,
        header_comment=header,
        project=PROJECT,
        version="1",
        language_team=None if language is None else LANGUAGE_NAMES[language],
        fuzzy=False,
    )


def catalogue_path(language: str) -> Path:
    return LOCALES / f"{language}.po"


def read_catalogue(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as po:
        return read_po(po, locale=language)


def serialise(catalogue: Catalog) -> bytes:
    """A catalogue as written to its file (without line numbers: moving code changes nothing)."""
    out = io.BytesIO()
    write_po(out, catalogue, width=WIDTH, include_lineno=False, ignore_obsolete=True)
    return out.getvalue()


_DATES: Final = (b'"POT-Creation-Date:', b'"PO-Revision-Date:')


def write_if_changed(path: Path, catalogue: Catalog) -> bool:
    """Write ``catalogue`` to ``path`` unless the file says the same already (dates aside)."""
    data = serialise(catalogue)
    if path.exists():
        old = path.read_bytes()
        if _without_dates(old) == _without_dates(data):
            return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def _without_dates(data: bytes) -> list[bytes]:
    return [line for line in data.splitlines() if not line.startswith(_DATES)]


def write_template(template: Catalog) -> bool:
    """Write ``wizard.pot``; ``True`` if it changed."""
    return write_if_changed(TEMPLATE, template)


def update_catalogue(language: str, template: Catalog, *, fuzzy_matching: bool = True) -> bool:
    """Bring ``<language>.po`` in line with ``template``: new texts added untranslated (or
    with a *fuzzy* guess from a similar one), texts gone from the code removed, translations
    kept. ``True`` if the file changed."""
    path = catalogue_path(language)
    catalogue = read_catalogue(path, language) if path.exists() else new_catalogue(language)
    catalogue.update(template, no_fuzzy_matching=not fuzzy_matching)
    return write_if_changed(path, catalogue)


def update(*, fuzzy_matching: bool = True) -> tuple[Extraction, list[Path]]:
    """Extract, write the template, update every catalogue; the files that changed."""
    extraction = extract()
    changed = [TEMPLATE] if write_template(extraction.template) else []
    for language in TRANSLATED:
        if update_catalogue(language, extraction.template, fuzzy_matching=fuzzy_matching):
            changed.append(catalogue_path(language))
    return extraction, changed


# --- checks -----------------------------------------------------------------------------------


def describe(message: Message) -> str:
    """A catalogue entry as a person finds it: its English text, context and place."""
    english = message.id[0] if isinstance(message.id, tuple | list) else message.id
    context = f" (context {message.context!r})" if message.context else ""
    places = sorted({filename for filename, _ in message.locations})
    where = f"  [{', '.join(places)}]" if places else ""
    return f"{english!r}{context}{where}"


def _entries(catalogue: Catalog) -> Iterable[Message]:
    return (m for m in catalogue if m.id)


def template_problems(expected: Catalog, template: Catalog | None) -> list[str]:
    """How the template file differs from what the code says it must be."""
    if template is None:
        return [f"{TEMPLATE.name} is missing"]
    problems = []
    for message in _entries(expected):
        found = template.get(message.id, message.context)
        if found is None:
            problems.append(f"not in the template: {describe(message)}")
        elif found.id != message.id:
            problems.append(f"singular/plural differ from the code: {describe(message)}")
    problems += [
        f"in the template but no longer in the code: {describe(message)}"
        for message in _entries(template)
        if expected.get(message.id, message.context) is None
    ]
    return problems


def catalogue_problems(language: str, template: Catalog, catalogue: Catalog) -> list[str]:
    """What keeps ``catalogue`` from giving every text of ``template`` in ``language``."""
    problems = []
    forms = catalogue.num_plurals
    for english in _entries(template):
        found = catalogue.get(english.id, english.context)
        if found is None:
            problems.append(f"missing: {describe(english)}")
            continue
        translations = _forms(found.string)
        if found.fuzzy:
            problems.append(f"fuzzy (check it, then remove the fuzzy flag): {describe(english)}")
        elif english.pluralizable and (len(translations) != forms or not all(translations)):
            problems.append(f"needs {forms} plural forms: {describe(english)}")
        elif not all(translations):
            problems.append(f"untranslated: {describe(english)}")
        else:
            problems += [
                f"{problem}: {describe(english)}"
                for problem in _translation_problems(english, translations)
            ]
    problems += [
        f"in the catalogue but not in the code: {describe(message)}"
        for message in _entries(catalogue)
        if template.get(message.id, message.context) is None
    ]
    return problems


def _forms(text: object) -> list[str]:
    """A translation's forms (one, or one per plural form), ``""`` for a missing one."""
    forms = list(text) if isinstance(text, tuple | list) else [text]
    return [form if isinstance(form, str) else "" for form in forms]


def _translation_problems(english: Message, translations: list[str]) -> Iterator[str]:
    sources = list(english.id) if isinstance(english.id, tuple | list) else [english.id]
    for i, translation in enumerate(translations):
        source = sources[min(i, len(sources) - 1)]
        try:
            expected, found = placeholders(source), placeholders(translation)
        except ValueError as error:
            yield f"{translation!r} is no valid format string ({error})"
            continue
        if english.pluralizable:  # {n} may be left out of a form, or added to one
            expected, found = expected - {"n"}, found - {"n"}
        if found != expected:
            shown = ", ".join(f"{{{p}}}" for p in sorted(expected)) or "none"
            yield f"{translation!r} has other placeholders than the English ({shown})"
        if english.context == NAME_CONTEXT and not valid_command_name(translation):
            yield f"{translation!r} is no valid Discord command name"
        if TEXT_NOTE in english.auto_comments and len(translation) > TEXT_LIMIT:
            yield f"{translation!r} is longer than Discord's {TEXT_LIMIT} characters"


def check(extraction: Extraction | None = None) -> dict[str, list[str]]:
    """Everything that is wrong, by section: ``code`` (how texts are marked), ``template``
    (``wizard.pot`` against the code), and one per translated language."""
    extraction = extraction if extraction is not None else extract()
    template = read_catalogue(TEMPLATE) if TEMPLATE.exists() else None
    report = {
        "code": list(extraction.problems),
        "template": template_problems(extraction.template, template),
    }
    for language in TRANSLATED:
        path = catalogue_path(language)
        if not path.exists():
            report[language] = [f"{path.name} is missing"]
        else:
            catalogue = read_catalogue(path, language)
            report[language] = catalogue_problems(language, extraction.template, catalogue)
    return report


def summary(extraction: Extraction, report: Mapping[str, list[str]]) -> str:
    """The report as text: one line per section, its problems, and what to do next."""
    total = sum(1 for _ in _entries(extraction.template))
    lines = []
    for section, problems in report.items():
        if section in TRANSLATED:
            status = f"{len(problems)} to do" if problems else f"complete ({total} texts)"
            title = f"{section} ({LANGUAGE_NAMES[section]}): {status}"
        else:
            count = len(problems) or "no"
            title = f"{section}: {count} problem{'' if len(problems) == 1 else 's'}"
        lines.append(title)
        lines += [f"    {problem}" for problem in problems]
    needs_update = ("missing:", "in the catalogue but not in the code:", "is missing")
    stale = bool(report.get("template")) or any(
        p.startswith(needs_update) or p.endswith(needs_update[-1])
        for language in TRANSLATED
        for p in report.get(language, [])
    )
    if report.get("code"):
        lines.append("→ fix how the texts above are marked in the code (see bot/i18n)")
    if stale:
        lines.append(f"→ {UPDATE_HINT}")
    if any(report.get(language) for language in TRANSLATED):
        lines.append("→ translate what is listed in bot/i18n/locales/<language>.po")
    return "\n".join(lines)
