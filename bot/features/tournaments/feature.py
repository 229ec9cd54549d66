"""Tournaments in Discord: ``/tournament create``, ``list``, and the admins' commands; the
announcement's **Join** / **Leave**.

Each command or click is one call of ``service.tournaments``; what it returns is shown by
:class:`~bot.features.tournaments.posts.TournamentPosts` (lines, matches, standings). An
announcement's buttons carry the tournament's id (``lb|n|<id>|0|join``), so a click on
one posted before a restart is handled like any other. Who may manage: members with
*Manage Server*, or with the role the server chose (``/settings tournament_role``).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.common.context import Context
from bot.common.custom_ids import TOURNAMENT
from bot.common.errors import ErrorHandler, UserFacingError
from bot.common.games import game_choices
from bot.common.responder import Responder
from bot.common.routing import ComponentRouter
from bot.common.time_words import clock_suggestions
from bot.common.translator import command_text
from bot.features.tournaments.posts import (
    JOIN,
    LEAVE,
    TournamentPosts,
    announcement_message,
)
from bot.features.tournaments.words import FORMAT_NAMES, list_line, title
from engine import get_spec
from i18n import N_, language_for, translate
from i18n.typed import normal, read_duration, write_duration
from matchcore.service.protocol import GameService
from matchcore.service.tournament_info import TournamentUpdate

log = logging.getLogger(__name__)

WHEN_SAID = "-"  # the start option's value for "when I say"
STARTS_OFFERED = (900, 1800, 3600, 7200, 86400)
LISTED = 15


def may_manage(interaction: discord.Interaction, role_id: int) -> bool:
    """Manage Server, or the server's tournament role."""
    if interaction.permissions.manage_guild:
        return True
    roles = getattr(interaction.user, "roles", ())
    return bool(role_id) and any(getattr(role, "id", None) == role_id for role in roles)


def read_start(text: str | None) -> int | None:
    """Seconds from now the event starts, or None ("when I say")."""
    if text is None or text.strip() in ("", WHEN_SAID):
        return None
    value = text.strip()
    seconds = int(value) if value.isdigit() else read_duration(value)
    if seconds is None:
        raise UserFacingError("bot.tournament.error.start", typed=value[:50])
    return seconds


