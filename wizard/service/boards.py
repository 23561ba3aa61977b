"""What a server's community reads: leaderboards with the reader's own rank, a player's
statistics card, and a finished game's scorepad and record.

:class:`BoardQueries` is a base of :class:`~wizard.service.GameService`: read-only queries
over the rows the service writes when a game ends (``players``, ``results``, and migration
5's ``computer_stats``), shaped by the server's settings (minimum games before a rank,
computer players on the boards or not).

Lines stand in one total order (ties broken as the page query breaks them: see
``repo.LEADERBOARD_ORDER``); lines that show the same figure (:meth:`BoardLine.shown`: the
rating rounded by :func:`shown_rating`, the wins, the average rounded by
:func:`shown_average`, the functions the bot writes them with) share a rank (1, 2, 2, 4), the
rank of the first of them, on the pages and in a player's own rank alike: a reader never sees
two equal figures at different ranks.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from pydantic import TypeAdapter, ValidationError

from wizard.options import Options
from wizard.record import dumps
from wizard.service.errors import GameDamagedError, GameNotFoundError, InvalidSettingsError
from wizard.service.events import GameStatus, Standing
from wizard.service.player_rows import player_row, valid_row
from wizard.service.ratings import default_rating, ordinal
from wizard.service.settings import GuildSettings
from wizard.service.types import LeaderboardOrder, PlayerStats, SeatHolder
from wizard.store import boards as sql
from wizard.store import repo
from wizard.store.models import PlayerRow, describe
from wizard.view import RoundSummary, table_view

if TYPE_CHECKING:
    from wizard.service.game import LiveGame
    from wizard.store.db import Store

log = logging.getLogger(__name__)

FORM_GAMES = 5
"""Games shown as a player's recent form."""
MAX_PER_PAGE = 25
AVERAGE_DIGITS = 1
"""Decimals of an average score as players read it."""
_STEPS_PER_POINT: int = 10**AVERAGE_DIGITS


def shown_rating(rating: float) -> int:
    """A rating as players read it, whole (half to even): what the boards show and rank by.

    >>> shown_rating(1502.4), shown_rating(1501.5), shown_rating(1502.5), shown_rating(-0.4)
    (1502, 1502, 1502, 0)
    """
    return round(rating)


def shown_average(total_score: int, games: int) -> Decimal:
    """A mean score per game as players read it, to :data:`AVERAGE_DIGITS` decimals (half to
    even, of the exact mean, not of a float near it): what the boards show and rank by.

    >>> shown_average(565, 8), shown_average(1413, 20), shown_average(283, 4), shown_average(-1, 30)
    (Decimal('70.6'), Decimal('70.6'), Decimal('70.8'), Decimal('0.0'))
    """
    if not games:
        return Decimal(0).scaleb(-AVERAGE_DIGITS)
    return Decimal(_steps(Fraction(total_score, games))).scaleb(-AVERAGE_DIGITS)


def _steps(mean: Fraction) -> int:
    """``mean`` in steps of the last decimal shown, rounded half to even."""
    return round(mean * _STEPS_PER_POINT)


