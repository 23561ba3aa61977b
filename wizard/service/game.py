"""A game as the service holds it: the fold over its log, the events of one step, and its
copy in memory (:class:`LiveGame`) with the values a front end is given of it.

A game's state is ``fold(players, options, seed, actions)``: the seeded deals are
recomputed, never stored, and each is applied as soon as it is due so that the
service never rests in ``ROUND_OVER``. The log is the only stored form of a game's
state: a game is replayed from it when it is first needed (milliseconds).
"""

from __future__ import annotations

import asyncio
from bisect import bisect_left, bisect_right
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import NamedTuple

from wizard.ai import ComputerPlayer, make_player
from wizard.cards import Card, Suit
from wizard.errors import IllegalActionError
from wizard.options import Bidding, Options
from wizard.rules import apply, deal_next_round, new_game, num_rounds, round_tricks, to_act
from wizard.service.clock import TimerHandle
from wizard.service.events import (
    Actor,
    BidMade,
    BidsRevealed,
    CardPlayed,
    Event,
    GameStatus,
    GameUpdate,
    HostPassed,
    RoundDealt,
    RoundScored,
    Standing,
    TrickWon,
    TrumpChosen,
    TurnChanged,
)
from wizard.state import Action, Bid, ChooseTrump, GameState, Phase, Play
from wizard.store.models import ResultRow, SeatRow
from wizard.view import PlayerView, TableView, own_hand_hidden, table_view, view

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
    """The state after ``actions`` (raises the engine's ``IllegalActionError`` on a bad one,
    with a note saying which action of the log it is, in which round)."""
    state = initial_state(players, options, seed)
    for seq, action in enumerate(actions, 1):
        try:
            state = apply(state, action)
        except IllegalActionError as error:
            error.add_note(f"action {seq}, in round {state.round}")
            raise
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


def turn_ran_out(deadline: float, turn_seconds: float | None, now: float) -> bool:
    """Whether a turn with this ``deadline`` has run out at ``now``: the deadline is past, or
    lies further ahead than a whole turn (the system clock was moved back: QA, a player who
    had walked away held the table for an hour)."""
    return deadline <= now or (turn_seconds is not None and deadline > now + turn_seconds)


def turn_event(state: GameState, deadline: float | None) -> TurnChanged:
    """Who acts next."""
    return TurnChanged(state.phase, state.round, to_act(state), deadline)


def stored_standings(
    rows: Iterable[ResultRow], forfeited: Collection[int] = ()
) -> tuple[Standing, ...]:
    """Final places as the ``results`` rows hold them, best first (ties by seat); the
    seats in ``forfeited`` were played by a computer to the end for a person who left."""
    made = (
        Standing(
            r.seat,
            r.name,
            r.user_id,
            r.score,
            r.place,
            r.exact_bids,
            r.rounds,
            forfeited=r.seat in forfeited,
        )
        for r in rows
    )
    return tuple(sorted(made, key=lambda s: (s.place, s.seat)))


def people_playing(seats: Iterable[SeatRow] | Iterable[SeatInfo]) -> list[int]:
    """The users who play their seats themselves now (no computer holds them), in seat order."""
    return [s.user_id for s in seats if s.user_id is not None and not s.away]


def host_of(host_id: int, seats: Sequence[SeatRow]) -> int:
    """Who has the host's say with these seats: the host while they play their seat; while a
    computer holds it (they left for a while, or a manager removed them), the first person
    still playing, until the host takes the seat back (``host_id`` itself is never handed
    on in a running game)."""
    playing = people_playing(seats)
    if host_id in playing or not playing:
        return host_id
    return playing[0]


def forfeited_seats(seats: Iterable[SeatRow]) -> set[int]:
    """The seats a computer holds for their person (left, removed or timed out): at the
    game's end, that person forfeits it (:attr:`Standing.forfeited`)."""
    return {s.seat for s in seats if s.user_id is not None and s.away}


