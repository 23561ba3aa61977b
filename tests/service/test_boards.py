"""Community queries of the service: boards with a minimum of games, the reader's own rank
off the page, computer players only when the server opts in, a player's statistics card and
a finished game's scorepad and record."""

from __future__ import annotations

import logging
import random
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path

import pytest

from wizard.ai import LEVELS
from wizard.cards import Theme
from wizard.options import Bidding, Options
from wizard.record import load, replay
from wizard.service import (
    GameDamagedError,
    GameNotFoundError,
    GameService,
    GameStatus,
    GuildSettings,
    InvalidSettingsError,
    LeaderboardOrder,
    ServiceConfig,
    VirtualClock,
)
from wizard.service.boards import (
    Board,
    BoardLine,
    board_order,
    shown_average,
    shown_rating,
)
from wizard.service.ratings import default_rating, ordinal

from .conftest import CHANNEL, GUILD, new_game, play_out

OTHER_GUILD = 1001
ORDERS = tuple(LeaderboardOrder)


@contextmanager
def raw(path: Path) -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(path)
    try:
        yield conn
        conn.commit()
    finally:
        conn.close()


def add_player(
    path: Path,
    user_id: int,
    *,
    games: int,
    wins: int = 0,
    total: int = 0,
    mu: float = 25.0,
    sigma: float = 8.0,
    rating: float | None = None,
    guild: int = GUILD,
) -> None:
    """A ``players`` row as the service writes it at a game's end."""
    with raw(path) as conn:
        conn.execute(
            "INSERT INTO players (guild_id, user_id, name, mu, sigma, rating, games, wins,"
            " total_score, best_score, best_game_id, bids, exact_bids, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, 0)",
            (
                guild,
                user_id,
                f"U{user_id}",
                mu,
                sigma,
                ordinal(mu, sigma) if rating is None else rating,
                games,
                wins,
                total,
                total,
                games * 10,
                games * 4,
            ),
        )


def add_computer(path: Path, level: str, *, games: int, wins: int, total: int) -> None:
    """A ``computer_stats`` row (what the results trigger keeps)."""
    with raw(path) as conn:
        conn.execute(
            "INSERT INTO computer_stats (guild_id, level, games, wins, total_score, best_score,"
            " best_game_id, bids, exact_bids) VALUES (?, ?, ?, ?, ?, NULL, NULL, 0, 0)",
            (GUILD, level, games, wins, total),
        )


async def every_line(svc: GameService, order: LeaderboardOrder, per_page: int) -> list[BoardLine]:
    """The whole board, page by page."""
    out: list[BoardLine] = []
    page = 1
    while True:
        board = await svc.board(GUILD, order=order, page=page, per_page=per_page)
        assert board.page == page
        out.extend(board.lines)
        if page >= board.pages:
            assert len(out) == board.total
            return out
        assert len(board.lines) == per_page
        page += 1


def shown(line: BoardLine, order: LeaderboardOrder) -> Decimal:
    """The figure a board shows for ``line``, worked out here from the line's exact values
    (half to even, as the bot writes a number): the whole rating, the wins, the average to
    one decimal."""
    if order is LeaderboardOrder.RATING:
        return Decimal(line.rating).quantize(Decimal(1), ROUND_HALF_EVEN)
    if order is LeaderboardOrder.WINS:
        return Decimal(line.wins)
    exact = Decimal(line.total_score) / Decimal(line.games)  # exact for these small numbers
    return exact.quantize(Decimal("0.1"), ROUND_HALF_EVEN)


def expected(lines: list[BoardLine], order: LeaderboardOrder) -> list[tuple[str, int]]:
    """Names of ``lines`` sorted as the board defines its order (players before computers on
    a tie, players by id, computers by level), each with its rank: one more than the lines
    that show a greater figure, so that lines showing the same figure share one."""

    def value(line: BoardLine) -> tuple[float, float]:
        if order is LeaderboardOrder.RATING:
            return (-line.rating, -line.games)
        if order is LeaderboardOrder.WINS:
            return (-line.wins, -line.rating)
        return (-line.average, -line.games)

    def key(line: BoardLine) -> tuple[float, float, int, int, str]:
        tie = (1, 0, line.level or "") if line.is_computer else (0, line.user_id or 0, "")
        return (*value(line), *tie)

    ranked = sorted(lines, key=key)
    figures = [shown(line, order) for line in ranked]
    pairs = zip(ranked, figures, strict=True)
    return [(line.name, 1 + sum(o > f for o in figures)) for line, f in pairs]


