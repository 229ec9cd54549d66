"""Shared helpers for the picture tests: random positions, decoding, colour checks."""

from __future__ import annotations

import io
import random

from PIL import Image

from engine import get_game
from engine.board import BoardState
from engine.hexgrid import hex_grid


def random_position(game_name: str, size: int, rng: random.Random) -> BoardState:
    """A position with a random scattering of stones (any density), via ``position()``."""
    game = get_game(game_name)
    grid = hex_grid(size)
    density = rng.choice((0.1, 0.4, 0.8))
    stones = {name: rng.choice(game.colors) for name in grid.names if rng.random() < density}
    return game.position(size=size, stones=stones, to_move=rng.choice(game.colors))


def played_game(game_name: str, size: int, seed: int, moves: int) -> BoardState:
    """A game played from the start with random legal moves (stops early if it ends)."""
    rng = random.Random(seed)
    state = get_game(game_name).new(size=size)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


def decode(data: bytes) -> Image.Image:
    """A PNG file back to RGB pixels (our PNGs are palette images)."""
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def close(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 6) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour, strict=True))


def pixels(image: Image.Image) -> list[tuple[int, int, int]]:
    """Every pixel of an RGB image, row by row."""
    data = image.convert("RGB").tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]
