"""Benchmark of the game service on a real database file.

    python bench/service.py                      # 1, 100 and 1000 games
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

Then the database size per finished game, and the time to recover the N
unfinished games at start: open the file, validate the game and seat rows, load each
running game from its snapshot and re-arm its clock; the games are then served. The
logs are checked in the background afterwards (validate every action row, replay
every log, compare with the snapshot; a game is checked first if something changes
it before): the second figure is when the last one was checked.

The service's defaults apply (``ServiceConfig``): commits on the event loop's thread
and the tuned garbage collector (``wizard.service.core.tune_gc``). ``--freeze`` also
calls ``gc.freeze()`` before the open loop, as a server may once its games are loaded
(recovery does it for the games it loads).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import shutil
import sqlite3
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


async def start_games(svc: GameService, n: int, seed: int) -> dict[int, int]:
    """N started games; game id → seat to act."""
    out = {}
    for k in range(n):
        info = await svc.create_game(
            guild_id=1, channel_id=k, host_id=1, host_name="P1", seed=seed + k
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
    # Each game stops at a random point of its course, so that recovery below
    # meets games of every length (half a game on average).
    targets = {g: rng.randrange(1, FULL_GAME) for g in games}
    if n <= 100:
        targets = dict.fromkeys(games, args.clicks)
    writes0, batches0 = svc.store.writer.writes, svc.store.writer.batches
    count, seconds, latencies = await closed_loop(svc, games, targets, args.seed)
    report("closed loop (saturation)", count, seconds, latencies)
    writes = svc.store.writer.writes - writes0
    batches = max(1, svc.store.writer.batches - batches0)
    print(
        f"    group commit: {writes} writes in {batches} transactions"
        f" ({writes / batches:.1f} per commit)"
    )
    if args.freeze:
        gc.freeze()  # what a server may do once its games are loaded (see the report)
    if args.rate and n >= 100:
        count, seconds, latencies = await open_loop(
            svc, games, args.rate, args.seconds, args.seed + 1
        )
        report(f"open loop at {args.rate:g} clicks/s offered", count, seconds, latencies)
    await svc.close()

    t0 = time.perf_counter()
    again = await GameService.open(path, config=config, recover=False)
    report_ = await again.recover()
    recovered = time.perf_counter() - t0
    checked = await again.verification()
    verified = time.perf_counter() - t0
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    conn.close()
    print(
        f"  recovery: opened the file and recovered {len(report_.loaded)} unfinished games"
        f" ({rows} logged actions) in {recovered:.3f} s"
        f" (recover() itself {report_.seconds:.3f} s, {len(report_.unverified)} from snapshots)"
    )
    print(
        f"    every log checked {verified:.3f} s after opening: broken {len(checked.broken)},"
        f" snapshot mismatches {len(checked.mismatches)}"
    )
    await again.close()


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
    parser.add_argument("--games", type=int, nargs="+", default=[1, 100, 1000])
    parser.add_argument("--clicks", type=int, default=300, help="clicks per game for N <= 100")
    parser.add_argument("--rate", type=float, default=1000.0, help="open-loop clicks/s")
    parser.add_argument("--seconds", type=float, default=10.0, help="open-loop duration")
    parser.add_argument("--size-games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=None, help="where the database files go")
    parser.add_argument(
        "--freeze", action="store_true", help="gc.freeze() before the open-loop phase"
    )
    args = parser.parse_args()
    print(machine())
    print(f"load average before: {load()}")
    folder = Path(tempfile.mkdtemp(prefix="wizard-bench-", dir=args.dir))
    try:
        for n in args.games:
            asyncio.run(run(n, args, folder))
        asyncio.run(size_per_game(folder, args.size_games, args.seed))
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
