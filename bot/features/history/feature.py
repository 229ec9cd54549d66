"""The history feature: ``/history``, replays you can step, records out and in.

``/history [member] [game]`` answers privately with a member's finished matches on this
server, the most recently finished first, a page at a time (**Newer** / **Older**): who
they played, how it went for them ("won", "2nd of 4"), when, and a menu that opens the
replay of any of them (a Leiff table's round by round, as the table saw it:
:mod:`bot.features.history.table_replays`). ``/replay match`` opens the same replay: one position a page
(**First** / **Previous** / **Next** / **Last**, with the move list), the animated GIF on a
button, **Export** (the record as text, ``matchcore.game_record``) and **Play from here**
(a practice game against the bot from the position shown). ``/import record [move]
[level]`` starts such a practice game from a record pasted as text.

Every control carries what its click needs (:mod:`bot.features.history.messages`); the
reader's language is their Discord locale at each click.
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord
from discord import app_commands

from bot.common.context import Context
from bot.common.custom_ids import ALL_GAMES, HISTORY, OPEN_REPLAY, REPLAY
from bot.common.errors import ErrorHandler, UserFacingError
from bot.common.games import game_choices, game_title
from bot.common.levels import LEVEL_WORD_IDS, chosen_level, level_choices
from bot.common.names import in_text
from bot.common.responder import Responder
from bot.common.routing import ComponentRouter
from bot.common.time_words import control_words
from bot.common.translator import command_text
from bot.delivery.delivery import Delivery
from bot.features.history.messages import HistoryLine, HistoryMessage
from bot.features.history.replays import Replays
from engine import get_spec
from i18n import N_, language_for, ordinal, translate
from matchcore.game_record import MAX_RECORD_TEXT, RecordError, parse_record
from matchcore.service.protocol import GameService
from matchcore.service.results import HistoryEntry

OUTCOMES = {
    "win": N_("bot.history.won"),
    "loss": N_("bot.history.lost"),
    "draw": N_("bot.history.draw"),
}
# what the reader of a record says when it is no record (matchcore.game_record's codes)
RECORD_ERRORS = {
    "record_no_game": N_("bot.import.error.record_no_game"),
    "record_game": N_("bot.import.error.record_game"),
    "record_size": N_("bot.import.error.record_size"),
    "record_option": N_("bot.import.error.record_option"),
}


class History:
    """``/history``, ``/replay`` and ``/import``, and the clicks on their pages."""

    def __init__(self, context: Context, delivery: Delivery, errors: ErrorHandler) -> None:
        self.context = context
        self.errors = errors
        self.replays = Replays(context, delivery)

    def register(self, router: ComponentRouter) -> None:
        router.route(HISTORY, self._history_click)
        router.route(REPLAY, self.replays.click)

    @property
    def service(self) -> GameService:
        return self.context.service

    # ---- a page of history -------------------------------------------------------------
    async def page(
        self, responder: Responder, member_id: int, game: str | None, page: int
    ) -> HistoryMessage:
        guild_id = responder.interaction.guild_id
        if guild_id is None:
            raise UserFacingError("bot.error.server_only")
        language = responder.language
        found = await self.service.history(guild_id, member_id, game, page)
        name = in_text(await self.context.names.name(member_id))
        title = (
            translate(language, "bot.history.title_game", name=name, game=game_title(game))
            if game is not None
            else translate(language, "bot.history.title", name=name)
        )
        lines = tuple([await self._line(language, member_id, entry) for entry in found.entries])
        return HistoryMessage(
            language=language,
            title=title,
            lines=lines,
            member_id=member_id,
            game=game,
            page=found.page,
            pages=found.pages,
            total=found.total,
        )

    async def _line(self, language: str, member_id: int, entry: HistoryEntry) -> HistoryLine:
        match = entry.match
        others = []
        for seat in match.seats:
            if seat.user_id == member_id:
                continue
            name = in_text(await self.context.names.name(seat.user_id))
            if seat.is_bot and seat.bot_level is not None and match.vs_bot:
                level = LEVEL_WORD_IDS.get(seat.bot_level)
                if level is not None:
                    name = translate(
                        language, "bot.history.bot", name=name, level=translate(language, level)
                    )
            others.append(name)
        listed = translate(language, "list.comma").join(others)
        board = get_spec(match.game).is_board_game
        together = N_("bot.history.versus") if board else N_("bot.history.with")
        opponents = translate(language, together, names=listed)
        if entry.place is not None and entry.field is not None and entry.outcome != "draw":
            outcome = translate(
                language,
                "bot.history.place",
                place=ordinal(language, entry.place),
                field=entry.field,
            )
        else:
            outcome = translate(language, OUTCOMES.get(entry.outcome, OUTCOMES["loss"]))
        when = f"<t:{int(entry.match.finished_at or 0)}:d>"
        game = game_title(match.game)
        text = translate(
            language,
            "bot.history.line",
            match=match.id,
            game=game,
            opponents=opponents,
            outcome=outcome,
            date=when,
        )
        if match.time_control:  # "3 days per move" (a match stored before controls: none)
            text += " · " + control_words(language, match.time_control)
        # every finished match has a replay: a board's move by move, a table's round by round
        option = translate(
            language,
            "bot.history.option",
            match=match.id,
            game=game,
            opponents=opponents,
            outcome=outcome,
        )
        return HistoryLine(text, option, match.id)

    async def _history_click(
        self, responder: Responder, member_id: int, page: int, action: str
    ) -> None:
        if action.startswith(OPEN_REPLAY):
            match_id = int(action[len(OPEN_REPLAY) :])
            await self.replays.open(responder, match_id, None)
            return
        game = None if action == ALL_GAMES else action
        if game is not None and game not in {choice.value for choice in game_choices()}:
            raise UserFacingError("bot.error.button_unused")
        message = await self.page(responder, member_id, game, page)
        if not await responder.update_origin(**message.edit_kwargs()):
            await responder.private(**message.send_kwargs())

    # ---- commands --------------------------------------------------------------------
    async def history(
        self, interaction: discord.Interaction, member: discord.abc.User | None, game: str | None
    ) -> None:
        async def run(responder: Responder) -> None:
            user = member or interaction.user
            message = await self.page(responder, user.id, game, 0)
            await responder.private(**message.send_kwargs())

        await self.errors.run(interaction, run)

    async def replay(self, interaction: discord.Interaction, match_id: int) -> None:
        async def run(responder: Responder) -> None:
            await self.replays.open(responder, match_id, None)

        await self.errors.run(interaction, run)

    async def import_record(
        self, interaction: discord.Interaction, record: str, move: int | None, level: str | None
    ) -> None:
        async def run(responder: Responder) -> None:
            chosen = chosen_level(level, language_for(interaction.locale))
            if len(record) > MAX_RECORD_TEXT:
                raise UserFacingError("bot.import.too_long", limit=MAX_RECORD_TEXT)
            try:
                parsed = parse_record(record)
            except RecordError as error:
                raise UserFacingError(RECORD_ERRORS[error.code], **error.params) from None
            moves = parsed.moves if move is None else parsed.moves[:move]
            if move is not None and move > len(parsed.moves):
                raise UserFacingError("bot.import.no_such_move", move=move, count=len(parsed.moves))
            await self.replays.practise(
                responder, parsed.game, parsed.size, dict(parsed.options), moves, chosen
            )

        await self.errors.run(interaction, run)

    async def level_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The bot's levels, each with its measured strength in the pasted record's game
        (read from the record as typed so far; none while it is not a record yet)."""
        record = getattr(interaction.namespace, "record", None)
        game = None
        if isinstance(record, str) and len(record) <= MAX_RECORD_TEXT:
            with contextlib.suppress(RecordError):
                game = parse_record(record).game
        offered = level_choices(language_for(interaction.locale), game, current)
        return [app_commands.Choice(name=name, value=level) for name, level in offered]

    # ---- the slash commands ----------------------------------------------------------
    def commands(self) -> list[app_commands.Command[Any, ..., None]]:
        feature = self
        games = game_choices()

        @app_commands.command(
            name=command_text("command.history.name"),
            description=command_text("command.history.description"),
        )
        @app_commands.rename(
            member=command_text("command.option.member"), game=command_text("command.option.game")
        )
        @app_commands.describe(
            member=command_text("command.history.member"), game=command_text("command.history.game")
        )
        @app_commands.choices(game=games)
        @app_commands.guild_only()
        async def history_command(
            interaction: discord.Interaction,
            member: discord.Member | None = None,
            game: app_commands.Choice[str] | None = None,
        ) -> None:
            await feature.history(interaction, member, None if game is None else game.value)

        @app_commands.command(
            name=command_text("command.replay.name"),
            description=command_text("command.replay.description"),
        )
        @app_commands.rename(match=command_text("command.option.match"))
        @app_commands.describe(match=command_text("command.replay.match"))
        @app_commands.guild_only()
        async def replay_command(
            interaction: discord.Interaction, match: app_commands.Range[int, 1]
        ) -> None:
            await feature.replay(interaction, match)

        @app_commands.command(
            name=command_text("command.import.name"),
            description=command_text("command.import.description"),
        )
        @app_commands.rename(
            record=command_text("command.import.option.record"),
            move=command_text("command.import.option.move"),
            level=command_text("command.option.level"),
        )
        @app_commands.describe(
            record=command_text("command.import.record"),
            move=command_text("command.import.move"),
            level=command_text("command.import.level"),
        )
        @app_commands.autocomplete(level=feature.level_autocomplete)
        @app_commands.guild_only()
        async def import_command(
            interaction: discord.Interaction,
            record: app_commands.Range[str, 1, MAX_RECORD_TEXT],
            move: app_commands.Range[int, 0] | None = None,
            level: str | None = None,
        ) -> None:
            await feature.import_record(interaction, record, move, level)

        return [history_command, replay_command, import_command]
