"""The engine behaves exactly as the engine of 44b591f did (R2–R7, §9 records).

Each case replays one random game of the fixture (every setup the engine accepts: 3–6
players and every mix of variants, plus more standard four-player games) and compares,
round by round, hashes of everything observable: states, legal actions, views, records,
and the class, rule id and message of every refusal tried along the way. The fixture was
written by the engine before it was made faster (see ``tests/engine/equivalence.py``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.engine.equivalence import FIXTURE, game_plan, trace
from wizard.options import Options

_GAMES: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))["games"]


def _case_id(game: dict[str, Any]) -> str:
    on = [k for k, v in game["options"].items() if v not in (False, "open")]
    bidding = game["options"]["bidding"]
    names = [f"{k}={bidding}" if k == "bidding" else k for k in on]
    return f"{game['players']}p-seed{game['seed']}-" + ("+".join(names) or "standard")


def test_R2_2_fixture_covers_every_setup() -> None:
    planned = [(p, o.model_dump(mode="json"), s) for p, o, s in game_plan()]
    recorded = [(g["players"], g["options"], g["seed"]) for g in _GAMES]
    assert recorded == planned


@pytest.mark.parametrize("game", _GAMES, ids=_case_id)
def test_R2_R7_same_game_as_the_reference_engine(game: dict[str, Any]) -> None:
    now = trace(game["players"], Options.model_validate(game["options"]), game["seed"])
    for number, (want, got) in enumerate(zip(game["rounds"], now["rounds"], strict=False), 1):
        assert got == want, f"round {number} differs from the reference engine"
    assert now == game
