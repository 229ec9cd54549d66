"""A member's history, a finished match's record as text, and a practice game from any of
its moves: over random games of the four board games, the record read back plays the same
game, and a practice game from move k starts from the position after k moves."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.common.choices import service_choices
from engine import get_board_game
from matchcore.game_record import GameRecord, RecordError, parse_record
from matchcore.service import MatchService
from matchcore.service.errors import IllegalAction
from matchcore.storage import open_repository
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, ManualClock

BOT = 999_000_222
BOARD_GAMES = ("lefe", "dalen", "lublache", "les")


@pytest.fixture
async def service(db_path: Path, clock: ManualClock) -> AsyncIterator[MatchService]:
    repo = await open_repository(db_path)

    async def first_legal(state_json: str, game: str, level: str) -> str:
        return get_board_game(game).from_json(state_json).legal_moves()[0]

    started = MatchService(repo, choices=service_choices(), clock=clock, ai_move=first_legal)
    await started.start(bot_user_id=BOT)
    yield started
    await repo.close()


async def random_finished_match(
    service: MatchService, clock: ManualClock, game: str, rng: random.Random, cap: int
) -> int:
    """A match between Alice and Bob of random legal moves, to its end by the rules or,
    after ``cap`` moves, a resignation of the player to move."""
    clock.advance(120)
    offer = await service.challenge(
        GUILD, CHANNEL, ALICE, game, BOB, size=5, time_control="move:259200"
    )
    assert offer.challenge_id is not None
    started = await service.accept_challenge(offer.challenge_id, BOB)
    assert started.match is not None
    match_id = started.match.id
    for _ in range(cap):
        info = await service.get_match(match_id)
        if info.status != "running":
            return match_id
        (mover,) = info.to_act
        record = await service.repo.get_match(match_id)
        assert record is not None and record.state is not None
        state = get_board_game(game).from_json(record.state)
        await service.play(match_id, mover, rng.choice(state.legal_moves()))
    info = await service.get_match(match_id)
    if info.status == "running":
        await service.resign(match_id, info.to_act[0])
    return match_id


@pytest.mark.parametrize("game", BOARD_GAMES)
async def test_a_record_read_back_is_the_same_game_and_plays_on_from_any_move(
    service: MatchService, clock: ManualClock, game: str
) -> None:
    rng = random.Random(f"records-{game}")
    for round_ in range(3):
        match_id = await random_finished_match(service, clock, game, rng, cap=rng.randint(4, 40))
        record = await service.game_record(match_id)
        stored = await service.repo.get_match(match_id)
        assert stored is not None and stored.state is not None
        final = get_board_game(game).from_json(stored.state)
        assert record.moves == final.moves and record.size == 5 and record.match_id == match_id
        assert record.time_control == "move:259200"
        named = GameRecord(**{**record.__dict__, "players": ('Ann "the hex" B.', "bob")})
        text = named.text()
        # the record as a member pastes it into a command: on one line
        for pasted in (text, " ".join(text.split())):
            back = parse_record(pasted)
            assert back == named, pasted
        # the result from seat A's side: Alice started (seat A) and the stored winners
        info = await service.get_match(match_id)
        winners = (info.result or {}).get("winners") or []
        expected = "1-0" if winners == [ALICE] else "0-1" if winners == [BOB] else "1/2-1/2"
        assert record.result == expected
        # a practice game from move k starts from the position after k moves
        positions = list(final.history())
        ply = rng.randrange(len(positions))
        if positions[ply].outcome is not None:
            ply -= 1
        clock.advance(120)
        practice = await service.challenge_bot(
            GUILD, CHANNEL, CAROL, game, "easy", size=5, moves=back.moves[:ply]
        )
        assert practice.match is not None
        started = await service.repo.get_match(practice.match.id)
        assert started is not None and started.state is not None
        begun = get_board_game(game).from_json(started.state)
        assert begun.moves == positions[ply].moves and begun.cells == positions[ply].cells
        # the member plays the side to move, the bot the other
        mine = started.seat_of(CAROL)
        assert mine is not None and mine.seat == begun.seat_to_move
        assert practice.match.to_act == (CAROL,) and not practice.match.rated
        await service.resign(practice.match.id, CAROL)
        del round_


async def test_an_illegal_or_finished_record_starts_nothing(
    service: MatchService, clock: ManualClock
) -> None:
    with pytest.raises(IllegalAction) as illegal:
        await service.challenge_bot(GUILD, CHANNEL, CAROL, "lefe", size=5, moves=("c3", "c3"))
    assert illegal.value.code == "record_move_illegal" and illegal.value.params["number"] == 2
    match_id = await random_finished_match(service, clock, "lefe", random.Random(3), cap=200)
    record = await service.game_record(match_id)
    stored = await service.repo.get_match(match_id)
    assert stored is not None and stored.state is not None
    final = get_board_game("lefe").from_json(stored.state)
    if final.outcome is not None:  # ended by the rules: nothing to play on from the end
        with pytest.raises(IllegalAction) as over:
            await service.challenge_bot(GUILD, CHANNEL, CAROL, "lefe", size=5, moves=record.moves)
        assert over.value.code == "record_over"
    assert await service.user_matches(CAROL) == []
    with pytest.raises(RecordError) as no_game:
        parse_record("1. c3 2. d4")
    assert no_game.value.code == "record_no_game"
    with pytest.raises(RecordError) as size:
        parse_record('[Game "Lefe"] [Size "12"] 1. c3')
    assert size.value.code == "record_size"
    with pytest.raises(RecordError) as leiff:
        parse_record('[Game "Leiff"] 1. draw')
    assert leiff.value.code == "record_game"


async def test_history_pages_newest_first_per_game_with_the_outcome_for_the_member(
    service: MatchService, clock: ManualClock
) -> None:
    rng = random.Random(5)
    ids = []
    for game in ("lefe", "dalen", "lefe", "les", "lefe", "dalen", "lublache", "lefe", "dalen"):
        ids.append(await random_finished_match(service, clock, game, rng, cap=6))
    first = await service.history(GUILD, ALICE)
    assert first.total == 9 and first.pages == 2 and first.page == 0
    second = await service.history(GUILD, ALICE, page=1)
    listed = [e.match.id for e in first.entries + second.entries]
    assert listed == list(reversed(ids))  # newest first, every one once
    assert (await service.history(GUILD, ALICE, page=7)).page == 1  # past the end: the last
    lefe = await service.history(GUILD, BOB, "lefe")
    assert [e.match.game for e in lefe.entries] == ["lefe"] * 4 and lefe.pages == 1
    for entry in first.entries + second.entries:
        winners = (entry.match.result or {}).get("winners") or []
        assert entry.outcome == ("win" if winners == [ALICE] else "loss")
        assert entry.place is None and entry.match.finished_at is not None
    assert (await service.history(GUILD, CAROL)).entries == ()
    assert (await service.history(GUILD + 1, ALICE)).total == 0
