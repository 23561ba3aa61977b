"""Open bids are made on the public table (RULES R4.2: they are public anyway): the table
carries the bid buttons of the person to bid, the click's answer redraws the table in place
and is the table's edit for that move; everyone else is refused privately; double and stale
clicks, a restart in mid-bidding, R7.1 on the table; hidden bids stay in the hands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.features.table import STALE_TABLE
from tests.bot.conftest import (
    SPECTATOR_REFUSED,
    Sim,
    buttons,
    clicks_at_once,
    is_bid_button,
    message_text,
    post_buttons,
    simulation,
    verb_of,
    version_of,
)
from tests.bot.simtools import RestKind, rest_kinds
from wizard.service import GameInfo

pytestmark = pytest.mark.usefixtures("fast_settle")


def private(result: Any) -> str:
    assert result.acknowledged and result.response is not None
    assert result.response.ephemeral
    return str(result.response.content)


def bids_shown(message: Any) -> list[tuple[str, bool, int]]:
    """The table's bid buttons: label, enabled, version."""
    return [
        (b["label"], not b.get("disabled"), version_of(b))
        for b in buttons(message)
        if is_bid_button(b)
    ]


def callback_type(sim: Sim, result: Any) -> int:
    """How the bot answered an interaction (4 message, 6 deferred update, 7 update)."""
    record = result._interaction
    [body] = [
        r.json
        for r in sim.env.http_requests
        if r.method == "POST" and r.path.startswith(f"/interactions/{record.id}/")
    ]
    return int(body["type"])


async def bidders(sim: Sim, info: GameInfo) -> list[Any]:
    """The members in the order they bid this round."""
    table = info.table
    assert table is not None
    n = len(info.seats)
    return [sim.member(info.seats[(table.dealer + 1 + i) % n].user_id or 0) for i in range(n)]


async def test_a_bid_on_the_table_redraws_the_table_in_place(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=4) as sim:
        ann, bob, cy, dee = sim.members
        info = await sim.lobby(ann, [bob, cy])
        first, second, third = await bidders(sim, info)
        table = sim.table_of(info)
        assert bids_shown(table) == [("0", True, info.version), ("1", True, info.version)]
        assert f"**{first.name}** to bid, with the buttons below." in (
            table.embeds[0].description or ""
        )
        # The private hands show the cards and point to the table; no bid buttons there.
        hands = {m.name: await sim.open_hand(m) for m in (first, second)}
        assert "**Your turn:** bid with the buttons on the table." in hands[first.name].content
        assert "Bids are made with the buttons on the table." in hands[second.name].content
        for hand in hands.values():
            assert not [b for b in buttons(hand) if is_bid_button(b)]

        # Somebody else's click, a stranger's: refused privately, nothing changes.
        before = len(sim.env.http_requests)
        refused = private(await second.click(table, label="1"))
        assert refused.startswith("⏳ Not your turn.")
        stranger = private(await dee.click(table, label="1"))
        assert stranger == SPECTATOR_REFUSED
        assert (await sim.service.get_game(info.id)).version == info.version
        assert bids_shown(sim.table_of(info)) == bids_shown(table)
        assert rest_kinds(sim.env.http_requests[before:]) == {RestKind.RESPONSE: 2}

        # The bidder's click: its answer is the table, edited in place, with the next
        # bidder's buttons; no table edit follows. The two open hands concerned are redrawn
        # (issue 12): the bidder's turn ended, the next bidder's came.
        before = len(sim.env.http_requests)
        result = await first.click(table, label="1")
        assert callback_type(sim, result) == 7
        assert result.response is not None and not result.response.ephemeral
        assert result.response.id == table.id
        await sim.cog.surfaces.idle()
        assert rest_kinds(sim.env.http_requests[before:]) == {
            RestKind.RESPONSE: 1,
            RestKind.WEBHOOK_EDIT: 2,
        }
        after = await sim.service.get_game(info.id)
        assert after.version == info.version + 1
        now = sim.table_of(after)
        assert bids_shown(now) == [("0", True, after.version), ("1", True, after.version)]
        description = now.embeds[0].description or ""
        assert f"**{second.name}** to bid, with the buttons below." in description
        assert sum(1 for b in after.table.bids if b is not None) == 1  # type: ignore[union-attr]
        # The next bidder's hand says it is their turn, on the table; the bidder's says no more.
        now_second = sim.message(hands[second.name].id).content
        assert "**Your turn:** bid with the buttons on the table." in now_second
        now_first = sim.message(hands[first.name].id).content
        assert "**Your turn:**" not in now_first and "your bid: 1" in now_first

        # The last bid: the table shows no bid any more, the leader's hand comes alive.
        await sim.click_table(second, "0")
        last = await sim.service.get_game(info.id)
        assert last.table is not None and last.table.phase.name == "BID"
        await sim.click_table(third, "0")
        done = await sim.service.get_game(info.id)
        assert done.table is not None and done.table.phase.name == "PLAY"
        assert bids_shown(sim.table_of(done)) == []
        assert [b["label"] for b in buttons(sim.table_of(done))] == ["Show my hand"]
        leader = sim.member(done.seats[done.table.turn or 0].user_id or 0)
        if leader.name in hands:
            live = sim.message(hands[leader.name].id)
            assert [b for b in buttons(live) if verb_of(b) == "play" and not b.get("disabled")]
        assert not sim.env.errors


