"""The repository contract: the same tests, unchanged, against SQLite and PostgreSQL.

Every behaviour the service relies on is here: records come back equal, the version check
refuses a stale commit and stores nothing, challenges are taken once, ratings and vs-bot
totals add up, claims go to one owner and pass on when a lease runs out, DM failures are
shared, and the schema refuses to be run by an older release.
"""

from __future__ import annotations

import asyncio

import pytest

from matchcore.storage import (
    ActionRecord,
    ChallengeRecord,
    ChallengeTaken,
    DmFailure,
    MatchRecord,
    MemberPreferences,
    PlacementRecord,
    RatingConflict,
    RatingRecord,
    Repository,
    SchemaTooNew,
    SeatRecord,
    VersionConflict,
    VsBotResult,
    migration_files,
    open_repository,
)

GUILD, CHANNEL, THREAD = 1_000_000_000_000_000_001, 2_000_000_000_000_000_002, 3_000_000_000
ALICE, BOB = 900_000_000_000_000_011, 900_000_000_000_000_012


def draft(now: float = 1.5, **changes: object) -> MatchRecord:
    record = MatchRecord(
        id=0,
        guild_id=GUILD,
        channel_id=CHANNEL,
        game="lefe",
        status="running",
        created_at=now,
        updated_at=now,
        options={"size": 6, "options": {"b": 1, "a": 2}},
        state='{"x":1}',
        seats=(
            SeatRecord(0, ALICE, colour="dark"),
            SeatRecord(1, BOB, colour="light", is_bot=True, bot_level="hard"),
        ),
        messages={"board": 123_456_789_012_345_678},
    )
    return record.evolve(**changes)


def challenge(now: float = 10.0, **changes: object) -> ChallengeRecord:
    record = ChallengeRecord(
        id=0,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        target_id=BOB,
        game="dalen",
        status="open",
        created_at=now,
        expires_at=now + 900,
        size=6,
        options={"variant": "x"},
    )
    return record.evolve(**changes)


# ---- schema -------------------------------------------------------------------------
async def test_every_shipped_migration_is_applied(repo: Repository) -> None:
    assert await repo.applied_migrations() == [n for n, _, _ in migration_files(repo.dialect)]


def test_both_back_ends_ship_the_same_migration_history() -> None:
    sqlite = [(n, name) for n, name, _ in migration_files("sqlite")]
    postgres = [(n, name) for n, name, _ in migration_files("postgresql")]
    assert sqlite == postgres and len(sqlite) >= 3


async def test_reopening_applies_nothing_and_keeps_the_data(
    repo: Repository, repo_url: str
) -> None:
    stored = await repo.create_match(draft())
    again = await open_repository(repo_url)
    try:
        assert await again.applied_migrations() == await repo.applied_migrations()
        assert await again.get_match(stored.id) == stored
    finally:
        await again.close()


async def test_a_schema_newer_than_the_code_is_refused_with_a_clear_message(
    repo: Repository, repo_url: str
) -> None:
    newer = len(migration_files(repo.dialect)) + 1
    async with repo._transaction() as tx:  # a newer release migrated this database
        await tx.execute(
            "INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)",
            (newer, "from_the_future", 1.0),
        )
    with pytest.raises(SchemaTooNew) as refused:
        await open_repository(repo_url)
    text = str(refused.value)
    assert f"version {newer}" in text and "newer release" in text


# ---- matches ----------------------------------------------------------------------
async def test_a_match_comes_back_equal_with_seats_messages_and_big_ids(
    repo: Repository,
) -> None:
    stored = await repo.create_match(draft(thread_id=THREAD, result={"w": [1]}, warned=True))
    assert stored.id > 0
    assert await repo.get_match(stored.id) == stored
    assert await repo.get_match(stored.id + 1000) is None


async def test_a_commit_stores_row_seats_actions_and_ratings_together(repo: Repository) -> None:
    match = await repo.create_match(draft())
    seats = (SeatRecord(0, ALICE, colour="light"), SeatRecord(1, BOB, colour="dark", timeouts=2))
    finished = match.evolve(
        version=2, status="finished", seats=seats, result={"winners": [ALICE]}, finished_at=3.25
    )
    actions = [
        ActionRecord(match.id, 1, ALICE, 0, "e5", 2.0),
        ActionRecord(match.id, 2, None, 1, "!timeout", 3.0),
    ]
    rating = RatingRecord(GUILD, "lefe", ALICE, 30.5, 7.25, 3.0, games=1, wins=1, streak=1)
    await repo.commit_match(finished, 0, actions, [rating])
    assert await repo.get_match(match.id) == finished.evolve(messages=match.messages)
    assert await repo.actions(match.id) == actions
    assert await repo.get_ratings(GUILD, "lefe", [ALICE, BOB]) == {ALICE: rating}


