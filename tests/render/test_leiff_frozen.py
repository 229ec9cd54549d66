"""Leiff tables and hands are, byte for byte, the pictures frozen before ``render/leiff`` was
split by what it draws (issue 33, point 5).

Over seeded random games (two to six seats; special cards, drinking and water rules, teams),
in English and German, in two themes and at two widths: every few actions the table (by
:func:`render.table_png` and by ``png_bytes(render_table(...))``) and the hand of every
seat are hashed and compared with ``leiff_pictures.json``. The file was written by the code
before the split (``python -m tests.render.test_leiff_frozen``); a change that is meant to
change the pictures writes it again, and says so in its commit.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.leiff import Leiff, random_action
from render import hand_png, png_bytes, render_table, table_png

FROZEN = Path(__file__).with_name("leiff_pictures.json")
NAMES = ["Anna", "Bärbel 🍺", "张伟", "a name far too long to fit on any phone", "", "Eve"]
GAMES = [  # (seed, players, options, width, theme)
    (1, 2, {"specials": True, "drinking": True}, 480, "classic"),
    (2, 3, {"specials": True, "water": True, "drinking": True}, 360, "classic"),
    (3, 4, {"teams": True, "specials": True, "drinking": True}, 480, "night"),
    (4, 5, {}, 480, "classic"),
    (5, 6, {"teams": True, "specials": True}, 360, "paper"),
    (6, 3, {"specials": True}, 480, "classic"),
]
EVERY = 6  # actions between two pictures taken
LANGUAGES = ("en", "de")


def _states(seed: int, players: int, options: dict[str, Any]) -> Iterator[tuple[int, Any]]:
    """(action number, state) every ``EVERY`` actions of a seeded random game, and its end."""
    rng = random.Random(seed)
    state = Leiff().new(players=players, seed=seed, options=options)
    number = 0
    while True:
        if number % EVERY == 0 or not state.actors():
            yield number, state
        if not state.actors():
            return
        seat, action = random_action(state, rng)
        state = state.play(seat, action)
        number += 1


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:24]


def pictures(game: int, language: str) -> dict[str, str]:
    """Every picture's hash of one game in one language, by a name saying what it is."""
    seed, players, options, width, theme = GAMES[game]
    names = NAMES[:players]
    hashes = {}
    for number, state in _states(seed, players, options):
        key = f"{seed}/{language}/{number}"
        spectator = state.view(None)
        table = table_png(spectator, names=names, theme=theme, width=width, language=language)
        hashes[f"{key}/table"] = _digest(table)
        if number % (EVERY * 3) == 0:  # the whole picture too, drawn in one piece
            whole = render_table(
                spectator, names=list(names), theme=theme, width=width, language=language
            )
            hashes[f"{key}/table-whole"] = _digest(png_bytes(whole))
        for seat in range(players):
            hand = hand_png(
                state.view(seat), seat, names=names, theme=theme, width=width, language=language
            )
            hashes[f"{key}/hand{seat}"] = _digest(hand)
    return hashes


def _frozen() -> dict[str, str]:
    loaded: dict[str, str] = json.loads(FROZEN.read_text(encoding="utf-8"))
    return loaded


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", range(len(GAMES)))
def test_the_pictures_are_the_frozen_ones(game: int, language: str) -> None:
    made = pictures(game, language)
    frozen = {
        key: value
        for key, value in _frozen().items()
        if key.startswith(f"{GAMES[game][0]}/{language}/")
    }
    assert len(made) > 20
    differing = sorted(key for key in made if made[key] != frozen.get(key))
    assert made.keys() == frozen.keys()
    assert not differing, f"{len(differing)} pictures changed, first {differing[:5]}"


def freeze() -> None:
    """Write the hashes of the pictures the code draws now."""
    hashes: dict[str, str] = {}
    for game in range(len(GAMES)):
        for language in LANGUAGES:
            hashes.update(pictures(game, language))
    FROZEN.write_text(json.dumps(hashes, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(hashes)} hashes to {FROZEN}", file=sys.stderr)


if __name__ == "__main__":
    freeze()
