"""AI opponents through the service: board games against the bot, Leiff bot seats, the
vs-bot record, recovery by tick after a restart, and bot seats seeing only their views.

Board-game moves come from the real worker-process pool (``matchcore/ai_pool.py``) at level
easy; every test runs on a real SQLite file.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.common.choices import service_choices
from engine import BOARD_GAMES, get_game
from engine.ai import leiff_bot
from engine.leiff import parse_action
from matchcore import strength
from matchcore.ai_pool import AIPool
from matchcore.service import (
    Forbidden,
    InvalidOptions,
    LobbyError,
    MatchService,
    Update,
)
from matchcore.service.texts import RESULT, english
from matchcore.storage import open_repository
from tests.service.helpers import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    ManualClock,
    bot_replies,
    gather_bot_answers,
)
from wording.service_words import said_words

BOT = 999_000_111
LEIFF_SEED = 7


@pytest.fixture(scope="module")
def pool() -> Iterator[AIPool]:
    """One worker process for the whole module (starting one costs about a second)."""
    shared = AIPool(1)
    yield shared
    asyncio.run(shared.shutdown())


async def _open(path: Path, clock: ManualClock, pool: AIPool) -> MatchService:
    repo = await open_repository(path)
    service = MatchService(
        repo,
        choices=service_choices(),
        clock=clock,
        seed_source=lambda: LEIFF_SEED,
        ai_move=pool.choose_move,
    )
    gather_bot_answers(service)  # the bot's turns the core plays after each commit
    await service.start(bot_user_id=BOT)
    return service


@pytest.fixture
async def bot_service(db_path: Path, clock: ManualClock, pool: AIPool) -> Any:
    service = await _open(db_path, clock, pool)
    yield service
    await service.close()
    await service.repo.close()


async def _stored_match(path: Path, match_id: int) -> Any:
    """The stored match row as another process reads it."""
    repo = await open_repository(path)
    try:
        return await repo.get_match(match_id)
    finally:
        await repo.close()


async def _board_state(service: MatchService, match_id: int) -> Any:
    record = await service.repo.get_match(match_id)
    return get_game(record.game).from_json(record.state)


def _check_bot_update(update: Update) -> None:
    """What every bot move must look like: a move through the normal path, no ping of the bot."""
    assert update.kind in ("move", "match_over")
    assert update.events[0].kind == "move"
    assert BOT not in update.mentions
    assert update.pictures and update.pictures[0].kind == "board"


# ------------------------------------------------------------------------ board games
@pytest.mark.parametrize("game", BOARD_GAMES)
async def test_a_game_against_the_bot_is_played_to_the_end_and_counts_only_vs_bot(
    bot_service: MatchService, game: str
) -> None:
    smallest = min(get_game(game).sizes)
    started = await bot_service.challenge_bot(GUILD, CHANNEL, ALICE, game, "easy", size=smallest)
    match = started.match
    assert started.kind == "match_started" and started.challenge_id is not None
    assert match.vs_bot and not match.rated and match.bot_level == "easy"
    assert [(s.user_id, s.is_bot) for s in match.seats] == [(ALICE, False), (BOT, True)]
    assert match.to_act == (ALICE,) and not match.bot_to_act
    rng = random.Random(game)
    bot_moves = 0
    for _ in range(400):
        info = await bot_service.get_match(match.id)
        if info.status != "running":
            break
        assert info.to_act == (ALICE,) and not info.bot_to_act, "the bot has played its turn"
        state = await _board_state(bot_service, match.id)
        moved = await bot_service.play(match.id, ALICE, rng.choice(state.legal_moves()))
        if moved.kind == "match_over":
            break
        # The bot has no clock; the human may owe several moves in a row (Les set-up).
        assert (moved.match.deadline_at is None) == moved.match.bot_to_act
        # the core played the bot's answer after the commit: nobody asked it to
        replies = await bot_replies(bot_service, match.id)
        assert bool(replies) == moved.match.bot_to_act
        for reply in replies:
            _check_bot_update(reply)
        bot_moves += len(replies)
    final = await bot_service.get_match(match.id)
    assert final.status == "finished" and bot_moves > 0
    log = await bot_service.action_log(match.id)
    assert sum(1 for row in log if row.user_id == BOT) == bot_moves
    result = final.result
    expected = "draw" if result["draw"] else ("win" if ALICE in result["winners"] else "loss")
    record = await bot_service.vs_bot_stats(GUILD, ALICE)
    assert [(r.game, r.level, r.games) for r in record] == [(game, "easy", 1)]
    assert (record[0].wins, record[0].losses, record[0].draws) == (
        expected == "win",
        expected == "loss",
        expected == "draw",
    )
    assert await bot_service.leaderboard(GUILD, game) == []
    stats = await bot_service.stats(GUILD, ALICE)
    assert [(s.game, s.games, s.vs_bot) for s in stats] == [(game, 0, tuple(record))]


async def test_challenging_the_bot_by_its_user_id_starts_at_once_and_rematches_at_the_level(
    bot_service: MatchService,
) -> None:
    started = await bot_service.challenge(GUILD, CHANNEL, ALICE, "dalen", BOT, size=5, level="easy")
    assert started.kind == "match_started" and started.match.bot_level == "easy"
    await bot_service.resign(started.match_id, ALICE)
    again = await bot_service.rematch(started.match_id, ALICE)
    assert again.kind == "match_started" and again.match.bot_level == "easy"
    assert again.match.options["size"] == 5 and again.match.seats[0].user_id == ALICE
    record = await bot_service.vs_bot_stats(GUILD, ALICE, "dalen")
    assert [(r.level, r.games, r.losses) for r in record] == [("easy", 1, 1)]


async def test_the_lines_of_a_game_against_the_bot_name_its_level_in_both_languages(
    bot_service: MatchService,
) -> None:
    started = await bot_service.challenge(
        GUILD, CHANNEL, ALICE, "lefe", BOT, size=5, level="master"
    )
    opening = next(e for e in started.said if e.kind == "match_started_level")
    assert "(level master)" in english(opening.kind, opening.data)
    assert "(Stufe Meister)" in said_words("de", opening.kind, opening.data)
    over = await bot_service.resign(started.match_id, ALICE)
    (line,) = [e for e in over.said if e.kind == RESULT]
    assert english(line.kind, line.data).endswith(". The bot played at level master.")
    assert said_words("de", line.kind, line.data).endswith(
        ". Der Bot spielte auf der Stufe Meister."
    )
    # the level stays with the stored match, for the statistics (and a profile) to show
    stored = await bot_service.get_match(started.match_id)
    assert stored.bot_level == "master" and stored.status == "finished"
    record = await bot_service.vs_bot_stats(GUILD, ALICE, "lefe")
    assert [(r.level, r.games, r.losses) for r in record] == [("master", 1, 1)]


async def test_a_level_the_ladder_measured_says_its_strength_when_the_game_starts(
    bot_service: MatchService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    measured = tmp_path / "ai-strength.json"
    measured.write_text(
        '{"lefe": {"hard": {"elo": 1530, "low": 1470, "high": 1590, "games": 400}}}',
        encoding="utf-8",
    )
    monkeypatch.setattr(strength, "STRENGTH_PATH", measured)
    started = await bot_service.challenge(GUILD, CHANNEL, ALICE, "lefe", BOT, size=5, level="hard")
    opening = next(e for e in started.said if e.kind == "match_started_level")
    assert (
        "Measured strength of this level in this game: about 1530 Elo (1470 to 1590, from 400"
        " games, on a scale where the bot's first hard level is 1500)."
        in english(opening.kind, opening.data)
    )
    assert (
        "etwa 1530 Elo (1470 bis 1590, aus 400 Partien; gemessen an der ersten schweren Stufe"
        " des Bots, die 1500 hat)." in said_words("de", opening.kind, opening.data)
    )
    # a level (or game) the ladder has not measured says so, in both languages
    other = await bot_service.challenge(GUILD, CHANNEL, BOB, "lefe", BOT, size=5, level="easy")
    line = next(e for e in other.said if e.kind == "match_started_level")
    assert "Elo" not in english(line.kind, line.data)
    assert "This level's strength in this game is not measured yet." in english(
        line.kind, line.data
    )
    assert "noch nicht gemessen" in said_words("de", line.kind, line.data)


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_every_level_s_opening_says_what_the_committed_strength_file_holds(game: str) -> None:
    # from data/ai-strength.json as committed: the measured strength where the ladder has
    # one (100 games at full strength), "not measured yet" for every other level
    from engine.ai.levels import LEVEL_NAMES
    from matchcore.service.admission import strength_said

    committed = json.loads(strength.STRENGTH_PATH.read_text(encoding="utf-8"))
    for level in LEVEL_NAMES:
        said = strength_said(game, level)
        entry = committed.get(game, {}).get(level)
        words = english(said.code, dict(said.params))
        if entry is None:
            assert said.code == "level_unmeasured" and "not measured yet" in words
        else:
            assert said.code == "level_strength" and f"about {entry['elo']} Elo" in words
        assert said_words("de", said.code, dict(said.params)) != words


async def test_a_level_is_checked_and_only_offered_against_the_bot(
    bot_service: MatchService,
) -> None:
    with pytest.raises(InvalidOptions, match="levels are"):
        await bot_service.challenge_bot(GUILD, CHANNEL, ALICE, "lefe", "grandmaster")
    with pytest.raises(InvalidOptions, match="only for games against the bot"):
        await bot_service.challenge(GUILD, CHANNEL, ALICE, "lefe", BOB, level="hard")


async def test_the_bot_declines_a_draw_offer_at_once(bot_service: MatchService) -> None:
    started = await bot_service.challenge_bot(GUILD, CHANNEL, ALICE, "lefe", "easy", size=5)
    offered = await bot_service.offer_draw(started.match_id, ALICE)
    assert offered.mentions == () and offered.match.bot_to_act
    answers = await bot_replies(bot_service, started.match_id)
    assert [u.kind for u in answers] == ["draw_declined"]
    # handed on with the step that made the bot due: a front end posts the answer after it
    assert gather_bot_answers(bot_service).causes[-1] == offered.version
    assert answers[0].match.draw_offer_by is None and answers[0].match.to_act == (ALICE,)


async def test_two_simultaneous_advances_make_exactly_one_bot_move(
    bot_service: MatchService,
) -> None:
    started = await bot_service.challenge_bot(GUILD, CHANNEL, ALICE, "dalen", "easy", size=5)
    state = await _board_state(bot_service, started.match_id)
    moved = await bot_service.play(started.match_id, ALICE, state.legal_moves()[0])
    # the core's own turn (started by the commit) and two calls more, side by side
    first, second = await asyncio.gather(
        bot_service.advance_bots(started.match_id), bot_service.advance_bots(started.match_id)
    )
    core = await bot_replies(bot_service, started.match_id)
    assert len(first) + len(second) + len(core) == 1
    final = await bot_service.get_match(started.match_id)
    assert final.version == moved.version + 1 and final.to_act == (ALICE,)


async def test_after_a_restart_with_the_bot_to_move_the_start_plays_its_move(
    db_path: Path, clock: ManualClock, pool: AIPool
) -> None:
    service = await _open(db_path, clock, pool)
    started = await service.challenge_bot(GUILD, CHANNEL, ALICE, "lefe", "easy", size=5)
    state = await _board_state(service, started.match_id)
    moved = await service.play(started.match_id, ALICE, state.legal_moves()[0])
    await service.close()  # the bot "crashes" before the bot's reply
    await service.repo.close()
    loaded = await _stored_match(db_path, started.match_id)
    assert loaded.bot_due, "the bot's turn was played before the crash"

    # the start finds the bot's turn due and plays it in the background
    restarted = await _open(db_path, clock, pool)
    try:
        updates = await bot_replies(restarted, started.match_id)
        assert [u.kind for u in updates] == ["move"]
        _check_bot_update(updates[0])
        after = await restarted.get_match(started.match_id)
        assert after.version == moved.version + 1 and after.to_act == (ALICE,)
        assert after.deadline_at is not None and not after.bot_to_act
        assert await restarted.tick() == []  # nothing left for the bot
    finally:
        await restarted.close()
        await restarted.repo.close()


# ------------------------------------------------------------------------------- Leiff
async def _bot_table(service: MatchService, bots: int = 2) -> Update:
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE)
    for level in ("easy", "hard")[:bots]:
        await service.add_bot_seat(opened.match_id, ALICE, level)
    return await service.start_lobby(opened.match_id, ALICE)


def _human_action(state: Any, seat: int, rng: random.Random) -> str | None:
    """The human's step: a random action of the step they owe (never a guess out of turn)."""
    if seat not in state.waiting_for()["owners"]:
        return None
    own = [a for a in state.legal_actions(seat) if not parse_action(a).out_of_turn]
    return rng.choice(own) if own else None


