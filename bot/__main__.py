"""``python -m bot``: the command line of :mod:`bot.cli`, loaded inside the one guard against
Ctrl-C: pressed while Python still loads the command (its first half second), it ends in one
line, as it does later, when each command's own work answers it saying what was left, not
in a traceback (operator QA)."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable


def launch(run: Callable[[], int] | None = None) -> int:
    """Run the command line (``run``: instead, for a test); the exit status."""
    # A file name that is not UTF-8 reaches Python as escaped bytes, which standard output
    # refuses to print under most locales (operator QA: check ended in a traceback). It is
    # printed escaped, as standard error prints it.
    if sys.stdout is not None and sys.stdout.errors == "strict":
        sys.stdout.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    try:
        if run is None:
            from bot.cli import main

            run = main
        status = run()
        if sys.stdout is not None:
            sys.stdout.flush()  # here, where a reader gone is caught, not at the exit
        return status
    except BrokenPipeError:
        # The reader of the output went away (check | head -1): stop as the shell's own
        # tools do, without a word, with the status of SIGPIPE (operator QA: a traceback).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except KeyboardInterrupt:
        print("wizard bot: stopped (Ctrl-C) before it began: nothing was done", file=sys.stderr)
        return 128 + signal.SIGINT


if __name__ == "__main__":
    sys.exit(launch())
