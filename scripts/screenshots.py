"""Take the README's pictures: the real bot in SimCord, photographed by headless Chromium.

    .venv/bin/python scripts/screenshots.py            # writes docs/images/*.png

Needs the ``demo`` extra (``pip install -e '.[demo]'``) and Debian's Chromium
(``apt-get install chromium``; another binary with ``--chromium PATH``). Nothing is
downloaded: the script starts the demo's simulated Discord (the bot built by the same
``create_bot`` as in production), plays a game through slash commands and button clicks of
its members, opens SimCord's preview page on 127.0.0.1 as the right member for each picture
and drives Chromium over the DevTools protocol (on loopback) to wait until the page has
rendered before it takes the picture.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import itertools
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a file from anywhere: import the project's packages
    sys.path.insert(0, str(ROOT))

from bot.demo import (  # noqa: E402
    Demo,
    Player,
    find_table,
    move_buttons,
    running_demo,
    serving_page,
)
from tests.bot.i18n_support import users_locales  # noqa: E402

if TYPE_CHECKING:
    import simcord

OUT = ROOT / "docs" / "images"
WIDTH = 1100
HEIGHT = 1000
PADDING = 8
"""Pixels kept around a message when a picture shows one message."""
READY_SECONDS = 30.0
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--mute-audio",
)

_FREEZE = """() => {
    document.querySelectorAll('*').forEach((element) => {
        element.style.setProperty('animation-play-state', 'paused', 'important');
        element.style.setProperty('transition', 'none', 'important');
        element.style.setProperty('caret-color', 'transparent', 'important');
    });
    document.getAnimations?.().forEach((animation) => animation.cancel());
    return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
}"""
"""What SimCord's own capture does before a picture: no animation, no caret, two frames."""

_READY = """(() => {
    const status = window.simcordPreview;
    return Boolean(status && status.ready === true && status.authorized
        && ['healthy', 'recovered'].includes(status.transport.state));
})()"""

_BOX = """((selector) => {
    const element = document.querySelector(selector);
    if (!element) return null;
    element.scrollIntoView({block: 'center'});
    const box = element.getBoundingClientRect();
    // The message spans the page's width; the picture ends where its content does.
    let right = box.x;
    for (const child of element.querySelectorAll('*')) {
        const inner = child.getBoundingClientRect();
        if (inner.width > 0 && inner.height > 0) right = Math.max(right, inner.right);
    }
    return {x: box.x, y: box.y, width: Math.min(box.width, right - box.x), height: box.height};
})"""
"""The box of an element of the page (scrolled into view), trimmed to its content's width."""
FOCUSED = "#focused-content"
"""The one message of a preview page in ``layout="message"``."""


class ChromiumError(RuntimeError):
    """Chromium could not be started or did not render the page in time."""


