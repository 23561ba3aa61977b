"""Rendering: cards at a glance, themes, a public table built only from public information,
the private hand (clairvoyance too), round summaries, scorepad and final standings."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterator

import discord
import pytest

from bot.features.hand import (
    hand_text,
    hand_view,
    last_round_line,
    legal_bids,
    playable_cards,
    timed_out_move,
    trump_choices,
)
from bot.features.lobby import lobby_view
from bot.features.rules import rules_text
from bot.features.summaries import (
    final_embed,
    game_over_line,
    round_summary_embed,
    scorepad_text,
    standings,
)
from bot.features.table import table_bids, table_embed, table_view
from bot.i18n import (
    JESTER_EMOJI,
    STANDARD_SUIT_EMOJI,
    SUIT_SQUARES,
    WIZARD_EMOJI,
    card_emoji,
    card_text,
    cards_text,
    sort_hand,
    suit_text,
    texts,
)
from bot.ui.buttons import CustomId, Verb
from wizard.cards import CARDS, JESTER, SUITS, WIZARD, Card, Theme, parse_cards
from wizard.options import Bidding, Options
from wizard.rules import apply, legal_actions, new_game, trick_winner
from wizard.state import ChooseTrump, Deal, GameState, Phase, Play
from wizard.view import public_table, view

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
T = texts("en")

# A card token as rendered in the classic theme: colour square + code, or 🧙Z / 🃏N.
CARD_TOKEN = re.compile(r"(?:🟦|🟥|🟩|🟨)([BRGY](?:1[0-3]|[1-9]))(?![0-9])|🧙Z|🃏N")


def classic_suited_codes(text: str) -> set[str]:
    """The suited card codes rendered in ``text`` (classic theme)."""
    return {m.group(1) for m in CARD_TOKEN.finditer(text) if m.group(1)}


def embed_text(embed: discord.Embed) -> str:
    """Everything an embed shows, as one string."""
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for field in embed.fields:
        parts += [field.name or "", field.value or ""]
    return "\n".join(parts)


def play_through(
    players: int, options: Options, seed: int, rng_seed: int = 0
) -> Iterator[GameState]:
    """Every state of a random game, first to last."""
    rng = random.Random(rng_seed)
    state = new_game(list(NAMES[:players]), options, seed=seed)
    yield state
    while state.phase is not Phase.GAME_OVER:
        state = apply(state, rng.choice(legal_actions(state)))
        yield state


def first_state(states: Iterator[GameState], wanted: object) -> GameState:
    """The first state for which ``wanted(state)`` is true."""
    for state in states:
        if wanted(state):  # type: ignore[operator]
            return state
    raise AssertionError("no such state in this game")


# ------------------------------------------------------------------ cards


def test_every_card_has_a_distinct_readable_text() -> None:
    tokens = {card_text(c, t=T) for c in CARDS}
    assert len(tokens) == 54
    assert card_text(Card.parse("B7"), t=T) == "🟦B7"
    assert card_text(Card.parse("R13"), t=T) == "🟥R13"
    assert card_text(Card.parse("G1"), t=T) == "🟩G1"
    assert card_text(Card.parse("Y10"), t=T) == "🟨Y10"
    # Issue 12: Wizards and Jesters by name, never by the rules' initials Z and N.
    assert card_text(WIZARD, t=T) == "🧙Wizard"
    assert card_text(JESTER, t=T) == "🃏Jester"
    assert card_text(WIZARD, t=texts("de")) == "🧙Zauberer"
    assert card_text(JESTER, Theme.STANDARD, t=texts("de")) == "🃏Narr"
    assert len(set(SUIT_SQUARES.values())) == 4
    for card in CARDS:
        if card.suit is not None:
            assert card.code in card_text(card, t=T)


def test_standard_theme_uses_card_label_and_suit_emoji() -> None:
    assert card_text(Card.parse("B1"), Theme.STANDARD, t=T) == "2♠\ufe0e"
    assert card_text(Card.parse("R9"), Theme.STANDARD, t=T) == "10♥️"
    assert card_text(Card.parse("G11"), Theme.STANDARD, t=T) == "Q♦️"
    assert card_text(Card.parse("Y13"), Theme.STANDARD, t=T) == "A♣\ufe0e"
    assert card_text(WIZARD, Theme.STANDARD, t=T) == "🧙Wizard"
    assert card_text(JESTER, Theme.STANDARD, t=T) == "🃏Jester"
    assert {card_emoji(Card.of(s, 5), Theme.STANDARD) for s in SUITS} == set(
        STANDARD_SUIT_EMOJI.values()
    )
    assert len({card_text(c, Theme.STANDARD, t=T) for c in CARDS}) == 54


def test_standard_suits_are_readable_in_text_and_real_emoji_on_buttons() -> None:
    """In text, spades and clubs take the text form (U+FE0E: the text's colour, readable on
    a dark theme, where their emoji is black); a button's emoji must be a real emoji, so the
    buttons keep the emoji form (U+FE0F) of every suit."""
    assert card_text(Card.parse("B5"), Theme.STANDARD, t=T).endswith("♠\ufe0e")
    assert card_text(Card.parse("Y5"), Theme.STANDARD, t=T).endswith("♣\ufe0e")
    assert card_text(Card.parse("R5"), Theme.STANDARD, t=T).endswith("♥\ufe0f")
    assert all(e.endswith("\ufe0f") for e in STANDARD_SUIT_EMOJI.values())
    state = new_game(["A", "B", "C"], seed=3)
    while state.phase is not Phase.PLAY:
        state = apply(state, legal_actions(state)[0])
    seat = state.turn
    assert seat is not None
    ui = hand_view(view(state, seat), 1, 1, Theme.STANDARD, t=T)
    assert ui is not None
    emoji = {str(c["emoji"]["name"]) for row in ui.to_components() for c in row["components"]}
    assert emoji and emoji <= {*STANDARD_SUIT_EMOJI.values(), WIZARD_EMOJI, JESTER_EMOJI}, emoji


def test_wizard_and_jester_are_marked() -> None:
    assert card_emoji(WIZARD) == WIZARD_EMOJI == "🧙"
    assert card_emoji(JESTER) == JESTER_EMOJI == "🃏"
    assert cards_text([], t=T) == "—"


def test_hand_sorting() -> None:
    hand = parse_cards("Z Y3 N B13 R2 B1 Z")
    assert [c.code for c in sort_hand(hand)] == ["N", "B1", "B13", "R2", "Y3", "Z", "Z"]


# ---------------------------------------------------------- public table


OPTION_SETS = [
    Options(),
    Options(bidding=Bidding.HIDDEN),
    Options(bidding=Bidding.SECRET),
    Options(clairvoyance=True),
    Options(clairvoyance=True, bidding=Bidding.SECRET),
    Options(magic_twos=True, uneven_bids=True, canadian=True),
    Options(single_suit=True, bidding=Bidding.HIDDEN),
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o.describe()) or "classic")
@pytest.mark.parametrize("players", [3, 4, 6])
def test_table_is_the_same_whichever_seat_it_is_built_from(options: Options, players: int) -> None:
    if options.single_suit and players > 4:
        pytest.skip("single suit is for 3 or 4 players")
    for step, state in enumerate(play_through(players, options, seed=players * 7)):
        if step % 3 and state.phase is not Phase.GAME_OVER:
            continue  # every third moment keeps the test quick
        tables = [public_table(view(state, seat)) for seat in range(players)]
        assert all(tv == tables[0] for tv in tables), f"step {step}"
        embeds = [table_embed(tv, theme=Theme.CLASSIC, t=T).to_dict() for tv in tables]
        assert all(e == embeds[0] for e in embeds), f"step {step}"


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o.describe()) or "classic")
def test_table_never_shows_a_card_in_hand_or_an_unrevealed_bid(options: Options) -> None:
    for state in play_through(4, options, seed=3, rng_seed=5):
        if state.round == 0:
            continue
        for seat in range(4):
            pv = view(state, seat)
            table = public_table(pv)
            text = embed_text(table_embed(table, t=T))
            shown = classic_suited_codes(text)
            held = {c.code for hand in state.hands for c in hand if c.suit is not None}
            assert not shown & held, (state.round, state.phase, shown & held)
            if not table.bids_revealed:
                assert table.bids == (None,) * 4
                for line in text.split("\n"):
                    assert not re.search(r"bid\s\d", line), line


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o.describe()) or "classic")
def test_the_services_table_view_renders_like_the_public_table(options: Options) -> None:
    from wizard.view import table_view as service_table_view

    for step, state in enumerate(play_through(4, options, seed=9, rng_seed=9)):
        if step % 5:
            continue
        ours = table_embed(public_table(view(state, step % 4)), t=T)
        theirs = table_embed(service_table_view(state), t=T)
        assert theirs.to_dict() == ours.to_dict(), f"step {step}"


def test_a_table_carrying_unrevealed_bids_still_shows_none() -> None:
    """Defence in depth: a ``TableView`` built with bids it should not carry (by a future
    bug elsewhere) still renders them as hidden marks."""
    states = play_through(3, Options(bidding=Bidding.SECRET), seed=11, rng_seed=2)
    state = first_state(states, lambda s: s.phase is Phase.PLAY)
    leaky = dataclasses.replace(public_table(view(state, 0)), bids=state.bids)
    assert not leaky.bids_revealed
    text = embed_text(table_embed(leaky, t=T))
    assert text.count("bid\u00a0🔒\u00a0secret") == 3
    assert not re.search(r"bid\s\d", text)


def test_secret_bids_stay_marks_until_the_round_is_scored() -> None:
    states = play_through(3, Options(bidding=Bidding.SECRET), seed=11, rng_seed=2)
    state = first_state(states, lambda s: s.phase is Phase.PLAY and s.round == 2)
    own = view(state, 0)
    assert own.bids[0] is not None  # the seat knows its own bid…
    table = public_table(own)
    assert table.bids == (None, None, None)  # …the public table does not
    text = embed_text(table_embed(table, t=T))
    assert text.count("bid\u00a0🔒\u00a0secret") == 3
    scored = first_state(states, lambda s: s.phase is Phase.ROUND_OVER)
    revealed = public_table(view(scored, 0))
    assert revealed.bids_revealed
    assert revealed.bids == scored.bids
    assert "🔒" not in embed_text(table_embed(revealed, t=T))


def test_hidden_bids_are_marked_then_revealed_together() -> None:
    states = play_through(4, Options(bidding=Bidding.HIDDEN), seed=5, rng_seed=1)
    partial = first_state(
        states,
        lambda s: (
            s.phase is Phase.BID and s.round == 3 and 0 < sum(b is not None for b in s.bids) < 4
        ),
    )
    table = public_table(view(partial, 0))
    assert not table.bids_revealed
    text = embed_text(table_embed(table, t=T))
    assert text.count("bid\u00a0✔\u00a0hidden") == sum(b is not None for b in partial.bids)
    assert "Waiting for the bids of" in text
    # Demo QA: the last one read "Waiting for the bids of **Ann**."
    last = first_state(
        states, lambda s: s.phase is Phase.BID and sum(b is None for b in s.bids) == 1
    )
    one = embed_text(table_embed(public_table(view(last, 0)), t=T))
    assert "⏳ Waiting for the bid of **" in one, one
    done = first_state(states, lambda s: s.phase is Phase.PLAY)
    table = public_table(view(done, 2))
    assert table.bids_revealed
    assert table.bids == done.bids
    text = embed_text(table_embed(table, t=T))
    for seat, bid in enumerate(done.bids):
        assert f"**{NAMES[seat]}**" in text
        assert f"bid\u00a0{bid}" in text


def test_table_shows_round_dealer_trump_tricks_turn_and_scores() -> None:
    states = play_through(4, Options(), seed=21, rng_seed=4)
    state = first_state(
        states,
        lambda s: (
            s.phase is Phase.PLAY and s.round == 4 and len(s.played) == 1 and len(s.trick) == 2
        ),
    )
    table = public_table(view(state, 3))
    embed = table_embed(table, computer={2}, t=T)
    text = embed_text(embed)
    assert "round 4 of 15 (4 tricks)" in embed.title
    assert f"**{NAMES[state.dealer]}** · 🔀 dealer" in text
    assert card_text(state.turned, t=T) in text if state.turned else "No card is turned" in text
    assert f"⏳ **{NAMES[state.turn]}** to play." in text
    for seat in range(4):
        assert f"won\u00a0{state.tricks[seat]}" in text
        assert f"**{T.count(state.scores[seat])}**\u00a0pts" in text
    assert "**Cy** 🤖" in text
    fields = {f.name: f.value for f in embed.fields}
    assert [card_text(c, t=T) in fields["Current trick"] for c in state.trick] == [True, True]
    assert "won by" in fields["Last trick"]
    assert NAMES[state.leader] in fields["Last trick"]


def test_the_table_shows_a_current_trick_only_while_cards_are_played() -> None:
    # Bidding (R4) and choosing trump (R3.3) come before any card is played: no empty
    # "Current trick —" field then; once play starts, it names who leads (R5.1).
    states = play_through(3, Options(), seed=5, rng_seed=2)
    seen: set[Phase] = set()
    for state in states:
        if state.round == 0 or state.phase in seen:
            continue
        seen.add(state.phase)
        fields = {f.name for f in table_embed(public_table(view(state, 0)), t=T).fields}
        assert ("Current trick" in fields) is (state.phase is Phase.PLAY), state.phase
    assert {Phase.BID, Phase.PLAY} <= seen


def test_table_names_are_escaped() -> None:
    state = first_state(play_through(3, Options(), seed=2), lambda s: s.phase is Phase.BID)
    table = public_table(view(state, 0))
    text = embed_text(table_embed(table, names=["**Bold**", "@everyone", "Cy"], t=T))
    assert "**Bold**" not in text.replace("**\\*\\*Bold\\*\\***", "")
    assert "\\*\\*Bold\\*\\*" in text
    assert "@everyone" not in text
    # Faults QA: a channel mention and a timestamp in a name rendered as a link and a date.
    odd = ["<#1456074443980800006>", "<t:4102444800:R>", "<:wizard:1456074443980800007>"]
    text = embed_text(table_embed(table, names=odd, t=T))
    for name in odd:
        assert name not in text and name.replace("<", "<\u200b") in text, text


def test_table_names_must_match_seats() -> None:
    state = first_state(play_through(3, Options(), seed=2), lambda s: s.phase is Phase.BID)
    with pytest.raises(ValueError, match="3 seats"):
        table_embed(public_table(view(state, 0)), names=["a", "b"], t=T)


def test_choose_trump_and_standard_theme_on_the_table() -> None:
    state = new_game(list(NAMES[:3]), Options(), seed=None, first_dealer=1)
    hands = (parse_cards("B1 R2 G3"), parse_cards("B4 R5 G6"), parse_cards("B7 R8 G9"))
    state = apply(state, Deal(tuple(h[:1] for h in hands), WIZARD))
    assert state.phase is Phase.CHOOSE_TRUMP
    table = public_table(view(state, 1))
    text = embed_text(table_embed(table, t=T))
    assert f"Turned 🧙Wizard: **{NAMES[state.dealer]}** (dealer) is choosing trump" in text
    state = apply(state, ChooseTrump(state.dealer, SUITS[1]))
    text = embed_text(table_embed(public_table(view(state, 0)), theme=Theme.STANDARD, t=T))
    assert "chose ♥️ Hearts" in text


# ------------------------------------------------------------------- hand


def test_hand_shows_own_cards_sorted_and_own_secret_bid() -> None:
    states = play_through(3, Options(bidding=Bidding.SECRET), seed=9, rng_seed=3)
    state = first_state(
        states, lambda s: s.phase is Phase.PLAY and s.round == 3 and s.bids[1] is not None
    )
    pv = view(state, 1)
    text = hand_text(pv, t=T)
    assert cards_text(sort_hand(state.hands[1]), t=T) in text
    assert f"your bid: {state.bids[1]}" in text
    others = {c.code for seat in (0, 2) for c in state.hands[seat] if c.suit is not None}
    assert not classic_suited_codes(text) & others


def test_hand_under_clairvoyance_shows_the_others_not_ones_own() -> None:
    states = play_through(4, Options(clairvoyance=True), seed=4, rng_seed=8)
    state = first_state(states, lambda s: s.phase is Phase.BID and s.round == 1)
    for seat in range(4):
        pv = view(state, seat)
        text = hand_text(pv, t=T)
        assert "you cannot see your own card" in text
        for other in range(4):
            card = state.hands[other][0]
            if other == seat:
                if card.suit is not None:
                    assert card.code not in classic_suited_codes(text)
            else:
                assert f"{NAMES[other]} {card_text(card, t=T)}" in text
    round_two = first_state(states, lambda s: s.phase is Phase.BID and s.round == 2)
    text = hand_text(view(round_two, 0), t=T)
    assert "your hand" in text
    assert cards_text(sort_hand(round_two.hands[0]), t=T) in text


def test_clairvoyance_hand_names_only_the_others_who_still_hold_their_card() -> None:
    """R7.4: once a player has played their round-1 card, the hand no longer lists them
    with an empty hand ("bob —"); when all the others have played, it says so."""
    states = list(play_through(4, Options(clairvoyance=True), seed=4, rng_seed=8))
    state = first_state(iter(states), lambda s: s.round == 1 and len(s.trick) == 2)
    seat = state.turn
    assert seat is not None
    text = hand_text(view(state, seat), t=T)
    assert "—" not in text
    [others] = [line for line in text.splitlines() if line.startswith("The others hold: ")]
    played = {(state.leader + i) % 4 for i in range(2)}
    for other in set(range(4)) - {seat}:
        assert (NAMES[other] in others) is (other not in played), other
    last = first_state(iter(states), lambda s: s.round == 1 and len(s.trick) == 3)
    assert last.turn is not None
    text = hand_text(view(last, last.turn), t=T)
    assert "The others have played their cards." in text
    assert "The others hold" not in text


def test_clairvoyance_hand_says_nothing_of_the_unseen_card_when_a_suit_is_led() -> None:
    """QA: "Suit to follow: Giants. You have none: play any card." told a player, in round 1
    under clairvoyance, what their unseen card is not (R7.4, R8.2)."""
    for seed in range(40):
        states = play_through(4, Options(clairvoyance=True), seed=seed, rng_seed=seed)
        state = next((s for s in states if s.round == 1 and s.trick and s.follow is not None), None)
        if state is not None:
            break
    assert state is not None and state.turn is not None
    text = hand_text(view(state, state.turn), t=T)
    assert f"Suit to follow: {suit_text(state.follow, t=T)}." in text
    assert "You have none" not in text, text


def test_clairvoyance_table_sends_bidders_to_their_hands_in_round_one() -> None:
    """QA: the others' cards are shown only in each hand; in round 1 the table said only
    "to bid, with the buttons below", and a player could bid blind (R7.4)."""
    hint = "Clairvoyance: press **Show my hand** to see the others' cards before you bid."
    for bidding in (Bidding.OPEN, Bidding.SECRET):
        states = play_through(3, Options(clairvoyance=True, bidding=bidding), seed=6, rng_seed=6)
        one = first_state(states, lambda s: s.phase is Phase.BID and s.round == 1)
        assert hint in embed_text(table_embed(public_table(view(one, 0)), t=T))
        two = first_state(states, lambda s: s.phase is Phase.BID and s.round == 2)
        assert "Clairvoyance" not in embed_text(table_embed(public_table(view(two, 0)), t=T))


def test_the_table_sends_to_its_bid_buttons_only_a_person_to_bid() -> None:
    """QA: "⏳ **Merlin** to bid, with the buttons below." while a computer was to bid and
    the table had no bid buttons (open bidding, R4.2)."""
    states = play_through(3, Options(), seed=5, rng_seed=1)
    state = first_state(states, lambda s: s.phase is Phase.BID and s.turn is not None)
    table = public_table(view(state, 0))
    assert state.turn is not None
    name = NAMES[state.turn]
    person = embed_text(table_embed(table, t=T))
    assert f"**{name}** to bid, with the buttons below." in person
    computer = embed_text(table_embed(table, computer={state.turn}, t=T))
    assert f"⏳ **{name}** to bid." in computer
    assert "buttons" not in computer


def test_a_hand_whose_cards_are_all_played_says_so() -> None:
    """QA: "**Round 2 of 20 · your hand** (0 cards):" over a line holding only "—", while
    the others finished the round's last trick."""
    states = play_through(3, Options(), seed=6, rng_seed=2)
    state = first_state(states, lambda s: s.round == 2 and len(s.trick) == 1 and s.played)
    seat = state.leader  # who led the round's last trick holds no card any more
    assert not state.hands[seat]
    text = hand_text(view(state, seat), t=T)
    assert text.startswith("**Round 2 of 20 · you have played all your cards.**"), text
    assert "0 cards" not in text and "\n—" not in text


