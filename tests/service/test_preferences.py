"""Members' preferences in the service: stored choices, defaults, validation, and the
server theme setting (the hints' default over finished games: tests/bot/test_hints.py), and
how long another process's change takes to be seen (both are kept in memory a while)."""

from __future__ import annotations

from pathlib import Path

import pytest

from matchcore.service import InvalidSettings, MatchService
from matchcore.service.preferences import HINT_GAMES
from matchcore.service.store import SETTINGS_SECONDS
from tests.service.helpers import (
    ALICE,
    BOB,
    GUILD,
    ManualClock,
    open_service,
    start_board_match,
)


async def test_nothing_chosen_reads_as_the_defaults(service: MatchService) -> None:
    chosen = await service.preferences(ALICE)
    assert (chosen.hints, chosen.theme) == (None, None)
    assert await service.hints_on(ALICE, "lefe")  # no game finished yet


async def test_choices_change_one_at_a_time_and_go_back_to_the_default(
    service: MatchService,
) -> None:
    await service.set_preferences(ALICE, theme="night")
    chosen = await service.set_preferences(ALICE, hints=False)
    assert (chosen.hints, chosen.theme) == (False, "night")
    assert not await service.hints_on(ALICE, "lefe")
    chosen = await service.set_preferences(ALICE, hints=None, theme=None)
    assert (chosen.hints, chosen.theme) == (None, None)
    assert (await service.preferences(BOB)).theme is None  # one member's choice only


async def test_a_theme_that_does_not_exist_is_refused(service: MatchService) -> None:
    with pytest.raises(InvalidSettings, match="classic, night, paper"):
        await service.set_preferences(ALICE, theme="neon")
    with pytest.raises(InvalidSettings):
        await service.set_preferences(ALICE, hints="maybe")
    assert (await service.preferences(ALICE)).theme is None


async def test_the_server_theme_is_a_setting(service: MatchService) -> None:
    assert (await service.get_settings(GUILD)).theme == "classic"
    updated = await service.update_settings(GUILD, ALICE, True, theme="Paper")
    assert updated.theme == "paper"
    with pytest.raises(InvalidSettings, match="theme must be one of"):
        await service.update_settings(GUILD, ALICE, True, theme="neon")
    assert (await service.get_settings(GUILD)).theme == "paper"


async def test_a_game_finished_here_counts_for_the_hints_at_once(
    service: MatchService, clock: ManualClock
) -> None:
    # The hints' facts are kept in memory; a match that finishes through this process
    # makes them out of date at once (not only after SETTINGS_SECONDS).
    for _ in range(HINT_GAMES):
        assert await service.hints_on(ALICE, "lefe")
        started = await start_board_match(service)
        assert started.match_id is not None
        await service.resign(started.match_id, BOB)
        clock.advance(3600)  # past the challenge cooldown
    assert not await service.hints_on(ALICE, "lefe")
    assert await service.hints_on(ALICE, "dalen")  # a game of its own


async def test_a_choice_made_through_another_process_is_seen_within_seconds(
    db_path: Path, clock: ManualClock
) -> None:
    repo_a, here = await open_service(db_path, clock)
    repo_b, there = await open_service(db_path, clock)
    seconds = [0.0]
    there.prefs.cache_clock = lambda: seconds[0]
    try:
        assert await there.hints_on(ALICE, "lefe")
        assert (await there.preferences(ALICE)).theme is None
        await here.set_preferences(ALICE, hints=False, theme="night")
        assert not await here.hints_on(ALICE, "lefe")  # at once where it was changed
        assert (await here.preferences(ALICE)).theme == "night"
        # the other process answers from what it read, for a few seconds
        assert await there.hints_on(ALICE, "lefe")
        seconds[0] += SETTINGS_SECONDS
        assert not await there.hints_on(ALICE, "lefe")
        assert (await there.preferences(ALICE)).theme == "night"
    finally:
        await repo_a.close()
        await repo_b.close()