class Chromium:
    """One headless Chromium, driven over the DevTools protocol on 127.0.0.1."""

    def __init__(self, executable: str = "chromium") -> None:
        self.executable = executable
        self._process: asyncio.subprocess.Process | None = None
        self._profile: tempfile.TemporaryDirectory[str] | None = None
        self._session: Any = None
        self._socket: Any = None
        self._ids = itertools.count(1)

    async def __aenter__(self) -> Chromium:
        import aiohttp

        binary = shutil.which(self.executable)
        if binary is None:
            raise ChromiumError(
                f"{self.executable} not found; install Debian's package: apt-get install chromium"
            )
        # A fresh, empty profile each run: no extensions, no saved state, nothing synced.
        # Chromium's helper processes may still be writing to it while it shuts down.
        self._profile = tempfile.TemporaryDirectory(
            prefix="wizard-shots-", ignore_cleanup_errors=True
        )
        profile = Path(self._profile.name)
        self._process = await asyncio.create_subprocess_exec(
            binary,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            "--remote-debugging-address=127.0.0.1",
            "--remote-debugging-port=0",
            f"--window-size={WIDTH},{HEIGHT}",
            "about:blank",
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        port = await self._debugging_port(profile / "DevToolsActivePort")
        self._session = aiohttp.ClientSession()
        async with self._session.get(f"http://127.0.0.1:{port}/json/list") as response:
            targets = await response.json()
        page = next(t for t in targets if t.get("type") == "page")
        self._socket = await self._session.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
        return self

    async def _debugging_port(self, marker: Path) -> int:
        """The port Chromium chose, from the file it writes once DevTools listens."""
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            if self._process is not None and self._process.returncode is not None:
                raise ChromiumError(f"chromium exited with status {self._process.returncode}")
            with contextlib.suppress(FileNotFoundError, ValueError, IndexError):
                return int(marker.read_text().splitlines()[0])
            await asyncio.sleep(0.1)
        raise ChromiumError("chromium did not open its DevTools port")

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._socket is not None:
            await self._socket.close()
        if self._session is not None:
            await self._session.close()
        if self._process is not None and self._process.returncode is None:
            self._process.terminate()
            try:
                await asyncio.wait_for(self._process.wait(), 10)
            except TimeoutError:
                self._process.kill()
                await self._process.wait()
        if self._profile is not None:
            await asyncio.sleep(0.2)  # let the helpers go first
            self._profile.cleanup()
            shutil.rmtree(self._profile.name, ignore_errors=True)

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        """One DevTools command; events that arrive meanwhile are ignored."""
        call = next(self._ids)
        await self._socket.send_json({"id": call, "method": method, "params": params})
        while True:
            message = json.loads((await self._socket.receive()).data)
            if message.get("id") != call:
                continue
            if "error" in message:
                raise ChromiumError(f"{method}: {message['error'].get('message')}")
            result: dict[str, Any] = message.get("result", {})
            return result

    async def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = await self.send(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise ChromiumError(f"page script failed: {result['exceptionDetails'].get('text')}")
        return result.get("result", {}).get("value")

    async def capture(
        self,
        url: str,
        path: Path | str,
        *,
        width: int = WIDTH,
        height: int = HEIGHT,
        element: str | None = None,
    ) -> Path:
        """Open ``url``, wait until the preview has rendered, and write a PNG to ``path``.

        With ``element`` (a CSS selector), the picture shows that element only, with a small
        margin; otherwise the whole page.
        """
        await self.send(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=False,
        )
        await self.send("Page.navigate", url="about:blank")
        await self.send("Page.navigate", url=url)
        await self._wait_ready()
        await self.evaluate(f"({_FREEZE})()")
        params: dict[str, Any] = {"format": "png"}
        if element is not None:
            box = await self.evaluate(f"{_BOX}({json.dumps(element)})")
            if box is None:
                raise ChromiumError(f"{element} is not on the page")
            await self.evaluate(f"({_FREEZE})()")  # after the scroll
            box = await self.evaluate(f"{_BOX}({json.dumps(element)})")
            x = max(0.0, box["x"] - PADDING)
            y = max(0.0, box["y"] - PADDING)
            params["clip"] = {
                "x": x,
                "y": y,
                "width": min(width - x, box["width"] + 2 * PADDING),
                "height": min(height - y, box["height"] + 2 * PADDING),
                "scale": 1,
            }
        shot = await self.send("Page.captureScreenshot", **params)
        out = Path(path)
        out.write_bytes(base64.b64decode(shot["data"]))
        return out

    async def _wait_ready(self) -> None:
        """Until the page says it is ready twice in a row, a quarter second apart."""
        deadline = time.monotonic() + READY_SECONDS
        streak = 0
        while time.monotonic() < deadline:
            ready = await self.evaluate(_READY)
            streak = streak + 1 if ready else 0
            if streak >= 2:
                return
            await asyncio.sleep(0.25)
        raise ChromiumError("the preview page did not become ready")


# --- the game: played through the buttons, photographed at the moments the README shows ----


SEED = 20260101
"""Seed of the deals and of the players' choices, so that a re-run takes the same pictures."""


class Shooter:
    """Takes pictures of the demo channel as one of its members."""

    def __init__(self, demo: Demo, browser: Chromium, out: Path) -> None:
        self.demo = demo
        self.browser = browser
        self.out = out
        self.taken: list[Path] = []

    async def take(
        self,
        name: str,
        viewer: simcord.MemberActor,
        message_id: int,
        *,
        whole_page: bool = False,
    ) -> Path:
        """``name``.png of one message (or the whole page ending at it) as ``viewer`` sees it."""
        world = self.demo.world
        # The page opens as the first viewer, on the message the preview shows.
        viewers = (viewer, *(m for m in world.members if m is not viewer))
        width, height = (WIDTH, 860) if whole_page else (WIDTH, 1600)
        async with serving_page(
            self.demo,
            viewers=viewers,
            width=width,
            height=height,
            layout="channel" if whole_page else "message",
        ) as page:
            target = next(m for m in world.channel.history(viewer=viewer) if m.id == message_id)
            await page.show(target)
            path = await self.browser.capture(
                page.url,
                self.out / f"{name}.png",
                width=width,
                height=height,
                element=None if whole_page else FOCUSED,
            )
        self.taken.append(path)
        print(f"  {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}", flush=True)
        return path


async def take_pictures(out: Path, chromium: str) -> list[Path]:
    """Play a 4-player game in the demo and photograph lobby, a refusal in German, table,
    hand and standings, then a 6-player round summary."""
    from bot.cogs import GameConfig

    seeds = itertools.count(SEED)
    config = GameConfig(seeds=lambda: next(seeds), ping_delay=None)
    async with (
        running_demo(
            computer_delay=0, check_errors=True, game_config=config, wall_clock=False
        ) as demo,
        Chromium(chromium) as browser,
    ):
        shooter = Shooter(demo, browser, out)
        channel = demo.world.channel
        sam, ann, bob = demo.world.members

        # The settings a new server gets: computers play at the default level.
        created = await sam.slash(channel, "wizard new")
        assert created.response is not None, "/wizard new gave no lobby"
        lobby = created.response.message
        await _ok(ann.click(lobby, label="Join"))
        await _ok(sam.click(lobby, label="Add computer player"))
        await _ok(sam.click(lobby, label="Add computer player"))
        await shooter.take("lobby", sam, lobby.id)

        # A refusal as a player whose Discord speaks German meets it: Ann is not the host.
        with users_locales() as locales:
            locales[ann] = "de"
            refused = await ann.click(lobby, label="Start")
        assert refused.response is not None and refused.ephemeral, "no private refusal"
        await shooter.take("refusal_de", ann, refused.response.id)

        await _ok(sam.click(lobby, label="Start"))
        game = await _game_of(demo, lobby.id)
        players = {member.id: Player(member, channel) for member in (sam, ann)}
        sam_seat = (await demo.service.get_game(game)).seat_of(sam.id)

        # From round 3: a trick under way, Sam to play, and some of his cards not playable
        # (he must follow suit), so that the hand shows disabled buttons too.
        while True:
            info = await demo.service.get_game(game)
            table = info.table
            assert table is not None and table.turn is not None
            if (
                table.round >= 3
                and table.turn == sam_seat
                and len(table.trick) >= 2
                and table.phase.name == "PLAY"
            ):
                # Sam's open hand updates itself; a fresh one only if it has gone quiet.
                hand = players[sam.id].hand
                if hand is None or not move_buttons(hand):
                    hand = await players[sam.id].open_hand()
                assert hand is not None
                buttons = [b for row in hand.components for b in row.get("components", [])]
                if any(b.get("disabled") for b in buttons) or table.round >= 9:
                    break
            await _turn(demo, game, players)
        table_message = find_table(channel)
        assert table_message is not None
        await shooter.take("table", bob, table_message.id)
        # A fresh hand, right under the table (the one Sam has used since round 1 sits up
        # in the channel's history, edited in place).
        hand = await players[sam.id].open_hand()
        assert hand is not None
        await shooter.take("hand", sam, hand.id)
        await shooter.take("demo", sam, hand.id, whole_page=True)

        while (await demo.service.get_game(game)).status.value == "active":
            await _turn(demo, game, players)
        final = channel.history()[-1]
        await shooter.take("standings", sam, final.id)

        # A full table: Sam and five computers, photographed at the first round's summary.
        created = await sam.slash(channel, "wizard new")
        assert created.response is not None, "/wizard new gave no lobby"
        lobby = created.response.message
        for _ in range(5):
            await _ok(sam.click(lobby, label="Add computer player"))
        await _ok(sam.click(lobby, label="Start"))
        game = await _game_of(demo, lobby.id)
        players = {sam.id: Player(sam, channel)}
        while (await demo.service.get_game(game)).table.round < 2:  # type: ignore[union-attr]
            await _turn(demo, game, players)
        summary = next(
            m
            for m in reversed(channel.history())
            if m.embeds and (m.embeds[0].title or "").startswith("Round 1 ")
        )
        await shooter.take("summary6", sam, summary.id)
        return shooter.taken


async def _ok(click: Any) -> None:
    result = await click
    if not result.acknowledged:
        raise RuntimeError(f"the bot did not answer a click: {result}")


async def _game_of(demo: Demo, message_id: int) -> int:
    """The game whose lobby (and then table) is ``message_id``, from its buttons."""
    for message in demo.world.channel.history():
        if message.id != message_id:
            continue
        for row in message.components:
            for item in getattr(row, "children", ()):
                custom_id = str(getattr(item, "custom_id", ""))
                if custom_id.startswith("wiz:"):
                    return int(custom_id.split(":")[1])
    raise RuntimeError("the table has no Wizard buttons")


async def _turn(demo: Demo, game: int, players: dict[int, Player]) -> None:
    """The human whose turn it is makes one move (the computers move by themselves).

    They click the button of the move the ``easy`` computer player would make in their
    seat, so that the pictures show a game played with some sense.
    """
    from bot.ui.buttons import CustomId
    from wizard.ai import make_player
    from wizard.state import Bid, ChooseTrump, Play

    info = await demo.service.get_game(game)
    assert info.table is not None and info.table.turn is not None
    user = info.seats[info.table.turn].user_id
    if user is None or user not in players:
        raise RuntimeError(f"seat {info.table.turn} is a computer's, yet it waits")
    seat = await demo.service.seat_view(game, user)
    action = make_player("easy", seed=SEED + seat.version).choose(seat.view)

    def wanted(ids: list[str]) -> str:
        for custom_id in ids:
            cid = CustomId.parse(custom_id)
            if (
                (isinstance(action, Bid) and cid.verb == "bid" and cid.bid == action.bid)
                or (isinstance(action, Play) and cid.verb == "play" and cid.card == action.card)
                or (
                    isinstance(action, ChooseTrump)
                    and cid.verb == "trump"
                    and cid.suit == action.suit
                )
            ):
                return custom_id
        return ids[0]  # a hidden card under clairvoyance: the one button there is

    player = players[user]
    player.choose = wanted
    if not await player.move():
        raise RuntimeError(f"{player.member.name} had no move to make")


def main(argv: list[str] | None = None) -> int:
    """Parse options and take the pictures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder of the pictures")
    parser.add_argument("--chromium", default="chromium", help="the Chromium binary")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    try:
        taken = asyncio.run(take_pictures(args.out.resolve(), args.chromium))
    except ChromiumError as error:
        print(f"screenshots: {error}", file=sys.stderr)
        return 1
    print(f"{len(taken)} pictures in {time.perf_counter() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
