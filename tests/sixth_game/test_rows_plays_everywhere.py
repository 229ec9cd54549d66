"""Issue 17's acceptance test: the toy sixth game plays through the service and Discord.

Rows (``tests/sixth_game/rows.py``: a spec and a rules class) is registered at test time,
and nothing else is added anywhere: the match service, the renderer, the AI and the whole
Discord layer (the real ``LeafBot`` with the real discord.py client, against the simulator)
learn of it from its spec alone. Through the service: a challenge, a whole game, a draw
offer, a game against the bot. Through Discord: ``/play`` (it is among the command's
choices), the challenge accepted with a click, every move a ``/move`` with its board
picture decoded and compared with the stored position, the result, ``/leaderboard`` and
``/stats``, ``/replay`` (a GIF with one frame per position), and a game against the bot
whose moves come from the real AI worker processes. Its tutorial, in its own folder
(``tests/sixth_game/tutorial.py``, named by its spec), is taught like the others':
``/help`` lists it with its tagline and a Learn button, every page is reached by clicking,
each picture read back against the engine, and the last page starts a practice game; a
Rows without a tutorial gets its summary instead.
"""

from __future__ import annotations

import dataclasses
import io
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from bot.common.choices import service_choices
from bot.common.pictures import BOARD_WIDTH
from discord_sim.models import SimMessage
from engine import get_spec, registered
from matchcore.service import MatchService
from render.board import is_point_game
from render.geometry import board_geometry
from render.themes import get_theme
from tests.bot.conftest import Clock, clock, database, make_bot, sim, world  # noqa: F401
from tests.bot.helpers import (
    decode_png,
    is_board_picture,
    last_board_message,
    match_id_of,
    pick_move,
    pinged,
    stored_match,
    stored_state,
)
from tests.bot.test_learning import check_page
from tests.bot.test_vs_bot import ai_in_thread
from tests.service.helpers import ALICE, BOB, CHANNEL, GUILD, bot_replies, gather_bot_answers
from tests.sixth_game.rows import Rows, RowsState
from tutorial import tutorial_pages

BOT_REPLY_TIMEOUT = 60.0  # the first search starts a worker process


@pytest.fixture
def rows() -> Iterator[Rows]:
    with registered(Rows()) as game:
        yield game


@pytest.fixture
async def bot(rows: Rows, sim: Any, make_bot: Any) -> Any:  # noqa: F811
    # registered before the client exists: its commands are built from the registry
    yield await sim.start_bot(make_bot)


def assert_picture_shows(message: SimMessage, state: Any) -> None:
    """Every point's pixel shows the stone the stored position has there, or none."""
    image = decode_png(message)
    assert is_point_game(state)  # Rows is drawn on points and lines, as its spec says
    geometry = board_geometry(state.size, BOARD_WIDTH, points=True)
    assert image.size == (geometry.width, geometry.height)
    theme = get_theme("classic")
    fills = {colour: theme.stone(code + 1).fill for code, colour in enumerate(state.game.colors)}
    for cell in state.grid.names:
        pixel = image.getpixel(geometry.pixel(cell))
        colour = state.stones.get(cell)
        if colour is None:
            assert not any(_close(pixel, fill) for fill in fills.values()), cell
        else:
            assert _close(pixel, fills[colour]), (cell, colour, pixel)


def _close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 24) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=False))


def is_board(message: SimMessage) -> bool:
    return bool(
        message.attachments
        and is_board_picture(message.attachments[0].filename)
        and not message.ephemeral
    )


# ---- through the match service ---------------------------------------------------------
async def test_the_service_plays_it_from_challenge_to_result(rows: Rows, service: Any) -> None:
    offer = await service.challenge(GUILD, CHANNEL, ALICE, "rows", BOB, size=3)
    assert offer.challenge is not None and offer.challenge.game == "rows"
    started = await service.accept_challenge(offer.challenge_id, BOB)
    match_id = started.match_id
    assert started.match.game == "rows" and started.match.to_act == (ALICE,)
    assert "Rows, size 3" in started.texts_for(None)[0]
    # its spec says a draw is possible: the board offers it, and it can be declined
    assert "offer_draw" in started.buttons[0].actions
    offered = await service.offer_draw(match_id, ALICE)
    assert offered.match.draw_offer_by == ALICE
    await service.decline_draw(match_id, BOB)
    rng = random.Random(3)
    update = started
    while update.match.status == "running":
        state = next(p.state for p in update.pictures if p.kind == "board")
        user = (ALICE, BOB)[state.seat_to_move]
        update = await service.play(match_id, user, pick_move(state, rng))
    assert update.kind == "match_over" and update.match.result is not None
    assert [e.kind for e in update.events if not e.said] == ["move", "result"]
    assert update.rating_changes  # a rated game between people


