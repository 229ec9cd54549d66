"""The board message in Components v2, through the simulator in English and German.

A board is one box (container) whose accent colour is the stone colour of the side to
move in the server's theme, holding the title, the board picture in a media gallery, the
status and clock as text and the buttons; no content beside it (Discord refuses both), well
within Discord's 40 components. Its buttons work when clicked, also after a restart, and
the picture in the gallery decodes and shows the stored position.
"""

from __future__ import annotations

import re

from discord_sim.models import SimMessage
from engine import get_spec
from i18n import translate
from render.themes import get_theme
from tests.bot.helpers import (
    check_board_message,
    decode_png,
    start_board_match,
    stored_state,
)


def accent(game: str, colour: str) -> int:
    red, green, blue = get_theme("classic").stones[get_spec(game).colours.index(colour)].fill
    return (red << 16) | (green << 8) | blue


def assert_board_layout(board: SimMessage, language: str, match_id: int) -> None:
    assert board.is_v2 and not board.content and not board.embeds
    assert board.component_count <= 40
    (box,) = board.components  # everything in one container
    assert box["type"] == 17
    kinds = [c["type"] for c in box["components"]]
    # the title, the picture, the status and clock, then the rows of buttons
    assert kinds[:3] == [10, 12, 10] and set(kinds[3:]) <= {1}, kinds
    title = translate(language, "bot.board.header_sized", game="Lefe", match=match_id, size=5)
    control = {"en": "1 day per move", "de": "1 Tag pro Zug"}[language]  # the server's default
    assert box["components"][0]["content"] == f"{title} · {control}"
    (item,) = box["components"][1]["items"]
    assert item["description"] == translate(language, "bot.board.picture", game="Lefe")
    # the picture is named for its match and version (a start recognises it by that)
    (picture,) = board.gallery_pictures
    assert re.fullmatch(rf"board-{match_id}-v\d+\.png", picture.filename), picture.filename
    decode_png(board)


async def test_the_board_is_a_box_in_the_colour_to_move(sim, world, language, bot):
    players = [world.alice, world.bob]
    offer = (
        await sim.slash(world.alice, "play", game="lefe", opponent=world.bob, size=5)
    ).last_message
    accept = translate(language, "bot.challenge.button.accept")
    board = (await sim.click(world.bob, offer, accept)).last_message
    match_id = int(re.search(r"#(\d+)", board.text).group(1))
    assert_board_layout(board, language, match_id)
    state = await stored_state(bot, match_id)
    to_move = state.seat_colour(state.seat_to_move)
    assert board.accent_color == accent("lefe", to_move)
    clock = translate(language, "bot.board.deadline", time="").split("{")[0][:10]
    assert clock in board.texts[1]  # the status and clock text
    await check_board_message(bot, match_id, board, players)

    moved = (await sim.slash(players[state.seat_to_move], "move", cell="c3")).last_message
    assert_board_layout(moved, language, match_id)
    state = await stored_state(bot, match_id)
    assert moved.accent_color == accent("lefe", state.seat_colour(state.seat_to_move))
    assert moved.accent_color != board.accent_color  # the other colour moves now
    await check_board_message(bot, match_id, moved, players)

    # a button in the box works: the pie rule's swap, by the player to move
    swap = translate(language, "bot.board.button.swap")
    swapped = await sim.click(players[state.seat_to_move], moved, swap)
    after = swapped.last_message
    assert_board_layout(after, language, match_id)
    state = await stored_state(bot, match_id)
    assert state.moves[-1] == "swap"
    await check_board_message(bot, match_id, after, players)

    # over: no colour to move, the result in the box, Rematch its button
    resigned = await sim.click(
        players[state.seat_to_move], after, translate(language, "bot.board.button.resign")
    )
    question = resigned.last_message
    final = (
        await sim.click(
            players[state.seat_to_move], question, translate(language, "bot.board.resign.yes")
        )
    ).last_message
    assert final.is_v2 and final.accent_color is None
    assert [b.label for b in final.buttons] == [
        translate(language, "bot.board.button.rematch"),
        translate(language, "bot.board.button.review"),
    ]
    sim.assert_no_bot_errors()


async def test_board_buttons_in_the_box_work_after_a_restart(sim, world, bot, make_bot):
    players = [world.alice, world.bob]
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lublache", 5)
    board = (await sim.slash(world.alice, "move", cell="e5")).last_message
    assert board.is_v2 and "Swap colours" in [b.label for b in board.buttons]
    restarted = await sim.restart_bot(make_bot)
    swapped = await sim.click(world.bob, board, "Swap colours")
    state = await stored_state(restarted, match_id)
    assert state.moves[-1] == "swap"
    assert swapped.last_message.is_v2
    await check_board_message(restarted, match_id, swapped.last_message, players)
    sim.assert_no_bot_errors()
