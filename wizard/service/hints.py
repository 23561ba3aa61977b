"""Hints for learners: what the ``normal`` computer would do in a player's place.

A server allows hints in its settings (``GuildSettings.hints_allowed``, off by default).
The suggestion is made like a computer's move (:meth:`Turns._think`: the worker pool, with
the same deadline, so a hint never blocks another game); the estimate of the round's
tricks comes from :func:`wizard.ai.estimate.estimate_tricks`, in a thread. Using a hint
marks the seat in the game (stored: ``games.hints_used``); the final standings carry the
mark and the game is not rated.
"""

from __future__ import annotations

import asyncio

import aiosqlite

from wizard.ai.estimate import estimate_tricks
from wizard.cards import SUITS
from wizard.errors import IllegalActionError
from wizard.rules import apply, to_act
from wizard.service.errors import (
    HintsOffError,
    IllegalMoveError,
    NotSeatedError,
    NotYourTurnError,
)
from wizard.service.events import GameStatus
from wizard.service.game import LiveGame
from wizard.service.moves import MakeBid, Move, NameTrump, PlayCard, PlayHiddenCard
from wizard.service.turns import Turns
from wizard.service.types import Hint
from wizard.state import Action, Bid, ChooseTrump, GameState, Phase, Play
from wizard.store import repo
from wizard.view import view

HINT_LEVEL = "normal"
"""The computer level whose choice a hint shows."""


class Hints(Turns):
    """The hints a seated player may ask for on their turn."""

    async def hint(self, game_id: int, user_id: int) -> Hint:
        """What ``normal`` would do now in the user's seat, and how many tricks it expects
        the seat to win this round. Marks the game as one with hints (not rated).

        Refused with ``hints_off`` (the server does not allow hints), ``not_seated`` (not
        in the game, kicked, or ``away`` while a computer plays the seat), the engine's
        not-your-turn refusal (``not_your_turn``, ``not_your_turn_to_bid``,
        ``only_dealer_chooses_trump``, ``already_bid``) and ``game_status``.
        """
        live = await self._get(game_id)
        settings = await self.get_settings(live.guild_id)
        if not settings.hints_allowed:
            raise HintsOffError()
        self._check_status(live, GameStatus.ACTIVE)
        row = live.seat_of(user_id)
        if row is None:
            raise NotSeatedError()
        if row.kicked:
            raise NotSeatedError(reason="kicked")
        if row.away:
            raise NotSeatedError(reason="away")
        state, version, seat = live.state, live.version, row.seat
        assert state is not None
        if seat not in to_act(state):
            raise _not_your_turn(state, seat)
        seen = view(state, seat)
        action: Action | None = None
        move: Move = PlayHiddenCard()  # clairvoyance (R7.4): the only card, unseen
        if seen.legal:
            action = await self._think(live, seat, HINT_LEVEL, seen)
            move = _move_of(action)
        expected = await asyncio.to_thread(
            estimate_tricks, seen, action, seed=live.computer_seed(seat)
        )
        await self._shielded(self._mark_hint(live, seat))
        won = seen.tricks[seat] if seen.phase is Phase.PLAY else 0
        return Hint(
            game_id=live.id,
            version=version,
            seat=seat,
            phase=seen.phase,
            move=move,
            expected_tricks=expected,
            tricks_won=won,
            level=HINT_LEVEL,
        )

    async def _mark_hint(self, live: LiveGame, seat: int) -> None:
        """Store that ``seat`` used a hint (once per seat; the version does not change)."""
        async with live.lock:
            if seat in live.hints_used or live.status is not GameStatus.ACTIVE:
                return

            async def item(conn: aiosqlite.Connection) -> None:
                await conn.execute(repo.MARK_HINT, (1 << seat, live.id))

            await self._write(item)
            live.hints_used = live.hints_used | {seat}


def _move_of(action: Action) -> Move:
    """The move a player would make for ``action``."""
    if isinstance(action, Play):
        return PlayCard(action.card)
    if isinstance(action, Bid):
        return MakeBid(action.bid)
    if isinstance(action, ChooseTrump):
        return NameTrump(action.suit)
    raise TypeError(f"not a player action: {action!r}")


def _not_your_turn(state: GameState, seat: int) -> IllegalMoveError:
    """The engine's own refusal of a move by ``seat`` now (so it reads as a click would)."""
    probe: Action
    if state.phase is Phase.PLAY:
        hand = state.hands[seat]
        probe = Play(seat, hand[0]) if hand else Play(seat, state.dealt[seat][0])
    elif state.phase is Phase.CHOOSE_TRUMP:
        probe = ChooseTrump(seat, SUITS[0])
    else:
        probe = Bid(seat, 0)
    try:
        apply(state, probe)
    except IllegalActionError as e:
        return IllegalMoveError.from_engine(e)
    return NotYourTurnError("R5.1")  # not reached: a seat not to act cannot move
