"""Pictures for Discord as PNG bytes: a game's scorepad and a score-over-rounds chart.

Pure functions of public data only (R8.1): the players' names and the scored rounds
(:class:`wizard.view.RoundSummary`, e.g. ``TableView.history``), never a hand. Both pictures
are 960 px wide (Discord shows them inline without scaling them down much), on an opaque
dark background that reads in Discord's dark and light themes alike.

The font is DejaVu Sans (regular and bold), shipped in ``bot/fonts`` with its licence, so
nothing depends on the fonts of the machine and every Latin, Greek and Cyrillic name draws
as it is written (``Jürgen``, ``Zoë``, ``Łukasz``, ``Σοφία``, ``Жанна``). What it cannot draw
(emoji, CJK) is folded to a letter it has when Unicode gives one, else dropped, and a name
left empty becomes ``Seat N``. ``font_file`` takes another TrueType file instead (bold is
then drawn with a stroke); the same check keeps what that font can draw.

Text on the pictures comes from :class:`ScorepadLabels` and :class:`ChartLabels` (English
by default), so that a translation layer can pass its own.

Layout helpers (:func:`scorepad_layout`, :func:`chart_layout`) give the boxes and points
the pictures are drawn at, for tests and for anyone placing things on them.
"""

from __future__ import annotations

import functools
import io
import logging
import math
import unicodedata
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypeVar

from PIL import Image, ImageDraw, ImageFont

from wizard.cards import Suit, Theme
from wizard.view import RoundSummary

if TYPE_CHECKING:
    from bot.i18n import Texts

log = logging.getLogger(__name__)

Box = tuple[int, int, int, int]
"""Left, top, right, bottom in pixels of the final picture (right and bottom exclusive)."""
RGB = tuple[int, int, int]

WIDTH: Final = 960
CHART_HEIGHT: Final = 540
SCALE: Final = 2
"""Pictures are drawn at twice their size and scaled down: Pillow draws shapes without
anti-aliasing, and the scaling smooths their edges (and the text's) for free."""

BACKGROUND: Final[RGB] = (30, 31, 34)
PANEL: Final[RGB] = (43, 45, 49)
STRIPE: Final[RGB] = (50, 52, 58)
GRID: Final[RGB] = (70, 73, 80)
TEXT: Final[RGB] = (242, 243, 245)
MUTED: Final[RGB] = (160, 166, 175)
GOLD: Final[RGB] = (240, 178, 50)
GOLD_TINT: Final[RGB] = (66, 58, 38)
INK: Final[RGB] = (30, 31, 34)
MADE: Final[RGB] = (87, 242, 135)
MISSED: Final[RGB] = (255, 115, 105)

PLAYER_COLOURS: Final[tuple[RGB, ...]] = (
    (86, 180, 233),  # sky blue   } Okabe–Ito colours, told apart with common colour
    (230, 159, 0),  # orange      } blindness, lightened where the original is too dark
    (46, 204, 150),  # bluish green  for a dark background; each player also has a marker
    (240, 228, 66),  # yellow     } shape of its own
    (204, 121, 167),  # reddish purple
    (245, 120, 60),  # vermilion
)
"""Each seat's colour, the same on the scorepad (by the name) and on the chart."""
MARKERS: Final = ("circle", "square", "triangle", "diamond", "down", "hexagon")

SUIT_COLOURS: Final[dict[Theme, dict[Suit, RGB]]] = {
    # R1.2: the classic suits are blue, red, green and yellow.
    Theme.CLASSIC: {
        Suit.HUMANS: (66, 135, 245),
        Suit.DWARVES: (230, 70, 70),
        Suit.ELVES: (60, 180, 90),
        Suit.GIANTS: (235, 200, 50),
    },
    # R1.5: spades and clubs are black on paper; light grey reads on the dark background.
    Theme.STANDARD: {
        Suit.HUMANS: (225, 228, 232),
        Suit.DWARVES: (235, 80, 80),
        Suit.ELVES: (235, 80, 80),
        Suit.GIANTS: (225, 228, 232),
    },
}


