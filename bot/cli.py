"""The command line of ``python -m bot`` (started by :mod:`bot.__main__`): run the bot;
``config``: check the settings; ``demo``: try it without Discord; ``backup``, ``restore``,
``check``: look after the database.

Exit status (see :mod:`bot.exits`, :data:`EXIT_STATUSES` and the README): 0 after a clean
stop, 1 when Discord refuses to connect, 2 when the settings cannot be used (for instance
without a token), 3 when the database cannot be used, 4 when Discord cannot be reached; 5
and 6 from ``check``. Every failure is one line on stderr with a hint, never a traceback.
The token is never printed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import socket
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot.database_checks import ensure_openable, refuse_folder, refuse_unwritable
from bot.exits import (
    EXIT_OK,
    EXIT_REFUSED,
    EXIT_SETTINGS,
    Failure,
    database_failure,
    discord_refusal,
    hang_ups,
    network_failure,
    not_discord,
    opening_database,
    report,
)
from bot.logs import start_logging
from bot.settings import (
    TOKEN_HELP,
    Settings,
    SettingsError,
    dotenv_folders,
    env_file,
    folder_not_file,
    misspelt_environment,
    overridden_settings,
    repeated_settings,
    token_place,
    unread_names,
)
from wizard.store.db import closed_folder

if TYPE_CHECKING:
    from bot.app import WizardBot
    from bot.clock import DiscordClock
    from wizard.service import GameService, GuildFilter, RecoveryReport

log = logging.getLogger("bot")

LOGIN_NOTICE_SECONDS = 20
"""How long a silent Discord is waited for at login before the operator is told."""


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
            return report(failure)
    if args.command in ("backup", "restore", "check") and args.db is not None:
        return _database_command(args, args.db)
    try:
        settings = Settings.load()
    except SettingsError as error:
        return _fail(f"{error}. See .env.example for every setting")
    if args.command in ("backup", "restore", "check"):
        return _database_command(args, settings.database_path)
    if args.command == "config":
        print("\n".join([*settings.describe(), *_unread_notes(), *_where_notes(settings)]))
        if settings.discord_token is None:
            return _fail(_no_token())
        from bot.database_checks import refuse_unusable

        try:
            database = settings.database_path.absolute()
            refuse_folder(database)  # as the bot would at start
            refuse_unwritable(database)
            refuse_unusable(database)
        except Failure as failure:
            return report(failure)
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


def _unread_notes() -> list[str]:
    """A line for each folder named .env passed over, and for each name in the .env file
    that the bot does not read (values never shown)."""
    path = env_file()
    source = _settings_source(path)
    notes = [
        f"note: {folder} is a folder, not a settings file, and is not read (a virtual "
        f"environment named .env?); the settings come from {source}"
        for folder in dotenv_folders()
    ]
    notes += [
        f"note: {path} sets {name}, which is no setting of the bot and is ignored "
        "(a typo? .env.example lists every setting)"
        for name in unread_names(path)
    ]
    notes += [
        f"note: {path} sets {name} on lines {', '.join(map(str, lines[:-1]))} and {lines[-1]}:"
        " the last is used"
        for name, lines in repeated_settings(path)
    ]
    notes += [
        f"note: the environment sets {name}, which {path} sets too: the environment's is used"
        for name in overridden_settings(path)
    ]
    notes += [
        f"note: the environment sets {name}, which is no setting of the bot and is ignored "
        f"(did you mean {setting}?)"
        for name, setting in misspelt_environment()
    ]
    return notes


def _settings_source(path: Path | None) -> str:
    """Where the settings are read: the environment, and the ``.env`` file ``path`` if one
    is (:func:`env_file`)."""
    return "the environment" if path is None else f"the environment and {path}"


def _where_notes(settings: Settings) -> list[str]:
    """Where the settings come from, and the file a relative DATABASE_PATH names from here
    (QA operator: config said neither; a service started from another folder, or none,
    uses another file)."""
    # A .env folder's note says it already (it is in the log at start too).
    source = _settings_source(env_file())
    notes = [] if dotenv_folders() else [f"note: the settings come from {source}"]
    database = settings.database_path
    if not database.is_absolute():
        notes.append(
            f"note: DATABASE_PATH is relative to the folder the bot starts in: from here it is "
            f"{database.absolute()} (give a full path for a service)"
        )
    return notes


def _no_token() -> str:
    folders = "".join(
        f" {folder} is a folder, not a file, so it is not read." for folder in dotenv_folders()
    )
    # QA: DISCORD_TOKN=… was told only to set DISCORD_TOKEN; config's notes named the typo.
    path = env_file()
    typos = [f"the environment sets {name}" for name in _misspelt_token(os.environ)]
    typos += [f"{path} sets {name}" for name in _misspelt_token(unread_names(path))]
    typo = "".join(f" ({said}: did you mean DISCORD_TOKEN?)" for said in typos)
    return (
        f"DISCORD_TOKEN is not set{typo}, so the bot cannot connect to Discord."
        f" {TOKEN_HELP} {token_place()}{folders}"
    )


def _misspelt_token(names: Iterable[str]) -> list[str]:
    """The ``names`` that look like DISCORD_TOKEN misspelt (see misspelt_environment)."""
    found = misspelt_environment(dict.fromkeys(names, ""))
    return [name for name, setting in found if setting == "DISCORD_TOKEN"]


def guild_filter(settings: Settings) -> GuildFilter | None:
    """Which servers this process serves, from SHARD_COUNT and SHARD_IDS; ``None``: all.

    Discord routes a server to shard ``(guild_id >> 22) % shard_count``; a process that runs
    only some shards must recover and time only the games of their servers, or two
    processes would both play the computer turns of one game.
    """
    if settings.shard_ids is None or settings.shard_count is None:
        return None
    count = settings.shard_count
    mine = frozenset(settings.shard_ids)
    if mine == frozenset(range(count)):
        return None

    def owns(guild_id: int) -> bool:
        return (guild_id >> 22) % count in mine

    return owns


def served_shards(settings: Settings) -> tuple[int, ...]:
    """The shards this process claims on the database file, so that a second live process
    for any of them is refused at start: its ``SHARD_IDS``, else every shard of
    ``SHARD_COUNT``, else shard 0 (one process, Discord choosing the count, serves all)."""
    if settings.shard_ids is not None:
        return tuple(settings.shard_ids)
    return tuple(range(settings.shard_count or 1))


async def open_service(
    settings: Settings, *, clock: DiscordClock | None = None
) -> tuple[GameService, RecoveryReport]:
    """Open the game database of ``settings`` and recover this process's games.

    Opened here, outside the bot, so that its writer task is not the bot's work (SimCord
    refuses to settle on it) and so that it outlives the bot's restarts.
    """
    from bot.clock import DiscordClock
    from bot.database_checks import START_HINT, refuse_another_program, warn_unmigrated
    from bot.ops import log_health
    from wizard.service import GameService, ServiceConfig

    # Before the bot writes to it: a file with content but none of the bot's tables is
    # most likely DATABASE_PATH naming the wrong file (see tables_before_start).
    held = refuse_another_program(settings.database_path, START_HINT)
    made = not os.path.exists(settings.database_path)  # never raises (a closed folder)
    ensure_openable(settings.database_path)
    with opening_database(settings.database_path):
        service = await GameService.open(
            settings.database_path,
            config=ServiceConfig(computer_delay=settings.computer_delay_seconds),
            clock=clock or DiscordClock(),
            owns_guild=guild_filter(settings),
            recover=False,
            shards=served_shards(settings),
            shard_count=settings.shard_count or 1,
        )
        try:
            report = await service.recover()
        except BaseException:
            await service.close()
            raise
    if held is not None:
        warn_unmigrated(settings.database_path)
    if made and not settings.database_path.is_absolute():
        # Operator QA: started from another folder, the bot made a new database there, and
        # every game looked lost.
        log.warning(
            "a new, empty database made at %s: DATABASE_PATH=%s is relative to the folder the "
            "bot started in. If the games are in another file, stop the bot and set "
            "DATABASE_PATH to that file's full path",
            settings.database_path.absolute(),
            settings.database_path,
        )
    await log_health(settings.database_path, service.store.integrity)
    # Each damaged game was logged by recover() already, and again by the health summary.
    log.info(
        "database %s: %d unfinished games of this process's servers to resume, each loaded "
        "from its log when first used (%d of other shards left alone, %d set aside as "
        "damaged) in %.2f s",
        settings.database_path,
        len(report.loaded),
        report.skipped,
        len(report.broken),
        report.seconds,
    )
    return service, report


async def serve(settings: Settings, token: str) -> None:
    """Open the service, connect the bot and serve until stopped; always close the service."""
    from bot.app import create_bot
    from bot.clock import DiscordClock

    clock = DiscordClock()
    service, _ = await open_service(settings, clock=clock)
    try:
        bot = create_bot(settings, service=service, clock=clock)
        async with bot:
            await _log_in(bot, token)
            await bot.connect()
    finally:
        # After the bot: no click can reach a closed database.
        await service.close()
        log.info("stopped; database closed")


async def _log_in(bot: WizardBot, token: str) -> None:
    """``bot.login``, telling the operator when Discord is slow to answer (aiohttp waits up
    to five minutes) and, in one line, when what answers is not Discord's API."""
    import discord.http

    notice = asyncio.get_running_loop().call_later(
        LOGIN_NOTICE_SECONDS,
        log.warning,
        "Discord has not answered for %s s; waiting up to 5 minutes before giving up "
        "(check this machine's network, proxy and firewall)",
        LOGIN_NOTICE_SECONDS,
    )
    try:
        await bot.login(token)
    except (TypeError, KeyError, AttributeError):
        if bot.user is not None:  # the bot's user was read: not the answer's fault
            raise
        raise not_discord(discord.http.Route.BASE) from None
    finally:
        notice.cancel()


