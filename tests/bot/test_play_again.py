"""Play again (issue 12): the final standings carry a "Play again" button that opens a new
lobby in the same place, with the same options and computers (same levels), the people of
the finished game invited; it works after a restart and is refused while a game is open."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.bot.conftest import Sim, buttons, clicks_at_once, message_text, simulation, verb_of
from wizard.options import Bidding, Options
from wizard.service import GameInfo, GameStatus

pytestmark = pytest.mark.usefixtures("fast_settle")

CHOSEN = {"bidding": "hidden", "magic_twos": True}


async def finished_game(sim: Sim) -> GameInfo:
    """A 3-player game (ann hosts, bob, one computer) with variants, played to the end."""
    ann, bob = sim.members[:2]
    info = await sim.lobby(ann, [bob], computers=1, **CHOSEN)
    assert info.options == Options(bidding=Bidding.HIDDEN, magic_twos=True)
    return await sim.play(info.id, random.Random(3))


def final_message(sim: Sim, game_id: int) -> object:
    [final] = [m for m in sim.raw() if (m.content or "").startswith(f"🏁 **Game {game_id} is over")]
    return sim.message(final.id)


async def test_play_again_opens_the_same_game_and_invites_its_people(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        old = await finished_game(sim)
        assert old.status is GameStatus.FINISHED
        [computer] = [s for s in old.seats if s.is_computer]
        # The server's default level changes after the game: the rematch keeps the old one.
        new_level = "hard" if computer.level != "hard" else "easy"
        await sim.service.update_settings(sim.guild.id, computer_level=new_level)

        final = final_message(sim, old.id)
        [again] = [b for b in buttons(final) if b.get("label") == "Play again"]
        assert again["custom_id"].startswith(f"wiz:{old.id}:again:")

        await sim.restart()  # restart-proof: the button is parsed from its custom id
        final = final_message(sim, old.id)
        result = await bob.click(final, label="Play again")
        assert result.acknowledged and not result.ephemeral and result.response is not None
        lobby = result.response

        new = await sim.service.game_in_channel(sim.channel.id)
        assert new is not None and new.id != old.id and new.status is GameStatus.LOBBY
        assert new.channel_id == old.channel_id
        assert new.options == old.options and new.turn_seconds == old.turn_seconds
        assert new.host_id == bob.id
        assert [(s.user_id, s.level) for s in new.seats] == [(bob.id, None), (None, computer.level)]
        # ann (who played) is mentioned; cy (who did not) is not.
        assert f"<@{ann.id}>" in lobby.content and f"<@{cy.id}>" not in lobby.content
        assert "Join" in lobby.content
        assert f"a rematch of game {old.id}." in lobby.content
        text = lobby.embeds[0].description or ""
        assert "hidden bids" in text and "magic twos" in text
        # The level "Add computer player" adds is the old lobby's, and the lobby says so as
        # a lobby of /wizard new does.
        assert old.computer_level is not None and new.computer_level == old.computer_level
        assert f"**New computer players:** {old.computer_level.capitalize()}" in text, text
        assert new.lobby_message_id == lobby.id

        # Each invited player joins with one click; the host starts as usual.
        joined = await ann.click(sim.message(lobby.id), label="Join")
        assert joined.acknowledged and not joined.ephemeral
        # QA: the invitation kept asking those who had joined. ann was the only one asked.
        content = sim.message(lobby.id).content
        assert content == f"🔁 **Game {new.id}:** a rematch of game {old.id}."
        started = await bob.click(sim.message(lobby.id), label="Start")
        assert started.acknowledged and not started.ephemeral
        running = await sim.service.get_game(new.id)
        assert running.status is GameStatus.ACTIVE
        table = sim.message(lobby.id)  # the lobby became the table, without the invitation
        assert table.content == "" and "round 1" in (table.embeds[0].title or "")
        assert {s.user_id for s in running.seats} == {ann.id, bob.id, None}

        # A game is open in the channel: a second "Play again" is refused, clearly.
        refused = await cy.click(final_message(sim, old.id), label="Play again")
        assert refused.acknowledged and refused.ephemeral and refused.response is not None
        assert "already a game in this channel" in refused.response.content
        assert [g.id for g in await sim.service.games_in_channel(sim.channel.id)] == [new.id]


async def test_a_rematch_lets_others_take_computer_seats_if_the_game_did(tmp_path: Path) -> None:
    # QA: the rematch said "same options" but the host's "Let others take computer seats"
    # was off again.
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        await sim.service.set_seat_taking(info.id, ann.id, True)
        old = await sim.play(info.id, random.Random(4))
        result = await bob.click(final_message(sim, old.id), label="Play again")
        assert result.response is not None
        new = await sim.service.game_in_channel(sim.channel.id)
        assert new is not None and new.allow_seat_taking
        text = result.response.embeds[0].description or ""
        assert "🙋 People who are not playing may take over a computer's seat." in text, text


async def test_a_rematch_of_people_only_mentions_no_computers(tmp_path: Path) -> None:
    # QA: the invitation said "same options and computers" after a game of three people (it
    # says neither now).
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], computers=0)
        old = await sim.play(info.id, random.Random(5))
        assert old.status is GameStatus.FINISHED and not any(s.is_computer for s in old.seats)
        result = await cy.click(final_message(sim, old.id), label="Play again")
        assert result.response is not None and not result.ephemeral
        content = result.response.content
        assert f"a rematch of game {old.id}." in content, content
        assert "computer" not in content.lower(), content
        new = await sim.service.game_in_channel(sim.channel.id)
        assert new is not None and [s.user_id for s in new.seats] == [cy.id]


def test_the_invitation_claims_nothing_the_host_may_change() -> None:
    """QA: the invitation said "same options" above a lobby whose host had changed them with
    its menus; it names the game it replays, and asks the players to take their seats."""
    from bot.features.lobby import invitation_text
    from bot.i18n import texts

    for language in ("en", "de", "es", "it", "pt", "ca"):
        t = texts(language)
        first, ask = invitation_text(8, 7, ["<@1>"], t=t).split("\n")
        assert first == t("🔁 **Game {game}:** a rematch of game {previous}.", game=8, previous=7)
        assert "<@1>" in ask, (language, ask)
    assert invitation_text(8, 7, [], t=texts("en")) == "🔁 **Game 8:** a rematch of game 7."


async def test_play_again_speaks_the_servers_language(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, _ = sim.members
        old = await finished_game(sim)
        await sim.service.update_settings(sim.guild.id, language="de")
        final = final_message(sim, old.id)
        result = await ann.click(final, label="Play again")
        assert result.response is not None and not result.ephemeral
        lobby = result.response
        assert "Revanche" in lobby.content, lobby.content
        assert "**Mitspielen**" in lobby.content and "Nochmal spielen" not in lobby.content


async def test_play_again_pressed_together_points_to_the_one_lobby(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        await sim.play(info.id, random.Random(3))
        final = [m for m in sim.raw() if any(verb_of(b) == "again" for b in buttons(m))][-1]
        again = next(b["custom_id"] for b in buttons(final) if verb_of(b) == "again")
        _, double, other = await clicks_at_once(
            sim, [(ann, final.id, again), (ann, final.id, again), (bob, final.id, again)]
        )
        lobby = await sim.service.game_in_channel(sim.channel.id)
        assert lobby is not None and lobby.host_id == ann.id
        # Not "there is already a game in this channel": where the game is.
        assert double.response is not None
        # QA (demo): "is open below" was said under the lobby it pointed to.
        assert double.response.content == (
            f"✅ You are in game {lobby.id}: its lobby is open in this channel."
        )
        # bob pressed "Play again" too: he wants to play, so the open lobby seats him.
        assert other.response is not None
        assert other.response.content == f"✅ You joined game {lobby.id}."
        lobby = await sim.service.get_game(lobby.id)
        assert [s.user_id for s in lobby.seats if not s.is_computer] == [ann.id, bob.id]
        await sim.cog.surfaces.idle()
        shown = message_text(sim.message(lobby.lobby_message_id or 0))
        assert "3. **bob**" in shown, shown  # seated on the lobby for all to see
        # QA (demo): the invitation kept asking bob to join after his Play again seated him.
        content = sim.message(lobby.lobby_message_id or 0).content
        assert content == (f"🔁 **Game {lobby.id}:** a rematch of game {info.id}."), content
        # Pressed once more: he is in already.
        again_bob = await bob.click(sim.message(final.id), custom_id=again)
        assert again_bob.response is not None
        assert again_bob.response.content == (
            f"✅ You are in game {lobby.id}: its lobby is open in this channel."
        )


async def test_an_old_play_again_tells_a_player_of_the_running_game_it_is_theirs(
    tmp_path: Path,
) -> None:
    """QA (es): Clara, playing game 2, pressed game 1's "Play again" and read "Game 2 is
    being played here: watch it, or open a new game in another channel". She is told it is
    her game, and where her hand is; one who does not play it is still told to watch it."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        old = await finished_game(sim)
        final = final_message(sim, old.id)
        [lobby_id] = [
            m.id for m in [(await bob.click(final, label="Play again")).response] if m is not None
        ]
        await ann.click(sim.message(lobby_id), label="Join")
        await bob.click(sim.message(lobby_id), label="Start")
        running = await sim.service.game_in_channel(sim.channel.id)
        assert running is not None and running.status is GameStatus.ACTIVE

        playing = (
            f"ℹ️ You are playing game {running.id} in this channel: **Show my hand** on its "
            "table opens your hand."
        )
        pressed = await ann.click(sim.message(final.id), label="Play again")
        assert pressed.response is not None and pressed.ephemeral
        assert pressed.response.content == playing, pressed.response.content
        # Review: one whose seat a computer holds (they left it) is a player of it too.
        hand = await sim.open_hand(ann)
        asked = await ann.click(hand, label="Leave")
        assert asked.response is not None
        await ann.click(asked.response, label="Yes, leave")
        assert ann.id not in (await sim.service.get_game(running.id)).playing()
        pressed = await ann.click(sim.message(final.id), label="Play again")
        assert pressed.response is not None
        assert pressed.response.content == playing, pressed.response.content
        watcher = await cy.click(sim.message(final.id), label="Play again")
        assert watcher.response is not None and watcher.ephemeral
        assert "watch it" in watcher.response.content, watcher.response.content
        assert not sim.env.errors


