"""The engine as the service uses it: the fold over a log, and the events of one step.

A game's state is ``fold(players, options, seed, actions)``: the seeded deals are
recomputed, never stored, and each is applied as soon as it is due so that the
service never rests in ``ROUND_OVER``. The log is the only stored form of a game's
state: a game is replayed from it when it is first needed (milliseconds).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from wizard.cards import Card, Suit
from wizard.options import Bidding, Options
from wizard.rules import apply, deal_next_round, new_game, num_rounds, round_tricks, to_act
from wizard.service.events import (
    BidMade,
    BidsRevealed,
    CardPlayed,
    Event,
    RoundDealt,
    RoundScored,
    Standing,
    TrickWon,
    TrumpChosen,
    TurnChanged,
)
from wizard.state import Action, Bid, ChooseTrump, GameState, Phase, Play
from wizard.store.models import ResultRow

_ROUND_OVER = Phase.ROUND_OVER
ActionCode = tuple[str, str]
"""How an action is stored: ``kind`` and ``arg`` columns (the seat has its own column)."""


def encode_action(action: Action) -> ActionCode:
    """The ``(kind, arg)`` of a player action for the log."""
    if isinstance(action, Play):
        return "play", action.card.code
    if isinstance(action, Bid):
        return "bid", str(action.bid)
    if isinstance(action, ChooseTrump):
        return "trump", action.suit.value
    raise TypeError(f"only player actions are logged, not {action!r}")


# Valid actions number about 500, replayed many times; a bounded cache never grows without end.
@functools.lru_cache(maxsize=4096)
def decode_action(kind: str, seat: int, arg: str) -> Action:
    """The action of a log row; ``ValueError`` if the row cannot be one."""
    if kind == "play":
        return Play(seat, Card.parse(arg))
    if kind == "bid":
        if not arg.isdigit():
            raise ValueError(f"bid {arg!r} is not a whole number")
        return Bid(seat, int(arg))
    if kind == "trump":
        return ChooseTrump(seat, Suit.parse(arg))
    raise ValueError(f"unknown action kind {kind!r}")


def initial_state(players: Sequence[str], options: Options, seed: int) -> GameState:
    """A started game: seats fixed and round 1 dealt from the seed."""
    return deal_next_round(new_game(players, options, seed=seed))


def fold(
    players: Sequence[str], options: Options, seed: int, actions: Iterable[Action]
) -> GameState:
    """The state after ``actions`` (raises the engine's ``IllegalActionError`` on a bad one)."""
    state = initial_state(players, options, seed)
    for action in actions:
        state = apply(state, action)
        if state.phase is _ROUND_OVER:
            state = deal_next_round(state)
    return state


def step(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply a player action, and the deal it makes due; the public events of both."""
    mid = apply(state, action)
    events: list[Event] = []
    if isinstance(action, Play):
        card = mid.trick[-1] if mid.trick else mid.played[-1][-1]  # the interned Card
        events.append(CardPlayed(action.seat, card))
        if len(mid.played) > len(state.played):
            n = len(mid.players)
            cards = mid.played[-1]
            seated = tuple(((state.leader + i) % n, c) for i, c in enumerate(cards))
            events.append(TrickWon(mid.round, len(mid.played), mid.leader, seated, mid.tricks))
        if len(mid.history) > len(state.history):
            r = mid.history[-1]
            events.append(RoundScored(r.round, r.bids, r.tricks, r.points, r.totals))
    elif isinstance(action, Bid):
        public = mid.options.bidding is Bidding.OPEN
        events.append(BidMade(action.seat, action.bid if public else None))
        if mid.options.bidding is Bidding.HIDDEN and mid.phase is Phase.PLAY:
            events.append(BidsRevealed(tuple(b if b is not None else 0 for b in mid.bids)))
    elif isinstance(action, ChooseTrump):
        events.append(TrumpChosen(action.seat, action.suit))
    new = deal_next_round(mid)
    if new is not mid:
        events.append(dealt_event(new))
    return new, events


def dealt_event(state: GameState) -> RoundDealt:
    """The public news of a fresh deal."""
    return RoundDealt(
        round=state.round,
        num_rounds=num_rounds(state),
        dealer=state.dealer,
        tricks=round_tricks(state),
        turned=state.turned,
        trump=state.trump,
    )


def turn_event(state: GameState, deadline: float | None) -> TurnChanged:
    """Who acts next."""
    return TurnChanged(state.phase, state.round, to_act(state), deadline)


def stored_standings(rows: Iterable[ResultRow]) -> tuple[Standing, ...]:
    """Final places as the ``results`` rows hold them, best first (ties by seat)."""
    made = (
        Standing(r.seat, r.name, r.user_id, r.score, r.place, r.exact_bids, r.rounds) for r in rows
    )
    return tuple(sorted(made, key=lambda s: (s.place, s.seat)))


def standings(state: GameState, user_ids: Sequence[int | None]) -> tuple[Standing, ...]:
    """Final places, best first; equal totals share a place (R6.3)."""
    scores = state.scores
    out = []
    for seat, name in enumerate(state.players):
        place = 1 + sum(1 for s in scores if s > scores[seat])
        exact = sum(1 for r in state.history if r.bids[seat] == r.tricks[seat])
        out.append(
            Standing(seat, name, user_ids[seat], scores[seat], place, exact, len(state.history))
        )
    out.sort(key=lambda s: (s.place, s.seat))
    return tuple(out)
