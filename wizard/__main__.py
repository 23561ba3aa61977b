"""Terminal entry point: ``python -m wizard replay|play|simulate …``.

``replay FILE [--json]`` checks a game record and prints its scorepad; ``play``
plays a game against computer players; ``simulate`` measures computer players
against each other (see :mod:`wizard.ai.simulate`).

``replay`` exits with 0 for a legal record, 1 for an illegal one, 2 for input that is no
record at all (unreadable, not JSON, the same key twice, over 5 MB). A record is foreign
input: its names are cleaned (:func:`wizard.names.clean_name`) and everything printed is
made safe for a terminal (:func:`wizard.names.printable`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import BinaryIO, TextIO

from wizard import play
from wizard.ai import simulate
from wizard.errors import RecordError
from wizard.names import clean_name, printable
from wizard.record import (
    MAX_RECORD_BYTES,
    RecordTooLargeError,
    UnreadableRecordError,
    load,
    replay,
)
from wizard.scorepad import format_scorepad, scorepad_data

EXIT_OK, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2


def _say(text: str, stream: TextIO) -> None:
    """Write a line that nothing in a record can turn into a terminal command or a crash."""
    safe = printable(text)
    encoding = getattr(stream, "encoding", None) or "utf-8"
    # A terminal that cannot show a name's letters gets escapes instead of a traceback.
    print(safe.encode(encoding, "backslashreplace").decode(encoding), file=stream)


def _read_limited(source: BinaryIO) -> bytes:
    """At most one byte over the limit: enough to know that the input is too large."""
    data = source.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise RecordTooLargeError()
    return data


def _read(name: str) -> bytes:
    if name == "-":
        return _read_limited(sys.stdin.buffer)
    path = Path(name)
    size = path.stat().st_size
    if size > MAX_RECORD_BYTES:
        raise RecordTooLargeError(size)  # refused before a byte is read
    with path.open("rb") as file:
        return _read_limited(file)  # a file that grew, or a device, stops at the limit too


def _replay(args: argparse.Namespace) -> int:
    try:
        text = _read(args.file)
    except OSError as e:
        _say(f"cannot read {args.file}: {e.strerror or e}", sys.stderr)
        return EXIT_UNREADABLE
    except RecordTooLargeError as e:
        _say(f"{args.file}: {e}", sys.stderr)
        return EXIT_UNREADABLE
    try:
        record = load(text)
        record = record.model_copy(update={"players": [clean_name(p) for p in record.players]})
        state = replay(record)
    except UnreadableRecordError as e:
        _say(f"{args.file}: {e}", sys.stderr)
        return EXIT_UNREADABLE
    except RecordError as e:
        _say(f"{args.file}: illegal record: {e}", sys.stderr)
        return EXIT_ILLEGAL
    if args.json:
        print(json.dumps(scorepad_data(state)))
    else:
        _say(format_scorepad(state), sys.stdout)
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Run the terminal tools; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m wizard", description="Wizard, in the terminal."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    replay_cmd = commands.add_parser(
        "replay",
        help="check a game record and print its scorepad",
        description="Check a game record and print its scorepad. Exit status: 0 legal, "
        "1 illegal record, 2 not a record (unreadable, not JSON, a key twice, over "
        f"{MAX_RECORD_BYTES // (1024 * 1024)} MB).",
    )
    replay_cmd.add_argument(
        "file",
        help="the record's JSON file, or - for standard input "
        f"(at most {MAX_RECORD_BYTES // (1024 * 1024)} MB)",
    )
    replay_cmd.add_argument("--json", action="store_true", help="print the scorepad as JSON")
    replay_cmd.set_defaults(run=_replay)
    play_cmd = commands.add_parser("play", help="play a game against computer players")
    play.add_arguments(play_cmd)
    play_cmd.set_defaults(run=play.run)
    simulate_cmd = commands.add_parser(
        "simulate", help="measure computer players in duplicate matches"
    )
    simulate.add_arguments(simulate_cmd)
    simulate_cmd.set_defaults(run=simulate.run)
    args = parser.parse_args(argv)
    status: int = args.run(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
