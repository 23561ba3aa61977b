"""A game's scorepad as a picture: bids, tricks and points of every round."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bot.images.canvas import (
    GOLD,
    GOLD_TINT,
    GRID,
    INK,
    MADE,
    MARKERS,
    MISSED,
    MUTED,
    PLAYER_COLOURS,
    STRIPE,
    TEXT,
    WIDTH,
    Box,
    ScorepadLabels,
    _Canvas,
    _drawable,
    _drawable_labels,
    _names,
    check_history,
    distinct_names,
    drawable_text,
    mix,
    score_text,
)
from wizard.cards import Theme
from wizard.view import RoundSummary


@dataclass(frozen=True, slots=True)
class ScorepadLayout:
    """Where the scorepad draws what, in pixels of the picture."""

    players: int
    rounds: int
    width: int
    height: int
    margin: int
    title_height: int
    header_top: int
    header_height: int
    sub_height: int
    row_height: int
    totals_height: int
    round_width: int
    trump_width: int
    player_width: float
    legend_height: int = 0
    """The key of full names under the totals (when a header had to shorten one)."""

    @property
    def rows_top(self) -> int:
        """Top of the first round's row."""
        return self.header_top + self.header_height + self.sub_height

    @property
    def totals_top(self) -> int:
        """Top of the totals row."""
        return self.rows_top + self.rounds * self.row_height

    def column(self, seat: int) -> tuple[int, int]:
        """Left and right of a player's two columns."""
        left = self.margin + self.round_width + self.trump_width
        return round(left + seat * self.player_width), round(left + (seat + 1) * self.player_width)

    def name_box(self, seat: int) -> Box:
        """A player's name in the header."""
        left, right = self.column(seat)
        return left, self.header_top, right, self.header_top + self.header_height

    def cell(self, row: int, seat: int, part: str) -> Box:
        """The ``"bid"`` (bid/won) or ``"score"`` (running total) cell of round row ``row``
        (0 for round 1)."""
        left, right = self.column(seat)
        middle = (left + right) // 2
        top = self.rows_top + row * self.row_height
        if part == "bid":
            return left, top, middle, top + self.row_height
        return middle, top, right, top + self.row_height

    def round_box(self, row: int) -> Box:
        """The round number of row ``row``."""
        top = self.rows_top + row * self.row_height
        return self.margin, top, self.margin + self.round_width, top + self.row_height

    def trump_box(self, row: int) -> Box:
        """The trump of row ``row``."""
        top = self.rows_top + row * self.row_height
        left = self.margin + self.round_width
        return left, top, left + self.trump_width, top + self.row_height

    def total_box(self, seat: int) -> Box:
        """A player's final total."""
        left, right = self.column(seat)
        return left, self.totals_top, right, self.totals_top + self.totals_height

    def legend_box(self) -> Box:
        """The key of full names (empty when every header shows its name whole)."""
        top = self.totals_top + self.totals_height
        return self.margin, top, self.width - self.margin, top + self.legend_height

    def footer_box(self) -> Box:
        """The line naming the winners."""
        top = self.totals_top + self.totals_height + self.legend_height
        return self.margin, top, self.width - self.margin, self.height - self.margin // 2


def scorepad_layout(players: int, rounds: int, legend_rows: int = 0) -> ScorepadLayout:
    """The scorepad's geometry for ``players`` seats and ``rounds`` scored rounds (and
    ``legend_rows`` lines of full names under the totals)."""
    if not 1 <= players <= len(PLAYER_COLOURS):
        raise ValueError(f"a scorepad has 1 to {len(PLAYER_COLOURS)} players, not {players}")
    margin, title_height, header_height, sub_height = 20, 52, 40, 24
    row_height, totals_height, footer_height = 28, 40, 44
    round_width, trump_width = 72, 64
    header_top = margin + title_height
    rows = rounds * row_height
    legend_height = legend_rows * LEGEND_ROW + (LEGEND_PAD if legend_rows else 0)
    height = header_top + header_height + sub_height + rows + totals_height + footer_height
    height += margin // 2 + legend_height
    player_width = (WIDTH - 2 * margin - round_width - trump_width) / players
    return ScorepadLayout(
        players=players,
        rounds=rounds,
        width=WIDTH,
        height=height,
        margin=margin,
        title_height=title_height,
        header_top=header_top,
        header_height=header_height,
        sub_height=sub_height,
        row_height=row_height,
        totals_height=totals_height,
        round_width=round_width,
        trump_width=trump_width,
        player_width=player_width,
        legend_height=legend_height,
    )


