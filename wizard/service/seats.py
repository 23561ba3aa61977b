"""Seats in a running game: taken over from a computer, or taken back; who held them when.

A person who is not seated may take over a seat a computer plays when the host allows it
(:meth:`Seats.set_seat_taking`); the seat's own player may always take it back (unless
kicked). One person plays one seat of a game: who left a seat may take only that one
again. The game goes on from the same state; the seat takes the new person's name.
Every change of a seat's holder is stored (``seat_holders``, migration 8), so the history
shows who played which moves (:meth:`Seats.seat_history`).
"""

from __future__ import annotations

from dataclasses import replace

from wizard.service.base import _clean_name, shielded, unique_name
from wizard.service.errors import (
    AlreadySeatedError,
    GameNotFoundError,
    NotAwayError,
    NotSeatedError,
    SeatHeldError,
    SeatNotFoundError,
    SeatTakingOffError,
)
from wizard.service.events import GameStatus, GameUpdate, SeatTakenBack, SeatTakenOver
from wizard.service.game import GameInfo, LiveGame, computer_controlled
from wizard.service.hints import Hints
from wizard.service.types import SeatHolder
from wizard.store import repo

DEFAULT_NAME = "Player"
"""The name of a person who takes a seat without giving one."""


class Seats(Hints):
    """Taking over and taking back seats of running games, and the seats' history."""

    @shielded
    async def take_seat(
        self,
        game_id: int,
        user_id: int,
        *,
        seat: int | None = None,
        name: str | None = None,
    ) -> GameUpdate:
        """Play a seat a computer holds, from the game's current state on.

        The seat's own player (``seat`` left out, or their own) takes it back: refused with
        ``not_away`` if they already play it, ``not_seated`` (kicked) after a kick, and
        ``not_seated`` (``seat_taken``, naming who) once a person took over the seat they
        left (``not_in_game`` for one who never had a seat). Anyone
        else names a ``seat`` (0-based) and their ``name`` (cleaned, made unique): refused
        with ``already_seated`` if they play another seat of this game, ``seat_taking_off``
        if the host has not allowed it, ``not_seated`` (``removed``) if the host
        removed them from the lobby or the game, ``not_seated`` (``seat_taken``, or
        ``own_seat_only`` naming it) if they made moves for another seat of this game, which
        they left (one person plays one seat of a game: leaving one must not earn a
        better one), ``seat_held`` if a person plays that seat, and
        ``seat_not_found`` for no such seat. Of two people taking one seat at once,
        exactly one gets it (the game's lock).
        """
        live = await self._get(game_id)
        async with live.lock:
            self._check_status(live, GameStatus.ACTIVE)
            own = live.seat_of(user_id)
            if own is not None:
                if own.kicked:
                    raise NotSeatedError(reason="kicked")
                if seat is not None and seat != own.seat:
                    raise AlreadySeatedError()
                if not own.away:
                    raise NotAwayError()
                new = own.model_copy(update={"away": False, "timeouts": 0})
                update = await self._change_seat(live, new, (SeatTakenBack(own.seat),))
            else:
                if seat is None:  # "Take my seat back", pressed by one who has none now
                    raise await self._not_seated(live, user_id)
                if not 0 <= seat < len(live.seats):
                    raise SeatNotFoundError(reason="seat", seat=seat + 1)
                if not live.allow_seat_taking:
                    raise SeatTakingOffError(seat=seat + 1)
                if await repo.was_removed(self._store, live.id, user_id):
                    # The host removed them, from the lobby or the running game: not back
                    # in through a seat.
                    raise NotSeatedError(reason="removed")
                played = await repo.last_seat_of(self._store, live.id, user_id)
                if played is not None and played != seat:
                    # QA: one who left a losing seat took the leading computer's and ended
                    # with its place, unforfeited. One person plays one seat of a game.
                    refusal = await self._not_seated(live, user_id)
                    if refusal.params.get("reason") == "not_in_game":
                        refusal = NotSeatedError(reason="own_seat_only", seat=played + 1)
                    raise refusal
                row = live.seats[seat]
                if not computer_controlled(row):
                    raise SeatHeldError(seat=seat + 1, name=row.name)
                others = [s for s in live.seats if s.seat != seat]
                cleaned = _clean_name(name) if name is not None else ""
                seat_name = unique_name(cleaned or DEFAULT_NAME, others)
                new = row.model_copy(
                    update={
                        "user_id": user_id,
                        "name": seat_name,
                        "away": False,
                        "kicked": False,
                        "timeouts": 0,
                    }
                )
                taken = SeatTakenOver(seat, user_id, seat_name, row.name)
                update = await self._change_seat(live, new, (taken,))
        self._arm(live)
        return update

    async def seats_open_to(self, game_id: int, user_id: int) -> tuple[int, ...]:
        """Seats ``user_id`` may take now (:meth:`GameInfo.seats_open_to`): one who made a
        move for a seat of this game, and holds none now, only that one."""
        info = (await self._get(game_id, finished_ok=True)).info()
        played = None
        if info.seat_of(user_id) is None:
            played = await repo.last_seat_of(self._store, game_id, user_id)
        return info.seats_open_to(user_id, played=played)

    async def take_back(self, game_id: int, user_id: int) -> GameUpdate:
        """Play one's own seat again after a computer held it (not after a kick): the same
        as :meth:`take_seat` without a seat."""
        return await self.take_seat(game_id, user_id)

    async def set_seat_taking(
        self, game_id: int, by_user_id: int, allowed: bool, *, is_manager: bool = False
    ) -> GameInfo:
        """Let people who are not seated take over computer seats, or not (host or server
        manager; ``not_host`` for others). In a lobby or a running game."""
        live = await self._get(game_id)
        return await self._shielded(self._set_seat_taking(live, by_user_id, allowed, is_manager))

    async def _set_seat_taking(
        self, live: LiveGame, by_user_id: int, allowed: bool, is_manager: bool
    ) -> GameInfo:
        async with live.lock:
            if live.status is not GameStatus.LOBBY:
                self._check_status(live, GameStatus.ACTIVE, "change")
            self._check_host(live, by_user_id, is_manager, "change_options")
            if live.allow_seat_taking == allowed:
                return live.info()
            # A lobby redraws on a new version; a running game keeps its version, so that
            # nothing is redrawn for a change that does not touch the cards.
            now = self.clock.now() if live.status is GameStatus.LOBBY else None
            await self._update_game(live, now, allow_seat_taking=allowed)
        return live.info()

    async def seat_history(self, game_id: int) -> tuple[SeatHolder, ...]:
        """Who held each seat of a started game over time, by seat and action index: a
        holder plays the seat's moves from ``from_action`` until the seat's next holder.
        Computer moves for a timed-out player before the hand-over show in the log's
        ``actor`` only. ``game_not_found`` for no such game; empty before the start."""
        rows = await repo.fetch_holders(self._store, game_id)
        if not rows and await repo.fetch_seat_extras(self._store, game_id) is None:
            raise GameNotFoundError(game_id)
        holders = [
            SeatHolder(
                seat=int(r["seat"]),
                from_action=int(r["from_action"]),
                user_id=r["user_id"],
                level=r["level"],
                name=str(r["name"]),
            )
            for r in rows
        ]
        moves = await repo.fetch_move_seats(self._store, game_id)
        return who_played(holders, [(int(m["seq"]), int(m["seat"])) for m in moves])

    async def players_of(self, game_id: int) -> dict[int, bool]:
        """Everyone who held a seat of the game (those at its end first, then the host, then
        anyone whose seat someone else took over, then anyone removed from its lobby or
        seats), each with whether the host or a manager removed them: a rematch is for those
        not removed. ``game_not_found`` for no such game."""
        live = await self._get(game_id, finished_ok=True)
        removed = await repo.removed_users(self._store, game_id)
        people = {s.user_id: s.kicked or s.user_id in removed for s in live.seats if s.user_id}
        # A holding that made no move is not kept (the next holder's replaces it): the host,
        # who opened the game, is one of its people all the same (review).
        people.setdefault(live.host_id, live.host_id in removed)
        for row in await repo.fetch_holders(self._store, game_id):
            user_id = row["user_id"]
            if user_id is not None and user_id not in people:
                people[int(user_id)] = int(user_id) in removed
        for user_id in sorted(removed):  # also one removed before they made a move
            people.setdefault(user_id, True)
        return people

    async def _load(self, game_id: int) -> LiveGame | None:
        """A game as :meth:`Loading._load` reads it, with its seat taking and hints."""
        live = await super()._load(game_id)
        if live is None or live.status is GameStatus.BROKEN:
            return live
        extras = await repo.fetch_seat_extras(self._store, game_id)
        if extras is not None:
            live.allow_seat_taking = bool(extras["allow_seat_taking"])
            bits = int(extras["hints_used"] or 0)
            live.hints_used = frozenset(s for s in range(6) if bits >> s & 1)
            if live.hints_used and live.standings:
                live.standings = tuple(
                    replace(s, hints_used=s.seat in live.hints_used) for s in live.standings
                )
        return live


