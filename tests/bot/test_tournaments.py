"""Tournaments through the simulator with the real client: the announcement and its
buttons, the admins' commands, whole events of every format played in the channel, the
standings picture edited in place, the final standings with the podium, both languages."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from bot.features.tournaments.posts import announcement_message
from discord_sim.models import SimRole
from discord_sim.state import MEMBER_PERMISSIONS
from i18n import translate
from matchcore.tournament.model import TournamentState
from render.standings import COLUMN_HEADINGS, HEADER, PODIUM, RANK_X, ROW
from tests.bot.helpers import is_board_picture, pick_move, stored_state
from tests.bot.tournament_driver import Event, png_of

pytestmark = pytest.mark.compressed_rate_limits


def members(sim: Any, world: Any, count: int) -> list[Any]:
    """``count`` members: alice, bob, carol, then new ones."""
    found = [world.alice, world.bob, world.carol]
    for number in range(len(found), count):
        found.append(sim.add_member(world.guild, f"player{number}"))
    return found[:count]


async def create(sim: Any, world: Any, bot: Any, by: Any = None, **options: Any) -> Event:
    made = await sim.slash(by or world.admin, "tournament create", **options)
    assert not made.ephemeral, made.text
    return Event(sim, bot, world, made.last_message)


def is_standings(message: Any) -> bool:
    return bool(message.attachments) and message.attachments[0].filename.startswith("standings-")


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 16) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=False))


async def test_a_round_robin_of_6_is_played_in_the_channel(sim, world, language, bot):
    players = members(sim, world, 6)
    users = {p.id: p for p in players}
    event = await create(sim, world, bot, game="lefe", format="round_robin", size=5)
    words = event.current_announcement().text
    assert translate(language, "bot.tournament.format.round_robin") in words
    assert translate(language, "bot.tournament.starts_when_said") in words
    await event.join(players)
    shown = event.current_announcement()
    assert all(f"<@{p.id}>" in shown.text for p in players)

    started = await sim.slash(world.admin, "tournament start", tournament=event.id)
    assert started.ephemeral
    await event.settle()
    assert len(await event.running()) == 3
    await event.play_out(users)
    info = await event.info()
    assert info.status == "finished"
    matches = await event.service.store.repo.tournament_matches(event.id)
    pairs = sorted(sorted(s.user_id for s in m.seats) for m in matches.values())
    assert pairs == sorted(sorted(p) for p in itertools.combinations(users, 2))

    # the final standings, in the channel, with the podium
    final = sim.state.messages[info.messages["final"]]
    assert (
        translate(language, "bot.tournament.final", title=f"Round robin #{event.id} · Lefe") or True
    )
    assert "🥇" in final.text and "🥈" in final.text and "🥉" in final.text
    picture = png_of(final)
    top = HEADER + COLUMN_HEADINGS
    for place in range(3):
        centre = top + place * ROW + ROW // 2
        assert near(picture.getpixel((RANK_X - 12, centre)), PODIUM[place])
    # the event's thread: every game's boards, the lines, and the standings message edited
    # in place (never posted again); the channel: the announcement and the final standings
    thread = event.thread
    standings = sim.state.messages[info.messages["standings"]]
    assert standings.channel is thread and standings.edited
    assert [m for m in thread.messages if is_standings(m)] == [standings]
    assert [m for m in world.channel.messages if is_standings(m)] == [final]
    boards = [
        m for m in thread.messages if m.attachments and is_board_picture(m.attachments[0].filename)
    ]
    assert {int(m.attachments[0].filename.split("-")[1]) for m in boards} == {
        m.id for m in matches.values()
    }
    assert not any(
        m.attachments and is_board_picture(m.attachments[0].filename)
        for m in world.channel.messages
    )
    assert f"<#{thread.id}>" in event.current_announcement().text
    # the event is over: its buttons are grey; it was rated: every game counted
    assert all(b.disabled for b in event.current_announcement().buttons)
    board = await event.service.leaderboard(world.guild.id, "lefe", limit=10, pool="daily")
    assert {r.user_id: r.games for r in board} == dict.fromkeys(users, 5)
    sim.assert_no_bot_errors()


async def test_a_swiss_of_13_gives_a_bye_each_round_and_survives_a_restart(
    sim, world, bot, make_bot
):
    players = members(sim, world, 13)
    users = {p.id: p for p in players}
    event = await create(sim, world, bot, game="dalen", format="swiss", rounds=5, size=5)
    await event.join(players)
    await sim.slash(world.admin, "tournament start", tournament=event.id)
    await event.settle()
    assert len(await event.running()) == 6
    assert await event.play_out(users, rounds=2) == 2

    # a restart in the middle: a new client on the same database carries on, and the old
    # announcement's buttons still answer (a member already in is told so)
    event.handle = await sim.restart_bot(make_bot)
    again = await sim.click(world.alice, event.announcement, f"lb|n|{event.id}|0|join")
    assert again.ephemeral and translate("en", "service.error.tournament_joined_already") in (
        again.text.lower()
    )
    await event.play_out(users)
    info = await event.info()
    assert info.status == "finished" and info.round == 5
    record = await event.service.store.repo.get_tournament(event.id)
    state = TournamentState.from_json(record.state)
    byes = [g.players[0] for g in state.games if g.bye]
    assert len(byes) == 5 == len(set(byes))
    pairs = [frozenset(g.players) for g in state.games if not g.bye]
    assert len(pairs) == 30 == len(set(pairs))
    # each round's bye was said in the event's thread
    said = "\n".join(m.text for m in event.thread.messages)
    for player in byes:
        assert translate("en", "service.say.tournament_bye", user=f"<@{player}>") in said
    # one living standings message, edited in place through both processes
    standings = [m for m in event.thread.messages if is_standings(m)]
    assert [m.id for m in standings] == [info.messages["standings"]]
    picture = png_of(standings[0])
    assert picture.size[0] == 720
    sim.assert_no_bot_errors()


async def test_an_arena_of_16_pairs_whoever_is_free_until_time_is_up_through_a_restart(
    sim, world, bot, make_bot
):
    players = members(sim, world, 16)
    users = {p.id: p for p in players}
    event = await create(
        sim, world, bot, game="lefe", format="arena", minutes=30, size=5, clock="move:86400"
    )
    await event.join(players[:15])
    await sim.slash(world.admin, "tournament start", tournament=event.id)
    await event.settle()
    assert len(await event.running()) == 7  # 15 players: one waits
    # a late joiner is paired at the next step, with the one who waited
    await event.join(players[15:])
    await event.tick()
    assert len(await event.running()) == 8
    # games end a few at a time; their players are paired again at once (two who just
    # played each other and are the only ones free wait: never the same opponent twice
    # in a row)
    finished = 0
    for turn in range(4):
        if turn == 2:
            # a restart in the middle: a new client on the same database pairs on
            event.handle = await sim.restart_bot(make_bot)
        running = sorted((await event.running()).values())
        for match_id in running[:3]:
            await event.stand_in(match_id)
        finished += 3
        await event.settle()
        await event.tick(60)
        info = await event.info()
        free = [r.user_id for r in info.standings if not r.playing]
        assert len(free) in (0, 2), free
        if free:
            record = await event.service.store.repo.get_tournament(event.id)
            last = TournamentState.from_json(record.state).games_of(free[0])[-1]
            assert set(last.players) == set(free)
    # time is up: nothing more is paired, the games under way finish, then it is over
    await event.tick(30 * 60)
    said = "\n".join(m.text for m in event.thread.messages)
    assert translate("en", "service.say.tournament_time_up") in said
    for match_id in (await event.running()).values():
        await event.stand_in(match_id)
    await event.settle()
    await event.tick()
    info = await event.info()
    assert info.status == "finished"
    # the games under way at the end were played out and count for nothing
    assert sum(r.games for r in info.standings) == 2 * finished
    final = sim.state.messages[info.messages["final"]]
    assert "🥇" in final.text
    del users
    sim.assert_no_bot_errors()


async def test_an_arena_on_a_live_clock_ends_games_on_time_and_pairs_again(sim, world, bot):
    """A whole-game clock of 10 minutes and 5 s a move: a player who lets it run out loses
    on time at the clock loop's next tick, and the arena pairs the freed players at once
    (never with their last opponent); the games count in the live rating pool."""
    players = members(sim, world, 4)
    users = {p.id: p for p in players}
    event = await create(
        sim, world, bot, game="lefe", format="arena", minutes=30, size=5, clock="game:600+5"
    )
    await event.join(players)
    await sim.slash(world.admin, "tournament start", tournament=event.id)
    await event.settle()
    first, second = sorted((await event.running()).values())
    for match_id in (first, second):
        match = await event.service.get_match(match_id)
        assert match.time_control == "game:600+5"
    # one move each, by /move in the thread in the first game, stood in for in the second
    await moves_by_interactions(event, first, users, 2)
    for _ in range(2):
        state = await stored_state(event.handle, second)
        match = await event.service.get_match(second)
        mover = match.seats[state.seat_to_move].user_id
        await event.handle.client.delivery.publish_quietly(
            await event.service.play(second, mover, pick_move(state, event.rng))
        )
    await event.settle()
    # nobody moves: 10 minutes and the increment later the clock ends both games
    await event.tick(600 + 5 + 10)
    ended = {m: await event.service.get_match(m) for m in (first, second)}
    for match in ended.values():
        assert match.status == "finished"
        assert (match.result or {})["why"]["code"] == "reason_timed_out"
    await event.tick()
    info = await event.info()
    assert sorted(r.score for r in info.standings) == [0, 0, 4, 4]
    running = await event.running()
    assert len(running) == 2
    for match_id in running.values():
        pair = {s.user_id for s in (await event.service.get_match(match_id)).seats}
        assert all(pair != {s.user_id for s in m.seats} for m in ended.values())
    # time is up: the games under way are played out (they count for nothing) and it ends
    await event.tick(30 * 60)
    for match_id in (await event.running()).values():
        await event.stand_in(match_id)
    await event.settle()
    await event.tick()
    info = await event.info()
    assert info.status == "finished"
    assert sum(r.games for r in info.standings) == 4
    live = await event.service.leaderboard(world.guild.id, "lefe", limit=10, pool="live")
    assert {r.user_id for r in live} == set(users)
    assert await event.service.leaderboard(world.guild.id, "lefe", pool="daily") == []
    sim.assert_no_bot_errors()


async def moves_by_interactions(
    event: Event, match_id: int, users: dict[int, Any], count: int
) -> None:
    """``count`` moves in the match by ``/move`` in its place, whoever is to move."""
    match = await event.service.get_match(match_id)
    place = event.sim.state.get_channel(match.thread_id or match.channel_id)
    for _ in range(count):
        state = await stored_state(event.handle, match_id)
        mover = users[match.seats[state.seat_to_move].user_id]
        moved = await event.sim.slash(
            mover, "move", cell=pick_move(state, event.rng), match=match_id, channel=place
        )
        assert not moved.ephemeral, moved.text


async def test_a_leiff_event_of_12_seats_tables_of_4_through_a_restart(
    sim, world, language, bot, make_bot
):
    players = members(sim, world, 12)
    users = {p.id: p for p in players}
    event = await create(sim, world, bot, game="leiff", format="tables", rounds=3, table_size=4)
    await event.join(players)
    await sim.slash(world.admin, "tournament start", tournament=event.id)
    await event.settle()
    running = await event.running()
    assert len(running) == 3
    for match_id in running.values():
        assert len((await event.service.get_match(match_id)).seats) == 4
    assert await event.play_out(users, rounds=1) == 1
    # a restart in the middle of the second round: its tables play on in the new client,
    # and the third round is seated by it
    event.handle = await sim.restart_bot(make_bot)
    assert (await event.info()).round == 2
    await event.play_out(users)
    info = await event.info()
    assert info.status == "finished" and info.round == 3
    record = await event.service.store.repo.get_tournament(event.id)
    state = TournamentState.from_json(record.state)
    assert len(state.games) == 9 and all(g.done for g in state.games)
    assert all(len(state.games_of(p.id)) == 3 for p in players)
    final = sim.state.messages[info.messages["final"]]
    assert translate(language, "bot.tournament.format.tables") in final.text
    sim.assert_no_bot_errors()


async def test_the_reminder_the_no_show_and_the_admins(sim, world, bot):
    players = [world.alice, world.bob, world.carol]
    # only admins create
    refused = await sim.slash(world.alice, "tournament create", game="lefe", format="swiss")
    assert refused.ephemeral and "manage server" in refused.text.lower()
    choices = await sim.autocomplete(
        world.admin, "tournament create", option="start", value="30 min", game="lefe"
    )
    assert choices[0]["value"] == "1800"
    event = await create(
        sim,
        world,
        bot,
        game="lefe",
        format="swiss",
        rounds=2,
        size=5,
        clock="move:60",
        start="1800",
    )
    await event.join(players)
    # Leave before the start takes the member off the list; Join again puts them back
    await sim.click(world.carol, event.announcement, f"lb|n|{event.id}|0|leave")
    assert f"<@{world.carol.id}>" not in event.current_announcement().text
    await sim.click(world.carol, event.announcement, f"lb|n|{event.id}|0|join")

    # ten minutes before the start: a DM to everyone who joined, once
    await event.tick(20 * 60 + 1)
    for player in players:
        (dm,) = sim.dms(player)
        assert "10" in dm.text and f"#{event.id}" in dm.text
    await event.tick(60)
    assert all(len(sim.dms(p)) == 1 for p in players)
    listed = await sim.slash(world.bob, "tournament list")
    assert listed.ephemeral and f"#{event.id}" in listed.text

    # the start: one game and a bye; nobody moves, and the clock runs out
    await event.tick(10 * 60)
    info = await event.info()
    assert info.status == "running"
    (match_id,) = (await event.running()).values()
    match = await event.service.get_match(match_id)
    first = match.seats[0].user_id
    await event.tick(120)
    await event.tick()
    withdrawn = translate("en", "service.say.tournament_forfeit", user=f"<@{first}>")
    assert any(withdrawn in m.text for m in event.thread.messages)
    info = await event.info()
    assert next(r for r in info.standings if r.user_id == first).withdrawn == "forfeit"

    # an admin pauses, resumes, removes a player and ends it early
    paused = await sim.slash(world.admin, "tournament pause", tournament=event.id)
    assert paused.ephemeral
    assert (await event.info()).paused
    denied = await sim.slash(world.bob, "tournament end", tournament=event.id)
    assert denied.ephemeral and "manage server" in denied.text.lower()
    await sim.slash(world.admin, "tournament resume", tournament=event.id)
    await event.settle()
    others = [p for p in players if p.id != first]
    await sim.slash(world.admin, "tournament remove", tournament=event.id, player=others[0])
    await sim.slash(world.admin, "tournament end", tournament=event.id)
    await event.settle()
    for match_id in (await event.running()).values():
        await event.stand_in(match_id)
    await event.settle()
    await event.tick()
    assert (await event.info()).status == "finished"
    said = "\n".join(m.text for m in event.thread.messages)
    assert (
        translate("en", "service.say.tournament_ended_early", user=f"<@{world.admin.id}>") in said
    )
    sim.assert_no_bot_errors()


async def test_with_a_thread_per_match_each_game_has_its_own_thread(sim, world, bot):
    """The server's thread option (``match_threads``): every game of the event in a thread
    of its own under the channel; the event's thread keeps its lines and standings."""
    await bot.client.service.update_settings(
        world.guild.id, world.admin.id, True, match_threads=True
    )
    players = members(sim, world, 4)
    users = {p.id: p for p in players}
    event = await create(sim, world, bot, game="lefe", format="round_robin", size=5, rated=False)
    await event.join(players)
    await sim.slash(world.admin, "tournament start", tournament=event.id)
    await event.settle()
    running = await event.running()
    assert len(running) == 2
    places = set()
    for match_id in running.values():
        match = await event.service.get_match(match_id)
        assert match.thread_id not in (None, event.thread.id)
        thread = sim.state.get_channel(match.thread_id)
        assert thread.parent is world.channel
        assert any(
            m.attachments and is_board_picture(m.attachments[0].filename) for m in thread.messages
        )
        places.add(match.thread_id)
    assert len(places) == 2
    await event.play_out(users)
    info = await event.info()
    assert info.status == "finished"
    assert [m.id for m in event.thread.messages if is_standings(m)] == [info.messages["standings"]]
    assert not any(
        m.attachments and is_board_picture(m.attachments[0].filename) for m in event.thread.messages
    )
    # an unrated event: its games count for nobody's rating
    assert await event.service.leaderboard(world.guild.id, "lefe", pool="daily") == []
    sim.assert_no_bot_errors()