async def test_double_and_stale_clicks_on_the_table(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=3, test_buttons=True) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy])
        first, second, _ = await bidders(sim, info)
        table = sim.table_of(info)
        zero = next(b["custom_id"] for b in buttons(table) if b["label"] == "0")
        one = next(b["custom_id"] for b in buttons(table) if b["label"] == "1")

        # A double click: applied once; the second is told it is done, privately.
        results = await clicks_at_once(sim, [(first, table.id, zero), (first, table.id, zero)])
        assert [callback_type(sim, r) for r in results] == [7, 4]
        assert private(results[1]) == "✅ You bid 0."
        after = await sim.service.get_game(info.id)
        assert after.version == info.version + 1
        assert after.table is not None and after.table.bids.count(0) == 1

        # Two bids pressed together: the first counts; the second, stale, is told what the
        # first did (QA: "moved on" said nothing of which bid counted), nothing applied, and
        # that only the first counts (player QA: "You bid 1." to a press of 0 read as if
        # the bot had misread it).
        table = sim.table_of(after)
        zero = next(b["custom_id"] for b in buttons(table) if b["label"] == "0")
        one = next(b["custom_id"] for b in buttons(table) if b["label"] == "1")
        results = await clicks_at_once(sim, [(second, table.id, one), (second, table.id, zero)])
        assert callback_type(sim, results[0]) == 7
        assert private(results[1]) == "✅ You bid 1.\nℹ️ Only the first button you pressed counts."
        # A bid of an older table is stale, and said so.
        older = f"wiz:{info.id}:bid:2:{info.version}"
        stale = await post_buttons(sim, ann, older)
        assert private(await second.click(stale, custom_id=older)) == STALE_TABLE
        now = await sim.service.get_game(info.id)
        assert now.version == after.version + 1
        assert now.table is not None and sorted(b for b in now.table.bids if b is not None) == [
            0,
            1,
        ]
        # The table shows the third bidder's buttons, at the current version.
        assert {v for _, _, v in bids_shown(sim.table_of(now))} == {now.version}
        assert not sim.env.errors


async def test_a_table_bid_button_works_after_a_restart(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy])
        first, second, _ = await bidders(sim, info)
        await sim.click_table(first, "1")
        middle = await sim.service.get_game(info.id)
        old = sim.table_of(middle)  # the table as the old process drew it
        await sim.restart()
        before = len(sim.env.http_requests)
        result = await second.click(old, label="0")
        assert callback_type(sim, result) == 7  # the table, redrawn in place
        await sim.cog.surfaces.idle()
        # The new process knew nothing of the table, and still made no extra edit.
        assert rest_kinds(sim.env.http_requests[before:]) == {RestKind.RESPONSE: 1}
        now = await sim.service.get_game(info.id)
        assert now.version == middle.version + 1
        assert {v for _, _, v in bids_shown(sim.table_of(now))} == {now.version}
        assert not sim.env.errors


