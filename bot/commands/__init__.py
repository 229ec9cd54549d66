"""The slash commands: each one reads its options and calls one controller method.

Kept deliberately few: ``/play``, ``/move``, ``/board``, ``/resign``, ``/games``,
``/replay``, ``/rules``, ``/leaderboard``, ``/stats`` and ``/settings`` (Manage Server).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from engine import GAME_NAMES, get_game
from engine.ai.levels import LEVEL_NAMES, LEVELS

if TYPE_CHECKING:
    from bot.app import LeafBot

GAME_CHOICES = [
    app_commands.Choice(name=get_game(name).title if name != "leiff" else "Leiff", value=name)
    for name in GAME_NAMES
]
BOARD_GAME_CHOICES = [c for c in GAME_CHOICES if c.value != "leiff"]
LEVEL_CHOICES = [
    app_commands.Choice(name=f"{name}: {LEVELS[name].description}"[:100], value=name)
    for name in LEVEL_NAMES
]
SETTING_KEYS = (
    "leiff_drinking",
    "leiff_water",
    "leiff_specials",
    "leiff_target",
    "leiff_teams_allowed",
    "board_move_seconds",
    "leiff_turn_seconds",
    "leiff_choice_seconds",
    "leiff_max_timeouts",
    "challenge_expiry_seconds",
    "challenge_cooldown_seconds",
    "max_matches_per_user",
    "allowed_channels",
)


def _bot(interaction: discord.Interaction) -> LeafBot:
    return interaction.client  # type: ignore[return-value]


@app_commands.command(
    name="play",
    description="Challenge someone (or anyone, or me) to a game, or open a Leiff table.",
)
@app_commands.describe(
    game="Which game",
    opponent="Who you challenge (me, the bot, to play at once; leave out for an open challenge)",
    size="Board side (board games; each game has its own sizes)",
    variant="Dalen only: capture when a tree cannot gain leaves (instead of size)",
    target="Leiff only: the total that ends the game",
    teams="Leiff only: play in teams of two (4 or 6 players)",
    level="Against me only: how strongly I play (default normal)",
)
@app_commands.choices(
    game=GAME_CHOICES,
    level=LEVEL_CHOICES,
    target=[
        app_commands.Choice(name="50 (short)", value=50),
        app_commands.Choice(name="100 (long)", value=100),
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


MATCH_OPTION = "Which of your board matches here (needed only when you play several here)"


@app_commands.command(name="move", description="Play your move in this channel's match.")
@app_commands.describe(
    cell="The cell (Les: two cells like e5+b2); the list shows your legal moves", match=MATCH_OPTION
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


@app_commands.command(name="board", description="Show your match in this channel again.")
@app_commands.guild_only()
async def board_command(interaction: discord.Interaction) -> None:
    await _bot(interaction).controller.board(interaction)


@app_commands.command(name="resign", description="Resign your board match in this channel.")
@app_commands.describe(match=MATCH_OPTION)
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


@app_commands.command(name="games", description="The matches running on this server.")
@app_commands.guild_only()
async def games_command(interaction: discord.Interaction) -> None:
    await _bot(interaction).controller.games(interaction)


@app_commands.command(
    name="replay", description="An animated replay of a finished board-game match."
)
@app_commands.describe(match="The match number (shown on its board message)")
@app_commands.guild_only()
async def replay_command(
    interaction: discord.Interaction, match: app_commands.Range[int, 1]
) -> None:
    await _bot(interaction).controller.replay(interaction, match)


@app_commands.command(name="rules", description="A short illustrated summary of a game's rules.")
@app_commands.choices(game=GAME_CHOICES)
async def rules_command(interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
    await _bot(interaction).controller.rules(interaction, game.value)


@app_commands.command(name="leaderboard", description="This server's best players of a game.")
@app_commands.choices(game=GAME_CHOICES)
@app_commands.guild_only()
async def leaderboard_command(
    interaction: discord.Interaction, game: app_commands.Choice[str]
) -> None:
    await _bot(interaction).controller.leaderboard(interaction, game.value)


@app_commands.command(name="stats", description="Ratings and results of a player (you by default).")
@app_commands.guild_only()
async def stats_command(
    interaction: discord.Interaction, member: discord.Member | None = None
) -> None:
    await _bot(interaction).controller.stats(interaction, member)


@app_commands.command(name="settings", description="Show or change this server's game settings.")
@app_commands.describe(
    key="The setting to change (leave out to see them all)", value="The new value"
)
@app_commands.choices(key=[app_commands.Choice(name=k, value=k) for k in SETTING_KEYS])
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
