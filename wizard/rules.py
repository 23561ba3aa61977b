"""The rules of Wizard (R2–R7): dealing, legal actions, ``apply``, tricks and scores.

Everything here is a pure function of immutable values. A game is a fold of
:func:`apply` over actions, starting from :func:`new_game`:

>>> state = new_game(["Ann", "Bo", "Cy"], seed=7)
>>> state.phase
<Phase.ROUND_OVER: 'round_over'>
>>> state = apply(state, legal_actions(state)[0])  # the seeded deal of round 1
>>> state.round, len(state.hands[0])
(1, 1)
"""

from __future__ import annotations

import random
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import chain
from operator import add, itemgetter
from typing import TYPE_CHECKING, Final

from wizard.cards import (
    CARDS,
    JESTER_ID,
    STANDARD_DECK,
    SUIT_OF,
    SUITS,
    WIZARD_ID,
    Card,
    Suit,
    single_suit_deck,
)
from wizard.errors import (
    AlreadyBidError,
    BidOutOfRangeError,
    CardNotHeldError,
    ForbiddenBidError,
    InvalidDealError,
    MustFollowSuitError,
    NotYourTurnError,
    OptionsError,
    TrumpError,
    WrongPhaseError,
)
from wizard.options import Bidding, Options, check_setup, rounds_in_game, tricks_in_round
from wizard.state import (
    Action,
    Bid,
    ChooseTrump,
    Deal,
    GameState,
    Phase,
    Play,
    RoundResult,
)

if TYPE_CHECKING:
    from wizard.view import TableView

_MAX_SEATS: Final = 6
_MAX_TRICKS: Final = 20
# Actions are values; the engine hands out shared instances so legal_actions allocates little.
_PLAYS: Final = tuple(tuple(Play(s, c) for c in CARDS) for s in range(_MAX_SEATS))
_BIDS: Final = tuple(tuple(Bid(s, b) for b in range(_MAX_TRICKS + 1)) for s in range(_MAX_SEATS))
_TRUMPS: Final = tuple(tuple(ChooseTrump(s, suit) for suit in SUITS) for s in range(_MAX_SEATS))
_TWO_OF: Final = {suit: Card.of(suit, 2) for suit in SUITS}
_SUIT_BASE: Final = {suit: suit.position * 13 for suit in SUITS}
"""The lowest card int of each suit: a sorted hand holds a suit in one contiguous run."""
# Module-level aliases: looking up an Enum member costs ~100 ns on Python 3.11.
_PLAY: Final = Phase.PLAY
_BID: Final = Phase.BID
_CHOOSE_TRUMP: Final = Phase.CHOOSE_TRUMP
_ROUND_OVER: Final = Phase.ROUND_OVER
_GAME_OVER: Final = Phase.GAME_OVER
_OPEN: Final = Bidding.OPEN


# --- setting up and dealing ---------------------------------------------------------------


def new_game(
    players: Sequence[str],
    options: Options | None = None,
    *,
    seed: int | None = None,
    first_dealer: int | None = None,
) -> GameState:
    """A game before its first deal, or :class:`OptionsError` if it cannot be played.

    With a ``seed`` every deal, and the first dealer unless given, follows from it
    (R2.3), so the same seed and actions always make the same game. Without one
    (a replayed record) the deals are supplied as :class:`Deal` actions.
    """
    options = options if options is not None else Options()
    n = len(players)
    check_setup(options, n)
    if first_dealer is None:
        if seed is None:
            raise OptionsError("R2.3", "needs_seed_or_dealer")
        first_dealer = random.Random(f"wizard:{seed}:first-dealer").randrange(n)
    elif not 0 <= first_dealer < n:
        raise OptionsError("R2.3", "first_dealer_out_of_range", max=n - 1)
    zeros = (0,) * n
    empty: tuple[tuple[Card, ...], ...] = ((),) * n
    return GameState(
        players=tuple(players),
        options=options,
        seed=seed,
        first_dealer=first_dealer,
        phase=Phase.ROUND_OVER,
        round=0,
        dealer=first_dealer,
        turn=None,
        dealt=empty,
        hands=empty,
        turned=None,
        trump=None,
        bids=(None,) * n,
        played=(),
        leader=(first_dealer + 1) % n,
        trick=(),
        follow=None,
        last_leader=0,
        tricks=zeros,
        scores=zeros,
        history=(),
    )


