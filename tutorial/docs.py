"""The rules pages for players (``docs/rules/<game>.md``) and the README's pictures, made from
the tutorials: the same words (the English catalogue) and the same pictures.

``python -m tutorial docs`` writes them; :func:`stale_files` says which files on disk differ
from what the tutorials make now (a test runs it, so a page or picture changed without
regenerating the docs fails).
"""

from __future__ import annotations

from pathlib import Path

from engine.board import BoardState
from engine.registry import get_board_game, get_spec
from i18n import phrase
from render import png_bytes, render_board
from render.leiff import render_hand
from tutorial import leiff, tutorial_games, tutorial_pages
from tutorial.cards import Deal

ROOT = Path(__file__).resolve().parent.parent
RULES = Path("docs/rules")
PICTURES = RULES / "pictures"
README_PICTURES = Path("docs/pictures")
LANGUAGE = "en"  # the docs are in English, like the rest of the repository
THEME = "classic"

# A short Lefe game for the README: a few real moves, a capture among them.
README_MOVES = ("g7", "f5", "h6", "g4", "d6", "f6", "d4", "e4xd4")


def rules_page(game: str) -> str:
    """The markdown of ``game``'s rules page: its summary, then every tutorial page."""
    spec = get_spec(game)
    title = phrase(LANGUAGE, spec.title())
    pages = tutorial_pages(game, LANGUAGE, theme=THEME)
    lines = [
        f"# {title}",
        "",
        "<!-- Made by `python -m tutorial docs` from the tutorial (tutorial/, and the "
        "English catalogue in i18n/locales): edit those and run it again. -->",
        "",
        phrase(LANGUAGE, spec.summary()),
        "",
        "These pages are Leafbot's tutorial of the game, one rule a page (the bot also "
        "speaks German); every picture is a real position, checked against the rules.",
        "",
    ]
    for page in pages:
        lines += [f"## {page.number}. {page.title}", "", page.body, ""]
        lines += [f"![{page.title}](pictures/{page.filename})", ""]
    return "\n".join(lines)


def _readme_board() -> BoardState:
    state = get_board_game("lefe").new(6)
    for move in README_MOVES:
        state = state.play(move)
    return state


def readme_pictures() -> dict[Path, bytes]:
    """The README's pictures: a board after a few moves, a Leiff hand, a tutorial page."""
    board = render_board(_readme_board(), names=("Ann", "Bob"), theme=THEME)
    table = Deal(leiff.HANDS, "6", "2", actions=((0, "draw"),)).build()
    hand = render_hand(table.view(0), 0, names=["Ann", "Bob", "Cem"], theme=THEME)
    first = tutorial_pages("lefe", LANGUAGE, theme=THEME)[0]
    return {
        README_PICTURES / "board.png": png_bytes(board),
        README_PICTURES / "hand.png": png_bytes(hand),
        README_PICTURES / "tutorial-page.png": first.picture(),
    }


def expected_files() -> dict[Path, bytes]:
    """Every file the docs are made of, by path from the repository's root."""
    files: dict[Path, bytes] = {}
    for game in tutorial_games():
        files[RULES / f"{game}.md"] = rules_page(game).encode("utf-8")
        for page in tutorial_pages(game, LANGUAGE, theme=THEME):
            files[PICTURES / page.filename] = page.picture()
    files.update(readme_pictures())
    return files


def stale_files(root: Path = ROOT) -> list[Path]:
    """The files under ``root`` that differ from what the tutorials make now, and pictures
    in the pictures folders that no page makes any more."""
    expected = expected_files()
    stale = [path for path, data in expected.items() if _read(root / path) != data]
    for folder in (PICTURES, README_PICTURES):
        for path in sorted((root / folder).glob("*.png")):
            if path.relative_to(root) not in expected:
                stale.append(path.relative_to(root))
    return sorted(stale)


def _read(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() else None


def write(root: Path = ROOT) -> list[Path]:
    """Write every file that changed, remove pictures no page makes; returns what changed."""
    changed = []
    expected = expected_files()
    for path, data in expected.items():
        target = root / path
        if _read(target) != data:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            changed.append(path)
    for folder in (PICTURES, README_PICTURES):
        for path in sorted((root / folder).glob("*.png")):
            if path.relative_to(root) not in expected:
                path.unlink()
                changed.append(path.relative_to(root))
    return changed
