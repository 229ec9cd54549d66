"""Challenges between people: open, accept, decline, withdraw, rematch.

A challenge is a stored row with an expiry; accepting it creates the match in the same
transaction. The checks that every new game passes (channel, cooldown, match limit) and the
row itself are built here once, and games against the bot (:mod:`bot.service.vs_bot`) use
the same helpers.
"""

from __future__ import annotations

from typing import Any

from bot.service import board_logic
from bot.service.board_logic import mention
from bot.service.core import LEIFF, ServiceCore, _deadline, _with
from bot.service.errors import (
    ChallengeExpired,
    Cooldown,
    Forbidden,
    IllegalAction,
    InvalidOptions,
    NotFound,
    SelfChallenge,
)
from bot.service.guild_settings import GuildSettings
from bot.service.results import ChallengeInfo, Update
from bot.storage import ChallengeRecord, ChallengeTaken, MatchRecord, SeatRecord
from engine import get_game


class ChallengeCalls(ServiceCore):
    """Challenge calls (part of :class:`MatchService`)."""

    async def challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        game: str,
        target_id: int | None = None,
        *,
        size: int | None = None,
        options: dict[str, Any] | None = None,
        thread_id: int | None = None,
        level: str | None = None,
    ) -> Update:
        """Challenge a user to a board game, or open a seek anyone may take (no target).

        Challenging the bot itself (``target_id`` = the bot's user id) starts the match at
        once at ``level`` (see :meth:`challenge_bot`).
        """
        if target_id is not None and target_id == self.bot_user_id:
            return await self.challenge_bot(
                guild_id,
                channel_id,
                challenger_id,
                game,
                level,
                size=size,
                options=options,
                thread_id=thread_id,
            )
        if level is not None:
            raise InvalidOptions("a level is only for games against the bot")
        async with self._user_lock(guild_id, challenger_id):
            return await self._challenge(
                guild_id, channel_id, challenger_id, game, target_id, size, options, thread_id
            )

    async def _challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        game: str,
        target_id: int | None,
        size: int | None,
        options: dict[str, Any] | None,
        thread_id: int | None,
    ) -> Update:
        settings = await self.get_settings(guild_id)
        self._check_channel(settings, channel_id, thread_id)
        game_name, size, options = self._board_options(game, size, options)
        if target_id == challenger_id:
            raise SelfChallenge()
        now = self.clock()
        await self._check_cooldown(settings, guild_id, challenger_id, now)
        await self._check_match_limit(settings, challenger_id, guild_id, "you")
        record = await self._new_challenge(
            settings,
            now,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            challenger_id=challenger_id,
            target_id=target_id,
            game=game_name,
            size=size,
            options=options,
        )
        return self._challenge_update("challenge", record, [self._challenge_text(record)])

    # ---- shared by challenges, rematches and games against the bot
    async def _check_cooldown(
        self, settings: GuildSettings, guild_id: int, user_id: int, now: float
    ) -> None:
        """``Cooldown`` when the user's last challenge on this server was too recent."""
        last = await self.repo.last_challenge_at(guild_id, user_id)
        cooldown = settings.challenge_cooldown_seconds
        if cooldown and last is not None and now - last < cooldown:
            raise Cooldown(cooldown - (now - last))

    async def _new_challenge(
        self,
        settings: GuildSettings,
        now: float,
        *,
        guild_id: int,
        channel_id: int,
        thread_id: int | None,
        challenger_id: int,
        target_id: int | None,
        game: str,
        size: int | None,
        options: dict[str, Any],
        rematch_of: int | None = None,
    ) -> ChallengeRecord:
        """Store an open challenge expiring after the server's challenge lifetime."""
        return await self.repo.create_challenge(
            ChallengeRecord(
                id=0,
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                challenger_id=challenger_id,
                target_id=target_id,
                game=game,
                size=size,
                options=options,
                status="open",
                created_at=now,
                expires_at=now + settings.challenge_expiry_seconds,
                rematch_of=rematch_of,
            )
        )

    @staticmethod
    def _board_draft(
        challenge: ChallengeRecord,
        state: Any,
        seats: tuple[SeatRecord, SeatRecord],
        settings: GuildSettings,
        now: float,
        *,
        vs_bot: bool = False,
    ) -> MatchRecord:
        """The match a taken challenge starts: seat 0 hosts and moves first, the clock runs."""
        deadline, warn_at = _deadline(now, settings.board_move_seconds)
        return MatchRecord(
            id=0,
            guild_id=challenge.guild_id,
            channel_id=challenge.channel_id,
            thread_id=challenge.thread_id,
            game=challenge.game,
            status="running",
            created_at=now,
            updated_at=now,
            options={"size": state.size, "options": dict(challenge.options)},
            state=state.to_json(),
            host_id=seats[0].user_id,
            vs_bot=vs_bot,
            rated=not vs_bot,
            deadline_at=deadline,
            warn_at=warn_at,
            rematch_of=challenge.rematch_of,
            seats=seats,
        )

    async def rematch(self, match_id: int, user_id: int) -> Update:
        """After a finished board game: challenge the opponent to the same game again.

        If the opponent already asked for a rematch, this accepts it instead.
        """
        async with self._lock(match_id):
            return await self._rematch(match_id, user_id)

    async def _rematch(self, match_id: int, user_id: int) -> Update:
        record = await self._load(match_id)
        if record.game == LEIFF:
            raise IllegalAction("for another game of Leiff, open a new table")
        seat = self._seat(record, user_id)
        if record.status != "finished":
            raise IllegalAction("a rematch can be asked for once the match is over")
        if record.vs_bot:
            return await self._rematch_bot(record, user_id)
        opponent = next(s.user_id for s in record.seats if s.seat != seat.seat)
        for open_challenge in await self.repo.open_challenges(record.guild_id):
            if open_challenge.rematch_of == match_id:
                if open_challenge.challenger_id == user_id:
                    raise IllegalAction("you already asked for a rematch")
                return await self.accept_challenge(open_challenge.id, user_id)
        settings = await self.get_settings(record.guild_id)
        await self._check_match_limit(settings, user_id, record.guild_id, "you")
        now = self.clock()
        challenge = await self._new_challenge(
            settings,
            now,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            thread_id=record.thread_id,
            challenger_id=user_id,
            target_id=opponent,
            game=record.game,
            size=record.options.get("size"),
            options=dict(record.options.get("options", {})),
            rematch_of=match_id,
        )
        text = f"{mention(user_id)} asks {mention(opponent)} for a rematch."
        return self._challenge_update("challenge", challenge, [text])

    async def accept_challenge(self, challenge_id: int, user_id: int) -> Update:
        """Take a challenge (the target) or a seek (anyone else): the match starts."""
        challenge = await self._open_challenge(challenge_id)
        async with self._user_lock(challenge.guild_id, user_id):
            return await self._accept(challenge_id, user_id)

    async def _accept(self, challenge_id: int, user_id: int) -> Update:
        challenge = await self._open_challenge(challenge_id)
        if challenge.challenger_id == user_id:
            raise SelfChallenge("you cannot accept your own challenge")
        if challenge.target_id is not None and challenge.target_id != user_id:
            raise Forbidden(f"this challenge is for {mention(challenge.target_id)}")
        settings = await self.get_settings(challenge.guild_id)
        await self._check_match_limit(settings, user_id, challenge.guild_id, "you")
        await self._check_match_limit(
            settings, challenge.challenger_id, challenge.guild_id, mention(challenge.challenger_id)
        )
        first, second = challenge.challenger_id, user_id
        if challenge.rematch_of is not None:
            previous = await self.repo.get_match(challenge.rematch_of)
            if previous is not None and previous.user_of(0) == challenge.challenger_id:
                first, second = second, first  # seats swap in a rematch
        state = get_game(challenge.game).new(challenge.size, **challenge.options)
        seats = (
            SeatRecord(seat=0, user_id=first, colour=state.seat_colour(0)),
            SeatRecord(seat=1, user_id=second, colour=state.seat_colour(1)),
        )
        draft = self._board_draft(challenge, state, seats, settings, self.clock())
        return await self._start_board_match(challenge, draft, state, "")

    async def _start_board_match(
        self, challenge: ChallengeRecord, draft: MatchRecord, state: Any, about: str
    ) -> Update:
        """Take the challenge and store its match in one transaction; ``match_started``.

        ``about`` is said after the players' names (e.g. the bot's level)."""
        try:
            record = await self.repo.accept_challenge(challenge.id, draft)
        except ChallengeTaken:
            raise ChallengeExpired() from None
        self._states[record.id] = (record.version, state)
        first, second = (seat.user_id for seat in record.seats)
        line = (
            f"{mention(first)} vs {mention(second)}{about}: {get_game(record.game).title} "
            f"on a {state.size}-board. " + board_logic.turn_text(record, state)
        )
        update = self._board_update("match_started", record, state, [line])
        return _with(update, challenge_id=challenge.id)

    async def decline_challenge(self, challenge_id: int, user_id: int) -> Update:
        challenge = await self._open_challenge(challenge_id)
        if challenge.target_id is None or challenge.target_id != user_id:
            raise Forbidden("only the challenged player can decline")
        closed = await self._close_challenge(challenge, "declined")
        text = f"{mention(user_id)} declines the challenge of {mention(challenge.challenger_id)}."
        return self._challenge_update("challenge_declined", closed, [text])

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> Update:
        challenge = await self._open_challenge(challenge_id)
        if challenge.challenger_id != user_id:
            raise Forbidden("only the player who made the challenge can withdraw it")
        closed = await self._close_challenge(challenge, "cancelled")
        text = f"{mention(user_id)} withdraws the challenge."
        return self._challenge_update("challenge_cancelled", closed, [text])

    async def get_challenge(self, challenge_id: int) -> ChallengeInfo:
        challenge = await self.repo.get_challenge(challenge_id)
        if challenge is None:
            raise NotFound("there is no such challenge")
        return self._challenge_info(challenge)

    async def open_challenges(
        self, guild_id: int, user_id: int | None = None
    ) -> list[ChallengeInfo]:
        now = self.clock()
        found = []
        for challenge in await self.repo.open_challenges(guild_id):
            if challenge.expires_at <= now:
                continue
            if user_id is None or user_id in (challenge.challenger_id, challenge.target_id):
                found.append(self._challenge_info(challenge))
        return found

    async def _open_challenge(self, challenge_id: int) -> ChallengeRecord:
        challenge = await self.repo.get_challenge(challenge_id)
        if challenge is None:
            raise NotFound("there is no such challenge")
        if challenge.status != "open":
            raise ChallengeExpired(f"that challenge was already {challenge.status}")
        if challenge.expires_at <= self.clock():
            raise ChallengeExpired("that challenge has expired")
        return challenge

    async def _close_challenge(self, challenge: ChallengeRecord, status: str) -> ChallengeRecord:
        try:
            return await self.repo.close_challenge(challenge.id, status)
        except ChallengeTaken:
            raise ChallengeExpired() from None
