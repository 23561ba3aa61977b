"""What both pictures share: sizes, colours, labels, the font and what it can draw,
names that fit and stay apart, and a canvas to draw on."""

from __future__ import annotations

import functools
import io
import logging
import unicodedata
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypeVar

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import minus
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
    public picture, ``await reader_texts(interaction)`` for a private one)."""
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


def scorepad_names(
    players: Sequence[str],
    computers: Collection[int],
    *,
    handed_over: Collection[int] = (),
    t: Texts,
) -> list[str]:
    """The names as the pictures (scorepad, score chart) show them: a computer player's
    (``computers``) says so in words, as the standings' 🤖 does (the picture's font has no
    emoji; demo QA: computers read as people there), and so does that of a person whose
    seat was ``handed_over`` to a computer, which played it to the end ("Ann → computer":
    its place and points are the computer's; demo QA: "Ann (computer)" read as if Ann had
    been a computer all along)."""

    def shown(seat: int, name: str) -> str:
        if seat in handed_over:
            # Translators: a name on the scorepad picture of a player who left the game (or
            # was removed), whose seat a computer then played to the end.
            return t("{name} → computer", name=name)
        if seat in computers:
            # Translators: a name on the scorepad picture of a computer player.
            return t("{name} (computer)", name=name)
        return name

    return [shown(seat, name) for seat, name in enumerate(players)]


def chart_labels(t: Texts) -> ChartLabels:
    """The score chart's words in the language of ``t``."""
    return ChartLabels(
        title=t("Score by round"),
        x_axis=t("Round"),
        y_axis=t("Points"),
        seat=t("Seat {n}", n="{n}"),
    )


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
    "→": "->",
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


FONTS: Final = Path(__file__).parents[1] / "fonts"
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


def score_text(value: int, font_file: str | None = None) -> str:
    """A score as the bot's messages write it (a true minus below zero, ``bot.i18n.minus``),
    drawable in the font: a hyphen where it has no minus."""
    return drawable_text(minus(str(value)), font_file)


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

    def shrink(self, text: str, size: float, width: float, smallest: float) -> tuple[str, float]:
        """``text`` and the size to draw it in ``width`` pixels: ``size``, or smaller down to
        ``smallest`` (a long translation), and only then shortened with an ellipsis."""
        while size > smallest and self.text_width(text, size) > width:
            size = max(smallest, size - 0.5)
        return self.fit(text, size, width), size

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


def mix(a: RGB, b: RGB) -> RGB:
    """The colour halfway between ``a`` and ``b``."""
    return ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2, (a[2] + b[2]) // 2)


def check_history(players: Sequence[str], history: Sequence[RoundSummary]) -> None:
    """Refuse a history whose rounds do not have one column per player."""
    for r in history:
        if not len(r.bids) == len(r.tricks) == len(r.totals) == len(players):
            raise ValueError(f"round {r.round} has not one entry per player")
