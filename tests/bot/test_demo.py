"""``python -m bot demo``: the real bot in SimCord, served on loopback and played over HTTP.

The test starts the command as a person would, reads the address it prints, and then does
what the browser page does, through the same HTTP API: open a page, type ``/wizard new``,
click the lobby's buttons, open the hand, bid or play, see each click come back with the
computers' moves made, switch "Viewing as". Ctrl-C must then stop it cleanly, with the game
in the database file.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import queue
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import IO, Any

import aiohttp
import pytest

ROOT = Path(__file__).resolve().parents[2]
# Bounds on a loaded machine, not expectations: each wait ends at its readiness signal
# (a line printed, the page answering, a move drawn) and fails only past its bound.
START_SECONDS = 120.0
STOP_BOUND_SECONDS = 60.0
"""The demo must be gone this long after SIGINT: it takes well under 2 s when idle; only a
demo that does not stop (the finding: still running 25 s after SIGINT, and on) reaches it."""
MOVES = 8
"""Moves Sam makes in the page: enough to cross from bidding into tricks."""
IGNORING_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)
"""Runs the command after it with SIGINT ignored."""
EOF: Any = object()
"""Put on a stream's queue after its last line."""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _lines(stream: IO[str]) -> queue.Queue[str]:
    """The lines of ``stream``, read by a thread so that waiting for one can time out.

    :data:`EOF` follows the last line. Reading all the time also keeps the child from
    blocking on a full pipe.
    """
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        for line in stream:
            lines.put(line)
        lines.put(EOF)

    threading.Thread(target=pump, daemon=True).start()
    return lines


class Page:
    """One page of SimCord's preview, driven through the HTTP API its JavaScript uses."""

    def __init__(self, session: aiohttp.ClientSession, url: str) -> None:
        base, _, capability = url.partition("/#")
        self.session = session
        self.base = base
        self.headers = {"X-Simcord-Capability": capability, "Content-Type": "application/json"}
        self.sequence = 0
        self.snapshot: dict[str, Any] = {}

    async def open(self) -> dict[str, Any]:
        """Open a page as the default viewer (what loading the address does)."""
        async with self.session.post(
            f"{self.base}/api/pages", data="{}", headers=self.headers
        ) as response:
            assert response.status == 200
            self.snapshot = await response.json()
        self.headers["X-Simcord-Context"] = self.snapshot["context"]["id"]
        return self.snapshot

    async def state(self) -> dict[str, Any]:
        """The page's latest publication."""
        async with self.session.get(f"{self.base}/api/state", headers=self.headers) as response:
            assert response.status == 200
            self.snapshot = await response.json()
        return self.snapshot

    async def act(self, kind: str, **body: Any) -> dict[str, Any]:
        """One page action on the current publication, like a click in the browser.

        Tried once: the page changes only through its own actions, so an action made on
        what it shows is never refused as out of date or busy (HTTP 400 would leave the
        browser's page unable to click until it is reloaded).
        """
        await self.state()
        self.sequence += 1
        payload = {
            "protocol_version": 3,
            "sequence": self.sequence,
            "request_id": uuid.uuid4().hex,
            "generation": self.snapshot["context"]["generation"],
            "bot_generation": self.snapshot["botGeneration"],
            "published_revision": self.snapshot["publishedRevision"],
            "kind": kind,
            **body,
        }
        async with self.session.post(
            f"{self.base}/api/action", data=json.dumps(payload), headers=self.headers
        ) as response:
            assert response.status == 200
            result: dict[str, Any] = await response.json()
        if result.get("rejected"):
            self.sequence -= 1  # a refused action uses no sequence number
        return result

    async def command(self, invocation: str, **options: Any) -> dict[str, Any]:
        """Run a slash command from the composer."""
        async with self.session.get(f"{self.base}/api/commands", headers=self.headers) as response:
            entries = (await response.json())["entries"]
        entry = next(e for e in entries if e["invocation"] == invocation)
        return await self.act(
            "run_command",
            command_id=entry["commandId"],
            path=entry["path"],
            schema_fingerprint=entry["schemaFingerprint"],
            options=options,
        )

    async def click(self, message_id: str, custom_id: str) -> dict[str, Any]:
        """Click the button ``custom_id`` of a message on the page."""
        message = self.snapshot["messages"][message_id]
        button = next(b for b in _buttons(message) if b.get("custom_id") == custom_id)
        return await self.act("click", target_id=message_id, control_key=button["control_key"])

    def messages(self) -> list[dict[str, Any]]:
        """The messages on the page, oldest first."""
        return [self.snapshot["messages"][i] for i in self.snapshot["timeline"]]

    def find(self, label: str) -> tuple[str, str]:
        """The newest message with a button ``label``: its id and the button's custom id."""
        for message in reversed(self.messages()):
            for button in _buttons(message):
                if button.get("label") == label:
                    return message["id"], str(button["custom_id"])
        raise AssertionError(f"no {label!r} button on the page")


