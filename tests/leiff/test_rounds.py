"""Leiff calls, the caller bonus, refilling, rounds, totals and the end of the game."""

from __future__ import annotations

import pytest

from engine import IllegalMove
from engine.leiff import Deck
from tests.leiff.helpers import GAME, play, stacked, texts

LOW = ["1", "2", "-1", "slot"]  # 2
MID = ["5", "6", "3", "4"]  # 18
HIGH = ["13", "12", "12", "13"]  # 50


def test_leiff_ends_the_round_and_reveals_every_hand():
    state = stacked([LOW, MID], "9").play(0, "leiff")
    view = state.view(None)
    assert view["round_over"] is True and state.round_over
    assert view["hands"] == [LOW, MID]
    assert view["caller"] == 0
    assert state.waiting_for()["step"] == "next"
    assert state.actors() == [0, 1] and state.legal_actions(1) == ["next"]


def test_caller_strictly_lowest_gets_minus_five():
    state = stacked([LOW, MID], "9").play(0, "leiff")
    assert state.view(None)["round_scores"] == [2 - 5, 18]


def test_caller_tied_for_lowest_gets_plus_five():
    state = stacked([["1", "2", "3", "4"], ["5", "5", "-1", "1"]], "9").play(0, "leiff")
    assert state.view(None)["round_scores"] == [10 + 5, 10]


def test_caller_not_lowest_gets_plus_five():
    state = stacked([MID, LOW], "9").play(0, "leiff")
    assert state.view(None)["round_scores"] == [18 + 5, 2]


def test_leiff_may_only_be_called_instead_of_drawing():
    state = stacked([LOW, MID], "9", ["10"]).play(0, "draw")
    with pytest.raises(IllegalMove):
        state.play(0, "leiff")
    with pytest.raises(IllegalMove):
        stacked([LOW, MID], "9").play(1, "leiff")


def test_next_round_is_dealt_fresh_and_the_first_player_moves_on():
    state = play(stacked([LOW, MID, MID], "9", target=100), (0, "leiff"), (2, "next"))
    view = state.view(None)
    assert view["round"] == 2 and view["first"] == 1 and view["round_over"] is False
    assert view["hand_sizes"] == [4, 4, 4] and view["draw_count"] == 56 - 13
    assert view["history"] == [[-3, 18, 18]]
    assert view["totals"] == [-3, 18, 18]
    assert state.waiting_for()["turn"] == 1
    state = play(state, (1, "leiff"), (0, "next"))
    assert state.waiting_for()["turn"] == 2


def small_deck(count: int) -> Deck:
    return Deck.from_dict({"base": [{"label": "2", "value": 2, "count": count}]})


def test_empty_draw_pile_is_refilled_from_the_discard_pile_but_its_top_card():
    state = GAME.new(players=2, seed=0, deck=small_deck(11))  # two cards to draw
    state = play(state, (0, "draw"), (0, "discard"))
    assert state.view(None)["draw_count"] == 1 and state.view(None)["discard_count"] == 2
    state = state.play(1, "draw")  # the last card: the pile is refilled at once
    view = state.view(None)
    assert view["draw_count"] == 1 and view["discard_count"] == 1
    assert any(e["kind"] == "refill" for e in state.events)
    assert state.card_count() == 11
    state = state.play(1, "discard")
    assert state.view(None)["discard_count"] == 2 and not state.round_over


def test_round_ends_without_bonus_when_the_draw_pile_cannot_be_refilled():
    deck = Deck.from_dict(
        {"base": [{"label": "2", "value": 2, "count": 9}, {"label": "3", "value": 3, "count": 1}]}
    )
    order = ["2", "2", "2", "2", "3", "2", "2", "2", "2", "2"]  # one card left to draw
    state = GAME.new(players=2, seed=0, deck=deck, deck_order=order)
    state = state.play(1, "match 1")  # wrong: two penalty cards, but only one exists
    assert state.round_over
    assert state.view(None)["caller"] is None
    assert state.view(None)["round_scores"] == [8, 11]


def test_game_ends_when_a_total_reaches_the_target_and_the_lowest_wins():
    state = stacked([LOW, HIGH], "9").play(0, "leiff")
    assert state.outcome is not None and state.outcome.winner == [0]
    assert state.waiting_for()["step"] == "over"
    assert state.actors() == [] and state.legal_actions(0) == []
    assert state.view(1)["outcome"]["winner"] == [0]
    with pytest.raises(IllegalMove, match="over"):
        state.play(0, "next")


def test_equal_lowest_totals_share_the_win():
    state = stacked([HIGH, ["5", "5", "-1", "1"], ["1", "2", "3", "4"]], "9").play(0, "leiff")
    assert state.outcome.winner == [1, 2]


def test_long_game_goes_on_past_fifty():
    state = stacked([LOW, HIGH], "9", target=100).play(0, "leiff")
    assert state.outcome is None and state.waiting_for()["step"] == "next"
    assert state.view(None)["totals"] == [-3, 50]


def test_a_team_round_shows_each_teams_round_score_and_total_on_its_own_line():
    from tests.leiff.helpers import look_everyone

    state = look_everyone(stacked([LOW, MID, MID, HIGH], "9", teams=True))
    state = state.play(state.waiting_for()["turn"], "leiff")
    (line,) = [text for text in texts(state) if text.startswith("Round 1 scores")]
    caller = state.view(None)["caller"]
    scores = state.view(None)["round_scores"]
    assert line.split("\n")[1:3] == [
        f"Team {{p0}} and {{p2}}: {scores[0] + scores[2]} this round "
        f"({{p0}} {scores[0]}, {{p2}} {scores[2]}), {scores[0] + scores[2]} in total.",
        f"Team {{p1}} and {{p3}}: {scores[1] + scores[3]} this round "
        f"({{p1}} {scores[1]}, {{p3}} {scores[3]}), {scores[1] + scores[3]} in total.",
    ]
    assert f"{{p{caller}}} called Leiff" in line


def test_game_over_says_once_who_won_and_why():
    state = stacked([LOW, HIGH], "9").play(0, "leiff")
    assert state.outcome is not None
    (line,) = [text for text in texts(state) if text.startswith("Game over")]
    assert line == "Game over: a total reached 50. {p0} wins with the lowest total, -3."
    assert state.outcome.reason == "a total reached 50, and -3 is the lowest total"
