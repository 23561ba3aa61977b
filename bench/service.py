"""Benchmark of the game service on a real database file.

    python bench/service.py                      # 10, 100 and 1000 games, 300 clicks/s
    python bench/service.py --games 10 --wal-seconds 300   # largest WAL over 5 minutes
    python bench/service.py --games 1000 --rate 1000

For each N, N four-player games are started and advanced concurrently by random
legal clicks through ``GameService.act`` (the same path as a Discord click: lock,
version check, engine, commit). Two ways of loading it:

* closed loop (saturation): every game clicks again as soon as its last click
  returned. This measures the most committed actions per second. With N games
  always waiting, Little's law makes the latency about N / throughput, so at
  N = 1000 it measures queueing, not the service.
* open loop (``--rate`` clicks per second over all games, Poisson arrivals): the
  latency a click sees at that load, which is what a player feels.

Then the time from ``GameService.open()`` to the first committed click with the N
games unfinished (games are loaded from their logs on first use), the RSS per live game,
and the database size per finished game. ``--wal-seconds S`` runs a closed loop at maximum
rate for S seconds and prints the largest ``-wal`` file seen (sampled every 50 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import machine

from wizard.options import Options, rounds_in_game
from wizard.service import GameService, GameUpdate, ServiceConfig, TurnChanged

PLAYERS = 4
USERS = list(range(1, PLAYERS + 1))
FULL_GAME = sum(PLAYERS * (r + 1) for r in range(1, rounds_in_game(Options(), PLAYERS) + 1))
"""Bids and plays in a whole 4-player game (trump choices come on top)."""


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def next_seat(update: GameUpdate) -> int | None:
    """The first seat to act after an update (from its TurnChanged event)."""
    for event in reversed(update.events):
        if isinstance(event, TurnChanged):
            return event.seats[0] if event.seats else None
    return None


async def start_games(svc: GameService, n: int, seed: int, channel: int = 0) -> dict[int, int]:
    """N started games (in channels from ``channel`` on); game id → seat to act."""
    out = {}
    for k in range(n):
        info = await svc.create_game(
            guild_id=1, channel_id=channel + k, host_id=1, host_name="P1", seed=seed + k
        )
        for uid in USERS[1:]:
            await svc.join(info.id, uid, f"P{uid}")
        update = await svc.start(info.id, 1)
        seat = next_seat(update)
        assert seat is not None
        out[info.id] = seat
    return out


async def click(
    svc: GameService, game_id: int, seat: int, rng: random.Random, latencies: list[float]
) -> GameUpdate:
    """One random legal click by the seat to act; its ``act`` latency is recorded."""
    sv = await svc.seat_view(game_id, USERS[seat])
    action = rng.choice(sv.view.legal)
    t0 = time.perf_counter()
    update = await svc.act(game_id, USERS[seat], action, sv.version)
    latencies.append(time.perf_counter() - t0)
    return update


async def closed_loop(
    svc: GameService, games: dict[int, int], targets: dict[int, int], seed: int
) -> tuple[int, float, list[float]]:
    """Every game clicks back-to-back until it has made its target number of clicks."""
    latencies: list[float] = []

    async def driver(game_id: int, seat: int) -> None:
        rng = random.Random(seed * 1_000_003 + game_id)
        for _ in range(targets[game_id]):
            update = await click(svc, game_id, seat, rng, latencies)
            nxt = next_seat(update)
            if nxt is None:
                return
            seat = nxt
        games[game_id] = seat

    t0 = time.perf_counter()
    await asyncio.gather(*(driver(g, s) for g, s in games.items()))
    return len(latencies), time.perf_counter() - t0, latencies


async def open_loop(
    svc: GameService, games: dict[int, int], rate: float, seconds: float, seed: int
) -> tuple[int, float, list[float]]:
    """Clicks arrive at ``rate`` per second in total (Poisson), spread over the games."""
    latencies: list[float] = []
    per_game = rate / len(games)
    t0 = time.perf_counter()
    end = t0 + seconds

    async def pause(rng: random.Random) -> None:
        await asyncio.sleep(min(rng.expovariate(per_game), max(0.0, end - time.perf_counter())))

    async def driver(game_id: int, seat: int) -> None:
        rng = random.Random(seed * 7_000_003 + game_id)
        await pause(rng)
        while time.perf_counter() < end:
            update = await click(svc, game_id, seat, rng, latencies)
            nxt = next_seat(update)
            if nxt is None:
                return
            seat = nxt
            await pause(rng)
        games[game_id] = seat

    await asyncio.gather(*(driver(g, s) for g, s in games.items()))
    return len(latencies), time.perf_counter() - t0, latencies


def file_bytes(path: Path) -> int:
    """Size of the database after folding the WAL back into it."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return path.stat().st_size