async def test_seats_are_rewritten_only_when_they_changed(repo: Repository) -> None:
    match = await repo.create_match(draft())
    await repo.commit_match(match.evolve(version=1), 0, [], previous_seats=match.seats)
    assert (await repo.get_match(match.id)).seats == match.seats
    timed_out = (match.seats[0].evolve(timeouts=1), match.seats[1])
    await repo.commit_match(
        match.evolve(version=2, seats=timed_out), 1, [], previous_seats=match.seats
    )
    assert (await repo.get_match(match.id)).seats == timed_out


async def test_a_commit_at_a_stale_version_stores_nothing(repo: Repository) -> None:
    match = await repo.create_match(draft())
    action = ActionRecord(match.id, 1, ALICE, 0, "e5", 2.0)
    await repo.commit_match(match.evolve(version=1, state='{"x":2}'), 0, [action])
    rating = RatingRecord(GUILD, "lefe", ALICE, 30.0, 7.0, 2.0, games=1, wins=1)
    with pytest.raises(VersionConflict):
        await repo.commit_match(match.evolve(version=1, state='{"x":3}'), 0, [action], [rating])
    assert (await repo.get_match(match.id)).state == '{"x":2}'
    assert await repo.actions(match.id) == [action]
    assert await repo.get_ratings(GUILD, "lefe", [ALICE]) == {}


async def test_of_two_simultaneous_commits_at_one_version_exactly_one_lands(
    repo: Repository, repo_url: str
) -> None:
    match = await repo.create_match(draft())
    other = await open_repository(repo_url)  # a second process on the same database
    try:
        attempts = [
            store.commit_match(
                match.evolve(version=1, state=f'{{"by":{n}}}'),
                0,
                [ActionRecord(match.id, 1, ALICE, 0, f"move{n}", 2.0)],
            )
            for n, store in enumerate((repo, other, repo, other))
        ]
        results = await asyncio.gather(*attempts, return_exceptions=True)
    finally:
        await other.close()
    assert sum(r is None for r in results) == 1
    assert all(isinstance(r, VersionConflict) for r in results if r is not None)
    log = await repo.actions(match.id)
    assert (
        len(log) == 1 and (await repo.get_match(match.id)).state == f'{{"by":{log[0].action[-1]}}}'
    )


async def test_lookups_by_status_user_channel_and_guild(repo: Repository) -> None:
    first = await repo.create_match(draft(updated_at=5.0))
    second = await repo.create_match(draft(updated_at=6.0, thread_id=THREAD))
    other = await repo.create_match(
        draft(guild_id=GUILD + 1, seats=(SeatRecord(0, BOB), SeatRecord(1, 77)), status="lobby")
    )
    done = await repo.create_match(draft(status="finished"))
    active = ("lobby", "running")
    assert [m.id for m in await repo.matches_with_status(active)] == [first.id, second.id, other.id]
    assert [m.id for m in await repo.matches_of_user(ALICE, active)] == [second.id, first.id]
    assert [m.id for m in await repo.matches_of_user(BOB, active, GUILD + 1)] == [other.id]
    assert [m.id for m in await repo.matches_in_channel(GUILD, THREAD, active)] == [second.id]
    assert [m.id for m in await repo.matches_in_channel(GUILD, CHANNEL, active, 77)] == []
    assert [m.id for m in await repo.matches_in_guild(GUILD, active, limit=1)] == [second.id]
    assert [m.id for m in await repo.matches_with_status(["finished"])] == [done.id]


async def test_a_servers_newest_matches_mix_the_statuses_in_time_order(repo: Repository) -> None:
    # /games reads each status's newest apart and merges them: the merge must give the
    # same list as one query over both statuses would
    times = {"lobby": [3.0, 9.0, 7.0], "running": [8.0, 1.0, 9.0, 5.0], "finished": [10.0, 11.0]}
    ids: dict[int, float] = {}
    statuses: dict[int, str] = {}
    for status, stamps in times.items():
        for stamp in stamps:
            match = await repo.create_match(draft(status=status, updated_at=stamp))
            statuses[match.id] = status
            if status != "finished":
                ids[match.id] = stamp
    await repo.create_match(draft(guild_id=GUILD + 1, status="running", updated_at=20.0))
    newest = sorted(ids, key=lambda i: (ids[i], i), reverse=True)
    active = ("lobby", "running")
    for limit in (1, 2, 4, 7, 50):
        found = await repo.matches_in_guild(GUILD, active, limit=limit)
        assert [m.id for m in found] == newest[:limit]
    assert [m.id for m in await repo.matches_in_guild(GUILD, active)] == newest
    running = [i for i in newest if statuses[i] == "running"][:2]
    twice = await repo.matches_in_guild(GUILD, ("running", "running"), 2)
    assert [m.id for m in twice] == running  # a status named twice is read once
    assert await repo.matches_in_guild(GUILD, (), 5) == []