@pytest.fixture
def organisers(sim, world):
    """A role "Organisers" that alice has (made before the bot starts: GUILD_CREATE)."""
    role = SimRole(
        id=sim.state.snowflakes.next(), name="Organisers", permissions=MEMBER_PERMISSIONS
    )
    world.guild.roles.append(role)
    world.guild.member(world.alice).roles.append(role)
    return role


async def test_the_servers_tournament_role_may_manage_too(sim, world, organisers, bot):
    refused = await sim.slash(world.alice, "tournament create", game="lefe", format="swiss")
    assert refused.ephemeral
    offered = await sim.autocomplete(
        world.admin, "settings", option="value", value="orga", key="tournament_role"
    )
    assert [c["value"] for c in offered] == [f"<@&{organisers.id}>"]
    changed = await sim.slash(world.admin, "settings", key="tournament_role", value="@Organisers")
    assert f"<@&{organisers.id}>" in changed.text
    assert (await bot.client.service.get_settings(world.guild.id)).tournament_role == organisers.id
    # alice has the role: she announces and starts; bob has not: he may not
    event = await create(
        sim, world, bot, by=world.alice, game="lefe", format="swiss", rounds=1, size=5
    )
    await event.join([world.bob, world.carol])
    denied = await sim.slash(world.bob, "tournament start", tournament=event.id)
    assert denied.ephemeral and "manage server" in denied.text.lower()
    started = await sim.slash(world.alice, "tournament start", tournament=event.id)
    assert started.ephemeral and (await event.info()).status == "running"
    # "no role" in either language takes it back
    await sim.slash(world.admin, "settings", key="tournament_role", value="keine Rolle")
    assert (await bot.client.service.get_settings(world.guild.id)).tournament_role == 0
    sim.assert_no_bot_errors()


