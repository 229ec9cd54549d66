"""Taking back a move: asked by a player, accepted or declined by the other; at once
against the bot; withdrawn by a move; never without a move of one's own to take back; in a
rated daily match only where the server allows it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.common.choices import service_choices
from engine import get_board_game
from matchcore.service import MatchService, Update
from matchcore.service.errors import IllegalAction
from matchcore.storage import open_repository
from tests.service.helpers import ALICE, BOB, CHANNEL, GUILD, ManualClock

BOT = 999_000_333


@pytest.fixture
async def service(db_path: Path, clock: ManualClock) -> AsyncIterator[MatchService]:
    repo = await open_repository(db_path)

    async def first_legal(state_json: str, game: str, level: str) -> str:
        return get_board_game(game).from_json(state_json).legal_moves()[0]

    started = MatchService(repo, choices=service_choices(), clock=clock, ai_move=first_legal)
    await started.start(bot_user_id=BOT)
    yield started
    await repo.close()


async def live_match(service: MatchService, game: str) -> Update:
    """Alice (seat A) against Bob at 3 minutes a move: a live match, where takebacks are
    always allowed (a rated daily one takes none unless the server allows it)."""
    offer = await service.challenge(
        GUILD, CHANNEL, ALICE, game, BOB, size=5, time_control="move:180"
    )
    assert offer.challenge_id is not None
    return await service.accept_challenge(offer.challenge_id, BOB)


async def moves_of(service: MatchService, match_id: int) -> tuple[str, ...]:
    record = await service.repo.get_match(match_id)
    assert record is not None and record.state is not None
    return tuple(get_board_game(record.game).from_json(record.state).moves)


async def test_a_takeback_accepted_goes_back_before_the_askers_move(
    service: MatchService,
) -> None:
    started = await live_match(service, "dalen")
    assert started.match is not None
    match_id = started.match.id
    await service.play(match_id, ALICE, "c3")
    await service.play(match_id, BOB, "g5")
    moved = await service.play(match_id, ALICE, "e5")
    assert "ask_takeback" in moved.buttons[0].actions
    # Bob asks while it is his turn: his move and Alice's reply go
    asked = await service.ask_takeback(match_id, BOB, version=moved.version)
    assert asked.mentions == (ALICE,)
    assert asked.buttons[0].actions[-2:] == ("accept_takeback", "decline_takeback")
    assert "asks to take back" in asked.texts_for(None)[0]
    with pytest.raises(IllegalAction) as own:
        await service.accept_takeback(match_id, BOB)
    assert own.value.code == "opponent_must_answer"
    with pytest.raises(IllegalAction) as twice:
        await service.ask_takeback(match_id, BOB)
    assert twice.value.code == "takeback_asked"
    accepted = await service.accept_takeback(match_id, ALICE, version=asked.version)
    assert await moves_of(service, match_id) == ("c3",)
    assert accepted.match is not None and accepted.match.to_act == (BOB,)
    assert accepted.mentions == (BOB,) and "g5, e5" in accepted.texts_for(None)[0]
    # the log keeps every move and the takeback
    log = [row.action for row in await service.action_log(match_id)]
    assert log[-5:] == ["c3", "g5", "e5", "!ask_takeback", "!takeback"]
    # Bob plays again; Alice asks right after her own move: only it goes
    await service.play(match_id, BOB, "a1")
    await service.play(match_id, ALICE, "b1")
    asked = await service.ask_takeback(match_id, ALICE)
    await service.accept_takeback(match_id, BOB, version=asked.version)
    assert await moves_of(service, match_id) == ("c3", "a1")


async def test_a_takeback_declined_or_overtaken_by_a_move_changes_no_move(
    service: MatchService,
) -> None:
    started = await live_match(service, "lefe")
    assert started.match is not None
    match_id = started.match.id
    with pytest.raises(IllegalAction) as nothing:
        await service.ask_takeback(match_id, ALICE)
    assert nothing.value.code == "takeback_nothing"
    await service.play(match_id, ALICE, "c3")
    with pytest.raises(IllegalAction) as not_bobs:
        await service.ask_takeback(match_id, BOB)  # Bob has not moved yet
    assert not_bobs.value.code == "takeback_nothing"
    asked = await service.ask_takeback(match_id, ALICE)
    declined = await service.decline_takeback(match_id, BOB, version=asked.version)
    assert "declines" in declined.texts_for(None)[0]
    assert "ask_takeback" in declined.buttons[0].actions
    assert await moves_of(service, match_id) == ("c3",)
    with pytest.raises(IllegalAction) as gone:
        await service.accept_takeback(match_id, BOB)
    assert gone.value.code == "no_takeback_asked"
    # asked again, and Bob moves instead of answering: the request is gone
    await service.ask_takeback(match_id, ALICE)
    await service.play(match_id, BOB, "e5")
    with pytest.raises(IllegalAction):
        await service.accept_takeback(match_id, BOB)
    assert await moves_of(service, match_id) == ("c3", "e5")


async def test_against_the_bot_a_takeback_is_granted_at_once(
    service: MatchService, clock: ManualClock
) -> None:
    started = await service.challenge_bot(GUILD, CHANNEL, ALICE, "lefe", "easy", size=5)
    assert started.match is not None
    match_id = started.match.id
    await service.play(match_id, ALICE, "c3")
    await service.advance_bots(match_id)
    replied = await moves_of(service, match_id)
    assert len(replied) == 2
    back = await service.ask_takeback(match_id, ALICE)
    assert back.kind == "takeback" and await moves_of(service, match_id) == ()
    assert back.match is not None and back.match.to_act == (ALICE,)
    assert not back.match.bot_to_act
    # taken back while the bot is still to answer: only the member's move goes
    await service.play(match_id, ALICE, "d4")
    await service.ask_takeback(match_id, ALICE)
    assert await moves_of(service, match_id) == ()
    assert await service.advance_bots(match_id) == []


async def test_a_rated_daily_match_takes_no_takeback_unless_the_server_allows_it(
    service: MatchService,
) -> None:
    offer = await service.challenge(
        GUILD, CHANNEL, ALICE, "lefe", BOB, size=5, time_control="move:172800"
    )
    assert offer.challenge_id is not None
    started = await service.accept_challenge(offer.challenge_id, BOB)
    assert started.match is not None
    match_id = started.match.id
    await service.play(match_id, ALICE, "c3")
    with pytest.raises(IllegalAction) as daily:
        await service.ask_takeback(match_id, ALICE)
    assert daily.value.code == "takeback_not_in_daily"
    await service.update_settings(GUILD, ALICE, True, daily_takebacks=True)
    asked = await service.ask_takeback(match_id, ALICE)
    await service.accept_takeback(match_id, BOB, version=asked.version)
    assert await moves_of(service, match_id) == ()
    # a live match always may
    live = await service.challenge(
        GUILD, CHANNEL, BOB, "dalen", ALICE, size=5, time_control="move:180"
    )
    assert live.challenge_id is not None
    running = await service.accept_challenge(live.challenge_id, ALICE)
    assert running.match is not None
    await service.update_settings(GUILD, ALICE, True, daily_takebacks=False)
    await service.play(running.match.id, BOB, "c3")
    assert (await service.ask_takeback(running.match.id, BOB)).kind == "takeback_asked"
