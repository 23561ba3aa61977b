"""Settings for the whole suite: no test may fail because the machine is busy, or because of
how the run was started."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis fails an example that takes longer than 200 ms, and a test whose data is slow
# to generate, by default: wall-clock limits that a loaded machine exceeds with no bug at
# all. The examples, their number and the seeds stay as each test sets them.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")


@pytest.fixture(autouse=True)
def ctrl_c_as_in_a_terminal() -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt, as in a command typed at a terminal, however the test
    run was started: a shell without job control starts a background job (`pytest &`, a
    loop of runs) with SIGINT ignored, and Python then leaves it ignored, so the tests of
    what Ctrl-C does failed there, and only there."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
