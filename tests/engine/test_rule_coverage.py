"""Meta test: every rule id of RULES.md is named by the tests."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[3] / "shared" / "RULES.md"
TESTS = Path(__file__).resolve().parents[1]
RULE_ID = re.compile(r"\bR(\d+)\.(\d+)\b")
MENTION = re.compile(r"R(\d+)[._](\d+)(?!\d)")


def rule_ids() -> list[str]:
    """Every id ``R<section>.<n>`` in RULES.md, in order."""
    if not RULES.is_file():
        pytest.skip(f"RULES.md is not at {RULES}: clone the shared/ folder beside the repository")
    found = RULE_ID.findall(RULES.read_text(encoding="utf-8"))
    ids = sorted({(int(a), int(b)) for a, b in found})
    return [f"R{a}.{b}" for a, b in ids]


def mentioned(text: str) -> set[str]:
    """The rule ids a text mentions, spelled ``R5.6`` or ``R5_6``."""
    return {f"R{a}.{b}" for a, b in MENTION.findall(text)}


def test_rule_ids_are_found() -> None:
    ids = rule_ids()
    assert ids[0] == "R1.1" and "R6.4" in ids and "R7.8" in ids and "R8.3" in ids
    assert len(ids) >= 30
    assert mentioned("test_R5_6_first_wizard_wins R7_1+R7.6 R1_10") == {
        "R5.6",
        "R7.1",
        "R7.6",
        "R1.10",
    }


def test_every_rule_id_is_mentioned_under_tests() -> None:
    ids = rule_ids()
    seen: set[str] = set()
    for path in TESTS.rglob("*.py"):
        seen |= mentioned(path.read_text(encoding="utf-8"))
    missing = [i for i in ids if i not in seen]
    assert not missing, f"no test mentions these rules of RULES.md: {', '.join(missing)}"


def named_in(tree: ast.AST) -> set[str]:
    """Names of test functions, and the ids given to parametrized cases, in a module."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            names.add(node.name)
        elif isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg == "id" and isinstance(kw.value, ast.Constant):
                    names.add(str(kw.value.value))
                elif kw.arg == "ids" and isinstance(kw.value, ast.List | ast.Tuple):
                    names |= {str(e.value) for e in kw.value.elts if isinstance(e, ast.Constant)}
    return names


def test_every_rule_id_names_a_test() -> None:
    ids = rule_ids()
    named: set[str] = set()
    for path in TESTS.rglob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name in named_in(tree):
            named |= mentioned(name)
    missing = ", ".join(i for i in ids if i not in named)
    assert not missing, f"no test function name or parametrize id names these rules: {missing}"
