"""A player leaves a running game from their hand and a computer takes over at once (else
only two turn timeouts in a row would hand the seat over), then takes the seat back. Before,
only a lobby's Leave did it, and the lobby becomes the table at the start: no button in
Discord let a player leave a running game. The host's role passes on, and a game nobody
plays any more stops."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.features.hand import COMPUTER_MOVES_FOR_YOU, LEAVE_ASKED_AT_TURN
from bot.i18n import card_text, suit_text, texts
from tests.bot.conftest import (
    ACTION_VERBS,
    buttons,
    hand_body,
    is_bid_button,
    message_text,
    simulation,
    verb_of,
)
from tests.bot.i18n_support import user_locales
from tests.bot.test_game_refusals import callback_bodies, private
from tests.bot.test_game_variants import wizard_turned_seed
from tests.bot.test_take_seat import open_lobby_with_computers
from wizard.service import GameInfo, GameStatus
from wizard.state import Phase

pytestmark = pytest.mark.usefixtures("fast_settle")

T = texts("en")


async def test_a_player_who_pressed_leave_may_stay(tmp_path: Path) -> None:
    """Demo QA: the question after "Leave" offered only "Yes, leave" ("or play on to stay",
    while bids are made on the table). "No, stay" draws the hand as before, and nothing
    changes hands."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=2)
        hand = await sim.open_hand(bob)
        before = sim.message(hand.id)
        asked = await bob.click(hand, label="Leave")
        assert asked.response is not None and "Leave the game?" in asked.response.content
        stayed = await bob.click(asked.response, label="No, stay")
        assert stayed.response is not None and stayed.response.id == hand.id
        assert stayed.response.content == before.content
        assert [b["label"] for b in buttons(stayed.response)] == ["Leave"]
        now = await sim.service.get_game(info.id)
        assert not now.seats[1].away and now.version == info.version
        assert not sim.env.errors


async def bobs_turn_with_hints(sim: Any, phase: Phase) -> GameInfo:
    """ann hosts bob and two computers on a server that allows hints, played until bob is
    to act in ``phase``."""
    ann, bob = sim.members
    await sim.service.update_settings(sim.guild.id, hints_allowed=True)
    info = await sim.lobby(ann, [bob], computers=2)
    return await sim.play(
        info.id,
        random.Random(4),
        until=lambda i: _waits_for(i, 1) and i.table is not None and i.table.phase is phase,
    )


async def test_the_leave_question_offers_only_its_answers(tmp_path: Path) -> None:
    """QA: on a player's turn, the question came with the cards and 💡 Hint beside "Yes,
    leave" and "No, stay": a tap meant for "Yes" asked for a hint, which can't be undone
    (the game went unrated). Asked, the hand offers only the answers; "No, stay" brings the
    cards back."""
    async with simulation(tmp_path, members=2) as sim:
        _, bob = sim.members
        await bobs_turn_with_hints(sim, Phase.PLAY)
        hand = await sim.open_hand(bob)
        labels = [b["label"] for b in buttons(hand)]
        assert "Hint" in labels and "Leave" in labels, labels
        asked = await bob.click(hand, label="Leave")
        assert asked.response is not None
        assert [b["label"] for b in buttons(asked.response)] == ["Yes, leave", "No, stay"]
        stayed = await bob.click(asked.response, label="No, stay")
        assert stayed.response is not None
        assert [b["label"] for b in buttons(stayed.response)] == labels
        assert not sim.env.errors


