"""Per-server settings: defaults, validation in one place, permission, persistence."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service import Forbidden, GuildSettings, InvalidSettings, MatchService
from tests.service.helpers import ALICE, GUILD, ManualClock, open_service


async def test_defaults_for_a_new_server(service: MatchService) -> None:
    settings = await service.get_settings(GUILD)
    assert settings == GuildSettings()
    assert settings.board_move_seconds == 86400 and settings.leiff_target == 50
    assert settings.allowed_channels == ()
    assert len(settings.describe()) == len(GuildSettings.all_keys())


async def test_changes_need_manage_server(service: MatchService) -> None:
    with pytest.raises(Forbidden, match="Manage Server"):
        await service.update_settings(GUILD, ALICE, False, leiff_target=100)
    assert (await service.get_settings(GUILD)).leiff_target == 50


async def test_valid_changes_are_normalised_and_kept(db_path: Path, clock: ManualClock) -> None:
    repo, service = await open_service(db_path, clock)
    updated = await service.update_settings(
        GUILD,
        ALICE,
        True,
        leiff_target=100,
        leiff_drinking=True,
        leiff_water=True,
        allowed_channels=[7, 5, 7],
        board_move_seconds=3600,
    )
    assert updated.leiff_target == 100 and updated.leiff_drinking and updated.leiff_water
    assert updated.allowed_channels == (5, 7)
    await repo.close()
    repo, service = await open_service(db_path, clock)
    assert await service.get_settings(GUILD) == updated
    assert await service.get_settings(GUILD + 1) == GuildSettings()
    await repo.close()


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"leiff_target": 75}, "50 or 100"),
        ({"board_move_seconds": 5}, "between 60 and"),
        ({"leiff_max_timeouts": True}, "whole number"),
        ({"leiff_specials": "maybe"}, "true or false"),
        # words are the edges' to read ("on", "an", "1 day"): the service takes values
        ({"leiff_specials": "on"}, "true or false"),
        ({"board_move_seconds": "86400"}, "whole number"),
        ({"allowed_channels": "general"}, "list of channel ids"),
        ({"allowed_channels": ["general"]}, "whole number"),
        ({"allowed_channels": [-3]}, "channel ids"),
        ({"colour": "blue"}, "no setting 'colour'"),
        ({}, "no settings"),
    ],
)
async def test_invalid_changes_are_refused_with_the_reason(
    service: MatchService, changes: dict[str, object], reason: str
) -> None:
    with pytest.raises(InvalidSettings, match=reason):
        await service.update_settings(GUILD, ALICE, True, **changes)


async def test_one_bad_change_refuses_all_of_them(service: MatchService) -> None:
    with pytest.raises(InvalidSettings):
        await service.update_settings(GUILD, ALICE, True, leiff_target=100, leiff_turn_seconds=1)
    assert await service.get_settings(GUILD) == GuildSettings()


def test_stored_values_out_of_range_fall_back_to_defaults() -> None:
    loaded = GuildSettings.from_stored({"leiff_target": 30, "max_matches_per_user": 9, "gone": 1})
    assert loaded.leiff_target == 50 and loaded.max_matches_per_user == 9