def test_the_dealer_choosing_trump_is_not_named_in_their_own_hand() -> None:
    """QA: the dealer's own hand read "Turned 🧙Wizard: **bob** (dealer) is choosing trump.
    **Your turn:** you are the dealer, choose trump." (R3.3); the others' hands still name
    the dealer, as the table does."""
    for seed in range(40):
        states = play_through(3, Options(), seed=seed)
        found = next((s for s in states if s.phase is Phase.CHOOSE_TRUMP), None)
        if found is not None:
            break
    assert found is not None
    dealer = found.dealer
    mine = hand_text(view(found, dealer), t=T).splitlines()
    assert any(line.startswith("Turned 🧙Wizard.") for line in mine), mine
    assert not any(NAMES[dealer] in line for line in mine), mine
    other = hand_text(view(found, (dealer + 1) % 3), t=T)
    assert f"**{NAMES[dealer]}** (dealer) is choosing trump." in other


def test_the_bids_so_far_are_listed_in_the_order_they_were_made() -> None:
    """QA (demo): "Bids so far: Sam 0, Merlin 1" in seat order, though Merlin bid first;
    bidding goes round from the dealer's left (R4.2)."""
    states = play_through(4, Options(), seed=2, rng_seed=3)
    state = first_state(
        states, lambda s: s.phase is Phase.BID and s.turn == s.dealer and 0 < s.dealer < 3
    )
    order = [(state.dealer + 1 + i) % 4 for i in range(3)]
    assert order != sorted(order)
    text = hand_text(view(state, state.dealer), t=T)
    made = ", ".join(f"{NAMES[s]} {state.bids[s]}" for s in order)
    total = sum(state.bids[s] for s in order)
    assert f"Bids so far: {made} (together {total}, for " in text, text


