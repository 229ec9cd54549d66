"""The board-game search: legal, reproducible, on time, and sensible where the answer is clear."""

from __future__ import annotations

import dataclasses
import random
import time

import pytest

from engine import BOARD_GAMES, get_game
from engine.ai.alphabeta import AlphaBetaSettings
from engine.ai.levels import (
    LEVEL_NAMES,
    choose_move,
    choose_move_from_json,
    get_level,
    level_settings,
    search_move,
)
from engine.ai.mcts import Searcher, SearchSettings, terminal_value, uniform_random_move
from engine.board import BoardState
from engine.registry import get_board_game
from tests.ai.toy_game import ThreeInRow, blue_threatens_three, lines_of, red_wins_in_one

SMALL = SearchSettings(max_iterations=25, time_limit=30.0)


def random_positions(game_name: str, count: int, seed: int) -> list:
    """Positions met along seeded random games on the smallest board (finished ones skipped)."""
    game = get_game(game_name)
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = game.new(size=min(game.sizes))
        plies = rng.randrange(0, 40)
        for _ in range(plies):
            if state.outcome is not None:
                break
            state = state.play(uniform_random_move(state, rng))
        if state.outcome is None:
            positions.append(state)
    return positions


@pytest.mark.parametrize("game_name", BOARD_GAMES)
def test_search_returns_a_legal_move_in_random_positions(game_name: str) -> None:
    count = 2 if game_name == "lublache" else 5  # Lublache moves cost ~10 ms each
    searcher = Searcher(SMALL if game_name != "lublache" else SearchSettings(6, 30.0))
    for index, state in enumerate(random_positions(game_name, count, seed=11)):
        result = searcher.search(state, random.Random(index))
        assert result.move in state.legal_moves()
        state.play(result.move)  # and the engine agrees


@pytest.mark.parametrize("game_name", ["lefe", "dalen", "les"])
def test_same_seed_gives_the_same_search(game_name: str) -> None:
    state = random_positions(game_name, 1, seed=5)[0]
    first = Searcher(SMALL).search(state, random.Random(42))
    second = Searcher(SMALL).search(state, random.Random(42))
    # (a search may stop before its budget once the solver has proven the root's value)
    assert (first.move, first.visits, first.iterations) == (
        second.move,
        second.visits,
        second.iterations,
    )
    assert 0 < first.iterations <= 25


def test_default_seed_comes_from_the_position() -> None:
    state = random_positions("dalen", 1, seed=3)[0]
    assert choose_move(state, "easy") == choose_move(state, "easy")
    assert choose_move(state, "easy") == choose_move(
        get_game("dalen").from_json(state.to_json()), "easy"
    )


@pytest.mark.parametrize("game_name", ["lefe", "lublache"])  # Lublache: the slowest engine
def test_search_stops_at_its_time_limit(game_name: str) -> None:
    state = get_game(game_name).new().play("e5")
    settings = SearchSettings(max_iterations=10**9, time_limit=0.3)
    started = time.process_time()  # as below: the work done, however busy the machine
    result = Searcher(settings).search(state, random.Random(1))
    elapsed = time.process_time() - started
    assert result.move in state.legal_moves()
    assert elapsed < 0.3 + 1.0
    assert result.iterations < 10**9


def test_search_takes_a_win_in_one() -> None:
    position, win = red_wins_in_one()
    result = Searcher(SearchSettings(max_iterations=200, time_limit=30.0)).search(
        position, random.Random(3)
    )
    assert result.move == win


def test_search_blocks_the_opponents_win_in_one() -> None:
    position, block = blue_threatens_three()
    result = Searcher(SearchSettings(max_iterations=400, time_limit=30.0, scan_depth=2)).search(
        position, random.Random(4)
    )
    assert result.move == block


def test_search_refuses_a_finished_game() -> None:
    game = ThreeInRow()
    names = game.new().grid.names
    a, b, c = lines_of(game.new())[0]
    finished = game.position(stones={names[a]: "red", names[b]: "red", names[c]: "red"})
    assert finished.outcome is not None
    with pytest.raises(ValueError, match="over"):
        Searcher(SMALL).search(finished, random.Random(0))


