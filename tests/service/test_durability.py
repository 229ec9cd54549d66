"""Durability: a child applying moves is killed with SIGKILL at random moments; every
acknowledged move is in the database and each match replays from its action log."""

from __future__ import annotations

import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from engine import get_game

ROOT = Path(__file__).resolve().parents[2]
KILL_ROUNDS = 6
CHILD_PATIENCE = 60.0  # seconds a child may take to acknowledge its moves


def _run_child_until_killed(
    db_path: Path, seed: int, acks_before_kill: int, extra_delay: float
) -> list[str]:
    """Start the child, wait for some acknowledgements, SIGKILL it; return its ACK lines."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.service.durability_child", str(db_path), str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None and child.stderr is not None
    output = b""
    give_up = time.monotonic() + CHILD_PATIENCE
    try:
        while output.count(b"ACK") < acks_before_kill:
            # Raw reads with a time limit: a stuck child fails the test instead of hanging it.
            left = max(0.0, give_up - time.monotonic())
            ready, _, _ = select.select([child.stdout], [], [], left)
            chunk = os.read(child.stdout.fileno(), 65536) if ready else b""
            if not chunk:
                child.kill()
                child.wait()
                problem = "stopped early" if ready else "made no progress"
                raise AssertionError(f"the child {problem}: {child.stderr.read().decode()}")
            output += chunk
        time.sleep(extra_delay)  # kill somewhere inside a later call, not just after an ack
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
        output += child.stdout.read()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stdout.close()
        child.stderr.close()
    assert child.returncode == -signal.SIGKILL
    # A line cut short by the kill was never acknowledged.
    lines = output.decode().split("\n")[:-1]
    return [line for line in lines if line.startswith("ACK")]


def _check_database(db_path: Path, acks: list[str]) -> None:
    with sqlite3.connect(db_path) as db:
        matches = {
            row[0]: (row[1], row[2], row[3])
            for row in db.execute("SELECT id, version, state, status FROM matches")
        }
        log: dict[int, list[tuple[int, str]]] = {}
        for match_id, version, action in db.execute(
            "SELECT match_id, version, action FROM actions ORDER BY match_id, version"
        ):
            log.setdefault(match_id, []).append((version, action))
    for ack in acks:
        _, match_id, version, move = ack.split()
        stored_version = matches[int(match_id)][0]
        assert stored_version >= int(version), f"acknowledged {ack} but stored {stored_version}"
        assert (int(version), move) in log[int(match_id)]
    game = get_game("lefe")
    for match_id, (version, state_json, status) in matches.items():
        entries = log.get(match_id, [])
        assert [v for v, _ in entries] == list(range(1, version + 1))
        stored = game.from_json(state_json)
        replayed = game.new(stored.size)
        for _, move in entries:
            replayed = replayed.play(move)
        assert replayed.to_json() == state_json
        assert (status == "finished") == (replayed.outcome is not None)


def test_killed_processes_lose_no_acknowledged_action(tmp_path: Path) -> None:
    db_path = tmp_path / "durable.sqlite3"
    rng = random.Random(2024)
    all_acks: list[str] = []
    for round_number in range(KILL_ROUNDS):
        acks = _run_child_until_killed(
            db_path,
            seed=round_number,
            acks_before_kill=rng.randint(1, 25),
            extra_delay=rng.uniform(0, 0.03),
        )
        all_acks.extend(acks)
        _check_database(db_path, all_acks)
    assert len(all_acks) >= KILL_ROUNDS