def test_the_bids_so_far_say_how_many_tricks_they_are_for_in_words() -> None:
    """QA: "(total 3 of 2)" read as a typo once the bids went over the tricks; and a round
    of one trick is "1 trick"."""
    states = play_through(3, Options(), seed=5, rng_seed=1)
    state = first_state(
        states, lambda s: s.phase is Phase.BID and s.round == 1 and s.turn == s.dealer
    )
    text = hand_text(view(state, state.dealer), t=T)
    total = sum(b for b in state.bids if b is not None)
    assert f"(together {total}, for 1 trick this round)" in text, text
    # QA: "together 1" of one bid: the second bidder reads the one bid and the tricks.
    second = first_state(
        play_through(3, Options(), seed=5, rng_seed=1),
        lambda s: s.phase is Phase.BID and s.round == 1 and s.turn == (s.dealer + 2) % 3,
    )
    first = (second.dealer + 1) % 3
    text = hand_text(view(second, second.turn or 0), t=T)
    assert f"Bids so far: {NAMES[first]} {second.bids[first]} (1 trick this round)" in text, text


def test_a_new_rounds_hand_starts_with_how_ones_last_round_went() -> None:
    """The first hand of a round showed the new cards alone: whoever played the round's
    last card read "You played …" over cards they never held. Until the first card of the
    new round, the hand says how their previous round went (R6)."""
    states = list(play_through(3, Options(), seed=6, rng_seed=2))
    state = first_state(iter(states), lambda s: s.phase is Phase.BID and s.round == 3)
    last = state.history[-1]
    for seat in range(3):
        first_line = hand_text(view(state, seat), t=T).splitlines()[0]
        points, total = last.points[seat], last.totals[seat]
        assert first_line == (
            f"{'✅' if last.bids[seat] == last.tricks[seat] else '❌'} Round 2: you bid "
            f"{last.bids[seat]}, won {last.tricks[seat]} → {T.signed(points)} "
            f"(total **{T.count(total)}**)"
        ), first_line
    playing = first_state(iter(states), lambda s: s.round == 3 and bool(s.trick))
    assert "Round 2:" not in hand_text(view(playing, 0), t=T)
    round_one = first_state(iter(states), lambda s: s.round == 1)
    assert hand_text(view(round_one, 0), t=T).startswith("**Round 1 of 20")
    # The last round too: no next round's cards follow it, and the game is over (R6.3).
    over = states[-1]
    assert over.phase is Phase.GAME_OVER
    final = over.history[-1]
    for seat in range(3):
        first_line = hand_text(view(over, seat), t=T).splitlines()[0]
        assert first_line.endswith(
            f" Round 20: you bid {final.bids[seat]}, won {final.tricks[seat]} → "
            f"{T.signed(final.points[seat])} (total **{T.count(final.totals[seat])}**)"
        ), first_line