async def test_messages_and_threads_are_kept(repo: Repository) -> None:
    match = await repo.create_match(draft(messages={}))
    await repo.set_message(match.id, "board", 555)
    await repo.set_message(match.id, "board", 556)
    await repo.set_message(match.id, f"hand:{ALICE}", 557)
    await repo.set_thread(match.id, THREAD)
    stored = await repo.get_match(match.id)
    assert stored.messages == {"board": 556, f"hand:{ALICE}": 557}
    assert stored.thread_id == THREAD
    # a match that does not exist: nothing written, and the caller is told
    assert await repo.set_message(match.id + 1, "board", 558) is False
    assert await repo.set_thread(match.id + 1, THREAD) is False
    assert await repo.get_match(match.id + 1) is None
    assert await repo.set_message(match.id, "board", 559) is True
    assert (await repo.get_match(match.id)).messages["board"] == 559


async def test_several_messages_are_written_in_one_call(repo: Repository) -> None:
    match = await repo.create_match(draft(messages={}))
    await repo.set_message(match.id, "board", 555)
    big = 2**62  # message ids are snowflakes: 64-bit on both backends
    assert await repo.set_messages(match.id, {"board": big, "delivered:channel": 7}) is True
    assert await repo.set_messages(match.id, {"delivered:channel": 8, f"hand:{ALICE}": 9})
    assert (await repo.get_match(match.id)).messages == {
        "board": big,
        "delivered:channel": 8,
        f"hand:{ALICE}": 9,
    }
    # no such match: nothing written
    assert await repo.set_messages(match.id + 1, {"board": 1, "delivered": 2}) is False
    assert await repo.get_match(match.id + 1) is None


async def test_a_delivery_record_never_goes_back(repo: Repository) -> None:
    """Delivery records hold match versions: a late write of an older one keeps the newer
    (two steps' deliveries can finish out of order); message ids are replaced as written."""
    match = await repo.create_match(draft(messages={}))
    newer = {"delivered": 6, "delivered:channel": 7, f"delivered:{ALICE}": 8, "board": 900}
    assert await repo.set_messages(match.id, newer)
    older = {"delivered": 5, "delivered:channel": 5, f"delivered:{ALICE}": 5, "board": 800}
    assert await repo.set_messages(match.id, older)
    assert (await repo.get_match(match.id)).messages == {**newer, "board": 800}
    assert await repo.set_messages(match.id, {"delivered": 9, "delivered:channel": 9})
    messages = (await repo.get_match(match.id)).messages
    assert messages["delivered"] == 9 and messages["delivered:channel"] == 9


async def test_a_tables_event_lines_are_kept_with_their_message(repo: Repository) -> None:
    match = await repo.create_match(draft(messages={}))
    assert await repo.table_lines(match.id) is None
    await repo.set_table_lines(match.id, 2**62, ["**Ann** draws.", "Ärger: **Bo** „ruft“ Leiff!"])
    assert await repo.table_lines(match.id) == (
        2**62,
        ["**Ann** draws.", "Ärger: **Bo** „ruft“ Leiff!"],
    )
    await repo.set_table_lines(match.id, 5, [])
    assert await repo.table_lines(match.id) == (5, [])
    # no such match: nothing kept
    await repo.set_table_lines(match.id + 1, 6, ["x"])
    assert await repo.table_lines(match.id + 1) is None


# ---- clocks and claims -----------------------------------------------------------------
async def test_due_matches_are_the_passed_deadlines_and_unsent_warnings(repo: Repository) -> None:
    late = await repo.create_match(draft(deadline_at=100.0, warn_at=90.0))
    warn = await repo.create_match(draft(deadline_at=200.0, warn_at=95.0))
    warned = await repo.create_match(draft(deadline_at=200.0, warn_at=95.0, warned=True))
    await repo.create_match(draft(deadline_at=300.0, warn_at=250.0))
    due = await repo.claim_due_matches(150.0, "a", 1000.0, 1030.0)
    assert [m.id for m in due] == [late.id, warn.id]
    assert warned.id not in [m.id for m in due]


