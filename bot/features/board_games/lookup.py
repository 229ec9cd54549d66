"""Which board match ``/move`` and ``/resign`` act on, and how a match is named in a list.

A player may have several board matches in one channel. The ``match`` option names one;
without it the only board match there is meant, or (for a move) the only one where it is
the player's turn. Anything else is refused with the list to choose from: resigning the
wrong match must never happen by accident. Refusals and lists speak the member's language;
the note saying which match a move went to is part of the channel message and speaks the
server's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.common.context import Context
from bot.common.errors import UserFacingError
from bot.common.games import game_title
from bot.common.names import in_text
from engine import get_spec
from i18n import N_, language_for, translate
from matchcore.service.results import MatchInfo

AUTOCOMPLETE_LIMIT = 25


@dataclass(frozen=True)
class Note:
    """The channel's line "Played in Lefe vs Bob (#12): **Ann** has 2 board matches in this
    channel.", worded in whatever language the channel message is written in."""

    game: str
    opponent: str
    match_id: int
    name: str
    count: int
    to: int | None = None  # a line for the channel, like the service's texts

    def words(self, language: str) -> str:
        label = translate(
            language, "bot.match.label", game=self.game, opponent=self.opponent, match=self.match_id
        )
        return translate(
            language, "bot.move.played_in", label=label, name=self.name, count=self.count
        )


class MatchLookup:
    """Finds a player's board matches in a channel."""

    def __init__(self, context: Context) -> None:
        self.context = context

    async def board_matches_here(
        self, interaction: discord.Interaction, user_id: int
    ) -> list[MatchInfo]:
        """The user's running board matches in this channel, whatever else they play here
        (a Leiff table never hides them), most recently active first."""
        if interaction.guild_id is None or interaction.channel_id is None:
            return []
        return await self.context.service.board_matches_in_channel(
            interaction.guild_id, interaction.channel_id, user_id
        )

    async def _opponent(self, match: MatchInfo, user_id: int, language: str) -> str:
        others = [seat.user_id for seat in match.seats if seat.user_id != user_id]
        if not others:
            return translate(language, "bot.match.nobody")
        return await self.context.names.name(others[0])

    async def match_label(
        self, language: str, match: MatchInfo, user_id: int, *, in_message: bool = False
    ) -> str:
        """A match as its player recognises it: "Lefe vs Bob (#12)" (opponent by name)."""
        opponent = await self._opponent(match, user_id, language)
        if in_message:
            opponent = in_text(opponent)
        return translate(
            language,
            "bot.match.label",
            game=game_title(match.game),
            opponent=opponent,
            match=match.id,
        )

    async def my_board_match(
        self,
        interaction: discord.Interaction,
        user_id: int,
        match_id: int | None,
        *,
        for_a_move: bool,
    ) -> tuple[Any, Note | None]:
        """The board match ``/move`` or ``/resign`` acts on, and a line saying which one it
        was when the player has several here and did not name it (else None)."""
        if interaction.guild_id is None:
            raise UserFacingError("bot.error.use_in_match_channel")
        language = language_for(interaction.locale)
        matches = await self.board_matches_here(interaction, user_id)
        if match_id is not None:
            chosen = next((m for m in matches if m.id == match_id), None)
            if chosen is None:
                yours = await self._yours_here(language, matches, user_id)
                raise UserFacingError(
                    N_("bot.match.error.not_yours_here")
                    if yours
                    else N_("bot.match.error.not_yours"),
                    match=match_id,
                    yours=yours,
                )
            return chosen, None
        if not matches:
            await self._in_their_threads(interaction, language, user_id)
            raise UserFacingError(await self._no_board_match(interaction, user_id, for_a_move))
        if len(matches) == 1:
            return matches[0], None
        due = [m for m in matches if user_id in m.to_act]
        if for_a_move and len(due) == 1:
            opponent = await self._opponent(due[0], user_id, language)
            return due[0], Note(
                game=game_title(due[0].game),
                opponent=in_text(opponent),
                match_id=due[0].id,
                name=in_text(await self.context.names.name(user_id)),
                count=len(matches),
            )
        raise UserFacingError(
            "bot.match.error.choose",
            count=len(matches),
            yours=await self._yours_here(language, matches, user_id),
        )

    async def _yours_here(self, language: str, matches: list[MatchInfo], user_id: int) -> str:
        labels = [await self.match_label(language, m, user_id, in_message=True) for m in matches]
        return ", ".join(labels)

    async def _in_their_threads(
        self, interaction: discord.Interaction, language: str, user_id: int
    ) -> None:
        """Typed in the channel of matches that each play in a thread of their own
        (``match_threads``): refused with a link to each of the caller's threads here, as
        the channel holds none of their boards. (Read only when nothing matched here: a
        refusal may cost one more query, a move never.)"""
        assert interaction.guild_id is not None
        here = interaction.channel_id
        threaded = [
            match
            for match in await self.context.service.user_matches(user_id, interaction.guild_id)
            if match.status == "running"
            and match.channel_id == here
            and match.thread_id not in (None, here)
            and get_spec(match.game).is_board_game
        ]
        if not threaded:
            return
        where = [
            f"{await self.match_label(language, m, user_id, in_message=True)}: <#{m.thread_id}>"
            for m in threaded
        ]
        raise UserFacingError(
            N_("bot.match.error.in_thread")
            if len(where) == 1
            else N_("bot.match.error.in_threads"),
            where=", ".join(where),
        )

    async def _no_board_match(
        self, interaction: discord.Interaction, user_id: int, for_a_move: bool
    ) -> str:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        other = await self.context.service.match_in_channel(
            interaction.guild_id, interaction.channel_id, user_id
        )
        if other is not None and not get_spec(other.game).is_board_game:
            if for_a_move:
                return N_("bot.move.error.leiff_has_buttons")
            return N_("bot.resign.error.leiff_has_none")
        return N_("bot.error.no_match_here")

    async def match_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The caller's board matches in this channel, as "Lefe vs Bob (#12)"."""
        user_id = interaction.user.id
        language = language_for(interaction.locale)
        typed = "".join(str(current).split()).casefold().lstrip("#")
        choices = []
        for match in await self.board_matches_here(interaction, user_id):
            label = await self.match_label(language, match, user_id)
            if typed and typed not in "".join(label.split()).casefold():
                continue
            choices.append(app_commands.Choice(name=label[:100], value=match.id))
        return choices[:AUTOCOMPLETE_LIMIT]
