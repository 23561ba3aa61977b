"""The scorepad: a row per scored round with each player's bid, tricks and running total."""

from __future__ import annotations

from typing import Any

from wizard.rules import winners
from wizard.state import GameState


def scorepad_data(state: GameState) -> dict[str, Any]:
    """The scorepad as plain data, as ``python -m wizard replay --json`` prints it.

    Lists are in seat order; ``scores`` are running totals; ``winners`` holds
    seat numbers, or is ``None`` while the game is not over.
    """
    won = winners(state)
    return {
        "rounds": [
            {"bids": list(r.bids), "tricks": list(r.tricks), "scores": list(r.totals)}
            for r in state.history
        ],
        "totals": list(state.scores),
        "winners": None if won is None else list(won),
    }


def format_scorepad(state: GameState) -> str:
    """The scorepad as a text table, like the paper pad: ``bid/won total`` per player."""
    names = list(state.players)
    # Running totals, signed only when negative: a "+" would read as the points of the round.
    cells = [[f"{b}/{t} {s:d}" for b, t, s in zip(r.bids, r.tricks, r.totals, strict=True)]
             for r in state.history]  # fmt: skip
    widths = [max([len(name), 10, *(len(row[i]) for row in cells)]) for i, name in enumerate(names)]
    lines = ["round  " + "  ".join(n.rjust(w) for n, w in zip(names, widths, strict=True))]
    lines.append("-" * len(lines[0]))
    for r, row in zip(state.history, cells, strict=True):
        lines.append(
            f"{r.round:>5}  " + "  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True))
        )
    lines.append("-" * len(lines[0]))
    lines.append(
        "total  " + "  ".join(f"{s:d}".rjust(w) for s, w in zip(state.scores, widths, strict=True))
    )
    won = winners(state)
    if won is None:
        lines.append(f"Game not finished: {len(state.history)} round(s) scored.")
    else:
        who = " and ".join(names[i] for i in won)
        lines.append(
            f"Winner{'s' if len(won) > 1 else ''}: {who} with {state.scores[won[0]]} points."
        )
    return "\n".join(lines)
