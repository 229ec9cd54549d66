"""``/history``, replays you can step, the record exported and imported into a practice
game, through the simulator in both languages (the pictures decoded and sampled)."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image, ImageChops

from engine import get_board_game
from i18n import translate
from matchcore.game_record import parse_record
from render import replay_gif
from tests.bot.helpers import (
    assert_picture_shows,
    decode_png,
    last_board_message,
    pick_move,
    resign,
    stored_state,
)


def label(language: str, msgid: str) -> str:
    return translate(language, msgid)


async def resigned_match(sim, bot, world, clock, language, game: str, moves: int, rng) -> int:
    """Alice challenges Bob to ``game`` (size 5); they play ``moves`` random moves; the
    player to move resigns. The match's number."""
    clock.advance(120)
    offer = (
        await sim.slash(world.alice, "play", game=game, opponent=world.bob, size=5)
    ).last_message
    accepted = await sim.click(world.bob, offer, label(language, "bot.challenge.button.accept"))
    match_id = match_id_of_any(accepted.last_message)
    players = [world.alice, world.bob]
    for _ in range(moves):
        state = await stored_state(bot, match_id)
        if state.outcome is not None:
            return match_id
        await sim.slash(players[state.seat_to_move], "move", cell=pick_move(state, rng))
    state = await stored_state(bot, match_id)
    if state.outcome is None:
        await resign(sim, players[state.seat_to_move], last_board_message(world.channel))
    return match_id


def match_id_of_any(message) -> int:
    found = re.search(r"#(\d+)", message.text)
    assert found is not None, message.text
    return int(found.group(1))


def button(message, action: str) -> str:
    return next(b.custom_id for b in message.buttons if b.custom_id.endswith("|" + action))