async def test_a_move_answers_the_leave_question_with_stay(tmp_path: Path) -> None:
    """QA (it): Bruno pressed Leave, then bid with the table's buttons, so he was staying;
    the question stayed in his hand, and at his turn to play it said "your turn: play a
    card" with no card to press, only "Yes, leave" and "No, stay". A move of his own
    answers the question: he stays, and his hand offers his moves again."""
    async with simulation(tmp_path, members=2) as sim:
        _, bob = sim.members
        info = await bobs_turn_with_hints(sim, Phase.BID)
        hand = await sim.open_hand(bob)
        asked = await bob.click(hand, label="Leave")
        assert asked.response is not None
        assert [b["label"] for b in buttons(asked.response)] == ["Yes, leave", "No, stay"]
        # His bid is made on the table, which the question leaves as it is (review: with
        # hints on, the hand's 💡 made it say "answer first").
        assert "answer first" not in asked.response.content, asked.response.content
        table = sim.table_of(info)
        bid = next(b for b in buttons(table) if is_bid_button(b) and not b.get("disabled"))
        await bob.click(table, custom_id=bid["custom_id"])
        await sim.cog.surfaces.idle()
        redrawn = sim.message(hand.id)
        assert "Leave the game?" not in redrawn.content, redrawn.content
        assert [b["label"] for b in buttons(redrawn)][-1:] == ["Leave"]
        info = await sim.play(info.id, random.Random(5), until=lambda i: _waits_for(i, 1))
        await sim.cog.surfaces.idle()
        turn = sim.message(hand.id)
        assert "**Your turn:** play a card." in turn.content, turn.content
        cards = [b for b in buttons(turn) if verb_of(b) == "play" and not b.get("disabled")]
        assert cards, [b["label"] for b in buttons(turn)]
        assert not (await sim.service.get_game(info.id)).seats[1].away
        assert not sim.env.errors


async def test_a_turn_that_comes_while_asked_says_to_answer_first(tmp_path: Path) -> None:
    """QA (it): asked, not at his turn, Bruno's turn came while the question stood: his hand
    said "your turn: play a card" and offered no card. The question stays (a button under
    his thumb must not change meaning), and says that it is his turn and how his cards come
    back."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=2)
        rng = random.Random(4)
        info = await sim.play(
            info.id,
            rng,
            until=lambda i: (
                not _waits_for(i, 1) and i.table is not None and i.table.phase is Phase.PLAY
            ),
        )
        hand = await sim.open_hand(bob)
        asked = await bob.click(hand, label="Leave")
        assert asked.response is not None
        info = await sim.play(
            info.id, rng, idle=frozenset({bob.id}), until=lambda i: _waits_for(i, 1)
        )
        await sim.cog.surfaces.idle()
        turn = sim.message(hand.id)
        assert [b["label"] for b in buttons(turn)] == ["Yes, leave", "No, stay"]
        lines = turn.content.split("\n")
        assert lines[1].startswith("🚪 Leave the game?"), turn.content
        assert lines[2] == "👉 " + T(LEAVE_ASKED_AT_TURN, stay="**No, stay**"), turn.content
        stayed = await bob.click(turn, label="No, stay")
        assert stayed.response is not None
        assert any(verb_of(b) == "play" for b in buttons(stayed.response))
        assert not sim.env.errors


async def test_a_player_leaves_from_the_hand_and_comes_back(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=2)
        rng = random.Random(4)
        info = await sim.play(info.id, rng, until=lambda i: _waits_for(i, 1))
        hand = await sim.open_hand(bob)
        [leave] = [b for b in buttons(hand) if verb_of(b) == "leave"]
        assert leave["label"] == "Leave" and not leave.get("disabled")

        # QA: one click beside the cards handed the seat over. Leave asks first, in the hand.
        asked = await bob.click(hand, custom_id=leave["custom_id"])
        assert asked.response is not None and asked.response.id == hand.id
        # QA: nothing said that a game left for good counts as lost.
        question = (
            "🚪 Leave the game? A computer player takes over your seat at once, until you take "
            "it back; if you do not, the game counts as lost for you."
        )
        assert asked.response.content.split("\n")[1] == question, asked.response.content
        assert [b["label"] for b in buttons(asked.response)] == ["Yes, leave", "No, stay"]
        assert not (await sim.service.get_game(info.id)).seats[1].away
        # A redraw (another's move) keeps the button that does what he was told, and the
        # question with it (demo QA: a bare red "Yes, leave" sat under the cards).
        sim.cog.surfaces.redraw_hand(info.id, bob.id)
        await sim.cog.surfaces.idle()
        redrawn = sim.message(hand.id)
        assert [b["label"] for b in buttons(redrawn)] == ["Yes, leave", "No, stay"]
        assert redrawn.content.split("\n")[1] == question, redrawn.content
        left = await bob.click(sim.message(hand.id), label="Yes, leave")
        assert left.response is not None and left.response.ephemeral
        assert left.response.id == hand.id  # the hand itself says what happened
        assert "**A computer player is playing your seat.**" in left.response.content
        assert [b["label"] for b in buttons(left.response)] == ["Take my seat back"]
        # The answer as first shown, before the computer has moved: the computer has the
        # turn, so the hand must not tell bob that it is his.
        [first] = callback_bodies(sim, [left])
        assert "playing your seat" in first and "Your turn" not in first, first
        await sim.cog.surfaces.idle()
        now = await sim.service.get_game(info.id)
        assert now.seats[1].away
        table = sim.table_of(now).embeds[0].description or ""
        assert "**bob** 🤖 played by a computer (Normal)" in table
        # The host has not let others take computer seats: only bob may take his back, and
        # the table's button says so (it read "Take a seat", then refused everyone else).
        seat_buttons = [b for b in buttons(sim.table_of(now)) if verb_of(b) == "takeseat"]
        assert [b["label"] for b in seat_buttons] == ["Take my seat back"]
        # QA (demo): ann, who plays her own seat, pressed it and read "You are already in this
        # game", as if it had done something to her seat.
        mine = await ann.click(sim.table_of(now), custom_id=seat_buttons[0]["custom_id"])
        assert mine.response is not None and mine.response.content == (
            "ℹ️ You are playing your own seat; this button is for players who left theirs."
        ), mine.response.content

        # The computer plays bob's seat: ann alone clicks, and the game goes on.
        before = now.version
        now = await sim.play(info.id, rng, until=lambda i: i.version > before + 8)
        assert now.status is GameStatus.ACTIVE and now.seats[1].away

        back = await bob.click(sim.message(hand.id), label="Take my seat back")
        assert back.response is not None and "You are playing your seat again." in (
            back.response.content
        )
        now = await sim.service.get_game(info.id)
        assert not now.seats[1].away
        end = await sim.play(info.id, rng)
        assert end.status is GameStatus.FINISHED
        assert not sim.env.errors


async def leave_from_hand(sim: Any, member: Any) -> Any:
    """``member`` opens their hand and leaves from it ("Leave", then "Yes, leave"): the
    hand, once the bot has drawn what follows."""
    hand = await sim.open_hand(member)
    asked = await member.click(hand, label="Leave")
    assert asked.response is not None
    await member.click(asked.response, label="Yes, leave")
    await sim.cog.surfaces.idle()
    return hand


def _lines_of(table: str, name: str) -> list[str]:
    """The table's line of the player called ``name``, without its turn marker."""
    seats = [line.split(" ", 1) for line in table.splitlines() if line[:1] in ("▶", "▫")]
    return [rest for _, rest in seats if rest.startswith(name)]


