"""Service updates → messages in the right places; and the bot seats' background turns.

The service returns an ``Update`` for every call and every clock tick. :class:`Delivery`
asks the feature that owns the update's kind of game (a :class:`MessageBuilder`: board
games, Leiff tables, challenges) for its messages and sends them:

- the match channel gets one message per update; the previous match message loses its
  buttons so only the newest one can be clicked; a lobby or a finished challenge is one
  message kept up to date in place;
- a player with something private (a Leiff hand) gets it by DM, kept in one DM message
  edited in place; when Discord refuses their DMs (error 50007) the refusal is stored for
  every process, the channel is told once per table (the feature words the notice, naming
  nothing secret), and the private message goes to the clicking player as an ephemeral
  answer instead;
- the message ids are recorded with the service, so a restart edits the same messages;
- the channel message is written in the server's language, each private message in its
  reader's own (:mod:`bot.common.languages`).

After posting an update in which a bot seat is due, one background task per match plays
the bot's turns through ``service.advance_bots`` and delivers each result in order.

No rule and no wording lives here: the features build the messages, this module only
decides where they go.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

from bot.common.components import disabled_copy
from bot.common.context import Context
from bot.common.outgoing import Outgoing, sentence, without_user
from bot.common.responder import Responder
from bot.common.service_words import texts_for
from engine import get_spec

log = logging.getLogger(__name__)

DM_CLOSED = 50007
CHALLENGE_END_KINDS = {"challenge_declined", "challenge_cancelled", "challenge_expired"}
# After Discord refused a user's DMs, they are tried again at the next table, whenever the
# player asks for their private message, and otherwise at most this often (the player may
# have opened them meanwhile; each try that fails costs one request).
DM_RETRY_SECONDS = 600.0
CHALLENGE = "challenge"  # the builder of updates about a challenge (no match yet)


def coalesce_private(updates: list[Any]) -> list[Any]:
    """A burst of steps (the bot seats' turns) with each user's private parts only in the
    last step that has any for them, their earlier private lines moved there: a player's
    private message is edited once per burst, with everything the burst told them."""
    last: dict[int, int] = {}
    for index, update in enumerate(updates):
        for user in _private_users_of(update):
            last[user] = index
    carried: dict[int, list[Any]] = {}
    result = []
    for index, update in enumerate(updates):
        later = {user for user, at in last.items() if at > index}
        for user in later:
            carried.setdefault(user, []).extend(m for m in update.messages if m.to == user)
        arriving = [m for user, at in last.items() if at == index for m in carried.pop(user, [])]
        result.append(
            dataclasses.replace(
                update,
                messages=(*arriving, *(m for m in update.messages if m.to not in later)),
                pictures=tuple(p for p in update.pictures if p.for_user not in later),
                buttons=tuple(b for b in update.buttons if b.for_user not in later),
            )
            if later or arriving
            else update
        )
    return result


def _private_users_of(update: Any) -> set[int]:
    users = {p.for_user for p in update.pictures if p.for_user is not None}
    users |= {m.to for m in update.messages if m.to is not None}
    users |= {b.for_user for b in update.buttons if b.for_user is not None}
    return users


# Redelivery waits this long after a failure, doubling up to the longest wait.
REDELIVERY_FIRST_SECONDS = 1.0
REDELIVERY_LONGEST_SECONDS = 60.0
# Recorded with the match's messages: the last version whose messages all went out.
DELIVERED = "delivered"
# Recorded as "<kind>:kept": a channel message whose buttons may stay when a newer one
# comes (see ``MessageBuilder.outdated_by_newer``).
KEPT = "kept"


def is_transient(error: BaseException) -> bool:
    """Worth sending again later: rate limits that outlasted discord.py's retries, Discord's
    own failures, the network. A refusal (400, 403, 404) stays a refusal."""
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, discord.RateLimited | aiohttp.ClientError | OSError | TimeoutError)


def _of(update: Any, error: BaseException) -> tuple[Any, str]:
    return update.match.id if update.match is not None else None, str(error) or type(error).__name__


@dataclass
class Undelivered:
    """What of a match's messages has not gone out yet: the channel message, players' DMs
    (``every_player``: every player's, as after a restart nobody knows which)."""

    public: bool = False
    users: set[int] = field(default_factory=set)
    every_player: bool = False

    def __bool__(self) -> bool:
        return self.public or bool(self.users) or self.every_player

    def add(self, other: Undelivered) -> None:
        self.public |= other.public
        self.users |= other.users
        self.every_player |= other.every_player


class MessageBuilder:
    """What a feature builds for the updates of its kind of game. The defaults suit a
    game without private messages."""

    async def public_message(self, update: Any, language: str) -> Outgoing | None:
        """The channel message of an update in ``language``, or None when the channel has
        nothing new."""
        raise NotImplementedError

    def message_kind(self, update: Any) -> str:
        """The name the channel message is recorded under ("board", "lobby", "table")."""
        raise NotImplementedError

    def private_users(self, update: Any) -> list[int]:
        """The users this update has something private for."""
        return []

    def outdated_by_newer(self, outgoing: Outgoing) -> bool:
        """Whether this channel message's buttons must go grey once a newer one is posted.
        A message without buttons (or with only buttons that stay right on an old message)
        needs no edit then: one request less."""
        return bool(outgoing.choices)

    async def private_messages(
        self, update: Any, languages: Mapping[int, str]
    ) -> dict[int, Outgoing]:
        """The private messages of some of :meth:`private_users` in this update, by user
        id: ``languages`` maps each of them to the language of their message."""
        raise NotImplementedError

    async def current_private(self, match_id: int, user_id: int, language: str) -> Outgoing:
        """One user's whole private message as the match is now."""
        raise NotImplementedError

    async def dm_closed_notice(self, update: Any, user_id: int, language: str) -> Outgoing:
        """The channel's notice that a player's DMs are closed (naming nothing secret)."""
        raise NotImplementedError

    def sends_public(self, update: Any, responder: Responder | None) -> bool:
        """Whether the builder sends this update's channel part itself (:meth:`send_public`)
        instead of delivery posting :meth:`public_message`."""
        return False

    def send_public(
        self,
        update: Any,
        language: str,
        channel: discord.PartialMessageable | None,
        delivery: Delivery,
    ) -> None:
        """Queue the channel part of ``update`` (returns at once; see :meth:`sends_public`).
        The builder tells ``delivery`` when the channel shows it
        (:meth:`Delivery.public_shown`) or when Discord keeps refusing it for now
        (:meth:`Delivery.public_held_up`: then redelivery sends the match again later)."""
        raise NotImplementedError

    def public_posted(self, update: Any) -> None:
        """Delivery posted this update's channel message the usual way."""

    async def idle(self) -> None:
        """Wait until nothing the builder queued is still being sent."""

    async def close(self) -> None:
        """Send what is queued, then stop (the process is closing)."""


class Delivery:
    """Sends the messages of service updates and plays the bot seats' turns."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self._builders: dict[str, MessageBuilder] = {}
        # user id -> their DM channel id (Discord never changes it: safe to keep per process).
        # Everything else another process may need is in the database: the users whose DMs
        # refused us and the tables told so (``service.dm_failures``), the message showing
        # a challenge (``ChallengeInfo.message_id``), every match message id.
        self._dm_channels: dict[int, int] = {}
        # Bot turns run in one background task per match; a request that arrives while it
        # runs marks the match so the task asks the service once more before it ends.
        self._bot_tasks: dict[int, asyncio.Task[None]] = {}
        self._bots_wanted: set[int] = set()
        # Messages of committed steps that did not go out yet, by match, and the task per
        # match that sends them (the match as it is then) until they land.
        self._undelivered: dict[int, Undelivered] = {}
        self._redelivery: dict[int, asyncio.Task[None]] = {}

    def register(self, key: str, builder: MessageBuilder) -> None:
        """``key``: a kind of game (``GameKind`` value) or ``CHALLENGE``."""
        self._builders[key] = builder

    @property
    def service(self) -> Any:
        return self.context.service

    @property
    def client(self) -> discord.Client:
        return self.context.client

    def builder_for(self, update: Any) -> MessageBuilder | None:
        if update.match is not None:
            return self._builders[str(get_spec(update.match.game).kind)]
        if update.challenge is not None:
            return self._builders[CHALLENGE]
        return None

    async def close(self) -> None:
        self._dm_channels.clear()
        tasks = list(self._bot_tasks.values()) + list(self._redelivery.values())
        self._bot_tasks.clear()
        self._bots_wanted.clear()
        # what is still undelivered is sent by the next start (its version is behind)
        self._redelivery.clear()
        self._undelivered.clear()
        for task in tasks:
            task.cancel()
        # a bot move cut short here is played again by the next start's tick
        await asyncio.gather(*tasks, return_exceptions=True)
        # what the features queued (a table's coalesced message) goes out before the end
        for builder in self._unique_builders():
            await builder.close()

    def _unique_builders(self) -> list[MessageBuilder]:
        return list({id(b): b for b in self._builders.values()}.values())

    # ---- delivery that outlasts rate limits and restarts ----------------------------
    async def _guarded(self, sending: Awaitable[None]) -> bool:
        """Run one send; False when it failed for a reason that passes (see
        :func:`is_transient`)."""
        try:
            await sending
        except Exception as error:
            if not is_transient(error):
                raise
            log.warning("a private message is held up: %s", error)
            return False
        return True

    async def _settle(
        self, update: Any, missed: Undelivered, done: Undelivered, *, whole: bool
    ) -> None:
        """After a publish: hand what did not go out to the match's redelivery task, or
        record the version as delivered. What went out now replaces what an earlier step
        could not send."""
        match = update.match
        if match is None:
            return
        pending = self._undelivered.get(match.id)
        if pending is not None:
            pending.public &= not done.public
            pending.users -= done.users
            if not pending:
                del self._undelivered[match.id]
        if missed:
            self._undelivered.setdefault(match.id, Undelivered()).add(missed)
            self._start_redelivery(match.id)
            return
        if whole and match.id not in self._undelivered:
            await self._record_delivered(match.id, match.version)

    async def public_shown(self, match_id: int, version: int) -> None:
        """A feature's background channel message now shows ``version``: it is delivered,
        unless some part of the match is still waiting to go out."""
        if match_id not in self._undelivered:
            await self._record_delivered(match_id, version)

    def public_held_up(self, match_id: int) -> None:
        """A feature's background channel message could not be sent for now (Discord keeps
        answering 429, or fails): send the match again later, as it is then."""
        self._undelivered.setdefault(match_id, Undelivered()).public = True
        self._start_redelivery(match_id)

    async def _record_delivered(self, match_id: int, version: int) -> None:
        try:
            await self.service.record_delivered(match_id, version)
        except Exception:
            log.exception("could not record match %s as delivered", match_id)

    def resume_undelivered(self, matches: Iterable[Any]) -> int:
        """At start: send again every match whose last step may not have gone out (its
        delivered version is behind its version: the process stopped, or was killed,
        before all of it was sent). Returns how many."""
        count = 0
        for match in matches:
            delivered = match.messages.get(DELIVERED)
            if delivered is None or delivered >= match.version:
                continue
            self._undelivered[match.id] = Undelivered(public=True, every_player=True)
            self._start_redelivery(match.id, wait=0.0)
            count += 1
        return count

    def _start_redelivery(self, match_id: int, wait: float = REDELIVERY_FIRST_SECONDS) -> None:
        task = self._redelivery.get(match_id)
        if task is None or task.done():
            self._redelivery[match_id] = asyncio.create_task(
                self._redeliver(match_id, wait), name=f"redeliver-{match_id}"
            )

    async def _redeliver(self, match_id: int, wait: float) -> None:
        """Send the match as it is now, for every part that has not gone out, until it
        lands. A later step's messages replace an earlier step's that never went out."""
        try:
            while self._undelivered.get(match_id):
                await asyncio.sleep(wait)
                wait = min(max(wait * 2, REDELIVERY_FIRST_SECONDS), REDELIVERY_LONGEST_SECONDS)
                try:
                    await self._send_undelivered(match_id)
                except asyncio.CancelledError:
                    raise
                except Exception as error:
                    if is_transient(error):
                        log.warning("match %s is still undelivered: %s", match_id, error)
                        continue
                    log.exception("giving up delivering match %s", match_id)
                    self._undelivered.pop(match_id, None)
        finally:
            if self._redelivery.get(match_id) is asyncio.current_task():
                del self._redelivery[match_id]

    async def _send_undelivered(self, match_id: int) -> None:
        pending = self._undelivered.get(match_id)
        if not pending:
            return
        update = await self.service.current(match_id)
        builder = self.builder_for(update)
        if update.match is None or builder is None:
            self._undelivered.pop(match_id, None)
            return
        if pending.public:
            if builder.sends_public(update, None):
                builder.send_public(
                    update,
                    await self.channel_language(update),
                    self.channel_of(update),
                    self,
                )
            else:
                public = await self.public_message(update)
                if public is not None:
                    await self._send_public(update, public, None)
            pending.public = False
        users = set(pending.users)
        if pending.every_player:
            users |= set(builder.private_users(update))
        for user_id in sorted(users):
            outgoing = await self.current_private(
                update, user_id, await self.context.languages.member(user_id)
            )
            await self._send_private(update, user_id, outgoing, None)
            pending.users.discard(user_id)
        pending.every_player = False
        if not pending:
            self._undelivered.pop(match_id, None)
            log.info("match %s delivered again (version %s)", match_id, update.match.version)
            await self._record_delivered(match_id, update.match.version)
            self.request_bot_turns(update)

    async def deliveries_idle(self) -> None:
        """Wait until nothing is waiting to be sent again (tests use it)."""
        while self._redelivery:
            await asyncio.gather(*list(self._redelivery.values()), return_exceptions=True)

    # ---- the bot's own turns -------------------------------------------------------
    def request_bot_turns(self, update: Any) -> None:
        """After an update is posted: if a bot seat is due to act, let it act in the
        background (a hard board move takes seconds; nobody's interaction waits for it)."""
        match = update.match
        if match is None or match.status != "running" or not match.bot_to_act:
            return
        self._bots_wanted.add(match.id)
        task = self._bot_tasks.get(match.id)
        if task is None or task.done():
            self._bot_tasks[match.id] = asyncio.create_task(
                self._play_bot_turns(match.id), name=f"bot-turns-{match.id}"
            )

    async def _play_bot_turns(self, match_id: int) -> None:
        try:
            while match_id in self._bots_wanted:
                self._bots_wanted.discard(match_id)
                for update in coalesce_private(await self.service.advance_bots(match_id)):
                    # posting it may ask for more bot turns: this loop runs again then
                    await self.publish(update)
        except asyncio.CancelledError:
            raise
        except Exception:
            # The next clock tick plays whatever is still due.
            log.exception("the bot could not take its turn in match %s", match_id)
        finally:
            if self._bot_tasks.get(match_id) is asyncio.current_task():
                del self._bot_tasks[match_id]
            self._bots_wanted.discard(match_id)

    def bot_turns(self, match_id: int) -> asyncio.Task[None] | None:
        """The background task playing this match's bot turns, while it runs."""
        task = self._bot_tasks.get(match_id)
        return task if task is not None and not task.done() else None

    async def bots_idle(self) -> None:
        """Wait until no bot turn is being played or posted and nothing the features queued
        is still being sent (tests and shutdown use it)."""
        while True:
            while self._bot_tasks:
                await asyncio.gather(*list(self._bot_tasks.values()), return_exceptions=True)
            for builder in self._unique_builders():
                await builder.idle()
            if not self._bot_tasks:
                return

    # ---- building ------------------------------------------------------------------
    async def channel_language(self, update: Any) -> str:
        return await self.context.languages.server(update.guild_id)

    async def public_message(self, update: Any) -> Outgoing | None:
        language = await self.channel_language(update)
        builder = self.builder_for(update)
        if builder is None:
            texts = [sentence(t) for t in texts_for(language, update, None)]
            return Outgoing("\n".join(texts), language=language) if texts else None
        return await builder.public_message(update, language)

    async def private_messages(self, update: Any) -> Mapping[int, Outgoing]:
        """Each user's private message in this update (in their language), by user id."""
        builder = self.builder_for(update)
        users = builder.private_users(update) if builder is not None else []
        if builder is None or not users:
            return {}
        return await builder.private_messages(update, await self.context.languages.members(users))

    # ---- sending -------------------------------------------------------------------
    def channel_of(self, update: Any) -> discord.PartialMessageable | None:
        channel_id = update.thread_id or update.channel_id
        if channel_id is None and update.match is not None:
            channel_id = update.match.thread_id or update.match.channel_id
        if channel_id is None and update.challenge is not None:
            channel_id = update.challenge.thread_id or update.challenge.channel_id
        if channel_id is None:
            return None
        return self.client.get_partial_messageable(channel_id, guild_id=update.guild_id)

    async def publish(
        self, update: Any, responder: Responder | None = None, *, whole: bool = True
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
                if not await self._guarded(
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
                    update,
                    await self.channel_language(update),
                    self.channel_of(update),
                    self,
                )
            public, privates = await asyncio.gather(
                self._no_message() if own else self.public_message(update),
                self.private_messages(update),
            )
            if public is not None:
                try:
                    posted = await self._send_public(update, public, responder)
                    if builder is not None:
                        builder.public_posted(update)
                except Exception as error:
                    if not is_transient(error):
                        raise
                    log.warning(
                        "the channel message of match %s is held up: %s", *_of(update, error)
                    )
                    missed.public = True
            sent = await asyncio.gather(
                *(
                    self._guarded(self._send_private(update, u, o, responder))
                    for u, o in privates.items()
                )
            )
            missed.users.update(u for u, ok in zip(privates, sent, strict=True) if not ok)
        finally:
            # the action is committed: the bots play on whatever happened to its messages
            self.request_bot_turns(update)
        done = Undelivered(
            public=(own or public is not None) and not missed.public,
            users=set(users) - missed.users,
        )
        # a channel part sent in the background counts as delivered once it is shown
        await self._settle(update, missed, done, whole=whole and not own)
        return posted

    @staticmethod
    async def _no_message() -> None:
        return None

    async def publish_quietly(self, update: Any) -> None:
        """Publish, logging (not raising) a failure: for updates nobody is waiting for."""
        try:
            await self.publish(update)
        except Exception:
            log.exception("could not publish a %s update", getattr(update, "kind", "?"))

    def _message_kind(self, update: Any) -> str:
        builder = self.builder_for(update)
        if builder is None or update.match is None:
            return CHALLENGE
        return builder.message_kind(update)

    async def _send_public(
        self, update: Any, public: Outgoing, responder: Responder | None
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
        if origin_is_public and (kind == "lobby" or update.kind in CHALLENGE_END_KINDS):
            assert responder is not None and origin is not None
            if await responder.update_origin(**public.edit_kwargs()):
                if update.match is not None:
                    await self.service.set_message(update.match.id, kind, origin.id)
                return origin
        if origin is not None and responder is not None and not responder.origin_updated:
            # the clicked message has been used: its buttons go grey
            await responder.update_origin(view=disabled_copy(origin))
        if update.kind in CHALLENGE_END_KINDS and origin is None and update.challenge is not None:
            known = update.challenge.message_id
            if known is not None:
                try:
                    await channel.get_partial_message(known).edit(**public.edit_kwargs())
                    return None
                except discord.HTTPException:
                    pass
        messages = update.match.messages if update.match is not None else {}
        previous = messages.get(kind)
        # the previous message needs no greying out if it was recorded as needing none
        previous_kept = previous is not None and messages.get(f"{kind}:{KEPT}") == previous
        builder = self.builder_for(update)
        keep = builder is not None and not builder.outdated_by_newer(public)
        if responder is not None:
            posted = await responder.public(channel, **public.send_kwargs())
        else:
            posted = await channel.send(**public.send_kwargs())
        # Record the new message and grey out the previous one, side by side.
        chores = []
        if update.match is not None and posted is not None:
            chores.append(self.service.set_message(update.match.id, kind, posted.id))
            if keep:
                chores.append(
                    self.service.set_message(update.match.id, f"{kind}:{KEPT}", posted.id)
                )
        if update.match is None and update.challenge is not None and posted is not None:
            chores.append(self.service.set_challenge_message(update.challenge.id, posted.id))
        if (
            previous
            and not previous_kept
            and (origin is None or previous != origin.id)
            and (posted is None or previous != posted.id)
        ):
            chores.append(self._strip_buttons(channel, previous))
        await asyncio.gather(*chores)
        return posted

    async def _strip_buttons(self, channel: discord.PartialMessageable, message_id: int) -> None:
        try:
            await channel.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException as error:
            log.debug("could not clear the buttons of message %s: %s", message_id, error)

    async def _send_private(
        self, update: Any, user_id: int, outgoing: Outgoing, responder: Responder | None
    ) -> None:
        match = update.match
        mine = responder is not None and responder.user_id == user_id
        # the player clicked in their own private message: that message becomes the new one
        if (
            mine
            and responder is not None
            and responder.origin_is_private
            and await responder.update_origin(**outgoing.edit_kwargs())
        ):
            if responder.in_dm and responder.origin is not None:
                await self.service.set_message(match.id, f"hand:{user_id}", responder.origin.id)
            return
        refusal = await self._refusal(user_id)
        if not self._worth_a_dm(refusal, match.id):
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

    async def current_private(self, update: Any, user_id: int, language: str) -> Outgoing:
        builder = self.builder_for(update)
        assert builder is not None and update.match is not None
        return await builder.current_private(update.match.id, user_id, language)

    async def _refusal(self, user_id: int) -> Any:
        """The user's DM refusal as every process knows it (a ``DmFailure``), or None."""
        return (await self.service.dm_failures([user_id])).get(user_id)

    def _worth_a_dm(self, refusal: Any, match_id: int) -> bool:
        return (
            refusal is None
            or match_id not in refusal.noticed
            or self.context.now() - refusal.failed_at >= DM_RETRY_SECONDS
        )

    async def try_dm(
        self, match: Any, user_id: int, outgoing: Outgoing, *, refused_before: bool
    ) -> bool:
        """Send (or edit) the player's private DM message; False when Discord refuses their
        DMs (50007), which is remembered (in the database, for every process) until a DM
        gets through again. ``refused_before``: the DMs were refused last time."""
        try:
            await self._deliver_dm(match, user_id, outgoing)
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                raise
            await self.service.note_dm_failure(user_id, error.code)
            log.info("DMs closed for user %s; offering the in-channel hand button", user_id)
            return False
        if refused_before:
            await self.service.note_dm_delivered(user_id)
            log.info("DMs open again for user %s", user_id)
        return True

    async def dm_refused(self, user_id: int) -> bool:
        """Whether Discord refused this user's DMs the last time they were tried."""
        return await self._refusal(user_id) is not None

    async def _deliver_dm(self, match: Any, user_id: int, outgoing: Outgoing) -> None:
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            dm = await user.create_dm()
            channel_id = self._dm_channels[user_id] = dm.id
        channel = self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        key = f"hand:{user_id}"
        previous = match.messages.get(key)
        if previous:
            try:
                await channel.get_partial_message(previous).edit(**outgoing.edit_kwargs())
                return
            except discord.NotFound:
                pass
        posted = await channel.send(**outgoing.send_kwargs())
        await self.service.set_message(match.id, key, posted.id)

    async def _dm_closed_notice(self, update: Any, user_id: int) -> None:
        """Once per table while the DMs stay closed: say so in the channel."""
        match = update.match
        if not await self.service.claim_dm_notice(user_id, match.id):
            return  # this table was told already (by this process or another)
        channel = self.channel_of(update)
        builder = self.builder_for(update)
        if channel is None or builder is None:
            return
        notice = await builder.dm_closed_notice(
            update, user_id, await self.channel_language(update)
        )
        await channel.send(**notice.send_kwargs())
