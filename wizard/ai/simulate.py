"""Strength of one computer player against another, by duplicate, seat-rotated matches.

For every seeded deal and every seat, the candidate plays a whole game in that
seat against baselines; the same deal is also played with a baseline in every
seat. The difference between the candidate's score and the baseline's score in
the same seat with the same cards, averaged over the seats of a deal, is one
sample: the luck of the cards cancels out, and the deals are independent, so
their mean has an honest confidence interval.

A quicker measurement for tuning (``--rounds``): the players play only the
rounds named, and the heuristic plays every other round in every seat. The
heuristic is deterministic and ignores the scores (without the Canadian rule),
so those rounds come out alike in every game of a deal and the difference is
what the players did in the rounds named.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import platform
import sys
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from wizard.ai import LEVELS, ComputerPlayer, make_player
from wizard.ai.heuristic import HeuristicPlayer
from wizard.ai.search import BID_FACTOR, BID_WINDOW, INFERENCE_TRIES, SearchPlayer
from wizard.errors import OptionsError
from wizard.options import Bidding, Options, check_setup
from wizard.rules import apply, deal_next_round, legal_actions, to_act, winners
from wizard.rules import new_game as new_engine_game
from wizard.state import GameState, Phase
from wizard.view import view

DEFAULT_OUT = Path("docs/ai-strength.md")

# Two-sided 95% quantiles of Student's t for small samples (df 1…29); 1.96 beyond.
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045,
)  # fmt: skip


def player_factory(spec: str) -> Callable[[int], ComputerPlayer]:
    """A maker of players from ``spec``: a level name, ``heuristic``, or ``search:N[:flag…]``.

    ``search:N`` is the search player with ``N`` deals per decision and no time
    limit, so that a measurement does not depend on the machine's speed. Flags:
    ``plain`` turns off inferring hands from bids; ``bK`` gives bids ``K`` times
    the deals of a play; ``tK`` draws ``K`` deals per kept deal of the inference;
    ``wK`` tries bids up to ``K`` either side of the heuristic's estimate.
    """
    if spec in LEVELS:
        return lambda seed: make_player(spec, seed=seed)
    if spec == "heuristic":
        return HeuristicPlayer
    if spec.startswith("search:"):
        count, *flags = spec.removeprefix("search:").split(":")
        settings = {"b": BID_FACTOR, "t": INFERENCE_TRIES, "w": BID_WINDOW}
        for flag in flags:
            if flag == "plain":
                settings["t"] = 1
            elif flag[:1] in settings and flag[1:].isdigit() and int(flag[1:]) >= 1:
                settings[flag[:1]] = int(flag[1:])
            else:
                count = ""  # refused below
        if not count.isdigit() or int(count) < 1:
            raise ValueError(
                f"bad player {spec!r}: use search:N with N >= 1 and flags plain, bK, tK, wK"
            )
        iterations = int(count)
        return lambda seed: SearchPlayer(
            seed,
            iterations=iterations,
            time_limit=None,
            inference_tries=settings["t"],
            bid_factor=settings["b"],
            bid_window=settings["w"],
        )
    raise ValueError(f"unknown player {spec!r}: use {', '.join(LEVELS)}, heuristic or search:N")


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game: final scores, and per round every seat's bid and tricks."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: tuple[tuple[tuple[int, int], ...], ...]
    """Per round, per seat: (bid, tricks)."""


def play_game(
    players: Sequence[ComputerPlayer],
    options: Options,
    seed: int,
    rounds: Collection[int] | None = None,
) -> tuple[GameResult, GameState]:
    """Play one seeded game to the end with these players (seat order); each sees its view.

    With ``rounds``, the players play only those rounds and the heuristic all others.
    """
    state = new_engine_game([f"seat {i}" for i in range(len(players))], options, seed=seed)
    stand_in = HeuristicPlayer()
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROUND_OVER:
            state = deal_next_round(state)
            continue
        seat = to_act(state)[0]
        seen = view(state, seat)
        player = players[seat] if rounds is None or state.round in rounds else stand_in
        # Clairvoyance hides the own card in round-1 play (R7.4): it plays itself.
        action = player.choose(seen) if seen.legal else legal_actions(state, seat)[0]
        state = apply(state, action)
    won = winners(state) or ()
    played = tuple(tuple(zip(r.bids, r.tricks, strict=True)) for r in state.history)
    return GameResult(state.scores, won, played), state


@dataclass(frozen=True, slots=True)
class _Job:
    n: int
    deal: int
    seat: int
    """The candidate's seat, or -1 for the all-baseline game."""
    candidate: str
    baseline: str
    options: Options
    rounds: frozenset[int] | None = None


def _run_job(job: _Job) -> tuple[_Job, GameResult]:
    make_candidate = player_factory(job.candidate)
    make_baseline = player_factory(job.baseline)
    players: list[ComputerPlayer] = []
    for s in range(job.n):
        # Each seat's own seed depends on the deal and seat only, so the baselines
        # beside the candidate are the same players as in the all-baseline game.
        seed = job.deal * 100 + s
        players.append(make_candidate(seed) if s == job.seat else make_baseline(seed))
    result, _ = play_game(players, job.options, job.deal, job.rounds)
    return job, result