async def _play_until_round_over(service: MatchService, match_id: int) -> list[Update]:
    rng = random.Random(5)
    updates: list[Update] = []
    for _ in range(300):
        updates.extend(await bot_replies(service, match_id))
        record = await service.repo.get_match(match_id)
        state = get_game("leiff").from_json(record.state)
        if state.waiting_for()["step"] == "next" or record.status != "running":
            return updates
        action = _human_action(state, 0, rng)
        assert action is not None, "with every bot done, the table waits for the human"
        updates.append(await service.play(match_id, ALICE, action))
    raise AssertionError("the round did not end")


async def test_lobby_host_adds_and_removes_bot_seats(bot_service: MatchService) -> None:
    opened = await bot_service.open_lobby(GUILD, CHANNEL, ALICE)
    await bot_service.join_lobby(opened.match_id, BOB)
    with pytest.raises(Forbidden, match="host"):
        await bot_service.add_bot_seat(opened.match_id, BOB)
    added = await bot_service.add_bot_seat(opened.match_id, ALICE, "hard")
    assert added.kind == "lobby_joined"
    assert [(s.user_id, s.is_bot, s.bot_level) for s in added.match.seats][-1] == (-1, True, "hard")
    assert "Bot 1 (hard)" in added.messages[0].text
    second = await bot_service.add_bot_seat(opened.match_id, ALICE)
    assert second.match.seats[-1].user_id == -2 and second.match.seats[-1].bot_level == "normal"
    removed = await bot_service.remove_bot_seat(opened.match_id, ALICE, seat=2)
    assert [s.user_id for s in removed.match.seats] == [ALICE, BOB, -2]
    with pytest.raises(LobbyError, match="not a bot seat"):
        await bot_service.remove_bot_seat(opened.match_id, ALICE, seat=1)
    handed = await bot_service.leave_lobby(opened.match_id, ALICE)
    assert handed.match.host_id == BOB  # the host passes to a person, never to a bot
    closed = await bot_service.leave_lobby(opened.match_id, BOB)
    assert closed.kind == "lobby_closed" and closed.match.status == "aborted"