def test_levels_grow_in_strength_and_respect_the_five_second_promise() -> None:
    assert LEVEL_NAMES == ("beginner", "easy", "normal", "hard", "master")
    beginner, easy, normal, hard, master = (get_level(name).settings for name in LEVEL_NAMES)
    assert beginner.max_iterations < easy.max_iterations < normal.max_iterations
    assert easy.scan_depth == 0 < normal.scan_depth  # easy does not even look at every move
    assert isinstance(hard, AlphaBetaSettings) and hard.max_depth >= 3  # reads replies
    assert isinstance(master, AlphaBetaSettings) and master.max_depth >= 3
    # only the lowest level plays without the tactical guard
    assert [get_level(name).guarded for name in LEVEL_NAMES] == [False, True, True, True, True]
    for game in BOARD_GAMES:
        times = [level_settings(name, game=game).time_limit for name in LEVEL_NAMES]
        assert times[:4] == sorted(times[:4]) and max(times) <= 5.0
        # the strongest level answers within 2 s (its guard included: 1.25 x its limit)
        assert level_settings("master", game=game).time_limit * 1.25 <= 2.0
    assert level_settings("hard", scale=0.1).max_nodes == hard.max_nodes // 10
    assert level_settings("normal", scale=0.1).max_iterations == normal.max_iterations // 10
    assert level_settings("hard", game="les").root_width > 0  # a thousand moves early on
    with pytest.raises(ValueError, match="levels are"):
        get_level("grandmaster")


def test_a_time_override_above_five_seconds_is_capped() -> None:
    state = random_positions("dalen", 1, seed=9)[0]
    result = search_move(state, "easy", seed=1, time_limit=60.0, scale=0.5)
    assert result.move in state.legal_moves() and result.iterations <= 30


def test_worker_entry_point_rebuilds_the_position_from_json() -> None:
    state = random_positions("lefe", 1, seed=2)[0]
    rebuilt = get_board_game("lefe").from_json(state.to_json())
    assert rebuilt.to_json() == state.to_json()
    assert choose_move_from_json(state.to_json(), "lefe", "easy", seed=8) in state.legal_moves()
    # The same search of the rebuilt position plays the same move. Easy stops at 60
    # iterations or 0.5 s, whichever comes first: on a loaded machine the clock can stop one
    # search earlier than the other, so both get the 5 s ceiling and stop at the budget.
    once = search_move(rebuilt, "easy", seed=8, time_limit=5.0)
    again = search_move(state, "easy", seed=8, time_limit=5.0)
    assert once.move == again.move and once.iterations == again.iterations
    with pytest.raises(ValueError, match="not a board game"):
        choose_move_from_json(state.to_json(), "leiff", "easy")


def _lefe_positions_with_a_winning_end(count: int, seed: int) -> list[tuple[BoardState, set[str]]]:
    """Positions from seeded random Lefe games where some move ends the game as a win for
    the mover, with the set of those moves."""
    game = get_game("lefe")
    rng = random.Random(seed)
    found: list[tuple[BoardState, set[str]]] = []
    while len(found) < count:
        state = game.new()
        while state.outcome is None:
            if state.ply > 40:  # nothing ends this early; skipping saves most of the cost
                mover = state.to_move
                winning = {
                    move
                    for move in state.legal_moves()
                    if (after := state.play(move)).outcome is not None
                    and after.outcome.winner == mover
                }
                if winning:
                    found.append((state, winning))
                    break
            state = state.play(rng.choice(state.legal_moves()))
    return found


def test_search_ends_a_lefe_game_it_wins_at_once() -> None:
    for state, winning in _lefe_positions_with_a_winning_end(3, seed=4):
        result = Searcher(SearchSettings(max_iterations=200, time_limit=30.0)).search(
            state, random.Random(1)
        )
        assert result.move in winning
        assert result.iterations == 0  # taken straight from the scan, no search needed