def report(label: str, count: int, seconds: float, latencies: list[float]) -> None:
    """Print one line of figures."""
    ms = [x * 1000 for x in latencies]
    print(
        f"  {label:<34} {count:>7} actions in {seconds:6.2f} s = {count / seconds:7.0f}/s;"
        f" act p50 {percentile(ms, 0.50):6.2f} ms  p99 {percentile(ms, 0.99):7.2f} ms"
        f"  max {max(ms) if ms else float('nan'):7.2f} ms"
    )


async def run(n: int, args: argparse.Namespace, folder: Path) -> None:
    """All the figures for N concurrent games."""
    path = folder / f"bench-{n}.db"
    config = ServiceConfig(computer_delay=0.0)
    svc = await GameService.open(path, config=config)
    print(f"N = {n} games of {PLAYERS} players (a whole game is {FULL_GAME}+ actions)")
    t0 = time.perf_counter()
    games = await start_games(svc, n, seed=args.seed)
    print(f"  set up {n} lobbies and starts in {time.perf_counter() - t0:.2f} s")
    rng = random.Random(args.seed)
    # Each game stops at a random point of its course, so that the restart below
    # meets games of every length (half a game on average).
    targets = {g: rng.randrange(1, FULL_GAME) for g in games}
    if n <= 100:
        targets = dict.fromkeys(games, args.clicks)
    elif args.max_clicks:
        targets = {g: min(t, args.max_clicks) for g, t in targets.items()}
    writes0, batches0 = svc.store.writer.writes, svc.store.writer.batches
    count, seconds, latencies = await closed_loop(svc, games, targets, args.seed)
    report("closed loop (saturation)", count, seconds, latencies)
    writes = svc.store.writer.writes - writes0
    batches = max(1, svc.store.writer.batches - batches0)
    print(
        f"    group commit: {writes} writes in {batches} transactions"
        f" ({writes / batches:.1f} per commit)"
    )
    if args.rate:
        count, seconds, latencies = await open_loop(
            svc, games, args.rate, args.seconds, args.seed + 1
        )
        report(f"open loop at {args.rate:g} clicks/s offered", count, seconds, latencies)
    rss_live = rss_bytes()
    await svc.close()
    print(f"  RSS with {n} live games: {rss_live / 2**20:.0f} MiB")

    # A restart: open the file with the N games unfinished and serve one click.
    rows = _count(path, "SELECT COUNT(*) FROM actions")
    t0 = time.perf_counter()
    again = await GameService.open(path, config=config)
    opened = time.perf_counter() - t0
    for game_id in games:  # the first unfinished game; its first touch loads it from its log
        table = (await again.get_game(game_id)).table
        if table is not None and table.turn is not None:
            await click(again, game_id, table.turn, random.Random(args.seed), [])
            break
    first = time.perf_counter() - t0
    print(
        f"  restart with {n} unfinished games ({rows} logged actions): open() {opened:.3f} s,"
        f" first click committed {first:.3f} s after open() began"
    )
    await again.close()


