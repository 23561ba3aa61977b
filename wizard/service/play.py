"""Play: bids, trump choices and card plays, seats handed to computers, and the one path that
applies, logs and commits an action."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import aiosqlite

from wizard.errors import IllegalActionError
from wizard.errors import NotYourTurnError as EngineNotYourTurnError
from wizard.options import Bidding
from wizard.rules import winners
from wizard.service.base import shielded
from wizard.service.errors import IllegalMoveError, NotSeatedError
from wizard.service.events import (
    Actor,
    Event,
    GameOver,
    GameStatus,
    GameUpdate,
    PlayerTimedOut,
    RatingChange,
    RoundScored,
    SeatHandedToComputer,
    SeatTakenBack,
    Standing,
    TrickWon,
)
from wizard.service.game import (
    LiveGame,
    LoggedMove,
    bids_not_made_by_players,
    computer_controlled,
    encode_action,
    fold,
    forfeited_seats,
    initial_state,
    standings,
    step,
    turn_event,
)
from wizard.service.loading import Loading
from wizard.service.moves import MakeBid, Move, NameTrump, PlayCard, PlayHiddenCard
from wizard.service.results import record_results
from wizard.state import Action, Bid, ChooseTrump, GameState, Phase, Play
from wizard.store import repo
from wizard.store.db import Statements, WriteItem, run_statements
from wizard.store.models import SeatRow
from wizard.view import own_hand_hidden


class Playing(Loading):
    """Moves of players, and the commit of every action (players', computers', timeouts')."""

    @shielded
    async def act(
        self,
        game_id: int,
        user_id: int,
        action: Move | Action,
        expected_version: int | None,
        *,
        request_id: str | None = None,
    ) -> GameUpdate:
        """Make a bid, a trump choice or a play for the user's seat; committed when it returns.

        ``expected_version`` is the version the clicked surface showed: a click on an
        older one is refused with :class:`StaleVersionError` if a move was made since
        (a seat changing hands does not make a surface stale, nor, while hidden or secret
        bids are being chosen, other players' bids). ``None`` skips the check. The same
        ``request_id`` (e.g. the Discord interaction id) is applied once: a repeat returns
        the original update with ``duplicate=True``.
        """
        live = await self._get(game_id, finished_ok=request_id is not None)
        if live.status is GameStatus.BROKEN:  # its seats are not read: damaged, not unseated
            self._check_status(live, GameStatus.ACTIVE)
        async with live.lock:
            row = live.seat_of(user_id)
            if row is None:
                raise NotSeatedError()
            if request_id is not None:
                seq = live.request_ids.get(request_id)
                if seq is not None:
                    return self._replayed_update(live, request_id, seq)
            self._check_status(live, GameStatus.ACTIVE)
            if row.kicked:
                raise NotSeatedError(reason="kicked")
            self._check_version(live, expected_version, row.seat)
            state = live.state
            assert state is not None
            update = await self._apply(
                live,
                seat=row.seat,
                action=_resolve(action, row.seat, state),
                actor=Actor.PLAYER,
                user_id=user_id,
                request_id=request_id,
            )
            if request_id is not None:
                live.remember(request_id, update)
        self._arm(live)
        return update

    async def _set_away(self, live: LiveGame, row: SeatRow, *, kicked: bool, reason: str) -> None:
        settings = await self.get_settings(live.guild_id)
        new = row.model_copy(
            update={
                "away": True,
                "kicked": kicked or row.kicked,
                "level": live.level_of(row, settings.computer_level),
                # Away by leaving, not by timeouts: a seat's count of them tells which.
                "timeouts": 0,
            }
        )
        events: tuple[Event, ...] = ()
        if not row.away:
            events = (SeatHandedToComputer(row.seat, reason),)
        # Removed, not left: kept out of the game's seats for good, also once someone else
        # takes this one over (else "Take a seat" let them back in).
        removed = row.user_id if kicked and not row.kicked else None
        await self._change_seat(live, new, events, removed=removed)

    async def _change_seat(
        self,
        live: LiveGame,
        new: SeatRow,
        events: tuple[Event, ...],
        *,
        removed: int | None = None,
    ) -> GameUpdate:
        """Store a seat's control change (lock held), or its new person, and re-time the turn;
        ``removed``: the person the host removed, remembered in the same write."""
        state = live.state
        assert state is not None
        old = live.seats[new.seat]
        seats = [new if s.seat == new.seat else s for s in live.seats]
        renamed = old.user_id != new.user_id or old.name != new.name
        events = (*events, *live.host_passed(seats))
        holder = _holder_change(live, old, new, live.seq)
        now = self.clock.now()

        async def seat(conn: aiosqlite.Connection) -> None:
            await conn.execute(repo.UPDATE_SEAT, new.params())
            if holder is not None:
                await conn.execute(repo.INSERT_HOLDER, holder)
            if removed is not None:
                await repo.remember_removal(conn, live.id, removed)

        await self._update_game(
            live,
            now,
            also=seat,
            deadline=live.turn_deadline(seats, state, now, keep=True),
            computer_turn=live.computer_seat(seats) is not None,
        )
        if renamed:
            # The engine's state names the seats: the table shows the new person's name.
            names = tuple(s.name for s in seats)
            state = live.state = state._replace(players=names)
        live.seats = seats
        live.seat_changed[new.seat] = live.version
        live.computer_due = self._computer_due(live, now)
        return await self._update(live, (*events, turn_event(state, live.deadline)))

    async def _apply(
        self,
        live: LiveGame,
        *,
        seat: int,
        action: Action,
        actor: Actor,
        user_id: int | None,
        request_id: str | None,
    ) -> GameUpdate:
        """Apply, log and commit one action (the game's lock is held)."""
        before = live.state
        assert before is not None
        try:
            state, step_events = step(before, action)
        except IllegalActionError as e:
            raise IllegalMoveError.from_engine(e) from None
        now = self.clock.now()
        seq = live.seq + 1
        version = live.version + 1
        over = state.phase is Phase.GAME_OVER
        seats = live.seats
        row = seats[seat]
        if actor is not Actor.PLAYER:
            # Logged with the person whose seat a computer moved for (none: a computer seat),
            # so that the table can tell them from whoever takes the seat over later.
            user_id = row.user_id
        changed: SeatRow | None = None
        pre: list[Event] = []
        post: list[Event] = []
        if actor is Actor.PLAYER and (row.timeouts or row.away):
            changed = row.model_copy(update={"timeouts": 0, "away": False})
            if row.away:
                pre.append(SeatTakenBack(seat))
        elif actor is Actor.TIMEOUT:
            settings = await self.get_settings(live.guild_id)
            count = row.timeouts + 1
            away = count >= settings.max_timeouts
            changed = row.model_copy(
                update={
                    "timeouts": count,
                    "away": away,
                    "level": live.level_of(row, settings.computer_level),
                }
            )
            post.append(PlayerTimedOut(seat, count))
            if away:
                post.append(SeatHandedToComputer(seat, "timeouts"))
        if changed is not None:
            seats = [changed if s.seat == seat else s for s in seats]
            post.extend(live.host_passed(seats))
        simultaneous = (
            isinstance(action, Bid)
            and live.options.bidding is not Bidding.OPEN
            and state.phase is Phase.BID
            and state.round == before.round
        )
        deadline = None if over else live.turn_deadline(seats, state, now, keep=simultaneous)
        computer_turn = not over and live.computer_seat(seats, state) is not None
        kind, arg = encode_action(action)
        action_row = (live.id, seq, seat, kind, arg, actor.value, user_id, request_id, version, now)
        final: tuple[Standing, ...] = ()
        hinted = live.hints_used
        if over:
            not_theirs = bids_not_made_by_players(live.bids, [s.user_id for s in seats])
            final = standings(state, [s.user_id for s in seats], not_theirs)
            left = forfeited_seats(seats)
            if hinted or left:
                final = tuple(
                    replace(s, hints_used=s.seat in hinted, forfeited=s.seat in left) for s in final
                )
        game_id, guild_id = live.id, live.guild_id
        # The version check first: a game moved on by another process fails it (a conflict,
        # answered as a stale click) before the log's key would refuse the action.
        statements = [
            (
                repo.UPDATE_GAME_AFTER_ACTION,
                (
                    version,
                    seq,
                    deadline,
                    int(computer_turn),
                    now,
                    "finished" if over else "active",
                    now if over else None,
                    game_id,
                    live.version,
                ),
            ),
            (repo.INSERT_ACTION, action_row),
        ]
        if changed is not None:
            statements.append((repo.UPDATE_SEAT, changed.params()))
            # A hand-over after this timeout holds the seat from the next action on; a
            # player back from away plays this one.
            at = live.seq + 1 if actor is Actor.TIMEOUT else live.seq
            holder = _holder_change(live, row, changed, at)
            if holder is not None:
                statements.append((repo.INSERT_HOLDER, holder))
        write = Statements(tuple(statements), checked=(0,))
        item: WriteItem[tuple[RatingChange, ...] | None]
        if over:

            async def item(conn: aiosqlite.Connection) -> tuple[RatingChange, ...] | None:
                await run_statements(conn, write)
                held = await conn.execute_fetchall(
                    "SELECT seat, from_action, user_id, name FROM seat_holders"
                    " WHERE game_id = ? ORDER BY seat, from_action",
                    (game_id,),
                )
                # A person who took a seat over mid-game is not rated for it: a seat taken
                # on the last trick must not earn its winner's rating.
                late = frozenset(
                    int(seat)
                    for seat, start, user, _ in held
                    if start == 0 and seats[seat].user_id not in (None, user)
                )
                # Who held a seat and holds none at the end (they left, and someone took
                # the seat over) forfeits, as when a computer finishes their seat.
                final_holders = {s.user_id for s in seats}
                leavers = {
                    int(user): str(name)
                    for _, _, user, name in held
                    if user is not None and user not in final_holders
                }
                return await record_results(
                    conn,
                    game_id=game_id,
                    guild_id=guild_id,
                    seats=seats,
                    standings=final,
                    now=now,
                    rated=not hinted,
                    unrated_seats=late,
                    leavers=leavers,
                )

        else:
            item = write  # committed in one batch with other games' writes
        ratings = await self._write_game(live, item)
        # Committed: now, and only now, the in-memory game moves on.
        assert live.state is not None
        live.log(action, LoggedMove(seat, actor, user_id, live.state.round))
        live.state = state
        live.versions.append(version)
        if request_id is not None:
            live.request_ids[request_id] = seq
        live.version = version
        if not simultaneous:
            live.last_non_bid_version = version
        live.deadline = deadline
        live.seats = seats
        events: list[Event] = [*pre, *step_events, *post]
        if over:
            live.status = GameStatus.FINISHED
            live.finished_at = now
            live.standings = final
            live.computer_due = None
            events.append(GameOver(final, winners(state) or (), ratings or ()))
            self._forget(live)
        else:
            live.computer_due = self._computer_due(live, now)
            events.append(turn_event(state, deadline))
        view = live.seat_view(live.seats[seat]) if actor is Actor.PLAYER else None
        return await self._update(live, events, seat=seat, action=action, actor=actor, view=view)

    async def owed_ends(self, game_id: int) -> tuple[Event, ...]:
        """What the channel is owed of a running or finished game's ends, as the game made
        them: for each round after the ones it was shown (``set_message_ids(announced=)``),
        its last :class:`TrickWon` and :class:`RoundScored`, then, if it is finished, its
        :class:`GameOver` (:func:`_replayed_end`: without rating changes). For a new
        process: what the last one had not shown was only in its memory."""
        live = await self._get(game_id, finished_ok=True)
        shown, finished = live.announced, live.status is GameStatus.FINISHED
        if shown is None or live.state is None:
            return ()
        if not finished and (
            live.status is not GameStatus.ACTIVE or len(live.state.history) <= shown
        ):
            return ()
        state = initial_state([s.name for s in live.seats], live.options, live.seed)
        owed: list[Event] = []
        for action in live.actions:
            state, events = step(state, action)
            for i, event in enumerate(events):
                if isinstance(event, RoundScored) and event.round > shown:
                    last = events[i - 1] if i and isinstance(events[i - 1], TrickWon) else None
                    owed += [last, event] if last is not None else [event]
        if finished:
            owed.append(_replayed_end(live, state))
        return tuple(owed)

    def _replayed_update(self, live: LiveGame, request_id: str, seq: int) -> GameUpdate:
        """The update an already applied request made, marked ``duplicate``.

        The one returned then, as it was, while the game keeps it in memory (its last few
        requests: repeats come within seconds). After a restart, or for an older request,
        it is recomputed from the log: the same version, seat, action and game events,
        but two things the database does not keep cannot be told again. The turn's
        deadline (``TurnChanged.deadline``) is the current one if the request made the
        last action, else ``None``; and a game-ending request's rating changes
        (``GameOver.ratings``) are empty, since the players' rows hold today's ratings,
        not the ones before that game. Keeping them would take storing them: a deadline
        column in ``actions`` and the rating before and after in ``results`` (a migration).
        """
        recent = live.recent.get(request_id)
        if recent is not None:
            # Its snapshots (game, view, settings) are of a moment that has passed.
            return replace(recent, duplicate=True, info=None, view=None, settings=None)
        names = [s.name for s in live.seats]
        before = fold(names, live.options, live.seed, live.actions[: seq - 1])
        action = live.actions[seq - 1]
        after, step_events = step(before, action)
        events: list[Event] = list(step_events)
        if after.phase is Phase.GAME_OVER:
            events.append(_replayed_end(live, after))
        else:
            events.append(turn_event(after, live.deadline if seq == live.seq else None))
        seat = action.seat  # type: ignore[union-attr]
        return GameUpdate(
            live.id,
            live.versions[seq - 1],
            live.status,
            tuple(events),
            seat,
            action,
            Actor.PLAYER,
            duplicate=True,
        )


def _replayed_end(live: LiveGame, state: GameState) -> GameOver:
    """A finished game's :class:`GameOver` told again from its log: the standings and
    winners, but no rating changes (the players' rows hold today's ratings, not the ones
    before that game)."""
    return GameOver(live.standings, winners(state) or (), ())


def _holder_change(live: LiveGame, old: SeatRow, new: SeatRow, at: int) -> tuple[Any, ...] | None:
    """The ``seat_holders`` row of a seat whose holder changes at action index ``at``
    (a computer takes over, a person takes it back or over), or ``None``."""
    if computer_controlled(old) == computer_controlled(new) and old.user_id == new.user_id:
        return None
    level = live.level_of(new, "normal")
    user_id = None if computer_controlled(new) else new.user_id
    return repo.holder_params(live.id, new.seat, at, user_id=user_id, level=level, name=new.name)


def _resolve(move: Move | Action, seat: int, state: GameState) -> Action:
    """The engine action of a move by ``seat``."""
    if isinstance(move, PlayCard):
        return Play(seat, move.card)
    if isinstance(move, MakeBid):
        return Bid(seat, move.bid)
    if isinstance(move, NameTrump):
        return ChooseTrump(seat, move.suit)
    if isinstance(move, PlayHiddenCard):
        if not own_hand_hidden(state) or state.phase is not Phase.PLAY:
            raise IllegalMoveError("R7.4", reason="cards_visible")
        if state.turn != seat:
            turn, name = state.players[state.turn or 0], state.players[seat]
            error = EngineNotYourTurnError("R5.1", f"it is {turn}'s turn to play, not {name}'s")
            raise IllegalMoveError.from_engine(error)
        return Play(seat, state.hands[seat][0])
    if isinstance(move, Play | Bid | ChooseTrump):
        if move.seat != seat:
            raise NotSeatedError(reason="other_seat")
        return move
    raise IllegalMoveError("R2.1", reason="not_a_move", move=repr(move))
