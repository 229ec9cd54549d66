"""What the specs say in English is what the bot says today, word for word.

The service and the bot still phrase moves themselves; the next step moves them onto the
specs' texts. These differential tests pin that the specs already say the same: every move
description, special-move button and announcement, and opening hint met along seeded
random games of every board game.
"""

from __future__ import annotations

import random

import pytest

from bot.features.board_games.feature import _move_label
from bot.features.board_games.labels import ACTIONS
from engine import BOARD_GAMES, get_game, get_spec
from engine.board import BoardState
from i18n import phrase, translate
from matchcore.service import board_logic
from matchcore.service.texts import english
from matchcore.storage.records import MatchRecord, SeatRecord

USERS = (111, 222)


def _record(game: str) -> MatchRecord:
    return MatchRecord(
        id=1,
        guild_id=1,
        channel_id=1,
        game=game,
        status="running",
        created_at=0.0,
        updated_at=0.0,
        seats=(SeatRecord(0, USERS[0]), SeatRecord(1, USERS[1])),
    )


def _games(name: str, count: int, whole: bool = False) -> list[list[BoardState]]:
    """``count`` seeded random games on the smallest board, every position of each (of the
    first 60 unless ``whole``)."""
    game = get_game(name)
    games = []
    for seed in range(count):
        rng = random.Random(f"{name}:{seed}")
        state = game.new(size=min(game.sizes))
        positions = [state]
        while state.outcome is None and (whole or len(positions) < 60):
            state = state.play(rng.choice(sorted(state.legal_moves())))
            positions.append(state)
        games.append(positions)
    return games


@pytest.mark.parametrize("name", BOARD_GAMES)
def test_moves_read_in_menus_as_the_bot_labels_them(name: str) -> None:
    spec = get_spec(name)
    seen = 0
    for positions in _games(name, 3):
        for state in positions:
            for move in state.legal_moves():
                assert spec.describe_move(move).english() == _move_label("en", name, move)
                german = _move_label("de", name, move)
                assert german == phrase("de", spec.describe_move(move))
                assert "capturing" not in german and " then " not in german
                seen += 1
    assert seen > 0


def test_the_special_moves_are_the_buttons_the_service_offers() -> None:
    special = {m.move for name in BOARD_GAMES for m in get_spec(name).notation.special_moves}
    assert special == set(board_logic.SPECIAL_MOVES)
    for name in BOARD_GAMES:
        for move in get_spec(name).notation.special_moves:
            assert move.button().english() == translate("en", ACTIONS[move.move][0])
            assert phrase("de", move.button()) == translate("de", ACTIONS[move.move][0])


@pytest.mark.parametrize("name", BOARD_GAMES)
def test_special_moves_are_announced_as_the_service_announces_them(name: str) -> None:
    spec = get_spec(name)
    record = _record(name)
    announced = set()
    for positions in _games(name, 20, whole=True):
        for before in positions:
            for special in spec.notation.special_moves:
                if special.move not in before.legal_moves():
                    continue
                seat = before.seat_to_move
                assert seat is not None
                after = before.play(special.move)
                phrase = special.announce(seat, move=special.move, colour=after.seat_colour(seat))
                words = phrase.english(player=board_logic.mention(USERS[seat]))
                said = board_logic.move_text(record, seat, before, after)
                assert words == english(said.kind, said.data)
                announced.add(special.move)
    assert announced == {m.move for m in spec.notation.special_moves}


@pytest.mark.parametrize("name", BOARD_GAMES)
def test_opening_hints_are_the_services_hints(name: str) -> None:
    record = _record(name)
    for positions in _games(name, 2):
        for state in positions:
            if state.outcome is not None:
                continue
            hint = state.opening_hint()
            said = board_logic.turn_text(record, state)
            assert said is not None
            user = board_logic.mention(record.user_of(state.seat_to_move))
            # while nobody plays a colour yet (the Les set-up and side choice) the line
            # names none: the hint says the colour of the stone to lay
            colour = f" ({state.to_move})" if state.colours_assigned else ""
            turn = f"{user} to move{colour}."
            expected = turn if hint is None else f"{turn} {hint.english()}"
            assert english(said.kind, said.data) == expected


def test_a_bare_lefe_cell_completes_to_the_captures_it_may_mean() -> None:
    completion = get_spec("lefe").notation.completion
    assert completion is not None
    assert completion.question.english.format(move="e5") == (
        "e5 can capture more than one tree: which one?"
    )
    assert completion.placeholder.english == "Capture which tree?"
    offered = 0
    for positions in _games("lefe", 8, whole=True):
        for state in positions:
            legal = state.legal_moves()
            for cell in state.grid.names:
                choices = state.capture_choices(cell)
                completed = completion.complete(cell, legal)
                if choices and "x" in choices[0]:
                    assert completed == sorted(choices)
                    offered += len(choices) > 1
                else:
                    assert completed == []
    assert offered > 0
