"""Board games through the service: moves, refusals, the openings, resign, draws, rematch."""

from __future__ import annotations

import pytest

from engine import get_game
from matchcore.service import (
    IllegalAction,
    MatchOver,
    MatchService,
    NotFound,
    NotInMatch,
    NotYourTurn,
    StaleVersion,
)
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, start_board_match


async def test_a_started_match_shows_the_board_and_whose_turn(service: MatchService) -> None:
    started = await start_board_match(service)
    info = started.match
    assert started.kind == "match_started"
    assert info.status == "running" and info.version == 0
    assert [(s.seat, s.user_id, s.colour) for s in info.seats] == [
        (0, ALICE, "dark"),
        (1, BOB, "light"),
    ]
    assert info.to_act == (ALICE,) and started.mentions == (ALICE,)
    assert [p.kind for p in started.pictures] == ["board"]
    assert started.pictures[0].for_user is None
    # before anyone moved, the button ends the match unrated
    assert started.buttons[0].actions == ("abort", "offer_draw")
    assert "<@11> to move (dark)" in started.messages[0].text


async def test_a_move_is_applied_logged_and_announced(service: MatchService) -> None:
    match_id = (await start_board_match(service)).match_id
    update = await service.play(match_id, ALICE, "E5", version=0)
    assert update.kind == "move" and update.version == 1
    assert update.pictures[0].state.stones == {"e5": "dark"}
    assert "swap" in update.buttons[0].actions
    assert update.mentions == (BOB,)
    assert "<@11> (dark) plays e5." in update.messages[0].text
    log = await service.action_log(match_id)
    assert [(a.version, a.user_id, a.seat, a.action) for a in log] == [(1, ALICE, 0, "e5")]


async def test_moves_out_of_turn_by_strangers_or_stale_are_refused(service: MatchService) -> None:
    match_id = (await start_board_match(service)).match_id
    with pytest.raises(NotYourTurn, match="<@11>"):
        await service.play(match_id, BOB, "e5")
    with pytest.raises(NotInMatch):
        await service.play(match_id, CAROL, "e5")
    with pytest.raises(StaleVersion, match="moved on"):
        await service.play(match_id, ALICE, "e5", version=3)
    with pytest.raises(IllegalAction, match="not a cell"):
        await service.play(match_id, ALICE, "z99")
    with pytest.raises(NotFound):
        await service.play(match_id + 100, ALICE, "e5")
    assert (await service.get_match(match_id)).version == 0
    assert await service.action_log(match_id) == []


async def test_swap_gives_seat_b_the_first_colour(service: MatchService) -> None:
    match_id = (await start_board_match(service)).match_id
    await service.play(match_id, ALICE, "e5", version=0)
    update = await service.play(match_id, BOB, "swap", version=1)
    assert {s.user_id: s.colour for s in update.match.seats} == {ALICE: "light", BOB: "dark"}
    assert update.match.to_act == (ALICE,)
    assert "<@12> swaps: they now play dark." in update.messages[0].text


async def test_les_opening_set_up_then_side_choice(service: MatchService) -> None:
    match_id = (await start_board_match(service, "les")).match_id
    state = get_game("les").new()
    version = 0
    while state.seat_to_move == 0 and getattr(state, "phase", "play") == "setup":
        move = state.legal_moves()[0]
        state = state.play(move)
        update = await service.play(match_id, ALICE, move, version=version)
        version = update.version
    assert update.match.to_act == (BOB,)
    assert set(update.buttons[0].actions) >= {"black", "white"}
    chosen = await service.play(match_id, BOB, "black", version=version)
    assert {s.user_id: s.colour for s in chosen.match.seats} == {ALICE: "white", BOB: "black"}
    assert chosen.match.to_act == (BOB,)


