"""Knobs of the game cog that are not per server: pings, live hands, edit pacing, retries."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

EPHEMERAL_EDIT_LIMIT = 15 * 60.0
"""Discord lets a bot edit an ephemeral message through its interaction token for 15 minutes."""


@dataclass(frozen=True, slots=True)
class GameConfig:
    """How the bot presents games; the rules and timers of a game are the service's."""

    ping_delay: float | None = 30.0
    """Seconds a turn may wait, with nothing happening, before its player is mentioned in the
    channel (0: at once; ``None``: never); at most half of a game's turn time limit, so that
    the reminder comes before a computer moves for the player. Players who act quickly are
    never pinged, and at most one ping message per game exists at a time."""
    live_hands: bool = True
    """Edit a player's open hand when it becomes their turn or a new round is dealt, so that
    the buttons are there without another click."""
    edit_interval: float = 0.75
    """Seconds between two edits of a message made for others to watch: a game's table, and
    an open hand whose buttons do not change (new cards dealt while another player bids).
    The first change after a quiet spell is shown at once; further changes within the
    interval are merged into one edit at its end, showing the latest state. A click's own
    answer and a hand whose turn comes are never delayed. 0: no pacing (one edit in flight).

    Keep it below the service's computer delay (1 s by default): computer moves then each get
    an edit of their own, and one held back behind a person's move is late by at most the
    interval, less with each move that follows. Equal to the delay, a card held back once
    would be shown a whole move late from then on."""
    hand_lifetime: float = EPHEMERAL_EDIT_LIMIT - 30.0
    """How long after its last interaction a hand is still edited (Discord allows 15 minutes;
    the margin keeps an edit from racing the expiry)."""
    defer_after: float = 2.0
    """Seconds a click may wait for the service before it is deferred (Discord: 3 s).

    Discord's 3 s run from when it sent the interaction, this wait from when the handler
    starts: the gateway's delivery, a busy event loop waking late and the deferral's own
    request all come out of the last second, which is why it is not closer to 3. A service
    answer takes milliseconds, so only a stalled disk or worker meets it, not ordinary load.
    The wait is on the event loop's clock: under SimCord a simulated one, which SimCord
    still moves on the real clock when a click outlasts this many real seconds; tests that
    count a click's REST calls exactly therefore give it a bound only a hang reaches."""
    retry_after: float = 20.0
    """Seconds before a failed table update is tried again (any new move also retries it)."""
    slow_retry_after: float = 300.0
    """Seconds between retries once a game's updates have failed for :attr:`slow_after`: a
    refusal that lasts (a permission a moderator took) must not cost hundreds of refused
    requests an hour, which count towards Discord's limit of invalid requests per IP
    (faults QA: 180 an hour per game, for ever)."""
    slow_after: float = 600.0
    """Seconds of failing updates after which retries come every :attr:`slow_retry_after`."""
    seeds: Callable[[], int | None] | None = None
    """Seeds of new games (tests and benchmarks, for reproducible deals); ``None``: random."""
