"""The scorepad and score-chart pictures: valid PNGs, and what is drawn where.

Rather than golden files (which a Pillow or FreeType update would break), each test draws
two pictures that differ in one thing and checks that the pixels that changed lie inside
the box where the layout says that thing is drawn, and nowhere else.
"""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

from bot.i18n import texts
from bot.images import canvas
from bot.images.canvas import (
    BOLD_FONT,
    CHART_HEIGHT,
    FONTS,
    GOLD,
    MADE,
    MISSED,
    PLAYER_COLOURS,
    REGULAR_FONT,
    SUIT_COLOURS,
    WIDTH,
    Box,
    ChartLabels,
    ScorepadLabels,
    chart_labels,
    distinct_names,
    drawable_text,
    score_text,
    scorepad_labels,
)
from bot.images.chart import chart_layout, score_chart_png
from bot.images.scorepad import final_winners, scorepad_layout, scorepad_png
from wizard.cards import Suit, Theme
from wizard.options import Options
from wizard.rules import apply, legal_actions, new_game
from wizard.state import Phase
from wizard.view import RoundSummary, TableView, table_view

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
NAMES = ("Ann", "Bo", "Cy", "Dee", "Ed", "Flo")


def finished(n: int, seed: int) -> TableView:
    """The public table of a random finished game of ``n`` players."""
    rng = random.Random(seed)
    state = new_game(list(NAMES[:n]), Options(), seed=seed)
    while state.phase is not Phase.GAME_OVER:
        state = apply(state, rng.choice(legal_actions(state)))
    return table_view(state)


