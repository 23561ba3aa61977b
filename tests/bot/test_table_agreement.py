"""Every open hand agrees with the public table after every move (not only the hand whose
turn comes or ends): the players it says the game waits for, and the trump while the dealer
names it after a turned Wizard (R3.3)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import simcord

from tests.bot.conftest import Sim, buttons, simulation
from tests.bot.test_game_variants import wizard_turned_seed
from wizard.service import GameInfo, GameStatus
from wizard.state import Phase

pytestmark = pytest.mark.usefixtures("fast_settle")

WAITING = re.compile(r"^Waiting for (.+?)\.(?: |$)", re.MULTILINE)


def waiting_names(content: str) -> list[str] | None:
    """The players a hand says the game waits for (``None`` when it names none)."""
    match = WAITING.search(content)
    if match is None or match.group(1) == "the others":
        return None
    return re.findall(r"\*\*(.+?)\*\*", match.group(1))


async def hands_agree(sim: Sim, game_id: int, members: list[simcord.MemberActor]) -> int:
    """Each member's newest hand says what the table says: the players it waits for, and
    no bid prompt once bidding is over. The number of hands that named waiting players."""
    await sim.cog.surfaces.idle()
    info = await sim.service.get_game(game_id)
    if info.status is not GameStatus.ACTIVE:
        return 0
    table = info.table
    assert table is not None
    named = 0
    for member in members:
        hand = sim.hand(member)
        if hand is None:
            continue
        said = waiting_names(hand.content)
        if said is not None:
            named += 1
            waited = [table.players[s] for s in table.to_act]
            assert said == waited, (member.name, hand.content, waited)
        if table.phase is not Phase.BID:
            assert "Bids are made with the buttons on the table" not in hand.content
    return named


async def test_every_open_hand_names_the_players_the_table_waits_for(tmp_path: Path) -> None:
    """A hand said "Waiting for Morgana" after Morgana had bid, and "Bids are made with the
    buttons on the table" while cards were being played: only the hand whose turn came or
    ended was redrawn, not the others, whose waiting line had gone stale."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=2)
        for member in sim.members:
            await sim.open_hand(member)
        named = 0

        async def check() -> None:
            nonlocal named
            named += await hands_agree(sim, info.id, sim.members)

        await check()
        end = await sim.play(info.id, random.Random(5), step=check, until=lambda i: _round(i) > 4)
        assert end.status is GameStatus.ACTIVE
        assert named > 20
        assert not sim.env.errors


def _round(info: GameInfo) -> int:
    assert info.table is not None
    return info.table.round


async def test_while_a_person_deals_and_names_trump_the_hands_say_so(tmp_path: Path) -> None:
    """R3.3: a Wizard is turned and the dealer, a person, names trump. The table says the
    dealer is choosing; every other hand says the same, not "Trump: none", and the dealer's
    own hand asks them to choose without naming them."""
    seed = wizard_turned_seed(["ann", "bob", "Merlin", "Morgana"], dealer=1)
    async with simulation(tmp_path, members=2, seed=seed) as sim:
        ann, bob = sim.members
        await sim.lobby(ann, [bob], computers=2)
        choosing = "Turned 🧙Wizard: **bob** (dealer) is choosing trump."
        assert choosing in (sim.table().embeds[0].description or "")
        hand = await sim.open_hand(ann)
        assert choosing in hand.content, hand.content
        assert "Trump: none" not in hand.content
        own = (await sim.open_hand(bob)).content
        assert "Turned 🧙Wizard.\n**Your turn:** you are the dealer, choose trump." in own, own
        assert "**bob**" not in own and "Trump: none" not in own


async def test_while_a_computer_deals_and_names_trump_the_hands_say_so(tmp_path: Path) -> None:
    """R3.3 with a computer dealer (which takes its delay to choose): the hands say it is
    choosing, then show the trump it chose, as the table does."""
    seed = wizard_turned_seed(["ann", "bob", "Merlin", "Morgana"], dealer=2)
    async with simulation(tmp_path, members=2, seed=seed, computer_delay=1.0) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=2)
        choosing = "Turned 🧙Wizard: **Merlin** (dealer) is choosing trump."
        assert choosing in (sim.table().embeds[0].description or "")
        for member in (ann, bob):
            hand = await sim.open_hand(member)
            assert choosing in hand.content, hand.content
            assert "Trump: none" not in hand.content
        await sim.env.advance_time(5.0)
        await sim.cog.surfaces.idle()
        now = await sim.service.get_game(info.id)
        assert now.table is not None and now.table.trump is not None
        described = sim.table_of(now).embeds[0].description or ""
        chose = re.search(r"\*\*Merlin\*\* chose (.+?)\.", described)
        assert chose is not None, described
        for member in (ann, bob):
            hand = sim.hand(member)
            assert hand is not None
            assert f"Trump: {chose.group(1)}" in hand.content, hand.content


async def test_at_the_end_every_open_hand_says_the_game_is_over(tmp_path: Path) -> None:
    """The last card ends the game: the final standings are posted, and every open hand
    (not only the last player's) says the game is over and offers nothing. Before, the
    others' hands stayed at the last trick: "Waiting for Taliesin", a trick count the
    standings contradicted, and buttons for a game that was over."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=4)
        for member in sim.members:
            await sim.open_hand(member)
        end = await sim.play(info.id, random.Random(3))
        assert end.status is GameStatus.FINISHED
        await sim.cog.surfaces.idle()
        await sim.final_standings(info.id)
        for member in sim.members:
            hand = sim.hand(member)
            assert hand is not None
            assert "🏁 This game is over." in hand.content, (member.name, hand.content)
            assert "Waiting for" not in hand.content
            assert buttons(hand) == []
        assert not sim.env.errors