def _waits_for(info: GameInfo, seat: int) -> bool:
    assert info.table is not None
    return seat in info.table.to_act


async def test_every_player_can_leave_from_their_hand_at_any_time(tmp_path: Path) -> None:
    """Leave was on the hand of the player to act only: one who had to go waited for their
    turn (or knew that /wizard kick on oneself leaves). Every hand of a person playing
    offers it, last, after the moves; the driver's moves (ACTION_VERBS) never include it."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy])
        [first] = await sim.to_act(info.id)
        for member in sim.members:
            hand = await sim.open_hand(member)
            verbs = [verb_of(b) for b in buttons(hand)]
            # Bids are made on the table (open bidding): Leave is all a hand offers.
            assert verbs == ["leave"], (member.name, verbs)
        # One who waits for another's turn leaves at once.
        waiting = next(m for m in sim.members if m is not first)
        hand = sim.hand(waiting)
        assert hand is not None
        asked = await waiting.click(hand, label="Leave")
        assert asked.response is not None
        left = await waiting.click(asked.response, label="Yes, leave")
        assert left.response is not None
        assert "**A computer player is playing your seat.**" in left.response.content
        now = await sim.service.get_game(info.id)
        seat = now.seat_of(waiting.id)
        assert seat is not None and now.seats[seat].away
        assert "leave" not in ACTION_VERBS
        assert not sim.env.errors


async def _leave(sim: Any, member: Any, game_id: int) -> str:
    """``member`` leaves from their hand (waiting until the game waits for them, as Leave is
    on the hand of the player to act); the hand's text after."""
    rng = random.Random(3)
    info = await sim.service.get_game(game_id)
    seat = info.seat_of(member.id)
    await sim.play(game_id, rng, until=lambda i: _waits_for(i, seat))
    hand = await sim.open_hand(member)
    left = await member.click(hand, label="Leave")
    assert left.response is not None
    if "Yes, leave" in [b["label"] for b in buttons(left.response)]:
        left = await member.click(left.response, label="Yes, leave")
        assert left.response is not None
    return hand_body(str(left.response.content))