async def test_uneven_bids_disable_the_dealers_forbidden_bid_on_the_table(
    tmp_path: Path,
) -> None:
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], uneven_bids=True)
        first, second, dealer = await bidders(sim, info)
        assert all(enabled for _, enabled, _ in bids_shown(sim.table_of(info)))
        await sim.click_table(first, "0")
        await sim.click_table(second, "0")
        now = await sim.service.get_game(info.id)
        # The bids would add up to the round's 1 trick: forbidden for the dealer (R7.1).
        assert [(label, enabled) for label, enabled, _ in bids_shown(sim.table_of(now))] == [
            ("0", True),
            ("1", False),
        ]
        # The table says why the button is greyed out.
        said = message_text(sim.table_of(now))
        assert "the dealer may not bid 1: the bids would add up to 1" in said, said
        await sim.click_table(dealer, "0")
        assert not sim.env.errors


async def test_hidden_bids_stay_in_the_hands(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], bidding="hidden")
        assert [b["label"] for b in buttons(sim.table_of(info))] == ["Show my hand"]
        hand = await sim.open_hand(ann)
        assert [b["label"] for b in buttons(hand) if is_bid_button(b)] == ["0", "1"]


def test_the_canadian_rule_is_explained_on_the_table() -> None:
    # R7.5: the sole leader, dealing the last round, may not make the bids add up.
    import random as _random

    from bot.features.table import status_line
    from bot.i18n import texts
    from wizard.options import Options
    from wizard.rules import apply, legal_actions, new_game
    from wizard.state import Bid, Phase
    from wizard.view import table_view

    names = ["A", "B", "C", "D", "E", "F"]
    for seed in range(500):
        rng = _random.Random(seed)
        state = new_game(names, Options(canadian=True), seed=seed)
        while not (state.round == 10 and state.phase is Phase.BID):
            state = apply(state, rng.choice(legal_actions(state)))
        top = max(state.scores)
        if state.scores[state.dealer] == top and state.scores.count(top) == 1:
            break
    while state.turn != state.dealer:  # everyone else bids 0
        state = apply(state, Bid(state.turn, 0))  # type: ignore[arg-type]
    line = status_line(table_view(state), names, t=texts("en"))
    dealer = names[state.dealer]
    assert f"**{dealer}** is alone at the top of the scores in the last round" in line, line
    assert "may not bid 10: the bids would add up to 10" in line, line


def test_a_magic_two_that_takes_a_trick_says_why() -> None:
    # R7.6: the 2 of the suit to follow beats the Wizard; without a word it looks like a bug.
    from bot.features.table import won_trick_text
    from bot.i18n import texts
    from wizard.cards import Card, Suit, Theme

    names = ["Ann", "Bob", "Cy"]
    g9, wizard, g2 = Card.parse("G9"), Card.parse("Z"), Card.parse("G2")
    magic = [(0, g9), (1, wizard), (2, g2)]
    text = won_trick_text(magic, names, 2, Theme.CLASSIC, t=texts("en"), magic_twos=True)
    why = "(a magic two: a 2 of the suit to follow wins, even over Wizards)"
    assert text.endswith(f"won by **Cy** {why}"), text
    # A trick the 2 would have won anyway, and one the Wizard won, say nothing more.
    plain = [(0, Card.parse("G1")), (1, g2), (2, Card.parse("R5"))]
    said = won_trick_text(plain, names, 1, Theme.CLASSIC, t=texts("en"), magic_twos=True)
    assert said.endswith("won by **Bob**")
    # R1.5: the standard deck shows rank 2 as a 3; the note names the card the table shows.
    shown = won_trick_text(magic, names, 2, Theme.STANDARD, t=texts("en"), magic_twos=True)
    assert "Cy 3♦️" in shown and "(a magic two: a 3 of the suit to follow wins" in shown, shown
    wins = [(0, g2), (1, wizard), (2, g9)]  # the 2 set the suit: an ordinary 2
    en = texts("en")
    said = won_trick_text(wins, names, 1, Theme.CLASSIC, t=en, magic_twos=True, trump=Suit.HUMANS)
    assert said.endswith("won by **Bob**")


