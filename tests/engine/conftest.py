"""Fixtures of the engine tests (plain helpers live in ``tests/engine/helpers.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.engine.helpers import WriteRecord, r64_record


@pytest.fixture
def r64() -> dict[str, Any]:
    """The worked example R6.4 as a record dict (a fresh copy per test)."""
    return r64_record()


@pytest.fixture
def write_record(tmp_path: Path) -> WriteRecord:
    """Write a record (dict → JSON, or text/bytes as is) to a file in ``tmp_path``."""
    counter = iter(range(1_000_000))

    def write(content: Any) -> Path:
        path = tmp_path / f"record{next(counter)}.json"
        if isinstance(content, bytes):
            path.write_bytes(content)
        elif isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_text(json.dumps(content), encoding="utf-8")
        return path

    return write