async def test_the_host_who_leaves_hands_the_role_to_a_player(tmp_path: Path) -> None:
    """A host who left kept the host's powers over the people still playing (kick, cancel)
    while those could not cancel the game they were left in. The table shows who hosts,
    so that the new host, and everyone, sees the role pass."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], computers=1)
        await sim.cog.surfaces.idle()
        table = sim.table_of(info).embeds[0].description or ""
        assert [line.split(" · ")[1] for line in _lines_of(table, "**ann**")] == ["host"], table
        await _leave(sim, ann, info.id)
        now = await sim.service.get_game(info.id)
        assert now.host_id == bob.id
        await sim.cog.surfaces.idle()
        table = sim.table_of(now).embeds[0].description or ""
        assert "· host" not in _lines_of(table, "**ann**")[0]
        assert _lines_of(table, "**bob**")[0].split(" · ")[1] == "host", table
        refused = private(await ann.slash(sim.channel, "wizard kick", player=cy))
        # QA (es): the kick's refusal did not say whom to ask, as the lobby's refusals do.
        assert refused == "🚫 Only the host or a server manager can remove players. Ask bob."
        asked = await bob.slash(sim.channel, "wizard cancel")
        cancelled = private(await bob.click(asked.response, label="Cancel the game"))
        assert cancelled == f"🛑 Game {info.id} is cancelled."
        assert not sim.env.errors


async def test_a_game_everyone_left_stops_and_frees_the_channel(tmp_path: Path) -> None:
    """When the last person left, the computers played the game to its end alone, posting
    every round into the channel, which refused any new game meanwhile."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        await _leave(sim, bob, info.id)
        assert (await sim.service.get_game(info.id)).status is GameStatus.ACTIVE
        said = await _leave(sim, ann, info.id)
        # The last person is asked first: the game goes on, and their hand says what leaving
        # would do, its Leave now the button that does it (the moves stay: they may play on).
        assert said.startswith(
            "⚠️ You are the last person playing: if you leave, the game stops and no result "
            "is recorded.\n"
        ), said
        assert (await sim.service.get_game(info.id)).status is GameStatus.ACTIVE
        asked = sim.hand(ann)
        assert asked is not None
        labels = [b["label"] for b in buttons(asked)]
        assert "Leave" not in labels and labels[-2:] == ["Leave and stop the game", "No, stay"]
        # A redraw (a computer's move, say) keeps the button that does what she was told,
        # and what it does (review: the warning was a one-off note, gone at the redraw).
        sim.cog.surfaces.redraw_hand(info.id, ann.id)
        await sim.cog.surfaces.idle()
        asked = sim.message(asked.id)
        assert [b["label"] for b in buttons(asked)][-2] == "Leave and stop the game"
        assert "⚠️ You are the last person playing" in asked.content, asked.content
        stopped = await ann.click(asked, label="Leave and stop the game")
        assert stopped.response is not None
        # No turn, no cards: that they left, and that the game stopped.
        assert stopped.response.content == (
            f"-# Wizard · game {info.id} · <#{sim.channel.id}>\n"
            "🚪 You left the game.\n🛑 This game was cancelled."
        )
        await sim.cog.surfaces.idle()
        now = await sim.service.get_game(info.id)
        assert now.status is GameStatus.CANCELLED
        table = sim.table_of(now).embeds[0].description or ""
        assert table == "🛑 Nobody plays this game any more, so it stopped. No result is recorded."
        bob_hand = sim.hand(bob)
        assert bob_hand is not None and hand_body(bob_hand.content) == "🛑 This game was cancelled."
        again = await ann.slash(sim.channel, "wizard new")
        assert again.response is not None and not again.response.ephemeral  # a new lobby
        assert not sim.env.errors


