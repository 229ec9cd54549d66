"""Playing the bot through Discord: board games against it and bot seats at a Leiff table.

Everything goes through the simulator with the real client: ``/play … opponent:@bot``,
``/move``, lobby buttons, ``/stats`` and ``/leaderboard``. The bot's replies are found as new
channel messages, since it plays in the background after the member's interaction is
answered. The full game uses the real worker-process pool; the other tests run the same
search in a thread (``ai_in_thread``) to save the worker's start-up second.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from discord_sim.models import SimMessage
from engine import get_game
from engine.ai.levels import choose_move_from_json
from matchcore.strength import measured_strength
from tests.bot.helpers import (
    answered_in_channel,
    assert_picture_shows,
    is_board_picture,
    last_board_message,
    match_id_of,
    pick_move,
    pinged,
    resign,
    stored_match,
    stored_state,
)
from tests.bot.test_leiff import table_id

BOT_REPLY_TIMEOUT = 30.0  # the first real search also starts a worker process


async def ai_in_thread(state_json: str, game: str, level: str) -> str:
    """The real AI search, run in a thread instead of a worker process."""
    return await asyncio.to_thread(choose_move_from_json, state_json, game, level, None)


def is_board(message: SimMessage) -> bool:
    return bool(
        message.attachments
        and is_board_picture(message.attachments[0].filename)
        and not message.ephemeral
    )


async def bot_reply(sim: Any, handle: Any, channel: Any, after: SimMessage) -> SimMessage:
    """The board message the bot posts with its own move after ``after``."""
    reply = await sim.wait_for_message(
        is_board, channel=channel, after=after, timeout=BOT_REPLY_TIMEOUT
    )
    await handle.client.delivery.bots_idle()  # its buttons and records are settled too
    return reply


# A whole game in one channel: its point is the flow, not the limits (see conftest).
@pytest.mark.compressed_rate_limits
async def test_a_member_plays_a_whole_game_against_the_bot(sim, world, bot):
    me = sim.bot_user
    started = await sim.slash(world.alice, "play", game="dalen", opponent=me, size=5, level="easy")
    # (a loaded machine may answer late: the board in the channel, a private placeholder)
    board = answered_in_channel(started, world.channel, is_board)
    match_id = match_id_of(board)
    match = await stored_match(bot, match_id)
    assert match.vs_bot and not match.rated and match.bot_level == "easy"
    assert [s.is_bot for s in match.seats] == [False, True]
    assert match.seats[1].user_id == me.id
    assert pinged(board) == {world.alice.id}
    assert_picture_shows(board, await stored_state(bot, match_id))
    # the opening says the level's strength as data/ai-strength.json holds it, or that it
    # is not measured yet
    measured = measured_strength("dalen", "easy")
    assert ("not measured yet" if measured is None else f"about {measured.elo} Elo") in board.text

    rng = random.Random(5)
    bot_moves = 0
    for _ in range(200):
        state = await stored_state(bot, match_id)
        if state.outcome is not None:
            break
        assert state.seat_to_move == 0, "the bot left its turn unplayed"
        move = pick_move(state, rng)
        after_mine = state.play(move)
        moved = await sim.slash(world.alice, "move", cell=move)
        # the member's board (answered late, it is in the channel, and the bot's reply
        # may be there already: the member's is the one that says the bot is thinking)
        mine = answered_in_channel(
            moved,
            world.channel,
            lambda m, ended=after_mine.outcome is not None: (
                is_board(m) and ("is thinking…" in m.text or ended)
            ),
        )
        # the core starts the bot's search at the commit: the stored match may be a move
        # further already, so the member's board is checked against the position it shows
        assert_picture_shows(mine, after_mine)
        if after_mine.outcome is not None:
            board = mine
            break
        # The member's move is answered at once; the bot thinks in the background.
        assert "is thinking…" in mine.text
        assert me.id not in pinged(mine)
        board = await bot_reply(sim, bot, world.channel, mine)
        bot_moves += 1
        after_bot = await stored_state(bot, match_id)
        assert after_bot.moves[:-1] == after_mine.moves, "the reply is not one bot move"
        assert_picture_shows(board, after_bot)
        if after_bot.outcome is None:
            assert pinged(board) == {world.alice.id}
        # only the newest board message keeps its buttons
        assert not any(b for b in sim.state.messages[mine.id].buttons if not b.disabled), (
            "an old board kept live buttons"
        )
    final = await stored_match(bot, match_id)
    assert final.status == "finished", "the game did not end"
    assert bot_moves > 0
    assert pinged(board) == set()
    assert "Ratings:" not in board.text
    assert last_board_message(world.channel).id == board.id

    # The result went to the vs-bot record, not to the rating or the leaderboard.
    stats = await sim.slash(world.alice, "stats")
    text = stats.last_message.text
    assert "Against the bot" in text and "Dalen (easy): 1 game: 0W 1L 0D." in text
    assert "No finished rated games yet." in text
    leaderboard = await sim.slash(world.alice, "leaderboard", game="dalen")
    assert "Nobody has finished a rated game yet." in leaderboard.last_message.text
    sim.assert_no_bot_errors()


async def test_levels_are_refused_where_they_mean_nothing(sim, world, make_bot):
    await sim.start_bot(lambda: make_bot(ai_move=ai_in_thread))
    against_person = await sim.slash(
        world.alice, "play", game="lefe", opponent=world.bob, size=5, level="hard"
    )
    assert against_person.ephemeral and "only for games against me" in against_person.text
    leiff = await sim.slash(world.alice, "play", game="leiff", level="easy")
    assert leiff.ephemeral and "Add bot seat" in leiff.text
    assert not [m for m in world.channel.messages if not m.ephemeral], "a refusal posted"
    sim.assert_no_bot_errors()


async def test_rematch_against_the_bot_starts_at_once(sim, world, make_bot):
    handle = await sim.start_bot(lambda: make_bot(ai_move=ai_in_thread))
    started = await sim.slash(world.alice, "play", game="lefe", opponent=sim.bot_user, size=5)
    match_id = match_id_of(started.last_message)
    assert (await stored_match(handle, match_id)).bot_level == "normal"
    moved = await sim.slash(world.alice, "move", cell="e5")  # before it, Resign would abort
    await bot_reply(sim, handle, world.channel, moved.last_message)
    resigned = await resign(sim, world.alice)
    over = resigned.last_message
    assert "Rematch" in [b.label for b in over.buttons]
    again = await sim.click(world.alice, over, "Rematch")
    board = again.last_message
    second = match_id_of(board)
    assert second != match_id
    match = await stored_match(handle, second)
    assert match.status == "running" and match.vs_bot and match.bot_level == "normal"
    assert pinged(board) == {world.alice.id}
    sim.assert_no_bot_errors()


async def test_a_restart_while_the_bot_is_to_move_resumes_its_turn(sim, world, make_bot):
    never = asyncio.Event()

    async def dies_while_thinking(state_json: str, game: str, level: str) -> str:
        await never.wait()  # the process is stopped before the search ends
        raise AssertionError("unreachable")

    first = await sim.start_bot(lambda: make_bot(ai_move=dies_while_thinking))
    started = await sim.slash(
        world.alice, "play", game="dalen", opponent=sim.bot_user, size=5, level="easy"
    )
    match_id = match_id_of(started.last_message)
    moved = await sim.slash(world.alice, "move", cell="c3")
    assert "is thinking…" in moved.last_message.text
    assert len((await stored_state(first, match_id)).moves) == 1

    restarted = await sim.restart_bot(lambda: make_bot(ai_move=ai_in_thread))
    # the start finds the bot's turn due and the core plays it (no clock tick needed)
    reply = await bot_reply(sim, restarted, world.channel, moved.last_message)
    state = await stored_state(restarted, match_id)
    assert len(state.moves) == 2 and state.seat_to_move == 0
    assert_picture_shows(reply, state)
    assert pinged(reply) == {world.alice.id}
    # and the member goes on playing
    follow = await sim.slash(world.alice, "move", cell=pick_move(state, random.Random(1)))
    assert not follow.ephemeral, follow.text
    sim.assert_no_bot_errors()


async def hand_of(sim: Any, user: Any) -> SimMessage:
    return [m for m in sim.dms(user) if m.buttons or m.selects][-1]


async def click_action(sim: Any, user: Any, action: str) -> Any:
    """Use the control of ``action`` in the member's DM hand message."""
    message = await hand_of(sim, user)
    for button in message.buttons:
        if button.custom_id and button.custom_id.split("|", 4)[-1] == action:
            return await sim.click(user, message, button.custom_id)
    for select in message.selects:
        if action in select.values:
            return await sim.select(user, message, select.custom_id, action)
    raise AssertionError(f"no control for {action!r} in {user.name}'s hand")


