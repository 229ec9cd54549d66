"""The custom-id format and the layout of actions into Discord components."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.common.components import ActionButton, ActionSelect, build_view
from bot.common.custom_ids import BUTTON_TEMPLATE, SELECT_TEMPLATE, ComponentId, make_id
from bot.features.board_games.labels import board_choices
from bot.features.leiff_tables.labels import leiff_choices


def test_custom_ids_round_trip_and_refuse_what_does_not_fit():
    encoded = make_id("f", 12, 57, "catch 1.3")
    assert encoded == "lb|f|12|57|catch 1.3"
    assert ComponentId.decode(encoded) == ComponentId("f", 12, 57, "catch 1.3")
    assert ComponentId.decode("someone-else:button") is None
    with pytest.raises(ValueError):
        make_id("b", 1, 1, "x" * 95)
    with pytest.raises(ValueError):
        make_id("q", 1, 1, "draw")


def test_buttons_and_selects_have_distinct_templates():
    assert BUTTON_TEMPLATE.match(make_id("b", 1, 2, "swap"))
    assert not BUTTON_TEMPLATE.match(make_id("b", 1, 2, "~pick0"))
    assert SELECT_TEMPLATE.match(make_id("b", 1, 2, "~pick0"))
    assert not SELECT_TEMPLATE.match(make_id("b", 1, 2, "swap"))


def _controls(view: discord.ui.View) -> tuple[list[str], list[str], int]:
    buttons, options, rows = [], [], set()
    for item in view.children:
        rows.add(item.row)
        if isinstance(item, ActionButton):
            buttons.append(ComponentId.decode(item.custom_id).action)
        elif isinstance(item, ActionSelect):
            options.extend(o.value for o in item.item.options)
    return buttons, options, len(rows)


def test_every_leiff_action_gets_a_control_within_five_rows():
    seats = ["ann", "ben", "cat", "dan", "eve", "fay"]
    actions = ["leiff", "draw", "take"] + [f"match {n}" for n in range(1, 8)]
    actions += [f"catch {s}.{n}" for s in range(1, 6) for n in range(1, 8)]
    actions += [f"penalty {s}" for s in (1, 3, 5)]
    view = build_view("f", 3, 9, leiff_choices("en", actions, seats))
    buttons, options, rows = _controls(view)
    assert rows <= 5 and len(view.children) <= 25
    assert sorted(buttons + options) == sorted(actions)
    assert all(
        len(item.item.options) <= 25 for item in view.children if isinstance(item, ActionSelect)
    )


def test_labels_read_like_the_table():
    seats = ["ann", "ben", "cat"]
    labels = {
        c.action: c.label
        for c in leiff_choices("en", ["catch 2.4", "swap 3", "rule Sing!", "leiff"], seats)
    }
    assert labels["catch 2.4"] == "Catch cat's slot 4"
    assert labels["swap 3"] == "Put it in slot 3"
    assert labels["~prompt:rule"] == "Write the table rule…"
    ordered = [c.action for c in board_choices("en", ["resign", "swap", "offer_draw"])]
    assert ordered == ["swap", "offer_draw", "resign"]


def test_service_sentences_start_upper_case_but_cells_keep_theirs():
    from bot.common.outgoing import sentence

    assert sentence("it is not your turn") == "It is not your turn"
    assert sentence("c3 is taken") == "c3 is taken"
    assert sentence("<@1> plays e5.") == "<@1> plays e5."


async def test_a_dead_picture_worker_is_replaced_without_losing_the_picture():
    import os
    import signal

    from bot.common.pictures import Painter
    from engine import get_game

    painter = Painter(workers=1)
    try:
        await painter.start()
        state = get_game("lefe").new(size=5)
        first = await painter.board_png(state, ["a", "b"])
        for pid in list(painter._pool._processes):  # the one worker process
            os.kill(pid, signal.SIGKILL)
        again = await painter.board_png(state, ["a", "b"])
        assert again == first  # drawn anyway (in a thread), byte for byte the same
        assert await painter.board_png(state, ["a", "b"]) == first  # and by a new worker
    finally:
        painter.close()


def nine_to_answer(players: int) -> tuple[Any, int, int]:
    """A table of ``players`` where a player must answer a 9 (swap any two cards): the
    state, that player's seat and the deal's seed."""
    from engine import get_game

    game = get_game("leiff")
    for seed in range(300):
        state = game.new(players=players, seed=seed, options={})
        for _ in range(80):
            waiting = state.waiting_for()
            if waiting["step"] == "effect" and str(waiting.get("card")) == "9":
                return state, waiting["owners"][0], seed
            if waiting["step"] == "turn":
                state = state.play(waiting["turn"], "draw")
            elif waiting["step"] == "hold":
                state = state.play(waiting["turn"], "discard")
            else:
                owner = waiting["owners"][0]
                state = state.play(owner, state.default_action(owner))
    raise AssertionError("no seed deals a 9 early")


@pytest.mark.parametrize("players", [3, 4, 6])
def test_a_nine_offers_every_swap_in_two_picks_beside_every_other_action(players):
    from bot.common.custom_ids import TRADE_BACK, TRADE_FIRST

    state, owner, _ = nine_to_answer(players)
    actions = state.legal_actions(owner)
    trades = [a for a in actions if a.startswith("trade ")]
    assert len(trades) > 25 and "decline" in actions  # 48 at three players, 240 at six
    names = ["ann", "ben", "cat", "dan", "eve", "fay"][:players]
    view = build_view("f", 3, 9, leiff_choices("en", actions, names))
    buttons, options, rows = _controls(view)
    assert rows <= 5
    shown = set(buttons + options)
    # every action but the swaps has its own control; the swaps start with their first card
    assert {a for a in actions if a not in trades} <= shown
    firsts = {a.split()[1] for a in trades}
    assert {c for c in shown if c.startswith(TRADE_FIRST)} == {TRADE_FIRST + f for f in firsts}
    # the second pick: that card's swaps (one menu) and the way back
    offered: set[str] = set()
    for first in firsts:
        second = build_view("f", 3, 9, leiff_choices("en", actions, names, trade_from=first))
        buttons, options, rows = _controls(second)
        assert TRADE_BACK in buttons and rows <= 3
        swaps = [c for c in buttons + options if c != TRADE_BACK]
        assert swaps and all(c.startswith(f"trade {first} ") for c in swaps)
        offered.update(swaps)
    assert offered == set(trades)


def test_menus_too_many_for_five_rows_are_packed_and_nothing_is_dropped():
    from bot.common.components import Choice

    choices = [
        Choice(f"{family} {n}", f"{family} {n}", family=family, family_label=family)
        for family in ("aa", "bb", "cc", "dd", "ee", "ff")
        for n in range(10)
    ] + [Choice("decline", "Decline")]
    view = build_view("f", 3, 9, choices)
    buttons, options, rows = _controls(view)
    assert rows <= 5 and buttons == ["decline"]
    assert sorted(options) == sorted(c.action for c in choices if c.action != "decline")


def _random_choices(rng: Any) -> list[Any]:
    from bot.common.components import Choice

    styles = list(discord.ButtonStyle)[:4]
    choices = []
    for family in rng.sample(["catch", "match", "penalty", "", "swap"], rng.randint(1, 5)):
        for number in range(rng.randint(1, 30 if family else 8)):
            action = f"{family} {number}" if family else f"act{number}"
            label = rng.choice(["A", "Ziehen", "Fang 2.3 " * rng.randint(1, 12), "🐉 x"])
            choices.append(
                Choice(action, label, rng.choice(styles), family, rng.choice(["", "Catch…"]))
            )
    return choices


def test_the_payload_without_a_view_is_the_views_own():
    import random

    from bot.common.components import components

    rng = random.Random(5)
    compared = 0
    for _ in range(300):
        choices = _random_choices(rng)
        disabled = rng.random() < 0.2
        threshold = rng.choice([3, 5, 8])
        language = rng.choice(["en", "de"])
        view = build_view(
            "f", 7, 3, choices, disabled=disabled, select_threshold=threshold, language=language
        )
        fixed = components(
            "f", 7, 3, choices, disabled=disabled, select_threshold=threshold, language=language
        )
        assert view is not None and fixed is not None
        assert fixed.to_components() == view.to_components()
        compared += len(view.children)
    assert compared > 1000
    assert components("f", 7, 3, []) is None


def test_the_payload_leaves_no_garbage_for_the_collector_and_nothing_to_store():
    import gc
    import random

    from bot.common.components import components

    choices = _random_choices(random.Random(1))
    gc.collect()
    gc.disable()
    try:
        for _ in range(20):
            fixed = components("b", 1, 1, choices)
            assert fixed is not None and fixed.is_finished() and not fixed.is_dispatchable()
            del fixed
        unreachable = gc.collect()
    finally:
        gc.enable()
    assert unreachable == 0
    # a view of the same choices is cyclic garbage once dropped: what the payload avoids
    gc.disable()
    try:
        for _ in range(5):
            view = build_view("b", 1, 1, choices)
            del view
        assert gc.collect() > 0
    finally:
        gc.enable()
