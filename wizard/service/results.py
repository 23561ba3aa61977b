"""Game over: results, Plackett–Luce ratings (openskill) and statistics, written with the
last action in one transaction."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict

import aiosqlite

from wizard.service.events import RatingChange, Standing
from wizard.service.player_rows import Counted, forfeit_counts, player_row
from wizard.service.ratings import MODEL as _MODEL
from wizard.service.ratings import default_rating, ordinal
from wizard.store.models import PlayerRow, ResultRow, SeatRow
from wizard.store.repo import PLAYER_COLUMNS


async def record_results(
    conn: aiosqlite.Connection,
    *,
    game_id: int,
    guild_id: int,
    seats: Sequence[SeatRow],
    standings: Sequence[Standing],
    now: float,
    rated: bool = True,
    unrated_seats: frozenset[int] = frozenset(),
    leavers: Mapping[int, str] | None = None,
) -> tuple[RatingChange, ...]:
    """Store results and update the players' ratings and statistics; the rating changes.

    A game that is not ``rated`` (a hint was used) is stored in the history and counts in
    the players' statistics (games, wins, scores, bids), but changes no rating: its
    players keep their mu and sigma, and no rating change is returned. The same holds for
    the person in each of ``unrated_seats`` alone (one who took the seat over mid-game).

    A person whose seat a computer played at the end (they left, were removed, or timed out,
    and did not come back) forfeits: rated as finishing below everyone, and the game counts
    in their statistics as played and lost, with the lowest score at the table and none of
    the seat's bids (:func:`forfeit_counts`: leaving early must earn nothing). So do the
    ``leavers`` (user id → name): people who held a seat and hold none at the end, as
    someone else took theirs over.

    Runs inside the write transaction of the game's last action, so the players' rows are
    read and rewritten atomically even when two games of a server end at once. Computer
    seats take part in the ranking at the default rating, which is never stored or
    changed: a human who beats computers gains, one who loses to them drops.
    """
    by_seat = {s.seat: s for s in standings}
    ordered = sorted(standings, key=lambda s: s.seat)
    await conn.executemany(
        ResultRow.insert("INSERT INTO results"),
        [ResultRow(game_id=game_id, **asdict(s)).params() for s in ordered],
    )
    leavers = dict(leavers or {})
    humans = [s for s in seats if s.user_id is not None]
    user_ids = [s.user_id for s in humans if s.user_id is not None] + list(leavers)
    # Read inside the write transaction, so that no update of these rows is lost.
    found = await conn.execute_fetchall(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE guild_id = ?"
        " AND user_id IN (SELECT value FROM json_each(?))",
        (guild_id, json.dumps(user_ids)),
    )
    # Each row is rewritten below with the seat's name; a damaged one is rebuilt from the
    # player's other results rather than stopping the game from ending.
    names: dict[int, str] = {**leavers, **{s.user_id: s.name for s in humans if s.user_id}}
    current: dict[int, PlayerRow] = {}
    for r in found:
        player = await player_row(
            conn.execute_fetchall, dict(r), name=names[r["user_id"]], before_game=game_id
        )
        current[player.user_id] = player
    forfeited = {s.seat for s in standings if s.forfeited}
    lowest = min(r.score for r in standings)
    last = lowest - 1
    # Every seat takes part in the ranking (a computer at the default rating), then every
    # leaver, below everyone as a forfeited seat is.
    ranked = [s.user_id for s in seats] + list(leavers)
    teams = []
    for user_id in ranked:
        row = current.get(user_id) if user_id is not None else None
        teams.append([_MODEL.rating(mu=row.mu, sigma=row.sigma) if row else _MODEL.rating()])
    scores = [float(last if s.seat in forfeited else by_seat[s.seat].score) for s in seats]
    scores += [float(last)] * len(leavers)
    new_ratings = dict(zip(ranked, _MODEL.rate(teams, scores=scores), strict=True))
    # What each person's statistics count, and whether the game rates them.
    forfeit = forfeit_counts(len(seats), lowest)
    people: list[tuple[int, str, Counted, bool]] = []
    for seat in seats:
        if seat.user_id is None:
            continue
        mine = by_seat[seat.seat]
        counted = Counted(mine.place, mine.score, mine.rounds, mine.exact_bids)
        if seat.seat in forfeited:  # played and lost, with nothing of the computer's play
            counted = forfeit
        people.append((seat.user_id, seat.name, counted, seat.seat not in unrated_seats))
    people += [(user_id, name, forfeit, True) for user_id, name in leavers.items()]
    rows = []
    changes = []
    for user_id, name, result, rates in people:
        team = new_ratings[user_id]
        old = current.get(user_id)
        mu0, sigma0 = (old.mu, old.sigma) if old else default_rating()
        counts = rated and rates
        mu, sigma = (team[0].mu, team[0].sigma) if counts else (mu0, sigma0)
        best = old.best_score if old else None
        # The best is of the scores the average counts (a forfeit's too): never below it.
        better = best is None or result.score > best
        rows.append(
            PlayerRow(
                guild_id=guild_id,
                user_id=user_id,
                name=name,
                mu=mu,
                sigma=sigma,
                rating=ordinal(mu, sigma),
                games=(old.games if old else 0) + 1,
                wins=(old.wins if old else 0) + (1 if result.place == 1 else 0),
                total_score=(old.total_score if old else 0) + result.score,
                best_score=result.score if better else best,
                best_game_id=game_id if better else (old.best_game_id if old else None),
                bids=(old.bids if old else 0) + result.rounds,
                exact_bids=(old.exact_bids if old else 0) + result.exact_bids,
                updated_at=now,
            )
        )
        if counts:
            changes.append(RatingChange(user_id, ordinal(mu0, sigma0), ordinal(mu, sigma)))
    await conn.executemany(
        PlayerRow.insert("INSERT OR REPLACE INTO players"), [r.params() for r in rows]
    )
    return tuple(changes)
