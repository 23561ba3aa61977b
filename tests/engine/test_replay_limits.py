"""``python -m wizard replay`` on hostile records: names with lone surrogates or terminal
escapes, records too large to parse, the same key twice. No traceback, no raw control
characters, a clear message and exit status 2 for input that is no record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from tests.engine.helpers import ROOT, WriteRecord
from wizard.__main__ import main
from wizard.record import MAX_RECORD_BYTES, RecordTooLargeError, UnreadableRecordError, load

HANG_BOUND = 300
"""Seconds after which a child process counts as hung: only a guard against a hang, far
above the few seconds it takes on a loaded machine (no test measures how long it takes)."""
EVIL = "\x1b]0;pwned\x07\x1b[2J\x1b[31mEve\u202e"
"""A window title, a clear screen, red text and a right-to-left override."""


def run(*args: str, stdin: bytes | None = None, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "wizard", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        timeout=HANG_BOUND,
        check=False,
    )


def raw_controls(output: bytes) -> list[str]:
    """Control and bidi characters in the output, other than line breaks."""
    text = output.decode("utf-8", "replace")
    return [
        c
        for c in text
        if (unicodedata.category(c) == "Cc" and c not in "\n\r\t")
        or (unicodedata.category(c) in ("Cf", "Cs") and c != "\u200d")
    ]


def named(r64: dict[str, Any], *names: str) -> str:
    r64["players"] = list(names)
    return json.dumps(r64)  # ensure_ascii: "\ud800" is written as a valid JSON escape


@pytest.mark.parametrize(
    "names",
    [
        pytest.param(("Ann\ud800", "Bob\udfff", "\ud83d"), id="lone-surrogates"),
        pytest.param((EVIL, "Bob", "Cy"), id="terminal-escapes"),
        pytest.param(("\x1b[2J", "\u202e\u2066", "\u200b"), id="nothing-visible"),
    ],
)
def test_hostile_names_print_no_traceback_and_no_controls(
    r64: dict[str, Any], write_record: WriteRecord, names: tuple[str, ...]
) -> None:
    path = write_record(named(r64, *names))
    for args in (("replay", str(path)), ("replay", str(path), "--json")):
        done = run(*args)
        assert done.returncode == 0, done.stderr
        assert b"Traceback" not in done.stderr and done.stderr == b""
        assert raw_controls(done.stdout) == []
    text = run("replay", str(path)).stdout.decode()
    assert "round" in text and "total" in text


def test_hostile_names_in_a_refusal_are_shown_harmlessly(
    r64: dict[str, Any], write_record: WriteRecord
) -> None:
    """The message of an illegal record names players: cleaned, and escaped if need be."""
    r64["rounds"][0]["bids"] = [None, 1, 1]  # a bid after a seat without one
    path = write_record(named(r64, EVIL, "Bob\ud800", "Cy"))
    done = run("replay", str(path))
    assert done.returncode == 1
    assert b"Traceback" not in done.stderr
    assert raw_controls(done.stderr) == []
    assert "illegal record" in done.stderr.decode()


def test_a_terminal_that_cannot_show_a_name_gets_escapes(
    r64: dict[str, Any], write_record: WriteRecord
) -> None:
    path = write_record(named(r64, "Zoë 🎲", "山田", "Bob"))
    done = run("replay", str(path), PYTHONIOENCODING="ascii")
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    assert b"Zo\\xeb \\U0001f3b2" in done.stdout


def _big(size: int) -> bytes:
    """A syntactically valid JSON record padded to ``size`` bytes with spaces."""
    core = b'{"players": ["A", "B", "C"], "first_dealer": 0}'
    return core[:-1] + b" " * (size - len(core)) + b"}"


def test_a_record_over_the_limit_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(_big(MAX_RECORD_BYTES + 1))
    done = run("replay", str(path))
    assert done.returncode == 2
    assert done.stdout == b""
    err = done.stderr.decode()
    assert "too large for a game record" in err and "5 MB" in err
    assert "Traceback" not in err
    # From standard input too, where the size is not known beforehand.
    piped = run("replay", "-", stdin=_big(MAX_RECORD_BYTES + 1))
    assert piped.returncode == 2 and "too large" in piped.stderr.decode()


def test_a_record_at_the_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "padded.json"
    path.write_bytes(_big(MAX_RECORD_BYTES))
    done = run("replay", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["totals"] == [0, 0, 0]


def test_a_huge_record_is_refused_without_being_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A sparse 1 GB file: refused by its size, before a byte is read (it took 21 s and
    624 MB to parse 26 MB before the limit); the message gives the size it saw."""
    path = tmp_path / "huge.json"
    with path.open("wb") as file:
        file.truncate(1 << 30)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "too large for a game record (1,073,741,824 bytes)" in err


def test_load_refuses_oversized_text() -> None:
    with pytest.raises(RecordTooLargeError):
        load(_big(MAX_RECORD_BYTES + 1))
    with pytest.raises(RecordTooLargeError):
        load(_big(MAX_RECORD_BYTES + 1).decode())
    with pytest.raises(RecordTooLargeError):  # counted in UTF-8 bytes, not characters
        load('{"players": ["' + "é" * (MAX_RECORD_BYTES // 2 + 1) + '"]}')
    assert issubclass(RecordTooLargeError, UnreadableRecordError)


@pytest.mark.parametrize(
    "text",
    [
        '{"players": ["A", "B", "C"], "first_dealer": 0, "first_dealer": 1}',
        '{"players": ["A", "B", "C"], "players": ["X", "Y", "Z"], "first_dealer": 0}',
        '{"players": ["A", "B", "C"], "first_dealer": 0, "options": '
        '{"canadian": true, "canadian": false}}',
    ],
)
def test_duplicate_keys_are_refused(
    text: str, write_record: WriteRecord, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(UnreadableRecordError, match="appears twice"):
        load(text)
    assert main(["replay", str(write_record(text))]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "appears twice in one object" in err and "Traceback" not in err


def test_a_duplicate_key_with_an_escape_in_it_is_named_harmlessly(
    write_record: WriteRecord, capsys: pytest.CaptureFixture[str]
) -> None:
    text = '{"players": ["A", "B", "C"], "\\u001b[2J": 1, "\\u001b[2J": 2}'
    assert main(["replay", str(write_record(text))]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "appears twice" in err
