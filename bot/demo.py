"""``python -m bot demo``: the real bot in SimCord's in-memory Discord, played in a browser.

The bot is built by the same ``create_bot`` as in production and talks to a simulated
Discord (SimCord, from the ``demo`` extra) instead of discord.com: one server, one channel
and a few members. SimCord's preview page, served on loopback only, shows the channel as
one of those members ("Viewing as" in its toolbar switches between them), with a real
slash-command composer and clickable buttons. No token, no Discord account, no network.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from bot.exits import EXIT_SETTINGS, Failure, hang_ups, naming, report
from bot.logs import start_logging
from bot.settings import Settings

if TYPE_CHECKING:
    import discord
    import simcord
    from simcord.preview import Preview

    from bot.cogs import GameConfig
    from wizard.service import GameService

SERVER_NAME = "Wizard demo"
CHANNEL_NAME = "wizard"
MEMBER_NAMES = ("Sam", "Ann", "Bob")
"""The person trying the demo (the page opens as them), then the friends they can switch to."""
MANAGER_ROLE = "Server managers"
"""The role with Manage Server that the person trying the demo has, for ``/wizard settings``."""
BOT_NAME = "Wizard"
PAGE_WIDTH = 1280
PAGE_HEIGHT = 900


class DemoUnavailableError(RuntimeError):
    """The ``demo`` extra (SimCord with its preview) is not installed."""


def require_simcord() -> None:
    """Fail with an install hint when SimCord's preview is missing."""
    missing = [
        name
        for name in ("simcord", "aiohttp", "markdown_it", "linkify_it", "regex", "PIL")
        if _find_spec(name) is None
    ]
    if missing:
        raise DemoUnavailableError(
            "the demo needs SimCord's preview (missing: "
            + ", ".join(missing)
            + "). Install it with: pip install -e '.[demo]'"
        )


def _find_spec(name: str) -> object | None:
    import importlib.util

    return importlib.util.find_spec(name)


SETTLE_SECONDS = 120.0
"""Real seconds SimCord gives the bot to finish the work of one click: only a bound on the
bot's own work (a fraction of a second when idle, a few seconds on a loaded machine),
reached by a hang alone. The bot's and the service's timers run on SimCord's clock
(:class:`SimCordClock`), so none of them is waited for in real time inside a click."""


def demo_config(config: GameConfig | None = None) -> GameConfig:
    """The game cog's config in the demo: ``config`` (default: the bot's) without edit pacing.

    Pacing (``edit_interval``) spares Discord's rate limits, which the simulated Discord does
    not have; it would only hold back the trailing table edit until SimCord's clock moved on,
    which it does not while the page is served (see :func:`serving_page`).
    """
    from bot.cogs import GameConfig

    return replace(config or GameConfig(), edit_interval=0.0)


@dataclass(frozen=True)
class World:
    """The simulated Discord server of the demo."""

    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    members: tuple[simcord.MemberActor, ...]
    """``MEMBER_NAMES`` in order: the page's own member first."""


def build_world(env: simcord.Env, names: tuple[str, ...] = MEMBER_NAMES) -> World:
    """One server with one text channel and ``names`` as members.

    The first member manages the server (Manage Server, through a role), so that the person
    trying the demo can open ``/wizard settings``; the others are plain members.
    """
    import discord

    guild = env.create_guild(SERVER_NAME)
    channel = guild.create_text_channel(CHANNEL_NAME)
    managers = guild.create_role(MANAGER_ROLE, permissions=discord.Permissions(manage_guild=True))
    members = tuple(
        guild.add_member(
            env.create_user(name.lower(), global_name=name), roles=[managers] if i == 0 else []
        )
        for i, name in enumerate(names)
    )
    return World(guild, channel, members)


@dataclass(frozen=True)
class Demo:
    """A running demo: the simulated Discord, its world, and the bot's game service."""

    env: simcord.Env
    world: World
    service: GameService
    database: Path