@dataclass(frozen=True, slots=True)
class ScorepadLabels:
    """The words on the scorepad (English unless a translation is passed)."""

    title: str = "Scorepad"
    round: str = "Round"
    trump: str = "Trump"
    bid_won: str = "bid/won"
    score: str = "score"
    total: str = "Total"
    no_trump: str = "-"
    winner: str = "Winner: {names} with {points} points"
    winners: str = "Winners: {names} with {points} points"
    joiner: str = " and "
    seat: str = "Seat {n}"
    """A name with nothing the font can draw (seats count from 1)."""


@dataclass(frozen=True, slots=True)
class ChartLabels:
    """The words on the score chart (English unless a translation is passed)."""

    title: str = "Score by round"
    x_axis: str = "Round"
    y_axis: str = "Points"
    seat: str = "Seat {n}"
    """A name with nothing the font can draw (seats count from 1)."""


def scorepad_labels(t: Texts) -> ScorepadLabels:
    """The scorepad's words in the language of ``t`` (``texts(settings.language)`` for a
    public picture, ``texts(interaction.locale)`` for a private one)."""
    return ScorepadLabels(
        title=t("Scorepad"),
        round=t("Round"),
        trump=t("Trump"),
        bid_won=t("bid/won"),
        score=t("score"),
        total=t("Total"),
        winner=t("Winner: {names} with {points} points", names="{names}", points="{points}"),
        winners=t("Winners: {names} with {points} points", names="{names}", points="{points}"),
        joiner=t(" and "),
        seat=t("Seat {n}", n="{n}"),
    )


def chart_labels(t: Texts) -> ChartLabels:
    """The score chart's words in the language of ``t``."""
    return ChartLabels(
        title=t("Score by round"),
        x_axis=t("Round"),
        y_axis=t("Points"),
        seat=t("Seat {n}", n="{n}"),
    )


# --------------------------------------------------------------------------- text


_FOLDS: Final = {
    "ß": "ss",
    "ẞ": "SS",
    "Æ": "AE",
    "æ": "ae",
    "Œ": "OE",
    "œ": "oe",
    "Ø": "O",
    "ø": "o",
    "Ł": "L",
    "ł": "l",
    "Đ": "D",
    "đ": "d",
    "Ð": "D",
    "ð": "d",
    "Þ": "Th",
    "þ": "th",
    "ı": "i",
    "–": "-",
    "—": "-",
    "−": "-",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "…": "...",
}
"""Letters that Unicode does not decompose into an ASCII base letter and an accent."""


FONTS: Final = Path(__file__).parent / "fonts"
"""The fonts shipped with the bot (see ``LICENSE.txt`` there)."""
REGULAR_FONT: Final = FONTS / "DejaVuSans.ttf"
BOLD_FONT: Final = FONTS / "DejaVuSans-Bold.ttf"


