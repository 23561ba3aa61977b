"""Discord refuses the answer to a click (a server error, an expired interaction token): the
move the service committed still counts, the player reads what happened in their language
(what they did, or to try again), and the operator gets one warning line naming the game and
the cause, not tracebacks."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.cogs import GameConfig
from bot.i18n import texts
from bot.ui.buttons import FAILED
from tests.bot.conftest import (
    Sim,
    buttons,
    clicks_at_once,
    is_hand_button,
    message_text,
    simulation,
    verb_of,
)
from tests.bot.i18n_support import user_locales
from tests.bot.simtools import no_answer
from wizard.service import GameInfo

pytestmark = pytest.mark.usefixtures("fast_settle")

CALLBACK = "/interactions/*/*/callback"


def bot_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """What the bot and discord.py logged at WARNING or above."""
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


async def first_hand_bid(sim: Sim, info: GameInfo) -> tuple[Any, Any, dict[str, Any]]:
    """The member whose hidden bid is awaited, their open hand and an enabled bid button."""
    mover, *_ = await sim.to_act(info.id)
    hand = await sim.open_hand(mover)
    bid = next(b for b in buttons(hand) if verb_of(b) == "bid" and not b.get("disabled"))
    return mover, hand, bid


async def first_card_to_play(sim: Sim) -> tuple[GameInfo, random.Random, Any]:
    """A game of the three members played on to its first card: the game, the random moves'
    source, and the member to play."""
    ann, bob, cy = sim.members
    info = await sim.lobby(ann, [bob, cy])
    rng = random.Random(3)
    await sim.play(info.id, rng, until=lambda i: i.table is not None and i.table.phase == "play")
    [mover] = await sim.to_act(info.id)
    return info, rng, mover


async def full_lobby(sim: Sim) -> tuple[GameInfo, int]:
    """A lobby of the first member's that the two others joined: the game and its message."""
    host, *others = sim.members
    info = await sim.new_game(host)
    lobby_id = sim.raw()[-1].id
    for member in others:
        await member.click(sim.message(lobby_id), label="Join")
    return info, lobby_id


async def test_a_bid_whose_answer_discord_refuses_still_counts_and_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], bidding="hidden")
        mover, hand, bid = await first_hand_bid(sim, info)
        locales[mover] = "de"
        before = (await sim.service.get_game(info.id)).version
        caplog.clear()
        sim.env.inject_error("POST", CALLBACK, status=500, times=1)
        result = await mover.click(hand, custom_id=bid["custom_id"])

        assert (await sim.service.get_game(info.id)).version == before + 1  # it counted
        assert result.response is not None and result.response.ephemeral
        # What they did, in German: not "try again" (a second bid would be refused).
        said = texts("de")("You bid {bid}.", bid=int(bid["label"]))
        assert result.response.content == f"✅ {said}"
        assert said.startswith("Du hast")
        records = bot_records(caplog)
        assert [r.levelname for r in records] == ["WARNING"], [r.getMessage() for r in records]
        assert f"game {info.id}" in records[0].getMessage()
        assert "500" in records[0].getMessage()
        assert not any(r.exc_info for r in caplog.records)
        assert not sim.env.errors


async def test_an_expired_interaction_is_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], bidding="hidden")
        mover, hand, bid = await first_hand_bid(sim, info)
        caplog.clear()
        # Discord no longer knows the interaction (the bot answered too late): nothing can
        # be sent on its token, so nothing more is tried.
        sim.env.inject_error("POST", CALLBACK, status=404, code=10062, times=None)
        await mover.click(hand, custom_id=bid["custom_id"])
        records = bot_records(caplog)
        assert len(records) == 1, [r.getMessage() for r in records]
        assert f"game {info.id}" in records[0].getMessage()
        assert "10062" in records[0].getMessage()
        assert not any(r.exc_info for r in caplog.records)
        assert not sim.env.errors


@pytest.mark.parametrize("fault", ["503", "no answer"])
async def test_show_my_hand_refused_by_discord_asks_to_try_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy])
        caplog.clear()
        if fault == "503":
            sim.env.inject_error("POST", CALLBACK, status=503, times=1)
        else:  # QA: "try again" too, but with two tracebacks
            no_answer(monkeypatch, "POST", CALLBACK)
        table = sim.table_of(info)
        [show] = [b for b in buttons(table) if verb_of(b) == "hand"]
        result = await bob.click(table, custom_id=show["custom_id"])
        assert result.response is not None and result.response.ephemeral
        assert result.response.content == (
            "Something went wrong on our side with that click. Please try again."
        )
        records = bot_records(caplog)
        cause = "503" if fault == "503" else "TimeoutError"
        assert len(records) == 1 and cause in records[0].getMessage()
        assert not any(r.exc_info for r in caplog.records)
        assert not sim.env.errors
        # And it works again at once.
        again = await sim.open_hand(bob)
        assert again.ephemeral