@contextlib.asynccontextmanager
async def running_demo(
    *,
    db: Path | None = None,
    computer_delay: float = 0.0,
    check_errors: bool = False,
    game_config: GameConfig | None = None,
    wall_clock: bool = True,
) -> AsyncIterator[Demo]:
    """The real bot in a fresh SimCord world, with its game service; closed on exit.

    ``db`` keeps the games in that file; by default a temporary file is deleted on exit.
    ``check_errors`` makes errors the bot swallowed fail the exit (for tests); the demo
    itself only logs them, so that one bad click does not end a session. ``game_config``
    is the game cog's (for instance fixed seeds, for pictures that do not change), without
    edit pacing (see :func:`demo_config`).
    The bot's and the service's timers (computer delays, turn timers) run on SimCord's clock
    (:class:`SimCordClock`): they fire when a caller moves it with ``demo.env.advance_time``.
    With no ``computer_delay`` (the default, and the served demo's) the computers move at
    once, inside the click that hands them the turn.
    ``wall_clock`` starts the simulated Discord at the present time instead of SimCord's
    fixed date (see :func:`_start_now`).
    """
    require_simcord()
    import simcord

    from bot.app import create_bot
    from bot.clock import SimCordClock
    from bot.ops import log_health
    from wizard.service import GameService, ServiceConfig

    game_config = demo_config(game_config)

    with contextlib.ExitStack() as stack:
        if db is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="wizard-demo-")))
            db = folder / "demo.db"
        settings = Settings(database_path=db, shard_count=1, computer_delay_seconds=computer_delay)
        clock = SimCordClock()
        # This run's server only: games of an earlier demo kept in the same file belong to
        # a simulated Discord that is gone; they stay in the file, untouched.
        this_world: set[int] = set()
        # Opened outside the bot, as in production: SimCord cannot settle on the store's
        # writer task if the bot owns it.
        service = await GameService.open(
            db,
            config=ServiceConfig(computer_delay=computer_delay),
            clock=clock,
            owns_guild=this_world.__contains__,
        )
        try:
            # As the bot's start does (QA: a demo on an almost full disk said nothing).
            await log_health(db, service.store.integrity)
            bot = create_bot(settings, service=service, clock=clock, game_config=game_config)
            async with simcord.run(
                bot,
                shard_count=1,
                settle_timeout=SETTLE_SECONDS,
                check_errors=check_errors,
            ) as env:
                clock.env = env
                if wall_clock:
                    await _start_now(env)
                # Shown as "Wizard" on the page instead of SimCord's "TestBot": the bot
                # renames its account, as discord.py lets any bot do.
                assert bot.user is not None
                await bot.user.edit(username=BOT_NAME)
                world = build_world(env)
                this_world.add(world.guild.id)
                yield Demo(env, world, service, db)
        finally:
            await service.close()


async def _start_now(env: simcord.Env) -> None:
    """Move the simulated clock from SimCord's fixed start to the present.

    SimCord numbers everything (servers, messages, interactions) with snowflakes made of
    its clock, from the same start in every run. The game service takes interaction ids as
    the keys that make a click count once, so a second run on a kept database would see the
    first run's ids again and refuse its clicks as already saved. From the present, ids are
    new in every run, as on Discord; and the page shows today's date.
    """
    ahead = time.time() - env.now().timestamp()
    if ahead > 0:
        await env.advance_time(ahead)


@contextlib.asynccontextmanager
async def serving_page(
    demo: Demo,
    *,
    viewers: tuple[simcord.MemberActor, ...] | None = None,
    port: int = 0,
    width: int = PAGE_WIDTH,
    height: int = PAGE_HEIGHT,
    layout: Literal["channel", "message"] = "channel",
) -> AsyncIterator[Preview]:
    """SimCord's preview page of the demo channel on 127.0.0.1.

    The first of ``viewers`` (default: every member) is who the page opens as; "Viewing as"
    switches among them. ``layout="message"`` shows one message alone (``preview.show``
    chooses it) instead of the channel with its message box. The page's address carries a
    secret: whoever has it can play.

    Nothing runs beside the page while it is served: SimCord runs one operation at a time,
    and refuses a click that arrives during another (moving its clock, republishing) in a way
    that leaves the browser's page unable to click until it is reloaded. So the page changes
    only through its own clicks, each published when its work is done: the computers move at
    once, inside the click that hands them the turn (no computer delay), and SimCord's clock,
    with the turn timers and reminders on it, stands still.
    """
    chosen = viewers or demo.world.members
    async with demo.env.preview(
        demo.world.channel,
        viewers=list(chosen),
        layout=layout,
        port=port,
        width=width,
        height=height,
    ) as preview:
        yield preview