async def test_a_player_removed_from_the_game_cannot_open_its_rematch(tmp_path: Path) -> None:
    """QA: a player the host had removed pressed Play again and hosted the rematch, pinging
    the players who had removed them. The rematch is for those who stayed."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], computers=0)
        kicked = await ann.slash(sim.channel, "wizard kick", player=cy)
        assert kicked.response is not None
        old = await sim.play(info.id, random.Random(4))
        assert old.status is GameStatus.FINISHED and old.seats[2].kicked
        final = final_message(sim, old.id)
        result = await cy.click(final, label="Play again")
        assert result.acknowledged and result.ephemeral and result.response is not None
        assert result.response.content == (
            f"🚫 You were removed from game {old.id}, so you cannot open its rematch."
        )
        assert await sim.service.game_in_channel(sim.channel.id) is None
        # Those who stayed still can.
        result = await bob.click(final, label="Play again")
        assert result.response is not None and not result.ephemeral


async def test_someone_who_did_not_play_cannot_open_the_rematch(tmp_path: Path) -> None:
    """QA: a member who had not played pressed Play again after the game and hosted "a
    rematch of game 1", mentioning its players. They are told the rematch is the players'
    to open; once a player has opened it, their press seats them in it."""
    async with simulation(tmp_path, members=3) as sim:
        _, bob, cy = sim.members
        old = await finished_game(sim)
        final = final_message(sim, old.id)
        result = await cy.click(final, label="Play again")
        assert result.ephemeral and result.response is not None
        assert result.response.content == (
            f"ℹ️ Only the players of game {old.id} can open its rematch."
        )
        assert await sim.service.game_in_channel(sim.channel.id) is None
        opened = await bob.click(final, label="Play again")
        assert opened.response is not None and not opened.ephemeral
        joined = await cy.click(final, label="Play again")
        assert joined.response is not None
        new = await sim.service.game_in_channel(sim.channel.id)
        assert new is not None
        assert joined.response.content == f"✅ You joined game {new.id}."


def test_the_invitation_asks_only_those_still_without_a_seat() -> None:
    from types import SimpleNamespace
    from typing import Any, cast

    from bot.features.lobby import invitation_left, invitation_text
    from bot.i18n import texts

    t = texts("de")
    content = invitation_text(8, 7, ["<@11>", "<@22>"], t=t)
    first = content.splitlines()[0]
    seated = {11}
    info = cast(Any, SimpleNamespace(seat_of=lambda uid: 0 if uid in seated else None))
    assert invitation_left(content, info, t=t) == "\n".join(
        [
            first,
            t(
                "{players}: press {join} to play again.",
                players="<@22>",
                join="**Mitspielen**",
            ),
        ]
    )
    seated.add(22)
    assert invitation_left(content, info, t=t) == first


async def test_the_invitation_follows_a_play_again_press_after_a_restart_a_kick_and_a_cancel(
    tmp_path: Path,
) -> None:
    """QA (demo): the invitation kept asking bob after his own Play again press had seated
    him. Review of the first fix: kept in memory, it came back after a restart; rebuilt from
    the text as first posted, a kick asked the removed player to join again. And a cancelled
    rematch kept asking people to join a lobby that was gone."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        old = await finished_game(sim)
        opened = await bob.click(final_message(sim, old.id), label="Play again")
        assert opened.response is not None
        lobby_id = opened.response.id
        first = f"🔁 **Game {old.id + 1}:** a rematch of game {old.id}."
        assert sim.message(lobby_id).content.startswith(first + f"\n<@{ann.id}>")
        await sim.restart()
        joined = await ann.click(final_message(sim, old.id), label="Play again")
        assert joined.response is not None
        assert joined.response.content == f"✅ You joined game {old.id + 1}."
        await sim.cog.surfaces.idle()
        assert sim.message(lobby_id).content == first
        kicked = await bob.slash(sim.channel, "wizard kick", player=ann)
        assert kicked.response is not None
        await sim.cog.surfaces.idle()
        assert sim.message(lobby_id).content == first  # not asked to join again
        cancelled = await bob.slash(sim.channel, "wizard cancel")
        assert cancelled.response is not None
        await sim.cog.surfaces.idle()
        shown = sim.message(lobby_id)
        assert shown.content == "" and "cancelled" in (shown.embeds[0].title or ""), shown.content
        assert not sim.env.errors


