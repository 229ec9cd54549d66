"""Puzzles through the web table's socket, in process over a real SQLite file: the
``puzzle`` frame carries the position and the engine's legal moves but never the answer;
only the member the puzzle was opened for answers it, once; right and wrong move the
rating as ``/move`` does; the words are the member's language."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.ai.puzzles import answer_is_right
from i18n import translate
from tests.web.test_socket import ANN, BOB, CAT, Table, frame, local_table
from web.local import LOCAL
from web.puzzle_frame import DAILY_DONE, NO_DAILY, NOT_OPEN
from web.sessions import Identity, Place


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    async with local_table(tmp_path) as signed:
        # Cat reads German
        signed.tokens[CAT] = await signed.table.sessions.issue(Identity(CAT, "Cat", "de"))
        yield signed


async def test_a_puzzle_is_shown_without_its_answer_and_answered_once(table: Table) -> None:
    ann, bob = await table.socket(ANN), await table.socket(BOB)
    await ann.send_json({"type": "puzzle", "game": "dalen"})
    shown = await frame(ann, "puzzle")
    opened = await table.service.puzzles.open_puzzle(ANN)
    assert opened is not None and opened.id == shown["puzzle"]
    puzzle = opened.puzzle
    state = puzzle.position()
    assert shown["game"] == "dalen" and shown["toMove"] == puzzle.to_move
    assert shown["stones"] == dict(state.stones) and shown["legal"] == state.legal_moves()
    # nothing in the frame gives the answer away
    assert not {"solution", "steps", "rating"} & set(shown)
    assert puzzle.first_move not in " ".join(shown["lines"]).split()
    assert shown["lines"][0].startswith(f"Puzzle {opened.id} (Dalen)")

    # Bob cannot answer Ann's puzzle (it is not open for him): refused, still Ann's
    await bob.send_json({"type": "puzzle_answer", "puzzle": opened.id, "move": puzzle.first_move})
    refused = await frame(bob, "error")
    assert refused["text"] == translate("en", NOT_OPEN)
    assert (await table.service.puzzles.open_puzzle(ANN)) is not None

    wrong = next(m for m in state.legal_moves() if not answer_is_right(puzzle, m))
    await ann.send_json({"type": "puzzle_answer", "puzzle": opened.id, "move": wrong})
    result = await frame(ann, "puzzle_result")
    assert not result["solved"] and result["solution"] == list(puzzle.solution)
    assert result["lines"][0] == translate(
        "en", "bot.puzzle.wrong", move=wrong, solution=puzzle.first_move
    )
    player = await table.service.puzzles.player(ANN)
    assert player.failed == 1 and player.rating < 1500 and result["rating"] == round(player.rating)
    # answered: a second answer, even the right one, is refused and changes nothing
    await ann.send_json({"type": "puzzle_answer", "puzzle": opened.id, "move": puzzle.first_move})
    assert (await frame(ann, "error"))["text"] == translate("en", NOT_OPEN)
    assert (await table.service.puzzles.player(ANN)) == player


async def test_a_puzzle_solved_in_german(table: Table) -> None:
    cat = await table.socket(CAT)
    await cat.send_json({"type": "puzzle"})
    shown = await frame(cat, "puzzle")
    assert shown["lines"][0].startswith(f"Rätsel {shown['puzzle']} (")
    assert shown["lines"][-1].startswith("Du: Wertung 1500, Serie 0.")
    opened = await table.service.puzzles.open_puzzle(CAT)
    assert opened is not None
    first = opened.puzzle.first_move
    await cat.send_json({"type": "puzzle_answer", "puzzle": opened.id, "move": first})
    result = await frame(cat, "puzzle_result")
    assert result["solved"] and result["streak"] == 1
    assert result["lines"][0] == f"Richtig! {first} gewinnt."
    assert result["lines"][1] == "Die Lösung: " + " ".join(opened.puzzle.solution)
    # the steps are the solution replayed: one a move, the first placing the answer's cells
    assert [step["move"] for step in result["steps"]] == list(opened.puzzle.solution)
    assert result["steps"][0]["colour"] == opened.puzzle.to_move


async def test_a_puzzle_of_no_board_game_is_refused(table: Table) -> None:
    ann = await table.socket(ANN)
    await ann.send_json({"type": "puzzle", "game": "leiff"})
    assert (await frame(ann))["type"] == "error"
    assert await table.service.puzzles.open_puzzle(ANN) is None


async def test_the_puzzle_of_the_day_is_the_same_for_everyone_and_answered_once(
    table: Table,
) -> None:
    """The local table's server posts no daily puzzle in a channel: the web claims the
    day's as the bot would (once), every member is shown that one, each answers it once."""
    ann, cat = await table.socket(ANN), await table.socket(CAT)
    await ann.send_json({"type": "puzzle_daily"})
    shown = await frame(ann, "puzzle")
    today = await table.service.puzzles.daily(LOCAL.guild_id)
    assert today is not None and today.puzzle_id == shown["puzzle"] and shown["daily"]
    stored = await table.service.puzzles.get(today.puzzle_id)
    assert stored is not None
    puzzle = stored.puzzle
    game = translate("en", f"game.{puzzle.game}.title")
    assert shown["lines"][0] == translate(
        "en", "bot.puzzle.daily", game=game, colour=puzzle.to_move
    )
    assert puzzle.first_move not in " ".join(shown["lines"]).split()
    # Cat, in German: the same puzzle, said in German
    await cat.send_json({"type": "puzzle_daily"})
    german = await frame(cat, "puzzle")
    assert german["puzzle"] == shown["puzzle"] and german["lines"][0].startswith(
        "Das Rätsel des Tages"
    )
    assert (await table.service.puzzles.daily(LOCAL.guild_id)) == today  # claimed once
    # Ann solves it; asked again, it is answered already (not shown as open again)
    await ann.send_json(
        {"type": "puzzle_answer", "puzzle": shown["puzzle"], "move": puzzle.first_move}
    )
    assert (await frame(ann, "puzzle_result"))["solved"]
    await ann.send_json({"type": "puzzle_daily"})
    assert (await frame(ann, "error"))["text"] == translate("en", DAILY_DONE)
    assert await table.service.puzzles.open_puzzle(ANN) is None
    # the other puzzles go on as before, of the game chosen
    await ann.send_json({"type": "puzzle", "game": "les"})
    following = await frame(ann, "puzzle")
    assert following["game"] == "les" and not following["daily"]


async def test_a_server_that_posts_its_puzzle_in_a_channel_keeps_the_post_to_the_bot(
    table: Table,
) -> None:
    """In an Activity on a server with a puzzle channel, the web shows the day's puzzle
    once the bot posted it, and before that says there is none yet, claiming nothing (the
    bot's post of the day would be lost)."""
    guild, channel = 4242, 77
    await table.service.update_settings(guild, ANN, True, puzzle_channel=channel)
    token = await table.table.sessions.issue(Identity(ANN, "Ann", "en"), place=Place(9, guild))
    ws = await table.client.ws_connect(f"/ws?session={token}")
    await frame(ws, "welcome")
    await ws.send_json({"type": "puzzle_daily"})
    assert (await frame(ws, "error"))["text"] == translate("en", NO_DAILY)
    assert await table.service.puzzles.daily(guild) is None
    # the bot claims and posts the day's puzzle in its channel: the web shows that one
    posted = await table.service.puzzles.claim_daily(guild, channel)
    assert posted is not None
    await ws.send_json({"type": "puzzle_daily"})
    shown = await frame(ws, "puzzle")
    assert shown["puzzle"] == posted.id and shown["daily"]
    await ws.close()
