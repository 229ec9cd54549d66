"""The messages of a Leiff table: the lobby, the table in the channel, each player's hand.

The channel gets the table picture (the spectator's view) and the public events, and pings
the players a step waits for in one line; each player gets one private message with their
hand picture (only what they know), what they just learnt, and a control for every action
open to them now. A player whose DMs are closed is named in the channel once, naming no
card, with the **Show my hand** button.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from bot.common.context import Context
from bot.common.custom_ids import ADD_BOT, LEIFF, REMOVE_BOT, SHOW_HAND
from bot.common.delivery import MessageBuilder
from bot.common.match_lines import is_bot, rating_lines, result_line, thinking_line
from bot.common.names import in_text
from bot.common.outgoing import Outgoing, listing, sentence
from bot.features.leiff_tables.labels import leiff_choices, table_choices
from engine import get_spec

MAX_PLAYERS = get_spec("leiff").players[1]


def describe_options(options: dict[str, Any]) -> str:
    """A table's options in words: "to 50 points, special cards, drinking rules"."""
    parts = [f"to {options.get('target', 50)} points"]
    if options.get("specials"):
        parts.append("special cards")
    if options.get("drinking"):
        parts.append("water rules" if options.get("water") else "drinking rules")
    if options.get("teams"):
        parts.append("teams of two")
    return ", ".join(parts)


def table_step(update: Any) -> str | None:
    """The step a Leiff table waits for, read from a view the update carries (if any)."""
    for picture in update.pictures:
        if picture.view is not None:
            return (picture.view.get("waiting_for") or {}).get("step")
    return None


class LeiffMessages(MessageBuilder):
    """The lobby and table messages in the channel, and the players' hands."""

    def __init__(self, context: Context) -> None:
        self.context = context

    def message_kind(self, update: Any) -> str:
        return "lobby" if update.match.status == "lobby" else "table"

    # ---- the channel ---------------------------------------------------------------
    async def public_message(self, update: Any) -> Outgoing:
        names = self.context.names
        match = update.match
        seat_names = await names.seat_names(match)
        lines = [f"**Leiff** · table #{match.id}"]
        lines.extend(sentence(t) for t in update.texts_for(None))
        pings: tuple[int, ...] = ()
        image = None
        if match.status == "lobby":
            players = ", ".join(f"**{in_text(n)}**" for n in seat_names) or "nobody yet"
            lines.append(f"Players ({len(seat_names)}/{MAX_PLAYERS}): {players}.")
            options = match.options or {}
            lines.append(f"Options: {describe_options(options)}.")
            if options.get("teams"):
                lines.append(
                    "Teams of two sit alternately, in the order of joining (4 or 6 players)."
                )
            lines.append(
                "The host starts the game once 2 to 6 players have joined, and may seat bots."
            )
        else:
            picture = next((p for p in update.pictures if p.kind == "table"), None)
            if picture is not None and picture.view is not None:
                image = await self.context.painter.table_png(picture.view, seat_names)
            if match.status == "running":
                pings = tuple(u for u in update.mentions if u in match.to_act)
                if table_step(update) == "next":
                    lines.append(
                        "The round is over. When everyone has seen the hands, anyone may deal "
                        "the next round with **Deal the next round** under their hand."
                    )
                elif pings:
                    # One line, however many players a step waits for (a team deal: four).
                    who = [await names.mention_or_name(u, pings) for u in pings]
                    lines.append(listing(who) + ", your move.")
                for user_id in match.to_act:
                    if is_bot(match, user_id) and match.bot_to_act:
                        lines.append(await thinking_line(names, match, user_id))
            elif match.result is not None and update.kind == "refresh":
                lines.append(await result_line(names, match))
            lines.extend(await rating_lines(names, update))
        actions = [a for b in update.buttons if b.for_user is None for a in b.actions]
        if match.status == "running":
            actions.append(SHOW_HAND)
        elif match.status == "lobby":
            # The bot-seat buttons are the Discord layer's own (the service checks the host).
            if len(match.seats) < MAX_PLAYERS:
                actions.append(ADD_BOT)
            if any(seat.is_bot for seat in match.seats):
                actions.append(REMOVE_BOT)
        choices = table_choices(actions)
        version = next((b.version for b in update.buttons if b.for_user is None), match.version)
        return Outgoing(
            "\n".join(lines), image, "table.png", choices, LEIFF, match.id, version, pings
        )

    async def dm_closed_notice(self, update: Any, user_id: int) -> Outgoing:
        match = update.match
        name = in_text(await self.context.names.name(user_id))
        return Outgoing(
            f"I cannot send **{name}** direct messages (their DMs are closed). "
            f"**{name}**, use **Show my hand** to see your cards and actions here, privately; "
            "once you open your DMs, pressing it moves your hand back there.",
            choices=table_choices([SHOW_HAND]),
            scope=LEIFF,
            target=match.id,
            version=match.version,
        )

    # ---- the players' hands ----------------------------------------------------------
    def private_users(self, update: Any) -> list[int]:
        """The players this update has something private for (their hand, news)."""
        match = update.match
        if match is None or match.status == "lobby":
            return []
        users = {p.for_user for p in update.pictures if p.for_user is not None}
        users |= {m.to for m in update.messages if m.to is not None}
        users |= {b.for_user for b in update.buttons if b.for_user is not None}
        # Leiff bot seats have negative pseudo ids: nobody to send a DM to.
        return sorted(u for u in users if u > 0)

    async def private_messages(self, update: Any, users: list[int]) -> dict[int, Outgoing]:
        seat_names = await self.context.names.seat_names(update.match)
        drawn = await asyncio.gather(*(self.hand_message(update, u, seat_names) for u in users))
        return dict(zip(users, drawn, strict=True))

    async def current_private(self, match_id: int, user_id: int) -> Outgoing:
        update = await self.context.service.current(match_id, for_user=user_id)
        return await self.hand_message(
            update, user_id, await self.context.names.seat_names(update.match)
        )

    async def hand_message(self, update: Any, user_id: int, seat_names: Sequence[str]) -> Outgoing:
        """One player's private message: their view, their news and their actions."""
        match = update.match
        seat = next((s.seat for s in match.seats if s.user_id == user_id), None)
        picture = next(
            (p for p in update.pictures if p.kind == "hand" and p.for_user == user_id), None
        )
        image = None
        if picture is not None and picture.view is not None and seat is not None:
            image = await self.context.painter.hand_png(picture.view, seat, seat_names)
        lines = [f"**Leiff** · table #{match.id} · your hand"]
        lines.extend(sentence(t) for t in update.texts_for(user_id))
        if match.status == "running" and user_id in match.to_act and table_step(update) != "next":
            lines.append("**Your move.**")
        buttons = next((b for b in update.buttons if b.for_user == user_id), None)
        choices = leiff_choices(buttons.actions, seat_names) if buttons is not None else []
        if buttons is not None and not buttons.actions and match.status == "running":
            lines.append("Nothing to do right now: the channel pings you when it is your move.")
        version = buttons.version if buttons is not None else match.version
        return Outgoing("\n".join(lines), image, "hand.png", choices, LEIFF, match.id, version)
