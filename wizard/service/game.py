"""The engine as the service uses it: the fold over a log, the events of one step, snapshots.

A game's state is ``fold(players, options, seed, actions)``: the seeded deals are
recomputed, never stored, and each is applied as soon as it is due so that the
service never rests in ``ROUND_OVER``.

A snapshot is the whole state after the ``seq``-th action, stored next to the log so
that a restart loads a running game without replaying it (:func:`load_snapshot`). It
is only a cache: the log is the truth, and the service checks every loaded snapshot
against its log (:func:`state_differences`) before the game may change.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from wizard.cards import CARDS, Card, Suit
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
from wizard.state import Action, Bid, ChooseTrump, GameState, Phase, Play, RoundResult

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


_DECODED: dict[tuple[str, int, str], Action] = {}
"""Every decoded action: a log has a few hundred distinct ones, replayed many times."""


def decode_action(kind: str, seat: int, arg: str) -> Action:
    """The action of a log row; ``ValueError`` if the row cannot be one."""
    key = (kind, seat, arg)
    action = _DECODED.get(key)
    if action is None:
        action = _decode(kind, seat, arg)
        if len(_DECODED) < 4096:  # valid actions number about 500; never grow without bound
            _DECODED[key] = action
    return action


def _decode(kind: str, seat: int, arg: str) -> Action:
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


def snapshot(state: GameState, seq: int) -> dict[str, Any]:
    """The compact picture of the state that snapshots held before the full ones (format 1):
    still compared with the log when a game stored by an older version is loaded."""
    return {
        "seq": seq,
        "round": state.round,
        "phase": state.phase.value,
        "dealer": state.dealer,
        "turn": state.turn,
        "trump": state.trump.value if state.trump else None,
        "bids": list(state.bids),
        "tricks": list(state.tricks),
        "scores": list(state.scores),
        "hands": [" ".join(c.code for c in h) for h in state.hands],
        "trick": " ".join(c.code for c in state.trick),
    }


# --- full snapshots (format 2) ------------------------------------------------------------------

SNAPSHOT_FORMAT = 2
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqr"
"""One character per card (by its integer value): a late-game snapshot stays near 2 KB."""
_CARD_OF = {ch: CARDS[i] for i, ch in enumerate(_ALPHABET)}
assert len(_ALPHABET) == len(CARDS) == len(_CARD_OF)

_ROUND_FIELDS = ("first_dealer", "round", "dealer", "dealt", "turned", "history")
"""Fields that change only when a round is dealt: encoded once a round."""
_TURN_FIELDS = (
    "phase",
    "turn",
    "hands",
    "trump",
    "bids",
    "played",
    "leader",
    "trick",
    "follow",
    "last_leader",
    "tricks",
    "scores",
)
"""Fields that may change with every action."""
_GIVEN_FIELDS = ("players", "options", "seed")
"""Fields a snapshot does not hold: the game's seats and row give them."""
_SNAPSHOT_KEYS = frozenset(("v", "seq", *_ROUND_FIELDS, *_TURN_FIELDS))
assert set(GameState._fields) == {*_GIVEN_FIELDS, *_ROUND_FIELDS, *_TURN_FIELDS}

_encode = json.JSONEncoder(separators=(",", ":")).encode
"""Compact JSON (a prebuilt encoder: ``json.dumps`` with options builds one per call)."""


def _chars(cards: Iterable[Card]) -> str:
    return "".join(map(_ALPHABET.__getitem__, cards))


def _turn_part(state: GameState) -> str:
    return _encode(
        {
            "phase": state.phase,
            "turn": state.turn,
            "hands": [_chars(h) for h in state.hands],
            "trump": state.trump,
            "bids": state.bids,
            "played": [_chars(t) for t in state.played],
            "leader": state.leader,
            "trick": _chars(state.trick),
            "follow": state.follow,
            "last_leader": state.last_leader,
            "tricks": state.tricks,
            "scores": state.scores,
        }
    )


def _round_part(state: GameState) -> str:
    return _encode(
        {
            "first_dealer": state.first_dealer,
            "round": state.round,
            "dealer": state.dealer,
            "dealt": [_chars(h) for h in state.dealt],
            "turned": None if state.turned is None else _ALPHABET[state.turned],
            "history": [
                (
                    r.round,
                    r.dealer,
                    [_chars(h) for h in r.dealt],
                    None if r.turned is None else _ALPHABET[r.turned],
                    r.trump,
                    r.bids,
                    _chars(r.plays),
                    r.tricks,
                    r.points,
                    r.totals,
                )
                for r in state.history
            ],
        }
    )


class SnapshotWriter:
    """Writes one game's snapshots; the part that changes once a round is encoded once a round.

    Each snapshot is one JSON object keyed by the state's field names (cards are one
    character each), so that it can be read, and edited, with SQLite's JSON functions.
    """

    __slots__ = ("_dealt", "_history", "_round")

    def __init__(self) -> None:
        self._dealt: object = None
        self._history: object = None
        self._round = ""

    def __call__(self, state: GameState, seq: int) -> str:
        """The snapshot of ``state``, the state after ``seq`` logged actions."""
        # The engine makes new tuples when it deals or scores a round, and only then.
        if state.dealt is not self._dealt or state.history is not self._history:
            self._dealt, self._history = state.dealt, state.history
            self._round = _round_part(state)[1:-1]
        return f'{{"v":{SNAPSHOT_FORMAT},"seq":{seq},{_turn_part(state)[1:-1]},{self._round}}}'


def snapshot_json(state: GameState, seq: int) -> str:
    """The full snapshot of ``state`` (see :class:`SnapshotWriter`, which caches per round)."""
    return SnapshotWriter()(state, seq)


