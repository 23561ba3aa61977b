"""R5: leading, the suit to follow, following suit, and who wins a trick."""

from __future__ import annotations

import pytest

from tests.engine.helpers import bid_all, play, table
from wizard.cards import Card, Suit, parse_cards
from wizard.errors import CardNotHeldError, MustFollowSuitError, NotYourTurnError
from wizard.rules import apply, legal_actions, suit_to_follow, trick_winner
from wizard.state import Phase, Play
from wizard.view import view


def plays(*codes: str) -> set[Play]:
    """Helper for legal-action sets: ``plays("1:B3", "1:Z")``."""
    out = set()
    for code in codes:
        seat, card = code.split(":")
        out.add(Play(int(seat), Card.parse(card)))
    return out


# --- R5.1 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_R5_1_left_of_dealer_leads_the_first_trick(dealer: int) -> None:
    state = table(["B1", "B2", "B3", "B4"], "R1", dealer=dealer)
    state = bid_all(state, [0, 0, 0, 0])
    assert state.phase is Phase.PLAY
    assert state.turn == state.leader == (dealer + 1) % 4


def test_R5_1_winner_of_a_trick_leads_the_next() -> None:
    # Ann deals; Bo leads trick 1 and Cy wins it with a Wizard, so Cy leads trick 2.
    state = table(["B1 R1", "B5 G5", "Z Y5"], "N")
    state = bid_all(state, [0, 0, 0])
    state = play(state, "B5", "Z", "B1")
    assert state.tricks == (0, 0, 1)
    assert state.turn == 2 and state.leader == 2 and state.last_winner == 2
    with pytest.raises(NotYourTurnError) as info:
        apply(state, Play(1, Card.parse("G5")))
    assert info.value.rule == "R5.1"
    # Cy leads Y5; the others cannot follow; Cy wins again.
    state = play(state, "Y5", "R1", "G5")
    assert state.tricks == (0, 0, 2)
    assert state.phase is Phase.ROUND_OVER


# --- R5.2 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trick", "follow"),
    [
        pytest.param("", None, id="R5_2-empty-trick"),
        pytest.param("B3", "B", id="R5_2-first-card-sets-suit"),
        pytest.param("B3 R9 G13", "B", id="R5_2-later-suits-do-not-change-it"),
        pytest.param("N", None, id="R5_2-only-jester-no-suit-yet"),
        pytest.param("N N", None, id="R5_2-only-jesters-no-suit-yet"),
        pytest.param("N R5", "R", id="R5_2-led-jester-next-suited-card-sets-suit"),
        pytest.param("N N G2 Y13", "G", id="R5_2-two-jesters-then-suit"),
        pytest.param("Z", None, id="R5_2-led-wizard"),
        pytest.param("Z B3 R4", None, id="R5_2-led-wizard-no-suit-to-follow"),
        pytest.param("N Z B3", None, id="R5_2-wizard-first-non-jester-no-suit"),
        pytest.param("B3 Z", "B", id="R5_2-wizard-after-suited-card-keeps-suit"),
        pytest.param("N B3 Z Y1", "B", id="R5_2-jester-suit-then-wizard"),
    ],
)
def test_R5_2_suit_to_follow(trick: str, follow: str | None) -> None:
    expected = None if follow is None else Suit(follow)
    assert suit_to_follow(parse_cards(trick)) is expected


def test_R5_2_suit_to_follow_during_play() -> None:
    # Bo leads a Jester: no suit yet. Cy plays R5: red is the suit to follow for Di and Ann.
    state = table(["R9 B1", "N B2", "R5 B3", "B4 G4"], "Y1", dealer=0)
    state = bid_all(state, [0, 0, 0, 0])
    state = play(state, "N")
    assert state.follow is None
    assert set(legal_actions(state)) == plays("2:R5", "2:B3")
    state = play(state, "R5")
    assert state.follow is Suit.DWARVES
    assert view(state, 0).follow is Suit.DWARVES
    # Di has no red: anything goes; Ann has red: must play R9
    assert set(legal_actions(state)) == plays("3:B4", "3:G4")
    state = play(state, "G4")
    assert set(legal_actions(state)) == plays("0:R9")