def test_a_hand_says_your_seat_of_bids_its_reader_did_not_make() -> None:
    """QA: after taking a seat back, the hand said "Round 4: you bid 2" of the computer's
    bid; one who took a seat over read "your bid: 0" of the bid made before them. Of a bid
    its reader did not make, the hand says "your seat"."""
    states = list(play_through(3, Options(), seed=6, rng_seed=2))
    state = first_state(iter(states), lambda s: s.phase is Phase.BID and s.round == 3)
    last = state.history[-1]
    text = hand_text(view(state, 0), bids_not_theirs={2}, t=T)
    assert text.splitlines()[0].endswith(
        f" Round 2, your seat: bid {last.bids[0]}, won {last.tricks[0]} → "
        f"{T.signed(last.points[0])} (total **{T.count(last.totals[0])}**)"
    ), text
    playing = first_state(iter(states), lambda s: s.round == 3 and s.phase is Phase.PLAY)
    own = f"your bid: {playing.bids[0]}"
    assert own in hand_text(view(playing, 0), bids_not_theirs={2}, t=T)
    taken = hand_text(view(playing, 0), bids_not_theirs={1, 2, 3}, t=T)
    assert own not in taken and f"your seat's bid: {playing.bids[0]}" in taken, taken


def test_hand_prompts_only_on_ones_turn() -> None:
    state = first_state(play_through(3, Options(), seed=6), lambda s: s.phase is Phase.BID)
    assert state.turn is not None
    assert "**Your turn:**" in hand_text(view(state, state.turn), t=T)
    waiting = hand_text(view(state, (state.turn + 1) % 3), t=T)
    assert "**Your turn:**" not in waiting
    assert f"Waiting for **{state.players[state.turn]}**." in waiting