# A whole game in one channel: its point is the flow, not the limits (see conftest).
@pytest.mark.compressed_rate_limits
async def test_a_leiff_table_with_a_bot_seat_plays_a_round_with_one_person(sim, world, make_bot):
    handle = await sim.start_bot(lambda: make_bot(ai_move=ai_in_thread))
    opened = await sim.slash(world.alice, "play", game="leiff")
    lobby = opened.last_message
    assert {b.label for b in lobby.buttons} == {"Join", "Leave", "Start", "Add bot seat"}
    match_id = table_id(lobby)

    # Only the host seats bots; seats can be taken back.
    refused = await sim.click(world.bob, lobby, "Add bot seat")
    assert refused.ephemeral and "only the host" in refused.text.lower()
    for _ in range(2):
        added = await sim.click(world.alice, lobby, "Add bot seat")
        assert added.message.id == lobby.id, "the lobby message is kept in place"
    lobby = sim.state.messages[lobby.id]
    assert "Players (3/6): **alice**, **Bot 1**, **Bot 2**." in lobby.text
    assert "Remove bot" in [b.label for b in lobby.buttons]
    await sim.click(world.alice, lobby, "Remove bot")
    lobby = sim.state.messages[lobby.id]
    assert "Players (2/6): **alice**, **Bot 1**." in lobby.text
    match = await stored_match(handle, match_id)
    assert [s.is_bot for s in match.seats] == [False, True]
    assert match.seats[1].user_id < 0

    await sim.click(world.alice, lobby, "Start")
    delivery = handle.client.delivery
    my_turns = 0
    for _ in range(300):
        await delivery.bots_idle()
        record = await handle.client.service.repo.get_match(match_id)
        state = get_game("leiff").from_json(record.state)
        waiting = state.waiting_for()
        if state.outcome is not None or waiting["step"] == "next":
            break
        assert 0 in waiting["owners"], f"the bot left its part undone: {waiting}"
        if waiting["step"] == "turn":
            my_turns += 1
        # Alice plays plainly and calls Leiff on her third turn to close the round.
        action = "leiff" if waiting["step"] == "turn" and my_turns >= 3 else None
        action = action or state.default_action(0)
        assert action is not None
        result = await click_action(sim, world.alice, action)
        assert not (result.ephemeral and "cannot" in result.text), result.text
    else:
        raise AssertionError("the round did not end")
    await delivery.bots_idle()
    state = get_game("leiff").from_json(
        (await handle.client.service.repo.get_match(match_id)).state
    )
    assert state.view(None)["round_over"] or state.outcome is not None
    bot_actions = [entry for entry in state.log if entry[0] == 1]
    assert len(bot_actions) >= 3, "the bot seat took no turns"

    texts = "\n".join(m.text for m in world.channel.messages)
    assert "Bot 1" in texts and "<@-" not in texts, "a pseudo id was written as a mention"
    assert any("Bot 1" in m.text and "draw" in m.text for m in world.channel.messages), (
        "the bot's turns were not announced"
    )
    # Nothing was ever sent to a pseudo id: every DM channel belongs to a real member.
    assert all(c.recipient.id > 0 for c in sim.state.channels.values() if c.is_dm)
    assert all(not p.ephemeral for p in world.channel.messages if p.attachments)
    sim.assert_no_bot_errors()


