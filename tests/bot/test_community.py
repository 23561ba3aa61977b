"""``/wizard leaderboard``, ``/wizard stats`` and ``/wizard history`` in a simulated Discord:
empty boards, the caller's rank, pages turned by buttons (also after a restart), the stats
card with its chart, and a game picked from the history with its scorepad and record."""

from __future__ import annotations

import io
import random
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from PIL import Image

from bot.features.community.cog import COMMUNITY_ITEMS, community_cog, install_community
from bot.features.community.words import COG_NAME
from bot.i18n import minus
from tests.bot.conftest import Sim, buttons, message_text, post_buttons, simulation, verb_of
from wizard.record import load, replay
from wizard.service import GameStatus
from wizard.service.results import ordinal

pytestmark = pytest.mark.usefixtures("fast_settle")

PNG = b"\x89PNG\r\n\x1a\n"


@asynccontextmanager
async def server(tmp_path: Path, members: int = 3) -> AsyncIterator[Sim]:
    async with simulation(tmp_path, members=members) as sim:
        yield sim


@contextmanager
def database(sim: Sim) -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(sim.path)
    try:
        yield conn
        conn.commit()
    finally:
        conn.close()


def insert_player(
    conn: sqlite3.Connection,
    sim: Sim,
    user_id: int,
    name: str,
    *,
    mu: float,
    sigma: float,
    rating: float,
    games: int,
    wins: int,
    total: int,
    best: int,
) -> None:
    """A player's row as the service writes it at the end of games (60 bids, 30 exact)."""
    conn.execute(
        "INSERT INTO players (guild_id, user_id, name, mu, sigma, rating, games, wins,"
        " total_score, best_score, best_game_id, bids, exact_bids, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 60, 30, 0)",
        (sim.guild.id, user_id, name, mu, sigma, rating, games, wins, total, best),
    )


def add_players(sim: Sim, ratings: dict[int, float], games: int = 6) -> None:
    """Players' rows as the service writes them at the end of games (rating = mu − 3·2);
    the members keep their names."""
    names = {m.id: m.name for m in sim.members}
    with database(sim) as conn:
        for uid, mu in ratings.items():
            insert_player(
                conn,
                sim,
                uid,
                names.get(uid, f"Player {uid}"),
                mu=mu,
                sigma=2.0,
                rating=ordinal(mu, 2.0),
                games=games,
                wins=1,
                total=games * 50,
                best=100,
            )


def board_lines(message: Any) -> list[str]:
    return (message.embeds[0].description or "").splitlines()


def field(message: Any, name: str) -> str:
    for f in message.embeds[0].fields:
        if f.name == name:
            return str(f.value)
    raise AssertionError(f"no field {name!r} in {[f.name for f in message.embeds[0].fields]}")


def labels(message: Any) -> dict[str, dict[str, Any]]:
    return {b["label"]: b for b in buttons(message)}


async def play_a_game(sim: Sim, computers: int = 2) -> int:
    """A whole game of ann against computers, played by clicks."""
    ann = sim.members[0]
    info = await sim.lobby(ann, [], computers=computers)
    done = await sim.play(info.id, random.Random(4))
    assert done.status is GameStatus.FINISHED
    return info.id


# --------------------------------------------------------------------------- leaderboard


async def test_empty_leaderboard(tmp_path: Path) -> None:
    """An empty board is shown to the caller alone (QA: "Nobody has finished 5 games on this
    server yet" posted in the channel, where /wizard stats answers privately before a first
    game)."""
    async with server(tmp_path) as sim:
        ann = sim.members[0]
        for order, title in (("rating", "Rating"), ("wins", "Wins"), ("average", "Average score")):
            result = await ann.slash(sim.channel, "wizard leaderboard", order=order)
            assert result.acknowledged and result.ephemeral
            message = result.response
            assert message is not None
            assert message.embeds[0].title == f"🏆 Leaderboard · {title}"
            [line] = board_lines(message)
            assert line.startswith("Nobody has finished")
            assert field(message, "Your rank") == "no finished game yet"
            # QA (demo): one page showed "Page 1 of 1" and two greyed-out page buttons.
            assert "Page" not in (message.embeds[0].footer.text or "")
            if order == "rating":  # QA: "≈ 0" after a game looked broken; it is the start
                footer = message.embeds[0].footer.text or ""
                # QA: "it grows" beside ratings of -3: it falls too, below 0.
                assert "everyone starts at 0" in footer and "below 0 too" in footer
            shown = labels(message)
            assert "◀ Previous" not in shown and "Next ▶" not in shown
            assert shown[title]["disabled"]
        assert "Ranked after 5 games" in (message.embeds[0].footer.text or "")


