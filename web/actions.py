"""What a socket's messages do: one call of the match service each, for a member the
socket's session speaks for, judged by the core as a slash command or a button would be.

Board moves, resigning and the draw offer; a Leiff table's actions (the engine's own action
strings, as the Discord layer's buttons carry them) and its lobby (join, leave, a bot seat,
start); local games (``make run`` without Discord): a board game against the bot or at a
shared screen, a Leiff table with bot seats.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from engine import board_game_names
from matchcore.service import MatchService
from matchcore.service.errors import ServiceError, StaleVersion
from matchcore.service.leiff_logic import MAX_PLAYERS, MIN_PLAYERS, UNVERSIONED
from matchcore.service.results import MatchInfo, Update
from web.sessions import Session

log = logging.getLogger(__name__)

LEIFF = "leiff"
# Called with every update a web action made (the Discord layer posts the channel's
# message as after a command); None when the web table runs alone.
UpdateHook = Callable[[Update], Awaitable[None]]
Spawn = Callable[[Awaitable[Any]], None]

# The local players' ids (``make run`` without Discord): no Discord id is this small.
LOCAL_PLAYER = 1001
LOCAL_SECOND = 1002
LOCAL_BOT = 1000


@dataclass(frozen=True)
class LocalTable:
    """Where local games (``make run`` without Discord) are played: a server and channel
    of their own in the database, and the bot's id there."""

    guild_id: int
    channel_id: int
    bot_user_id: int


class Actions:
    """The calls of the match service a socket's messages make."""

    def __init__(
        self,
        service: MatchService,
        local: LocalTable | None,
        on_update: UpdateHook | None,
        spawn: Spawn,
    ) -> None:
        self.service = service
        self.local = local
        self.on_update = on_update
        self.spawn = spawn

    def actor(self, session: Session, info: MatchInfo, action: str) -> int:
        """Which of the session's members does ``action``: at a shared screen the one to
        move (or, for a draw offer, the one it was offered to); else the member itself.
        The core then judges that member's right to it."""
        members = session.acts_for()
        if info.game == LEIFF:  # a hand is one member's alone: never the shared screen's
            return session.identity.user_id
        seated = [seat.user_id for seat in info.seats if seat.user_id in members]
        if len(seated) < 2:
            return seated[0] if seated else session.identity.user_id
        if action in ("accept_draw", "decline_draw") and info.draw_offer_by is not None:
            return next(user for user in seated if user != info.draw_offer_by)
        to_act = [user for user in info.to_act if user in members]
        return to_act[0] if to_act else seated[0]

    async def act(self, session: Session, kind: str, data: dict[str, Any]) -> int | None:
        """One action on a match; the id of a new match to show (a rematch), else None."""
        match_id = data["match"]
        info, _ = await self.service.match_state(match_id)
        user = self.actor(session, info, kind)
        version = data.get("version")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise StaleVersion()
        update: Update
        started = None
        if kind == "move":
            update = await self.service.play(match_id, user, data["move"], version)
        elif kind == "leiff":
            action = data["action"]
            # matching, catching, penalties and the next deal are judged as the table is
            # when they arrive (the Discord layer's buttons carry no version for them)
            unversioned = action.split(" ", 1)[0] in UNVERSIONED
            update = await self.service.leiff_action(
                match_id, user, action, None if unversioned else version
            )
        elif kind == "lobby":
            update = await self._lobby(match_id, user, data["action"], version)
        elif kind == "resign":
            update = await self.service.resign(match_id, user, version)
        elif kind == "offer_draw":
            update = await self.service.offer_draw(match_id, user, version)
        elif kind == "accept_draw":
            update = await self.service.accept_draw(match_id, user, version)
        elif kind == "decline_draw":
            update = await self.service.decline_draw(match_id, user, version)
        else:  # rematch
            update = await self.service.rematch(match_id, user)
            update = await self.seat_second(session, update)
            if update.match is not None and update.match.id != match_id:
                started = update.match.id
        await self.after(update)
        return started

    async def _lobby(self, match_id: int, user: int, action: str, version: int | None) -> Update:
        if action == "join":
            return await self.service.join_lobby(match_id, user, version)
        if action == "leave":
            return await self.service.leave_lobby(match_id, user, version)
        if action == "add_bot":
            return await self.service.add_bot_seat(match_id, user, None, version)
        if action == "start":
            return await self.service.start_lobby(match_id, user, version)
        raise ServiceError("forbidden")

    async def seat_second(self, session: Session, update: Update) -> Update:
        """At a shared screen, a challenge to the other person there is accepted by them."""
        challenge = update.challenge
        members = session.acts_for()
        if (
            update.match is None
            and challenge is not None
            and challenge.target_id in members
            and challenge.status == "open"
        ):
            return await self.service.accept_challenge(challenge.id, challenge.target_id)
        return update

    async def after(self, update: Update) -> None:
        """Hand the update to the Discord layer when it runs here. The bot's turn the
        update leaves due is the core's: it started it at the commit, and its steps reach
        the sockets as every commit does (``WebTable.committed``)."""
        if self.on_update is not None:
            await self.on_update(update)

    async def new_game(self, session: Session, data: dict[str, Any]) -> int | None:
        """Start a local game: a board game against the bot at a level or two people at one
        screen, or a Leiff table with bot seats (``players`` in all); the new match's id."""
        if self.local is None:
            raise ServiceError("forbidden")
        user = session.identity.user_id
        game, opponent = data["game"], data["opponent"]
        size = data.get("size")
        if size is not None and (not isinstance(size, int) or isinstance(size, bool)):
            raise ServiceError("forbidden")
        level = data.get("level")
        level = level if isinstance(level, str) else None
        if game == LEIFF:
            update = await self._local_table(user, size or 4, level)
        elif opponent == "bot" and game in board_game_names():
            update = await self.service.challenge_bot(
                self.local.guild_id, self.local.channel_id, user, game, level, size=size
            )
        elif opponent == "hotseat" and LOCAL_SECOND in session.acts_for():
            update = await self.service.challenge(
                self.local.guild_id, self.local.channel_id, user, game, LOCAL_SECOND, size=size
            )
            update = await self.seat_second(session, update)
        else:
            raise ServiceError("forbidden")
        await self.after(update)
        return update.match.id if update.match is not None else None

    async def _local_table(self, user: int, players: int, level: str | None) -> Update:
        """A Leiff table of ``players`` seats: the local player and bots (a hand is its
        owner's alone, so nobody shares a screen at cards)."""
        assert self.local is not None
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ServiceError("forbidden")
        update = await self.service.open_lobby(self.local.guild_id, self.local.channel_id, user)
        assert update.match is not None
        match_id = update.match.id
        for _ in range(players - 1):
            await self.service.add_bot_seat(match_id, user, level)
        return await self.service.start_lobby(match_id, user)
