"""Round summaries and final standings: their embeds, the text scorepad and
the "Play again" button."""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from collections.abc import Collection, Sequence
from functools import reduce
from typing import Any, Final

import discord

from bot.cogs.look import public_look
from bot.cogs.messages import GameMessages, RoundEnd, Surface
from bot.features.table import won_trick_text
from bot.i18n import COLOUR, N_, Texts, _bold, _escape, card_text, display_names, suit_text
from bot.images.canvas import scorepad_labels, scorepad_names
from bot.images.scorepad import scorepad_png
from bot.ui.buttons import CustomId, Verb, one_button_view
from wizard.cards import Theme
from wizard.service import (
    GameInfo,
    GameOver,
    ServiceError,
)
from wizard.service.events import Standing
from wizard.view import RoundSummary, SeatCard, TableView

log = logging.getLogger(__name__)

# Translators: the button of the final standings: a new lobby like the finished game's.
PLAY_AGAIN_LABEL: Final = N_("Play again")


def round_summary_embed(
    summary: RoundSummary,
    players: Sequence[str],
    *,
    num_rounds: int | None = None,
    theme: Theme = Theme.CLASSIC,
    t: Texts,
    single_suit: bool = False,
) -> discord.Embed:
    """After a round: each player's bid, tricks and points, and the new totals (in
    ``single_suit``, who led first instead of the dealer: nobody deals, R7.7)."""
    names = _escape(players)
    if num_rounds:
        title = t("Round {round} of {rounds} scored", round=summary.round, rounds=num_rounds)
    else:
        title = t("Round {round} scored", round=summary.round)
    embed = discord.Embed(title=title, colour=COLOUR)
    if summary.trump is None:
        # Translators: {trump} of “Dealer {dealer} · {turned} · {trump}” (a round summary).
        trump = t("no trump")
    else:
        # Translators: {trump} of “Dealer {dealer} · {turned} · {trump}” (a round summary).
        trump = t("trump {suit}", suit=suit_text(summary.trump, theme, t=t))
    if summary.turned is None:
        # Translators: {turned} of “Dealer {dealer} · {turned} · {trump}” (a round summary).
        turned = t("nothing turned")
    else:
        # Translators: {turned} of “Dealer {dealer} · {turned} · {trump}” (a round summary).
        turned = t("turned {card}", card=card_text(summary.turned, theme, t=t))
    if single_suit:
        leader = names[(summary.dealer + 1) % len(names)]
        # Translators: the first line of a round's summary in single suit (nobody deals):
        # who led the round's first trick (the turn to lead first moves left each round).
        first = t("{player} led first · no trump", player=_bold(leader))
    else:
        # Translators: {turned} is “turned {card}” or “nothing turned”; {trump} is
        # “trump {suit}” or “no trump”.
        first = t(
            "Dealer {dealer} · {turned} · {trump}",
            dealer=_bold(names[summary.dealer]),
            turned=turned,
            trump=trump,
        )
    lines = [first, ""]
    for seat, name in enumerate(names):
        bid, won, points = summary.bids[seat], summary.tricks[seat], summary.points[seat]
        mark = "✅" if bid == won else "❌"
        line = t(
            # Translators: {points} is signed (+30, −10); {total} is the new score, in bold.
            "{player}: bid {bid}, won {won} → {points} (total {total})",
            player=_bold(name),
            bid=bid,
            won=won,
            points=t.signed(points),
            total=_bold(t.count(summary.totals[seat])),
        )
        lines.append(f"{mark} {line}")
    embed.description = "\n".join(lines)
    return embed


