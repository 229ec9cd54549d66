"""Challenges and open seeks: accepting, declining, withdrawing, expiry and the limits."""

from __future__ import annotations

import pytest

from matchcore.service import (
    ChallengeExpired,
    ChannelNotAllowed,
    Cooldown,
    Forbidden,
    InvalidOptions,
    MatchService,
    NotFound,
    SelfChallenge,
    TooManyMatches,
)
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, ManualClock


async def test_a_challenge_names_both_players_and_offers_buttons(service: MatchService) -> None:
    update = await service.challenge(GUILD, CHANNEL, ALICE, "Lefe", BOB, size=7)
    assert update.kind == "challenge"
    assert update.challenge.status == "open" and update.challenge.size == 7
    assert update.mentions == (BOB,)
    assert update.buttons[0].actions == ("accept", "decline", "cancel")
    assert update.messages[0].text == "<@11> challenges <@12> to Lefe, size 7, 1 day per move."


async def test_only_the_target_may_accept_a_challenge(service: MatchService) -> None:
    offer = await service.challenge(GUILD, CHANNEL, ALICE, "lefe", BOB)
    with pytest.raises(Forbidden, match="<@12>"):
        await service.accept_challenge(offer.challenge_id, CAROL)
    with pytest.raises(SelfChallenge):
        await service.accept_challenge(offer.challenge_id, ALICE)
    started = await service.accept_challenge(offer.challenge_id, BOB)
    assert started.match.user_ids == (ALICE, BOB)
    with pytest.raises(ChallengeExpired, match="accepted"):
        await service.accept_challenge(offer.challenge_id, BOB)
    assert (await service.get_challenge(offer.challenge_id)).match_id == started.match_id


async def test_an_open_seek_can_be_taken_by_anyone_once(service: MatchService) -> None:
    seek = await service.challenge(GUILD, CHANNEL, ALICE, "dalen")
    assert seek.buttons[0].actions == ("accept", "cancel")
    assert "looking for an opponent" in seek.messages[0].text
    started = await service.accept_challenge(seek.challenge_id, CAROL)
    assert started.match.user_ids == (ALICE, CAROL)
    with pytest.raises(ChallengeExpired):
        await service.accept_challenge(seek.challenge_id, BOB)


async def test_decline_by_target_and_cancel_by_challenger(
    service: MatchService, clock: ManualClock
) -> None:
    offer = await service.challenge(GUILD, CHANNEL, ALICE, "lefe", BOB)
    with pytest.raises(Forbidden):
        await service.decline_challenge(offer.challenge_id, CAROL)
    declined = await service.decline_challenge(offer.challenge_id, BOB)
    assert declined.challenge.status == "declined" and declined.buttons[0].actions == ()
    clock.advance(60)
    offer = await service.challenge(GUILD, CHANNEL, ALICE, "lefe", BOB)
    with pytest.raises(Forbidden):
        await service.cancel_challenge(offer.challenge_id, BOB)
    cancelled = await service.cancel_challenge(offer.challenge_id, ALICE)
    assert cancelled.challenge.status == "cancelled"
    with pytest.raises(ChallengeExpired):
        await service.decline_challenge(offer.challenge_id, BOB)
    with pytest.raises(NotFound):
        await service.accept_challenge(offer.challenge_id + 10, BOB)
    with pytest.raises(NotFound):
        await service.get_challenge(offer.challenge_id + 10)


async def test_no_challenging_yourself(service: MatchService) -> None:
    with pytest.raises(SelfChallenge):
        await service.challenge(GUILD, CHANNEL, ALICE, "lefe", ALICE)


async def test_cooldown_between_challenges(service: MatchService, clock: ManualClock) -> None:
    await service.challenge(GUILD, CHANNEL, ALICE, "lefe", BOB)
    clock.advance(10)
    with pytest.raises(Cooldown) as refused:
        await service.challenge(GUILD, CHANNEL, ALICE, "lefe", CAROL)
    assert refused.value.retry_after == pytest.approx(20)
    assert "20 s" in str(refused.value)
    clock.advance(20)
    await service.challenge(GUILD, CHANNEL, ALICE, "lefe", CAROL)


async def test_limit_on_running_matches(service: MatchService, clock: ManualClock) -> None:
    await service.update_settings(
        GUILD, ALICE, True, max_matches_per_user=1, challenge_cooldown_seconds=0
    )
    first = await service.challenge(GUILD, CHANNEL, ALICE, "lefe", BOB)
    second = await service.challenge(GUILD, CHANNEL, CAROL, "lefe", BOB)
    await service.accept_challenge(first.challenge_id, BOB)
    with pytest.raises(TooManyMatches, match="you already have 1"):
        await service.challenge(GUILD, CHANNEL, ALICE, "lefe", CAROL)
    with pytest.raises(TooManyMatches, match="you already have 1"):
        await service.accept_challenge(second.challenge_id, BOB)
    seek = await service.challenge(GUILD, CHANNEL, CAROL, "lefe")
    with pytest.raises(TooManyMatches, match="you already have 1"):
        await service.accept_challenge(seek.challenge_id, ALICE)


