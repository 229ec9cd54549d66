"""A thread per match (``/settings``: "Matches: a thread for each match"), through the real
client and the simulator's threads: the channel keeps the challenge, the start line (the
thread shows under it) and the result line; the boards, the moves and the tables go into
the thread, which is archived once the result is in it. Board games and a Leiff table, a
restart in the middle, the fallback when the bot may not open threads, both languages, and
what it costs in requests."""

from __future__ import annotations

import asyncio

import pytest

from bot.common.threads import NAME_LIMIT, player_name, thread_name
from bot.features.settings.values import setting_name
from discord_sim.models import CREATE_PUBLIC_THREADS
from discord_sim.state import BOT_PERMISSIONS
from i18n import translate
from i18n.typed import write_switch
from matchcore.service.turn_notices import EVERY_SECONDS, NOTICE_AFTER_SECONDS
from tests.bot.helpers import (
    CONFIRMS,
    ask_to_end,
    last_board_message,
    pinged,
    resign,
    stored_match,
)
from tests.bot.test_leiff import open_table
from tests.bot.test_stalls import (
    CALLBACK,
    CHANNEL_EDIT,
    CHANNEL_POST,
    FOLLOWUP,
    ORIGINAL_EDIT,
    flood,
    idle,
)


async def threads_on(sim, world, language: str) -> None:
    """The admin turns the setting on, by its name in their language, the value offered."""
    key = "match_threads"
    offered = await sim.autocomplete(world.admin, "settings", option="value", value="", key=key)
    on = write_switch(language, True)
    assert on in {choice["value"] for choice in offered} | {c["name"] for c in offered}
    changed = await sim.slash(world.admin, "settings", key=key, value=on)
    assert changed.ephemeral and f"{setting_name(language, key)}: **{on}**" in changed.text


async def only_match(bot, world) -> int:
    (match,) = await bot.client.service.guild_matches(world.guild.id)
    return int(match.id)


def versus(language: str, first: str, second: str) -> str:
    return translate(language, "bot.thread.versus", first=first, second=second)


async def test_a_board_match_plays_in_its_thread_from_challenge_to_archive(
    sim, world, language, bot
):
    await threads_on(sim, world, language)
    channel = world.channel
    challenge = await sim.slash(world.alice, "play", game="lefe", opponent=world.bob, size=5)
    offer = challenge.last_message
    before = len(sim.requests)
    await sim.click(world.bob, offer, translate(language, "bot.challenge.button.accept"))
    accept_cost = sim.request_counts(before)

    [thread] = sim.threads(channel)
    name = f"Lefe · {versus(language, 'alice', 'bob')}"
    assert thread.name == name and not thread.archived
    start = sim.state.messages[thread.id]  # the thread was started from the start line
    assert start.channel is channel
    assert start.text == translate(language, "bot.thread.started", name=f"**{name}**")
    assert pinged(start) == set()
    board = last_board_message(thread)
    match_id = await only_match(bot, world)
    assert pinged(board) == {world.alice.id}  # the player to move is pinged in the thread
    assert (await stored_match(bot, match_id)).thread_id == thread.id
    # the channel: the challenge and the start line, nothing of the game itself
    assert [m.id for m in channel.public_messages] == [offer.id, start.id]
    # accepting cost the callback, the start line, the thread and the board in it
    assert accept_cost == {"callback": 1, "channel message": 2, "thread": 1}

    # a move, typed in the thread: its board goes into the thread
    moved = await sim.slash(world.alice, "move", cell="c3", channel=thread)
    assert moved.last_message.channel is thread
    # /games links the match to its newest message in the thread
    games = await sim.slash(world.bob, "games")
    assert f"/{thread.id}/{moved.last_message.id})" in games.text

    moved = await sim.slash(world.bob, "move", cell="b2", channel=thread)
    before = len(sim.requests)
    ended = await resign(sim, world.alice, moved.last_message)
    assert ended.last_message.channel is thread
    result = channel.public_messages[-1]
    assert result.id not in (offer.id, start.id)
    assert name in result.text and pinged(result) == set()
    assert "**bob**" in result.text  # the winner, in the channel's language
    assert f"/{thread.id}/{ended.last_message.id})" in result.text
    assert thread.archived
    end_cost = sim.request_counts(before)
    assert end_cost["thread"] == 1 and end_cost["channel message"] <= 2
    sim.assert_no_bot_errors()


