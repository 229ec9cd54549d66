"""A start sends again only what of a match did not reach Discord, and never a second copy.

Each part of a step is recorded as it goes out (``bot/delivery/redelivery.py``): the version
the channel shows, in the same statement as a new channel message's id, and the version a
player's private message shows. A process killed between two of them leaves the records of
the parts that went out; these tests leave the database exactly as such a kill would (the
step committed, some records written, the rest not) and start a new client on it:

- a board that reached the channel is not posted again; one that did not is posted once;
  a board without buttons (the bot is to answer) is recognised by its picture's name;
- at a Leiff table, only the players whose DM is behind get it again (an edit in place),
  and a table message that shows the step is not touched;
- a match kept before the records existed (none at all): its channel message is read back
  from Discord, and the current board posted once only if that message shows an older
  version;
- a living Leiff table message shows the same event lines after a restart (they are kept
  with the match: the public lines the channel shows, nothing more);
- a table message sent in the background counts only once it is shown: while Discord
  refuses it, the step is not recorded as delivered; a table without records whose
  message is current is left alone and recorded.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from bot.common.custom_ids import ComponentId
from tests.bot.helpers import (
    CONFIRMS,
    ask_to_end,
    last_board_message,
    match_id_of,
    pick_move,
    start_board_match,
    stored_match,
    stored_state,
)
from tests.bot.leiff_driver import LeiffTable
from tests.bot.test_leiff import open_table
from tests.bot.test_stalls import (
    CALLBACK,
    CHANNEL_EDIT,
    CHANNEL_POST,
    FOLLOWUP,
    ORIGINAL_EDIT,
    flood,
    idle,
    leiff_step,
    leiff_turn,
)


def versions_on(message: Any) -> set[int]:
    """The match versions the message's buttons were drawn for."""
    ids = [b.custom_id for b in message.buttons if b.custom_id]
    return {decoded.version for i in ids if (decoded := ComponentId.decode(i)) is not None}


async def records_as_a_crash_left_them(bot: Any, match_id: int, records: dict[str, int]) -> None:
    """Write delivery records as they stand after a kill: behind the step (the repository
    itself never sets a record back, so this writes the rows directly)."""
    repo = bot.client.service.repo
    for kind, value in records.items():
        if kind == "delivered":  # the whole step's record is kept on the match row
            await repo._write(
                "UPDATE matches SET delivered_version = ? WHERE id = ?", (value, match_id)
            )
            continue
        await repo._write(
            "INSERT INTO match_messages(match_id, kind, message_id) VALUES (?, ?, ?) "
            "ON CONFLICT(match_id, kind) DO UPDATE SET message_id = excluded.message_id",
            (match_id, kind, value),
        )


def shows_older_step(message: Any, match_id: int) -> None:
    """Make a stored message's buttons say the version before theirs, as a message the
    kill left one step behind would (a start reads the channel's newest messages)."""
    from discord_sim.models import walk_components

    for component in walk_components(message.components):
        decoded = ComponentId.decode(component.get("custom_id") or "")
        if decoded is not None and decoded.target == match_id:
            older = ComponentId(decoded.scope, decoded.target, decoded.version - 1, decoded.action)
            component["custom_id"] = older.encode()


async def move(sim: Any, handle: Any, world: Any, match_id: int, seed: int) -> Any:
    state = await stored_state(handle, match_id)
    mover = (world.alice, world.bob)[state.seat_to_move]
    return await sim.slash(mover, "move", cell=pick_move(state, random.Random(seed)))


def public(channel: Any) -> int:
    """How many messages of the channel everybody sees (not the deferred answers)."""
    return sum(1 for m in channel.messages if not m.ephemeral)


async def forget_records(handle: Any, match_id: int) -> None:
    """The match as a version before delivery records kept it: none of them."""
    repo = handle.client.service.repo
    await repo._write(
        "DELETE FROM match_messages WHERE match_id = ? AND kind LIKE 'delivered%'", (match_id,)
    )
    await repo._write("UPDATE matches SET delivered_version = NULL WHERE id = ?", (match_id,))