async def test_the_service_lets_the_bot_play_it(rows: Rows, clock: Clock, tmp_path: Any) -> None:  # noqa: F811
    from matchcore.storage import open_repository

    repo = await open_repository(str(tmp_path / "rows.sqlite3"))
    service = MatchService(
        repo, choices=service_choices(), clock=clock, bot_user_id=99
    )  # the real AI worker pool
    gather_bot_answers(service)
    started = await service.challenge_bot(GUILD, CHANNEL, ALICE, "rows", "easy", size=3)
    match_id = started.match_id
    rng = random.Random(1)
    update = started
    for _ in range(30):
        if update.match.status != "running":
            break
        state = next(p.state for p in update.pictures if p.kind == "board")
        update = await service.play(match_id, ALICE, pick_move(state, rng))
        if update.match.bot_to_act:
            # the core plays the bot's answer after the commit, by itself
            replies = await bot_replies(service, match_id)
            assert len(replies) == 1, "the bot did not answer with one move"
            update = replies[-1]
    assert update.match.status == "finished"
    assert update.match.vs_bot and not update.match.rated
    await service.close()
    await repo.close()


PLAYED_IN: list[threading.Thread] = []  # where each move of the rows below was worked out


class _ThreadNotingRowsState(RowsState):
    def _apply(self, text: str) -> Any:
        PLAYED_IN.append(threading.current_thread())
        return super()._apply(text)


class _SlowRows(Rows):
    """Rows whose spec says a move may be slow (as Lublache's does)."""

    spec = dataclasses.replace(Rows.spec, slow_moves=True)
    state_class = _ThreadNotingRowsState


class _QuickRows(Rows):
    state_class = _ThreadNotingRowsState


@pytest.mark.parametrize("game_class", [_SlowRows, _QuickRows])
async def test_a_game_whose_spec_says_moves_are_slow_is_played_off_the_loop(
    game_class: type[Rows], service: Any
) -> None:
    with registered(game_class()):
        offer = await service.challenge(GUILD, CHANNEL, ALICE, "rows", BOB, size=3)
        started = await service.accept_challenge(offer.challenge_id, BOB)
        PLAYED_IN.clear()
        state = next(p.state for p in started.pictures if p.kind == "board")
        await service.play(started.match_id, ALICE, state.legal_moves()[0])
    # the spec decides, not the game's name: both are called "rows"
    assert PLAYED_IN, "the move was not played"
    on_the_loop = [thread is threading.main_thread() for thread in PLAYED_IN]
    assert not any(on_the_loop) if game_class.spec.slow_moves else all(on_the_loop)


@pytest.fixture
async def service(clock: Clock, tmp_path: Any) -> Any:  # noqa: F811
    from matchcore.storage import open_repository

    repo = await open_repository(str(tmp_path / "service.sqlite3"))
    yield MatchService(repo, choices=service_choices(), clock=clock)
    await repo.close()


# ---- through Discord -------------------------------------------------------------------
@pytest.mark.compressed_rate_limits
async def test_members_play_it_in_discord_with_pictures_rules_and_replay(
    sim: Any,  # noqa: F811
    world: Any,  # noqa: F811
    bot: Any,
) -> None:
    players = [world.alice, world.bob]
    # /play offers it: the command's choices come from the registered specs
    play = next(c for c in sim.state.commands_for(world.guild) if c["name"] == "play")
    game_option = next(o for o in play["options"] if o["name"] == "game")
    assert {"name": "Rows", "value": "rows"} in [
        {"name": c["name"], "value": c["value"]} for c in game_option["choices"]
    ]

    # and its own options, from its spec: a choice of the values it allows, and a switch
    options = {o["name"]: o for o in play["options"]}
    assert [c["value"] for c in options["line"]["choices"]] == [3, 4]
    assert options["line"]["description"] == "stones in a row"
    assert options["misere"]["type"] == 5  # a boolean
    challenge = await sim.slash(
        world.alice, "play", game="rows", opponent=world.bob, size=3, line=3, misere=False
    )
    assert not challenge.ephemeral, challenge.text
    offer = challenge.last_message
    assert "Rows" in offer.text and pinged(offer) == {world.bob.id}
    accepted = await sim.click(world.bob, offer, "Accept")
    board = accepted.last_message
    match_id = match_id_of(board)
    first = await stored_state(bot, match_id)
    assert first.options["line"] == 3 and first.options["misere"] is False
    assert_picture_shows(board, first)
    assert pinged(board) == {world.alice.id}

    rng = random.Random(7)
    for _ in range(40):
        state = await stored_state(bot, match_id)
        if state.outcome is not None:
            break
        mover = players[state.seat_to_move]
        moved = await sim.slash(mover, "move", cell=pick_move(state, rng))
        board = moved.last_message
        assert is_board(board), moved.text
        after = await stored_state(bot, match_id)
        assert_picture_shows(board, after)
        if after.outcome is None:
            assert pinged(board) == {players[after.seat_to_move].id}
    final = await stored_state(bot, match_id)
    assert final.outcome is not None, "the game did not end"
    assert pinged(board) == set()
    result = board.text
    assert "wins" in result or "drawn" in result, result

    # its standings, under its own title: a rated game of two players, told in wins
    standings = (await sim.slash(world.carol, "leaderboard", game="rows")).text.splitlines()
    # the server's time per move (a day) makes the match daily: its pool is named
    assert standings[0] == "**Rows leaderboard** · Daily"
    assert sorted(line.split()[1].rstrip(":") for line in standings[1:3]) == ["alice", "bob"]
    stats = (await sim.slash(world.carol, "stats", member=world.bob)).text
    assert "Rows: rating" in stats and "1 game: " in stats

    # the replay opens as pages; its GIF button answers with every position
    page = (await sim.slash(world.alice, "replay", match=match_id)).last_message
    gif_id = next(b.custom_id for b in page.buttons if b.custom_id.endswith("|~gif"))
    gif = (await sim.click(world.alice, page, gif_id)).last_message.attachments[0]
    assert gif.filename.endswith(".gif")
    frames = Image.open(io.BytesIO(gif.data))
    assert frames.format == "GIF"
    assert frames.n_frames == len(final.moves) + 1  # every position, from the empty board
    sim.assert_no_bot_errors()


