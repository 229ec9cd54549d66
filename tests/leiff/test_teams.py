"""Team games: alternate seating, the free choice of two cards to look at, team scores, penalties."""

from __future__ import annotations

import pytest

from engine import IllegalMove
from tests.leiff.helpers import GAME, look_everyone, play, stacked

LOW = ["1", "2", "-1", "slot"]  # 2
MID = ["5", "6", "3", "4"]  # 18
TEN = ["1", "2", "3", "4"]  # 10
HIGH = ["13", "12", "12", "13"]  # 50


def test_teams_sit_alternately():
    state = GAME.new(players=4, seed=1, options={"teams": True})
    assert state.view(None)["teams"] == [[0, 2], [1, 3]]


def test_each_player_chooses_which_two_cards_to_look_at_before_play():
    state = stacked([LOW, MID, TEN, MID[::-1]], "9", teams=True)
    assert state.waiting_for()["step"] == "look" and state.waiting_for()["owners"] == [0, 1, 2, 3]
    assert state.view(0)["hands"][0] == [None] * 4
    assert "draw" not in state.legal_actions(0) and "match 1" not in state.legal_actions(1)
    state = play(state, (2, "look 3"), (2, "look 4"))
    assert state.view(2)["hands"][2] == [None, None, "3", "4"]
    assert state.view(0)["hands"][2] == [None] * 4
    assert state.legal_actions(2) == []
    with pytest.raises(IllegalMove):
        state.play(2, "look 1")
    for seat in (0, 1, 3):
        state = play(state, (seat, "look 1"), (seat, "look 4"))
    assert state.waiting_for()["step"] == "turn" and state.waiting_for()["turn"] == 0


def test_team_round_score_is_the_sum_and_the_caller_team_gets_the_bonus():
    # team {0, 2}: 2 + 10 = 12; team {1, 3}: 18 + 18 = 36
    state = look_everyone(
        stacked([LOW, MID, TEN, ["6", "5", "4", "3"]], "9", teams=True, target=100)
    )
    state = state.play(0, "leiff")
    view = state.view(None)
    assert view["round_scores"] == [2 - 5, 18, 10, 18]
    assert view["team_totals"] == [7, 36]
    assert view["totals"] == [7, 36, 7, 36]


def test_caller_team_tied_gets_plus_five():
    state = look_everyone(stacked([TEN, TEN, LOW, LOW], "9", teams=True, target=100))
    state = state.play(0, "leiff")  # 12 against 12
    assert state.view(None)["team_totals"] == [17, 12]


def test_caller_team_strictly_lowest_gets_minus_five():
    state = look_everyone(
        stacked([TEN, TEN, LOW, ["5", "4", "-1", "slot"]], "9", teams=True, target=100)
    )
    state = state.play(0, "leiff")  # 12 against 18
    assert state.view(None)["team_totals"] == [7, 18]


def test_team_game_ends_with_both_members_of_the_lowest_team_winning():
    state = look_everyone(stacked([LOW, HIGH, TEN, MID], "9", teams=True))
    state = state.play(0, "leiff")
    assert state.outcome is not None and state.outcome.winner == [0, 2]


def test_the_other_team_may_give_a_table_talk_penalty_card():
    state = look_everyone(stacked([LOW, MID, TEN, HIGH], "9", ["11"], teams=True))
    assert "penalty 1" in state.legal_actions(0) and "penalty 3" in state.legal_actions(2)
    assert "penalty 2" not in state.legal_actions(0) and "penalty 0" not in state.legal_actions(0)
    with pytest.raises(IllegalMove, match="other team"):
        state.play(0, "penalty 2")
    state = state.play(0, "penalty 3")
    assert state.hands[3] == [*HIGH, "11"]
    assert state.view(3)["hands"][3] == ["13", "12", None, None, None]


def test_penalty_is_not_an_action_without_teams():
    state = stacked([LOW, MID], "9")
    assert not any(a.startswith("penalty") for a in state.legal_actions(0))
    with pytest.raises(IllegalMove, match="team"):
        state.play(0, "penalty 1")
