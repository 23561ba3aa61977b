"""Discord refuses the answer to ``/wizard new`` (the lobby itself): the game it opened is not
left in the channel unseen, blocking every later ``/wizard new``; the host reads "try again",
and trying again works. The operator gets one warning naming the game."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.bot.conftest import simulation
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