def standings(
    state: GameState,
    user_ids: Sequence[int | None],
    not_theirs: Collection[tuple[int, int]] = (),
) -> tuple[Standing, ...]:
    """Final places, best first; equal totals share a place (R6.3). A person's rounds and
    exact bids count only the bids they made: not those of ``not_theirs`` (round, seat),
    which a computer made for them (they had left, or their time ran out)."""
    scores = state.scores
    out = []
    for seat, name in enumerate(state.players):
        place = 1 + sum(1 for s in scores if s > scores[seat])
        own = [
            r for r in state.history if user_ids[seat] is None or (r.round, seat) not in not_theirs
        ]
        exact = sum(1 for r in own if r.bids[seat] == r.tricks[seat])
        out.append(Standing(seat, name, user_ids[seat], scores[seat], place, exact, len(own)))
    out.sort(key=lambda s: (s.place, s.seat))
    return tuple(out)


class LoggedMove(NamedTuple):
    """A move of the game's log: its seat, who made it (:class:`Actor`), the user of the
    seat then (a computer's move: the person it moved for, none for a computer seat; moves
    logged before 2026-12 have none) and the round it was made in."""

    seat: int
    actor: Actor
    user_id: int | None
    round: int


def move_rounds(actions: Iterable[Action], players: int) -> list[int]:
    """The round of each logged action, from the log alone (for a game loaded from it): a
    round's trump is named before its bids (R4.3), every seat bids once a round (R4.1), and
    its cards are played after its bids."""
    rounds, bids = [], 0
    for action in actions:
        if isinstance(action, Play):
            rounds.append(bids // players)
        else:
            rounds.append(bids // players + 1)
            bids += isinstance(action, Bid)
    return rounds


def round_span(moves: Sequence[LoggedMove], round: int) -> slice:
    """Where the moves of ``round`` lie in the game's log (or its actions): a round's moves
    are logged together, and the rounds in order."""
    by_round = attrgetter("round")
    return slice(bisect_left(moves, round, key=by_round), bisect_right(moves, round, key=by_round))


def trump_named_by(
    actions: Sequence[Action], moves: Sequence[LoggedMove], round: int
) -> LoggedMove | None:
    """Who named the trump of ``round``, the latest, after a turned Wizard (R3.3), if it is
    named."""
    span = round_span(moves, round)
    for action, move in zip(reversed(actions[span]), reversed(moves[span]), strict=True):
        if isinstance(action, ChooseTrump):
            return move
    return None


def moved_for(moves: Sequence[LoggedMove], round: int, seat: int, user_id: int | None) -> bool:
    """Whether anyone but ``user_id`` moved for ``seat`` in ``round`` (a computer, or who
    held the seat before)."""
    return any(
        move.seat == seat and (move.actor is not Actor.PLAYER or move.user_id != user_id)
        for move in moves[round_span(moves, round)]
    )


def computer_moves(
    actions: Sequence[Action], moves: Sequence[LoggedMove], round: int, seat: int
) -> tuple[Action, ...]:
    """The moves a computer made for ``seat`` in ``round``, in order (its player had left, or
    their time ran out)."""
    span = round_span(moves, round)
    return tuple(
        action
        for action, move in zip(actions[span], moves[span], strict=True)
        if move.seat == seat and move.actor is not Actor.PLAYER
    )


def bids_not_made_by_players(
    bids: Sequence[LoggedMove], holders: Sequence[int | None]
) -> set[tuple[int, int]]:
    """``(round, seat)`` of the bids the person holding each seat (``holders``: at the end,
    or now) did not make: a computer's for them (they had left, or their time ran out), or
    an earlier holder's (who left; they took the seat over). From the game's logged bids in
    order."""
    return {
        (bid.round, bid.seat)
        for bid in bids
        if bid.actor is not Actor.PLAYER
        or (bid.user_id is not None and bid.user_id != holders[bid.seat])
    }


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat: a user, or a computer player (``user_id`` is ``None``)."""

    seat: int
    user_id: int | None
    name: str
    level: str | None
    """Computer level of a computer seat, or of the computer holding an away player's seat."""
    away: bool
    """A computer plays this user's seat (after timeouts, leaving or a kick)."""
    kicked: bool
    """Away for good: the user may not take the seat back."""
    timeouts: int
    """Consecutive turn timeouts."""

    @property
    def is_computer(self) -> bool:
        """A seat that never had a user."""
        return self.user_id is None

    @property
    def computer_controlled(self) -> bool:
        """Whether a computer makes this seat's moves now."""
        return self.user_id is None or self.away


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game as the front end needs it: lobby or table, seats, timers, message ids."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: GameStatus
    options: Options
    version: int
    seats: tuple[SeatInfo, ...]
    turn_seconds: float | None
    deadline: float | None
    """Unix time of the lobby expiry or of the current turn's time limit."""
    lobby_message_id: int | None
    table_message_id: int | None
    ping_message_id: int | None
    """The turn reminder the channel shows, if any."""
    created_at: float
    started_at: float | None
    finished_at: float | None
    table: TableView | None
    """The public table once the game has started."""
    standings: tuple[Standing, ...] = ()
    """Final places of a finished game."""
    broken_reason: str | None = None
    computer_level: str | None = None
    """Level of the computers the lobby adds (``None``: the server's default), and once the
    game starts, the level of the computers that take seats over."""
    allow_seat_taking: bool = False
    """The host lets people who are not seated take over computer seats (``take_seat``)."""
    hints_used: tuple[int, ...] = ()
    """Seats that asked for a hint; a game with any is not rated."""
    trump_named_by: LoggedMove | None = None
    """Who named the current round's trump after a turned Wizard (R3.3), once it is named:
    the seat's person by a click (``Actor.PLAYER`` and their user), or a computer (a
    computer seat's, one holding a person's seat, or one moving as their time ran out)."""
    computer_moved: tuple[frozenset[int], ...] = ()
    """Round by round (round 1 first, to the last in which one did), the seats a computer
    made a move for in that round (a bid, trump or a card): a computer seat's, a person's it
    held, or one a computer moved for as the turn timer ran out."""
    person_moved: tuple[frozenset[int], ...] = ()
    """Round by round, as :attr:`computer_moved`, the seats whose person made a move by a
    click (whoever holds the seat now)."""

    def seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id``, if seated."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def playing(self) -> list[int]:
        """The people who play their seats themselves now (no computer holds them)."""
        return people_playing(self.seats)

    def seats_open_to(self, user_id: int, *, played: int | None = None) -> tuple[int, ...]:
        """Seats ``user_id`` may take now with ``take_seat``: their own seat while a
        computer holds it (not after a kick); or, if not seated and the host allows it,
        every seat a computer plays, or only the seat they ``played`` before (one person
        plays one seat of a game: see :meth:`GameService.seats_open_to`). Empty unless the
        game is running."""
        if self.status is not GameStatus.ACTIVE:
            return ()
        own = next((s for s in self.seats if s.user_id == user_id), None)
        if own is not None:
            return (own.seat,) if own.away and not own.kicked else ()
        if not self.allow_seat_taking:
            return ()
        return tuple(
            s.seat for s in self.seats if s.computer_controlled and played in (None, s.seat)
        )


@dataclass(frozen=True, slots=True)
class SeatView:
    """One player's private view of a game, with the version to put on their buttons."""

    game_id: int
    version: int
    seat: int
    view: PlayerView
    play_hidden_card: bool
    """Clairvoyance (R7.4): it is this seat's turn and its only card is hidden from it;
    offer "play my card" (``PlayHiddenCard``)."""
    away: bool
    """A computer holds the seat; :meth:`GameService.take_back` returns it."""
    bids_not_theirs: frozenset[int] = frozenset()
    """Rounds whose bid of this seat its player did not make: a computer's for them (they
    were away, or their time ran out), or an earlier holder's (they took the seat over)."""
    helped: bool = False
    """Someone else moved for this seat in the current round (a computer, or who held it
    before): its cards played, or its bid, are not all its player's own."""
    last_round_helped: bool = False
    """Someone else moved for this seat in the last scored round (the hand's line of how
    that round went): that round is the seat's, not all its player's own."""
    computer_moves: tuple[Action, ...] = ()
    """While a computer holds the seat (``away``): the moves it made for the seat this
    round, in order (:func:`computer_moves`)."""


RECENT_UPDATES = 8


@dataclass(eq=False)
class LiveGame:
    """The service's copy of one game; changed only after the database has committed."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: GameStatus
    version: int
    options: Options = field(default_factory=Options)
    seed: int = 0
    turn_seconds: float | None = None
    deadline: float | None = None
    lobby_message_id: int | None = None
    table_message_id: int | None = None
    ping_message_id: int | None = None
    announced: int | None = None
    """Rounds whose summary the channel was shown, while it is owed more (``None``: nothing
    is owed: not started, its final standings are out, or from before migration 12)."""
    created_at: float = 0.0
    started_at: float | None = None
    finished_at: float | None = None
    seats: list[SeatRow] = field(default_factory=list)
    computer_level: str | None = None
    """Level of the computers this lobby adds (``None``: the server's default); a started
    game keeps the level it started with (see :meth:`level_of`)."""
    allow_seat_taking: bool = False
    """People who are not seated may take over computer seats (the host's choice)."""
    hints_used: frozenset[int] = frozenset()
    """Seats that asked for a hint (stored as bits in ``games.hints_used``)."""
    state: GameState | None = None
    actions: list[Action] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)
    """The game's version after each logged action (for answering duplicates)."""
    moves: list[LoggedMove] = field(default_factory=list)
    """Who made each logged action, in order (:meth:`log`)."""
    bids: list[LoggedMove] = field(default_factory=list)
    """Who made each logged bid, in order: the bids' :attr:`moves`."""
    computer_rounds: list[set[int]] = field(default_factory=list)
    """Round by round, the seats a computer made a move for, from :attr:`moves` (to the
    last round one did)."""
    person_rounds: list[set[int]] = field(default_factory=list)
    """Round by round, the seats whose person made a move by a click, from :attr:`moves` (to
    the last round one did)."""
    request_ids: dict[str, int] = field(default_factory=dict)
    """Request id → seq of the action it made."""
    last_non_bid_version: int = 0
    """The version of the last move other than a hidden or secret bid (see the stale check)."""
    seat_changed: dict[int, int] = field(default_factory=dict)
    """Seat → the version at which it last changed hands: a surface of that seat drawn before
    is stale (a leaver's hand, a seat one held before); others' are not. Memory only: after
    a reload every surface before it is stale anyway."""
    computer_due: float | None = None
    """When the next computer move is due (memory only: on restart it is due at once)."""
    standings: tuple[Standing, ...] = ()
    broken_reason: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: TimerHandle | None = None
    computers: dict[tuple[int, str], ComputerPlayer] = field(default_factory=dict)
    recent: dict[str, GameUpdate] = field(default_factory=dict)
    """The last few updates made by requests, returned as they were to a repeated request."""

    def remember(self, request_id: str, update: GameUpdate) -> None:
        """Keep ``update`` for a repeat of ``request_id`` (a few per game: repeats come soon)."""
        self.recent[request_id] = update
        if len(self.recent) > RECENT_UPDATES:
            del self.recent[next(iter(self.recent))]

    @property
    def seq(self) -> int:
        """Number of logged actions."""
        return len(self.actions)

    def log(self, action: Action, move: LoggedMove) -> None:
        """Add a committed action, or one read back from the log, and who made it."""
        self.actions.append(action)
        self.moves.append(move)
        if isinstance(action, Bid):
            self.bids.append(move)
        rounds = self.person_rounds if move.actor is Actor.PLAYER else self.computer_rounds
        while len(rounds) < move.round:
            rounds.append(set())
        rounds[move.round - 1].add(move.seat)

    def seat_of(self, user_id: int) -> SeatRow | None:
        """The seat of ``user_id``, if seated."""
        return next((s for s in self.seats if s.user_id == user_id), None)

    def playing(self) -> list[int]:
        """The people who play their seats themselves now (no computer holds them)."""
        return people_playing(self.seats)

    @property
    def acting_host(self) -> int:
        """Who has the host's say now (:func:`host_of`)."""
        return host_of(self.host_id, self.seats)

    def host_passed(self, seats: Sequence[SeatRow]) -> tuple[HostPassed, ...]:
        """The event of the host's say passing on when ``seats`` replace the game's."""
        after = host_of(self.host_id, seats)
        if after == self.acting_host:
            return ()
        return tuple(HostPassed(s.seat) for s in seats if s.user_id == after)

    def level_of(self, row: SeatRow, server_level: str) -> str:
        """The level a computer plays ``row`` at: the seat's own, else the game's (chosen in
        its lobby), else the server's."""
        return row.level or self.computer_level or server_level

    def computer(self, seat: int, level: str) -> ComputerPlayer:
        """The computer player of a seat at a level (kept, so that its state carries on)."""
        key = (seat, level)
        player = self.computers.get(key)
        if player is None:
            # The level is known: a game with a stored level that is not was set aside as
            # damaged when it was loaded (models.Level).
            player = make_player(level, seed=self.computer_seed(seat))
            self.computers[key] = player
        return player

    def computer_seat(
        self, seats: list[SeatRow] | None = None, state: GameState | None = None
    ) -> int | None:
        """The first computer-controlled seat to act (in ``state`` with ``seats``, by default
        the game's own)."""
        state = self.state if state is None else state
        if state is None:
            return None
        seats = self.seats if seats is None else seats
        return next((s for s in to_act(state) if computer_controlled(seats[s])), None)

    def turn_deadline(
        self, seats: list[SeatRow], state: GameState, now: float, *, keep: bool = False
    ) -> float | None:
        """The turn timer: set when a new turn starts, kept through simultaneous bids."""
        if self.turn_seconds is None or state.phase is Phase.GAME_OVER:
            return None
        if all(computer_controlled(seats[s]) for s in to_act(state)):
            return None  # no person is waited for
        if keep and self.deadline is not None:
            return self.deadline
        return now + self.turn_seconds

    def computer_seed(self, seat: int) -> int:
        """The seed of a seat's computer player."""
        # Deterministic per game and seat, so that a test or a bug report can replay it.
        return (self.seed * 7 + seat) % (2**63)

    def seat_view(self, row: SeatRow) -> SeatView:
        """``row``'s player's own view of the game as it is now (a started game)."""
        state = self.state
        assert state is not None
        hidden = own_hand_hidden(state) and state.phase is Phase.PLAY and state.turn == row.seat
        holders = [s.user_id for s in self.seats]
        others = bids_not_made_by_players(self.bids, holders)
        return SeatView(
            self.id,
            self.version,
            row.seat,
            view(state, row.seat),
            hidden,
            row.away,
            frozenset(r for r, seat in others if seat == row.seat),
            moved_for(self.moves, state.round, row.seat, row.user_id),
            bool(state.history)
            and moved_for(self.moves, state.history[-1].round, row.seat, row.user_id),
            computer_moves(self.actions, self.moves, state.round, row.seat) if row.away else (),
        )

    def info(self) -> GameInfo:
        """The front end's picture of the game."""
        state = self.state
        rounds = state.round if state is not None else 0
        return GameInfo(
            **{name: getattr(self, name) for name in _INFO_FIELDS},
            host_id=self.acting_host,
            seats=tuple(SeatInfo(**{k: getattr(s, k) for k in _SEAT_FIELDS}) for s in self.seats),
            table=table_view(state) if state is not None else None,
            hints_used=tuple(sorted(self.hints_used)),
            trump_named_by=trump_named_by(self.actions, self.moves, rounds),
            computer_moved=tuple(frozenset(seats) for seats in self.computer_rounds),
            person_moved=tuple(frozenset(seats) for seats in self.person_rounds),
        )


_LIVE_FIELDS = {f.name for f in fields(LiveGame)} - {"seats", "hints_used", "host_id"}
_INFO_FIELDS = tuple(f.name for f in fields(GameInfo) if f.name in _LIVE_FIELDS)
"""What :class:`GameInfo` takes from a live game as it is (the same names; a field the game
does not have keeps its default)."""
_SEAT_FIELDS = tuple(f.name for f in fields(SeatInfo) if f.name in SeatRow.model_fields)


def computer_controlled(row: SeatRow) -> bool:
    """Whether a computer makes this seat's moves now."""
    return row.user_id is None or row.away
