"""Leiff through the service: lobbies, actions, who is told what, timeouts, removal, ratings."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import get_game
from engine.leiff import random_action
from matchcore.service import (
    Forbidden,
    IllegalAction,
    InvalidOptions,
    LobbyError,
    MatchOver,
    MatchService,
    NotInMatch,
    NotYourTurn,
    StaleVersion,
    TooLate,
    Update,
)
from matchcore.service.leiff_logic import fill_names
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, DAVE, ERIN, FRANK, GUILD, ManualClock

PLAYERS = (ALICE, BOB, CAROL, DAVE, ERIN, FRANK)


async def _table(service: MatchService, players: int, **options: object) -> Update:
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE, options=dict(options) or None)
    for user in PLAYERS[1:players]:
        await service.join_lobby(opened.match_id, user)
    return await service.start_lobby(opened.match_id, ALICE)


async def _engine_state(service: MatchService, match_id: int) -> object:
    record = await service.repo.get_match(match_id)
    return get_game("leiff").from_json(record.state)


async def test_lobby_join_leave_and_host_handover(service: MatchService) -> None:
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE, options={"target": 100})
    assert opened.match.status == "lobby" and opened.match.host_id == ALICE
    assert opened.match.options["target"] == 100
    assert opened.buttons[0].actions == ("join", "leave", "start")
    joined = await service.join_lobby(opened.match_id, BOB, version=0)
    assert joined.match.user_ids == (ALICE, BOB) and joined.version == 1
    with pytest.raises(LobbyError, match="already at this table"):
        await service.join_lobby(opened.match_id, BOB)
    with pytest.raises(StaleVersion):
        await service.join_lobby(opened.match_id, CAROL, version=0)
    left = await service.leave_lobby(opened.match_id, ALICE)
    assert left.match.host_id == BOB and left.match.user_ids == (BOB,)
    assert [s.seat for s in left.match.seats] == [0]
    assert "<@12> now hosts the table." in left.messages[0].text
    closed = await service.leave_lobby(opened.match_id, BOB)
    assert closed.kind == "lobby_closed" and closed.match.status == "aborted"
    with pytest.raises(MatchOver, match="closed"):
        await service.join_lobby(opened.match_id, CAROL)


async def test_lobby_start_rules(service: MatchService) -> None:
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE, options={"teams": True})
    with pytest.raises(LobbyError, match="at least two"):
        await service.start_lobby(opened.match_id, ALICE)
    for user in (BOB, CAROL):
        await service.join_lobby(opened.match_id, user)
    with pytest.raises(Forbidden, match="host"):
        await service.start_lobby(opened.match_id, BOB)
    with pytest.raises(LobbyError, match="4 or 6"):
        await service.start_lobby(opened.match_id, ALICE)
    for user in (DAVE, ERIN, FRANK):
        await service.join_lobby(opened.match_id, user)
    with pytest.raises(LobbyError, match="full"):
        await service.join_lobby(opened.match_id, 99)
    started = await service.start_lobby(opened.match_id, ALICE)
    assert started.match.status == "running"
    assert started.pictures[0].view["teams"] == [[0, 3], [1, 4], [2, 5]]
    with pytest.raises(LobbyError, match="already started"):
        await service.join_lobby(opened.match_id, 99)


async def test_lobby_options_follow_the_server(service: MatchService) -> None:
    await service.update_settings(
        GUILD, ALICE, True, leiff_teams_allowed=False, leiff_specials=True
    )
    with pytest.raises(InvalidOptions, match="does not allow team"):
        await service.open_lobby(GUILD, CHANNEL, ALICE, options={"teams": True})
    with pytest.raises(InvalidOptions, match="50 or 100"):
        await service.open_lobby(GUILD, CHANNEL, ALICE, options={"target": 70})
    with pytest.raises(InvalidOptions, match="only target and teams"):
        await service.open_lobby(GUILD, CHANNEL, ALICE, options={"specials": False})
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE)
    assert opened.match.options["specials"] is True


async def test_start_deals_a_table_picture_and_a_private_hand_for_each_player(
    service: MatchService,
) -> None:
    started = await _table(service, 3)
    state = await _engine_state(service, started.match_id)
    table = [p for p in started.pictures if p.kind == "table"]
    hands = {p.for_user: p.view for p in started.pictures if p.kind == "hand"}
    assert len(table) == 1 and table[0].for_user is None and table[0].view == state.view(None)
    assert hands == {user: state.view(seat) for seat, user in enumerate((ALICE, BOB, CAROL))}
    buttons = {b.for_user: b.actions for b in started.buttons}
    assert buttons[ALICE] == tuple(state.legal_actions(0))
    assert started.mentions == (ALICE,)
    private = [m for m in started.messages if m.to is not None]
    assert {m.to for m in private} == {ALICE, BOB, CAROL}
    assert all("look at your slots" in m.text for m in private)


async def test_channel_texts_never_carry_private_event_texts(service: MatchService) -> None:
    started = await _table(service, 3, target=50)
    record = await service.repo.get_match(started.match_id)
    rng = random.Random(5)
    state = await _engine_state(service, started.match_id)
    for _ in range(150):
        if state.outcome is not None:
            break
        seat, action = random_action(state, rng)
        update = await service.play(started.match_id, PLAYERS[seat], action)
        produced = state.play(seat, action)
        private = {fill_names(e["text"], record) for e in produced.events if e["audience"] != "all"}
        public = [fill_names(e["text"], record) for e in produced.events if e["audience"] == "all"]
        channel = [m.text for m in update.messages if m.to is None]
        assert not private & set(channel)
        assert all(text in channel for text in public)
        assert not any(text.startswith("You ") for text in channel)
        assert update.pictures[0].view == produced.view(None)
        state = await _engine_state(service, started.match_id)
        assert state.to_json() == produced.to_json()


async def test_actions_are_checked_against_the_engine(service: MatchService) -> None:
    started = await _table(service, 2)
    with pytest.raises(NotYourTurn, match="<@11>"):
        await service.play(started.match_id, BOB, "draw")
    with pytest.raises(IllegalAction):
        await service.play(started.match_id, ALICE, "swap 9")
    with pytest.raises(NotInMatch):
        await service.play(started.match_id, CAROL, "draw")
    drew = await service.leiff_action(started.match_id, ALICE, "draw", version=started.version)
    assert drew.version == started.version + 1
    private = [m.text for m in drew.messages if m.to == ALICE]
    assert any(text.startswith("You draw") for text in private)
    assert not any(m.text.startswith("You draw") for m in drew.messages if m.to == BOB)
    assert any(m.text.startswith("<@11> draws a card") for m in drew.messages if m.to is None)
    assert {p.for_user for p in drew.pictures if p.kind == "hand"} >= {ALICE}


async def test_a_whole_game_finishes_with_multiplayer_ratings_and_replays(
    service: MatchService,
) -> None:
    started = await _table(service, 3)
    rng = random.Random(11)
    state = await _engine_state(service, started.match_id)
    update = started
    while state.outcome is None:
        seat, action = random_action(state, rng)
        update = await service.play(started.match_id, PLAYERS[seat], action)
        state = await _engine_state(service, started.match_id)
    assert update.kind == "match_over" and update.match.status == "finished"
    winners = [PLAYERS[s] for s in state.outcome.winner]
    assert update.match.result["winners"] == winners
    assert {c.user_id for c in update.rating_changes} == {ALICE, BOB, CAROL}
    totals = state.view(None)["totals"]
    best = min(range(3), key=lambda s: totals[s])
    worst = max(range(3), key=lambda s: totals[s])
    change = {c.user_id: c for c in update.rating_changes}
    assert change[PLAYERS[best]].after_mu > change[PLAYERS[worst]].after_mu
    log = await service.action_log(started.match_id)
    engine_log = [(a.seat, a.action) for a in log if not a.action.startswith("!")]
    record = await service.repo.get_match(started.match_id)
    rebuilt = get_game("leiff").replay(7, 3, record.options, engine_log)
    assert rebuilt.to_json() == record.state


async def test_timeouts_play_the_default_and_remove_a_player_who_keeps_timing_out(
    service: MatchService, clock: ManualClock
) -> None:
    await service.update_settings(GUILD, ALICE, True, leiff_max_timeouts=2)
    started = await _table(service, 3)
    assert started.match.deadline_at == clock.now + 300
    # The reminder comes after two minutes of waiting (the table's message is edited in
    # place, which pings nobody), before a quarter of the five minutes is left.
    clock.advance(119)
    assert await service.tick() == []
    clock.advance(1)
    warnings = await service.tick()
    assert [(u.kind, u.mentions) for u in warnings] == [("warning", (ALICE,))]
    assert await service.tick() == []
    clock.advance(180)
    (first,) = await service.tick()
    assert first.kind == "timeout"
    assert "<@11> ran out of time; the default was played." in [m.text for m in first.messages]
    log = await service.action_log(started.match_id)
    assert [(a.user_id, a.seat, a.action) for a in log[-1:]] == [(None, 0, "draw")]
    assert first.match.seats[0].timeouts == 1
    clock.advance(120)  # holding a drawn card is a choice: 120 s by default
    (second,) = await service.tick()
    assert second.match.seats[0].removed
    assert any("leaves the table" in m.text for m in second.messages)
    assert second.match.to_act == (BOB,)
    with pytest.raises(NotInMatch, match="removed"):
        await service.play(started.match_id, ALICE, "match 1")


async def test_a_removed_players_turns_are_played_at_once(service: MatchService) -> None:
    started = await _table(service, 3)
    await service.resign(started.match_id, BOB)
    state = await _engine_state(service, started.match_id)
    for _ in range(60):
        if state.outcome is not None:
            break
        waiting = state.waiting_for()
        # The engine never waits for the player who left (only "next" is anyone's).
        assert 1 not in waiting["owners"] or waiting["step"] == "next"
        seat = waiting["owners"][0]
        await service.play(started.match_id, PLAYERS[seat], state.default_action(seat))
        state = await _engine_state(service, started.match_id)
    log = await service.action_log(started.match_id)
    assert any(a.seat == 1 and a.user_id is None for a in log)


async def test_the_seat_of_a_player_who_left_plays_at_the_strongest_level(
    service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.ai import leiff_search

    levels: list[tuple[int | None, str]] = []
    real = leiff_search.decide_at

    def spy(view: Any, legal_actions: Any, level: str) -> str | None:
        levels.append((view["viewer"], level))
        return real(view, legal_actions, level)

    monkeypatch.setattr(leiff_search, "decide_at", spy)
    started = await _table(service, 3)
    await service.resign(started.match_id, BOB)
    state = await _engine_state(service, started.match_id)
    for _ in range(40):
        if state.outcome is not None or state.waiting_for()["step"] == "next":
            break
        seat = state.waiting_for()["owners"][0]
        await service.play(started.match_id, PLAYERS[seat], state.default_action(seat))
        state = await _engine_state(service, started.match_id)
    assert levels and set(levels) == {(1, leiff_search.STRONGEST_LEIFF_LEVEL)}
    assert leiff_search.STRONGEST_LEIFF_LEVEL == "master"


async def test_the_last_player_left_wins_and_leavers_rank_last(service: MatchService) -> None:
    started = await _table(service, 3)
    await service.resign(started.match_id, CAROL)
    ended = await service.resign(started.match_id, ALICE)
    assert ended.kind == "match_over"
    assert ended.match.result["winners"] == [BOB]
    assert ended.match.result["reason"] == "everyone else left the table"
    change = {c.user_id: c for c in ended.rating_changes}
    assert change[BOB].after_mu > change[ALICE].after_mu
    rows = await service.leaderboard(GUILD, "leiff")
    assert rows[0].user_id == BOB and rows[0].wins == 1
    # Second of three is no loss: the two who left share second place.
    assert {r.user_id: r.losses for r in rows} == {BOB: 0, ALICE: 0, CAROL: 0}
    assert {r.user_id: r.places for r in rows} == {
        BOB: ((1, 1),),
        ALICE: ((2, 1),),
        CAROL: ((2, 1),),
    }
    assert ended.match.result["places"] == [2, 1, 2] and ended.match.result["field"] == 3
    (alice,) = await service.stats(GUILD, ALICE)
    assert (alice.last_place, alice.streak, alice.games) == ((2, 3), 0, 1)


async def test_an_unstarted_table_expires(service: MatchService, clock: ManualClock) -> None:
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE)
    clock.advance(901)
    (expired,) = await service.tick()
    assert expired.kind == "lobby_expired" and expired.match.status == "aborted"
    assert expired.match_id == opened.match_id
    with pytest.raises(MatchOver):
        await service.join_lobby(opened.match_id, BOB)


async def test_a_team_game_rates_partners_together(service: MatchService) -> None:
    started = await _table(service, 4, teams=True)
    rng = random.Random(21)
    state = await _engine_state(service, started.match_id)
    update = started
    while state.outcome is None:
        seat, action = random_action(state, rng)
        update = await service.play(started.match_id, PLAYERS[seat], action)
        state = await _engine_state(service, started.match_id)
    teams = state.view(None)["teams"]
    change = {c.user_id: c for c in update.rating_changes}
    for first, second in teams:
        assert change[PLAYERS[first]].after_mu - change[PLAYERS[first]].before_mu == pytest.approx(
            change[PLAYERS[second]].after_mu - change[PLAYERS[second]].before_mu, abs=1e-9
        )
    winners = set(update.match.result["winners"])
    assert winners in ({PLAYERS[s] for s in team} for team in teams)
    channel = update.texts_for(None)
    # The result is said once, by the engine's game-over line, with the winning team.
    names = " and ".join(f"<@{u}>" for u in update.match.result["winners"])
    assert channel[-1] == (
        f"Game over: a total reached 50. {names} win with the lowest total, "
        f"{min(state.view(None)['team_totals'])}."
    )
    assert sum("total reached" in text for text in channel) == 1


async def test_current_redraws_a_lobby_and_every_hand(service: MatchService) -> None:
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE)
    lobby = await service.current(opened.match_id)
    assert lobby.kind == "refresh" and lobby.match.status == "lobby" and lobby.pictures == ()
    started = await _table(service, 2)
    await service.play(started.match_id, ALICE, "draw")
    refreshed = await service.current(started.match_id)
    assert {p.for_user for p in refreshed.pictures if p.kind == "hand"} == {ALICE, BOB}
    assert refreshed.messages == ()


async def test_a_team_deal_times_out_with_both_looks_for_everyone(
    service: MatchService, clock: ManualClock
) -> None:
    started = await _table(service, 4, teams=True)
    state = await _engine_state(service, started.match_id)
    assert state.waiting_for()["step"] == "look"
    assert started.match.deadline_at == clock.now + 120
    clock.advance(120)
    (timeout,) = await service.tick()
    log = await service.action_log(started.match_id)
    looks = [(a.seat, a.action) for a in log if a.action.startswith("look")]
    assert sorted(seat for seat, _ in looks) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert all(a.user_id is None for a in log if a.action.startswith("look"))
    assert [s.timeouts for s in timeout.match.seats] == [1, 1, 1, 1]
    state = await _engine_state(service, started.match_id)
    assert state.waiting_for()["step"] == "turn"
    assert timeout.match.deadline_at == clock.now + 300


async def test_dealing_the_next_round_is_never_a_timeout(
    service: MatchService, clock: ManualClock
) -> None:
    started = await _table(service, 2, target=100)
    # Seat 0 calls Leiff at once: the round ends with small totals, the game goes on.
    await service.play(started.match_id, ALICE, "leiff")
    state = await _engine_state(service, started.match_id)
    assert state.waiting_for()["step"] == "next"
    match = await service.get_match(started.match_id)
    assert match.warn_at is None and match.deadline_at is not None
    clock.now = match.deadline_at
    (dealt,) = await service.tick()
    assert dealt.kind == "timeout"
    assert not any("ran out of time" in text for text in dealt.texts_for(None))
    assert [s.timeouts for s in dealt.match.seats] == [0, 0]
    state = await _engine_state(service, started.match_id)
    assert state.waiting_for()["round"] == 2


async def test_engine_reasons_name_players_by_mention(service: MatchService) -> None:
    started = await _table(service, 2)
    with pytest.raises(NotYourTurn) as refused:
        await service.play(started.match_id, BOB, "take")
    assert "{p" not in str(refused.value) and "<@11>" in str(refused.value)


async def test_a_leiff_action_after_the_deadline_is_refused_and_the_default_played(
    service: MatchService, clock: ManualClock
) -> None:
    started = await _table(service, 2)
    clock.advance(300)
    with pytest.raises(TooLate, match="clock played the default") as late:
        await service.leiff_action(started.match_id, ALICE, "take")
    assert late.value.update.kind == "timeout"
    state = await _engine_state(service, started.match_id)
    assert state.log[-1] == (0, "draw")  # the default, as the tick would have played it
    assert (await service.get_match(started.match_id)).seats[0].timeouts == 1
    assert await service.tick() == []
    # An out-of-turn action by someone else is judged the same way: the deadline came first.
    clock.advance(120)
    with pytest.raises(TooLate):
        await service.leiff_action(started.match_id, BOB, "match 1")
    assert (await _engine_state(service, started.match_id)).log[-1] == (0, "discard")


async def test_joining_a_table_after_its_expiry_closes_it(
    service: MatchService, clock: ManualClock
) -> None:
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE)
    clock.advance(901)
    with pytest.raises(TooLate, match="nobody started") as late:
        await service.join_lobby(opened.match_id, BOB)
    assert late.value.update.kind == "lobby_expired"
    assert (await service.get_match(opened.match_id)).status == "aborted"


def _hand_version(update: Update, user: int) -> int:
    return next(b.version for b in update.buttons if b.for_user == user)


async def test_a_click_stays_good_while_nothing_changed_for_its_player(
    service: MatchService,
) -> None:
    """At a team deal everyone owes two looks at once: one player's look leaves the others'
    buttons as they were, so each player's first click on their own message is accepted."""
    started = await _table(service, 4, teams=True)
    versions = {user: _hand_version(started, user) for user in PLAYERS[:4]}
    assert len(set(versions.values())) == 4 and min(versions.values()) > started.version
    for user in PLAYERS[:4]:
        looked = await service.leiff_action(started.match_id, user, "look 1", versions[user])
        assert looked.kind == "action"
        # Only the player who acted gets new buttons; the others' stay valid as they are.
        assert [b.for_user for b in looked.buttons] == [user]
        versions[user] = _hand_version(looked, user)
    for user in reversed(PLAYERS[:4]):
        await service.leiff_action(started.match_id, user, "look 2", versions[user])
    state = await _engine_state(service, started.match_id)
    assert state.waiting_for()["step"] == "turn"