def test_a_draw_is_worth_less_to_the_searching_side_with_contempt() -> None:
    game = get_game("lefe")
    rng = random.Random(6)
    drawn = None
    while drawn is None:  # random Lefe games end level often
        state = game.new()
        while state.outcome is None:
            state = state.play(uniform_random_move(state, rng))
        if state.outcome.winner is None:
            drawn = state
    assert terminal_value(drawn, "dark") == 0.5
    assert terminal_value(drawn, "dark", draw_value=0.4, chooser="dark") == pytest.approx(0.4)
    assert terminal_value(drawn, "light", draw_value=0.4, chooser="dark") == pytest.approx(0.6)
    assert get_level("normal").settings.draw_value < 0.5


@pytest.mark.parametrize("game_name", ["lefe", "dalen", "les"])
def test_stopping_once_decided_plays_the_same_move(game_name: str) -> None:
    for exploration in (0.7, 0.1):
        full = SearchSettings(
            max_iterations=300, time_limit=60.0, exploration=exploration, stop_when_decided=False
        )
        early = dataclasses.replace(full, stop_when_decided=True)
        for position in random_positions(game_name, 4, seed=21):
            whole = Searcher(full).search(position, random.Random(5))
            short = Searcher(early).search(position, random.Random(5))
            assert short.move == whole.move
            assert short.iterations <= whole.iterations


def test_a_search_stops_once_its_answer_cannot_change() -> None:
    # Red must block blue's three in a row: the blocking move soon has more visits than
    # any other move could gain in the iterations left, and the search stops there.
    position, block = blue_threatens_three()
    settings = SearchSettings(max_iterations=2000, time_limit=60.0, scan_depth=2)
    result = Searcher(settings).search(position, random.Random(4))
    assert result.move == block
    assert result.iterations < 2000
    whole = Searcher(dataclasses.replace(settings, stop_when_decided=False)).search(
        position, random.Random(4)
    )
    # (the full search may still stop early: the solver proves blue's win in the end)
    assert result.iterations < whole.iterations <= 2000 and whole.move == block


def test_lefe_normal_reads_narrow_positions_with_alphabeta() -> None:
    assert isinstance(level_settings("normal", game="lefe", moves=40), SearchSettings)
    assert isinstance(level_settings("normal", game="lefe", moves=16), AlphaBetaSettings)
    assert isinstance(level_settings("normal", game="dalen", moves=40), SearchSettings)
    assert isinstance(level_settings("normal", game="dalen", moves=12), AlphaBetaSettings)
    narrow_normal = level_settings("normal", game="lefe", moves=10)
    narrow_hard = level_settings("hard", game="lefe", moves=10)
    assert narrow_hard.max_depth >= narrow_normal.max_depth  # hard never reads less
    assert narrow_hard.max_nodes > narrow_normal.max_nodes
    # a late Lefe position with few placements left: normal answers with a legal move
    rng = random.Random(12)
    state = get_game("lefe").new()
    while state.outcome is None and len(state.legal_moves()) > 12:
        state = state.play(uniform_random_move(state, rng))
    assert state.outcome is None
    result = search_move(state, "normal")
    assert result.move in state.legal_moves()
    assert result.depth >= 3 and not result.visits  # alpha-beta read it ahead


@pytest.mark.parametrize("game_name", BOARD_GAMES)
def test_every_games_hard_level_keeps_to_its_clock(game_name: str) -> None:
    # The real hard settings of each game (alpha-beta or Monte Carlo), with the clock
    # shortened: the search must end on it, however much budget is left.
    game = get_game(game_name)
    rng = random.Random(6)
    state = game.new()
    for _ in range(30):
        state = state.play(uniform_random_move(state, rng))
    # The processor time the search took, not the wall time: what it does once its clock
    # has run out (the guard's look for a win in one over Les's thousand moves) is a
    # tenth of a second of work, which a machine busy with other work stretches past any
    # slack (2.5 s of wall time with a share of a few percent of a core). The clock and
    # the guard's quarter of a second on top bound the processor time as well (0.65 s),
    # plus the guard's last look; with a 5 s clock Dalen and Les work on past 1.1 s.
    started = time.process_time()
    result = search_move(state, "hard", seed=3, time_limit=0.4)
    elapsed = time.process_time() - started
    assert result.move in state.legal_moves()
    assert elapsed < 0.4 + 0.6
