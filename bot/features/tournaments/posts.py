"""What a tournament's steps show in Discord: lines, matches, standings, reminders.

Every :class:`~matchcore.service.tournament_info.TournamentUpdate` (from a command, a
click or a claimed step of the clock) comes here:

- its lines go to the event's thread (the announcement's channel while it has none), one
  message in the server's language;
- the matches it paired are published as any match's start (the delivery posts their
  boards where the core placed them: the event's thread);
- the **standings picture** is one message in the thread, edited in place. Edits are
  coalesced per tournament: a change marks it dirty, and one edit at most every
  :data:`EDIT_GAP` seconds draws the tournament as it is by then, so a burst of results
  (an arena of hundreds) costs one edit, within the channel's limits;
- the announcement (players, status) is edited in place, coalesced the same way;
- the reminder is a DM to each player, in their language;
- the end posts the final standings with the podium in the announcement's channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Literal, TypeVar

import discord

from bot.common.components import Choice, components, custom_ids
from bot.common.context import Context
from bot.common.custom_ids import TOURNAMENT, ComponentId
from bot.common.outgoing import sentence
from bot.common.themes import server_theme
from bot.delivery.delivery import Delivery
from bot.delivery.match_threads import ENDED
from bot.features.tournaments.words import announcement, podium_line, standings_view, title
from i18n import translate
from matchcore.service.protocol import GameService
from matchcore.service.results import Event, Update
from matchcore.service.tournament_info import TournamentInfo, TournamentUpdate
from wording.service_words import service_text

log = logging.getLogger(__name__)

#: Seconds between two edits of one tournament's standings (or announcement): Discord
#: allows 5 edits per 5 s in a channel, and the boards of the event's games share it.
EDIT_GAP = 3.0
ANNOUNCEMENT, STANDINGS, FINAL = "announcement", "standings", "final"
SHOWN = "shown"  # not a message: the tournament's version whose step went out whole
#: Not messages either: the tournament's version the standings picture, and the
#: announcement, last showed. They are drawn a few seconds after the step (coalesced), so
#: a kill in between leaves a step shown whose picture is behind: a start redraws it.
#: Each holds the version plus one (records are never negative: 0 is "never drawn").
DRAWN = {STANDINGS: "standings_at", ANNOUNCEMENT: "announcement_at"}
JOIN, LEAVE = "join", "leave"  # the announcement's buttons
DM_CLOSED = 50007
THREAD_ARCHIVED = 50083
THREAD_STARTED_ALREADY = 160004  # a message's thread exists: it has the message's id
# A thread archives itself after this long without a message (Discord's longest, a week);
# a post into an archived one opens it again (``in_thread``).
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
#: How many of the channel's newest messages a start reads for an announcement that was
#: posted before a kill and never recorded.
ANNOUNCEMENT_LOOKBACK = 50
#: Seconds between two steps run because games ended (a burst of ends is one step).
STEP_GAP = 1.0
STEPS = "steps"
T = TypeVar("T")


def announcement_message(language: str, info: TournamentInfo, seconds: int) -> dict[str, Any]:
    """The announcement: what, when, who, and **Join** / **Leave** (grey once it is over);
    ``seconds`` the server's time per move (the event's control when it chose none)."""
    choices = [
        Choice(JOIN, translate(language, "bot.tournament.join"), discord.ButtonStyle.success),
        Choice(LEAVE, translate(language, "bot.tournament.leave")),
    ]
    is_open = info.status in ("upcoming", "running")
    return {
        "content": announcement(language, info, seconds),
        "view": components(TOURNAMENT, info.id, 0, choices, disabled=not is_open),
        "allowed_mentions": discord.AllowedMentions.none(),
    }


def nonce_of(tournament_id: int, kind: str) -> str:
    """The nonce of a tournament's message of ``kind``: Discord answers a second post with
    it (``enforce_nonce``, which discord.py sets with every nonce) with the message made
    the first time, for a few minutes, so a process killed between posting and recording
    the message posts it again harmlessly and records it then."""
    return f"t{tournament_id}:{kind}"[:25]


def unannounced(info: TournamentInfo) -> bool:
    """Whether an event still on has no announcement recorded (a kill came between the
    commit that created it and that record: its first version may count as shown)."""
    return not info.messages.get(ANNOUNCEMENT) and info.status in ("upcoming", "running")


def drawn_at(info: TournamentInfo, what: str) -> int:
    """The version of ``info`` that its standings or its announcement (``what``) last
    showed; -1 when never. An event settled before these marks were kept counts as drawn
    when it ended."""
    mark = info.messages.get(DRAWN[what])
    if mark is not None:
        return mark - 1
    return info.version if info.status in ("finished", "cancelled") else -1


def behind(info: TournamentInfo) -> bool:
    """Whether a start must show ``info`` again: a step committed and not shown whole, an
    announcement never recorded, or a picture (standings, announcement) a kill kept from
    being redrawn after its step."""
    if info.messages.get(SHOWN, 0) < info.version or unannounced(info):
        return True
    if info.messages.get(ANNOUNCEMENT) and drawn_at(info, ANNOUNCEMENT) < info.version:
        return True
    has_standings = info.status in ("running", "finished") or (
        info.status == "cancelled" and STANDINGS in info.messages
    )
    return has_standings and drawn_at(info, STANDINGS) < info.version


class Coalescer:
    """One pending refresh per key: a refresh asked for while one waits joins it; two
    refreshes of one key are at least ``gap`` seconds apart."""

    def __init__(self, gap: float) -> None:
        self.gap = gap
        self._pending: dict[object, asyncio.Task[None]] = {}
        self._running: set[asyncio.Task[None]] = set()  # waiting or refreshing
        self._last: dict[object, float] = {}

    def ask(self, key: object, refresh: Callable[[], Awaitable[None]]) -> None:
        if key in self._pending and not self._pending[key].done():
            return
        task = asyncio.create_task(self._run(key, refresh))
        self._pending[key] = task
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _run(self, key: object, refresh: Callable[[], Awaitable[None]]) -> None:
        wait = self._last.get(key, 0.0) + self.gap - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        # from here a new change asks for a refresh of its own (this one may have read
        # the tournament before it)
        self._pending.pop(key, None)
        self._last[key] = time.monotonic()
        try:
            await refresh()
        except Exception:
            log.exception("could not refresh %s", key)

    async def idle(self) -> None:
        """Until no refresh waits or runs."""
        while self._running:
            await asyncio.gather(*self._running, return_exceptions=True)

    async def close(self) -> None:
        for task in self._running:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*self._running, return_exceptions=True)
        self._pending.clear()


class TournamentPosts:
    """Shows tournament updates in Discord (see the module's docstring)."""

    def __init__(self, context: Context, delivery: Delivery, gap: float = EDIT_GAP) -> None:
        self.context = context
        self.delivery = delivery
        self.edits = Coalescer(gap)
        # a game that ends is recorded (and its players paired, or the next round started)
        # at once, not at the clock's next tick: a step soon after each published end
        self.steps = Coalescer(STEP_GAP)
        delivery.after_publish = self.game_published

    def game_published(self, update: Update) -> None:
        """Delivery published ``update``: if it ended a match, the tournaments' due steps
        run soon (a match of no tournament makes none due: one indexed read)."""
        if update.match is not None and update.match.status in ENDED:
            self.steps.ask(STEPS, self._due_steps)

    async def _due_steps(self) -> None:
        for step in await self.service.tournaments.tick():
            await self.publish(step)

    @property
    def service(self) -> GameService:
        return self.context.service

    def channel(self, channel_id: int, guild_id: int) -> discord.PartialMessageable:
        return self.context.client.get_partial_messageable(channel_id, guild_id=guild_id)

    def place(self, info: TournamentInfo) -> discord.PartialMessageable:
        """The event's thread, or its channel while it has none."""
        return self.channel(info.thread_id or info.channel_id, info.guild_id)

    # ---- one update ----------------------------------------------------------------------
    async def publish(
        self, update: TournamentUpdate, *, lines: bool = True, announce: bool = True
    ) -> None:
        """Everything ``update`` asks for; failures are logged (the state is committed and
        the next change shows it). ``lines``: post its lines; ``announce``: edit the
        announcement (not when the click on it has just done so)."""
        info = update.tournament
        language = await self.context.languages.server(info.guild_id)
        if lines and update.events:
            await self.post_lines(info, update.events, language)
        for match in update.matches:
            await self.delivery.publish_quietly(match)
        if update.kind == "reminder":
            minutes = int(str(update.extra.get("minutes", 10)))
            for user_id in update.remind:
                await self.remind(info, user_id, minutes)
        if announce:
            self.refresh(info.id, ANNOUNCEMENT)
        if update.standings_changed or update.kind in ("finished", "cancelled"):
            self.refresh(info.id, STANDINGS)
        if update.kind == "finished":
            await self.post_final(info, language)
        # the click that made the update has shown it in the announcement already
        await self.shown(info, {} if announce else {DRAWN[ANNOUNCEMENT]: info.version + 1})

    async def post_lines(
        self, info: TournamentInfo, events: Iterable[Event], language: str
    ) -> None:
        """A step's lines in the event's thread, one message; its nonce (the version) makes
        a second post of them within minutes (a start after a kill that came between the
        post and the record of the step as shown) the same message."""
        text = "\n".join(sentence(service_text(language, e)) for e in events)
        try:
            await self.in_thread(
                info,
                lambda: self.place(info).send(
                    content=text[:2000],
                    allowed_mentions=discord.AllowedMentions.none(),
                    nonce=nonce_of(info.id, f"lines:{info.version}"),
                ),
            )
        except discord.HTTPException:
            log.warning("could not post the lines of tournament %s", info.id)

    async def shown(self, info: TournamentInfo, marks: dict[str, int] | None = None) -> None:
        """Record that everything up to the tournament's version went out (a start after a
        kill looks for the steps that did not: :meth:`resume`), with ``marks`` in the same
        write."""
        record = dict(marks or {})
        if info.messages.get(SHOWN, 0) < info.version:
            record[SHOWN] = info.version
        if record:
            await self.service.tournaments.set_messages(info.id, record)

    async def resume(self, guild_ids: Iterable[int]) -> int:
        """After a start: show again what a kill kept from going out. A step commits before
        it is shown, so a process killed in between leaves a tournament whose recorded
        ``shown`` version is behind (or which has no announcement recorded: it is found or
        posted again, :meth:`announce_again`; or whose standings or announcement were not
        redrawn since, :func:`behind`): its reminder goes out (again: at least once, never
        lost), its final standings are posted if they were not, its standings and its
        announcement are redrawn, the lines of that step said (they are kept with it; those
        of earlier steps it missed are not). Returns the number of tournaments looked at
        again."""
        resumed = 0
        for guild_id in guild_ids:
            for info in await self.service.tournaments.in_guild(guild_id):
                if not behind(info):
                    continue
                resumed += 1
                try:
                    await self._resume(info)
                except Exception:
                    log.exception("could not show tournament %s again", info.id)
        return resumed

    async def _resume(self, info: TournamentInfo) -> None:
        language = await self.context.languages.server(info.guild_id)
        if unannounced(info):
            await self.announce_again(info, language)
        if info.step_lines:  # kept with the step that the kill kept from being shown
            await self.post_lines(info, info.step_lines, language)
        if info.status == "upcoming" and info.reminded and info.starts_at is not None:
            minutes = max(1, math.ceil((info.starts_at - self.context.now()) / 60))
            for user_id in info.active_players:
                await self.remind(info, user_id, minutes)
        if info.status == "finished":
            await self.post_final(info, language)
        self.refresh(info.id, ANNOUNCEMENT)
        if info.status != "upcoming":
            self.refresh(info.id, STANDINGS)
        await self.shown(info)

    def refresh(self, tournament_id: int, what: str) -> None:
        """Redraw the announcement or the standings soon (coalesced)."""
        if what == ANNOUNCEMENT:
            self.edits.ask((tournament_id, what), lambda: self._announce(tournament_id))
        else:
            self.edits.ask((tournament_id, what), lambda: self._standings(tournament_id))

    async def idle(self) -> None:
        await self.steps.idle()
        await self.edits.idle()

    async def close(self) -> None:
        await self.steps.close()
        await self.edits.close()

    async def in_thread(self, info: TournamentInfo, send: Callable[[], Awaitable[T]]) -> T:
        """``send`` into the event's thread, which is opened again first when Discord
        archived it (a week without a message: an event announced long before its start)."""
        try:
            return await send()
        except discord.HTTPException as error:
            if error.code != THREAD_ARCHIVED or not info.thread_id:
                raise
        await self.context.client.http.edit_channel(info.thread_id, archived=False)
        return await send()

    # ---- the announcement and its thread -----------------------------------------------------
    async def announced(
        self, info: TournamentInfo, message: discord.Message, language: str
    ) -> None:
        """``message`` is the announcement of ``info``: recorded, and the event's thread
        started from it (when the event has none yet)."""
        await self.service.tournaments.set_messages(info.id, {ANNOUNCEMENT: message.id})
        if not info.thread_id:
            await self.open_thread(message, info.id, title(language, info))

    async def open_thread(
        self, announcement: discord.Message | discord.PartialMessage, tournament_id: int, name: str
    ) -> None:
        """The event's thread, started from its announcement: its games, lines and
        standings go there (without the right to start one, they stay in the channel). One
        started before a kill and never recorded is taken as it is."""
        thread_id = announcement.thread.id if announcement.thread is not None else None
        if thread_id is None:
            try:
                thread = await announcement.create_thread(
                    name=name[:100], auto_archive_duration=THREAD_ARCHIVE_MINUTES
                )
                thread_id = thread.id
            except discord.HTTPException as error:
                if error.code != THREAD_STARTED_ALREADY:
                    log.warning("no thread for tournament %s: %s", tournament_id, error)
                    return
                thread_id = announcement.id  # a message's thread has the message's id
        await self.service.tournaments.set_thread(tournament_id, thread_id)
        # the announcement links the thread: behind until redrawn, whatever its version
        await self.service.tournaments.set_messages(tournament_id, {DRAWN[ANNOUNCEMENT]: 0})
        self.refresh(tournament_id, ANNOUNCEMENT)

    async def ensure_thread(self, tournament_id: int) -> None:
        """Before a start said by an admin: an event announced with no thread recorded yet
        (the create's answer went out and its thread is still being opened, a start within
        that instant) gets it now, so that its first games play there, not in the channel
        (a thread being started meanwhile is taken as it is)."""
        info = await self.service.tournaments.get(tournament_id)
        known = info.messages.get(ANNOUNCEMENT)
        if info.thread_id or not known or info.status != "upcoming":
            return
        language = await self.context.languages.server(info.guild_id)
        message = self.channel(info.channel_id, info.guild_id).get_partial_message(known)
        await self.open_thread(message, info.id, title(language, info))

    async def announce_again(self, info: TournamentInfo, language: str) -> None:
        """After a kill between the commit that created the event and the record of its
        announcement: the announcement is found among the channel's newest messages (by
        its buttons, which carry the event's id), or posted again when it never went out;
        then recorded, and its thread opened. Never a second announcement, never one
        left without its thread."""
        try:
            message = await self.find_announcement(info)
            if message is None:
                settings = await self.service.get_settings(info.guild_id)
                kwargs = announcement_message(language, info, settings.board_move_seconds)
                message = await self.channel(info.channel_id, info.guild_id).send(
                    **kwargs, nonce=nonce_of(info.id, ANNOUNCEMENT)
                )
                log.info("tournament %s announced again (its announcement never went out)", info.id)
        except discord.HTTPException as error:
            log.warning("could not announce tournament %s again: %s", info.id, error)
            return
        await self.announced(info, message, language)

    async def find_announcement(self, info: TournamentInfo) -> discord.Message | None:
        """The event's announcement among the channel's newest messages, if it is there."""
        channel = self.channel(info.channel_id, info.guild_id)
        async for message in channel.history(limit=ANNOUNCEMENT_LOOKBACK):
            for custom_id in custom_ids(message.components):
                decoded = ComponentId.decode(custom_id)
                if decoded is not None and (decoded.scope, decoded.target) == (TOURNAMENT, info.id):
                    return message
        return None

    # ---- the announcement and the standings ------------------------------------------------
    async def _announce(self, tournament_id: int) -> None:
        info = await self.service.tournaments.get(tournament_id)
        known = info.messages.get(ANNOUNCEMENT)
        if not known:
            return
        language = await self.context.languages.server(info.guild_id)
        settings = await self.service.get_settings(info.guild_id)
        kwargs = announcement_message(language, info, settings.board_move_seconds)
        try:
            message = self.channel(info.channel_id, info.guild_id).get_partial_message(known)
            await message.edit(**kwargs)
        except discord.HTTPException:
            log.warning("could not edit the announcement of tournament %s", info.id)
            return
        await self.drawn(info, ANNOUNCEMENT)

    async def drawn(self, info: TournamentInfo, what: str) -> None:
        """Record that the standings or the announcement now show ``info``'s version."""
        if drawn_at(info, what) < info.version:
            await self.service.tournaments.set_messages(info.id, {DRAWN[what]: info.version + 1})

    async def _standings(self, tournament_id: int) -> None:
        info = await self.service.tournaments.get(tournament_id)
        if info.status == "upcoming" or (info.status == "cancelled" and not info.messages):
            return
        language = await self.context.languages.server(info.guild_id)
        theme = await server_theme(self.service, info.guild_id)
        if await self.show_standings(info, language, theme):
            await self.drawn(info, STANDINGS)

    async def standings_file(
        self, info: TournamentInfo, language: str, theme: str, *, final: bool
    ) -> discord.File:
        view = await standings_view(language, info, self.context.names, final=final)
        data = await self.context.painter.standings_png(view, theme)
        return discord.File(io.BytesIO(data), filename=f"standings-{info.id}.png")

    async def show_standings(self, info: TournamentInfo, language: str, theme: str) -> bool:
        """The standings message of the thread, edited in place (posted the first time);
        False when Discord refused the edit."""
        final = info.status in ("finished", "cancelled")
        file = await self.standings_file(info, language, theme, final=final)
        text = f"**{title(language, info)}**"
        known = info.messages.get(STANDINGS)
        place = self.place(info)
        if known:
            try:
                await self.in_thread(
                    info,
                    lambda: place.get_partial_message(known).edit(content=text, attachments=[file]),
                )
                return True
            except discord.NotFound:
                pass  # deleted: a new one below
            except discord.HTTPException:
                log.warning("could not edit the standings of tournament %s", info.id)
                return False
        posted = await self.in_thread(
            info,
            lambda: place.send(
                content=text,
                file=file,
                allowed_mentions=discord.AllowedMentions.none(),
                nonce=nonce_of(info.id, STANDINGS),
            ),
        )
        await self.service.tournaments.set_messages(info.id, {STANDINGS: posted.id})
        return True

    async def post_final(self, info: TournamentInfo, language: str) -> None:
        """The final standings with the podium, in the announcement's channel (once: the
        message is recorded, and a tournament that has one gets no second; a kill between
        the post and the record is covered by the post's nonce)."""
        info = await self.service.tournaments.get(info.id)
        if info.messages.get(FINAL):
            return
        theme = await server_theme(self.service, info.guild_id)
        file = await self.standings_file(info, language, theme, final=True)
        text = "\n".join(
            [
                translate(language, "bot.tournament.final", title=title(language, info)),
                podium_line(language, info),
            ]
        )
        try:
            posted = await self.channel(info.channel_id, info.guild_id).send(
                content=text,
                file=file,
                allowed_mentions=discord.AllowedMentions.none(),
                nonce=nonce_of(info.id, FINAL),
            )
        except discord.HTTPException:
            log.warning("could not post the final standings of tournament %s", info.id)
            return
        await self.service.tournaments.set_messages(info.id, {FINAL: posted.id})

    # ---- the reminder ----------------------------------------------------------------------
    async def remind(self, info: TournamentInfo, user_id: int, minutes: int) -> None:
        language = await self.context.languages.member(user_id)
        text = translate(
            language,
            "bot.tournament.reminder",
            title=title(language, info),
            minutes=minutes,
            time=int(info.starts_at or 0),
            link=f"https://discord.com/channels/{info.guild_id}/{info.thread_id or info.channel_id}",
        )
        client = self.context.client
        try:
            user = client.get_user(user_id) or await client.fetch_user(user_id)
            await user.send(content=text, allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden as error:
            if error.code == DM_CLOSED:
                await self.delivery.records.note_dm_failure(user_id, error.code)
        except discord.HTTPException:
            log.warning("could not remind %s of tournament %s", user_id, info.id)