class SnapshotError(ValueError):
    """A stored snapshot that cannot be loaded (older format, damaged or edited)."""


def load_snapshot(
    stored: str, players: Sequence[str], options: Options, seed: int
) -> tuple[int, GameState]:
    """The ``seq`` and the state of a full snapshot; :class:`SnapshotError` if it is not one.

    Only the shape is checked here (types, one entry per seat): whether the state is the
    one the log makes is for :func:`state_differences`, once the log has been replayed.
    """
    try:
        data = json.loads(stored)
    except (json.JSONDecodeError, TypeError) as e:
        raise SnapshotError(f"snapshot is not JSON ({e})") from None
    if not isinstance(data, dict) or data.get("v") != SNAPSHOT_FORMAT:
        raise SnapshotError("not a full snapshot")
    if data.keys() != _SNAPSHOT_KEYS:
        raise SnapshotError(f"snapshot fields differ: {sorted(data.keys() ^ _SNAPSHOT_KEYS)}")
    n = len(players)
    try:
        state = GameState(
            players=tuple(players),
            options=options,
            seed=seed,
            first_dealer=_seat(data["first_dealer"], n),
            phase=Phase(data["phase"]),
            round=_int(data["round"]),
            dealer=_seat(data["dealer"], n),
            turn=None if data["turn"] is None else _seat(data["turn"], n),
            dealt=_hands(data["dealt"], n),
            hands=_hands(data["hands"], n),
            turned=_card(data["turned"]),
            trump=_suit(data["trump"]),
            bids=_per_seat(data["bids"], n, optional=True),
            played=_hands(data["played"], None),
            leader=_seat(data["leader"], n),
            trick=_cards(data["trick"]),
            follow=_suit(data["follow"]),
            last_leader=_seat(data["last_leader"], n),
            tricks=_per_seat(data["tricks"], n),
            scores=_per_seat(data["scores"], n),
            history=tuple(_round_result(r, n) for r in _list(data["history"])),
        )
        seq = _int(data["seq"])
    except (KeyError, TypeError, ValueError) as e:
        raise SnapshotError(f"snapshot cannot be read: {e}") from None
    if seq < 0:
        raise SnapshotError(f"snapshot seq {seq} is negative")
    return seq, state


def _list(value: object) -> list[Any]:
    if type(value) is not list:
        raise TypeError(f"{value!r} is not a list")
    return value


def _int(value: object) -> int:
    if type(value) is not int:
        raise TypeError(f"{value!r} is not a whole number")
    return value


def _seat(value: object, n: int) -> int:
    seat = _int(value)
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} of {n}")
    return seat


def _per_seat(value: object, n: int, *, optional: bool = False) -> tuple[Any, ...]:
    items = _list(value)
    if len(items) != n:
        raise ValueError(f"{len(items)} entries for {n} seats")
    for x in items:
        if not (type(x) is int or (optional and x is None)):
            raise TypeError(f"{x!r} is not a whole number")
    return tuple(items)


def _cards(value: object) -> tuple[Card, ...]:
    if type(value) is not str:
        raise TypeError(f"{value!r} is not a string of cards")
    return tuple(map(_CARD_OF.__getitem__, value))


def _card(value: object) -> Card | None:
    if value is None:
        return None
    cards = _cards(value)
    if len(cards) != 1:
        raise ValueError(f"{value!r} is not one card")
    return cards[0]


def _hands(value: object, n: int | None) -> tuple[tuple[Card, ...], ...]:
    hands = tuple(_cards(h) for h in _list(value))
    if n is not None and len(hands) != n:
        raise ValueError(f"{len(hands)} hands for {n} seats")
    return hands


def _suit(value: object) -> Suit | None:
    if value is None:
        return None
    if type(value) is not str:
        raise TypeError(f"{value!r} is not a suit")
    return Suit(value)


def _round_result(value: object, n: int) -> RoundResult:
    (round_, dealer, dealt, turned, trump, bids, plays, tricks, points, totals) = _list(value)
    return RoundResult(
        round=_int(round_),
        dealer=_seat(dealer, n),
        dealt=_hands(dealt, n),
        turned=_card(turned),
        trump=_suit(trump),
        bids=_per_seat(bids, n),
        plays=_cards(plays),
        tricks=_per_seat(tricks, n),
        points=_per_seat(points, n),
        totals=_per_seat(totals, n),
    )


def state_differences(cached: GameState, replayed: GameState) -> list[str]:
    """Fields where a state loaded from a snapshot differs from the log's (empty if none)."""
    if cached == replayed:
        return []
    return [
        f"{name}: snapshot {_short(a)}, log {_short(b)}"
        for name, a, b in zip(GameState._fields, cached, replayed, strict=True)
        if a != b
    ]


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def snapshot_differences(stored: str, state: GameState, seq: int) -> list[str]:
    """Fields where a stored snapshot (either format) disagrees with the replayed state
    after ``seq`` actions (empty if none)."""
    try:
        cached = json.loads(stored)
    except json.JSONDecodeError as e:
        return [f"snapshot is not JSON ({e})"]
    if not isinstance(cached, dict):
        return ["snapshot is not an object"]
    if "v" in cached:
        try:
            at, loaded = load_snapshot(stored, state.players, state.options, state.seed or 0)
        except SnapshotError as e:
            return [str(e)]
        out = [] if at == seq else [f"seq: snapshot {at}, log {seq}"]
        return out + state_differences(loaded, state)
    fresh = snapshot(state, seq)
    return [
        f"{key}: snapshot {cached.get(key)!r}, log {value!r}"
        for key, value in fresh.items()
        if cached.get(key) != value
    ]
