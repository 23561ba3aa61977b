"""Clocks and computer turns: lobby expiry, turn timers, hand-overs and computer moves.

A game's timer fires at its earliest due time (its deadline, or its next computer move); a
game not loaded yet has a wake-up time from its row instead, and is loaded when it fires.
Expensive computer decisions are made off the event loop through one seam, :meth:`_think`.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging

from wizard.ai import ComputerPlayer
from wizard.rules import to_act
from wizard.service.base import log
from wizard.service.errors import BusyError, IllegalMoveError, ServiceError
from wizard.service.events import Actor, GameStatus, GameUpdate
from wizard.service.game import LiveGame, computer_controlled, turn_ran_out
from wizard.service.lobby import Lobby
from wizard.service.workers import ThinkerPool
from wizard.state import Action, Phase, Play
from wizard.view import PlayerView, view

RETRY_PAUSE = 1.0
"""Seconds before a background step that failed (a computer's move, a timeout) is tried
again; doubled at each failure in a row, up to :data:`MAX_RETRY_PAUSE`."""
MAX_RETRY_PAUSE = 10.0
"""The longest pause between tries: a fault that lasts (a full disk) costs each game a try
every ten seconds, and a game moves on at most that long after the fault is gone."""


class Turns(Lobby):
    """The clocks of this process's games and the moves of computer seats."""

    _thinkers: ThinkerPool | None = None

    def start_clocks(self) -> None:
        """Run the clocks: lobby expiry, turn timers and computer turns (with their delay)."""
        self._running = True
        now = self.clock.now()
        for live in list(self._games.values()):
            if live.status is GameStatus.ACTIVE and live.computer_due is None:
                live.computer_due = self._computer_due(live, now)
            self._arm(live)
        for game_id in list(self._wakes):
            self._arm_wake(game_id)

    async def stop_clocks(self) -> None:
        """Stop the clocks and wait for the work they started."""
        self._running = False
        for live in self._games.values():
            if live.timer is not None:
                live.timer.cancel()
                live.timer = None
        for handle in self._wake_timers.values():
            handle.cancel()
        self._wake_timers.clear()
        await self.wait_idle()

    async def wait_idle(self) -> None:
        """Wait until no background work (computer moves, timeouts) is running."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def run_computer_turns(
        self, game_id: int, *, max_moves: int | None = None
    ) -> list[GameUpdate]:
        """Make every computer move that is due now, at once (no delay); the updates in order.

        For front ends that drive computer turns themselves, and for tests. With
        :meth:`start_clocks` the clocks do this with ``config.computer_delay`` between moves
        and send each update to the listeners instead.
        """
        live = await self._get(game_id, finished_ok=True)
        out: list[GameUpdate] = []
        for _ in itertools.count() if max_moves is None else range(max_moves):
            if live.status is not GameStatus.ACTIVE or live.state is None:
                break
            seat = live.computer_seat()
            if seat is None:
                break
            version = live.version
            update = await self._shielded(self._auto_move(live, seat, Actor.COMPUTER))
            if update is not None:
                out.append(update)
            elif live.version == version:
                break  # nothing moved and nothing will: do not spin
        self._arm(live)
        return out

    async def run_due(self) -> list[GameUpdate]:
        """Do everything due by now in this process's games (timeouts, computer moves,
        lobby expiry) and return the updates, without the listeners; for manual driving."""
        now = self.clock.now()
        for game_id, due in list(self._wakes.items()):
            if due <= now:
                try:
                    await self._get(game_id)
                except ServiceError as e:
                    log.warning("game %s could not be woken: %s", game_id, e.message)
                    self._wakes.pop(game_id, None)
        out: list[GameUpdate] = []
        for live in list(self._games.values()):
            while True:
                updates = await self._due_step(live)
                if not updates:
                    break
                out.extend(updates)
            self._arm(live)
        return out

    # --- timers -----------------------------------------------------------------------------

    def _fire(self, game_id: int) -> None:
        if not self._running:
            return
        self._wake_timers.pop(game_id, None)
        live = self._games.get(game_id)
        if live is not None:
            live.timer = None
        elif game_id not in self._wakes:
            return
        task = asyncio.ensure_future(self._scheduled(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _scheduled(self, game_id: int) -> None:
        live: LiveGame | None = None
        failed = True
        # The first failure of a run is logged; the next ones alike are not (they would
        # be every few seconds for as long as the fault lasts).
        again = game_id in self._step_failures
        try:
            live = await self._get(game_id)  # loads a game woken from its row
            for update in await self._due_step(live):
                await self._notify(update)
            failed = False
        except BusyError:
            # The store tells the operator once about another process's lock.
            log.debug("game %s: background step waits for the database's lock", game_id)
        except ServiceError as e:
            level = logging.DEBUG if again else logging.WARNING
            log.log(level, "game %s: background step refused: %s", game_id, e.message)
        except Exception:
            if again:
                log.debug("game %s: background step failed again", game_id, exc_info=True)
            else:
                log.exception("game %s: background step failed", game_id)
        finally:
            self._wakes.pop(game_id, None)
            pause = self._after_step(game_id, failed)
            if live is not None and self._games.get(game_id) is live:
                # A step that failed is tried again after a pause, not at once: its due time
                # is past, and a fault that lasts would spin the event loop.
                self._arm(live, not_before=None if pause is None else self.clock.now() + pause)

    def _after_step(self, game_id: int, failed: bool) -> float | None:
        """Count a background step's failures in a row: the pause before the next try
        (``None`` after a success)."""
        if not failed:
            if self._step_failures.pop(game_id, 0) > 1:
                log.info("game %s: background steps work again", game_id)
            return None
        count = self._step_failures.get(game_id, 0) + 1
        self._step_failures[game_id] = count
        return min(RETRY_PAUSE * 2.0 ** (count - 1), MAX_RETRY_PAUSE)

    async def _due_step(self, live: LiveGame) -> list[GameUpdate]:
        """One round of what is due now: lobby expiry, a computer move, or timeouts."""
        now = self.clock.now()
        if live.status is GameStatus.LOBBY:
            if live.deadline is not None and live.deadline <= now:
                async with live.lock:
                    if live.status is GameStatus.LOBBY and live.deadline <= now:
                        return [await self._shielded(self._cancel_locked(live, "expired"))]
            return []
        if live.status is not GameStatus.ACTIVE:
            return []
        if live.computer_due is not None and live.computer_due <= now:
            seat = live.computer_seat()
            if seat is None:
                live.computer_due = None
                return []
            version = live.version
            update = await self._shielded(self._auto_move(live, seat, Actor.COMPUTER))
            if update is None and live.version == version:
                # The computer could not move and nothing changed: try again later rather
                # than at once, so that a stuck seat never spins the event loop.
                live.computer_due = self.clock.now() + max(1.0, self.config.computer_delay)
            return [update] if update is not None else []
        # A timer keeps steady time: with the system clock moved back while the turn ran, it
        # comes when the turn is over, and finds the deadline still ahead.
        if live.deadline is not None and turn_ran_out(live.deadline, live.turn_seconds, now):
            out = []
            state = live.state
            version = live.version
            assert state is not None
            for seat in to_act(state):
                if computer_controlled(live.seats[seat]):
                    continue
                update = await self._shielded(self._auto_move(live, seat, Actor.TIMEOUT))
                if update is not None:
                    out.append(update)
            if out and not live.playing():
                # The last person's seat went to a computer: nobody plays the game any more,
                # and computers alone would play it out (as when the last one leaves).
                async with live.lock:
                    if live.status is GameStatus.ACTIVE and not live.playing():
                        out.append(await self._shielded(self._cancel_locked(live, "abandoned")))
            if not out and live.version == version:
                live.deadline = now + (live.turn_seconds or 60.0)  # same guard as above
            return out
        return []

    # --- computer players -------------------------------------------------------------------

    async def _think(self, live: LiveGame, seat: int, level: str, seat_view: PlayerView) -> Action:
        """A search-level computer decision, off the event loop: in a supervised worker
        process with a deadline (then the heuristic decides), or in a thread without workers."""
        if self.config.ai_processes > 0:
            if self._thinkers is None:  # no process starts before the first decision
                self._thinkers = ThinkerPool(
                    self.config.ai_processes, deadline=self.config.ai_deadline
                )
            return await self._thinkers.decide(
                level, live.computer_seed(seat), seat_view, context=f"game {live.id} seat {seat}"
            )
        player: ComputerPlayer = live.computer(seat, level)
        return await asyncio.to_thread(player.choose, seat_view)

    async def _auto_move(self, live: LiveGame, seat: int, actor: Actor) -> GameUpdate | None:
        """A computer move for ``seat``: its own (computer seat) or for a timed-out player.

        The choice is made outside the lock (off the loop for expensive levels), then
        applied through the same path as a click if the game has not moved meanwhile.
        """
        state, version = live.state, live.version
        if state is None or seat not in to_act(state):
            return None
        row = live.seats[seat]
        settings = await self.get_settings(live.guild_id)
        level = live.level_of(row, settings.computer_level)
        seat_view = view(state, seat)
        if seat_view.legal:
            if level in self.config.inline_levels:
                action = live.computer(seat, level).choose(seat_view)
            else:
                action = await self._think(live, seat, level, seat_view)
        elif state.phase is Phase.PLAY and state.turn == seat and state.hands[seat]:
            # Clairvoyance (R7.4): the seat cannot see its single card; it plays it blind.
            action = Play(seat, state.hands[seat][0])
        else:
            return None
        async with live.lock:
            if live.version != version or live.status is not GameStatus.ACTIVE:
                return None  # moved on while choosing: the caller looks again
            row = live.seats[seat]
            if actor is Actor.COMPUTER and not computer_controlled(row):
                return None
            if actor is Actor.TIMEOUT and (
                computer_controlled(row)
                or live.deadline is None
                or not turn_ran_out(live.deadline, live.turn_seconds, self.clock.now())
            ):
                return None
            apply = functools.partial(
                self._apply, live, seat=seat, actor=actor, user_id=None, request_id=None
            )
            try:
                return await apply(action=action)
            except IllegalMoveError as e:
                # A computer player broke a rule: a bug there, not a reason to stall the game.
                log.error("game %s: computer %s chose an illegal %r: %s", live.id, level, action, e)
                legal = view(state, seat).legal
                return await apply(action=legal[0] if legal else Play(seat, state.hands[seat][0]))

    async def _close_workers(self) -> None:
        if self._thinkers is not None:
            await self._thinkers.close()  # later decisions fall back to the heuristic
