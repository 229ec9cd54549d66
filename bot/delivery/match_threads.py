"""A thread per match, when the server asks for it (``/settings``: ``match_threads``).

The channel keeps the challenge (or the Leiff lobby), a start line and the result line;
the match's boards, tables and turn traffic go into a thread under the start line, named
"Lefe · alice vs bob". How it is done, one update at a time (:class:`Delivery` calls it):

- :meth:`MatchThreads.prepare`, before a ``match_started`` update is sent: the start line
  goes to the channel (the answer of a slash command, else a plain message) and the thread
  is opened from it (:class:`bot.common.threads.BotThreads`), so it shows under the line,
  which is its link; its id is stored with the match (``set_thread``: every later message,
  a redelivery after a restart, ``/games``' and the turn DMs' links go to the thread) and
  recorded as the bot's own (match message kind ``thread``: a match started inside a
  member's thread keeps that one, and the bot never archives it). Without the permissions
  the match is played in the channel, and the channel is told why in its language;
- a process killed between the start line and the thread's id stored leaves a note
  (match message kind ``thread:opening``, written before the line is posted): the next
  update of the match (the redelivery at the next start) finishes the opening: the thread
  recorded as the bot's own is stored with the match, else the start line is looked for
  among the channel's newest messages (the bot's, with the line's words; the line is also
  posted with a nonce) and its thread adopted (a thread started from a message has the
  message's id) or opened from it; only a line that never got out is posted. No second
  line, no thread without its match;
- before a later update of a running match whose thread Discord archived meanwhile (a week
  without a message), the thread is reopened;
- :meth:`MatchThreads.finish`, after the update that ends the match went into the thread
  and before the step is recorded as delivered: the result line (with a link to the
  thread's last message) goes to the channel, then the thread is archived, then that is
  recorded (``thread:closed``). A process killed in between sends the step again at its
  next start, which gets here again: the line's nonce makes Discord hand back the line
  already posted, and archiving an archived thread changes nothing.

Requests per match: the start line and the thread at the start (2), the result line and
the archiving at the end (2); every other message is one in the thread instead of one in
the channel.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging

import discord

from bot.common.context import Context
from bot.common.games import game_title
from bot.common.match_lines import places_line, result_line
from bot.common.names import in_text
from bot.common.responder import Responder
from bot.common.threads import BotThreads, missing_permissions, player_name, thread_name
from bot.delivery.records import DeliveryRecords
from bot.delivery.redelivery import RECENT_MESSAGES, nonce_of
from i18n import N_, translate
from matchcore.service.results import MatchInfo, Update
from wording.service_words import listing

log = logging.getLogger(__name__)

#: Match message kinds: the thread the bot opened for the match, and that it was closed.
OWN_THREAD = "thread"
CLOSED = "thread:closed"
# Noted (1) before the start line is posted, until the thread is recorded (0: the match
# plays in the channel after all): a process killed in between leaves it for the next.
OPENING = "thread:opening"
THREAD_EXISTS = 160004  # Discord: a thread has already been created for this message
ENDED = ("finished", "aborted")
PERMISSION_TEXT_IDS = {
    "create_public_threads": N_("bot.thread.permission.create_public_threads"),
    "send_messages_in_threads": N_("bot.thread.permission.send_messages_in_threads"),
}
NO_MENTIONS = discord.AllowedMentions.none()
# The match's channel: known to this process, or only by its id (a start resuming early).
Channel = discord.TextChannel | discord.PartialMessageable


def own_thread(match: MatchInfo) -> int | None:
    """The thread the bot opened for this match, if it did (and it is the match's)."""
    thread_id = match.messages.get(OWN_THREAD)
    return thread_id if thread_id and thread_id == match.thread_id else None


class MatchThreads:
    """Opens, reopens and closes the threads of matches for one client's delivery."""

    def __init__(self, context: Context, records: DeliveryRecords) -> None:
        self.context = context
        self.records = records
        self.threads = BotThreads(context.client)
        # matches ended in their thread, waiting for a feature's last message to show
        self._closing: dict[int, Update] = {}

    async def match_name(self, language: str, match: MatchInfo) -> str:
        names = [player_name(n) for n in await self.context.names.seat_names(match)]
        if len(names) == 2:
            players = translate(language, "bot.thread.versus", first=names[0], second=names[1])
        else:
            players = listing(language, names)
        return thread_name(game_title(match.game), players)

    # ---- the start -------------------------------------------------------------------
    async def prepare(self, update: Update, responder: Responder | None) -> Update:
        """The update as it should be sent: into the match's thread once there is one."""
        match = update.match
        if match is None:
            return await self._challenge_place(update)
        if match.status not in ENDED and own_thread(match) is None and match.messages.get(OPENING):
            # a process died while it opened the thread: finish what it began
            return await self._resume_opening(update, match)
        started = update.kind == "match_started" and match.status not in ENDED
        if started and own_thread(match) is None:
            place = match.thread_id
            # a thread of its own, unless it was started in a member's open thread (one
            # asked for in an archived thread, a rematch from the last board: a new one)
            if place is None or not self.threads.is_open(place):
                return await self._open(update, match, responder)
        thread_id = own_thread(match)
        if thread_id is None or match.messages.get(CLOSED):
            return update
        # (the last board too: a daily match's clock may end it after a quiet week)
        if not await self.threads.reopen(thread_id):
            # the thread is gone (deleted by a moderator): the match goes on in the channel
            await self.context.service.set_thread(match.id, None)
            return _in(update, None)
        return update

    async def _challenge_place(self, update: Update) -> Update:
        """A challenge asked in an archived thread (a rematch from a finished match's last
        board) goes to the channel, where its match will get a thread of its own."""
        challenge = update.challenge
        place = update.thread_id or (challenge.thread_id if challenge is not None else None)
        if challenge is None or place is None or self.threads.is_open(place):
            return update
        if not (await self.context.service.get_settings(challenge.guild_id)).match_threads:
            return update
        moved = dataclasses.replace(challenge, thread_id=None)
        return dataclasses.replace(update, thread_id=None, challenge=moved)

    async def _open(self, update: Update, match: MatchInfo, responder: Responder | None) -> Update:
        settings = await self.context.service.get_settings(match.guild_id)
        if not settings.match_threads:
            return update
        channel = self.context.client.get_channel(match.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return update  # a thread already, or a channel this process does not see
        missing = missing_permissions(channel)
        language = await self.context.languages.server(match.guild_id)
        if missing:
            await self._say_why(channel, language, missing)
            return update
        name = await self.match_name(language, match)
        # noted before the start line is posted: a process killed before the thread is
        # stored leaves this for the next one, which finds the line (and its thread)
        await self.records.set(match.id, {OPENING: 1})
        return await self._start_thread(update, match, channel, name, responder, look=False)

    async def _resume_opening(self, update: Update, match: MatchInfo) -> Update:
        """The thread of a match whose opening a killed process left unfinished: the one it
        recorded, else the one under its start line, else one opened from that line (and
        the line posted first when it never got out)."""
        recorded = match.messages.get(OWN_THREAD)
        if recorded:  # opened and recorded, not yet stored with the match
            await self.context.service.set_thread(match.id, recorded)
            return _in(update, recorded)
        client = self.context.client
        # (read from the channel's id alone: a start resumes before every channel is known)
        channel = client.get_channel(match.channel_id) or client.get_partial_messageable(
            match.channel_id, guild_id=match.guild_id
        )
        if not isinstance(channel, discord.TextChannel | discord.PartialMessageable):
            return update
        name = await self.match_name(await self.context.languages.server(match.guild_id), match)
        return await self._start_thread(update, match, channel, name, None, look=True)

    async def _start_thread(
        self,
        update: Update,
        match: MatchInfo,
        channel: Channel,
        name: str,
        responder: Responder | None,
        *,
        look: bool,
    ) -> Update:
        """The start line posted (``look``: found first among the channel's newest, as a
        killed process may have posted it), the thread under it opened (or found), and
        both recorded."""
        language = await self.context.languages.server(match.guild_id)
        line = translate(language, "bot.thread.started", name=f"**{in_text(name)}**")
        start = None
        try:
            if look:
                start = await self._start_line_shown(channel, line)
            if start is None:
                start = await self._post_start(channel, line, responder, match.id)
            if start is None:
                await self.records.set(match.id, {OPENING: 0})
                return update
            thread_id = await self._thread_under(channel, name, start)
        except discord.HTTPException as error:
            log.warning("no thread for match %s: %s", match.id, error)
            await self.records.set(match.id, {OPENING: 0})  # played in the channel
            if start is not None:  # it would point to a thread that is not there
                with contextlib.suppress(discord.HTTPException):
                    await start.delete()
            if isinstance(error, discord.Forbidden):
                # the permissions changed between the cache and Discord
                await self._say_why(channel, language, list(PERMISSION_TEXT_IDS))
            return update
        # the thread recorded as the bot's own first, then stored with the match: a process
        # killed in between leaves the record, which the next one stores (_resume_opening)
        await self.records.set(match.id, {OWN_THREAD: thread_id})
        await self.context.service.set_thread(match.id, thread_id)
        messages = {**match.messages, OWN_THREAD: thread_id}
        return _in(update, thread_id, messages)

    async def _start_line_shown(self, channel: Channel, line: str) -> discord.Message | None:
        """The bot's start line ``line`` among the channel's newest messages, if there: not
        one whose thread is archived (an earlier match of the same players, a rematch)."""
        me = self.context.client.user
        try:
            async for message in channel.history(limit=RECENT_MESSAGES):
                if me is None or message.author.id != me.id or message.content != line:
                    continue
                if message.thread is not None and message.thread.archived:
                    continue
                return message
        except discord.Forbidden:
            log.info("cannot read the recent messages of channel %s", channel.id)
        return None

    async def _thread_under(self, channel: Channel, name: str, start: discord.Message) -> int:
        """The id of the thread started from ``start``: opened now, or the one there (a
        thread started from a message has the message's id)."""
        if start.flags.has_thread or start.thread is not None:  # (made before a kill)
            return start.id
        try:
            return (await self.threads.open(channel, name, from_message=start.id)).id
        except discord.HTTPException as error:
            if error.code != THREAD_EXISTS:
                raise
            return start.id

    async def _post_start(
        self,
        channel: Channel,
        line: str,
        responder: Responder | None,
        match_id: int,
    ) -> discord.Message | None:
        if responder is not None and not (responder.is_component or responder.is_modal):
            # a slash command's own answer (its callback: no request beyond it)
            return await responder.public(channel, content=line, allowed_mentions=NO_MENTIONS)
        # a click's callback greys the clicked challenge out: the line is a message of its
        # own (its nonce: posted again within minutes after a kill, Discord returns it)
        nonce = nonce_of(match_id, 0, "thread-start")
        return await channel.send(content=line, allowed_mentions=NO_MENTIONS, nonce=nonce)

    async def _say_why(self, channel: Channel, language: str, missing: list[str]) -> None:
        names = [translate(language, PERMISSION_TEXT_IDS[p]) for p in missing]
        line = translate(language, "bot.thread.no_permission", missing=listing(language, names))
        try:
            await channel.send(content=line, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            log.warning("could not say why there is no thread: %s", error)

    # ---- the end ---------------------------------------------------------------------
    async def after(
        self,
        update: Update,
        sent_later: bool,
        posted: discord.Message | None = None,
        *,
        held_up: bool = False,
    ) -> None:
        """An update went out (called before the step is recorded as delivered): if it
        ended a match played in its own thread, close the thread now, or (``sent_later``:
        a feature sends the channel part in the background, a Leiff table) once that part
        is shown (:meth:`shown`). ``held_up``: the channel part did not go out; the
        redelivery that sends it comes back here."""
        match = update.match
        if match is None or match.status not in ENDED or own_thread(match) is None or held_up:
            return
        if sent_later or match.id in self._closing:  # (one still on its way, too)
            self._closing[match.id] = update
            return
        await self.finish(update, posted.id if posted is not None else None)

    async def shown(self, match_id: int, version: int) -> None:
        """A feature's background message of the match now shows ``version`` (see
        :meth:`after`): the thread is closed once that is the match's last."""
        update = self._closing.get(match_id)
        if update is None or update.match is None or version < update.match.version:
            return
        del self._closing[match_id]
        await self.finish(update, None)

    async def finish(self, update: Update, last_message: int | None) -> None:
        """After the match's last update went into its thread: the result to the channel,
        the thread archived (once, whichever process or restart gets here first)."""
        try:
            await self._finish(update, last_message)
        except discord.HTTPException as error:
            log.warning("could not close the thread of match %s: %s", update.match_id, error)

    async def _finish(self, update: Update, last_message: int | None) -> None:
        match = update.match
        if match is None or match.messages.get(CLOSED):
            return
        thread_id = own_thread(match)
        if thread_id is None:
            return
        channel = self.context.client.get_channel(match.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return
        language = await self.context.languages.server(match.guild_id)
        name = await self.match_name(language, match)
        names = self.context.names
        lines = [f"**{in_text(name)}**"]
        if match.status == "finished" and match.result is not None:
            lines.append(await result_line(language, names, match))
            places = await places_line(language, names, match)
            if places:
                lines.append(places)
        else:
            lines.append(translate(language, "bot.thread.aborted"))
        url = f"https://discord.com/channels/{match.guild_id}/{thread_id}"
        if last_message is not None:
            url += f"/{last_message}"
        label = translate(language, "bot.thread.to_the_game")
        lines.append(f"[{label}]({url})")
        # Before the step is recorded as delivered: a process killed in between sends the
        # step again at its next start and gets here again; the nonce makes Discord return
        # the line already posted instead of a second one.
        nonce = nonce_of(match.id, match.version, "thread-end")
        text = "\n".join(lines)[:2000]
        await channel.send(content=text, allowed_mentions=NO_MENTIONS, nonce=nonce)
        if await self.threads.archive(thread_id):
            await self.records.set(match.id, {CLOSED: 1})


def _in(update: Update, thread_id: int | None, messages: dict[str, int] | None = None) -> Update:
    """The update (and its match) sent to ``thread_id`` (None: the channel)."""
    assert update.match is not None
    match = dataclasses.replace(
        update.match, thread_id=thread_id, messages=messages or update.match.messages
    )
    return dataclasses.replace(update, thread_id=thread_id, match=match)
