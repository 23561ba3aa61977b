"""Taking a computer's seat through the bot (issue 11, "Take a seat"): the host's switch in
the lobby, the table's button, the private choice of seats, the hand right away, the
channel's note, and the refusal (in the member's language) when the host has not allowed it."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from bot.features.community.render import game_embed, round_starts
from bot.features.seat_notes import BACK_NOTE, LEFT_NOTE
from bot.i18n import texts
from tests.bot.conftest import (
    Sim,
    buttons,
    clicks_at_once,
    message_text,
    post_buttons,
    simulation,
    verb_of,
)
from tests.bot.i18n_support import user_locales
from wizard.options import Options
from wizard.record import dumps, load
from wizard.rules import apply, legal_actions, new_game
from wizard.service import GameInfo, GameStatus, SeatHolder
from wizard.service.boards import FinishedGame
from wizard.service.game import standings
from wizard.state import Deal, Phase

pytestmark = pytest.mark.usefixtures("fast_settle")


def description(message: Any) -> str:
    return message.embeds[0].description or ""


def take_seat_button(message: Any) -> dict[str, Any] | None:
    found = [b for b in buttons(message) if verb_of(b) == "takeseat"]
    return found[0] if found else None


async def open_lobby_with_computers(sim: Sim, allow: bool) -> int:
    """Ann's lobby with two computers (and, if ``allow``, seat taking switched on); started."""
    ann = sim.members[0]
    info = await sim.new_game(ann)
    lobby = sim.message(sim.raw()[-1].id)
    for _ in range(2):
        await ann.click(lobby, label="Add computer player")
    lobby = sim.message(lobby.id)
    # Said so that it reads before anyone has left a seat, as the "on" line does.
    assert "🙋 Nobody else can take over a computer's seat." in description(lobby)
    assert "Let others take computer seats: off" in [b.get("label") for b in buttons(lobby)]
    if allow:
        bob = sim.members[1]
        refused = await bob.click(lobby, label="Let others take computer seats: off")
        assert refused.ephemeral  # only the host
        assert not (await sim.service.get_game(info.id)).allow_seat_taking
        await ann.click(lobby, label="Let others take computer seats: off")
        lobby = sim.message(lobby.id)
        assert "People who are not playing may take over a computer's seat." in description(lobby)
        assert "Let others take computer seats: on" in [b.get("label") for b in buttons(lobby)]
        assert (await sim.service.get_game(info.id)).allow_seat_taking
    await ann.click(lobby, label="Start")
    return info.id


async def after_seat_1_bid(sim: Sim, game: int, rng: random.Random) -> GameInfo:
    """The game once the computer in seat 1 has bid (mid-round), ann clicking till then."""
    while True:
        info = await sim.service.get_game(game)
        assert info.status is GameStatus.ACTIVE and info.table is not None
        if info.table.has_bid[1]:
            return info
        await sim.act(sim.members[0], rng.choice)


