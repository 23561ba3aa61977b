"""Game records (RULES.md §9): export any game, import and replay one with full validation.

>>> text = '''{"format": "wizard-record/1", "players": ["Mattia", "Giulia", "Luca"],
...   "first_dealer": 0, "rounds": [{"hands": [["B7"], ["N"], ["Z"]], "turned": "R3",
...   "trump": "R", "bids": [0, 1, 1], "plays": ["N", "Z", "B7"]}]}'''
>>> replay(load(text)).scores
(20, -10, 30)
"""

from __future__ import annotations

import json
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from wizard.cards import WIZARD_ID, Card, Suit
from wizard.errors import OptionsError, RecordError, RuleError
from wizard.options import Bidding, Options, rounds_in_game, tricks_in_round
from wizard.rules import apply, bidding_order, new_game
from wizard.state import Bid, ChooseTrump, Deal, GameState, Phase, Play

FORMAT = "wizard-record/1"
MAX_RECORD_BYTES: Final = 5 * 1024 * 1024
"""The largest record read (5 MB). The longest game, 6 players with 32-character names,
takes under 20 KB; anything this large is refused before it is parsed, whose time and
memory grow with the input."""


class RoundRecord(BaseModel):
    """One round: the deal, the trump, the bids in seat order and the cards in play order."""

    model_config = ConfigDict(extra="forbid")

    hands: list[list[StrictStr]]
    turned: StrictStr | None = None
    trump: StrictStr | None = None
    bids: list[StrictInt | None] = Field(default_factory=list)
    plays: list[StrictStr] = Field(default_factory=list)


