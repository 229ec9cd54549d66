"""Slash commands carry German names, descriptions, options and choices for German clients.

The bot syncs its commands through the simulator (which refuses what Discord would refuse,
names included); these tests read what was synced, as Discord stores it.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.common.languages import LANGUAGE_NAMES
from discord_sim.command_schema import DISCORD_LOCALES, command_problem, name_problem
from engine import GAME_NAMES

pytestmark = pytest.mark.usefixtures("bot")


def _walk(command: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(path, item) for the command, each option and each choice."""
    items = [(command["name"], command)]
    for option in command.get("options") or []:
        path = f"{command['name']} {option['name']}"
        items.append((path, option))
        for choice in option.get("choices") or []:
            items.append((f"{path} = {choice['value']}", choice))
    return items


def test_every_command_has_a_german_name_and_description(sim: Any, world: Any) -> None:
    commands = sim.commands(world.guild)
    assert len(commands) >= 10
    german_names = set()
    for command in commands:
        german = command["name_localizations"]["de"]
        assert name_problem(german) is None, german
        assert german != command["name"]
        german_names.add(german)
        assert command["description_localizations"]["de"] != command["description"]
    assert len(german_names) == len(commands)  # no two commands share a German name
    assert {"spielen", "zug", "aufgeben", "regeln", "einstellungen"} <= german_names


def test_every_option_and_choice_is_localised(sim: Any, world: Any) -> None:
    for command in sim.commands(world.guild):
        names_in_command = set()
        for path, item in _walk(command):
            if "value" in item:  # a choice
                if item["value"] in GAME_NAMES or item["name"] in LANGUAGE_NAMES.values():
                    # the games' names are proper names, the same in every language, and
                    # each language is named in its own words
                    assert not item.get("name_localizations"), path
                    continue
                german = item["name_localizations"]["de"]
                assert 1 <= len(german) <= 100, path
                continue
            if item is command:
                continue
            german = item["name_localizations"]["de"]
            assert name_problem(german) is None, (path, german)
            assert german not in names_in_command, path
            names_in_command.add(german)
            assert item["description_localizations"]["de"], path


def test_only_german_is_localised_and_english_is_the_default(sim: Any, world: Any) -> None:
    for command in sim.commands(world.guild):
        for path, item in _walk(command):
            for field in ("name_localizations", "description_localizations"):
                assert set(item.get(field) or {}) <= {"de"}, (path, field)
                assert set(item.get(field) or {}) <= DISCORD_LOCALES
    play = next(c for c in sim.commands(world.guild) if c["name"] == "play")
    assert play["name_localizations"] == {"de": "spielen"}
    # the levels are autocompleted (each with its strength in the game chosen: test_play_levels)
    level = next(o for o in play["options"] if o["name"] == "level")
    assert level["autocomplete"] is True and not level.get("choices")
    assert level["name_localizations"]["de"] == "stufe"
    target = next(o for o in play["options"] if o["name"] == "target")
    assert [c["name_localizations"]["de"] for c in target["choices"]] == ["50 (kurz)", "100 (lang)"]


def test_the_synced_commands_pass_discord_s_checks(sim: Any, world: Any) -> None:
    for index, command in enumerate(sim.commands(world.guild)):
        assert command_problem(index, command) is None


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("spielen", True),
        ("größe", True),
        ("board_move-seconds", True),
        ("Spielen", False),
        ("zwei wörter", False),
        ("", False),
        ("x" * 33, False),
        ("zug!", False),
    ],
)
def test_the_simulator_checks_names_as_discord_does(name: str, ok: bool) -> None:
    assert (name_problem(name) is None) is ok


def test_the_simulator_refuses_what_discord_refuses_in_localisations() -> None:
    command = {
        "name": "play",
        "type": 1,
        "description": "Play",
        "name_localizations": {"de": "spielen"},
        "options": [{"name": "game", "type": 3, "description": "Which game"}],
    }
    assert command_problem(0, command) is None
    assert command_problem(0, {**command, "name_localizations": {"de": "Spielen"}}) == (
        "0.name_localizations.de",
        "Command name is invalid",
    )
    assert command_problem(0, {**command, "name_localizations": {"german": "spielen"}})
    assert command_problem(0, {**command, "description_localizations": {"de": "x" * 101}})
    bad_option = {"name": "game", "type": 3, "description": "…", "name_localizations": {"de": ""}}
    assert command_problem(0, {**command, "options": [bad_option]}) == (
        "0.options.0.name_localizations.de",
        "Must be between 1 and 32 in length.",
    )