async def test_pages_own_rank_and_buttons_after_a_restart(tmp_path: Path) -> None:
    async with server(tmp_path) as sim:
        ann, bob, cy = sim.members
        # 25 players: ann is 23rd (off the first page), bob 2nd, cy has too few games.
        ratings = {10_000 + k: 40.0 - k for k in range(23)}
        ratings[ann.id] = 40.0 - 21.5
        ratings[bob.id] = 39.5
        add_players(sim, ratings)
        add_players(sim, {cy.id: 50.0}, games=2)
        result = await ann.slash(sim.channel, "wizard leaderboard")
        board = result.response
        assert board is not None and not result.ephemeral
        lines = board_lines(board)
        assert len(lines) == 10
        # bob (33.5) shows 34 as Player 10000 (34) does: they share the first place.
        assert lines[0].startswith("🥇 Player 10000 — **34**")
        assert lines[1].startswith("🥇 bob — **34**") and lines[2].startswith("🥉 Player 10001")
        assert field(board, "ann's rank") == "#24 of 25"
        assert "Page 1 of 3" in (board.embeds[0].footer.text or "")

        turned = await ann.click(board, label="Next ▶")
        assert turned.acknowledged and not turned.ephemeral
        page2 = sim.message(board.id)
        assert board_lines(page2)[0].startswith("`#11`")
        assert "Page 2 of 3" in (page2.embeds[0].footer.text or "")
        await ann.click(page2, label="Next ▶")
        page3 = sim.message(board.id)
        assert any(line.startswith("`#24` ann") for line in board_lines(page3))
        assert labels(page3)["Next ▶"]["disabled"]

        # After a restart (new process, new bot) the old message's buttons still work.
        await sim.restart()
        back = await ann.click(sim.message(board.id), label="◀ Previous")
        assert back.acknowledged and not back.ephemeral
        assert "Page 2 of 3" in (sim.message(board.id).embeds[0].footer.text or "")
        wins = await ann.click(sim.message(board.id), label="Wins")
        assert wins.acknowledged
        now = sim.message(board.id)
        assert now.embeds[0].title == "🏆 Leaderboard · Wins"
        assert "Page 1 of 3" in (now.embeds[0].footer.text or "")

        # Someone else's click opens the page privately, with their own rank.
        before = message_text(sim.message(board.id).message)
        other = await cy.click(sim.message(board.id), label="Next ▶")
        assert other.acknowledged and other.ephemeral and other.response is not None
        assert field(other.response, "Your rank") == "#1 of 26"  # wins: everyone is ranked
        assert "Page 2 of 3" in (other.response.embeds[0].footer.text or "")
        assert message_text(sim.message(board.id).message) == before
        rating = await cy.click(other.response, label="Rating")
        assert rating.acknowledged and rating.response is not None and rating.response.ephemeral
        private = sim.message(other.response.id)
        assert field(private, "Your rank") == "unranked: 3 more games needed"


async def test_players_who_show_the_same_figure_share_a_rank(tmp_path: Path) -> None:
    # QA: "1. Ann 1502" above "2. Bob 1502". Whatever tells them apart unseen (1502.4 and
    # 1501.6, 70.83 and 70.78 points per game), equal figures share a rank and a medal, in
    # the list and in the reader's rank field.
    async with server(tmp_path) as sim:
        ann, bob, cy = sim.members
        with database(sim) as conn:
            for member, rating, games, total in (
                (ann, 1502.4, 6, 425),  # 70.83…
                (bob, 1501.6, 9, 637),  # 70.77…
                (cy, 1500.4, 6, 420),  # 70.0
            ):
                insert_player(
                    conn,
                    sim,
                    member.id,
                    member.name,
                    mu=30.0,
                    sigma=2.0,
                    rating=rating,
                    games=games,
                    wins=1,
                    total=total,
                    best=100,
                )
        rating = (await bob.slash(sim.channel, "wizard leaderboard")).response
        assert rating is not None
        assert board_lines(rating) == [
            "🥇 ann — **1,502** · 6 games",
            "🥇 bob — **1,502** · 9 games",
            "🥉 cy — **1,500** · 6 games",
        ]
        assert field(rating, "bob's rank") == "#1 of 3"
        average = (await bob.slash(sim.channel, "wizard leaderboard", order="average")).response
        assert average is not None
        assert board_lines(average) == [
            "🥇 ann — **70.8** points per game · 6 games",
            "🥇 bob — **70.8** points per game · 9 games",
            "🥉 cy — **70.0** points per game · 6 games",
        ]
        assert field(average, "bob's rank") == "#1 of 3"
        stats = (await bob.slash(sim.channel, "wizard stats")).response
        assert stats is not None
        assert field(stats, "Rating") == "**1,502** · #1 of 3"
        assert field(stats, "Scores") == "average 70.8 · best 100"