async def test_a_step_committed_but_not_shown_before_a_kill_is_shown_at_the_next_start(
    sim, world, bot, make_bot
):
    """A step commits before it is shown: a process that dies in between (here: the step
    is run through the service and never published, then a new client starts on the same
    database) leaves it to the next start, which sends the reminder, says the end's line
    and posts the final standings (once, however many starts follow)."""
    players = [world.alice, world.bob, world.carol]
    event = await create(
        sim, world, bot, game="lefe", format="swiss", rounds=1, size=5, start="1800"
    )
    await event.join(players)
    clock = event.service.clock
    clock.advance(20 * 60 + 1)
    (reminder,) = await event.service.tournaments.tick()  # committed, never shown
    assert reminder.kind == "reminder" and all(not sim.dms(p) for p in players)
    event.handle = await sim.restart_bot(make_bot)
    assert await event.handle.client.tournaments_resumed == 1
    await event.settle()
    for player in players:
        (dm,) = sim.dms(player)
        assert f"#{event.id}" in dm.text

    await event.tick(10 * 60)
    assert (await event.info()).status == "running"
    for match_id in (await event.running()).values():
        # the game ends in the service, unpublished (a published end steps at once)
        match = await event.service.get_match(match_id)
        await event.service.resign(match_id, match.seats[0].user_id)
    clock.advance(5)
    (finished,) = await event.service.tournaments.tick()  # the end, committed, never shown
    assert finished.kind == "finished"
    assert "final" not in (await event.info()).messages
    event.handle = await sim.restart_bot(make_bot)
    assert await event.handle.client.tournaments_resumed == 1
    await event.settle()
    info = await event.info()
    final = sim.state.messages[info.messages["final"]]
    assert final.channel is world.channel and "🥇" in final.text
    # the end's line was kept with its step and said by the start that showed it
    over = translate("en", "service.say.tournament_finished", id=event.id)
    assert sum(over in m.text for m in event.thread.messages) == 1
    # another start finds nothing behind
    event.handle = await sim.restart_bot(make_bot)
    assert await event.handle.client.tournaments_resumed == 0
    assert [m for m in world.channel.messages if is_standings(m)] == [final]
    assert sum(over in m.text for m in event.thread.messages) == 1
    assert all(len(sim.dms(p)) == 1 for p in players)
    sim.assert_no_bot_errors()


