"""A lost end played for the opponent's mistakes (``LevelTuning.swindle_nodes``, Dalen easy).

Where every move is proven lost against best play, easy plays the move after which the
fewest of the opponent's replies keep its win (docs/ai.md, Dalen, eighth round). The
position below (size 5, found in seeded random games) is lost for dark whatever it plays,
but after d2 or g5 five of light's six replies leave dark a win, after c1 none does; one
reply deeper, d2 leaves light more chances to go wrong.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from engine import get_game
from engine.ai import endsolver, levels
from engine.ai.levels import search_move
from engine.ai.mcts import SearchResult
from engine.board import BoardState

_LIGHT = "e1 e2 f2 g1 g2 i1"
_EMPTY = "c1 d2 e4 g4 g5 g6 i3"


def lost_with_chances() -> BoardState:
    game = get_game("dalen")
    state = game.new(5)
    taken = set(_LIGHT.split()) | set(_EMPTY.split())
    stones = {cell: "light" for cell in _LIGHT.split()}
    stones |= {cell: "dark" for cell in state.grid.names if cell not in taken}
    return game.position(size=5, stones=stones, to_move="dark")


def shares(state: BoardState, depth: int = 1) -> dict[str, float]:
    """Each move's share of the opponent's replies that leave the mover a win (read
    exactly); at depth 2 a reply that keeps the opponent's win counts the best share the
    mover's next move leaves."""
    mover = state.to_move
    out = {}
    for move in state.legal_moves():
        after = state.play(move)
        total = 0.0
        for reply in after.legal_moves():
            then = after.play(reply)
            if then.outcome is not None:
                total += 1.0 if then.outcome.winner == mover else 0.0
                continue
            solved = endsolver.solve(then, max_nodes=1_000_000, time_limit=60.0)
            assert solved is not None
            best = max(solved[0].values())
            if best == endsolver.LOSS and depth > 1:
                best = max(shares(then).values())
            total += best
        out[move] = total / len(after.legal_moves())
    return out


def test_the_position_is_lost_but_some_moves_leave_the_opponent_few_wins() -> None:
    state = lost_with_chances()
    assert sorted(state.legal_moves()) == sorted(_EMPTY.split())
    solved = endsolver.solve(state, max_nodes=1_000_000, time_limit=60.0)
    assert solved is not None
    assert set(solved[0].values()) == {endsolver.LOSS}
    found = shares(state)
    assert found["c1"] == 0.0
    assert found["d2"] == found["g5"] == max(found.values()) == 5 / 6
    # one reply deeper, d2 leaves light more ways to go wrong than g5
    deeper = shares(state, depth=2)
    assert deeper["d2"] == 23 / 24 and deeper["g5"] == 5 / 6


def test_the_swindle_plays_the_move_the_fewest_replies_refute() -> None:
    state = lost_with_chances()
    tuning = get_game("dalen").spec.ai.levels["easy"]
    ranking = ["c1", "e4", "g4", "g5", "d2", "g6", "i3"]
    searched = SearchResult("c1", 60, 0.01, 0.0, ranking=ranking)
    chosen = levels._swindled(state, searched, tuning, 1.0, deadline=float("inf"))
    # the best share (d2 and g5), read a reply deeper: d2
    assert chosen.move == "d2"
    assert chosen.ranking is not None and chosen.ranking[:2] == ["d2", "g5"]
    # the search's choice stands when it is the best
    kept = dataclasses.replace(searched, move="d2")
    assert levels._swindled(state, kept, tuning, 1.0, deadline=float("inf")) is kept
    # out of positions before a move's replies were all read: the search's choice stands
    poor = dataclasses.replace(tuning, swindle_nodes=1)
    assert levels._swindled(state, searched, poor, 1.0, deadline=float("inf")).move == "c1"


def test_easy_swindles_in_a_lost_dalen_end_and_the_other_levels_do_not() -> None:
    state = lost_with_chances()
    for seed in range(3):
        assert search_move(state, "easy", seed=seed).move == "d2"
    tunings = get_game("dalen").spec.ai.levels
    assert tunings["easy"].swindle_nodes > 0
    assert all(tunings[level].swindle_nodes == 0 for level in ("normal", "hard", "master"))


def test_moves_near_the_best_share_are_read_a_reply_deeper() -> None:
    # Ply 117 of game 171 of the ladder's Dalen easy-against-random line (dark to move, 11
    # placements, every move lost against best play; docs/ai.md, Dalen, eleventh round).
    # One reply deep, k9 leaves light a win after one of its 9 replies (8/9) and h3 after
    # one of 8 (7/8); a reply deeper, h3 leaves light far fewer ways to keep it (0.98
    # against 0.89). Against the uniformly random player h3 wins 99.4 % and k9 95 %.
    state = get_game("dalen").from_json(
        (Path(__file__).parent / "data" / "dalen-swindle-deeper.json").read_text(encoding="utf-8")
    )
    tuning = get_game("dalen").spec.ai.levels["easy"]
    assert tuning.swindle_margin > 0
    ranking = ["k9", "l6", "i4", "m3", "l3", "j3"]
    searched = SearchResult("k9", 60, 0.01, 0.0, ranking=ranking)
    ties_only = dataclasses.replace(tuning, swindle_margin=0.0)
    assert levels._swindled(state, searched, ties_only, 1.0, deadline=float("inf")) is searched
    chosen = levels._swindled(state, searched, tuning, 1.0, deadline=float("inf"))
    assert chosen.move == "h3"


def test_only_dalen_easy_reads_near_ties_deeper() -> None:
    for game in ("dalen", "lefe", "les", "lublache"):
        for level, tuning in get_game(game).spec.ai.levels.items():
            if (game, level) != ("dalen", "easy"):
                assert tuning.swindle_margin == 0.0
            if (game, level) not in {
                ("dalen", "easy"),
                ("dalen", "normal"),
                ("lublache", "normal"),
                ("lublache", "hard"),
            }:
                # the lost end's reading (the swindle, or normal's chance) reads to 1.25
                assert tuning.swindle_time == 1.0