async def test_a_warning_is_marked_once(repo: Repository) -> None:
    match = await repo.create_match(draft(deadline_at=200.0, warn_at=95.0))
    assert await repo.mark_warned(match.id, 0)
    assert not await repo.mark_warned(match.id, 0)  # a second process finds it sent
    assert not await repo.mark_warned(match.id, 5)


async def test_due_matches_are_claimed_by_one_owner_until_the_lease_ends(
    repo: Repository,
) -> None:
    late = await repo.create_match(draft(deadline_at=100.0))
    claimed = await repo.claim_due_matches(150.0, "process-a", 1000.0, 1030.0)
    assert [m.id for m in claimed] == [late.id]
    assert await repo.claim_due_matches(150.0, "process-b", 1010.0, 1040.0) == []
    # Once the lease has run out (process-a died), another process takes the work over.
    assert [m.id for m in await repo.claim_due_matches(150.0, "process-b", 1031.0, 1070.0)] == [
        late.id
    ]
    await repo.release_match(late.id, "process-a")  # not the owner any more: no effect
    assert await repo.claim_due_matches(150.0, "process-a", 1043.0, 1070.0) == []
    await repo.release_match(late.id, "process-b")
    assert [m.id for m in await repo.claim_due_matches(150.0, "process-a", 1044.0, 1070.0)] == [
        late.id
    ]


async def test_simultaneous_claims_from_two_processes_split_the_work(
    repo: Repository, repo_url: str
) -> None:
    ids = {(await repo.create_match(draft(deadline_at=100.0 + n))).id for n in range(12)}
    other = await open_repository(repo_url)
    try:
        rounds = await asyncio.gather(
            *(
                store.claim_due_matches(150.0, owner, 1000.0, 1030.0, limit=4)
                for store, owner in [(repo, "a"), (other, "b")] * 3
            )
        )
    finally:
        await other.close()
    claimed = [m.id for found in rounds for m in found]
    assert sorted(claimed) == sorted(ids)  # every match claimed, none twice
    assert len(set(claimed)) == len(claimed)


async def test_matches_with_a_bot_to_act_are_claimed_once(repo: Repository) -> None:
    due = await repo.create_match(draft(bot_due=True, updated_at=3.0))
    await repo.create_match(draft(bot_due=False))
    await repo.create_match(draft(bot_due=True, status="finished"))
    stored = await repo.get_match(due.id)
    assert stored is not None and stored.bot_due
    assert [m.id for m in await repo.claim_bot_matches("a", 10.0, 40.0)] == [due.id]
    assert await repo.claim_bot_matches("b", 20.0, 50.0) == []
    await repo.commit_match(due.evolve(version=1, bot_due=False), 0, [])
    await repo.release_match(due.id, "a")
    assert await repo.claim_bot_matches("b", 21.0, 50.0) == []


async def test_one_match_claim_goes_to_one_owner(repo: Repository) -> None:
    match = await repo.create_match(draft())
    assert await repo.claim_match(match.id, "a", 10.0, 40.0)
    assert not await repo.claim_match(match.id, "b", 20.0, 50.0)
    assert await repo.claim_match(match.id, "a", 20.0, 50.0)  # renewed
    assert await repo.claim_match(match.id, "b", 51.0, 80.0)  # "a" died: the lease ran out
    await repo.release_match(match.id, "b")
    assert await repo.claim_match(match.id, "a", 52.0, 80.0)


# ---- challenges ------------------------------------------------------------------------
async def test_a_challenge_comes_back_equal_and_is_taken_once(repo: Repository) -> None:
    stored = await repo.create_challenge(challenge())
    assert await repo.get_challenge(stored.id) == stored
    assert await repo.open_challenges(GUILD) == [stored]
    assert await repo.last_challenge_at(GUILD, ALICE) == 10.0
    await repo.set_challenge_message(stored.id, 42_000_000_000_000_000)
    match = await repo.accept_challenge(stored.id, draft())
    with pytest.raises(ChallengeTaken):
        await repo.accept_challenge(stored.id, draft())
    with pytest.raises(ChallengeTaken):
        await repo.close_challenge(stored.id, "expired")
    taken = await repo.get_challenge(stored.id)
    assert taken.status == "accepted" and taken.match_id == match.id
    assert taken.message_id == 42_000_000_000_000_000
    assert await repo.open_challenges() == []