def _buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for row in message.get("components", []) for b in row.get("components", [])]


def _moves(message: dict[str, Any]) -> list[str]:
    """Enabled bid, play and trump buttons of a message on the page (a hand, or the table's
    open bids)."""
    return [
        str(b["custom_id"])
        for b in _buttons(message)
        if not b.get("disabled")
        and str(b.get("custom_id", "")).split(":")[2:3] in (["bid"], ["play"], ["trump"])
    ]


def _response_id(result: dict[str, Any]) -> str:
    """The message an action's interaction answered with."""
    return str(next(o["messageId"] for o in result["outcomes"] if o["kind"] == "response"))


def _look(message: dict[str, Any]) -> str:
    """What a person sees of a message: its text, embeds and buttons."""
    return json.dumps([message.get(k) for k in ("content", "embeds", "components")])


def _settled(result: dict[str, Any]) -> None:
    assert not result.get("rejected"), result
    assert result["settlement"] == "settled", result
    assert result["acknowledgement"] == "acknowledged", result


async def _play_in_the_browser(url: str) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(url.partition("#")[0]) as response:
            assert response.status == 200
            assert "Viewing as" in await response.text()
        wrong = {"X-Simcord-Capability": "guess", "Content-Type": "application/json"}
        async with session.post(
            f"{url.partition('/#')[0]}/api/pages", data="{}", headers=wrong
        ) as r:
            assert r.status == 401  # the address's secret is the only key

        page = Page(session, url)
        opened = await page.open()
        names = [v["name"] for v in opened["viewers"]]
        assert names[0] == "Sam" and len(names) >= 3  # Sam, and friends to switch to

        _settled(await page.command("wizard new"))
        await page.state()
        lobby, add = page.find("Add computer player")
        _settled(await page.click(lobby, add))
        await page.state()
        _settled(await page.click(lobby, page.find("Add computer player")[1]))
        await page.state()
        _settled(await page.click(lobby, page.find("Start")[1]))

        # Play as Sam. The computers move at once, inside the click that hands them the turn,
        # so every click comes back with their moves made and Sam to act again: the page
        # changes only through its own clicks, never behind the person's back.
        for _ in range(MOVES):
            await page.state()
            table = page.find("Show my hand")[0]
            before = _look(page.snapshot["messages"][table])
            moves, where = await _sams_moves(page, table)
            assert moves, "the computers moved and it is Sam's turn again"
            _settled(await page.click(where, moves[0]))
            await page.state()
            assert _look(page.snapshot["messages"][table]) != before, "the table moved on"

        # "Viewing as" Ann: Sam's private hands are gone from the page, the table is there.
        ann = next(v["id"] for v in opened["viewers"] if v["name"] == "Ann")
        switched = await page.act("viewer", viewer_id=ann)
        assert not switched.get("rejected") and switched["settlement"] == "settled", switched
        await page.state()
        assert page.snapshot["viewerId"] == ann
        assert page.find("Show my hand")
        assert not any(m["ephemeral"] for m in page.messages())


async def _sams_moves(page: Page, table: str) -> tuple[list[str], str]:
    """Sam's move buttons and the message that has them: an open bid is made on the table
    (only Sam's bids are drawn there: the others are computers); anything else in the
    private hand that "Show my hand" opens."""
    on_table = _moves(page.snapshot["messages"][table])
    shown = await page.click(table, page.find("Show my hand")[1])
    _settled(shown)
    await page.state()
    hand = page.snapshot["messages"][_response_id(shown)]
    assert hand["ephemeral"], "the hand is private"
    assert not [m for m in _moves(hand) if ":bid:" in m], "open bids are on the table"
    return (on_table, table) if on_table else (_moves(hand), hand["id"])


