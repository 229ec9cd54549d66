"""A fixed gallery of English pictures, and the fingerprints of their pixels.

The words in the pictures moved into the message catalogues (``i18n``); this gallery pins
that the English pictures stayed exactly what they were. Each entry is a picture's raw RGB
pixels hashed with SHA-256 (pixels, not PNG bytes, so a change of encoder settings does not
count). If a picture changes on purpose, rewrite the fingerprints and say why in the commit:

    .venv/bin/python -m tests.render.english_pictures --write
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from PIL import Image

from engine import BOARD_GAMES, get_game
from engine.leiff import random_action
from render import render_board, render_hand, render_table

FINGERPRINTS = Path(__file__).resolve().parent / "data" / "english_pictures.json"

LEIFF_OPTIONS = (
    {"target": 50, "specials": True, "drinking": True, "water": False, "teams": False},
    {"target": 100, "specials": True, "drinking": True, "water": False, "teams": False},
    {"target": 100, "specials": False, "drinking": False, "water": False, "teams": False},
    {"target": 50, "specials": True, "drinking": True, "water": True, "teams": True},
)
LEIFF_NAMES = ["Anna", "Bärbel", "", "Jan", "Lara", "Tom"]


def _board_states(name: str) -> Iterator[tuple[str, object]]:
    """The start, the first moves (the pie offer, the Les set-up), a middle game and an end."""
    game = get_game(name)
    size = game.sizes[0]
    rng = random.Random(f"pictures-{name}")
    state = game.new(size=size)
    yield "start", state
    for ply in range(1, 60):
        if state.outcome is not None:
            break
        state = state.play(rng.choice(state.legal_moves()))
        if ply in (1, 2, 3, 4, 5, 6, 12, 25):
            yield f"ply{ply}", state
    while state.outcome is None:
        state = state.play(rng.choice(state.legal_moves()))
    yield "over", state
    if game.uses_pie:
        yield "swapped", game.new(size=size).play(game.new(size=size).legal_moves()[0]).play("swap")


def _signature(view: dict) -> tuple:
    """What a Leiff picture draws differently: the step, a held card, the specials' marks."""
    waiting = view.get("waiting_for") or {}
    return (
        waiting.get("step"),
        bool(view.get("holding")),
        bool(view.get("round_over")),
        bool(view.get("rule")),
        bool(view.get("immune")),
        bool(view.get("link")),
        bool(view.get("enchantments")),
        view.get("outcome") is not None,
    )


def _leiff_views(number: int, options: dict) -> Iterator[tuple[str, Callable[[], Image.Image]]]:
    """Snapshots of a random game: every new kind of moment, and one every 29 actions."""
    players = 4 if options["teams"] else 3
    names = LEIFF_NAMES[:players]
    rng = random.Random(f"pictures-leiff-{number}")
    state = get_game("leiff").new(players=players, seed=number + 5, options=options)
    seen: set[tuple] = set()
    step = 0
    while True:
        signature = _signature(state.view(None))
        if signature not in seen or step % 29 == 0:
            seen.add(signature)
            view_state = state
            turn = state.waiting_for().get("turn") or 0
            yield (
                f"table-{step}",
                lambda s=view_state: render_table(s.view(None), names=names),
            )
            yield (
                f"hand-{step}-{turn}",
                lambda s=view_state, t=turn: render_hand(s.view(t), t, names=names),
            )
        if not state.actors():
            break
        seat, action = random_action(state, rng)
        state = state.play(seat, action)
        step += 1
    final = state
    yield "hand-end-360", lambda: render_hand(final.view(0), 0, names=names, width=360)


