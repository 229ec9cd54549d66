"""Which board match ``/move`` and ``/resign`` act on, and how a match is named in a list.

A player may have several board matches in one channel. The ``match`` option names one;
without it the only board match there is meant, or (for a move) the only one where it is
the player's turn. Anything else is refused with the list to choose from: resigning the
wrong match must never happen by accident.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.common.context import Context
from bot.common.errors import UserFacingError
from bot.common.games import game_title
from bot.common.names import in_text
from engine import get_spec

AUTOCOMPLETE_LIMIT = 25


class MatchLookup:
    """Finds a player's board matches in a channel."""

    def __init__(self, context: Context) -> None:
        self.context = context

    async def board_matches_here(self, interaction: discord.Interaction, user_id: int) -> Any:
        """The user's running board matches in this channel, whatever else they play here
        (a Leiff table never hides them), most recently active first."""
        if interaction.guild_id is None or interaction.channel_id is None:
            return []
        return await self.context.service.board_matches_in_channel(
            interaction.guild_id, interaction.channel_id, user_id
        )

    async def match_label(self, match: Any, user_id: int, *, in_message: bool = False) -> str:
        """A match as its player recognises it: "Lefe vs Bob (#12)" (opponent by name)."""
        others = [seat.user_id for seat in match.seats if seat.user_id != user_id]
        opponent = await self.context.names.name(others[0]) if others else "nobody"
        if in_message:
            opponent = in_text(opponent)
        return f"{game_title(match.game)} vs {opponent} (#{match.id})"

    async def my_board_match(
        self,
        interaction: discord.Interaction,
        user_id: int,
        match_id: int | None,
        *,
        for_a_move: bool,
    ) -> tuple[Any, str | None]:
        """The board match ``/move`` or ``/resign`` acts on, and a line saying which one it
        was when the player has several here and did not name it (else None)."""
        if interaction.guild_id is None:
            raise UserFacingError("Use this in the channel where your match is played.")
        matches = await self.board_matches_here(interaction, user_id)
        if match_id is not None:
            chosen = next((m for m in matches if m.id == match_id), None)
            if chosen is None:
                raise UserFacingError(
                    f"Match #{match_id} is not one of your running board matches in this "
                    "channel." + await self._yours_here(matches, user_id)
                )
            return chosen, None
        if not matches:
            raise UserFacingError(await self._no_board_match(interaction, user_id, for_a_move))
        if len(matches) == 1:
            return matches[0], None
        due = [m for m in matches if user_id in m.to_act]
        if for_a_move and len(due) == 1:
            label = await self.match_label(due[0], user_id, in_message=True)
            name = in_text(await self.context.names.name(user_id))
            return due[0], (
                f"Played in {label}: **{name}** has {len(matches)} board matches in this channel."
            )
        raise UserFacingError(
            f"You have {len(matches)} board matches in this channel. Choose one with the "
            "`match` option." + await self._yours_here(matches, user_id)
        )

    async def _yours_here(self, matches: list[Any], user_id: int) -> str:
        if not matches:
            return ""
        labels = [await self.match_label(m, user_id, in_message=True) for m in matches]
        return " Yours here: " + ", ".join(labels) + "."

    async def _no_board_match(
        self, interaction: discord.Interaction, user_id: int, for_a_move: bool
    ) -> str:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        other = await self.context.service.match_in_channel(
            interaction.guild_id, interaction.channel_id, user_id
        )
        if other is not None and not get_spec(other.game).is_board_game:
            if for_a_move:
                return (
                    "You have no board match in this channel. Leiff is played with the "
                    "buttons of your hand (in your DMs, or under **Show my hand**)."
                )
            return (
                "You have no board match in this channel. Leiff has no resignation: if you "
                "stop playing, the clock plays for you, and after a few timeouts in a row you "
                "leave the table."
            )
        return "You have no running match in this channel. Start one with `/play`."

    async def match_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The caller's board matches in this channel, as "Lefe vs Bob (#12)"."""
        user_id = interaction.user.id
        typed = "".join(str(current).split()).casefold().lstrip("#")
        choices = []
        for match in await self.board_matches_here(interaction, user_id):
            label = await self.match_label(match, user_id)
            if typed and typed not in "".join(label.split()).casefold():
                continue
            choices.append(app_commands.Choice(name=label[:100], value=match.id))
        return choices[:AUTOCOMPLETE_LIMIT]
