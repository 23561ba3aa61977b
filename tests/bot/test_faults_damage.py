"""A damaged game as the channel and its players meet it: found at a restart or by a click,
the table says it cannot go on (no buttons left that lead nowhere), and a seated player's
click reads "damaged" in their language, never "you are not playing in this game"."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import simcord

from bot.cogs.replies import DAMAGED, NOT_PLAYING
from bot.i18n import texts
from tests.bot.conftest import Sim, buttons, message_text, simulation, verb_of
from tests.bot.i18n_support import user_locales
from tests.damage_support import block_next_action, run_sql
from wizard.service import GameStatus

pytestmark = pytest.mark.usefixtures("fast_settle")

T_PT = texts("pt-BR")


async def _mid_game_hand_open(sim: Sim) -> tuple[int, simcord.MemberActor]:
    """A game in play, and the member to move, with their hand open."""
    game_id = await _mid_game(sim)
    mover = (await sim.to_act(game_id))[0]
    await sim.open_hand(mover)
    return game_id, mover


def _in_portuguese(sim: Sim, monkeypatch: pytest.MonkeyPatch) -> None:
    locales = user_locales(monkeypatch)
    for member in sim.members:
        locales[member] = "pt-BR"


async def _mid_game(sim: Sim) -> int:
    ann, bob, cy = sim.members
    info = await sim.lobby(ann, [bob, cy])
    await sim.play(
        info.id,
        random.Random(5),
        until=lambda i: i.table is not None and i.table.round >= 3 and i.table.phase == "play",
    )
    return info.id


async def _the_table_says_damaged(sim: Sim, game_id: int) -> None:
    await sim.cog.surfaces.idle()
    info = await sim.service.get_game(game_id)
    assert info.status is GameStatus.BROKEN
    table = sim.table_of(info)
    text = message_text(table)
    assert "damaged" in text and f"game {game_id}" in text, text
    assert buttons(table) == []


async def _card_click_reads_damaged(sim: Sim, mover: simcord.MemberActor) -> None:
    hand = sim.hand(mover)
    assert hand is not None
    card = next(b for b in buttons(hand) if verb_of(b) == "play" and not b.get("disabled"))
    reply = await mover.click(hand, custom_id=card["custom_id"])
    assert reply.response is not None
    content = reply.response.content
    assert T_PT(DAMAGED) in content, content
    assert T_PT(NOT_PLAYING) not in content


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE actions SET arg = 'X99' WHERE game_id = ? AND seq = 2",
        # QA: the game ran to its last card, which could never be saved ("try again").
        "INSERT INTO seat_holders (game_id, seat, from_action, user_id, level, name)"
        " VALUES (?, 1, 2, 'zz', NULL, 'Ghost')",
        # QA: played as 'random', and shown raw on the table ("🤖 godlike").
        "UPDATE games SET computer_level = 'godlike' WHERE id = ?",
    ],
    ids=["action", "seat holder", "computer level"],
)
async def test_a_game_found_damaged_at_a_restart_says_so_on_its_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    async with simulation(tmp_path, members=3) as sim:
        _in_portuguese(sim, monkeypatch)
        game_id, mover = await _mid_game_hand_open(sim)
        run_sql(sim.path, damage, (game_id,))
        await sim.restart()
        await sim.env.advance_time(60)
        await _the_table_says_damaged(sim, game_id)
        await _card_click_reads_damaged(sim, mover)


async def test_a_game_whose_channel_is_damaged_says_so_to_a_click(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fault QA: with its channel_id damaged, the game was set aside, but a click answered
    "That game does not exist any more": the click took the unknown channel for another."""
    async with simulation(tmp_path, members=3) as sim:
        _in_portuguese(sim, monkeypatch)
        game_id, mover = await _mid_game_hand_open(sim)
        run_sql(sim.path, "UPDATE games SET channel_id = 'c' WHERE id = ?", (game_id,))
        await sim.restart()
        await sim.env.advance_time(60)
        await _card_click_reads_damaged(sim, mover)


async def test_a_game_quarantined_at_start_says_so_on_its_table(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=3) as sim:
        game_id = await _mid_game(sim)
        # The log lost its last action: quarantined as the service starts, before any use.
        last = "(SELECT MAX(seq) FROM actions WHERE game_id = ?1)"
        run_sql(sim.path, f"DELETE FROM actions WHERE game_id = ?1 AND seq = {last}", (game_id,))
        await sim.restart()
        await sim.env.advance_time(60)
        await _the_table_says_damaged(sim, game_id)


async def test_a_game_found_damaged_by_a_click_says_so_on_its_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with simulation(tmp_path, members=3) as sim:
        _in_portuguese(sim, monkeypatch)
        game_id, mover = await _mid_game_hand_open(sim)
        # A row stands where the next action goes: the move can never be saved.
        block_next_action(sim.path, game_id)
        await _card_click_reads_damaged(sim, mover)
        await _the_table_says_damaged(sim, game_id)