async def test_play_again_refused_by_discord_leaves_no_unseen_lobby(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        old = await sim.play(info.id, random.Random(3))
        final, _ = await sim.final_standings(old.id)
        caplog.clear()
        sim.env.inject_error("POST", CALLBACK, status=500, times=1)
        failed = await bob.click(sim.message(final.id), label="Play again")
        assert failed.response is not None and failed.ephemeral
        assert failed.response.content == (
            "Something went wrong on our side with that click. Please try again."
        )
        # The lobby nobody saw does not hold the channel: trying again opens one.
        assert await sim.service.game_in_channel(sim.channel.id) is None
        said = bot_records(caplog)
        assert len(said) == 1 and f"game {old.id}" in said[0].getMessage(), said
        again = await bob.click(sim.message(final.id), label="Play again")
        assert again.response is not None and not again.ephemeral
        assert not sim.env.errors


async def test_a_join_whose_answer_discord_refuses_shows_on_the_lobby_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        locales[cy] = "pt-BR"
        info = await sim.new_game(ann)
        lobby_id = sim.raw()[-1].id
        await bob.click(sim.message(lobby_id), label="Join")
        sim.env.inject_error("POST", CALLBACK, status=500, times=1)
        result = await cy.click(sim.message(lobby_id), label="Join")

        # She joined, and reads so in Portuguese, not "try again" (she is in already).
        said = texts("pt-BR")("You joined game {game}.", game=info.id)
        assert result.response is not None and result.response.content == f"✅ {said}"
        # The lobby her click could not redraw is redrawn without waiting for another click.
        await sim.cog.surfaces.idle()
        lobby = sim.message(lobby_id)
        start = next(b for b in buttons(lobby) if verb_of(b) == "start")
        assert "**cy**" in message_text(lobby) and not start.get("disabled")


async def test_a_start_whose_answer_discord_refuses_says_the_game_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=3) as sim:
        info, lobby_id = await full_lobby(sim)
        ann = sim.members[0]
        locales[ann] = "de"
        sim.env.inject_error("POST", CALLBACK, status=500, times=1)
        result = await ann.click(sim.message(lobby_id), label="Start")

        said = texts("de")("Game {game} has started.", game=info.id)
        assert result.response is not None and result.response.content == f"✅ {said}"
        await sim.cog.surfaces.idle()
        assert any(is_hand_button(b) for b in buttons(sim.message(lobby_id)))  # the table


async def test_a_play_whose_answer_discord_refuses_redraws_the_hand(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=3) as sim:
        _, rng, mover = await first_card_to_play(sim)
        await sim.open_hand(mover)
        sim.env.inject_error("POST", CALLBACK, status=503, times=1)
        result = await sim.act(mover, rng.choice)
        assert result.response is not None and result.response.content.startswith("✅")

        # The hand the answer was to redraw no longer offers the card just played.
        await sim.cog.surfaces.idle()
        hand = sim.hand(mover)
        assert hand is not None
        assert not [b for b in buttons(hand) if verb_of(b) == "play" and not b.get("disabled")]


async def test_a_double_click_on_start_is_answered_as_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=3) as sim:
        info, lobby_id = await full_lobby(sim)
        ann = sim.members[0]
        locales[ann] = "de"
        start = next(
            b["custom_id"] for b in buttons(sim.message(lobby_id)) if verb_of(b) == "start"
        )
        _, second = await clicks_at_once(sim, [(ann, lobby_id, start), (ann, lobby_id, start)])
        said = texts("de")("Game {game} has started.", game=info.id)
        assert second.response is not None and second.response.content == f"✅ {said}"