@lru_cache(maxsize=4096)
def seeded_deal(seed: int, round_no: int, players: int, single_suit: bool = False) -> Deal:
    """The deal of a round in a seeded game: the whole deck shuffled anew (R2.3, R7.7)."""
    # A string seed is hashed with SHA-512 by ``random``: stable across runs and versions.
    rng = random.Random(f"wizard:{seed}:{round_no}")
    if single_suit:
        k = round_no + 3
        hands = tuple(
            tuple(sorted(rng.sample(single_suit_deck(SUITS[i]), k))) for i in range(players)
        )
        return Deal(hands, None)
    # Sorting by independent uniform 64-bit keys is a uniform shuffle of the whole deck
    # (a tie has odds of about 1e-16), with all the randomness drawn in one C call:
    # several times faster than ``shuffle``'s per-card draws.
    # A list's item lookup, as sort key, is cheaper than the array's (which boxes each key).
    keys = array("Q", rng.randbytes(8 * len(STANDARD_DECK))).tolist()
    order = sorted(range(len(STANDARD_DECK)), key=keys.__getitem__)
    deck = itemgetter(*order)(STANDARD_DECK)  # one C call for all 60 lookups
    k = round_no
    used = players * k
    # A list display, not a generator: one frame instead of a resumed one per hand.
    hands = tuple([tuple(sorted(deck[i * k : (i + 1) * k])) for i in range(players)])
    return Deal(hands, deck[used] if used < len(deck) else None)


def next_deal(state: GameState) -> Deal:
    """The deal due in a seeded game's ``ROUND_OVER`` phase."""
    if state.seed is None:
        raise ValueError("only a seeded game deals by itself")
    return seeded_deal(state.seed, state.round + 1, len(state.players), state.options.single_suit)


def deal_next_round(state: GameState) -> GameState:
    """Apply the seeded deal if one is due; otherwise return ``state`` unchanged."""
    if state.phase is Phase.ROUND_OVER and state.seed is not None:
        return apply(state, next_deal(state))
    return state


# --- who may act, and how -------------------------------------------------------------------


def num_rounds(state: GameState) -> int:
    """Rounds in this game (R2.2, R7.7)."""
    return rounds_in_game(state.options, len(state.players))


def round_tricks(state: GameState) -> int:
    """Tricks (cards per player) in the current round."""
    return tricks_in_round(state.options, state.round)


def bidding_order(state: GameState | TableView) -> tuple[int, ...]:
    """Seats in bidding order: from left of the dealer, the dealer last (R4.2); of a game or
    of its public table."""
    n = len(state.players)
    return tuple((state.dealer + 1 + i) % n for i in range(n))


def to_act(state: GameState) -> tuple[int, ...]:
    """The seats that may act now (several while hidden or secret bids are chosen)."""
    if state.turn is not None:
        return (state.turn,)
    if state.phase is Phase.BID:
        return tuple(s for s in bidding_order(state) if state.bids[s] is None)
    return ()


def forbidden_bid(state: GameState, seat: int) -> tuple[int, str] | None:
    """The one bid ``seat`` may not make now and the rule forbidding it (R7.1, R7.5)."""
    return _forbidden(
        state.options,
        seat,
        dealer=state.dealer,
        last_round=state.round == num_rounds(state),
        tricks=round_tricks(state),
        bids=state.bids,
        scores=state.scores,
    )


