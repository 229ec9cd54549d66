"""The messages of a Leiff table: the lobby, the table in the channel, each player's hand.

The channel gets the table picture (the spectator's view) and the public events, and pings
the players a step waits for in one line; each player gets one private message with their
hand picture (only what they know), what they just learnt, and a control for every action
open to them now. A player whose DMs are closed is named in the channel once, naming no
card, with the **Show my hand** button. The channel's messages are written in the server's
language, each hand in its player's own.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Mapping, Sequence

import discord

from bot.common.components import Choice
from bot.common.context import Context
from bot.common.custom_ids import ADD_BOT, LEAVE_TABLE, LEIFF, PLAY_AGAIN, REMOVE_BOT, SHOW_HAND
from bot.common.layout import Block, Box, Controls, Picture, Section, Text, fits
from bot.common.match_lines import (
    is_bot,
    places_line,
    rating_lines,
    result_line,
    thinking_line,
)
from bot.common.names import in_text
from bot.common.outgoing import Outgoing, match_of, sentence
from bot.common.responder import Responder
from bot.common.themes import member_theme, server_theme
from bot.delivery.delivery import Delivery, MessageBuilder
from bot.delivery.living import LivingMessages
from bot.delivery.records import DeliveryRecords
from bot.features.leiff_tables import living
from bot.features.leiff_tables.labels import leiff_choices, own_slot, table_choices
from engine import get_spec
from engine.leiff.cards import display_name
from engine.leiff.views import LeiffView
from i18n import N_, translate, translate_plural
from matchcore.service.results import MatchInfo, Update
from render.leiff import special_subtitle
from wording.leiff_actions import BESIDE, SLOT_KINDS
from wording.service_words import listing, texts_for


def describe_options(language: str, options: Mapping[str, object]) -> str:
    """A table's options in words: "to 50 points, special cards, drinking rules"."""
    parts = [translate(language, "bot.leiff.option.target", target=options.get("target", 50))]
    if options.get("specials"):
        parts.append(translate(language, "bot.leiff.option.specials"))
    if options.get("drinking"):
        water = options.get("water")
        parts.append(
            translate(
                language, N_("bot.leiff.option.water") if water else N_("bot.leiff.option.drinking")
            )
        )
    if options.get("teams"):
        parts.append(translate(language, "bot.leiff.option.teams"))
    return ", ".join(parts)


def special_effect(view: LeiffView | None, seat: int | None) -> str | None:
    """The special card (or the slot machine) whose effect this seat is to use now: its
    German name is its name in every language, its subtitle says what it does."""
    if view is None or seat is None:
        return None
    waiting = view.get("waiting_for") or {}
    card = waiting.get("card")
    if waiting.get("step") != "effect" or seat not in (waiting.get("owners") or ()):
        return None
    return card if special_subtitle(card or "") is not None else None


def hand_layout(
    outgoing: Outgoing, view: LeiffView | None, seat: int | None, lines: Sequence[str]
) -> tuple[Block, ...]:
    """A hand in Components v2: one box of its words, the picture, a line per slot (what
    the player knows of the card there, with the slot's action as a button beside it), the
    legend of the special cards they can see, and the other controls. A slot with several
    actions has the first of :data:`SLOT_KINDS` beside it, the rest below with the others.
    Should that be more than Discord's 40 components (many slots and menus), the slots are
    one text and every action is below."""
    language = outgoing.language
    hand = (
        list((view or {}).get("hands", [])[seat]) if view is not None and seat is not None else []
    )
    beside: dict[int, Choice] = {}
    for choice in outgoing.choices:
        place = own_slot(choice.action)
        if place is None or not 1 <= place[0] <= len(hand):
            continue
        current = beside.get(place[0])
        if current is None or place[1] < (own_slot(current.action) or (0, 99))[1]:
            beside[place[0]] = choice
    rest = tuple(c for c in outgoing.choices if c not in beside.values())
    for number, choice in beside.items():
        kind = SLOT_KINDS[(own_slot(choice.action) or (0, 0))[1]]
        beside[number] = dataclasses.replace(choice, label=translate(language, BESIDE[kind]))
    words = Text("\n".join(lines))
    picture = Picture(translate(language, "bot.leiff.hand_picture"))
    legend = Text("\n".join(_legend(view, seat, language)))
    slots: list[Block] = []
    plain: list[str] = []
    for number, label in enumerate(hand, start=1):
        line = _slot_line(number, label, language)
        if number in beside:
            if plain:
                slots.append(Text("\n".join(plain)))
                plain = []
            slots.append(Section((line,), beside[number]))
        else:
            plain.append(line)
    if plain:
        slots.append(Text("\n".join(plain)))
    layout: tuple[Block, ...] = (Box((words, picture, *slots, legend, Controls(rest))),)
    if fits(layout, outgoing):
        return layout
    every_slot = Text("\n".join(_slot_line(n, c, language) for n, c in enumerate(hand, 1)))
    return (Box((words, picture, every_slot, legend, Controls())),)


