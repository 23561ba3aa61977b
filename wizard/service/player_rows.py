"""A player's row of ``players`` (statistics and rating on one server), read so that one
damaged row never stops a game from ending or a board from showing.

A row is derived data: every finished game of the player is also in ``results`` (or, where
someone took their seat over, in ``seat_holders``). A row that
fails validation is therefore rebuilt from those results when the player's next game ends
(keeping its rating when that is still a rating, else starting it afresh), and until then it
is left off the boards and shown rebuilt on the player's card; each time the operator is told
with a warning. ``python -m bot check`` lists such rows (:func:`damaged_player_rows`).
"""

from __future__ import annotations

import logging
import math
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from pydantic import ValidationError

from wizard.service.ratings import default_rating, ordinal
from wizard.store.db import text_or_bytes
from wizard.store.models import PlayerRow, describe
from wizard.store.repo import PLAYER_COLUMNS

log = logging.getLogger(__name__)

FetchAll = Callable[[str, Sequence[Any]], Awaitable[Iterable[sqlite3.Row]]]
"""A connection's or the store's ``fetchall``/``execute_fetchall``."""

_RESULTS_SQL = (
    "SELECT r.game_id, r.name, r.score, r.place, r.rounds, r.exact_bids,"
    " coalesce((SELECT s.away FROM seats s"
    " WHERE s.game_id = r.game_id AND s.seat = r.seat), 0) AS forfeited,"
    " (SELECT COUNT(*) FROM results x WHERE x.game_id = r.game_id) AS seats,"
    " (SELECT MIN(x.score) FROM results x WHERE x.game_id = r.game_id) AS lowest"
    " FROM results r JOIN games g ON g.id = r.game_id"
    " WHERE g.guild_id = ? AND r.user_id = ? AND r.game_id IS NOT ?"
    " UNION ALL"
    " SELECT h.game_id, MAX(h.name), 0, 0, 0, 0, 1,"
    " (SELECT COUNT(*) FROM results x WHERE x.game_id = h.game_id),"
    " (SELECT MIN(x.score) FROM results x WHERE x.game_id = h.game_id)"
    " FROM seat_holders h JOIN games g ON g.id = h.game_id"
    " WHERE g.guild_id = ? AND h.user_id = ? AND h.game_id IS NOT ? AND g.status = 'finished'"
    " AND NOT EXISTS (SELECT 1 FROM results x WHERE x.game_id = h.game_id AND x.user_id = ?)"
    " GROUP BY h.game_id ORDER BY 1"
)
"""A player's stored results on a server, with what :func:`forfeit_counts` needs: whether a
computer held their seat at the end (as :func:`~wizard.service.game.forfeited_seats`
says), the game's number of seats and its lowest final score; and, as forfeits, the
finished games in which they held a seat that someone else took over (no result of theirs)."""


class Counted(NamedTuple):
    """What a game's result counts in a player's statistics."""

    place: int
    score: int
    rounds: int
    exact_bids: int


def forfeit_counts(seats: int, lowest: int) -> Counted:
    """What a forfeited game (one a computer finished for its person) counts in that
    person's statistics: played and lost, in last place, with the lowest final score at its
    table and none of the seat's bids. The computer's play is not theirs, and leaving a
    game one is losing must never raise one's average (a score of 0 did)."""
    return Counted(place=seats, score=lowest, rounds=0, exact_bids=0)


def valid_row(raw: Mapping[str, Any]) -> PlayerRow | None:
    """The row, or ``None`` (with a warning for the operator) when it is damaged."""
    try:
        return PlayerRow.model_validate(dict(raw))
    except ValidationError as error:
        log.warning(
            "player %s of server %s: their statistics row is damaged (%s); left off the "
            "boards until their next finished game rebuilds it from their results",
            raw.get("user_id"),
            raw.get("guild_id"),
            describe(error),
        )
        return None


async def player_row(
    fetchall: FetchAll,
    raw: Mapping[str, Any],
    *,
    name: str | None = None,
    before_game: int | None = None,
) -> PlayerRow:
    """``raw`` as a row (its name replaced by ``name`` if given); rebuilt from the player's
    results on the server (those of games other than ``before_game``) if it is damaged."""
    values = dict(raw) if name is None else {**raw, "name": name}
    try:
        return PlayerRow.model_validate(values)
    except ValidationError as error:
        reason = describe(error)
    row = await _rebuilt(fetchall, values, name=name, before_game=before_game)
    kept = (row.mu, row.sigma) == (values.get("mu"), values.get("sigma"))
    log.warning(
        "player %s of server %s: their statistics row was damaged (%s); rebuilt from their "
        "%d stored results, %s",
        row.user_id,
        row.guild_id,
        reason,
        row.games,
        "rating kept" if kept else "rating started afresh",
    )
    return row


async def _rebuilt(
    fetchall: FetchAll, raw: Mapping[str, Any], *, name: str | None, before_game: int | None
) -> PlayerRow:
    guild_id, user_id = int(raw["guild_id"]), int(raw["user_id"])
    results = [
        {**r, **forfeit_counts(r["seats"], r["lowest"])._asdict()} if r["forfeited"] else dict(r)
        for r in await fetchall(
            _RESULTS_SQL, (guild_id, user_id, before_game, guild_id, user_id, before_game, user_id)
        )
        if all(type(r[k]) is int for k in ("score", "place", "rounds", "exact_bids", "lowest"))
    ]
    stored_mu: Any = raw.get("mu")
    stored_sigma: Any = raw.get("sigma")
    if _finite(stored_mu) and _finite(stored_sigma) and stored_sigma > 0:
        mu, sigma = float(stored_mu), float(stored_sigma)
    else:
        mu, sigma = default_rating()
    best = max(results, key=lambda r: r["score"], default=None)  # as the average counts
    names = [r["name"] for r in results if isinstance(r["name"], str)]
    return PlayerRow(
        guild_id=guild_id,
        user_id=user_id,
        name=name or (names[-1] if names else str(user_id)),
        mu=mu,
        sigma=sigma,
        rating=ordinal(mu, sigma),
        games=len(results),
        wins=sum(1 for r in results if r["place"] == 1),
        total_score=sum(r["score"] for r in results),
        best_score=None if best is None else best["score"],
        best_game_id=None if best is None else best["game_id"],
        bids=sum(r["rounds"] for r in results),
        exact_bids=sum(r["exact_bids"] for r in results),
        updated_at=raw["updated_at"] if _finite(raw.get("updated_at")) else 0.0,
    )


def damaged_player_rows(conn: sqlite3.Connection) -> list[str]:
    """Every row of ``players`` that fails validation, as ``server S, user U: reason``."""
    out = []
    factories = conn.row_factory, conn.text_factory
    # Text that is not UTF-8 comes as bytes and fails its row, as it does in the store.
    conn.row_factory, conn.text_factory = sqlite3.Row, text_or_bytes
    try:
        for raw in conn.execute(f"SELECT {PLAYER_COLUMNS} FROM players ORDER BY guild_id, user_id"):
            try:
                PlayerRow.model_validate(dict(raw))
            except ValidationError as error:
                out.append(f"server {raw['guild_id']}, user {raw['user_id']}: {describe(error)}")
    finally:
        conn.row_factory, conn.text_factory = factories
    return out


def _finite(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)
