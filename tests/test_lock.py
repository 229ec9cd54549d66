"""The lock files say what pyproject.toml asks for, so every machine installs the same.

`make run` and `make test` install exactly the versions in requirements/*.txt, each file
checked against its hashes; `make lock` writes them from pyproject.toml. A dependency added,
removed or re-ranged in pyproject.toml without `make lock` fails here, before any machine
installs something else than the lock says.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
REQUIREMENTS = ROOT / "requirements"
RELOCK = "pyproject.toml and the lock files disagree: run `make lock` and commit requirements/"

_PIN = re.compile(
    r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>[^\s;\\]+)(?:\s*;\s*(?P<marker>[^\\]+?))?\s*\\?$"
)


@dataclass
class Pin:
    version: str
    marker: str | None
    hashes: int = 0
    wanted_by: tuple[str, ...] = ()


def read_lock(path: Path) -> dict[str, Pin]:
    """The pins of a lock file written by `uv pip compile --generate-hashes`."""
    pins: dict[str, Pin] = {}
    current: Pin | None = None
    via: list[str] = []
    for line in path.read_text().splitlines():
        stripped = line.strip()
        match = _PIN.match(line)
        if match:
            if current is not None:
                current.wanted_by = tuple(via)
            via = []
            current = Pin(match["version"], match["marker"])
            pins[canonicalize_name(match["name"])] = current
        elif stripped.startswith("--hash=sha256:") and current is not None:
            current.hashes += 1
        elif stripped.startswith("# via") and current is not None:
            rest = stripped.removeprefix("# via").strip()
            if rest:
                via.append(rest)
        elif stripped.startswith("#   ") and current is not None:
            via.append(stripped.removeprefix("#").strip())
    if current is not None:
        current.wanted_by = tuple(via)
    return pins


def project() -> dict[str, list[Requirement]]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return {
        "run": [Requirement(text) for text in data["dependencies"]],
        "dev": [Requirement(text) for text in data["optional-dependencies"]["dev"]],
    }


@pytest.mark.parametrize("name", ["build.txt", "run.txt", "dev.txt"])
def test_every_pin_has_hashes_and_an_exact_version(name: str) -> None:
    pins = read_lock(REQUIREMENTS / name)
    assert pins, name
    for package, pin in pins.items():
        assert pin.hashes >= 1, f"{name}: {package} has no hash"


def test_the_runtime_lock_holds_every_dependency_in_range() -> None:
    pins = read_lock(REQUIREMENTS / "run.txt")
    for requirement in project()["run"]:
        pin = pins.get(canonicalize_name(requirement.name))
        assert pin is not None, f"{requirement.name} is not in run.txt: {RELOCK}"
        assert requirement.specifier.contains(pin.version, prereleases=True), (
            f"{requirement} but run.txt has {pin.version}: {RELOCK}"
        )


def test_the_dev_lock_holds_the_dev_tools_and_the_same_runtime() -> None:
    run = read_lock(REQUIREMENTS / "run.txt")
    dev = read_lock(REQUIREMENTS / "dev.txt")
    for requirement in project()["run"] + project()["dev"]:
        pin = dev.get(canonicalize_name(requirement.name))
        assert pin is not None, f"{requirement.name} is not in dev.txt: {RELOCK}"
        assert requirement.specifier.contains(pin.version, prereleases=True), (
            f"{requirement} but dev.txt has {pin.version}: {RELOCK}"
        )
    # the bot under test is the bot that runs: same versions of everything it installs
    for package, pin in run.items():
        assert package in dev, f"{package} is in run.txt only: {RELOCK}"
        assert dev[package].version == pin.version, f"{package}: {RELOCK}"


@pytest.mark.parametrize("name", ["run.txt", "dev.txt"])
def test_nothing_is_locked_that_nothing_asks_for(name: str) -> None:
    pins = read_lock(REQUIREMENTS / name)
    direct = {canonicalize_name(r.name) for r in project()["run"]}
    if name == "dev.txt":
        direct |= {canonicalize_name(r.name) for r in project()["dev"]}
    for package, pin in pins.items():
        assert pin.wanted_by, f"{name}: {package} says nothing of who wants it"
        for who in pin.wanted_by:
            if who.startswith("leafbot"):
                assert package in direct, f"{name}: {package} is no longer asked for: {RELOCK}"
            else:
                assert canonicalize_name(who) in pins, f"{name}: {package} wanted by {who}"


def test_the_build_lock_holds_what_the_build_needs() -> None:
    pins = read_lock(REQUIREMENTS / "build.txt")
    system = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]
    for text in system["requires"]:
        requirement = Requirement(text)
        pin = pins.get(canonicalize_name(requirement.name))
        assert pin is not None and requirement.specifier.contains(pin.version), RELOCK


def test_the_makefile_installs_from_the_locks_with_hashes() -> None:
    makefile = (ROOT / "Makefile").read_text()
    for lock in ("LOCK_BUILD", "LOCK_RUN", "LOCK_DEV"):
        assert f"install --require-hashes -r $({lock})" in makefile
    # the project itself on top, resolving nothing again
    assert "install --no-deps --no-build-isolation -e ." in makefile