async def test_a_leiff_table_plays_in_its_thread_and_closes_it(sim, world, language, bot):
    await threads_on(sim, world, language)
    channel = world.channel
    match_id, _ = await open_table(sim, world, [world.alice, world.bob], language)
    [thread] = sim.threads(channel)
    name = f"Leiff · {versus(language, 'alice', 'bob')}"
    assert thread.name == name
    assert (await stored_match(bot, match_id)).thread_id == thread.id
    await bot.client.delivery.bots_idle()
    assert thread.messages and all(m.channel is thread for m in thread.messages)
    # the lobby and the start line stay in the channel; the table lives in the thread
    _lobby, start = channel.public_messages[:2]
    assert start.id == thread.id and name in start.text
    assert not any(m.attachments for m in channel.public_messages)

    hand = next(m for m in reversed(sim.dms(world.alice)) if m.buttons)
    leave_button = next(b for b in hand.buttons if b.custom_id.endswith("|~quit"))
    asked = await sim.click(world.alice, hand, leave_button.custom_id)
    confirm = next(b for b in asked.last_message.buttons if b.custom_id.endswith("|~quit!"))
    await sim.click(world.alice, asked.last_message, confirm.custom_id)
    await bot.client.delivery.bots_idle()
    match = await stored_match(bot, match_id)
    assert match.status == "finished"
    result = channel.public_messages[-1]
    assert name in result.text and "**bob**" in result.text
    assert thread.archived
    sim.assert_no_bot_errors()


async def test_a_restart_in_the_middle_keeps_playing_in_the_thread(sim, world, bot, make_bot):
    await threads_on(sim, world, "en")
    challenge = await sim.slash(world.alice, "play", game="lefe", opponent=world.bob, size=5)
    await sim.click(world.bob, challenge.last_message, "Accept")
    [thread] = sim.threads(world.channel)
    handle = await sim.restart_bot(make_bot)
    moved = await sim.slash(world.alice, "move", cell="c3", channel=thread)
    assert moved.last_message.channel is thread
    moved = await sim.slash(world.bob, "move", cell="b2", channel=thread)
    assert moved.last_message.channel is thread
    ended = await resign(sim, world.alice, moved.last_message)
    assert ended.last_message.channel is thread and thread.archived
    assert "**bob**" in world.channel.public_messages[-1].text
    assert handle.running
    sim.assert_no_bot_errors()


async def test_an_archived_thread_is_reopened_for_the_next_move(sim, world, bot, make_bot):
    """Discord archives a quiet thread by itself (a daily match may wait days): the next
    move reopens it."""
    await threads_on(sim, world, "en")
    challenge = await sim.slash(world.alice, "play", game="lefe", opponent=world.bob, size=5)
    await sim.click(world.bob, challenge.last_message, "Accept")
    [thread] = sim.threads(world.channel)
    thread.thread.archived = True  # Discord's auto-archive, seen by a restarted bot
    await sim.restart_bot(make_bot)
    moved = await sim.slash(world.alice, "move", cell="c3", channel=thread)
    assert moved.last_message.channel is thread and not thread.archived
    sim.assert_no_bot_errors()


