"""A simulated Discord with the real bot and a real game service, and a player driver.

Games in these tests are played only as people play them: slash commands and clicks on the
buttons the bot shows. The driver reads whose turn it is from the service's *public* table
(as a person reads the table message), and clicks one of the enabled buttons of the table
(an open bid, made on the table) or of the member's own hand message (anything else). Nothing
is ever applied to the service directly.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import random
import re
import warnings
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands
from simcord import interactions as simcord_interactions
from simcord.backend import serializers as simcord_serializers

from bot.app import WizardBot, create_bot
from bot.clock import DiscordClock, SimCordClock
from bot.cogs import GameConfig
from bot.cogs.game import GameCog
from bot.features.table import bids_on_table
from bot.settings import Settings
from tests.bot.simtools import OPENAPI_ENV, DiscordContract, find_openapi
from wizard.options import Bidding
from wizard.record import load, replay
from wizard.service import GameInfo, GameService, GameStatus, ServiceConfig

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus")
SPECTATOR_REFUSED = (
    "🚫 You are not playing in this game. You can watch it on the table. To play, take a seat "
    "there if the table offers one, or join the next game."
)
"""The reply to someone without a seat who clicks a game's button."""
ACTION_VERBS = ("bid", "play", "trump", "playhidden", "takeback")
IDLE = 0.002
"""SimCord polls for the bot's work every ``idle`` seconds while it settles (50 ms by
default, which is most of the real time of a click). The value is only a polling interval:
what counts as settled is unchanged. Lowered for these tests, which click a few thousand
times, through the keyword default of the pinned SimCord's settle loop."""


SETTLE_TIMEOUT = 30.0
"""Real seconds SimCord gives the bot to settle after each click or ``advance_time``: only a
bound on the bot's own work (a click with the computer moves it sets off takes a fraction
of a second, a few seconds on a loaded machine), reached by a hang alone. Every bot and
service timer runs on virtual time here (:class:`SimCordClock`), so none is waited for in
real time however long this is; only timers of the real event loop (the 2 s deferral of a
slow click, a computer worker's 3 s decision deadline) still are, and they are far
shorter."""


ROOT = Path(__file__).resolve().parents[2]
INVALID_REST = "invalid_rest_requests"
"""Marks a test that sends requests Discord would refuse on purpose (to prove the check)."""


def pytest_configure(config: pytest.Config) -> None:
    """Register this folder's marker."""
    config.addinivalue_line(
        "markers", f"{INVALID_REST}: the test's REST requests are not checked against Discord's"
    )


@pytest.fixture(scope="session")
def discord_contract() -> DiscordContract | None:
    """Discord's OpenAPI description, compiled once per session (``None`` when absent
    outside CI, with a warning; in CI its absence fails every bot test)."""
    path = find_openapi(ROOT)
    if path is None:
        where = ROOT.parent / "shared" / "discord-api" / "openapi.json"
        message = (
            f"Discord's OpenAPI description is missing: expected {where} (or the file that "
            f"{OPENAPI_ENV} names). The bot's REST requests cannot be checked against it."
        )
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message, pytrace=False)
        warnings.warn(message, pytest.PytestWarning, stacklevel=1)
        return None
    try:
        return DiscordContract.load(path)
    except ImportError as error:  # jsonschema is a dev dependency
        pytest.fail(f"the OpenAPI check needs jsonschema: {error}", pytrace=False)


