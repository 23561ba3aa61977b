"""Terminal entry point: ``python -m wizard replay|play|simulate …``.

``replay FILE [--json]`` checks a game record and prints its scorepad; ``play``
plays a game against computer players; ``simulate`` measures computer players
against each other (see :mod:`wizard.ai.simulate`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from wizard import play
from wizard.ai import simulate
from wizard.errors import RecordError
from wizard.record import UnreadableRecordError, load, replay
from wizard.scorepad import format_scorepad, scorepad_data

EXIT_OK, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2


def _replay(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    except OSError as e:
        print(f"cannot read {args.file}: {e.strerror or e}", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        state = replay(load(text))
    except UnreadableRecordError as e:
        print(f"{args.file}: {e}", file=sys.stderr)
        return EXIT_UNREADABLE
    except RecordError as e:
        print(f"{args.file}: illegal record: {e}", file=sys.stderr)
        return EXIT_ILLEGAL
    if args.json:
        print(json.dumps(scorepad_data(state)))
    else:
        print(format_scorepad(state))
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Run the terminal tools; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m wizard", description="Wizard, in the terminal."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    replay_cmd = commands.add_parser(
        "replay", help="check a game record (RULES §9) and print its scorepad"
    )
    replay_cmd.add_argument("file", help="the record's JSON file, or - for standard input")
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
