"""RULINGS §4, Dalen: placement, stagnant trees, flips, the variant, passes and the end.

Positions are on the 5-board; in its left half a1 touches a2, b1, b2 and a2 touches a1, a3,
b2, b3 (see test_geometry_and_pie for the notation).
"""

from __future__ import annotations

import pytest

from engine import IllegalMove, get_game

DALEN = get_game("dalen")


def _position(dark: str = "", light: str = "", to_move: str = "dark", **options):
    stones = {cell: "dark" for cell in dark.split()}
    stones.update({cell: "light" for cell in light.split()})
    return DALEN.position(5, stones, to_move, **options)


def test_game_metadata_and_variant_option() -> None:
    assert (DALEN.name, DALEN.title, DALEN.colors) == ("dalen", "Dalen", ("dark", "light"))
    assert DALEN.sizes == (5, 6, 7, 8, 9) and DALEN.default_size == 7
    assert DALEN.new(7, variant=True).options == {"variant": True}
    assert DALEN.new(7).options == {"variant": False}
    with pytest.raises(ValueError):
        DALEN.new(7, variant="yes")


def test_placement_may_touch_at_most_one_friendly_leaf() -> None:
    # b2-b3 is a line: both stones are leaves, and c3 touches both
    state = _position(dark="b2 b3", light="i1")
    with pytest.raises(IllegalMove, match="c3 is next to two of your leaves"):
        state.play("c3")
    assert "c3" not in state.legal_moves()
    # b2-b3-b4: b3 is no leaf, so c4 (touching b3 and the leaf b4) is fine
    assert "c4" in _position(dark="b2 b3 b4", light="i1").legal_moves()


def test_lone_stones_are_not_leaves() -> None:
    state = _position(dark="b2 b4", light="i1")
    assert state.play("b3").stones["b3"] == "dark"


def test_a_stagnant_tree_flips_touching_enemy_trees_with_no_more_leaves() -> None:
    # after a2, the dark line a1-a2 (2 leaves) can only grow into b2, which touches both of
    # its leaves: it is stagnant and flips {b1} (0 leaves) and {a3, b3} (2 leaves)
    state = _position(dark="a1", light="b1 a3 b3 i1")
    after = state.play("a2")
    assert after.last_turn.flipped == ("a3", "b1", "b3")
    assert after.stones == {cell: "dark" for cell in ("a1", "a2", "a3", "b1", "b3")} | {
        "i1": "light"
    }


def test_a_tree_that_can_still_grow_flips_nothing() -> None:
    # as above but b3 is empty and open to dark, so a1-a2 is not stagnant
    after = _position(dark="a1", light="b1 a3 i1").play("a2")
    assert after.last_turn.flipped == ()
    assert after.stones["b1"] == "light"


def test_an_enemy_tree_with_more_leaves_is_not_flipped() -> None:
    # the dark stone at a1 cannot grow at all (0 leaves); the light path a2-b2-b1 has 2
    after = _position(dark="i1", light="a2 b2 b1").play("a1")
    assert after.last_turn.flipped == ()
    assert after.stones["b2"] == "light"


def test_flips_do_not_cascade_but_act_on_a_later_turn() -> None:
    # the lone dark c1 cannot grow (c2 touches the leaves c3 and d3), so it flips {b1}.
    # The new dark tree b1-c1 is stagnant too and touches {d1, d2} with 2 leaves each, yet
    # nothing more flips this turn. On dark's next move, wherever it is, they flip.
    stones = {
        "a3": "dark",
        "b4": "dark",
        "c1": "dark",
        "c3": "dark",
        "d3": "dark",
        "b1": "light",
        "d1": "light",
        "d2": "light",
        "i1": "light",
    }
    state = DALEN.position(5, stones, "dark")
    after = state.play("a2")
    assert after.last_turn.flipped == ("b1",)
    assert after.stones["d1"] == "light" and after.stones["d2"] == "light"
    later = after.play("h1").play("g7")
    assert later.last_turn.flipped == ("d1", "d2")


def test_variant_a_tree_that_cannot_gain_leaves_flips() -> None:
    # after a2 the line a1-a2 can still grow (a3, b3) but only by extending, which never
    # gives it more than its 2 leaves: stagnant in the variant only
    plain = _position(dark="a1", light="b1 i1").play("a2")
    assert plain.last_turn.flipped == ()
    variant = _position(dark="a1", light="b1 i1", variant=True).play("a2")
    assert variant.last_turn.flipped == ("b1",)
    assert variant.options == {"variant": True}


def test_a_player_with_no_stones_left_loses_at_once() -> None:
    state = _position(dark="a1", light="b1 a3 b3")
    final = state.play("a2")
    assert final.outcome is not None and final.outcome.winner == "dark"
    assert final.outcome.reason == "dark wins: light has no stones left"
    assert final.to_move is None and final.legal_moves() == []


def test_a_player_who_never_placed_has_not_lost() -> None:
    state = DALEN.new(5).play("e5")
    assert state.outcome is None and state.to_move == "light"
    assert DALEN.position(5, {"e5": "dark"}, "light").outcome is None


# a full 5-board but for c3, which touches two leaves of each colour; 30 stones each
_FULL_DARK = (
    "a2 a3 b2 b6 c1 c4 c7 d3 d5 d6 d7 e1 e2 e3 e5 f1 f2 f4 f5 f6 f7 g6 g7 h1 h2 h3 h4 h5 h6 i5"
)


def _nearly_full_board(to_move: str):
    names = DALEN.new(5).grid.names
    dark = set(_FULL_DARK.split())
    light = " ".join(name for name in names if name not in dark and name != "c3")
    return _position(dark=" ".join(dark), light=light, to_move=to_move)


def test_pass_is_the_only_move_without_a_legal_placement() -> None:
    state = _nearly_full_board("dark")
    assert state.legal_moves() == ["pass"]
    assert _position(dark="a1", light="i1").legal_moves().count("pass") == 0
    with pytest.raises(IllegalMove, match="only pass when you have no legal placement"):
        _position(dark="a1", light="i1").play("pass")


def test_two_passes_in_a_row_end_the_game_equal_counts_draw() -> None:
    state = _nearly_full_board("dark").play("pass")
    assert state.outcome is None and state.last_turn.move == "pass"
    final = state.play("pass")
    assert final.outcome is not None and final.outcome.winner is None
    assert final.outcome.reason == "draw: both players passed with 30 stones each"


def test_two_passes_in_a_row_end_the_game_more_stones_win() -> None:
    names = DALEN.new(5).grid.names
    dark = " ".join(names[:31])
    state = _position(dark=dark, light=" ".join(names[31:]))
    final = state.play("pass").play("pass")
    assert final.outcome.winner == "dark"
    assert final.outcome.reason == "dark wins 31–30: both players passed"
    assert final.score == {"dark": 31, "light": 30} and final.score_text() == "dark 31 · light 30"


def test_a_placement_breaks_a_pass_streak() -> None:
    # the nearly full board with b3 emptied too: only light can place, twice
    stones = _nearly_full_board("dark").stones
    del stones["b3"]
    state = DALEN.position(5, stones, "dark")
    assert state.legal_moves() == ["pass"]
    state = state.play("pass")
    assert state.extra["passes"] == 1
    state = state.play("c3")
    assert state.extra["passes"] == 0
    state = state.play("pass")
    assert state.outcome is None, "a pass after a placement is the first of a new streak"
    assert state.legal_moves() == ["b3"]
