"""The lock files: every package pinned with hashes, and in step with pyproject.toml's ranges.

A range changed in pyproject.toml without ``scripts/lock.sh`` fails here, not in a Docker
build weeks later.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCKS = {
    "requirements.txt": (),
    "requirements-demo.txt": ("demo",),
    "requirements-dev.txt": ("dev", "demo"),
}
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s;\\]+)")


def _pins(name: str) -> dict[str, tuple[str, int]]:
    """Package → (version, number of hashes) of one lock file."""
    pins: dict[str, tuple[str, int]] = {}
    current = None
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        match = PIN.match(line)
        if match:
            current = canonicalize_name(match[1])
            pins[current] = (match[2], 0)
        elif "--hash=sha256:" in line and current is not None:
            version, hashes = pins[current]
            pins[current] = (version, hashes + 1)
        elif line and not line.startswith((" ", "#")):
            raise AssertionError(f"{name}: not a pinned requirement: {line!r}")
    return pins


def _wanted(extras: tuple[str, ...]) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [Requirement(r) for r in project["dependencies"]]
    for extra in extras:
        wanted += [Requirement(r) for r in project["optional-dependencies"][extra]]
    build = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wanted += [Requirement(r) for r in build["build-system"]["requires"]]
    return wanted


@pytest.mark.parametrize("name", sorted(LOCKS))
def test_every_package_is_pinned_with_hashes(name: str) -> None:
    pins = _pins(name)
    assert pins
    for package, (_, hashes) in pins.items():
        assert hashes >= 1, f"{name}: {package} has no hash"


@pytest.mark.parametrize("name", sorted(LOCKS))
def test_the_lock_satisfies_pyproject(name: str) -> None:
    pins = _pins(name)
    for requirement in _wanted(LOCKS[name]):
        package = canonicalize_name(requirement.name)
        assert package in pins, f"{name} lacks {requirement}: run scripts/lock.sh"
        version = pins[package][0]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"{name} pins {package}=={version}, outside {requirement}: run scripts/lock.sh"
        )