def _bound(order: LeaderboardOrder, figure: int | Decimal) -> tuple[int | float, ...]:
    """Where the figures shown on ``order``'s board start to exceed ``figure``, as
    :data:`wizard.store.boards.SHOWN_AHEAD_SQL` takes it: the value halfway to the next
    figure, and whether that value itself shows more (asked of the rounding functions
    above, so that the count agrees with what they show)."""
    if order is LeaderboardOrder.WINS:
        return (int(figure),)
    if order is LeaderboardOrder.RATING:
        halfway = int(figure) + 0.5  # exact in a float
        return (halfway, int(shown_rating(halfway) > figure))
    step = int(Decimal(figure).scaleb(AVERAGE_DIGITS))  # the figure in steps of its last decimal
    # The halfway average is (2·step + 1) / (2·steps per point), as a fraction of integers.
    top, bottom = 2 * step + 1, 2 * _STEPS_PER_POINT
    above = _steps(Fraction(top, bottom)) > step
    # The float nearest the halfway average bounds the index range: a mean at least halfway
    # is, as SQLite's float, at least that float (rounding keeps order), so the range loses
    # no one; the integers then decide exactly.
    return (top / bottom, bottom, int(above), top)


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One line of a leaderboard: a player, or (``level`` set) the computer players of a
    level taken together."""

    rank: int
    """Position on the board, from 1 (0 for a line that is not ranked yet)."""
    name: str
    """The player's name as of their last game; for computers, the level."""
    user_id: int | None
    level: str | None
    games: int
    wins: int
    total_score: int
    best_score: int | None
    mu: float
    sigma: float
    rating: float
    """The conservative rating shown: mu − 3·sigma (openskill's ordinal)."""

    @property
    def is_computer(self) -> bool:
        """A line of computer players (their rating is the fixed starting one)."""
        return self.level is not None

    def shown(self, order: LeaderboardOrder) -> int | Decimal:
        """The figure the board of ``order`` shows for this line, and ranks it by."""
        if order is LeaderboardOrder.RATING:
            return shown_rating(self.rating)
        if order is LeaderboardOrder.WINS:
            return self.wins
        return shown_average(self.total_score, self.games)

    @property
    def average(self) -> float:
        """Mean final score per game."""
        return self.total_score / self.games if self.games else 0.0

    @property
    def win_rate(self) -> float:
        """Games won / games played (ties for first count as wins)."""
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class OwnRank:
    """Where one player stands on a board, whether or not their line is on the page."""

    user_id: int
    rank: int | None
    """``None`` while unranked: no game yet, or fewer than the board's minimum."""
    games: int
    needed: int
    """More games needed before a rank (0 once ranked)."""
    line: BoardLine | None
    """Their line (``rank`` 0 while unranked), ``None`` before their first game."""
    total: int = 0
    """Lines on the whole board (the "of N" of "#3 of N")."""


