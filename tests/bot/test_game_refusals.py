"""Every refusal is a private message that says why, and no click can corrupt a game: people
who are not playing, clicks out of turn, illegal cards and bids, stale buttons, double and
simultaneous clicks, clicks after a cancellation; and the host's or a manager's commands."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.cogs.replies import MUST_FOLLOW, STALE, refusal_text
from bot.features.hand import HAND_REPLACED
from bot.i18n import texts
from tests.bot.conftest import (
    SPECTATOR_REFUSED,
    buttons,
    clicks_at_once,
    hand_body,
    post_buttons,
    simulation,
    verb_of,
)
from tests.bot.i18n_support import user_locales
from wizard.cards import Card
from wizard.service import GameStatus, NotSeatedError

pytestmark = pytest.mark.usefixtures("fast_settle")


def private(result: Any) -> str:
    """The text of a private reply (and check that it is private): a new ephemeral message,
    or an ephemeral hand redrawn."""
    assert result.acknowledged and result.response is not None
    assert result.response.ephemeral
    return hand_body(str(result.response.content))


def callback_bodies(sim: Any, results: list[Any]) -> list[str]:
    """What each interaction answered, from the REST log (both may edit one message)."""
    out = []
    for result in results:
        record = result._interaction
        [body] = [
            r.json
            for r in sim.env.http_requests
            if r.method == "POST" and r.path.startswith(f"/interactions/{record.id}/")
        ]
        out.append(hand_body(str(body["data"].get("content", ""))))
    return out


async def test_lobby_refusals(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=6, test_buttons=True) as sim:
        ann, bob, cy, dee, eve, fay = sim.members
        refused = await ann.slash(sim.channel, "wizard new", bidding="hidden", uneven_bids=True)
        assert private(refused) == (
            "⚠️ These options cannot be played together. Uneven bids need open bidding: with "
            "hidden bids, nobody knows the total when the last bid is made."
        )
        assert sim.public() == []  # nothing was posted
        # Every conflict at once: the host fixed one and met the next (up to four tries).
        several = await ann.slash(
            sim.channel, "wizard new", bidding="hidden", uneven_bids=True, single_suit=True,
            magic_twos=True,
        )  # fmt: skip
        assert private(several) == (
            "⚠️ These options cannot be played together.\n"
            "• Uneven bids need open bidding: with hidden bids, nobody knows the total when the "
            "last bid is made.\n"
            "• Magic twos need a suit to follow, and single suit has none."
        )
        assert sim.public() == []

        info = await sim.new_game(ann, single_suit=True)
        lobby = sim.message(sim.raw()[-1].id)
        assert "Players (1 of 3–4)" in (lobby.embeds[0].description or "")
        again = await ann.slash(sim.channel, "wizard new")
        # Where to go from here, not only the refusal (a QA finding).
        assert private(again) == (
            "🚫 There is already a game in this channel. Game 1 is open here: join or watch "
            "it, or open a new game in another channel."
        )
        assert private(await ann.click(lobby, label="Join")) == "ℹ️ You are already in this game."
        # Start is disabled below 3 players; pressed all the same (a lobby drawn before
        # someone left), the service refuses it.
        [start] = [b["custom_id"] for b in buttons(lobby) if b.get("label", "").startswith("Start")]
        too_few = private(await ann.click(await post_buttons(sim, ann, start), custom_id=start))
        assert too_few.startswith("⏳ Not enough players yet.")
        [join] = [b["custom_id"] for b in buttons(lobby) if b.get("label") == "Join"]
        for member in (bob, cy, dee):
            await member.click(lobby, label="Join")
        # Join is disabled once the lobby is full; pressed all the same (a lobby drawn
        # before it filled), the service refuses it.
        full = private(await eve.click(await post_buttons(sim, eve, join), custom_id=join))
        assert full.startswith("🚫 This game is full.")
        assert private(await bob.click(lobby, label="Start")).startswith("🚫 Only the host")
        assert private(await fay.click(lobby, label="Cancel")).startswith("🚫 Only the host")
        # Refusals never touch the public lobby.
        shown = sim.message(lobby.id).embeds[0].description or ""
        assert "Players (4 of 3–4)" in shown and "eve" not in shown
        left = await dee.click(lobby, label="Leave")
        assert not left.ephemeral
        assert "Players (3 of 3–4)" in (sim.message(lobby.id).embeds[0].description or "")
        cancelled = await ann.click(lobby, label="Cancel")
        assert not cancelled.ephemeral
        after = sim.message(lobby.id)
        assert after.embeds[0].title == f"Wizard · game {info.id} · cancelled"
        assert buttons(after) == []
        assert (await sim.service.get_game(info.id)).status is GameStatus.CANCELLED


async def test_a_new_game_where_one_is_being_played_says_watch_it_not_join_it(
    tmp_path: Path,
) -> None:
    """QA (demo): while game 1 was being played, /wizard new told another member "Game 1 is
    open here: join or watch it", and they could not join a running game."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        assert (await sim.service.get_game(info.id)).status is GameStatus.ACTIVE
        refused = await cy.slash(sim.channel, "wizard new")
        assert private(refused) == (
            f"🚫 There is already a game in this channel. Game {info.id} is being played "
            "here: watch it, or open a new game in another channel."
        )