def forbidden_bid_public(table: TableView) -> tuple[int, str] | None:
    """The bid the seat to bid may not make now and its rule (R7.1, R7.5), from the public
    table alone: under open bidding every fact it needs is public (who deals, the bids made,
    the scores). ``None`` when nothing is forbidden or no single seat is to bid."""
    if table.phase is not Phase.BID or table.turn is None:
        return None
    return _forbidden(
        table.options,
        table.turn,
        dealer=table.dealer,
        last_round=table.round == table.num_rounds,
        tricks=table.round_tricks,
        bids=table.bids,
        scores=table.scores,
    )


def _forbidden(
    options: Options,
    seat: int,
    *,
    dealer: int,
    last_round: bool,
    tricks: int,
    bids: Sequence[int | None],
    scores: Sequence[int],
) -> tuple[int, str] | None:
    if options.bidding is not _OPEN or seat != dealer:
        return None
    if options.uneven_bids:
        rule = "R7.1"
    elif options.canadian and last_round and _sole_leader(scores, seat):
        rule = "R7.5"
    else:
        return None
    bad = tricks - sum(b for b in bids if b is not None)
    return (bad, rule) if bad >= 0 else None


def _sole_leader(scores: Sequence[int], seat: int) -> bool:
    mine = scores[seat]
    return all(mine > s for i, s in enumerate(scores) if i != seat)


def legal_actions(state: GameState, seat: int | None = None) -> tuple[Action, ...]:
    """Every legal action now (of ``seat`` only, if given), in a fixed order.

    Order: plays in hand order, bids from 0 up, trump suits B, R, G, Y. In a
    seeded game's ``ROUND_OVER`` phase the one legal action is the seeded
    :class:`Deal`; an unseeded game accepts any valid deal there, which is not
    listed.
    """
    phase = state.phase
    if phase is _PLAY:
        # The hot path of every game: kept inline, one call frame less per card.
        turn = state.turn
        assert turn is not None
        if seat is not None and seat != turn:
            return ()
        hand = state.hands[turn]
        follow = state.follow
        lo = hi = 0
        if follow is not None:
            base = _SUIT_BASE[follow]
            lo = bisect_left(hand, base)
            hi = bisect_left(hand, base + 13, lo)
        if lo < hi:
            # Cards of the suit to follow, then any Jester or Wizard (R5.3, R5.4).
            if hand[-1] >= JESTER_ID:
                hand = (*hand[lo:hi], *dict.fromkeys(hand[bisect_left(hand, JESTER_ID, hi) :]))
            else:
                hand = hand[lo:hi]
        elif len(hand) > 1 and hand[-2] >= JESTER_ID:  # two Wizards or Jesters: list each once
            hand = tuple(dict.fromkeys(hand))
        if len(hand) == 1:
            return (_PLAYS[turn][hand[0]],)
        # One C call picks every play: itemgetter of several keys returns their tuple.
        plays: tuple[Play, ...] = itemgetter(*hand)(_PLAYS[turn])
        return plays
    if phase is _BID:
        if state.turn is not None and (seat is None or seat == state.turn):
            return _legal_bids(state, state.turn)
        seats = to_act(state)
        if seat is not None:
            seats = (seat,) if seat in seats else ()
        out: list[Action] = []
        for s in seats:
            out.extend(_legal_bids(state, s))
        return tuple(out)
    if phase is Phase.CHOOSE_TRUMP:
        if seat is not None and seat != state.dealer:
            return ()
        return _TRUMPS[state.dealer]
    if phase is Phase.ROUND_OVER and seat is None and state.seed is not None:
        return (next_deal(state),)
    return ()


def _suit_run(hand: tuple[Card, ...], suit: Suit) -> tuple[int, int]:
    """The slice ``hand[lo:hi]`` of a sorted hand that holds ``suit``."""
    base = _SUIT_BASE[suit]
    lo = bisect_left(hand, base)
    return lo, bisect_left(hand, base + 13, lo)


