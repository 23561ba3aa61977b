"""``python -m wizard play`` driven through its input, and ``simulate`` on a tiny match."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest

from wizard.__main__ import main
from wizard.ai import SearchPlayer
from wizard.ai.simulate import player_factory
from wizard.play import Terminal, add_arguments, run
from wizard.record import load, replay

ROOT = Path(__file__).parents[2]
HANG_BOUND = 300
"""Seconds after which a child process counts as hung: only a guard against a hang, far
above the few seconds it takes on a loaded machine (no test measures how long it takes)."""


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(list(argv))


class Script:
    """Plays the human by reading each prompt; records everything said and asked."""

    def __init__(self, answers: list[str] | None = None, *, provoke: bool = False) -> None:
        self.answers = answers or []
        self.provoke = provoke
        """First try a held card that does not follow suit, whenever there is one."""
        self.lines: list[str] = []
        self.prompts: list[str] = []

    def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.answers:
            return self.answers.pop(0)
        if prompt.startswith("Your bid"):
            banned = re.search(r"not (\d+)", prompt)
            return "1" if banned and banned.group(1) == "0" else "0"
        if prompt.startswith("Your card"):
            playable = prompt[prompt.index("(") + 1 : prompt.rindex(")")].split()
            held = next(x for x in reversed(self.lines) if x.startswith("Your hand:")).split()[2:]
            wrong = [c for c in held if c not in playable]
            if self.provoke and wrong and not self.lines[-1].startswith("Not allowed"):
                return wrong[0]
            return playable[0]
        if "trump" in prompt:
            return "R"
        raise EOFError

    def say(self, line: str) -> None:
        self.lines.append(line)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def test_a_whole_game_in_the_terminal(tmp_path: Path) -> None:
    script = Script(provoke=True)
    record = tmp_path / "game.json"
    args = _args("--players", "3", "--level", "easy", "--no-variants", "--seed", "5",
                 "--record", str(record))  # fmt: skip
    assert run(args, Terminal(script.ask, script.say)) == 0
    assert "Round 20 scored:" in script.text
    assert re.search(r"Winners?: ", script.text)
    assert sum(p.startswith("Your bid") for p in script.prompts) == 20
    refusals = [x for x in script.lines if x.startswith("Not allowed")]
    assert refusals
    assert all(
        re.fullmatch(r"Not allowed: you must follow suit [BRGY] \(R5\.3\).*", x) for x in refusals
    )
    state = replay(load(record.read_text()))
    assert len(state.history) == 20


def test_setup_questions_are_validated() -> None:
    script = Script(["9", "3", "expert", "easy", "single, magic", "psychic", "uneven"])
    assert run(_args("--seed", "2"), Terminal(script.ask, script.say)) == 0
    said = script.text
    assert "Please type a number from 3 to 6." in said
    assert "Please answer one of: random, easy, normal, hard." in said
    assert "That combination cannot be played: magic twos need a suit" in said
    assert "Unknown variant 'psychic'." in said
    assert "Options: uneven bids." in said


def test_bad_moves_are_refused_with_the_reason() -> None:
    script = Script(["abc", "7", "0", "Q9", "quit"])
    args = _args("--players", "3", "--level", "easy", "--no-variants", "--seed", "11")
    assert run(args, Terminal(script.ask, script.say)) == 1
    refusals = [line for line in script.lines if line.startswith("Not allowed")]
    assert refusals[0] == "Not allowed: 'abc' is not a whole number"
    assert "from 0 to 1, not 7" in refusals[1]
    assert "'Q9' is not a card" in refusals[2]
    assert "Game stopped." in script.lines


def test_play_from_standard_input() -> None:
    """The real command, with its input piped in: a bid, a wrong card, then quit."""
    done = subprocess.run(
        [sys.executable, "-m", "wizard", "play", "--players", "4", "--level", "easy",
         "--no-variants", "--seed", "3", "--theme", "standard"],
        input="0\nW9\nq\n", capture_output=True, text=True, cwd=ROOT, check=False,
        timeout=HANG_BOUND,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "Your bid (0-1): 0" in done.stdout  # the piped answer is echoed after the prompt
    assert "Not allowed: 'W9' is not a card" in done.stdout
    assert "Game stopped." in done.stdout
    assert "round" in done.stdout  # the scorepad so far


def test_simulate_writes_its_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "strength.md"
    argv = "simulate --candidate heuristic --baseline random --players 3 4 --deals 2 --workers 1"
    status = main([*argv.split(), "--out", str(out)])
    assert status == 0
    table = out.read_text()
    assert re.search(r"^\| 3 \| 2 \| \+\d+\.\d \| \[", table, re.MULTILINE)
    assert re.search(r"^\| 4 \| 2 \| ", table, re.MULTILINE)
    assert "| 20 | " in table  # |bid - tricks| of the 20-card round
    assert "3 players: 8/8 games" in capsys.readouterr().err
    argv = "simulate --candidate random --baseline random --players 3 --deals 1 --workers 1"
    assert main([*argv.split(), "--out", str(out), "--append"]) == 0
    both = out.read_text()
    assert both.startswith(table.rstrip())
    assert both.count("## `") == 2
    assert both.count("# Computer players: measured strength") == 1


def test_simulate_runs_on_several_processes() -> None:
    argv = "simulate --candidate random --baseline random --players 6 --deals 1 --workers 2"
    status = main([*argv.split(), "--out", "-"])
    assert status == 0


def test_simulate_refuses_impossible_setups(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "5", "--variant", "single_suit", "--out", "-"]) == 2
    assert "single suit is for 3 or 4 players" in capsys.readouterr().err
    assert main(["simulate", "--candidate", "search:x", "--out", "-"]) == 2


def test_search_specs_set_the_budget_knobs() -> None:
    player = player_factory("search:5:b3:t2:w1")(7)
    assert isinstance(player, SearchPlayer)
    assert (player.iterations, player.bid_factor, player.inference_tries) == (5, 3, 2)
    assert (player.bid_window, player.time_limit) == (1, None)
    with pytest.raises(ValueError, match="bad player"):
        player_factory("search:5:x3")
