"""The command line of ``python -m bot`` (started by :mod:`bot.__main__`): run the bot
(:mod:`bot.start`); ``config``: check the settings; ``demo``: try it without Discord;
``backup``, ``restore``, ``check``: look after the database (:mod:`bot.ops`).

Exit status (see :mod:`bot.exits`, :data:`EXIT_STATUSES` and the README): 0 after a clean
stop, 1 when Discord refuses to connect, 2 when the settings cannot be used (for instance
without a token), 3 when the database cannot be used, 4 when Discord cannot be reached; 5
and 6 from ``check``. Every failure is one line on stderr with a hint, never a traceback.
The token is never printed.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.database_checks import ensure_openable, refuse_folder, refuse_unwritable
from bot.exits import EXIT_OK, EXIT_SETTINGS, Failure, naming, opening_database, report
from bot.settings import Settings, SettingsError, folder_not_file
from bot.settings_notes import no_token, refusal_notes, unread_notes, where_notes
from bot.start import run
from wizard.store.db import closed_folder

EXIT_STATUSES = """exit status:
  0  stopped cleanly (Ctrl-C, SIGTERM), or the command did its work
  1  Discord refused the bot (the token)
  2  the settings or the command line cannot be used
  3  the database cannot be used; backup or restore refused
  4  Discord cannot be reached (network, DNS)
  5  check (and restore, of a backup holding them): some games, player rows or server
     settings are damaged
  6  check: nothing is damaged, but you must act (the write-ahead log cannot shrink;
     the disk is almost full; no room in the temporary folder to try the games)
  129, 130, 143  backup, restore or check stopped by SIGHUP, Ctrl-C or SIGTERM"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="The Wizard Discord bot. Settings come from the environment and .env\n"
        "(see .env.example, and python -m bot config).",
        epilog=EXIT_STATUSES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser(
        "run",
        help="connect to Discord and serve (the default)",
        description="Connect to Discord with DISCORD_TOKEN and serve until Ctrl-C or SIGTERM.",
        epilog=EXIT_STATUSES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub.add_parser(
        "config",
        help="check the settings and show them (the token stays hidden)",
        description="Show the settings the bot would use, read from the environment over "
        "the file .env (in this folder, else the project's; WIZARD_ENV_FILE=PATH reads "
        "another, WIZARD_ENV_FILE= none). Exit status 2 when a setting cannot be used or "
        "DISCORD_TOKEN is missing, 3 when DATABASE_PATH cannot hold the database (a "
        "folder, say, or a place this user may not write).",
    )
    demo = sub.add_parser(
        "demo",
        help="try the bot in your browser: a simulated Discord on this computer, no token needed",
        description=(
            "Run the real bot against SimCord's in-memory Discord and serve a Discord-like page "
            "on this computer only (loopback). Needs the demo extra: pip install -e '.[demo]'. "
            "Reads no .env and needs no token."
        ),
    )
    demo.add_argument(
        "--host",
        default="127.0.0.1",
        choices=("127.0.0.1", "localhost"),
        help="address of the page: loopback only (the printed address uses 127.0.0.1), "
        "as whoever has the address can play",
    )
    demo.add_argument(
        "--port", type=_port, default=0, help="port of the page (default: any free port)"
    )
    demo.add_argument(
        "--db",
        type=_db_path,
        default=None,
        metavar="PATH",
        help="keep the games in this SQLite file (default: a temporary one, deleted on exit)",
    )
    demo.add_argument(
        "--log-level",
        default="WARNING",
        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
        help="how much the bot logs to this terminal (default: WARNING)",
    )
    db_help = "the database file (default: DATABASE_PATH from the settings)"
    backup = sub.add_parser(
        "backup",
        help="copy the database to FILE, safely while the bot runs",
        description="A consistent copy of the live database through SQLite's backup API.",
    )
    backup.add_argument("file", type=_file_name, metavar="FILE", help="the copy to write")
    backup.add_argument("--db", type=_db_path, default=None, metavar="PATH", help=db_help)
    backup.add_argument("--force", action="store_true", help="replace FILE if it exists")
    restore = sub.add_parser(
        "restore",
        help="put the backup FILE back as the database (stop the bot first)",
        description="Checks FILE (integrity, schema version), then replaces the database "
        "with it; refused while any process has the database open.",
    )
    restore.add_argument("file", type=Path, metavar="FILE", help="a file made by backup")
    restore.add_argument("--db", type=_db_path, default=None, metavar="PATH", help=db_help)
    check = sub.add_parser(
        "check",
        help="report the database's health (exit status 0 when healthy)",
        description="Schema version, integrity, games by status, damaged games, sizes and\n"
        "free space. Every game is loaded as the bot would (lobbies, running and finished\n"
        "games: about 8 ms each), on a copy of the file in the temporary folder; the\n"
        "database is never written.",
        # The one list of exit statuses (0, 3, 5 and 6 are check's own).
        epilog=EXIT_STATUSES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("--db", type=_db_path, default=None, metavar="PATH", help=db_help)
    return parser


def _fail(message: str) -> int:
    return report(Failure(EXIT_SETTINGS, message))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    if args.command == "demo":
        # The demo reads no settings: a developer's .env (a token, a development server)
        # must not leak into a simulated Discord that has neither.
        from bot.demo import main as demo_main

        try:
            if args.port:
                _check_port(args.port)
            if args.db is not None:
                ensure_openable(args.db)
            with opening_database(args.db or "of the demo"):
                return demo_main(
                    host=args.host,
                    port=args.port,
                    db=args.db,
                    log_level=args.log_level,
                )
        except Failure as failure:
            return report(naming(failure, "--db"))
    if args.command in ("backup", "restore", "check") and args.db is not None:
        return _database_command(args, args.db)
    try:
        settings = Settings.load()
    except SettingsError as error:
        for note in refusal_notes():
            print(note, file=sys.stderr)
        return _fail(f"{error}. See .env.example for every setting")
    if args.command in ("backup", "restore", "check"):
        return _database_command(args, settings.database_path)
    if args.command == "config":
        print("\n".join([*settings.describe(), *unread_notes(), *where_notes(settings)]))
        if settings.discord_token is None:
            return _fail(no_token())
        from bot.database_checks import refuse_unusable

        try:
            database = settings.database_path.absolute()
            refuse_folder(database)  # as the bot would at start
            refuse_unwritable(database)
            refuse_unusable(database)
        except Failure as failure:
            return report(naming(failure, "DATABASE_PATH"))
        return EXIT_OK
    return run(settings)


def _db_path(text: str) -> Path:
    """A ``--db`` file: a blank name is refused (QA: ``--db "  "`` made a file of two
    spaces, where ``DATABASE_PATH="  "`` means not set)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the name is blank: give the file, e.g. data/wizard.db")
    if text.endswith(("/", os.sep)):
        raise argparse.ArgumentTypeError(folder_not_file(text))
    return Path(text)


def _file_name(text: str) -> Path:
    """A file to write: ``backups/`` names a folder, which ``Path`` would forget. A folder
    that exists is refused later as ``backups`` without the slash is; one that does not
    is a typo here."""
    path = Path(text)
    if closed_folder(path) is not None:
        return path  # refused by backup, naming that folder (looking at it raises)
    if text.endswith(("/", os.sep)) and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder: name the file, e.g. {text}wizard.db")
    return path


def _port(text: str) -> int:
    """A ``--port`` number, 0 to 65535 (0: any free port)."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text} is no port: use 0 to 65535")
    return port


def _check_port(port: int) -> None:
    """Refuse now, as a command-line fault, a ``--port`` that another program holds."""
    with socket.socket() as probe:
        # As a server binds: a port left in TIME_WAIT by a previous demo is free to use.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as error:
            raise Failure(
                EXIT_SETTINGS,
                f"cannot serve the demo on port {port} of 127.0.0.1: {error.strerror or error}",
                "choose another with --port N, or leave --port out for any free port",
            ) from None


def _database_command(args: argparse.Namespace, database: Path) -> int:
    from bot import ops

    # Full paths in every message: a relative DATABASE_PATH is another file when these
    # run from another folder than the bot.
    database = database.absolute()
    if args.command == "backup":
        return ops.backup_command(database, args.file, overwrite=args.force)
    if args.command == "restore":
        return ops.restore_command(database, args.file)
    return ops.check_command(database)
