"""Replay GIFs and deterministic output bytes."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engine import get_game
from render import png_bytes, render_board, replay_gif
from render.board import board_background, header_layout, status_line
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


def _frames_equal_full_redraws(positions: list, theme: str, width: int) -> None:
    """Every frame of the replay, decoded and composed as a viewer shows it, equals the
    full picture of its position (replay style) in the GIF's palette."""
    names = ("Anna Lindqvist", "Борис 🐉")
    gif = Image.open(io.BytesIO(replay_gif(positions, names=names, theme=theme, width=width)))
    assert gif.n_frames == len(positions)
    palette = Image.new("P", (1, 1))
    palette.putpalette(gif.getpalette() or [])
    for number, state in enumerate(positions):
        gif.seek(number)
        full = render_board(state, names=names, theme=theme, width=width, replay=True)
        expected = full.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
        shown = gif.convert("RGB")
        assert shown.size == expected.size
        assert shown.tobytes() == expected.tobytes(), f"frame {number} differs"


@pytest.mark.parametrize(
    ("game_name", "size", "seed", "theme"),
    [
        ("lefe", 7, 3, "classic"),
        ("dalen", 9, 3, "night"),
        ("lublache", 9, 3, "paper"),  # loops come and go: their shading is repainted
        ("lublache", 7, 8, "classic"),
        ("les", 9, 3, "classic"),  # set-up phase and colour choice first
        ("les", 5, 6, "night"),
    ],
)
def test_every_frame_shows_exactly_a_full_redraw(
    game_name: str, size: int, seed: int, theme: str
) -> None:
    state = played_game(game_name, size, seed=seed, moves=400)
    positions = list(state.history())
    assert state.is_over  # the last frame adds the result to the header
    _frames_equal_full_redraws(positions, theme, 400)


def test_frames_stay_exact_at_other_widths_and_after_a_swap() -> None:
    game = get_game("lefe")
    state = game.new(size=5).play(game.new(size=5).legal_moves()[0])
    state = state.play("swap")
    rng = random.Random(2)
    while not state.is_over and state.ply < 30:
        state = state.play(rng.choice(state.legal_moves()))
    positions = list(state.history())
    _frames_equal_full_redraws(positions, "classic", 300)
    _frames_equal_full_redraws(positions[:9], "night", 520)


def test_replay_header_stays_still_until_the_result() -> None:
    """Names and colours throughout; no move number, turn marker or status line until the
    last frame, which gives the final score and the result."""
    state = played_game("dalen", 5, seed=2, moves=400)
    positions = list(state.history())
    layouts = [
        header_layout(p, ("Ann", "Bob"), get_theme("classic"), 400, replay=True) for p in positions
    ]
    assert all(layout.turn_row is None for layout in layouts)
    assert len({layout.texts for layout in layouts[2:-1]}) == 1
    last_texts = [text.text for text in layouts[-1].texts]
    assert any("wins" in text or "raw" in text for text in last_texts)
    assert status_line(positions[-2], ("Ann", "Bob"), replay=True) == ""