async def test_open_challenges_by_server_and_by_expiry(repo: Repository) -> None:
    early = await repo.create_challenge(challenge(now=10.0))
    late = await repo.create_challenge(challenge(now=500.0, guild_id=GUILD + 1))
    assert await repo.open_challenges() == [early, late]
    assert await repo.open_challenges(GUILD + 1) == [late]
    assert await repo.open_challenges(expired_by=910.0) == [early]
    assert await repo.open_challenges(GUILD + 1, expired_by=910.0) == []


async def test_closing_a_challenge_returns_it_closed(repo: Repository) -> None:
    stored = await repo.create_challenge(challenge(target_id=None))
    closed = await repo.close_challenge(stored.id, "expired")
    assert closed == stored.evolve(status="expired")


# ---- ratings, vs-bot records, settings, DMs ------------------------------------------------
async def test_leaderboard_orders_by_mu_then_games_then_user(repo: Repository) -> None:
    match = await repo.create_match(draft())
    ratings = [
        RatingRecord(GUILD, "lefe", 3, 30.0, 5.0, 1.0, games=2),
        RatingRecord(GUILD, "lefe", 2, 30.0, 5.0, 1.0, games=2),
        RatingRecord(GUILD, "lefe", 1, 30.0, 5.0, 1.0, games=3),
        RatingRecord(GUILD, "lefe", 4, 40.0, 5.0, 1.0, games=0),
        RatingRecord(GUILD, "lefe", 5, 31.0, 9.0, 1.0, games=1),
        RatingRecord(GUILD, "lefe", 6, 29.0, 1.0, 1.0, games=9),
    ]
    await repo.commit_match(match.evolve(version=1), 0, [], ratings)
    board = await repo.leaderboard(GUILD, "lefe", 10)
    # by mu (what the rating shown is made from), however unsure; never a player without games
    assert [r.user_id for r in board] == [5, 1, 2, 3, 6]
    assert [r.game for r in await repo.player_ratings(GUILD, 1)] == ["lefe"]


async def test_a_rating_computed_from_an_outdated_one_is_refused_with_the_whole_commit(
    repo: Repository,
) -> None:
    match = await repo.create_match(draft())
    first = RatingRecord(GUILD, "lefe", ALICE, 27.0, 8.0, 2.0, games=1, wins=1)
    await repo.commit_match(match.evolve(version=1), 0, [], [first])
    # Another match of Alice's ended meanwhile: this result was computed from no rating.
    stale = RatingRecord(GUILD, "lefe", ALICE, 26.0, 8.0, 3.0, games=1, losses=1)
    action = ActionRecord(match.id, 2, ALICE, 0, "e5", 3.0)
    with pytest.raises(RatingConflict):
        await repo.commit_match(match.evolve(version=2), 1, [action], [stale])
    assert (await repo.get_match(match.id)).version == 1
    assert await repo.actions(match.id) == []
    assert await repo.get_ratings(GUILD, "lefe", [ALICE]) == {ALICE: first}
    fresh = first.evolve(mu=26.5, games=2, losses=1, updated_at=3.0)
    await repo.commit_match(match.evolve(version=2), 1, [action], [fresh])
    assert await repo.get_ratings(GUILD, "lefe", [ALICE]) == {ALICE: fresh}


async def test_vs_bot_results_add_up(repo: Repository) -> None:
    match = await repo.create_match(draft())
    results = [
        VsBotResult(GUILD, "lefe", "hard", ALICE, outcome, 2.0) for outcome in ["win", "loss"]
    ]
    await repo.commit_match(match.evolve(version=1), 0, [], bot_results=results[:1])
    await repo.commit_match(match.evolve(version=2), 1, [], bot_results=results[1:])
    [record] = await repo.vs_bot_stats(GUILD, ALICE)
    assert (record.games, record.wins, record.losses, record.draws) == (2, 1, 1, 0)


async def test_settings_are_replaced_whole(repo: Repository) -> None:
    assert await repo.get_settings(GUILD) is None
    await repo.put_settings(GUILD, {"a": 1, "b": [2]}, 5.0, ALICE)
    await repo.put_settings(GUILD, {"c": True}, 6.0, None)
    assert await repo.get_settings(GUILD) == {"c": True}


