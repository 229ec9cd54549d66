"""The documentation names only files that are in the repository, and the rules pages stand
on their own (no rulings file or rule seed that a reader of the repository cannot open)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FILE_NAME = re.compile(r"`([A-Za-z0-9_./-]+\.(?:md|py|json|jsonl|sql|toml|txt))`")
LINK = re.compile(r"\]\(([^)#\s]+)\)")
PLACEHOLDER = re.compile(r"NNNN|_what\b")


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
            if Path(name) in paths or here.is_file() or Path(name).name in names:
                continue
            missing.append(f"{document.relative_to(ROOT)}: `{name}`")
        for target in LINK.findall(text):
            if not target.startswith(("http://", "https://", "mailto:")) and not (
                (document.parent / target).exists()
            ):
                missing.append(f"{document.relative_to(ROOT)}: link {target}")
    assert not missing, "documents name files that are not in the repository: " + ", ".join(missing)


def test_the_rules_pages_cite_no_rulings_file_or_rule_seed():
    for page in sorted((ROOT / "docs" / "rules").glob("*.md")):
        text = " ".join(page.read_text(encoding="utf-8").split())
        assert "RULINGS" not in text, page.name
        assert not re.search(r"\bthe seed\b|\bin the seed\b|seed's", text), page.name