def scorepad_text(history: Sequence[RoundSummary], players: Sequence[str], *, t: Texts) -> str:
    """The scorepad so far as narrow lines, one per player, best first: place, name, total
    and, round by round, ✅ (bid made) or ❌ (missed).

    No table: a table's width grows with the players and their names (6 names of 32
    characters are wider than Discord shows a code block on a phone), while these lines wrap
    like any text. The bids and tricks of every round are in that round's summary and on the
    final scorepad picture.
    """
    if not history:
        return t("(no round scored yet)")
    names = _escape(players)
    totals = history[-1].totals
    lines = []
    for place, seat in standings(totals):
        total = _bold(t.count(totals[seat]))
        marks = bid_marks(history, seat)
        lines.append(f"{place_mark(place, t=t)} {_bold(names[seat])} · {total} · {marks}")
    return "\n".join(lines)


def bid_marks(history: Sequence[RoundSummary], seat: int) -> str:
    """A seat's rounds at a glance: ✅ where its bid was made, ❌ where it was missed, in
    groups of five (demo QA: a run of 20 wrapped whole onto a line of its own; a line now
    breaks between groups, and a round is found by counting fives)."""
    marks = "".join("✅" if r.bids[seat] == r.tricks[seat] else "❌" for r in history)
    return " ".join(marks[i : i + 5] for i in range(0, len(marks), 5))


def standings(scores: Sequence[int]) -> list[tuple[int, int]]:
    """``(place, seat)`` pairs, best first; tied scores share a place (1, 1, 3)."""
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    out: list[tuple[int, int]] = []
    for index, seat in enumerate(order):
        tied = index > 0 and scores[seat] == scores[order[index - 1]]
        out.append((out[-1][0] if tied else index + 1, seat))
    return out


MEDALS: Final = {1: "🥇", 2: "🥈", 3: "🥉"}


def place_mark(place: int, *, t: Texts) -> str:
    """A place in a list of standings: a medal for the first three, below them the place
    as the language writes it (4th, 4., 4º): a game has six places at most."""
    # Translators: a place below the medals in a game's standings: 4th, 5th or 6th (never
    # more). Write it as your language writes an ordinal number (4., 4º, 4a), as in
    # “#{place} of {seats}” of /wizard stats.
    return MEDALS.get(place) or t("{place}th", place=place)


def robot_marked(names: Sequence[str], seats: Collection[int]) -> list[str]:
    """``names`` (by seat) with 🤖 after those of ``seats``."""
    return [f"{name} 🤖" if seat in seats else name for seat, name in enumerate(names)]


def computer_seats(info: GameInfo) -> set[int]:
    """The seats a computer plays now: a computer player's, or a person's it took over."""
    return {s.seat for s in info.seats if s.computer_controlled}


def computer_marked(names: Sequence[str], info: GameInfo) -> list[str]:
    """``names`` (by seat) with 🤖 after each seat a computer plays now (a computer's, or a
    person's it took over), as the table marks it: at the end of a game, such a seat's place
    and points are the computer's."""
    return robot_marked(names, computer_seats(info))


def in_round(rounds: Sequence[Collection[int]], number: int) -> Collection[int]:
    """The seats of round ``number`` in ``rounds`` (:attr:`GameInfo.computer_moved` or
    :attr:`GameInfo.person_moved`, which end with the last round that has any)."""
    return rounds[number - 1] if number <= len(rounds) else ()


def and_list(items: Sequence[str], *, t: Texts) -> str:
    """``A``, ``A and B``, ``A and B and C``."""

    def pair(first: str, second: str) -> str:
        # Translators: names joined: “Ann and Bob”; {first} may itself be “Ann and Bob”.
        return t("{first} and {second}", first=first, second=second)

    return reduce(pair, items)


