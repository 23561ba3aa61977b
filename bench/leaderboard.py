"""Leaderboard, statistics and history queries on a database of 100,000 finished games.

    python bench/leaderboard.py                       # fill a new file, migrate, time
    python bench/leaderboard.py --schema 3 --old-sql  # as before migration 4: its indexes, its SQL
    python bench/leaderboard.py --db /tmp/lb.db       # keep the file; a second run reuses it

The file is filled with direct SQL (one transaction of ``executemany``) that writes what
the service writes when a game ends: the ``games`` row (finished, with options, times and a
snapshot), its ``seats``, its ``results``, and every human's ``players`` row with the
Plackett–Luce rating (openskill, as ``wizard.service.results``) and statistics, games
folded in the order they finished. Not written: the action logs (about 500 rows a game;
no query timed here reads them). Servers: one large (60% of the games, 20,000 players),
then 25%, 10% and 5%; players' activity is skewed (a few play much, most a little), and a
third of the games have one or two computer seats.

Then it opens the file through ``Store.open`` (migrating it to ``--schema``, default the
latest, and timing that) and times, through ``GameService`` as the bot calls it, each
leaderboard order on the first page and on the last (the deepest OFFSET), the rating
board with a minimum of 10 games, and ``recent_games`` (first page and a
page 5,000 games back); then the community queries of ``/wizard leaderboard`` and
``/wizard stats`` (``GameService.board`` with a random reader's own rank, with and without
the computer players' lines of migration 5, and ``player_card``). Each figure is p50/p99
of ``--repeat`` calls, in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import itertools
import random
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from machine import machine
from openskill.models import PlackettLuce

from wizard.options import Options
from wizard.service import GameService, GuildSettings, LeaderboardOrder
from wizard.service.results import default_rating, ordinal
from wizard.store import LATEST, Store, boards, repo

GUILDS = (  # (guild id, share of the games, players)
    (800_000_000_000_000_001, 0.60, 20_000),
    (800_000_000_000_000_002, 0.25, 8_000),
    (800_000_000_000_000_003, 0.10, 2_000),
    (800_000_000_000_000_004, 0.05, 500),
)
BIG = GUILDS[0][0]
USER_BASE = 300_000_000_000_000_000
"""User ids are Discord-sized snowflakes (stored as 8-byte integers, like real ones)."""
SEATS = (3, 4, 5, 6)
SEAT_WEIGHTS = (0.3, 0.35, 0.2, 0.15)
TARGET_P99_MS = 20.0
MODEL = PlackettLuce()
Entry = tuple[int, int | None, str, int, int, int, int]
"""One seat's result: seat, user id (None: computer), name, score, place, rounds, exact bids."""


@dataclass
class Player:
    """A player's running row, as ``record_results`` keeps it."""

    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    total_score: int = 0
    best_score: int | None = None
    best_game_id: int | None = None
    bids: int = 0
    exact_bids: int = 0
    updated_at: float = 0.0