@functools.lru_cache(maxsize=64)
def _font(
    size: int, font_file: str | None, bold: bool = False
) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font at ``size`` pixels of the drawing (which is SCALE times the picture):
    ``font_file``, or the shipped DejaVu Sans (its bold face when ``bold``)."""
    if font_file is not None:
        return ImageFont.truetype(font_file, size)
    try:
        return ImageFont.truetype(str(BOLD_FONT if bold else REGULAR_FONT), size)
    except OSError:
        # An installation without its package data: ASCII pictures beat no pictures.
        log.warning("the fonts in %s are missing; pictures fall back to ASCII", FONTS)
        return ImageFont.load_default(size=size)


@functools.lru_cache(maxsize=4096)
def _drawable(ch: str, font_file: str | None) -> bool:
    """Whether the font has a glyph for ``ch`` (it does not draw its "missing" box)."""
    if ch == " ":
        return True
    font = _font(40, font_file)
    # A private-use code point has no glyph in any text font: what it draws is the box.
    missing = font.getmask("\ue000")
    mask = font.getmask(ch)
    return not (mask.size == missing.size and bytes(mask) == bytes(missing))


def drawable_text(text: str, font_file: str | None = None) -> str:
    """``text`` with what the font cannot draw folded to ASCII, or dropped."""
    out = []
    for ch in text:
        if _drawable(ch, font_file):
            out.append(ch)
            continue
        folded = _FOLDS.get(ch)
        if folded is None:
            base = unicodedata.normalize("NFKD", ch)
            folded = "".join(c for c in base if not unicodedata.combining(c))
        out.extend(c for c in folded if c != ch and _drawable(c, font_file))
    return " ".join("".join(out).split())  # dropped characters leave no double spaces


L = TypeVar("L", ScorepadLabels, ChartLabels)


def _drawable_labels(labels: L, font_file: str | None) -> L:
    """The labels with what the font cannot draw folded (a translation may have accents)."""
    changes = {}
    for f in fields(labels):
        text = getattr(labels, f.name)
        folded = drawable_text(text, font_file)
        if f.name == "joiner" and folded:  # " and ": the spaces around it are the point
            folded = (
                (" " if text[:1].isspace() else "") + folded + (" " if text[-1:].isspace() else "")
            )
        # A label that folds to nothing stays as it is: boxes beat a blank.
        changes[f.name] = folded or text
    return replace(labels, **changes)


def _names(players: Sequence[str], font_file: str | None, seat: str) -> list[str]:
    return [drawable_text(p, font_file) or seat.format(n=i + 1) for i, p in enumerate(players)]


def distinct_names(names: Sequence[str], fit: Callable[[str], str], dots: str = "…") -> list[str]:
    """``names`` as ``fit`` shortens them to their room, and no two alike.

    Names that ``fit`` would cut to the same text (``Morgan le Fay 1`` and ``Morgan le Fay 2``
    both ``Morga…``) keep their first letters and then jump to where they differ
    (``Mor…y 1``, ``Mor…y 2``); equal names are told apart by their seat (``Sam #1``,
    ``Sam #2``).

    >>> distinct_names(["Morgan le Fay 1", "Morgan le Fay 2", "Sam", "Sam"], lambda n: n[:6])
    ['Mor…1', 'Mor…2', 'Sam #3', 'Sam #4']
    """
    shown = [fit(n) for n in names]
    for _ in range(len(names) + 2):  # each pass tells at least one group further apart
        groups: dict[str, list[int]] = {}
        for seat, text in enumerate(shown):
            groups.setdefault(text.casefold(), []).append(seat)
        clashes = [g for g in groups.values() if len(g) > 1]
        if not clashes:
            return shown
        for group in clashes:
            full = [names[i] for i in group]
            if len({n.casefold() for n in full}) == 1:
                for i in group:
                    mark = f" #{i + 1}"
                    shown[i] = fit(names[i] + mark)
                    if not shown[i].endswith(mark):
                        shown[i] = _fit_before(names[i], mark, fit, dots)
                continue
            common = _common_prefix([n.casefold() for n in full])
            for i in group:
                shown[i] = _jump(names[i], common, fit, dots)
    # A font too wide for even that: the seat numbers tell them apart.
    return [_fit_before(name, f" #{i + 1}", fit, dots) for i, name in enumerate(names)]


def _common_prefix(texts: Sequence[str]) -> int:
    """How many first characters ``texts`` share."""
    shortest = min(texts, key=len)
    for i, ch in enumerate(shortest):
        if any(text[i] != ch for text in texts):
            return i
    return len(shortest)


def _jump(name: str, common: int, fit: Callable[[str], str], dots: str) -> str:
    """``name``'s first letters, then from where it differs (``common``) on, in its room."""
    rest = name[common:]
    for head in (3, 2, 1):
        if head >= common:
            continue
        text = name[:head] + dots + rest
        if fit(text) == text:
            return text
    return fit(dots + rest) if common else fit(name)


def _fit_before(name: str, mark: str, fit: Callable[[str], str], dots: str) -> str:
    """``name`` shortened so that ``mark`` still fits after it."""
    for keep in range(len(name), 0, -1):
        text = name[:keep] + (dots if keep < len(name) else "") + mark
        if fit(text) == text:
            return text
    return mark.strip()


# --------------------------------------------------------------------------- canvas


class _Canvas:
    """Drawing in picture pixels on an image SCALE times as large."""

    def __init__(self, width: int, height: int, font_file: str | None) -> None:
        self.width = width
        self.height = height
        self.font_file = font_file
        self.image = Image.new("RGB", (width * SCALE, height * SCALE), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)

    def font(self, size: float, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
        return _font(round(size * SCALE), self.font_file, bold and self.font_file is None)

    def stroke(self, bold: bool) -> int:
        """A stroke of the text's own colour: the bold face of a font file without one."""
        return 1 if bold and self.font_file is not None else 0

    def rect(self, box: Box, fill: RGB, radius: float = 0) -> None:
        scaled = [v * SCALE for v in box]
        shape = (scaled[0], scaled[1], scaled[2] - 1, scaled[3] - 1)
        if radius:
            self.draw.rounded_rectangle(shape, radius=radius * SCALE, fill=fill)
        else:
            self.draw.rectangle(shape, fill=fill)

    def line(self, points: Sequence[tuple[float, float]], fill: RGB, width: float) -> None:
        scaled = [(x * SCALE, y * SCALE) for x, y in points]
        self.draw.line(scaled, fill=fill, width=max(1, round(width * SCALE)), joint="curve")

    def text_width(self, text: str, size: float, bold: bool = False) -> float:
        length = self.draw.textlength(text, font=self.font(size, bold))
        return length / SCALE + 2 * self.stroke(bold) / SCALE

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: float,
        fill: RGB,
        *,
        anchor: str = "lm",
        bold: bool = False,
    ) -> None:
        self.draw.text(
            (xy[0] * SCALE, xy[1] * SCALE),
            text,
            font=self.font(size, bold),
            fill=fill,
            anchor=anchor,
            stroke_width=self.stroke(bold),
            stroke_fill=fill,
        )

    def fit(self, text: str, size: float, width: float, bold: bool = False) -> str:
        """``text``, shortened with an ellipsis to fit ``width`` pixels."""
        if self.text_width(text, size, bold) <= width:
            return text
        dots = "…" if _drawable("…", self.font_file) else "..."
        while text and self.text_width(text + dots, size, bold) > width:
            text = text[:-1]
        return text.rstrip() + dots

    def marker(self, kind: str, x: float, y: float, r: float, fill: RGB) -> None:
        draw = self.draw
        x, y, r = x * SCALE, y * SCALE, r * SCALE
        if kind == "circle":
            draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)
        elif kind == "square":
            s = r * 0.88
            draw.rectangle((x - s, y - s, x + s, y + s), fill=fill)
        elif kind == "triangle":
            tip, base = y - r * 1.15, y + r * 0.8
            draw.polygon([(x, tip), (x + r * 1.1, base), (x - r * 1.1, base)], fill=fill)
        elif kind == "down":
            tip, base = y + r * 1.15, y - r * 0.8
            draw.polygon([(x, tip), (x + r * 1.1, base), (x - r * 1.1, base)], fill=fill)
        elif kind == "diamond":
            s = r * 1.25
            draw.polygon([(x, y - s), (x + s, y), (x, y + s), (x - s, y)], fill=fill)
        else:
            draw.regular_polygon((x, y, r * 1.1), 6, fill=fill)

    def suit(self, suit: Suit, theme: Theme, x: float, y: float, r: float) -> None:
        """The trump: a coloured disc with the suit's letter, or a standard-deck pip."""
        colour = SUIT_COLOURS[theme][suit]
        if theme is Theme.CLASSIC:
            self.marker("circle", x, y, r, colour)
            self.text((x, y + 0.5), suit.value, r * 1.4, INK, anchor="mm", bold=True)
            return
        draw = self.draw
        x, y, r = x * SCALE, y * SCALE, r * SCALE
        if suit is Suit.ELVES:  # diamonds
            draw.polygon(
                [(x, y - r), (x + r * 0.75, y), (x, y + r), (x - r * 0.75, y)], fill=colour
            )
            return
        if suit is Suit.GIANTS:  # clubs: three leaves and a stem
            q = r * 0.42
            for cx, cy in (
                (x, y - r * 0.45),
                (x - r * 0.48, y + r * 0.1),
                (x + r * 0.48, y + r * 0.1),
            ):
                draw.ellipse((cx - q, cy - q, cx + q, cy + q), fill=colour)
        else:
            # Hearts: two lobes over a point; spades: the same upside down.
            flip = -1 if suit is Suit.HUMANS else 1
            q = r * 0.5
            lobe_y = y - flip * r * 0.3
            for cx in (x - q * 0.95, x + q * 0.95):
                draw.ellipse((cx - q, lobe_y - q, cx + q, lobe_y + q), fill=colour)
            shoulder = lobe_y + flip * q * 0.25
            point = (x, y + flip * r)
            draw.polygon([(x - r * 0.98, shoulder), (x + r * 0.98, shoulder), point], fill=colour)
            if suit is Suit.DWARVES:
                return
        draw.polygon([(x, y + r * 0.1), (x - r * 0.35, y + r), (x + r * 0.35, y + r)], fill=colour)

    def png(self) -> bytes:
        image = self.image.resize((self.width, self.height), Image.Resampling.LANCZOS)
        out = io.BytesIO()
        image.save(out, format="PNG", optimize=False)
        return out.getvalue()


