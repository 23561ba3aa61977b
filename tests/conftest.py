"""Settings for the whole suite: no test may fail because the machine is busy."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

# Hypothesis fails an example that takes longer than 200 ms, and a test whose data is slow
# to generate, by default: wall-clock limits that a loaded machine exceeds with no bug at
# all. The examples, their number and the seeds stay as each test sets them.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")
