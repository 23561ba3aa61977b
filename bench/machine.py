"""What the benchmarks' figures were measured on (imported by the scripts beside it)."""

from __future__ import annotations

import os
import platform
import sqlite3
from pathlib import Path


def machine() -> str:
    """The system, CPU count and model, Python and SQLite versions."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{platform.system()} {platform.release()}, {os.cpu_count()} CPUs ({cpu}),"
        f" Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}"
    )