@dataclass(frozen=True, slots=True)
class Board:
    """One page of a server's leaderboard under one order."""

    guild_id: int
    order: LeaderboardOrder
    page: int
    """From 1; a page past the end is brought back to the last one."""
    per_page: int
    total: int
    """Lines on the whole board (players, and computer levels when shown)."""
    min_games: int
    """Games a player needs to be on this board."""
    computers: bool
    """Whether computer players are on the board (the server's choice)."""
    lines: tuple[BoardLine, ...]
    you: OwnRank | None = None
    """The reader's own rank, when a reader was given."""

    @property
    def pages(self) -> int:
        """Number of pages (1 for an empty board)."""
        return max(1, -(-self.total // self.per_page))


@dataclass(frozen=True, slots=True)
class FormGame:
    """One of a player's recent games."""

    game_id: int
    seat: int
    place: int
    seats: int
    score: int
    finished_at: float
    forfeited: bool = False
    """The player left and a computer played the seat to the end: the game counts as lost,
    whatever place the computer reached."""


@dataclass(frozen=True, slots=True)
class Favourite:
    """The options a player played most on a server."""

    options: Options
    games: int
    share: float
    """Of the player's games on the server."""


@dataclass(frozen=True, slots=True)
class PlayerCard(PlayerStats):
    """Everything ``/wizard stats`` shows about a player on a server: their statistics, their
    rank, favourite options and recent form."""

    rank: OwnRank
    """Their place on the rating board (or the games they still need)."""
    favourite: Favourite | None
    form: tuple[FormGame, ...]
    """The last :data:`FORM_GAMES` games, newest first."""

    @property
    def win_rate(self) -> float:
        """Games won / games played."""
        return self.wins / self.games if self.games else 0.0

    @property
    def latest_game_id(self) -> int | None:
        """The player's newest finished game on the server."""
        return self.form[0].game_id if self.form else None


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as the history shows it: the scorepad and the record."""

    id: int
    guild_id: int
    channel_id: int
    players: tuple[str, ...]
    user_ids: tuple[int | None, ...]
    """By seat; ``None`` for a computer seat."""
    options: Options
    history: tuple[RoundSummary, ...]
    """The scored rounds as everyone saw them (R8.1): the scorepad's rows."""
    standings: tuple[Standing, ...]
    started_at: float | None
    finished_at: float | None
    record: str
    """The game record (RULES §9) as JSON text, as ``python -m wizard replay`` reads it."""
    holders: tuple[SeatHolder, ...] = ()
    """Who played each seat from which action (``GameService.seat_history``): beside the
    record, whose format has no place for it."""
    hints_used: tuple[int, ...] = ()
    """Seats that asked for hints: the game was not rated."""

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` played, if any: theirs at the end, else the last one they
        held (and left; another person finished it)."""
        if user_id in self.user_ids:
            return self.user_ids.index(user_id)
        left = self._left(user_id)
        return None if left is None else left.seat

    def left_as(self, user_id: int) -> str | None:
        """The name ``user_id`` played under, if they left their seat to another person
        who finished it (``None``: they finished it, or a computer did)."""
        left = self._left(user_id)
        return None if left is None else left.name

    def _left(self, user_id: int) -> SeatHolder | None:
        """``user_id``'s last holding of a seat another person finished."""
        if user_id in self.user_ids:
            return None
        return next((h for h in reversed(self.holders) if h.user_id == user_id), None)


def board_order(order: LeaderboardOrder | str) -> LeaderboardOrder:
    """``order`` as a :class:`LeaderboardOrder`; :class:`InvalidSettingsError` if unknown."""
    try:
        return LeaderboardOrder(order)
    except ValueError:
        raise InvalidSettingsError(None, setting="leaderboard_order", detail=str(order)) from None


@dataclass(frozen=True, slots=True)
class _Computer:
    line: BoardLine
    ahead: int
    """Players strictly ahead of this line."""


@dataclass(frozen=True, slots=True)
class _Frame:
    """What every page and rank of one board needs."""

    order: LeaderboardOrder
    computers_shown: bool
    min_games: int
    computers: list[_Computer]
    """The computer lines in board order (none when the server does not show them)."""
    total: int


class BoardQueries:
    """Leaderboards, statistics and history pages (a base of ``GameService``)."""

    if TYPE_CHECKING:
        _store: Store

        async def get_settings(self, guild_id: int) -> GuildSettings: ...
        async def _get(self, game_id: int, *, finished_ok: bool = False) -> LiveGame: ...

        async def seat_history(self, game_id: int) -> tuple[SeatHolder, ...]: ...

    async def board(
        self,
        guild_id: int,
        *,
        order: LeaderboardOrder | str = LeaderboardOrder.RATING,
        page: int = 1,
        per_page: int = 10,
        viewer_id: int | None = None,
    ) -> Board:
        """One page (from 1) of a server's board, with ``viewer_id``'s own rank.

        Players need the server's minimum of games on the rating and average boards;
        computer players appear, one line per level, when the server shows them.
        """
        key = board_order(order)
        if not 1 <= per_page <= MAX_PER_PAGE:
            raise InvalidSettingsError(None, setting="page_size", min=1, max=MAX_PER_PAGE)
        frame = await self._frame(guild_id, key)
        computers, total, min_games = frame.computers, frame.total, frame.min_games
        # Computer i stands after the players ahead of it and the i computers before it.
        positions = [c.ahead + i + 1 for i, c in enumerate(computers)]
        page = min(max(1, page), max(1, -(-total // per_page)))
        start = (page - 1) * per_page
        here = {
            p: c.line
            for p, c in zip(positions, computers, strict=True)
            if start < p <= start + per_page
        }
        before = sum(1 for p in positions if p <= start)
        rows: list[PlayerRow] = []
        if per_page > len(here):
            raw = await self._store.fetchall(
                repo.leaderboard_sql(key.value),
                (guild_id, min_games, per_page - len(here), start - before),
            )
            rows = [row for r in raw if (row := valid_row(dict(r))) is not None]
        lines: list[BoardLine] = []
        people = iter(rows)
        for position in range(start + 1, start + per_page + 1):
            line = here.get(position)
            if line is None:
                row = next(people, None)
                if row is None:
                    break
                line = _line(row)
            lines.append(replace(line, rank=position))
        lines = await self._share_ranks(guild_id, frame, lines)
        you = None if viewer_id is None else await self._own_rank(guild_id, viewer_id, frame)
        return Board(
            guild_id=guild_id,
            order=key,
            page=page,
            per_page=per_page,
            total=total,
            min_games=min_games,
            computers=frame.computers_shown,
            lines=tuple(lines),
            you=you,
        )

    async def player_card(
        self, guild_id: int, user_id: int, *, form: int = FORM_GAMES
    ) -> PlayerCard | None:
        """A player's statistics on a server, or ``None`` before their first finished game."""
        row = await self._player(guild_id, user_id)
        if row is None:
            return None
        frame = await self._frame(guild_id, LeaderboardOrder.RATING)
        rank = await self._own_rank(guild_id, user_id, frame, row)
        recent = await self._store.fetchall(sql.FORM_SQL, (guild_id, user_id, max(1, form)))
        counts = await self._store.fetchall(sql.OPTION_COUNTS_SQL, (guild_id, user_id))
        return PlayerCard(
            **row.model_dump(exclude={"updated_at"}),
            rank=rank,
            favourite=_favourite(counts),
            form=_form(recent),
        )

    async def finished_game(self, guild_id: int, game_id: int) -> FinishedGame:
        """A finished game of a server: its scorepad rows, standings and record.

        :class:`GameNotFoundError` for a game of another server, or one not finished
        (lobbies, running, cancelled and broken games are not history).
        """
        row = await self._store.fetchone(
            "SELECT status FROM games WHERE id = ? AND guild_id = ?", (game_id, guild_id)
        )
        if row is None or row["status"] != GameStatus.FINISHED.value:
            raise GameNotFoundError(game_id, reason="not_in_history")
        live = await self._get(game_id, finished_ok=True)
        state = live.state
        if live.status is GameStatus.BROKEN:  # in the history, but its log cannot be replayed
            raise GameDamagedError(live.id, live.broken_reason or "damaged")
        if live.status is not GameStatus.FINISHED or state is None:
            raise GameNotFoundError(game_id, reason="not_in_history")
        return FinishedGame(
            id=live.id,
            guild_id=live.guild_id,
            channel_id=live.channel_id,
            players=state.players,
            user_ids=tuple(s.user_id for s in live.seats),
            options=live.options,
            history=table_view(state).history,
            standings=live.standings,
            started_at=live.started_at,
            finished_at=live.finished_at,
            record=dumps(state),
            holders=await self.seat_history(game_id),
            hints_used=tuple(sorted(live.hints_used)),
        )

    # --- internals ----------------------------------------------------------------------------

    async def _frame(self, guild_id: int, order: LeaderboardOrder) -> _Frame:
        """A board's settings, its computer lines (each with the players ahead of it) and its
        size: ranked players (a range of ``players_by_games``) and computers."""
        settings = await self.get_settings(guild_id)
        # The server's minimum for the rating and the average (one lucky game must not top
        # them), one for wins (a count cannot be lucky).
        min_games = 1 if order is LeaderboardOrder.WINS else settings.rated_min_games
        computers = []
        if settings.computers_on_boards:
            rows = await self._store.fetchall(sql.COMPUTERS_SQL, (guild_id, min_games))
            for line in sorted(
                (_computer_line(r) for r in rows), key=lambda c: _sort_key(c, order)
            ):
                ahead = await sql.count(
                    self._store,
                    sql.AHEAD_SQL[order.value],
                    guild_id,
                    min_games=min_games,
                    params=_key(line, order, sql.HUMAN_AFTER_TIES),
                )
                computers.append(_Computer(line, ahead))
        humans = await self._store.fetchone(repo.LEADERBOARD_COUNT, (guild_id, min_games))
        total = (int(humans[0]) if humans else 0) + len(computers)
        return _Frame(order, settings.computers_on_boards, min_games, computers, total)

    async def _player(self, guild_id: int, user_id: int) -> PlayerRow | None:
        """A player's row on a server, rebuilt from their results if it is damaged."""
        raw = await repo.fetch_player(self._store, guild_id, user_id)
        return None if raw is None else await player_row(self._store.fetchall, raw)

    async def _own_rank(
        self, guild_id: int, user_id: int, frame: _Frame, row: PlayerRow | None = None
    ) -> OwnRank:
        """The player's place on ``frame``'s board; ``row``: theirs, when already read."""
        min_games, total = frame.min_games, frame.total
        if row is None:
            row = await self._player(guild_id, user_id)
        if row is None:
            return OwnRank(user_id, None, 0, min_games, None, total)
        line = _line(row)
        if row.games < min_games:
            return OwnRank(user_id, None, row.games, min_games - row.games, line, total)
        rank = await self._rank(guild_id, frame, line)
        return OwnRank(user_id, rank, row.games, 0, replace(line, rank=rank), total)

    async def _rank(self, guild_id: int, frame: _Frame, line: BoardLine) -> int:
        """The rank of ``line`` on ``frame``'s board: one more than the lines that show a
        greater figure (players, then computer levels)."""
        order = frame.order
        figure = line.shown(order)
        ahead = await sql.count(
            self._store,
            sql.SHOWN_AHEAD_SQL[order.value],
            guild_id,
            min_games=frame.min_games,
            params=_bound(order, figure),
        )
        return ahead + 1 + sum(1 for c in frame.computers if c.line.shown(order) > figure)

    async def _share_ranks(
        self, guild_id: int, frame: _Frame, lines: list[BoardLine]
    ) -> list[BoardLine]:
        """A page's lines, each at its position, with lines that show the same figure
        sharing the first one's rank (only the page's first line may share one with the page
        before: the order sorts by the exact figures, so equal shown ones stand together)."""
        shared: list[BoardLine] = []
        for line in lines:
            before = shared[-1] if shared else None
            if before is None:
                rank = await self._rank(guild_id, frame, line) if line.rank > 1 else 1
            elif before.shown(frame.order) == line.shown(frame.order):
                rank = before.rank
            else:
                rank = line.rank
            shared.append(replace(line, rank=rank))
        return shared


_LINE = TypeAdapter(BoardLine)
"""A computer level's row of ``computer_stats`` (with the rest of its line), validated."""
_FORM_GAME = TypeAdapter(FormGame)
"""A row of ``sql.FORM_SQL`` as a :class:`FormGame`, validated."""
_LINE_FIELDS = tuple(f.name for f in fields(BoardLine) if f.name not in ("rank", "level"))


def _form(rows: Sequence[sqlite3.Row]) -> tuple[FormGame, ...]:
    """The recent games of a card; a damaged result costs its own game, not the card."""
    out = []
    for r in rows:
        try:
            out.append(_FORM_GAME.validate_python(dict(r)))
        except ValidationError as e:
            log.warning("game %s left out of a player's recent form: %s", r["game_id"], describe(e))
    return tuple(out)


def _line(row: PlayerRow) -> BoardLine:
    return BoardLine(rank=0, level=None, **{k: getattr(row, k) for k in _LINE_FIELDS})


def _computer_line(row: sqlite3.Row) -> BoardLine:
    """A level's line: its counts as stored, at the fixed starting rating."""
    mu, sigma = default_rating()
    rating = ordinal(mu, sigma)
    named = {"rank": 0, "name": row["level"], "user_id": None, "mu": mu, "sigma": sigma}
    return _LINE.validate_python({**dict(row), **named, "rating": rating})


def _key(
    line: BoardLine, order: LeaderboardOrder, tie: int
) -> tuple[float | int, int | float, int]:
    """The sort key of ``line`` as :data:`wizard.store.boards.AHEAD_SQL` takes it."""
    if order is LeaderboardOrder.RATING:
        return (line.rating, line.games, tie)
    if order is LeaderboardOrder.WINS:
        return (line.wins, line.rating, tie)
    return (line.total_score, line.games, tie)


def _sort_key(line: BoardLine, order: LeaderboardOrder) -> tuple[float, float, str]:
    """Best first, as the board sorts (computer levels among themselves by name)."""
    first, second, _ = _key(line, order, 0)
    if order is LeaderboardOrder.AVERAGE:
        first = line.average  # the key holds the total, the board sorts by the average
    return (-first, -second, line.level or "")


def _favourite(rows: Sequence[sqlite3.Row]) -> Favourite | None:
    """The options played most (the most recently played of equals)."""
    counts: dict[Options, tuple[int, float]] = {}
    for r in rows:
        try:
            options = Options.model_validate_json(r["options"])
        except ValidationError:
            log.warning("stored options left out of a favourite: %r", r["options"])
            continue
        games, last = counts.get(options, (0, 0.0))
        counts[options] = (games + int(r["games"]), max(last, float(r["last"] or 0.0)))
    if not counts:
        return None
    total = sum(g for g, _ in counts.values())
    best = max(counts.items(), key=lambda item: item[1])
    return Favourite(best[0], best[1][0], best[1][0] / total)