@pytest.mark.parametrize(
    ("people", "asked_with"), [(1, "Leave and stop the game"), (2, "Yes, leave")]
)
async def test_a_player_asked_about_leaving_who_stays_keeps_the_seat_and_the_plain_leave(
    tmp_path: Path, people: int, asked_with: str
) -> None:
    """Leave asks first (the last person playing, that it stops the game), with only the
    answers (see ``test_the_leave_question_offers_only_its_answers``); "No, stay", then a
    move, keeps the seat, and the hand offers the plain Leave again."""
    async with simulation(tmp_path, members=people) as sim:
        ann, *others = sim.members
        info = await sim.lobby(ann, others, computers=3 - people)
        rng = random.Random(2)
        info = await sim.play(
            info.id,
            rng,
            until=lambda i: (
                i.table is not None and i.table.phase is Phase.PLAY and _waits_for(i, 0)
            ),
        )
        hand = await sim.open_hand(ann)
        asked = await ann.click(hand, label="Leave")
        assert asked.response is not None
        assert [b["label"] for b in buttons(asked.response)] == [asked_with, "No, stay"]
        stayed = await ann.click(asked.response, label="No, stay")
        assert stayed.response is not None
        card = next(
            b for b in buttons(stayed.response) if verb_of(b) == "play" and not b.get("disabled")
        )
        played = await ann.click(stayed.response, custom_id=card["custom_id"])
        assert played.response is not None
        assert "Leave the game?" not in played.response.content
        assert [b["label"] for b in buttons(played.response)][-1] == "Leave"
        now = await sim.service.get_game(info.id)
        assert now.status is GameStatus.ACTIVE and not now.seats[0].away
        assert not sim.env.errors


async def test_removing_the_last_player_says_the_game_stopped(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        await _leave(sim, bob, info.id)
        manager = sim.add_manager("mo")
        said = private(await manager.slash(sim.channel, "wizard kick", player=ann))
        # The kick first (it is what the manager did), then what it did to the game.
        assert said == (
            f"👋 ann is out of game {info.id}.\n"
            f"🛑 Game {info.id} is cancelled. Nobody plays this game any more, so it stopped."
        )
        await sim.cog.surfaces.idle()
        assert (await sim.service.get_game(info.id)).status is GameStatus.CANCELLED
        assert not sim.env.errors


async def test_a_second_kick_says_the_player_is_already_out(tmp_path: Path) -> None:
    """Kicking a player again changed nothing, yet said "out of game" again as if it had."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy])
        first = private(await ann.slash(sim.channel, "wizard kick", player=bob))
        assert first == f"👋 bob is out of game {info.id}; a computer player takes their seat."
        again = private(await ann.slash(sim.channel, "wizard kick", player=bob))
        assert again == (
            f"ℹ️ bob is already out of game {info.id}; a computer player plays their seat."
        )
        assert (await sim.service.get_game(info.id)).seats[1].kicked
        assert not sim.env.errors


async def test_the_host_leaving_with_kick_is_told_they_may_come_back(tmp_path: Path) -> None:
    """/wizard kick on oneself in a running game is leaving it: the reply spoke of the host
    in the third person ("ann is out of game 1") and not of taking the seat back."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        said = private(await ann.slash(sim.channel, "wizard kick", player=ann))
        assert said == (
            f"👋 You left game {info.id}. A computer player plays your seat until you take it "
            "back on the table."
        )
        again = private(await ann.slash(sim.channel, "wizard kick", player=ann))
        assert again == (
            f"ℹ️ You already left game {info.id}. A computer player plays your seat until you "
            "take it back on the table."
        )
        now = await sim.service.get_game(info.id)
        assert now.seats[0].away and not now.seats[0].kicked
        assert not sim.env.errors


async def test_someone_not_in_the_game_is_told_so_by_take_my_seat_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table's "Take my seat back" is for players who left (the host has not let others
    take computer seats). Someone not in the game who clicked it was told that the host had
    not allowed taking over computer seats, which answers a question they did not ask; then
    (QA, de) "To play, take a seat there if the table offers one", while the table seemed to
    offer one. The answer says whom the button is for, naming it as the table does."""
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        locales[cy] = "de"
        info = await sim.lobby(ann, [bob], computers=1)
        await _leave(sim, bob, info.id)
        await sim.cog.surfaces.idle()
        table = sim.table_of(await sim.service.get_game(info.id))
        clicked = await cy.click(table, label="Take my seat back")
        assert private(clicked) == (
            "🚫 Du spielst in dieser Partie nicht mit: **Take my seat back** ist für Spieler, "
            "die sie verlassen haben. Du kannst sie am Tisch verfolgen oder bei der nächsten "
            "Partie mitspielen."
        )
        assert (await sim.service.get_game(info.id)).seats[1].away
        assert not sim.env.errors


@pytest.mark.parametrize("how", ["leave", "kick"])
async def test_a_hand_open_while_another_player_leaves_still_plays(
    tmp_path: Path, how: str
) -> None:
    """QA: cy leaving (from the hand, or removed with /wizard kick) turned bob's open hand
    stale, and bob's next card was refused as "moved on" and not played, though nothing
    it offered had changed."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], computers=1)
        info = await sim.play(
            info.id,
            random.Random(1),
            until=lambda i: (
                i.table is not None
                and i.table.phase is Phase.PLAY
                and i.table.round == 2
                and _waits_for(i, 1)
            ),
        )
        hand = await sim.open_hand(bob)
        if how == "leave":
            cy_hand = await sim.open_hand(cy)
            asked = await cy.click(cy_hand, label="Leave")
            assert asked.response is not None
            await cy.click(asked.response, label="Yes, leave")
        else:
            await ann.slash(sim.channel, "wizard kick", player=cy)
        assert (await sim.service.get_game(info.id)).seats[2].away
        shown = sim.message(hand.id)
        [card, *_] = [b for b in buttons(shown) if verb_of(b) == "play" and not b.get("disabled")]
        played = await bob.click(shown, custom_id=card["custom_id"])
        assert played.response is not None
        assert "moved on" not in played.response.content
        after = await sim.service.get_game(info.id)
        assert after.table is not None and 1 not in after.table.to_act  # bob's card counted
        assert len(after.table.trick) > len(info.table.trick) or after.table.last_trick
        assert not sim.env.errors