@pytest.mark.compressed_rate_limits
async def test_history_pages_open_a_replay_that_steps_exports_and_plays_on(
    sim, world, language, bot, clock
):
    rng = random.Random(11)
    ids = [
        await resigned_match(sim, bot, world, clock, language, game, moves, rng)
        for game, moves in (("lefe", 6), ("dalen", 4), ("les", 2), ("lefe", 5), ("lublache", 4))
    ]
    ids += [
        await resigned_match(sim, bot, world, clock, language, "dalen", 3, rng) for _ in range(4)
    ]

    shown = await sim.slash(world.carol, "history", member=world.alice)
    assert shown.ephemeral
    page = shown.last_message
    first_lines = [line for line in page.text.splitlines() if line.startswith("`#")]
    assert [int(re.match(r"`#(\d+)`", line).group(1)) for line in first_lines] == ids[::-1][:8]
    vs = "gegen bob" if language == "de" else "vs bob"
    assert all(vs in line for line in first_lines), first_lines
    outcomes = {label(language, "bot.history.won"), label(language, "bot.history.lost")}
    assert all(any(f"· {o} ·" in line for o in outcomes) for line in first_lines)
    counter = translate(language, "bot.history.counter", page=1, pages=2, total=9)
    assert counter in page.text
    # the time control of each: the server's time per move (1 day), chosen by /play
    day = "1 Tag pro Zug" if language == "de" else "1 day per move"
    assert all(line.endswith(day) for line in first_lines), first_lines

    older = await sim.click(world.carol, page, label(language, "bot.history.older"))
    page = older.last_message
    assert translate(language, "bot.history.counter", page=2, pages=2, total=9) in page.text
    assert f"`#{ids[0]}`" in page.text and f"`#{ids[1]}`" not in page.text

    # only Lefe: four... two of them, newest first
    lefe = (await sim.slash(world.alice, "history", game="lefe")).last_message
    listed = [int(n) for n in re.findall(r"`#(\d+)`", lefe.text)]
    assert listed == [ids[3], ids[0]]

    # the menu opens the replay of the first Lefe match at its end: the result is said
    menu = next(c for c in lefe.selects)
    opened = await sim.select(world.alice, lefe, menu.custom_id, f"~replay:{ids[0]}")
    replay = opened.last_message
    assert replay.ephemeral
    final = await stored_state(bot, ids[0])
    moves = len(final.moves)
    assert (
        translate(language, "bot.replay.position", ply=moves, count=moves, move=final.moves[-1])
        in replay.text
    )
    assert_picture_shows(replay, final)
    assert decode_png(replay).width == 480

    # First: the empty board; Next: one stone; Last: back at the end
    start = (await sim.click(world.alice, replay, button(replay, "~first"))).last_message
    assert translate(language, "bot.replay.start", count=moves) in start.text
    empty = get_board_game("lefe").new(5)
    assert_picture_shows(start, empty)
    step = (await sim.click(world.alice, start, button(start, "~next"))).last_message
    assert_picture_shows(step, empty.play(final.moves[0]))
    assert f"**1. {final.moves[0]}**" in step.text
    back = (await sim.click(world.alice, step, button(step, "~last"))).last_message
    assert_picture_shows(back, final)

    # the GIF besides: its last frame shows the result, as the last page does
    gif_answer = (await sim.click(world.alice, back, button(back, "~gif"))).last_message
    gif = Image.open(io.BytesIO(gif_answer.attachments[0].data))
    assert gif.format == "GIF" and gif.n_frames == moves + 1
    gif.seek(gif.n_frames - 1)
    last_frame = gif.convert("RGB")
    names = ("alice", "bob")
    ended_alone = Image.open(io.BytesIO(replay_gif([final], names=names, language=language)))
    unended = get_board_game("lefe").from_json(final.to_json()).history()
    *_, without_result = unended
    assert without_result.outcome is None and final.outcome is not None
    plain = Image.open(io.BytesIO(replay_gif([without_result], names=names, language=language)))
    assert ImageChops.difference(last_frame, ended_alone.convert("RGB")).getbbox() is None
    assert ImageChops.difference(last_frame, plain.convert("RGB")).getbbox() is not None

    # Export: the record as a file, read back the same moves
    exported = (await sim.click(world.alice, back, button(back, "~export"))).last_message
    text = exported.attachments[0].data.decode("utf-8")
    record = parse_record(text)
    assert record.moves == final.moves and record.players == ("alice", "bob")
    assert record.match_id == ids[0] and record.result in ("1-0", "0-1")

    # /import from move 2 in one line: a practice game against the bot from there
    clock.advance(120)
    imported = await sim.slash(world.carol, "import", record=" ".join(text.split()), move=2)
    board = imported.last_message
    assert not board.ephemeral
    practice = match_id_of_any(board)
    state = await stored_state(bot, practice)
    assert state.moves == final.moves[:2]
    match = await bot.client.service.get_match(practice)
    assert match.vs_bot and world.carol.id in match.user_ids
    # "Play on from here" on a replay page: from move 1, Alice against the bot
    clock.advance(120)
    one = (await sim.click(world.alice, back, button(back, "~first"))).last_message
    one = (await sim.click(world.alice, one, button(one, "~next"))).last_message
    await sim.click(world.alice, one, button(one, "~from"))
    from_here = match_id_of_any(last_board_message(world.channel))
    assert from_here not in (practice, *ids)
    assert (await stored_state(bot, from_here)).moves == final.moves[:1]
    sim.assert_no_bot_errors()


async def test_a_record_that_is_no_record_is_refused_in_words(sim, world, language, bot):
    refused = await sim.slash(world.alice, "import", record="1. c3 2. d4")
    assert refused.ephemeral
    assert refused.text == translate(language, "bot.import.error.record_no_game")
    illegal = await sim.slash(world.alice, "import", record='[Game "Lefe"] [Size "5"] 1. c3 2. c3')
    assert illegal.ephemeral and "c3" in illegal.text and "2" in illegal.text
    empty = await sim.slash(world.bob, "history")
    assert translate(language, "bot.history.none") in empty.last_message.text
    sim.assert_no_bot_errors()