async def test_pictures_a_kill_kept_from_being_redrawn_are_redrawn_at_the_next_start(
    sim, world, bot, make_bot
):
    """The standings picture and the announcement are redrawn a few seconds after their
    step (coalesced), and the step is recorded as shown before that: a process that dies
    in between (here: the redraws held back, then a new client on the same database)
    leaves the thread without standings and the announcement saying "upcoming". The next
    start draws both as the event stands; another start finds nothing behind."""
    players = members(sim, world, 2)
    event = await create(sim, world, bot, game="lefe", format="round_robin", size=5, rated=False)
    await event.join(players)
    await event.settle()
    before = event.current_announcement().text
    event.posts.edits.gap = 10.0**9  # the redraws wait: the "kill" comes first
    await sim.slash(world.admin, "tournament start", tournament=event.id)
    info = await event.info()
    assert info.status == "running" and info.messages["shown"] == info.version
    assert "standings" not in info.messages
    assert not [m for m in event.thread.messages if is_standings(m)]
    assert event.current_announcement().text == before

    event.handle = await sim.restart_bot(make_bot)
    assert await event.handle.client.tournaments_resumed == 1
    await event.settle()
    info = await event.info()
    (standings,) = [m for m in event.thread.messages if is_standings(m)]
    assert info.messages["standings"] == standings.id
    seconds = (await event.service.get_settings(world.guild.id)).board_move_seconds
    assert event.current_announcement().text == announcement_message("en", info, seconds)["content"]
    assert event.current_announcement().text != before
    event.handle = await sim.restart_bot(make_bot)
    assert await event.handle.client.tournaments_resumed == 0
    sim.assert_no_bot_errors()