async def test_the_bot_answers_as_a_follow_up_of_the_member_s_move(sim, world, make_bot):
    """The bot's board goes out through the member's interaction (a follow-up), which
    Discord's global limit does not count; the older boards are never edited."""
    from discord_sim.ratelimits import is_interaction_endpoint

    handle = await sim.start_bot(lambda: make_bot(ai_move=ai_in_thread))
    started = await sim.slash(
        world.alice, "play", game="dalen", opponent=sim.bot_user, size=5, level="easy"
    )
    match_id = match_id_of(started.last_message)
    rng = random.Random(2)
    for _ in range(2):
        state = await stored_state(handle, match_id)
        since = len(sim.requests)
        moved = await sim.slash(world.alice, "move", cell=pick_move(state, rng))
        reply = await bot_reply(sim, handle, world.channel, moved.last_message)
        assert [m.id for m in moved.followups] == [reply.id], "not the move's follow-up"
        assert_picture_shows(reply, await stored_state(handle, match_id))
        assert pinged(reply) == {world.alice.id}
        counted = [
            f"{r.method} {r.route}"
            for r in sim.requests[since:]
            if not is_interaction_endpoint(r.route) and r.category != "other"
        ]
        assert counted == [], counted
        # its buttons work as any board's (here, the question before resigning)
        assert "Resign" in [b.label for b in reply.buttons]
    asked = await sim.click(world.alice, reply, "Resign")
    assert asked.ephemeral and "Resign match" in asked.text
    sim.assert_no_bot_errors()


