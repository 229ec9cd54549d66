"""The slash commands: each one reads its options and calls one controller method.

Kept deliberately few: ``/play``, ``/move``, ``/board``, ``/resign``, ``/games``,
``/replay``, ``/rules``, ``/leaderboard``, ``/stats`` and ``/settings`` (Manage Server).
Their names, descriptions, option names and choices are message ids (``command_text``):
English by default, German for German clients (:mod:`bot.commands.translator`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.commands.translator import command_text
from engine import GAME_NAMES, get_game
from engine.ai.levels import LEVEL_NAMES
from i18n import N_

if TYPE_CHECKING:
    from bot.app import LeafBot

GAME_CHOICES = [
    app_commands.Choice(name=get_game(name).title if name != "leiff" else "Leiff", value=name)
    for name in GAME_NAMES
]
BOARD_GAME_CHOICES = [c for c in GAME_CHOICES if c.value != "leiff"]
# the levels' ids, one per engine level (a test checks that every level has one)
LEVEL_TEXT_IDS = {
    "easy": N_("command.play.level.easy"),
    "normal": N_("command.play.level.normal"),
    "hard": N_("command.play.level.hard"),
}
LEVEL_CHOICES = [
    app_commands.Choice(name=command_text(LEVEL_TEXT_IDS[name]), value=name) for name in LEVEL_NAMES
]
# each setting key with the message id of its choice (English: the key itself)
SETTING_TEXT_IDS = {
    "leiff_drinking": N_("command.settings.key.leiff_drinking"),
    "leiff_water": N_("command.settings.key.leiff_water"),
    "leiff_specials": N_("command.settings.key.leiff_specials"),
    "leiff_target": N_("command.settings.key.leiff_target"),
    "leiff_teams_allowed": N_("command.settings.key.leiff_teams_allowed"),
    "board_move_seconds": N_("command.settings.key.board_move_seconds"),
    "leiff_turn_seconds": N_("command.settings.key.leiff_turn_seconds"),
    "leiff_choice_seconds": N_("command.settings.key.leiff_choice_seconds"),
    "leiff_max_timeouts": N_("command.settings.key.leiff_max_timeouts"),
    "challenge_expiry_seconds": N_("command.settings.key.challenge_expiry_seconds"),
    "challenge_cooldown_seconds": N_("command.settings.key.challenge_cooldown_seconds"),
    "max_matches_per_user": N_("command.settings.key.max_matches_per_user"),
    "allowed_channels": N_("command.settings.key.allowed_channels"),
}
SETTING_KEYS = tuple(SETTING_TEXT_IDS)


def _bot(interaction: discord.Interaction) -> LeafBot:
    return interaction.client  # type: ignore[return-value]


@app_commands.command(
    name=command_text("command.play.name"),
    description=command_text("command.play.description"),
)
@app_commands.rename(
    game=command_text("command.option.game"),
    opponent=command_text("command.option.opponent"),
    size=command_text("command.option.size"),
    variant=command_text("command.option.variant"),
    target=command_text("command.option.target"),
    teams=command_text("command.option.teams"),
    level=command_text("command.option.level"),
)
@app_commands.describe(
    game=command_text("command.play.game"),
    opponent=command_text("command.play.opponent"),
    size=command_text("command.play.size"),
    variant=command_text("command.play.variant"),
    target=command_text("command.play.target"),
    teams=command_text("command.play.teams"),
    level=command_text("command.play.level"),
)
@app_commands.choices(
    game=GAME_CHOICES,
    level=LEVEL_CHOICES,
    target=[
        app_commands.Choice(name=command_text("command.play.target.short"), value=50),
        app_commands.Choice(name=command_text("command.play.target.long"), value=100),
    ],
)
@app_commands.guild_only()
async def play_command(
    interaction: discord.Interaction,
    game: app_commands.Choice[str],
    opponent: discord.Member | None = None,
    size: app_commands.Range[int, 3, 15] | None = None,
    variant: bool | None = None,
    target: app_commands.Choice[int] | None = None,
    teams: bool | None = None,
    level: app_commands.Choice[str] | None = None,
) -> None:
    options: dict[str, object] = {}
    if game.value == "leiff":
        if target is not None:
            options["target"] = target.value
        if teams is not None:
            options["teams"] = teams
    elif variant is not None:
        options["variant"] = variant
    await _bot(interaction).controller.play(
        interaction, game.value, opponent, size, options, level.value if level else None
    )


@app_commands.command(
    name=command_text("command.move.name"), description=command_text("command.move.description")
)
@app_commands.rename(
    cell=command_text("command.option.cell"), match=command_text("command.option.match")
)
@app_commands.describe(
    cell=command_text("command.move.cell"), match=command_text("command.move.match")
)
@app_commands.guild_only()
async def move_command(
    interaction: discord.Interaction,
    cell: str,
    match: app_commands.Range[int, 1] | None = None,
) -> None:
    await _bot(interaction).controller.move(interaction, cell, match)


@move_command.autocomplete("cell")
async def move_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return await _bot(interaction).controller.move_autocomplete(interaction, current)


@move_command.autocomplete("match")
async def move_match_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    return await _bot(interaction).controller.match_autocomplete(interaction, current)


@app_commands.command(
    name=command_text("command.board.name"), description=command_text("command.board.description")
)
@app_commands.guild_only()
async def board_command(interaction: discord.Interaction) -> None:
    await _bot(interaction).controller.board(interaction)


@app_commands.command(
    name=command_text("command.resign.name"), description=command_text("command.resign.description")
)
@app_commands.rename(match=command_text("command.option.match"))
@app_commands.describe(match=command_text("command.resign.match"))
@app_commands.guild_only()
async def resign_command(
    interaction: discord.Interaction, match: app_commands.Range[int, 1] | None = None
) -> None:
    await _bot(interaction).controller.resign(interaction, match)


@resign_command.autocomplete("match")
async def resign_match_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    return await _bot(interaction).controller.match_autocomplete(interaction, current)


@app_commands.command(
    name=command_text("command.games.name"), description=command_text("command.games.description")
)
@app_commands.guild_only()
async def games_command(interaction: discord.Interaction) -> None:
    await _bot(interaction).controller.games(interaction)


@app_commands.command(
    name=command_text("command.replay.name"), description=command_text("command.replay.description")
)
@app_commands.rename(match=command_text("command.option.match"))
@app_commands.describe(match=command_text("command.replay.match"))
@app_commands.guild_only()
async def replay_command(
    interaction: discord.Interaction, match: app_commands.Range[int, 1]
) -> None:
    await _bot(interaction).controller.replay(interaction, match)


@app_commands.command(
    name=command_text("command.rules.name"), description=command_text("command.rules.description")
)
@app_commands.rename(game=command_text("command.option.game"))
@app_commands.describe(game=command_text("command.rules.game"))
@app_commands.choices(game=GAME_CHOICES)
async def rules_command(interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
    await _bot(interaction).controller.rules(interaction, game.value)


@app_commands.command(
    name=command_text("command.leaderboard.name"),
    description=command_text("command.leaderboard.description"),
)
@app_commands.rename(game=command_text("command.option.game"))
@app_commands.describe(game=command_text("command.leaderboard.game"))
@app_commands.choices(game=GAME_CHOICES)
@app_commands.guild_only()
async def leaderboard_command(
    interaction: discord.Interaction, game: app_commands.Choice[str]
) -> None:
    await _bot(interaction).controller.leaderboard(interaction, game.value)


@app_commands.command(
    name=command_text("command.stats.name"), description=command_text("command.stats.description")
)
@app_commands.rename(member=command_text("command.option.member"))
@app_commands.describe(member=command_text("command.stats.member"))
@app_commands.guild_only()
async def stats_command(
    interaction: discord.Interaction, member: discord.Member | None = None
) -> None:
    await _bot(interaction).controller.stats(interaction, member)


@app_commands.command(
    name=command_text("command.settings.name"),
    description=command_text("command.settings.description"),
)
@app_commands.rename(
    key=command_text("command.option.key"), value=command_text("command.option.value")
)
@app_commands.describe(
    key=command_text("command.settings.key"), value=command_text("command.settings.value")
)
@app_commands.choices(
    key=[
        app_commands.Choice(name=command_text(text), value=key)
        for key, text in SETTING_TEXT_IDS.items()
    ]
)
@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
async def settings_command(
    interaction: discord.Interaction,
    key: app_commands.Choice[str] | None = None,
    value: str | None = None,
) -> None:
    await _bot(interaction).controller.settings(interaction, key.value if key else None, value)


COMMANDS = (
    play_command,
    move_command,
    board_command,
    resign_command,
    games_command,
    replay_command,
    rules_command,
    leaderboard_command,
    stats_command,
    settings_command,
)


def register_commands(tree: app_commands.CommandTree) -> None:
    """Add every command to the tree (each bot instance has its own tree)."""
    for command in COMMANDS:
        tree.add_command(command)
