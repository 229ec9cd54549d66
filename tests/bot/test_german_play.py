"""Acceptance: a German server plays in German through the real client.

German members on a German server play a whole Lefe game and moves of Dalen, Les and
Lublache (the Les set-up and side choice, a swap, a draw offer declined, a resignation, a
rematch offered), use the information commands and refusals, and everything the bot
showed them — each message and each of its revisions, embeds, button labels, menus, their
options and forms — is searched for English (:mod:`tests.bot.language_check`). The board
pictures are the German ones. The Leiff half is the hidden-information game of
``tests/bot/test_leiff.py``, played in German there.

The service's own lines (move announcements, results, its refusals) are codes worded by
the Discord layer (:mod:`wording.service_words`); they are recorded where the Discord
layer words them and checked apart too, so that a line the service or the engine still
writes in English is named as such rather than blamed on the Discord layer.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.common.pictures import board_png
from engine import get_board_game
from i18n import translate
from matchcore.storage.records import MatchRecord, SeatRecord
from tests.bot.helpers import pick_move, resign, stored_state
from tests.bot.language_check import service_lines, untranslated

PLAYERS = ("alice", "bob", "carol", "admin")
__all__ = ["service_lines"]  # a fixture


@pytest.fixture
def german(world):
    """A German server whose members' Discord clients are German (before the bot starts)."""
    world.guild.preferred_locale = "de"
    for name in PLAYERS:
        getattr(world, name).locale = "de"
    return world


def de(msgid: str, **params: Any) -> str:
    return translate("de", msgid, **params)


def match_number(message) -> int:
    return int(re.search(r"#(\d+)", message.text).group(1))


async def challenge(sim, challenger, opponent, game: str, **options: Any):
    offer = (
        await sim.slash(challenger, "play", game=game, opponent=opponent, **options)
    ).last_message
    assert de("bot.challenge.expires", time="")[:7] in offer.text
    labels = {b.label for b in offer.buttons}
    assert labels == {de(f"bot.challenge.button.{b}") for b in ("accept", "decline", "cancel")}
    board = (await sim.click(opponent, offer, de("bot.challenge.button.accept"))).last_message
    return match_number(board), board


async def play_moves(sim, handle, players, match_id: int, rng, count: int | None) -> Any:
    """Legal moves typed by the player to move (``count`` of them, or to the end)."""
    for _ in range(count if count is not None else 500):
        state = await stored_state(handle, match_id)
        if state.outcome is not None:
            return state
        mover = players[state.seat_to_move]
        await sim.slash(mover, "move", cell=pick_move(state, rng))
    state = await stored_state(handle, match_id)
    assert count is not None or state.outcome is not None, "the game did not end"
    return state


