"""What one seat may see (R8): the only game data a front end or an AI should show or use."""

from __future__ import annotations

from dataclasses import dataclass

from wizard.cards import Card, Suit
from wizard.options import Bidding, Options
from wizard.rules import legal_actions, num_rounds, round_tricks, to_act, trick_winner
from wizard.state import Action, GameState, Phase

SeatCard = tuple[int, Card]
"""A card on the table and the seat that played it."""


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """A scored round as everyone saw it: no dealt hands in it."""

    round: int
    dealer: int
    turned: Card | None
    trump: Suit | None
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything seat ``seat`` may see at one moment, and nothing more (R8)."""

    seat: int
    players: tuple[str, ...]
    options: Options
    phase: Phase
    round: int
    num_rounds: int
    round_tricks: int
    dealer: int
    turn: int | None
    to_act: tuple[int, ...]
    turned: Card | None
    trump: Suit | None
    hands: tuple[tuple[Card, ...] | None, ...]
    """The hands this seat can see, by seat: its own (R8.2), or the others' in round 1
    under clairvoyance (R7.4); ``None`` for a hand it cannot see."""
    hand_sizes: tuple[int, ...]
    bids: tuple[int | None, ...]
    """Bids this seat can see: open ones, its own, and hidden/secret ones once revealed."""
    has_bid: tuple[bool, ...]
    tricks: tuple[int, ...]
    leader: int
    trick: tuple[SeatCard, ...]
    follow: Suit | None
    played: tuple[tuple[SeatCard, ...], ...]
    """The completed tricks of this round; every one was face up on the table (R8.1)."""
    scores: tuple[int, ...]
    history: tuple[RoundSummary, ...]
    legal: tuple[Action, ...]
    """This seat's legal actions now; empty when a hidden own card must be played (R7.4)."""

    @property
    def hand(self) -> tuple[Card, ...] | None:
        """This seat's own hand, or ``None`` while clairvoyance hides it."""
        return self.hands[self.seat]

    @property
    def last_trick(self) -> tuple[SeatCard, ...]:
        """The previous trick of this round, if any."""
        return self.played[-1] if self.played else ()

    @property
    def my_turn(self) -> bool:
        """True when this seat may act now."""
        return self.seat in self.to_act


@dataclass(frozen=True, slots=True)
class TableView:
    """What everyone at the table may see (R8.1): the same for every seat and onlooker."""

    players: tuple[str, ...]
    options: Options
    phase: Phase
    round: int
    num_rounds: int
    round_tricks: int
    dealer: int
    turn: int | None
    to_act: tuple[int, ...]
    turned: Card | None
    trump: Suit | None
    bids: tuple[int | None, ...]
    """Bids everyone may see: open ones, or hidden/secret ones once revealed."""
    has_bid: tuple[bool, ...]
    tricks: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    leader: int
    trick: tuple[SeatCard, ...]
    follow: Suit | None
    last_trick: tuple[SeatCard, ...]
    last_winner: int | None
    scores: tuple[int, ...]
    history: tuple[RoundSummary, ...]

    @property
    def bids_revealed(self) -> bool:
        """Whether every bid of the round is public now (R4.2, R7.2, R7.3)."""
        return _revealed(self.options.bidding, self.phase, self.has_bid)


def table_view(state: GameState) -> TableView:
    """The public table of ``state`` (R8.1): no hand, no bid still hidden."""
    n = len(state.players)
    revealed = bids_revealed(state)
    played = _played_with_seats(state)
    return TableView(
        players=state.players,
        options=state.options,
        phase=state.phase,
        round=state.round,
        num_rounds=num_rounds(state),
        round_tricks=round_tricks(state),
        dealer=state.dealer,
        turn=state.turn,
        to_act=to_act(state),
        turned=state.turned,
        trump=state.trump,
        bids=state.bids if revealed else (None,) * n,
        has_bid=tuple(b is not None for b in state.bids),
        tricks=state.tricks,
        hand_sizes=tuple(len(h) for h in state.hands),
        leader=state.leader,
        trick=_seated(state.trick, state.leader, n),
        follow=state.follow,
        last_trick=played[-1] if played else (),
        last_winner=state.last_winner,
        scores=state.scores,
        history=_summaries(state),
    )


