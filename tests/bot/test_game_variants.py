"""Every variant of RULES §7 played through in Discord (two people and computer players), and
the dealer naming trump after a turned Wizard from the hand."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.bot.conftest import ACTION_VERBS, buttons, record_file, simulation, verb_of
from tests.bot.test_game_refusals import callback_bodies
from wizard.options import Bidding, Options
from wizard.record import load
from wizard.rules import deal_next_round, new_game
from wizard.service import GameStatus

pytestmark = pytest.mark.usefixtures("fast_settle")

VARIANTS: list[tuple[str, dict[str, Any], Options, int]] = [
    ("classic", {}, Options(), 6),
    ("uneven bids R7.1", {"uneven_bids": True}, Options(uneven_bids=True), 3),
    ("hidden bids R7.2", {"bidding": "hidden"}, Options(bidding=Bidding.HIDDEN), 6),
    ("secret bids R7.3", {"bidding": "secret"}, Options(bidding=Bidding.SECRET), 6),
    ("clairvoyance R7.4", {"clairvoyance": True}, Options(clairvoyance=True), 6),
    ("canadian R7.5", {"canadian": True}, Options(canadian=True), 6),
    ("magic twos R7.6", {"magic_twos": True}, Options(magic_twos=True), 6),
    ("single suit R7.7", {"single_suit": True}, Options(single_suit=True), 4),
]


@pytest.mark.parametrize(
    ("chosen", "options", "seats"),
    [pytest.param(c, o, n, id=name) for name, c, o, n in VARIANTS],
)
async def test_variant_played_through(
    tmp_path: Path, chosen: dict[str, Any], options: Options, seats: int
) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=seats - 2, **chosen)
        assert info.options == options
        first_table = sim.table().embeds[0].description or ""
        if options.single_suit:
            assert "(single suit)" in first_table
        clicked: Counter[str] = Counter()
        disabled_bids = 0
        rng = random.Random(7)
        original = sim.act

        async def act(member: Any, _: Any) -> Any:
            def choose(enabled: list[dict[str, Any]]) -> dict[str, Any]:
                nonlocal disabled_bids
                # The message the driver clicks: the table (open bids) or the hand.
                assert sim.last_clicked is not None
                shown = buttons(sim.last_clicked)
                disabled_bids += sum(1 for b in shown if verb_of(b) == "bid" and b["disabled"])
                button = rng.choice(enabled)
                clicked[verb_of(button)] += 1
                return button

            return await original(member, choose)

        sim.act = act  # type: ignore[method-assign]
        end = await sim.play(info.id, rng)
        assert end.status is GameStatus.FINISHED
        message, _ = await sim.final_standings(info.id)
        record = load((await record_file(message).read()).decode())
        assert record.options == options
        assert len(record.rounds) == (12 if options.single_suit else 60 // seats)
        assert clicked["bid"] > 0 and clicked["play"] > 0
        if options.clairvoyance:
            assert clicked["playhidden"] == 2  # round 1: each person plays their unseen card
        else:
            assert clicked["playhidden"] == 0
        if options.uneven_bids:
            assert disabled_bids > 0  # the dealer's forbidden bid is shown, but disabled
        # Open bids were made on the table, the others in the hands.
        assert (sim.table_bids > 0) is (options.bidding is Bidding.OPEN)
        assert not sim.env.errors


def wizard_turned_seed(names: list[str], dealer: int) -> int:
    """A seed whose first deal turns up a Wizard with ``dealer`` dealing (R3.3)."""
    for seed in range(1, 100_000):
        state = deal_next_round(new_game(names, Options(), seed=seed))
        if state.turned is not None and state.turned.is_wizard and state.dealer == dealer:
            return seed
    raise AssertionError("no such seed")


async def test_dealer_names_trump_after_a_turned_wizard(tmp_path: Path) -> None:
    seed = wizard_turned_seed(["ann", "bob", "Merlin", "Morgana", "Nimue", "Taliesin"], dealer=1)
    async with simulation(tmp_path, members=2, seed=seed) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=4)
        table = sim.table()
        assert "**bob** (dealer) is choosing trump." in (table.embeds[0].description or "")
        hand = await sim.open_hand(bob)
        trumps = [b for b in buttons(hand) if verb_of(b) == "trump"]
        # Named as everywhere else, not by a bare letter.
        assert [b["label"] for b in trumps] == [
            "Humans (B)",
            "Dwarves (R)",
            "Elves (G)",
            "Giants (Y)",
        ]
        assert "choose trump" in hand.content
        # Someone else has nothing to click yet.
        moves = [b for b in buttons(await sim.open_hand(ann)) if verb_of(b) in ACTION_VERBS]
        assert not [b for b in moves if not b.get("disabled")]
        chosen = next(b for b in trumps if b["label"] == "Elves (G)")
        result = await bob.click(hand, custom_id=chosen["custom_id"])
        # The click's answer says what it did; the hand, redrawn since as the computers bid
        # (it names whom the game waits for), shows the trump.
        [answer] = callback_bodies(sim, [result])
        assert answer.startswith("✅ You chose 🟩 Elves (G) as trump.")
        assert result.response is not None
        assert "Trump: 🟩 Elves (G)" in result.response.content
        description = sim.table().embeds[0].description or ""
        assert "**bob** chose 🟩 Elves (G)." in description
        end = await sim.play(info.id, random.Random(1))
        assert end.status is GameStatus.FINISHED
        message, _ = await sim.final_standings(info.id)
        record = load((await record_file(message).read()).decode())
        assert record.rounds[0].turned == "Z" and record.rounds[0].trump == "G"
