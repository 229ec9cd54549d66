"""Who reads which language, through the real client: a member's private answers and DMs
follow their own Discord language, the channel follows the server's (its ``/settings``
language, else its Discord locale), and a DM sent without an interaction at hand (the
clock, after a restart) still finds the member's language in the database."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from contextlib import closing
from typing import Any

import pytest

from bot.common.languages import REMEMBERED_MEMBERS, Languages
from discord_sim.interactions import InteractionNotAllowed
from i18n import translate
from tests.bot.leiff_driver import LeiffTable
from tests.service.helpers import run_prune_pass


def table_id(message) -> int:
    return int(re.search(r"#(\d+)", message.text).group(1))


def words(language: str, msgid: str, **params: object) -> str:
    return translate(language, msgid, **params)


def hand_header(language: str, match_id: int, world: Any) -> str:
    """The first line of a hand DM: the table, its channel and its server."""
    channel = f"<#{world.channel.id}>"
    return words(
        language, "bot.leiff.hand_header", table=match_id, channel=channel, server=world.guild.name
    )


async def open_table(sim, world, players, language: str):
    """The first player opens a table, the others join, the host starts; the lobby's
    buttons are read in ``language`` (the channel's)."""
    host, *guests = players
    lobby = (await sim.slash(host, "play", game="leiff")).last_message
    join, start = (words(language, f"bot.leiff.button.{b}") for b in ("join", "start"))
    assert {b.label for b in lobby.buttons} >= {join, start}
    for guest in guests:
        await sim.click(guest, lobby, join)
    started = await sim.click(host, lobby, start)
    # the simulator returns once the click is answered; the table's first post is queued
    # by the handler after that, so wait for it before reading the channel
    await asyncio.gather(*started.handler_tasks, return_exceptions=True)
    return table_id(lobby), lobby


def newest_hand(sim, user):
    return [m for m in sim.dms(user) if m.attachments][-1]


@pytest.fixture
def german_server(world):
    """The server's Discord locale is German (set before the bot connects)."""
    world.guild.preferred_locale = "de"
    return world


async def test_a_german_member_in_an_english_server(sim, world, bot, make_bot, clock):
    world.alice.locale = "de"
    refused = await sim.slash(world.alice, "board")
    assert refused.ephemeral and refused.text == words("de", "bot.error.no_match_here")
    refused = await sim.slash(world.bob, "board")
    assert refused.ephemeral and refused.text == words("en", "bot.error.no_match_here")

    players = [world.alice, world.bob]
    match_id, lobby = await open_table(sim, world, players, "en")
    assert lobby.text.startswith(words("en", "bot.leiff.header", table=match_id))
    table = LeiffTable(sim, bot, match_id, players, world.channel, languages={world.alice.id: "de"})
    await table.audit()  # the pictures: the table in English, each hand in its reader's

    posted = world.channel.messages[-1]
    assert posted.text.startswith(words("en", "bot.leiff.header", table=match_id))
    assert {b.label for b in posted.buttons} == {words("en", "bot.leiff.button.show_hand")}
    german, english = newest_hand(sim, world.alice), newest_hand(sim, world.bob)
    assert german.text.startswith(hand_header("de", match_id, world))
    assert english.text.startswith(hand_header("en", match_id, world))
    state = await table.state()
    turn = state.waiting_for()["turn"]
    mover = players[turn]
    labels = {b.label for b in newest_hand(sim, mover).buttons}
    language = "de" if mover is world.alice else "en"
    assert words(language, "bot.leiff.action.draw") in labels

    # An ephemeral answer follows the clicking member: Show my hand in the English channel.
    shown = await sim.click(world.alice, posted, words("en", "bot.leiff.button.show_hand"))
    await table.audit()  # its picture: Alice's hand, in German
    assert shown.ephemeral
    assert shown.last_message.text.startswith(hand_header("de", match_id, world))

    # After a restart nobody has spoken to the new process: the clock's timeouts still
    # reach each player in their own language (stored with the member).
    table.handle = await sim.restart_bot(make_bot)
    for _ in range(2):
        mover = players[(await table.state()).waiting_for()["turn"]]
        before = newest_hand(sim, mover).text
        clock.advance(10_000)
        assert await table.handle.client.tick_once() >= 1
        await table.handle.client.delivery.bots_idle()
        hand = newest_hand(sim, mover)
        language = "de" if mover is world.alice else "en"
        assert hand.text != before
        assert hand.text.startswith(hand_header(language, match_id, world))
        await table.audit()
    # the table's living message (edited in place, so not always the newest message)
    channel = [m for m in world.channel.messages if not m.ephemeral][-1]
    assert channel.text.startswith(words("en", "bot.leiff.header", table=match_id))
    sim.assert_no_bot_errors()


async def test_an_english_member_in_a_german_server(sim, german_server, bot):
    world = german_server
    world.alice.locale = "de"
    players = [world.alice, world.bob]  # Bob's client is English
    match_id, lobby = await open_table(sim, world, players, "de")
    assert lobby.text.startswith(words("de", "bot.leiff.header", table=match_id))
    table = LeiffTable(
        sim,
        bot,
        match_id,
        players,
        world.channel,
        channel_language="de",
        languages={world.alice.id: "de"},
    )
    await table.audit()
    posted = world.channel.messages[-1]
    assert posted.text.startswith(words("de", "bot.leiff.header", table=match_id))
    assert {b.label for b in posted.buttons} == {words("de", "bot.leiff.button.show_hand")}
    assert newest_hand(sim, world.bob).text.startswith(hand_header("en", match_id, world))
    assert newest_hand(sim, world.alice).text.startswith(hand_header("de", match_id, world))
    # Bob's private answer is English, in the German channel.
    shown = await sim.click(world.bob, posted, words("de", "bot.leiff.button.show_hand"))
    await table.audit()
    assert shown.ephemeral
    assert shown.last_message.text.startswith(hand_header("en", match_id, world))
    # a table's replay comes once its game is over (said in Bob's English)
    refused = await sim.slash(world.bob, "replay", match=match_id)
    assert refused.ephemeral and refused.text == words("en", "bot.replay.error.running")
    sim.assert_no_bot_errors()


async def test_the_server_language_setting_overrides_its_discord_locale(sim, german_server, bot):
    world = german_server
    shown = await sim.slash(world.admin, "settings")
    assert words("en", "bot.settings.language.auto", name="Deutsch") in shown.text
    changed = await sim.slash(world.admin, "settings", language="en")
    assert changed.ephemeral and "**English**" in changed.text
    board = await sim.slash(world.bob, "leaderboard", game="dalen")
    assert board.last_message.text.startswith(words("en", "bot.leaderboard.title", game="Dalen"))
    # Only a server manager may change it (Discord hides the command from the others).
    with pytest.raises(InteractionNotAllowed):
        await sim.slash(world.bob, "settings", language="de")
    assert (await bot.client.service.get_settings(world.guild.id)).language == "en"
    await sim.slash(world.admin, "settings", language="")
    board = await sim.slash(world.bob, "leaderboard", game="dalen")
    assert board.last_message.text.startswith(words("de", "bot.leaderboard.title", game="Dalen"))
    sim.assert_no_bot_errors()


async def test_a_server_of_another_shard_is_asked_for_its_language_once(sim, german_server, bot):
    """A process that does not hold the server (another shard's, reached through a DM
    click) reads the server's Discord locale over REST, once."""
    world = german_server
    languages = bot.client.context.languages
    bot.client._connection._guilds.pop(world.guild.id)  # as if another shard held it
    assert bot.client.get_guild(world.guild.id) is None
    assert await languages.server(world.guild.id) == "de"
    assert await languages.server(world.guild.id) == "de"
    asked = [
        r
        for r in sim.requests
        if r.method == "GET" and r.path.endswith(f"/guilds/{world.guild.id}")
    ]
    assert len(asked) == 1
    sim.assert_no_bot_errors()


def _seen_at(database, user_id: int) -> float | None:
    with closing(sqlite3.connect(database)) as db:
        row = db.execute(
            "SELECT seen_at FROM member_languages WHERE user_id = ?", (user_id,)
        ).fetchone()
    return None if row is None else row[0]


async def test_a_member_who_keeps_playing_keeps_their_language(sim, world, bot, database, clock):
    """A language is pruned months after it was last seen; "seen" is stored again once a
    day of interactions, so a German member who plays on never reads English DMs."""
    bot.client.context.languages.clock = clock  # the day is the test's
    world.alice.locale = "de"
    await sim.slash(world.alice, "board")
    first = _seen_at(database, world.alice.id)
    assert first is not None
    clock.advance(3_600)
    await sim.slash(world.alice, "board")  # the same day: nothing written
    assert _seen_at(database, world.alice.id) == first
    clock.advance(86_400)
    await sim.slash(world.alice, "board")
    assert _seen_at(database, world.alice.id) == first + 3_600 + 86_400
    # two hundred days on, seen every day: a pass keeps her language
    for _ in range(200):
        clock.advance(86_400)
        await bot.client.context.languages.remember(world.alice.id, "de")
    await run_prune_pass(bot.client.service)  # as many calls as this machine needs
    assert await bot.client.service.member_languages([world.alice.id]) == {world.alice.id: "de"}
    sim.assert_no_bot_errors()


async def test_a_process_keeps_a_bounded_number_of_members_languages(sim, world, bot, database):
    """Members' languages are a cache over the database: one process holds at most its
    capacity, the most recently seen, and a member it forgot reads their language back."""
    languages = Languages(bot.client, bot.client.context, remembered_members=3)
    for user_id in range(1, 101):
        await languages.remember(user_id, "de" if user_id % 2 else "en")
        assert languages.remembered() <= 3
    # the first member is long forgotten here, and still German from the database
    assert await languages.member(1) == "de"
    assert await languages.members([2, 99, 100]) == {2: "en", 99: "de", 100: "en"}
    assert languages.remembered() == 3
    # the bot's own cache is bounded the same way
    assert bot.client.context.languages._capacity == REMEMBERED_MEMBERS
    sim.assert_no_bot_errors()
