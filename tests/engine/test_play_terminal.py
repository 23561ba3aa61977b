"""``python -m wizard play``: a ``--help`` that explains itself, and suits in colour only on
a terminal that shows colours (plain when piped, or when ``NO_COLOR`` is set)."""

from __future__ import annotations

import argparse
import io
import os
import pty
import subprocess
import sys

import pytest

from tests.engine.helpers import ROOT
from wizard.cards import Card, Theme
from wizard.play import Terminal, add_arguments, colour_wanted

ESC = "\x1b"
GAME = ["play", "--players", "3", "--level", "easy", "--no-variants", "--seed", "3"]
ANSWERS = "0\nq\n"
HANG_BOUND = 300
"""Seconds after which a child process counts as hung: only a guard against a hang, far
above the few seconds it takes on a loaded machine (no test measures how long it takes)."""
"""A bid, then quit: enough for a table, a hand and the scorepad to be printed."""


def _env(**changes: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    env["PYTHONPATH"] = str(ROOT)
    env["TERM"] = "xterm-256color"
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def _help() -> str:
    done = subprocess.run(
        [sys.executable, "-m", "wizard", "play", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_env(COLUMNS="80"),
        timeout=HANG_BOUND,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _option_blocks(text: str) -> dict[str, str]:
    """Each option of the help, with its help text (the lines under it)."""
    blocks: dict[str, str] = {}
    current = ""
    for line in text.split("options:", 1)[1].splitlines():
        if line.startswith("  -"):
            current = line.split()[0].rstrip(",")
            blocks[current] = line
        elif current:
            blocks[current] += "\n" + line
    return blocks


def test_help_shows_every_default() -> None:
    text = _help()
    blocks = _option_blocks(text)
    blocks.pop("-h")
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    defaults = vars(parser.parse_args([]))
    assert set(blocks) == {f"--{name.replace('_', '-')}" for name in defaults} | {"--no-variants"}
    for option, block in blocks.items():
        assert "(default: " in block, option
    # The defaults argparse applies are the ones the help names.
    for name, value in defaults.items():
        if isinstance(value, str):
            assert f"(default: {value})" in blocks[f"--{name}"]
    assert all(len(line) <= 80 for line in text.splitlines() if "{" not in line)


def test_help_explains_bidding_themes_and_variants() -> None:
    text = " ".join(_help().split())
    # Each bidding mode and each theme, with what it means.
    assert "open: one after the other, each bid seen by everyone at once" in text
    assert "hidden: everyone chooses in private, and all bids are shown together" in text
    assert "secret: everyone chooses in private, and the bids stay hidden until the round" in text
    assert "classic: the classic cards: suits B R G Y" in text
    assert "standard: a standard deck: suits ♠ ♥ ♦ ♣" in text
    for variant in ("uneven", "canadian", "clairvoyance", "magic", "single"):
        assert f"{variant}: " in text
    assert "NO_COLOR" in text
    assert "(R7" not in text and "(R4" not in text, "no rule ids in what a player reads"


def _play_on_a_terminal(**env: str | None) -> str:
    """The real command with a pseudo-terminal as its output: what a person would see."""
    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "wizard", *GAME],
            stdin=subprocess.PIPE,
            stdout=follower,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=_env(**env),
        )
    finally:
        os.close(follower)
    assert process.stdin is not None
    process.stdin.write(ANSWERS.encode())
    process.stdin.close()
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the command has exited and closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert process.wait(timeout=HANG_BOUND) == 1  # quit before the end
    return b"".join(chunks).decode()


def test_suits_are_coloured_on_a_terminal() -> None:
    shown = _play_on_a_terminal()
    assert "Your hand: " in shown
    assert f"{ESC}[" in shown
    # A suited card in its suit's colour, then back to plain.
    assert any(f"{ESC}[{code}m" in shown for code in ("31", "32", "33", "34"))
    assert f"{ESC}[0m" in shown


def test_no_colour_when_no_color_is_set() -> None:
    shown = _play_on_a_terminal(NO_COLOR="1")
    assert "Your hand: " in shown
    assert ESC not in shown


def test_no_colour_when_piped() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "wizard", *GAME],
        input=ANSWERS,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_env(),
        timeout=HANG_BOUND,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert "Your hand: " in done.stdout
    assert ESC not in done.stdout


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("choice", "stream", "environ", "wanted"),
    [
        ("auto", _Tty(), {}, True),
        ("auto", io.StringIO(), {}, False),
        ("auto", _Tty(), {"NO_COLOR": "1"}, False),
        ("auto", _Tty(), {"NO_COLOR": ""}, True),  # no-color.org: set and not empty
        ("auto", _Tty(), {"TERM": "dumb"}, False),
        ("always", io.StringIO(), {"NO_COLOR": "1"}, True),  # asked for on the command line
        ("never", _Tty(), {}, False),
    ],
)
def test_colour_wanted(
    choice: str, stream: io.StringIO, environ: dict[str, str], wanted: bool
) -> None:
    assert colour_wanted(choice, stream, environ) is wanted


def test_a_coloured_card_reads_as_its_plain_label() -> None:
    """Colour only wraps the label: what a player types stays the same."""
    for theme in Theme:
        plain = Terminal(theme=theme)
        coloured = Terminal(theme=theme, colour=True)
        for code in ("B1", "R7", "G13", "Y2", "Z", "N"):
            card = Card.parse(code)
            shown = coloured.card(card)
            assert shown.startswith(ESC) and shown.endswith(f"{ESC}[0m")
            assert shown.split("m", 1)[1].removesuffix(f"{ESC}[0m") == plain.card(card)