async def _serve_until_signal(settings: Settings, token: str) -> None:
    """:func:`serve`, stopped cleanly by SIGTERM (``docker stop``) and SIGHUP (a closed
    terminal; operator QA: the database was left unclosed) as by Ctrl-C."""
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    if task is not None:
        for number in (signal.SIGTERM, *hang_ups()):
            with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
                loop.add_signal_handler(number, task.cancel)
    with contextlib.suppress(asyncio.CancelledError):
        await serve(settings, token)


def run(settings: Settings) -> int:
    """Connect with ``settings`` and serve until stopped; refuses at once without a token."""
    token = settings.token_value()
    if not token:
        return _fail(_no_token())

    import sqlite3

    import aiohttp
    import discord

    start_logging(settings.log_level)
    for note in _unread_notes():
        log.warning("%s", note)
    try:
        asyncio.run(_serve_until_signal(settings, token))
    except KeyboardInterrupt:
        return EXIT_OK
    except Failure as failure:  # the database, from open_service
        return report(failure)
    except sqlite3.Error as error:  # the database failing later, while serving
        return report(database_failure(settings.database_path, error))
    except discord.LoginFailure:
        return report(
            Failure(
                EXIT_REFUSED,
                "Discord refused the token in DISCORD_TOKEN",
                "Reset it in the Developer Portal (Applications → your app → Bot → Reset "
                "Token) and put the new one in .env",
            )
        )
    except discord.PrivilegedIntentsRequired:
        return report(
            Failure(
                EXIT_REFUSED,
                "Discord refused a privileged intent",
                "this bot needs none: leave the Privileged Gateway Intents off",
            )
        )
    # After the database (opened first, and reported above): what is left of these is the
    # way to Discord. DiscordServerError: Discord's side failing (5xx), not the token.
    except (
        aiohttp.ClientConnectionError,
        TimeoutError,
        OSError,
        discord.GatewayNotFound,
        discord.DiscordServerError,
    ) as error:
        return report(network_failure(error))
    except discord.HTTPException as error:  # any other answer than the token's refusal
        return report(discord_refusal(error.status, error.response.reason or "", error.text))
    return EXIT_OK