async def test_a_table_of_one_human_and_two_bots_plays_a_round(
    bot_service: MatchService,
) -> None:
    started = await _bot_table(bot_service)
    match_id = started.match_id
    assert started.match.vs_bot and not started.match.rated
    assert started.match.bot_level == "hard"
    assert {p.for_user for p in started.pictures if p.kind == "hand"} == {ALICE}
    updates = await _play_until_round_over(bot_service, match_id)
    log = await bot_service.action_log(match_id)
    bot_rows = [row for row in log if row.user_id in (-1, -2)]
    assert {row.seat for row in bot_rows} == {1, 2}, "both bot seats took turns"
    for update in updates:
        assert all(user > 0 for user in update.mentions)
        assert all(message.to in (None, ALICE) for message in update.messages)
        assert all(b.for_user == ALICE for b in update.buttons)
        assert "<@-" not in " ".join(m.text for m in update.messages)
    state = await _board_state(bot_service, match_id)
    assert state.view(None)["round_over"]
    # The human leaves: with only bots at the table the game ends, she last of three (a
    # place at a table of three, counted against the bot as a game neither won nor lost).
    left = await bot_service.resign(match_id, ALICE)
    assert left.kind == "match_over" and left.match.status == "finished"
    assert left.rating_changes == ()
    assert left.match.result["places"] == [3, 1, 1] and left.match.result["field"] == 3
    record = await bot_service.vs_bot_stats(GUILD, ALICE)
    assert [(r.game, r.level, r.games, r.wins, r.losses) for r in record] == [
        ("leiff", "hard", 1, 0, 0)
    ]
    assert await bot_service.leaderboard(GUILD, "leiff") == []