async def test_the_wins_board_ranks_nobody_for_no_win(tmp_path: Path) -> None:
    # QA: after a game a computer won, the wins board read "#1 ann — 0 wins" for everyone,
    # and the last player at the table read "Your rank: #1 of 3". No win, no rank.
    async with server(tmp_path) as sim:
        ann, bob, cy = sim.members
        with database(sim) as conn:
            for member, wins in ((ann, 2), (bob, 0), (cy, 0)):
                insert_player(
                    conn,
                    sim,
                    member.id,
                    member.name,
                    mu=25.0,
                    sigma=8.0,
                    rating=1.0,
                    games=4,
                    wins=wins,
                    total=100,
                    best=60,
                )
        board = (await bob.slash(sim.channel, "wizard leaderboard", order="wins")).response
        assert board is not None
        assert board_lines(board) == [
            "🥇 ann — **2** wins (50%) · 4 games",
            "`—` bob — **0** wins (0%) · 4 games",
            "`—` cy — **0** wins (0%) · 4 games",
        ]
        assert field(board, "bob's rank") == "no win yet"
        mine = (await ann.slash(sim.channel, "wizard leaderboard", order="wins")).response
        assert mine is not None and field(mine, "ann's rank") == "#1 of 3"


async def test_computers_on_the_board_when_the_server_opts_in(tmp_path: Path) -> None:
    async with server(tmp_path, members=1) as sim:
        [ann] = sim.members
        await sim.service.update_settings(sim.guild.id, rated_min_games=1)
        await play_a_game(sim)
        result = await ann.slash(sim.channel, "wizard leaderboard", order="wins")
        assert result.response is not None
        assert not any("🤖" in line for line in board_lines(result.response))
        # Review: one page with nothing to explain sent an empty footer.
        sent = [r.json for r in sim.env.http_requests if isinstance(r.json, dict)]
        [board] = [
            e
            for j in sent
            for e in (j.get("data") or j).get("embeds") or []
            if "Wins" in e["title"]
        ]
        assert "footer" not in board, board
        await sim.service.update_settings(sim.guild.id, computers_on_boards=True)
        result = await ann.slash(sim.channel, "wizard leaderboard", order="wins")
        assert result.response is not None
        lines = board_lines(result.response)
        computer = [line for line in lines if "🤖 Computers (Normal)" in line]
        assert computer and "seats played" in computer[0], lines
        assert "Computer players are shown" in (result.response.embeds[0].footer.text or "")


# --------------------------------------------------------------------------- stats


