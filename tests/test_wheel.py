"""The built wheel carries everything the bot reads at run time.

Builds the project's wheel, installs it into a fresh virtual environment (its dependencies
borrowed from this environment's site-packages by a path file, so nothing is downloaded)
and, from a folder outside the checkout, draws a board and a Leiff hand and loads the
catalogues and the match core's migrations: each of these reads files that are not Python
modules. It carries nothing else: not the tests, the benchmarks or the Discord simulator.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Run in the fresh environment: every module must come from the installed wheel, and every
# picture must decode to the size asked for.
PROBE = r"""
import io, json, sys
from PIL import Image

import engine, render
from engine import get_game
from render.board import render_board
from render.encode import png_bytes
from render.leiff import hand_png
from i18n import translate

game = get_game("lefe")
state = game.new(size=game.default_size)
for _ in range(6):
    state = state.play(sorted(state.legal_moves())[0])
board = Image.open(io.BytesIO(png_bytes(render_board(state, names=("Ann", "Bob"), width=360))))
board.load()

leiff = get_game("leiff")
table = leiff.new(players=3, seed=7, options={
    "target": 50, "specials": True, "drinking": True, "water": False, "teams": False})
hand = Image.open(io.BytesIO(hand_png(table.view(0), 0, names=["Ann", "Bob", "Cy"], width=360)))
hand.load()

import matchcore
import matchcore.storage.sqlite as sqlite_backend
migrations = sorted(p.name for p in (
    __import__("pathlib").Path(sqlite_backend.__file__).parent / "migrations" / "sqlite"
).glob("*.sql"))

print(json.dumps({
    "engine": engine.__file__,
    "render": render.__file__,
    "matchcore": matchcore.__file__,
    "board": board.size,
    "board_colours": len(board.convert("RGB").getcolors(1 << 16) or []),
    "hand": hand.size,
    "german": translate("de", "picture.leiff.hand_title", name="Ann"),
    "migrations": migrations,
}))
"""


@pytest.mark.slow
def test_the_wheel_installed_alone_draws_boards_and_hands(tmp_path: Path) -> None:
    # built from a copy of the sources: a checkout's own build/ and *.egg-info folders would
    # lend the wheel files that the packaging rules themselves leave out
    source = tmp_path / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", "node_modules"
        ),
    )
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheels),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheels.glob("leafbot-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "data/themes/classic.json",
        "data/fonts/DejaVuSansCondensed.ttf",
        "data/fonts/LICENSE",
        "data/leiff/deck.json",
        "i18n/locales/de/LC_MESSAGES/leafbot.po",
        "matchcore/__init__.py",
        "matchcore/service/service.py",
        "matchcore/storage/migrations/postgresql/0001_initial.sql",
        "matchcore/storage/migrations/sqlite/0001_initial.sql",
    ):
        assert needed in names, needed
    # the product alone: the tests, the benchmarks and the Discord simulator (with its copy of
    # Discord's OpenAPI description) are development packages beside it
    top_levels = {name.split("/")[0] for name in names}
    assert not top_levels & {"tests", "bench", "discord_sim"}, sorted(top_levels)
    assert not [name for name in names if name.endswith(".json.gz")]

    fresh = tmp_path / "fresh"
    venv.EnvBuilder(with_pip=False).create(fresh)
    fresh_python = fresh / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(fresh_python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    # the wheel's files into the fresh site-packages, as an installer lays them out
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    # the dependencies (Pillow, Babel, ...) from this environment; a plain path line does not
    # run this environment's own path files, so the editable checkout is not on the path
    (site / "zz_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    away = tmp_path / "elsewhere"
    away.mkdir()
    result = subprocess.run(
        [str(fresh_python), "-I", "-c", PROBE],
        cwd=away,
        check=True,
        capture_output=True,
        text=True,
    )
    found = json.loads(result.stdout)
    assert Path(found["engine"]).is_relative_to(site)
    assert Path(found["render"]).is_relative_to(site)
    assert Path(found["matchcore"]).is_relative_to(site)
    assert found["board"][0] == 360 and found["board"][1] > 200
    assert found["board_colours"] > 8  # a drawn board, not a blank
    assert found["hand"][0] == 360 and found["hand"][1] > 100
    assert "Ann" in found["german"]
    assert "0001_initial.sql" in found["migrations"]