async def test_a_button_of_a_game_of_another_channel_moves_nothing(tmp_path: Path) -> None:
    """A game's buttons act on it in its own channel only. QA found that after a restore
    (or a lost database) game ids start again: a new game 1 opened in another channel, and
    a click on the old table of the lost game 1 made a bid in it, answered "You bid 0."."""
    async with simulation(tmp_path, members=3, test_buttons=True) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy])
        [first] = await sim.to_act(info.id)
        before = await sim.service.get_game(info.id)
        elsewhere = sim.guild.create_text_channel("more-wizard")
        for custom_id in (
            f"wiz:{info.id}:bid:0:{before.version}",
            f"wiz:{info.id}:hand::{before.version}",
            f"wiz:{info.id}:leave::0",
        ):
            posted = await first.slash(elsewhere, "wizard testbuttons", ids=custom_id)
            assert posted.response is not None
            refused = private(await first.click(posted.response, custom_id=custom_id))
            assert refused == "❓ That game does not exist any more.", (custom_id, refused)
        after = await sim.service.get_game(info.id)
        assert after.version == before.version and not any(s.away for s in after.seats)
        assert not sim.env.errors


async def test_non_players_out_of_turn_illegal_cards_and_bids(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=4, test_buttons=True) as sim:
        ann, bob, cy, dee = sim.members
        info = await sim.lobby(ann, [bob, cy], uneven_bids=True)
        game = info.id
        hand = await dee.click(sim.table(), label="Show my hand")
        assert private(hand) == SPECTATOR_REFUSED

        first, second, dealer = await bidding_order(sim, game)
        version = (await sim.service.get_game(game)).version
        crafted = await post_buttons(sim, ann, f"wiz:{game}:bid:0:{version}")
        custom_id = f"wiz:{game}:bid:0:{version}"
        out_of_turn = private(await second.click(crafted, custom_id=custom_id))
        assert out_of_turn.splitlines()[0] == (
            f"⏳ Not your turn. It is {first.name}'s turn to bid."
        )
        stranger = private(await dee.click(crafted, custom_id=custom_id))
        assert stranger == SPECTATOR_REFUSED
        assert sim.message(crafted.id).content == "test buttons"  # the public message is as it was

        await sim.click_table(first, "0")  # open bids are made on the table
        # Bidding again on the table: the refusal says why (it said only whose turn it was),
        # and whose turn it is now.
        version = (await sim.service.get_game(game)).version
        again = await post_buttons(sim, ann, f"wiz:{game}:bid:1:{version}")
        twice = private(await first.click(again, custom_id=f"wiz:{game}:bid:1:{version}"))
        assert twice == (
            f"ℹ️ You have already bid this round. It is {second.name}'s turn to bid."
        ), twice
        await sim.click_table(second, "0")
        hand = await sim.open_hand(dealer)
        assert not [b for b in buttons(hand) if verb_of(b) == "bid"]
        table = sim.table_of(await sim.service.get_game(game))
        [one] = [b for b in buttons(table) if b.get("label") == "1"]
        assert one["disabled"]  # bids would add up to the 1 trick: forbidden (R7.1)
        version = (await sim.service.get_game(game)).version
        crafted = await post_buttons(sim, ann, f"wiz:{game}:bid:1:{version}")
        forbidden = private(await dealer.click(crafted, custom_id=f"wiz:{game}:bid:1:{version}"))
        forbidden = forbidden.splitlines()[0]
        assert forbidden == (
            "⛔ That bid is not allowed. With uneven bids the dealer may not bid 1: the bids "
            "would add up to 1, the tricks of this round."
        )

        # Play on until the player to act holds a card of the suit led and another suit.
        await sim.click_table(dealer, "0")
        rng = random.Random(5)
        spot = None
        while spot is None:
            now = await sim.service.get_game(game)
            assert now.table is not None and now.status is GameStatus.ACTIVE
            table = now.table
            if table.follow is not None and table.turn is not None:
                user = now.seats[table.turn].user_id
                assert user is not None
                seat_view = await sim.service.seat_view(game, user)
                held = seat_view.view.hand or ()
                follows = [c for c in held if c.suit is table.follow]
                others = [c for c in held if c.suit is not None and c.suit is not table.follow]
                if follows and others:
                    spot = (sim.member(user), others[0], now.version)
                    break
            [mover] = await sim.to_act(game)
            await sim.act(mover, rng.choice)
        member, card, version = spot
        custom_id = f"wiz:{game}:play:{Card(card).code}:{version}"
        crafted = await post_buttons(sim, ann, custom_id)
        refused = private(await member.click(crafted, custom_id=custom_id))
        assert refused.splitlines()[0].startswith(f"⛔ {MUST_FOLLOW} You hold a card of ")
        # The playable cards in the member's own hand are exactly the legal ones.
        hand = await sim.open_hand(member)
        enabled = {b["custom_id"].split(":")[3] for b in buttons(hand) if not b["disabled"]}
        assert Card(card).code not in enabled
        assert (await sim.service.get_game(game)).version == version  # nothing was applied
        assert not sim.env.errors