async def test_bot_seats_decide_from_their_own_view_and_legal_actions_only(
    bot_service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[dict[str, Any], list[str]]] = []
    real_decide = leiff_bot.decide

    def spy(view: Any, legal_actions: Any = None) -> str | None:
        assert type(view) is dict, "a bot is handed a plain view, never the state"
        seen.append((view, list(legal_actions)))
        return real_decide(view, legal_actions)

    monkeypatch.setattr(leiff_bot, "decide", spy)
    started = await _bot_table(bot_service)
    await _play_until_round_over(bot_service, started.match_id)
    assert len(seen) > 10

    # Rebuild every state of the game from the deal and the log, keyed by engine version,
    # and check each decision was made from exactly that state's view for a bot's seat.
    record = await bot_service.repo.get_match(started.match_id)
    state = get_game("leiff").new(players=3, seed=LEIFF_SEED, options=record.options)
    states = {state.waiting_for()["version"]: state}
    for row in await bot_service.action_log(started.match_id):
        if not row.action.startswith("!"):
            state = state.play(row.seat, row.action)
            states[state.waiting_for()["version"]] = state
    assert state.to_json() == record.state
    for view, legal in seen:
        seat = view["viewer"]
        assert seat in (1, 2), "only bot seats are asked"
        at = states[view["waiting_for"]["version"]]
        assert view == at.view(seat)
        assert legal == at.legal_actions(seat)


