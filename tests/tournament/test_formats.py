"""Round robin (circle method), arena pairing and streaks, Leiff seating, tie-breaks."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from matchcore.tournament.arena import ArenaEntrant, arena_points, pair_arena
from matchcore.tournament.leiff_rounds import place_points, seat_tables, table_sizes
from matchcore.tournament.round_robin import round_robin
from matchcore.tournament.standings import Game, buchholz, sonneborn_berger, standings


@given(st.integers(min_value=2, max_value=14))
def test_a_round_robin_pairs_everyone_with_everyone_exactly_once(n: int) -> None:
    players = list(range(10, 10 + n))
    rounds = round_robin(players)
    assert len(rounds) == n - 1 + n % 2
    met = [frozenset(pair) for pairs, _ in rounds for pair in pairs]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(c) for c in itertools.combinations(players, 2)), key=sorted
    )
    for pairs, bye in rounds:
        seated = [p for pair in pairs for p in pair] + ([bye] if bye is not None else [])
        assert sorted(seated) == players
    byes = [bye for _, bye in rounds if bye is not None]
    assert sorted(byes) == (players if n % 2 else [])


@given(st.integers(min_value=2, max_value=16))
def test_a_round_robin_keeps_colours_within_one_and_never_three_alike_in_a_row(n: int) -> None:
    history: dict[int, list[int]] = {p: [] for p in range(n)}
    for pairs, _ in round_robin(list(range(n))):
        for first, second in pairs:
            history[first].append(1)
            history[second].append(-1)
    for colours in history.values():
        assert abs(sum(colours)) <= 1
        assert all(len(set(colours[i : i + 3])) == 2 for i in range(len(colours) - 2))


def test_arena_scores_a_win_2_a_draw_1_and_doubles_after_two_wins_in_a_row() -> None:
    assert arena_points(["win", "draw", "loss"]) == ([4, 2, 0], False)
    assert arena_points(["win", "win", "win", "draw", "win"]) == ([4, 4, 8, 4, 4], False)
    assert arena_points(["win", "win", "loss", "win", "win", "win"]) == ([4, 4, 0, 4, 4, 8], True)


@st.composite
def free_players(draw: st.DrawFn) -> list[ArenaEntrant]:
    n = draw(st.integers(min_value=0, max_value=30))
    ids = list(range(n))
    last: dict[int, int | None] = dict.fromkeys(ids)
    # a consistent history: a few games, each player's last opponent the last one played
    for _ in range(draw(st.integers(min_value=0, max_value=3 * n))):
        if n >= 2:
            a, b = draw(st.sampled_from(list(itertools.permutations(ids, 2))))
            last[a], last[b] = b, a
    return [ArenaEntrant(p, draw(st.integers(min_value=0, max_value=40)), last[p]) for p in ids]


@settings(max_examples=200, deadline=None)
@given(free_players())
def test_arena_pairs_free_players_at_once_never_with_their_last_opponent(
    free: list[ArenaEntrant],
) -> None:
    pairs, waiting = pair_arena(free)
    by_id = {e.player: e for e in free}
    seated = [p for pair in pairs for p in pair] + waiting
    assert sorted(seated) == sorted(by_id)
    for a, b in pairs:
        assert by_id[a].last_opponent != b and by_id[b].last_opponent != a
    # whoever waits could only have met their last opponent again
    for a, b in itertools.combinations(waiting, 2):
        assert by_id[a].last_opponent == b or by_id[b].last_opponent == a
    assert len(waiting) <= 2


def test_arena_pairs_the_closest_scores() -> None:
    free = [ArenaEntrant(1, 20), ArenaEntrant(2, 2), ArenaEntrant(3, 18), ArenaEntrant(4, 0)]
    assert pair_arena(free) == ([(1, 3), (2, 4)], [])


@given(st.integers(min_value=3, max_value=300), st.integers(min_value=3, max_value=6))
def test_leiff_tables_seat_3_to_6_at_most_one_apart(n: int, preferred: int) -> None:
    sizes = table_sizes(n, preferred)
    assert sum(sizes) == n
    assert all(3 <= s <= 6 for s in sizes)
    assert max(sizes) - min(sizes) <= 1
    if n % preferred == 0:
        assert set(sizes) == {preferred}


def test_leiff_tables_of_twelve_at_four_seat_the_top_scores_together() -> None:
    ranked = list(range(12))
    assert seat_tables(ranked, 4) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    assert table_sizes(2) == []


def test_leiff_places_score_by_the_size_of_the_table_and_shared_places_share() -> None:
    assert place_points([1, 2, 3, 4]) == [6, 4, 2, 0]
    assert place_points([2, 1, 2, 4]) == [3, 6, 3, 0]
    assert place_points([1, 1, 3]) == [3, 3, 0]


def test_buchholz_and_sonneborn_berger_by_hand() -> None:
    """A beats B, B beats C, A draws C: A 3, B 2, C 1 (in half points)."""
    games = [Game((1, 2), (2, 0)), Game((2, 3), (2, 0)), Game((1, 3), (1, 1))]
    scores = {1: 3, 2: 2, 3: 1}
    assert buchholz(scores, games) == {1: 3, 2: 4, 3: 5}
    # SB in quarter points: A beat B (2 × 2) and drew C (1 × 1)
    assert sonneborn_berger(scores, games) == {1: 5, 2: 2, 3: 3}
    ranked = standings(scores, games)
    assert [s.player for s in ranked] == [1, 2, 3]


def test_equal_scores_are_split_by_buchholz_then_sonneborn_berger() -> None:
    games = [Game((1, 3), (2, 0)), Game((2, 4), (2, 0)), Game((3, 4), (2, 0))]
    scores = {1: 2, 2: 2, 3: 2, 4: 0}
    ranked = standings(scores, games)
    # 1 beat 3 (who has 2), 2 beat 4 (who has 0): 1 and 3 ahead of 2 on Buchholz (2, 2, 0);
    # 1 ahead of 3 on Sonneborn-Berger (1 beat a player of 2 points, 3 only one of 0)
    assert [s.player for s in ranked] == [1, 3, 2, 4]
    assert [(s.buchholz, s.sonneborn_berger) for s in ranked[:3]] == [(2, 4), (2, 0), (0, 0)]


def test_two_players_alone_in_an_arena_meet_again_rather_than_stall() -> None:
    alone = [ArenaEntrant(1, 4, last_opponent=2), ArenaEntrant(2, 0, last_opponent=1)]
    assert pair_arena(alone) == ([], [1, 2])  # without the rule: both wait
    assert pair_arena(alone, rematch=True) == ([(1, 2)], [])


def test_a_rematch_only_when_nobody_else_can_be_paired() -> None:
    """Four free: 1 and 2 met last, 3 and 4 met last; 1 plays 3 and 2 plays 4, no
    rematch. Three free with a game to come (1 plays 3): 2 waits for it."""
    four = [
        ArenaEntrant(1, 8, last_opponent=2),
        ArenaEntrant(2, 6, last_opponent=1),
        ArenaEntrant(3, 4, last_opponent=4),
        ArenaEntrant(4, 2, last_opponent=3),
    ]
    assert pair_arena(four, rematch=True) == ([(1, 3), (2, 4)], [])
    three = four[:3]
    assert pair_arena(three, rematch=True) == ([(1, 3)], [2])
