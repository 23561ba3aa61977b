"""The community's embeds: a leaderboard page, a player's statistics, the history
of games and one finished game."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import discord

from bot.features.community.words import (
    FORFEIT_NOTE,
    HISTORY_LEFT_NOTE,
    ORDER_LABELS,
    RATING_NOTE,
    board_value,
    line_name,
    number,
    percent,
    rank_text,
    rating_text,
)
from bot.features.summaries import MEDALS, place_mark
from bot.i18n import EMPTY, Texts, level_name, member_name, variants_text
from wizard.cards import WIZARD
from wizard.errors import RecordError
from wizard.record import GameRecord, load
from wizard.service import (
    GameSummary,
    LeaderboardOrder,
    SeatHolder,
)
from wizard.service.boards import Board, FinishedGame, PlayerCard, shown_average
from wizard.service.events import Standing


def computer_mark(standing: Standing) -> str:
    """The mark after the name of a computer's seat, or of a seat a computer played to the
    end (its person left): the place and points are the computer's, as the final standings
    say."""
    return " 🤖" if standing.forfeited or standing.user_id is None else ""


def board_embed(t: Texts, board: Board, whose: str | None) -> discord.Embed:
    """A leaderboard page; ``whose`` names the reader on a public page (``None``: "Your
    rank", on the reader's private copy)."""
    title = t("🏆 Leaderboard · {order}", order=t(ORDER_LABELS[board.order]))
    lines = []
    for line in board.lines:
        # No rank for a line that has nothing to show for it (no win, on the wins board).
        if board.order is LeaderboardOrder.WINS and line.wins == 0:
            medal = f"`{EMPTY}`"
        else:
            medal = MEDALS.get(line.rank) or f"`#{line.rank}`"
        lines.append(
            f"{medal} {line_name(t, line)} — {board_value(t, board.order, line, board.min_games)}"
        )
    if not lines:
        if board.min_games > 1:
            lines.append(
                t.plural(
                    "Nobody has finished {n} game on this server yet: play and come back!",
                    "Nobody has finished {n} games on this server yet: play and come back!",
                    board.min_games,
                )
            )
        else:
            lines.append(t("Nobody has finished a game on this server yet: be the first!"))
    embed = discord.Embed(title=title, description="\n".join(lines), colour=0xF0B232)
    if board.you is not None:
        label = t("Your rank")
        if whose is not None:
            # The name their line shows (a long one shortened as at the table), if any.
            own = board.you.line
            label = t("{name}'s rank", name=member_name(whose if own is None else own.name))
        you = board.you
        if board.order is LeaderboardOrder.WINS and you.line is not None and you.line.wins == 0:
            # Translators: a player's rank on the wins board, before their first win.
            rank = t("no win yet")
        else:
            rank = rank_text(t, you)
        embed.add_field(name=label, value=rank, inline=False)
    notes = []
    if board.min_games > 1:
        notes.append(
            t.plural(
                "Ranked after {n} game, so that one lucky game does not top the board.",
                "Ranked after {n} games, so that one lucky game does not top the board.",
                board.min_games,
            )
        )
    if board.order is LeaderboardOrder.RATING:
        notes.append(t(RATING_NOTE))
    if board.computers:
        notes.append(
            t(
                "🤖 Computer players are shown, one line per level over all its seats; they "
                "keep the starting rating."
            )
        )
    if board.pages > 1:
        notes.append(t("Page {page} of {pages}", page=board.page, pages=board.pages))
    if notes:  # none: a board of one page with nothing to explain
        embed.set_footer(text="\n".join(notes))
    return embed


def stats_embed(t: Texts, card: PlayerCard, name: str) -> discord.Embed:
    """``/wizard stats``: everything about one player on one server."""
    embed = discord.Embed(
        title=t("📊 {name} at Wizard", name=member_name(name)),
        colour=0x57B4E9,
    )
    embed.add_field(
        name=t("Games"),
        value=t.plural("{n} played", "{n} played", card.games)
        + " · "
        + t.plural("{n} won", "{n} won", card.wins)
        + f" ({percent(t, card.win_rate)})",
        inline=False,
    )
    best = EMPTY if card.best_score is None else t.count(card.best_score)
    embed.add_field(
        name=t("Scores"),
        value=t(
            "average {average} · best {best}",
            average=number(t, shown_average(card.total_score, card.games)),
            best=best,
        ),
        inline=False,
    )
    embed.add_field(
        name=t("Bids"),
        value=t(
            # Translators: rounds the player bid themselves: not those a computer bid for
            # them (their time ran out, or they had left), nor those bid by someone whose
            # seat they took over.
            "{accuracy} made exactly ({exact} of {rounds} rounds they bid themselves)",
            accuracy=percent(t, card.bid_accuracy),
            exact=t.count(card.exact_bids),
            rounds=t.count(card.bids),
        )
        if card.bids
        else EMPTY,  # only games a computer finished for them: none of the bids count
        inline=False,
    )
    rating = rating_text(t, card.rating, provisional=card.rank.needed > 0)
    embed.add_field(name=t("Rating"), value=f"{rating} · {rank_text(t, card.rank)}", inline=False)
    if card.favourite is not None:
        embed.add_field(
            name=t("Favourite options"),
            value=t(
                "{options} · {share} of games",
                options=variants_text(card.favourite.options, t=t),
                share=percent(t, card.favourite.share),
            ),
            inline=False,
        )
    if card.form:
        form = " · ".join(
            # Translators: in a player's recent form, a game a computer finished for them
            # (they left, were removed or timed out, and did not come back): counted as lost.
            "🏳️ " + t("not finished")
            if f.forfeited
            else (f"{MEDALS[f.place]} " if f.place in MEDALS else "")
            # Translators: a place in one game of a player's recent form: "#6 of 6" is the
            # sixth (last) place of six players. Write the place as an ordinal if you can.
            + t("#{place} of {seats}", place=f.place, seats=f.seats)
            for f in card.form
        )
        embed.add_field(name=t("Recent form (newest first)"), value=form, inline=False)
    notes = [t(RATING_NOTE)]
    if any(f.forfeited for f in card.form):
        notes.append(t(FORFEIT_NOTE))
    embed.set_footer(text="\n".join(notes))
    return embed


def history_embed(t: Texts, games: Sequence[GameSummary], older: bool) -> discord.Embed:
    """A page of the server's history, newest first."""
    lines = []
    for game in games:
        people = " · ".join(
            f"{place_mark(s.place, t=t)} {discord.utils.escape_markdown(s.name)}"
            f"{computer_mark(s)} {t.count(s.score)}"
            for s in game.standings
        )
        lines.append(
            t(
                "**Game {game}** · <t:{when}:R> · {people}",
                game=game.id,
                when=int(game.finished_at),
                people=people,
            )
        )
    if not lines:
        lines.append(
            t("No older games.") if older else t("No game has finished on this server yet.")
        )
    embed = discord.Embed(title=t("📜 Recent games"), description="\n".join(lines), colour=0x9B84EC)
    if games:
        notes = [t("Pick a game below for its scorepad and its record.")]
        if any(s.forfeited and s.user_id is not None for g in games for s in g.standings):
            notes.append(t(HISTORY_LEFT_NOTE))
        embed.set_footer(text="\n".join(notes))
    return embed


def round_starts(record: GameRecord) -> list[int]:
    """The index in the game's log of each round's first action (the log holds the players'
    actions only: a trump chosen after a turned Wizard, the bids, the plays)."""
    starts, count = [], 0
    for rnd in record.rounds:
        starts.append(count)
        chose = rnd.turned == WIZARD.code and rnd.trump is not None
        count += int(chose) + sum(b is not None for b in rnd.bids) + len(rnd.plays)
    return starts


def holder_name(holder: SeatHolder, *, t: Texts, after: SeatHolder | None = None) -> str:
    """A seat's holder: a person's name, or a computer's with its level; a computer that
    took the seat ``after`` a person (and so plays under their name) as a computer alone
    (QA: "bernd → bernd (computer, Normal) from round 3" read as if nothing changed)."""
    name = discord.utils.escape_markdown(holder.name)
    if holder.is_computer:
        level = level_name(holder.level, t=t) if holder.level else ""
        if after is not None and not after.is_computer and after.name == holder.name:
            # Translators: a computer that played a person's seat from some round on, in a
            # finished game's history ("bernd → a computer (Normal) from round 3").
            return t("a computer ({level})", level=level) if level else t("a computer")
        # Translators: a computer that played a seat, in a finished game's history.
        return t("{name} (computer, {level})", name=name, level=level) if level else name
    return name


def seat_changes(t: Texts, game: FinishedGame) -> list[str]:
    """One line per seat that changed hands: "Merlin (computer, Normal) → Sam from round 3"."""
    try:
        starts = round_starts(load(game.record))
    except RecordError:
        starts = []
    lines = []
    for seat in sorted({h.seat for h in game.holders}):
        holders = [h for h in game.holders if h.seat == seat]
        if len(holders) < 2:
            continue
        parts = [holder_name(holders[0], t=t)]
        for before, holder in itertools.pairwise(holders):
            number = sum(1 for start in starts if start <= holder.from_action) or 1
            player = holder_name(holder, t=t, after=before)
            # Translators: who played a seat from a round on, in a finished game's history.
            parts.append(t("{player} from round {round}", player=player, round=number))
        lines.append(" → ".join(parts))
    return lines


def game_embed(t: Texts, game: FinishedGame, picture: str) -> discord.Embed:
    """A finished game picked from the history: standings (seats that used hints and seats
    a computer finished marked), who played the seats that changed hands, options, the
    scorepad picture."""
    lines = [
        f"{place_mark(s.place, t=t)} **{discord.utils.escape_markdown(s.name)}**"
        f"{computer_mark(s)}: "
        + t.plural("{n} point", "{n} points", s.score)
        + (" 💡" if s.hints_used or s.seat in game.hints_used else "")
        for s in game.standings
    ]
    if game.hints_used or any(s.hints_used for s in game.standings):
        lines.append("💡 " + t("hints used — not rated"))
    changes = seat_changes(t, game)
    if changes:
        lines += ["", "🔁 " + t("Seats that changed hands:"), *changes]
    lines.append("")
    lines.append(t("Options: {options}", options=variants_text(game.options, t=t)))
    if game.finished_at is not None:
        lines.append(t("Finished <t:{when}:f>", when=int(game.finished_at)))
    lines.append(
        "📎 "
        + t(
            # Translators: {file} is the attached file's name, wizard-game-12.json.
            "{file}: every deal, bid and card of this game, as a game record.",
            file=record_filename(game.id),
        )
    )
    embed = discord.Embed(
        title=t("Game {game} · scorepad", game=game.id),
        description="\n".join(lines),
        colour=0x9B84EC,
    )
    embed.set_image(url=f"attachment://{picture}")
    return embed


def record_filename(game_id: int) -> str:
    """The name of a game's record file (the same as on the final standings)."""
    return f"wizard-game-{game_id}.json"