def who_played(holders: list[SeatHolder], moves: list[tuple[int, int]]) -> tuple[SeatHolder, ...]:
    """The holdings of ``holders`` (by seat and action index) that played: a computer's
    that made no move before the seat's next holder (``moves``: each logged move's ``seq``
    and seat) is left out, its person back or another in the seat before its turn came,
    and a person who then follows themselves holds the seat on (player QA: "bob → bob
    from round 2").

    >>> bob, computer = SeatHolder(1, 0, 2, None, "bob"), SeatHolder(1, 4, None, "normal", "bob")
    >>> back = SeatHolder(1, 6, 2, None, "bob")
    >>> who_played([bob, computer, back], [(5, 0), (6, 2)]) == (bob,)
    True
    >>> who_played([bob, computer, back], [(5, 1)]) == (bob, computer, back)
    True
    """
    kept: list[SeatHolder] = []
    for i, holder in enumerate(holders):
        after = holders[i + 1] if i + 1 < len(holders) else None
        # A holding from action index f plays the seat's moves from seq f + 1 to the next
        # holding's index.
        end = after.from_action if after is not None and after.seat == holder.seat else None
        if (
            holder.is_computer
            and end is not None  # the seat's holder now, or at the end, stays
            and not any(
                seat == holder.seat and holder.from_action < seq <= end for seq, seat in moves
            )
        ):
            continue
        before = kept[-1] if kept else None
        if (
            before is not None
            and before.seat == holder.seat
            and not holder.is_computer
            and before.user_id == holder.user_id
        ):
            continue
        kept.append(holder)
    return tuple(kept)
