"""A match to JSON and back: exact, byte-stable, and replayable from any start."""

from __future__ import annotations

import json

import pytest

from engine import get_game


def test_a_match_from_a_position_round_trips_and_replays() -> None:
    dalen = get_game("dalen")
    state = dalen.position(5, {"A1": "dark", "b1": "light", "i1": "light"}, "dark", variant=True)
    for move in ("a2", "e5", "g4"):
        state = state.play(move)
    text = state.to_json()
    data = json.loads(text)
    assert data["start"] == {
        "stones": {"a1": "dark", "b1": "light", "i1": "light"},
        "to_move": "dark",
    }
    assert data["options"] == {"variant": True} and data["moves"] == ["a2", "e5", "g4"]
    again = dalen.from_json(text)
    assert again.to_json() == text
    assert again.last_turn == state.last_turn and again.outcome == state.outcome
    history = list(again.history())
    assert [s.ply for s in history] == [0, 1, 2, 3]
    assert history[-1].to_json() == text
    assert history[1].last_turn.flipped == ("b1",), "the variant option survives the replay"


def test_les_mid_opening_round_trips_with_its_phase() -> None:
    les = get_game("les")
    state = les.new(5).play("c3").play("c4").play("g3")
    again = les.from_json(state.to_json())
    assert again.extra == {"phase": "setup", "step": 4, "anchor": "g3"}
    assert again.seat_to_move == 0 and again.to_move == "white"
    assert sorted(again.legal_moves()) == sorted(state.legal_moves())
    chosen = again.play("g5").play("black")
    assert les.from_json(chosen.to_json()).seat_to_move == 1


def test_the_same_position_reached_the_same_way_gives_the_same_bytes() -> None:
    lefe = get_game("lefe")
    one = lefe.new(6).play("f6").play("swap").play("E5")
    two = lefe.new(6).play(" F6").play("SWAP").play("e5 ")
    assert one.to_json() == two.to_json()


def test_json_of_another_game_is_refused() -> None:
    text = get_game("lefe").new(5).to_json()
    with pytest.raises(ValueError, match="lefe"):
        get_game("dalen").from_json(text)