def game_over_line(game: int, winners: Sequence[str], forfeited: Sequence[str], *, t: Texts) -> str:
    """The line above the final standings: the ``winners`` who played to the end are
    congratulated; a first place a computer finished for someone who left (``forfeited``,
    their names) counts as lost for them, so it is said to be the computer's."""
    if not winners:
        line = t("**Game {game} is over.**", game=game)
    else:
        # Translators: {names} are the winners, joined by “and”.
        line = t(
            "**Game {game} is over.** Congratulations, {names}!",
            game=game,
            names=and_list(winners, t=t),
        )
    if forfeited:
        names = and_list(forfeited, t=t)
        if winners:
            # Translators: after “Congratulations, Ann!”: Bob left, and the computer that
            # played his seat to the end tied for first; the game counts as lost for him.
            computers = t.plural(
                "First place also went to the computer playing for {names}.",
                "First place also went to the computers playing for {names}.",
                len(forfeited),
                names=names,
            )
        else:
            # Translators: Bob left, and the computer that played his seat to the end came
            # first; the game counts as lost for him, so he is not congratulated.
            computers = t.plural(
                "First place went to the computer playing for {names}.",
                "First place went to the computers playing for {names}.",
                len(forfeited),
                names=names,
            )
        line = f"{line} {computers}"
    return f"🏁 {line}"


def final_embed(
    table: TableView,
    *,
    names: Sequence[str] | None = None,
    scorepad_image: str | None = None,
    t: Texts,
    hinted: Collection[int] = (),
) -> discord.Embed:
    """The final standings: places, scores, winners (R6.3: tied leaders share the win), and
    the scorepad: the picture at ``scorepad_image`` (e.g. ``attachment://…``), or without
    it each player's rounds as made/missed marks (:func:`bid_marks`). The seats in
    ``hinted`` asked for hints: they are marked 💡 and the game is said not to be rated."""
    shown = display_names(table, names)
    ranking = standings(table.scores)
    best = table.scores[ranking[0][1]] if ranking else 0
    winners = [shown[s] for _, s in ranking if table.scores[s] == best]
    lines = [
        # Translators: a line of the final standings; {place} is a medal (🥇) or “4.”.
        t.plural(
            "{place} {player}: {n} point",
            "{place} {player}: {n} points",
            table.scores[seat],
            place=place_mark(place, t=t),
            player=_bold(shown[seat]),
        )
        for place, seat in ranking
    ]
    if hinted:
        lines = [
            f"{line} 💡" if seat in hinted else line
            for line, (_, seat) in zip(lines, ranking, strict=True)
        ]
        # Translators: under the final standings of a game in which hints were asked for.
        lines += ["", "💡 " + t("hints used — not rated")]
    title = t.plural(
        "🏆 Winner: {players}",
        "🏆 Winners: {players}",
        len(winners),
        players=and_list(winners, t=t) if winners else "",
    )
    embed = discord.Embed(title=title, colour=COLOUR)
    pad = []
    if table.history:  # the text fallback of the picture: each player's rounds, made or not
        # Translators: the heading of the final standings' rounds when no picture is shown.
        pad = ["", t("**Rounds** (✅ bid made, ❌ missed)")]
        pad += [f"{_bold(shown[s])} {bid_marks(table.history, s)}" for _, s in ranking]
    if scorepad_image is not None:
        embed.set_image(url=scorepad_image)
        pad = []
    embed.description = "\n".join([*lines, *pad])
    return embed