async def test_a_trump_chosen_while_the_dealer_was_away_stays_the_computers(
    tmp_path: Path,
) -> None:
    """R3.3: the dealer left before naming trump after a turned Wizard; the computer playing
    their seat named it, and the table said "bob chose …", still when bob had taken his
    seat back. It says a computer chose it for him."""
    seed = wizard_turned_seed(["ann", "bob", "Merlin", "Morgana"], dealer=1)
    async with simulation(tmp_path, members=2, seed=seed) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=2)
        hand = await leave_from_hand(sim, bob)
        now = await sim.service.get_game(info.id)
        assert now.seats[1].away and now.table is not None and now.table.trump is not None
        said = f"Turned 🧙Wizard: a computer chose {suit_text(now.table.trump, t=T)} for **bob**."
        assert (sim.table_of(now).embeds[0].description or "").startswith(said + "\n")
        back = await bob.click(sim.message(hand.id), label="Take my seat back")
        assert back.response is not None
        await sim.cog.surfaces.idle()
        now = await sim.service.get_game(info.id)
        assert not now.seats[1].away and now.table is not None and now.table.round == 1
        assert (sim.table_of(now).embeds[0].description or "").startswith(said + "\n")
        assert not sim.env.errors


async def test_a_trump_a_computer_seat_named_is_not_credited_to_who_took_the_seat(
    tmp_path: Path,
) -> None:
    """R3.3: a computer seat dealt, turned a Wizard and named trump; then bob took the seat
    over. The table said "a computer chose … for **bob**", as if bob had left and a computer
    had stood in for him. Nobody who plays the seat now chose: it says only what trump is."""
    seed = wizard_turned_seed(["ann", "Merlin", "Morgana"], dealer=1)
    async with simulation(tmp_path, members=2, seed=seed) as sim:
        bob = sim.members[1]
        game = await open_lobby_with_computers(sim, allow=True)
        await sim.cog.surfaces.idle()
        now = await sim.service.get_game(game)
        assert now.table is not None and now.table.trump is not None
        assert now.table.dealer == 1 and now.seats[1].user_id is None
        suit = suit_text(now.table.trump, t=T)
        chose = f"Turned 🧙Wizard: **Merlin** chose {suit}."
        assert (sim.table_of(now).embeds[0].description or "").startswith(chose + "\n")
        table = sim.table_of(now)
        [take] = [b for b in buttons(table) if verb_of(b) == "takeseat"]
        choice = await bob.click(table, custom_id=take["custom_id"])
        assert choice.response is not None
        await bob.click(choice.response, label="Merlin (Normal)")
        await sim.cog.surfaces.idle()
        now = await sim.service.get_game(game)
        assert now.seats[1].user_id == bob.id
        said = f"Turned 🧙Wizard: trump is {suit}."
        assert (sim.table_of(now).embeds[0].description or "").startswith(said + "\n")
        assert not sim.env.errors


