"""Leiff's **Play again** and table replays through the simulator (a real discord.py
client), in both languages: the finished table's button opens one new table in the
channel that pings its old players, each sits down with one click (also after a restart),
nobody is seated without clicking; ``/history`` opens a table's replay a round a page, each
page the channel's view of the table at that round's end."""

from __future__ import annotations

import random

import pytest

import render
from engine import get_game
from engine.leiff.actions import OUT_OF_TURN_KINDS
from i18n import translate
from tests.bot.helpers import decode_png, pinged
from tests.bot.test_leiff import enable_expansions, open_table
from tests.bot.test_leiff_private import long_clocks
from tests.bot.test_match_threads import threads_on
from tests.bot.test_restart_delivery import public
from tests.bot.test_stalls import idle

AGAIN = "~again"


async def leave(sim, user) -> None:
    """``/leave`` in the table's channel, confirmed."""
    asked = await sim.slash(user, "leave")
    (confirm,) = asked.last_message.buttons
    await sim.click(user, asked.last_message, confirm.custom_id)


def again_button(message) -> str:
    return next(b.custom_id for b in message.buttons if b.custom_id.endswith("|" + AGAIN))


@pytest.mark.compressed_rate_limits
async def test_play_again_seats_those_who_click_even_after_a_restart(
    sim, world, language, bot, make_bot
):
    await long_clocks(sim, world)
    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players, language)
    await leave(sim, world.carol)
    await leave(sim, world.bob)
    ended = await bot.client.service.get_match(match_id)
    assert ended.status == "finished"
    await bot.client.delivery.bots_idle()  # the living table posts in the background
    final = world.channel.messages[-1]
    label = translate(language, "bot.leiff.button.play_again")
    (button,) = final.buttons
    assert button.label == label and not button.disabled

    handle = await sim.restart_bot(make_bot)  # the button is answered by the next process
    service = handle.client.service
    before = {m.id for m in world.channel.messages}
    opened = await sim.click(world.bob, final, again_button(final))
    assert opened.ephemeral
    lobbies = [m for m in world.channel.messages if m.id not in before and not m.ephemeral]
    (lobby,) = lobbies
    new_id = next(m.id for m in await service.user_matches(world.bob.id) if m.status == "lobby")
    assert translate(language, "bot.leiff.again.opened", table=new_id) == opened.text
    # the old players are pinged by the new table's message, in the channel's language
    assert pinged(lobby) == {world.alice.id, world.carol.id}
    words = translate(
        language,
        "service.say.lobby_again",
        user=f"<@{world.bob.id}>",
        table=match_id,
        players=f"<@{world.alice.id}> <@{world.carol.id}>",
    )
    assert words in lobby.text
    join = translate(language, "bot.leiff.button.join")
    assert any(b.label == join for b in lobby.buttons)

    # Alice sits down with one click on the finished table's message, which keeps its button
    again = sim.state.messages[final.id]
    seated = await sim.click(world.alice, again, again_button(again))
    assert translate(language, "bot.leiff.again.joined", table=new_id) == seated.text
    table_now = await service.get_match(new_id)
    assert [s.user_id for s in table_now.seats] == [world.bob.id, world.alice.id]
    # a second click of Bob's opens no second table
    twice = await sim.click(world.bob, again, again_button(again))
    assert twice.ephemeral
    mine = [m for m in await service.user_matches(world.bob.id) if m.status == "lobby"]
    assert [m.id for m in mine] == [new_id]
    # Carol did not click: she is not seated; the table starts with those who did
    start = translate(language, "bot.leiff.button.start")
    newest = sim.state.messages[(await service.get_match(new_id)).messages["lobby"]]
    await sim.click(world.bob, newest, start)
    started = await service.get_match(new_id)
    assert started.status == "running"
    assert sorted(started.user_ids) == sorted([world.alice.id, world.bob.id])
    sim.assert_no_bot_errors()


async def _play_to_the_end(service, match_id: int, users: list, seed: int) -> None:
    """The players play until the game ends (the service alone: the point here is the
    replay of the stored game): mostly each step's default (draw until the pile is empty,
    so rounds end with moderate scores and the game has several), now and then a random
    action (matches, catches, specials)."""
    rng = random.Random(seed)
    for _ in range(5000):
        record = await service.repo.get_match(match_id)
        if record.status == "finished":
            return
        state = get_game("leiff").from_json(record.state)
        seat = state.waiting_for()["owners"][0]
        # the step's default, or another choice of the player the table waits for (no
        # guesses out of turn: a wrong match costs cards, and the first round would end it)
        calm = [a for a in state.legal_actions(seat) if a.split()[0] not in OUT_OF_TURN_KINDS]
        action = rng.choice(calm) if calm and rng.random() < 0.3 else state.default_action(seat)
        await service.play(match_id, users[seat].id, action)
    raise AssertionError("the game did not end")


