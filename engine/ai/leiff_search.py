"""Leiff bot seats that search: determinized sampling from the seat's own view.

At each choice of its turn (call Leiff, draw or take; where to put a held card; how to use
a discarded card's effect) the searching seat draws worlds that agree with its view
(:mod:`engine.ai.leiff_worlds`: the cards it has not seen dealt at random from the cards it
cannot place), plays every candidate action in each world and the round on to its end with
the sensible bot in every seat (:mod:`engine.ai.leiff_rollout`; a seat whose past play
looks careless, ``leiff_worlds.care``, plays some of its choices at random), and takes the candidate
that did best on average, every candidate being judged in the same worlds, provided it
beat the sensible bot's own choice there by more than the rollouts' noise. Matching and
catching when sure, and every other step, are the sensible bot's (:func:`leiff_bot.decide`).

Everything it reads is the view: the generator is seeded from the view's canonical JSON,
so the same view always gives the same decision, whatever the hidden cards of the real
table (``tests/ai/test_leiff_search.py`` proves it). The number of worlds is the budget; a
clock (``time_limit``) is only the ceiling, so a loaded machine can cut a search short.

Levels (``LEIFF_WORLDS``): beginner, easy and normal play the sensible bot itself; hard
reads 12 worlds and master 24. A bot standing in for a player who left plays at master.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections.abc import Sequence

from engine.ai import leiff_bot
from engine.ai.leiff_bot import parse_action
from engine.ai.leiff_rollout import finish, play, round_value
from engine.ai.leiff_worlds import can_sample, care, sample_world
from engine.leiff.actions import OUT_OF_TURN_KINDS
from engine.leiff.events import unworded
from engine.leiff.state import LeiffState
from engine.leiff.views import LeiffView

# Worlds read per decision, by level; 0 plays the sensible bot without searching.
LEIFF_WORLDS: dict[str, int] = {"beginner": 0, "easy": 0, "normal": 0, "hard": 12, "master": 24}
STRONGEST_LEIFF_LEVEL = "master"
# The clock's ceiling for one decision (the world budget normally ends it first).
TIME_LIMIT = 0.9
# A candidate replaces the sensible choice only when it did better in the same worlds by
# more than this many standard errors of the mean difference.
CONFIDENCE = 1.0
# Candidates for where a held card goes, at most.
MAX_HOLD_CANDIDATES = 5


def view_seed(view: LeiffView) -> int:
    """A seed made of the view alone (its canonical JSON)."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def candidates(view: LeiffView, own_step: Sequence[str], sensible: str) -> list[str]:
    """The actions worth comparing at this step, the sensible bot's choice first."""
    step = view["waiting_for"]["step"]
    if step == "turn":
        pool = list(own_step)
    elif step == "hold":
        swaps = [a for a in own_step if a.startswith("swap ")]
        pool = ["discard", *swaps] if "discard" in own_step else swaps
    else:  # an effect: use it as the sensible bot would, or not at all
        pool = ["decline"] if "decline" in own_step else []
    out = [sensible, *(a for a in pool if a != sensible)]
    return out[: MAX_HOLD_CANDIDATES + 1] if step == "hold" else out


def plan(
    view: LeiffView, legal_actions: Sequence[str] | None, worlds: int
) -> tuple[str | None, list[str]]:
    """The sensible bot's answer and the candidates a search compares (none, or one, when
    this decision is not searched: out of the seat's turn, or a step worlds do not model)."""
    legal = list(view["legal_actions"] if legal_actions is None else legal_actions)
    sensible = leiff_bot.decide(view, legal)
    me = view["viewer"]
    if sensible is None or me is None or worlds <= 0 or not can_sample(view):
        return sensible, []
    if me not in view["waiting_for"]["owners"] or parse_action(sensible).out_of_turn:
        return sensible, []
    if sensible == "leiff" and leiff_bot.calls_anyway(view):
        # a round this long ends with the next call: the rollouts, cut off before the end,
        # would value drawing on as holding the hand as it is, and stall it again
        return sensible, []
    own_step = [a for a in legal if parse_action(a).kind not in OUT_OF_TURN_KINDS]
    return sensible, candidates(view, own_step, sensible)


def search_decide(
    view: LeiffView,
    legal_actions: Sequence[str] | None = None,
    *,
    worlds: int = LEIFF_WORLDS[STRONGEST_LEIFF_LEVEL],
    time_limit: float = TIME_LIMIT,
    seed: int | None = None,
) -> str | None:
    """The searching seat's action for the viewing seat, or None when it should wait.

    ``view`` is ``state.view(seat)`` and ``legal_actions`` defaults to its list, as for
    :func:`leiff_bot.decide`, whose answer it keeps wherever it does not search.
    """
    sensible, options = plan(view, legal_actions, worlds)
    if len(options) < 2:
        return sensible
    me = view["viewer"]
    assert me is not None  # plan() offers candidates to a seat only
    rng = random.Random(view_seed(view) if seed is None else seed)
    # values[i][w]: candidate i in world w; every candidate meets the same worlds
    values: list[list[float]] = [[] for _ in options]
    deadline = time.process_time() + time_limit
    sense = care(view)
    careless = min(sense) < 1.0
    with unworded():  # the rollouts' events are never read: no English for them
        for _ in range(worlds):
            world = sample_world(view, rng, sense=sense)
            # the careless seats' random choices: the same for every candidate of a world
            chance = rng.getrandbits(64) if careless else 0
            for index, action in enumerate(options):
                table = world.clone()
                play(table, me, action)
                finish(table, sense=sense, rng=random.Random(chance) if careless else None)
                values[index].append(round_value(table, me))
            if time.process_time() > deadline:
                break
    return options[_confident_best(values)]


def _confident_best(values: list[list[float]]) -> int:
    """The candidate to play: the best on average, if it beat the sensible choice (index
    0) in the same worlds by more than ``CONFIDENCE`` standard errors of the mean
    difference; else the sensible choice. Rollouts are noisy (a round's score swings by
    tens of points from world to world), and a move that only looks better by chance is
    worse than the sensible bot's."""
    means = [sum(row) / len(row) for row in values]
    best = max(range(len(values)), key=lambda i: (means[i], -i))
    if best == 0:
        return 0
    diffs = [b - a for a, b in zip(values[0], values[best], strict=True)]
    count = len(diffs)
    mean = sum(diffs) / count
    if count < 2:
        return 0
    variance = sum((d - mean) ** 2 for d in diffs) / (count - 1)
    return best if mean > CONFIDENCE * math.sqrt(variance / count) else 0


def decide_at(view: LeiffView, legal_actions: Sequence[str] | None, level: str) -> str | None:
    """A bot seat's action at ``level`` (a board-game level name; unknown names play the
    sensible bot)."""
    worlds = LEIFF_WORLDS.get(level, 0)
    if worlds <= 0:
        return leiff_bot.decide(view, legal_actions)
    return search_decide(view, legal_actions, worlds=worlds)


def search_action(state: LeiffState, seat: int, level: str = STRONGEST_LEIFF_LEVEL) -> str | None:
    """The bot seat's action at ``level`` in ``state``; reads only ``state.view(seat)``."""
    return decide_at(state.view(seat), None, level)