async def test_a_slow_click_whose_deferral_discord_refuses_still_counts_and_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Review: Discord refusing the deferral of a slow click made the bot answer "Something
    # went wrong… try again" while the service went on and committed the bid.
    config = GameConfig(ping_delay=None, edit_interval=0.0)
    async with simulation(tmp_path, members=3, config=config) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], bidding="hidden")
        mover, hand, bid = await first_hand_bid(sim, info)
        # Only the click below is to be deferred (the hand it clicks in, opened by a click
        # deferred on a busy machine, had no bid buttons yet: a flaky test).
        sim.cog.config = dataclasses.replace(config, defer_after=0.05)
        before = (await sim.service.get_game(info.id)).version
        act = sim.service.act

        async def slow_act(*args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(0.3)  # longer than defer_after: the click is deferred
            return await act(*args, **kwargs)

        sim.service.act = slow_act  # type: ignore[method-assign]
        caplog.clear()
        sim.env.inject_error("POST", CALLBACK, status=500, times=1)  # the deferral
        result = await mover.click(hand, custom_id=bid["custom_id"])

        assert (await sim.service.get_game(info.id)).version == before + 1  # it counted
        failed = texts("en")(FAILED)
        assert result.response is not None and failed not in (result.response.content or "")
        said = texts("en")("You bid {bid}.", bid=int(bid["label"]))
        assert said in (result.response.content or ""), result.response.content
        records = bot_records(caplog)
        assert [r.levelname for r in records] == ["WARNING"], [r.getMessage() for r in records]
        assert "deferral" in records[0].getMessage() and "500" in records[0].getMessage()
        assert not any(r.exc_info for r in caplog.records)
        assert not sim.env.errors


@pytest.mark.parametrize("error", [TimeoutError, aiohttp.ServerDisconnectedError])
@pytest.mark.parametrize("delivered", [False, True], ids=["lost", "answer-lost"])
async def test_a_play_whose_answer_gets_no_answer_from_discord_counts_and_says_so(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    error: type[BaseException],
    delivered: bool,
) -> None:
    """QA: the network failed on the answer to a card (a timeout, a dropped connection:
    aiohttp's errors, which discord.py does not turn into an HTTPException). The card counted,
    but the player read "Something went wrong… Please try again" and the operator two
    tracebacks. It is Discord's trouble like a 503: one warning, and the player is told what
    counted (or, when the answer did reach Discord, sees that answer)."""
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=3) as sim:
        info, _, mover = await first_card_to_play(sim)
        locales[mover] = "de"
        hand = await sim.open_hand(mover)
        card = next(b for b in buttons(hand) if verb_of(b) == "play" and not b.get("disabled"))
        before = (await sim.service.get_game(info.id)).version
        caplog.clear()
        no_answer(monkeypatch, "POST", CALLBACK, error=error, delivered=delivered)
        result = await mover.click(hand, custom_id=card["custom_id"])

        assert (await sim.service.get_game(info.id)).version == before + 1  # it counted
        assert result.response is not None and result.response.ephemeral
        if delivered:  # the redrawn hand reached the player: nothing more is said
            assert result.response.content.startswith("-# Wizard · Partie"), result.response.content
            assert not result.followups
        else:
            assert result.response.content.startswith("✅ Du hast"), result.response.content
        records = bot_records(caplog)
        assert records and f"game {info.id}" in records[0].getMessage()
        assert error.__name__ in records[0].getMessage()
        assert len(records) == 1, [r.getMessage() for r in records]
        assert not any(r.exc_info for r in caplog.records)
        assert not sim.env.errors
        # The hand no longer offers the card just played.
        await sim.cog.surfaces.idle()
        now = sim.hand(mover)
        assert now is not None
        assert card["custom_id"] not in [b["custom_id"] for b in buttons(now)]


async def test_a_timeout_of_the_bots_own_is_a_fault_not_discords(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Review: a TimeoutError is Discord's trouble only when a request to Discord raised it;
    one from the service (a worker that did not answer, say) is a fault of the bot, reported
    with its traceback, not a warning that Discord did not answer."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], bidding="hidden")
        mover, hand, bid = await first_hand_bid(sim, info)

        async def timing_out(*args: Any, **kwargs: Any) -> Any:
            raise TimeoutError("a worker did not answer")

        sim.service.act = timing_out  # type: ignore[method-assign]
        caplog.clear()
        result = await mover.click(hand, custom_id=bid["custom_id"])
        assert result.response is not None
        assert result.response.content == texts("en")(FAILED)
        assert any(r.levelno == logging.ERROR and r.exc_info for r in caplog.records)
        assert [type(e) for e in sim.env.errors] == [TimeoutError]


async def test_a_hand_shown_though_its_answer_was_lost_follows_the_game(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review: "Show my hand" whose hand reached the player while the answer was lost on the
    way back was never redrawn: it went on showing its first moment as the game moved."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy])
        table = sim.table_of(info)
        [show] = [b for b in buttons(table) if verb_of(b) == "hand"]
        no_answer(monkeypatch, "POST", CALLBACK, delivered=True)
        shown = await bob.click(table, custom_id=show["custom_id"])
        assert shown.response is not None and shown.ephemeral
        first = shown.response.content
        rng = random.Random(5)
        before = (await sim.service.get_game(info.id)).version
        await sim.play(info.id, rng, until=lambda i: i.version >= before + 3)
        await sim.cog.surfaces.idle()
        now = sim.message(shown.response.id).content
        assert now != first and "replaced" not in now, now
        assert not any(r.exc_info for r in caplog.records)
