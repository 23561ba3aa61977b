"""Starting the bot (``python -m bot``, ``run``): open the game database and recover the
games of this process's shards, connect to Discord, serve until Ctrl-C, SIGTERM or SIGHUP,
and close the database; every failure on the way is one line with a hint (see
:mod:`bot.exits`), never a traceback."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from typing import TYPE_CHECKING

from bot.database_checks import ensure_openable
from bot.exits import (
    EXIT_OK,
    EXIT_REFUSED,
    EXIT_SETTINGS,
    Failure,
    database_failure,
    discord_refusal,
    hang_ups,
    naming,
    network_failure,
    not_discord,
    opening_database,
    report,
)
from bot.logs import start_logging
from bot.settings import Settings
from bot.settings_notes import no_token, unread_notes

if TYPE_CHECKING:
    from bot.app import WizardBot
    from bot.clock import DiscordClock
    from wizard.service import GameService, GuildFilter, RecoveryReport

log = logging.getLogger("bot")

LOGIN_NOTICE_SECONDS = 20
"""How long a silent Discord is waited for at login before the operator is told."""


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
        return report(Failure(EXIT_SETTINGS, no_token()))

    import sqlite3

    import aiohttp
    import discord

    start_logging(settings.log_level)
    for note in unread_notes():
        log.warning("%s", note)
    try:
        asyncio.run(_serve_until_signal(settings, token))
    except KeyboardInterrupt:
        return EXIT_OK
    except Failure as failure:  # the database, from open_service
        return report(naming(failure, "DATABASE_PATH"))
    except sqlite3.Error as error:  # the database failing later, while serving
        return report(naming(database_failure(settings.database_path, error), "DATABASE_PATH"))
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
