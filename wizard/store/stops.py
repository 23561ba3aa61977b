"""Stopping on signals: which to catch, and holding them back while a file is renamed.

A signal ignored stays ignored (review: under ``nohup``, which asks that a process outlive
its terminal, a hang-up stopped a backup).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

Handler = Callable[[int, Any], Any] | int | None
"""What ``signal.getsignal`` returns: a function, ``SIG_DFL``/``SIG_IGN``, or ``None``."""


def not_ignored(*signums: signal.Signals) -> tuple[signal.Signals, ...]:
    """Those of ``signums`` that this process does not ignore."""
    return tuple(s for s in signums if signal.getsignal(s) != signal.SIG_IGN)


def caught(
    handler: Callable[[int, Any], Any], *signums: signal.Signals
) -> dict[signal.Signals, Handler]:
    """Have ``handler`` catch those of ``signums`` not ignored; their handlers before, for
    :func:`put_back`."""
    before: dict[signal.Signals, Handler] = {}
    try:
        for s in not_ignored(*signums):
            before[s] = signal.getsignal(s)  # first: a stop may come as it is replaced
            signal.signal(s, handler)
    except BaseException:  # a stop as they are being caught: none stays caught
        put_back(before)
        raise
    return before


def put_back(before: Mapping[signal.Signals, Handler]) -> None:
    """Give each signal back the handler it had (``None``: one not set from Python, which
    the default stands for)."""
    for s, handler in before.items():
        signal.signal(s, signal.SIG_DFL if handler is None else handler)


@contextlib.contextmanager
def signals_held() -> Iterator[Sequence[int]]:
    """Hold back Ctrl-C (SIGINT), SIGTERM and SIGHUP while the block runs: one that came
    meanwhile takes effect after it, through the handler it would have met. The block is
    given the signals held so far, to end early at a point of its choosing.

    Held by handlers, not by blocking the signals: a blocked signal for the process is
    delivered to any other thread that does not block it (a library's), and Python then
    runs its handler in the main thread inside the block after all. Python runs handlers,
    and raises KeyboardInterrupt, in the main thread only: a block in another thread just
    runs."""
    came: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield came
        return

    def hold(signum: int, frame: object) -> None:
        if signum not in came:
            came.append(signum)

    before = caught(hold, signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
    try:
        yield came
    finally:
        # Ctrl-C's own handler last, so that nothing can cut the first short.
        interrupt = {s: before.pop(s) for s in [signal.SIGINT] if s in before}
        try:
            put_back(before)
        finally:
            put_back(interrupt)
        for signum in came:
            signal.raise_signal(signum)