async def undelivered_move(sim: Any, handle: Any, world: Any, match_id: int) -> list[Any]:
    """A move committed while Discord refuses every message (the faults are returned: the
    caller stops the bot with the move undelivered, then lifts them)."""
    faults = flood(sim, CHANNEL_POST, CHANNEL_EDIT, FOLLOWUP, ORIGINAL_EDIT, count=10_000)
    faults.append(sim.rate_limit(CALLBACK, retry_after=3.5))
    before = public(world.channel)
    moved = await move(sim, handle, world, match_id, 3)
    await asyncio.gather(*moved.handler_tasks, return_exceptions=True)
    assert public(world.channel) == before, "the board got through after all"
    return faults


async def stop_and_recover(handle: Any, faults: list[Any]) -> None:
    """The bot stops with what is undelivered; then Discord recovers."""
    await handle.stop()
    for fault in faults:
        fault.remaining = 0


async def test_a_board_that_reached_the_channel_is_not_posted_again(sim, world, bot, make_bot):
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    moved = await move(sim, bot, world, match_id, 1)
    await idle(bot, moved)
    match = await stored_match(bot, match_id)
    # the channel's record, written with the board's id, is the whole step's (a board
    # move has nothing private): no second record is written after it
    assert match.messages["delivered:channel"] == match.version
    assert match.messages.get("delivered", -1) < match.version
    # killed after the board went out and was recorded: that is all a move writes
    await records_as_a_crash_left_them(bot, match_id, {"delivered": match.version - 1})
    board = last_board_message(world.channel)
    count = public(world.channel)
    await bot.stop()

    restarted = await sim.start_bot(make_bot)
    await idle(restarted)
    assert public(world.channel) == count, "a second copy of the board was posted"
    assert not sim.state.messages[board.id].edited
    # the outbox's channel row is marked by the channel's record: nothing left to send
    waiting = await restarted.client.delivery.records.behind()
    assert match_id not in [m.match_id for m in waiting]
    # the board's buttons still play
    moved = await move(sim, restarted, world, match_id, 2)
    assert not moved.ephemeral, moved.text
    sim.assert_no_bot_errors()


async def test_a_board_posted_but_never_recorded_is_found_not_posted_again(
    sim, world, bot, make_bot
):
    """Killed after the answer to /move reached the channel, before it was recorded: the
    start reads the channel's newest messages, finds the board of that version and records
    it instead of posting a second copy (later edits and clicks go to the one message)."""
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    await idle(bot, await move(sim, bot, world, match_id, 1))
    before = await stored_match(bot, match_id)
    await idle(bot, await move(sim, bot, world, match_id, 2))
    match = await stored_match(bot, match_id)
    board = last_board_message(world.channel)
    assert match.messages["board"] == board.id
    await records_as_a_crash_left_them(
        bot,
        match_id,
        {
            "delivered": before.version,
            "delivered:channel": before.version,
            "board": before.messages["board"],
            "board:kept": before.messages["board"],
        },
    )
    count = public(world.channel)
    await bot.stop()

    restarted = await sim.start_bot(make_bot)
    await idle(restarted)
    assert public(world.channel) == count, "a second copy of the board was posted"
    stored = await stored_match(restarted, match_id)
    assert stored.messages["board"] == board.id
    assert stored.messages["delivered:channel"] == match.version
    moved = await move(sim, restarted, world, match_id, 3)
    assert not moved.ephemeral, moved.text
    sim.assert_no_bot_errors()


async def never_answers(state_json: str, game: str, level: str) -> str:
    """An AI that thinks for ever: the bot's own move never comes while the test looks."""
    await asyncio.Event().wait()
    raise AssertionError("an event nobody sets was set")