async def test_a_click_is_stale_when_something_changed_for_its_player(
    service: MatchService,
) -> None:
    started = await _table(service, 2)
    mine = _hand_version(started, ALICE)
    drew = await service.leiff_action(started.match_id, ALICE, "draw", mine)
    assert _hand_version(drew, ALICE) != mine
    with pytest.raises(StaleVersion, match="your cards or your choices changed"):
        await service.leiff_action(started.match_id, ALICE, "discard", mine)
    discarded = await service.leiff_action(
        started.match_id, ALICE, "discard", _hand_version(drew, ALICE)
    )
    assert discarded.kind == "action"


async def test_a_hand_shown_on_request_tells_what_the_last_step_taught(
    service: MatchService,
) -> None:
    started = await _table(service, 3)
    dealt = [m.text for m in started.messages if m.to == CAROL]
    assert dealt and dealt[0].startswith("You look at your slots 1 and 2")
    shown = await service.current(started.match_id, for_user=CAROL)
    assert [m.text for m in shown.messages if m.to == CAROL] == dealt
    assert not [m for m in shown.messages if m.to not in (None, CAROL)]


async def test_a_refused_choice_says_in_words_what_the_player_may_do(
    service: MatchService,
) -> None:
    started = await _table(service, 4, teams=True)
    with pytest.raises(IllegalAction) as refused:
        await service.leiff_action(started.match_id, BOB, "peek 2.1")
    assert str(refused.value) == "you cannot do that now: choose one of your cards to look at"
    for user in PLAYERS[:4]:
        for slot in (1, 2):
            await service.leiff_action(started.match_id, user, f"look {slot}")
    state = await _engine_state(service, started.match_id)
    turn = PLAYERS[state.waiting_for()["turn"]]
    with pytest.raises(IllegalAction) as refused:
        await service.leiff_action(started.match_id, turn, "swap 2")
    text = str(refused.value)
    assert text.startswith("you cannot do that now: draw a card, take the discard or call Leiff")
    assert "you may" not in text and not any(ch.isdigit() for ch in text)
    # A malformed action still gets the engine's own explanation.
    with pytest.raises(IllegalAction, match="at most 100 characters"):
        await service.leiff_action(started.match_id, turn, "rule " + "x" * 101)