# --------------------------------------------------------------------------- empty boards


async def test_empty_boards_and_a_newcomer(service: GameService) -> None:
    for order in ORDERS:
        board = await service.board(GUILD, order=order, viewer_id=1)
        assert isinstance(board, Board)
        assert (board.total, board.pages, board.lines, board.page) == (0, 1, (), 1)
        assert board.you is not None
        assert board.you.rank is None and board.you.games == 0 and board.you.line is None
        assert board.you.needed == (1 if order is LeaderboardOrder.WINS else 5)
        assert board.min_games == board.you.needed
        assert not board.computers
    # A page far past the end is the last page.
    assert (await service.board(GUILD, page=99)).page == 1
    assert await service.player_card(GUILD, 1) is None
    with pytest.raises(InvalidSettingsError) as order_refused:
        await service.board(GUILD, order="luck")
    assert order_refused.value.params["setting"] == "leaderboard_order"
    for per_page in (0, 26):
        with pytest.raises(InvalidSettingsError) as size_refused:
            await service.board(GUILD, per_page=per_page)
        # Rendered from code and params, like every refusal: the range is in the params.
        assert size_refused.value.params == {"setting": "page_size", "min": 1, "max": 25}
    assert board_order("wins") is LeaderboardOrder.WINS


# --------------------------------------------------------------------------- minimum of games


async def test_rating_and_average_boards_need_the_minimum_of_games(
    service: GameService, db_path: Path
) -> None:
    # User k has k games; the best rating and average belong to the players with fewest.
    for k in range(1, 8):
        add_player(db_path, k, games=k, wins=k, total=k * (200 - 20 * k), mu=40 - k, sigma=3)
    rating = await service.board(GUILD, order="rating", per_page=25, viewer_id=2)
    assert [line.user_id for line in rating.lines] == [5, 6, 7]
    assert rating.min_games == 5
    assert rating.you is not None
    assert (rating.you.rank, rating.you.games, rating.you.needed) == (None, 2, 3)
    average = await service.board(GUILD, order="average", per_page=25)
    assert [line.user_id for line in average.lines] == [5, 6, 7]
    # Wins cannot be lucky: everyone with a game is on that board.
    wins = await service.board(GUILD, order="wins", per_page=25, viewer_id=2)
    assert [line.user_id for line in wins.lines] == [7, 6, 5, 4, 3, 2, 1]
    assert wins.you is not None and wins.you.rank == 6 and wins.you.needed == 0

    await service.update_settings(GUILD, rated_min_games=2)
    rating = await service.board(GUILD, per_page=25, viewer_id=2)
    assert [line.user_id for line in rating.lines] == [2, 3, 4, 5, 6, 7]
    assert rating.you is not None and rating.you.rank == 1
    assert [line.rank for line in rating.lines] == [1, 2, 3, 4, 5, 6]
    with pytest.raises(InvalidSettingsError):
        await service.update_settings(GUILD, rated_min_games=0)


# --------------------------------------------------------------------------- own rank


async def test_own_rank_off_the_page_agrees_with_the_pages(
    service: GameService, db_path: Path
) -> None:
    rng = random.Random(5)
    for uid in range(1, 41):
        games = rng.randint(5, 9)
        # Ties on purpose: few distinct ratings, wins and averages.
        add_player(
            db_path,
            uid,
            games=games,
            wins=rng.randint(0, 3),
            total=games * rng.choice((50, 60, 70)),
            mu=rng.choice((25.0, 27.0, 30.0)),
            sigma=3.0,
        )
    for order in ORDERS:
        lines = await every_line(service, order, per_page=7)
        assert [(line.name, line.rank) for line in lines] == expected(lines, order)
        assert len({line.rank for line in lines}) < len(lines)  # some ranks are shared
        for line in lines:
            assert line.user_id is not None
            board = await service.board(GUILD, order=order, per_page=3, viewer_id=line.user_id)
            assert board.page == 1
            assert board.you is not None and board.you.rank == line.rank
            assert board.you.line == line