async def test_a_board_without_buttons_posted_but_never_recorded_is_not_posted_again(
    sim, world, make_bot
):
    """The answer to a move against the bot carries no buttons (the bot answers it within
    seconds with a board of its own). Killed after that answer reached the channel and
    before it was recorded, a start must still recognise it among the channel's newest
    messages (by its picture, named for the match and its version) instead of posting the
    same board a second time (issue 33's last gap)."""
    thinking = lambda: make_bot(ai_move=never_answers)  # noqa: E731
    handle = await sim.start_bot(thinking)
    started = await sim.slash(
        world.alice, "play", game="lefe", opponent=sim.bot_user, size=5, level="easy"
    )
    assert not started.ephemeral, started.text
    match_id = match_id_of(started.last_message)
    before = await stored_match(handle, match_id)
    state = await stored_state(handle, match_id)
    moved = await sim.slash(world.alice, "move", cell=pick_move(state, random.Random(1)))
    assert not moved.ephemeral, moved.text
    await asyncio.gather(*moved.handler_tasks, return_exceptions=True)
    await handle.client.delivery.deliveries_idle()
    answer = last_board_message(world.channel)
    assert not answer.buttons, "the board the bot is to answer has buttons"
    match = await stored_match(handle, match_id)
    assert match.messages["board"] == answer.id
    assert match.messages["delivered:channel"] == match.version
    # killed after the answer reached the channel, before its records were written
    await records_as_a_crash_left_them(
        handle,
        match_id,
        {
            "delivered": before.version,
            "delivered:channel": before.version,
            "board": before.messages["board"],
            "board:kept": before.messages["board"],
        },
    )
    count = public(world.channel)
    await handle.stop()

    restarted = await sim.start_bot(thinking)
    await restarted.client.delivery.deliveries_idle()
    assert public(world.channel) == count, "a second copy of the board was posted"
    stored = await stored_match(restarted, match_id)
    assert stored.messages["board"] == answer.id
    assert stored.messages["delivered:channel"] == match.version
    assert match_id not in [m.match_id for m in await restarted.client.delivery.records.behind()]
    sim.assert_no_bot_errors()


async def test_a_board_that_never_reached_the_channel_is_posted_once(sim, world, bot, make_bot):
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "dalen", 5)
    faults = await undelivered_move(sim, bot, world, match_id)
    await stop_and_recover(bot, faults)
    count = public(world.channel)

    restarted = await sim.start_bot(make_bot)
    await idle(restarted)
    match = await stored_match(restarted, match_id)
    assert public(world.channel) == count + 1
    assert versions_on(last_board_message(world.channel)) == {match.version}
    assert match.messages["delivered"] == match.version
    # and a further start has nothing left to send
    again = await sim.restart_bot(make_bot)
    await idle(again)
    assert public(world.channel) == count + 1
    sim.assert_no_bot_errors()


async def test_a_finished_match_whose_last_board_never_went_out_gets_it_once(
    sim, world, bot, make_bot
):
    """The outbox row of the step that ended the match brings it back at the next start
    (start-up once looked at running matches and lobbies only)."""
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    await idle(bot, await move(sim, bot, world, match_id, 1))
    await idle(bot, await move(sim, bot, world, match_id, 2))
    question = (await ask_to_end(sim, world.alice)).last_message
    faults = flood(sim, CHANNEL_POST, CHANNEL_EDIT, FOLLOWUP, ORIGINAL_EDIT, count=10_000)
    faults.append(sim.rate_limit(CALLBACK, retry_after=3.5))
    before = public(world.channel)
    yes = next(b.custom_id for b in question.buttons if b.custom_id.endswith(CONFIRMS))
    ended = await sim.click(world.alice, question, yes)
    await asyncio.gather(*ended.handler_tasks, return_exceptions=True)
    assert public(world.channel) == before, "the last board got through after all"
    assert (await stored_match(bot, match_id)).status == "finished"
    await stop_and_recover(bot, faults)

    restarted = await sim.start_bot(make_bot)
    await idle(restarted)
    match = await stored_match(restarted, match_id)
    assert public(world.channel) == before + 1
    last = last_board_message(world.channel)
    assert last.id == match.messages["board"] and versions_on(last) == {match.version}
    assert match_id not in [m.match_id for m in await restarted.client.delivery.records.behind()]
    again = await sim.restart_bot(make_bot)
    await idle(again)
    assert public(world.channel) == before + 1
    sim.assert_no_bot_errors()