async def test_a_table_with_two_humans_and_a_bot_is_rated_among_the_humans_only(
    bot_service: MatchService,
) -> None:
    opened = await bot_service.open_lobby(GUILD, CHANNEL, ALICE)
    await bot_service.join_lobby(opened.match_id, BOB)
    await bot_service.add_bot_seat(opened.match_id, ALICE, "normal")
    started = await bot_service.start_lobby(opened.match_id, ALICE)
    assert started.match.rated and not started.match.vs_bot
    await bot_replies(bot_service, opened.match_id)
    await bot_service.resign(opened.match_id, ALICE)
    await bot_replies(bot_service, opened.match_id)
    ended = await bot_service.resign(opened.match_id, BOB)
    assert ended.kind == "match_over" and ended.match.result["winners"] == [-1]
    assert {change.user_id for change in ended.rating_changes} == {ALICE, BOB}
    assert [row.user_id for row in await bot_service.leaderboard(GUILD, "leiff")] != []
    assert all(row.user_id > 0 for row in await bot_service.leaderboard(GUILD, "leiff"))
    assert await bot_service.vs_bot_stats(GUILD, ALICE) == []


async def test_against_the_bot_only_the_member_s_first_move_decides_an_abort(
    bot_service: MatchService, clock: ManualClock
) -> None:
    """The bot never keeps a match from starting: a member who laid Les set-up stones and
    then stopped loses on time (to the vs-bot record), although the bot has not had a turn;
    a member who never moved gets an abort that counts nowhere."""
    started = await bot_service.challenge_bot(GUILD, CHANNEL, ALICE, "les", "easy", size=5)
    state = await _board_state(bot_service, started.match_id)
    await bot_service.play(started.match_id, ALICE, sorted(state.legal_moves())[0])
    assert not await bot_service.may_abort(started.match_id, ALICE)
    assert not await bot_service.may_abort(started.match_id, BOT)
    clock.advance(86400)
    (over,) = await bot_service.tick()
    assert over.kind == "match_over" and over.match.result["winners"] == [BOT]
    (record,) = await bot_service.vs_bot_stats(GUILD, ALICE)
    assert (record.games, record.losses) == (1, 1)

    clock.advance(60)
    again = await bot_service.challenge_bot(GUILD, CHANNEL, ALICE, "les", "easy", size=5)
    clock.advance(86400)
    (aborted,) = await bot_service.tick()
    assert aborted.kind == "match_aborted" and aborted.match_id == again.match_id
    (record,) = await bot_service.vs_bot_stats(GUILD, ALICE)
    assert (record.games, record.losses) == (1, 1)  # the abort counts nowhere


async def test_a_searching_bot_seat_thinks_off_the_event_loop_from_its_own_view(
    bot_service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.ai import leiff_search

    asked: list[tuple[dict[str, Any], str, bool]] = []
    real = leiff_search.decide_at
    loop_thread = threading.get_ident()

    def spy(view: Any, legal_actions: Any, level: str) -> str | None:
        asked.append((view, level, threading.get_ident() != loop_thread))
        return real(view, legal_actions, level)

    monkeypatch.setattr(leiff_search, "decide_at", spy)
    started = await _bot_table(bot_service)  # seat 1 plays at easy, seat 2 at hard
    await _play_until_round_over(bot_service, started.match_id)
    assert asked, "the hard seat searched its turns"
    assert all(level == "hard" and view["viewer"] == 2 for view, level, _ in asked)
    assert all(in_thread for _, _, in_thread in asked), "the search ran in a thread"
    record = await bot_service.repo.get_match(started.match_id)
    state = get_game("leiff").new(players=3, seed=LEIFF_SEED, options=record.options)
    views = {}
    for row in await bot_service.action_log(started.match_id):
        for seat in (1, 2):
            views[(state.waiting_for()["version"], seat)] = state.view(seat)
        if not row.action.startswith("!"):
            state = state.play(row.seat, row.action)
    for view, _, _ in asked:
        assert view == views[(view["waiting_for"]["version"], view["viewer"])]