async def test_without_thread_permissions_the_match_plays_in_the_channel_and_says_why(
    sim, world, language, bot
):
    await threads_on(sim, world, language)
    sim.set_bot_permissions(world.guild, BOT_PERMISSIONS & ~CREATE_PUBLIC_THREADS)
    challenge = await sim.slash(world.alice, "play", game="lefe", opponent=world.bob, size=5)
    accepted = await sim.click(
        world.bob, challenge.last_message, translate(language, "bot.challenge.button.accept")
    )
    assert sim.threads(world.channel) == []
    missing = translate(language, "bot.thread.permission.create_public_threads")
    why = translate(language, "bot.thread.no_permission", missing=missing)
    assert any(m.text == why for m in world.channel.public_messages)
    board = last_board_message(world.channel)
    assert board.channel is world.channel
    assert (await stored_match(bot, await only_match(bot, world))).thread_id is None
    assert accepted.responded
    sim.assert_no_bot_errors()


async def test_a_match_against_the_bot_starts_its_thread_from_the_command_answer(sim, world, bot):
    await threads_on(sim, world, "en")
    played = await sim.slash(world.alice, "play", game="lefe", opponent=sim.bot_user, size=5)
    [thread] = sim.threads(world.channel)
    assert played.message is not None and played.message.id == thread.id
    assert not played.ephemeral
    assert last_board_message(thread).channel is thread
    sim.assert_no_bot_errors()


@pytest.mark.parametrize(
    "names", [("a" * 40, "b" * 40), ("@everyone", "<@123456789012345678>"), ("", "  ")]
)
def test_thread_names_stay_within_discord_limits_and_never_ping(names) -> None:
    name = thread_name("Lefe", " vs ".join(player_name(n) for n in names) + " x" * 40)
    assert 1 <= len(name) <= NAME_LIMIT and "\n" not in name
    assert "@everyone" not in name and "<@123456789012345678>" not in name


async def test_a_rematch_asked_in_the_archived_thread_gets_a_thread_of_its_own(sim, world, bot):
    await threads_on(sim, world, "en")
    challenge = await sim.slash(world.alice, "play", game="lefe", opponent=world.bob, size=5)
    await sim.click(world.bob, challenge.last_message, "Accept")
    [first] = sim.threads(world.channel)
    await sim.slash(world.alice, "move", cell="c3", channel=first)
    moved = await sim.slash(world.bob, "move", cell="b2", channel=first)
    ended = await resign(sim, world.alice, moved.last_message)
    assert first.archived
    asked = await sim.click(world.bob, ended.last_message, "Rematch")
    assert asked.responded
    offer = world.channel.public_messages[-1]
    assert offer.channel is world.channel and pinged(offer) == {world.alice.id}
    accepted = await sim.click(world.alice, offer, "Accept")
    first_thread, second = sim.threads(world.channel)
    assert first_thread is first and first.archived and not second.archived
    assert second.name == "Lefe · bob vs alice"  # the other player starts this time
    assert accepted.responded and last_board_message(second).channel is second
    assert pinged(last_board_message(second)) == {world.bob.id}
    assert all(m.channel is first for m in first.messages)
    sim.assert_no_bot_errors()


