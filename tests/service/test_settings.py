"""Per-server settings: defaults, validation in one place, permission, persistence."""

from __future__ import annotations

from pathlib import Path

import pytest

import render.themes
from bot.common.choices import service_choices
from matchcore.service import (
    Choices,
    Forbidden,
    GuildSettings,
    InvalidRequest,
    InvalidSettings,
    MatchService,
)
from matchcore.service.guild_settings import DEFAULT_THEME
from matchcore.storage import open_repository
from tests.service.helpers import ALICE, BOB, GUILD, ManualClock, open_service


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
    loaded = GuildSettings.from_stored(
        {"leiff_target": 30, "max_matches_per_user": 9, "gone": 1, "theme": "sepia"},
        service_choices(),
    )
    assert loaded.leiff_target == 50 and loaded.max_matches_per_user == 9
    assert loaded.theme == "classic"


# A front end with other pictures and other catalogues than the Discord layer's.
OTHER = Choices(themes=("classic", "sepia"), languages=("en", "fr"))


async def test_themes_and_languages_are_the_front_end_s(db_path: Path) -> None:
    """The core knows no theme nor language of its own: it takes those its front end
    serves, for the servers' settings and the members' preferences alike."""
    repo = await open_repository(db_path)
    try:
        service = MatchService(repo, choices=OTHER)
        updated = await service.update_settings(GUILD, ALICE, True, theme="Sepia", language="fr")
        assert (updated.theme, updated.language) == ("sepia", "fr")
        with pytest.raises(InvalidSettings, match="classic, sepia") as refused:
            await service.update_settings(GUILD, ALICE, True, theme="night")
        assert refused.value.params["themes"] == "classic, sepia"
        with pytest.raises(InvalidSettings) as refused:
            await service.update_settings(GUILD, ALICE, True, language="de")
        assert refused.value.params["languages"] == "en, fr"
        assert (await service.set_preferences(ALICE, theme="sepia")).theme == "sepia"
        with pytest.raises(InvalidSettings, match="classic, sepia"):
            await service.set_preferences(ALICE, theme="night")
        await service.note_member_language(BOB, "fr")
        with pytest.raises(InvalidRequest):
            await service.note_member_language(BOB, "de")
        # the Discord layer's choices: its themes and languages, and not the others
        discord = MatchService(repo, choices=service_choices())
        await discord.update_settings(GUILD, ALICE, True, theme="night", language="de")
        with pytest.raises(InvalidSettings):
            await discord.update_settings(GUILD, ALICE, True, theme="sepia")
    finally:
        await repo.close()


def test_the_default_theme_is_among_the_choices() -> None:
    # the core's default for a server is the renderer's for a picture without a server
    assert DEFAULT_THEME == render.themes.DEFAULT_THEME
    assert service_choices().themes[0] == DEFAULT_THEME
    with pytest.raises(ValueError, match="default"):
        Choices(themes=("night",), languages=("en",))
    with pytest.raises(ValueError, match="language"):
        Choices(themes=("classic",), languages=())