def _legal_bids(state: GameState, seat: int) -> tuple[Bid, ...]:
    table = _BIDS[seat]
    options = state.options
    k = state.round + 3 if options.single_suit else state.round
    if not (options.uneven_bids or options.canadian):
        return table[: k + 1]
    bad = forbidden_bid(state, seat)
    if bad is None or bad[0] > k:
        return table[: k + 1]
    return table[: bad[0]] + table[bad[0] + 1 : k + 1]


# --- tricks and scores ----------------------------------------------------------------------


def suit_to_follow(trick: Sequence[Card]) -> Suit | None:
    """The suit to follow (R5.2): the first suited card's, unless a Wizard came before it."""
    for card in trick:
        if card == WIZARD_ID:
            return None
        if card != JESTER_ID:
            return SUIT_OF[card]
    return None


def trick_winner(
    trick: Sequence[Card],
    trump: Suit | None = None,
    *,
    magic_twos: bool = False,
    single_suit: bool = False,
) -> int:
    """Index in ``trick`` of the winning card (R5.6, R7.6, R7.7)."""
    if single_suit:
        return _single_suit_winner(trick)
    return _winner(tuple(trick), trump, suit_to_follow(trick), magic_twos)


def _winner(trick: tuple[Card, ...], trump: Suit | None, follow: Suit | None, magic: bool) -> int:
    if magic and follow is not None:
        two = _TWO_OF[follow]
        if two in trick:
            at = trick.index(two)
            # The 2 that set the suit to follow stays an ordinary 2 (R7.6 ruling).
            if any(SUIT_OF[c] is follow for c in trick[:at]):
                return at
    if WIZARD_ID in trick:
        return trick.index(WIZARD_ID)  # R5.6: the first Wizard
    best = 0
    best_key = -1
    for i, card in enumerate(trick):
        suit = SUIT_OF[card]
        if suit is None:
            continue
        if suit is trump:
            key = 100 + card
        elif suit is follow:
            key = card
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    return best  # only Jesters: the first Jester (R5.6)


def _single_suit_winner(trick: Sequence[Card]) -> int:
    # R7.7: highest value wins, Jester lowest and Wizard highest; the first of equals wins.
    best, best_value = 0, -1
    for i, card in enumerate(trick):
        value = 0 if card == JESTER_ID else 14 if card == WIZARD_ID else card % 13 + 1
        if value > best_value:
            best, best_value = i, value
    return best


def score(bid: int, tricks: int) -> int:
    """Points for a round: 20 + 10 per trick when the bid is met, else −10 per trick off (R6)."""
    if bid == tricks:
        return 20 + 10 * tricks
    return -10 * abs(bid - tricks)


def winners(state: GameState) -> tuple[int, ...] | None:
    """Seats with the highest total once the game is over (ties share, R6.3); else ``None``."""
    if state.phase is not Phase.GAME_OVER:
        return None
    top = max(state.scores)
    return tuple(i for i, s in enumerate(state.scores) if s == top)


