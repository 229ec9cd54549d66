"""Display names of players, remembered from the interactions the bot sees.

Without the privileged members intent the bot has no member list, so it learns names from
every interaction (the user who clicked, members named in command options) and falls back
to a REST lookup, then to a neutral "#1234" (the id's last digits, the same in every
language) so a picture is never held up by a name.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

import discord

from matchcore.service.results import MatchInfo

log = logging.getLogger(__name__)

MAX_NAME = 32
MAX_EXCERPT = 24  # characters of user text quoted back in a reply


def clean_name(name: str) -> str:
    """One line, bounded length: the form drawn into pictures."""
    flat = " ".join(str(name).split())
    return flat[:MAX_NAME] or "?"


def in_text(name: str) -> str:
    """A name made safe for a message: no markdown effects, no mention syntax."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(name))


def excerpt(text: str, limit: int = MAX_EXCERPT) -> str:
    """A short, safe quote of what a user typed, for a reply that refers to it: one line, at
    most ``limit`` characters (cut with "…"), no markdown effects, no mention syntax."""
    flat = " ".join(str(text).split())
    cut = flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
    return in_text(cut)


class NameBook:
    """user id → display name, filled as users show up."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client
        self._names: dict[int, str] = {}

    def remember(self, user: discord.abc.User | None) -> None:
        if user is not None:
            self._names[user.id] = clean_name(user.display_name)

    def remember_interaction(self, interaction: discord.Interaction) -> None:
        self.remember(interaction.user)
        data = interaction.data
        found = data.get("resolved") if isinstance(data, dict) else None
        resolved: dict[str, Any] = found if isinstance(found, dict) else {}
        for user in resolved.get("users", {}).values():
            name = user.get("global_name") or user.get("username")
            if name:
                self._names[int(user["id"])] = clean_name(name)
        for user_id, member in resolved.get("members", {}).items():
            if member.get("nick"):
                self._names[int(user_id)] = clean_name(member["nick"])

    def known(self, user_id: int | None) -> str | None:
        if user_id is None:
            return None
        return self._names.get(user_id)

    async def name(self, user_id: int | None) -> str:
        """The display name of a user; looked up over REST once if never seen."""
        if user_id is None:
            return "Bot"  # a seat without a user: only ever a bot
        if user_id < 0:
            # A Leiff bot seat's pseudo id: no Discord user to look up, ever.
            return f"Bot {-user_id}"
        cached = self._names.get(user_id)
        if cached is not None:
            return cached
        user = self._client.get_user(user_id)
        if user is None:
            try:
                user = await self._client.fetch_user(user_id)
            except discord.HTTPException:
                user = None
        name = clean_name(user.display_name) if user is not None else f"#{str(user_id)[-4:]}"
        self._names[user_id] = name
        return name

    async def names(self, user_ids: Iterable[int | None]) -> list[str]:
        return [await self.name(user_id) for user_id in user_ids]

    async def seat_names(self, match: MatchInfo) -> list[str]:
        """Display names of a match's seats, in seat order."""
        return [await self.name(seat.user_id) for seat in match.seats]

    async def mention_or_name(self, user_id: int, pings: Sequence[int]) -> str:
        """A mention for a user this message pings, else their name in bold."""
        if user_id in pings:
            return f"<@{user_id}>"
        return f"**{in_text(await self.name(user_id))}**"
