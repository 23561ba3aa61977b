"""The turn ping: who is mentioned and what it says."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.features.table import SHOW_HAND_LABEL
from bot.i18n import N_, Texts
from bot.vocabulary import _bold
from wizard.state import Phase

PING_TEXTS: Final[dict[Phase, str]] = {
    Phase.CHOOSE_TRUMP: N_(
        "{players}: your turn to choose trump (Wizard, round {round}). Press {button}."
    ),
    Phase.BID: N_("{players}: your turn to bid (Wizard, round {round}). Press {button}."),
    Phase.PLAY: N_("{players}: your turn to play (Wizard, round {round}). Press {button}."),
}
"""The turn reminder by phase: ``{players}`` are mentions, ``{button}`` the table's button."""


PING_ACT: Final = N_("{players}: your turn to act (Wizard, round {round}). Press {button}.")
"""The turn reminder in any other phase."""


PING_BID_ON_TABLE: Final = N_(
    "{players}: your turn to bid (Wizard, round {round}), with the buttons on the table."
)
"""The turn reminder for an open bid, made on the table (:func:`bids_on_table`)."""


def ping_text(
    mentions: Sequence[str], phase: Phase, round_no: int, *, t: Texts, on_table: bool = False
) -> str:
    """The turn reminder: who is awaited and for what (``on_table``: a bid made with the
    table's buttons)."""
    text = t(
        PING_BID_ON_TABLE if on_table else PING_TEXTS.get(phase, PING_ACT),
        players=" ".join(mentions),
        round=round_no,
        button=_bold(t(SHOW_HAND_LABEL)),
    )
    return f"🔔 {text}"