@dataclass
class Rows:
    """Rows to insert."""

    games: list[tuple[Any, ...]] = field(default_factory=list)
    seats: list[tuple[Any, ...]] = field(default_factory=list)
    results: list[tuple[Any, ...]] = field(default_factory=list)


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def generate(n_games: int, seed: int) -> tuple[Rows, dict[tuple[int, int], Player]]:
    """The rows of ``n_games`` finished games, and the players' rows they lead to."""
    rng = random.Random(seed)
    options = Options().model_dump_json()
    snapshot = (  # a finished game's snapshot is this long (see wizard.service.game.snapshot)
        '{"seq":556,"round":15,"phase":"game_over","dealer":2,"turn":null,"trump":"G",'
        '"bids":[3,4,2,5],"tricks":[3,2,4,6],"scores":[150,90,210,120],'
        '"hands":["","","",""],"trick":""}'
    )
    pools = []
    for g, (_guild, _share, count) in enumerate(GUILDS):
        # Zipf-like activity: player k plays about 1/(k+20)^0.9 as often as the keenest.
        weights = [1.0 / (k + 20) ** 0.9 for k in range(count)]
        pools.append((list(itertools.accumulate(weights)), g * 100_000))
    skill = rng.random
    skills: dict[int, float] = {}
    shares = list(itertools.accumulate(share for _g, share, _p in GUILDS))
    t0 = 1_700_000_000.0
    pending: list[tuple[float, int, int, list[Entry]]] = []
    rows = Rows()
    for game_id in range(1, n_games + 1):
        g = min(bisect.bisect(shares, rng.random() * shares[-1]), len(GUILDS) - 1)
        guild_id = GUILDS[g][0]
        cum, base = pools[g]
        n = rng.choices(SEATS, SEAT_WEIGHTS)[0]
        computers = rng.choice((0, 0, 0, 0, 1, 2)) if n > 3 else 0
        users: list[int] = []
        while len(users) < n - computers:
            k = bisect.bisect(cum, rng.random() * cum[-1])
            if USER_BASE + base + k not in users:
                users.append(USER_BASE + base + k)
        seat_users: list[int | None] = [*users, *([None] * computers)]
        rng.shuffle(seat_users)
        rounds = 60 // n
        created = t0 + game_id * 300.0 + rng.uniform(0, 300)
        started = created + rng.uniform(20, 600)
        # Games last 10 to 90 minutes, so the finishing order differs from the id order.
        finished = started + rng.uniform(600, 5400)
        seat_rows = []
        for seat, uid in enumerate(seat_users):
            s = skills.setdefault(uid, skill()) if uid is not None else 0.5
            score = round(rng.gauss(60 + 120 * s, 90) / 10) * 10
            exact = sum(1 for _ in range(rounds) if rng.random() < 0.35 + 0.3 * s)
            name = f"Player {uid - USER_BASE}" if uid is not None else f"Merlin {seat}"
            seat_rows.append((seat, uid, name, score, exact))
            rows.seats.append(
                (game_id, seat, uid, name, None if uid is not None else "random", 0, 0, 0)
            )
        scores = [r[3] for r in seat_rows]
        entries: list[Entry] = []
        for seat, uid, name, score, exact in seat_rows:
            place = 1 + sum(1 for x in scores if x > score)
            rows.results.append((game_id, seat, uid, name, score, place, rounds, exact))
            entries.append((seat, uid, name, score, place, rounds, exact))
        version = 1 + n + sum(n * (r + 1) for r in range(1, rounds + 1))
        host = users[0]
        rows.games.append(
            (
                game_id, guild_id, 900_000_000_000_000_000 + g * 10 + rng.randrange(5), host,
                "finished", options, rng.getrandbits(63), version, None, None,
                None, None, None, created, finished, started, finished, snapshot,
            )
        )  # fmt: skip
        pending.append((finished, game_id, guild_id, entries))
    players = rate_games(pending)
    return rows, players


def rate_games(
    games: list[tuple[float, int, int, list[Entry]]],
) -> dict[tuple[int, int], Player]:
    """Fold the games, in finishing order, into players' rows as the service does."""
    players: dict[tuple[int, int], Player] = {}
    mu0, sigma0 = default_rating()
    for finished, game_id, guild_id, seats in sorted(games):
        teams = []
        for _seat, uid, name, *_rest in seats:
            p = players.get((guild_id, uid)) if uid is not None else None
            if uid is not None and p is None:
                p = players[(guild_id, uid)] = Player(name, mu0, sigma0)
            teams.append([MODEL.rating(mu=p.mu, sigma=p.sigma) if p else MODEL.rating()])
        rated = MODEL.rate(teams, scores=[float(s[3]) for s in seats])
        for (_seat, uid, _name, score, place, rounds, exact), team in zip(
            seats, rated, strict=True
        ):
            if uid is None:
                continue
            p = players[(guild_id, uid)]
            p.mu, p.sigma = team[0].mu, team[0].sigma
            p.games += 1
            p.wins += place == 1
            p.total_score += score
            if p.best_score is None or score > p.best_score:
                p.best_score, p.best_game_id = score, game_id
            p.bids += rounds
            p.exact_bids += exact
            p.updated_at = finished
    return players