async def test_dm_failures_are_shared_and_forgotten_on_success(
    repo: Repository, repo_url: str
) -> None:
    await repo.record_dm_failure(ALICE, 5.0, 50007)
    other = await open_repository(repo_url)  # another process
    try:
        assert await other.dm_failures([ALICE, BOB]) == {ALICE: DmFailure(ALICE, 5.0, 50007)}
        assert await other.claim_dm_notice(ALICE, 7)
        assert not await repo.claim_dm_notice(ALICE, 7)  # each table is told once
        assert await repo.claim_dm_notice(ALICE, 8)
        [failure] = (await repo.dm_failures([ALICE])).values()
        assert failure.noticed == {7, 8}
        await repo.record_dm_failure(ALICE, 9.0, 50007)  # refused again: the tables stay told
        assert (await repo.dm_failures([ALICE]))[ALICE] == DmFailure(
            ALICE, 9.0, 50007, frozenset({7, 8})
        )
        await other.clear_dm_failure(ALICE)
    finally:
        await other.close()
    assert await repo.dm_failures([ALICE]) == {}
    assert await repo.dm_failures([]) == {}
    assert await repo.claim_dm_notice(ALICE, 7)  # a new refusal later: told again


async def test_member_languages_are_shared_and_the_last_one_seen_wins(
    repo: Repository, repo_url: str
) -> None:
    assert await repo.member_languages([ALICE, BOB]) == {}
    assert await repo.member_languages([]) == {}
    await repo.set_member_language(ALICE, "de", 5.0)
    other = await open_repository(repo_url)  # another process
    try:
        assert await other.member_languages([ALICE, BOB]) == {ALICE: "de"}
        await other.set_member_language(ALICE, "en", 6.0)
        await other.set_member_language(BOB, "de", 6.0)
    finally:
        await other.close()
    assert await repo.member_languages([ALICE, BOB]) == {ALICE: "en", BOB: "de"}


async def test_a_member_s_preferences_are_kept_and_replaced_whole(
    repo: Repository, repo_url: str
) -> None:
    assert await repo.get_preferences(ALICE) is None
    await repo.put_preferences(MemberPreferences(ALICE, hints=False, theme="night", updated_at=3.0))
    other = await open_repository(repo_url)  # another process sees them
    try:
        assert await other.get_preferences(ALICE) == MemberPreferences(ALICE, False, "night", 3.0)
        await other.put_preferences(MemberPreferences(ALICE, hints=True, updated_at=4.0))
    finally:
        await other.close()
    assert await repo.get_preferences(ALICE) == MemberPreferences(ALICE, True, None, 4.0)
    await repo.put_preferences(MemberPreferences(ALICE, updated_at=5.0))  # back to defaults
    assert await repo.get_preferences(ALICE) == MemberPreferences(ALICE, None, None, 5.0)
    assert await repo.get_preferences(BOB) is None


async def test_finished_games_are_counted_per_member_and_game(repo: Repository) -> None:
    await repo.create_match(draft(status="finished"))
    await repo.create_match(draft(status="finished", guild_id=GUILD + 1))  # another server
    await repo.create_match(draft(status="running"))
    await repo.create_match(draft(status="finished", game="dalen"))
    await repo.create_match(draft(status="finished", seats=(SeatRecord(0, BOB),)))
    assert await repo.finished_games(ALICE, "lefe") == 2
    assert await repo.finished_games(ALICE, "dalen") == 1
    assert await repo.finished_games(BOB, "lefe") == 3
    assert await repo.finished_games(ALICE, "les") == 0
    # with the member's hints choice, in one read
    assert await repo.hints_facts(ALICE, "lefe") == (None, 2)
    await repo.put_preferences(MemberPreferences(ALICE, hints=False, theme=None, updated_at=1.0))
    assert await repo.hints_facts(ALICE, "lefe") == (False, 2)
    assert await repo.hints_facts(ALICE, "les") == (False, 0)
    await repo.put_preferences(MemberPreferences(ALICE, hints=True, theme=None, updated_at=2.0))
    assert await repo.hints_facts(ALICE, "dalen") == (True, 1)


async def test_a_members_finished_matches_are_paged_newest_finished_first(
    repo: Repository,
) -> None:
    made = []
    for number, game in enumerate(("lefe", "dalen", "lefe", "les", "lefe")):
        # finished in the reverse order of their creation but one: the order is the end's
        match = draft(status="finished", game=game, finished_at=100.0 - number)
        made.append((await repo.create_match(match)).id)
    await repo.create_match(draft(status="running"))
    await repo.create_match(draft(status="aborted", finished_at=500.0))
    await repo.create_match(draft(status="finished", guild_id=GUILD + 1, finished_at=600.0))
    assert await repo.count_finished(GUILD, ALICE, None) == 5
    assert await repo.count_finished(GUILD, ALICE, "lefe") == 3
    # Bob holds a bot's seat in these drafts: a bot's seat is nobody's history
    assert await repo.count_finished(GUILD, BOB, None) == 0
    first = await repo.finished_matches(GUILD, ALICE, None, 0, 2)
    rest = await repo.finished_matches(GUILD, ALICE, None, 2, 10)
    assert [m.id for m in first + rest] == made
    assert [m.id for m in await repo.finished_matches(GUILD, ALICE, "lefe", 1, 5)] == [
        made[2],
        made[4],
    ]
    assert first[0].seats == draft().seats  # with their seats