# A whole game in one channel: its point is the flow, not the limits (see conftest).
@pytest.mark.compressed_rate_limits
async def test_a_german_server_plays_the_board_games_in_german(sim, german, bot, service_lines):
    world = german
    rng = random.Random(5)
    alice, bob = world.alice, world.bob
    changed = await sim.slash(world.admin, "settings", key="challenge_cooldown_seconds", value="0")
    assert changed.ephemeral and changed.text.startswith(de("bot.settings.title"))

    # A whole game of Lefe, then its replay and the standings.
    lefe, board = await challenge(sim, alice, bob, "lefe", size=5)
    assert board.text.startswith(de("bot.board.header_sized", game="Lefe", match=lefe, size=5))
    final = await play_moves(sim, bot, [alice, bob], lefe, rng, None)
    last = world.channel.messages[-1]
    names = ("alice", "bob")
    picture = last.attachments[0].data
    assert picture == board_png(final, names, "de"), "the final board is not the German picture"
    assert picture != board_png(final, names, "en")
    assert de("bot.board.button.rematch") in {b.label for b in last.buttons}
    replay = await sim.slash(bob, "replay", match=lefe)
    page = replay.last_message.text
    # the replay opens at its last position, said in German: the result and its score
    # worded as the German board says them (no English colour words in a German line)
    assert replay.ephemeral and page.startswith("### Lefe · Partie #"), page
    assert de("bot.match.score", score="").rstrip(".") in page, page
    assert "Dunkel" in page and "Hell" in page, page
    assert " dark " not in page and " light " not in page, page
    for command, options in (
        ("leaderboard", {"game": "lefe"}),
        ("stats", {}),
        ("games", {}),
        ("help", {}),
    ):
        await sim.slash(alice, command, **options)

    # Dalen: a few moves, a draw offered and declined, a resignation.
    dalen, board = await challenge(sim, bob, alice, "dalen", size=5)
    await play_moves(sim, bot, [bob, alice], dalen, rng, 3)
    state = await stored_state(bot, dalen)
    offerer = [bob, alice][state.seat_to_move]
    board = world.channel.messages[-1]
    await sim.click(offerer, board, de("bot.board.button.offer_draw"))
    board = world.channel.messages[-1]
    other = alice if offerer is bob else bob
    assert de("bot.board.button.decline_draw") in {b.label for b in board.buttons}
    await sim.click(other, board, de("bot.board.button.decline_draw"))
    await resign(sim, bob, world.channel.messages[-1])

    # Les: the set-up, the side choice, a few moves.
    les, board = await challenge(sim, alice, bob, "les", size=5)
    await play_moves(sim, bot, [alice, bob], les, rng, 5)

    # Lublache: the swap offered after the first stone, taken.
    lublache, board = await challenge(sim, bob, alice, "lublache", size=5)
    await play_moves(sim, bot, [bob, alice], lublache, rng, 1)
    board = world.channel.messages[-1]
    labels = {b.label for b in board.buttons}
    if de("bot.board.button.swap") in labels:
        assert de("bot.board.button.keep") in labels
        kept = await sim.click(alice, board, de("bot.board.button.keep"))
        assert kept.ephemeral and kept.text == de("bot.board.keep_explained")
        await sim.click(alice, board, de("bot.board.button.swap"))
    await play_moves(sim, bot, [bob, alice], lublache, rng, 4)

    # Refusals, privately and in German.
    for text in ("zz top!", ""):
        refused = await sim.slash(alice, "move", cell=text or " ", match=lublache)
        assert refused.ephemeral
    refused = await sim.slash(world.carol, "board")
    assert refused.ephemeral and refused.text == de("bot.error.no_match_here")

    # Everything the Discord layer wrote is German; the service's own lines apart.
    problems = untranslated(sim, names=PLAYERS, ignore=service_lines)
    assert not problems, "\n".join(problems)
    service_english, engine_english = service_lines.english(PLAYERS)
    assert not service_english, service_english
    assert not engine_english, engine_english  # the board games' engine speaks in codes
    sim.assert_no_bot_errors()


async def test_a_seat_without_a_user_is_named_in_german(sim, german, bot, clock, service_lines):
    """A bot seat stored without a user (the seat the service names "a bot" in English)
    reads German in the lines naming it: the result after its opponent resigns."""
    world = german
    state = get_board_game("lefe").new(size=5).play("e5").play("c3")  # both have moved
    stored = await bot.client.service.repo.create_match(
        MatchRecord(
            id=0,
            guild_id=world.guild.id,
            channel_id=world.channel.id,
            game="lefe",
            status="running",
            created_at=clock(),
            updated_at=clock(),
            state=state.to_json(),
            rated=False,
            seats=(
                SeatRecord(seat=0, user_id=world.alice.id, colour=state.seat_colour(0)),
                SeatRecord(seat=1, user_id=None, is_bot=True, colour=state.seat_colour(1)),
            ),
        )
    )
    board = (await sim.slash(world.alice, "board")).last_message
    assert match_number(board) == stored.id
    asked = await sim.click(world.alice, board, de("bot.board.button.resign"))
    assert asked.text == de("bot.board.resign.confirm", match=stored.id)
    await sim.click(world.alice, asked.last_message, de("bot.board.resign.yes"))
    result = world.channel.messages[-1].text
    bot_name = de("service.say.a_bot")
    resigned = de("service.say.reason_resigned", user=f"<@{world.alice.id}>")
    assert de("service.say.result_win", names=bot_name, reason=resigned) in result
    assert untranslated(sim, names=PLAYERS) == []
    assert service_lines and service_lines.english(PLAYERS) == ([], [])
    sim.assert_no_bot_errors()