async def test_what_a_stopped_bot_did_not_send_goes_into_the_thread_after_a_restart(
    sim, world, bot, make_bot
):
    """The step that ended the match was committed while Discord refused every message;
    the bot stopped with it undelivered (as after a kill: the outbox row is all that is
    left). The next start posts the last board into the thread, once, then the result line
    into the channel, and archives the thread."""
    await threads_on(sim, world, "en")
    challenge = await sim.slash(world.alice, "play", game="lefe", opponent=world.bob, size=5)
    await sim.click(world.bob, challenge.last_message, "Accept")
    [thread] = sim.threads(world.channel)
    await idle(bot, await sim.slash(world.alice, "move", cell="c3", channel=thread))
    moved = await sim.slash(world.bob, "move", cell="b2", channel=thread)
    await idle(bot, moved)
    question = (await ask_to_end(sim, world.alice, moved.last_message)).last_message
    faults = flood(sim, CHANNEL_POST, CHANNEL_EDIT, FOLLOWUP, ORIGINAL_EDIT, count=10_000)
    faults.append(sim.rate_limit(CALLBACK, retry_after=3.5))
    in_thread, in_channel = len(thread.public_messages), len(world.channel.public_messages)
    yes = next(b.custom_id for b in question.buttons if b.custom_id.endswith(CONFIRMS))
    ended = await sim.click(world.alice, question, yes)
    await asyncio.gather(*ended.handler_tasks, return_exceptions=True)
    assert len(thread.public_messages) == in_thread, "the last board got through after all"
    await bot.stop()
    for fault in faults:
        fault.remaining = 0

    restarted = await sim.start_bot(make_bot)
    await idle(restarted)
    assert len(thread.public_messages) == in_thread + 1
    last = last_board_message(thread)
    assert [b.label for b in last.buttons] == ["Rematch", "Review"]
    assert len(world.channel.public_messages) == in_channel + 1
    assert "**bob**" in world.channel.public_messages[-1].text
    assert thread.archived
    again = await sim.restart_bot(make_bot)
    await idle(again)
    assert len(thread.public_messages) == in_thread + 1
    assert len(world.channel.public_messages) == in_channel + 1
    sim.assert_no_bot_errors()


async def test_a_daily_turn_dm_jumps_to_the_board_in_the_thread(sim, world, bot, clock):
    await threads_on(sim, world, "en")
    asked = await sim.slash(world.alice, "prefs", turn_dms="on")
    assert asked.ephemeral
    offer = (
        await sim.slash(
            world.alice, "play", game="lefe", opponent=world.bob, size=5, clock="move:259200"
        )
    ).last_message
    await sim.click(world.bob, offer, "Accept")
    [thread] = sim.threads(world.channel)
    board = last_board_message(thread)
    before = len(sim.dms(world.alice))
    clock.advance(NOTICE_AFTER_SECONDS + EVERY_SECONDS)
    await bot.client.tick_once()
    (notice,) = sim.dms(world.alice)[before:]
    assert f"https://discord.com/channels/{world.guild.id}/{thread.id}/{board.id}" in notice.text
    sim.assert_no_bot_errors()


async def test_a_thread_discord_refuses_leaves_no_start_line_and_the_match_in_the_channel(
    sim, world, bot
):
    """The cache said the bot may, Discord said no (a channel override the cache missed):
    the start line, which would point to nothing, is taken back; the channel is told why."""
    await threads_on(sim, world, "en")
    sim.fail_requests(
        "POST /channels/{channel_id}/messages/{message_id}/threads",
        status=403,
        code=50013,
        message="Missing Permissions",
    )
    challenge = await sim.slash(world.alice, "play", game="lefe", opponent=world.bob, size=5)
    await sim.click(world.bob, challenge.last_message, "Accept")
    assert sim.threads(world.channel) == []
    started = translate("en", "bot.thread.started", name="**Lefe · alice vs bob**")
    assert not any(m.text == started for m in world.channel.public_messages)
    assert any("Create Public Threads" in m.text for m in world.channel.public_messages)
    assert last_board_message(world.channel).channel is world.channel
    sim.assert_no_bot_errors()