def test_hand_in_the_standard_theme() -> None:
    state = first_state(
        play_through(3, Options(), seed=6), lambda s: s.phase is Phase.BID and s.round == 5
    )
    text = hand_text(view(state, 0), theme=Theme.STANDARD, t=T)
    assert cards_text(sort_hand(state.hands[0]), Theme.STANDARD, t=T) in text
    assert "🟦" not in text and "🟥" not in text


# ----------------------------------------------------------- hand buttons


def _ids(view_: discord.ui.View) -> list[CustomId]:
    return [CustomId.parse(item.custom_id) for item in view_.children]  # type: ignore[attr-defined]


def _buttons(view_: discord.ui.View) -> list[discord.ui.Button[discord.ui.View]]:
    """The plain buttons inside the view's dynamic items."""
    return [item.item for item in view_.children]  # type: ignore[attr-defined]


def test_bid_buttons_enable_exactly_the_legal_bids() -> None:
    """Open bids are on the table (the hand has none); hidden bids in the hand."""
    options = Options(uneven_bids=True)
    state = first_state(
        play_through(3, options, seed=8, rng_seed=2),
        lambda s: s.phase is Phase.BID and s.round == 4 and s.turn == s.dealer,
    )
    pv = view(state, state.dealer)
    assert hand_view(pv, game=77, version=123, t=T) is None
    assert "**Your turn:** bid with the buttons on the table." in hand_text(pv, t=T)
    ui = table_view(77, 123, t=T, table=public_table(pv))
    ids = _ids(ui)
    assert [c.bid for c in ids[:-1]] == list(range(5))
    assert ids[-1] == CustomId(77, Verb.HAND, "", 123)
    assert {(c.game, c.version, c.verb) for c in ids[:-1]} == {(77, 123, Verb.BID)}
    pairs = zip(ids[:-1], _buttons(ui)[:-1], strict=True)
    enabled = {c.bid for c, b in pairs if not b.disabled}
    assert enabled == set(legal_bids(pv)) == set(table_bids(public_table(pv)))
    assert len(enabled) == 4  # R7.1 forbids the one bid that makes the total equal r
    # A computer's bid is not drawn: only "Show my hand".
    computer = table_view(77, 123, t=T, table=public_table(pv), computer={state.dealer})
    assert _ids(computer) == [CustomId(77, Verb.HAND, "", 123)]

    hidden = first_state(
        play_through(3, Options(bidding=Bidding.HIDDEN), seed=8, rng_seed=2),
        lambda s: s.phase is Phase.BID and s.round == 4,
    )
    pv = view(hidden, hidden.dealer)
    ui = hand_view(pv, game=77, version=123, t=T)  # type: ignore[assignment]
    assert ui is not None and [c.bid for c in _ids(ui)] == list(range(5))
    assert _ids(table_view(77, 123, t=T, table=public_table(pv))) == [
        CustomId(77, Verb.HAND, "", 123)
    ]


@pytest.mark.parametrize(
    "options",
    [Options(uneven_bids=True), Options(canadian=True), Options(uneven_bids=True, canadian=True)],
)
def test_table_bids_are_the_bidders_legal_bids(options: Options) -> None:
    """The forbidden bid the table leaves out, worked out from public facts only, is the one
    the engine forbids the bidder (R7.1, R7.5), at every bid of a whole game."""
    seen_forbidden = 0
    for state in play_through(3, options, seed=21, rng_seed=4):
        if state.phase is not Phase.BID or state.turn is None:
            continue
        pv = view(state, state.turn)
        table = public_table(pv)
        assert table_bids(table) == legal_bids(pv)
        seen_forbidden += len(table_bids(table)) == state.round
    assert seen_forbidden  # the game did reach a forbidden bid


@pytest.mark.parametrize("options", [Options(uneven_bids=True), Options(canadian=True)])
def test_the_bidders_own_hand_says_why_a_bid_is_greyed_out(options: Options) -> None:
    """QA: the table says why the last bidder may not make one bid (R7.1, R7.5), in the
    server's language; the bidder's own hand, in theirs, said nothing of it."""
    seen = 0
    for state in play_through(3, options, seed=21, rng_seed=4):
        if state.phase is not Phase.BID or state.turn is None:
            continue
        pv = view(state, state.turn)
        forbidden = set(range(state.round + 1)) - set(legal_bids(pv))
        italian = hand_text(pv, t=texts("it"))
        others = hand_text(view(state, (state.turn + 1) % 3), t=T)
        assert "may not bid" not in others and "Under the Canadian rule" not in others
        if not forbidden:
            assert "non può prevedere" not in italian and "non puoi prevedere" not in italian
            continue
        [bid] = forbidden
        seen += 1
        english = hand_text(pv, t=T)
        if options.uneven_bids:
            assert f"With uneven bids the dealer may not bid {bid}:" in english, english
            assert f"il mazziere non può prevedere {bid}" in italian, italian
        else:
            assert (
                f"Under the Canadian rule you, alone at the top of the scores, may not bid {bid}:"
                in english
            ), english
            assert f"non puoi prevedere {bid}" in italian, italian
    assert seen


@pytest.mark.parametrize("players", [3, 5])
def test_play_buttons_one_per_distinct_card_and_only_playable_enabled(players: int) -> None:
    seen_disabled = seen_duplicates = 0
    for state in play_through(players, Options(), seed=31 + players, rng_seed=players):
        if state.phase is not Phase.PLAY or state.turn is None:
            continue
        pv = view(state, state.turn)
        ui = hand_view(pv, game=5, version=state.round, t=T)
        assert ui is not None
        ids, buttons = _ids(ui), _buttons(ui)
        hand = state.hands[state.turn]
        assert [c.card for c in ids] == list(dict.fromkeys(sort_hand(hand)))
        assert {c.verb for c in ids} == {Verb.PLAY}
        enabled = {c.card for c, b in zip(ids, buttons, strict=True) if not b.disabled}
        assert enabled == playable_cards(pv) == {a.card for a in pv.legal if isinstance(a, Play)}
        for cid, b in zip(ids, buttons, strict=True):
            copies = hand.count(cid.card)
            code = {"Z": "Wizard", "N": "Jester"}.get(cid.card.code, cid.card.code)
            assert b.label == code + (f" ×{copies}" if copies > 1 else "")
            seen_duplicates += copies > 1
        seen_disabled += any(b.disabled for b in buttons)
        assert hand_view(view(state, (state.turn + 1) % players), game=5, version=1, t=T) is None
    assert seen_disabled and seen_duplicates  # the game did exercise both cases