@dataclass
class Side:
    """What one side (candidate or baseline) did over a set of games."""

    points: list[int] = field(default_factory=list)
    firsts: int = 0
    games: int = 0
    bids: int = 0
    hits: int = 0
    error_sum: dict[int, int] = field(default_factory=dict)
    error_count: dict[int, int] = field(default_factory=dict)

    def add(self, result: GameResult, seat: int, rounds: Collection[int] | None = None) -> None:
        """Count ``seat``'s game in ``result`` (its bids only in ``rounds``, if given)."""
        self.points.append(result.scores[seat])
        self.games += 1
        self.firsts += seat in result.winners
        for number, round_ in enumerate(result.rounds, start=1):
            if rounds is not None and number not in rounds:
                continue
            bid, tricks = round_[seat]
            self.bids += 1
            self.hits += bid == tricks
            size = sum(t for _, t in round_)  # every trick is won by someone
            self.error_sum[size] = self.error_sum.get(size, 0) + abs(bid - tricks)
            self.error_count[size] = self.error_count.get(size, 0) + 1

    def mean_error(self, size: int) -> float | None:
        """Mean |bid − tricks| in rounds of ``size`` cards, if any were played."""
        count = self.error_count.get(size, 0)
        return self.error_sum[size] / count if count else None


@dataclass
class Match:
    """The outcome for one number of players."""

    n: int
    diffs: list[float]
    candidate: Side
    baseline: Side

    def interval(self) -> tuple[float, float, float]:
        """Mean score difference per game and its 95% confidence interval."""
        return mean_interval(self.diffs)

    def self_play_interval(self) -> tuple[float, float, float]:
        """The baseline's points per game in its self-play, with a 95% interval over deals."""
        points = self.baseline.points  # per deal, seat by seat
        per_deal = [sum(points[i : i + self.n]) / self.n for i in range(0, len(points), self.n)]
        return mean_interval(per_deal)


def mean_interval(samples: Sequence[float]) -> tuple[float, float, float]:
    """The mean of independent ``samples`` and its 95% confidence interval (Student's t)."""
    m = len(samples)
    mean = sum(samples) / m
    if m < 2:
        return mean, -math.inf, math.inf
    sd = math.sqrt(sum((d - mean) ** 2 for d in samples) / (m - 1))
    t = _T95[m - 2] if m - 2 < len(_T95) else 1.96
    half = t * sd / math.sqrt(m)
    return mean, mean - half, mean + half


def run_match(
    candidate: str,
    baseline: str,
    n: int,
    deals: Iterable[int],
    options: Options,
    *,
    workers: int = 1,
    progress: Callable[[str], None] | None = None,
    rounds: Collection[int] | None = None,
) -> Match:
    """Play the duplicate match for ``n`` players over ``deals`` (seeds of the deals).

    With ``rounds``, the players play only those rounds (the heuristic the others).
    """
    check_setup(options, n)
    player_factory(candidate)  # fail early on a bad spec, not in a worker
    player_factory(baseline)
    only = None if rounds is None else frozenset(rounds)
    # Self-play: a seat's player depends on the deal and seat alone, so every game of a
    # deal is the all-baseline game, played once.
    seats = range(-1, 0) if candidate == baseline else range(-1, n)
    jobs = [_Job(n, d, seat, candidate, baseline, options, only) for d in deals for seat in seats]
    results: dict[tuple[int, int], GameResult] = {}
    started = time.perf_counter()
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for job, result in pool.imap_unordered(_run_job, jobs):
                results[(job.deal, job.seat)] = result
                _report(progress, n, len(results), len(jobs), started)
    else:
        for job in jobs:
            results[(job.deal, job.seat)] = _run_job(job)[1]
            _report(progress, n, len(results), len(jobs), started)
    match = Match(n, [], Side(), Side())
    for d in dict.fromkeys(j.deal for j in jobs):
        base = results[(d, -1)]
        diff = 0.0
        for seat in range(n):
            game = results.get((d, seat), base)
            match.candidate.add(game, seat, only)
            match.baseline.add(base, seat, only)
            diff += game.scores[seat] - base.scores[seat]
        match.diffs.append(diff / n)
    return match


def _report(
    progress: Callable[[str], None] | None, n: int, done: int, total: int, started: float
) -> None:
    if progress is None:
        return
    elapsed = time.perf_counter() - started
    eta = elapsed / done * (total - done)
    progress(f"{n} players: {done}/{total} games, {elapsed:.0f} s, about {eta:.0f} s left")


REPORT_TITLE = """# Computer players: measured strength

Duplicate, seat-rotated matches (`python -m wizard simulate`): every seeded deal
is played once with the candidate in each seat and once with the baseline in
every seat. A sample is the candidate's score minus the baseline's in the same
seat with the same cards, averaged over the seats of a deal; the interval is
the 95% confidence interval of the mean over deals. "First place" counts shared
wins; "bids hit" and "points per game" of the baseline come from the games with
the baseline in every seat (its self-play).
"""


