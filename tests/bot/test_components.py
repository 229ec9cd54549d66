"""The custom-id format and the layout of actions into Discord components."""

from __future__ import annotations

import discord
import pytest

from bot.common.components import ActionButton, ActionSelect, build_view
from bot.common.custom_ids import BUTTON_TEMPLATE, SELECT_TEMPLATE, ComponentId, make_id
from bot.common.errors import UserFacingError
from bot.features.board_games.labels import board_choices
from bot.features.leiff_tables.labels import leiff_choices
from bot.features.settings.values import setting_value


def test_custom_ids_round_trip_and_refuse_what_does_not_fit():
    encoded = make_id("f", 12, 57, "catch 1.3")
    assert encoded == "lb|f|12|57|catch 1.3"
    assert ComponentId.decode(encoded) == ComponentId("f", 12, 57, "catch 1.3")
    assert ComponentId.decode("someone-else:button") is None
    with pytest.raises(ValueError):
        make_id("b", 1, 1, "x" * 95)
    with pytest.raises(ValueError):
        make_id("z", 1, 1, "draw")


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


def test_setting_values_from_text():
    assert setting_value("allowed_channels", "<#12>, 34") == [12, 34]
    assert setting_value("allowed_channels", "none") == []
    assert setting_value("leiff_target", "100") == 100
    assert setting_value("leiff_drinking", "on") == "on"
    with pytest.raises(UserFacingError):
        setting_value("allowed_channels", "#general")


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


def _nine_pending(players: int):
    """A real table (``players`` seats) where the turn player owes the Neuner's swap."""
    import random

    from engine import get_game
    from engine.leiff import random_action

    for seed in range(400):
        rng = random.Random(seed)
        state = get_game("leiff").new(players=players, seed=seed)
        for _ in range(300):
            waiting = state.waiting_for()
            if waiting["step"] == "effect" and waiting["card"] == "9":
                return state, waiting["owners"][0]
            if state.outcome is not None or waiting["step"] == "next":
                break
            seat, action = random_action(state, rng)
            if action.split(" ", 1)[0] in ("catch", "match", "penalty"):
                continue  # keep the hands at four cards: the crowded case
            state = state.play(seat, action)
    raise AssertionError("no Neuner came up")


@pytest.mark.parametrize("players", [4, 6])
def test_the_nines_swap_is_chosen_in_two_steps_and_decline_always_fits(players: int):
    from bot.features.leiff_tables.labels import TRADE_FIRST, fold_trades
    from bot.service.leiff_logic import controls

    seats = ["ann", "ben", "cat", "dan", "eve", "fay"][:players]
    state, owner = _nine_pending(players)
    actions = controls(state.view(owner), owner)
    trades = {a for a in actions if a.startswith("trade ")}
    assert len(trades) > 25 and "decline" in actions
    everything_else = set(actions) - trades

    def drawn(focus: str | None) -> tuple[list[str], list[str], int]:
        choices = fold_trades("en", leiff_choices("en", actions, seats), seats, focus)
        view = build_view("f", 3, 9, choices)
        assert len(view.children) <= 25
        return _controls(view)

    # The first menu: one option per card, the other controls beside it, all in five rows.
    buttons, options, rows = drawn(None)
    assert rows <= 5
    assert everything_else <= set(buttons + options)
    firsts = [o for o in options if o.startswith(TRADE_FIRST)]
    assert not trades & set(buttons + options)
    # Every swap is reached through the first card it names, with Decline still there.
    reached: set[str] = set()
    for first in firsts:
        buttons, options, rows = drawn(first[len(TRADE_FIRST) :])
        assert rows <= 5 and "decline" in buttons and TRADE_FIRST in buttons
        assert everything_else <= set(buttons + options)
        reached |= trades & set(buttons + options)
    assert reached == trades
    # The menus are worded in German too.
    german = fold_trades("de", leiff_choices("de", actions, seats), seats)
    assert any(c.family_label == "Zwei Karten tauschen: Wähl die erste…" for c in german)
