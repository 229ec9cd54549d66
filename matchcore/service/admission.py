"""Who may do what, and how a new game comes to be: the checks and the creation of games.

The plain checks on a match (the caller's seat, running or not, lobby or not) are
functions; :class:`NewGames` holds the checks every new game passes (channel, cooldown,
match limit, board and options) and creates the rows: a challenge, and the board match a
taken challenge starts. Challenges between people and games against the bot both use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from engine import board_game_names, get_board_game
from engine.board import BoardGame, BoardState
from matchcore.service import board_logic, time_controls
from matchcore.service.board_logic import mention
from matchcore.service.describe import Describer
from matchcore.service.errors import (
    ChallengeExpired,
    ChannelNotAllowed,
    Cooldown,
    InvalidOptions,
    LobbyError,
    MatchOver,
    NotInMatch,
    TooManyMatches,
)
from matchcore.service.guild_settings import GuildSettings
from matchcore.service.results import Update, say
from matchcore.service.steps import (
    deadline,
    game_name,
    is_table,
    place,
    seat_removed,
    with_changes,
)
from matchcore.service.store import MatchStore
from matchcore.service.texts import Said, level_word
from matchcore.storage import (
    ACTIVE_STATUSES,
    ChallengeRecord,
    ChallengeTaken,
    MatchRecord,
    SeatRecord,
)
from matchcore.strength import measured_strength


def strength_said(game: str, level: str) -> Said:
    """What a game against the bot at ``level`` says of its strength when it starts: the
    ladder's measured Elo in this game (docs/ai.md), or that it is not measured yet (the
    ladder has fewer than 100 games of it at full strength)."""
    strength = measured_strength(game, level)
    if strength is None:
        return Said("level_unmeasured")
    return Said("level_strength", asdict(strength))


def seat_of(record: MatchRecord, user_id: int) -> SeatRecord:
    """The caller's seat; ``NotInMatch`` if they have none."""
    seat = record.seat_of(user_id)
    if seat is None:
        raise NotInMatch()
    return seat


def check_running(record: MatchRecord) -> None:
    if record.status == "lobby":
        raise LobbyError("not_started")
    if record.status != "running":
        raise MatchOver()


def check_lobby(record: MatchRecord) -> None:
    if not is_table(record):
        raise LobbyError("not_a_leiff_table")
    if record.status == "running":
        raise LobbyError("already_started")
    if record.status != "lobby":
        raise MatchOver("table_closed")


def check_channel(settings: GuildSettings, channel_id: int, thread_id: int | None) -> None:
    # A thread is allowed when its parent channel is; the thread id may be listed too.
    if not settings.allows_channel(channel_id) and not (
        thread_id is not None and settings.allows_channel(thread_id)
    ):
        raise ChannelNotAllowed()


def board_options(
    game: str, size: int | None, options: Mapping[str, Any] | None
) -> tuple[str, int, dict[str, Any]]:
    """The board game's name, board size and the options that differ from its defaults."""
    name = game_name(game)
    if name not in board_game_names():
        raise InvalidOptions("leiff_at_a_table")
    rules = get_board_game(name)
    checked_size = _checked_size(rules, size)
    checked = _checked_options(rules, options)
    # Keep only options that differ from the defaults, so equal matches store alike.
    chosen = {k: v for k, v in checked.items() if v != rules.option_defaults.get(k)}
    return name, checked_size, chosen


def _checked_size(rules: BoardGame, size: int | None) -> int:
    """The engine's own size check, refused with a code (the engine says it in English)."""
    if size is None:
        return rules.default_size
    if not isinstance(size, int) or isinstance(size, bool) or size not in rules.sizes:
        # the sizes as a list: each language joins them ("5, 7 or 9", "5, 7 oder 9")
        sizes = [str(s) for s in rules.sizes]
        raise InvalidOptions("board_size", game=rules.title, sizes=sizes, size=size)
    return size


