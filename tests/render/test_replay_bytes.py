"""Replay GIFs drawn in palette indices are the bytes the RGB painter made (issue 31).

``tests/render/reference/replay_v1.py`` is the painter as it was before frames were
painted straight to palette indices; both draw seeded random games of every board game,
at several sizes, themes and widths, and the files must be identical.
"""

from __future__ import annotations

import random

import pytest

from engine import BOARD_GAMES, get_board_game
from render import replay_gif
from tests.render.reference.replay_v1 import replay_gif as replay_gif_v1


def _positions(game_name: str, seed: int, limit: int) -> list:
    rng = random.Random(seed)
    game = get_board_game(game_name)
    state = game.new(size=rng.choice(game.sizes))
    positions = [state]
    while not state.is_over and len(positions) < limit:
        state = state.play(rng.choice(state.legal_moves()))
        positions.append(state)
    return positions


@pytest.mark.parametrize("game_name", BOARD_GAMES)
@pytest.mark.parametrize(
    ("seed", "theme", "width"), [(1, "classic", 400), (2, "night", 400), (3, "paper", 320)]
)
def test_replay_bytes_are_those_of_the_rgb_painter(
    game_name: str, seed: int, theme: str, width: int
) -> None:
    positions = _positions(game_name, seed, limit=120)
    names = ("Anna Lindqvist", "Борис 🐉")
    made = replay_gif(positions, names=names, theme=theme, width=width)
    assert made == replay_gif_v1(positions, names=names, theme=theme, width=width)


def test_replay_bytes_of_a_short_game_and_of_one_position() -> None:
    for positions in (_positions("lublache", 5, limit=3), _positions("les", 6, limit=1)):
        assert replay_gif(positions, language="de") == replay_gif_v1(positions, language="de")
