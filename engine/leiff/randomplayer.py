"""A random legal-action generator: drives the property tests now, bot seats later.

Pure chance over every legal action would spend most of its time matching and catching
(there are many of those at every moment) and calling Leiff at once, so the choice is
weighted towards the move the engine is waiting for, while still trying every kind of
action now and then.
"""

from __future__ import annotations

import random

from engine.leiff.actions import OUT_OF_TURN_KINDS
from engine.leiff.state import LeiffState

OUT_OF_TURN_CHANCE = 0.12
PENALTY_SHARE = 0.1
LEIFF_CHANCE = 0.08
DISCARD_CHANCE = 0.5
DRAW_CHANCE = 0.5


def _kind(action: str) -> str:
    return action.split(" ", 1)[0]


def random_action(state: LeiffState, rng: random.Random) -> tuple[int, str]:
    """A (seat, action) pair that ``state.play`` accepts; raises ValueError once the game is over."""
    actors = state.actors()
    if not actors:
        raise ValueError("the game is over: nobody can act")
    owners = [s for s in state.waiting_for()["owners"] if s in actors]
    if owners and rng.random() >= OUT_OF_TURN_CHANCE:
        seat = rng.choice(owners)
        choices = [a for a in state.legal_actions(seat) if _kind(a) not in OUT_OF_TURN_KINDS]
        if "leiff" in choices and len(choices) > 1 and rng.random() >= LEIFF_CHANCE:
            choices.remove("leiff")
        # favour the moves that reach card effects: drawing, and discarding what was drawn
        if "discard" in choices and rng.random() < DISCARD_CHANCE:
            return seat, "discard"
        if "draw" in choices and rng.random() < DRAW_CHANCE:
            return seat, "draw"
        if choices:
            return seat, rng.choice(choices)
    seat = rng.choice(actors)
    actions = state.legal_actions(seat)
    spare = [a for a in actions if _kind(a) in OUT_OF_TURN_KINDS]
    if spare:
        penalties = [a for a in spare if _kind(a) == "penalty"]
        others = [a for a in spare if _kind(a) != "penalty"]
        if penalties and (not others or rng.random() < PENALTY_SHARE):
            return seat, rng.choice(penalties)
        return seat, rng.choice(others)
    return seat, rng.choice(actions)
