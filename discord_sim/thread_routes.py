"""Threads over REST, gated as Discord gates them, with the gateway events discord.py expects.

- ``POST /channels/{channel_id}/messages/{message_id}/threads``: a public thread started
  from a message (the thread's id is the message's; the message gets ``thread`` and the
  HAS_THREAD flag, announced with MESSAGE_UPDATE);
- ``POST /channels/{channel_id}/threads``: a public thread without a message (Discord
  leaves a THREAD_CREATED system message, type 18, in the channel). Both need the bot's
  Create Public Threads and View Channel in the channel, refuse a second thread on one
  message (160004), a channel that is not a guild text channel (50024), and announce
  THREAD_CREATE with ``newly_created`` and the bot's thread member (the creator joins);
- ``PATCH /channels/{channel_id}`` on a thread: name (1–100 characters), archived,
  locked, auto_archive_duration (60, 1440, 4320 or 10080), rate_limit_per_user. Discord's
  rule: unarchiving an unlocked thread needs only the right to send in it; everything else
  needs Manage Threads, except what a thread's owner may do to it (archive it, rename it,
  change its duration). A request that leaves an archived thread archived gets 50083.
  Announced with THREAD_UPDATE (discord.py drops archived threads from its cache);
- ``PUT /channels/{channel_id}/thread-members/@me`` and ``/{user_id}``: joining, adding a
  member (the thread must not be archived; adding needs the right to send in it),
  announced with THREAD_MEMBERS_UPDATE.

Sending, editing and deleting messages in a thread go through the channel message routes
(``state.check_can_send``: Send Messages in Threads; an archived thread refuses with
50083 until it is unarchived). Private and announcement threads are not simulated: such a
request is listed in ``unhandled_requests`` and answered 404.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from .forms import UploadedFile
from .models import (
    CREATE_PUBLIC_THREADS,
    GUILD_TEXT,
    MANAGE_THREADS,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    SimChannel,
    SimMessage,
    thread_payload,
)
from .responses import error_response, form_error, json_response
from .state import RequestRecord, SimHTTPError, SimState
from .thread_model import (
    NAME_MAX,
    PUBLIC_THREAD,
    THREAD_CREATED_MESSAGE,
    ThreadInfo,
)

#: How the server reads a request: its JSON object and its uploaded files by index.
BodyReader = Callable[[web.Request], Awaitable[tuple[dict[str, Any], dict[int, UploadedFile]]]]

GUILDS_INTENT = 1 << 0
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
#: Renaming a channel (a thread too): Discord allows 2 per 10 minutes per channel.
NAME_ROUTE = "/channels/{channel_id} (name)"

MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")


class ThreadRoutes:
    """The thread routes of the simulated REST API: the state they change and how the server
    reads a request's body."""

    def __init__(self, state: SimState, read_body: BodyReader) -> None:
        self.state = state
        self._read_body = read_body

    def routes(self) -> list[tuple[str, str, Any]]:
        return [
            ("POST", "/channels/{channel_id}/threads", self.start_without_message),
            (
                "POST",
                "/channels/{channel_id}/messages/{message_id}/threads",
                self.start_from_message,
            ),
            ("PATCH", "/channels/{channel_id}", self.modify),
            ("PUT", "/channels/{channel_id}/thread-members/@me", self.join),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.add_member),
        ]

    # ----------------------------------------------------------------- starting

    async def start_from_message(self, request: web.Request) -> web.Response:
        parent = self.state.get_channel(int(request.match_info["channel_id"]))
        starter = self.state.get_message(parent, int(request.match_info["message_id"]))
        if starter.ephemeral:
            raise SimHTTPError(404, 10008, "Unknown Message")
        payload, _ = await self._read_body(request)
        thread = self._start(parent, payload, starter)
        return self._created(thread)

    async def start_without_message(self, request: web.Request) -> web.Response:
        parent = self.state.get_channel(int(request.match_info["channel_id"]))
        payload, _ = await self._read_body(request)
        kind = payload.get("type")
        if kind is not None and int(kind) != PUBLIC_THREAD:
            self._not_simulated(request)
            return error_response(404, 0, "404: Not Found")
        thread = self._start(parent, payload, None)
        return self._created(thread)

    def _created(self, thread: SimChannel) -> web.Response:
        return json_response(thread_payload(thread, member_of=self.state.bot_user.id), 201)

    def _not_simulated(self, request: web.Request) -> None:
        path = request.path.removeprefix("/api/v10")
        self.state.unhandled_requests.append(
            RequestRecord(
                request.method, "/channels/{channel_id}/threads", path, 404, time.monotonic()
            )
        )

    def _start(
        self, parent: SimChannel, payload: dict[str, Any], starter: SimMessage | None
    ) -> SimChannel:
        state = self.state
        if parent.type != GUILD_TEXT or parent.guild is None:
            raise SimHTTPError(400, 50024, "Cannot execute action on this channel type")
        needed = VIEW_CHANNEL | CREATE_PUBLIC_THREADS
        if state.bot_permissions(parent) & needed != needed:
            raise SimHTTPError(*MISSING_PERMISSIONS)
        if starter is not None and starter.thread is not None:
            raise SimHTTPError(400, 160004, "A thread has already been created for this message")
        name = self._valid_name(payload.get("name"))
        now = time.time()
        info = ThreadInfo(
            parent=parent,
            owner_id=state.bot_user.id,
            auto_archive_duration=int(payload.get("auto_archive_duration") or 1440),
            created_at=now,
            archive_changed_at=now,
            members={state.bot_user.id: now},
            starter_message_id=starter.id if starter is not None else None,
        )
        thread = SimChannel(
            id=starter.id if starter is not None else state.snowflakes.next(),
            name=name,
            type=PUBLIC_THREAD,
            guild=parent.guild,
            thread=info,
        )
        parent.guild.threads.append(thread)
        state.channels[thread.id] = thread
        created = thread_payload(thread, member_of=state.bot_user.id) | {"newly_created": True}
        state.announce("THREAD_CREATE", created, GUILDS_INTENT)
        if starter is not None:
            starter.thread = thread
            state.announce("MESSAGE_UPDATE", state._event_payload(starter), GUILD_MESSAGES_INTENT)
        else:
            state.store_message(
                SimMessage(
                    id=state.snowflakes.next(),
                    channel=parent,
                    author=state.bot_user,
                    content=name,
                    type=THREAD_CREATED_MESSAGE,
                    message_reference={
                        "channel_id": str(thread.id),
                        "guild_id": str(parent.guild.id),
                        "type": 0,
                    },
                )
            )
        return thread

    @staticmethod
    def _valid_name(name: Any) -> str:
        text = str(name or "").strip()
        if not 1 <= len(text) <= NAME_MAX:
            raise form_error(
                "name",
                f"Must be between 1 and {NAME_MAX} in length.",
                "BASE_TYPE_BAD_LENGTH",
                f"a thread's name is 1 to {NAME_MAX} characters (Discord's documented limit)",
            )
        return text

    # ----------------------------------------------------------------- changing

    def _thread(self, request: web.Request) -> SimChannel:
        channel = self.state.get_channel(int(request.match_info["channel_id"]))
        if channel.thread is None:
            raise SimHTTPError(400, 50024, "Cannot execute action on this channel type")
        return channel

    async def modify(self, request: web.Request) -> web.Response:
        channel = self.state.get_channel(int(request.match_info["channel_id"]))
        if channel.thread is None:
            # a guild channel's settings need Manage Channels, which the bot is not given;
            # changing them is not simulated
            if channel.is_dm:
                raise SimHTTPError(400, 50024, "Cannot execute action on this channel type")
            raise SimHTTPError(*MISSING_PERMISSIONS)
        payload, _ = await self._read_body(request)
        info = channel.thread
        allowed = self.state.bot_permissions(channel)
        manage = bool(allowed & MANAGE_THREADS)
        owner = info.owner_id == self.state.bot_user.id
        archived, locked = payload.get("archived"), payload.get("locked")
        if info.archived and archived is not False:
            raise SimHTTPError(400, 50083, "Thread is archived")
        if locked is not None and bool(locked) != info.locked and not manage:
            raise SimHTTPError(*MISSING_PERMISSIONS)
        if archived is False and info.archived:
            if info.locked and not manage:
                raise SimHTTPError(*MISSING_PERMISSIONS)
            if not allowed & SEND_MESSAGES_IN_THREADS:
                raise SimHTTPError(*MISSING_PERMISSIONS)
        if archived is True and not info.archived and not (manage or owner):
            raise SimHTTPError(*MISSING_PERMISSIONS)
        name = payload.get("name")
        if name is not None:
            name = self._valid_name(name)
        owner_fields = {"name", "auto_archive_duration"}
        if any(payload.get(key) is not None for key in owner_fields) and not (manage or owner):
            raise SimHTTPError(*MISSING_PERMISSIONS)
        if payload.get("rate_limit_per_user") is not None and not manage:
            raise SimHTTPError(*MISSING_PERMISSIONS)
        if name is not None and name != channel.name:
            verdict = self.state.rate_limiter.check(
                "PATCH", NAME_ROUTE, dict(request.match_info), count_global=False
            )
            if not verdict.allowed:
                response = json_response(verdict.body(), 429)
                response.headers.update(verdict.headers)
                return response
            channel.name = name
        if payload.get("auto_archive_duration") is not None:
            info.auto_archive_duration = int(payload["auto_archive_duration"])
        if locked is not None:
            info.locked = bool(locked)
        if archived is not None and bool(archived) != info.archived:
            info.archived = bool(archived)
            info.archive_changed_at = time.time()
        self.state.announce("THREAD_UPDATE", thread_payload(channel), GUILDS_INTENT)
        return json_response(thread_payload(channel))

    # ----------------------------------------------------------------- members

    async def join(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        self.state.check_thread_open(thread)
        self._add(thread, self.state.bot_user.id, GUILDS_INTENT)
        return web.Response(status=204)

    async def add_member(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        self.state.check_thread_open(thread)
        if not self.state.bot_permissions(thread) & SEND_MESSAGES_IN_THREADS:
            raise SimHTTPError(*MISSING_PERMISSIONS)
        user_id = int(request.match_info["user_id"])
        assert thread.guild is not None
        if user_id not in thread.guild.members:
            raise SimHTTPError(404, 10007, "Unknown Member")
        self._add(thread, user_id, GUILD_MEMBERS_INTENT)
        return web.Response(status=204)

    def _add(self, thread: SimChannel, user_id: int, intent: int) -> None:
        info = thread.thread
        assert info is not None and thread.guild is not None
        if user_id in info.members:
            return
        info.members[user_id] = time.time()
        self.state.announce(
            "THREAD_MEMBERS_UPDATE",
            {
                "id": str(thread.id),
                "guild_id": str(thread.guild.id),
                "member_count": min(len(info.members), 50),
                "added_members": [info.member_payload(thread.id, user_id)],
            },
            intent,
        )
