"""Challenges between people: open, accept, decline, withdraw, rematch.

A challenge is a stored row with an expiry; accepting it creates the match in the same
transaction. The checks every new game passes and the rows themselves are
:class:`matchcore.service.admission.NewGames`' part, shared with games against the bot
(:class:`matchcore.service.vs_bot.BotOpponent`, which a challenge to the bot goes to).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import get_board_game
from matchcore.service import board_logic, time_controls
from matchcore.service.admission import NewGames, board_options, check_channel, seat_of
from matchcore.service.board_logic import mention
from matchcore.service.describe import Describer, challenge_info, challenge_text
from matchcore.service.errors import (
    ChallengeExpired,
    Forbidden,
    IllegalAction,
    InvalidOptions,
    NotFound,
    SelfChallenge,
)
from matchcore.service.results import ChallengeInfo, Update, say
from matchcore.service.steps import is_table
from matchcore.service.store import MatchStore
from matchcore.service.vs_bot import BotOpponent
from matchcore.storage import ChallengeRecord, ChallengeTaken, SeatRecord

# Why a challenge is no longer open, by its status.
_CLOSED = {
    "accepted": "challenge_accepted",
    "declined": "challenge_declined",
    "cancelled": "challenge_cancelled",
    "expired": "challenge_closed_expired",
}


class Challenges:
    """Challenges between people (a challenge to the bot goes to :class:`BotOpponent`)."""

    def __init__(
        self, store: MatchStore, describe: Describer, new_games: NewGames, bots: BotOpponent
    ) -> None:
        self.store = store
        self.describe = describe
        self.new_games = new_games
        self.bots = bots

    async def challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        game: str,
        target_id: int | None = None,
        *,
        size: int | None = None,
        options: Mapping[str, Any] | None = None,
        thread_id: int | None = None,
        level: str | None = None,
        time_control: str | None = None,
    ) -> Update:
        """Challenge a user to a board game, or open a seek anyone may take (no target),
        with a time control (a code of :mod:`matchcore.service.time_controls`; None: the
        server's time per move).

        Challenging the bot itself (``target_id`` = the bot's user id) starts the match at
        once at ``level`` (see :meth:`challenge_bot`).
        """
        if target_id is not None and target_id == self.store.bot_user_id:
            return await self.bots.challenge_bot(
                guild_id,
                channel_id,
                challenger_id,
                game,
                level,
                size=size,
                options=options,
                thread_id=thread_id,
                time_control=time_control,
            )
        if level is not None:
            raise InvalidOptions("level_only_vs_bot")
        async with self.store.user_lock(guild_id, challenger_id):
            return await self._challenge(
                guild_id,
                channel_id,
                challenger_id,
                game,
                target_id,
                size,
                options,
                thread_id,
                time_control,
            )

    async def _challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        game: str,
        target_id: int | None,
        size: int | None,
        options: Mapping[str, Any] | None,
        thread_id: int | None,
        time_control: str | None,
    ) -> Update:
        settings = await self.store.settings(guild_id)
        check_channel(settings, channel_id, thread_id)
        game_name, size, options = board_options(game, size, options)
        time_controls.chosen(time_control, settings.board_move_seconds, table=False)  # checked
        if target_id == challenger_id:
            raise SelfChallenge()
        now = self.store.clock()
        await self.new_games.check_cooldown(settings, guild_id, challenger_id, now)
        await self.new_games.check_match_limit(settings, challenger_id, guild_id, "you")
        record = await self.new_games.new_challenge(
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
            time_control=time_control,
        )
        return self.describe.challenge("challenge", record, [challenge_text(record)])

    async def rematch(self, match_id: int, user_id: int) -> Update:
        """After a finished board game: challenge the opponent to the same game again.

        If the opponent already asked for a rematch, this accepts it instead.
        """
        async with self.store.lock(match_id):
            return await self._rematch(match_id, user_id)

    async def _rematch(self, match_id: int, user_id: int) -> Update:
        record = await self.store.load(match_id)
        if is_table(record):
            raise IllegalAction("leiff_rematch")
        seat = seat_of(record, user_id)
        if record.status != "finished":
            raise IllegalAction("rematch_too_soon")
        if record.vs_bot:
            return await self.bots.rematch(record, user_id)
        opponent = next(s.user_id for s in record.seats if s.seat != seat.seat)
        for open_challenge in await self.store.repo.open_challenges(record.guild_id):
            if open_challenge.rematch_of == match_id:
                if open_challenge.challenger_id == user_id:
                    raise IllegalAction("rematch_asked")
                return await self.accept_challenge(open_challenge.id, user_id)
        settings = await self.store.settings(record.guild_id)
        await self.new_games.check_match_limit(settings, user_id, record.guild_id, "you")
        now = self.store.clock()
        challenge = await self.new_games.new_challenge(
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
            time_control=(await self.store.time_control(record)).code,
        )
        text = say("rematch_asked", user=mention(user_id), opponent=mention(opponent))
        return self.describe.challenge("challenge", challenge, [text])

    async def accept_challenge(self, challenge_id: int, user_id: int) -> Update:
        """Take a challenge (the target) or a seek (anyone else): the match starts."""
        challenge = await self._open_challenge(challenge_id)
        async with self.store.user_lock(challenge.guild_id, user_id):
            return await self._accept(challenge_id, user_id)

    async def _accept(self, challenge_id: int, user_id: int) -> Update:
        challenge = await self._open_challenge(challenge_id)
        if challenge.challenger_id == user_id:
            raise SelfChallenge("accept_own_challenge")
        if challenge.target_id is not None and challenge.target_id != user_id:
            raise Forbidden("challenge_for_other", user=mention(challenge.target_id))
        settings = await self.store.settings(challenge.guild_id)
        await self.new_games.check_match_limit(settings, user_id, challenge.guild_id, "you")
        await self.new_games.check_match_limit(
            settings, challenge.challenger_id, challenge.guild_id, mention(challenge.challenger_id)
        )
        first, second = challenge.challenger_id, user_id
        if challenge.rematch_of is not None:
            previous = await self.store.repo.get_match(challenge.rematch_of)
            if previous is not None and previous.user_of(0) == challenge.challenger_id:
                first, second = second, first  # seats swap in a rematch
        state = get_board_game(challenge.game).new(challenge.size, **challenge.options)
        seats = (
            SeatRecord(seat=0, user_id=first, colour=board_logic.seat_colour(state, 0)),
            SeatRecord(seat=1, user_id=second, colour=board_logic.seat_colour(state, 1)),
        )
        draft = self.new_games.board_draft(challenge, state, seats, settings, self.store.clock())
        return await self.new_games.start_board_match(challenge, draft, state)

    async def decline_challenge(self, challenge_id: int, user_id: int) -> Update:
        challenge = await self._open_challenge(challenge_id)
        if challenge.target_id is None or challenge.target_id != user_id:
            raise Forbidden("decline_not_target")
        closed = await self._close_challenge(challenge, "declined")
        text = say(
            "challenge_declined", user=mention(user_id), challenger=mention(challenge.challenger_id)
        )
        return self.describe.challenge("challenge_declined", closed, [text])

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> Update:
        challenge = await self._open_challenge(challenge_id)
        if challenge.challenger_id != user_id:
            raise Forbidden("withdraw_not_challenger")
        closed = await self._close_challenge(challenge, "cancelled")
        text = say("challenge_withdrawn", user=mention(user_id))
        return self.describe.challenge("challenge_cancelled", closed, [text])

    async def get_challenge(self, challenge_id: int) -> ChallengeInfo:
        challenge = await self.store.repo.get_challenge(challenge_id)
        if challenge is None:
            raise NotFound("no_such_challenge")
        return challenge_info(challenge)

    async def open_challenges(
        self, guild_id: int, user_id: int | None = None
    ) -> list[ChallengeInfo]:
        now = self.store.clock()
        found = []
        for challenge in await self.store.repo.open_challenges(guild_id):
            if challenge.expires_at <= now:
                continue
            if user_id is None or user_id in (challenge.challenger_id, challenge.target_id):
                found.append(challenge_info(challenge))
        return found

    async def _open_challenge(self, challenge_id: int) -> ChallengeRecord:
        challenge = await self.store.repo.get_challenge(challenge_id)
        if challenge is None:
            raise NotFound("no_such_challenge")
        if challenge.status != "open":
            raise ChallengeExpired(_CLOSED.get(challenge.status, "challenge_expired"))
        if challenge.expires_at <= self.store.clock():
            raise ChallengeExpired("challenge_expired_now")
        return challenge

    async def _close_challenge(self, challenge: ChallengeRecord, status: str) -> ChallengeRecord:
        try:
            return await self.store.repo.close_challenge(challenge.id, status)
        except ChallengeTaken:
            raise ChallengeExpired() from None