def test_trump_buttons_for_the_dealer_after_a_turned_wizard() -> None:
    state = new_game(list(NAMES[:3]), Options(), seed=None, first_dealer=0)
    state = apply(state, Deal((parse_cards("B1"), parse_cards("R1"), parse_cards("G1")), WIZARD))
    assert state.phase is Phase.CHOOSE_TRUMP
    pv = view(state, state.dealer)
    ui = hand_view(pv, game=2, version=3, t=T)
    assert ui is not None
    assert [CustomId.parse(i.custom_id).suit for i in ui.children] == list(SUITS)  # type: ignore[attr-defined]
    assert set(trump_choices(pv)) == set(SUITS)
    assert [b.label for b in _buttons(ui)] == [
        "Humans (B)",
        "Dwarves (R)",
        "Elves (G)",
        "Giants (Y)",
    ]
    standard = hand_view(pv, game=2, version=3, theme=Theme.STANDARD, t=T)
    assert standard is not None
    assert [b.label for b in _buttons(standard)] == ["Spades", "Hearts", "Diamonds", "Clubs"]
    assert hand_view(view(state, (state.dealer + 1) % 3), game=2, version=3, t=T) is None


def test_clairvoyance_round_one_plays_the_unseen_card() -> None:
    states = play_through(3, Options(clairvoyance=True), seed=2, rng_seed=2)
    state = first_state(states, lambda s: s.phase is Phase.PLAY and s.round == 1)
    pv = view(state, state.turn)  # type: ignore[arg-type]
    ui = hand_view(pv, game=4, version=8, t=T)
    assert ui is not None
    assert [CustomId.parse(i.custom_id).verb for i in ui.children] == [Verb.PLAYHIDDEN]  # type: ignore[attr-defined]


def test_views_hold_only_restart_proof_buttons() -> None:
    # A static item beside dynamic ones would, on timeout, unregister the dynamic classes.
    from bot.ui.buttons import GameButton

    states = play_through(3, Options(), seed=3, rng_seed=3)
    bidding = first_state(states, lambda s: s.phase is Phase.BID and s.round == 3)
    playing = first_state(states, lambda s: s.phase is Phase.PLAY and s.round == 3)
    views = [
        lobby_view(1, 1, t=T),
        table_view(1, 1, t=T),
        table_view(1, 1, t=T, table=public_table(view(bidding, 0))),
    ]
    ui = hand_view(view(playing, playing.turn), 1, 1, t=T)  # type: ignore[arg-type]
    assert ui is not None
    views.append(ui)
    for ui in views:
        assert ui.timeout is None
        assert ui.children and all(isinstance(i, GameButton) for i in ui.children)


def test_lobby_and_table_buttons() -> None:
    lobby = _ids(lobby_view(9, 2, t=T))
    assert [c.verb for c in lobby] == [
        *(Verb.JOIN, Verb.LEAVE, Verb.ADDBOT, Verb.START, Verb.CANCEL),
        Verb.DROPBOT,
    ]
    assert {(c.game, c.version) for c in lobby} == {(9, 2)}
    assert _ids(table_view(9, 4, t=T)) == [CustomId(9, Verb.HAND, "", 4)]


def test_largest_hands_and_bids_fit_in_25_buttons() -> None:
    hidden = play_through(3, Options(bidding=Bidding.HIDDEN), seed=13, rng_seed=13)
    last_bid = first_state(hidden, lambda s: s.phase is Phase.BID and s.round == 20)
    ui = hand_view(view(last_bid, 0), game=1, version=1, t=T)
    assert ui is not None and len(ui.children) == 21
    # Open bids on the table, round 20 with 3 players: 21 bids and "Show my hand", in rows
    # of at most five, five rows at most; the bids in order, "Show my hand" last.
    states = play_through(3, Options(), seed=13, rng_seed=13)
    last_bid = first_state(states, lambda s: s.phase is Phase.BID and s.round == 20)
    table = public_table(view(last_bid, 0))
    rows = table_view(1, 1, t=T, table=table).to_components()
    assert len(rows) <= 5 and all(len(row["components"]) <= 5 for row in rows)
    ids = [CustomId.parse(c["custom_id"]) for row in rows for c in row["components"]]
    assert [c.bid for c in ids[:-1]] == list(range(21)) and ids[-1].verb is Verb.HAND
    # Up to 20 bids, "Show my hand" has a row of its own.
    round_4 = first_state(
        play_through(3, Options(), seed=13, rng_seed=13),
        lambda s: s.phase is Phase.BID and s.round == 4,
    )
    rows = table_view(1, 1, t=T, table=public_table(view(round_4, 0))).to_components()
    assert [len(row["components"]) for row in rows] == [5, 1]
    first_play = first_state(states, lambda s: s.phase is Phase.PLAY and s.round == 20)
    ui = hand_view(view(first_play, first_play.turn), game=1, version=1, t=T)  # type: ignore[arg-type]
    assert ui is not None and len(ui.children) <= 20


def test_bid_buttons_fill_their_rows_evenly() -> None:
    """Demo QA: round 5's bids 0…5 took a row of five and left "5" alone on a second row.
    Bids take as few rows as rows of five would, filled evenly, on the table (open bids)
    and in a hand (hidden bids)."""
    widths = {5: [3, 3], 7: [4, 4], 10: [4, 4, 3], 20: [5, 5, 5, 5, 1]}
    for bidding in (Bidding.OPEN, Bidding.HIDDEN):
        states = play_through(3, Options(bidding=bidding), seed=13, rng_seed=13)
        for round_, rows_of_bids in widths.items():
            state = first_state(states, lambda s, r=round_: s.phase is Phase.BID and s.round == r)
            pv = view(state, 0)
            if bidding is Bidding.OPEN:
                ui = table_view(1, 1, t=T, table=public_table(pv))
            else:
                made = hand_view(pv, 1, 1, t=T)
                assert made is not None
                ui = made
            rows = [
                [c for c in row["components"] if CustomId.parse(c["custom_id"]).verb is Verb.BID]
                for row in ui.to_components()
            ]
            assert [len(row) for row in rows if row] == rows_of_bids, (bidding, round_)


# ---------------------------------------------------- rounds and the end


def test_round_summary_and_scorepad() -> None:
    states = list(play_through(3, Options(), seed=17, rng_seed=17))
    final = states[-1]
    pv = view(final, 0)
    summary = pv.history[1]
    embed = round_summary_embed(summary, pv.players, num_rounds=pv.num_rounds, t=T)
    assert embed.title == "Round 2 of 20 scored"
    text = embed.description or ""
    for seat in range(3):
        assert f"**{NAMES[seat]}**: bid {summary.bids[seat]}, won {summary.tricks[seat]}" in text
        assert f"(total **{T.count(summary.totals[seat])}**)" in text
    pad = scorepad_text(pv.history, pv.players, t=T)
    assert "```" not in pad  # narrow lines that wrap, not a wide table (issue 12)
    assert len(pad.splitlines()) == 3
    for seat in range(3):
        marks = "".join("✅" if r.bids[seat] == r.tricks[seat] else "❌" for r in pv.history)
        # Demo QA: 20 marks in one run wrapped whole, leaving "🥇 ann · 250 ·" alone on its
        # line; in groups of five (a round is found by counting fives) a line breaks between
        # groups.
        fives = " ".join(marks[i : i + 5] for i in range(0, len(marks), 5))
        assert f"**{NAMES[seat]}** · **{T.count(final.scores[seat])}** · {fives}" in pad