@pytest.mark.compressed_rate_limits
async def test_history_opens_a_table_replay_a_round_a_page(sim, world, language, bot):
    await enable_expansions(sim, world, language)
    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players, language)
    service = bot.client.service
    await _play_to_the_end(service, match_id, players, seed=4)
    replay = await service.table_replay(match_id)
    names = ("alice", "bob", "carol")

    def drawn(page: int) -> bytes:
        return render.table_png(
            replay.rounds[page], names=names, language=language, theme="classic"
        )

    page = (await sim.slash(world.carol, "history", member=world.alice)).last_message
    option = next(v for v in page.selects[0].values if v == f"~replay:{match_id}")
    shown = (await sim.select(world.carol, page, page.selects[0].custom_id, option)).last_message
    assert shown.ephemeral
    count = len(replay.rounds)
    last = replay.rounds[-1]
    assert count > 1

    reader = language
    where = translate(reader, "bot.replay.round", round=last["round"], page=count, count=count)
    assert where in shown.text
    assert shown.attachments[0].data == drawn(count - 1)
    assert decode_png(shown).width == 480
    first = (
        await sim.click(world.carol, shown, translate(reader, "bot.replay.first"))
    ).last_message
    assert translate(reader, "bot.replay.round", round=1, page=1, count=count) in first.text
    assert first.attachments[0].data == drawn(0)
    second = (
        await sim.click(world.carol, first, translate(reader, "bot.replay.next"))
    ).last_message
    assert translate(reader, "bot.replay.round", round=2, page=2, count=count) in second.text
    assert second.attachments[0].data == drawn(1)
    back = await sim.click(world.carol, second, translate(reader, "bot.replay.previous"))
    assert back.last_message.attachments[0].data == drawn(0)
    assert all(v["viewer"] is None for v in replay.rounds)  # the channel's views only
    sim.assert_no_bot_errors()


async def test_a_table_played_in_its_thread_is_played_again_from_the_channel(sim, world, bot):
    """With a thread per match, the finished table's thread is archived: Play again in it
    opens the new table in the channel, and its start opens a thread of its own."""
    await threads_on(sim, world, "en")
    match_id, _ = await open_table(sim, world, [world.alice, world.bob])
    [first] = sim.threads(world.channel)
    await bot.client.delivery.bots_idle()
    await leave(sim, world.alice)
    await bot.client.delivery.bots_idle()
    assert first.archived
    final = next(m for m in reversed(first.messages) if m.buttons)
    (button,) = final.buttons
    assert button.label == "Play again"
    opened = await sim.click(world.bob, final, button.custom_id)
    assert opened.ephemeral
    lobby = world.channel.public_messages[-1]
    assert lobby.channel is world.channel and pinged(lobby) == {world.alice.id}
    service = bot.client.service
    (table,) = [m for m in await service.user_matches(world.bob.id) if m.status == "lobby"]
    assert table.thread_id is None and table.id != match_id
    await sim.click(world.alice, final, button.custom_id)
    newest = world.channel.public_messages[-1]
    started = await sim.click(world.bob, newest, "Start")
    await idle(bot, started)  # the thread opened and recorded, not only the bots' turns done
    first_thread, second = sim.threads(world.channel)
    assert first_thread is first and first.archived and not second.archived
    assert (await service.get_match(table.id)).thread_id == second.id
    sim.assert_no_bot_errors()


async def test_a_new_table_committed_just_before_a_crash_is_posted_once_at_the_next_start(
    sim, world, bot, make_bot
):
    """The lobby's outbox row is written with the lobby: a process that dies between the
    commit of Play again and its message (the click committed through the service, never
    published, the process stopped) leaves it to the next start, which posts it once."""
    await long_clocks(sim, world)
    match_id, _ = await open_table(sim, world, [world.alice, world.bob])
    await leave(sim, world.alice)
    await idle(bot)
    opened = await bot.client.service.play_again(match_id, world.bob.id)  # committed, unsent
    await bot.stop()
    count = public(world.channel)
    restarted = await sim.start_bot(make_bot)
    await idle(restarted)
    assert public(world.channel) == count + 1
    lobby = world.channel.public_messages[-1]
    assert lobby.text.startswith(f"**Leiff** · table #{opened.match_id}")
    assert any(b.label == "Join" and not b.disabled for b in lobby.buttons)
    again = await sim.restart_bot(make_bot)
    await idle(again)
    assert public(world.channel) == count + 1  # and never twice
    # the old table's button still seats Alice at that table
    final = next(
        m for m in reversed(world.channel.public_messages) if m.id != lobby.id and m.buttons
    )
    seated = await sim.click(world.alice, final, again_button(final))
    assert seated.text == f"You sit at table #{opened.match_id}."
    sim.assert_no_bot_errors()


async def test_a_seat_taken_with_play_again_updates_the_lobby_shown_in_place(
    sim, world, language, bot
):
    """A player sitting down with **Play again** changes the new table's lobby message: it
    is edited to show them seated, never posted again (the channel keeps one lobby)."""
    await long_clocks(sim, world)
    players = [world.alice, world.bob, world.carol]
    await open_table(sim, world, players, language)
    await leave(sim, world.carol)
    await leave(sim, world.bob)
    await bot.client.delivery.bots_idle()
    final = world.channel.messages[-1]
    await sim.click(world.bob, final, again_button(final))
    service = bot.client.service
    (table,) = [m for m in await service.user_matches(world.bob.id) if m.status == "lobby"]
    lobby = world.channel.public_messages[-1]
    assert table.messages["lobby"] == lobby.id
    before = [m.id for m in world.channel.public_messages]

    for player in (world.alice, world.carol):
        again = sim.state.messages[final.id]
        await sim.click(player, again, again_button(again))
        assert [m.id for m in world.channel.public_messages] == before  # nothing new posted
        shown = sim.state.messages[lobby.id]
        assert shown.edited and f"**{player.name}**" in shown.text
        assert any(
            b.label == translate(language, "bot.leiff.button.start") and not b.disabled
            for b in shown.buttons
        )
    seated = await service.get_match(table.id)
    assert [s.user_id for s in seated.seats] == [world.bob.id, world.alice.id, world.carol.id]
    assert seated.messages["lobby"] == lobby.id
    # the lobby shown is the one that starts the table
    await sim.click(
        world.bob, sim.state.messages[lobby.id], translate(language, "bot.leiff.button.start")
    )
    assert (await service.get_match(table.id)).status == "running"
    sim.assert_no_bot_errors()
