"""Helpers shared by the engine tests: building tables, playing games, and rule oracles.

The oracles at the bottom are written from RULES.md, independently of the engine's own
implementation, so that property tests compare the engine against the rule book.
"""

from __future__ import annotations

import importlib.util
import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from wizard.cards import Card, Suit, parse_cards
from wizard.options import Bidding, Options
from wizard.rules import apply, bidding_order, legal_actions, new_game
from wizard.state import Action, Bid, Deal, GameState, Phase, Play
from wizard.view import PlayerView

ROOT = Path(__file__).resolve().parents[2]
"""The repository's root."""


def bench_module(name: str) -> ModuleType:
    """The benchmark script ``bench/<name>.py``, imported (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / f"bench/{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


WriteRecord = Callable[[Any], Path]
"""The ``write_record`` fixture: writes a record (dict, text or bytes) to a file."""

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
"""Player names for seats 0…5."""

R64_PLAYERS = ["Mattia", "Giulia", "Luca"]
"""The players of the worked example R6.4 (Mattia deals round 1)."""

R64_ROUND_1: dict[str, Any] = {
    "hands": [["B7"], ["N"], ["Z"]],
    "turned": "R3",
    "trump": "R",
    "bids": [0, 1, 1],
    "plays": ["N", "Z", "B7"],
}
"""Round 1 of R6.4, exactly as in RULES.md §9."""

R64_ROUND_2: dict[str, Any] = {
    # Giulia deals; Luca bids first and leads. Trick 1: Luca R13, Mattia Z, Giulia R1 → Mattia.
    # Trick 2: Mattia B1, Giulia B2, Luca B13 → Luca. Tricks won: Mattia 1, Giulia 0, Luca 1.
    "hands": [["Z", "B1"], ["R1", "B2"], ["R13", "B13"]],
    "turned": "G1",
    "trump": "G",
    "bids": [2, 0, 0],
    "plays": ["R13", "Z", "R1", "B1", "B2", "B13"],
}
"""A round 2 that produces the bids and tricks of R6.4's second row."""

R64_TOTALS = [(20, -10, 30), (10, 10, 20)]
"""The running totals of R6.4, row by row."""


def record_dict(
    players: Sequence[str],
    rounds: Sequence[dict[str, Any]],
    *,
    options: dict[str, Any] | None = None,
    first_dealer: int = 0,
) -> dict[str, Any]:
    """A game record (RULES.md §9) as plain data."""
    out: dict[str, Any] = {
        "format": "wizard-record/1",
        "players": list(players),
        "first_dealer": first_dealer,
        "rounds": [dict(r) for r in rounds],
    }
    if options is not None:
        out["options"] = options
    return out


def r64_record() -> dict[str, Any]:
    """The full worked example R6.4 as a record."""
    return record_dict(R64_PLAYERS, [R64_ROUND_1, R64_ROUND_2])


def table(
    hands: Sequence[str],
    turned: str | None = "N",
    *,
    options: Options | None = None,
    dealer: int = 0,
    round_no: int | None = None,
    scores: Sequence[int] | None = None,
) -> GameState:
    """An unseeded game at the start of a round with these hands (space-separated codes).

    ``dealer`` deals this round; for a round after the first, the state before the deal is
    built directly (``scores`` are the totals so far), which is what a replay would reach.
    The default turned card is a Jester (no trump, R3.2).
    """
    options = options or Options()
    n = len(hands)
    dealt = tuple(parse_cards(h) for h in hands)
    k = len(dealt[0])
    if round_no is None:
        round_no = k - 3 if options.single_suit else k
    state = new_game(NAMES[:n], options, first_dealer=dealer)
    if round_no > 1:
        state = state._replace(
            round=round_no - 1,
            dealer=(dealer - 1) % n,
            scores=tuple(scores) if scores is not None else (0,) * n,
        )
    card = None if turned is None else Card.parse(turned)
    return apply(state, Deal(dealt, card))


def bid_all(state: GameState, bids: Sequence[int]) -> GameState:
    """Every seat bids (``bids`` in seat order), in bidding order (R4.2)."""
    for seat in bidding_order(state):
        state = apply(state, Bid(seat, bids[seat]))
    return state


def play(state: GameState, *codes: str) -> GameState:
    """The seat to act plays each card in turn (R5.1 decides who that is)."""
    for code in codes:
        assert state.turn is not None
        state = apply(state, Play(state.turn, Card.parse(code)))
    return state


def random_states(
    state: GameState, rng: random.Random, stop: int | None = None
) -> Iterator[tuple[GameState, Action | None]]:
    """The states of a random legal game from ``state``: (state, action taken from it).

    The last pair has ``None`` as action: the game is over, or ``stop`` actions were taken.
    """
    taken = 0
    while state.phase is not Phase.GAME_OVER and (stop is None or taken < stop):
        action = rng.choice(legal_actions(state))
        yield state, action
        state = apply(state, action)
        taken += 1
    yield state, None