async def test_a_move_typed_in_the_channel_links_the_thread_the_match_plays_in(
    sim, world, language, bot
):
    await threads_on(sim, world, language)
    challenge = await sim.slash(world.alice, "play", game="lefe", opponent=world.bob, size=5)
    await sim.click(
        world.bob, challenge.last_message, translate(language, "bot.challenge.button.accept")
    )
    [thread] = sim.threads(world.channel)
    match_id = await only_match(bot, world)
    label = translate(language, "bot.match.label", game="Lefe", opponent="bob", match=match_id)
    where = f"{label}: <#{thread.id}>"
    in_channel = len(world.channel.public_messages)

    # Typed in the channel (not the thread): a private pointer to the thread, not "no match"
    moved = await sim.slash(world.alice, "move", cell="c3")
    assert moved.ephemeral
    assert moved.text == translate(language, "bot.match.error.in_thread", where=where)
    resigned = await sim.slash(world.bob, "resign")
    label = translate(language, "bot.match.label", game="Lefe", opponent="alice", match=match_id)
    assert resigned.ephemeral
    assert resigned.text == translate(
        language, "bot.match.error.in_thread", where=f"{label}: <#{thread.id}>"
    )
    assert len(world.channel.public_messages) == in_channel
    match = await stored_match(bot, match_id)
    assert match.status == "running"

    # in the thread the same move plays
    played = await sim.slash(world.alice, "move", cell="c3", channel=thread)
    assert not played.ephemeral and played.last_message.channel is thread
    # a member with no match at all still hears that there is none here
    nothing = await sim.slash(world.carol, "move", cell="c3")
    assert nothing.ephemeral
    assert nothing.text == translate(language, "bot.error.no_match_here")
    sim.assert_no_bot_errors()


async def test_two_matches_in_threads_are_each_linked_from_the_channel(sim, world, bot, clock):
    await threads_on(sim, world, "en")
    for opponent in (world.bob, world.carol):
        challenge = await sim.slash(world.alice, "play", game="lefe", opponent=opponent, size=5)
        await sim.click(opponent, challenge.last_message, "Accept")
        clock.advance(60)  # past the challenge cooldown
    threads = sim.threads(world.channel)
    assert len(threads) == 2
    refused = await sim.slash(world.alice, "move", cell="c3")
    assert refused.ephemeral and refused.text.startswith("Your matches are played in")
    for thread in threads:
        assert f"<#{thread.id}>" in refused.text
    sim.assert_no_bot_errors()


async def test_an_unfinished_opening_never_takes_an_earlier_match_s_thread(
    sim, world, bot, make_bot, clock
):
    """A killed process left a match's opening unfinished (noted, no start line posted);
    the channel's newest messages hold the start line of the players' finished match, in
    the same words: its thread is archived, so the match gets a line and a thread of its
    own, and the finished match's thread stays closed."""
    await threads_on(sim, world, "en")
    challenge = await sim.slash(world.alice, "play", game="lefe", opponent=world.bob, size=5)
    await sim.click(world.bob, challenge.last_message, "Accept")
    [first] = sim.threads(world.channel)
    await sim.slash(world.alice, "move", cell="c3", channel=first)
    moved = await sim.slash(world.bob, "move", cell="b2", channel=first)
    await resign(sim, world.alice, moved.last_message)
    assert first.archived
    # the rematch starts in the channel (threads off a moment), then the note a killed
    # process leaves between it and its start line
    await sim.slash(world.admin, "settings", key="match_threads", value="off")
    clock.advance(60)  # past the challenge cooldown
    again = await sim.slash(world.alice, "play", game="lefe", opponent=world.bob, size=5)
    await sim.click(world.bob, again.last_message, "Accept")
    (match,) = [m for m in await bot.client.service.guild_matches(world.guild.id)]
    assert match.thread_id is None
    await sim.slash(world.admin, "settings", key="match_threads", value="on")
    await bot.client.delivery.records.set(match.id, {"thread:opening": 1})

    handle = await sim.restart_bot(make_bot)
    moved = await sim.slash(world.alice, "move", cell="c3")
    await idle(handle, moved)
    first_again, second = sim.threads(world.channel)
    assert first_again is first and first.archived and not second.archived
    assert (await stored_match(handle, match.id)).thread_id == second.id
    assert last_board_message(second).channel is second
    started = translate("en", "bot.thread.started", name="**Lefe · alice vs bob**")
    assert sim.state.messages[second.id].text == sim.state.messages[first.id].text == started
    sim.assert_no_bot_errors()