# --- apply ------------------------------------------------------------------------------------


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``, or an :class:`IllegalActionError` naming the rule broken."""
    kind = type(action)
    if kind is Play:
        return _apply_play(state, action.seat, action.card)  # type: ignore[union-attr]
    if kind is Bid:
        return _apply_bid(state, action.seat, action.bid)  # type: ignore[union-attr]
    if kind is ChooseTrump:
        return _apply_trump(state, action.seat, action.suit)  # type: ignore[union-attr]
    if kind is Deal:
        return _apply_deal(state, action)  # type: ignore[arg-type]
    raise TypeError(f"not a Wizard action: {action!r}")


def _name(state: GameState, seat: int) -> str:
    if 0 <= seat < len(state.players):
        return state.players[seat]
    return f"seat {seat}"


def _not_now(state: GameState, rule: str, action: str) -> WrongPhaseError:
    """The refusal of ``action`` ("play", "bid", "trump", "deal") in the current phase."""
    phase = state.phase
    if phase is Phase.GAME_OVER:
        return WrongPhaseError(rule, "game_over", action=action, rounds=state.round)
    if phase is Phase.ROUND_OVER:
        return WrongPhaseError(rule, "round_not_dealt", action=action)
    if phase is Phase.CHOOSE_TRUMP:
        dealer = _name(state, state.dealer)
        return WrongPhaseError(rule, "choosing_trump", action=action, dealer=dealer)
    if phase is Phase.BID:
        return WrongPhaseError(rule, "still_bidding", action=action)
    return WrongPhaseError(rule, "cards_in_play", action=action)


def _check_seat(state: GameState, seat: int) -> None:
    if type(seat) is not int or not 0 <= seat < len(state.players):
        shown = seat if type(seat) is int else repr(seat)
        raise NotYourTurnError("R2.1", "no_such_seat", seat=shown)


def _apply_play(state: GameState, seat: int, card: Card) -> GameState:
    (
        players, options, seed, first_dealer, phase, rnd, dealer, turn, dealt, hands,
        turned, trump, bids, played, leader, trick, follow, last_leader, tricks, scores,
        history,
    ) = state  # fmt: skip
    if phase is not _PLAY:
        raise _not_now(state, "R4.3" if phase is _BID else "R5.1", "play")
    if seat != turn:
        _check_seat(state, seat)
        assert turn is not None
        raise NotYourTurnError(
            "R5.1",
            "not_your_turn",
            player=_name(state, seat),
            waiting_for=_name(state, turn),
            seat=seat,
            turn=turn,
        )
    hand = hands[seat]
    try:
        i = hand.index(card)
    except ValueError:
        shown = card.code if isinstance(card, Card) else repr(card)
        raise CardNotHeldError(
            "R2.2", "card_not_held", player=_name(state, seat), seat=seat, card=shown
        ) from None
    if follow is not None and card < JESTER_ID and SUIT_OF[card] is not follow:
        lo, hi = _suit_run(hand, follow)
        if lo < hi:
            raise MustFollowSuitError(
                "R5.3",
                "must_follow_suit",
                player=_name(state, seat),
                seat=seat,
                suit=follow.value,
                card=hand[lo].code,
            )
    card = hand[i]  # the interned Card, even if an equal int was passed
    held = list(hands)
    held[seat] = hand[:i] + hand[i + 1 :]
    hands = tuple(held)
    n = len(players)
    if follow is None and card < JESTER_ID and not options.single_suit and WIZARD_ID not in trick:
        follow = SUIT_OF[card]
    trick += (card,)
    if len(trick) < n:
        return tuple.__new__(
            GameState,
            (
                players, options, seed, first_dealer, phase, rnd, dealer, (seat + 1) % n,
                dealt, hands, turned, trump, bids, played, leader, trick, follow,
                last_leader, tricks, scores, history,
            ),
        )  # fmt: skip
    if options.single_suit:
        index = _single_suit_winner(trick)
    else:
        index = _winner(trick, trump, follow, options.magic_twos)
    winner = (leader + index) % n
    won = list(tricks)
    won[winner] += 1
    tricks = tuple(won)
    played += (trick,)
    if hands[0]:
        return tuple.__new__(
            GameState,
            (
                players, options, seed, first_dealer, phase, rnd, dealer, winner, dealt,
                hands, turned, trump, bids, played, winner, (), None, leader, tricks,
                scores, history,
            ),
        )  # fmt: skip
    # The last trick of the round: score it (R6).
    # Play starts only once every seat has bid (R4.2), so no bid is None here any more.
    final_bids: tuple[int, ...] = bids  # type: ignore[assignment]
    points = tuple(map(score, final_bids, tricks))
    totals = tuple(map(add, scores, points))
    plays = tuple(chain.from_iterable(played))
    result = tuple.__new__(
        RoundResult,
        (rnd, dealer, dealt, turned, trump, final_bids, plays, tricks, points, totals),
    )
    over = rnd == rounds_in_game(options, n)
    return tuple.__new__(
        GameState,
        (
            players, options, seed, first_dealer, _GAME_OVER if over else _ROUND_OVER, rnd,
            dealer, None, dealt, hands, turned, trump, bids, played, winner, (), None, leader,
            tricks, totals, (*history, result),
        ),
    )  # fmt: skip


def _apply_bid(state: GameState, seat: int, bid: int) -> GameState:
    phase = state.phase
    if phase is not _BID:
        rule = "R4.3" if phase is _CHOOSE_TRUMP else "R4.2"
        raise _not_now(state, rule, "bid")
    _check_seat(state, seat)
    options = state.options
    bidding = options.bidding
    if bidding is _OPEN:
        if seat != state.turn:
            assert state.turn is not None
            if state.bids[seat] is not None:
                raise AlreadyBidError(
                    "R4.2",
                    "already_bid",
                    player=_name(state, seat),
                    seat=seat,
                    waiting_for=_name(state, state.turn),
                    turn=state.turn,
                )
            raise NotYourTurnError(
                "R4.2",
                "not_your_turn_to_bid",
                player=_name(state, seat),
                waiting_for=_name(state, state.turn),
                seat=seat,
                turn=state.turn,
            )
    elif state.bids[seat] is not None:
        rule = "R7.2" if bidding is Bidding.HIDDEN else "R7.3"
        raise AlreadyBidError(rule, "already_bid", player=_name(state, seat), seat=seat)
    k = state.round + 3 if options.single_suit else state.round  # round_tricks, inline
    if type(bid) is not int or not 0 <= bid <= k:
        shown = bid if type(bid) is int else repr(bid)
        raise BidOutOfRangeError("R4.1", "bid_out_of_range", bid=shown, round=state.round, max=k)
    # Only these two variants forbid a bid: skip the look-up in every other game.
    bad = forbidden_bid(state, seat) if options.uneven_bids or options.canadian else None
    if bad is not None and bid == bad[0]:
        uneven = bad[1] == "R7.1"
        raise ForbiddenBidError(
            bad[1],
            "bid_forbidden" if uneven else "bid_forbidden_canadian",
            bid=bid,
            tricks=k,
            kind="uneven_bids" if uneven else "canadian",
        )
    (
        players, options, seed, first_dealer, phase, rnd, dealer, turn, dealt, hands,
        turned, trump, bids, played, leader, trick, follow, last_leader, tricks, scores,
        history,
    ) = state  # fmt: skip
    made = list(bids)
    made[seat] = bid
    bids = tuple(made)
    n = len(players)
    if None not in bids:
        phase = _PLAY
        turn = leader = (dealer + 1) % n
    else:
        turn = (seat + 1) % n if bidding is _OPEN else None
    return tuple.__new__(
        GameState,
        (
            players, options, seed, first_dealer, phase, rnd, dealer, turn, dealt, hands,
            turned, trump, bids, played, leader, trick, follow, last_leader, tricks, scores,
            history,
        ),
    )  # fmt: skip


def _apply_trump(state: GameState, seat: int, suit: Suit) -> GameState:
    if state.phase is not Phase.CHOOSE_TRUMP:
        raise TrumpError("R3.3", "no_trump_to_choose", phase=state.phase.value)
    if seat != state.dealer:
        _check_seat(state, seat)
        raise NotYourTurnError(
            "R3.3",
            "only_dealer_chooses_trump",
            player=_name(state, seat),
            dealer=_name(state, state.dealer),
            seat=seat,
        )
    if not isinstance(suit, Suit):
        raise TrumpError("R3.3", "not_a_suit", suit=repr(suit))
    return state._replace(phase=Phase.BID, trump=suit, turn=_first_bidder(state))


def _first_bidder(state: GameState) -> int | None:
    if state.options.bidding is not Bidding.OPEN:
        return None
    return (state.dealer + 1) % len(state.players)


def _apply_deal(state: GameState, deal: Deal) -> GameState:
    if state.phase is not Phase.ROUND_OVER:
        if state.phase is Phase.GAME_OVER:
            raise _not_now(state, "R2.2", "deal")
        raise _not_now(state, "R2.3", "deal")
    n = len(state.players)
    round_no = state.round + 1
    if state.seed is not None:
        if deal != next_deal(state):
            raise InvalidDealError("R2.3", "not_the_seeded_deal", round=round_no)
    else:
        check_deal(deal, state.options, n, round_no)
    dealer = state.first_dealer if round_no == 1 else (state.dealer + 1) % n
    turned = deal.turned
    phase = Phase.BID
    trump: Suit | None = None
    if turned is not None:
        if turned == WIZARD_ID:
            phase = Phase.CHOOSE_TRUMP
        else:
            trump = SUIT_OF[turned]  # a Jester leaves no trump (R3.2)
    # A seeded deal equals the engine's own, whose hands are sorted already.
    hands = (
        tuple(map(tuple, deal.hands))
        if state.seed is not None
        else tuple(tuple(sorted(h)) for h in deal.hands)
    )
    (
        players, options, seed, first_dealer, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _,
        scores, history,
    ) = state  # fmt: skip
    if phase is Phase.CHOOSE_TRUMP:
        turn: int | None = dealer
    else:
        turn = (dealer + 1) % n if options.bidding is _OPEN else None
    return tuple.__new__(
        GameState,
        (
            players, options, seed, first_dealer, phase, round_no, dealer, turn, deal.hands,
            hands, turned, trump, (None,) * n, (), (dealer + 1) % n, (), None, 0, (0,) * n,
            scores, history,
        ),
    )  # fmt: skip


def check_deal(deal: Deal, options: Options, players: int, round_no: int) -> None:
    """Raise :class:`InvalidDealError` unless ``deal`` is a possible deal of that round."""
    if not 1 <= round_no <= rounds_in_game(options, players):
        rounds = rounds_in_game(options, players)
        raise InvalidDealError(
            "R2.2", "no_such_round", players=players, rounds=rounds, round=round_no
        )
    k = tricks_in_round(options, round_no)
    if len(deal.hands) != players:
        raise InvalidDealError("R2.2", "hands_for_players", hands=len(deal.hands), players=players)
    for seat, hand in enumerate(deal.hands):
        if len(hand) != k:
            raise InvalidDealError(
                "R7.7" if options.single_suit else "R2.2",
                "hand_size",
                seat=seat,
                count=len(hand),
                round=round_no,
                deals=k,
            )
        for card in hand:
            if not isinstance(card, Card):
                raise InvalidDealError("R1.4", "not_a_card", card=repr(card))
    if options.single_suit:
        if deal.turned is not None:
            raise InvalidDealError("R7.7", "turned_in_single_suit")
        for seat, hand in enumerate(deal.hands):
            own = Counter(single_suit_deck(SUITS[seat]))
            for card, count in Counter(hand).items():
                if count > own[card]:
                    raise InvalidDealError(
                        "R7.7",
                        "wrong_single_suit_deck",
                        seat=seat,
                        suit=SUITS[seat].value,
                        copies=own[card],
                        card=card.code,
                    )
        return
    used = players * k
    if used < len(STANDARD_DECK) and deal.turned is None:
        raise InvalidDealError("R3.1", "card_must_be_turned", round=round_no)
    if used == len(STANDARD_DECK) and deal.turned is not None:
        raise InvalidDealError("R3.4", "nothing_to_turn")
    cards = [c for hand in deal.hands for c in hand]
    if deal.turned is not None:
        if not isinstance(deal.turned, Card):
            raise InvalidDealError("R1.4", "not_a_card", card=repr(deal.turned))
        cards.append(deal.turned)
    deck = Counter(STANDARD_DECK)
    for card, count in Counter(cards).items():
        if count > deck[card]:
            raise InvalidDealError(
                "R1.1", "card_dealt_too_often", card=card.code, count=count, copies=deck[card]
            )