LEGEND_ROW: Final = 26


LEGEND_PAD: Final = 10


LEGEND_SIZE: Final = 15
"""The font size of the key of full names."""
HEADING_PAD: Final = 3
"""The least room, in pixels, between a column heading and its column's edge."""


def _legend_rows(c: _Canvas, names: Sequence[str], width: float) -> list[list[int]]:
    """The seats of each line of the key of full names, filled left to right."""
    rows: list[list[int]] = [[]]
    used = 0.0
    for seat, name in enumerate(names):
        w = _legend_width(c, name)
        if rows[-1] and used + w > width:
            rows.append([])
            used = 0.0
        rows[-1].append(seat)
        used += w
    return rows


def _legend_width(c: _Canvas, name: str) -> float:
    return 22 + c.text_width(name, LEGEND_SIZE) + 26


def final_winners(history: Sequence[RoundSummary]) -> tuple[int, ...]:
    """The seats with the highest total after the last round (several on a tie, R6.3)."""
    if not history:
        return ()
    totals = history[-1].totals
    best = max(totals)
    return tuple(i for i, t in enumerate(totals) if t == best)


def scorepad_png(
    players: Sequence[str],
    history: Sequence[RoundSummary],
    *,
    final: bool = True,
    theme: Theme = Theme.CLASSIC,
    title: str | None = None,
    labels: ScorepadLabels | None = None,
    font_file: str | Path | None = None,
) -> bytes:
    """The scorepad as on paper: a row per round with each player's bid/won and running
    total, the totals, and (when ``final``) the winners in gold."""
    check_history(players, history)
    font = None if font_file is None else str(font_file)
    labels = _drawable_labels(labels or ScorepadLabels(), font)
    names = _names(players, font, labels.seat)
    # The headers' room is known before the picture's height: measure on a scratch canvas.
    probe = _Canvas(1, 1, font)
    room = scorepad_layout(len(players), 0).player_width - 38
    dots = "…" if _drawable("…", font) else "..."
    # One size for every name: the largest, down to 15 px, at which all fit that can (a
    # name too long even then is shortened, and shown whole in the key under the totals).
    fitting = [n for n in names if probe.text_width(n, 15, True) <= room]
    head_size = 19.0
    while head_size > 15 and any(probe.text_width(n, head_size, True) > room for n in fitting):
        head_size -= 0.5
    headers = distinct_names(names, lambda n: probe.fit(n, head_size, room, bold=True), dots)
    inner = WIDTH - 2 * 20 - 20
    key = _legend_rows(probe, names, inner) if headers != names else []
    lay = scorepad_layout(len(players), len(history), len(key))
    winners = set(final_winners(history)) if final else set()
    totals = history[-1].totals if history else (0,) * len(players)
    c = _Canvas(lay.width, lay.height, font)
    m = lay.margin

    heading = drawable_text(title, font) if title else labels.title
    c.text((m, m + lay.title_height / 2 - 4), heading, 26, TEXT, bold=True)

    # Winners' columns are tinted from the header to the totals.
    for seat in winners:
        left, right = lay.column(seat)
        c.rect((left, lay.header_top, right, lay.totals_top + lay.totals_height), GOLD_TINT)
    # Stripes behind every other round, over the whole width, for reading along a row.
    for row in range(1, lay.rounds, 2):
        top = lay.rows_top + row * lay.row_height
        c.rect((m, top, lay.width - m, top + lay.row_height), STRIPE)
        for seat in winners:
            left, right = lay.column(seat)
            c.rect((left, top, right, top + lay.row_height), mix(GOLD_TINT, STRIPE))

    # Header: "Round", "Trump" and the names, each with its chart colour and marker.
    hy = lay.header_top + lay.header_height / 2
    for x, room, label in (
        (m + lay.round_width / 2, lay.round_width, labels.round),
        (m + lay.round_width + lay.trump_width / 2, lay.trump_width, labels.trump),
    ):
        c.text((x, hy), *c.shrink(label, 17, room - 2 * HEADING_PAD, 12), MUTED, anchor="mm")
    # The two headings of a player's columns share its width, each in its half, and a size.
    sub_room = lay.player_width / 2 - 2 * HEADING_PAD
    sub_size = min(c.shrink(label, 14, sub_room, 10)[1] for label in (labels.bid_won, labels.score))
    sub_labels = [c.fit(label, sub_size, sub_room) for label in (labels.bid_won, labels.score)]
    for seat, shown in enumerate(headers):
        left, right = lay.column(seat)
        colour = GOLD if seat in winners else TEXT
        c.marker(MARKERS[seat], left + 16, hy, 6, PLAYER_COLOURS[seat])
        c.text((left + 30, hy), shown, head_size, colour, bold=True)
        sy = lay.header_top + lay.header_height + lay.sub_height / 2
        c.text(((left * 3 + right) / 4, sy), sub_labels[0], sub_size, MUTED, anchor="mm")
        c.text(((left + right * 3) / 4, sy), sub_labels[1], sub_size, MUTED, anchor="mm")

    # The rounds.
    for row, r in enumerate(history):
        box = lay.round_box(row)
        cy = (box[1] + box[3]) / 2
        c.text(((box[0] + box[2]) / 2, cy), str(r.round), 17, MUTED, anchor="mm")
        tb = lay.trump_box(row)
        if r.trump is None:
            c.text(((tb[0] + tb[2]) / 2, cy), labels.no_trump, 17, MUTED, anchor="mm")
        else:
            c.suit(r.trump, theme, (tb[0] + tb[2]) / 2, cy, 10)
        for seat in range(lay.players):
            bid, won, total = r.bids[seat], r.tricks[seat], r.totals[seat]
            b = lay.cell(row, seat, "bid")
            colour = MADE if bid == won else MISSED
            c.text(((b[0] + b[2]) / 2, cy), f"{bid}/{won}", 17, colour, anchor="mm")
            s = lay.cell(row, seat, "score")
            c.text(((s[0] + s[2]) / 2, cy), score_text(total, font), 17, TEXT, anchor="mm")

    # Rules: under the header, between players, above the totals.
    c.rect((m, lay.rows_top - 2, lay.width - m, lay.rows_top), GRID)
    for seat in range(1, lay.players):
        left, _ = lay.column(seat)
        c.rect((left, lay.header_top + 6, left + 1, lay.totals_top + lay.totals_height - 6), GRID)
    c.rect((m, lay.totals_top, lay.width - m, lay.totals_top + 2), GRID)

    # Totals.
    ty = lay.totals_top + lay.totals_height / 2 + 1
    c.text((m + 10, ty), labels.total, 19, TEXT, bold=True)
    for seat in range(lay.players):
        left, top, right, bottom = lay.total_box(seat)
        text = score_text(totals[seat], font)
        if seat in winners:
            w = max(64.0, c.text_width(text, 21, bold=True) + 24)
            mid = (left + right) / 2
            pill = (round(mid - w / 2), top + 6, round(mid + w / 2), bottom - 4)
            c.rect(pill, GOLD, radius=(pill[3] - pill[1]) / 2)
            c.text((mid, ty), text, 21, INK, anchor="mm", bold=True)
        else:
            c.text(((left + right) / 2, ty), text, 21, TEXT, anchor="mm", bold=True)

    # The key of full names, when a header is shortened: every name shows whole somewhere.
    lb = lay.legend_box()
    for row, seats in enumerate(key):
        x = m + 10.0
        y = lb[1] + LEGEND_PAD + row * LEGEND_ROW + LEGEND_ROW / 2
        for seat in seats:
            c.marker(MARKERS[seat], x + 6, y, 5, PLAYER_COLOURS[seat])
            text = c.fit(names[seat], LEGEND_SIZE, inner - 22)
            c.text((x + 22, y), text, LEGEND_SIZE, GOLD if seat in winners else TEXT)
            x += _legend_width(c, names[seat])

    # The winners, in words.
    if winners:
        fb = lay.footer_box()
        who = labels.joiner.join(names[i] for i in sorted(winners))
        template = labels.winner if len(winners) == 1 else labels.winners
        line = template.format(names=who, points=score_text(totals[min(winners)], font))
        c.text((m + 10, (fb[1] + fb[3]) / 2), c.fit(line, 19, fb[2] - fb[0] - 20), 19, GOLD)
    return c.png()