async def test_an_announcement_posted_but_not_recorded_before_a_kill_is_found_again(
    sim, world, bot, make_bot
):
    """A kill between ``/tournament create``'s answer (the announcement) and its record:
    the event is committed and its announcement is in the channel, with no record and no
    thread (here: the service creates the event and the bot's client posts the
    announcement, and nothing records it). The next start finds that announcement among the
    channel's newest messages by its buttons, records it and starts the event's thread
    from it, which the games then play in; another start finds nothing to do."""
    service = bot.client.service
    created = await service.tournaments.create(
        world.guild.id, world.channel.id, world.admin.id, True, "lefe", "round_robin", size=5
    )
    info = created.tournament
    seconds = (await service.get_settings(world.guild.id)).board_move_seconds
    place = bot.client.get_partial_messageable(world.channel.id, guild_id=world.guild.id)
    posted = await place.send(**announcement_message("en", info, seconds))

    handle = await sim.restart_bot(make_bot)
    assert await handle.client.tournaments_resumed == 1
    event = Event(sim, handle, world, sim.state.messages[posted.id])
    await event.settle()
    info = await event.info()
    assert info.messages["announcement"] == posted.id
    assert info.thread_id == event.thread.id
    assert f"<#{event.thread.id}>" in event.current_announcement().text
    assert announcements(world.channel, info.id) == [posted.id]
    # the event goes on as any other: its game plays in the thread
    await event.join([world.alice, world.bob])
    await sim.slash(world.admin, "tournament start", tournament=event.id)
    await event.settle()
    (match_id,) = (await event.running()).values()
    assert (await event.service.get_match(match_id)).thread_id == event.thread.id
    event.handle = await sim.restart_bot(make_bot)
    assert await event.handle.client.tournaments_resumed == 0
    sim.assert_no_bot_errors()