async def test_lines_that_show_the_same_figure_share_a_rank(
    service: GameService, db_path: Path
) -> None:
    # QA: "1. Ann 1502" above "2. Bob 1502". The board sorts by exact figures but shows
    # rounded ones: players who show the same figure share a rank (1, 1, 3), on every page,
    # in the reader's own rank and on the stats card, whatever else tells them apart.
    players = {
        # user: (rating, games, wins, total score)
        1: (1502.4, 6, 4, 6 * 71),  # shows 1502 | 4 wins | average 71.0
        2: (1501.6, 9, 4, 9 * 71 + 4),  # shows 1502 (fewer games would not matter) | 71.4
        3: (1502.5, 5, 3, 5 * 71 + 4),  # 1502: a half goes to the even figure | 71.8
        4: (1503.5, 5, 4, 7 * 71 + 3),  # 1504 (even) ahead of them all | 5 games: 103.4
        5: (1501.5, 7, 3, 7 * 71),  # 1502 | average 71.0
        6: (1500.49, 8, 2, 8 * 71 - 3),  # 1500 | 70.625 shows 70.6
        7: (1500.5, 6, 2, 6 * 71 - 2),  # 1500 (even) | 70.666… shows 70.7
        8: (1499.9, 5, 0, 5 * 71 - 2),  # 1500 | 70.6
        9: (1502.0, 8, 4, 8 * 71 - 1),  # 1502 | 70.875 shows 70.9
        10: (1498.0, 8, 4, 8 * 71 - 3),  # 1498 | 70.625 shows 70.6
        11: (1490.0, 20, 1, 20 * 70 + 13),  # 1490 | 70.65: a half, to the even 70.6
        12: (1489.5, 8, 1, 8 * 70 + 6),  # 1490 (even) | 70.75: a half, to the even 70.8
        13: (1480.0, 20, 1, 20 * 70 + 17),  # 1480 | 70.85: to the even 70.8
    }
    for uid, (rating, games, wins, total) in players.items():
        add_player(db_path, uid, games=games, wins=wins, total=total, rating=rating)
    rating_board = await every_line(service, LeaderboardOrder.RATING, per_page=25)
    assert [(line.user_id, line.rank) for line in rating_board] == [
        (4, 1),
        (3, 2),
        (1, 2),
        (9, 2),
        (2, 2),
        (5, 2),
        (7, 7),
        (6, 7),
        (8, 7),
        (10, 10),
        (11, 11),
        (12, 11),
        (13, 13),
    ]
    for order in ORDERS:
        for per_page in (1, 2, 3, 25):
            lines = await every_line(service, order, per_page)
            assert [(line.name, line.rank) for line in lines] == expected(lines, order)
        assert len({line.rank for line in lines}) < len(lines)  # some ranks are shared
        for line in lines:
            assert line.user_id is not None
            board = await service.board(GUILD, order=order, per_page=2, viewer_id=line.user_id)
            assert board.you is not None and board.you.rank == line.rank, (order, line)
            if order is LeaderboardOrder.RATING:
                card = await service.player_card(GUILD, line.user_id)
                assert card is not None and card.rank.rank == line.rank

    # Computer lines (at the starting rating, 0) share ranks by what they show too.
    await service.update_settings(GUILD, computers_on_boards=True, rated_min_games=1)
    add_player(db_path, 21, games=3, wins=2, total=3 * 70 + 2, rating=0.4)  # 0 | 70.7
    add_player(db_path, 22, games=3, wins=0, total=3 * 71 - 1, rating=-0.5)  # 0 (even) | 70.7
    add_computer(db_path, "hard", games=12, wins=4, total=12 * 71 - 4)  # 70.666…: 70.7
    add_computer(db_path, "easy", games=10, wins=0, total=10 * 70 + 7)  # 70.7
    for order in ORDERS:
        for per_page in (1, 3, 25):
            lines = await every_line(service, order, per_page)
            assert [(line.name, line.rank) for line in lines] == expected(lines, order)
        for line in lines:
            if line.user_id is not None:
                own = (await service.board(GUILD, order=order, viewer_id=line.user_id)).you
                assert own is not None and own.rank == line.rank, (order, line)


