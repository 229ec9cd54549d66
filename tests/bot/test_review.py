"""Reviews and puzzles through the simulator with the real client: the Review button of a
finished board, its pages (pictures decoded, the better move legal and better by the
engine's own reading), Continue from here, /review again (read back), a puzzle solved and
failed through /move (in English and in German), a review in a German member's
language, and the daily puzzle posted once per day across a restart."""

from __future__ import annotations

import asyncio
import random
import re
import time
from typing import Any

from bench.mine_puzzles import play_game
from discord_sim.models import SimMessage
from engine.ai.puzzles import mine_game
from i18n import translate
from tests.ai.test_review import _value_after
from tests.bot.helpers import (
    decode_png,
    last_board_message,
    pick_move,
    play_to_end,
    start_board_match,
    stored_state,
)


async def _settled(sim: Any, message: SimMessage, starts: str, timeout: float = 240) -> SimMessage:
    """The message once its text starts with ``starts`` (a review's progress is edited
    into its first page when the engine is done)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        current = sim.state.messages[message.id]
        if current.text.startswith(starts):
            return current
        await asyncio.sleep(0.2)
    raise AssertionError(f"the message never read {starts!r}: {current.text!r}")


async def test_a_finished_game_is_reviewed_page_by_page_and_continued(sim, world, bot, clock):
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    players = [world.alice, world.bob]
    final = await play_to_end(sim, bot, players, match_id, random.Random(3), world.channel)
    review_button = translate("en", "bot.board.button.review")
    answer = await sim.click(world.alice, final, review_button)
    note = answer.last_message
    assert note.ephemeral
    first = await _settled(sim, note, f"Review of match {match_id}")
    graph = decode_png(first)
    assert graph.width == 480 and graph.height > 200
    positions = list((await stored_state(bot, match_id)).history())
    # step through every mistake page
    page = first
    seen = 0
    while True:
        clicked = await sim.click(world.alice, page, "Next")
        page = sim.state.messages[page.id]
        if "page 1 of" in page.text:
            break
        seen += 1
        decode_png(page)
        move = int(page.text.split("\n")[1].split(",")[0].removeprefix("Move "))
        played = page.text.split("played ")[1].split(" ")[0]
        better = page.text.split("; ")[1].split(" was better")[0]
        before = positions[move - 1]
        assert positions[move].moves[-1] == played
        assert better in before.legal_moves()
        assert _value_after(before, better) > _value_after(before, played)
        assert clicked is not None
    assert seen >= 1
    # continue from the first mistake's position against the bot (past the cooldown
    # between challenges)
    clock.advance(60)
    await sim.click(world.alice, page, "Next")
    page = sim.state.messages[page.id]
    await sim.click(world.alice, page, "Continue from here")
    board = last_board_message(world.channel)
    assert not board.ephemeral and board.attachments[0].filename.startswith("board")
    assert f"match #{match_id + 1}" in board.text
    assert f"<@{world.alice.id}>" in board.text  # the member to move, against the bot
    # the second request is read back at once
    again = await sim.slash(world.bob, "review", match=match_id)
    assert (await _settled(sim, again.last_message, f"Review of match {match_id}", 20)).ephemeral


async def test_a_review_reads_in_the_members_language(sim, world, bot):
    # alice's Discord speaks German: her private review does, the server's channel English
    world.alice.locale = "de"
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    # the game played to its end through the core (the moves are not what is tested)
    players = [world.alice, world.bob]
    rng = random.Random(3)
    while (state := await stored_state(bot, match_id)).outcome is None:
        mover = players[state.seat_to_move]
        await bot.client.service.play(match_id, mover.id, pick_move(state, rng))
    answer = await sim.slash(world.alice, "review", match=match_id)
    assert answer.last_message.ephemeral
    # the catalogue's German header, its page count cut off
    header = translate("de", "bot.review.page", match=match_id, game="Lefe", page=1, pages=0)
    header = header.removesuffix("0")
    assert header == f"Auswertung der Partie {match_id} (Lefe), Seite 1 von "
    first = await _settled(sim, answer.last_message, header)
    decode_png(first)
    await sim.click(world.alice, first, translate("de", "bot.review.button.next"))
    page = sim.state.messages[first.id]
    assert page.text.startswith(f"Auswertung der Partie {match_id} (Lefe), Seite 2 von ")
    assert page.text.split("\n")[1].startswith("Zug ") and "war besser" in page.text
    decode_png(page)
    labels = {button.label for button in page.buttons}
    assert {"Zurück", "Weiter", "Von hier weiterspielen"} <= labels


def _puzzles() -> list[Any]:
    positions, players = play_game("lefe", 5, 6)
    return mine_game(positions, last_plies=16, source={"players": players, "self_play": 5})


async def test_a_puzzle_is_solved_and_another_failed_with_move(sim, world, language, bot):
    puzzles = _puzzles()
    await bot.client.service.puzzles.load_starter(puzzles)
    shown = await sim.slash(world.alice, "puzzle", game="lefe")
    message = shown.last_message
    to_move = translate(language, "bot.puzzle.caption", colour="x").split("x")[-1].strip()
    assert message.ephemeral and to_move in message.text
    decode_png(message)
    number = int(re.search(r"(\d+)", message.text).group(1))
    stored = await bot.client.service.puzzles.get(number)
    assert message.text.startswith(
        translate(
            language, "bot.puzzle.title", game="Lefe", number=number, colour=stored.puzzle.to_move
        )
    )
    first = stored.puzzle.first_move
    solved = await sim.slash(world.alice, "move", cell=first)
    lines = solved.last_message.text.split("\n")
    assert lines[0] == translate(language, "bot.puzzle.right", move=first, solution=first)
    assert lines[1] == translate(language, "bot.puzzle.line", line=" ".join(stored.puzzle.solution))
    after = await bot.client.service.puzzles.player(world.alice.id)
    assert after.streak == 1 and after.rating > 1500
    assert lines[2] == translate(
        language,
        "bot.puzzle.rating",
        before=1500,
        after=round(after.rating),
        streak=1,
        best=1,
    )
    decode_png(solved.last_message)
    if len(puzzles) > 1:
        await sim.slash(world.alice, "puzzle", game="lefe")
    else:
        await sim.slash(world.bob, "puzzle", game="lefe")
    who = world.alice if len(puzzles) > 1 else world.bob
    opened = await bot.client.service.puzzles.open_puzzle(who.id)
    wrong = next(m for m in opened.puzzle.position().legal_moves() if m != opened.puzzle.first_move)
    failed = await sim.slash(who, "move", cell=wrong)
    assert failed.last_message.text.split("\n")[0] == translate(
        language, "bot.puzzle.wrong", move=wrong, solution=opened.puzzle.first_move
    )
    decode_png(failed.last_message)


async def test_the_daily_puzzle_is_posted_once_a_day_across_restarts(
    sim, world, bot, make_bot, clock
):
    handle = bot
    await handle.client.service.puzzles.load_starter(_puzzles())
    await handle.client.service.update_settings(
        world.guild.id, world.alice.id, True, puzzle_channel=world.channel.id
    )

    def dailies() -> list[SimMessage]:
        return [
            m
            for m in sim.state.messages.values()
            if m.channel.id == world.channel.id and "Today's puzzle" in m.text
        ]

    await handle.client.learning_tick()
    await handle.client.learning_tick()
    assert len(dailies()) == 1
    again = await sim.restart_bot(make_bot)
    await again.client.learning_tick()
    assert len(dailies()) == 1  # the same day: not again
    clock.advance(86400)
    await again.client.learning_tick()
    assert len(dailies()) == 2
    posted = dailies()[-1]
    decode_png(posted)
    await sim.click(world.bob, posted, "Solve")
    puzzle = await again.client.service.puzzles.open_puzzle(world.bob.id)
    await sim.slash(world.bob, "move", cell=puzzle.puzzle.first_move)
    assert f"<@{world.bob.id}>" in sim.state.messages[posted.id].text
