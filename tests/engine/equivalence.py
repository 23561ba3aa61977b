"""Traces of random games through the engine's public API, to pin its behaviour down.

A trace hashes, round by round, everything a caller can observe: the state after every
action (its ``repr`` shows every field and the type of every value in it), the legal
actions of the table and of each seat, who may act, one seat's view and the public table,
the error (class, rule id and message) or result of a few illegal or odd actions tried at
every step, and the record of the game and of its replay.

``equivalence_fixture.json`` holds the traces made by the engine of commit 9e3304d (refusals
with codes, before the engine was made faster), remade once for a deliberate change: a
second bid of a seat under open bidding is refused as already made (``AlreadyBidError``,
R4.2), no longer as out of turn. ``test_engine_equivalence.py`` checks that the engine still
makes the same ones. To remake the fixture from another checkout of the engine::

    PYTHONPATH=/path/to/that/checkout:. python -m tests.engine.equivalence --write
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from tests.engine.helpers import valid_setups
from wizard.cards import CARDS, SUITS
from wizard.errors import WizardError
from wizard.options import Options, rounds_in_game, tricks_in_round
from wizard.record import dumps, load, replay
from wizard.rules import apply, legal_actions, new_game, next_deal, to_act, winners
from wizard.state import Action, Bid, ChooseTrump, Deal, GameState, Phase, Play
from wizard.view import table_view, view

FIXTURE = Path(__file__).with_name("equivalence_fixture.json")
"""The traces of the engine at 44b591f, but for the second open bid's refusal (see above)."""

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


def game_plan() -> list[tuple[int, Options, int]]:
    """The games traced: one per setup, and extra standard four-player games."""
    plan = [(p, o, 1000 + i) for i, (p, o) in enumerate(valid_setups())]
    plan += [(4, Options(), 5000 + i) for i in range(6)]
    return plan


def _outcome(state: GameState, action: object) -> str:
    """What ``apply`` does with ``action``: the new state, or the error it raises."""
    try:
        after = apply(state, action)  # type: ignore[arg-type]
    except WizardError as e:
        rule = getattr(e, "rule", None)
        message = getattr(e, "message", None)
        return f"{type(e).__name__}|{rule}|{message}|{e}"
    except Exception as e:  # an odd input may fail in Python itself: that is pinned too
        return f"{type(e).__name__}!{e}"
    return f"ok|{type(after).__name__}|{tuple(after)[:-1]!r}|{len(after.history)}"


def _probes(state: GameState, rng: random.Random) -> list[object]:
    """A few actions to try besides the one taken: mostly illegal, some odd in type."""
    n = len(state.players)
    k = tricks_in_round(state.options, max(state.round, 1))
    seat = rng.randrange(-1, n + 1)
    held = [c for h in state.hands for c in h]
    card = rng.choice(held) if held and rng.random() < 0.7 else rng.choice(CARDS)
    probes: list[object] = [
        Play(seat, card),
        Play(rng.randrange(n), int(card)),  # a plain int equal to a card
        Bid(seat, rng.randrange(-1, k + 2)),
        Bid(rng.randrange(n), rng.randrange(k + 1)),
        ChooseTrump(seat, rng.choice(SUITS)),
    ]
    odd: list[object] = [
        Play(rng.randrange(n), 99),  # type: ignore[arg-type]
        Play("0", card),  # type: ignore[arg-type]
        Bid(rng.randrange(n), True),
        Bid(rng.randrange(n), 1.0),  # type: ignore[arg-type]
        ChooseTrump(state.dealer, "B"),  # type: ignore[arg-type]
        "not an action",
    ]
    probes.append(rng.choice(odd))
    legal = legal_actions(state)
    if state.phase is Phase.PLAY and state.turn is not None:
        # every card the seat to act holds but may not play: must follow suit (R5.3)
        probes += [Play(state.turn, c) for c in state.hands[state.turn]]
    elif state.phase is Phase.BID:
        # every bid in and just out of range, for each seat that may bid: R4.1, R7.1, R7.5
        probes += [Bid(s, b) for s in to_act(state) for b in range(-1, k + 2)]
    elif state.phase is Phase.CHOOSE_TRUMP:
        probes += [ChooseTrump(s, suit) for s in range(n) for suit in SUITS]
    probes = [p for p in probes if p not in legal or rng.random() < 0.2]
    if state.seed is not None and state.round < rounds_in_game(state.options, n):
        wrong = Deal(next_deal(state).hands[::-1], next_deal(state).turned)
        probes.append(wrong if state.phase is Phase.ROUND_OVER else next_deal(state))
    return probes


def _observe(state: GameState, step: int, *, history: bool) -> str:
    """Everything a caller can read of ``state``, as text.

    The history of scored rounds (in the state and the views) only grows at the end of a
    round: it is written out then, and otherwise only counted, so that a trace stays linear.
    """
    n = len(state.players)
    table = table_view(state)
    seen = view(state, step % n)
    parts = [
        type(state).__name__,
        repr(state._fields),
        repr(tuple(state)[:-1]),
        repr(len(state.history)),
        repr(legal_actions(state)),
        repr([legal_actions(state, s) for s in range(-1, n + 1)]),
        repr(to_act(state)),
        repr(winners(state)),
        repr(replace(table, history=())),
        repr(replace(seen, history=())),
        repr(len(table.history) + len(seen.history)),
    ]
    if history:
        parts += [repr(state.history), repr(table.history), repr(seen.history)]
    return "\n".join(parts)


def trace(players: int, options: Options, seed: int) -> dict[str, Any]:
    """Play one random game of ``seed`` and hash what was seen, round by round."""
    rng = random.Random(seed * 7919 + players)
    probe_rng = random.Random(seed * 104729 + players)
    state = new_game(NAMES[:players], options, seed=seed)
    rounds: list[str] = []
    digest = hashlib.sha256()
    step = 0
    while True:
        ended = state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) and state.round > 0
        digest.update(_observe(state, step, history=ended).encode())
        for probe in _probes(state, probe_rng):
            digest.update(_outcome(state, probe).encode())
        if ended:
            digest.update(dumps(state).encode())
            rounds.append(digest.hexdigest()[:16])
            digest = hashlib.sha256()
        if state.phase is Phase.GAME_OVER:
            break
        action: Action = rng.choice(legal_actions(state))
        state = apply(state, action)
        step += 1
    text = dumps(state)
    again = replay(load(text))
    return {
        "players": players,
        "options": options.model_dump(mode="json"),
        "seed": seed,
        "steps": step,
        "scores": list(state.scores),
        "rounds": rounds,
        "record": hashlib.sha256(text.encode()).hexdigest()[:16],
        "replayed": hashlib.sha256((repr(again) + dumps(again)).encode()).hexdigest()[:16],
    }


def main() -> None:
    """Print the traces of the engine on the path, or write them to the fixture."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {FIXTURE.name}")
    args = parser.parse_args()
    games = [trace(p, o, s) for p, o, s in game_plan()]
    text = json.dumps({"engine": "44b591f", "games": games}, indent=1) + "\n"
    if args.write:
        FIXTURE.write_text(text, encoding="utf-8")
        print(f"wrote {len(games)} traces to {FIXTURE}")
    else:
        print(text)


if __name__ == "__main__":
    main()