def test_standings_share_places_on_ties() -> None:
    assert standings([10, 30, 30, 5]) == [(1, 1), (1, 2), (3, 0), (4, 3)]
    assert standings([0, 0, 0]) == [(1, 0), (1, 1), (1, 2)]


def test_final_standings_name_the_winners_and_fit_discord() -> None:
    for players in (3, 6):
        states = list(play_through(players, Options(), seed=players, rng_seed=1))
        final = states[-1]
        embed = final_embed(public_table(view(final, 0)), t=T)
        best = max(final.scores)
        winners = [NAMES[s] for s in range(players) if final.scores[s] == best]
        assert embed.title is not None and all(w in embed.title for w in winners)
        assert len(embed.description or "") <= 4096
        assert len(embed) <= 6000
        assert "**Rounds**" in (embed.description or "")  # the text fallback of the picture


def test_the_game_over_line_congratulates_only_who_played_to_the_end() -> None:
    # A seat a computer finished for a person who left counts as lost for them (README):
    # the computer's first place is said as such, never congratulated as theirs.
    assert game_over_line(7, ["ann"], [], t=T) == "🏁 **Game 7 is over.** Congratulations, ann!"
    assert game_over_line(7, [], ["bob"], t=T) == (
        "🏁 **Game 7 is over.** First place went to the computer playing for bob."
    )
    assert game_over_line(7, ["ann", "Merlin 🤖"], ["bob", "cy"], t=T) == (
        "🏁 **Game 7 is over.** Congratulations, ann and Merlin 🤖! First place also went "
        "to the computers playing for bob and cy."
    )
    assert game_over_line(7, [], [], t=T) == "🏁 **Game 7 is over.**"
    assert game_over_line(7, ["ann"], ["bob"], t=texts("de")) == (
        "🏁 **Partie 7 ist vorbei.** Glückwunsch, ann! Der erste Platz ging auch an den "
        "Computer, der für bob spielte."
    )


def test_final_standings_with_a_tie() -> None:
    states = list(play_through(3, Options(), seed=1))
    table = public_table(view(states[-1], 0))
    tied = dataclasses.replace(table, scores=(50, 50, 10))
    embed = final_embed(tied, t=T)
    assert embed.title == f"🏆 Winners: {NAMES[0]} and {NAMES[1]}"
    assert (embed.description or "").count("🥇") == 2


def test_scores_beyond_a_thousand_are_written_as_the_language_writes_numbers() -> None:
    # QA: a Portuguese stats card read "-1.300,0" beside "-1300". A score is written one way
    # on every surface: the table, the round summary, the hand's last round, the scorepad.
    from wizard.view import RoundSummary

    states = list(play_through(3, Options(), seed=5, rng_seed=2))
    table = dataclasses.replace(public_table(view(states[-1], 0)), scores=(1300, -1250, 40))
    summary = RoundSummary(
        20, 0, None, None, (1, 0, 2), (1, 0, 1), (30, 20, -10), (1300, -1250, 40)
    )
    for t, big, small in ((T, "1,300", "−1,250"), (texts("de"), "1.300", "−1.250")):
        shown = embed_text(table_embed(table, t=t))
        assert f"**{big}**" in shown and f"**{small}**" in shown, shown
        shown = embed_text(round_summary_embed(summary, NAMES[:3], t=t))
        assert f"**{big}**" in shown and f"**{small}**" in shown, shown
        assert f"**{big}**" in last_round_line(summary, 0, t=t)
        assert f"**{small}**" in scorepad_text([summary], NAMES[:3], t=t)


def test_a_seat_a_computer_took_over_between_rounds_is_not_said_to_have_been_played_by_it() -> None:
    """QA (demo): Bob left while round 4 was bid, before he made any move in it, and his hand
    read "Round 3, your seat played by a computer: bid 0, won 0", a round he had played
    himself; then (QA) "Round 3, your seat: bid 0", read as the computer's bid. A round he
    bid and played alone is his ("you bid"), a computer playing the seat now or not; one
    someone else moved in for the seat is the seat's, whoever played it."""
    states = play_through(3, Options(), seed=4, rng_seed=2)
    state = first_state(states, lambda s: s.phase is Phase.BID and s.round == 4 and not s.trick)
    seat = state.turn if state.turn is not None else 0
    last = state.history[-1]
    mark = "✅" if last.bids[seat] == last.tricks[seat] else "❌"
    facts = (
        f"bid {last.bids[seat]}, won {last.tricks[seat]} → {T.signed(last.points[seat])} "
        f"(total **{T.count(last.totals[seat])}**)"
    )
    lines = hand_text(view(state, seat), away=True, t=T).splitlines()
    assert lines[0] == f"{mark} Round 3: you {facts}", lines
    helped = hand_text(view(state, seat), away=True, last_round_helped=True, t=T).splitlines()
    assert helped[0] == f"{mark} Round 3, your seat: {facts}", helped


def test_the_table_says_where_the_dealer_chooses_trump() -> None:
    """QA (demo): a Wizard turned, the table said "⏳ Sam to choose trump." with only the
    button "Show my hand": the suit buttons are in the dealer's hand, and the table said so
    for bids ("with the buttons below") but not for trump. A computer dealer just chooses."""
    from bot.features.table import status_line

    states = play_through(3, Options(), seed=1, rng_seed=1)
    state = first_state(states, lambda s: s.phase is Phase.CHOOSE_TRUMP)
    table, names = public_table(view(state, 0)), NAMES[:3]
    person = status_line(table, names, t=T)
    assert person == (
        f"⏳ **{names[state.dealer]}** to choose trump, with the suit buttons of their hand "
        "(**Show my hand**)."
    ), person
    computer = status_line(table, names, t=T, computer={state.dealer})
    assert computer == f"⏳ **{names[state.dealer]}** to choose trump.", computer


@pytest.mark.parametrize(
    ("first", "table_says", "hand_says"),
    [
        (
            WIZARD,
            "No suit to follow: a Wizard came first.",
            "No suit to follow: a Wizard came first. Play any card.",
        ),
        (
            JESTER,
            "No suit to follow yet (only Jesters so far).",
            "No suit to follow yet (only Jesters so far): play any card.",
        ),
    ],
)
def test_a_trick_without_a_suit_to_follow_says_so(
    first: Card, table_says: str, hand_says: str
) -> None:
    """QA: after a Wizard lead the hand said only "Your turn: play a card." and the table
    nothing, where a suited lead says which suit to follow (R5.2)."""
    for seed in range(200):
        states = play_through(4, Options(), seed=seed, rng_seed=seed)
        state = next(
            (
                s
                for s in states
                if s.phase is Phase.PLAY
                and len(s.trick) == 1
                and s.trick[0] == first
                and s.turn is not None
                and len(s.hands[s.turn]) > 1
            ),
            None,
        )
        if state is not None:
            break
    assert state is not None and state.turn is not None and state.follow is None
    table = embed_text(table_embed(public_table(view(state, 0)), t=T))
    assert table_says in table, table
    text = hand_text(view(state, state.turn), t=T)
    assert hand_says in text, text
    # Single suit has no suit to follow at all (R7.7): nothing is said there.
    single = first_state(
        play_through(3, Options(single_suit=True), seed=1),
        lambda s: s.phase is Phase.PLAY and len(s.trick) == 1,
    )
    assert single.turn is not None
    assert "suit to follow" not in hand_text(view(single, single.turn), t=T)
    assert "suit to follow" not in embed_text(table_embed(public_table(view(single, 0)), t=T))