async def bidding_order(sim: Any, game: int) -> list[Any]:
    """The members in the order they bid this round (open bidding: one at a time)."""
    info = await sim.service.get_game(game)
    table = info.table
    n = len(info.seats)
    seats = [(table.dealer + 1 + i) % n for i in range(n)]
    return [sim.member(info.seats[s].user_id) for s in seats]


async def test_stale_button_and_double_click(tmp_path: Path) -> None:
    """In a hand (cards: open bids are on the table, see ``test_game_table_bids``)."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy])
        rng = random.Random(1)
        while True:  # to round 2's first card: the leader holds two cards, both playable
            now = await sim.service.get_game(info.id)
            assert now.table is not None
            if now.table.round == 2 and now.table.phase.name == "PLAY":
                break
            mover, *_ = await sim.to_act(info.id)
            await sim.act(mover, rng.choice)
        [first] = await sim.to_act(info.id)
        old = await sim.open_hand(first)
        new = await sim.open_hand(first)
        one, other = [b["custom_id"] for b in buttons(new) if verb_of(b) == "play"]
        version = (await sim.service.get_game(info.id)).version

        # The older hand was retired when the newer one opened (issue 12): nothing to click.
        retired = sim.message(old.id)
        assert HAND_REPLACED in retired.content and buttons(retired) == []

        # A double click and, sent with it, the other card (drawn for the same moment).
        clicks = [(first, new.id, one), (first, new.id, one), (first, new.id, other)]
        results = await clicks_at_once(sim, clicks)
        assert all(r.acknowledged for r in results)
        answers = [a.splitlines()[0] for a in callback_bodies(sim, results)]
        # Both are answered as the click that counted: the second found it done.
        assert answers[0].startswith("✅ You played ") and answers[:2] == [answers[0]] * 2
        after = await sim.service.get_game(info.id)
        assert after.version == version + 1  # one card, not two
        assert after.table is not None and len(after.table.trick) == 1

        # The other card, pressed with it, is answered with what the first did (QA: "moved
        # on" replaced "You played G13", and the player was not told which card went).
        text = callback_bodies(sim, results)[2]
        assert text.splitlines()[0] == answers[0] and STALE not in text
        assert "Waiting for" in text  # the current hand, which has nothing to click now
        shown = [verb_of(b) for b in buttons(sim.message(new.id)) if not b.get("disabled")]
        assert shown == ["leave"]
        assert (await sim.service.get_game(info.id)).version == version + 1
        assert not sim.env.errors


async def test_simultaneous_hidden_bids_all_count(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], bidding="hidden")
        clicks = []
        for member in sim.members:
            hand = await sim.open_hand(member)
            bid = next(b["custom_id"] for b in buttons(hand) if b["label"] == "1")
            clicks.append((member, hand.id, bid))
        results = await clicks_at_once(sim, clicks)
        assert [a.splitlines()[0] for a in callback_bodies(sim, results)] == ["✅ You bid 1."] * 3
        after = await sim.service.get_game(info.id)
        assert after.table is not None and after.table.bids == (1, 1, 1)
        description = sim.table().embeds[0].description or ""
        assert description.count("· bid\u00a01 ·") == 3  # revealed together (R7.2)


async def test_clicks_after_cancel_and_who_may_cancel(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=3, test_buttons=True) as sim:
        ann, bob, cy = sim.members
        # Hidden bids: the bid buttons are in the hands (open ones are on the table).
        info = await sim.lobby(ann, [bob, cy], bidding="hidden")
        first, *_ = await bidding_order(sim, info.id)
        old = await sim.open_hand(first)
        live = await sim.open_hand(first)
        # The older hand is retired; a late click is one sent before the cancellation
        # reached the hand (here: the same button, posted by the test).
        assert HAND_REPLACED in sim.message(old.id).content
        zero = next(b["custom_id"] for b in buttons(live) if b["label"] == "0")
        refused = private(await bob.slash(sim.channel, "wizard cancel"))
        assert refused.startswith("🚫 Only the host")
        manager = sim.add_manager("mod")
        asked = await manager.slash(sim.channel, "wizard cancel")
        done = private(await manager.click(asked.response, label="Cancel the game"))
        assert done == f"🛑 Game {info.id} is cancelled."
        table = sim.message(sim.raw()[0].id)
        assert table.embeds[0].title == f"Wizard · game {info.id} · cancelled"
        assert "A server manager cancelled the game." in (table.embeds[0].description or "")
        assert buttons(table) == []
        refreshed = sim.message(live.id)
        assert "🛑 This game was cancelled." in refreshed.content
        assert buttons(refreshed) == []
        late = await first.click(await post_buttons(sim, first, zero), custom_id=zero)
        text = private(late)
        assert "🛑 This game was cancelled." in text
        assert buttons(late.response) == []
        assert private(await ann.slash(sim.channel, "wizard cancel")) == (
            "ℹ️ There is no open Wizard game in this channel."
        )


async def test_cancelling_a_running_game_asks_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Demo QA: /wizard cancel threw a running game away at once (a mistyped command, and
    no result recorded). The host is asked first, privately, in their language: "Keep
    playing" changes nothing, "Cancel the game" cancels it for everyone."""
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        assert private(await bob.slash(sim.channel, "wizard cancel")).startswith("🚫 Only the host")
        asked = await ann.slash(sim.channel, "wizard cancel")
        assert private(asked) == (
            f"🛑 Cancel game {info.id}, in round 1 of 20? It stops for everyone, and no result "
            "is recorded."
        )
        assert [b["label"] for b in buttons(asked.response)] == ["Cancel the game", "Keep playing"]
        kept = await ann.click(asked.response, label="Keep playing")
        assert private(kept) == f"▶️ Game {info.id} goes on." and buttons(kept.response) == []
        assert (await sim.service.get_game(info.id)).status is GameStatus.ACTIVE

        locales[ann] = "de"
        asked = await ann.slash(sim.channel, "wizard cancel")
        assert private(asked).startswith(f"🛑 Partie {info.id} abbrechen"), private(asked)
        twice = await ann.slash(sim.channel, "wizard cancel")  # asked twice: a late answer
        yes = next(b for b in buttons(asked.response) if b["custom_id"].endswith(":y:0"))
        done = await ann.click(asked.response, custom_id=yes["custom_id"])
        assert private(done) == f"🛑 Partie {info.id} ist abgebrochen."
        assert buttons(done.response) == []
        now = await sim.service.get_game(info.id)
        assert now.status is GameStatus.CANCELLED
        await sim.cog.surfaces.idle()
        assert sim.table_of(now).embeds[0].title == f"Wizard · game {info.id} · cancelled"
        # The other question answered late, the game cancelled meanwhile: the reply says so.
        late = await ann.click(twice.response, custom_id=yes["custom_id"])
        assert private(late) == "🛑 Diese Partie wurde abgebrochen.", private(late)
        assert not sim.env.errors