@pytest.mark.compressed_rate_limits
async def test_a_member_plays_it_against_the_bot_in_discord(
    sim: Any,  # noqa: F811
    world: Any,  # noqa: F811
    bot: Any,
) -> None:
    me = sim.bot_user
    started = await sim.slash(world.alice, "play", game="rows", opponent=me, size=3, level="easy")
    assert not started.ephemeral, started.text
    board = started.last_message
    match_id = match_id_of(board)
    match = await bot.client.service.get_match(match_id)
    assert match.vs_bot and match.game == "rows" and match.bot_level == "easy"
    rng = random.Random(2)
    bot_moves = 0
    for _ in range(20):
        state = await stored_state(bot, match_id)
        if state.outcome is not None:
            break
        assert state.seat_to_move == 0, "the bot left its turn unplayed"
        move = pick_move(state, rng)
        moved = await sim.slash(world.alice, "move", cell=move)
        mine = moved.last_message
        # the core starts the bot's search at the commit: the stored match may be a move
        # further already, so the member's board is checked against the position it shows
        after_mine = state.play(move)
        assert_picture_shows(mine, after_mine)
        if after_mine.outcome is not None:
            break
        reply = await sim.wait_for_message(
            is_board, channel=world.channel, after=mine, timeout=BOT_REPLY_TIMEOUT
        )
        await bot.client.delivery.bots_idle()
        after_bot = await stored_state(bot, match_id)
        assert_picture_shows(reply, after_bot)
        bot_moves += 1
    assert bot_moves > 0
    assert (await bot.client.service.get_match(match_id)).status == "finished"
    sim.assert_no_bot_errors()


# ---- its tutorial, from its own folder -------------------------------------------------
@pytest.mark.compressed_rate_limits
async def test_help_and_rules_teach_it_from_its_own_tutorial(
    sim: Any,  # noqa: F811
    world: Any,  # noqa: F811
    make_bot: Any,  # noqa: F811
    rows: Rows,
) -> None:
    handle = await sim.start_bot(lambda: make_bot(ai_move=ai_in_thread))
    helped = (await sim.slash(world.alice, "help")).last_message
    beside = {s["accessory"]["label"]: s["components"][0]["content"] for s in helped.sections}
    assert beside["Learn Rows"] == "**Rows**: a straight row of your stones wins (2 players)"
    opened = await sim.click(world.alice, helped, "Learn Rows")
    page = opened.last_message
    count = len(tutorial_pages("rows"))
    assert count == 4
    check_page(page, "rows", 1)  # its words, counter, buttons, and picture read back
    for number in range(2, count + 1):
        await sim.click(world.alice, page, "Next")
        page = sim.state.messages[page.id]
        check_page(page, "rows", number)
    # the shared pages read in the reader's language, its own in its English
    world.bob.locale = "de"
    german = (await sim.slash(world.bob, "rules", game="rows")).last_message
    check_page(german, "rows", 1, "de")
    assert german.texts[0] == "### Rows · Placing a stone"

    await sim.click(world.alice, page, "Practise against the bot (easy)")
    board = last_board_message(world.channel)
    match = await stored_match(handle, match_id_of(board))
    assert match.game == "rows" and match.vs_bot and match.bot_level == "easy"
    assert_picture_shows(board, await stored_state(handle, match.id))
    sim.assert_no_bot_errors()


class _RowsWithoutTutorial(Rows):
    spec = dataclasses.replace(Rows.spec, tutorial=None, tagline=None)


async def test_a_game_without_a_tutorial_has_its_summary_in_help_and_rules(
    sim: Any,  # noqa: F811
    world: Any,  # noqa: F811
    make_bot: Any,  # noqa: F811
) -> None:
    with registered(_RowsWithoutTutorial()):
        await sim.start_bot(make_bot)
        summary = get_spec("rows").summary().english()
        helped = (await sim.slash(world.alice, "help")).last_message
        assert f"**Rows**: {summary}" in helped.texts
        assert "Learn Rows" not in [b.label for b in helped.buttons]
        rules = await sim.slash(world.bob, "rules", game="rows")
        assert rules.ephemeral
        assert "**Rows**" in rules.text and summary in rules.text, rules.text
    sim.assert_no_bot_errors()
