"""Discord refuses the answer to ``/wizard new`` (the lobby itself): the game it opened is not
left in the channel unseen, blocking every later ``/wizard new``; the host reads "try again",
and trying again works. The operator gets one warning naming the game."""

from __future__ import annotations

import logging
from pathlib import Path

import discord
import pytest
from discord.app_commands import CommandInvokeError

from tests.bot.conftest import simulation
from tests.bot.simtools import no_answer
from wizard.service import GameStatus

pytestmark = pytest.mark.usefixtures("fast_settle")


async def test_a_lobby_discord_refused_does_not_block_the_channel(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, _ = sim.members
        caplog.clear()
        sim.env.inject_error("POST", "/interactions/*/*/callback", status=500, times=1)
        failed = await ann.slash(sim.channel, "wizard new")
        assert failed.response is not None and failed.ephemeral
        assert failed.response.content == (
            "Something went wrong on our side with that command. Please try again."
        )
        assert sim.public() == []
        assert await sim.service.game_in_channel(sim.channel.id) is None
        unseen = await sim.service.get_game(1)  # the first game of the database
        assert unseen.status is GameStatus.CANCELLED
        said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(said) == 1 and f"game {unseen.id}" in said[0] and "500" in said[0], said
        assert not any(r.exc_info for r in caplog.records)

        again = await sim.new_game(ann)  # the lobby is posted this time
        assert again.id != unseen.id
        assert not sim.env.errors


CALLBACK = "/interactions/*/*/callback"


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_board_discord_refused_asks_to_try_again_without_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A 503 on the answer to /wizard stats, leaderboard or history logged two tracebacks
    (and reached ``on_error``): Discord's own outage, not a fault of the bot."""
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        for command in ("wizard stats", "wizard leaderboard", "wizard history"):
            caplog.clear()
            sim.env.inject_error("POST", CALLBACK, status=503, times=1)
            result = await ann.slash(sim.channel, command)
            assert result.response is not None and result.ephemeral, command
            assert result.response.content == "Something went wrong on our side. Please try again."
            said = _warnings(caplog)
            assert len(said) == 1 and "503" in said[0] and command in said[0], said
            assert not any(r.exc_info for r in caplog.records), command
        assert not sim.env.errors


async def test_settings_saved_though_discord_refused_the_answer_says_saved(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The manager was told "Something went wrong … Please try again." after a 503 on the
    answer, while the change was saved: what counted is what they must read."""
    async with simulation(tmp_path, members=1) as sim:
        boss = sim.add_manager("boss")
        caplog.clear()
        sim.env.inject_error("POST", CALLBACK, status=503, times=1)
        result = await boss.slash(sim.channel, "wizard settings", min_games=3)
        assert (await sim.service.get_settings(sim.guild.id)).rated_min_games == 3
        assert result.response is not None and result.ephemeral
        assert result.response.content == "✅ Saved.\n• Ranked after 3 games"
        said = _warnings(caplog)
        assert len(said) == 1 and "503" in said[0], said
        assert not any(r.exc_info for r in caplog.records)
        assert not sim.env.errors


@pytest.mark.parametrize("fault", ["503", "no answer"])
async def test_a_game_command_discord_failed_asks_to_try_again_without_a_traceback(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    fault: str,
) -> None:
    """Discord failing the answer to /wizard help or ping (a 503, or no answer at all) was
    logged as the bot's own error, with a traceback: it is an outage. One warning naming the
    command, and the member asked to try again."""
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        await sim.new_game(ann)
        for command in ("wizard help", "wizard ping"):
            caplog.clear()
            if fault == "503":
                sim.env.inject_error("POST", CALLBACK, status=503, times=1)
            else:
                no_answer(monkeypatch, "POST", CALLBACK)
            result = await ann.slash(sim.channel, command)
            assert result.response is not None and result.ephemeral, command
            assert result.response.content == (
                "Something went wrong on our side with that command. Please try again."
            )
            said = _warnings(caplog)
            cause = "503" if fault == "503" else "TimeoutError"
            assert len(said) == 1 and cause in said[0] and command in said[0], said
            assert not any(r.exc_info for r in caplog.records), command
        # SimCord records every error its command tree hands on, handled or not: here only
        # Discord's failures, which the bot's handler above answered.
        failed = [e.original for e in sim.env.errors if isinstance(e, CommandInvokeError)]
        assert len(failed) == len(sim.env.errors) == 2, sim.env.errors
        assert all(isinstance(e, discord.HTTPException | TimeoutError) for e in failed), failed