def test_a_magic_two_ahead_in_a_trick_being_played_says_why() -> None:
    # QA (pt): mid-trick the table said "→ lucia is ahead" beside a Wizard and a 2, with no
    # word of why; only the finished trick explained it. R7.6, shown on the table and on the
    # hand of the player to play, who decides whether a Wizard is worth playing.
    from bot.features.table import trick_in_play_text
    from bot.i18n import texts
    from wizard.cards import Card, Theme
    from wizard.options import Options

    names = ["Ann", "Bob", "Cy"]
    en = texts("en")
    trick = [(0, Card.parse("G9")), (1, Card.parse("G13")), (2, Card.parse("G2"))]
    magic = Options(magic_twos=True)
    said = trick_in_play_text(trick, names, magic, None, Theme.CLASSIC, t=en)
    why = "(a magic two: a 2 of the suit to follow wins, even over Wizards)"
    assert said == f"Ann 🟩G9 · Bob 🟩G13 · Cy 🟩G2 → **Cy** is ahead {why}", said
    # Without the variant the 13 is ahead, with nothing more; one card names nobody.
    plain = trick_in_play_text(trick, names, Options(), None, Theme.CLASSIC, t=en)
    assert plain.endswith("→ **Bob** is ahead"), plain
    assert trick_in_play_text(trick[:1], names, magic, None, Theme.CLASSIC, t=en) == "Ann 🟩G9"


def test_a_tie_of_equal_values_in_single_suit_says_why() -> None:
    # R7.7: with no suits, the first of equal values wins. Variants QA: "bob 🟥R10 · cy 🟩G10
    # → bob is ahead" said nothing, so it looked as if the suits' order decided.
    from bot.features.table import trick_in_play_text, won_trick_text
    from bot.i18n import texts
    from wizard.cards import Card, Theme
    from wizard.options import Options

    names = ["Ann", "Bob", "Cy"]
    en = texts("en")
    why = "(equal values: the first one played wins)"
    single = Options(single_suit=True)
    tie = [(1, Card.parse("R10")), (2, Card.parse("G10")), (0, Card.parse("N"))]
    said = trick_in_play_text(tie[:2], names, single, None, Theme.CLASSIC, t=en)
    assert said == f"Bob 🟥R10 · Cy 🟩G10 → **Bob** is ahead {why}", said
    won = won_trick_text(tie, names, 1, Theme.CLASSIC, t=en, single_suit=True)
    assert won.endswith(f"won by **Bob** {why}"), won
    wizards = [(0, Card.parse("Z")), (1, Card.parse("Z")), (2, Card.parse("B13"))]
    won = won_trick_text(wizards, names, 0, Theme.CLASSIC, t=en, single_suit=True)
    assert won.endswith(f"won by **Ann** {why}"), won
    # A higher value wins with nothing more said, and so does an equal value played before
    # the winner (it cannot be the reason); in the standard game suits decide, not order.
    higher = [(1, Card.parse("R10")), (2, Card.parse("G11"))]
    said = trick_in_play_text(higher, names, single, None, Theme.CLASSIC, t=en)
    assert said.endswith("→ **Cy** is ahead"), said
    beaten = [(1, Card.parse("R10")), (2, Card.parse("G10")), (0, Card.parse("Y12"))]
    won = won_trick_text(beaten, names, 0, Theme.CLASSIC, t=en, single_suit=True)
    assert won.endswith("won by **Ann**"), won
    said = trick_in_play_text(tie[:2], names, Options(), None, Theme.CLASSIC, t=en)
    assert "equal" not in said, said