class GameRecord(BaseModel):
    """A whole game, finished or not, in the portable format of RULES.md §9."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["wizard-record/1"] = "wizard-record/1"
    players: list[StrictStr]
    options: Options = Field(default_factory=Options)
    first_dealer: StrictInt
    rounds: list[RoundRecord] = Field(default_factory=list)


class UnreadableRecordError(RecordError):
    """The input is not a JSON document at all (as opposed to an illegal record)."""


class RecordTooLargeError(UnreadableRecordError):
    """The input is larger than :data:`MAX_RECORD_BYTES`; it was not parsed."""

    def __init__(self, size: int | None = None) -> None:
        found = f" ({size:,} bytes)" if size is not None else ""
        super().__init__(
            f"too large for a game record{found}: the limit is "
            f"{MAX_RECORD_BYTES // (1024 * 1024)} MB ({MAX_RECORD_BYTES:,} bytes)"
        )


class _DuplicateKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys all differ: a record that says one thing twice is refused,
    since readers disagree on which of the two counts."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _DuplicateKeyError(key)
        found[key] = value
    return found


# --- export -------------------------------------------------------------------------------


def to_record(state: GameState) -> GameRecord:
    """The record of ``state``: every scored round, and the current one as far as it went."""
    rounds = [
        RoundRecord(
            hands=[_codes(h) for h in r.dealt],
            turned=_code(r.turned),
            trump=r.trump.value if r.trump else None,
            bids=list(r.bids),
            plays=_codes(r.plays),
        )
        for r in state.history
    ]
    if state.phase in (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY):
        rounds.append(
            RoundRecord(
                hands=[_codes(h) for h in state.dealt],
                turned=_code(state.turned),
                trump=state.trump.value if state.trump else None,
                bids=list(state.bids),
                plays=_codes(state.plays),
            )
        )
    return GameRecord(
        players=list(state.players),
        options=state.options,
        first_dealer=state.first_dealer,
        rounds=rounds,
    )


def dumps(state: GameState, *, indent: int | None = None) -> str:
    """The record of ``state`` as JSON text."""
    return to_record(state).model_dump_json(indent=indent)


def _codes(cards: tuple[Card, ...]) -> list[str]:
    return [c.code for c in cards]


def _code(card: Card | None) -> str | None:
    return None if card is None else card.code


# --- import ---------------------------------------------------------------------------------


def load(text: str | bytes) -> GameRecord:
    """Parse record JSON; :class:`UnreadableRecordError` if it is not JSON at all.

    Refused unread: a text over :data:`MAX_RECORD_BYTES` (:class:`RecordTooLargeError`);
    refused as unreadable: an object with the same key twice.
    """
    if len(text) > MAX_RECORD_BYTES:
        raise RecordTooLargeError(len(text) if isinstance(text, bytes) else None)
    if isinstance(text, str) and len(text.encode("utf-8", "surrogatepass")) > MAX_RECORD_BYTES:
        raise RecordTooLargeError()
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys)
    except _DuplicateKeyError as e:
        raise UnreadableRecordError(
            f"the key {e.key!r} appears twice in one object: a record says each thing once"
        ) from None
    except (ValueError, RecursionError) as e:
        # ValueError covers JSONDecodeError, UnicodeDecodeError and over-long integers;
        # RecursionError, absurdly deep nesting: all of them mean "not a JSON document".
        raise UnreadableRecordError(f"not a JSON document: {e}") from None
    try:
        return GameRecord.model_validate(data)
    except ValidationError as e:
        raise RecordError(_describe(e)) from None


def _describe(error: ValidationError) -> str:
    problems = []
    for item in error.errors()[:3]:
        where = ".".join(str(p) for p in item["loc"]) or "the record"
        problems.append(f"{where}: {item['msg']}")
    more = error.error_count() - len(problems)
    tail = f" (and {more} more)" if more > 0 else ""
    return "not a valid wizard-record/1 document: " + "; ".join(problems) + tail


def replay(record: GameRecord) -> GameState:
    """Replay ``record`` under the rules; :class:`RecordError` names round, action and rule."""
    try:
        state = new_game(record.players, record.options, first_dealer=record.first_dealer)
    except OptionsError as e:
        raise RecordError(e.message, rule=e.rule) from None
    n = len(record.players)
    total = rounds_in_game(record.options, n)
    if len(record.rounds) > total:
        raise RecordError(
            f"a game of {n} players has {total} rounds; the record has {len(record.rounds)}",
            round=total + 1,
            action="the deal",
            rule="R2.2",
        )
    for number, rnd in enumerate(record.rounds, start=1):
        if number > 1 and state.phase is not Phase.ROUND_OVER:
            raise RecordError(
                f"round {number - 1} is not finished, so round {number} cannot be dealt",
                round=number,
                action="the deal",
                rule="R2.2",
            )
        state = _replay_round(state, number, rnd)
    return state


def _card(code: str, round_no: int, where: str) -> Card:
    try:
        return Card.parse(code)
    except ValueError as e:
        raise RecordError(str(e), round=round_no, action=where, rule="R1.4") from None


def _replay_round(state: GameState, number: int, rnd: RoundRecord) -> GameState:
    n = len(state.players)
    hands = tuple(
        tuple(_card(code, number, f"seat {seat}'s hand") for code in hand)
        for seat, hand in enumerate(rnd.hands)
    )
    turned = None if rnd.turned is None else _card(rnd.turned, number, "the turned card")
    state = _step(state, Deal(hands, turned), number, "the deal")

    trump = None
    if rnd.trump is not None:
        try:
            trump = Suit.parse(rnd.trump)
        except ValueError as e:
            raise RecordError(str(e), round=number, action="the trump", rule="R1.2") from None
    if state.phase is Phase.CHOOSE_TRUMP:
        if trump is None:
            if any(b is not None for b in rnd.bids) or rnd.plays:
                raise RecordError(
                    "a Wizard was turned up but no trump was chosen before the bids",
                    round=number,
                    action="the trump",
                    rule="R3.3",
                )
            return state
        state = _step(state, ChooseTrump(state.dealer, trump), number, "the dealer's trump")
    elif trump != state.trump:
        assert turned is None or turned != WIZARD_ID
        if state.options.single_suit:
            rule = "R7.7"  # the single-suit game has no trump at all
        else:
            rule = "R3.4" if turned is None else "R3.2" if turned.is_jester else "R3.1"
        said = trump.value if trump else "none"
        should = state.trump.value if state.trump else "none"
        raise RecordError(
            f"trump {said} disagrees with the turned card "
            f"{turned.code if turned else '(none)'}: trump is {should}",
            round=number,
            action="the trump",
            rule=rule,
        )

    if len(rnd.bids) > n:
        raise RecordError(
            f"{len(rnd.bids)} bids for {n} players", round=number, action="the bids", rule="R4.1"
        )
    bids = list(rnd.bids) + [None] * (n - len(rnd.bids))
    order = bidding_order(state)
    missing: int | None = None
    for seat in order:
        made = bids[seat]
        if made is None:
            missing = seat if missing is None else missing
            continue
        if missing is not None and state.options.bidding is Bidding.OPEN:
            raise RecordError(
                f"{state.players[seat]} has a bid but {state.players[missing]}, "
                "who bids before them, has none",
                round=number,
                action=f"{state.players[seat]}'s bid",
                rule="R4.2",
            )
        state = _step(state, Bid(seat, made), number, f"{state.players[seat]}'s bid of {made}")

    if rnd.plays and state.phase is not Phase.PLAY:
        raise RecordError(
            "cards are played before every player has bid",
            round=number,
            action="the first play",
            rule="R4.1",
        )
    k = tricks_in_round(state.options, number)
    if len(rnd.plays) > n * k:
        raise RecordError(
            f"{len(rnd.plays)} cards played; a round of {k} tricks has {n * k}",
            round=number,
            action="the plays",
            rule="R2.2",
        )
    for i, code in enumerate(rnd.plays):
        player = state.turn
        assert player is not None
        where = f"play {i + 1} (trick {i // n + 1}, {state.players[player]}'s {code})"
        state = _step(state, Play(player, _card(code, number, where)), number, where)
    return state


def _step(
    state: GameState, action: Deal | ChooseTrump | Bid | Play, rnd: int, what: str
) -> GameState:
    try:
        return apply(state, action)
    except RuleError as e:
        raise RecordError(e.message, round=rnd, action=what, rule=e.rule) from None