async def test_an_answer_to_the_cancel_question_says_how_the_game_stands(
    tmp_path: Path,
) -> None:
    """QA: "Keep playing" answered "Game 2 goes on." of a game a manager had cancelled
    meanwhile, and a refused "Cancel the game" came as a new message under a question that
    kept its buttons. Every answer edits the question, with no buttons, to what is so."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        await sim.lobby(ann, [bob], computers=1)
        questions = [await ann.slash(sim.channel, "wizard cancel") for _ in range(3)]
        hand = await sim.open_hand(ann)  # ann leaves: the host's role passes to bob
        asked = await ann.click(hand, label="Leave")
        await ann.click(asked.response, label="Yes, leave")

        def answer(result: Any, question: Any) -> str:
            assert result.response is not None and result.response.id == question.response.id
            assert buttons(result.response) == []
            return private(result)

        refused = await ann.click(questions[0].response, label="Cancel the game")
        assert answer(refused, questions[0]) == (
            "🚫 Only the host or a server manager can cancel this game. Ask bob."
        )
        manager = sim.add_manager("mod")
        theirs = await manager.slash(sim.channel, "wizard cancel")
        await manager.click(theirs.response, label="Cancel the game")
        kept = await ann.click(questions[1].response, label="Keep playing")
        assert answer(kept, questions[1]) == "🛑 This game was cancelled."
        late = await ann.click(questions[2].response, label="Cancel the game")
        assert answer(late, questions[2]) == "🛑 This game was cancelled."
        assert not sim.env.errors


async def test_a_join_that_arrives_after_the_start_says_what_to_do(tmp_path: Path) -> None:
    """Player QA (es): Join pressed as the host pressed Start answered only "This game has
    already started."; it says, as to anyone who is not playing, how to watch or play."""
    async with simulation(tmp_path, members=3, test_buttons=True) as sim:
        ann, bob, cy = sim.members
        await sim.new_game(ann)
        lobby = sim.message(sim.raw()[-1].id)
        [join, add] = [
            b["custom_id"]
            for b in buttons(lobby)
            if b.get("label") in ("Join", "Add computer player")
        ]
        await bob.click(lobby, label="Join")
        await ann.click(lobby, label="Add computer player")
        await ann.click(lobby, label="Start")
        late = await cy.click(await post_buttons(sim, cy, join), custom_id=join)
        assert private(late) == (
            "ℹ️ This game has already started. You can watch it on the table. To play, take a "
            "seat there if the table offers one, or join the next game."
        )
        # A player of the game pressing it keeps the short answer (review: "take a seat").
        seated = await bob.click(await post_buttons(sim, bob, join), custom_id=join)
        assert private(seated) == "ℹ️ This game has already started."
        # Other lobby buttons of a started game keep the short answer (the host plays it).
        again = await ann.click(await post_buttons(sim, ann, add), custom_id=add)
        assert private(again) == "ℹ️ This game has already started."
        assert not sim.env.errors