# --------------------------------------------------------------------------- scorepad


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


def _check(players: Sequence[str], history: Sequence[RoundSummary]) -> None:
    for r in history:
        if not len(r.bids) == len(r.tricks) == len(r.totals) == len(players):
            raise ValueError(f"round {r.round} has not one entry per player")


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
    _check(players, history)
    font = None if font_file is None else str(font_file)
    labels = _drawable_labels(labels or ScorepadLabels(), font)
    names = _names(players, font, labels.seat)
    # The headers' room is known before the picture's height: measure on a scratch canvas.
    probe = _Canvas(1, 1, font)
    room = scorepad_layout(len(players), 0).player_width - 38
    dots = "…" if _drawable("…", font) else "..."
    headers = distinct_names(names, lambda n: probe.fit(n, 19, room, bold=True), dots)
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
            c.rect((left, top, right, top + lay.row_height), _mix(GOLD_TINT, STRIPE))

    # Header: "Round", "Trump" and the names, each with its chart colour and marker.
    hy = lay.header_top + lay.header_height / 2
    c.text((m + lay.round_width / 2, hy), labels.round, 17, MUTED, anchor="mm")
    c.text((m + lay.round_width + lay.trump_width / 2, hy), labels.trump, 17, MUTED, anchor="mm")
    for seat, shown in enumerate(headers):
        left, right = lay.column(seat)
        colour = GOLD if seat in winners else TEXT
        c.marker(MARKERS[seat], left + 16, hy, 6, PLAYER_COLOURS[seat])
        c.text((left + 30, hy), shown, 19, colour, bold=True)
        sy = lay.header_top + lay.header_height + lay.sub_height / 2
        c.text(((left * 3 + right) / 4, sy), labels.bid_won, 14, MUTED, anchor="mm")
        c.text(((left + right * 3) / 4, sy), labels.score, 14, MUTED, anchor="mm")

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
            c.text(((s[0] + s[2]) / 2, cy), str(total), 17, TEXT, anchor="mm")

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
        text = str(totals[seat])
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
        line = template.format(names=who, points=totals[min(winners)])
        c.text((m + 10, (fb[1] + fb[3]) / 2), c.fit(line, 19, fb[2] - fb[0] - 20), 19, GOLD)
    return c.png()