async def test_a_hand_does_not_say_you_played_the_cards_a_computer_played(
    tmp_path: Path,
) -> None:
    """QA (pt): bob left mid-round; the computer holding his seat played his last cards;
    he took the seat back before the round ended, and his hand said "you have played all
    your cards". It says the seat has."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy])
        rng = random.Random(1)

        def at_round(number: int, cards: int) -> Any:
            def reached(i: GameInfo) -> bool:
                assert i.table is not None
                return (
                    i.table.round == number
                    and i.table.phase is Phase.PLAY
                    and i.table.hand_sizes[1] == cards
                )

            return reached

        info = await sim.play(info.id, rng, until=at_round(3, 3))
        hand = await leave_from_hand(sim, bob)
        info = await sim.play(info.id, rng, until=at_round(3, 0))
        assert info.table is not None and info.table.round == 3  # the round goes on
        back = await bob.click(sim.message(hand.id), label="Take my seat back")
        assert back.response is not None
        await sim.cog.surfaces.idle()
        text = message_text(sim.message(hand.id))
        assert "**Round 3 of 20 · your seat has played all its cards.**" in text, text
        assert "you have played all your cards" not in text
        assert not sim.env.errors


async def test_a_hand_says_you_of_the_round_its_player_played_before_leaving(
    tmp_path: Path,
) -> None:
    """QA (ca): bob bid and played round 1 himself and left as round 2 was bid; his hand
    then read "Round 1, your seat: bid 0", the words of a round a computer moved in, as if
    the computer had bid for him. The round he played alone is his; the one the computer
    played for him is the seat's."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        rng = random.Random(3)

        def bidding(number: int) -> Any:
            def reached(i: GameInfo) -> bool:
                assert i.table is not None
                return i.table.round == number and i.table.phase is Phase.BID

            return reached

        info = await sim.play(info.id, rng, until=bidding(2))
        hand = await leave_from_hand(sim, bob)
        text = message_text(sim.message(hand.id))
        assert "Round 1: you bid " in text and "Round 1, your seat" not in text, text
        info = await sim.play(info.id, rng, until=bidding(3))
        await sim.cog.surfaces.idle()
        text = message_text(sim.message(hand.id))
        assert "Round 2, your seat: bid " in text and "Round 2: you bid" not in text, text
        assert not sim.env.errors


async def test_a_hand_left_at_its_turn_names_the_move_the_computer_made_for_it(
    tmp_path: Path,
) -> None:
    """QA (es): Mateo left at his turn to play; the computer played 🟦B5 for him at once, and
    his hand said only that a computer plays his seat, with a card fewer (a timeout names
    the move). While a computer holds the seat, the hand names what it did for him this
    round, and nothing he did himself (his bid)."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=2)

        def bob_leads(i: GameInfo) -> bool:  # ann, after him, keeps the trick open
            assert i.table is not None
            return (
                _waits_for(i, 1)
                and i.table.phase is Phase.PLAY
                and i.table.round >= 3
                and not i.table.trick
            )

        info = await sim.play(info.id, random.Random(4), until=bob_leads)
        hand = await leave_from_hand(sim, bob)
        now = await sim.service.get_game(info.id)
        assert now.table is not None and now.table.round == info.table.round
        [card] = [c for s, c in now.table.trick if s == 1]
        text = message_text(sim.message(hand.id))
        # The whole line: the card alone, not bob's own bid of the round.
        said = "🤖 " + T(COMPUTER_MOVES_FOR_YOU, moves=card_text(card, t=T))
        assert said in text.split("\n"), text
        back = await bob.click(sim.message(hand.id), label="Take my seat back")
        assert back.response is not None
        assert "🤖" not in back.response.content, back.response.content
        assert not sim.env.errors