def fill(path: Path, n_games: int, seed: int) -> None:
    """Write the generated rows into the (migrated, empty) file in one transaction."""
    t0 = time.perf_counter()
    rows, players = generate(n_games, seed)
    t1 = time.perf_counter()
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN")
        # Migration 6 dropped the snapshot: its last column is then the count of logged
        # actions, which only running games are checked against (no log is written here).
        columns = [r[1] for r in conn.execute("PRAGMA table_info(games)")]
        last = "snapshot" if "snapshot" in columns else "seq"
        conn.executemany(
            "INSERT INTO games (id, guild_id, channel_id, host_id, status, options, seed,"
            " version, turn_seconds, deadline, lobby_message_id, table_message_id,"
            f" broken_reason, created_at, updated_at, started_at, finished_at, {last})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows.games if last == "snapshot" else [(*g[:-1], 0) for g in rows.games],
        )
        conn.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows.seats)
        conn.executemany(
            "INSERT INTO results (game_id, seat, user_id, name, score, place, rounds,"
            " exact_bids) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            rows.results,
        )
        conn.executemany(
            "INSERT INTO players (guild_id, user_id, name, mu, sigma, rating, games, wins,"
            " total_score, best_score, best_game_id, bids, exact_bids, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    guild, uid, p.name, p.mu, p.sigma, ordinal(p.mu, p.sigma), p.games, p.wins,
                    p.total_score, p.best_score, p.best_game_id, p.bids, p.exact_bids,
                    p.updated_at,
                )
                for (guild, uid), p in players.items()
            ],
        )  # fmt: skip
        conn.execute("COMMIT")
        # No ANALYZE: the bot never runs it, so SQLite plans without statistics there too.
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    print(
        f"filled {n_games} games, {len(rows.results)} results, {len(players)} players"
        f" in {t1 - t0:.1f} s (generate and rate) + {time.perf_counter() - t1:.1f} s (insert);"
        f" file {path.stat().st_size / 2**20:.0f} MiB"
    )


async def timed(
    label: str, call: Callable[[], Awaitable[object]], repeat: int, failed: list[str]
) -> None:
    """Print p50/p99 of ``repeat`` calls (after two warm-up calls)."""
    for _ in range(2):
        await call()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        await call()
        times.append((time.perf_counter() - t0) * 1000)
    p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
    if p99 >= TARGET_P99_MS:
        failed.append(label)
    flag = "" if p99 < TARGET_P99_MS else f"   <-- over {TARGET_P99_MS:g} ms"
    print(f"  {label:<52} p50 {p50:7.2f} ms   p99 {p99:7.2f} ms{flag}")


def plans(path: Path) -> None:
    """The query plans SQLite picks for the service's queries (on the big server)."""
    conn = sqlite3.connect(path)
    try:
        queries = {
            "count": (repo.LEADERBOARD_COUNT, (BIG, 1)),
            **{
                order: (repo.leaderboard_sql(order), (BIG, 1, 10, 10))
                for order in repo.LEADERBOARD_ORDER
            },
            "history": (repo.recent_games_sql(cursor=True), (BIG, 2e9, 0, 10)),
            **{
                f"ahead {order}": (sql, (BIG, 5, *key))
                for (order, sql), key in zip(
                    boards.AHEAD_SQL.items(), [(0.0, 10, 0), (3, 0.0, 0), (500, 10, 0)], strict=True
                )
            },
            "form": (boards.FORM_SQL, (BIG, USER_BASE + 5, 5)),
            "options": (boards.OPTION_COUNTS_SQL, (BIG, USER_BASE + 5)),
        }
        for name, (sql, params) in queries.items():
            steps = [r[3] for r in conn.execute(f"EXPLAIN QUERY PLAN {sql}", params)]
            print(f"  plan {name:<14} {' / '.join(steps)}")
    finally:
        conn.close()


async def measure(path: Path, schema: int, repeat: int, seed: int) -> list[str]:
    """Open (migrating to ``schema``) and time the queries; the labels over target."""
    t0 = time.perf_counter()
    store = await Store.open(path, target_version=schema)
    print(f"opened at schema {schema} in {(time.perf_counter() - t0) * 1000:.0f} ms"
          " (includes applying pending migrations)")  # fmt: skip
    plans(path)
    service = GameService(store)
    failed: list[str] = []
    rng = random.Random(seed)
    try:
        # The board's minimum of games is the server's setting (wins: always 1).
        await service.update_settings(BIG, rated_min_games=1)
        for order in LeaderboardOrder:
            first = await service.board(BIG, order=order)
            last = first.pages
            print(f"{order.value}: {first.total} players on the board, {last} pages")
            for page in (1, last):
                label = f"leaderboard {order.value} page {page}" + (" (last)" if page > 1 else "")
                board = partial(service.board, BIG, order=order, page=page)
                await timed(label, board, repeat, failed)
        await service.update_settings(BIG, rated_min_games=10)
        first = await service.board(BIG)
        print(f"rating, min 10 games: {first.total} players, {first.pages} pages")
        for page in (1, first.pages):
            label = f"leaderboard rating min 10 page {page}" + (" (last)" if page > 1 else "")
            board = partial(service.board, BIG, page=page)
            await timed(label, board, repeat, failed)
        # The defaults, for what follows.
        await service.update_settings(BIG, **GuildSettings().model_dump())
        await timed("recent_games page 1", partial(service.recent_games, BIG), repeat, failed)
        games = await service.recent_games(BIG, limit=100)
        back = len(games)
        while back < 5000:  # walk (up to) 5,000 games back, a page of 100 at a time
            older = await service.recent_games(BIG, limit=100, before=games[-1].id)
            if len(older) < 100:
                break
            games = older
            back += len(games)
        history = partial(service.recent_games, BIG, before=games[-1].id)
        await timed(f"recent_games {back:,} games back", history, repeat, failed)
        await community(service, repeat, failed, rng)
    finally:
        await store.close()
    return failed