def test_R5_2_led_wizard_leaves_no_suit_to_follow_in_play() -> None:
    state = table(["R9 B1", "Z B2", "R5 B3"], "Y1", dealer=0)
    state = bid_all(state, [0, 0, 0])
    state = play(state, "Z")
    assert state.follow is None
    assert set(legal_actions(state)) == plays("2:R5", "2:B3")
    state = play(state, "B3")
    assert state.follow is None  # a suited card after the Wizard sets nothing
    assert set(legal_actions(state)) == plays("0:R9", "0:B1")


# --- R5.3 / R5.4 / R5.5 -----------------------------------------------------------------------


def test_R5_3_holder_of_the_suit_must_follow() -> None:
    # Bo leads B5; Cy holds B2 and must play it (or a Wizard/Jester, none here).
    state = table(["R1 R2", "B5 B6", "B2 G9"], "Y1")
    state = bid_all(state, [0, 0, 0])
    state = play(state, "B5")
    assert legal_actions(state) == (Play(2, Card.parse("B2")),)
    with pytest.raises(MustFollowSuitError) as info:
        apply(state, Play(2, Card.parse("G9")))
    err = info.value
    assert err.rule == "R5.3"
    assert "follow suit" in err.message and "B" in err.message and "Cy" in err.message


def test_R5_3_without_the_suit_any_card_may_be_played() -> None:
    state = table(["R1 R2", "B5 B6", "Y2 G9"], "Y1")
    state = bid_all(state, [0, 0, 0])
    state = play(state, "B5")
    assert set(legal_actions(state)) == plays("2:Y2", "2:G9")
    after = apply(state, Play(2, Card.parse("G9")))
    assert after.trick == parse_cards("B5 G9")


def test_a_card_not_held_is_refused() -> None:
    state = bid_all(table(["R1", "B5", "Y2"], "G1"), [0, 0, 0])
    with pytest.raises(CardNotHeldError) as info:
        apply(state, Play(1, Card.parse("B6")))
    assert "Bo does not hold B6" in info.value.message
    assert info.value.rule.startswith("R")


def test_R5_4_wizard_and_jester_may_always_be_played() -> None:
    state = table(["R1 R2 R3", "B5 B6 B7", "B2 Z N"], "Y1")
    state = bid_all(state, [0, 0, 0])
    state = play(state, "B5")
    assert set(legal_actions(state)) == plays("2:B2", "2:Z", "2:N")
    assert apply(state, Play(2, Card.parse("Z"))).trick == parse_cards("B5 Z")
    assert apply(state, Play(2, Card.parse("N"))).trick == parse_cards("B5 N")


def test_R5_4_wizard_and_jester_may_lead() -> None:
    state = bid_all(table(["R1 R2", "Z N", "B2 B3"], "Y1"), [0, 0, 0])
    assert set(legal_actions(state)) == plays("1:Z", "1:N")


def test_R5_4_two_wizards_are_listed_once() -> None:
    state = bid_all(table(["R1 R2 R3", "Z Z B1", "G1 G2 G3"], "Y1"), [0, 0, 0])
    assert set(legal_actions(state)) == plays("1:B1", "1:Z")
    assert len(legal_actions(state)) == 2


def test_R5_5_trump_is_not_compulsory() -> None:
    # Trump Y. Bo leads B5; Cy has no B but holds Y2 and G9: both are legal.
    state = bid_all(table(["R1 R2", "B5 B6", "Y2 G9"], "Y1"), [0, 0, 0])
    state = play(state, "B5")
    assert set(legal_actions(state)) == plays("2:Y2", "2:G9")
    state = play(state, "G9", "R1")
    assert state.tricks == (0, 1, 0)