def test_a_timed_out_hand_names_the_move_the_computer_made() -> None:
    """QA: "a computer made your last move for you" left the player to find which one; their
    own view shows it while it is of this round (a hidden bid included: it is their own)."""
    for seed in range(100):
        states = list(play_through(3, Options(bidding=Bidding.HIDDEN), seed=seed, rng_seed=seed))
        chose = [
            s
            for s in states
            if s.phase is Phase.BID and s.turned == WIZARD and s.bids[s.dealer] is None
        ]
        if chose:
            break
    state = chose[0]
    assert state.trump is not None
    said = timed_out_move(view(state, state.dealer), t=T)
    assert (
        said
        == f"Your time ran out, so a computer chose {suit_text(state.trump, t=T)} as trump for you."
    )
    bid = first_state(iter(states), lambda s: s.phase is Phase.BID and s.bids[0] is not None)
    assert timed_out_move(view(bid, 0), t=T) == (
        f"Your time ran out, so a computer bid {bid.bids[0]} for you."
    )
    played = first_state(iter(states), lambda s: s.round == 3 and len(s.played) == 1)
    [card] = [c for seat, c in view(played, 0).played[0] if seat == 0]
    assert timed_out_move(view(played, 0), t=T) == (
        f"Your time ran out, so a computer played {card_text(card, t=T)} for you."
    )
    dealt = first_state(iter(states), lambda s: s.round == 2 and s.phase is Phase.BID)
    fresh = next(seat for seat in range(3) if dealt.bids[seat] is None)
    assert timed_out_move(view(dealt, fresh), t=T) == (
        "Your time ran out, so a computer made your last move for you."
    )


def _field(embed: discord.Embed, name: str) -> str:
    return next(f.value or "" for f in embed.fields if f.name == name)


def test_the_table_says_who_is_winning_the_trick_and_what_the_bids_add_up_to() -> None:
    """QA: onlookers and later bidders could not see whether a round was bid over or under
    its tricks (only the bidder's hand added the bids up), and the current trick did not say
    whose card was ahead: readers worked it out from trump and the suit to follow (R5.6)."""
    states = list(play_through(4, Options(), seed=5, rng_seed=5))
    bidding = first_state(
        iter(states), lambda s: s.phase is Phase.BID and sum(b is not None for b in s.bids) == 2
    )
    text = table_embed(public_table(view(bidding, 0)), t=T).description or ""
    made = [b for b in bidding.bids if b is not None]
    assert f"Bids together: {sum(made)} for {bidding.round} trick" in text
    one_bid = first_state(
        iter(states), lambda s: s.phase is Phase.BID and sum(b is not None for b in s.bids) == 1
    )
    shown = table_embed(public_table(view(one_bid, 0)), t=T).description or ""
    assert "Bids together" not in shown  # one bid is on its own line already

    playing = first_state(
        iter(states), lambda s: s.phase is Phase.PLAY and s.round == 5 and len(s.trick) == 3
    )
    embed = table_embed(public_table(view(playing, 0)), t=T)
    total = sum(b for b in playing.bids if b is not None)
    assert f"Bids together: {total} for 5 tricks." in (embed.description or "")
    ahead = (playing.leader + trick_winner(playing.trick, playing.trump)) % 4
    assert _field(embed, "Current trick").endswith(f"→ **{playing.players[ahead]}** is ahead")
    started = first_state(iter(states), lambda s: s.phase is Phase.PLAY and len(s.trick) == 1)
    assert "ahead" not in _field(table_embed(public_table(view(started, 0)), t=T), "Current trick")


def test_single_suit_names_who_bids_last_not_a_dealer() -> None:
    """QA (it): in single suit nobody deals (R7.7), yet the table tagged a seat "dealer", the
    round summary began "Dealer …" and uneven bids forbade "the dealer" a bid. The seat that
    bids last says so, and the rules say how the turn to bid first moves."""
    options = Options(single_suit=True, uneven_bids=True)
    states = list(play_through(3, options, seed=4))
    bidding_last = first_state(
        iter(states), lambda s: s.phase is Phase.BID and s.round == 2 and s.turn == s.dealer
    )
    pv = view(bidding_last, bidding_last.dealer)
    table = public_table(pv)
    shown = embed_text(table_embed(table, t=T))
    assert "🔀 bids last" in shown and "dealer" not in shown, shown
    assert "With uneven bids the last to bid may not bid" in shown, shown
    assert "With uneven bids the last to bid may not bid" in hand_text(pv, t=T)
    first = view(states[-1], 0).history[0]
    summary = embed_text(round_summary_embed(first, NAMES[:3], t=T, single_suit=True))
    leader = NAMES[(first.dealer + 1) % 3]
    assert f"**{leader}** led first · no trump" in summary and "Dealer" not in summary, summary
    rules = rules_text(options, t=T)
    assert "moves one seat left" in rules and "marks 🔀 who bids last" in rules, rules


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("bidding", [Bidding.HIDDEN, Bidding.SECRET])
def test_single_suit_with_bids_at_once_marks_who_leads_first(
    bidding: Bidding, players: int
) -> None:
    """QA: in single suit with hidden or secret bids (R7.7, R7.2, R7.3), the table marked
    "🔀 bids last", the rules said the same, and the round summary "Ann bid last", where
    everyone bids at once (Ann had bid first). What moves round by round is who leads the
    first trick: the table marks that seat, and the summary and the rules say so."""
    options = Options(single_suit=True, bidding=bidding)
    states = list(play_through(players, options, seed=4))
    bidding_state = first_state(iter(states), lambda s: s.phase is Phase.BID and s.round == 2)
    # Who leads, as the engine has it: the seat of the round's first card.
    first_card = first_state(iter(states), lambda s: s.round == 2 and len(s.trick) == 1)
    leader = NAMES[first_card.leader]
    shown = embed_text(table_embed(public_table(view(bidding_state, 0)), t=T))
    assert f"**{leader}** · 🔀 leads first" in shown, shown
    assert "bids last" not in shown and "dealer" not in shown, shown
    summary = embed_text(
        round_summary_embed(states[-1].history[1], NAMES[:players], t=T, single_suit=True)
    )
    assert f"**{leader}** led first · no trump" in summary, summary
    rules = rules_text(options, t=T)
    assert "marks 🔀 who leads first" in rules and "bids last" not in rules, rules