async def test_stats_with_the_chart_of_the_latest_game(tmp_path: Path) -> None:
    async with server(tmp_path, members=2) as sim:
        ann, bob = sim.members
        nothing = await ann.slash(sim.channel, "wizard stats", member=bob)
        assert nothing.ephemeral and nothing.response is not None
        assert "bob has not finished a game" in nothing.response.content
        # One's own, with or without naming oneself (QA, es: "eve has not…" to eve herself).
        for own in ({}, {"member": bob}):
            mine = await bob.slash(sim.channel, "wizard stats", **own)
            assert mine.ephemeral and mine.response is not None
            assert mine.response.content == (
                "You have not finished a game of Wizard on this server yet."
            )

        game_id = await play_a_game(sim)
        result = await bob.slash(sim.channel, "wizard stats", member=ann)
        assert result.acknowledged and not result.ephemeral
        message = result.response
        assert message is not None
        assert message.embeds[0].title == "📊 ann at Wizard"
        card = await sim.service.player_card(sim.guild.id, ann.id)
        assert card is not None
        assert field(message, "Games").startswith("1 played · ")
        assert f"best {minus(str(card.best_score))}" in field(message, "Scores")
        # Of the rounds she bid herself: a computer's bid, when her time ran out, is not
        # counted (player QA: "2 of 14 rounds" beside a scorepad of 15 said nothing of why).
        assert f"({card.exact_bids} of {card.bids} rounds they bid themselves)" in field(
            message, "Bids"
        )
        assert "unranked: 4 more games needed" in field(message, "Rating")
        # One number, marked provisional before the server's minimum of games (issue 12).
        shown = minus(str(round(card.rating)))
        assert f"≈ **{shown}** (provisional)" in field(message, "Rating")
        assert "μ" not in message_text(message) and "σ" not in message_text(message)
        assert field(message, "Favourite options") == "none (the classic game) · 100% of games"
        # A place says so: "6/6" read as six out of six (won them all) for a last place.
        [last] = card.form
        # QA (es): "🥈2.º de 6" glued the medal to the place; a space, as in the history.
        medal = {1: "🥇 ", 2: "🥈 ", 3: "🥉 "}.get(last.place, "")
        assert field(message, "Recent form (newest first)") == f"{medal}#{last.place} of 3"
        [attachment] = message.attachments
        assert attachment.filename == f"wizard-chart-{game_id}-{ann.id}.png"
        data = await attachment.read()
        assert data.startswith(PNG)
        assert Image.open(io.BytesIO(data)).size == (960, 540)
        assert message.embeds[0].image.url == f"attachment://{attachment.filename}"
        # Without a member: the caller's own.
        own = await ann.slash(sim.channel, "wizard stats")
        assert own.response is not None and own.response.embeds[0].title == "📊 ann at Wizard"


# --------------------------------------------------------------------------- history


async def test_history_pick_shows_the_scorepad_and_the_record(tmp_path: Path) -> None:
    async with server(tmp_path, members=2) as sim:
        ann, bob = sim.members
        empty = await bob.slash(sim.channel, "wizard history")
        assert empty.ephemeral and empty.response is not None
        assert "No game has finished" in (empty.response.embeds[0].description or "")
        assert empty.response.components == []

        game_id = await play_a_game(sim)
        result = await bob.slash(sim.channel, "wizard history")
        assert result.acknowledged and result.ephemeral and result.response is not None
        listing = result.response
        assert f"**Game {game_id}**" in (listing.embeds[0].description or "")
        picked = await bob.select(listing, [str(game_id)], custom_id="wizb:hist:pick:0")
        assert picked.acknowledged and picked.ephemeral
        shown = picked.response
        assert shown is not None
        names = {a.filename: a for a in shown.attachments}
        assert set(names) == {f"wizard-scorepad-{game_id}.png", f"wizard-game-{game_id}.json"}
        png = await names[f"wizard-scorepad-{game_id}.png"].read()
        assert png.startswith(PNG)
        record = load(await names[f"wizard-game-{game_id}.json"].read())
        state = replay(record)
        info = await sim.service.get_game(game_id)
        assert list(state.players) == [s.name for s in info.seats]
        assert [s.score for s in sorted(info.standings, key=lambda s: s.seat)] == list(state.scores)
        assert shown.embeds[0].title == f"Game {game_id} · scorepad"
        # What the attached file is, in a player's words: no command of a terminal.
        description = shown.embeds[0].description or ""
        assert (
            f"📎 wizard-game-{game_id}.json: every deal, bid and card of this game, "
            "as a game record." in description
        ), description
        assert "python -m" not in description
        # Only bob sees it.
        assert all(m.id != shown.id for m in sim.channel.history(viewer=ann))
        # The select still answers after a restart.
        await sim.restart()
        again = await bob.select(
            sim.message(listing.id), [str(game_id)], custom_id="wizb:hist:pick:0"
        )
        assert again.acknowledged and again.response is not None
        assert len(again.response.attachments) == 2