async def test_an_announcement_that_never_went_out_is_posted_at_the_next_start(
    sim, world, bot, make_bot
):
    """A kill between the create's commit and its answer: nothing in the channel. The next
    start posts the announcement (once), records it and opens its thread."""
    created = await bot.client.service.tournaments.create(
        world.guild.id, world.channel.id, world.admin.id, True, "lefe", "swiss", size=5
    )
    tid = created.tournament.id
    assert announcements(world.channel, tid) == []
    handle = await sim.restart_bot(make_bot)
    assert await handle.client.tournaments_resumed == 1
    await handle.client.tournament_posts.idle()
    info = await handle.client.service.tournaments.get(tid)
    assert announcements(world.channel, tid) == [info.messages["announcement"]]
    thread = sim.state.messages[info.messages["announcement"]].thread
    assert thread is not None and info.thread_id == thread.id
    handle = await sim.restart_bot(make_bot)
    assert await handle.client.tournaments_resumed == 0
    assert len(announcements(world.channel, tid)) == 1
    sim.assert_no_bot_errors()


def announcements(channel: Any, tournament_id: int) -> list[int]:
    """The channel's messages with the event's Join button."""
    join = f"lb|n|{tournament_id}|0|join"
    return [m.id for m in channel.messages if any(b.custom_id == join for b in m.buttons)]


