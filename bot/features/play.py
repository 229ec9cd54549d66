"""``/play`` and ``/board``: the two commands every kind of game shares.

``/play`` reads its options and hands the game to the feature of its kind: a board game
becomes a challenge (:mod:`bot.features.board_games`), Leiff a lobby
(:mod:`bot.features.leiff_tables`). ``/board`` posts the caller's match in this channel
again, whatever its game.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any

import discord
from discord import app_commands

from bot.common.context import Context
from bot.common.errors import ErrorHandler, UserFacingError
from bot.common.games import game_choices
from bot.common.levels import chosen_level, level_choices
from bot.common.outgoing import only_for
from bot.common.responder import Responder
from bot.common.time_words import clock_suggestions
from bot.common.translator import command_text
from bot.delivery.delivery import Delivery
from bot.features.game_features import GameFeature, PlayRequest
from engine import game_names, get_spec, specs
from engine.spec import GameKind, OptionSpec
from i18n import N_, language_for


class Play:
    """``/play`` and ``/board``."""

    def __init__(
        self,
        context: Context,
        delivery: Delivery,
        errors: ErrorHandler,
        starters: Mapping[GameKind, GameFeature],
    ) -> None:
        self.context = context
        self.delivery = delivery
        self.errors = errors
        self.starters = dict(starters)

    async def play(
        self,
        interaction: discord.Interaction,
        game: str,
        opponent: discord.abc.User | None,
        size: int | None,
        options: dict[str, object],
        level: str | None = None,
        clock: str | None = None,
    ) -> None:
        async def run(responder: Responder) -> None:
            if interaction.guild_id is None:
                raise UserFacingError("bot.play.error.not_in_dms")
            # typed, not chosen from the list: refused with the levels in the member's words
            chosen = chosen_level(level, language_for(interaction.locale))
            starter = self.starters[get_spec(game).kind]
            await starter.start(
                PlayRequest(interaction, responder, game, opponent, size, options, chosen, clock)
            )

        await self.errors.run(interaction, run)

    async def clock_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The time controls, the server's default for the game chosen first and marked."""
        if interaction.guild_id is None:
            return []
        game = getattr(interaction.namespace, "game", None)
        table = isinstance(game, str) and game in game_names() and is_table_game(game)
        settings = await self.context.service.get_settings(interaction.guild_id)
        seconds = settings.leiff_turn_seconds if table else settings.board_move_seconds
        offered = clock_suggestions(language_for(interaction.locale), current, seconds, table=table)
        return [app_commands.Choice(name=name, value=code) for name, code in offered]

    async def level_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The bot's levels, each with its measured strength in the game chosen where the
        ladder has one."""
        game = getattr(interaction.namespace, "game", None)
        offered = level_choices(language_for(interaction.locale), game, current)
        return [app_commands.Choice(name=name, value=level) for name, level in offered]

    async def board(self, interaction: discord.Interaction) -> None:
        async def run(responder: Responder) -> None:
            if interaction.guild_id is None or interaction.channel_id is None:
                raise UserFacingError("bot.error.use_in_match_channel")
            service = self.context.service
            match = await service.match_in_channel(
                interaction.guild_id, interaction.channel_id, responder.user_id
            )
            if match is None:
                raise UserFacingError("bot.error.no_match_here")
            update = await service.current(match.id, for_user=responder.user_id)
            # showing the board again pings nobody and shows only the caller's own hand
            update = only_for(dataclasses.replace(update, mentions=()), responder.user_id)
            await self.delivery.publish(update, responder, whole=False)

        await self.errors.run(interaction, run)

    # ---- the slash commands ----------------------------------------------------------
    def commands(self) -> list[app_commands.Command[Any, ..., None]]:
        feature = self
        play_command = play_command_from_specs(
            feature.play, feature.clock_autocomplete, feature.level_autocomplete
        )

        @app_commands.command(
            name=command_text("command.board.name"),
            description=command_text("command.board.description"),
        )
        @app_commands.guild_only()
        async def board_command(interaction: discord.Interaction) -> None:
            await feature.board(interaction)

        return [play_command, board_command]


# How the options the catalogues know are named, described and offered (option names are
# the specs'; an option they do not know yet is named by itself and described by its
# spec's label).
OPTION_NAMES = {
    "variant": N_("command.option.variant"),
    "target": N_("command.option.target"),
    "teams": N_("command.option.teams"),
}
OPTION_HELP = {
    "variant": N_("command.play.variant"),
    "target": N_("command.play.target"),
    "teams": N_("command.play.teams"),
}
CHOICE_NAMES = {
    ("target", 50): N_("command.play.target.short"),
    ("target", 100): N_("command.play.target.long"),
}

PlayHandler = Callable[
    [
        discord.Interaction,
        str,
        "discord.abc.User | None",
        "int | None",
        dict[str, object],
        "str | None",
        "str | None",
    ],
    Awaitable[None],
]
Autocomplete = Callable[
    [discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]
]


def is_table_game(game: str) -> bool:
    """Whether the game is played at a table (its spec says so)."""
    return get_spec(game).kind is GameKind.CARDS


def per_match_options() -> dict[str, tuple[OptionSpec, frozenset[GameKind]]]:
    """Every option the players of one match choose, over the registered games: by name,
    the first game's spec of it and the kinds of game that have it."""
    found: dict[str, tuple[OptionSpec, frozenset[GameKind]]] = {}
    for spec in specs():
        for option in spec.options:
            if option.per_match:
                first, kinds = found.get(option.name, (option, frozenset()))
                found[option.name] = (first, kinds | {spec.kind})
    return found