async def test_placements_are_counted_by_place_and_the_last_one_is_kept(repo: Repository) -> None:
    def placed(match_id: int, user: int, place: int, field: int, at: float) -> PlacementRecord:
        return PlacementRecord(match_id, GUILD, "leiff", user, place, field, at)

    first, second, third = [await repo.create_match(draft(game="leiff")) for _ in range(3)]
    await repo.commit_match(
        first.evolve(version=1), 0, [], placements=[placed(first.id, ALICE, 2, 4, 10.0)]
    )
    await repo.commit_match(
        second.evolve(version=1),
        0,
        [],
        placements=[placed(second.id, ALICE, 1, 3, 30.0), placed(second.id, BOB, 3, 3, 30.0)],
    )
    await repo.commit_match(
        third.evolve(version=1), 0, [], placements=[placed(third.id, ALICE, 2, 6, 20.0)]
    )
    counts = await repo.place_counts(GUILD, [ALICE, BOB])
    assert counts == {(ALICE, "leiff"): {1: 1, 2: 2}, (BOB, "leiff"): {3: 1}}
    assert list(counts[(ALICE, "leiff")]) == [1, 2]  # best place first
    assert await repo.place_counts(GUILD, [ALICE], "lefe") == {}
    assert await repo.place_counts(GUILD + 1, [ALICE]) == {}
    last = await repo.last_placements(GUILD, ALICE)
    assert last == {"leiff": placed(second.id, ALICE, 1, 3, 30.0)}
    assert await repo.last_placements(GUILD, 1234) == {}


# ---- what a start sends again ---------------------------------------------------------
async def test_a_start_finds_the_matches_whose_last_step_may_not_have_gone_out(
    repo: Repository,
) -> None:
    """By the outbox: a match is found while one of its rows for the chat front end (the
    channel, a player) is ahead of its delivery records, whatever its status (a finished
    match's last step too); a page at a time."""
    never = await repo.create_match(draft(messages={}, version=3))
    sent = await repo.create_match(draft(messages={}, version=3))
    behind = await repo.create_match(draft(messages={}, version=3))
    lobby = await repo.create_match(draft(messages={}, status="lobby", state=None))
    done = await repo.create_match(draft(messages={}, status="finished"))
    await repo.set_messages(sent.id, {"delivered": 3})
    # the channel's record alone is not the whole step's
    await repo.set_messages(behind.id, {"delivered": 2, "delivered:channel": 3})
    found = await repo.undelivered_matches()
    assert [m.id for m in found] == [never.id, lobby.id, done.id]
    assert [m.id for m in await repo.undelivered_matches(never.id, 1)] == [lobby.id]
    assert [m.id for m in await repo.undelivered_matches(done.id)] == []
    # a step committed after the record puts a match back among them, until recorded
    moved = (await repo.get_match(sent.id)).evolve(version=4)
    await repo.commit_match(
        moved, 3, [ActionRecord(sent.id, 4, ALICE, 0, "c3", 2.0)], outbox=["channel", str(BOB)]
    )
    assert sent.id in [m.id for m in await repo.undelivered_matches()]
    await repo.set_messages(sent.id, {"delivered:channel": 4})
    assert sent.id in [m.id for m in await repo.undelivered_matches()], "Bob's view is behind"
    await repo.set_messages(sent.id, {f"delivered:{BOB}": 4})
    assert sent.id not in [m.id for m in await repo.undelivered_matches()]
    # a finished match's last step is found like any other, until recorded
    await repo.set_messages(done.id, {"delivered": done.version})
    assert done.id not in [m.id for m in await repo.undelivered_matches()]
    # a new match may be stored with its record: nothing to send
    recorded = await repo.create_match(draft(messages={"delivered": 0, "board": 5}, version=0))
    assert (await repo.get_match(recorded.id)).messages == {"delivered": 0, "board": 5}
    assert recorded.id not in [m.id for m in await repo.undelivered_matches()]


