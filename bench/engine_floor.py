"""What a play costs the engine, beside the least any engine with its public API must spend.

    PYTHONPATH=. python bench/engine_floor.py [--games 30] [--repeats 9]

``apply`` returns a new :class:`~wizard.state.GameState`, a 21-field ``NamedTuple``, for
every action. Whatever the rules code does, a play in the middle of a trick must at least
be called, read the fields it keeps, take the card out of the player's hand and put that
hand back among the others, add the card to the trick and build the new state. This
script times those steps alone, the cheapest way of each that we know of, then all of
them in one function that checks no rule (a test holds it to the engine's result), on
the same mid-trick states of random 4-player games (fresh seeds), next to the engine's
own ``apply`` and ``legal_actions`` on them. The gap between that bare play and the
engine's ``apply`` is all that any rewrite of the rules code could win on a play while
the state stays what it is.

Figures are CPU-nanoseconds per play, medians of ``--repeats`` runs with the spread
(min–max), each minus an empty loop over the same plays. For load-proof figures run it
under ``valgrind --tool=callgrind`` with one step at a time (``--only NAME``) and compare
instruction counts.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from wizard.cards import JESTER_ID, SUIT_OF, WIZARD_ID
from wizard.rules import apply, legal_actions, new_game
from wizard.state import GameState, Phase, Play

Step = tuple[GameState, Play]


def mid_trick_plays(games: int, seed: int) -> list[Step]:
    """The plays of random games that neither open nor close a trick, with their states."""
    steps: list[Step] = []
    for s in range(seed, seed + games):
        rng = random.Random(s)
        state = new_game([f"P{i}" for i in range(4)], seed=s)
        while state.phase is not Phase.GAME_OVER:
            action = rng.choice(legal_actions(state))
            if type(action) is Play and 0 < len(state.trick) < 3:
                steps.append((state, action))
            state = apply(state, action)
    return steps


def _empty(state: GameState, action: Play) -> None:
    pass


def _unpack(state: GameState, action: Play) -> None:
    # as the engine does, into 21 local variables
    (
        _f0, _f1, _f2, _f3, _f4, _f5, _f6, _f7, _f8, _f9, _f10,
        _f11, _f12, _f13, _f14, _f15, _f16, _f17, _f18, _f19, _f20,
    ) = state  # fmt: skip


def _build(state: GameState, action: Play, _new: Any = tuple.__new__) -> GameState:
    x = None
    return _new(GameState, (x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x))  # type: ignore[no-any-return]


def _take_card(state: GameState, action: Play) -> tuple[tuple[Any, ...], ...]:
    hands, seat, card = state.hands, action.seat, action.card
    hand = hands[seat]
    i = hand.index(card)
    held = list(hands)
    held[seat] = hand[:i] + hand[i + 1 :]
    return tuple(held)


def _add_to_trick(state: GameState, action: Play) -> tuple[Any, ...]:
    trick, card = state.trick, action.card
    trick += (card,)
    return trick


def _bare_play(state: GameState, action: Play, _new: Any = tuple.__new__) -> GameState:
    """The steps above in one function: a mid-trick play of the standard game, its state
    moved on as the engine does, with no rule checked at all."""
    (
        players, options, seed, first_dealer, phase, rnd, dealer, turn, dealt, hands,
        turned, trump, bids, played, leader, trick, follow, last_leader, tricks, scores,
        history,
    ) = state  # fmt: skip
    assert turn is not None
    seat, card = action.seat, action.card
    hand = hands[seat]
    i = hand.index(card)
    held = list(hands)
    held[seat] = hand[:i] + hand[i + 1 :]
    if follow is None and card < JESTER_ID and WIZARD_ID not in trick:
        follow = SUIT_OF[card]  # after a led Jester, the first suited card sets the suit (R5.2)
    trick += (card,)
    return _new(  # type: ignore[no-any-return]
        GameState,
        (
            players, options, seed, first_dealer, phase, rnd, dealer,
            (turn + 1) % len(players), dealt, tuple(held), turned, trump, bids, played,
            leader, trick, follow, last_leader, tricks, scores, history,
        ),
    )  # fmt: skip


FLOOR: dict[str, Callable[[GameState, Play], Any]] = {
    "unpack the 21 fields": _unpack,
    "build the new GameState": _build,
    "take the card out of the hand": _take_card,
    "add the card to the trick": _add_to_trick,
}
BARE = "all in one function, no rule checked"
ENGINE: dict[str, Callable[[GameState, Play], Any]] = {
    "engine: apply": apply,
    "engine: legal_actions": lambda state, action: legal_actions(state),
}
"""The engine on the same plays: ``apply`` checks every rule, and a player's next move
needs ``legal_actions`` too (no floor is given for it: it is the engine's to make fast)."""


def time_per_play(fn: Callable[[GameState, Play], Any] | None, steps: list[Step]) -> float:
    """CPU-ns per play of ``fn`` over ``steps`` (results dropped at once, as in a game);
    of the bare loop for ``None``."""
    t0 = time.process_time_ns()
    if fn is None:
        for _state, _action in steps:
            pass
    else:
        for state, action in steps:
            fn(state, action)
    return (time.process_time_ns() - t0) / len(steps)


def median_runs(
    fn: Callable[[GameState, Play], Any] | None, steps: list[Step], repeats: int, minus: float
) -> tuple[float, float, float]:
    """Median, min and max over ``repeats`` runs of CPU-ns per play, less ``minus``."""
    runs = [time_per_play(fn, steps) - minus for _ in range(repeats)]
    return statistics.median(runs), min(runs), max(runs)


def main() -> None:
    """Time each step and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="random games to take plays from")
    parser.add_argument("--repeats", type=int, default=9, help="runs of each step")
    parser.add_argument("--seed", type=int, default=None, help="first seed (default: fresh)")
    parser.add_argument("--only", help="time only this step (a name from the table)")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else time.time_ns() % 10**9
    steps = mid_trick_plays(args.games, seed)
    gc.collect()
    gc.freeze()  # the kept states would otherwise be walked by every collection
    if args.only:
        time_per_play({**FLOOR, BARE: _bare_play, **ENGINE}[args.only], steps)
        return
    loop = median_runs(None, steps, args.repeats, 0.0)[0]
    call = median_runs(_empty, steps, args.repeats, loop)
    print(f"{len(steps)} mid-trick plays of {args.games} random 4-player games, seed {seed}")
    print("CPU-ns per play, median [min–max] of the runs, the loop's own cost taken off\n")
    rows = [("call apply (a Python function)", call)]
    rows += [
        (name, median_runs(fn, steps, args.repeats, loop + call[0])) for name, fn in FLOOR.items()
    ]
    floor = sum(mid for _, (mid, _, _) in rows)
    rows.append(("sum of the steps", (floor, floor, floor)))
    rows.append((BARE, median_runs(_bare_play, steps, args.repeats, loop)))
    rows += [(name, median_runs(fn, steps, args.repeats, loop)) for name, fn in ENGINE.items()]
    for name, (mid, lo, hi) in rows:
        spread = "" if lo == hi else f" [{lo:.0f}–{hi:.0f}]"
        print(f"  {name:<34} {mid:7.0f}{spread}")


if __name__ == "__main__":
    main()
