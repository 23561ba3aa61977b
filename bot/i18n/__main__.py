"""``python -m bot.i18n update|extract|check``: the catalogues' workflow (see :mod:`bot.i18n`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bot.i18n import catalogues


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.i18n",
        description="Keep the translation catalogues (bot/i18n/locales) in step with the code.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    update = commands.add_parser(
        "update",
        help="extract the texts into wizard.pot and update every <language>.po (keeps "
        "translations), then list what is left to translate",
    )
    update.add_argument(
        "--no-fuzzy",
        action="store_true",
        help="add new texts untranslated instead of guessing from similar ones (fuzzy)",
    )
    commands.add_parser("extract", help="only write wizard.pot from the code")
    check = commands.add_parser(
        "check",
        help="list what is missing, fuzzy or wrong per language; exit status 1 if anything is",
    )
    for command in (update, check):
        command.add_argument(
            "languages",
            nargs="*",
            metavar="LANGUAGE",
            help=f"only list these languages ({', '.join(catalogues.TRANSLATED)}); default: all",
        )
    args = parser.parse_args(argv)
    unknown = sorted(set(getattr(args, "languages", [])) - set(catalogues.TRANSLATED))
    if unknown:
        parser.error(f"no catalogue for {', '.join(unknown)}: {', '.join(catalogues.TRANSLATED)}")

    if args.command == "extract":
        extraction = catalogues.extract()
        written = catalogues.write_template(extraction.template)
        print(f"{catalogues.TEMPLATE}: {'written' if written else 'unchanged'}")
        for problem in extraction.problems:
            print(problem, file=sys.stderr)
        return 1 if extraction.problems else 0

    if args.command == "update":
        extraction, changed = catalogues.update(fuzzy_matching=not args.no_fuzzy)
        for path in changed:
            print(f"written: {path}")
        if not changed:
            print("every catalogue was up to date")
    else:
        extraction = catalogues.extract()
    report = catalogues.check(extraction)
    if args.languages:
        report = {
            section: problems
            for section, problems in report.items()
            if section not in catalogues.TRANSLATED or section in args.languages
        }
    print(catalogues.summary(extraction, report))
    return 1 if any(report.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