def _marked_views() -> Iterator[tuple[str, dict, list[str]]]:
    """Views a random game seldom reaches, built from a real one: every special card's mark
    on a seat, a table rule, the rarer steps, a held card face up, a long hand."""
    options = {"target": 50, "specials": True, "drinking": True, "water": False, "teams": True}
    state = get_game("leiff").new(players=4, seed=3, options=options)
    names = LEIFF_NAMES[:4]
    base = state.view(None)
    marked = {
        **base,
        "hands": [[None, "7", None, "philosopher"], ["slot", None, None, None], [], ["-1"] * 7],
        "hand_sizes": [4, 4, 0, 7],
        "immune": [1],
        "rule": "Wer Leiff ruft, trinkt zwei Schlücke.",
        "link": {"seat": 2, "to": 3},
        "enchantments": [{"seat": 0, "target": 3}],
        "drinks": [
            {"sips": 1, "shots": 0, "hand_out": 0},
            {"sips": 3, "shots": 1, "hand_out": 2},
            {"sips": 0, "shots": 2, "hand_out": 0},
            {"sips": 0, "shots": 0, "hand_out": 0},
        ],
        "round_scores": [3, -5, 0, 12],
        "discard_top": "magician",
        "holding": {"seat": 1, "card": "belle", "source": "draw"},
    }
    steps = {
        "turn": {"step": "turn", "turn": 1},
        "hold": {"step": "hold", "turn": 1},
        "effect": {"step": "effect", "turn": 1, "card": "gossip"},
        "effect-unknown": {"step": "effect", "turn": 0, "card": None},
        "spy": {"step": "spy", "turn": 3},
        "exchange": {"step": "exchange", "turn": None},
        "next": {"step": "next", "turn": None},
    }
    for label, waiting in steps.items():
        view = {**marked, "waiting_for": {**base["waiting_for"], **waiting}}
        yield label, view, names
    taken = {**marked, "holding": {"seat": 0, "card": "12", "source": "discard"}}
    yield "taken", {**taken, "waiting_for": {**base["waiting_for"], **steps["hold"]}}, names
    over = {**marked, "outcome": {"winner": [1, 3], "reason": "a total reached 50"}}
    yield "over", over, names
    yield "nobody", {**marked, "outcome": {"winner": [], "reason": ""}}, ["", "", "", ""]
    water = {**marked, "options": {**marked["options"], "water": True, "teams": False}}
    yield "water", {**water, "teams": None}, names


def gallery() -> Iterator[tuple[str, Callable[[], Image.Image]]]:
    """(name, how to draw it) for every picture of the gallery, in a fixed order."""
    for name in BOARD_GAMES:
        for label, state in _board_states(name):
            yield f"{name}-{label}", lambda s=state: render_board(s, names=("Ann", "Bob"))
            if label in ("ply1", "over"):
                yield (
                    f"{name}-{label}-night-360",
                    lambda s=state: render_board(s, theme="night", width=360),
                )
    for number, options in enumerate(LEIFF_OPTIONS):
        for label, draw in _leiff_views(number, options):
            yield f"leiff{number}-{label}", draw
    for label, view, names in _marked_views():
        yield f"leiff-marked-{label}-table", lambda v=view, n=names: render_table(v, names=n)
        for seat in (0, 1):
            yield (
                f"leiff-marked-{label}-hand{seat}",
                lambda v=view, n=names, s=seat: render_hand(v, s, names=n),
            )


def fingerprint(image: Image.Image) -> str:
    rgb = image.convert("RGB")
    digest = hashlib.sha256(f"{rgb.width}x{rgb.height}".encode())
    digest.update(rgb.tobytes())
    return digest.hexdigest()


def current_fingerprints() -> dict[str, str]:
    return {name: fingerprint(draw()) for name, draw in gallery()}


def pinned_fingerprints() -> dict[str, str]:
    return json.loads(FINGERPRINTS.read_text(encoding="utf-8"))


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.render.english_pictures --write")
    FINGERPRINTS.parent.mkdir(parents=True, exist_ok=True)
    FINGERPRINTS.write_text(
        json.dumps(current_fingerprints(), indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    print(f"wrote {FINGERPRINTS}")
