"""The type checker's settings stay strict: ``mypy --strict`` on every package it checks,
none exempt, and a ``# type: ignore`` only for one named error and with its reason.

``make typecheck`` runs mypy itself; this holds the configuration it runs with, so that a
package cannot quietly fall back to mypy's lenient default mode.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = (
    "engine",
    "matchcore",
    "render",
    "i18n",
    "tutorial",
    "wording",
    "bot",
    "web",
    "bench",
    "discord_sim",
)
# the flags that weaken what --strict checks, in a module's override or globally
LENIENT = {
    "ignore_errors",
    "disable_error_code",
    "allow_untyped_defs",
    "allow_incomplete_defs",
    "allow_untyped_calls",
    "allow_untyped_globals",
    "allow_any_generics",
    "allow_subclassing_any",
    "allow_untyped_decorators",
    "check_untyped_defs",
    "disallow_untyped_defs",
    "disallow_any_generics",
    "warn_return_any",
    "implicit_reexport",
    "follow_imports",
}
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[^\]]*\])?(?P<rest>.*)$")


def _mypy() -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["mypy"]


def test_mypy_runs_strict_on_every_package() -> None:
    mypy = _mypy()
    assert mypy.get("strict") is True
    assert sorted(str(name) for name in mypy["files"]) == sorted(PACKAGES)
    assert not LENIENT & set(mypy), "a global flag weakens --strict"


def test_no_module_is_exempt_from_strict() -> None:
    # an override may only concern a third-party module (one without hints, say)
    for override in _mypy().get("overrides", []):
        modules = override["module"]
        for module in [modules] if isinstance(modules, str) else modules:
            assert module.split(".")[0] not in PACKAGES, override


def test_every_type_ignore_names_its_error_and_says_why() -> None:
    vague = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            lines = path.read_text(encoding="utf-8").splitlines()
            for number, line in enumerate(lines):
                found = IGNORE.search(line)
                if found is None:
                    continue
                previous = lines[number - 1].strip() if number else ""
                reason = found["rest"].strip().startswith("#") or previous.startswith("#")
                if not found["codes"] or not reason:
                    vague.append(f"{path.relative_to(ROOT)}:{number + 1}: {line.strip()}")
    assert not vague, "\n".join(vague)