def format_section(
    matches: Sequence[Match], candidate: str, baseline: str, options: Options, command: str
) -> str:
    """One run's results as a markdown section."""
    variants = ", ".join(options.describe()) or "standard rules"
    lines = [
        f"## `{candidate}` against `{baseline}`, {variants}",
        "",
        f"`{command}`  ",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()},"
        f" {platform.platform()}",
        "",
        "| players | deals | mean difference per game | 95% CI | first place (cand / base)"
        " | bids hit (cand / base) | points per game (cand / base) | base self-play ± 95% |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for m in matches:
        mean, low, high = m.interval()
        own, own_low, _ = m.self_play_interval()
        c, b = m.candidate, m.baseline
        lines.append(
            f"| {m.n} | {len(m.diffs)} | {mean:+.1f} | [{low:+.1f}, {high:+.1f}] "
            f"| {c.firsts / c.games:.1%} / {b.firsts / b.games:.1%} "
            f"| {c.hits / c.bids:.1%} / {b.hits / b.bids:.1%} "
            f"| {sum(c.points) / c.games:.1f} / {sum(b.points) / b.games:.1f} "
            f"| {own:.1f} ± {own - own_low:.1f} |"
        )
    sizes = sorted({k for m in matches for k in m.candidate.error_count})
    lines += [
        "",
        "Mean |bid − tricks| by round size (candidate / baseline):",
        "",
        "| cards | " + " | ".join(f"{m.n} players" for m in matches) + " |",
        "|---|" + "---|" * len(matches),
    ]
    for size in sizes:
        cells = []
        for m in matches:
            ce, be = m.candidate.mean_error(size), m.baseline.mean_error(size)
            cells.append("" if ce is None or be is None else f"{ce:.2f} / {be:.2f}")
        lines.append(f"| {size} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def parse_options(names: Sequence[str], bidding: str) -> Options:
    """Options from variant flags (``uneven_bids``, ``canadian``…) and a bidding mode."""
    flags = dict.fromkeys(names, True)
    return Options(bidding=Bidding(bidding), **flags)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``simulate`` command's arguments."""
    players = "a level (" + ", ".join(LEVELS) + "), heuristic, or search:N[:plain]"
    parser.add_argument("--candidate", default="hard", help=f"the player measured: {players}")
    parser.add_argument("--baseline", default="easy", help="the player it is measured against")
    parser.add_argument(
        "--players", type=int, nargs="+", default=[3, 4, 5, 6], help="player counts (3–6)"
    )
    parser.add_argument("--deals", type=int, default=20, help="seeded deals per player count")
    parser.add_argument("--first-deal", type=int, default=1, help="seed of the first deal")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        choices=["uneven_bids", "canadian", "clairvoyance", "magic_twos", "single_suit"],
        help="a variant to switch on (repeatable)",
    )
    parser.add_argument("--bidding", default="open", choices=[b.value for b in Bidding])
    parser.add_argument(
        "--rounds",
        type=int,
        nargs="+",
        help="a quicker measurement: the players play only these rounds (beyond a game's"
        " last round: ignored), the heuristic plays the others",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=max(1, multiprocessing.cpu_count()),
        help="processes to play on (default: one per CPU)",
    )
    parser.add_argument(
        "--out", default=str(DEFAULT_OUT), help="markdown report to write, or - for none"
    )
    parser.add_argument(
        "--append", action="store_true", help="add this run to the report instead of replacing it"
    )


def run(args: argparse.Namespace) -> int:
    """Run ``python -m wizard simulate``; returns the exit status."""
    try:
        options = parse_options(args.variant, args.bidding)
        for n in args.players:
            check_setup(options, n)
        player_factory(args.candidate)
        player_factory(args.baseline)
    except (OptionsError, ValueError) as e:
        print(f"simulate: {e}", file=sys.stderr)
        return 2

    def progress(line: str) -> None:
        print(f"\r{line}   ", end="", file=sys.stderr, flush=True)

    deals = range(args.first_deal, args.first_deal + args.deals)
    matches = []
    for n in args.players:
        matches.append(
            run_match(
                args.candidate,
                args.baseline,
                n,
                deals,
                options,
                workers=args.workers,
                progress=progress,
                rounds=args.rounds,
            )
        )
        print(file=sys.stderr)
    section = format_section(matches, args.candidate, args.baseline, options, _command(args))
    print(section)
    if args.out != "-":
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        before = out.read_text().rstrip() if args.append and out.exists() else REPORT_TITLE
        out.write_text(before.rstrip() + "\n\n" + section)
        print(f"written to {out}", file=sys.stderr)
    return 0


def _command(args: argparse.Namespace) -> str:
    """The command line that reproduces this run."""
    parts = [
        "python -m wizard simulate",
        f"--candidate {args.candidate} --baseline {args.baseline}",
        "--players " + " ".join(map(str, args.players)),
        f"--deals {args.deals} --first-deal {args.first_deal}",
        *(f"--variant {v}" for v in args.variant),
        f"--bidding {args.bidding}",
        *(["--rounds " + " ".join(map(str, args.rounds))] if args.rounds else []),
    ]
    return " ".join(parts)