async def test_lobby_lines_leave_the_options_and_the_count_to_the_table_message(
    service: MatchService,
) -> None:
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE)
    assert [m.text for m in opened.messages] == ["<@11> opens a Leiff table. Join in!"]
    joined = await service.join_lobby(opened.match_id, BOB)
    assert [m.text for m in joined.messages] == ["<@12> joins the table."]
    started = await service.start_lobby(opened.match_id, ALICE)
    assert started.messages[0].text == "The game starts with 2 players (to 50 points)."


async def test_the_end_of_a_round_pings_nobody(service: MatchService) -> None:
    started = await _table(service, 2)
    ended = await service.leiff_action(started.match_id, ALICE, "leiff")
    state = await _engine_state(service, started.match_id)
    assert state.waiting_for()["step"] == "next"
    assert ended.mentions == ()
    dealt = await service.leiff_action(started.match_id, BOB, "next")
    assert dealt.mentions  # the new round's first player is pinged again


@pytest.mark.parametrize("options", [{}, {"specials": True, "drinking": True}, {"teams": True}])
def test_a_hand_version_changes_only_with_a_hand_update(options: dict[str, object]) -> None:
    """Whenever a player's hand version changes, the update carries their new hand and
    buttons (``hand_changed``): a message left unedited always holds a valid version."""
    from matchcore.service.leiff_logic import hand_changed, hand_version

    for seed in range(6):
        rng = random.Random(seed)
        players = 4 if options.get("teams") else 3
        state = get_game("leiff").new(players=players, seed=seed, options=options)
        for _ in range(150):
            if state.outcome is not None:
                break
            seat, action = random_action(state, rng)
            after = state.play(seat, action)
            for viewer in range(players):
                before_version = hand_version(state.view(viewer), viewer)
                if hand_version(after.view(viewer), viewer) != before_version:
                    assert hand_changed(state, after, viewer), (seed, action, viewer)
            state = after
