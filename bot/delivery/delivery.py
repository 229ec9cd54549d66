"""Service updates → messages in the right places; and the bot seats' background turns.

The service returns an ``Update`` for every call and every clock tick. :class:`Delivery`
asks the feature that owns the update's kind of game (a :class:`MessageBuilder`: board
games, Leiff tables, challenges) for its messages and sends them:

- the match channel gets one message per update, as the answer to the click or command
  that made it when there is one (its callback); the previous match message loses its
  buttons so only the newest one can be clicked, unless its builder keeps them
  (``MessageBuilder.outdated_by_newer``: a board's buttons carry their version and answer
  that the board moved on; a Leiff table's **Show my hand** stays right); a lobby or a
  finished challenge is one message kept up to date in place;
- a player with something private (a Leiff hand) gets it by DM, kept in one DM message
  edited in place; when Discord refuses their DMs (error 50007) the refusal is stored for
  every process, the channel is told once per table (the feature words the notice, naming
  nothing secret), and the private message goes to the clicking player as an ephemeral
  answer instead;
- the message ids are recorded with the service, so a restart edits the same messages;
- the channel message is written in the server's language, each private message in its
  reader's own (:mod:`bot.common.languages`).

The bot seats' turns are played by the core, started by the commit that makes them due;
their updates are handed here (:class:`BotTurns`) and posted after the update they answer.

No rule and no wording lives here: the features build the messages, this module only
decides where they go.
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord
from discord.http import handle_message_parameters

from bot.common.components import custom_ids, disabled_copy
from bot.common.context import Context
from bot.common.custom_ids import ComponentId
from bot.common.outgoing import Outgoing, match_of, sentence, without_user
from bot.common.responder import Responder
from bot.delivery.bot_turns import BotTurns
from bot.delivery.channel_order import ChannelOrder
from bot.delivery.direct_messages import DirectMessages
from bot.delivery.match_threads import MatchThreads
from bot.delivery.records import DeliveryRecords
from bot.delivery.redelivery import (
    CHANNEL_SHOWS,
    Redelivery,
    Undelivered,
    guarded,
    is_transient,
    private_shows,
)
from engine import get_spec
from matchcore.service.protocol import GameService
from matchcore.service.results import MatchInfo, Update
from wording.service_words import texts_for

log = logging.getLogger(__name__)

CHALLENGE_END_KINDS = {"challenge_declined", "challenge_cancelled", "challenge_expired"}
CHALLENGE = "challenge"  # the builder of updates about a challenge (no match yet)


# An edit that takes every button and menu off a message.
NO_COMPONENTS = handle_message_parameters(view=None)

# Recorded as "<kind>:kept": a channel message whose buttons may stay when a newer one
# comes (see ``MessageBuilder.outdated_by_newer``).
KEPT = "kept"


def _of_this_match(
    origin: discord.Message, responder: Responder, previous: int | None, public: Outgoing
) -> bool:
    """Whether the clicked message is the match's current channel message, or a private
    message (ephemeral) whose buttons all act on the match ``public`` is about."""
    if previous is not None and origin.id == previous:
        return True
    if not responder.origin_is_private or responder.in_dm:
        return False
    targets = {
        (decoded.scope, decoded.target)
        for custom_id in custom_ids(origin.components)  # in rows, sections and boxes
        if (decoded := ComponentId.decode(custom_id)) is not None
    }
    return targets == {(public.scope, public.target)}


def channel_id_of(update: Update) -> int | None:
    """Where an update goes: its thread (a match's own, or the one it was started in), else
    its channel."""
    channel_id = update.thread_id or update.channel_id
    if channel_id is None and update.match is not None:
        channel_id = update.match.thread_id or update.match.channel_id
    if channel_id is None and update.challenge is not None:
        channel_id = update.challenge.thread_id or update.challenge.channel_id
    return channel_id


def _of(update: Update, error: BaseException) -> tuple[Any, str]:
    return update.match.id if update.match is not None else None, str(error) or type(error).__name__


async def _no_message() -> None:
    return None


async def _used(
    builder: MessageBuilder | None, update: Update, origin: discord.Message, language: str
) -> dict[str, Any]:
    """The edit of a clicked channel message ``update`` has used: its buttons grey, and
    its words as the builder has them say once used (:meth:`MessageBuilder.used_message`)."""
    changes: dict[str, Any] = {"view": disabled_copy(origin)}
    words = None if builder is None else await builder.used_message(update, origin.id, language)
    if words is not None and not origin.flags.components_v2:  # (v2: no content)
        changes["content"] = words
    return changes


async def _edited_challenge_end(
    update: Update, channel: discord.PartialMessageable, public: Outgoing
) -> bool:
    """A challenge that ended with nobody's click (it expired, say): its channel message,
    if it has one, is edited to say so. False when there is none to edit."""
    if update.kind not in CHALLENGE_END_KINDS or update.challenge is None:
        return False
    known = update.challenge.message_id
    if known is None:
        return False
    try:
        await channel.get_partial_message(known).edit(**public.edit_kwargs())
    except discord.HTTPException:
        return False
    return True


async def _strip_buttons(
    client: discord.Client, channel: discord.PartialMessageable, message_id: int
) -> None:
    # The request alone: nobody reads the edited message, so discord.py is spared
    # building a Message (author, components, attachments) from the answer, which on
    # every board move cost more than the request itself.
    try:
        await client.http.edit_message(channel.id, message_id, params=NO_COMPONENTS)
    except discord.HTTPException as error:
        log.debug("could not clear the buttons of message %s: %s", message_id, error)


async def _in_place(
    update: Update,
    kind: str,
    channel: discord.PartialMessageable,
    clicked: Responder | None,
    public: Outgoing,
) -> discord.Message | None:
    """A lobby's or a finished challenge's message, edited to show ``update`` (None: a new
    message is to be posted). ``clicked``: the click on a channel message that made it.
    A lobby changed by a click elsewhere (**Play again** on the finished table) or sent
    after a restart edits the lobby shown all the same: it is never posted twice."""
    in_place = kind == "lobby" or update.kind in CHALLENGE_END_KINDS
    if clicked is not None and in_place and await clicked.update_origin(**public.edit_kwargs()):
        return clicked.origin
    shown = update.match.messages.get(kind) if update.match is not None else None
    if kind != "lobby" or shown is None or clicked is not None:
        return None
    try:
        return await channel.get_partial_message(shown).edit(**public.edit_kwargs())
    except discord.NotFound:
        return None  # deleted: posted again


class MessageBuilder(ABC):
    """What a feature builds for the updates of its kind of game. Every builder makes the
    channel message (the abstract methods); the other defaults suit a game without
    private messages, and a builder with private users implements the private ones."""

    @abstractmethod
    async def public_message(self, update: Update, language: str) -> Outgoing | None:
        """The channel message of an update in ``language``, or None when the channel has
        nothing new."""

    @abstractmethod
    def message_kind(self, update: Update) -> str:
        """The name the channel message is recorded under ("board", "lobby", "table")."""

    def private_users(self, update: Update) -> list[int]:
        """The users this update has something private for."""
        return []

    async def used_message(self, update: Update, message_id: int, language: str) -> str | None:
        """What the clicked channel message ``message_id`` says once ``update`` has used it
        (its buttons go grey in the same edit), or None to leave its words as they are."""
        return None

    def outdated_by_newer(self, outgoing: Outgoing) -> bool:
        """Whether this channel message's buttons must go grey once a newer one is posted.
        A message without buttons (or with only buttons that stay right on an old message)
        needs no edit then: one request less. A Components v2 message is never greyed this
        way: its buttons are part of its layout, and the edit would have to send all of it
        again (the edit that clears a message's components would leave it empty)."""
        return bool(outgoing.choices) and not outgoing.is_v2

    def keeps_buttons_of(self, message: discord.Message) -> bool:
        """:meth:`outdated_by_newer` for a message read back from Discord (a start found it
        posted but not recorded): whether its buttons stay when a newer one comes."""
        return message.flags.components_v2 or not message.components

    async def private_messages(
        self, update: Update, languages: Mapping[int, str]
    ) -> dict[int, Outgoing]:
        """The private messages of some of :meth:`private_users` in this update, by user
        id: ``languages`` maps each of them to the language of their message."""
        raise NotImplementedError

    async def current_private(self, match_id: int, user_id: int, language: str) -> Outgoing:
        """One user's whole private message as the match is now."""
        raise NotImplementedError

    async def dm_closed_notice(self, update: Update, user_id: int, language: str) -> Outgoing:
        """The channel's notice that a player's DMs are closed (naming nothing secret)."""
        raise NotImplementedError

    def sends_public(self, update: Update, responder: Responder | None) -> bool:
        """Whether the builder sends this update's channel part itself (:meth:`send_public`)
        instead of delivery posting :meth:`public_message`."""
        return False

    def send_public(
        self,
        update: Update,
        language: str,
        channel: discord.PartialMessageable | None,
        delivery: Delivery,
    ) -> None:
        """Queue the channel part of ``update`` (returns at once; see :meth:`sends_public`).
        The builder tells ``delivery`` when the channel shows it
        (:meth:`Delivery.public_shown`) or when Discord keeps refusing it for now
        (:meth:`Delivery.public_held_up`: then redelivery sends the match again later)."""
        raise NotImplementedError

    def public_posted(self, update: Update, message_id: int | None) -> None:
        """Delivery posted this update's channel message the usual way (``message_id``:
        the message, when Discord answered with it)."""
        return None  # a builder that queues nothing of its own has nothing to do

    async def idle(self) -> None:
        """Wait until nothing the builder queued is still being sent."""
        return None  # a builder that queues nothing of its own has nothing to do

    async def close(self) -> None:
        """Send what is queued, then stop (the process is closing)."""
        return None  # a builder that queues nothing of its own has nothing to do


class Delivery:
    """Sends the messages of service updates and plays the bot seats' turns."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self._builders: dict[str, MessageBuilder] = {}
        # What it keeps of what it sent (bound to the database in setup_hook); the DMs, the
        # bot seats' turns, what did not go out yet (sent again until it lands) and a
        # thread per match (if the server asks) are parts of their own.
        self.records = DeliveryRecords()
        self.dms = DirectMessages(context, self.records)
        self.bot_turns = BotTurns(context, self.publish)
        self.redelivery = Redelivery(context, self.records, self._send_undelivered)
        self.match_threads = MatchThreads(context, self.records)
        self.order = ChannelOrder()  # the newest version each match's channel shows
        # told of every update published (a tournament steps at once when one ends a game)
        self.after_publish: Callable[[Update], None] = lambda update: None

    def register(self, key: str, builder: MessageBuilder) -> None:
        """``key``: a kind of game (``GameKind`` value) or ``CHALLENGE``."""
        self._builders[key] = builder

    @property
    def service(self) -> GameService:
        return self.context.service

    @property
    def client(self) -> discord.Client:
        return self.context.client

    def builder_for(self, update: Update) -> MessageBuilder | None:
        if update.match is not None:
            return self._builders[str(get_spec(update.match.game).kind)]
        if update.challenge is not None:
            return self._builders[CHALLENGE]
        return None

    async def close(self) -> None:
        self.dms.forget()
        self.bot_turns.stop()
        # what is still undelivered is sent by the next start (its version is behind)
        tasks = self.redelivery.stop()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # what the features queued (a table's coalesced message) goes out before the end
        for builder in self._unique_builders():
            await builder.close()

    def _unique_builders(self) -> list[MessageBuilder]:
        return list({id(b): b for b in self._builders.values()}.values())

    async def public_shown(self, match_id: int, version: int) -> None:
        """A feature's background channel message now shows ``version``: recorded, and the
        step as delivered once its private messages went out too."""
        await self.match_threads.shown(match_id, version)
        await self.redelivery.public_shown(match_id, version)

    def public_held_up(self, match_id: int) -> None:
        """A feature's background channel message could not be sent for now (Discord keeps
        answering 429, or fails): redelivery sends the match again later, as it is then."""
        self.redelivery.settle_missed(match_id, Undelivered(public=True))

    # ---- delivery that outlasts rate limits and restarts ----------------------------
    def resume_undelivered(self, runs_guild: Callable[[int], bool]) -> None:
        """At start, in the background: send again every match of the servers
        ``runs_guild`` says this process runs whose last step may not have gone out
        (:meth:`Redelivery.start_resuming`)."""
        self.redelivery.start_resuming(runs_guild)

    async def deliveries_idle(self) -> None:
        """Wait until nothing is waiting to be sent again (tests use it)."""
        await self.redelivery.idle()

    async def _send_undelivered(self, match_id: int) -> None:
        pending = self.redelivery.pending.get(match_id)
        if not pending:
            return
        update = await self.match_threads.prepare(await self.service.current(match_id), None)
        builder = self.builder_for(update)
        if update.match is None or builder is None:
            self.redelivery.pending.pop(match_id, None)
            return
        # a channel part sent in the background (now, or still on its way from an earlier
        # publish) counts once it is shown: the step is recorded as delivered only then
        public_later = builder.sends_public(update, None)
        if pending.public and (pending.look_first or pending.look_recent):
            kind, keeps = builder.message_kind(update), builder.keeps_buttons_of
            shown = await self.redelivery.already_shown(
                update.match, kind, keeps, self.channel_of(update), pending
            )
            pending.public = not shown
        sent_later = False
        if pending.public:
            if builder.sends_public(update, None):
                sent_later = True
                builder.send_public(
                    update, await self.channel_language(update), self.channel_of(update), self
                )
            else:
                public = await self.public_message(update)
                if public is not None:
                    await self._send_public(update, public, None)
            pending.public = False
        users = set(pending.users)
        if pending.every_player:
            users |= set(builder.private_users(update)) - pending.up_to_date
        for user_id in sorted(users):
            outgoing = await self.current_private(
                update, user_id, await self.context.languages.member(user_id)
            )
            self.dms.look_first.add((match_id, user_id))  # posted before a kill, unrecorded?
            await self._send_private(update, user_id, outgoing, None)
            pending.users.discard(user_id)
        pending.every_player = False
        if not pending:
            self.redelivery.pending.pop(match_id, None)
            log.info("match %s delivered again (version %s)", match_id, update.match.version)
            await self.match_threads.after(update, sent_later)
            await self.redelivery.settle(
                update,
                Undelivered(),
                Undelivered(users=users),
                whole=True,
                public_later=public_later,
            )
            self.bot_turns.published(update)

    # ---- the bot's own turns (played by the core, posted by BotTurns) -------------------
    async def bots_idle(self) -> None:
        """Wait until no bot turn is being played or posted and nothing the features queued
        is still being sent (tests and shutdown use it)."""
        await self.bot_turns.idle()
        for builder in self._unique_builders():
            await builder.idle()
        await self.bot_turns.idle()

    # ---- building ------------------------------------------------------------------
    async def channel_language(self, update: Update) -> str:
        return await self.context.languages.server(update.guild_id)

    async def public_message(self, update: Update) -> Outgoing | None:
        language = await self.channel_language(update)
        builder = self.builder_for(update)
        if builder is None:
            texts = [sentence(t) for t in texts_for(language, update, None)]
            return Outgoing("\n".join(texts), language=language) if texts else None
        return await builder.public_message(update, language)

    async def private_messages(self, update: Update) -> Mapping[int, Outgoing]:
        """Each user's private message in this update (in their language), by user id."""
        builder = self.builder_for(update)
        users = builder.private_users(update) if builder is not None else []
        if builder is None or not users:
            return {}
        return await builder.private_messages(update, await self.context.languages.members(users))

    # ---- sending -------------------------------------------------------------------
    def channel_of(self, update: Update) -> discord.PartialMessageable | None:
        channel_id = channel_id_of(update)
        if channel_id is None:
            return None
        return self.client.get_partial_messageable(channel_id, guild_id=update.guild_id)

    async def publish(
        self, update: Update, responder: Responder | None = None, *, whole: bool = True
    ) -> discord.Message | None:
        """Send everything one update asks for; returns the public message if one was posted.

        The answer the clicking user waits for goes first: their own private message when
        they clicked in it, else the channel message. Everything else is sent side by side.

        What cannot be sent now (Discord keeps answering 429, or fails) is not dropped: the
        action is committed, so the part is handed to a background task that sends the
        match as it is then until it lands (:meth:`_redeliver`). ``whole``: the update is
        everything the match's last step asked for (not a ``/board`` for one player), so
        when all of it went out, the match's version is recorded as delivered; a start
        finds every match whose recorded version is behind and sends it again.
        """
        update = await self.match_threads.prepare(update, responder)
        builder = self.builder_for(update)
        users = builder.private_users(update) if builder is not None else []
        missed = Undelivered()
        posted = None
        own = False
        try:
            if (
                builder is not None
                and responder is not None
                and responder.origin_is_private
                and responder.user_id in users
            ):
                mine = (
                    await builder.private_messages(update, {responder.user_id: responder.language})
                )[responder.user_id]
                if not await guarded(
                    self._send_private(update, responder.user_id, mine, responder)
                ):
                    missed.users.add(responder.user_id)
                update = without_user(update, responder.user_id)
            own = builder is not None and builder.sends_public(update, responder)
            if own:
                # the feature sends it in the background (and sees it through): nobody
                # waits on the channel
                assert builder is not None
                builder.send_public(
                    update, await self.channel_language(update), self.channel_of(update), self
                )
            public, privates = await asyncio.gather(
                _no_message() if own else self.public_message(update),
                self.private_messages(update),
            )
            if public is not None:
                try:
                    posted = await self._send_public(update, public, responder)
                    if builder is not None:
                        builder.public_posted(update, posted.id if posted is not None else None)
                except Exception as error:
                    if not is_transient(error):
                        raise
                    log.warning(
                        "the channel message of match %s is held up: %s", *_of(update, error)
                    )
                    missed.public = True
            sent = await asyncio.gather(
                *(guarded(self._send_private(update, u, o, responder)) for u, o in privates.items())
            )
            missed.users.update(u for u, ok in zip(privates, sent, strict=True) if not ok)
        finally:
            # the bot's answer to this update (the core plays it) may be posted now
            self.bot_turns.published(update, responder)
            self.after_publish(update)
        done = Undelivered(
            public=(own or public is not None) and not missed.public,
            users=set(users) - missed.users,
        )
        await self.match_threads.after(update, own, posted, held_up=missed.public)
        # a channel part sent in the background counts as delivered once it is shown
        await self.redelivery.settle(
            update, missed, done, whole=whole, public_later=own, channel_recorded=posted is not None
        )
        return posted

    async def publish_quietly(self, update: Update) -> None:
        """Publish, logging (not raising) a failure: for updates nobody is waiting for."""
        try:
            await self.publish(update)
        except Exception:
            log.exception("could not publish a %s update", getattr(update, "kind", "?"))

    def _message_kind(self, update: Update) -> str:
        builder = self.builder_for(update)
        if builder is None or update.match is None:
            return CHALLENGE
        return builder.message_kind(update)

    async def _send_public(
        self, update: Update, public: Outgoing, responder: Responder | None
    ) -> discord.Message | None:
        channel = self.channel_of(update)
        if channel is None:
            return None
        kind = self._message_kind(update)
        origin = responder.origin if responder is not None else None
        origin_is_public = (
            origin is not None and responder is not None and not responder.origin_is_private
        )

        # A lobby or a finished challenge is one message kept up to date in place.
        shown = await _in_place(
            update, kind, channel, responder if origin_is_public else None, public
        )
        if shown is not None:
            if update.match is not None:
                records = {kind: shown.id, CHANNEL_SHOWS: update.match.version}
                await self.records.set(update.match.id, records)
            return shown
        messages = update.match.messages if update.match is not None else {}
        previous = messages.get(kind)
        builder = self.builder_for(update)
        keep = builder is not None and not builder.outdated_by_newer(public)
        if origin is not None and responder is not None and not responder.origin_updated:
            if keep and _of_this_match(origin, responder, previous, public):
                # The clicked message is this match's (its board, or a private menu or
                # question of it) and stays as it is: its buttons carry the version they
                # were drawn for, so a click on one now is refused as moved on. The new
                # message is the click's own answer (its callback): no request beyond it.
                responder.public_in_callback = True
            if not responder.public_in_callback:
                # the clicked message has been used: its buttons go grey
                changes = await _used(builder, update, origin, public.language)
                await responder.update_origin(**changes)
        if origin is None and await _edited_challenge_end(update, channel, public):
            return None
        # the previous message needs no greying out if it was recorded as needing none
        previous_kept = previous is not None and messages.get(f"{kind}:{KEPT}") == previous
        if responder is not None:
            posted = await responder.public(channel, **public.send_kwargs())
        else:  # the bot's answer: a follow-up of the move that made it due, if it may; never
            # over a newer version shown while it waited (ChannelOrder: None then)
            posted = await self.order.post(
                update.match, lambda: self.bot_turns.post(update, channel, **public.send_kwargs())
            )
        # Record the new message and grey out the previous one, side by side.
        chores: list[Awaitable[object]] = []
        if update.match is not None and posted is not None:
            self.order.shown(update.match.id, update.match.version)
            # the new message, and that the channel shows this version: one statement, so a
            # start after a crash never posts it a second time
            records = {kind: posted.id, CHANNEL_SHOWS: update.match.version}
            if keep:
                records[f"{kind}:{KEPT}"] = posted.id
            chores.append(self.records.set(update.match.id, records))
        if update.match is None and update.challenge is not None and posted is not None:
            chores.append(self.records.set_challenge_message(update.challenge.id, posted.id))
        if (
            previous
            and not previous_kept
            and (origin is None or previous != origin.id)
            and (posted is None or previous != posted.id)
        ):
            chores.append(_strip_buttons(self.client, channel, previous))
        await asyncio.gather(*chores)
        return posted

    async def _send_private(
        self, update: Update, user_id: int, outgoing: Outgoing, responder: Responder | None
    ) -> None:
        match = match_of(update)
        mine = responder is not None and responder.user_id == user_id
        # the player clicked in their own private message: that message becomes the new one
        if (
            mine
            and responder is not None
            and responder.origin_is_private
            and await responder.update_origin(**outgoing.edit_kwargs())
        ):
            if responder.in_dm and responder.origin is not None:
                await self.records.set(
                    match.id,
                    {f"hand:{user_id}": responder.origin.id, private_shows(user_id): match.version},
                )
            return
        refusal = await self.dms.refusal(user_id)
        if not self.dms.worth_trying(refusal, match.id):
            if mine and responder is not None:
                await responder.private(**outgoing.send_kwargs())
            return
        if refusal is not None:
            # Trying again after a refusal: send the whole message, as the player may never
            # have had one in their DMs.
            outgoing = await self.current_private(
                update, user_id, await self.context.languages.member(user_id)
            )
        if await self.try_dm(match, user_id, outgoing, refused_before=refusal is not None):
            return
        if mine and responder is not None:
            await responder.private(**outgoing.send_kwargs())
        await self._dm_closed_notice(update, user_id)

    async def current_private(self, update: Update, user_id: int, language: str) -> Outgoing:
        builder = self.builder_for(update)
        assert builder is not None and update.match is not None
        return await builder.current_private(update.match.id, user_id, language)

    async def try_dm(
        self, match: MatchInfo, user_id: int, outgoing: Outgoing, *, refused_before: bool
    ) -> bool:
        """Send (or edit) the player's private DM message (:meth:`DirectMessages.send`)."""
        return await self.dms.send(match, user_id, outgoing, refused_before=refused_before)

    async def _dm_closed_notice(self, update: Update, user_id: int) -> None:
        """Once per table while the DMs stay closed: say so in the channel."""
        match = match_of(update)
        if not await self.records.claim_dm_notice(user_id, match.id):
            return  # this table was told already (by this process or another)
        channel = self.channel_of(update)
        builder = self.builder_for(update)
        if channel is None or builder is None:
            return
        notice = await builder.dm_closed_notice(
            update, user_id, await self.channel_language(update)
        )
        await channel.send(**notice.send_kwargs())