async def serve(*, port: int = 0, db: Path | None = None) -> None:
    """Run the demo until the page's "End preview session" or Ctrl-C."""
    async with running_demo(db=db) as demo:
        you, *friends = (_shown(m) for m in demo.world.members)
        # A word from a friend, so that the page does not open on an empty channel.
        await demo.world.members[1].send(
            demo.world.channel,
            f"Hi {you}! Type **/wizard new** below, press Enter to pick it from the list, then "
            "send it with the arrow on the right to open a game of Wizard. A game needs 3 "
            "players: press **Add computer player** twice (once if I join), then **Start**. "
            f"Switch to me ({friends[0]}) with "
            "**Viewing as** at the top if you want me to join.",
        )
        async with serving_page(demo, port=port) as preview:
            _announce(preview.url, you, friends)
            await preview.wait_closed()


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""Ctrl-C, and what ``kill`` or a process manager sends."""


async def _serve_until_signal(*, port: int, db: Path | None) -> None:
    """:func:`serve`, stopped cleanly by Ctrl-C (SIGINT), SIGTERM or SIGHUP (operator QA: a
    closed terminal ended it without closing the database).

    The loop's own handlers, not Python's KeyboardInterrupt: a demo started in the
    background by a script inherits SIGINT *ignored*, and Python then never raises
    KeyboardInterrupt, so Ctrl-C sent to it later did nothing. The handlers cancel the
    demo, whose exits close the page, the bot and the database in order.
    """
    demo = asyncio.ensure_future(serve(port=port, db=db))
    loop = asyncio.get_running_loop()
    installed = []
    for number in (*STOP_SIGNALS, *hang_ups()):
        with contextlib.suppress(NotImplementedError):  # no loop signal handlers on Windows
            loop.add_signal_handler(number, demo.cancel)
            installed.append(number)
    try:
        with contextlib.suppress(asyncio.CancelledError):
            await demo
    finally:
        for number in installed:
            loop.remove_signal_handler(number)


def _announce(url: str, you: str, friends: list[str]) -> None:
    """Print the page's address and what to do, in the terminal that started the demo."""
    print(
        "\nWizard demo: the real bot in a simulated Discord, on this computer only.\n"
        f"\n  Open  {url}\n\n"
        f"You are {you} in #{CHANNEL_NAME}. Type /wizard new in the message box, press Enter "
        "to pick it from the list, then send it with the arrow at its right; add computer "
        "players, press Start, then Show my hand.\n"
        f"Switch to {' or '.join(friends)} with 'Viewing as' "
        "at the top to play their seats.\n"
        "The address is the key to this session: do not share it. "
        "Stop with Ctrl-C.\n",
        flush=True,
    )


MOVE_VERBS = frozenset({"bid", "play", "trump", "playhidden"})
"""Verbs of the hand's buttons that make a move (see ``bot.ui.buttons.Verb``)."""
SHOW_HAND = "Show my hand"


def find_table(channel: simcord.ChannelHandle) -> discord.Message | None:
    """The newest public message of ``channel`` with a "Show my hand" button: the table."""
    for message in reversed(channel.history()):
        for row in message.components:
            for item in getattr(row, "children", ()):
                if getattr(item, "label", None) == SHOW_HAND:
                    return message
    return None


def move_buttons(message: simcord.ResponseMessage) -> list[str]:
    """Custom ids of the enabled move buttons of a hand message, in display order."""
    found = []
    for row in message.components:
        for item in row.get("components", ()):
            custom_id = str(item.get("custom_id", ""))
            parts = custom_id.split(":")
            if len(parts) == 5 and parts[2] in MOVE_VERBS and not item.get("disabled"):
                found.append(custom_id)
    return found


def table_bid_buttons(message: discord.Message) -> list[str]:
    """Custom ids of the enabled bid buttons of the table (an open bid is made there)."""
    found = []
    for row in message.components:
        for item in getattr(row, "children", ()):
            custom_id = str(getattr(item, "custom_id", None) or "")
            parts = custom_id.split(":")
            if len(parts) == 5 and parts[2] == "bid" and not getattr(item, "disabled", True):
                found.append(custom_id)
    return found