async def test_history_pages(tmp_path: Path) -> None:
    async with server(tmp_path, members=1) as sim:
        [ann] = sim.members
        with database(sim) as conn:
            for k in range(1, 13):
                conn.execute(
                    "INSERT INTO games (id, guild_id, channel_id, host_id, status, options, seed,"
                    " version, created_at, updated_at, started_at, finished_at)"
                    " VALUES (?, ?, ?, ?, 'finished', '{}', 1, 1, ?, ?, ?, ?)",
                    (k, sim.guild.id, sim.channel.id, ann.id, k, k, k, 1_700_000_000 + k),
                )
                for seat in range(3):
                    conn.execute(
                        "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, 20, 5)",
                        (k, seat, ann.id if seat == 0 else None, f"P{seat}", 10 * seat, 3 - seat),
                    )
        result = await ann.slash(sim.channel, "wizard history")
        listing = result.response
        assert listing is not None
        assert [
            line.split(" · ")[0] for line in (listing.embeds[0].description or "").splitlines()
        ] == [f"**Game {k}**" for k in range(12, 2, -1)]
        older = await ann.click(listing, label="Older games ▶")
        assert older.acknowledged
        page = sim.message(listing.id)
        assert [
            line.split(" · ")[0] for line in (page.embeds[0].description or "").splitlines()
        ] == ["**Game 2**", "**Game 1**"]
        assert "Older games ▶" not in labels(page)
        await ann.click(page, label="⏮ Newest games")
        assert "**Game 12**" in (sim.message(listing.id).embeds[0].description or "")
        # Exactly a page of games: no button to older games that are not there.
        with database(sim) as conn:
            conn.execute("DELETE FROM results WHERE game_id IN (1, 2)")
            conn.execute("DELETE FROM games WHERE id IN (1, 2)")
        ten = await ann.slash(sim.channel, "wizard history")
        assert ten.response is not None and "Older games ▶" not in labels(ten.response)


async def test_components_are_restart_proof_classes(tmp_path: Path) -> None:
    async with server(tmp_path, members=1) as sim:
        assert all(issubclass(c, discord.ui.DynamicItem) for c in COMMUNITY_ITEMS)
        [ann] = sim.members
        commands = set(ann.available_commands(sim.channel))
        assert {"wizard leaderboard", "wizard stats", "wizard history", "wizard settings"} <= (
            commands
        )
        assert isinstance(sim.env, simcord.Env)
        # The bot's setup_hook installs the community once, also when it runs again (a
        # reconnect): one cog, each subcommand once.
        names = [c.name for c in sim.bot.wizard_group.commands]
        assert len(names) == len(set(names)) and "leaderboard" in names
        await install_community(sim.bot, sim.service, sim.bot.wizard_group)
        assert [c.name for c in sim.bot.wizard_group.commands] == names
        assert sim.bot.get_cog(COG_NAME) is community_cog(sim.bot)


async def test_public_boards_follow_the_server_language(tmp_path: Path) -> None:
    async with server(tmp_path, members=1) as sim:
        [ann] = sim.members
        add_players(sim, {ann.id: 39.5, 20_001: 1234.25})
        await sim.service.update_settings(sim.guild.id, language="de")
        result = await ann.slash(sim.channel, "wizard leaderboard")
        assert result.response is not None
        lines = board_lines(result.response)
        # German numbers: a dot between thousands; a rating is one whole number (issue 12).
        assert "**1.228**" in lines[0] and "**34**" in lines[1], lines
        # The reader's private copy (someone else's click) follows the reader's locale.
        eve = sim.add_manager("eve")
        copy = await eve.click(result.response, custom_id=f"wizb:lb:o:w:1:{ann.id}")
        assert copy.ephemeral and copy.response is not None
        assert copy.response.embeds[0].title == "🏆 Leaderboard · Wins"
        assert board_lines(copy.response)[0].endswith("— **1** win (17%) · 6 games")


async def test_an_unknown_community_button_is_answered(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=1, test_buttons=True) as sim:
        [ann] = sim.members
        posted = await post_buttons(sim, ann, "wizb:lb:x:r:1:1", "wizb:gone")
        for custom_id in ("wizb:lb:x:r:1:1", "wizb:gone"):
            result = await ann.click(posted, custom_id=custom_id)
            assert result.acknowledged and result.ephemeral and result.response is not None
            assert "older version of the bot" in result.response.content


async def test_member_names_are_cleaned_and_escaped_on_boards_and_stats(tmp_path: Path) -> None:
    """The public board's "{name}'s rank" showed the reader's Discord name raw (markdown
    rendered, a right-to-left override reversing the rest), and /wizard stats escaped it
    but kept the override: both now show it as a seat's name is shown in the game."""
    nick = "**Bold** ||spoil|| \u202eRLO"
    async with simulation(tmp_path, members=0) as sim:
        host = sim.guild.add_member(sim.env.create_user("h"), nick=nick)
        others = [sim.guild.add_member(sim.env.create_user(n), nick=n) for n in ("bee", "cee")]
        stranger = sim.guild.add_member(sim.env.create_user("o"), nick="**New** \u202eone")
        sim.members = [host, *others, stranger]
        info = await sim.lobby(host, others)
        assert (await sim.play(info.id, random.Random(1))).status is GameStatus.FINISHED
        shown = r"\*\*Bold\*\* \|\|spoil\|\| RLO"
        # The wins board has everyone's first game (the others need 5): it is public.
        board = await host.slash(sim.channel, "wizard leaderboard", order="wins")
        assert board.response.embeds[0].fields[0].name == f"{shown}'s rank"
        stats = await host.slash(sim.channel, "wizard stats")
        assert stats.response.embeds[0].title == f"📊 {shown} at Wizard"
        never = await host.slash(sim.channel, "wizard stats", member=stranger)
        assert never.response.content.startswith(r"\*\*New\*\* one has not finished")