def _mix(a: RGB, b: RGB) -> RGB:
    return ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2, (a[2] + b[2]) // 2)


# --------------------------------------------------------------------------- chart


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
    legend_width = 230
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
    _check(players, history)
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
        c.text((left - 10, y), str(value), 15, MUTED, anchor="rm")
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
            colour = _mix(colour, PANEL)
        width = 4.0 if seat == highlight else 2.5
        if len(points) > 1:
            c.line(points, colour, width)
        for x, y in points[1:]:
            c.marker(MARKERS[seat], x, y, 4.5 if seat == highlight else 3.5, colour)

    # Legend: marker, name and final total.
    final = history[-1].totals if history else (0,) * len(players)
    for i, seat in enumerate(shown):
        lx, ly, lr, lb = lay.legend_box(i)
        cy = (ly + lb) / 2
        colour = PLAYER_COLOURS[seat]
        c.line([(lx, cy), (lx + 26, cy)], colour, 3)
        c.marker(MARKERS[seat], lx + 13, cy, 5, colour)
        score = str(final[seat])
        score_width = c.text_width(score, 17, bold=True)
        c.text((lr, cy), score, 17, TEXT, anchor="rm", bold=True)
        name = c.fit(names[seat], 17, lr - lx - 44 - score_width, bold=seat == highlight)
        c.text((lx + 36, cy), name, 17, TEXT, bold=seat == highlight)
    return c.png()