async def test_limit_counts_the_challenger_when_accepting(service: MatchService) -> None:
    await service.update_settings(
        GUILD, ALICE, True, max_matches_per_user=1, challenge_cooldown_seconds=0
    )
    seek = await service.challenge(GUILD, CHANNEL, ALICE, "lefe")
    other = await service.challenge(GUILD, CHANNEL, ALICE, "lefe", BOB)
    await service.accept_challenge(other.challenge_id, BOB)
    with pytest.raises(TooManyMatches, match="<@11> already has 1"):
        await service.accept_challenge(seek.challenge_id, CAROL)


async def test_unanswered_challenges_expire_on_tick(
    service: MatchService, clock: ManualClock
) -> None:
    offer = await service.challenge(GUILD, CHANNEL, ALICE, "lefe", BOB)
    clock.advance(899)
    assert await service.tick() == []
    assert [c.id for c in await service.open_challenges(GUILD, BOB)] == [offer.challenge_id]
    clock.advance(1)
    with pytest.raises(ChallengeExpired, match="expired"):
        await service.accept_challenge(offer.challenge_id, BOB)
    assert await service.open_challenges(GUILD) == []
    updates = await service.tick()
    assert [(u.kind, u.challenge_id) for u in updates] == [
        ("challenge_expired", offer.challenge_id)
    ]
    assert updates[0].challenge.status == "expired"
    assert await service.tick() == []


async def test_bad_game_size_or_option_is_refused(service: MatchService) -> None:
    with pytest.raises(InvalidOptions, match="unknown game"):
        await service.challenge(GUILD, CHANNEL, ALICE, "chess", BOB)
    with pytest.raises(InvalidOptions, match="sizes 5, 6 or 7, not"):
        await service.challenge(GUILD, CHANNEL, ALICE, "lefe", BOB, size=99)
    with pytest.raises(InvalidOptions, match="no option"):
        await service.challenge(GUILD, CHANNEL, ALICE, "lefe", BOB, options={"colour": "red"})
    with pytest.raises(InvalidOptions, match="table"):
        await service.challenge(GUILD, CHANNEL, ALICE, "leiff", BOB)


async def test_games_only_in_allowed_channels(service: MatchService) -> None:
    await service.update_settings(GUILD, ALICE, True, allowed_channels=[CHANNEL + 1])
    with pytest.raises(ChannelNotAllowed):
        await service.challenge(GUILD, CHANNEL, ALICE, "lefe", BOB)
    with pytest.raises(ChannelNotAllowed):
        await service.open_lobby(GUILD, CHANNEL, ALICE)
    allowed = await service.challenge(GUILD, CHANNEL + 1, ALICE, "lefe", BOB, thread_id=5)
    assert allowed.thread_id == 5


async def test_no_cooldown_when_it_is_off_even_if_the_clock_went_back(
    service: MatchService, clock: ManualClock
) -> None:
    await service.update_settings(GUILD, ALICE, True, challenge_cooldown_seconds=0)
    await service.challenge(GUILD, CHANNEL, ALICE, "lefe", BOB)
    clock.advance(-5)
    again = await service.challenge(GUILD, CHANNEL, ALICE, "lefe", CAROL)
    assert again.challenge.status == "open"


async def test_the_limit_counts_only_matches_the_player_can_still_act_in(
    service: MatchService,
) -> None:
    """A Leiff table the player left runs on without them: it no longer fills their limit."""
    await service.update_settings(
        GUILD, ALICE, True, max_matches_per_user=1, challenge_cooldown_seconds=0
    )
    table = await service.open_lobby(GUILD, CHANNEL, CAROL)
    for user in (ALICE, BOB):
        await service.join_lobby(table.match_id, user)
    await service.start_lobby(table.match_id, CAROL)
    with pytest.raises(
        TooManyMatches, match=rf"a Leiff table \(#{table.match_id}\) in <#{CHANNEL}>"
    ):
        await service.challenge(GUILD, CHANNEL, ALICE, "lefe", BOB)
    left = await service.resign(table.match_id, ALICE)
    assert left.match.status == "running"  # Bob and Carol play on
    offer = await service.challenge(GUILD, CHANNEL, ALICE, "lefe", BOB)
    assert offer.kind == "challenge"


async def test_the_limit_says_where_the_running_matches_are(service: MatchService) -> None:
    await service.update_settings(
        GUILD, ALICE, True, max_matches_per_user=1, challenge_cooldown_seconds=0
    )
    first = await service.challenge(GUILD, CHANNEL, ALICE, "dalen", BOB)
    started = await service.accept_challenge(first.challenge_id, BOB)
    with pytest.raises(TooManyMatches) as refused:
        await service.challenge(GUILD, CHANNEL, ALICE, "lefe", CAROL)
    assert str(refused.value) == (
        "you already have 1 game running (the limit here is 1): "
        f"Dalen vs <@{BOB}> (#{started.match_id}) in <#{CHANNEL}>"
    )
