"""Bad input: unreadable and illegal records, and illegal actions, each refused clearly."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.engine.helpers import NAMES, R64_PLAYERS, R64_ROUND_1, WriteRecord, record_dict, table
from wizard.__main__ import main
from wizard.cards import Card
from wizard.errors import NotYourTurnError, RecordError
from wizard.options import Bidding, Options
from wizard.record import UnreadableRecordError, dumps, load, replay
from wizard.rules import apply, legal_actions, new_game
from wizard.state import Bid, GameState, Phase, Play
from wizard.view import view

Record = dict[str, Any]


def refuse(record: Record | str) -> RecordError:
    """Replay a record that must be illegal; the error it raises."""
    text = record if isinstance(record, str) else json.dumps(record)
    with pytest.raises(RecordError) as info:
        replay(load(text))
    assert not isinstance(info.value, UnreadableRecordError)
    return info.value


def cli_refuses(
    record: Record | str, write_record: WriteRecord, capsys: pytest.CaptureFixture[str]
) -> str:
    """Run ``python -m wizard replay`` on the record: exit 1, message on stderr, no traceback."""
    path = write_record(record)
    assert main(["replay", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert "Traceback" not in err and "illegal record" in err
    return err


# --- unreadable input ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('{"players": [', id="truncated"),
        pytest.param("", id="empty"),
        pytest.param("not json at all", id="prose"),
        pytest.param("{'players': ['a']}", id="single-quotes"),
        pytest.param(b"\xff\xfe\x00\xd8garbage", id="bad-bytes"),
        pytest.param("[" * 100_000, id="deeply-nested"),
        pytest.param('{"players": ["a", "b", "c"], "first_dealer": ' + "1" * 5000 + "}",
                     id="huge-number"),
    ],
)  # fmt: skip
def test_malformed_json_is_unreadable(
    text: str | bytes, write_record: WriteRecord, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(UnreadableRecordError) as info:
        load(text)
    assert "JSON" in str(info.value)
    path = write_record(text)
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err and str(path) in err


@pytest.mark.parametrize(
    ("data", "words"),
    [
        pytest.param([1, 2], "dictionary", id="not-an-object"),
        pytest.param(None, "dictionary", id="null"),
        pytest.param({"first_dealer": 0}, "players", id="no-players"),
        pytest.param({"players": ["a", "b", "c"]}, "first_dealer", id="no-first-dealer"),
        pytest.param({"players": ["a", 2, "c"], "first_dealer": 0}, "players.1",
                     id="name-not-text"),
        pytest.param({"format": "wizard-record/2", "players": ["a", "b", "c"], "first_dealer": 0},
                     "format", id="wrong-format"),
        pytest.param({"players": ["a", "b", "c"], "first_dealer": 0,
                      "options": {"turbo": True}}, "turbo", id="unknown-option"),
        pytest.param({"players": ["a", "b", "c"], "first_dealer": 0,
                      "options": {"bidding": "whispered"}}, "bidding", id="unknown-bidding"),
        pytest.param({"players": ["a", "b", "c"], "first_dealer": 0,
                      "rounds": [{"hands": [["B1"], ["B2"], ["B3"]], "bids": [0, "1", 0]}]},
                     "bids", id="bid-not-a-number"),
        pytest.param({"players": ["a", "b", "c"], "first_dealer": 0,
                      "rounds": [{"hands": [["B1"], ["B2"], ["B3"]], "extra": 1}]},
                     "extra", id="unknown-round-field"),
    ],
)  # fmt: skip
def test_structurally_wrong_records_are_refused(
    data: Any, words: str, write_record: WriteRecord, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(RecordError) as info:
        load(json.dumps(data))
    assert not isinstance(info.value, UnreadableRecordError)
    assert "wizard-record/1" in str(info.value) and words in str(info.value)
    err = cli_refuses(json.dumps(data), write_record, capsys)
    assert words in err


# --- illegal records: one clear message each, naming round and rule ----------------------------


def with_round(
    players: list[str], rnd: Record, options: Record | None = None, first_dealer: int = 0
) -> Record:
    return record_dict(players, [rnd], options=options, first_dealer=first_dealer)


def r1(**changes: Any) -> Record:
    """Round 1 of R6.4 (Mattia deals; Giulia leads N, Luca wins with Z), with changes."""
    return with_round(R64_PLAYERS, {**R64_ROUND_1, **changes})


R2_BASE = {
    "hands": [["Z", "B1"], ["R1", "B2"], ["R13", "B13"]],
    "turned": "G1",
    "trump": "G",
    "bids": [2, 0, 0],
    "plays": ["R13", "Z", "R1", "B1", "B2", "B13"],
}


def r2(**changes: Any) -> Record:
    """Round 1 of R6.4, then its round 2 (Giulia deals, Luca leads) with changes."""
    return record_dict(R64_PLAYERS, [R64_ROUND_1, {**R2_BASE, **changes}])


ILLEGAL: list[Any] = [
    pytest.param(r1(hands=[["B14"], ["N"], ["Z"]]), "R1.4", 1, ["B14", "seat 0's hand"],
                 id="R1_4-unknown-card-in-hand"),
    pytest.param(r1(turned="X3"), "R1.4", 1, ["X3", "turned"], id="R1_4-unknown-turned-card"),
    pytest.param(r1(plays=["N", "W", "B7"]), "R1.4", 1, ["'W'", "play 2"],
                 id="R1_4-unknown-card-played"),
    pytest.param(r1(hands=[["B7", "B8"], ["N"], ["Z"]]), "R2.2", 1,
                 ["seat 0", "hand of 2", "hold 1"], id="R2_2-hand-too-big"),
    pytest.param(r1(hands=[[], ["N"], ["Z"]]), "R2.2", 1, ["seat 0", "hand of 0"],
                 id="R2_2-hand-empty"),
    pytest.param(r2(hands=[["Z", "B1"], ["R1"], ["R13", "B13"]]), "R2.2", 2,
                 ["seat 1", "hand of 1", "hold 2"], id="R2_2-hand-too-small-round-2"),
    pytest.param(r1(hands=[["B7"], ["N"]]), "R2.2", 1, ["2 hands", "3 players"],
                 id="R2_2-missing-hand"),
    pytest.param(r1(hands=[["R5"], ["R5"], ["Z"]]), "R1.1", 1, ["R5", "2 times"],
                 id="R1_1-card-dealt-twice"),
    pytest.param(r1(turned="B7"), "R1.1", 1, ["B7", "2 times"],
                 id="R1_1-turned-card-also-in-a-hand"),
    pytest.param(r2(hands=[["Z", "Z"], ["Z", "Z"], ["Z", "B13"]], bids=[], plays=[]), "R1.1", 2,
                 ["Z", "5 times", "4"], id="R1_1-five-wizards"),
    pytest.param(r1(plays=["B7", "Z", "N"]), "R2.2", 1, ["Giulia does not hold B7", "play 1"],
                 id="R5_1-play-by-the-wrong-seat"),
    pytest.param(r1(plays=["N", "B8", "B7"]), "R2.2", 1, ["Luca does not hold B8", "play 2"],
                 id="card-not-held"),
    pytest.param(r2(plays=["R13", "Z", "B2", "B1", "R1", "B13"]), "R5.3", 2,
                 ["Giulia", "must follow suit R", "play 3"], id="R5_3-not-following-suit"),
    pytest.param(r1(bids=[0, 2, 1]), "R4.1", 1, ["0 to 1", "2"], id="R4_1-bid-too-high"),
    pytest.param(r1(bids=[0, -1, 1]), "R4.1", 1, ["0 to 1", "-1"], id="R4_1-negative-bid"),
    pytest.param(r1(bids=[0, None, 1], plays=[]), "R4.2", 1, ["Luca", "Giulia"],
                 id="R4_2-bid-out-of-order"),
    pytest.param(r1(bids=[None, 1, 1]), "R4.1", 1, ["before every player has bid"],
                 id="R4-plays-before-all-bids"),
    pytest.param(r1(plays=["N", "Z", "B7", "B7"]), "R2.2", 1, ["4 cards played"],
                 id="R2_2-too-many-plays"),
    pytest.param(with_round(R64_PLAYERS, {**R64_ROUND_1, "bids": [1, 0, 0]},
                            {"uneven_bids": True}), "R7.1", 1, ["uneven", "Mattia"],
                 id="R7_1-forbidden-bid"),
    pytest.param(r1(trump="B"), "R3.1", 1, ["trump B", "R3", "trump is R"],
                 id="R3_1-trump-disagrees-with-turned-card"),
    pytest.param(r1(trump=None), "R3.1", 1, ["trump none", "R3"],
                 id="R3_1-trump-missing"),
    pytest.param(r1(turned="N", trump="R"), "R3.2", 1, ["trump R", "N", "trump is none"],
                 id="R3_2-trump-after-turned-jester"),
    pytest.param(r1(turned="Z", trump=None), "R3.3", 1, ["Wizard", "no trump was chosen"],
                 id="R3_3-no-trump-chosen-after-wizard"),
    pytest.param(r1(trump="Q"), "R1.2", 1, ["'Q'"], id="R1_2-unknown-trump-letter"),
    pytest.param(r1(turned=None, trump=None), "R3.1", 1, ["pile", "turned up"],
                 id="R3_1-no-turned-card-before-the-last-round"),
    pytest.param(record_dict(R64_PLAYERS, [{**R64_ROUND_1, "plays": ["N"]},
                                           R2_BASE]), "R2.2", 2, ["not finished"],
                 id="R2_2-incomplete-round-followed-by-another"),
    pytest.param(record_dict(R64_PLAYERS, [R64_ROUND_1] * 21), "R2.2", 21,
                 ["20 rounds", "21"], id="R2_2-too-many-rounds"),
    pytest.param(with_round(["A", "B", "C"], {"hands": [["B1", "B2", "B3", "B4"],
                                                        ["R1", "R2", "R3", "R4"],
                                                        ["G1", "G2", "G3", "G4"]],
                                              "turned": "Y1"}, {"single_suit": True}),
                 "R7.7", 1, ["turned"], id="R7_7-turned-card-in-single-suit"),
    pytest.param(with_round(["A", "B", "C"], {"hands": [["B1", "B2", "B3", "B4"],
                                                        ["R1", "R2", "R3", "R4"],
                                                        ["G1", "G2", "G3", "G4"]],
                                              "trump": "B"}, {"single_suit": True}),
                 "R7.7", 1, ["trump"], id="R7_7-trump-in-single-suit"),
    pytest.param(with_round(["A", "B", "C"], {"hands": [["R1", "B2", "B3", "B4"],
                                                        ["R5", "R2", "R3", "R4"],
                                                        ["G1", "G2", "G3", "G4"]]},
                            {"single_suit": True}),
                 "R7.7", 1, ["seat 0", "B deck"], id="R7_7-card-of-another-deck"),
]  # fmt: skip


@pytest.mark.parametrize(("record", "rule", "round_no", "words"), ILLEGAL)
def test_illegal_record_is_refused_with_round_rule_and_reason(
    *,
    record: Record,
    rule: str,
    round_no: int,
    words: list[str],
    write_record: WriteRecord,
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = refuse(record)
    text = str(err)
    assert err.rule == rule, text
    assert err.round == round_no, text
    assert f"round {round_no}" in text and rule in text
    for word in words:
        assert word in text, (word, text)
    assert err.message and err.action
    stderr = cli_refuses(record, write_record, capsys)
    assert text in stderr


def test_every_illegal_record_case_has_its_own_message() -> None:
    messages = [str(refuse(p.values[0])) for p in ILLEGAL]
    assert len(set(messages)) == len(messages)


@pytest.mark.parametrize(
    ("players", "options", "first_dealer", "rule"),
    [
        pytest.param(["A", "B"], None, 0, "R2.1", id="R2_1-two-players"),
        pytest.param(list("ABCDEFG"), None, 0, "R2.1", id="R2_1-seven-players"),
        pytest.param(["A", "B", "C"], None, 3, "R2.3", id="R2_3-no-such-first-dealer"),
        pytest.param(["A", "B", "C"], {"uneven_bids": True, "bidding": "secret"}, 0, "R7.8",
                     id="R7_8-uneven-with-secret-bids"),
        pytest.param(list("ABCDE"), {"single_suit": True}, 0, "R7.8",
                     id="R7_8-single-suit-with-5"),
    ],
)  # fmt: skip
def test_records_that_cannot_be_set_up_are_refused(
    *,
    players: list[str],
    options: Record | None,
    first_dealer: int,
    rule: str,
    write_record: WriteRecord,
    capsys: pytest.CaptureFixture[str],
) -> None:
    record = record_dict(players, [], options=options, first_dealer=first_dealer)
    err = refuse(record)
    assert err.rule == rule
    assert rule in cli_refuses(record, write_record, capsys)


# --- R7.5 and R3.4 need a whole game: found by playing seeded games ---------------------------


def last_round_record(want: Callable[[GameState], bool]) -> Record:
    """The record of a six-player Canadian game stopped at the last round's bidding."""
    options = Options(canadian=True)
    for seed in range(500):
        rng = random.Random(seed)
        state = new_game(NAMES[:6], options, seed=seed)
        while not (state.round == 10 and state.phase is Phase.BID):
            state = apply(state, rng.choice(legal_actions(state)))
        if want(state):
            record: Record = json.loads(dumps(state))
            return record
    raise AssertionError("no game found")  # pragma: no cover


