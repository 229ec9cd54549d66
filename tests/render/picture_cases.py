"""A fixed sample of pictures and a digest of their pixels, to hold speed work to exactness.

The sample covers every board game at its smallest and largest sizes (plus the middle one
where there is one), positions from the empty board to the end of seeded random games,
every theme, the bot's width and the replay's, and Leiff tables and hands for two to six
seats. :func:`digests` gives, per picture, a SHA-256 of the RGB pixels as drawn and of the
RGB pixels of its PNG file decoded again.

``golden_pictures.json`` holds these digests as the renderer and encoder of ``main`` on
2026-11-25, before the speed work of issue 21 was merged into it, produced them. It was written by running this module
(``python -m tests.render.picture_cases > tests/render/golden_pictures.json``) on that
version; a picture that changes on purpose is re-recorded the same way, and the commit
says so (the board pictures were, for issue 20's phone-width legibility: rim coordinates,
the bold last-move ring, Les's shaded holes, the score in words; then each picture's own
128-colour palette, which moves the decoded PNG pixels, and Leiff cards at whole pixels;
then the board's background scaled down with a box filter, for smaller files; then the
cells on a lattice of whole pixels, for files a third smaller).
"""

from __future__ import annotations

import hashlib
import io
import json
import random
from collections.abc import Iterator

from PIL import Image

from engine import BOARD_GAMES, get_game
from engine.board import BoardState
from engine.leiff import random_action
from render import list_themes, png_bytes, render_board, render_hand, render_table

NAMES = ("Anna Lindqvist", "Борис 🐉")
SEAT_NAMES = ["Anna", "Bärbel 🍺", "张伟", "محمد", "", "Eve"]
LEIFF_OPTIONS = {"target": 50, "specials": True, "drinking": True, "water": False, "teams": False}


def _played(game_name: str, size: int, seed: int, moves: int) -> BoardState:
    rng = random.Random(seed)
    state = get_game(game_name).new(size=size)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


def board_cases() -> Iterator[tuple[str, BoardState, str, int]]:
    """(name, state, theme, width) for every board picture of the sample."""
    themes = list_themes()
    for game_name in BOARD_GAMES:
        sizes = sorted(get_game(game_name).sizes)
        for size in sorted({sizes[0], sizes[len(sizes) // 2], sizes[-1]}):
            cells = 3 * size * (size - 1) + 1
            plies = (0, 1, 3, cells // 6, cells // 3, cells // 2, 2 * cells // 3, 999)
            for seed, moves in enumerate(plies, start=1):
                state = _played(game_name, size, seed, moves)
                theme = themes[(seed + size) % len(themes)]
                width = 480 if seed % 2 else 400
                yield f"{game_name} n={size} seed={seed} {theme} {width}", state, theme, width


def leiff_cases() -> Iterator[tuple[str, str, object]]:
    """(name, kind, thunk drawing the picture) for Leiff tables and hands."""
    themes = list_themes()
    for players in range(2, 7):
        for actions in (0, 7, 40):
            rng = random.Random(players * 100 + actions)
            state = get_game("leiff").new(players=players, seed=players, options=LEIFF_OPTIONS)
            for _ in range(actions):
                if not state.actors():
                    break
                seat, action = random_action(state, rng)
                state = state.play(seat, action)
            theme = themes[(players + actions) % len(themes)]
            names = SEAT_NAMES[:players]
            yield (
                f"leiff table p={players} a={actions} {theme}",
                "table",
                lambda s=state, n=names, t=theme: render_table(s.view(None), names=n, theme=t),
            )
            yield (
                f"leiff hand p={players} a={actions} {theme}",
                "hand",
                lambda s=state, n=names, t=theme: render_hand(s.view(0), 0, names=n, theme=t),
            )


def _digest(image: Image.Image) -> str:
    return hashlib.sha256(image.convert("RGB").tobytes()).hexdigest()


def decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def digests() -> dict[str, dict[str, str]]:
    """Per picture of the sample: the digest of the drawn pixels and of the PNG's pixels."""
    result: dict[str, dict[str, str]] = {}
    for name, state, theme, width in board_cases():
        image = render_board(state, names=NAMES, theme=theme, width=width)
        result[name] = {"drawn": _digest(image), "png": _digest(decoded(png_bytes(image)))}
    for name, _kind, draw in leiff_cases():
        image = draw()
        result[name] = {"drawn": _digest(image), "png": _digest(decoded(png_bytes(image)))}
    return result


if __name__ == "__main__":
    print(json.dumps(digests(), indent=1, sort_keys=True))