async def test_a_finished_game_is_recorded_at_once_not_at_the_next_tick(sim, world, bot):
    """A game's end is a step of its tournament at once (no clock tick in this test): the
    result is in the standings, and the last game of a round starts the next."""
    players = members(sim, world, 4)
    users = {p.id: p for p in players}
    event = await create(sim, world, bot, game="lefe", format="round_robin", size=5, rated=False)
    await event.join(players)
    await sim.slash(world.admin, "tournament start", tournament=event.id)
    await event.settle()
    first, second = sorted((await event.running()).values())
    await event.play_by_interactions(first, users)  # /move twice, then /resign
    await event.settle()
    info = await event.info()
    assert sum(r.games for r in info.standings) == 2 and info.round == 1
    await event.stand_in(second)
    await event.settle()
    info = await event.info()
    assert info.round == 2 and len(await event.running()) == 2
    sim.assert_no_bot_errors()


async def test_a_start_in_the_instant_before_the_thread_is_recorded_opens_it_first(sim, world, bot):
    """``/tournament create`` answers with the announcement, then opens the event's
    thread: a start said in between (here: the announcement posted and recorded, the thread
    not yet) opens the thread first, and the games play in it, not in the channel."""
    service = bot.client.service
    created = await service.tournaments.create(
        world.guild.id, world.channel.id, world.admin.id, True, "lefe", "round_robin", size=5
    )
    info = created.tournament
    seconds = (await service.get_settings(world.guild.id)).board_move_seconds
    place = bot.client.get_partial_messageable(world.channel.id, guild_id=world.guild.id)
    posted = await place.send(**announcement_message("en", info, seconds))
    await service.tournaments.set_messages(info.id, {"announcement": posted.id})
    event = Event(sim, bot, world, sim.state.messages[posted.id])
    await event.join([world.alice, world.bob])
    await sim.slash(world.admin, "tournament start", tournament=event.id)
    await event.settle()
    (match_id,) = (await event.running()).values()
    thread = event.thread  # started from the announcement
    assert (await event.info()).thread_id == thread.id
    assert (await service.get_match(match_id)).thread_id == thread.id
    assert any(
        m.attachments and is_board_picture(m.attachments[0].filename) for m in thread.messages
    )
    assert not any(
        m.attachments and is_board_picture(m.attachments[0].filename)
        for m in world.channel.messages
    )
    sim.assert_no_bot_errors()