async def test_a_bystander_takes_a_computer_seat_mid_round(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        game = await open_lobby_with_computers(sim, allow=True)
        rng = random.Random(3)
        info = await after_seat_1_bid(sim, game, rng)
        table = sim.table_of(info)
        show = take_seat_button(table)
        assert show is not None and show["label"] == "Take a seat"

        # cy looks at the same choice; bob is quicker.
        cy = sim.guild.add_member(sim.env.create_user("cy"))
        late = await cy.click(table, custom_id=show["custom_id"])
        assert late.response is not None
        # Two computers: a private choice of seats, each with its level.
        choice = await bob.click(table, custom_id=show["custom_id"])
        assert choice.ephemeral and choice.response is not None
        labels = [b.get("label") for b in buttons(choice.response)]
        assert labels == ["Merlin (Normal)", "Morgana (Normal)"]
        taken = await bob.click(choice.response, label="Merlin (Normal)")
        assert taken.response is not None and taken.response.ephemeral
        hand = message_text(taken.response)
        assert "You now play this seat" in hand and "your hand" in hand
        # Merlin made this round's bid, not bob (QA: "your bid: 0").
        assert "your seat's bid: " in hand and "your bid" not in hand, hand
        sim.hands[bob.id] = taken.response.id
        # cy's choice still offers Merlin: the refusal says who plays it now.
        lost = await cy.click(sim.message(late.response.id), label="Merlin (Normal)")
        assert lost.response is not None
        assert message_text(lost.response).strip() == (
            "🚫 A person plays that seat, not a computer. bob plays it now."
        )

        info = await sim.service.get_game(game)
        assert info.seats[1].user_id == bob.id and info.seats[1].name == "bob"
        assert not info.seats[1].computer_controlled
        notes = [m.content for m in sim.public() if "took over" in m.content]
        assert notes == ["🙋 **bob** took over **Merlin**'s seat (was a computer, Normal)."]
        table = sim.table_of(info)
        assert "**bob**" in description(table) and "Merlin" not in description(table)

        # The game waits for bob at seat 1's turn (the computer no longer plays it); bob
        # plays it with his hand's buttons.
        while True:
            info = await sim.service.get_game(game)
            assert info.table is not None
            if 1 in info.table.to_act:
                break
            assert info.status is GameStatus.ACTIVE
            await sim.act(ann, rng.choice)
        log_before = info.version
        await sim.act(bob, rng.choice)
        info = await sim.service.get_game(game)
        assert info.version > log_before
        holders = await sim.service.seat_history(game)
        seat1 = [h for h in holders if h.seat == 1]
        assert [h.user_id for h in seat1][-1] == bob.id
        assert seat1[0].is_computer and seat1[0].level == "normal"
        assert seat1[-1].from_action > 0

        # Nobody else may take it now; a seated player has nothing to take.
        table = sim.table_of(info)
        show = take_seat_button(table)
        assert show is not None  # Morgana is still a computer
        only = await cy.click(table, custom_id=show["custom_id"])
        assert only.ephemeral and only.response is not None  # Morgana taken at once
        assert "You now play this seat" in message_text(only.response)
        info = await sim.service.get_game(game)
        assert [s.user_id for s in info.seats] == [ann.id, bob.id, cy.id]
        assert take_seat_button(sim.table_of(info)) is None


async def test_refused_in_german_when_the_host_has_not_allowed_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=2, test_buttons=True) as sim:
        ann, bob = sim.members
        locales[bob] = "de"
        game = await open_lobby_with_computers(sim, allow=False)
        info = await sim.service.get_game(game)
        table = sim.table_of(info)
        assert take_seat_button(table) is None  # not offered
        # A button drawn before (or crafted) is refused, in bob's language.
        custom_id = f"wiz:{game}:takeseat::{info.version}"
        crafted = await post_buttons(sim, ann, custom_id)
        refused = await bob.click(crafted, custom_id=custom_id)
        assert refused.ephemeral and refused.response is not None
        assert str(refused.response.content) == (
            "🚫 Der Gastgeber hat in dieser Partie nicht erlaubt, Plätze von Computern zu "
            "übernehmen."
        )
        info = await sim.service.get_game(game)
        assert bob.id not in [s.user_id for s in info.seats]


async def test_one_who_left_is_told_who_took_their_seat(tmp_path: Path) -> None:
    """QA: bob left, cy took his seat, and bob's open hand said only "You are not playing in
    this game"; his hand, Show my hand and a stale Take my seat back now say who plays it."""
    async with simulation(tmp_path, members=3, test_buttons=True) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        await sim.service.set_seat_taking(info.id, ann.id, True)
        # Into round 2: bob has played his seat (the seat's history holds him).
        info = await sim.play(
            info.id, random.Random(2), until=lambda i: i.table is not None and i.table.round > 1
        )
        hand = await sim.open_hand(bob)
        asked = await bob.click(hand, label="Leave")
        assert asked.response is not None
        await bob.click(asked.response, label="Yes, leave")
        [back] = buttons(sim.message(hand.id))
        assert back["label"] == "Take my seat back"
        info = await sim.service.get_game(info.id)
        table = sim.table_of(info)
        show = take_seat_button(table)
        assert show is not None
        choice = await cy.click(table, custom_id=show["custom_id"])
        assert choice.response is not None
        await cy.click(choice.response, label="bob (left the game)")
        told = (
            "🙋 Someone else took over your seat in this game. **cy** plays it now. You can watch "
            "the game on the table."
        )
        await sim.env.advance_time(5)
        now = sim.message(hand.id)
        assert message_text(now).strip() == told and not buttons(now)
        # Pressed on a copy drawn before the seat was taken (another device, a slow client).
        again = await bob.click(
            await post_buttons(sim, ann, back["custom_id"]), custom_id=back["custom_id"]
        )
        assert again.response is not None and message_text(again.response).strip() == told
        shown = await bob.click(sim.table(), label="Show my hand")
        assert shown.response is not None and message_text(shown.response).strip() == told
        # The table's Take a seat, still offered for the computer's: one person plays one
        # seat of a game (QA: bob took the computer's seat and ended the game with its place
        # and points, not forfeiting the one he left).
        table = sim.table_of(await sim.service.get_game(info.id))
        show = take_seat_button(table)
        assert show is not None
        hopped = await bob.click(table, custom_id=show["custom_id"])
        assert hopped.response is not None and message_text(hopped.response).strip() == told
        assert bob.id not in [s.user_id for s in (await sim.service.get_game(info.id)).seats]