async def test_a_lobby_cancel_that_arrives_after_the_start_is_refused(tmp_path: Path) -> None:
    """QA: the lobby's Cancel clicked as the host started the game (or an old copy of it)
    cancelled the running game at once, with no question, and left the table as it was. A
    running game is cancelled only through /wizard cancel's question."""
    async with simulation(tmp_path, members=2, test_buttons=True) as sim:
        ann, bob = sim.members
        await sim.new_game(ann)
        lobby = sim.message(sim.raw()[-1].id)
        [cancel] = [b["custom_id"] for b in buttons(lobby) if b.get("label") == "Cancel"]
        await bob.click(lobby, label="Join")
        await ann.click(lobby, label="Add computer player")
        await ann.click(lobby, label="Start")
        late = await ann.click(await post_buttons(sim, ann, cancel), custom_id=cancel)
        assert private(late) == "ℹ️ This game has already started."
        info = await sim.service.game_in_channel(sim.channel.id)
        assert info is not None and info.status is GameStatus.ACTIVE
        assert not sim.env.errors


def rules_reply(result: Any) -> tuple[str, str, str]:
    """A private ``/wizard rules``: an embed as ``/wizard help`` is (demo QA: plain text that
    opened with an italic "Game 1 in this channel."), its title, text and footer."""
    assert result.acknowledged and result.response is not None and result.response.ephemeral
    assert not result.response.content
    [embed] = result.response.embeds
    return embed.title or "", embed.description or "", embed.footer.text or ""