async def test_a_player_aborts_only_before_their_own_first_move(service: MatchService) -> None:
    """Pie rule: Alice's first stone is her move; Bob's swap is his. Each may abort until
    then, never after; an abort is unrated and counts for nobody."""
    match_id = (await start_board_match(service)).match_id
    await service.play(match_id, ALICE, "e5")
    with pytest.raises(IllegalAction) as refused:
        await service.abort(match_id, ALICE)
    assert str(refused.value) == (
        f"you have moved already, so match #{match_id} can no longer be aborted (you may resign)"
    )
    assert not await service.may_abort(match_id, ALICE)
    assert await service.may_abort(match_id, BOB)
    assert not await service.may_abort(match_id, CAROL)  # not a player
    aborted = await service.abort(match_id, BOB)
    assert aborted.kind == "match_aborted" and aborted.match.status == "aborted"
    assert aborted.rating_changes == ()
    assert aborted.messages[0].text == (
        "<@12> aborts the match before their first move. It is unrated: nobody wins or loses."
    )
    assert aborted.match.result["why"] == {"code": "reason_aborted", "params": {"user": "<@12>"}}
    assert aborted.buttons[0].actions == ()
    assert await service.leaderboard(GUILD, "lefe") == []
    log = await service.action_log(match_id)
    assert [(a.user_id, a.action) for a in log] == [(ALICE, "e5"), (BOB, "!abort")]
    with pytest.raises(MatchOver):
        await service.abort(match_id, BOB)

    swapped = (await start_board_match(service, first=BOB, second=ALICE)).match_id
    await service.play(swapped, BOB, "e5")
    await service.play(swapped, ALICE, "swap")
    with pytest.raises(IllegalAction, match="moved already"):
        await service.abort(swapped, ALICE)


async def test_resign_ends_the_match_and_rates_it(service: MatchService) -> None:
    match_id = (await start_board_match(service)).match_id
    update = await service.resign(match_id, BOB)
    assert update.kind == "match_over"
    assert update.match.status == "finished"
    assert update.match.result == {
        "winners": [ALICE],
        "reason": "<@12> resigned",
        "draw": False,
        "why": {"code": "reason_resigned", "params": {"user": "<@12>"}},
    }
    changes = {c.user_id: c for c in update.rating_changes}
    assert changes[ALICE].after_mu > changes[ALICE].before_mu
    assert changes[BOB].after_mu < changes[BOB].before_mu
    assert update.buttons[0].actions == ("rematch", "review")
    with pytest.raises(MatchOver):
        await service.play(match_id, ALICE, "e5")


async def test_a_game_played_to_its_end_records_the_engine_result(service: MatchService) -> None:
    match_id = (await start_board_match(service, "lublache", size=5)).match_id
    state = get_game("lublache").new(5)
    update = None
    while state.outcome is None:
        move = sorted(state.legal_moves())[0]
        user = ALICE if state.seat_to_move == 0 else BOB
        update = await service.play(match_id, user, move)
        state = state.play(move)
    assert update.kind == "match_over"
    winner_seat = state.seat_of(state.outcome.winner)
    assert update.match.result["winners"] == [(ALICE, BOB)[winner_seat]]
    assert update.match.result["reason"] == state.outcome.reason
    assert update.match.result["outcome"] == state.outcome.to_dict()  # its code, to word it
    assert update.match.deadline_at is None


async def test_draw_offer_accept_and_decline(service: MatchService) -> None:
    match_id = (await start_board_match(service)).match_id
    offered = await service.offer_draw(match_id, ALICE)
    assert offered.mentions == (BOB,)
    assert offered.buttons[0].actions[-2:] == ("accept_draw", "decline_draw")
    with pytest.raises(IllegalAction, match="already offered"):
        await service.offer_draw(match_id, ALICE)
    with pytest.raises(IllegalAction, match="opponent must answer"):
        await service.accept_draw(match_id, ALICE)
    declined = await service.decline_draw(match_id, BOB)
    assert declined.match.draw_offer_by is None
    with pytest.raises(IllegalAction, match="no draw offer"):
        await service.accept_draw(match_id, BOB)
    await service.offer_draw(match_id, BOB)
    ended = await service.accept_draw(match_id, ALICE)
    assert ended.match.result == {
        "winners": [],
        "reason": "drawn by agreement",
        "draw": True,
        "why": {"code": "reason_agreed", "params": {}},
    }
    assert {c.user_id for c in ended.rating_changes} == {ALICE, BOB}


async def test_a_move_withdraws_a_draw_offer(service: MatchService) -> None:
    match_id = (await start_board_match(service)).match_id
    await service.offer_draw(match_id, BOB)
    moved = await service.play(match_id, ALICE, "e5")
    assert moved.match.draw_offer_by is None


