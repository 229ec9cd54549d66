"""``make bench-e2e`` keeps working: a tiny run of it, the bot in its own process.

Only that it runs and measures is checked here (speed is the benchmark's business, not a
test's): matches set up at mid-game are played, Leiff actions are clicked, nothing is
refused, and the bot's loop samples, CPU and process-tree memory come back.
"""

from __future__ import annotations

import asyncio

import pytest

from bench import e2e


def test_a_small_end_to_end_run_plays_and_measures(capsys: pytest.CaptureFixture[str]) -> None:
    stages = asyncio.run(e2e.run([(3.0, 1.0, 2.0)], board_matches=4, leiff_tables=1))
    (stage,) = stages
    figures = stage.figures
    assert figures.board_moves >= 3 and figures.leiff_actions >= 1
    assert figures.refused == 0, figures.refusals
    assert len(figures.replies) == figures.board_moves
    assert stage.lags(stage.samples), "the bot wrote no loop-lag samples"
    rss, pss, processes = stage.memory
    assert processes >= 2 and rss > pss > 0  # the bot and its picture workers
    assert stage.cpu["bot"] > 0
    # every move's answer is a callback, counted by the simulator
    assert stage.requests.get("callback", 0) >= figures.board_moves + figures.leiff_actions
    printed = capsys.readouterr().out
    assert "board /move → board picture" in printed and "bot process tree" in printed
    assert "REST requests per move" in printed
    assert "requests counted in Discord's global limit" in printed and "CPU per move" in printed
    assert e2e.cpu_ms_per_move(stage) > 0
