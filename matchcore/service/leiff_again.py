"""Leiff's **Play again**: a finished table opens a new lobby for the same players.

The first player of the finished table to click opens the lobby and hosts it: the table's
own choices (the target, teams) and time control, the server's expansions as they are now
(drinking rules, special cards), and the bot seats it had, at their levels. Every other
player of that table who clicks sits down in it; nobody is seated without a click. The
finished table names its lobby (``matches.again_id``), written with a compare-and-set in
the transaction that stores the lobby: two first clicks, in one process or two, open one
table, and the second click joins it.
"""

from __future__ import annotations

from engine import get_spec
from engine.spec import GameKind
from matchcore.service.admission import NewGames, check_channel
from matchcore.service.board_logic import mention
from matchcore.service.describe import Describer
from matchcore.service.errors import LobbyError, MatchOver, NotInMatch
from matchcore.service.guild_settings import LEIFF_TARGETS
from matchcore.service.leiff_lobbies import LeiffLobbies
from matchcore.service.results import Update, say
from matchcore.service.steps import with_changes
from matchcore.service.store import MatchStore
from matchcore.storage import MatchRecord, SeatRecord

# What a finished table passes on to the table that plays it again (its own choices).
KEPT_OPTIONS = ("target", "teams")
# The match message kind under which a front end records a thread it opened for the match
# (the Discord layer's match threads): such a thread closed with its game, so the table that
# plays it again opens in the channel (and gets a thread of its own when it starts); a
# table opened inside a member's thread is played again there.
OWN_THREAD = "thread"


class LeiffAgain:
    """Play a finished Leiff table again."""

    def __init__(
        self, store: MatchStore, describe: Describer, new_games: NewGames, lobbies: LeiffLobbies
    ) -> None:
        self.store = store
        self.describe = describe
        self.new_games = new_games
        self.lobbies = lobbies

    async def play_again(self, match_id: int, user_id: int) -> Update:
        """A player of the finished table ``match_id`` clicked **Play again**: the lobby
        that plays it again, opened now (they host it) or joined. ``Update(kind=
        "lobby_again")`` for a new lobby, ``"lobby_joined"`` for a seat in it. Errors:
        ``NotInMatch`` (not a player of that table), ``LobbyError`` (not a Leiff table,
        the new table started already), ``MatchOver`` (not finished, or the new table
        closed)."""
        old = await self.store.load(match_id)
        if get_spec(old.game).kind is not GameKind.CARDS:
            raise LobbyError("not_a_leiff_table")
        if old.status != "finished":
            raise MatchOver("again_not_over")
        seat = old.seat_of(user_id)
        if seat is None or seat.is_bot:
            raise NotInMatch("again_players_only")
        for _ in range(2):  # a first click elsewhere between our look and our write: join
            again = await self.store.repo.again_of(old.id)
            if again is not None:
                return await self._join(again, user_id)
            opened = await self._open(old, user_id)
            if opened is not None:
                return opened
        raise LobbyError("again_busy")  # never: the second look finds the table

    async def _join(self, lobby_id: int, user_id: int) -> Update:
        lobby = await self.store.load(lobby_id)
        if lobby.status == "running" or lobby.status == "finished":
            raise LobbyError("again_started", table=lobby_id)
        if lobby.status != "lobby":
            raise MatchOver("again_closed", table=lobby_id)
        return await self.lobbies.join_lobby(lobby_id, user_id)

    async def _open(self, old: MatchRecord, host_id: int) -> Update | None:
        async with self.store.user_lock(old.guild_id, host_id):
            settings = await self.store.settings(old.guild_id)
            thread_id = None if old.messages.get(OWN_THREAD) == old.thread_id else old.thread_id
            check_channel(settings, old.channel_id, thread_id)
            await self.new_games.check_match_limit(settings, host_id, old.guild_id, "you")
            options = settings.leiff_options()
            for key in KEPT_OPTIONS:
                if key in old.options:
                    options[key] = old.options[key]
            if options.get("target") not in LEIFF_TARGETS:
                options.pop("target", None)
            if options.get("teams") and not settings.leiff_teams_allowed:
                options["teams"] = False
            seats = [SeatRecord(seat=0, user_id=host_id)]
            for bot in (s for s in old.seats if s.is_bot):
                seats.append(
                    SeatRecord(
                        seat=len(seats), user_id=bot.user_id, is_bot=True, bot_level=bot.bot_level
                    )
                )
            now = self.store.clock()
            lobby = MatchRecord(
                id=0,
                guild_id=old.guild_id,
                channel_id=old.channel_id,
                thread_id=thread_id,
                game=old.game,
                status="lobby",
                created_at=now,
                updated_at=now,
                options=options,
                host_id=host_id,
                deadline_at=now + settings.challenge_expiry_seconds,
                seats=tuple(seats),
                rematch_of=old.id,
                time_control=old.time_control,
            )
            record = await self.store.repo.open_again(lobby, old.id, self.store.audiences(lobby))
        if record is None:
            return None
        others = [
            s.user_id
            for s in old.seats
            if not s.is_bot and s.user_id is not None and s.user_id != host_id
        ]
        if others:
            players = " ".join(mention(u) for u in others)
            text = say("lobby_again", user=mention(host_id), table=old.id, players=players)
        else:
            text = say("lobby_again_alone", user=mention(host_id), table=old.id)
        # the other players of the finished table are pinged once, by this message
        update = self.describe.lobby("lobby_again", record, [text])
        return with_changes(update, mentions=tuple(others))
