"""A fixed catalogue of pictures of every game, and the pixel hashes they must keep.

The board, table and hand pictures of these positions are pinned in
``pinned_pictures.json``: a restructuring of the renderer or the engine must leave every
pixel where it was. The hashes are of the decoded pixels (mode, size and raw bytes), not of
the encoded files, so a change of PNG or GIF encoding alone does not move them.

After a change that is *meant* to alter pictures (or a Pillow upgrade that redraws
antialiased edges), look at the new pictures, then record them anew with::

    .venv/bin/python -m tests.render.pinned_pictures --update
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import PIL
from PIL import Image

from engine import get_game
from engine.board import BoardState
from engine.leiff import random_action
from render import list_themes, render_board, render_hand, render_table

PINNED_FILE = Path(__file__).with_name("pinned_pictures.json")
BOARD_GAMES = ("lefe", "dalen", "lublache", "les")
NAMES = ("Alice", "Bob")
LONG_NAMES = ("Bärbel Überlänge-Schmidt 🍺 the Magnificent", "张伟")
LEIFF_NAMES = ["Anna", "Bärbel 🍺", "张伟", "محمد", "", "Eve"]


def _played(game: str, size: int, seed: int, moves: int) -> BoardState:
    rng = random.Random(f"{game}:{size}:{seed}")
    state = get_game(game).new(size=size)
    for _ in range(moves):
        if state.outcome is not None:
            break
        state = state.play(rng.choice(sorted(state.legal_moves())))
    return state


def _first_where(
    game: str, size: int, seed: int, wanted: Callable[[BoardState], bool]
) -> BoardState:
    """The first position of a seeded random game (replayed until one is found) that has
    what a case wants to show: a capture, a flip, a loop, a pass, an opening phase."""
    for attempt in range(200):
        rng = random.Random(f"{game}:{size}:{seed}:{attempt}")
        state = get_game(game).new(size=size)
        while state.outcome is None:
            state = state.play(rng.choice(sorted(state.legal_moves())))
            if wanted(state):
                return state
    raise AssertionError(f"no {game} game of this catalogue shows what the case wants")


MOMENTS: dict[str, Callable[[BoardState], bool]] = {
    "capture": lambda s: bool(s.last_turn.captured),
    "flip": lambda s: bool(s.last_turn.flipped),
    "removal": lambda s: bool(s.last_turn.removed),
    "closed-loop": lambda s: bool(s.last_turn.loops),
    "pass": lambda s: s.last_turn.move == "pass",
    "choose-side": lambda s: s.extra.get("phase") == "choose",
    "chosen-side": lambda s: s.last_turn.move in ("black", "white"),
}
MOMENTS_OF = {
    "lefe": ("capture",),
    "dalen": ("flip", "pass"),
    "lublache": ("flip", "removal", "closed-loop"),
    "les": ("choose-side", "chosen-side"),
}


def _scattered(game: str, size: int, seed: int) -> BoardState:
    rng = random.Random(f"{game}:scattered:{seed}")
    rules = get_game(game)
    stones = {
        name: rng.choice(rules.colors)
        for name in rules.new(size=size).grid.names
        if rng.random() < 0.45
    }
    return rules.position(size=size, stones=stones, to_move=rng.choice(rules.colors))


def _board_cases(game: str) -> Iterator[tuple[str, Callable[[], Image.Image]]]:
    rules = get_game(game)
    default, smallest = rules.default_size, min(rules.sizes)
    yield f"{game}/new", lambda: render_board(rules.new())
    for seed, moves in ((1, 1), (2, 2), (3, 3), (4, 5), (5, 9), (6, 20), (7, 45), (8, 1000)):
        yield (
            f"{game}/played-{seed}-{moves}",
            lambda seed=seed, moves=moves: render_board(
                _played(game, default, seed, moves), names=NAMES
            ),
        )
    for moment in MOMENTS_OF[game]:
        yield (
            f"{game}/{moment}",
            lambda moment=moment: render_board(
                _first_where(game, smallest, 12, MOMENTS[moment]), names=NAMES
            ),
        )
    yield (
        f"{game}/small-finished-phone",
        lambda: render_board(
            _played(game, smallest, 9, 1000), names=LONG_NAMES, width=360, show_labels=False
        ),
    )
    yield (
        f"{game}/scattered",
        lambda: render_board(_scattered(game, smallest, 1), names=NAMES, width=400),
    )
    if "swap" in _played(game, default, 10, 1).legal_moves():
        yield (
            f"{game}/swapped",
            lambda: render_board(_played(game, default, 10, 1).play("swap"), names=NAMES),
        )
    for theme in list_themes():
        yield (
            f"{game}/theme-{theme}",
            lambda theme=theme: render_board(
                _played(game, smallest, 11, 14), names=NAMES, theme=theme, width=420
            ),
        )


def _leiff_cases() -> Iterator[tuple[str, Callable[[], Image.Image]]]:
    settings = (
        ("plain", 3, {"target": 50}),
        ("specials-drinking", 3, {"target": 50, "specials": True, "drinking": True}),
        (
            "teams-water",
            4,
            {"target": 100, "specials": True, "drinking": True, "water": True, "teams": True},
        ),
    )
    for label, players, options in settings:
        for actions in (0, 7, 40):

            def state(
                players: int = players,
                options: dict = options,
                actions: int = actions,
                label: str = label,
            ) -> object:
                rng = random.Random(f"leiff:{label}:{actions}")
                played = get_game("leiff").new(players=players, seed=5, options=options)
                for _ in range(actions):
                    if not played.actors():
                        break
                    seat, action = random_action(played, rng)
                    played = played.play(seat, action)
                return played

            names = LEIFF_NAMES[:players]
            yield (
                f"leiff/{label}-{actions}/table",
                lambda state=state, names=names: render_table(state().view(None), names=names),
            )
            yield (
                f"leiff/{label}-{actions}/hand0",
                lambda state=state, names=names: render_hand(state().view(0), 0, names=names),
            )
            yield (
                f"leiff/{label}-{actions}/hand1-phone",
                lambda state=state, names=names: render_hand(
                    state().view(1), 1, names=names, width=360, theme="night"
                ),
            )


def cases() -> Iterator[tuple[str, Callable[[], Image.Image]]]:
    """Every pinned picture: a stable name and how to draw it."""
    for game in BOARD_GAMES:
        yield from _board_cases(game)
    yield from _leiff_cases()


def pixel_hash(image: Image.Image) -> str:
    """A hash of what the picture shows: its mode, size and every pixel."""
    digest = hashlib.sha256(f"{image.mode} {image.size}\n".encode())
    digest.update(image.tobytes())
    return digest.hexdigest()


def current_hashes() -> dict[str, str]:
    return {name: pixel_hash(draw()) for name, draw in cases()}


def load_pinned() -> dict:
    return json.loads(PINNED_FILE.read_text(encoding="utf-8"))


def main(argv: list[str]) -> int:
    if argv != ["--update"]:
        print(__doc__)
        return 2
    record = {"pillow": PIL.__version__, "pictures": current_hashes()}
    PINNED_FILE.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"pinned {len(record['pictures'])} pictures in {PINNED_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
