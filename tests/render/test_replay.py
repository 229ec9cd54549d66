"""Replay GIFs and deterministic output bytes."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import png_bytes, render_board, replay_gif
from render.board import board_background
from render.geometry import board_geometry
from render.replay import LAST_FRAME_MS, MAX_GIF_BYTES
from render.themes import get_theme
from tests.render.helpers import close, played_game


@pytest.mark.parametrize("game_name", ["lefe", "les"])
def test_replay_has_one_frame_per_position_and_holds_the_last(game_name: str) -> None:
    state = played_game(game_name, 6, seed=4, moves=40)
    positions = list(state.history())
    data = replay_gif(positions, names=("Ann", "Bob"))
    assert len(data) < MAX_GIF_BYTES
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF"
    assert gif.n_frames == len(positions)
    assert gif.size == render_board(positions[0], width=400).size
    gif.seek(gif.n_frames - 1)
    assert gif.info["duration"] == LAST_FRAME_MS
    # frames are stored as differences: the composed last frame must show the final stones
    last = gif.convert("RGB")
    theme = get_theme("classic")
    geo = board_geometry(state.size, 400, game_name == "les")
    for index, code in enumerate(state.cells):
        if code:
            assert close(last.getpixel(geo.pixel(index)), theme.stone(code).fill, 16)
    gif.seek(0)
    assert gif.info["duration"] < LAST_FRAME_MS


def test_replay_of_a_single_position_and_of_nothing() -> None:
    state = played_game("dalen", 5, seed=1, moves=0)
    gif = Image.open(io.BytesIO(replay_gif([state], names=("A", "B"))))
    assert gif.n_frames == 1
    with pytest.raises(ValueError):
        replay_gif([], names=("A", "B"))


def test_same_input_gives_the_same_bytes() -> None:
    state = played_game("lublache", 7, seed=9, moves=30)
    first = png_bytes(render_board(state, names=("Ann", "Bob"), theme="night"))
    # other pictures in between (caches warm, other sizes) must not change the result
    render_board(played_game("les", 9, seed=2, moves=10), theme="paper")
    board_background.cache_clear()
    second = png_bytes(render_board(state, names=("Ann", "Bob"), theme="night"))
    assert first == second
    assert b"tIME" not in first and b"tEXt" not in first
    assert replay_gif(list(state.history())[:8]) == replay_gif(list(state.history())[:8])


def test_different_positions_give_different_pictures() -> None:
    state = played_game("lefe", 5, seed=5, moves=6)
    earlier = next(iter(state.history()))
    assert png_bytes(render_board(state)) != png_bytes(render_board(earlier))
