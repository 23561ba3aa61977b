"""A game's scores over the rounds as a chart."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.images.canvas import (
    CHART_HEIGHT,
    GRID,
    MARKERS,
    MUTED,
    PANEL,
    PLAYER_COLOURS,
    TEXT,
    WIDTH,
    Box,
    ChartLabels,
    _Canvas,
    _drawable_labels,
    _names,
    check_history,
    drawable_text,
    mix,
    score_text,
)
from wizard.view import RoundSummary


@dataclass(frozen=True, slots=True)
class ChartLayout:
    """Where the chart draws what: the plot's box and its scales."""

    width: int
    height: int
    plot: Box
    rounds: int
    low: int
    high: int
    step: int
    legend_left: int
    legend_top: int
    legend_row: int

    def point(self, round_no: float, points: float) -> tuple[float, float]:
        """The pixel of a score after a round (round 0: the start, at 0 points)."""
        left, top, right, bottom = self.plot
        x = left + (right - left) * round_no / max(1, self.rounds)
        y = bottom - (bottom - top) * (points - self.low) / (self.high - self.low)
        return x, y

    def legend_box(self, index: int) -> Box:
        """The ``index``-th line of the legend (in the order of the drawn seats)."""
        top = self.legend_top + index * self.legend_row
        return self.legend_left, top, self.width - 16, top + self.legend_row

    @property
    def ticks(self) -> list[int]:
        """The values with a grid line."""
        return list(range(self.low, self.high + 1, self.step))


def _nice_step(span: float, target: int) -> int:
    raw = span / target
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * magnitude
        if step >= raw and step == int(step):
            return int(step)
    return int(10 * magnitude)


def chart_layout(
    history: Sequence[RoundSummary], seats: Collection[int], rounds: int | None = None
) -> ChartLayout:
    """The chart's geometry for the totals of ``seats`` over ``history``."""
    values = [0] + [r.totals[s] for r in history for s in seats]
    low, high = min(values), max(values)
    step = _nice_step(max(high - low, 30), 6)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    if high == low:
        high = low + step
    # A name of 17 characters at 14 px beside a total of four with a minus (−300) fits.
    legend_width = 240
    plot = (78, 86, WIDTH - legend_width - 24, CHART_HEIGHT - 62)
    return ChartLayout(
        width=WIDTH,
        height=CHART_HEIGHT,
        plot=plot,
        rounds=rounds if rounds is not None else max(1, len(history)),
        low=low,
        high=high,
        step=step,
        legend_left=WIDTH - legend_width,
        legend_top=plot[1],
        legend_row=34,
    )


def score_chart_png(
    players: Sequence[str],
    history: Sequence[RoundSummary],
    *,
    seats: Collection[int] | None = None,
    highlight: int | None = None,
    rounds: int | None = None,
    title: str | None = None,
    labels: ChartLabels | None = None,
    font_file: str | Path | None = None,
) -> bytes:
    """Running totals over the rounds as a line chart, one line per player in ``seats``
    (default: all), ``highlight`` drawn bold over the others; ``rounds`` fixes the x axis
    (default: the rounds played)."""
    check_history(players, history)
    if not 1 <= len(players) <= len(PLAYER_COLOURS):
        raise ValueError(f"a chart has 1 to {len(PLAYER_COLOURS)} players, not {len(players)}")
    shown = sorted(set(range(len(players)) if seats is None else seats))
    if not shown or not all(0 <= s < len(players) for s in shown):
        raise ValueError(f"no such seats to chart: {seats!r}")
    font = None if font_file is None else str(font_file)
    labels = _drawable_labels(labels or ChartLabels(), font)
    names = _names(players, font, labels.seat)
    lay = chart_layout(history, shown, rounds)
    c = _Canvas(lay.width, lay.height, font)
    left, top, right, bottom = lay.plot

    heading = drawable_text(title, font) if title else labels.title
    c.text((20, 34), heading, 26, TEXT, bold=True)
    c.rect((left, top, right, bottom), PANEL)
    # Horizontal grid with the point values; the zero line stands out.
    for value in lay.ticks:
        _, y = lay.point(0, value)
        colour = MUTED if value == 0 else GRID
        c.rect((left, round(y) - (1 if value == 0 else 0), right, round(y) + 1), colour)
        c.text((left - 10, y), score_text(value, font), 15, MUTED, anchor="rm")
    # Vertical grid at the rounds, labelled (every other one when they are crowded).
    every = 1 if lay.rounds <= 15 else 2
    for r in range(lay.rounds + 1):
        x, _ = lay.point(r, lay.low)
        if r:
            c.rect((round(x), top, round(x) + 1, bottom), GRID)
        if r % every == 0 or r == lay.rounds:
            c.text((x, bottom + 14), str(r), 15, MUTED, anchor="mm")
    c.text(((left + right) / 2, bottom + 40), labels.x_axis, 16, MUTED, anchor="mm")
    c.text((left - 10, top - 18), labels.y_axis, 16, MUTED, anchor="rm")

    # Lines: the highlighted player last, so that it lies on top.
    order = [s for s in shown if s != highlight] + ([highlight] if highlight in shown else [])
    for seat in order:
        points = [lay.point(0, 0)] + [
            lay.point(i + 1, r.totals[seat]) for i, r in enumerate(history)
        ]
        colour = PLAYER_COLOURS[seat]
        if highlight is not None and seat != highlight:
            colour = mix(colour, PANEL)
        width = 4.0 if seat == highlight else 2.5
        if len(points) > 1:
            c.line(points, colour, width)
        for x, y in points[1:]:
            c.marker(MARKERS[seat], x, y, 4.5 if seat == highlight else 3.5, colour)

    # Legend: marker, name and final total. The names share the largest size at which all
    # fit whole (QA: "Merlin (comp…" beside "Ann (computer)"), down to a readable least.
    final = history[-1].totals if history else (0,) * len(players)
    room: dict[int, float] = {}
    for i, seat in enumerate(shown):
        lx, _, lr, _ = lay.legend_box(i)
        room[seat] = lr - lx - 44 - c.text_width(score_text(final[seat], font), 17, bold=True)
    size = next(
        (
            s
            for s in (17, 16, 15, 14)
            if all(c.text_width(names[x], s, bold=x == highlight) <= room[x] for x in shown)
        ),
        14,
    )
    for i, seat in enumerate(shown):
        lx, ly, lr, lb = lay.legend_box(i)
        cy = (ly + lb) / 2
        colour = PLAYER_COLOURS[seat]
        c.line([(lx, cy), (lx + 26, cy)], colour, 3)
        c.marker(MARKERS[seat], lx + 13, cy, 5, colour)
        c.text((lr, cy), score_text(final[seat], font), 17, TEXT, anchor="rm", bold=True)
        name = c.fit(names[seat], size, room[seat], bold=seat == highlight)
        c.text((lx + 36, cy), name, size, TEXT, bold=seat == highlight)
    return c.png()