def test_equal_lines_share_a_medal_and_no_win_earns_no_rank() -> None:
    from bot.features.community.render import board_embed
    from bot.i18n import texts
    from wizard.service import LeaderboardOrder
    from wizard.service.boards import Board, BoardLine

    def line(rank: int, name: str, wins: int) -> BoardLine:
        return BoardLine(rank, name, rank, None, 6, wins, 300, 80, 25.0, 3.0, 16.0)

    lines = (line(1, "ann", 2), line(1, "bob", 2), line(3, "cy", 0), line(3, "dee", 0))
    board = Board(1, LeaderboardOrder.WINS, 1, 10, 4, 1, False, lines)
    shown = (board_embed(texts("en"), board, None).description or "").splitlines()
    assert [s.split(" ")[0] for s in shown] == ["🥇", "🥇", "`—`", "`—`"], shown


def test_counts_are_written_the_way_the_language_writes_numbers() -> None:
    from bot.features.community.words import rank_text
    from bot.i18n import texts
    from wizard.service.boards import OwnRank

    assert texts("en").plural("{n} game", "{n} games", 1500) == "1,500 games"
    assert texts("de").plural("{n} game", "{n} games", 12345) == "12.345 Partien"
    assert texts("en").plural("{n} game", "{n} games", 999) == "999 games"
    assert rank_text(texts("de"), OwnRank(1, 1101, 9, 0, None, 1101)) == "#1.101 von 1.101"


def test_the_readers_rank_field_names_them_as_their_line_does() -> None:
    # A nickname longer than a seat's name is shortened on the line; the field agrees.
    from bot.features.community.render import board_embed
    from bot.i18n import texts
    from wizard.service import LeaderboardOrder
    from wizard.service.boards import Board, BoardLine, OwnRank

    seat_name = "Zauberlehrling der Großen Dr…"
    line = BoardLine(1, seat_name, 7, None, 6, 2, 300, 80, 25.0, 3.0, 16.0)
    you = OwnRank(7, 1, 6, 0, line, 1)
    board = Board(1, LeaderboardOrder.RATING, 1, 10, 1, 1, False, (line,), you)
    embed = board_embed(texts("en"), board, "Zauberlehrling der Großen Drachen 🐉")
    assert embed.fields[0].name == f"{seat_name}'s rank"


def test_the_stats_card_writes_both_scores_as_the_language_writes_numbers() -> None:
    # QA: a Portuguese card read "média -1.300,0 · melhor -1300", the best score ungrouped.
    from bot.features.community.render import stats_embed
    from bot.i18n import texts
    from wizard.service.boards import OwnRank, PlayerCard

    card = PlayerCard(
        guild_id=1,
        user_id=2,
        name="bruno",
        rating=0.0,
        mu=25.0,
        sigma=8.3,
        games=1,
        wins=0,
        total_score=-1300,
        best_score=-1300,
        best_game_id=1,
        bids=20,
        exact_bids=3,
        rank=OwnRank(user_id=2, rank=None, games=1, needed=2, line=None),
        favourite=None,
        form=(),
    )
    fields = {f.name: f.value for f in stats_embed(texts("pt"), card, "bruno").fields}
    assert fields["Pontuações"] == "média −1.300,0 · melhor −1.300", fields