def test_history_shows_who_played_a_seat_that_changed_hands() -> None:
    """A finished game in the history: "Merlin (computer, Normal) → Sam from round 3", the
    round found from the record (the log holds the players' actions only)."""
    rng = random.Random(4)
    state = new_game(["ann", "Merlin", "cy"], Options(), seed=9)
    logged = 0
    starts: list[int] = []
    while state.phase is not Phase.GAME_OVER:
        action = rng.choice(legal_actions(state))
        if isinstance(action, Deal):
            starts.append(logged)
        else:
            logged += 1
        state = apply(state, action)
    record = dumps(state)
    assert round_starts(load(record)) == starts
    holders = (
        SeatHolder(0, 0, 1, None, "ann"),
        SeatHolder(1, 0, None, "normal", "Merlin"),
        SeatHolder(1, starts[2] + 1, 2, None, "Sam"),
        SeatHolder(2, 0, 3, None, "cy"),
    )
    game = FinishedGame(
        id=7,
        guild_id=1,
        channel_id=2,
        players=("ann", "Sam", "cy"),
        user_ids=(1, 2, 3),
        options=Options(),
        history=(),
        standings=standings(state, [1, 2, 3]),
        started_at=None,
        finished_at=None,
        record=record,
        holders=holders,
    )
    text = game_embed(texts("en"), game, "x.png").description or ""
    assert "Seats that changed hands:" in text
    assert "Merlin (computer, Normal) → Sam from round 3" in text
    assert "hints used" not in text
    german = game_embed(texts("de"), game, "x.png").description or ""
    assert "Merlin (Computer, Normal) → Sam ab Runde 3" in german
    # QA: a computer that took a person's seat plays under their name: "cy → cy (computer,
    # Normal) from round 2" read as if nothing changed.
    left = SeatHolder(2, starts[1] + 1, None, "normal", "cy")
    game = dataclasses.replace(game, holders=(*holders, left))
    text = game_embed(texts("en"), game, "x.png").description or ""
    assert "cy → a computer (Normal) from round 2" in text, text


def test_the_choice_of_seats_tells_a_leavers_seat_from_a_computers() -> None:
    # QA: the seat of bob, who had left (a computer played it), was offered as "bob
    # (Normal)", like a computer player called bob.
    from bot.features.seats import seat_label
    from bot.i18n import texts
    from wizard.service import SeatInfo

    left = SeatInfo(1, 7, "bob", "normal", True, False, 0)
    computer = SeatInfo(2, None, "Merlin", "normal", False, False, 0)
    assert seat_label(left, t=texts("en")) == "bob (left the game)"
    assert seat_label(computer, t=texts("en")) == "Merlin (Normal)"
    # QA (pt): a player the host removed was offered as one who "left the game".
    removed = SeatInfo(1, 7, "bob", "normal", True, True, 0)
    assert seat_label(removed, t=texts("en")) == "bob (removed from the game)"
    # QA (es): one a computer stood in for after timeouts was offered as one who left.
    timed_out = SeatInfo(1, 7, "cy", "normal", True, False, 2)
    assert seat_label(timed_out, t=texts("en")) == "cy (time ran out)"