class Demo:
    """``python -m bot demo`` in a child process, its output read by threads as it comes."""

    def __init__(self, tmp_path: Path, *, ignore_sigint: bool = False) -> None:
        self.db = tmp_path / "demo.db"
        self.port = _free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SHARD_"))}
        env["PYTHONPATH"] = str(ROOT)
        command = [sys.executable, "-m", "bot", "demo", "--port", str(self.port)]
        command += ["--db", str(self.db)]
        if ignore_sigint:
            # As a job started in the background by a script: SIGINT ignored from the start
            # (an ignored signal stays ignored across exec). Ctrl-C, or the SIGINT a harness
            # sends, must stop the demo all the same.
            command = [sys.executable, "-c", IGNORING_SIGINT, *command]
        self.process = subprocess.Popen(
            command,
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None and self.process.stderr is not None
        self.stdout = _lines(self.process.stdout)
        self.stderr = _lines(self.process.stderr)

    def address(self) -> str:
        """The page's address, once the demo prints it (its readiness signal)."""
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            try:
                line = self.stdout.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is EOF:
                break
            if "http://" in line:
                url = line.split()[-1]
                assert url.startswith(f"http://127.0.0.1:{self.port}/#")
                return url
        raise AssertionError("the demo printed no address:\n" + "".join(_drain(self.stderr)))

    def interrupt(self) -> float:
        """Send SIGINT as Ctrl-C does; the seconds until the process has exited."""
        sent = time.monotonic()
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=STOP_BOUND_SECONDS)
        except subprocess.TimeoutExpired:
            raise AssertionError(
                f"the demo was still running {STOP_BOUND_SECONDS:.0f} s after SIGINT"
            ) from None
        took = time.monotonic() - sent
        # Shown with ``pytest -s``: the figure quoted in reports (the target is 2 s).
        print(f"\ndemo stopped {took:.2f} s after SIGINT")
        return took

    def output(self) -> tuple[str, str]:
        """Everything the exited demo printed: stdout, stderr."""
        return "".join(_drain(self.stdout)), "".join(_drain(self.stderr))

    def kill(self) -> None:
        """Make sure that the process is gone (a failed test must not leave it running)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def _drain(lines: queue.Queue[str]) -> list[str]:
    """The lines of an exited process's stream, up to the end of the stream."""
    found = []
    while True:
        line = lines.get(timeout=START_SECONDS)
        if line is EOF:
            return found
        found.append(line)


async def _keep_polling(url: str, polling: asyncio.Event) -> None:
    """What an open browser tab does between clicks: read the page's state, again and again.
    ``polling`` is set once the page has answered."""
    async with aiohttp.ClientSession() as session:
        page = Page(session, url)
        await page.open()
        while True:
            with contextlib.suppress(aiohttp.ClientError):
                await page.state()
                polling.set()
            await asyncio.sleep(0.25)


async def _play_then_interrupt(url: str, demo: Demo) -> float:
    """Play in the page, then Ctrl-C while the page is still open and polling."""
    await _play_in_the_browser(url)
    polling = asyncio.Event()
    tab = asyncio.create_task(_keep_polling(url, polling))
    try:
        await asyncio.wait_for(polling.wait(), START_SECONDS)
        return await asyncio.to_thread(demo.interrupt)
    finally:
        tab.cancel()
        await asyncio.gather(tab, return_exceptions=True)


