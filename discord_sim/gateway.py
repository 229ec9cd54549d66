"""The gateway websocket: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats, RESUME, faults.

A ``GatewaySession`` outlives its websocket: events sent while the bot is disconnected are
buffered and replayed when it RESUMEs, as Discord does. Faults on demand: ``reconnect``
sends op 7 (the client closes and resumes), ``drop`` cuts the TCP connection without a
close frame (the client notices and resumes).

Sharding, as Discord does it: a session that IDENTIFYs with ``shard: [id, count]`` gets
only the guilds of its shard, ``(guild_id >> 22) % count``, in READY and GUILD_CREATE, and
only their events; events without a guild (DMs) go to shard 0 only. A session without
``shard`` is shard 0 of 1 and gets everything. A new IDENTIFY for a shard closes the
detached sessions of that shard (a killed process never resumes them).
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
from typing import Any

from aiohttp import WSMsgType, web

from .state import SimState

log = logging.getLogger(__name__)

DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
PRESENCE_UPDATE = 3
RESUME = 6
RECONNECT = 7
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

#: How many dispatched events a session keeps for a RESUME.
RESUME_BUFFER = 10_000
#: Events whose ``d.id`` is the guild itself (the others carry ``d.guild_id``, or none: DMs).
GUILD_EVENTS = {"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"}


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives a guild's events (Discord's formula)."""
    return (guild_id >> 22) % shard_count


def guild_of_event(event: str, data: dict[str, Any]) -> int | None:
    raw = data.get("id") if event in GUILD_EVENTS else data.get("guild_id")
    return int(raw) if raw is not None else None


class GatewaySession:
    """One identified bot session: its sequence numbers, intents and current websocket."""

    def __init__(self, session_id: str, intents: int, shard: list[int] | None) -> None:
        self.session_id = session_id
        self.intents = intents
        self.shard = shard
        self.sequence = 0
        self.buffer: collections.deque[tuple[int, str]] = collections.deque(maxlen=RESUME_BUFFER)
        self.websocket: web.WebSocketResponse | None = None
        self.request: web.Request | None = None
        self.send_lock = asyncio.Lock()
        self.resumes = 0
        self.closed = False

    @property
    def shard_id(self) -> int:
        return self.shard[0] if self.shard else 0

    @property
    def shard_count(self) -> int:
        return self.shard[1] if self.shard else 1

    def receives(self, guild_id: int | None) -> bool:
        """Whether this session's shard gets the events of ``guild_id`` (None: a DM)."""
        if guild_id is None:
            return self.shard_id == 0
        return shard_of(guild_id, self.shard_count) == self.shard_id

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send (or, while disconnected, buffer) one event with the next sequence number."""
        await self.dispatch_encoded(event, json.dumps(data))

    async def dispatch_encoded(self, event: str, data: str) -> None:
        """``dispatch`` with the event's data already encoded as JSON."""
        async with self.send_lock:
            self.sequence += 1
            frame = (
                f'{{"op": {DISPATCH}, "t": {json.dumps(event)}, "s": {self.sequence}, "d": {data}}}'
            )
            self.buffer.append((self.sequence, frame))
            websocket = self.websocket
            if websocket is not None and not websocket.closed:
                try:
                    await websocket.send_str(frame)
                except (ConnectionError, RuntimeError):
                    # The socket died under us; the event stays buffered for the RESUME.
                    log.debug("gateway send failed; event %s buffered", event)

    async def attach(
        self, websocket: web.WebSocketResponse, request: web.Request, after: int
    ) -> bool:
        """Take over a new websocket after a RESUME and replay what the bot missed."""
        async with self.send_lock:
            missed = [frame for sequence, frame in self.buffer if sequence > after]
            if after < self.sequence and (not self.buffer or self.buffer[0][0] > after + 1):
                return False
            self.websocket = websocket
            self.request = request
            for frame in missed:
                await websocket.send_str(frame)
            self.sequence += 1
            await websocket.send_str(
                json.dumps({"op": DISPATCH, "t": "RESUMED", "s": self.sequence, "d": {}})
            )
        self.resumes += 1
        return True

    def detach(self, websocket: web.WebSocketResponse) -> None:
        if self.websocket is websocket:
            self.websocket = None
            self.request = None

    async def reconnect(self) -> None:
        """Ask the client to reconnect (op 7); it will RESUME on a new socket."""
        websocket = self.websocket
        if websocket is not None and not websocket.closed:
            await websocket.send_str(json.dumps({"op": RECONNECT, "d": None}))

    def drop(self) -> None:
        """Cut the connection without a close frame, like a network failure."""
        request = self.request
        if request is not None and request.transport is not None:
            request.transport.abort()