def dealer_leads(alone: bool) -> Callable[[GameState], bool]:
    def check(state: GameState) -> bool:
        top = max(state.scores)
        return state.scores[state.dealer] == top and (state.scores.count(top) == 1) == alone

    return check


def canadian_bids(record: Record, dealer_bid: int) -> Record:
    """Every non-dealer bids 0 in the last round, the dealer ``dealer_bid``."""
    record = copy.deepcopy(record)
    dealer = (record["first_dealer"] + 9) % 6
    record["rounds"][-1]["bids"] = [dealer_bid if s == dealer else 0 for s in range(6)]
    return record


def test_R7_5_forbidden_bid_in_a_record(
    write_record: WriteRecord, capsys: pytest.CaptureFixture[str]
) -> None:
    base = last_round_record(dealer_leads(alone=True))
    assert len(base["rounds"]) == 10
    err = refuse(canadian_bids(base, 10))
    assert err.rule == "R7.5" and err.round == 10
    assert "Canadian" in str(err) and "round 10" in str(err)
    assert "Canadian" in cli_refuses(canadian_bids(base, 10), write_record, capsys)
    # any other bid is fine
    assert replay(load(json.dumps(canadian_bids(base, 9)))).phase is Phase.PLAY


def test_R7_5_shared_lead_allows_the_bid_in_a_record() -> None:
    base = last_round_record(dealer_leads(alone=False))
    assert replay(load(json.dumps(canadian_bids(base, 10)))).phase is Phase.PLAY


