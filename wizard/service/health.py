"""The games of a database file that the game service cannot load, found without writing
to the file: for ``python -m bot check``, which only reads and runs beside the bot.

The service loads a game from its log only when it is first used, so a damaged game is
otherwise found (and set aside) when a player first touches it, a finished one when its
history is opened. Here the service itself loads every lobby and running game of a copy of
the file, and for ``check`` every finished game: the same checks as the bot's, and the file
is left as it was.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from wizard.service.core import GameService
from wizard.service.errors import ServiceError
from wizard.service.events import GameStatus
from wizard.service.settings import ServiceConfig
from wizard.store.backup import backup


class Unloadable(NamedTuple):
    """A game the service cannot load, and why."""

    game: int
    reason: str
    finished: bool
    """A finished game: nothing to set aside (its results and the boards stand), but its
    record and scorepad cannot be shown."""


def trial_copy(path: Path, folder: Path) -> Path:
    """A copy of ``path`` in ``folder`` to try its games on (not checked again: the caller
    checked the file). Interrupted, it leaves no part of itself behind."""
    copy = folder / "copy.db"
    backup(Path(path), copy, checked=False)
    return copy


async def unloadable_games(
    copy: Path, *, finished: bool = False, stop: Sequence[object] = ()
) -> list[Unloadable]:
    """Games of the database ``copy`` (:func:`trial_copy`: it is changed) that are not yet
    set aside but cannot be loaded, with the reason; oldest first, and with ``finished`` the
    finished games that cannot be shown after them (about 8 ms each: tried until ``stop``
    holds anything, a stop the caller holds back)."""
    config = ServiceConfig(ai_processes=0)
    service = await GameService.open(copy, config=config, recover=False)
    try:
        before = {game for game, _ in await service.damaged_games()}
        open_games = await service.store.fetchall(
            "SELECT id FROM games WHERE status IN ('lobby', 'active')"
            " AND typeof(id) = 'integer' ORDER BY id"
        )
        ended = []
        if finished:
            ended = await service.store.fetchall(
                "SELECT id FROM games WHERE status = 'finished' AND typeof(id) = 'integer'"
                " ORDER BY id"
            )
        await service.recover()
        # Every lobby and running game, of every shard, also one whose row is too damaged
        # for recovery to arm its clocks (it is found when first used, as here).
        for (game,) in open_games:
            # A refusal is no damage: a damaged game is set aside and listed below.
            with contextlib.suppress(ServiceError):
                await service.get_game(game)
        after = await service.damaged_games()
        # A finished game is read when its history is opened: one that cannot be is not
        # set aside (nothing to stop), so it is found by its status as loaded.
        unshowable = []
        for (game,) in ended:
            if stop:
                break
            with contextlib.suppress(ServiceError):
                info = await service.get_game(game)
                if info.status is GameStatus.BROKEN:
                    unshowable.append(Unloadable(game, info.broken_reason or "damaged", True))
    finally:
        await service.close()
    found = [Unloadable(game, reason, False) for game, reason in after if game not in before]
    return found + unshowable