def round_end_embed(
    summary: RoundSummary,
    players: Sequence[str],
    *,
    moved: Collection[int],
    computers: Collection[int],
    people: Collection[int] = (),
    num_rounds: int | None = None,
    last_trick: Sequence[SeatCard] = (),
    last_winner: int | None = None,
    history: Sequence[RoundSummary] = (),
    theme: Theme = Theme.CLASSIC,
    t: Texts,
    magic_twos: bool = False,
    single_suit: bool = False,
) -> discord.Embed:
    """A scored round as posted in the channel: the summary, the round's final trick (it is
    no longer on the table) and the standings so far (:func:`scorepad_text`): lines that
    wrap, so that 6 players with 32-character names fit a phone as well as a desktop.

    A seat is marked 🤖 for the round when a computer played for it (``moved``) and plays it
    now (``computers``: a computer player's seat, or a person's it took over), as the table
    marks it. A line names the seats of people a computer played part of the round for:
    their time ran out, they took their seat back, or took over a computer's (player QA:
    "ann 🤖", whose time had run out once, read as a computer player). A person who played
    the round to its end and then left is not marked (QA); one who moved in the round
    (``people``: their seats) and left before its end is, with a line that says so (QA:
    "Mateo 🤖: bid 1" read as if a computer had bid). The final trick names the seats
    as the table's tricks do, unmarked (QA: "bob 🤖 🟨Y9" read as if a computer had played
    the card bob played)."""
    marked = robot_marked(players, set(moved) & set(computers))
    embed = round_summary_embed(
        summary, marked, num_rounds=num_rounds, theme=theme, t=t, single_suit=single_suit
    )
    names = _escape(players)

    def bold(seats: Collection[int]) -> str:
        return and_list([_bold(names[seat]) for seat in sorted(seats)], t=t)

    helped = set(moved) - set(computers)
    left = set(moved) & set(computers) & set(people)
    notes = []
    if helped:
        notes.append(
            # Translators: {players} are the people (“**ann** and **bob**”) who hold the seats
            # now: a computer moved for them as their time ran out, or played the seat before
            # they took it back, or before they took it over from a computer player.
            t.plural(
                "A computer played part of this round at the seat of {players}.",
                "A computer played part of this round at the seats of {players}.",
                len(helped),
                players=bold(helped),
            )
        )
    if left:
        notes.append(
            # Translators: {players} (“**ann** and **bob**”) moved in this round, then left the
            # game; a computer holds their seats now and played the rest of the round.
            t.plural(
                "{players} left the game during this round; a computer finished it at their seat.",
                "{players} left the game during this round; a computer finished it at their seats.",
                len(left),
                players=bold(left),
            )
        )
    if notes:
        embed.description = "\n".join([embed.description or "", *(f"🤖 {n}" for n in notes)])
    if last_trick:
        embed.add_field(
            name=t("Final trick"),
            value=won_trick_text(
                last_trick,
                names,
                last_winner,
                theme,
                t=t,
                magic_twos=magic_twos,
                single_suit=single_suit,
                trump=summary.trump,
            ),
            inline=False,
        )
    if history:
        # In the description (4096 characters), not a field (1024): 6 long names must fit.
        # Translators: the heading of the standings under a round summary.
        heading = t("**Standings** (✅ bid made, ❌ missed, round by round)")
        embed.description = (
            f"{embed.description}\n\n{heading}\n{scorepad_text(history, marked, t=t)}"
        )
    return embed


def picture_names(players: Sequence[str], standings: Sequence[Standing], *, t: Texts) -> list[str]:
    """The names on a finished game's pictures (:func:`scorepad_names`): computer players',
    and those of people who left, whose seats a computer played to the end, marked."""
    return scorepad_names(
        players,
        {s.seat for s in standings if s.user_id is None},
        handed_over={s.seat for s in standings if s.forfeited and s.user_id is not None},
        t=t,
    )


async def _scorepad_picture(
    game_id: int, table: TableView, standings: Sequence[Standing], *, t: Texts, theme: Theme
) -> bytes | None:
    """The final scorepad as a PNG, drawn off the event loop (a tenth of a second of work
    that would hold up every other game's clicks); ``None`` if it could not be drawn (the
    standings then show the scorepad as text)."""
    if not table.history:
        return None
    draw = functools.partial(
        scorepad_png,
        picture_names(table.players, standings, t=t),
        table.history,
        theme=theme,
        title=t("Game {game} · scorepad", game=game_id),
        labels=scorepad_labels(t),
    )
    try:
        return await asyncio.to_thread(draw)
    except Exception:
        log.exception("game %s: the scorepad picture could not be drawn", game_id)
        return None