def test_a_game_from_the_history_writes_places_as_the_final_standings_do() -> None:
    # QA, on an Italian server: the final standings read "4° bruno", the same game picked
    # from the history "4. bruno". One place mark serves both, in the server's language.
    from bot.features.community.render import game_embed
    from bot.features.summaries import place_mark
    from bot.i18n import texts
    from wizard.options import Options
    from wizard.service.boards import FinishedGame
    from wizard.service.events import Standing

    names = ("ann", "bruno", "cy", "dee")
    game = FinishedGame(
        id=7,
        guild_id=1,
        channel_id=2,
        players=names,
        user_ids=(1, 2, 3, 4),
        options=Options(),
        history=(),
        standings=tuple(
            Standing(seat, name, seat + 1, 100 - 10 * seat, seat + 1, 0, 15)
            for seat, name in enumerate(names)
        ),
        started_at=None,
        finished_at=None,
        record="",
    )
    for language in ("en", "it", "pt"):
        t = texts(language)
        text = game_embed(t, game, "x.png").description or ""
        assert f"{place_mark(4, t=t)} **dee**" in text, text
    assert place_mark(1, t=texts("it")) == "🥇"
    assert place_mark(4, t=texts("it")) == "4º"  # as "3º su 4" in /wizard stats


def test_the_history_pick_marks_a_winner_whose_seat_a_computer_finished() -> None:
    # QA, on a German server: a computer finished ana's seat and came first; the final
    # standings, her stats and the board said she lost, the history's pick "won by ana".
    from bot.features.community.cog import history_view
    from bot.i18n import texts
    from wizard.service.events import Standing

    game = _summary(
        1,
        Standing(0, "ana", 1, 340, 1, 9, 15, forfeited=True),
        Standing(1, "beto", 2, 200, 2, 6, 15),
    )
    view = history_view(texts("en"), [game], None, more=False)
    [pick] = view.to_components()[0]["components"]
    assert pick["options"][0]["description"] == "Won by ana 🤖 with 340 points"


def test_the_picked_games_scorepad_marks_a_seat_a_computer_finished() -> None:
    # QA: the scorepad of a game picked from /wizard history read "🥇 **cy**: 250 points"
    # where the final standings, the history list and cy's stats said a computer finished
    # her seat ("cy 🤖").
    from bot.features.community.render import game_embed
    from bot.i18n import texts
    from wizard.options import Options
    from wizard.service.boards import FinishedGame
    from wizard.service.events import Standing

    game = FinishedGame(
        id=2,
        guild_id=1,
        channel_id=2,
        players=("cy", "ann", "Merlin"),
        user_ids=(3, 1, None),
        options=Options(),
        history=(),
        standings=(
            Standing(0, "cy", 1, 250, 1, 9, 15, forfeited=True),
            Standing(1, "ann", 2, 100, 2, 6, 15),
            Standing(2, "Merlin", None, 90, 3, 6, 15),
        ),
        started_at=None,
        finished_at=None,
        record="",
    )
    lines = (game_embed(texts("en"), game, "x.png").description or "").splitlines()
    assert lines[0] == "🥇 **cy** 🤖: 250 points"
    assert lines[1] == "🥈 **ann**: 100 points"
    assert lines[2] == "🥉 **Merlin** 🤖: 90 points"  # a computer from the start