def _checked_options(rules: BoardGame, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The engine's own options check, refused with codes."""
    for key, value in (options or {}).items():
        if key not in rules.option_defaults:
            known = ", ".join(sorted(rules.option_defaults)) or "none"
            raise InvalidOptions(
                "board_option_unknown", game=rules.title, key=repr(key), known=known
            )
        expected = type(rules.option_defaults[key])
        if not isinstance(value, expected):
            raise InvalidOptions("board_option_type", key=repr(key), kind=expected.__name__)
        allowed = rules.option_choices.get(key)
        if allowed and value not in allowed:
            listed = ", ".join(str(choice) for choice in allowed)
            raise InvalidOptions(
                "board_option_choice", key=repr(key), choices=listed, value=repr(value)
            )
    return rules.validate_options(options)


class NewGames:
    """The checks every new game passes and the rows that create it."""

    def __init__(self, store: MatchStore, describe: Describer) -> None:
        self.store = store
        self.describe = describe

    async def check_match_limit(
        self, settings: GuildSettings, user_id: int, guild_id: int, who: str
    ) -> None:
        """``TooManyMatches`` when the user already plays the server's maximum. Only matches
        the user can still act in count: a Leiff table they left or were removed from
        (which may run on for hours without them) does not."""
        active = [
            record
            for record in await self.store.repo.matches_of_user(user_id, ACTIVE_STATUSES, guild_id)
            if not seat_removed(record, user_id)
        ]
        limit = settings.max_matches_per_user
        if len(active) < limit:
            return
        if who != "you":
            raise TooManyMatches("too_many_other", user=who, count=len(active), limit=limit)
        # Say where they are, so the player can finish or resign one of them.
        places = [place(record, user_id) for record in active[:limit]]
        raise TooManyMatches("too_many_you", count=len(active), limit=limit, places=places)

    async def check_cooldown(
        self, settings: GuildSettings, guild_id: int, user_id: int, now: float
    ) -> None:
        """``Cooldown`` when the user's last challenge on this server was too recent."""
        last = await self.store.repo.last_challenge_at(guild_id, user_id)
        cooldown = settings.challenge_cooldown_seconds
        if cooldown and last is not None and now - last < cooldown:
            raise Cooldown(cooldown - (now - last))

    async def new_challenge(
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
        time_control: str | None = None,
    ) -> ChallengeRecord:
        """Store an open challenge expiring after the server's challenge lifetime, with the
        time control chosen (its code; None: the server's time per move, checked here)."""
        control = time_controls.chosen(time_control, settings.board_move_seconds, table=False)
        return await self.store.repo.create_challenge(
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
                time_control=control.code,
            )
        )

    @staticmethod
    def board_draft(
        challenge: ChallengeRecord,
        state: BoardState,
        seats: tuple[SeatRecord, SeatRecord],
        settings: GuildSettings,
        now: float,
        *,
        vs_bot: bool = False,
    ) -> MatchRecord:
        """The match a taken challenge starts: seat 0 hosts and moves first, the clock runs
        (the challenge's time control)."""
        control = time_controls.control_of(challenge.time_control, settings.board_move_seconds)
        clocked = time_controls.starting_seats(control, seats)
        deadline_at, warn_at = deadline(now, time_controls.period_of(control, clocked, 0))
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
            # a person: the bot never hosts (it sits at seat 0 of a practice game taken
            # over from a move where its side is the other one)
            host_id=next((s.user_id for s in seats if not s.is_bot), seats[0].user_id),
            vs_bot=vs_bot,
            rated=not vs_bot,
            deadline_at=deadline_at,
            warn_at=warn_at,
            rematch_of=challenge.rematch_of,
            seats=clocked,
            time_control=control.code,
        )

    async def start_board_match(
        self,
        challenge: ChallengeRecord,
        draft: MatchRecord,
        state: BoardState,
        level: str | None = None,
    ) -> Update:
        """Take the challenge and store its match in one transaction; ``match_started``
        (with the bot's ``level`` in a game against the bot)."""
        try:
            record = await self.store.repo.accept_challenge(
                challenge.id, draft, self.store.audiences(draft)
            )
        except ChallengeTaken:
            raise ChallengeExpired() from None
        self.store.created(record, state)
        first, second = (seat.user_id for seat in record.seats)
        turn = board_logic.turn_text(record, state)
        then = [] if turn is None else [Said(turn.kind, turn.data)]
        if level is not None:
            then.insert(0, strength_said(record.game, level))
        game = get_board_game(record.game).title
        line = say(
            "match_started" if level is None else "match_started_level",
            first=mention(first),
            second=mention(second),
            level=None if level is None else level_word(level),
            game=game,
            size=state.size,
            then=then,
        )
        update = self.describe.board("match_started", record, state, [line])
        return with_changes(update, challenge_id=challenge.id)
