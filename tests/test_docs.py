"""The documentation names only files that are in the repository, and the rules pages stand
on their own (no rulings file or rule seed that a reader of the repository cannot open).
A file outside the repository (a session's scratch record under /work, a temporary file)
is gone on the next machine: a document that points at one points at nothing, even when
the machine the test runs on still has it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FILE_NAME = re.compile(r"`([A-Za-z0-9_./-]+\.(?:md|py|json|jsonl|sql|toml|txt))`")
LINK = re.compile(r"\]\(([^)#\s]+)\)")
PLACEHOLDER = re.compile(r"NNNN|_what\b")
# a path in the workplace of the machine that wrote the document (not a URL's path;
# a command writing to /tmp names no file of the repository)
MACHINE_PATH = re.compile(r"(?<![\w:/.])/work/[\w./-]*")


def repository_files() -> tuple[set[Path], set[str]]:
    paths = {
        path.relative_to(ROOT)
        for path in ROOT.rglob("*")
        if path.is_file() and not {".git", ".venv"} & set(path.relative_to(ROOT).parts)
    }
    return paths, {path.name for path in paths}


def test_every_file_a_document_names_is_in_the_repository():
    paths, names = repository_files()
    missing = []
    for document in DOCS:
        text = document.read_text(encoding="utf-8")
        for name in FILE_NAME.findall(text):
            if PLACEHOLDER.search(name):
                continue
            here = (document.parent / name).resolve()
            inside = here.is_relative_to(ROOT) and here.is_file()
            if Path(name) in paths or inside or Path(name).name in names:
                continue
            missing.append(f"{document.relative_to(ROOT)}: `{name}`")
        for target in LINK.findall(text):
            if not target.startswith(("http://", "https://", "mailto:")) and not (
                (document.parent / target).exists()
            ):
                missing.append(f"{document.relative_to(ROOT)}: link {target}")
    assert not missing, "documents name files that are not in the repository: " + ", ".join(missing)


def test_no_document_points_at_a_machines_own_files():
    found = [
        f"{document.relative_to(ROOT)}: {path}"
        for document in DOCS
        for path in MACHINE_PATH.findall(document.read_text(encoding="utf-8"))
    ]
    assert not found, "documents point at files outside the repository: " + ", ".join(found)


def test_the_rules_pages_cite_no_rulings_file_or_rule_seed():
    for page in sorted((ROOT / "docs" / "rules").glob("*.md")):
        text = " ".join(page.read_text(encoding="utf-8").split())
        assert "RULINGS" not in text, page.name
        assert not re.search(r"\bthe seed\b|\bin the seed\b|seed's", text), page.name
