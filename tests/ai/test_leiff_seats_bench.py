"""The Leiff seats benchmark's machinery (a tiny run; strength is measured by the benchmark)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from bench import leiff_seats
from bench.leiff_seats import (
    PAIRINGS,
    line_figures,
    load_record,
    main,
    markdown,
    placements,
    play_game,
    seat_kinds,
)


def test_placements_rank_by_score_and_share_ties() -> None:
    assert placements([5, 5, 9]) == [1.5, 1.5, 3.0]
    assert placements([12, -3, 7, 7, 30, 0]) == [5.0, 1.0, 3.5, 3.5, 6.0, 2.0]


def test_the_kinds_of_seat_alternate_and_swap_between_games() -> None:
    assert seat_kinds(3, "search-random", 0) == ["search", "random", "search"]
    assert seat_kinds(3, "search-random", 1) == ["random", "search", "random"]
    assert set(PAIRINGS) == {"search-sensible", "search-random", "sensible-random"}


def test_a_tiny_run_records_resumes_and_reports(tmp_path: Path) -> None:
    record = tmp_path / "seats.jsonl"
    game = play_game(3, "base", "search-sensible", 0, worlds=2)
    assert game.rounds and all(len(row) == 3 for row in game.rounds)
    assert game.search_seconds  # the searching seats searched
    record.write_text(json.dumps(asdict(game)) + "\n", encoding="utf-8")
    loaded = load_record([record])
    assert loaded[game.key].rounds == game.rounds
    (figures,) = line_figures(loaded.values())
    assert figures.rounds == len(game.rounds) and figures.games == 1
    placement_sum = sum(figures.kinds[k][0] * game.kinds.count(k) for k in figures.kinds)
    assert abs(placement_sum - 6.0) < 1e-9  # the ranks of three seats add up to 1 + 2 + 3
    table = markdown([figures])
    assert f"| 3 | base | search v sensible | {len(game.rounds)} (1) |" in table


def test_the_command_skips_what_its_record_holds(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    record = tmp_path / "seats.jsonl"
    args = ["--players", "3", "--options", "base", "--pairings", "sensible-random"]
    main([*args, "--rounds", "3", "--record", str(record)])
    first = record.read_text(encoding="utf-8").splitlines()
    main([*args, "--rounds", "3", "--record", str(record)])  # nothing left to play
    assert record.read_text(encoding="utf-8").splitlines() == first
    capsys.readouterr()
    main(["--report", str(record)])
    assert "| 3 | base | sensible v random |" in capsys.readouterr().out


def test_the_other_seats_unseen_cards_sink_as_a_round_goes_on() -> None:
    from bench.leiff_hands import shifts

    found = shifts([3], games=1)
    assert found[0]
    # the measurement the worlds lean on: later in a round the others' hands are lower
    late = [x for turns, xs in found.items() if turns >= 2 for x in xs]
    assert sum(late) / len(late) < sum(found[0]) / len(found[0])


def test_worlds_that_remember_the_discard_pile_deal_a_draw_pile_nearer_the_truth() -> None:
    from bench.leiff_hands import world_bias

    found = world_bias([3], games=1)
    where = "draw pile"
    random_pile, remembered = found[(where, "all", False)], found[(where, "all", True)]
    assert len(random_pile) == len(remembered) > 50
    # dealt at random, the pile's thrown-away high cards land in the draw pile too
    assert sum(random_pile) / len(random_pile) > abs(sum(remembered) / len(remembered))


def test_the_recorded_table_is_the_report_of_the_committed_record() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs" / "benchmarks"
    games = load_record([docs / "leiff-seats.jsonl"])
    assert games
    assert markdown(line_figures(games.values())) in (docs / "ai.md").read_text(encoding="utf-8")


def test_a_round_that_does_not_end_stops_the_line_with_the_game_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(leiff_seats, "MAX_ROUND_ACTIONS", 3)  # no round ends this soon
    with pytest.raises(RuntimeError, match="seats:3:base:sensible-random:0: round 1"):
        leiff_seats.play_game(3, "base", "sensible-random", 0)