async def community(
    service: GameService, repeat: int, failed: list[str], rng: random.Random
) -> None:
    """The queries of /wizard leaderboard and /wizard stats (``wizard.service.boards``): a
    page with the reader's own rank (a random player, most of them far off the page), with
    and without the computer players' lines, and a player's whole statistics card."""
    readers = itertools.cycle([USER_BASE + rng.randrange(20_000) for _ in range(repeat + 2)])
    for computers in (False, True):
        await service.update_settings(BIG, computers_on_boards=computers)
        tag = " +computers" if computers else ""
        for order in LeaderboardOrder:
            first = await service.board(BIG, order=order, per_page=10)
            if order is LeaderboardOrder.RATING:
                shown = sum(1 for line in first.lines if line.is_computer)
                print(
                    f"board {order.value}{tag}: {first.total} lines (min {first.min_games}"
                    f" games), {first.pages} pages, {shown} computer line(s) on page 1"
                )
            for page in (1, first.pages):
                label = f"board {order.value}{tag} page {page}" + (" (last)" if page > 1 else "")

                async def board(order: LeaderboardOrder = order, page: int = page) -> object:
                    return await service.board(
                        BIG, order=order, page=page, per_page=10, viewer_id=next(readers)
                    )

                await timed(label + " +own rank", board, repeat, failed)

    async def card() -> object:
        return await service.player_card(BIG, next(readers))

    await timed("player_card (random player)", card, repeat, failed)
    await service.update_settings(BIG, computers_on_boards=False)


def load() -> str:
    """The machine's load average (other work skews every figure)."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def old_leaderboard_sql(order: str) -> str:
    """The page query as it was up to schema 3: one SELECT with ORDER BY, LIMIT and OFFSET."""
    return (
        f"SELECT {repo.PLAYER_COLUMNS} FROM players WHERE guild_id = ?1 AND games >= ?2"
        f" ORDER BY {repo.LEADERBOARD_ORDER[order]} LIMIT ?3 OFFSET ?4"
    )


async def prepare(path: Path, schema: int) -> None:
    """Create and migrate an empty file to ``schema``."""
    store = await Store.open(path, target_version=schema)
    await store.close()


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--schema", type=int, default=LATEST, help="migrate the file to this")
    parser.add_argument("--db", type=Path, default=None, help="keep (and reuse) this file")
    parser.add_argument("--repeat", type=int, default=200, help="calls per figure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--old-sql", action="store_true", help="the leaderboard SQL from before migration 4"
    )
    args = parser.parse_args()
    if args.old_sql:
        repo.leaderboard_sql = old_leaderboard_sql
    print(machine())
    print(f"load average before: {load()}")
    folder = None
    if args.db is None:
        folder = tempfile.TemporaryDirectory(prefix="wizard-lb-")
        path = Path(folder.name) / "wizard.db"
    else:
        path = args.db
    try:
        if not path.exists():
            asyncio.run(prepare(path, min(args.schema, 3)))
            fill(path, args.games, args.seed)
        else:
            print(f"reusing {path} ({path.stat().st_size / 2**20:.0f} MiB)")
        failed = asyncio.run(measure(path, args.schema, args.repeat, args.seed))
    finally:
        if folder is not None:
            folder.cleanup()
    print(f"load average after: {load()}")
    print(
        f"p99 target {TARGET_P99_MS:g} ms: "
        + ("met by every query" if not failed else f"missed by {', '.join(failed)}")
    )


if __name__ == "__main__":
    main()
