"""Shared steps of the end-to-end tests: reading the stored truth and checking pictures."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable
from typing import Any

from PIL import Image

from bot.common.pictures import BOARD_WIDTH
from discord_sim.models import SimMessage
from i18n import translate
from render.geometry import board_geometry
from render.themes import get_theme


async def stored_state(handle: Any, match_id: int) -> Any:
    """The engine state the service has stored for a match (the truth, not a picture)."""
    update = await handle.client.service.current(match_id)
    return next(p.state for p in update.pictures if p.kind == "board")


async def stored_match(handle: Any, match_id: int) -> Any:
    return await handle.client.service.get_match(match_id)


def match_id_of(message: SimMessage) -> int:
    """The match number shown on a board message ("match #12")."""
    text = message.text
    marker = "match #"
    start = text.index(marker) + len(marker)
    digits = ""
    for ch in text[start:]:
        if not ch.isdigit():
            break
        digits += ch
    return int(digits)


def decode_png(message: SimMessage) -> Image.Image:
    """The message's single picture, decoded (fails if it is not a valid PNG). A
    Components v2 message shows only what its media gallery names: that is the picture."""
    assert len(message.attachments) == 1, f"expected one picture, got {message.attachments}"
    attachment = message.attachments[0]
    if message.is_v2:
        assert message.gallery_pictures == [attachment], "the picture is not in the gallery"
    assert attachment.data.startswith(b"\x89PNG"), "the attachment is not a PNG"
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    return image.convert("RGB")


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 24) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=False))


def assert_picture_shows(message: SimMessage, state: Any) -> None:
    """Every cell's centre pixel shows the stone the state has there (or no stone)."""
    image = decode_png(message)
    points = state.game.name == "les"
    geometry = board_geometry(state.size, BOARD_WIDTH, points)
    assert image.size == (geometry.width, geometry.height)
    theme = get_theme("classic")
    fills = {colour: theme.stone(code + 1).fill for code, colour in enumerate(state.game.colors)}
    stones = state.stones
    for cell in state.grid.names:
        pixel = image.getpixel(geometry.pixel(cell))
        colour = stones.get(cell)
        if colour is None:
            assert not any(close(pixel, fill) for fill in fills.values()), f"{cell} should be empty"
        else:
            assert close(pixel, fills[colour]), (
                f"{cell} should show a {colour} stone, pixel {pixel}"
            )


def pick_move(state: Any, rng: random.Random) -> str:
    """A legal move chosen reproducibly; 'swap' is avoided unless it is the only choice."""
    moves = sorted(state.legal_moves())
    plain = [m for m in moves if m != "swap"] or moves
    return rng.choice(plain)


def is_board_picture(filename: str) -> bool:
    """A board's picture: named for its match and version (``board-12-v7.png``)."""
    return re.fullmatch(r"board-\d+-v\d+\.png", filename) is not None


def last_board_message(channel: Any) -> SimMessage:
    """The newest message of the channel that carries a board picture."""
    for message in reversed(channel.messages):
        if (
            message.attachments
            and is_board_picture(message.attachments[0].filename)
            and not message.ephemeral
        ):
            return message
    raise LookupError("no board message in the channel")


def pinged(message: SimMessage) -> set[int]:
    """Users this message actually notifies: mentioned in the text and allowed to be pinged."""
    import re

    mentioned = {int(found) for found in re.findall(r"<@!?(\d+)>", message.text)}
    allowed = message.allowed_mentions
    if allowed is None:
        return mentioned  # Discord's default: every mention pings
    if "users" in (allowed.get("parse") or []):
        return mentioned
    return mentioned & {int(u) for u in allowed.get("users") or []}


async def start_board_match(
    sim: Any, challenger: Any, opponent: Any, game: str, size: int
) -> tuple[int, SimMessage]:
    """``challenger`` challenges ``opponent``, who accepts; returns the match id and board."""
    challenge = await sim.slash(challenger, "play", game=game, opponent=opponent, size=size)
    assert not challenge.ephemeral
    offer = challenge.last_message
    assert "Expires <t:" in offer.text
    assert pinged(offer) == {opponent.id}
    accepted = await sim.click(opponent, offer, "Accept")
    board = accepted.last_message
    assert all(b.disabled for b in sim.state.messages[offer.id].buttons), (
        "used challenge buttons stay live"
    )
    return match_id_of(board), board


