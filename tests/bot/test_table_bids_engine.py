"""The table's bid buttons ask the engine (R7.1, R7.5): in whole games of people under open
bidding, at every bid the enabled buttons are exactly the legal bids the engine gives the
seat to bid, and the disabled one is the engine's forbidden bid."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.features.table import bids_on_table
from tests.bot.conftest import buttons, is_bid_button, simulation, version_of
from wizard.rules import forbidden_bid_public
from wizard.service import GameStatus
from wizard.state import Bid

pytestmark = pytest.mark.usefixtures("fast_settle")


def low_bids(enabled: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Mostly the lowest bid (so that the bids often leave the dealer a forbidden one), and a
    random card."""
    if all(is_bid_button(b) for b in enabled) and rng.random() < 0.8:
        return enabled[0]
    return rng.choice(enabled)


@pytest.mark.parametrize(
    ("options", "seed", "least"),
    [({"uneven_bids": True}, 1, 5), ({"canadian": True}, 4, 1), ({"canadian": True}, 2, 0)],
    ids=["R7_1-uneven-bids", "R7_5-canadian-leader-alone", "R7_5-canadian-never-alone"],
)
async def test_R7_1_R7_5_the_tables_disabled_bid_is_the_engines(
    tmp_path: Path, options: dict[str, Any], seed: int, least: int
) -> None:
    """``least``: how many disabled bids the game reaches (seed 4 brings the Canadian rule's
    sole leader to the last round's bidding, seed 2 does not)."""
    async with simulation(tmp_path, members=6, seed=seed) as sim:
        ann, *others = sim.members
        info = await sim.lobby(ann, others, **options)
        rng = random.Random(seed)
        disabled_seen = 0
        while True:
            info = await sim.service.get_game(info.id)
            if info.status is not GameStatus.ACTIVE:
                break
            table = info.table
            assert table is not None
            if bids_on_table(table):
                assert table.turn is not None
                user = info.seats[table.turn].user_id
                assert user is not None
                seat_view = await sim.service.seat_view(info.id, user)
                legal = {a.bid for a in seat_view.view.legal if isinstance(a, Bid)}
                shown = [
                    b
                    for b in buttons(sim.table_of(info))
                    if is_bid_button(b) and version_of(b) == info.version
                ]
                enabled = {int(b["label"]) for b in shown if not b.get("disabled")}
                disabled = {int(b["label"]) for b in shown if b.get("disabled")}
                assert enabled == legal, (table.round, table.bids)
                forbidden = forbidden_bid_public(table)
                expected = (
                    {forbidden[0]} & set(range(table.round_tricks + 1)) if forbidden else set()
                )
                assert disabled == expected
                disabled_seen += len(disabled)
            [mover] = await sim.to_act(info.id)
            await sim.act(mover, lambda enabled: low_bids(enabled, rng))
        assert info.status is GameStatus.FINISHED
        assert disabled_seen >= least
        assert not sim.env.errors