def test_R3_4_trump_in_the_last_round_is_refused() -> None:
    base = last_round_record(lambda state: True)
    assert base["rounds"][-1]["turned"] is None
    bad = copy.deepcopy(base)
    bad["rounds"][-1]["trump"] = "B"
    err = refuse(bad)
    assert err.rule == "R3.4" and err.round == 10
    assert "trump B" in str(err)
    bad["rounds"][-1]["trump"] = None
    bad["rounds"][-1]["turned"] = "B1"
    err = refuse(bad)
    assert err.rule == "R3.4" and err.round == 10
    assert "no card is left" in str(err)


# --- illegal actions through apply ------------------------------------------------------------


def test_play_by_the_wrong_seat_through_apply() -> None:
    state = table(["B1", "R1", "G1"], "Y1", dealer=0)
    for _ in range(3):
        state = apply(state, legal_actions(state)[0])
    assert state.phase is Phase.PLAY and state.turn == 1
    with pytest.raises(NotYourTurnError) as info:
        apply(state, Play(2, Card.parse("G1")))
    assert info.value.rule == "R5.1"
    assert "Bo's turn" in info.value.message and "not Cy's" in info.value.message
    with pytest.raises(NotYourTurnError) as info2:
        apply(state, Play(7, Card.parse("G1")))
    assert "no seat 7" in info2.value.message


def test_bid_by_a_seat_that_does_not_exist() -> None:
    state = table(["B1", "R1", "G1"], "Y1", options=Options(bidding=Bidding.HIDDEN))
    with pytest.raises(NotYourTurnError) as info:
        apply(state, Bid(9, 0))
    assert "no seat 9" in info.value.message
    with pytest.raises(ValueError, match="no seat 9"):
        view(state, 9)


def test_unknown_action_is_a_type_error() -> None:
    state = table(["B1", "R1", "G1"], "Y1")
    with pytest.raises(TypeError, match="not a Wizard action"):
        apply(state, "bid 1")  # type: ignore[arg-type]
