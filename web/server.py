"""The web table's HTTP and WebSocket server (aiohttp).

HTTP serves the page, its bundle and each board's geometry. ``/ws?session=TOKEN`` is the
socket: refused (401) without a known session; then the page sends JSON messages (see
docs/web.md, "Protocol") and receives frames. Every action is one call of the match
service for a member the session speaks for, judged by the core as a slash command or a
button would be: a socket can do no more than its member could in Discord.

A committed action reaches every open table of its match within one turn of the event
loop: the service tells :meth:`WebTable.committed` right after the commit (in this
process), which queues the new frame on each socket watching the match.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import weakref
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from engine import IllegalMove, board_game_names
from engine.board import BoardState
from engine.leiff.state import LeiffState
from i18n import translate
from matchcore.service import MatchService
from matchcore.service.errors import ServiceError
from matchcore.service.results import MatchInfo
from matchcore.storage import MatchRecord
from web.actions import (
    LEIFF,
    LOCAL_BOT,
    LOCAL_PLAYER,
    LOCAL_SECOND,
    Actions,
    LocalTable,
    UpdateHook,
)
from web.geometry import geometry_json
from web.leiff_frame import leiff_frame, lobby_frame
from web.limits import MAX_FRAME_BYTES, MAX_REFUSALS, TokenBucket
from web.loopback import loopback_only
from web.puzzle_frame import PUZZLE_MESSAGES, PuzzleDesk
from web.sessions import Identity, Session, Sessions
from web.snapshot import board_frame, position_at
from web.texts import FAILED, MALFORMED, TOO_FAST, language_of, match_line, welcome_frame
from wording.service_words import refusal

log = logging.getLogger(__name__)

__all__ = ["LOCAL_BOT", "LOCAL_PLAYER", "LOCAL_SECOND", "LocalTable", "WebTable"]

# What a socket may be shown: a board game, a Leiff table, or a Leiff lobby (no state yet).
Shown = BoardState | LeiffState | None

STATIC = Path(__file__).resolve().parent / "static"
# What a page may ask, and the fields each message must carry (with their types).
MESSAGES: dict[str, dict[str, type]] = {
    "watch": {"match": int},
    "unwatch": {"match": int},
    "move": {"match": int, "move": str, "version": int},
    "resign": {"match": int, "version": int},
    "offer_draw": {"match": int, "version": int},
    "accept_draw": {"match": int, "version": int},
    "decline_draw": {"match": int, "version": int},
    "rematch": {"match": int},
    "history": {"match": int, "ply": int},
    "new_game": {"game": str, "opponent": str},
    "matches": {},
    # a Leiff action (the engine's action string, as the Discord layer's buttons carry
    # it) and the lobby's (join, leave, add_bot, start); ``version`` is optional for both
    "leiff": {"match": int, "action": str},
    "lobby": {"match": int, "action": str},
    # a puzzle (``game`` optional: any board game) and its answer (web/puzzle_frame.py)
    "puzzle": {},
    "puzzle_answer": {"puzzle": int, "move": str},
    # the server's puzzle of the day (the local table's own)
    "puzzle_daily": {},
}
# A member mentioned in a line of the core's (Discord's mention syntax).
MENTION = re.compile(r"<@!?(\d+)>")
# The most matches one socket watches at once.
MAX_WATCHED = 20

# How another process's commits reach this one's sockets (docs/web.md, "Live"). Every web
# process is a reader of its own: its position is what its own sockets were shown (the
# newest version of each match they watch, ``WebTable.shown``), and it reads the newest
# versions of those matches (one query) this often where the database cannot tell it at
# once (SQLite). On PostgreSQL every commit's NOTIFY reaches every listening process, each
# told the match and version, and each reads that match alone; it still reads the
# versions this often, in case a notice was lost while its connection was down.
OUTBOX_POLL_SECONDS = 0.25
OUTBOX_TOLD_SECONDS = 5.0
# Expired sign-ins are forgotten this often.
PRUNE_SECONDS = 600.0


class BadMessage(Exception):
    """A message that is not one of :data:`MESSAGES` with its fields."""


@dataclass(eq=False)
class Client:
    """One open socket: whom it speaks for, what it watches, its outgoing queue."""

    ws: web.WebSocketResponse
    session: Session
    language: str
    bucket: TokenBucket = field(default_factory=TokenBucket)
    watching: set[int] = field(default_factory=set)
    outbox: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    refusals: int = 0

    def send(self, frame: dict[str, Any]) -> None:
        self.outbox.put_nowait(json.dumps(frame, separators=(",", ":")))


class WebTable:
    """The web front end: sessions, sockets and what they watch, over one match service."""

    def __init__(
        self,
        service: MatchService,
        sessions: Sessions,
        *,
        local: LocalTable | None = None,
        on_update: UpdateHook | None = None,
    ) -> None:
        self.service = service
        self.sessions = sessions
        self.local = local
        self.actions = Actions(service, local, on_update, self._spawn)
        self.puzzles = PuzzleDesk(service, local.guild_id if local is not None else None)
        # match id -> the sockets watching it (a socket leaves when it closes)
        self.watchers: dict[int, weakref.WeakSet[Client]] = {}
        self.names: dict[int, Identity] = {}
        # the newest version of each watched match whose frames went out from here
        self.shown: dict[int, int] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        # matches a NOTIFY said moved on (to the version given), not read yet
        self._told: dict[int, int] = {}
        self._woken = asyncio.Event()
        # Whether a session may still be used (the Activity's: its member still in it);
        # checked at every socket message. Local sessions: always.
        self.access: Callable[[Session], Awaitable[bool]] = _always
        # The name of a member no session here told (one who plays in Discord): the
        # Discord layer's cache when the table runs beside the bot; None when unknown.
        self.member_name: Callable[[int], str | None] = _unknown
        service.on_commit(self.committed)

    # ---- the application --------------------------------------------------------------
    def app(self) -> web.Application:
        # the local table (no Discord sign-in) answers this machine alone (web.loopback)
        middlewares = [loopback_only] if self.local is not None else []
        app = web.Application(client_max_size=64 * 1024, middlewares=middlewares)
        app.router.add_get("/", self.page)
        app.router.add_get("/ws", self.socket)
        app.router.add_get("/api/geometry/{game}/{size}", self.geometry)
        if self.local is not None:
            app.router.add_post("/api/local-session", self.local_session)
        app.router.add_static("/static", STATIC)
        app.on_startup.append(self._start_outbox)
        app.on_shutdown.append(self._close_sockets)
        return app

    async def _start_outbox(self, app: web.Application) -> None:
        self._spawn(self.drain_outbox())

    async def drain_outbox(self) -> None:
        """Show what other processes committed to the sockets watching it here. This
        process reads for itself and marks nothing shared, so any number of web
        processes can share a database and each is shown every step of what its own
        sockets watch (a move made in this process has gone out already,
        :meth:`committed`). On PostgreSQL each commit's NOTIFY names the match and its
        version (``Repository.listen_outbox``) and this process reads that match alone if
        it watches it; every :data:`OUTBOX_TOLD_SECONDS` (on SQLite, which cannot tell,
        every :data:`OUTBOX_POLL_SECONDS`) it reads the versions of every match it
        watches in one query. Expired sign-ins are forgotten now and then."""
        try:
            told = await self.service.repo.listen_outbox(self._heard)
        except Exception:
            log.exception("the web table cannot listen for commits; it polls")
            told = False
        pause = OUTBOX_TOLD_SECONDS if told else OUTBOX_POLL_SECONDS
        loop = asyncio.get_running_loop()
        swept = pruned = -PRUNE_SECONDS
        while True:
            self._woken.clear()  # a commit told while this pass reads makes another pass
            try:
                await self._show_told()
                if loop.time() - swept >= pause * 0.9:
                    swept = loop.time()
                    await self._show_moved()
                if loop.time() - pruned >= PRUNE_SECONDS:
                    pruned = loop.time()
                    await self.service.sign_ins.prune_sign_ins()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the web table could not read what was committed; it tries again")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), pause)

    def _heard(self, match_id: int, version: int) -> None:
        """A commit anywhere (PostgreSQL's NOTIFY): read the match if it is watched here
        and its frames have not gone out yet."""
        if self.watchers.get(match_id) and self.shown.get(match_id, -1) < version:
            self._told[match_id] = max(self._told.get(match_id, -1), version)
            self._woken.set()

    async def _show_told(self) -> None:
        told, self._told = self._told, {}
        for match_id, version in told.items():
            if self.watchers.get(match_id) and self.shown.get(match_id, -1) < version:
                info, shown = await self._shown_match(match_id)
                self._show(info, shown)

    async def _show_moved(self) -> None:
        watched = [match_id for match_id, clients in self.watchers.items() if clients]
        if not watched:
            return
        versions = await self.service.sign_ins.match_versions(watched)
        for match_id, version in versions.items():
            if self.shown.get(match_id, -1) < version and self.watchers.get(match_id):
                info, shown = await self._shown_match(match_id)
                self._show(info, shown)

    async def page(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html")

    async def geometry(self, request: web.Request) -> web.Response:
        try:
            data = geometry_json(request.match_info["game"], int(request.match_info["size"]))
        except (ValueError, LookupError):
            raise web.HTTPNotFound() from None
        return web.json_response(data, headers={"Cache-Control": "max-age=3600"})

    async def local_session(self, request: web.Request) -> web.Response:
        """Sign in the local player (and the second player of a shared screen): only for
        ``make run`` without Discord, which listens on the loopback address alone."""
        assert self.local is not None
        try:
            body = await request.json()
        except ValueError:
            body = {}
        locale = str(body.get("locale") or "en")[:16] if isinstance(body, dict) else "en"
        language = language_of(locale)
        first = Identity(LOCAL_PLAYER, translate(language, "web.you"), locale)
        second = Identity(LOCAL_SECOND, translate(language, "web.second_player"), locale)
        for identity in (first, second):
            self.names[identity.user_id] = identity
        token = await self.sessions.issue(first, {second.user_id: second})
        return web.json_response({"token": token})

    async def _close_sockets(self, app: web.Application) -> None:
        for task in list(self._tasks):
            task.cancel()
        for clients in list(self.watchers.values()):
            for client in list(clients):
                await client.ws.close()

    # ---- the socket -------------------------------------------------------------------
    async def socket(self, request: web.Request) -> web.StreamResponse:
        session = await self.sessions.get(request.query.get("session"))
        if session is not None and not await self.access(session):
            session = None
        if session is None:
            log.warning("web socket refused: no valid session (%s)", request.remote)
            raise web.HTTPUnauthorized(text="no valid session")
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME_BYTES, heartbeat=30.0)
        await ws.prepare(request)
        for identity in session.acts_for().values():
            self.names[identity.user_id] = identity
        client = Client(ws, session, language_of(session.identity.locale))
        writer = asyncio.create_task(self._write(client), name="web-socket-writer")
        client.send(welcome_frame(session.identity, client.language, local=self.local is not None))
        try:
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    if not await self._receive(client, message.data):
                        break
                elif message.type == WSMsgType.ERROR:
                    error = ws.exception()
                    what = (
                        "an oversized frame"
                        if getattr(error, "code", None) == 1009
                        else "a bad frame"
                    )
                    log.warning(
                        "web socket of user %s closed: it sent %s (%s)",
                        session.identity.user_id,
                        what,
                        error,
                    )
                elif message.type == WSMsgType.BINARY:
                    log.warning(
                        "web socket of user %s sent a binary frame", session.identity.user_id
                    )
        finally:
            for match_id in client.watching:
                self._unwatch(client, match_id)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
        return ws

    async def _write(self, client: Client) -> None:
        """Send the socket's frames in order (one writer per socket)."""
        while True:
            text = await client.outbox.get()
            try:
                await client.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return

    async def _receive(self, client: Client, text: str) -> bool:
        """Handle one message; False when the socket must be closed."""
        user = client.session.identity.user_id
        expires = client.session.expires_at
        if (expires is not None and expires < self.service.clock()) or not await self.access(
            client.session
        ):
            # expired or signed out meanwhile, or no longer in the Activity: the socket ends here
            log.warning("web socket of user %s closed: its session is no longer valid", user)
            await client.ws.close(code=4001, message=b"signed out")
            return False
        if not client.bucket.take():
            client.refusals += 1
            log.warning("web socket of user %s: too many messages, one refused", user)
            if client.refusals >= MAX_REFUSALS:
                await client.ws.close(code=1008, message=b"too many messages")
                return False
            client.send(self._error(client, TOO_FAST))
            return True
        client.refusals = 0
        try:
            data = parse_message(text)
        except BadMessage as error:
            log.warning("web socket of user %s: malformed message refused (%s)", user, error)
            client.send(self._error(client, MALFORMED))
            return True
        try:
            await self._handle(client, data)
        except (ServiceError, IllegalMove) as error:
            log.info("web action of user %s refused: %s", user, type(error).__name__)
            client.send(
                {
                    "type": "error",
                    "text": self.named(refusal(client.language, error)),
                    "match": data.get("match"),
                }
            )
        except Exception:
            # a bug must not take the socket, nor the server, down with it
            log.exception("web socket of user %s: a %s message failed", user, data["type"])
            client.send(self._error(client, FAILED))
        return True

    def named(self, text: str) -> str:
        """A line as Discord shows it: a mention (``<@id>``) reads as the member's name."""
        return MENTION.sub(lambda found: self._name(int(found.group(1))), text)

    def _learn_names(self, user_ids: Iterable[int]) -> None:
        for user_id in user_ids:
            if user_id not in self.names and (name := self.member_name(user_id)):
                self.names[user_id] = Identity(user_id, name, "en")

    def _name(self, user_id: int) -> str:
        self._learn_names((user_id,))
        identity = self.names.get(user_id)
        return identity.name if identity is not None else f"#{user_id}"

    def _error(self, client: Client, msgid: str) -> dict[str, Any]:
        return {"type": "error", "text": translate(client.language, msgid)}

    # ---- messages ---------------------------------------------------------------------
    async def _handle(self, client: Client, data: dict[str, Any]) -> None:
        kind = data["type"]
        if kind == "watch":
            await self._watch(client, data["match"])
        elif kind == "unwatch":
            self._unwatch(client, data["match"])
        elif kind == "history":
            info, state = await self._shown_match(data["match"])
            if not isinstance(state, BoardState):
                raise ServiceError("no_such_match")
            client.send({**position_at(state, data["ply"], client.language), "match": info.id})
        elif kind == "matches":
            await self._send_matches(client)
        elif kind in PUZZLE_MESSAGES:
            client.send(
                await self.puzzles.handle(client.session, data, self._name, client.language)
            )
        elif kind == "new_game":
            started = await self.actions.new_game(client.session, data)
            if started is not None:
                client.send({"type": "started", "match": started})
        else:
            started = await self.actions.act(client.session, kind, data)
            if started is not None:
                client.send({"type": "started", "match": started})

    async def _shown_match(self, match_id: int) -> tuple[MatchInfo, Shown]:
        """A match the web table can show: a board game, a Leiff table or its lobby."""
        info, state = await self.service.match_state(match_id)
        if isinstance(state, BoardState | LeiffState) or (state is None and info.game == LEIFF):
            return info, state
        raise ServiceError("no_such_match")

    async def _watch(self, client: Client, match_id: int) -> None:
        info, state = await self._shown_match(match_id)
        if match_id not in client.watching:
            if len(client.watching) >= MAX_WATCHED:
                raise ServiceError("forbidden")
            client.watching.add(match_id)
            self.watchers.setdefault(match_id, weakref.WeakSet()).add(client)
        client.send(self._frame(client, info, state))
        # every socket watching it has this version now (the poll need not send it again)
        self.shown[match_id] = max(self.shown.get(match_id, -1), info.version)

    def _unwatch(self, client: Client, match_id: int) -> None:
        watchers = self.watchers.get(match_id)
        if watchers is not None:
            watchers.discard(client)
            if not watchers:
                del self.watchers[match_id]
                self.shown.pop(match_id, None)

    def _frame(self, client: Client, info: MatchInfo, state: Shown) -> dict[str, Any]:
        """What this socket is shown of the match: a Leiff table from its own member's
        seat alone (never the shared screen's: a hand is one member's)."""
        member = client.session.identity.user_id
        self._learn_names(s.user_id for s in info.seats if s.user_id is not None and not s.is_bot)
        if isinstance(state, LeiffState):
            return leiff_frame(
                info, state, viewer=member, names=self.names, language=client.language
            )
        if state is None:
            return lobby_frame(info, viewer=member, names=self.names, language=client.language)
        return board_frame(
            info,
            state,
            viewer=client.session.acts_for(),
            names=self.names,
            language=client.language,
        )

    def committed(self, record: MatchRecord, state: object) -> None:
        """The service committed an action (any front end, the bot, the clock): queue the
        new frame on every socket watching the match, before the event loop moves on."""
        watchers = self.watchers.get(record.id)
        if not watchers:
            return
        if isinstance(state, BoardState | LeiffState):
            self._show(self.service.describe.info(record, state), state)
        elif state is None and record.game == LEIFF:
            self._show(self.service.describe.info(record, None), None)

    def _show(self, info: MatchInfo, state: Shown) -> None:
        if self.shown.get(info.id, -1) >= info.version:
            return  # shown already (the commit here, then its outbox row)
        self.shown[info.id] = info.version
        for client in list(self.watchers.get(info.id, ())):
            client.send(self._frame(client, info, state))

    def _spawn(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send_matches(self, client: Client) -> None:
        """The member's games for the start page, theirs to move first, each with whose
        turn it is in words (``web.texts.match_line``)."""
        member = client.session.identity.user_id
        matches = [
            m
            for m in await self.service.user_matches(member)
            if m.game in board_game_names() or m.game == LEIFF
        ]
        matches.sort(key=lambda m: (member not in m.to_act, m.status != "running", -m.id))
        lines = [match_line(m, member, self._name, client.language) for m in matches]
        client.send({"type": "matches", "matches": lines})


async def _always(session: Session) -> bool:
    return True


def _unknown(user_id: int) -> str | None:
    return None


def parse_message(text: str) -> dict[str, Any]:
    """A page's message as a dict of the fields :data:`MESSAGES` names for its type."""
    try:
        data = json.loads(text)
    except ValueError:
        raise BadMessage("not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise BadMessage("no type")
    fields = MESSAGES.get(data["type"])
    if fields is None:
        raise BadMessage("unknown type")
    for name, kind in fields.items():
        value = data.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise BadMessage(f"field {name}")
    return data