def _slot_line(number: int, label: str | None, language: str) -> str:
    """What the player knows of their card in slot ``number`` (``label`` None: nothing)."""
    if label is None:
        return translate(language, "bot.leiff.slot_unknown", slot=number)
    return translate(language, "bot.leiff.slot_known", slot=number, card=f"[{display_name(label)}]")


def _legend(view: LeiffView | None, seat: int | None, language: str) -> list[str]:
    """A line for each special card face up for the player (their known cards, the card
    they hold, the discard pile's top): its name and what it does."""
    if view is None or seat is None:
        return []
    holding: Mapping[str, object] = view.get("holding") or {}
    seen: list[str] = []
    for label in (*view["hands"][seat], holding.get("card"), view.get("discard_top")):
        if isinstance(label, str) and special_subtitle(label) is not None and label not in seen:
            seen.append(label)
    return [
        translate(
            language,
            "bot.leiff.legend_line",
            card=display_name(label),
            subtitle=special_subtitle(label, language),
        )
        for label in seen
    ]


def table_step(update: Update) -> str | None:
    """The step a Leiff table waits for, read from a view the update carries (if any)."""
    for picture in update.pictures:
        if picture.view is not None:
            return (picture.view.get("waiting_for") or {}).get("step")
    return None


class LeiffMessages(MessageBuilder):
    """The lobby and table messages in the channel, and the players' hands."""

    def __init__(self, context: Context, records: DeliveryRecords) -> None:
        self.context = context
        self.living = LivingMessages(self, living.TABLE, records)

    def message_kind(self, update: Update) -> str:
        return "lobby" if match_of(update).status == "lobby" else "table"

    # ---- the living table message (bot.delivery.living, by the table's rules) ------
    def needs_attention(self, update: Update) -> bool:
        return living.needs_attention(update)

    def held_back(self, update: Update) -> bool:
        return living.held_back(update)

    def sends_public(self, update: Update, responder: Responder | None) -> bool:
        return self.living.takes(update, responder)

    def send_public(
        self,
        update: Update,
        language: str,
        channel: discord.PartialMessageable | None,
        delivery: Delivery,
    ) -> None:
        self.living.submit(update, language, channel, delivery)

    def public_posted(self, update: Update, message_id: int | None) -> None:
        if update.match is not None and update.match.status != "lobby":
            self.living.posted_elsewhere(update.match.id, message_id)

    async def idle(self) -> None:
        await self.living.idle()

    async def close(self) -> None:
        await self.living.close()

    # ---- the channel ---------------------------------------------------------------
    def event_lines(self, update: Update, language: str) -> list[str]:
        """The public events of one update as message lines."""
        return [sentence(t) for t in texts_for(language, update, None)]

    async def public_message(
        self, update: Update, language: str, events: Sequence[str] | None = None
    ) -> Outgoing:
        """The channel message of ``update``: its header, the public events (``events``:
        the lines to show instead of this update's own, as the living table message
        gathers them), whose move it is and the table picture."""
        names = self.context.names
        match = match_of(update)
        seat_names = await names.seat_names(match)
        lines = [translate(language, "bot.leiff.header", table=match.id)]
        lines.extend(self.event_lines(update, language) if events is None else events)
        pings: tuple[int, ...] = ()
        image = None
        if match.status == "lobby":
            options = match.options or {}
            lines.extend(self._lobby_lines(match, seat_names, language))
            if options.get("teams"):
                lines.append(translate(language, "bot.leiff.lobby.teams"))
            lines.append(translate(language, "bot.leiff.lobby.host_starts"))
            if update.kind == "lobby_again":  # the players of the table played again
                pings = tuple(u for u in update.mentions if u > 0)
        else:
            picture = next((p for p in update.pictures if p.kind == "table"), None)
            if picture is not None and picture.view is not None:
                theme = await server_theme(self.context.service, match.guild_id)
                image = await self.context.painter.table_png(
                    picture.view, seat_names, language, theme=theme
                )
            if match.status == "running":
                pings = tuple(u for u in update.mentions if u in match.to_act)
                if table_step(update) == "next":
                    lines.append(translate(language, "bot.leiff.round_over"))
                elif pings:
                    # One line, however many players a step waits for (a team deal: four).
                    who = [await names.mention_or_name(u, pings) for u in pings]
                    lines.append(
                        translate_plural(
                            language,
                            "bot.leiff.your_move",
                            "bot.leiff.your_move.plural",
                            len(who),
                            who=listing(language, who),
                        )
                    )
                for user_id in match.to_act:
                    if is_bot(match, user_id) and match.bot_to_act:
                        lines.append(await thinking_line(language, names, match, user_id))
            elif match.result is not None and update.kind == "refresh":
                lines.append(await result_line(language, names, match))
            if match.status == "finished":
                places = await places_line(language, names, match)
                if places is not None:
                    lines.append(places)
            lines.extend(await rating_lines(language, names, update))
        actions = [a for b in update.buttons if b.for_user is None for a in b.actions]
        if match.status == "running":
            actions.append(SHOW_HAND)
        elif match.status == "finished":
            actions.append(PLAY_AGAIN)
        elif match.status == "lobby":
            # The bot-seat buttons are the Discord layer's own (the service checks the host).
            if len(match.seats) < get_spec(match.game).players[1]:
                actions.append(ADD_BOT)
            if any(seat.is_bot for seat in match.seats):
                actions.append(REMOVE_BOT)
        choices = table_choices(language, actions)
        version = next((b.version for b in update.buttons if b.for_user is None), match.version)
        return Outgoing(
            "\n".join(lines),
            image,
            "table.png",
            choices,
            LEIFF,
            match.id,
            version,
            pings,
            language,
        )

    @staticmethod
    def _lobby_lines(match: MatchInfo, seat_names: Sequence[str], language: str) -> list[str]:
        """Who sits at a lobby's table, and its options."""
        players = ", ".join(f"**{in_text(n)}**" for n in seat_names) or translate(
            language, "bot.leiff.lobby.nobody"
        )
        return [
            translate(
                language,
                "bot.leiff.lobby.players",
                count=len(seat_names),
                most=get_spec(match.game).players[1],
                players=players,
            ),
            translate(
                language,
                "bot.leiff.lobby.options",
                options=describe_options(language, match.options or {}),
            ),
        ]

    async def used_message(self, update: Update, message_id: int, language: str) -> str | None:
        """A lobby whose **Start** was clicked says that the game started, with whom and
        how (its last line was who joined last). Any other clicked message keeps its words."""
        match = match_of(update)
        if update.kind != "match_started" or match.messages.get("lobby") != message_id:
            return None
        seat_names = await self.context.names.seat_names(match)
        lines = [translate(language, "bot.leiff.header", table=match.id)]
        lines.extend(self._lobby_lines(match, seat_names, language))
        lines.append(translate(language, "bot.leiff.lobby.started"))
        return "\n".join(lines)

    async def dm_closed_notice(self, update: Update, user_id: int, language: str) -> Outgoing:
        match = match_of(update)
        name = in_text(await self.context.names.name(user_id))
        return Outgoing(
            translate(language, "bot.leiff.dms_closed", name=name),
            choices=table_choices(language, [SHOW_HAND]),
            scope=LEIFF,
            target=match.id,
            version=match.version,
            language=language,
        )

    # ---- the players' hands ----------------------------------------------------------
    def outdated_by_newer(self, outgoing: Outgoing) -> bool:
        # "Show my hand" shows the hand as it is now from any table message; only other
        # buttons (a lobby's, dealing the next round) must go grey on an older one.
        return any(choice.action != SHOW_HAND for choice in outgoing.choices)

    def private_users(self, update: Update) -> list[int]:
        """The players this update has something private for (their hand, news)."""
        match = update.match
        if match is None or match.status == "lobby":
            return []
        users = {p.for_user for p in update.pictures if p.for_user is not None}
        users |= {e.to for e in update.said if e.to is not None}
        users |= {b.for_user for b in update.buttons if b.for_user is not None}
        # Leiff bot seats have negative pseudo ids: nobody to send a DM to.
        return sorted(u for u in users if u > 0)

    async def private_messages(
        self, update: Update, languages: Mapping[int, str]
    ) -> dict[int, Outgoing]:
        seat_names = await self.context.names.seat_names(match_of(update))
        users = list(languages)
        drawn = await asyncio.gather(
            *(self.hand_message(update, u, seat_names, languages[u]) for u in users)
        )
        return dict(zip(users, drawn, strict=True))

    async def current_private(self, match_id: int, user_id: int, language: str) -> Outgoing:
        update = await self.context.service.current(match_id, for_user=user_id)
        return await self.hand_message(
            update, user_id, await self.context.names.seat_names(match_of(update)), language
        )

    def _hand_header(self, match: MatchInfo, language: str) -> str:
        """Which table a DM belongs to: its number, its channel (a mention, which a member
        sees as "#games" and can jump to) and its server, by name when this process knows
        the server (a DM may be sent by the process of another shard: then without)."""
        channel = f"<#{match.thread_id or match.channel_id}>"
        guild = self.context.client.get_guild(match.guild_id)
        if guild is None:
            return translate(
                language, "bot.leiff.hand_header.no_server", table=match.id, channel=channel
            )
        return translate(
            language,
            "bot.leiff.hand_header",
            table=match.id,
            channel=channel,
            server=in_text(guild.name),
        )

    async def hand_message(
        self,
        update: Update,
        user_id: int,
        seat_names: Sequence[str],
        language: str,
        *,
        trade_from: str | None = None,
    ) -> Outgoing:
        """One player's private message in their ``language``: their view, their news and
        their actions."""
        match = match_of(update)
        seat = next((s.seat for s in match.seats if s.user_id == user_id), None)
        picture = next(
            (p for p in update.pictures if p.kind == "hand" and p.for_user == user_id), None
        )
        image = None
        if picture is not None and picture.view is not None and seat is not None:
            theme = await member_theme(self.context.service, user_id, match.guild_id)
            image = await self.context.painter.hand_png(
                picture.view, seat, seat_names, language, theme=theme
            )
        lines = [self._hand_header(match, language)]
        lines.extend(sentence(t) for t in texts_for(language, update, user_id))
        if match.status == "running" and user_id in match.to_act and table_step(update) != "next":
            lines.append(translate(language, "bot.leiff.hand_your_move"))
        effect = special_effect(picture.view if picture is not None else None, seat)
        if effect is not None:
            lines.append(
                translate(
                    language,
                    "bot.leiff.hand_effect",
                    card=display_name(effect),
                    subtitle=special_subtitle(effect, language),
                )
            )
        buttons = next((b for b in update.buttons if b.for_user == user_id), None)
        actions = buttons.actions if buttons is not None else ()
        if trade_from is not None and not any(
            a.startswith(f"trade {trade_from} ") for a in actions
        ):
            trade_from = None  # that swap is no longer open: the whole hand again
        choices = leiff_choices(language, actions, seat_names, trade_from=trade_from, reader=seat)
        mine = next((s for s in match.seats if s.user_id == user_id), None)
        gone = mine is not None and mine.removed
        if gone:
            lines.append(translate(language, "bot.leiff.left_table"))
        elif buttons is not None and not buttons.actions and match.status == "running":
            lines.append(translate(language, "bot.leiff.hand_nothing_to_do"))
        if (
            match.status == "running"
            and mine is not None
            and not gone
            and buttons is not None
            and trade_from is None  # the second pick of a swap offers that swap alone
        ):
            # always there, so it changes nothing between two steps (no extra edit)
            choices.append(
                Choice(
                    LEAVE_TABLE,
                    translate(language, "bot.leiff.button.leave_table"),
                    discord.ButtonStyle.danger,
                )
            )
        version = buttons.version if buttons is not None else match.version
        outgoing = Outgoing(
            "\n".join(lines),
            image,
            "hand.png",
            choices,
            LEIFF,
            match.id,
            version,
            language=language,
        )
        view = picture.view if picture is not None else None
        outgoing.layout = hand_layout(outgoing, view, seat, lines)
        return outgoing