async def test_kick_and_rules(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        title, rules, where = rules_reply(await bob.slash(sim.channel, "wizard rules"))
        assert title == "Wizard · the rules in short"
        assert (
            where == "No open game in this channel; a new game starts with the server's defaults."
        )
        assert "none (the classic game)" in rules
        info = await sim.lobby(ann, [bob, cy], computers=3, magic_twos=True, turn_timer=60)
        _, rules, where = rules_reply(await bob.slash(sim.channel, "wizard rules"))
        assert where == f"Game {info.id} in this channel."
        assert "Magic twos" in rules and "1 minute per turn" in rules
        assert "10 rounds for 6 players" in rules

        refused = private(await bob.slash(sim.channel, "wizard kick", player=cy))
        assert refused.startswith("🚫 Only the host")
        hand = await sim.open_hand(cy)
        kicked = private(await ann.slash(sim.channel, "wizard kick", player=cy))
        assert kicked == f"👋 cy is out of game {info.id}; a computer player takes their seat."
        assert "🚫 You were removed from this game" in sim.message(hand.id).content
        assert buttons(sim.message(hand.id)) == []
        # The seat's cards are the computer's now: a removed player sees none of them (R8.3).
        assert "your hand" not in sim.message(hand.id).content
        reopened = await sim.open_hand(cy)
        # Player QA (it): it said what happened, not what is left to do.
        assert reopened.content == (
            "🚫 You were removed from this game; a computer took your seat over. You can "
            "watch it on the table and play in the next game."
        )
        # So do the refusals of what a removed player may still press (a move, a hint).
        assert refusal_text(NotSeatedError(reason="kicked"), t=texts("en")) == reopened.content
        # The table says she was removed, not that she left.
        assert "**cy** 🤖 removed, played by a computer (Normal)" in (
            sim.table().embeds[0].description or ""
        )
        end = await sim.play(info.id, random.Random(2))
        assert end.status is GameStatus.FINISHED
        await sim.final_standings(info.id)
        # The channel had a game: "no game yet" would be untrue now.
        _, _, where = rules_reply(await bob.slash(sim.channel, "wizard rules"))
        assert where.startswith("No open game in this channel;"), where


async def test_rules_show_the_servers_cards(tmp_path: Path) -> None:
    """R1.5: on a server that shows the standard deck, /wizard rules names its suits and
    ranks, and the magic card as the 3 the table shows for the rules' 2 (R7.6)."""
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        await sim.service.update_settings(
            sim.guild.id, theme="standard", default_options={"magic_twos": True}
        )
        _, rules, _ = rules_reply(await ann.slash(sim.channel, "wizard rules"))
        assert "four suits of 2–10, J, Q, K, A (♠\ufe0e Spades, ♥️ Hearts" in rules, rules
        assert "Magic twos: a 3 of the suit to follow wins the trick" in rules
        assert "Humans" not in rules


ENGLISH_WORDS = re.compile(r"\b(?:the|you|your|not|turn|must|follow|bid|hand|this|that|is)\b")
"""Words of the English refusals and hands that no German text contains."""


async def test_a_german_members_refusals_are_wholly_german(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not your turn, a forbidden bid, must follow suit and a stale click, as a member whose
    Discord speaks German reads them: German from the first word to the last."""
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=3, test_buttons=True) as sim:
        ann, bob, cy = sim.members
        for member in sim.members:
            locales[member] = "de"
        info = await sim.lobby(ann, [bob, cy], uneven_bids=True)
        game = info.id
        first, second, dealer = await bidding_order(sim, game)

        def german(result: Any) -> str:
            text = private(result)
            # The table's button is named as the table (of an English server) shows it.
            assert not ENGLISH_WORDS.search(text.replace("„Show my hand“", "")), text
            return text.splitlines()[0]

        version = (await sim.service.get_game(game)).version
        custom_id = f"wiz:{game}:bid:0:{version}"
        crafted = await post_buttons(sim, ann, custom_id)
        assert german(await second.click(crafted, custom_id=custom_id)) == (
            f"⏳ Du bist nicht dran. {first.name} ist mit der Ansage dran."
        )
        await sim.click_table(first, "0")
        await sim.click_table(second, "0")
        version = (await sim.service.get_game(game)).version
        custom_id = f"wiz:{game}:bid:1:{version}"
        crafted = await post_buttons(sim, ann, custom_id)
        assert german(await dealer.click(crafted, custom_id=custom_id)) == (
            "⛔ Diese Ansage ist nicht erlaubt. Bei Plus-Minus-Eins darf der Geber nicht 1 "
            "ansagen: Die Ansagen ergäben zusammen 1, die Stichzahl dieser Runde."
        )
        await sim.click_table(dealer, "0")

        member, card, version, follow = await a_chance_to_revoke(sim, game)
        custom_id = f"wiz:{game}:play:{Card(card).code}:{version}"
        crafted = await post_buttons(sim, ann, custom_id)
        suit = {
            "B": "🟦 Menschen (B)",
            "R": "🟥 Zwerge (R)",
            "G": "🟩 Elfen (G)",
            "Y": "🟨 Riesen (Y)",
        }
        assert german(await member.click(crafted, custom_id=custom_id)) == (
            f"⛔ Du musst Farbe bedienen. Du hast eine Karte in {suit[follow]}: "
            "Spiel eine davon, einen 🧙 Zauberer oder einen 🃏 Narren."
        )

        await sim.act(member, lambda enabled: enabled[0])  # a card that follows suit
        # A button of an older picture than the card just played (one of the same picture is
        # answered with what that card did: pressed together with it).
        older = f"wiz:{game}:play:{Card(card).code}:{version - 1}"
        crafted = await post_buttons(sim, ann, older)
        stale = german(await member.click(crafted, custom_id=older))
        assert stale == (
            "🔄 Seit dieser Anzeige ist das Spiel weitergegangen. Hier sind deine Karten, wie "
            "sie jetzt sind."
        )
        assert not sim.env.errors


async def a_chance_to_revoke(sim: Any, game: int) -> tuple[Any, Card, int, str]:
    """Play on (random legal clicks) until the player to act holds a card of the suit led and
    a card of another suit: that member, the other card, the version and the suit led."""
    rng = random.Random(5)
    while True:
        now = await sim.service.get_game(game)
        assert now.table is not None and now.status is GameStatus.ACTIVE
        table = now.table
        if table.follow is not None and table.turn is not None:
            user = now.seats[table.turn].user_id
            assert user is not None
            held = (await sim.service.seat_view(game, user)).view.hand or ()
            follows = [c for c in held if c.suit is table.follow]
            others = [c for c in held if c.suit is not None and c.suit is not table.follow]
            if follows and others:
                return sim.member(user), others[0], now.version, table.follow.value
        [mover] = await sim.to_act(game)
        await sim.act(mover, rng.choice)


async def test_kicking_someone_not_in_the_game_names_them_not_the_host(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=4) as sim:
        ann, bob, cy, dee = sim.members
        await sim.lobby(ann, [bob, cy])
        refused = private(await ann.slash(sim.channel, "wizard kick", player=dee))
        # The host is playing: "You are not playing in this game." tells them the opposite.
        assert not refused.startswith("🚫 You are not playing in this game.")
        assert refused == "❓ That player has no seat in this game."