async def test_no_draw_offers_in_a_game_without_draws(service: MatchService) -> None:
    match_id = (await start_board_match(service, "lublache")).match_id
    with pytest.raises(IllegalAction, match="cannot end in a draw"):
        await service.offer_draw(match_id, ALICE)


async def test_rematch_swaps_seats_and_a_second_request_accepts(service: MatchService) -> None:
    first = await start_board_match(service, "dalen", size=5, variant=True)
    await service.resign(first.match_id, ALICE)
    asked = await service.rematch(first.match_id, ALICE)
    assert asked.challenge.target_id == BOB and asked.challenge.rematch_of == first.match_id
    with pytest.raises(IllegalAction, match="already asked"):
        await service.rematch(first.match_id, ALICE)
    second = await service.rematch(first.match_id, BOB)
    assert second.kind == "match_started"
    assert [s.user_id for s in second.match.seats] == [BOB, ALICE]
    assert second.match.options == {"size": 5, "options": {"variant": True}}


async def test_rematch_needs_a_finished_match(service: MatchService) -> None:
    match_id = (await start_board_match(service)).match_id
    with pytest.raises(IllegalAction, match="once the match is over"):
        await service.rematch(match_id, ALICE)


async def test_finding_the_callers_match_in_a_channel(service: MatchService) -> None:
    match_id = (await start_board_match(service)).match_id
    found = await service.match_in_channel(GUILD, CHANNEL, BOB)
    assert found.id == match_id
    assert await service.match_in_channel(GUILD, CHANNEL, CAROL) is None
    assert await service.match_in_channel(GUILD, CHANNEL + 1, BOB) is None
    await service.set_thread(match_id, 4444)
    assert (await service.match_in_channel(GUILD, CHANNEL, ALICE, thread_id=4444)).id == match_id
    assert [m.id for m in await service.user_matches(ALICE)] == [match_id]


async def test_message_ids_are_recorded_and_current_redraws(service: MatchService) -> None:
    match_id = (await start_board_match(service)).match_id
    await service.play(match_id, ALICE, "e5")
    assert await service.repo.set_message(match_id, "board", 98765)
    refreshed = await service.current(match_id)
    assert refreshed.kind == "refresh" and refreshed.version == 1
    assert refreshed.match.messages == {"board": 98765}
    assert refreshed.pictures[0].state.stones == {"e5": "dark"}
    assert not await service.repo.set_message(match_id + 50, "board", 1)


async def test_a_long_move_is_refused_without_being_quoted(service):
    started = await start_board_match(service, "lefe", size=5)
    with pytest.raises(IllegalAction) as refused:
        await service.play(started.match_id, ALICE, "c3" + "z" * 500)
    assert "z" not in str(refused.value) and len(str(refused.value)) < 60


def test_a_result_names_the_winner_once_with_their_colour():
    from matchcore.service.board_logic import result_text
    from matchcore.storage import SeatRecord

    seats = (SeatRecord(seat=0, user_id=ALICE, colour="dark"), SeatRecord(1, BOB, colour="light"))
    engine_win = {"winners": [BOB], "reason": "light wins 4–2: dark has no legal placement"}
    assert result_text(seats, engine_win) == (
        "<@12> (light) wins 4–2: dark has no legal placement."
    )
    lublache = {"winners": [ALICE], "reason": "dark wins: it has no legal placement left"}
    assert result_text(seats, lublache) == ("<@11> (dark) wins: dark has no legal placement left.")
    resigned = {"winners": [ALICE], "reason": "<@12> resigned"}
    assert result_text(seats, resigned) == "<@11> wins: <@12> resigned."
    drawn = {"winners": [], "reason": "draw 4–4: dark has no legal placement", "draw": True}
    assert result_text(seats, drawn) == "The game is drawn 4–4: dark has no legal placement."
    agreed = {"winners": [], "reason": "drawn by agreement", "draw": True}
    assert result_text(seats, agreed) == "The game is drawn by agreement."
    both = {"winners": [ALICE, BOB], "reason": "everyone else left the table"}
    assert result_text(seats, both) == "<@11> and <@12> win: everyone else left the table."


async def test_the_bot_to_move_is_not_announced_as_to_move(service):
    service.bot_user_id = 99
    started = await service.challenge_bot(GUILD, CHANNEL, ALICE, "lefe")
    moved = await service.play(started.match_id, ALICE, "c3")
    assert not any("<@99> to move" in m.text for m in moved.messages)