async def test_a_play_again_press_by_someone_removed_from_the_rematch_says_so(
    tmp_path: Path,
) -> None:
    """QA: cy, removed from the rematch's lobby, pressed Play again on the old results and was
    told "Game 2 is open below.": a lobby that refuses her."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], computers=0)
        old = await sim.play(info.id, random.Random(4))
        final = final_message(sim, old.id)
        await bob.click(final, label="Play again")
        await cy.click(final, label="Play again")
        kicked = await bob.slash(sim.channel, "wizard kick", player=cy)
        assert kicked.response is not None
        again = await cy.click(final_message(sim, old.id), label="Play again")
        assert again.response is not None
        assert again.response.content == (
            "🚫 You were removed from this lobby, so you cannot join it again."
        ), again.response.content
        assert not sim.env.errors


async def test_one_whose_seat_someone_took_over_is_a_player_of_the_rematch(
    tmp_path: Path,
) -> None:
    """QA: bob played two rounds, left, and cy took his seat over. Bob's statistics count the
    game, but his Play again was refused ("Only the players of game 1 …") and ann's rematch
    mentioned cy alone. Everyone who held a seat is a player of the rematch; one the host
    removed is not, though someone else then took their seat."""
    async with simulation(tmp_path, members=5) as sim:
        ann, bob, cy, dee, eve = sim.members
        info = await sim.lobby(ann, [bob, dee], computers=1)
        await sim.service.set_seat_taking(info.id, ann.id, True)
        info = await sim.play(info.id, random.Random(2), until=lambda i: _round(i) > 1)
        hand = await sim.open_hand(bob)
        asked = await bob.click(hand, label="Leave")
        assert asked.response is not None
        await bob.click(asked.response, label="Yes, leave")
        await ann.slash(sim.channel, "wizard kick", player=dee)
        for taker, label in ((cy, "bob (left the game)"), (eve, "dee (removed from the game)")):
            table = sim.table_of(await sim.service.get_game(info.id))
            [take] = [b for b in buttons(table) if verb_of(b) == "takeseat"]
            choice = await taker.click(table, custom_id=take["custom_id"])
            assert choice.response is not None
            taken = await taker.click(choice.response, label=label)
            assert taken.response is not None
            sim.hands[taker.id] = taken.response.id
        old = await sim.play(info.id, random.Random(2))
        assert old.status is GameStatus.FINISHED
        assert bob.id not in [s.user_id for s in old.seats]
        result = await bob.click(final_message(sim, old.id), label="Play again")
        assert result.response is not None and not result.ephemeral, result.response
        lobby = result.response.content
        assert f"<@{ann.id}>" in lobby and f"<@{cy.id}>" in lobby, lobby
        assert f"<@{dee.id}>" not in lobby, lobby  # removed by the host
        new = await sim.service.game_in_channel(sim.channel.id)
        assert new is not None and new.host_id == bob.id
        assert not sim.env.errors


def _round(info: GameInfo) -> int:
    return info.table.round if info.table is not None else 0
