"""The scorepad's column headings fit their columns in every language, at every table size.

In German, Spanish and Portuguese the "bid/won" and "score" headings of a six-player
scorepad ran into each other ("pred./bazaspuntos"), and the Italian "Briscola" crossed into
the round column.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import LANGUAGES, texts
from bot.images.canvas import _Canvas, scorepad_labels
from bot.images.chart import score_chart_png
from bot.images.scorepad import scorepad_layout, scorepad_png
from tests.bot.test_images import finished

Drawn = tuple[float, float, str, float]
"""A text drawn centred (anchor ``mm``): its centre x, centre y, text and size."""


def centred_texts(monkeypatch: pytest.MonkeyPatch) -> list[Drawn]:
    """Record every text the canvas draws centred on its point."""
    drawn: list[Drawn] = []
    draw = _Canvas.text

    def record(self: _Canvas, xy: tuple[float, float], text: str, size: float, *a: Any, **k: Any):
        if k.get("anchor") == "mm":
            drawn.append((xy[0], xy[1], text, size))
        return draw(self, xy, text, size, *a, **k)

    monkeypatch.setattr(_Canvas, "text", record)
    return drawn


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_headings_fit_their_columns_whole(
    language: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    labels = scorepad_labels(texts(language))
    table = finished(players, seed=4)
    drawn = centred_texts(monkeypatch)
    scorepad_png(table.players, table.history, labels=labels)
    lay = scorepad_layout(players, len(table.history))
    probe = _Canvas(1, 1, None)
    sub_y = lay.header_top + lay.header_height + lay.sub_height / 2
    head_y = lay.header_top + lay.header_height / 2
    left_edge = lay.margin
    boxes = {  # each heading's room: (left, right) in pixels
        labels.round: (left_edge, left_edge + lay.round_width),
        labels.trump: (left_edge + lay.round_width, left_edge + lay.round_width + lay.trump_width),
    }
    headings = [(x, text, size) for x, y, text, size in drawn if y in (sub_y, head_y)]
    shown = {text for _, text, _ in headings}
    assert {labels.round, labels.trump, labels.bid_won, labels.score} <= shown, shown
    for x, text, size in headings:
        half = probe.text_width(text, size) / 2
        if text in boxes:
            lo, hi = boxes[text]
        else:
            column = next(
                lay.column(s) for s in range(players) if lay.column(s)[0] <= x < lay.column(s)[1]
            )
            middle = (column[0] + column[1]) / 2
            lo, hi = (column[0], middle) if x < middle else (middle, column[1])
        assert lo < x - half and x + half < hi, (text, size, x - half, x + half, lo, hi)


def test_a_six_player_scorepad_shows_a_seven_letter_name_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ "Morgana" was cut to "Morga…" above a six-player scorepad (its M is wide) while
    "Player1" fitted; the names now share the largest size at which all of them fit."""
    table = finished(6, seed=4)
    players = ("Player1", "Player2", "Player3", "Bob", "Merlin", "Morgana")
    drawn: list[tuple[str, float]] = []
    draw = _Canvas.text

    def record(self: _Canvas, xy: tuple[float, float], text: str, size: float, *a: Any, **k: Any):
        if k.get("bold"):
            drawn.append((text, size))
        return draw(self, xy, text, size, *a, **k)

    monkeypatch.setattr(_Canvas, "text", record)
    scorepad_png(players, table.history)
    heads = [(text, size) for text, size in drawn if text in players]
    assert [text for text, _ in heads] == list(players)
    assert len({size for _, size in heads}) == 1 and heads[0][1] >= 15


def test_the_chart_legend_shows_computer_players_names_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """QA (demo): the legend of /wizard stats read "Merlin (comp…" beside "Ann (computer)"
    and "Bob (computer)"; the names now share the largest size at which all of them fit."""
    table = finished(4, seed=5)
    players = ("Sam", "Ann (computer)", "Bob (computer)", "Merlin (computer)")
    drawn: list[tuple[str, float]] = []
    draw = _Canvas.text

    def record(self: _Canvas, xy: tuple[float, float], text: str, size: float, *a: Any, **k: Any):
        drawn.append((text, size))
        return draw(self, xy, text, size, *a, **k)

    monkeypatch.setattr(_Canvas, "text", record)
    score_chart_png(players, table.history, highlight=0)
    names = [
        (text, size)
        for text, size in drawn
        if text.split(" ")[0] in ("Sam", "Ann", "Bob", "Merlin")
    ]
    assert [text for text, _ in names] == list(players)
    assert len({size for _, size in names}) == 1 and names[0][1] >= 14