async def test_another_front_end_drains_its_own_audience(repo: Repository) -> None:
    """A web sender's rows ("web:...") are its own: the chat front end's records do not
    mark them, and its own records do not mark the chat's."""
    match = await repo.create_match(draft(messages={}, version=3), outbox=["web:table"])
    assert await repo.pending_deliveries("web") == [(match.id, "web:table", 3)]
    assert match.id not in [m.id for m in await repo.undelivered_matches()]
    moved = (await repo.get_match(match.id)).evolve(version=4)
    await repo.commit_match(
        moved, 3, [ActionRecord(match.id, 4, ALICE, 0, "c3", 2.0)], outbox=["channel", "web:table"]
    )
    await repo.set_messages(match.id, {"delivered": 4})  # the chat's whole step
    assert await repo.pending_deliveries("web") == [(match.id, "web:table", 4)]
    await repo.set_messages(match.id, {"delivered:web:table": 4})
    assert await repo.pending_deliveries("web") == []
    assert await repo.pending_deliveries("web", after=match.id) == []


async def test_a_failed_commit_writes_no_outbox_row(repo: Repository) -> None:
    """The rows are part of the step's transaction: a refused step leaves none."""
    match = await repo.create_match(draft(messages={"delivered": 3}, version=3))
    stale = (await repo.get_match(match.id)).evolve(version=5)
    with pytest.raises(VersionConflict):
        await repo.commit_match(
            stale, 4, [ActionRecord(match.id, 5, ALICE, 0, "c3", 2.0)], outbox=["channel"]
        )
    assert match.id not in [m.id for m in await repo.undelivered_matches()]


async def test_the_search_for_what_to_send_again_reads_the_outbox_not_the_matches(
    repo: Repository,
) -> None:
    """A start reads the outbox (the recent steps housekeeping has not swept) and each
    match it names by its key: never a scan of every match."""
    from matchcore.storage.sql import UNDELIVERED_PAGE, match_query

    for _ in range(3):
        await repo.create_match(draft(messages={}))
    sql = "EXPLAIN " + ("QUERY PLAN " if repo.dialect == "sqlite" else "")  # type: ignore[attr-defined]
    sql += match_query(UNDELIVERED_PAGE)
    async with repo._transaction() as tx:  # type: ignore[attr-defined]
        if repo.dialect == "postgresql":  # type: ignore[attr-defined]
            await tx.execute("SET LOCAL enable_seqscan = off")
        plan = " ".join(str(tuple(row)) for row in await tx.fetch(sql, (0, 100)))
    assert "outbox" in plan, plan
    assert "SCAN matches" not in plan and "Seq Scan on matches" not in plan, plan


async def test_the_clock_finds_due_matches_and_bot_turns_through_their_indexes(
    repo: Repository,
) -> None:
    """Every tick of every process asks for due matches and bot turns left over: both
    searches start from their partial indexes (deadline, warning, bot_due), never from
    every running match (which SQLite, offered the status, would read instead)."""
    from matchcore.storage.sql import _BOT_DUE, _DUE

    # many running matches, a few of them due or waiting for a bot (PostgreSQL plans with
    # the table's statistics, SQLite without any)
    await asyncio.gather(
        *(
            repo.create_match(
                draft(messages={}, deadline_at=50.0 + n, warn_at=40.0 + n, bot_due=n < 2)
            )
            for n in range(100)
        )
    )
    if repo.dialect == "postgresql":  # type: ignore[attr-defined]
        await repo._fetch("ANALYZE matches")  # type: ignore[attr-defined]
    queries = {
        "due": (f"SELECT id FROM matches WHERE {_DUE}", (10.0, 10.0, False)),
        "bot": (f"SELECT id FROM matches WHERE {_BOT_DUE}", ()),
    }
    indexes = {"due": ("matches_by_deadline", "matches_by_warning"), "bot": ("matches_bot_due",)}
    for name, (sql, params) in queries.items():
        explain = "EXPLAIN QUERY PLAN " if repo.dialect == "sqlite" else "EXPLAIN "  # type: ignore[attr-defined]
        async with repo._transaction() as tx:  # type: ignore[attr-defined]
            if repo.dialect == "postgresql":  # type: ignore[attr-defined]
                await tx.execute("SET LOCAL enable_seqscan = off")
            plan = " ".join(str(tuple(row)) for row in await tx.fetch(explain + sql, params))
        for index in indexes[name]:
            assert index in plan, (name, plan)
        # the status index serves only to check a candidate's status by its id, if at all
        assert "matches_by_status (status=?)" not in plan, (name, plan)