def test_demo_serves_the_real_bot_on_loopback_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    # Started as a script's background job is: with SIGINT ignored (the finding: the demo
    # was still running 25 s after SIGINT).
    demo = Demo(tmp_path, ignore_sigint=True)
    try:
        url = demo.address()
        took = asyncio.run(_play_then_interrupt(url, demo))
        assert demo.process.returncode == 0
        out, errors = demo.output()
    finally:
        demo.kill()
    assert "Wizard demo stopped." in out
    assert "Traceback" not in errors, errors[-4000:]
    assert took < STOP_BOUND_SECONDS

    with sqlite3.connect(demo.db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        games = conn.execute("SELECT status, version FROM games").fetchall()
    assert len(games) == 1
    assert games[0][0] == "active" and games[0][1] > 0


def test_an_idle_demo_stops_on_ctrl_c_with_no_page_open(tmp_path: Path) -> None:
    """Nobody opened the address: Ctrl-C stops it all the same, and the database is whole."""
    demo = Demo(tmp_path)
    try:
        demo.address()
        demo.interrupt()
        assert demo.process.returncode == 0
        out, errors = demo.output()
    finally:
        demo.kill()
    assert "Wizard demo stopped." in out
    assert "Traceback" not in errors, errors[-4000:]
    with sqlite3.connect(demo.db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


async def test_a_kept_database_serves_the_next_demo_too(tmp_path: Path) -> None:
    """``--db``: a second demo on the same file plays; the first one's game stays as it was."""
    from bot.demo import Player, running_demo
    from wizard.service import GameNotFoundError

    db = tmp_path / "kept.db"
    games: list[tuple[int, int]] = []
    for _ in range(2):
        async with running_demo(db=db, computer_delay=0, check_errors=True) as demo:
            sam = demo.world.members[0]
            channel = demo.world.channel
            created = await sam.slash(channel, "wizard new")
            assert created.response is not None and created.response.embeds, "no lobby"
            lobby = created.response.message
            for label in ("Add computer player", "Add computer player", "Start"):
                assert (await sam.click(lobby, label=label)).acknowledged
            info = await demo.service.game_in_channel(channel.id)
            assert info is not None
            if games:  # the first run's game belongs to a Discord that is gone: left alone
                with pytest.raises(GameNotFoundError):
                    await demo.service.get_game(games[0][0])
            player = Player(sam, channel)
            for _ in range(3):
                before = (await demo.service.get_game(info.id)).version
                assert await player.move()
                # The click was taken, not refused as one already saved by the other run.
                assert (await demo.service.get_game(info.id)).version > before
            games.append((info.id, (await demo.service.get_game(info.id)).version))

    assert games[0][0] != games[1][0]
    with sqlite3.connect(db) as conn:
        stored = dict(conn.execute("SELECT id, version FROM games").fetchall())
    assert stored == dict(games)


def test_the_demo_does_not_pace_edits() -> None:
    """A pacing timer due just before SimCord's settle timeout failed clicks in the demo
    ("bot did not settle while advancing time"): the demo's bot never arms one."""
    from bot.cogs import GameConfig
    from bot.demo import demo_config

    assert GameConfig().edit_interval > 0
    assert demo_config().edit_interval == 0
    seeded = GameConfig(ping_delay=None, seeds=lambda: 1)
    kept = demo_config(seeded)
    assert kept.edit_interval == 0
    assert kept.ping_delay is None and kept.seeds is seeded.seeds


async def test_the_demo_user_can_open_the_server_settings(tmp_path: Path) -> None:
    """Sam, who tries the demo, has Manage Server: ``/wizard settings`` opens its panel.
    Sam's friends do not, as on a real server."""
    from bot.demo import running_demo

    async with running_demo(db=tmp_path / "d.db", computer_delay=0, check_errors=True) as demo:
        sam, ann, *_ = demo.world.members
        shown = await sam.slash(demo.world.channel, "wizard settings")
        assert shown.acknowledged and shown.ephemeral and shown.response is not None
        assert shown.response.embeds, shown.response.content
        assert "Manage Server" not in shown.response.content
        seen = await ann.slash(demo.world.channel, "wizard settings")  # to see, not to change
        assert seen.response is not None and seen.response.embeds
        assert "Manage Server" in (seen.response.embeds[0].footer.text or "")
        # The bot renamed its account (discord.py's public ``ClientUser.edit``), so the page
        # shows "Wizard", not SimCord's default name for a bot.
        assert shown.response.message.author.name == "Wizard"


SLOW_COMPUTER_DELAY = 10.0
"""The computer delay in the loaded-machine test: the demo used to settle a click within
half of it, at most 2 real seconds (``min(delay / 2, 2.0)``)."""
SLOW_WORK_SECONDS = 3.0
"""Real seconds of work added to each start and move in that test: more than those 2 s."""
DEFER_AFTER = 2.0
"""The bot defers a click whose work takes this long; that timer is on the real clock and
SimCord moves its clock with it, so a slow click can move SimCord's clock this far."""


async def test_a_slow_click_settles_and_the_computers_still_wait_their_delay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a loaded machine a click's own work outlasted SimCord's settle timeout, which the
    demo set to half the computer delay in real seconds (its computers' timers ran on the
    real clock), and the click failed: "bot did not settle". The demo's timers now run on
    SimCord's clock: a click whose work takes real seconds settles, and returns before any
    computer moved; each computer then moves once SimCord's clock has passed its delay (the
    live page moves that clock with the wall clock), not before."""
    from bot.cogs import GameConfig
    from bot.demo import Player, running_demo

    delay = SLOW_COMPUTER_DELAY
    assert GameConfig().defer_after == DEFER_AFTER
    async with running_demo(db=tmp_path / "d.db", computer_delay=delay, check_errors=True) as demo:
        service = demo.service
        for name in ("start", "act"):
            monkeypatch.setattr(service, name, _slowed(getattr(service, name)))
        sam = demo.world.members[0]
        channel = demo.world.channel
        created = await sam.slash(channel, "wizard new")
        assert created.response is not None
        lobby = created.response.message
        for label in ("Add computer player", "Add computer player", "Start"):
            assert (await sam.click(lobby, label=label)).acknowledged
        info = await service.game_in_channel(channel.id)
        assert info is not None
        player = Player(sam, channel)
        # Sam plays (each click slow) until a computer's turn comes: it stays theirs.
        while not _computer_to_act(info):
            version = info.version
            assert await player.move()
            info = await service.get_game(info.id)
            assert info.version == version + 1, "Sam's click moved the computers at once"
        version = info.version
        # The slow click's deferral may have moved the clock after the computer's timer was
        # armed: short of the delay by more than that, no computer has moved yet.
        await demo.env.advance_time(delay - DEFER_AFTER - 1.0)
        assert (await service.get_game(info.id)).version == version, "a computer hurried"
        await demo.env.advance_time(2.0)
        assert (await service.get_game(info.id)).version == version + 1, "it never moved"


def _slowed(method: Any) -> Any:
    """``method`` after :data:`SLOW_WORK_SECONDS` of real work in a thread, as on a busy
    machine."""

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.to_thread(time.sleep, SLOW_WORK_SECONDS)
        return await method(*args, **kwargs)

    return slow


def _computer_to_act(info: Any) -> bool:
    """Whether a computer seat is to act in the game ``info``."""
    assert info.table is not None
    return any(info.seats[s].computer_controlled for s in info.table.to_act)


def test_a_demo_refuses_a_file_of_another_program(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """QA: ``demo --db`` naming another program's SQLite file wrote the bot's tables into it
    without a word (the bot itself at least warns)."""
    from bot.demo import main

    other = tmp_path / "invoices.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    before = other.read_bytes()
    # As every database the bot cannot use: status 3, one line as the README shows it (QA).
    assert main(db=other) == 3
    err = capsys.readouterr().err.strip()
    assert err == (
        f"wizard bot: {other} holds another program's database (tables: invoices), not the "
        "bot's. Name a new file, or one an earlier demo kept."
    ), err
    assert other.read_bytes() == before


async def test_the_demo_warns_of_an_almost_full_disk_as_the_bot_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """QA operator: the bot's start warned of a database disk almost full; the demo, which
    opens its game service itself, logged only "quick_check: ok"."""
    from bot.demo import running_demo
    from wizard.store import health

    monkeypatch.setattr(health, "_free_bytes", lambda folder: 5 << 20)
    caplog.set_level(logging.INFO)
    async with running_demo(db=tmp_path / "d.db", computer_delay=0, check_errors=True):
        pass
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert "health: healthy, but its disk is almost full: see above" in warned, warned


def test_the_screenshots_script_runs_with_the_demo_extra_alone() -> None:
    """Operator QA: the README says scripts/screenshots.py needs the ``demo`` extra, but it
    imported pytest (through a test helper), and even ``--help`` stopped on a traceback
    where pytest is not installed. Run here with pytest made unimportable."""
    script = ROOT / "scripts" / "screenshots.py"
    code = (
        "import runpy, sys; sys.modules['pytest'] = None; "
        f"sys.argv = [{str(script)!r}, '--help']; "
        f"runpy.run_path({str(script)!r}, run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout
