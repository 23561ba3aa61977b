"""Round summaries and final standings: their embeds, the text scorepad and
the "Play again" button."""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from typing import Final

import discord

from bot.features.table import won_trick_text
from bot.i18n import N_, Texts
from bot.ui.buttons import button, detached_view
from bot.ui.custom_ids import CustomId, Verb
from bot.ui.layout import GREEN
from bot.vocabulary import COLOUR, _bold, _escape, card_text, display_names, suit_text
from wizard.cards import Theme
from wizard.view import RoundSummary, SeatCard, TableView

# Translators: the button of the final standings: a new lobby like the finished game's.
PLAY_AGAIN_LABEL: Final = N_("Play again")


def round_summary_embed(
    summary: RoundSummary,
    players: Sequence[str],
    *,
    num_rounds: int | None = None,
    theme: Theme = Theme.CLASSIC,
    t: Texts,
) -> discord.Embed:
    """After a round: each player's bid, tricks and points, and the new totals."""
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
    lines = [
        # Translators: {turned} is “turned {card}” or “nothing turned”; {trump} is
        # “trump {suit}” or “no trump”.
        t(
            "Dealer {dealer} · {turned} · {trump}",
            dealer=_bold(names[summary.dealer]),
            turned=turned,
            trump=trump,
        ),
        "",
    ]
    for seat, name in enumerate(names):
        bid, won, points = summary.bids[seat], summary.tricks[seat], summary.points[seat]
        mark = "✅" if bid == won else "❌"
        line = t(
            # Translators: {points} is signed (+30, −10); {total} is the new score, in bold.
            "{player}: bid {bid}, won {won} → {points} (total {total})",
            player=_bold(name),
            bid=bid,
            won=won,
            points=f"{points:+d}",
            total=_bold(summary.totals[seat]),
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
        medal = MEDALS.get(place) or t("{place}.", place=place)
        marks = bid_marks(history, seat)
        lines.append(f"{medal} {_bold(names[seat])} · {_bold(totals[seat])} · {marks}")
    return "\n".join(lines)


def bid_marks(history: Sequence[RoundSummary], seat: int) -> str:
    """A seat's rounds at a glance: ✅ where its bid was made, ❌ where it was missed."""
    return "".join("✅" if r.bids[seat] == r.tricks[seat] else "❌" for r in history)


def standings(scores: Sequence[int]) -> list[tuple[int, int]]:
    """``(place, seat)`` pairs, best first; tied scores share a place (1, 1, 3)."""
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    out: list[tuple[int, int]] = []
    for index, seat in enumerate(order):
        tied = index > 0 and scores[seat] == scores[order[index - 1]]
        out.append((out[-1][0] if tied else index + 1, seat))
    return out


MEDALS: Final = {1: "🥇", 2: "🥈", 3: "🥉"}


def and_list(items: Sequence[str], *, t: Texts) -> str:
    """``A``, ``A and B``, ``A and B and C``."""

    def pair(first: str, second: str) -> str:
        # Translators: names joined: “Ann and Bob”; {first} may itself be “Ann and Bob”.
        return t("{first} and {second}", first=first, second=second)

    return reduce(pair, items)


def final_embed(
    table: TableView,
    *,
    names: Sequence[str] | None = None,
    scorepad_image: str | None = None,
    t: Texts,
) -> discord.Embed:
    """The final standings: places, scores, winners (R6.3: tied leaders share the win), and
    the scorepad: the picture at ``scorepad_image`` (e.g. ``attachment://…``), or without
    it each player's rounds as made/missed marks (:func:`bid_marks`)."""
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
            # Translators: a place below the medals in the final standings: 4., 5., 6.
            place=MEDALS.get(place) or t("{place}.", place=place),
            player=_bold(shown[seat]),
        )
        for place, seat in ranking
    ]
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
    num_rounds: int | None = None,
    last_trick: Sequence[SeatCard] = (),
    last_winner: int | None = None,
    history: Sequence[RoundSummary] = (),
    theme: Theme = Theme.CLASSIC,
    t: Texts,
) -> discord.Embed:
    """A scored round as posted in the channel: the summary, the round's final trick (it is
    no longer on the table) and the standings so far (:func:`scorepad_text`): lines that
    wrap, so that 6 players with 32-character names fit a phone as well as a desktop."""
    embed = round_summary_embed(summary, players, num_rounds=num_rounds, theme=theme, t=t)
    names = _escape(players)
    if last_trick:
        embed.add_field(
            name=t("Final trick"),
            value=won_trick_text(last_trick, names, last_winner, theme, t=t),
            inline=False,
        )
    if history:
        # In the description (4096 characters), not a field (1024): 6 long names must fit.
        # Translators: the heading of the standings under a round summary.
        heading = t("**Standings** (✅ bid made, ❌ missed, round by round)")
        embed.description = (
            f"{embed.description}\n\n{heading}\n{scorepad_text(history, players, t=t)}"
        )
    return embed


def play_again_view(game: int, version: int, *, t: Texts) -> discord.ui.View:
    """The final standings' one button: play again (a new lobby like game ``game``'s)."""
    view = detached_view()
    view.add_item(
        button(
            CustomId(game, Verb.AGAIN, "", version),
            label=t(PLAY_AGAIN_LABEL),
            emoji="🔁",
            style=GREEN,
        )
    )
    return view
