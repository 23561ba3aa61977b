"""Time, on SimCord's virtual clock: a player who does not act is played for (and after two
timeouts a computer takes the seat) and the game finishes, also across a restart; the turn
ping mentions whoever the game waits on, without flooding; an open hand stops updating once
Discord would refuse the edit (15 minutes)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.cogs import GameConfig
from bot.features.table import table_embed_of
from bot.i18n import suit_text, texts
from tests.bot.conftest import Sim, buttons, hand_body, simulation, verb_of
from tests.bot.test_game_variants import wizard_turned_seed
from wizard.cards import Theme
from wizard.service import GameInfo, GameStatus

pytestmark = pytest.mark.usefixtures("fast_settle")

T = texts("en")


def pings(sim: Sim) -> list[str]:
    return [m.content for m in sim.raw() if m.content.startswith("🔔")]


async def test_idle_player_is_played_for_and_pinged_once(tmp_path: Path) -> None:
    seeds = iter(range(1, 100))
    config = GameConfig(ping_delay=20.0, edit_interval=0.0, seeds=lambda: next(seeds))
    async with simulation(tmp_path, members=2, config=config) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=4, turn_timer=30)
        assert info.turn_seconds == 30
        most_pings = 0
        mentioned: set[str] = set()
        restarted = False

        async def step() -> None:
            nonlocal most_pings, restarted
            now = pings(sim)
            most_pings = max(most_pings, len(now))
            mentioned.update(now)
            current = await sim.service.get_game(info.id)
            if not restarted and current.seats[1].timeouts == 1:
                # Restart while the game waits on bob: his turn timer resumes.
                restarted = True
                await sim.restart()

        rng = random.Random(8)
        end = await sim.play(info.id, rng, idle=frozenset({bob.id}), step=step, advance=10.0)
        assert restarted
        assert end.status is GameStatus.FINISHED
        bob_seat = end.seats[1]
        assert bob_seat.away and bob_seat.timeouts >= 2  # handed to a computer (R: 2 timeouts)
        # The channel is told, as of a leave (QA: only the table's line changed).
        notes = [m.content for m in sim.raw() if m.content.startswith("⏰")]
        assert notes == [
            "⏰ **bob**'s time ran out 2 times in a row; a computer plays their seat (Normal) "
            "until they take it back."
        ], notes
        await sim.final_standings(info.id)
        assert most_pings == 1  # never more than one reminder in the channel
        assert any(f"<@{bob.id}>" in text for text in mentioned)
        assert not any(
            f"<@{ann.id}>" in text for text in mentioned
        )  # ann never kept anyone waiting
        assert pings(sim) == []  # the last reminder went with the game
        assert not sim.env.errors


async def test_ping_at_once_and_a_hand_that_expired(tmp_path: Path) -> None:
    seeds = iter(range(1, 100))
    config = GameConfig(ping_delay=0.0, edit_interval=0.0, seeds=lambda: next(seeds))
    async with simulation(tmp_path, members=3, config=config) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], turn_timer=0)  # the game waits for everyone
        table = info.table
        assert table is not None
        first = sim.member(info.seats[table.to_act[0]].user_id or 0)
        [ping] = pings(sim)
        assert ping.startswith(
            f"🔔 <@{first.id}>: your turn to bid (Wizard, round 1). "
            "Bid with the buttons on the table."
        )
        last = sim.raw()[-1]
        assert any(b.get("label") == "Show my hand" for b in buttons(last))  # a shortcut

        # The bids are made on the table; then everyone opens their hand, and the leader
        # thinks for 16 minutes.
        for _ in range(3):
            [bidder] = await sim.to_act(info.id)
            await sim.act(bidder, lambda enabled: enabled[0])
        hands = {m.id: await sim.open_hand(m) for m in sim.members}
        [leader] = await sim.to_act(info.id)
        await sim.env.advance_time(16 * 60)
        await sim.act(leader, lambda enabled: enabled[0])
        [ping] = pings(sim)
        assert f"<@{leader.id}>" not in ping  # the reminder moved on to the next player
        # The next player's hand is too old to be edited: before Discord stopped taking its
        # edits it said so, with no cards or buttons that could go stale...
        second = next(m for m in sim.members if f"<@{m.id}>" in ping)
        stale = sim.message(hands[second.id].id)
        assert stale.content.startswith("⌛ This private message no longer updates itself")
        assert "“Show my hand” on the table" in stale.content
        assert buttons(stale) == []
        # ...and "Show my hand" gives a fresh one with the buttons.
        fresh = await sim.open_hand(second)
        assert [b for b in buttons(fresh) if verb_of(b) == "play" and not b["disabled"]]
        assert not sim.env.errors


async def test_a_new_servers_game_times_out_an_idle_player_and_says_so(tmp_path: Path) -> None:
    """With no turn timer (a new server's default once), one player who walked away held
    the game and its channel for ever: nobody but the host could do anything. A new
    server's games have a 5-minute timer; when it runs out, the table and the player's hand
    say that a computer made the move, until the player moves again."""
    config = GameConfig(ping_delay=None, edit_interval=0.0)
    async with simulation(tmp_path, members=2, config=config) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        assert info.turn_seconds == 300.0
        rng = random.Random(5)
        info = await sim.play(info.id, rng, until=lambda i: bob.id in _waiting_users(i))
        hand = await sim.open_hand(bob)
        await sim.env.advance_time(301)
        await sim.cog.surfaces.idle()
        now = await sim.service.get_game(info.id)
        assert now.seats[1].timeouts == 1 and not now.seats[1].away
        table = sim.table_of(now).embeds[0].description or ""
        line = next(x for x in table.splitlines() if "**bob**" in x)
        assert line.endswith("· ⏰ time ran out, a computer moved"), line
        mine = hand_body(sim.message(hand.id).content)
        # The hand names the move the computer made (the table shows it too).
        move = re.match(
            r"⏰ Your time ran out, so a computer (played (\S+)|bid \d+) for you\.", mine
        )
        assert move, mine
        if move.group(2):
            assert move.group(2) in table, (move.group(2), table)
        assert (
            "If it keeps running out, a computer takes over your seat, and a game it finishes "
            "for you counts as lost."  # QA: the loss was first said when the game was over
        ) in mine, mine
        # bob moves himself again: both notes go.
        await sim.play(now.id, rng, until=lambda i: i.seats[1].timeouts == 0)
        again = await sim.service.get_game(info.id)
        assert "time ran out" not in (sim.table_of(again).embeds[0].description or "")
        assert not sim.env.errors


async def test_the_last_person_playing_is_warned_that_timing_out_stops_the_game(
    tmp_path: Path,
) -> None:
    """A player alone with computers was told that a computer would take their seat if time
    kept running out; when it did, the game stopped with no result instead (nobody played it
    any more). Their warning says what will happen."""
    config = GameConfig(ping_delay=None, edit_interval=0.0)
    async with simulation(tmp_path, members=1, config=config) as sim:
        [ann] = sim.members
        info = await sim.lobby(ann, [], computers=2)
        hand = await sim.open_hand(ann)
        await sim.env.advance_time(301)
        await sim.cog.surfaces.idle()
        now = await sim.service.get_game(info.id)
        assert now.seats[0].timeouts == 1 and now.status is GameStatus.ACTIVE
        mine = hand_body(sim.message(hand.id).content)
        assert re.match(
            r"⏰ Your time ran out, so a computer (bid \d+|chose .+ as trump) for you\. If it "
            r"keeps running out, the game stops with no result: you are the last person "
            r"playing it\.",
            mine,
        ), mine
        assert not sim.env.errors


@pytest.mark.parametrize("alone", [True, False], ids=["last person", "with others"])
async def test_a_reminder_to_a_player_whose_time_ran_out_says_what_comes_next(
    tmp_path: Path, *, alone: bool
) -> None:
    """QA: the last person playing was warned that the game would stop only in their hand,
    which they had never opened; the public reminder, which mentions them, said nothing, nor
    did it tell anyone else. After a timeout, a reminder to that one player says what the
    next one does, as the hand does."""
    config = GameConfig(ping_delay=30.0, edit_interval=0.0)
    async with simulation(tmp_path, members=2, config=config) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [] if alone else [bob], computers=2 if alone else 1)
        rng = random.Random(5)
        info = await sim.play(info.id, rng, until=lambda i: ann.id in _waiting_users(i))
        await sim.env.advance_time(301)  # ann's time runs out once; the game comes back to her
        await sim.cog.surfaces.idle()
        info = await sim.play(
            info.id,
            rng,
            idle=frozenset({ann.id}),
            until=lambda i: ann.id in _waiting_users(i) and _waiting_users(i) == {ann.id},
        )
        assert info.seats[0].timeouts == 1
        await sim.env.advance_time(31)
        await sim.cog.surfaces.idle()
        [reminder] = pings(sim)
        assert reminder.startswith(f"🔔 <@{ann.id}>: your turn"), reminder
        then = (
            "the game stops with no result: you are the last person playing it."
            if alone
            else "a computer takes over your seat, and a game it finishes for you counts as lost."
        )
        assert reminder.endswith(
            "\n⏰ Your time ran out, so a computer made your last move for you. If it keeps "
            f"running out, {then}"
        ), reminder
        assert not sim.env.errors


def _waiting_users(info: GameInfo) -> set[int]:
    table = info.table
    assert table is not None
    return {info.seats[s].user_id or 0 for s in table.to_act}


async def test_a_reminder_posted_before_a_restart_goes_when_it_is_done(tmp_path: Path) -> None:
    # The reminder's message was known to the process that posted it only: after a restart
    # it stayed in the channel for good, beside the next one.
    seeds = iter(range(1, 100))
    config = GameConfig(ping_delay=0.0, edit_interval=0.0, seeds=lambda: next(seeds))
    async with simulation(tmp_path, members=3, config=config) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], turn_timer=0)
        [before] = pings(sim)
        await sim.restart()
        [bidder] = await sim.to_act(info.id)
        assert f"<@{bidder.id}>" in before
        await sim.act(bidder, lambda enabled: enabled[0])
        await sim.cog.surfaces.idle()
        [after] = pings(sim)  # the next bidder's, alone
        assert f"<@{bidder.id}>" not in after
        await sim.play(info.id, random.Random(5))
        await sim.final_standings(info.id)
        assert pings(sim) == []
        assert not sim.env.errors


async def test_a_reminder_still_due_after_a_restart_stays_and_is_not_posted_again(
    tmp_path: Path,
) -> None:
    """QA: a restart deleted the reminder of a player still awaited, and some 30 s later
    posted the same one again: that player was mentioned twice for one turn, once more
    after every restart. The process that starts reads whom the reminder mentions."""
    config = GameConfig(ping_delay=30.0, edit_interval=0.0)
    async with simulation(tmp_path, members=3, config=config) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy])  # a new server's 5-minute turn timer
        await sim.env.advance_time(31)
        await sim.cog.surfaces.idle()
        [before] = [m.id for m in sim.raw() if m.content.startswith("🔔")]
        for name in list(sim.bot.cogs):  # the bot stops first, as a real process does
            await sim.bot.remove_cog(name)
        await sim.restart()
        await sim.env.advance_time(120)
        await sim.cog.surfaces.idle()
        # The same message: not deleted and posted again (which would mention them again).
        assert [m.id for m in sim.raw() if m.content.startswith("🔔")] == [before]
        # Once that player acts, it goes, and the next player's comes in its time.
        [bidder] = await sim.to_act(info.id)
        await sim.act(bidder, lambda enabled: enabled[0])
        await sim.cog.surfaces.idle()
        assert pings(sim) == []
        await sim.env.advance_time(31)
        await sim.cog.surfaces.idle()
        [after] = pings(sim)
        assert f"<@{bidder.id}>" not in after
        assert not sim.env.errors


async def test_a_short_turn_timer_reminds_the_player_before_a_computer_moves(
    tmp_path: Path,
) -> None:
    """QA: with a 30-second turn timer the reminder, due after 30 seconds, never came: the
    computer had moved for the player first. A turn is reminded after half its time at the
    latest."""
    config = GameConfig(edit_interval=0.0)  # the default reminder delay: 30 s
    async with simulation(tmp_path, members=2, config=config) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1, turn_timer=30)
        [first] = await sim.to_act(info.id)
        assert pings(sim) == []
        await sim.env.advance_time(16)
        [ping] = pings(sim)
        assert f"<@{first.id}>" in ping
        assert (await sim.service.get_game(info.id)).version == info.version  # not played yet
        assert not sim.env.errors


async def test_a_trump_a_computer_chose_when_the_dealers_time_ran_out_is_not_theirs(
    tmp_path: Path,
) -> None:
    """R3.3: when the dealer's time ran out after a turned Wizard, a computer named trump
    for them, and the table said "bob chose …", also once his next move had reset his
    timeouts. It says that a computer chose it for him, after his next move and after a
    restart too (the log keeps who made each move)."""
    seed = wizard_turned_seed(["ann", "bob", "Merlin", "Morgana"], dealer=1)
    async with simulation(tmp_path, members=2, seed=seed) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=2)  # a new server's 5-minute timer
        await sim.env.advance_time(301)
        await sim.cog.surfaces.idle()
        now = await sim.service.get_game(info.id)
        assert now.table is not None and now.table.trump is not None
        assert now.seats[1].timeouts == 1
        said = f"Turned 🧙Wizard: a computer chose {suit_text(now.table.trump, t=T)} for **bob**."

        def trump_line(info: GameInfo) -> str:
            return (sim.table_of(info).embeds[0].description or "").splitlines()[0]

        assert trump_line(now) == said
        # bob bids himself: his timeout is forgotten, the choice is still not his.
        now = await sim.play(info.id, random.Random(2), until=lambda i: i.seats[1].timeouts == 0)
        assert now.table is not None and now.table.round == 1
        assert trump_line(now) == said
        await sim.restart()
        now = await sim.service.get_game(info.id)
        description = table_embed_of(now, t=T, theme=Theme.CLASSIC).description or ""
        assert description.splitlines()[0] == said
        assert not sim.env.errors
