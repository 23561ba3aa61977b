"""Summaries that fit (issue 12): round summaries of 6 players with 32-character names fit
Discord's message width on desktop and on a phone (no wide table: lines that wrap), in both
card themes; the final scorepad picture tells every player apart and shows the names whole."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.images.scorepad import scorepad_layout
from tests.bot.conftest import Sim, simulation
from wizard.service import GameStatus
from wizard.state import Phase

pytestmark = pytest.mark.usefixtures("fast_settle")

NAMES = [f"Morgan le Fay, Enchantress no {i:02d}" for i in range(6)]
"""Six names of Discord's longest (32 characters), alike in their first 30."""
PHONE_CODE_WIDTH = 40
"""Characters of a code block line a phone shows without scrolling (roughly: a code block
never wraps, so a longer line is cut off)."""


def summaries(sim: Sim) -> list[Any]:
    """The round summaries in the channel, oldest first (stored messages)."""
    return [
        m
        for m in sim.raw()
        if m.embeds and re.fullmatch(r"Round \d+ of \d+ scored", m.embeds[0].get("title", ""))
    ]


def check_fits(stored: Any) -> None:
    """No line that cannot wrap is wider than a phone; every name shows whole."""
    embed = stored.embeds[0]
    text = "\n".join(
        [embed.get("description", "")]
        + [f"{f.get('name', '')}\n{f.get('value', '')}" for f in embed.get("fields", [])]
    )
    blocks = re.findall(r"```(.*?)```", text, flags=re.S)
    for block in blocks:
        for line in block.splitlines():
            assert len(line) <= PHONE_CODE_WIDTH, line
    assert "```" not in text  # the scorepad is no wide table any more
    for name in NAMES:
        assert f"**{name}**" in text, name
    assert len(embed.get("description", "")) <= 4096


async def six_long_names(sim: Sim) -> int:
    """A 6-player game of people with 32-character names, started; its id."""
    people = [
        sim.guild.add_member(sim.env.create_user(f"p{i}"), nick=n) for i, n in enumerate(NAMES)
    ]
    sim.members = people
    info = await sim.lobby(people[0], people[1:])
    assert [s.name for s in info.seats] == NAMES
    return info.id


async def test_six_long_names_round_summaries_fit_and_the_picture_names_them(
    tmp_path: Path,
) -> None:
    async with simulation(tmp_path, members=0) as sim:
        game_id = await six_long_names(sim)
        done = await sim.play(game_id, random.Random(6))
        assert done.status is GameStatus.FINISHED
        shown = summaries(sim)
        assert len(shown) == 10
        for stored in shown:
            check_fits(stored)
        last = shown[-1].embeds[0]["description"]
        standings = last.split("**Standings**")[1].splitlines()[1:]
        assert len(standings) == 6 and all(
            line.count("✅") + line.count("❌") == 10 for line in standings
        )

        # The final standings: the scorepad picture, with a key of the full names under it
        # (the headers shorten them apart): taller than the table alone.
        message, _ = await sim.final_standings(game_id)
        [picture] = [a for a in message.attachments if a.filename.endswith(".png")]
        image = Image.open(io.BytesIO(await picture.read()))
        assert image.size[1] > scorepad_layout(6, 10).height


async def test_six_long_names_in_the_standard_theme(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=0) as sim:
        await sim.service.update_settings(sim.guild.id, theme="standard")
        game_id = await six_long_names(sim)

        def two_rounds(info: Any) -> bool:
            return info.table is not None and info.table.round > 2

        await sim.play(game_id, random.Random(7), until=two_rounds)
        shown = summaries(sim)
        assert len(shown) == 2
        for stored in shown:
            check_fits(stored)
            text = stored.embeds[0]["description"] + str(stored.embeds[0].get("fields"))
            assert re.search(r"(?:10|[2-9JQKA])[♠♥♦♣]", text)  # the standard deck's look
            assert not re.search(r"🟦|🟥|🟩|🟨", text)


async def test_computers_are_marked_in_round_summaries_and_final_standings(
    tmp_path: Path,
) -> None:
    """QA: computers seated from the start were marked 🤖 on the table only; the round
    summaries and the final standings ("Congratulations, Merlin!") read as if they were
    people, while a person's seat a computer finished was marked."""
    async with simulation(tmp_path, members=1) as sim:
        (ann,) = sim.members
        info = await sim.lobby(ann, [], computers=2)
        computers = [s.name for s in info.seats if s.user_id is None]
        assert len(computers) == 2
        done = await sim.play(info.id, random.Random(3))
        assert done.status is GameStatus.FINISHED
        first = summaries(sim)[0].embeds[0]
        text = first.get("description", "") + str(first.get("fields", ""))
        assert all(f"{name} 🤖" in text for name in computers), text
        [final] = [m for m in sim.public() if m.content.startswith(f"🏁 **Game {info.id} is over")]
        standings = final.embeds[0].description or ""
        assert all(f"{name} 🤖" in standings for name in computers), standings
        assert "ann 🤖" not in standings and "ann 🤖" not in final.content


