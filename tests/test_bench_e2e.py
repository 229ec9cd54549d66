"""``make bench-e2e`` keeps working: a tiny run of it, the bot in its own process.

Only that it runs and measures is checked here (speed is the benchmark's business, not a
test's): matches set up at mid-game are played, Leiff actions are clicked, nothing is
refused, and the bot's loop samples, CPU and process-tree memory come back.
"""

from __future__ import annotations

import asyncio
import gc
import json
import pickle
from pathlib import Path

import pytest

from bench import e2e, e2e_trace, picture_calls


def test_a_small_end_to_end_run_plays_and_measures(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls_file = tmp_path / "calls.pickle"
    monkeypatch.setenv("E2E_PICTURES", str(calls_file))  # the bot's process inherits it
    trace = tmp_path / "trace"
    trace.mkdir()
    monkeypatch.setenv("E2E_TRACE", str(trace))
    heap = tmp_path / "heap.json"
    monkeypatch.setenv("E2E_HEAP", str(heap))
    stages = asyncio.run(e2e.run([(3.0, 1.0, 2.0)], board_matches=4, leiff_tables=1))
    (stage,) = stages
    # what the bot's collector tracked at the end, by type
    tracked = json.loads(heap.read_text())
    assert tracked["dict"] > 0 and sum(tracked.values()) > 1000
    # the simulator's own collector was off during the stage, and is on again
    assert stage.harness_pauses == [] and gc.isenabled()
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
    # the bot wrote down its picture workers' calls, which replay here
    calls = pickle.loads(calls_file.read_bytes())
    names = {name for name, _ in calls}
    assert {"board_png_from_json", "table_png", "hand_png"} <= names
    assert picture_calls.main([str(calls_file)]) == 0
    replayed = capsys.readouterr().out
    assert f"{len(calls)} calls" in replayed and "CPU per move" in replayed
    # the timeline of the run: every reply, split into the bot's parts
    e2e_trace.analyse(trace)
    timeline = capsys.readouterr().out
    replies = len(figures.replies) + len(figures.leiff_replies)
    assert f"{replies} replies" in timeline
    assert "_flush_and_commit" in timeline  # the moves' transactions, counted by kind
    assert f"all: {replies} replies, bot's work mean" in timeline
    assert "picture draw" in timeline and "sqlite" in timeline
