"""The strength benchmark's bookkeeping: games recorded, resumed without replaying, reported."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from bench import ai as bench_ai

DOCS = Path(__file__).resolve().parents[2] / "docs" / "benchmarks"


def test_a_recorded_line_resumes_without_replaying_and_reports(tmp_path, capsys) -> None:
    record = tmp_path / "ai.jsonl"
    with ProcessPoolExecutor(max_workers=1) as pool:
        bench_ai.run_board_game("dalen", 2, 0.05, pool, [("easy", "random")], record=str(record))
        first = record.read_text().splitlines()
        assert len(first) == 2
        entries = [json.loads(line) for line in first]
        assert {e["key"] for e in entries} == {
            "dalen:easy-random:0:0.05",
            "dalen:easy-random:1:0.05",
        }
        assert all(e["outcome"] in {"win", "draw", "loss"} and e["plies"] > 0 for e in entries)
        # a third game is asked for: only that one is played and appended
        bench_ai.run_board_game("dalen", 3, 0.05, pool, [("easy", "random")], record=str(record))
        # a line split over processes: this one plays only from game 4 on
        bench_ai.run_board_game(
            "dalen", 5, 0.05, pool, [("easy", "random")], record=str(record), start=4
        )
    lines = record.read_text().splitlines()
    assert lines[:2] == first and len(lines) == 4
    assert json.loads(lines[3])["key"] == "dalen:easy-random:4:0.05"
    capsys.readouterr()
    bench_ai.main(["--report", str(record), "--markdown"])
    table = capsys.readouterr().out
    assert "| Dalen (7) | easy v random | 0.05 | 4 |" in table


def test_unknown_lines_are_refused_with_the_list() -> None:
    with pytest.raises(ValueError, match="hard-normal"):
        bench_ai.parse_lines("normal-random,expert-random")


def test_the_published_figures_are_those_of_the_committed_record(capsys) -> None:
    # docs/benchmarks/ai.md quotes the record's table and its games not won verbatim:
    # a rerun that changes the record without updating the page (or the reverse) fails
    bench_ai.main(["--report", str(DOCS / "ai-record.jsonl"), "--markdown", "--show-games"])
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("|", "-"))]
    page = (DOCS / "ai.md").read_text(encoding="utf-8").splitlines()
    assert len(printed) > 10
    missing = [line for line in printed if line not in page]
    assert not missing, missing
