"""Members' preferences in the service: stored choices, defaults, validation, and the
server theme setting (the hints' default over finished games: tests/bot/test_hints.py)."""

from __future__ import annotations

import pytest

from bot.service import InvalidSettings, MatchService
from tests.service.helpers import ALICE, BOB, GUILD


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