async def play_to_end(
    sim: Any,
    handle: Any,
    players: list[Any],
    match_id: int,
    rng: random.Random,
    channel: Any,
    max_moves: int = 400,
) -> SimMessage:
    """Both players type legal moves (chosen from the stored state) until the game ends;
    every board picture is checked against the stored state. Returns the final message."""
    board = last_board_message(channel)
    for _ in range(max_moves):
        state = await stored_state(handle, match_id)
        if state.outcome is not None:
            return board
        mover = players[state.seat_to_move]
        move = pick_move(state, rng)
        result = await sim.slash(mover, "move", cell=move)
        board = result.last_message
        if board.ephemeral:
            # answered late (a loaded machine): the bot put off the answer privately, then
            # posted the board in the channel and said so in the placeholder
            assert board.text in LATE_ANSWERS, board.text
            board = last_board_message(channel)
        await check_board_message(handle, match_id, board, players)
    raise AssertionError("the game did not end")


# The private placeholder of a /move answered late (bot/common/responder.py).
LATE_ANSWERS = {translate(language, "bot.reply.done_see_channel") for language in ("en", "de")}


def answered_in_channel(
    answer: Any, channel: Any, check: Callable[[SimMessage], bool]
) -> SimMessage:
    """The public message a command (run by a bot in this process, whose handlers the
    simulator waits for) answered with: its response, or, answered late (a loaded machine:
    the bot put the answer off privately, posted it in the channel and said so in its
    placeholder), the newest message of ``channel`` passing ``check``."""
    message: SimMessage = answer.last_message
    if message.ephemeral:
        assert message.text in LATE_ANSWERS, message.text
        message = next(m for m in reversed(channel.messages) if not m.ephemeral and check(m))
    assert check(message), message.text
    return message


async def check_board_message(
    handle: Any, match_id: int, board: SimMessage, players: list[Any]
) -> None:
    """The picture matches the stored truth and only the player to move is pinged."""
    state = await stored_state(handle, match_id)
    assert not board.ephemeral
    assert_picture_shows(board, state)
    if state.outcome is None:
        assert pinged(board) == {players[state.seat_to_move].id}
    else:
        assert pinged(board) == set()
        # The result is said once: "<@u> (dark) wins 4–2: …", "The game is drawn 4–4: …".
        text = board.text
        assert text.count(" wins") <= 1 and "drawn: draw" not in text, text


ENDING_BUTTONS = ("|resign", "|abort")  # the board's Resign (or Abort, before any move)
CONFIRMS = ("|~resign!", "|~abort!")  # Yes on the private question


def ending_button(board: SimMessage) -> str:
    """The custom id of the board's Resign (or Abort) button."""
    return next(b.custom_id for b in board.buttons if b.custom_id.endswith(ENDING_BUTTONS))


async def ask_to_end(sim: Any, user: Any, board: SimMessage | None = None, **options: Any) -> Any:
    """``user`` presses the board's Resign (or Abort) button, or types ``/resign`` (with
    ``options``) when no board is given: the private question, nothing ended yet."""
    if board is not None:
        asked = await sim.click(user, board, ending_button(board))
    else:
        asked = await sim.slash(user, "resign", **options)
    assert asked.ephemeral, asked.text
    return asked


async def resign(sim: Any, user: Any, board: SimMessage | None = None, **options: Any) -> Any:
    """``user`` resigns (or, before their first move, aborts) and answers Yes to the
    question: the Yes click's interaction (its last message is the new board)."""
    question = (await ask_to_end(sim, user, board, **options)).last_message
    yes = next(b.custom_id for b in question.buttons if b.custom_id.endswith(CONFIRMS))
    return await sim.click(user, question, yes)