def test_the_shown_figures_round_as_the_board_ranks() -> None:
    line = BoardLine(0, "ann", 1, None, 8, 3, 8 * 71 - 3, None, 25.0, 3.0, 1502.5)
    assert shown_rating(line.rating) == 1502 and shown_rating(1503.5) == 1504
    assert shown_rating(-0.4) == 0 and str(shown_rating(-0.4)) == "0"  # never "-0"
    assert shown_average(line.total_score, line.games) == Decimal("70.6")  # 70.625
    assert shown_average(-1, 30) == Decimal("0.0") and str(shown_average(-1, 30)) == "0.0"
    assert shown_average(0, 0) == 0
    assert [line.shown(order) for order in ORDERS] == [1502, 3, Decimal("70.6")]


# --------------------------------------------------------------------------- computers


async def test_computers_on_boards_only_when_the_server_opts_in(
    service: GameService, db_path: Path
) -> None:
    rng = random.Random(8)
    for uid in range(1, 16):
        add_player(
            db_path,
            uid,
            games=rng.randint(5, 8),
            wins=rng.randint(0, 4),
            total=rng.randint(0, 900),
            mu=rng.uniform(15, 35),
            sigma=rng.uniform(2, 6),
        )
    add_computer(db_path, "random", games=30, wins=2, total=600)
    add_computer(db_path, "hard", games=12, wins=5, total=1200)
    add_computer(db_path, "easy", games=3, wins=3, total=900)  # under the minimum but on wins
    for order in ORDERS:
        off = await service.board(GUILD, order=order, per_page=25)
        assert not off.computers and not any(line.is_computer for line in off.lines)
        assert off.total == 15

    await service.update_settings(GUILD, computers_on_boards=True)
    mu, sigma = default_rating()
    for order in ORDERS:
        for per_page in (1, 2, 4, 25):
            lines = await every_line(service, order, per_page)
            assert [(line.name, line.rank) for line in lines] == expected(lines, order)
        levels = {line.level for line in lines if line.is_computer}
        assert levels == (
            {"random", "hard", "easy"} if order is LeaderboardOrder.WINS else {"random", "hard"}
        )
        for line in lines:
            if line.is_computer:
                assert line.user_id is None and line.name == line.level
                assert (line.mu, line.sigma, line.rating) == (mu, sigma, ordinal(mu, sigma))
            else:
                assert line.user_id is not None
                own = (await service.board(GUILD, order=order, viewer_id=line.user_id)).you
                assert own is not None and own.rank == line.rank, (order, line)
    hard = next(
        line
        for line in await every_line(service, LeaderboardOrder.AVERAGE, 25)
        if line.is_computer and line.level == "hard"
    )
    assert (hard.games, hard.wins, hard.average, hard.win_rate) == (12, 5, 100.0, 5 / 12)


async def test_computer_results_are_counted_per_level(
    service: GameService, clock: VirtualClock
) -> None:
    await service.update_settings(GUILD, computers_on_boards=True, rated_min_games=1)
    totals: dict[str, list[int]] = {}
    wins: dict[str, int] = {}
    for k, level in enumerate(("easy", "random", "easy")):
        await service.update_settings(GUILD, computer_level=level)
        game_id = await new_game(service, 2, 1, channel=CHANNEL + k, seed=60 + k)
        await service.start(game_id, 1)
        await play_out(service, game_id, [1, 2], random.Random(k))
        info = await service.get_game(game_id)
        [computer] = [s for s in info.standings if s.user_id is None]
        totals.setdefault(level, []).append(computer.score)
        wins[level] = wins.get(level, 0) + (computer.place == 1)
        await clock.advance(10)
    board = await service.board(GUILD, order="wins", per_page=25)
    by_level = {line.level: line for line in board.lines if line.is_computer}
    assert set(by_level) == {"easy", "random"}
    for level, scores in totals.items():
        line = by_level[level]
        assert (line.games, line.total_score, line.wins) == (len(scores), sum(scores), wins[level])
        assert line.best_score == max(scores)
    # People's rows are untouched by computers; a human away seat is not a computer.
    assert {line.user_id for line in board.lines if not line.is_computer} == {1, 2}
    assert all(line.level in LEVELS for line in by_level.values())


# --------------------------------------------------------------------------- statistics