class Gateway:
    """The websocket endpoint and the registry of sessions."""

    def __init__(self, state: SimState, url: str = "") -> None:
        self.state = state
        self.url = url
        self.sessions: dict[str, GatewaySession] = {}
        self.websockets: set[web.WebSocketResponse] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._session_counter = 0
        state.announce = self.announce

    @property
    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if not s.closed]

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The session that receives an interaction from ``guild_id`` (None: from a DM),
        preferring one with a connected websocket, the newest first."""
        candidates = [s for s in self.live_sessions if s.receives(guild_id)]
        candidates.sort(
            key=lambda s: (s.websocket is not None, int(s.session_id.rsplit("-", 1)[1]))
        )
        return candidates[-1] if candidates else None

    def announce(self, event: str, data: dict[str, Any], intent: int) -> None:
        """Send an event to the live sessions of its guild's shard (DM events: shard 0)
        whose intents include ``intent`` (0 = always)."""
        guild_id = guild_of_event(event, data)
        encoded: str | None = None
        for session in self.live_sessions:
            if not session.receives(guild_id):
                continue
            if intent == 0 or session.intents & intent:
                # Encoded now, once for every session: what changes later (the message's
                # next edit) is not in this event.
                encoded = json.dumps(data) if encoded is None else encoded
                task = asyncio.get_running_loop().create_task(
                    session.dispatch_encoded(event, encoded)
                )
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Wait until announced events have been written to the sockets."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def close_session(self, session: GatewaySession) -> None:
        session.closed = True
        self.sessions.pop(session.session_id, None)

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await websocket.prepare(request)
        self.websockets.add(websocket)
        session: GatewaySession | None = None
        try:
            await websocket.send_str(json.dumps({"op": HELLO, "d": {"heartbeat_interval": 41_250}}))
            async for message in websocket:
                if message.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(message.data)
                op = frame.get("op")
                data = frame.get("d")
                if op == HEARTBEAT:
                    await websocket.send_str(json.dumps({"op": HEARTBEAT_ACK, "d": None}))
                elif op == IDENTIFY:
                    session = await self._identify(websocket, request, data)
                    if session is None:
                        break
                elif op == RESUME:
                    session = self.sessions.get(data.get("session_id", ""))
                    if (
                        session is None
                        or data.get("token") != self.state.token
                        or not await session.attach(websocket, request, int(data.get("seq") or 0))
                    ):
                        session = None
                        await websocket.send_str(json.dumps({"op": INVALID_SESSION, "d": False}))
                elif op == REQUEST_GUILD_MEMBERS and session is not None:
                    await self._member_chunk(session, data)
                # Presence updates (op 3) and voice state (op 4) need no answer.
        finally:
            self.websockets.discard(websocket)
            if session is not None:
                session.detach(websocket)
        return websocket

    async def _identify(
        self, websocket: web.WebSocketResponse, request: web.Request, data: dict[str, Any]
    ) -> GatewaySession | None:
        if data.get("token") != self.state.token:
            await websocket.close(code=4004, message=b"Authentication failed.")
            return None
        shard = data.get("shard")
        if shard is not None:
            shard_id, shard_count = (int(n) for n in shard)
            if not 0 <= shard_id < shard_count:
                await websocket.close(code=4010, message=b"Invalid shard.")
                return None
            shard = [shard_id, shard_count]
        self._session_counter += 1
        session_id = f"sim-session-{self._session_counter}"
        session = GatewaySession(session_id, int(data.get("intents", 0)), shard)
        # A process that died left its session detached; it will never resume it.
        for old in self.live_sessions:
            if old.websocket is None and old.shard_id == session.shard_id:
                self.close_session(old)
        session.websocket = websocket
        session.request = request
        self.sessions[session_id] = session
        guilds = [g for g in self.state.guilds.values() if session.receives(g.id)]
        ready: dict[str, Any] = {
            "v": 10,
            "user": self.state.bot_user.to_payload()
            | {"verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session_id,
            "session_type": "normal",
            "resume_gateway_url": self.url,
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "application": {"id": str(self.state.application_id), "flags": 0},
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        await session.dispatch("READY", ready)
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", guild.to_payload())
        return session

    async def _member_chunk(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild_ids = data.get("guild_id")
        for guild_id in guild_ids if isinstance(guild_ids, list) else [guild_ids]:
            guild = self.state.guilds.get(int(guild_id)) if guild_id is not None else None
            if guild is None:
                continue
            wanted = {int(u) for u in data.get("user_ids") or []}
            query = (data.get("query") or "").lower()
            members = [
                m.to_payload()
                for m in guild.members.values()
                if (not wanted or m.user.id in wanted) and m.user.name.lower().startswith(query)
            ]
            chunk: dict[str, Any] = {
                "guild_id": str(guild.id),
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
            }
            if data.get("nonce"):
                chunk["nonce"] = data["nonce"]
            await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def close_all(self) -> None:
        for websocket in list(self.websockets):
            await websocket.close(code=1001)
        await self.settle()