async def test_a_leiff_start_sends_only_the_hands_that_are_behind(sim, world, bot, make_bot):
    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players)
    await idle(bot)
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    state = await table.state()
    turn = players[state.waiting_for()["turn"]]
    await idle(bot, await table.act(turn, "draw"))
    # the draw's table message waits for the discard (held back)
    await idle(bot, await table.act(turn, "discard"))
    match = await stored_match(bot, match_id)
    assert match.messages["delivered"] == match.version
    # killed after the table message and Alice's DM went out, before Bob's and Carol's
    await records_as_a_crash_left_them(
        bot,
        match_id,
        {
            "delivered": match.version - 1,
            f"delivered:{world.alice.id}": match.version,
            f"delivered:{world.bob.id}": match.version - 1,
            f"delivered:{world.carol.id}": match.version - 1,
        },
    )
    hands = {p.id: (await table.hand_message(p)).id for p in players}
    revisions = {i: len(sim.state.messages[i].history) for i in hands.values()}
    table_message = sim.state.messages[match.messages["table"]]
    table_revisions = len(table_message.history)
    count = public(world.channel)
    await bot.stop()

    restarted = await sim.start_bot(make_bot)
    await idle(restarted)
    table.handle = restarted
    assert public(world.channel) == count
    assert len(table_message.history) == table_revisions, "the table was sent again"
    edits = {u: len(sim.state.messages[hands[u]].history) - revisions[hands[u]] for u in hands}
    assert edits == {world.alice.id: 0, world.bob.id: 1, world.carol.id: 1}
    for player in players:  # edited in place: still one hand message each
        assert (await table.hand_message(player)).id == hands[player.id]
    assert (await stored_match(restarted, match_id)).messages["delivered"] == match.version
    await table.audit()
    sim.assert_no_bot_errors()


async def test_a_match_without_records_whose_board_is_current_is_left_alone(
    sim, world, bot, make_bot
):
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lublache", 5)
    moved = await move(sim, bot, world, match_id, 4)
    await idle(bot, moved)
    await forget_records(bot, match_id)
    count = public(world.channel)
    await bot.stop()

    restarted = await sim.start_bot(make_bot)
    await idle(restarted)
    match = await stored_match(restarted, match_id)
    assert public(world.channel) == count
    # looked at once: from now on the match has its records
    assert match.messages["delivered"] == match.version
    sim.assert_no_bot_errors()


async def test_a_match_without_records_whose_board_is_behind_gets_it_once(
    sim, world, bot, make_bot
):
    match_id, _ = await start_board_match(sim, world.alice, world.bob, "lefe", 5)
    faults = await undelivered_move(sim, bot, world, match_id)
    await forget_records(bot, match_id)
    await stop_and_recover(bot, faults)
    count = public(world.channel)

    restarted = await sim.start_bot(make_bot)
    await idle(restarted)
    match = await stored_match(restarted, match_id)
    assert public(world.channel) == count + 1
    assert versions_on(last_board_message(world.channel)) == {match.version}
    again = await sim.restart_bot(make_bot)
    await idle(again)
    assert public(world.channel) == count + 1
    sim.assert_no_bot_errors()


def event_lines(message: Any) -> list[str]:
    """The living table message's event lines: between its header and whose move it is."""
    return message.text.split("\n")[1:-1]


async def test_a_living_table_keeps_its_event_lines_across_a_restart(sim, world, bot, make_bot):
    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players)
    await idle(bot)
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    for _ in range(2):
        await idle(bot, await leiff_step(table, players))
    match = await stored_match(bot, match_id)
    living = sim.state.messages[match.messages["table"]]
    before = event_lines(living)
    assert len(before) >= 2, living.text
    # what is kept is what the channel shows: public lines only
    assert await bot.client.delivery.records.table_lines(match_id) == (living.id, before)
    await bot.stop()

    restarted = await sim.start_bot(make_bot)
    table.handle = restarted
    await idle(restarted, await leiff_turn(table, players))
    after = await stored_match(restarted, match_id)
    assert after.messages["table"] == living.id, "a new table message was posted"
    shown = event_lines(sim.state.messages[living.id])
    assert len(shown) > len(before)
    assert shown[: len(before)] == before, "the lines before the restart are gone"
    await table.audit()
    sim.assert_no_bot_errors()


