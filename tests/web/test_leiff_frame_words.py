"""A Leiff frame words each offered action once for all tables, not once per frame: the
same few dozen actions (a match of each own slot, a catch of every other card) are offered
step after step at every table, and parsing and wording them was most of a frame's cost
(bench/web_frames.py, docs/benchmarks/web.md). The words are the same either way, each
table's labels naming its own members."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

import wording.leiff_actions
from bench import web_frames
from engine.leiff import random_action
from web.leiff_frame import leiff_frame
from web.sessions import Identity
from wording.leiff_actions import action_words


@pytest.fixture(scope="module")
def table() -> Any:
    return asyncio.run(web_frames.opened(4))


def test_a_step_of_the_others_parses_no_offered_action_again(
    table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    info, state, _, _, names = table
    members = sorted(names)
    seat = 2
    viewer = members[seat]
    first = leiff_frame(info, state, viewer=viewer, names=names, language="de")
    assert len(first["actions"]) > 10  # catches and matches are offered
    # the same table a step later (another seat's turn): the engine's own parser, counted
    rng = random.Random(3)
    while True:
        actor, action = random_action(state, rng)
        if actor != seat:
            break
    later = state.play(actor, action)
    parsed: list[str] = []
    real = wording.leiff_actions.parse_action

    def counted(text: str) -> Any:
        parsed.append(text)
        return real(text)

    monkeypatch.setattr(wording.leiff_actions, "parse_action", counted)
    again = leiff_frame(info, later, viewer=viewer, names=names, language="de")
    offered_before = {a["action"] for a in first["actions"]}
    new = [a["action"] for a in again["actions"] if a["action"] not in offered_before]
    assert set(parsed) <= set(new), "an action offered before was parsed again"


def test_another_table_reuses_the_wording_with_its_own_names(
    table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wording is kept by the seats an action names, not their names: a table of other
    members parses nothing again, and each label names that table's members."""
    info, state, _, _, names = table
    members = sorted(names)
    leiff_frame(info, state, viewer=members[1], names=names, language="en")
    others = {m: Identity(m, f"Zoë{n}", "en") for n, m in enumerate(members)}
    parsed: list[str] = []
    real = wording.leiff_actions.parse_action
    monkeypatch.setattr(
        wording.leiff_actions, "parse_action", lambda text: parsed.append(text) or real(text)
    )
    frame = leiff_frame(info, state, viewer=members[1], names=others, language="en")
    assert parsed == []
    who = tuple(others[m].name for m in members)
    catches = [a for a in frame["actions"] if a["action"].startswith("catch ")]
    assert catches
    for shown in frame["actions"]:
        assert shown["label"] == action_words("en", shown["action"], who, 1).label
        assert "\x00" not in shown["label"]
    assert any("Zoë" in a["label"] for a in catches)


def test_the_offered_actions_read_as_the_wording_says(table: Any) -> None:
    info, state, _, _, names = table
    members = sorted(names)
    who = tuple(f"P{m}" for m in members)
    for language in ("en", "de"):
        for seat, member in enumerate(members):
            frame = leiff_frame(info, state, viewer=member, names=names, language=language)
            for shown in frame["actions"]:
                words = action_words(language, shown["action"], who, seat)
                assert shown["label"] == words.label and shown["menu"] == words.menu
                assert shown["card"] == (list(words.card) if words.card else None)
                if words.kind == "catch":
                    assert shown["beside"]  # beside the other's card: "catch"

    # a frame's card is its own list: a change to one frame reaches no other
    frame = leiff_frame(info, state, viewer=members[0], names=names, language="en")
    about = next(a for a in frame["actions"] if a["card"])
    about["card"].append(99)
    again = leiff_frame(info, state, viewer=members[0], names=names, language="en")
    assert all(99 not in (a["card"] or []) for a in again["actions"])


def test_the_frames_benchmark_times_both_games_step_by_step() -> None:
    result = web_frames.run(steps=6, players=3, seed=2, tables=2)
    for game in ("leiff", "dalen"):
        assert result[game]["steps"] == 6
        assert 0 < result[game]["p50_ms"] <= result[game]["p90_ms"]