@pytest.fixture(autouse=True)
def discord_requests_follow_the_contract(
    request: pytest.FixtureRequest,
    discord_contract: DiscordContract | None,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[list[simcord.Env]]:
    """Every REST request the bot made in the test, whatever started its SimCord
    (``simcord.run``, or an ``Env`` started by hand), is valid by Discord's own description
    of its API (checked once the test is over)."""
    envs: list[simcord.Env] = []
    start = simcord.Env.start

    async def recorded_start(env: simcord.Env, *args: Any, **kwargs: Any) -> Any:
        if not any(env is seen for seen in envs):
            envs.append(env)
        return await start(env, *args, **kwargs)

    # Every SimCord starts its Env: through simcord.run, or by hand in a test.
    monkeypatch.setattr(simcord.Env, "start", recorded_start)
    yield envs
    if discord_contract is None or request.node.get_closest_marker(INVALID_REST):
        return
    problems = [p for env in envs for p in discord_contract.check(env.http_requests)]
    if problems:
        shown = "\n  ".join(dict.fromkeys(problems))  # each distinct problem once
        pytest.fail(
            f"{len(problems)} REST request(s) Discord would refuse by its OpenAPI "
            f"description:\n  {shown}",
            pytrace=False,
        )


@pytest.fixture
def fast_settle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Poll SimCord's settle loop every :data:`IDLE` seconds in this test."""
    defaults = simcord.Env._settle_internal.__kwdefaults__
    assert defaults is not None and "idle" in defaults
    monkeypatch.setitem(defaults, "idle", IDLE)


def buttons(message: Any) -> list[dict[str, Any]]:
    """Every button of a message (raw component dicts), row by row."""
    rows = message.components
    out: list[dict[str, Any]] = []
    for row in rows:
        children = row["components"] if isinstance(row, dict) else row.to_dict()["components"]
        out.extend(c for c in children if c.get("type") == 2)
    return out


def verb_of(button: dict[str, Any]) -> str:
    return str(button["custom_id"]).split(":")[2]


def is_bid_button(button: dict[str, Any]) -> bool:
    """Whether a button is a bid (on the table or in a hand)."""
    parts = str(button.get("custom_id", "")).split(":")
    return len(parts) > 2 and parts[0] == "wiz" and parts[2] == "bid"


def version_of(button: dict[str, Any]) -> int:
    return int(str(button["custom_id"]).split(":")[4])


def is_hand_button(button: dict[str, Any]) -> bool:
    """Whether a button is a table's "Show my hand" (by its custom id: any language)."""
    parts = str(button.get("custom_id", "")).split(":")
    return len(parts) > 2 and parts[0] == "wiz" and parts[2] == "hand"


def warnings_about(caplog: pytest.LogCaptureFixture, game_id: int) -> list[str]:
    """The bot's log lines at WARNING or above that name game ``game_id`` (not game 12 for 1)."""
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.WARNING
        and r.name.startswith("bot.")
        and re.search(rf"\bgame {game_id}\b", r.getMessage())
    ]


def hand_body(text: str) -> str:
    """A private message's text without the hand's first line, which names the game and
    its channel (``bot.features.hand.hand_heading``)."""
    first, _, rest = text.partition("\n")
    return rest if first.startswith("-# Wizard · ") else text