async def test_player_card_fields(service: GameService, clock: VirtualClock) -> None:
    variants = [
        Options(),
        Options(bidding=Bidding.HIDDEN),
        Options(),
        Options(magic_twos=True),
        Options(),
        Options(bidding=Bidding.HIDDEN),
        Options(),
    ]
    ids = []
    for k, options in enumerate(variants):
        game_id = await new_game(service, 3, 0, channel=CHANNEL + k, seed=80 + k, options=options)
        await service.start(game_id, 1)
        await play_out(service, game_id, [1, 2, 3], random.Random(k))
        ids.append(game_id)
        await clock.advance(60)
    # Another server's game does not count here.
    other = await new_game(service, 3, 0, guild=OTHER_GUILD, channel=CHANNEL + 50, seed=99)
    await service.start(other, 1)
    await play_out(service, other, [1, 2, 3], random.Random(9))

    card = await service.player_card(GUILD, 2)
    assert card is not None
    stats = await service.player_card(GUILD, 2)
    assert stats is not None
    results = [
        next(s for s in (await service.get_game(g)).standings if s.user_id == 2) for g in ids
    ]
    assert card.games == len(ids) == stats.games
    assert card.wins == sum(r.place == 1 for r in results) == stats.wins
    assert card.win_rate == pytest.approx(card.wins / len(ids))
    assert card.total_score == sum(r.score for r in results)
    assert card.best_score == max(r.score for r in results)
    assert card.bid_accuracy == pytest.approx(
        sum(r.exact_bids for r in results) / sum(r.rounds for r in results)
    )
    assert (card.mu, card.sigma) == (stats.mu, stats.sigma)
    assert card.rating == pytest.approx(card.mu - 3 * card.sigma)
    assert card.rank.rank is not None and card.rank.needed == 0  # 7 games ≥ 5
    # Favourite: the standard game, 4 of 7.
    assert card.favourite is not None
    assert (card.favourite.options, card.favourite.games) == (Options(), 4)
    assert card.favourite.share == pytest.approx(4 / 7)
    # Form: the last five games, newest first, with places and scores as stored.
    assert [f.game_id for f in card.form] == ids[::-1][:5]
    for f, r in zip(card.form, results[::-1], strict=False):
        assert (f.place, f.score, f.seats, f.seat) == (r.place, r.score, 3, r.seat)
    assert card.latest_game_id == ids[-1]
    assert (await service.player_card(OTHER_GUILD, 2)).games == 1  # type: ignore[union-attr]


async def test_favourite_ties_go_to_the_most_recent(
    service: GameService, clock: VirtualClock
) -> None:
    for k, options in enumerate([Options(magic_twos=True), Options(canadian=True)]):
        game_id = await new_game(service, 3, 0, channel=CHANNEL + k, seed=70 + k, options=options)
        await service.start(game_id, 1)
        await play_out(service, game_id, [1, 2, 3], random.Random(k))
        await clock.advance(60)
    card = await service.player_card(GUILD, 1, form=1)
    assert card is not None and card.favourite is not None
    assert card.favourite.options == Options(canadian=True)
    assert len(card.form) == 1
    assert card.rank.rank is None and card.rank.needed == 3


# --------------------------------------------------------------------------- history


async def test_finished_game_scorepad_matches_the_game(service: GameService) -> None:
    game_id = await new_game(service, 2, 2, seed=31, options=Options(bidding=Bidding.SECRET))
    await service.start(game_id, 1)
    await play_out(service, game_id, [1, 2], random.Random(3))
    game = await service.finished_game(GUILD, game_id)
    info = await service.get_game(game_id)
    assert info.table is not None
    assert game.history == info.table.history
    assert game.players == tuple(s.name for s in info.seats)
    assert game.user_ids == (1, 2, None, None)
    assert game.seat_of(2) == 1 and game.seat_of(5) is None
    assert game.standings == info.standings
    assert game.options == Options(bidding=Bidding.SECRET)
    assert game.finished_at == info.finished_at
    # The record replays to the same scores, round by round.
    state = replay(load(game.record))
    assert state.players == game.players
    assert [r.totals for r in state.history] == [r.totals for r in game.history]
    assert [r.bids for r in state.history] == [r.bids for r in game.history]
    assert game.record == await service.game_record(game_id)
    assert [s.score for s in sorted(game.standings, key=lambda s: s.seat)] == list(state.scores)

    # Not this server's, not finished, or no such game: not in the history.
    with pytest.raises(GameNotFoundError):
        await service.finished_game(OTHER_GUILD, game_id)
    running = await new_game(service, 2, 1, channel=CHANNEL + 1, seed=32)
    await service.start(running, 1)
    cancelled = await new_game(service, 2, 1, channel=CHANNEL + 2, seed=33)
    await service.cancel(cancelled, 1)
    for other in (running, cancelled, 987_654):
        with pytest.raises(GameNotFoundError):
            await service.finished_game(GUILD, other)
    assert (await service.get_game(running)).status is GameStatus.ACTIVE


