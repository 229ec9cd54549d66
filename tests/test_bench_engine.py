"""The engine benchmarks time the paths the bot takes (valgrind itself is not needed here)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench import bench_render, engine_instructions
from bot.common.pictures import replay_gif_from_json
from engine import get_board_game
from render import replay_gif


def test_the_replay_row_makes_the_bot_s_gif_from_the_stored_match() -> None:
    positions = bench_render._game_positions("lublache", 5, seed=1)[:30]
    record = positions[-1].to_json()
    gif = bench_render._replay_from_record("lublache", record)
    assert gif == replay_gif_from_json("lublache", record, bench_render.NAMES)
    # the same frames as the positions played in the benchmark's process
    assert gif == replay_gif(positions, names=bench_render.NAMES)


def test_each_instruction_mode_does_its_work_and_setup_none(
    tmp_path: Path, monkeypatch: Any
) -> None:
    lublache = get_board_game("lublache")
    state = lublache.new(5)
    for move in ("c3", "d4", "e5", "b2"):
        state = state.play(move)
    position = lublache.position(9, {"e5": "black", "f5": "white"}, "white")
    records = {
        "lublache": state.to_json(),
        "les": get_board_game("les").new(5).to_json(),
        "cold": [{"stones": position.stones, "to_move": "white"}],
    }
    path = tmp_path / "records.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    assert engine_instructions.work("setup", str(path), None) == []
    (gif,) = engine_instructions.work("replay", str(path), None)
    assert isinstance(gif, bytes) and gif.startswith(b"GIF89a")
    played = engine_instructions.work("history", str(path), None)
    assert [s.to_json() for s in played][-1] == state.to_json()  # type: ignore[attr-defined]
    assert engine_instructions.work("cold", str(path), None) == [position.legal_moves()]
    assert engine_instructions.work("cold", str(path), [1]) == []