def image(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    img.load()
    return img.convert("RGB")


def changed(a: bytes, b: bytes) -> Box | None:
    """The box of the pixels that differ between two pictures of the same size."""
    ia, ib = image(a), image(b)
    assert ia.size == ib.size
    return ImageChops.difference(ia, ib).getbbox()


def only_in(a: bytes, b: bytes, box: Box, *also: Box) -> bool:
    """Whether the pictures differ inside ``box`` and nowhere outside it and ``also``."""
    diff = ImageChops.difference(image(a), image(b))
    if diff.crop(box).getbbox() is None:
        return False
    for allowed in (box, *also):
        diff.paste((0, 0, 0), allowed)
    return diff.getbbox() is None


def inside(inner: Box | None, outer: Box) -> bool:
    assert inner is not None, "nothing changed"
    return (
        inner[0] >= outer[0]
        and inner[1] >= outer[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 24) -> bool:
    return all(abs(p - c) <= tolerance for p, c in zip(pixel, colour, strict=False))


def count_near(img: Image.Image, box: Box, colour: tuple[int, int, int]) -> int:
    """Pixels of ``box`` within 24 of ``colour`` in every channel."""
    region = img.crop(box)
    diff = ImageChops.difference(region, Image.new("RGB", region.size, colour))
    close = [band.point(lambda v: 255 if v <= 24 else 0) for band in diff.split()]
    both = ImageChops.multiply(ImageChops.multiply(close[0], close[1]), close[2])
    return both.histogram()[255]


def with_row(history: tuple[RoundSummary, ...], row: int, **changes: object) -> list[RoundSummary]:
    out = list(history)
    out[row] = replace(out[row], **changes)  # type: ignore[arg-type]
    return out


# --------------------------------------------------------------------------- scorepad


@pytest.mark.parametrize(("n", "rounds"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_scorepad_is_a_png_with_a_row_per_round(n: int, rounds: int) -> None:
    table = finished(n, seed=n)
    assert len(table.history) == rounds
    img = image(scorepad_png(table.players, table.history))
    lay = scorepad_layout(n, rounds)
    assert img.size == (WIDTH, lay.height)
    assert 500 < lay.height < 900  # 20 rounds still fit a screen
    # Bid/won on the left of each player's column, the running total on the right.
    assert lay.cell(0, 0, "bid")[2] <= lay.cell(0, 0, "score")[0]
    assert lay.name_box(0)[0] == lay.cell(0, 0, "bid")[0]
    assert lay.name_box(0)[2] == lay.cell(0, 0, "score")[2]
    # Every round row and every total has something drawn in it.
    for row in range(rounds):
        for seat in range(n):
            for part in ("bid", "score"):
                assert (
                    img.crop(lay.cell(row, seat, part)).getextrema()
                    != img.crop((0, 0, 4, 4)).getextrema()
                ), (row, seat, part)


def test_scorepad_names_are_drawn_in_their_header() -> None:
    table = finished(4, seed=1)
    lay = scorepad_layout(4, len(table.history))
    base = scorepad_png(table.players, table.history)
    won = final_winners(table.history)
    for seat in range(4):
        names = list(table.players)
        names[seat] = "Someone else"
        # A winner's name is also in the line under the totals.
        also = [lay.footer_box()] if seat in won else []
        assert only_in(base, scorepad_png(names, table.history), lay.name_box(seat), *also), seat


def test_scorepad_bids_and_totals_are_drawn_in_their_cells() -> None:
    table = finished(3, seed=2)
    lay = scorepad_layout(3, 20)
    base = scorepad_png(table.players, table.history)
    row, seat = 6, 1
    r = table.history[row]
    bids = list(r.bids)
    bids[seat] = r.tricks[seat] + 3  # a missed bid, in the other colour
    missed = scorepad_png(table.players, with_row(table.history, row, bids=tuple(bids)))
    cell = lay.cell(row, seat, "bid")
    assert inside(changed(base, missed), cell)
    assert count_near(image(missed), cell, MISSED) > 10
    assert count_near(image(missed), cell, MADE) == 0
    bids[seat] = r.tricks[seat]  # made: the other colour
    made = image(scorepad_png(table.players, with_row(table.history, row, bids=tuple(bids))))
    assert count_near(made, cell, MADE) > 10
    assert count_near(made, cell, MISSED) == 0
    totals = list(r.totals)
    totals[seat] += 1000
    box = changed(
        base, scorepad_png(table.players, with_row(table.history, row, totals=tuple(totals)))
    )
    assert inside(box, lay.cell(row, seat, "score")), box


def test_scorepad_shows_the_trump_of_each_round() -> None:
    table = finished(3, seed=3)
    lay = scorepad_layout(3, 20)
    row = 4
    history = with_row(table.history, row, trump=Suit.HUMANS)
    base = scorepad_png(table.players, history)
    other = scorepad_png(table.players, with_row(table.history, row, trump=Suit.GIANTS))
    assert inside(changed(base, other), lay.trump_box(row))
    blue, yellow = (
        SUIT_COLOURS[Theme.CLASSIC][Suit.HUMANS],
        SUIT_COLOURS[Theme.CLASSIC][Suit.GIANTS],
    )
    assert count_near(image(base), lay.trump_box(row), blue) > 50
    assert count_near(image(other), lay.trump_box(row), yellow) > 50
    assert count_near(image(other), lay.trump_box(row), blue) == 0
    none = scorepad_png(table.players, with_row(table.history, row, trump=None))
    assert inside(changed(base, none), lay.trump_box(row))
    standard = scorepad_png(table.players, history, theme=Theme.STANDARD)
    assert changed(base, standard) is not None


def test_scorepad_highlights_the_winners_in_gold() -> None:
    history = [
        RoundSummary(1, 0, None, Suit.ELVES, (1, 0, 0), (1, 0, 1), (30, 20, -10), (30, 20, -10)),
        RoundSummary(2, 1, None, None, (0, 1, 2), (0, 1, 1), (20, 30, -10), (50, 50, -20)),
    ]
    assert final_winners(history) == (0, 1)
    lay = scorepad_layout(3, 2)
    img = image(scorepad_png(["Ann", "Bo", "Cy"], history))
    gold = [count_near(img, lay.total_box(seat), GOLD) for seat in range(3)]
    assert gold[0] > 300 and gold[1] > 300 and gold[2] == 0, gold
    # The winners' line names both.
    footer = lay.footer_box()
    assert count_near(img, footer, GOLD) > 50
    # A scorepad of a game still running has no winners.
    running = image(scorepad_png(["Ann", "Bo", "Cy"], history, final=False))
    assert all(count_near(running, lay.total_box(seat), GOLD) == 0 for seat in range(3))
    assert count_near(running, footer, GOLD) == 0


def test_scorepad_differs_for_different_games_and_repeats_for_the_same() -> None:
    a, b = finished(4, seed=10), finished(4, seed=11)
    pad_a = scorepad_png(a.players, a.history)
    assert pad_a == scorepad_png(a.players, a.history)
    assert pad_a != scorepad_png(b.players, b.history)


def test_the_shipped_font_draws_latin_greek_and_cyrillic_names() -> None:
    assert REGULAR_FONT.is_file() and BOLD_FONT.is_file()
    assert REGULAR_FONT.parent == BOLD_FONT.parent == FONTS
    licence = (FONTS / "LICENSE.txt").read_text()
    assert "Bitstream Vera Fonts Copyright" in licence and "Arev Fonts Copyright" in licence
    for name in ("Jürgen", "Zoë Müller-Straße", "Łukasz", "Ærøskøbing", "Σοφία", "Жанна", "Çağla"):
        assert drawable_text(name) == name
    table = finished(3, seed=4)
    history = table.history
    # Accents are drawn, not folded away: "Zoë" is not "Zoe".
    accented = scorepad_png(["Jürgen", "Zoë", "Łukasz"], history)
    assert accented != scorepad_png(["Jurgen", "Zoe", "Lukasz"], history)
    lay = scorepad_layout(3, len(history))
    plain = scorepad_png(["Jürgen", "Zoe", "Łukasz"], history)
    assert only_in(accented, plain, lay.name_box(1), lay.footer_box())  # (and the winners' line)
    chart = score_chart_png(["Jürgen", "Σοφία", "Жанна"], history)
    assert chart != score_chart_png(["Jurgen", "Sofia", "Zhanna"], history)


def test_what_the_font_cannot_draw_is_folded_or_replaced() -> None:
    assert drawable_text("🔥 Max 🔥") == "Max"
    assert drawable_text("日本") == ""
    # Letters with a drawable compatibility form are folded to it.
    assert drawable_text("Ｚｏë") == "Zoë"
    assert drawable_text("𝐀𝐧𝐧") == "Ann"
    table = finished(3, seed=4)
    history = table.history
    # An empty name becomes "Seat n"; emoji are dropped.
    assert scorepad_png(["Zoë", "日本", "🔥Cy"], history) == scorepad_png(
        ["Zoë", "Seat 2", "Cy"], history
    )
    labels = ScorepadLabels(seat="Platz {n}", total="Gesamt", round="Runde")
    assert scorepad_png(["Ann", "🙂", "Cy"], history, labels=labels) == scorepad_png(
        ["Ann", "Platz 2", "Cy"], history, labels=labels
    )
    assert scorepad_png(["Ann", "Bo", "Cy"], history, labels=labels) != scorepad_png(
        ["Ann", "Bo", "Cy"], history
    )


def test_a_score_below_zero_is_drawn_with_the_minus_of_the_messages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The messages write −30 (bot.i18n.minus); the scorepad and the chart wrote -30. A font
    without the minus draws a hyphen rather than its "missing" box."""
    assert score_text(-30) == "\u221230" and score_text(20) == "20"
    drawable = canvas._drawable
    monkeypatch.setattr(canvas, "_drawable", lambda ch, font: ch != "\u2212" and drawable(ch, font))
    assert score_text(-30) == "-30"


def test_another_font_file_can_be_given() -> None:
    table = finished(3, seed=4)
    shipped = scorepad_png(table.players, table.history)
    bold = scorepad_png(table.players, table.history, font_file=BOLD_FONT)
    assert image(bold).size == image(shipped).size and bold != shipped
    assert score_chart_png(table.players, table.history, font_file=str(BOLD_FONT)).startswith(
        PNG_SIGNATURE
    )


def test_labels_come_from_the_translation_layer() -> None:
    class Upper:
        def __call__(self, message: str, /, **params: object) -> str:
            return (
                message.upper()
                .replace("{NAMES}", "{names}")
                .replace("{POINTS}", "{points}")
                .replace("{N}", "{n}")
                .format(**params)
            )

    pad = scorepad_labels(Upper())  # type: ignore[arg-type]
    assert (pad.title, pad.round, pad.seat) == ("SCOREPAD", "ROUND", "SEAT {n}")
    assert pad.winner.format(names="A", points=3) == "WINNER: A WITH 3 POINTS"
    assert chart_labels(texts("en")) == ChartLabels()
    assert scorepad_labels(texts("en")) == ScorepadLabels()
    table = finished(3, seed=4)
    assert scorepad_png(table.players, table.history, labels=pad) != scorepad_png(
        table.players, table.history
    )


def test_long_names_stay_in_their_column() -> None:
    table = finished(6, seed=5)
    lay = scorepad_layout(6, 10)
    names = list(table.players)
    base = scorepad_png(names, table.history)
    names[2] = "An extremely long display name that never fits" * 2
    longer = image(scorepad_png(names, table.history))
    # The table itself changes only in that name's header; the name shows whole in a key
    # of full names under the totals, which makes the picture taller.
    table_part = (0, 0, WIDTH, lay.totals_top + lay.totals_height)
    diff = ImageChops.difference(image(base).crop(table_part), longer.crop(table_part))
    assert inside(diff.getbbox(), lay.name_box(2))
    assert longer.size[1] > lay.height


def test_names_alike_are_shortened_apart_and_shown_whole_in_a_key() -> None:
    """Six 32-character names that begin alike: the headers differ, the key shows them whole."""
    table = finished(6, seed=5)
    names = [f"Morgan le Fay, Enchantress no {i:02d}" for i in range(6)]
    assert all(len(n) == 32 for n in names)
    fits = lambda n: n if len(n) <= 9 else n[:8] + "…"  # noqa: E731
    headers = distinct_names(names, fits)
    assert len(set(headers)) == 6 and all(len(h) <= 9 for h in headers)
    assert distinct_names(["Sam", "Sam", "Ann"], fits) == ["Sam #1", "Sam #2", "Ann"]
    img = image(scorepad_png(names, table.history))
    assert img.size[1] > scorepad_layout(6, len(table.history)).height  # the key


def test_scorepad_refuses_bad_input() -> None:
    table = finished(3, seed=6)
    with pytest.raises(ValueError):
        scorepad_png(["A", "B"], table.history)
    with pytest.raises(ValueError):
        scorepad_png([f"P{i}" for i in range(7)], [])
    img = image(scorepad_png(["A", "B", "C"], []))  # nothing scored yet: header and zeros
    assert img.size == (WIDTH, scorepad_layout(3, 0).height)


# --------------------------------------------------------------------------- chart


@pytest.mark.parametrize("n", [3, 6])
def test_chart_puts_each_score_where_the_axes_say(n: int) -> None:
    table = finished(n, seed=20 + n)
    rounds = len(table.history)
    for seat in range(n):
        img = image(score_chart_png(table.players, table.history, seats=[seat]))
        assert img.size == (WIDTH, CHART_HEIGHT)
        lay = chart_layout(table.history, [seat])
        assert lay.rounds == rounds
        colour = PLAYER_COLOURS[seat]
        for r in range(1, rounds + 1):  # a marker after each round
            x, y = lay.point(r, table.history[r - 1].totals[seat])
            assert near(img.getpixel((round(x), round(y))), colour, 40), (seat, r)  # type: ignore[arg-type]
        # And nowhere far from the line: the corners of the plot are bare.
        left, top, right, bottom = lay.plot
        # The axes span the plot: round 0 at the left, the last round at the right.
        assert lay.point(0, lay.low) == (left, bottom)
        assert lay.point(rounds, lay.high) == (right, top)
        assert lay.low <= min(0, *(h.totals[seat] for h in table.history))
        assert lay.high >= max(0, *(h.totals[seat] for h in table.history))
        assert 0 in lay.ticks
        assert not near(img.getpixel((right - 3, top + 3)), colour, 40)  # type: ignore[arg-type]


def test_chart_of_all_players_draws_every_colour_and_only_those_chosen() -> None:
    table = finished(6, seed=30)
    everyone = image(score_chart_png(table.players, table.history))
    lay = chart_layout(table.history, range(6))
    assert all(count_near(everyone, lay.plot, c) > 100 for c in PLAYER_COLOURS)
    some = image(score_chart_png(table.players, table.history, seats=[0, 3]))
    lay = chart_layout(table.history, [0, 3])
    counts = [count_near(some, lay.plot, c) for c in PLAYER_COLOURS]
    assert counts[0] > 100 and counts[3] > 100
    assert counts[1] == counts[2] == counts[4] == counts[5] == 0, counts


def test_chart_highlight_is_drawn_on_top() -> None:
    table = finished(4, seed=31)
    img = image(score_chart_png(table.players, table.history, highlight=2))
    lay = chart_layout(table.history, range(4))
    for r, row in enumerate(table.history, start=1):
        x, y = lay.point(r, row.totals[2])
        assert near(img.getpixel((round(x), round(y))), PLAYER_COLOURS[2], 40), r  # type: ignore[arg-type]
    plain = score_chart_png(table.players, table.history)
    assert changed(plain, score_chart_png(table.players, table.history, highlight=2)) is not None


def test_chart_legend_names_each_line() -> None:
    table = finished(3, seed=32)
    lay = chart_layout(table.history, range(3))
    base = score_chart_png(table.players, table.history)
    for seat in range(3):
        names = list(table.players)
        names[seat] = "Somebody"
        box = changed(base, score_chart_png(names, table.history))
        assert inside(box, lay.legend_box(seat)), (seat, box)


def test_chart_differs_for_different_games_and_labels() -> None:
    a, b = finished(3, seed=33), finished(3, seed=34)
    chart = score_chart_png(a.players, a.history)
    assert chart == score_chart_png(a.players, a.history)
    assert chart != score_chart_png(b.players, b.history)
    german = ChartLabels(title="Punkte je Runde", x_axis="Runde", y_axis="Punkte")
    assert chart != score_chart_png(a.players, a.history, labels=german)


def test_chart_refuses_bad_input_and_draws_an_empty_game() -> None:
    table = finished(3, seed=35)
    with pytest.raises(ValueError):
        score_chart_png(table.players, table.history, seats=[5])
    with pytest.raises(ValueError):
        score_chart_png(table.players, table.history, seats=[])
    img = image(score_chart_png(["A", "B", "C"], [], rounds=20))
    assert img.size == (WIDTH, CHART_HEIGHT)
    assert chart_layout([], range(3), 20).rounds == 20