def _option_text(option: OptionSpec) -> tuple[app_commands.locale_str, app_commands.locale_str]:
    name_id, help_id = OPTION_NAMES.get(option.name), OPTION_HELP.get(option.name)
    name = command_text(name_id) if name_id else app_commands.locale_str(option.name)
    if help_id:
        return name, command_text(help_id)
    label = option.label
    return name, app_commands.locale_str(label.english, msgid=label.code)


def _option_choices(option: OptionSpec) -> list[app_commands.Choice[int]]:
    choices = []
    for value in option.choices:
        assert isinstance(value, int)
        msgid = CHOICE_NAMES.get((option.name, value))
        name = command_text(msgid) if msgid else app_commands.locale_str(str(value))
        choices.append(app_commands.Choice(name=name, value=value))
    return choices


def play_command_from_specs(
    play: PlayHandler, clock_autocomplete: Autocomplete, level_autocomplete: Autocomplete
) -> app_commands.Command[Any, ..., None]:
    """``/play``, its options read from the registered games' specs: the game (every
    registered one), the opponent, the board size, each option the players of a match
    choose (a switch, or a choice of the values its spec allows), the bot's level
    (autocompleted, with its measured strength in the game chosen) and the time control
    (autocompleted, the server's default first)."""
    options = per_match_options()
    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        ),
        inspect.Parameter("game", keyword, annotation=app_commands.Choice[str]),
        inspect.Parameter("opponent", keyword, default=None, annotation=discord.Member | None),
        inspect.Parameter(
            "size", keyword, default=None, annotation=app_commands.Range[int, 3, 15] | None
        ),
    ]
    renames: dict[str, app_commands.locale_str] = {
        "game": command_text("command.option.game"),
        "opponent": command_text("command.option.opponent"),
        "size": command_text("command.option.size"),
        "level": command_text("command.option.level"),
        "clock": command_text("command.option.clock"),
    }
    described: dict[str, app_commands.locale_str] = {
        "game": command_text("command.play.game"),
        "opponent": command_text("command.play.opponent"),
        "size": command_text("command.play.size"),
        "level": command_text("command.play.level"),
        "clock": command_text("command.play.clock"),
    }
    choices: dict[str, Any] = {"game": game_choices()}
    for name, (option, _) in options.items():
        if option.choices:
            annotation: Any = app_commands.Choice[int] | None
            choices[name] = _option_choices(option)
        else:
            annotation = bool | None if isinstance(option.default, bool) else int | None
        parameters.append(inspect.Parameter(name, keyword, default=None, annotation=annotation))
        renames[name], described[name] = _option_text(option)
    parameters.append(inspect.Parameter("level", keyword, default=None, annotation=str | None))
    parameters.append(inspect.Parameter("clock", keyword, default=None, annotation=str | None))

    async def play_command(interaction: discord.Interaction, **values: Any) -> None:
        game = values["game"].value
        kind = get_spec(game).kind
        chosen: dict[str, object] = {}
        for name, (_, kinds) in options.items():
            value = values.get(name)
            # an option of this kind of game goes to the service, which refuses it for a
            # game that lacks it; one only other kinds of game have means nothing here
            if value is not None and kind in kinds:
                chosen[name] = value.value if isinstance(value, app_commands.Choice) else value
        await play(
            interaction,
            game,
            values.get("opponent"),
            values.get("size"),
            chosen,
            values.get("level"),
            values.get("clock"),
        )

    play_command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]  # what discord.py reads the parameters from
    callback = app_commands.rename(**renames)(play_command)
    callback = app_commands.describe(**described)(callback)
    callback = app_commands.choices(**choices)(callback)
    callback = app_commands.autocomplete(clock=clock_autocomplete, level=level_autocomplete)(
        callback
    )
    command: app_commands.Command[Any, ..., None] = app_commands.command(
        name=command_text("command.play.name"),
        description=command_text("command.play.description"),
    )(callback)
    return app_commands.guild_only()(command)