def test_R5_5_trump_does_not_replace_following_suit() -> None:
    # Trump Y. Bo leads B5; Cy holds B2 and Y2: the trump may not be played instead.
    state = bid_all(table(["R1 R2", "B5 B6", "B2 Y2"], "Y1"), [0, 0, 0])
    state = play(state, "B5")
    with pytest.raises(MustFollowSuitError) as info:
        apply(state, Play(2, Card.parse("Y2")))
    assert info.value.rule == "R5.3"


# --- R5.6 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trick", "trump", "winner"),
    [
        pytest.param("B3 Z R13 Z", "R", 1, id="R5_6-first-wizard-wins"),
        pytest.param("Z Z Z", None, 0, id="R5_6-led-wizard-wins"),
        pytest.param("N Z B13", "B", 1, id="R5_6-wizard-after-jester-wins"),
        pytest.param("B13 R2 B12", "R", 1, id="R5_6-trump-beats-suit-to-follow"),
        pytest.param("B13 R2 R11 R5", "R", 2, id="R5_6-highest-trump-wins"),
        pytest.param("R3 B13 R2", "R", 0, id="R5_6-led-trump-is-trump"),
        pytest.param("B7 G13 B9 Y13", "R", 2, id="R5_6-highest-of-suit-to-follow"),
        pytest.param("B7 G13 B9 Y13", None, 2, id="R5_6-no-trump-suit-to-follow"),
        pytest.param("N B4 B9 G13", None, 2, id="R5_6-led-jester-suit-set-by-next-card"),
        pytest.param("N G3 B9 G4", "Y", 3, id="R5_6-led-jester-then-suit-to-follow"),
        pytest.param("N G3 Y1", "Y", 2, id="R5_6-led-jester-then-trump"),
        pytest.param("Z B13 R13", "R", 0, id="R5_6-led-wizard-wins-over-trump"),
        pytest.param("N N N", "B", 0, id="R5_6-all-jesters-first-jester"),
        pytest.param("N N N N N N", None, 0, id="R5_6-all-jesters-six-players"),
        pytest.param("N B1 N", "G", 1, id="R5_6-jesters-lose-to-any-suited-card"),
        pytest.param("B1 N N", None, 0, id="R5_6-led-low-card-beats-jesters"),
    ],
)
def test_R5_6_trick_winner(trick: str, trump: str | None, winner: int) -> None:
    cards = parse_cards(trick)
    assert trick_winner(cards, None if trump is None else Suit(trump)) == winner
    # the same trick with the magic-twos option off by default gives the same winner
    assert trick_winner(cards, None if trump is None else Suit(trump), magic_twos=False) == winner


@pytest.mark.parametrize(
    ("hands", "turned", "cards", "tricks"),
    [
        pytest.param(
            ["B3", "Z", "Z"], "R1", "Z Z B3", (0, 1, 0), id="R5_6-first-wizard-wins-in-play"
        ),
        pytest.param(["B3", "B13", "R2"], "R1", "B13 R2 B3", (0, 0, 1), id="R5_6-trump-in-play"),
        pytest.param(
            ["B3", "N", "B9"], "G1", "N B9 B3", (0, 0, 1), id="R5_6-after-led-jester-in-play"
        ),
        pytest.param(["B3", "Z", "R9"], "R1", "Z R9 B3", (0, 1, 0), id="R5_6-led-wizard-in-play"),
        pytest.param(["N", "N", "N"], "G1", "N N N", (0, 1, 0), id="R5_6-all-jesters-in-play"),
    ],
)
def test_R5_6_trick_winner_through_apply(
    hands: list[str], turned: str, cards: str, tricks: tuple[int, ...]
) -> None:
    # Ann (seat 0) deals, so Bo (seat 1) leads every trick here.
    state = bid_all(table(hands, turned), [0, 0, 0])
    state = play(state, *cards.split())
    assert state.tricks == tricks
    assert state.history[-1].tricks == tricks