async def test_the_stats_chart_marks_a_seat_a_computer_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # QA (pt): pedro left in round 4; his card said the game counts as lost (average -310),
    # while the chart under it drew "pedro" finishing second with the computer's 320.
    import bot.features.community.cog as cog_module

    drawn: list[tuple[str, ...]] = []
    draw = cog_module.score_chart_png

    def spy(players: Any, *args: Any, **kwargs: Any) -> bytes:
        drawn.append(tuple(players))
        return draw(players, *args, **kwargs)

    monkeypatch.setattr(cog_module, "score_chart_png", spy)
    async with server(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        rng = random.Random(4)
        await sim.play(info.id, rng, until=lambda i: i.table is not None and i.table.round >= 2)
        await sim.click_hand(bob, "Leave")
        await sim.click_hand(bob, "Yes, leave")
        done = await sim.play(info.id, rng)
        assert done.status is GameStatus.FINISHED
        seat = next(s.seat for s in done.seats if s.user_id == bob.id)
        result = await ann.slash(sim.channel, "wizard stats", member=bob)
        assert result.response is not None and result.response.attachments
        [players] = drawn
        assert players[seat] == "bob → computer", players
        assert "ann" in players


async def test_the_stats_chart_marks_a_seat_another_person_took_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # QA (pt): rui left, and dani took his seat over; rui's stats card counted the game, while
    # the chart under it named only ana, pedro and dani, with no line highlighted.
    import bot.features.community.cog as cog_module

    drawn: list[tuple[tuple[str, ...], int | None]] = []
    draw = cog_module.score_chart_png

    def spy(players: Any, *args: Any, **kwargs: Any) -> bytes:
        drawn.append((tuple(players), kwargs.get("highlight")))
        return draw(players, *args, **kwargs)

    monkeypatch.setattr(cog_module, "score_chart_png", spy)
    async with server(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        await sim.service.set_seat_taking(info.id, ann.id, True)
        rng = random.Random(4)
        await sim.play(info.id, rng, until=lambda i: i.table is not None and i.table.round >= 2)
        seat = next(s.seat for s in info.seats if s.user_id == bob.id)
        await sim.click_hand(bob, "Leave")
        await sim.click_hand(bob, "Yes, leave")
        table = sim.table_of(await sim.service.get_game(info.id))
        [take] = [b for b in buttons(table) if verb_of(b) == "takeseat"]
        choice = await cy.click(table, custom_id=take["custom_id"])
        assert choice.response is not None
        [bobs] = [b for b in buttons(choice.response) if "bob" in str(b.get("label"))]
        await cy.click(choice.response, custom_id=bobs["custom_id"])
        done = await sim.play(info.id, rng)
        assert done.status is GameStatus.FINISHED
        assert done.seats[seat].user_id == cy.id
        result = await ann.slash(sim.channel, "wizard stats", member=bob)
        assert result.response is not None and result.response.attachments
        [(players, highlight)] = drawn
        assert highlight == seat
        assert players[seat] == "bob → cy", players


def test_the_history_list_writes_every_place_as_the_final_standings_do() -> None:
    # QA (pt): "🥉ana -130 · maria -410": no space after the medal, and no place at all for
    # the fourth, where the final standings read "4º **maria**".
    from bot.features.community.render import history_embed
    from bot.i18n import texts
    from wizard.service.events import Standing

    game = _summary(
        3,
        Standing(0, "ana", 1, 160, 1, 9, 15),
        Standing(1, "beto", 2, 20, 2, 6, 15),
        Standing(2, "caio", 3, -130, 3, 6, 15),
        Standing(3, "maria", 4, -410, 4, 3, 15),
    )
    [line] = (history_embed(texts("pt"), [game], older=False).description or "").splitlines()
    assert line.endswith("🥇 ana 160 · 🥈 beto 20 · 🥉 caio −130 · 4º maria −410"), line


def test_the_history_list_says_what_a_robot_after_a_persons_name_means() -> None:
    # QA: the history read "🥇 Karla 🤖 190" of a person who left in round 3, and did not say
    # that a computer finished her seat, as the final standings and the picked game do.
    from bot.features.community.render import history_embed
    from bot.features.community.words import HISTORY_LEFT_NOTE
    from bot.i18n import texts
    from wizard.service.events import Standing

    left = _summary(
        4,
        Standing(0, "Karla", 1, 190, 1, 9, 15, forfeited=True),
        Standing(1, "Merlin", None, 20, 2, 6, 15),
    )
    played = _summary(
        5, Standing(0, "ana", 1, 60, 1, 9, 15), Standing(1, "Merlin", None, 20, 2, 6, 15)
    )
    for language in ("en", "de", "it", "es", "pt", "ca"):
        t = texts(language)
        footer = history_embed(t, [played, left], older=False).footer.text or ""
        note = t(HISTORY_LEFT_NOTE)
        assert note in footer.splitlines(), (language, footer)
        assert note.startswith("🤖 ")
        assert language == "en" or note != HISTORY_LEFT_NOTE, language  # translated
        # A computer's own seat needs no note: its name says it.
        alone = history_embed(t, [played], older=False).footer.text or ""
        assert note not in alone, (language, alone)


def _summary(game_id: int, *standings: Any) -> Any:
    """A finished classic game of 15 rounds as the history lists it."""
    from wizard.options import Options
    from wizard.service.types import GameSummary

    return GameSummary(
        id=game_id,
        guild_id=1,
        channel_id=2,
        options=Options(),
        rounds=15,
        started_at=None,
        finished_at=0.0,
        standings=standings,
    )


def test_a_share_half_way_between_two_percentages_rounds_up() -> None:
    # QA (pt): 5 bids of 40 made exactly read "12%" (Babel rounds half to even).
    from bot.features.community.words import percent
    from bot.i18n import texts

    assert percent(texts("en"), 5 / 40) == "13%"
    assert percent(texts("de"), 5 / 40) == "13\xa0%"
    assert percent(texts("en"), 1 / 3) == "33%"
    assert percent(texts("en"), 29 / 200) == "15%"