def public_table(view: PlayerView) -> TableView:
    """The public part of one seat's view (R8.1): the same :class:`TableView` whichever
    seat's view it is taken from, equal to :func:`table_view` of the state it shows.

    It drops the seat's hand (and the others' under clairvoyance), its legal moves, and its
    own bid while bids are not revealed.
    """
    revealed = _revealed(view.options.bidding, view.phase, view.has_bid)
    return TableView(
        players=view.players,
        options=view.options,
        phase=view.phase,
        round=view.round,
        num_rounds=view.num_rounds,
        round_tricks=view.round_tricks,
        dealer=view.dealer,
        turn=view.turn,
        to_act=view.to_act,
        turned=view.turned,
        trump=view.trump,
        bids=view.bids if revealed else (None,) * len(view.players),
        has_bid=view.has_bid,
        tricks=view.tricks,
        hand_sizes=view.hand_sizes,
        leader=view.leader,
        trick=view.trick,
        follow=view.follow,
        last_trick=view.last_trick,
        # Each trick's winner leads the next one (R5.1), so the leader is the last winner.
        last_winner=view.leader if view.played else None,
        scores=view.scores,
        history=view.history,
    )


def bids_revealed(state: GameState) -> bool:
    """Whether every seat can see every bid of the current round (R4.2, R7.2, R7.3)."""
    return _revealed(state.options.bidding, state.phase, tuple(b is not None for b in state.bids))


def _revealed(bidding: Bidding, phase: Phase, has_bid: tuple[bool, ...]) -> bool:
    """The one rule for revealed bids, from what everyone sees: who has bid, and the phase."""
    if bidding is Bidding.OPEN:
        return True
    if bidding is Bidding.HIDDEN:
        return all(has_bid)  # all chosen: revealed together (R7.2)
    return phase in (Phase.ROUND_OVER, Phase.GAME_OVER)  # at scoring (R7.3)


def own_hand_hidden(state: GameState) -> bool:
    """Whether players cannot see their own cards now: round 1 under clairvoyance (R7.4)."""
    return state.options.clairvoyance and state.round == 1


def view(state: GameState, seat: int) -> PlayerView:
    """What ``seat`` may see of ``state`` (R8)."""
    n = len(state.players)
    if not 0 <= seat < n:
        raise ValueError(f"there is no seat {seat} in this game")
    clairvoyant = own_hand_hidden(state)
    hands = tuple(
        (hand if (i != seat) == clairvoyant else None) for i, hand in enumerate(state.hands)
    )
    revealed = bids_revealed(state)
    bids = tuple(b if revealed or i == seat else None for i, b in enumerate(state.bids))
    legal = legal_actions(state, seat) if state.phase is not Phase.ROUND_OVER else ()
    if clairvoyant and state.phase is Phase.PLAY:
        legal = ()  # the only legal play would name the hidden card
    return PlayerView(
        seat=seat,
        players=state.players,
        options=state.options,
        phase=state.phase,
        round=state.round,
        num_rounds=num_rounds(state),
        round_tricks=round_tricks(state),
        dealer=state.dealer,
        turn=state.turn,
        to_act=to_act(state),
        turned=state.turned,
        trump=state.trump,
        hands=hands,
        hand_sizes=tuple(len(h) for h in state.hands),
        bids=bids,
        has_bid=tuple(b is not None for b in state.bids),
        tricks=state.tricks,
        leader=state.leader,
        trick=_seated(state.trick, state.leader, n),
        follow=state.follow,
        played=_played_with_seats(state),
        scores=state.scores,
        history=_summaries(state),
        legal=legal,
    )


def _summaries(state: GameState) -> tuple[RoundSummary, ...]:
    return tuple(
        RoundSummary(r.round, r.dealer, r.turned, r.trump, r.bids, r.tricks, r.points, r.totals)
        for r in state.history
    )


def _seated(cards: tuple[Card, ...], leader: int, n: int) -> tuple[SeatCard, ...]:
    return tuple(((leader + i) % n, c) for i, c in enumerate(cards))


def _played_with_seats(state: GameState) -> tuple[tuple[SeatCard, ...], ...]:
    """Completed tricks with who played what: each winner leads the next trick (R5.1)."""
    if not state.played:
        return ()
    n = len(state.players)
    leader = (state.dealer + 1) % n
    out = []
    for trick in state.played:
        out.append(_seated(trick, leader, n))
        index = trick_winner(
            trick,
            state.trump,
            magic_twos=state.options.magic_twos,
            single_suit=state.options.single_suit,
        )
        leader = (leader + index) % n
    return tuple(out)