class TournamentDesk:
    """The tournament commands and buttons."""

    def __init__(self, context: Context, errors: ErrorHandler, posts: TournamentPosts) -> None:
        self.context = context
        self.errors = errors
        self.posts = posts

    def register(self, router: ComponentRouter) -> None:
        router.route(TOURNAMENT, self._click)

    @property
    def service(self) -> GameService:
        return self.context.service

    async def _may_manage(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            return False
        settings = await self.service.get_settings(interaction.guild_id)
        return may_manage(interaction, settings.tournament_role)

    # ---- creating -------------------------------------------------------------------------
    async def create(self, interaction: discord.Interaction, **chosen: Any) -> None:
        async def run(responder: Responder) -> None:
            guild_id, channel_id = interaction.guild_id, interaction.channel_id
            if guild_id is None or channel_id is None:
                raise UserFacingError("bot.play.error.not_in_dms")
            delay = read_start(chosen.get("start"))
            now = self.context.now()
            update = await self.service.tournaments.create(
                guild_id,
                channel_id,
                responder.user_id,
                await self._may_manage(interaction),
                chosen["game"],
                chosen["format"],
                size=chosen.get("size"),
                rounds=chosen.get("rounds"),
                minutes=chosen.get("minutes"),
                table_size=chosen.get("table_size"),
                starts_at=None if delay is None else now + delay,
                rated=chosen.get("rated", True),
                time_control=chosen.get("clock"),
            )
            info = update.tournament
            language = await self.context.languages.server(guild_id)
            settings = await self.service.get_settings(guild_id)
            channel = self.context.client.get_partial_messageable(channel_id, guild_id=guild_id)
            posted = await responder.public(
                channel, **announcement_message(language, info, settings.board_move_seconds)
            )
            if posted is not None:
                # (a kill from the post to here: the next start finds the announcement
                # and opens its thread, TournamentPosts.resume)
                await self.posts.announced(info, posted, language)
            await self.posts.shown(info)

        await self.errors.run(interaction, run)

    async def _click(
        self, responder: Responder, tournament_id: int, version: int, action: str
    ) -> None:
        tournaments = self.service.tournaments
        if action == JOIN:
            update = await tournaments.join(tournament_id, responder.user_id)
        elif action == LEAVE:
            update = await tournaments.leave(tournament_id, responder.user_id)
        else:
            raise UserFacingError("bot.error.button_unused")
        await self._answer_click(responder, update)

    async def _answer_click(self, responder: Responder, update: TournamentUpdate) -> None:
        info = update.tournament
        language = await self.context.languages.server(info.guild_id)
        settings = await self.service.get_settings(info.guild_id)
        kwargs = announcement_message(language, info, settings.board_move_seconds)
        edited = await responder.update_origin(**kwargs)
        # before the start the announcement says it all; later the thread hears of it
        await self.posts.publish(update, lines=info.status != "upcoming", announce=not edited)

    # ---- the list ----------------------------------------------------------------------------
    async def listing(self, interaction: discord.Interaction) -> None:
        async def run(responder: Responder) -> None:
            if interaction.guild_id is None:
                raise UserFacingError("bot.play.error.not_in_dms")
            language = responder.language
            events = await self.service.tournaments.in_guild(interaction.guild_id, LISTED)
            if not events:
                await responder.private(translate(language, "bot.tournament.none"))
                return
            groups: dict[str, list[str]] = {}
            for info in events:
                group = "past" if info.status in ("finished", "cancelled") else info.status
                groups.setdefault(group, []).append(list_line(language, info))
            lines = []
            for group in ("running", "upcoming", "past"):
                if group in groups:
                    lines.append(f"**{translate(language, GROUP_TITLES[group])}**")
                    lines.extend(groups[group])
            text = ""
            for line in lines:
                if len(text) + len(line) + 1 > 1990:
                    break
                text += line + "\n"
            await responder.private(text.strip())

        await self.errors.run(interaction, run)

    # ---- admins ------------------------------------------------------------------------------
    async def manage(
        self,
        interaction: discord.Interaction,
        what: str,
        tournament: int,
        player: int | None = None,
    ) -> None:
        async def run(responder: Responder) -> None:
            allowed = await self._may_manage(interaction)
            tournaments = self.service.tournaments
            user = responder.user_id
            update: TournamentUpdate | None
            if what == "start":
                if allowed:  # its games play in the event's thread, opened first if need be
                    await self.posts.ensure_thread(tournament)
                update = await tournaments.start_now(tournament, user, allowed)
            elif what == "pause":
                update = await tournaments.pause(tournament, user, allowed)
            elif what == "resume":
                update = await tournaments.pause(tournament, user, allowed, paused=False)
            elif what == "end":
                update = await tournaments.close(tournament, user, allowed)
            else:
                assert player is not None
                update = await tournaments.remove(tournament, user, allowed, player)
            info = update.tournament
            await responder.private(
                translate(
                    responder.language, ADMIN_DONE[what], title=title(responder.language, info)
                )
            )
            await self.posts.publish(update)
            if what in ("pause", "resume", "end"):
                # the next step (a resume's pairing, an end's last games) comes at once
                stepped = await tournaments.step(tournament)
                if stepped is not None:
                    await self.posts.publish(stepped)

        await self.errors.run(interaction, run)

    async def tournament_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The server's upcoming and running events, filtered by what was typed."""
        if interaction.guild_id is None:
            return []
        language = language_for(interaction.locale)
        events = await self.service.tournaments.in_guild(interaction.guild_id, 25)
        wanted = normal(current)
        found = []
        for info in events:
            if info.status not in ("upcoming", "running"):
                continue
            name = title(language, info)
            if not wanted or wanted in normal(name) or wanted == str(info.id):
                found.append(app_commands.Choice(name=name[:100], value=info.id))
        return found[:25]

    async def start_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """ "When I say" and a few starts from now; what was typed, read as a time, first."""
        language = language_for(interaction.locale)
        offered: list[tuple[str, str]] = []
        typed = read_duration(current) if current.strip() else None
        if typed is not None and typed > 0:
            offered.append((self._in(language, typed), str(typed)))
        offered.append((translate(language, "bot.tournament.when_said"), WHEN_SAID))
        offered += [(self._in(language, s), str(s)) for s in STARTS_OFFERED if s != typed]
        wanted = normal(current) if typed is None else ""
        return [
            app_commands.Choice(name=name[:100], value=value)
            for name, value in offered
            if not wanted or wanted in normal(name)
        ][:25]

    @staticmethod
    def _in(language: str, seconds: int) -> str:
        return translate(
            language, "bot.tournament.starts_in", time=write_duration(language, seconds)
        )

    async def clock_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        game = getattr(interaction.namespace, "game", None)
        table = isinstance(game, str) and get_spec(game).kind.name == "CARDS"
        settings = await self.service.get_settings(interaction.guild_id)
        seconds = settings.leiff_turn_seconds if table else settings.board_move_seconds
        found = clock_suggestions(language_for(interaction.locale), current, seconds, table=table)
        return [app_commands.Choice(name=name, value=code) for name, code in found]

    # ---- the slash commands ----------------------------------------------------------------
    def commands(self) -> list[app_commands.Group]:
        return [tournament_group(self)]


GROUP_TITLES = {
    "running": N_("bot.tournament.list.running"),
    "upcoming": N_("bot.tournament.list.upcoming"),
    "past": N_("bot.tournament.list.past"),
}
ADMIN_DONE = {
    "start": N_("bot.tournament.done.start"),
    "pause": N_("bot.tournament.done.pause"),
    "resume": N_("bot.tournament.done.resume"),
    "end": N_("bot.tournament.done.end"),
    "remove": N_("bot.tournament.done.remove"),
}


def tournament_group(desk: TournamentDesk) -> app_commands.Group:
    """``/tournament``: create, list, start, pause, resume, end, remove."""
    group = app_commands.Group(
        name=command_text("command.tournament.name"),
        description=command_text("command.tournament.description"),
        guild_only=True,
    )
    formats = [
        app_commands.Choice(name=command_text(msgid), value=value)
        for value, msgid in FORMAT_NAMES.items()
    ]

    @group.command(
        name=command_text("command.tournament.create.name"),
        description=command_text("command.tournament.create.description"),
    )
    @app_commands.rename(
        game=command_text("command.option.game"),
        format=command_text("command.option.format"),
        size=command_text("command.option.size"),
        rounds=command_text("command.option.rounds"),
        minutes=command_text("command.option.minutes"),
        table_size=command_text("command.option.table_size"),
        clock=command_text("command.option.clock"),
        start=command_text("command.option.start"),
        rated=command_text("command.option.rated"),
    )
    @app_commands.describe(
        game=command_text("command.tournament.game"),
        format=command_text("command.tournament.format"),
        size=command_text("command.tournament.size"),
        rounds=command_text("command.tournament.rounds"),
        minutes=command_text("command.tournament.minutes"),
        table_size=command_text("command.tournament.table_size"),
        clock=command_text("command.tournament.clock"),
        start=command_text("command.tournament.start"),
        rated=command_text("command.tournament.rated"),
    )
    @app_commands.choices(game=game_choices(), format=formats)
    @app_commands.autocomplete(clock=desk.clock_autocomplete, start=desk.start_autocomplete)
    async def create(
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        format: app_commands.Choice[str],
        size: app_commands.Range[int, 3, 15] | None = None,
        rounds: app_commands.Range[int, 1, 15] | None = None,
        minutes: app_commands.Range[int, 10, 360] | None = None,
        table_size: app_commands.Range[int, 3, 6] | None = None,
        clock: str | None = None,
        start: str | None = None,
        rated: bool = True,
    ) -> None:
        await desk.create(
            interaction,
            game=game.value,
            format=format.value,
            size=size,
            rounds=rounds,
            minutes=minutes,
            table_size=table_size,
            clock=clock,
            start=start,
            rated=rated,
        )

    @group.command(
        name=command_text("command.tournament.list.name"),
        description=command_text("command.tournament.list.description"),
    )
    async def list_command(interaction: discord.Interaction) -> None:
        await desk.listing(interaction)

    def admin(what: str, name: str, description: str) -> None:
        @app_commands.rename(tournament=command_text("command.option.tournament"))
        @app_commands.describe(tournament=command_text("command.tournament.which"))
        @app_commands.autocomplete(tournament=desk.tournament_autocomplete)
        async def callback(interaction: discord.Interaction, tournament: int) -> None:
            await desk.manage(interaction, what, tournament)

        group.add_command(
            app_commands.Command(
                name=command_text(name), description=command_text(description), callback=callback
            )
        )

    for what, (name, description) in ADMIN_COMMANDS.items():
        admin(what, name, description)

    @group.command(
        name=command_text("command.tournament.remove.name"),
        description=command_text("command.tournament.remove.description"),
    )
    @app_commands.rename(
        tournament=command_text("command.option.tournament"),
        player=command_text("command.option.player"),
    )
    @app_commands.describe(
        tournament=command_text("command.tournament.which"),
        player=command_text("command.tournament.player"),
    )
    @app_commands.autocomplete(tournament=desk.tournament_autocomplete)
    async def remove(
        interaction: discord.Interaction, tournament: int, player: discord.Member
    ) -> None:
        await desk.manage(interaction, "remove", tournament, player.id)

    return group


# the admins' commands that name only the tournament: (name, description) of each
ADMIN_COMMANDS = {
    "start": (N_("command.tournament.start.name"), N_("command.tournament.start.description")),
    "pause": (N_("command.tournament.pause.name"), N_("command.tournament.pause.description")),
    "resume": (
        N_("command.tournament.resume.name"),
        N_("command.tournament.resume.description"),
    ),
    "end": (N_("command.tournament.end.name"), N_("command.tournament.end.description")),
}