async def test_a_table_message_still_refused_is_not_recorded_as_delivered(
    sim, world, bot, make_bot
):
    """A start sends a table whose message is behind; while Discord keeps refusing that
    edit, the step is not recorded as delivered (a crash then would lose it), and once the
    edit lands it is."""
    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players)
    await idle(bot)
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    await idle(bot, await leiff_turn(table, players))
    match = await stored_match(bot, match_id)
    version = match.version
    # killed after every DM went out, before the table message showed the step
    await records_as_a_crash_left_them(
        bot,
        match_id,
        {"delivered": version - 1, "delivered:channel": version - 1}
        | {f"delivered:{p.id}": version for p in players},
    )
    await bot.stop()
    living = match.messages["table"]
    shows_older_step(sim.state.messages[living], match_id)
    refused = sim.rate_limit(
        f"PATCH /channels/{world.channel.id}/messages/{living}", count=10_000, retry_after=0.05
    )

    restarted = await sim.start_bot(make_bot)
    for _ in range(200):  # until Discord refused the edit a few times (bounded)
        if refused.hits >= 6:
            break
        await asyncio.sleep(0.05)
    assert refused.hits >= 6
    kept = await stored_match(restarted, match_id)
    assert kept.messages["delivered"] < version, "recorded as delivered while refused"
    refused.remaining = 0
    await idle(restarted)
    assert (await stored_match(restarted, match_id)).messages["delivered"] == version
    table.handle = restarted
    await table.audit()
    sim.assert_no_bot_errors()


async def test_a_table_without_records_whose_message_is_current_is_left_alone(
    sim, world, bot, make_bot
):
    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players)
    await idle(bot)
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    await idle(bot, await leiff_turn(table, players))
    match = await stored_match(bot, match_id)
    await forget_records(bot, match_id)
    living = sim.state.messages[match.messages["table"]]
    revisions = len(living.history)
    hands = {p.id: (await table.hand_message(p)).id for p in players}
    hand_revisions = {i: len(sim.state.messages[i].history) for i in hands.values()}
    count = public(world.channel)
    await bot.stop()

    restarted = await sim.start_bot(make_bot)
    await idle(restarted)
    assert public(world.channel) == count
    assert len(living.history) == revisions, "the current table was sent again"
    assert {i: len(sim.state.messages[i].history) for i in hands.values()} == hand_revisions
    assert (await stored_match(restarted, match_id)).messages["delivered"] == match.version
    sim.assert_no_bot_errors()


async def test_a_first_hand_posted_but_never_recorded_is_found_after_the_nonce_is_forgotten(
    sim, world, bot, make_bot, monkeypatch
):
    """Killed after a player's first hand DM went out, before it was recorded, and started
    again after Discord forgot its nonce (a few minutes): the start reads the DM channel's
    newest messages, finds the hand of that table and edits it, rather than posting a
    second hand (which the nonce alone would have prevented within the minutes only)."""
    import discord_sim.server

    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players)
    await idle(bot)
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    match = await stored_match(bot, match_id)
    bob_hand = await table.hand_message(world.bob)
    assert match.messages[f"hand:{world.bob.id}"] == bob_hand.id
    # the kill: Bob's hand went out, its record did not
    await bot.client.service.repo._write(
        "DELETE FROM match_messages WHERE match_id = ? AND kind IN (?, ?)",
        (match_id, f"hand:{world.bob.id}", f"delivered:{world.bob.id}"),
    )
    await records_as_a_crash_left_them(bot, match_id, {"delivered": match.version - 1})
    hands = {p.id: len(sim.dms(p)) for p in players}
    await bot.stop()
    monkeypatch.setattr(discord_sim.server, "NONCE_SECONDS", 0.0)  # the minutes have passed

    restarted = await sim.start_bot(make_bot)
    await idle(restarted)
    table.handle = restarted
    assert {p.id: len(sim.dms(p)) for p in players} == hands, "a second hand was posted"
    assert (await table.hand_message(world.bob)).id == bob_hand.id
    stored = await stored_match(restarted, match_id)
    assert stored.messages[f"hand:{world.bob.id}"] == bob_hand.id
    assert stored.messages["delivered"] == match.version
    await table.audit()
    sim.assert_no_bot_errors()