async def test_the_channel_is_told_who_left_and_who_came_back(tmp_path: Path) -> None:
    """QA: a take-over was said in the channel, but one who left, or came back, showed only
    as a changed line of the table. Both are said in the channel now (its language)."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy])
        hand = await sim.open_hand(bob)
        asked = await bob.click(hand, label="Leave")
        assert asked.response is not None
        [yes] = [b["custom_id"] for b in buttons(asked.response) if b["label"] == "Yes, leave"]
        # Pressed twice at once (review: said twice in the channel).
        await clicks_at_once(sim, [(bob, asked.response.id, yes), (bob, asked.response.id, yes)])
        await sim.env.advance_time(1)
        notes = [m.content for m in sim.public() if m.content.startswith(("🚪", "🙋"))]
        assert notes == ["🚪 **bob** left the game; a computer plays their seat (Normal)."]
        [back] = buttons(sim.message(hand.id))
        await bob.click(sim.message(hand.id), custom_id=back["custom_id"])
        await sim.env.advance_time(1)
        notes = [m.content for m in sim.public() if m.content.startswith(("🚪", "🙋"))]
        assert notes[1:] == ["🙋 **bob** is back and plays their seat again."], notes
        # With the table's button too, in the server's language.
        await sim.service.update_settings(info.guild_id, language="de")
        hand = await sim.open_hand(bob)
        asked = await bob.click(hand, label="Leave")
        assert asked.response is not None
        await bob.click(asked.response, label="Yes, leave")
        table = sim.table_of(await sim.service.get_game(info.id))
        show = take_seat_button(table)
        assert show is not None
        await bob.click(table, custom_id=show["custom_id"])
        await sim.env.advance_time(1)
        notes = [m.content for m in sim.public() if m.content.startswith(("🚪", "🙋"))]
        de = texts("de")
        assert notes[2:] == [
            "🚪 " + de(LEFT_NOTE, player="**bob**", level=de("Normal")),
            "🙋 " + de(BACK_NOTE, player="**bob**"),
        ], notes
        assert "left the game" not in notes[2]  # German, not English
        assert not sim.env.errors


async def test_the_channel_is_told_who_hosts_when_the_host_leaves_and_comes_back(
    tmp_path: Path,
) -> None:
    """QA: the host left, and the table's host tag moved to another player without a word
    (and back when the host returned)."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        await sim.lobby(ann, [bob, cy])
        hand = await sim.open_hand(ann)
        asked = await ann.click(hand, label="Leave")
        assert asked.response is not None
        await ann.click(asked.response, label="Yes, leave")
        [back] = buttons(sim.message(hand.id))
        await ann.click(sim.message(hand.id), custom_id=back["custom_id"])
        await sim.env.advance_time(1)
        notes = [m.content for m in sim.public() if m.content.startswith(("🚪", "🙋"))]
        assert notes == [
            "🚪 **ann** left the game; a computer plays their seat (Normal). "
            "**bob** hosts the game now.",
            "🙋 **ann** is back and plays their seat again. **ann** hosts the game now.",
        ], notes
        assert not sim.env.errors


async def timeout_notes(tmp_path: Path, idle: int, *, seat_taking: bool = False) -> list[str]:
    """The channel's ⏰ notes once member ``idle`` (ann 0, the host, or bob 1) let their time
    run out until a computer took their seat, in a game of ann, bob and a computer with a
    30-second timer (``seat_taking``: the host lets others take computers' seats)."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1, turn_timer=30)
        if seat_taking:
            await sim.service.set_seat_taking(info.id, ann.id, True)
        await sim.play(
            info.id,
            random.Random(3),
            idle=frozenset({sim.members[idle].id}),
            until=lambda i: i.seats[idle].away,
            advance=31.0,
        )
        await sim.env.advance_time(1)
        assert not sim.env.errors
        return [m.content for m in sim.public() if m.content.startswith("⏰")]


async def test_the_channel_is_told_who_hosts_when_the_hosts_time_runs_out(
    tmp_path: Path,
) -> None:
    """QA: the host's time ran out twice, a computer took the seat and the table's host tag
    moved to bob, but the channel's note said nothing of who hosts now (a leave's does)."""
    assert await timeout_notes(tmp_path, 0) == [
        "⏰ **ann**'s time ran out 2 times in a row; a computer plays their seat (Normal) "
        "until they take it back. **bob** hosts the game now."
    ]


async def test_a_timed_out_seat_open_to_others_is_not_promised_back(tmp_path: Path) -> None:
    """Player QA (pt): where the host lets others take computers' seats, the note promised
    cy the seat "until they take it back", and a moment later a stranger took it."""
    assert await timeout_notes(tmp_path, 1, seat_taking=True) == [
        "⏰ **bob**'s time ran out 2 times in a row; a computer plays their seat (Normal) "
        "until they take it back or someone else takes it over."
    ]


async def test_the_channel_is_told_when_the_host_removes_a_player(tmp_path: Path) -> None:
    """QA: after /wizard kick in a running game only the host read that cy was out; the
    channel saw cy's line on the table change without a word."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy])
        await ann.slash(sim.channel, "wizard kick", player=cy)
        await sim.env.advance_time(1)
        notes = [m.content for m in sim.public() if m.content.startswith("👢")]
        assert notes == [
            "👢 **cy** was removed from the game; a computer plays their seat (Normal)."
        ], notes
        # The host removing themself leaves, as the Leave button does: said so.
        await ann.slash(sim.channel, "wizard kick", player=ann)
        await sim.env.advance_time(1)
        notes = [m.content for m in sim.public() if m.content.startswith(("👢", "🚪"))]
        assert notes[1:] == [
            "🚪 **ann** left the game; a computer plays their seat (Normal). "
            "**bob** hosts the game now."
        ], notes
        assert (await sim.service.get_game(info.id)).seats[2].kicked
        assert not sim.env.errors