async def test_the_bot_answers_in_the_channel_once_the_move_s_token_is_spent(
    sim, world, make_bot, monkeypatch
):
    """A follow-up needs the interaction's token (15 minutes): past it, or when Discord
    refuses it, the bot's board is a channel message, posted once."""
    from bot.delivery import bot_turns

    handle = await sim.start_bot(lambda: make_bot(ai_move=ai_in_thread))
    started = await sim.slash(
        world.alice, "play", game="dalen", opponent=sim.bot_user, size=5, level="easy"
    )
    match_id = match_id_of(started.last_message)
    rng = random.Random(3)

    # Discord refuses the token (the simulator's tokens now last no time at all)
    sim.server.token_lifetime = 0.0
    state = await stored_state(handle, match_id)
    moved = await sim.slash(world.alice, "move", cell=pick_move(state, rng))
    reply = await bot_reply(sim, handle, world.channel, moved.last_message)
    assert not moved.followups and reply in world.channel.messages
    sim.server.token_lifetime = 15 * 60

    # the bot does not even try past its own margin inside the 15 minutes
    monkeypatch.setattr(bot_turns, "FOLLOW_UP_WITHIN", bot_turns.FOLLOW_UP_WITHIN * 0)
    state = await stored_state(handle, match_id)
    since = len(sim.requests)
    moved = await sim.slash(world.alice, "move", cell=pick_move(state, rng))
    reply = await bot_reply(sim, handle, world.channel, moved.last_message)
    assert not moved.followups
    assert not [r for r in sim.requests[since:] if r.route.startswith("/webhooks/")]
    boards = [m for m in world.channel.messages if is_board(m)]
    assert boards[-1].id == reply.id and len({m.id for m in boards}) == len(boards)
    assert_picture_shows(reply, await stored_state(handle, match_id))
    sim.assert_no_bot_errors()