def message_text(message: discord.Message | simcord.ResponseMessage) -> str:
    """Everything a message shows, as one string."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        for f in embed.fields:
            parts += [f.name or "", f.value or ""]
    return "\n".join(parts)


@dataclass
class Sim:
    """One simulated Discord server with the bot, a channel and members."""

    env: simcord.Env
    service: GameService
    path: Path
    settings: Settings
    config: GameConfig
    service_config: ServiceConfig
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    members: list[simcord.MemberActor]
    hands: dict[int, int] = field(default_factory=dict)
    """Member id → the id of the hand message they last opened."""
    all_hands: dict[int, set[int]] = field(default_factory=dict)
    """Member id → every hand message they opened."""
    clicks: int = 0
    table_bids: int = 0
    """Bids clicked on the table (open bidding)."""
    last_clicked: Any = None
    """The message whose button :meth:`act` clicked last (the table or a hand), as it was."""
    virtual_timers: bool = True
    """The bot's and the service's timers fire only through ``env.advance_time`` (see
    ``SimCordClock``)."""

    @property
    def bot(self) -> WizardBot:
        bot = self.env.bot
        assert isinstance(bot, WizardBot)
        return bot

    @property
    def cog(self) -> GameCog:
        cog = self.bot.game_cog
        assert cog is not None
        return cog

    def member(self, user_id: int) -> simcord.MemberActor:
        return next(m for m in self.members if m.id == user_id)

    async def restart(self) -> None:
        """A new process: close the service, open it again on the same file, new bot."""
        await self.service.close()
        # The same kind of clock as before the restart: a turn timer resumed from the
        # database must not start waiting on the real clock.
        clock = bot_clock(self.env) if self.virtual_timers else DiscordClock()
        self.service = await GameService.open(self.path, clock=clock, config=self.service_config)
        bot = create_bot(self.settings, service=self.service, clock=clock, game_config=self.config)
        await self.env.restart_bot(bot)

    # --- reading the channel ---------------------------------------------------------------

    def public(self) -> list[discord.Message]:
        """The channel as someone who is not in the game sees it."""
        return self.channel.history()

    def raw(self, *, viewer: simcord.MemberActor | None = None) -> list[Any]:
        """The channel's messages as SimCord stores them (what ``public()`` converts), oldest
        first: reading these is much faster than building ``discord.Message`` objects, which
        matters for checks made after every one of a few thousand clicks."""
        stored = self.env.backend.messages.get(self.channel.id, {}).values()
        who = None if viewer is None else viewer.id
        return sorted((m for m in stored if m.visible_to(who)), key=lambda m: m.id)

    def message(self, message_id: int) -> simcord.ResponseMessage:
        """A message of the channel as it is now (clickable)."""
        return simcord.ResponseMessage(
            self.env, self.env.backend.get_message(self.channel.id, message_id)
        )

    def message_in(
        self, channel: simcord.ChannelHandle, message_id: int
    ) -> simcord.ResponseMessage:
        """A message of another channel (a game's thread) as it is now (clickable)."""
        return simcord.ResponseMessage(
            self.env, self.env.backend.get_message(channel.id, message_id)
        )

    def table(self) -> simcord.ResponseMessage:
        """The newest public message with a "Show my hand" button (the table or a ping),
        found by the button's id, so in any language."""
        for stored in reversed(self.raw()):
            if any(is_hand_button(b) for b in buttons(stored)):
                return self.message(stored.id)
        raise AssertionError("no table message with a Show my hand button")

    def table_of(self, info: GameInfo) -> simcord.ResponseMessage:
        """The game's live table message (by its id, as the service has it)."""
        assert info.table_message_id is not None
        return self.message(info.table_message_id)

    def hand(self, member: simcord.MemberActor) -> simcord.ResponseMessage | None:
        """The member's last opened hand as it is now (edited in place by the bot)."""
        hand_id = self.hands.get(member.id)
        if hand_id is None:
            return None
        hand = self.message(hand_id)
        assert hand.ephemeral
        return hand

    # --- doing things ----------------------------------------------------------------------

    async def new_game(self, host: simcord.MemberActor, **options: Any) -> GameInfo:
        result = await host.slash(self.channel, "wizard new", **options)
        assert result.acknowledged and result.response is not None
        assert not result.ephemeral, result.response.content
        info = await self.service.game_in_channel(self.channel.id)
        assert info is not None
        return info

    async def lobby(
        self,
        host: simcord.MemberActor,
        joiners: list[simcord.MemberActor],
        computers: int = 0,
        **options: Any,
    ) -> GameInfo:
        """``/wizard new``, everyone joins, computers are added, the host starts."""
        info = await self.new_game(host, **options)
        lobby = self.message(self.raw()[-1].id)
        for member in joiners:
            result = await member.click(lobby, label="Join")
            assert result.acknowledged and not result.ephemeral
        for _ in range(computers):
            result = await host.click(lobby, label="Add computer player")
            assert result.acknowledged and not result.ephemeral
        started = await host.click(lobby, label="Start")
        assert started.acknowledged and not started.ephemeral, started
        return await self.service.get_game(info.id)

    async def open_hand(self, member: simcord.MemberActor) -> simcord.ResponseMessage:
        table = self.table()
        [show] = [b for b in buttons(table) if is_hand_button(b)]
        result = await member.click(table, custom_id=show["custom_id"])
        self.clicks += 1
        assert result.acknowledged and result.ephemeral and result.response is not None
        self.hands[member.id] = result.response.id
        self.all_hands.setdefault(member.id, set()).add(result.response.id)
        return result.response

    def add_manager(self, name: str) -> simcord.MemberActor:
        """A member with the Manage Server permission who is not in any game."""
        role = self.guild.create_role(
            "Managers", permissions=discord.Permissions(manage_guild=True)
        )
        return self.guild.add_member(self.env.create_user(name), roles=[role])

    async def click_hand(
        self, member: simcord.MemberActor, label: str
    ) -> simcord.InteractionResult:
        """Click the button ``label`` of the member's hand (opening the hand if needed)."""
        hand = self.hand(member)
        if hand is None or not any(b.get("label") == label for b in buttons(hand)):
            hand = await self.open_hand(member)
        result = await member.click(hand, label=label)
        self.clicks += 1
        assert result.acknowledged
        return result

    async def click_table(
        self, member: simcord.MemberActor, label: str
    ) -> simcord.InteractionResult:
        """Click the bid ``label`` on the game's table (open bidding)."""
        info = await self.service.game_in_channel(self.channel.id)
        assert info is not None
        table = self.table_of(info)
        result = await member.click(table, label=label)
        self.clicks += 1
        assert result.acknowledged
        return result

    async def bid_on_table(
        self,
        member: simcord.MemberActor,
        info: GameInfo,
        choose: Callable[[list[dict[str, Any]]], dict[str, Any]],
    ) -> simcord.InteractionResult:
        """Click one enabled bid of the table, once the table shows the current moment (with
        edit pacing a trailing edit may still be due: time passes until it is made)."""
        for _ in range(20):
            table = self.table_of(info)
            enabled = [
                b
                for b in buttons(table)
                if is_bid_button(b) and not b.get("disabled") and version_of(b) == info.version
            ]
            if enabled:
                break
            await self.env.advance_time(1.0)
            info = await self.service.get_game(info.id)
            assert bids_on_table(info.table)  # type: ignore[arg-type]
        else:
            raise AssertionError(f"the table offers {member.name} no bid:\n{table}")
        self.last_clicked = table
        chosen = choose(enabled)
        result = await member.click(table, custom_id=chosen["custom_id"])
        self.clicks += 1
        self.table_bids += 1
        assert result.acknowledged, chosen
        return result

    async def to_act(self, game_id: int) -> list[simcord.MemberActor]:
        """The members the game waits for now, as the table shows them."""
        info = await self.service.get_game(game_id)
        assert info.table is not None
        return [
            self.member(uid)
            for s in info.table.to_act
            if (uid := info.seats[s].user_id) is not None
        ]

    async def act(
        self, member: simcord.MemberActor, choose: Callable[[list[dict[str, Any]]], dict[str, Any]]
    ) -> simcord.InteractionResult:
        """Click one enabled bid on the table while an open bid is awaited, else one enabled
        action button of the member's hand (opening it first if it has none: a new player, or
        a hand that stopped updating)."""
        info = await self._game_of(member)
        if info is not None and info.table is not None and bids_on_table(info.table):
            return await self.bid_on_table(member, info, choose)
        hand = self.hand(member)
        enabled = [b for b in (buttons(hand) if hand else []) if not b.get("disabled")]
        enabled = [b for b in enabled if verb_of(b) in ACTION_VERBS]
        if not enabled:
            hand = await self.open_hand(member)
            enabled = [b for b in buttons(hand) if not b.get("disabled")]
            enabled = [b for b in enabled if verb_of(b) in ACTION_VERBS]
        assert enabled, f"{member.name} may act but their hand offers nothing:\n{hand}"
        assert hand is not None
        self.last_clicked = hand
        chosen = choose(enabled)
        result = await member.click(hand, custom_id=chosen["custom_id"])
        self.clicks += 1
        assert result.acknowledged, chosen
        return result

    async def _game_of(self, member: simcord.MemberActor) -> GameInfo | None:
        """The running game of the driver's channel (a thread's, when pointed at one)."""
        info = await self.service.game_in_channel(self.channel.id)
        if info is None or info.seat_of(member.id) is None:
            return None
        return info

    async def play(
        self,
        game_id: int,
        rng: random.Random,
        *,
        idle: frozenset[int] = frozenset(),
        step: Callable[[], Any] | None = None,
        until: Callable[[GameInfo], bool] | None = None,
        advance: float = 10.0,
    ) -> GameInfo:
        """Click until the game is over (or ``until`` holds): each member whose turn it is
        clicks a random enabled button; members in ``idle`` never click (time passes)."""
        while True:
            info = await self.service.get_game(game_id)
            if info.status is not GameStatus.ACTIVE or (until is not None and until(info)):
                return info
            assert info.table is not None
            movers = [
                info.seats[s].user_id
                for s in info.table.to_act
                if not info.seats[s].computer_controlled
                and info.seats[s].user_id is not None
                and info.seats[s].user_id not in idle
            ]
            if not movers:
                await self.env.advance_time(advance)
                if step is not None:
                    await step()
                continue
            user = movers[0]
            assert user is not None
            await self.act(self.member(user), rng.choice)
            if step is not None:
                await step()

    async def final_standings(self, game_id: int) -> tuple[discord.Message, list[int]]:
        """The final standings message and the scores it shows, checked against a replay of
        the record file attached to it (RULES §9); the scorepad picture is attached too."""
        final = [m for m in self.public() if m.content.startswith(f"🏁 **Game {game_id} is over")]
        assert len(final) == 1, [m.content for m in self.public()[-3:]]
        message = final[0]
        files = {a.filename: a for a in message.attachments}
        record, picture = f"wizard-game-{game_id}.json", f"wizard-scorepad-{game_id}.png"
        assert sorted(files) == sorted([record, picture])
        png = await files[picture].read()
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        assert message.embeds[0].image.url == f"attachment://{picture}"
        state = replay(load((await files[record].read()).decode()))
        info = await self.service.get_game(game_id)
        shown = {}
        for line in (message.embeds[0].description or "").splitlines():
            match = re.match(r"^\S+ \*\*(.+)\*\*: ([-−]?[\d,]+) points$", line)
            if match:  # digits grouped from 1,000 on; a seat a computer played to the end: 🤖
                points = match.group(2).replace(",", "").replace("−", "-")
                shown[match.group(1).removesuffix(" 🤖")] = int(points)
        names = [s.name for s in info.seats]
        assert list(state.players) == names
        assert shown == dict(zip(names, state.scores, strict=True))
        assert [s.score for s in sorted(info.standings, key=lambda s: s.seat)] == list(state.scores)
        return message, list(state.scores)


def record_file(message: discord.Message) -> discord.Attachment:
    """The game record (RULES §9) attached to a final standings message."""
    [record] = [a for a in message.attachments if a.filename.endswith(".json")]
    return record


def with_test_buttons(bot: WizardBot) -> None:
    """Add ``/wizard testbuttons``: posts public buttons with the custom ids given (comma
    separated), to click ids the bot would never draw for that member at that moment."""

    @app_commands.command(name="testbuttons", description="test only: post raw buttons")
    async def testbuttons(interaction: discord.Interaction[Any], ids: str) -> None:
        view = discord.ui.View(timeout=None)
        for custom_id in ids.split(","):
            view.add_item(discord.ui.Button(label=custom_id, custom_id=custom_id))
        await interaction.response.send_message("test buttons", view=view)

    bot.wizard_group.add_command(testbuttons)


async def post_buttons(sim: Sim, member: simcord.MemberActor, *ids: str) -> simcord.ResponseMessage:
    """Post crafted buttons (see :func:`with_test_buttons`) and return the message."""
    result = await member.slash(sim.channel, "wizard testbuttons", ids=",".join(ids))
    assert result.response is not None
    return result.response


async def clicks_at_once(
    sim: Sim, clicks: list[tuple[simcord.MemberActor, int, str]]
) -> list[simcord.InteractionResult]:
    """Several clicks ``(member, message id, custom id)`` that reach the bot together, before
    it has answered any of them: a double click, or two people clicking at the same moment.

    SimCord's actors settle after each click, so this sends the INTERACTION_CREATE events
    itself, the way ``MemberActor.click`` does, and settles once after all of them.
    """
    env, backend = sim.env, sim.env.backend
    sent = []
    env._begin_operation("clicks_at_once")
    try:
        for member, message_id, custom_id in clicks:
            stored = backend.get_message(sim.channel.id, message_id)
            assert stored.visible_to(member.id)
            assert any(
                b["custom_id"] == custom_id and not b.get("disabled") for b in buttons(stored)
            )
            record, payload = simcord_interactions.base_payload(
                backend,
                type=3,
                channel_id=sim.channel.id,
                guild_id=sim.guild.id,
                user_id=member.id,
                data={"custom_id": custom_id, "component_type": 2},
            )
            payload["message"] = dict(simcord_serializers.message_payload(backend, stored))
            record.source_message_id = stored.id
            sent.append((record, payload))
        for _, payload in sent:
            backend.emit("INTERACTION_CREATE", payload)
        await env._settle_internal(dispatch="INTERACTION_CREATE")
    finally:
        env._end_operation()
    return [simcord.InteractionResult(env, record) for record, _ in sent]


@contextlib.asynccontextmanager
async def simulation(
    tmp_path: Path,
    *,
    members: int = 3,
    config: GameConfig | None = None,
    computer_delay: float = 0.0,
    settle_timeout: float = SETTLE_TIMEOUT,
    seed: int | None = 1,
    test_buttons: bool = False,
    virtual_timers: bool = True,
) -> AsyncIterator[Sim]:
    """The bot with a real service on a file under ``tmp_path``, a server, a channel and
    ``members`` members (ann, bob, cy, ...).

    With ``virtual_timers`` (the default) the bot's timers (edit pacing, pings, retries) and
    the service's (computer delays, turn timers, lobby expiry) fire only when the test
    advances SimCord's clock, never on the real one: what a test sees does not depend on how
    fast the machine runs, and the settle timeout can be a bound only a hang reaches.
    Without it they use the real :class:`DiscordClock`: SimCord then waits, inside a click,
    for a timer due within the settle timeout, and fires a later one on the real clock once
    that many real seconds have passed."""
    path = tmp_path / "wizard.db"
    timers = SimCordClock() if virtual_timers else None
    clock = DiscordClock() if timers is None else timers
    service_config = ServiceConfig(computer_delay=computer_delay)
    service = await GameService.open(path, clock=clock, config=service_config)
    seeds = None
    if seed is not None:
        counter = iter(range(seed, seed + 10_000))
        seeds = lambda: next(counter)  # noqa: E731
    # No edit pacing unless a test asks for it: each trailing edit would wait for the test to
    # move the clock.
    game_config = config or GameConfig(ping_delay=None, edit_interval=0.0)
    if game_config.seeds is None:
        # Seeded deals with a config of the test's own too (one without them dealt at random:
        # a Wizard turned in round 1, one deal in 15, failed a test waiting for a bid).
        game_config = dataclasses.replace(game_config, seeds=seeds)
    settings = Settings(shard_count=1)
    bot = create_bot(settings, service=service, clock=clock, game_config=game_config)
    if test_buttons:
        with_test_buttons(bot)
    sim: Sim | None = None
    try:
        async with simcord.run(bot, shard_count=1, settle_timeout=settle_timeout) as env:
            if timers is not None:
                timers.env = env
            guild = env.create_guild("Wizard server")
            channel = guild.create_text_channel("wizard")
            people = [guild.add_member(env.create_user(n)) for n in NAMES[:members]]
            sim = Sim(
                env, service, path, settings, game_config, service_config, guild, channel, people
            )
            sim.virtual_timers = virtual_timers
            yield sim
    finally:
        await (sim.service if sim is not None else service).close()


def bot_clock(env: simcord.Env) -> SimCordClock:
    """A clock for a new bot in ``env`` whose timers wait for virtual time."""
    timers = SimCordClock()
    timers.env = env
    return timers


def secret_mark(bidding: Bidding) -> str:
    """What the table shows for a bid made but not revealed."""
    return "🔒 secret" if bidding is Bidding.SECRET else "✔ hidden"
