"""Measure per-card trick chances by heuristic self-play and regenerate :mod:`wizard.ai.odds`.

``python -m wizard.ai.calibrate [--games N] [--iterations K]`` plays N games
per table (3–6 players, and single suit for 3–4) with the heuristic bidding
from the current table, counts how often each class of card takes the trick
it is played to, and writes the smoothed rates back. A few iterations settle
it, because the bids the table produces change how the cards are played.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import textwrap
from pathlib import Path

from wizard.ai import core, odds
from wizard.ai.core import WIZARD, RoundSim, card_class
from wizard.rules import seeded_deal

_STANDARD_CLASSES = 41
_SINGLE_CLASSES = 15
_PRIOR_WEIGHT = 12.0
"""Pseudo-observations pulling a sparse cell toward its neighbouring round sizes."""

Key = tuple[int, int, bool]


class _Stats:
    """Counts for one table row: cards and wins by class, tricks and classes by seat place."""

    def __init__(self, n: int, classes: int) -> None:
        self.wins = [0] * classes
        self.cards = [0] * classes
        self.tricks = [0] * n
        self.hands = [0] * n
        self.by_place = [[0] * classes for _ in range(n)]

    def merge(self, other: _Stats) -> None:
        """Add another worker's counts."""
        for mine, theirs in (
            (self.wins, other.wins),
            (self.cards, other.cards),
            (self.tricks, other.tricks),
            (self.hands, other.hands),
        ):
            for i, v in enumerate(theirs):
                mine[i] += v
        for row, other_row in zip(self.by_place, other.by_place, strict=True):
            for i, v in enumerate(other_row):
                row[i] += v


def _play_round(
    n: int, seed: int, rnd: int, dealer: int, *, single: bool, uneven: bool, stats: _Stats
) -> None:
    deal = seeded_deal(seed, rnd, n, single)
    turned = None if deal.turned is None else int(deal.turned)
    trump = turned // 13 if turned is not None and turned < core.JESTER else -1
    hands = [sorted(int(c) for c in h) for h in deal.hands]
    first = (dealer + 1) % n
    sim = RoundSim(n, trump, single=single, hands=hands, leader=first, turned=turned)
    if turned == WIZARD:
        sim.trump = trump = sim.choose_trump(dealer)
    total = 0
    for i in range(n):
        seat = (first + i) % n
        forbidden = len(hands[seat]) - total if uneven and i == n - 1 else -1
        sim.bids[seat] = bid = sim.choose_bid(seat, forbidden)
        total += bid
    for seat in range(n):
        place = (seat - first) % n
        stats.hands[place] += 1
        for c in hands[seat]:
            stats.by_place[place][card_class(c, trump, single)] += 1
    trick: list[tuple[int, int]] = []
    while sim.hands[sim.turn]:
        seat = sim.turn
        card = sim.choose_card(seat)
        trick.append((seat, card))
        sim.play(card)
        if not sim.trick:
            for who, c in trick:
                k = card_class(c, trump, single)
                stats.cards[k] += 1
                stats.wins[k] += who == sim.leader
            trick = []
    for seat in range(n):
        stats.tricks[(seat - first) % n] += sim.tricks[seat]


def _measure(job: tuple[int, bool, int, int]) -> dict[Key, _Stats]:
    n, single, first_game, games = job
    rounds = 12 if single else 60 // n
    classes = _SINGLE_CLASSES if single else _STANDARD_CLASSES
    out: dict[Key, _Stats] = {}
    for g in range(first_game, first_game + games):
        seed = 7_000_000 + g
        dealer = g % n
        for rnd in range(1, rounds + 1):
            size = rnd + 3 if single else rnd
            stats = out.setdefault((n, size, single), _Stats(n, classes))
            _play_round(
                n, seed, rnd, (dealer + rnd - 1) % n, single=single, uneven=g % 2 == 0, stats=stats
            )
    return out


def _smooth(table: dict[Key, _Stats]) -> tuple[odds.Table, odds.Table]:
    chances: odds.Table = {}
    shifts: odds.Table = {}
    for key, stats in table.items():
        n, size, single = key
        classes = len(stats.wins)
        total_w = [0.0] * classes
        total_c = [0.0] * classes
        for other in table.values():
            for i in range(classes):
                if len(other.wins) == classes:
                    total_w[i] += other.wins[i]
                    total_c[i] += other.cards[i]
        row = []
        for i in range(classes):
            near_w = near_c = 0.0
            for d in (-1, 1):
                nb = table.get((n, size + d, single))
                if nb is not None:
                    near_w += nb.wins[i]
                    near_c += nb.cards[i]
            if near_c:
                prior = near_w / near_c
            elif total_c[i]:
                prior = total_w[i] / total_c[i]
            else:
                prior = 0.0
            row.append((stats.wins[i] + _PRIOR_WEIGHT * prior) / (stats.cards[i] + _PRIOR_WEIGHT))
        chances[key] = tuple(row)
        shift = []
        for place in range(n):
            hands = stats.hands[place]
            expected = sum(c * p for c, p in zip(stats.by_place[place], row, strict=True))
            shift.append((stats.tricks[place] - expected) / hands if hands else 0.0)
        shifts[key] = tuple(shift)
    return chances, shifts


def _write(path: Path, chances: odds.Table, shifts: odds.Table) -> None:
    text = path.read_text()
    start = text.index('_DATA = """') + len('_DATA = """')
    end = text.index('"""', start)
    lines = []
    for key in sorted(chances):
        n, size, single = key
        row = " ".join(str(round(p * 1000)) for p in chances[key])
        shift = " ".join(str(round(s * 1000)) for s in shifts[key])
        text_row = f"{n} {size} {int(single)} | {row} | {shift}"
        lines.extend(textwrap.wrap(text_row, width=96, subsequent_indent="  "))
    path.write_text(text[:start] + "\n" + "\n".join(lines) + "\n" + text[end:])


def main(argv: list[str] | None = None) -> int:
    """Run the calibration and rewrite ``wizard/ai/odds.py``; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m wizard.ai.calibrate", description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="games per table and iteration")
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    path = Path(odds.__file__)
    configs = [(n, False) for n in range(3, 7)] + [(n, True) for n in (3, 4)]
    for it in range(args.iterations):
        chunk = max(1, args.games // (4 * args.workers))
        jobs = [
            (n, single, start, min(chunk, args.games - start))
            for n, single in configs
            for start in range(0, args.games, chunk)
        ]
        merged: dict[Key, _Stats] = {}
        with multiprocessing.Pool(args.workers) as pool:
            for part in pool.imap_unordered(_measure, jobs):
                for key, stats in part.items():
                    if key in merged:
                        merged[key].merge(stats)
                    else:
                        merged[key] = stats
        chances, shifts = _smooth(merged)
        _write(path, chances, shifts)
        # Next iteration's workers see the new table: forked from here, or importing the file.
        odds.ODDS.clear()
        odds.ODDS.update(chances)
        odds.SHIFT.clear()
        odds.SHIFT.update(shifts)
        print(f"iteration {it + 1}: {len(chances)} rows written to {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
