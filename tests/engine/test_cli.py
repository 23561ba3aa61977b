"""The terminal: ``python -m wizard replay FILE [--json]``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.engine.helpers import R64_PLAYERS, ROOT, WriteRecord, play_random
from wizard.__main__ import main
from wizard.record import dumps
from wizard.rules import winners


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wizard", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,  # only a guard against a hang: a loaded machine starts Python slowly
        check=False,
    )


def test_R6_4_replay_prints_the_scorepad(r64: dict[str, Any], write_record: WriteRecord) -> None:
    path = write_record(r64)
    done = run("replay", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["round", *R64_PLAYERS]
    rows = [line.split() for line in lines if line.strip()[:1].isdigit()]
    assert rows == [
        ["1", "0/0", "20", "1/0", "-10", "1/1", "30"],
        ["2", "2/1", "10", "0/0", "10", "0/1", "20"],
    ]
    total = next(line for line in lines if line.startswith("total"))
    assert total.split() == ["total", "10", "10", "20"]
    assert "not finished" in lines[-1]


def test_R6_4_replay_json(
    r64: dict[str, Any], write_record: WriteRecord, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_record(r64)
    assert main(["replay", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert json.loads(out) == {
        "rounds": [
            {"bids": [0, 1, 1], "tricks": [0, 0, 1], "scores": [20, -10, 30]},
            {"bids": [2, 0, 0], "tricks": [1, 0, 1], "scores": [10, 10, 20]},
        ],
        "totals": [10, 10, 20],
        "winners": None,
    }


def test_R6_3_finished_game_json_names_the_winners(
    write_record: WriteRecord, capsys: pytest.CaptureFixture[str]
) -> None:
    final = play_random(4, seed=77)
    path = write_record(dumps(final))
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["rounds", "totals", "winners"]
    assert len(data["rounds"]) == 15
    assert all(list(r) == ["bids", "tricks", "scores"] for r in data["rounds"])
    assert data["totals"] == list(final.scores) == data["rounds"][-1]["scores"]
    assert data["winners"] == list(winners(final) or ())
    best = max(final.scores)
    assert data["winners"] == [i for i, s in enumerate(final.scores) if s == best]
    assert [r["bids"] for r in data["rounds"]] == [list(r.bids) for r in final.history]
    assert [r["tricks"] for r in data["rounds"]] == [list(r.tricks) for r in final.history]
    # and the text form names the winner(s)
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    last = text.splitlines()[-1]
    assert last.startswith("Winner")
    assert all(final.players[i] in last for i in data["winners"])
    assert str(best) in last


def test_empty_record_replays_to_an_empty_scorepad(
    write_record: WriteRecord, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_record({"players": ["A", "B", "C"], "first_dealer": 1})
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "rounds": [],
        "totals": [0, 0, 0],
        "winners": None,
    }


def test_replay_reads_standard_input(r64: dict[str, Any]) -> None:
    done = run("replay", "-", "--json", stdin=json.dumps(r64))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["totals"] == [10, 10, 20]


def test_R5_3_illegal_record_exits_1_with_the_message_on_stderr(
    r64: dict[str, Any], write_record: WriteRecord
) -> None:
    r64["rounds"][1]["plays"] = ["R13", "Z", "B2", "B1", "R1", "B13"]  # Giulia holds R1
    path = write_record(r64)
    done = run("replay", str(path))
    assert done.returncode == 1
    assert done.stdout == ""
    assert "round 2" in done.stderr and "R5.3" in done.stderr
    assert "must follow suit" in done.stderr
    assert "Traceback" not in done.stderr
    done_json = run("replay", str(path), "--json")
    assert done_json.returncode == 1 and done_json.stdout == ""


@pytest.mark.parametrize(
    "content",
    [
        pytest.param("this is not JSON", id="not-json"),
        pytest.param(b"\x00\x01\x02", id="binary"),
        pytest.param('{"players": ["A", "B"', id="truncated"),
    ],
)
def test_unreadable_input_exits_2(content: str | bytes, write_record: WriteRecord) -> None:
    path = write_record(content)
    done = run("replay", str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    assert str(path) in done.stderr and "JSON" in done.stderr
    assert "Traceback" not in done.stderr


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.json"
    assert main(["replay", str(missing)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "nope.json" in err and "Traceback" not in err
    done = run("replay", str(missing), "--json")
    assert done.returncode == 2 and "nope.json" in done.stderr


def test_directory_instead_of_a_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and str(tmp_path) in err


def test_usage_errors_exit_with_argparse_status(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 2
    assert "usage" in capsys.readouterr().err