def play_random(
    players: int,
    options: Options | None = None,
    *,
    seed: int,
    rng_seed: int | None = None,
    stop: int | None = None,
) -> GameState:
    """A seeded game played with random legal actions (``stop`` actions, or to the end)."""
    rng = random.Random(seed if rng_seed is None else rng_seed)
    state = new_game(NAMES[:players], options or Options(), seed=seed)
    states = [s for s, _ in random_states(state, rng, stop)]
    return states[-1]


def cards_in(obj: object, *, skip_own: bool = False) -> set[Card]:
    """Every Card object anywhere in a view.

    With ``skip_own``: only what the view shows of the current round, without the seat's own
    hand and legal actions (earlier rounds' cards were reshuffled into the deck, R2.3).
    """
    found: set[Card] = set()

    def walk(x: object) -> None:
        if isinstance(x, Card):
            found.add(x)
        elif isinstance(x, tuple | list):
            for y in x:
                walk(y)
        elif hasattr(x, "__dataclass_fields__"):
            for name in x.__dataclass_fields__:
                walk(getattr(x, name))

    if isinstance(obj, PlayerView) and skip_own:
        for name in obj.__dataclass_fields__:
            if name in ("hands", "legal", "history"):
                continue
            walk(getattr(obj, name))
    else:
        walk(obj)
    return found


# --- oracles written from RULES.md ---------------------------------------------------------


def is_wizard(card: Card) -> bool:
    """R1.3/R1.4: a Wizard."""
    return card.code == "Z"


def is_jester(card: Card) -> bool:
    """R1.3/R1.4: a Jester."""
    return card.code == "N"


def suit_of(card: Card) -> Suit | None:
    """The suit letter of a card code, or None for Z/N (R1.3, R1.4)."""
    code = card.code
    return None if code in ("Z", "N") else Suit(code[0])


def rank_of(card: Card) -> int:
    """1…13 for suited cards (R1.1)."""
    return int(card.code[1:])


def oracle_follow(trick: Sequence[Card]) -> Suit | None:
    """R5.2: the suit of the first suited card unless a Wizard came before it."""
    for card in trick:
        if is_wizard(card):
            return None
        if not is_jester(card):
            return suit_of(card)
    return None


def oracle_legal_cards(hand: Sequence[Card], trick: Sequence[Card], single: bool) -> set[Card]:
    """R5.3/R5.4/R7.7: the cards of ``hand`` that may be played to ``trick``."""
    if single:
        return set(hand)
    follow = oracle_follow(trick)
    if follow is None or all(suit_of(c) != follow for c in hand):
        return set(hand)
    return {c for c in hand if suit_of(c) == follow or is_wizard(c) or is_jester(c)}


def oracle_winner(trick: Sequence[Card], trump: Suit | None, magic: bool, single: bool) -> int:
    """R5.6, R7.6, R7.7: the index of the card that wins ``trick``."""
    if single:

        def value(c: Card) -> int:
            return 0 if is_jester(c) else 14 if is_wizard(c) else rank_of(c)

        best = max(value(c) for c in trick)
        return next(i for i, c in enumerate(trick) if value(c) == best)
    follow = oracle_follow(trick)
    if magic and follow is not None:
        setter = next(i for i, c in enumerate(trick) if suit_of(c) is not None)
        for i, c in enumerate(trick):
            if i != setter and suit_of(c) == follow and rank_of(c) == 2:
                return i
    for i, c in enumerate(trick):
        if is_wizard(c):
            return i
    for suit in (trump, follow):
        if suit is None:
            continue
        ranked = [(rank_of(c), -i) for i, c in enumerate(trick) if suit_of(c) == suit]
        if ranked:
            return -max(ranked)[1]
    return 0  # only Jesters: the first one


def oracle_score(bid: int, won: int) -> int:
    """R6.1/R6.2."""
    return 20 + 10 * won if bid == won else -10 * abs(bid - won)


def options_valid(options: Options, players: int) -> bool:
    """R2.1/R7.8, written from the rule book."""
    hidden = options.bidding is not Bidding.OPEN
    return (
        3 <= players <= 6
        and not ((options.uneven_bids or options.canadian) and hidden)
        and not (options.single_suit and (options.magic_twos or options.clairvoyance))
        and not (options.single_suit and players > 4)
    )


def valid_setups() -> list[tuple[int, Options]]:
    """Every (players, options) pair that R2.1 and R7.8 allow (:func:`options_valid`):
    3–6 players with every variant mix, in a fixed order (the equivalence traces number
    their games by it)."""
    out = []
    for flags in itertools.product((False, True), list(Bidding), *[(False, True)] * 4):
        uneven, bidding, clairvoyance, canadian, magic, single = flags
        options = Options(
            uneven_bids=uneven,
            bidding=bidding,
            clairvoyance=clairvoyance,
            canadian=canadian,
            magic_twos=magic,
            single_suit=single,
        )
        out += [(players, options) for players in range(3, 7) if options_valid(options, players)]
    return out