async def test_a_finished_game_that_cannot_be_replayed_is_damaged_and_the_operator_told(
    service: GameService, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Its players were told "the operator has been told" by game_record and "not in this
    server's history" by finished_game, while the game stood in the history and nothing
    was logged at all."""
    game_id = await new_game(service, 2, 1, seed=34)
    await service.start(game_id, 1)
    await play_out(service, game_id, [1, 2], random.Random(4))
    with raw(db_path) as conn:
        conn.execute("DELETE FROM actions WHERE game_id = ? AND seq = 30", (game_id,))
    fresh = await GameService.open(db_path, config=ServiceConfig(ai_processes=0))
    try:
        with caplog.at_level(logging.ERROR, logger="wizard"):
            assert [g.id for g in await fresh.recent_games(GUILD)] == [game_id]
            for ask in (fresh.finished_game(GUILD, game_id), fresh.game_record(game_id)):
                with pytest.raises(GameDamagedError):
                    await ask
        told = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(told) == 1 and f"game {game_id} (finished) is damaged" in told[0], told
    finally:
        await fresh.close()


# --------------------------------------------------------------------------- settings


async def test_community_settings_round_trip(service: GameService, db_path: Path) -> None:
    current = await service.get_settings(GUILD)
    assert (current.threads, current.computers_on_boards, current.language, current.theme) == (
        False,
        False,
        "en",
        Theme.CLASSIC,
    )
    assert current.rated_min_games == 5
    changed = await service.update_settings(
        GUILD,
        threads=True,
        computers_on_boards=True,
        language="DE",
        theme="standard",
        rated_min_games=3,
    )
    assert changed.language == "de" and changed.theme is Theme.STANDARD
    for bad in ({"language": "xx"}, {"language": "english"}, {"theme": "neon"}):
        with pytest.raises(InvalidSettingsError):
            await service.update_settings(GUILD, **bad)
    clock = VirtualClock()
    await service.close()
    reopened = await GameService.open(db_path, clock=clock)
    try:
        assert await reopened.get_settings(GUILD) == changed
    finally:
        await reopened.close()
    # Settings stored before these fields existed read with their defaults.
    old = GuildSettings.model_validate({"turn_seconds": 60.0, "games_per_channel": 2})
    assert (old.threads, old.language, old.theme) == (False, "en", Theme.CLASSIC)


def test_the_service_language_list_is_the_bot_one() -> None:
    from bot.i18n import LANGUAGES

    assert set(GuildSettings.LANGUAGES) == set(LANGUAGES)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_first_game_moves_the_rating_as_the_boards_footnote_says(players: int) -> None:
    """The footnote of the boards (bot RATING_NOTE) says how the shown rating moves: from 0,
    every game makes it surer, which lifts it a little; a high place lifts it more and a low
    place brings it down. Player QA: it said "falls when they lose", and a player who came
    3rd of 4 saw it rise (0.44)."""
    from wizard.service.ratings import MODEL

    teams = [[MODEL.rating()] for _ in range(players)]
    after = MODEL.rate(teams, scores=[float(players - place) for place in range(players)])
    shown = [ordinal(team[0].mu, team[0].sigma) for team in after]
    assert ordinal(*default_rating()) == 0
    assert shown == sorted(shown, reverse=True)  # the higher the place, the more it lifts
    assert shown[0] > 0 > shown[-1]
    # Surer, so lifted a little: the place just below the middle (3rd of 4) still lifts it.
    assert shown[players // 2] > 0, shown
