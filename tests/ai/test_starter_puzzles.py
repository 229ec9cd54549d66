"""The shipped starter puzzles (data/puzzles/, written by ``python -m bench.mine_puzzles``):
enough per board game, of varied difficulty, and each re-checked against the engine from
its stones alone: the solution wins within the horizon, no other move does, the stored
line is legal and ends in the solver's win."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.ai.puzzles import MIN_MOVES, Puzzle, verify
from matchcore.service.learning import STARTER_DIRECTORY, starter_puzzles

GAMES = ("lefe", "dalen", "les", "lublache")
# At least 50 a game (issue 37), each re-checked below; the set is mined by
# ``python -m bench.mine_puzzles`` (docs/ai.md, Reviews and puzzles).
AT_LEAST = dict.fromkeys(GAMES, 50)


def _shipped(game: str) -> list[Puzzle]:
    body = json.loads((STARTER_DIRECTORY / f"{game}.json").read_text())
    assert body["game"] == game
    return [Puzzle.from_dict(item) for item in body["puzzles"]]


@pytest.mark.parametrize("game", GAMES)
def test_every_shipped_puzzle_has_exactly_one_winning_move(game: str) -> None:
    puzzles = _shipped(game)
    problems = {}
    for puzzle in puzzles:
        check = verify(puzzle)
        if not check.ok:
            problems[puzzle.first_move] = check
    assert problems == {}


@pytest.mark.parametrize("game", GAMES)
def test_the_starter_set_keeps_its_size_and_one_puzzle_a_position(game: str) -> None:
    puzzles = _shipped(game)
    assert len(puzzles) >= AT_LEAST[game]
    assert all(p.game == game and p.source and p.moves >= MIN_MOVES for p in puzzles)
    positions = {(p.to_move, tuple(sorted(p.stones.items()))) for p in puzzles}
    assert len(positions) == len(puzzles)


def test_the_starter_set_is_of_varied_difficulty() -> None:
    puzzles = [p for game in GAMES for p in _shipped(game)]
    ratings = sorted(p.rating for p in puzzles)
    quarter = len(ratings) // 4
    # the hardest quarter is rated well above the easiest, and wins in one and in two
    # moves are both there
    assert ratings[-quarter] - ratings[quarter] >= 150
    assert {len(p.solution) for p in puzzles} >= {1, 3}


@pytest.mark.parametrize("game", GAMES)
def test_each_games_puzzles_are_of_varied_difficulty(game: str) -> None:
    # within each game too: solution lines of more than one length, ratings spread out
    puzzles = _shipped(game)
    assert len({len(p.solution) for p in puzzles}) >= 2
    ratings = sorted(p.rating for p in puzzles)
    assert ratings[-1] - ratings[0] >= 300
    assert len(set(ratings)) >= 5


def test_the_service_loads_every_shipped_file() -> None:
    loaded = starter_puzzles()
    assert len(loaded) == sum(len(_shipped(game)) for game in GAMES)
    assert Path(STARTER_DIRECTORY).is_dir()