def summary_of(sim: Sim, round: int) -> str:
    """The text of a round's summary in the channel."""
    [stored] = [m for m in summaries(sim) if m.embeds[0]["title"].startswith(f"Round {round} ")]
    return stored.embeds[0].get("description", "") + str(stored.embeds[0].get("fields", ""))


async def test_a_round_a_person_played_to_its_last_card_is_not_marked_as_a_computers(
    tmp_path: Path,
) -> None:
    """QA: bob played every card of a round and then left, before the others had played
    theirs; the round's summary marked him 🤖, as if a computer had played it (the mark
    followed who holds the seat now). A summary marks a seat 🤖 for the rounds a computer
    played for it: not that one, the next one."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)

        def bob_done(info: Any) -> bool:  # ann still has a card to play after bob's last
            table = info.table
            return table.phase is Phase.PLAY and table.hand_sizes[1] == 0 < table.hand_sizes[0]

        rng = random.Random(3)
        now = await sim.play(info.id, rng, until=bob_done)
        last = now.table.round
        hand = await sim.open_hand(bob)
        asked = await bob.click(hand, label="Leave")
        assert asked.response is not None
        await bob.click(asked.response, label="Yes, leave")
        now = await sim.play(info.id, rng, until=lambda i: i.table.round > last + 1)
        assert now.seats[1].away
        computer = now.seats[2].name
        for number in range(1, last + 1):  # bob played these rounds himself
            text = summary_of(sim, number)
            assert "**bob**:" in text and "bob 🤖" not in text, (number, text)
            assert f"**{computer} 🤖**:" in text, text
        assert "**bob 🤖**:" in summary_of(sim, last + 1)
        assert not sim.env.errors


async def test_a_person_a_computer_moved_for_once_is_not_marked_as_a_computer(
    tmp_path: Path,
) -> None:
    """Player QA (de): ann's time ran out once, a computer made that move, and she played on;
    the round's summary read "Geber **ann 🤖**" and "4. **ann 🤖**" in the standings, the
    mark of the computer players, while the table showed her as the person she is. The
    summary says in words whom a computer played for; it marks a seat a computer played for
    in the round only while a computer plays it."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        rng = random.Random(5)
        info = await sim.play(
            info.id, rng, until=lambda i: ann.id in {i.seats[s].user_id for s in i.table.to_act}
        )
        number = info.table.round
        await sim.env.advance_time(301)  # a new server's turn limit, 5 minutes: ann's runs out
        await sim.cog.surfaces.idle()
        info = await sim.play(info.id, rng, until=lambda i: i.table.round > number)
        assert 0 in info.computer_moved[number - 1] and not info.seats[0].away
        text = summary_of(sim, number)
        computer = info.seats[2].name
        assert "ann 🤖" not in text, text
        assert "**ann**:" in text and f"**{computer} 🤖**:" in text, text
        assert "🤖 A computer played part of this round at the seat of **ann**." in text, text
        assert not sim.env.errors


async def test_a_round_a_person_left_in_the_middle_of_says_the_computer_finished_it(
    tmp_path: Path,
) -> None:
    """Player QA (es): Mateo bid and then left; the round's summary read "**Mateo 🤖**: bid
    1", as if a computer had bid, and said nothing of his leaving. A seat a computer holds at
    the round's end is marked as the table marks it, and a line says that its person left
    during the round and a computer finished it, after a restart too."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)

        def bob_bid(info: Any) -> bool:  # round 2: bob has bid and not played a card yet
            table = info.table
            return (
                table.round == 2
                and table.phase is Phase.PLAY
                and table.has_bid[1]
                and table.hand_sizes[1] == 2
            )

        rng = random.Random(3)
        await sim.play(info.id, rng, until=bob_bid)
        hand = await sim.open_hand(bob)
        asked = await bob.click(hand, label="Leave")
        assert asked.response is not None
        await bob.click(asked.response, label="Yes, leave")
        await sim.restart()  # who moved in the round is read back from the log
        await sim.play(info.id, rng, until=lambda i: i.table.round > 2)
        text = summary_of(sim, 2)
        assert "**bob 🤖**:" in text, text
        assert (
            "🤖 **bob** left the game during this round; a computer finished it at their seat."
            in text
        ), text
        assert "part of this round" not in text, text
        assert "bob 🤖" not in summary_of(sim, 1)
        assert not sim.env.errors
