"""SQL statements per board move, counted on the real SQLite database (issue 21).

Every statement the bot's connection runs while a ``/move`` is handled and delivered
(SQLite's trace callback sees each one, ``BEGIN`` and ``COMMIT`` included) is counted, for
moves in the middle of a match between two members. Before issue 21 a move cost 27: the
match was read four times (three statements each), the server's settings three times, and
each message id was written in a transaction of its own after reading the match again. Now:

- the match is read twice: ``/move`` finds the player's match in the channel, and the
  service reads it again under the match's lock before judging the move;
- the move is committed in one transaction (``BEGIN``, the match row, the action log row,
  the outbox's row for the channel (issue 33: 12 statements before it), ``COMMIT``):
  before the reply, as ever;
- the new board's message id is written with the channel's record of the version, one
  statement, which also checks that the match exists (no read before it); that record is
  the whole step's too (a board move has nothing private), so "delivered" is no longer
  written apart (issue 33: 13 statements in 4 trips before);
- whether hints are shown and the server's settings come from the service's memory (read
  again only after a change, or after a few seconds: another process may change them).

The round trips to aiosqlite's thread (each a queued call, a future and a wake-up of the
event loop) are counted too: two for the move's transaction (``BEGIN`` goes with the match
row, the action log row with ``COMMIT``) and one for the write after the reply; the reads
take none (the read-only connection runs them on the loop's thread). 3 per move (4 before
issue 33's single record), where
there were about 65 before issue 21 (three per read: execute, fetch, close; four for the
transaction) and 6 with every read a trip of its own.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import engine.board
from bench.budget import Bench, _match_id, _pick
from discord_sim import DiscordSimulator

MOVES = 6
STATEMENTS_PER_MOVE = 9
TRIPS_PER_MOVE = 3


def _kind(statement: str) -> str:
    words = statement.split()
    if words[0].upper() in ("BEGIN", "COMMIT", "ROLLBACK"):
        return words[0].upper()
    table = next(
        (words[i + 1] for i, w in enumerate(words[:-1]) if w.upper() in ("FROM", "INTO", "UPDATE")),
        "?",
    )
    return f"{words[0].upper()} {table.split('(')[0]}"


async def test_a_board_move_costs_nine_statements_in_three_trips(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seven moves in one channel: the windows run 20 times faster so that the test does not
    # wait through the channel's 5 edits per 5 s (the statements are what it counts).
    async with DiscordSimulator(rate_limit_time_scale=0.05) as sim:
        bench = Bench(sim, tmp_path)
        await bench.start()
        alice, bob = bench.world.alice, bench.world.bob
        channel = await bench.channel("board")
        challenge = await sim.slash(alice, "play", channel=channel, game="dalen", opponent=bob)
        accepted = await sim.click(bob, challenge.last_message, "Accept")
        await bench.settled(accepted)
        match_id = _match_id(accepted.last_message)
        connection = bench.client.service.repo._db
        # plain reads run on the loop's thread through the read-only connection: no trip
        reader = bench.client.service.repo._reader
        assert reader is not None
        seen: list[str] = []
        per_move: list[Counter[str]] = []
        trips: list[int] = [0]
        trips_per_move: list[int] = []
        execute = connection._execute

        async def counted(*args: Any, **kwargs: Any) -> Any:
            trips[0] += 1
            return await execute(*args, **kwargs)

        connection._execute = counted  # type: ignore[method-assign]
        # the state's serialisations: the engine's dict of a state, which its JSON is made of
        serialised = [0]
        state_dict = engine.board._state_dict

        def counted_dict(state: Any) -> Any:
            serialised[0] += 1
            return state_dict(state)

        monkeypatch.setattr(engine.board, "_state_dict", counted_dict)
        serialised_per_move: list[int] = []
        rng = random.Random(9)
        for number in range(MOVES + 1):
            record, state = await bench.state(match_id)
            assert state.outcome is None
            seen.clear()
            await connection.set_trace_callback(seen.append)
            reader.set_trace_callback(seen.append)
            trips[0] = 0
            serialised[0] = 0
            moved = await sim.slash(
                (alice, bob)[state.seat_to_move], "move", channel=channel, cell=_pick(state, rng)
            )
            await bench.settled(moved)
            moved_trips = trips[0]
            moved_serialised = serialised[0]
            await connection.set_trace_callback(None)
            reader.set_trace_callback(None)
            assert not moved.ephemeral, moved.text
            after, _ = await bench.state(match_id)
            assert after.version == record.version + 1  # committed, before the check above
            if number:  # the first move after the start reads the settings once
                per_move.append(Counter(_kind(s) for s in seen))
                trips_per_move.append(moved_trips)
                serialised_per_move.append(moved_serialised)
        sim.assert_no_bot_errors()

    for counts in per_move:
        assert sum(counts.values()) <= STATEMENTS_PER_MOVE, dict(counts)
        assert counts["SELECT guild_settings"] == 0, dict(counts)
        # the hints' facts (the member's choice and finished games, one query) from memory
        assert counts["SELECT member_preferences"] == 0, dict(counts)
        # once: the service plays the move in the record ``/move``'s lookup read (issue 33)
        assert counts["SELECT matches"] == 1, dict(counts)
        # one write transaction: the move's commit
        assert counts["BEGIN"] == 1 and counts["COMMIT"] == 1, dict(counts)
        # the commit's alone: the channel's record is the whole step's (issue 33)
        assert counts["UPDATE matches"] == 1 and counts["INSERT actions"] == 1, dict(counts)
        # the board's id with the channel's record of its version: one statement
        assert counts["INSERT match_messages"] == 1, dict(counts)
        # the outbox's row (issue 33), in the commit's transaction
        assert counts["INSERT outbox"] == 1, dict(counts)
    assert all(0 < trips <= TRIPS_PER_MOVE for trips in trips_per_move), trips_per_move
    # the new state is serialised once: stored, and the same text goes to the picture
    assert serialised_per_move == [1] * MOVES, serialised_per_move