def rss_bytes() -> int:
    """Resident memory of this process."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def _count(path: Path, sql: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute(sql).fetchone()[0])
    finally:
        conn.close()


async def rss_per_game(folder: Path, n: int, seed: int) -> None:
    """Resident memory per live (loaded, running) game, in this fresh process."""
    path = folder / "rss.db"
    svc = await GameService.open(path, config=ServiceConfig(computer_delay=0.0))
    games = await start_games(svc, 10, seed=seed, channel=10**6)  # warm: code, caches
    await closed_loop(svc, games, dict.fromkeys(games, 20), seed)
    before = rss_bytes()
    games = await start_games(svc, n, seed=seed)
    await closed_loop(svc, games, dict.fromkeys(games, FULL_GAME // 2), seed)
    after = rss_bytes()
    await svc.close()
    print(f"RSS per live game: {(after - before) / n / 1024:.0f} KiB ({n} games half played)")


async def largest_wal(folder: Path, n: int, seconds: float, seed: int) -> None:
    """The largest -wal file over a closed loop at maximum rate for ``seconds``."""
    path = folder / "wal.db"
    wal = path.with_name(path.name + "-wal")
    svc = await GameService.open(path, config=ServiceConfig(computer_delay=0.0))
    largest = 0
    count = 0
    made: list[int] = []
    end = time.perf_counter() + seconds

    async def sample() -> None:
        nonlocal largest
        while time.perf_counter() < end:
            largest = max(largest, wal.stat().st_size if wal.exists() else 0)
            await asyncio.sleep(0.05)

    async def driver(k: int) -> None:
        nonlocal count
        rng = random.Random(seed + k)
        while time.perf_counter() < end:
            made.append(k)
            games = await start_games(svc, 1, seed=seed + len(made), channel=10**6 + len(made))
            game_id, seat = next(iter(games.items()))
            while time.perf_counter() < end:
                update = await click(svc, game_id, seat, rng, [])
                count += 1
                nxt = next_seat(update)
                if nxt is None:
                    break
                seat = nxt

    t0 = time.perf_counter()
    sampler = asyncio.ensure_future(sample())
    await asyncio.gather(*(driver(k) for k in range(n)))
    await sampler
    took = time.perf_counter() - t0
    await svc.close()
    print(
        f"WAL: largest -wal file {largest / 2**20:.1f} MiB over {took:.0f} s of closed loop"
        f" ({n} games at a time, {count} actions = {count / took:.0f}/s)"
    )


async def size_per_game(folder: Path, games: int, seed: int) -> None:
    """Bytes of database file per finished game."""
    path = folder / "size.db"
    svc = await GameService.open(path, config=ServiceConfig(computer_delay=0.0))
    empty = file_bytes(path)
    ids = await start_games(svc, games, seed=seed)
    await closed_loop(svc, ids, dict.fromkeys(ids, 10**6), seed)
    await svc.close()
    size = file_bytes(path)
    print(
        f"database size: {(size - empty) / games / 1024:.1f} KiB per finished 4-player game"
        f" ({games} games, {size / 1024:.0f} KiB file)"
    )


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, nargs="*", default=[10, 100, 1000])
    parser.add_argument("--clicks", type=int, default=300, help="clicks per game for N <= 100")
    parser.add_argument("--rate", type=float, default=300.0, help="open-loop clicks/s")
    parser.add_argument("--seconds", type=float, default=10.0, help="open-loop duration")
    parser.add_argument("--size-games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=None, help="where the database files go")
    parser.add_argument("--wal-seconds", type=float, default=0.0, help="closed loop for WAL")
    parser.add_argument("--wal-games", type=int, default=8)
    parser.add_argument("--rss-games", type=int, default=200)
    parser.add_argument("--rss-only", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--max-clicks", type=int, default=0, help="cap per game for N > 100")
    parser.add_argument(
        "--gc-threshold",
        type=int,
        nargs=3,
        default=None,
        help="the application's choice of gc.set_threshold (the service never sets it)",
    )
    args = parser.parse_args()
    if args.rss_only:
        asyncio.run(rss_per_game(args.dir, args.rss_only, args.seed))
        return
    if args.gc_threshold:
        gc.set_threshold(*args.gc_threshold)
    print(machine())
    print(f"load average before: {load()}; gc thresholds {gc.get_threshold()}")
    folder = Path(tempfile.mkdtemp(prefix="wizard-bench-", dir=args.dir))
    try:
        for n in args.games:
            asyncio.run(run(n, args, folder))
        asyncio.run(size_per_game(folder, args.size_games, args.seed))
        if args.rss_games:  # in a fresh process, so that no freed memory is reused
            subprocess.run(
                [sys.executable, __file__, "--rss-only", str(args.rss_games), "--dir", str(folder)],
                check=True,
            )
        if args.wal_seconds:
            asyncio.run(largest_wal(folder, args.wal_games, args.wal_seconds, args.seed))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"load average after: {load()}")


def load() -> str:
    """The machine's load average (other work skews every figure above)."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


if __name__ == "__main__":
    main()