class Player:
    """A member who plays through the buttons a person would click.

    An open bid is made with the table's bid buttons (the demo's other seats are computer
    players, so the bids shown there are this member's). Otherwise the player opens their
    hand with "Show my hand" on the table and clicks one of its enabled move buttons. Their
    open hand updates itself when it is their turn again, so it is reused while it offers a
    move, as a person would; otherwise a fresh one is opened. This is how the tests and the
    screenshot script play.
    """

    def __init__(
        self,
        member: simcord.MemberActor,
        channel: simcord.ChannelHandle,
        choose: Callable[[list[str]], str] = lambda ids: ids[0],
    ) -> None:
        self.member = member
        self.channel = channel
        self.choose = choose
        """Picks among the custom ids of the enabled move buttons (default: the first)."""
        self.hand: simcord.ResponseMessage | None = None
        """The hand message last opened (ephemeral, visible to the member only)."""

    async def open_hand(self) -> simcord.ResponseMessage | None:
        """Press "Show my hand" on the table; the private hand, if there is a table."""
        table = find_table(self.channel)
        if table is None:
            return None
        shown = await self.member.click(table, label=SHOW_HAND)
        if shown.acknowledged and shown.response is not None:
            self.hand = shown.response
        return shown.response

    async def move(self) -> bool:
        """Click one move button; ``False`` when there is none (not their turn, or over).

        ``True`` means the bot answered the click. A click the game refuses (its button had
        gone out of date meanwhile) is answered too, with the current hand and a note; a
        caller that must know whether the game moved compares its version.
        """
        table = find_table(self.channel)
        bids = table_bid_buttons(table) if table is not None else []
        if table is not None and bids:
            return (await self.member.click(table, custom_id=self.choose(bids))).acknowledged
        hand = self.hand
        if hand is None or not move_buttons(hand):
            hand = await self.open_hand()
        if hand is None:
            return False
        moves = move_buttons(hand)
        if not moves:
            return False
        result = await self.member.click(hand, custom_id=self.choose(moves))
        if result.response is not None:
            # The hand clicked, edited; or, after a stale click, the current hand instead.
            self.hand = result.response
        return result.acknowledged


def _shown(member: simcord.MemberActor) -> str:
    """The name the page shows for ``member``."""
    return member.user.global_name or member.name


def _not_about_probes(record: logging.LogRecord) -> bool:
    """Drops discord.py's "Guilds intent seems to be disabled": SimCord builds a throw-away
    client without intents, which says nothing about the demo."""
    return "Guilds intent seems to be disabled" not in record.getMessage()


def _refuse_setup(host: str, port: int, db: Path | None) -> None:
    """Raise the :class:`Failure` of a demo that cannot run with these options."""
    if host not in ("127.0.0.1", "localhost"):
        # SimCord's page binds loopback only, and its address is its password.
        raise Failure(EXIT_SETTINGS, "the demo's page is served on 127.0.0.1 only")
    if not 0 <= port <= 65535:
        raise Failure(EXIT_SETTINGS, "--port must be between 0 and 65535")
    try:
        require_simcord()
    except DemoUnavailableError as error:
        raise Failure(EXIT_SETTINGS, str(error)) from None
    if db is not None:
        from bot.database_checks import refuse_another_program

        refuse_another_program(db, "name a new file, or one an earlier demo kept")


def main(
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    db: Path | None = None,
    log_level: str = "WARNING",
) -> int:
    """``python -m bot demo``; returns the exit status."""
    try:
        _refuse_setup(host, port, db)
    except Failure as failure:
        return report(naming(failure, "--db"))
    import simcord

    start_logging(log_level)
    logging.getLogger("discord.state").addFilter(_not_about_probes)
    try:
        asyncio.run(_serve_until_signal(port=port, db=db))
    except KeyboardInterrupt:
        pass  # Ctrl-C before the loop's handlers were installed
    except simcord.SetupError as error:
        # For instance a --port already in use.
        return report(Failure(EXIT_SETTINGS, f"the demo cannot start: {error}"))
    print("Wizard demo stopped.", flush=True)
    return 0