async def test_the_channel_is_told_who_hosts_when_someone_takes_the_host_s_seat_over(
    tmp_path: Path,
) -> None:
    """Review: the host left (bob had the host's say), then dee took the host's seat over and
    with it the host's say, and the channel's note said only that dee took the seat."""
    async with simulation(tmp_path, members=4) as sim:
        ann, bob, cy, dee = sim.members
        info = await sim.lobby(ann, [bob, cy])
        await sim.service.set_seat_taking(info.id, ann.id, True)
        hand = await sim.open_hand(ann)
        asked = await ann.click(hand, label="Leave")
        assert asked.response is not None
        await ann.click(asked.response, label="Yes, leave")
        table = sim.table_of(await sim.service.get_game(info.id))
        [take] = [b for b in buttons(table) if verb_of(b) == "takeseat"]
        await dee.click(table, custom_id=take["custom_id"])
        await sim.env.advance_time(1)
        notes = [m.content for m in sim.public() if m.content.startswith(("🚪", "🙋"))]
        assert notes == [
            "🚪 **ann** left the game; a computer plays their seat (Normal). "
            "**bob** hosts the game now.",
            "🙋 **dee** took over **ann**'s seat (a computer was playing it). "
            "**dee** hosts the game now.",
        ], notes
        assert (await sim.service.get_game(info.id)).host_id == dee.id
        assert not sim.env.errors


async def test_take_a_seat_refuses_one_removed_at_once(tmp_path: Path) -> None:
    """QA: a player the host removed pressed the table's Take a seat and was offered the
    computers' seats, only to be refused on picking one."""
    async with simulation(tmp_path, members=4) as sim:
        ann, bob, cy, dee = sim.members
        info = await sim.lobby(ann, [bob, cy], computers=2)  # two seats: a choice
        await sim.service.set_seat_taking(info.id, ann.id, True)
        await ann.slash(sim.channel, "wizard kick", player=cy)
        table = sim.table_of(await sim.service.get_game(info.id))
        [take] = [b for b in buttons(table) if verb_of(b) == "takeseat"]
        choice = await dee.click(table, custom_id=take["custom_id"])
        assert choice.response is not None
        await dee.click(choice.response, label="cy (removed from the game)")
        table = sim.table_of(await sim.service.get_game(info.id))
        [take] = [b for b in buttons(table) if verb_of(b) == "takeseat"]
        refused = await cy.click(table, custom_id=take["custom_id"])
        assert refused.response is not None and refused.ephemeral
        removed = (
            "🚫 You were removed from this game, so you cannot play in it. You can watch it "
            "on the table and play in the next game."
        )
        assert refused.response.content == removed, refused.response.content
        assert not buttons(refused.response)
        # QA: "Show my hand" said "… so you cannot take a seat in it", of a seat never asked for.
        [show] = [b for b in buttons(table) if verb_of(b) == "hand"]
        shown = await cy.click(table, custom_id=show["custom_id"])
        assert shown.response is not None and shown.ephemeral
        assert shown.response.content == removed, shown.response.content
        assert not sim.env.errors


async def test_the_final_trick_names_a_seat_as_the_table_does(tmp_path: Path) -> None:
    """QA: bob took Merlin's seat after Merlin's bid and played the round's only card
    himself; the summary's final trick read "bob 🤖 🟦B7", as if a computer had played
    it. That a computer made its bid is said in a line of the summary, not by a mark on a
    card: the final trick names the seats as the table's tricks do."""
    async with simulation(tmp_path, members=2) as sim:
        bob = sim.members[1]
        game = await open_lobby_with_computers(sim, allow=True)
        rng = random.Random(3)
        table = sim.table_of(await after_seat_1_bid(sim, game, rng))
        show = take_seat_button(table)
        assert show is not None
        choice = await bob.click(table, custom_id=show["custom_id"])
        assert choice.response is not None
        taken = await bob.click(choice.response, label="Merlin (Normal)")
        assert taken.response is not None
        sim.hands[bob.id] = taken.response.id
        await sim.play(game, rng, until=lambda i: i.table.round > 1)
        [summary] = [
            m for m in sim.raw() if m.embeds and m.embeds[0].get("title") == "Round 1 of 20 scored"
        ]
        embed = summary.embeds[0]
        # Merlin bid for the seat: said in words, bob is no computer (player QA).
        assert "**bob**: bid" in embed["description"]
        assert (
            "🤖 A computer played part of this round at the seat of **bob**."
            in embed["description"]
        )
        [trick] = [f["value"] for f in embed["fields"] if f["name"] == "Final trick"]
        assert "bob " in trick and "🤖" not in trick, trick
        assert not sim.env.errors