class SummaryMessages(GameMessages):
    """Publishing round summaries and the final standings (with the record and scorepad)."""

    async def _round_end(self, surface: Surface, info: GameInfo, end: RoundEnd) -> bool:
        """The table becomes the round's summary; the next table is posted below it, so that
        the live table stays at the bottom of the channel. ``False`` when Discord refused:
        the old table stays the table, to become the summary on the next try."""
        table = info.table
        assert table is not None
        number = end.scored.round
        if number > len(table.history) or self._in_gone_channel(surface):
            return True  # nothing to show, or nowhere to show it
        trick = end.final_trick
        t, theme = await public_look(self.service, info.guild_id)
        embed = round_end_embed(
            table.history[number - 1],
            table.players,
            moved=in_round(info.computer_moved, number),
            people=in_round(info.person_moved, number),
            computers=computer_seats(info),
            num_rounds=table.num_rounds,
            last_trick=trick.cards if trick is not None else (),
            last_winner=trick.winner if trick is not None else None,
            history=table.history[:number],
            t=t,
            theme=theme,
            magic_twos=table.options.magic_twos,
            single_suit=table.options.single_suit,
        )
        self.stats.summaries += 1
        if surface.table_id is not None:
            edited = await self._edit(surface, surface.table_id, embed=embed, view=None)
            if edited is False:
                return False
            # Done, or the table was deleted (then the summary is posted instead).
            surface.table_id = None
            surface.shown = None
            if edited:  # one write: a new process neither shows it again nor loses it
                await self._remember(surface, table_message_id=None, announced=number)
                return True
            await self._remember(surface, table_message_id=None)
        if await self._post(surface, embed=embed) is None:
            return False
        await self._remember(surface, announced=number)
        return True

    async def _final(self, surface: Surface, info: GameInfo, over: GameOver) -> bool:
        """Post the final standings with the game record and the scorepad picture attached
        (without them where Discord refuses files: the scorepad then as text, the record in
        ``/wizard history``); True once posted."""
        table = info.table
        assert table is not None
        t, theme = await public_look(self.service, info.guild_id)
        files: list[discord.File] = []
        image = None
        footer = t("Wizard · game {game}", game=info.id)
        if not surface.without_files:
            try:
                record = await self.service.game_record(info.id)
            except ServiceError as error:
                log.warning("game %s: no record to attach: %s", info.id, error.message)
            else:
                name = f"wizard-game-{info.id}.json"
                files.append(discord.File(io.BytesIO(record.encode()), filename=name))
                footer = t(
                    "Wizard · game {game} · the record of the game is attached", game=info.id
                )
            picture = await _scorepad_picture(info.id, table, over.standings, t=t, theme=theme)
            if picture is not None:
                name = f"wizard-scorepad-{info.id}.png"
                files.append(discord.File(io.BytesIO(picture), filename=name))
                image = f"attachment://{name}"
        hinted = {s.seat for s in over.standings if s.hints_used} | set(info.hints_used)
        marked = computer_marked(table.players, info)
        embed = final_embed(table, names=marked, scorepad_image=image, t=t, hinted=hinted)
        won = [s for s in over.standings if s.seat in over.winners]
        content = game_over_line(
            info.id,
            [discord.utils.escape_markdown(marked[s.seat]) for s in won if not s.forfeited],
            [discord.utils.escape_markdown(table.players[s.seat]) for s in won if s.forfeited],
            t=t,
        )
        embed.set_footer(text=footer)
        extra: dict[str, Any] = {"files": files} if files else {}
        again = one_button_view(
            CustomId(info.id, Verb.AGAIN, "", info.version), t(PLAY_AGAIN_LABEL), "🔁"
        )
        message = await self._post(surface, content=content, embed=embed, view=again, **extra)
        if message is None and files and surface.without_files:
            return await self._final(surface, info, over)  # at once, without the files
        if message is not None or self._in_gone_channel(surface):
            # The channel is owed nothing more (or is gone: nowhere to show it).
            await self._remember(surface, announced=None)
        return message is not None
