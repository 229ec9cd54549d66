"""The test-facing API: ``DiscordSimulator``, which starts the server, points discord.py at it,
runs any bot client against it and lets tests act as users.

    async with DiscordSimulator() as sim:
        world = sim.populate()
        bot = await sim.start_bot(make_bot)
        result = await sim.slash(world.alice, "play", game="lefe", opponent=world.bob)
        result = await sim.click(world.bob, result.message, "Accept")

Every user action builds the INTERACTION_CREATE real Discord would send, waits until the
bot's handlers for it have run and it has answered, and returns a ``SimInteraction``
recording the answer (or fails with ``InteractionTimeout``, Discord's "This interaction
failed").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import web

from .activities import ActivityInstance
from .gateway import GatewaySession
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    CommandInputError,
    InteractionNotAllowed,
    InteractionTimeout,
    SimInteraction,
    SimModal,
    base_payload,
    build_command_data,
    build_modal_components,
    check_command_allowed,
    check_select_values,
    find_command,
    find_component,
)
from .models import (
    BUTTON,
    SELECT_TYPES,
    SimChannel,
    SimGuild,
    SimMember,
    SimMessage,
    SimUser,
    fresh_token,
)
from .ratelimits import RouteFault
from .server import SimServer
from .spec import Violation, contract, interaction_violations
from .state import RequestRecord, SimState

BotFactory = Callable[[], discord.Client]

_active: list[DiscordSimulator] = []

# How long a started bot may take to be ready before the start counts as failed. A ceiling
# for a wait, not a figure the test checks: a ready bot returns at once, and on a loaded
# two-core machine a restart with a render worker process has needed 9 s.
READY_TIMEOUT = 30.0


class ContractViolation(AssertionError):
    """Something was sent that Discord's contract refuses (discord_sim/spec.py): a
    request of the bot's, or an answer or interaction of the simulator's."""

    @staticmethod
    def report(violations: list[Violation]) -> str:
        lines = [v.describe() for v in violations[:20]]
        more = len(violations) - len(lines)
        if more > 0:
            lines.append(f"... and {more} more")
        return (
            f"{len(violations)} rule(s) of Discord's API contract broken "
            "(a test that means to break them takes them with sim.take_spec_violations()):\n  "
            + "\n  ".join(lines)
        )


class NoBotConnected(AssertionError):
    """An interaction was sent while no bot client was connected to the simulator."""


@dataclass
class World:
    """A ready-made server for tests: one guild, two channels and a few members."""

    guild: SimGuild
    #: Where games are played (the default channel for interactions).
    channel: SimChannel
    #: A second text channel of the same guild.
    other_channel: SimChannel
    #: A member with the Manage Server permission.
    admin: SimUser
    alice: SimUser
    bob: SimUser
    carol: SimUser
    #: A user who shares no guild with the bot (reachable only by DM).
    outsider: SimUser


class _ErrorCollector(logging.Handler):
    """Keeps every ERROR the discord.py loggers emit (exceptions in commands, views, events)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class BotHandle:
    """One running client instance (a restart makes a new handle with a new client)."""

    def __init__(self, simulator: DiscordSimulator, client: discord.Client) -> None:
        self.simulator = simulator
        self.client = client
        self.task: asyncio.Task[None] | None = None
        #: Seconds from ``start_bot`` to the client's on_ready.
        self.ready_seconds: float | None = None

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    async def stop(self) -> None:
        """Close the client the way a shutting-down bot process would."""
        own_sessions = {ws.session_id for ws in client_websockets(self.client)}
        if not self.client.is_closed():
            await self.client.close()
        if self.task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self.task), 5)
            except TimeoutError:
                self.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self.task
            except Exception:
                # A client that died (a failed start, a crashed gateway) is stopped all the
                # same: whoever started it re-raises its error; stopping must not, or the
                # simulator would stay registered and fail every later test in the process.
                pass
        # Its session can no longer be resumed: interactions must not be buffered for it.
        for session in list(self.simulator.gateway.sessions.values()):
            if session.session_id in own_sessions or session.websocket is None:
                self.simulator.gateway.close_session(session)
        if self.simulator.bot is self:
            self.simulator.bot = None


class DiscordSimulator:
    """A local Discord for one test: server, world, bot clients and user actions."""

    def __init__(
        self,
        *,
        bot_name: str = "LeafBot",
        interaction_timeout: float = 5.0,
        response_deadline: float = 3.0,
        token_lifetime: float = 15 * 60,
        attachment_size_limit: int = 10 * 1024 * 1024,
        guild_ready_timeout: float = 0.05,
        no_response_grace: float = 0.25,
        rate_limits: bool = True,
        rate_limit_time_scale: float = 1.0,
        validate_responses: bool = True,
    ) -> None:
        self.state = SimState(
            bot_name=bot_name,
            attachment_size_limit=attachment_size_limit,
            rate_limits=rate_limits,
            rate_limit_time_scale=rate_limit_time_scale,
        )
        self.server = SimServer(
            self.state,
            response_deadline=response_deadline,
            token_lifetime=token_lifetime,
            validate_responses=validate_responses,
        )
        self.gateway = self.server.gateway
        self.interaction_timeout = interaction_timeout
        self.guild_ready_timeout = guild_ready_timeout
        self.no_response_grace = no_response_grace
        self.bot: BotHandle | None = None
        self.handles: list[BotHandle] = []
        self.default_channel: SimChannel | None = None
        self.base_url = ""
        self._runner: web.AppRunner | None = None
        self._saved_base: str | None = None
        self._saved_gateway: yarl.URL | None = None
        self._errors = _ErrorCollector()
        self._message_event = asyncio.Event()

    # ----------------------------------------------------------------- lifecycle

    async def __aenter__(self) -> DiscordSimulator:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: object,
    ) -> None:
        await self.close()
        if not self.state.spec_violations:
            return
        report = ContractViolation.report(self.state.spec_violations)
        if exc is not None:
            exc.add_note(report)  # the test failed anyway: say what else went wrong
            return
        raise ContractViolation(report)

    async def start(self) -> None:
        """Serve on a free 127.0.0.1 port and point discord.py at it."""
        if _active:
            raise RuntimeError(
                "another DiscordSimulator is running: discord.py's endpoints are process-global"
            )
        # Discord's contract, read and compiled once per process (a few tenths of a second)
        contract().prepare(self.server.routes)
        self._runner = web.AppRunner(self.server.app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base_url = f"http://127.0.0.1:{port}"
        self.state.base_url = self.base_url
        self.gateway.url = f"ws://127.0.0.1:{port}/gateway"
        self._saved_base = discord.http.Route.BASE
        self._saved_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = f"{self.base_url}/api/v10"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway.url)
        logging.getLogger("discord").addHandler(self._errors)
        self.state.message_listeners.append(self._on_message_change)
        _active.append(self)

    async def close(self) -> None:
        """Stop every bot, the server, and restore discord.py's real endpoints.

        Whatever fails on the way, discord.py's endpoints are restored and the simulator
        unregistered: one test's failure must not fail every later test in its process.
        """
        try:
            for handle in list(self.handles):
                await handle.stop()
            await self.gateway.close_all()
            if self._runner is not None:
                await self._runner.cleanup()
                self._runner = None
        finally:
            if self._saved_base is not None and self._saved_gateway is not None:
                discord.http.Route.BASE = self._saved_base
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved_gateway
                self._saved_base = self._saved_gateway = None
            logging.getLogger("discord").removeHandler(self._errors)
            if self in _active:
                _active.remove(self)

    @property
    def spec_violations(self) -> list[Violation]:
        """Every rule of Discord's contract broken so far (requests, answers, interactions,
        and the documented limits the simulator checks itself)."""
        return self.state.spec_violations

    def take_spec_violations(self) -> list[Violation]:
        """The violations so far, taken away: for a test that breaks the contract on purpose
        (otherwise leaving the simulator fails the test with them)."""
        taken = list(self.state.spec_violations)
        self.state.spec_violations.clear()
        return taken

    @property
    def token(self) -> str:
        """The bot token the simulator accepts (``client.start(sim.token)``)."""
        return self.state.token

    # ----------------------------------------------------------------- an Activity

    def enable_activity(self) -> tuple[int, str]:
        """Turn the application's Activity on (the Developer Portal's switch); returns the
        OAuth2 client id and secret its server exchanges codes with."""
        activities = self.state.activities
        activities.enabled = True
        return activities.application_id, activities.client_secret

    def consent(self, user: SimUser, scopes: tuple[str, ...] = ("identify",)) -> str:
        """The user agrees to the SDK's ``authorize``: the code the page is handed."""
        return self.state.activities.consent(user.id, scopes)

    def activity_instances(self) -> list[ActivityInstance]:
        return list(self.state.activities.instances.values())

    # ----------------------------------------------------------------- the world

    @property
    def bot_user(self) -> SimUser:
        return self.state.bot_user

    def add_user(self, name: str, *, global_name: str | None = None) -> SimUser:
        return self.state.add_user(name, global_name=global_name)

    def add_guild(
        self,
        name: str,
        *,
        channels: tuple[str, ...] = ("general",),
        owner: SimUser | None = None,
        shard: tuple[int, int] | None = None,
    ) -> SimGuild:
        """A guild the bot is in, with the named text channels; ``shard=(id, count)``
        gives it an id that shard ``id`` of ``count`` receives."""
        guild = self.state.add_guild(name, owner=owner, shard=shard)
        for channel_name in channels:
            channel = guild.add_text_channel(channel_name)
            if self.default_channel is None:
                self.default_channel = channel
        return guild

    def add_member(
        self,
        guild: SimGuild,
        name: str,
        *,
        manage_guild: bool = False,
        administrator: bool = False,
        global_name: str | None = None,
    ) -> SimUser:
        """A new user who is a member of ``guild``."""
        user = self.add_user(name, global_name=global_name)
        guild.add_member(user, manage_guild=manage_guild, administrator=administrator)
        return user

    def populate(self) -> World:
        """Build the standard test world (see ``World``); #games becomes the default channel."""
        guild = self.add_guild("Leaf Club", channels=())
        games = guild.add_text_channel("games")
        general = guild.add_text_channel("general")
        self.default_channel = games
        return World(
            guild=guild,
            channel=games,
            other_channel=general,
            admin=self.add_member(guild, "admin", manage_guild=True),
            alice=self.add_member(guild, "alice"),
            bob=self.add_member(guild, "bob"),
            carol=self.add_member(guild, "carol"),
            outsider=self.add_user("outsider"),
        )

    def set_bot_permissions(self, guild: SimGuild, permissions: int) -> None:
        """Give the bot's role other permissions in ``guild`` (``BOT_PERMISSIONS`` is what it
        starts with; ``BOT_PERMISSIONS & ~CREATE_PUBLIC_THREADS`` takes threads away);
        announced with GUILD_ROLE_UPDATE, and carried by interactions as ``app_permissions``."""
        self.state.set_bot_permissions(guild, permissions)

    def threads(self, channel: SimChannel | None = None) -> list[SimChannel]:
        """The threads under a channel (default: the default channel), archived ones too."""
        return self._channel(channel).threads

    def dm_channel(self, user: SimUser) -> SimChannel:
        """The DM channel between the bot and ``user``."""
        return self.state.dm_channel(user)

    def dms(self, user: SimUser) -> list[SimMessage]:
        """Every (non-deleted) message in the user's DM with the bot."""
        return self.dm_channel(user).messages

    def close_dms(self, user: SimUser) -> None:
        """From now on DMs to ``user`` fail with 403 / code 50007."""
        user.dms_open = False

    def open_dms(self, user: SimUser) -> None:
        user.dms_open = True

    def visible_messages(self, user: SimUser) -> list[SimMessage]:
        """Everything ``user`` can see: guild channels they are in, their DMs, their ephemerals."""
        seen: list[SimMessage] = []
        for channel in self.state.channels.values():
            if channel.guild is not None and user.id not in channel.guild.members:
                continue
            seen.extend(channel.messages_visible_to(user))
        return sorted(seen, key=lambda m: m.id)

    @property
    def all_messages(self) -> list[SimMessage]:
        """Every message ever stored (deleted ones included), oldest first."""
        return sorted(self.state.messages.values(), key=lambda m: m.id)

    def commands(self, guild: SimGuild | None = None) -> list[dict[str, Any]]:
        """The synced commands usable in ``guild`` (guild + global), or the global ones."""
        return self.state.commands_for(guild)

    @property
    def interactions(self) -> list[SimInteraction]:
        return list(self.state.interactions.values())

    @property
    def requests(self) -> list[RequestRecord]:
        """Every REST request the bot made (method, route template, path, status)."""
        return self.state.requests

    def request_counts(self, since: int = 0) -> Counter[str]:
        """REST requests by category (``RequestRecord.category``) from ``sim.requests[since:]``,
        429s left out (they are counted apart, as ``"429"``): what actions cost."""
        counts: Counter[str] = Counter()
        for record in self.state.requests[since:]:
            counts["429" if record.status == 429 else record.category] += 1
        return counts

    @property
    def unhandled_requests(self) -> list[RequestRecord]:
        """REST calls the simulator does not implement (answered 404)."""
        return self.state.unhandled_requests

    @property
    def bot_errors(self) -> list[logging.LogRecord]:
        """ERROR log records from discord.py (unhandled exceptions in the bot's handlers)."""
        return list(self._errors.records)

    def assert_no_bot_errors(self) -> None:
        if self._errors.records:
            details = "\n".join(_format_record(r) for r in self._errors.records)
            raise AssertionError(f"the bot logged {len(self._errors.records)} error(s):\n{details}")

    # ----------------------------------------------------------------- running bots

    async def start_bot(
        self, factory: BotFactory, *, ready_timeout: float = READY_TIMEOUT
    ) -> BotHandle:
        """Create a client with ``factory`` and run it until it is ready.

        The factory may build any ``discord.Client`` / ``commands.Bot``. Its default 2 s
        ``guild_ready_timeout`` is shortened, and op 9 re-identify sleeps are skipped.
        """
        started = time.perf_counter()
        client = factory()
        state = client._connection
        if state.guild_ready_timeout == 2.0:
            state.guild_ready_timeout = self.guild_ready_timeout

        async def no_identify_wait(shard_id: int | None, *, initial: bool = False) -> None:
            return None

        client.before_identify_hook = no_identify_wait  # type: ignore[method-assign]  # the simulator needs no identify wait
        self._trace_interactions(client)
        handle = BotHandle(self, client)
        self.handles.append(handle)
        self.bot = handle
        handle.task = asyncio.create_task(client.start(self.token), name="discord-sim-bot")
        ready = asyncio.create_task(client.wait_until_ready())
        done, _ = await asyncio.wait(
            {ready, handle.task}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            if handle.task in done:
                await handle.stop()
                handle.task.result()  # re-raises the start-up error (login, setup_hook…)
            await handle.stop()
            raise TimeoutError(f"the bot was not ready within {ready_timeout} s")
        handle.ready_seconds = time.perf_counter() - started
        return handle

    async def restart_bot(
        self, factory: BotFactory, *, ready_timeout: float = READY_TIMEOUT
    ) -> BotHandle:
        """Stop the current client and start a new one on the same simulator state."""
        if self.bot is not None:
            await self.bot.stop()
        return await self.start_bot(factory, ready_timeout=ready_timeout)

    def _trace_interactions(self, client: discord.Client) -> None:
        """Note which tasks the client spawns for each interaction, to wait for them."""
        parsers = client._connection.parsers
        original = parsers["INTERACTION_CREATE"]

        def traced(data: dict[str, Any]) -> None:
            before = asyncio.all_tasks()
            try:
                original(data)
            finally:
                interaction = self.state.interactions.get(int(data["id"]))
                if interaction is not None:
                    interaction.handler_tasks = asyncio.all_tasks() - before
                    interaction.parsed.set()

        parsers["INTERACTION_CREATE"] = traced

    # ----------------------------------------------------------------- user actions

    def _channel(self, channel: SimChannel | None) -> SimChannel:
        channel = channel or self.default_channel
        if channel is None:
            raise CommandInputError(
                "no channel given and no default channel (call populate or add_guild)"
            )
        return channel

    def _check_user_in(self, user: SimUser, channel: SimChannel) -> None:
        if channel.guild is not None and user.id not in channel.guild.members:
            raise InteractionNotAllowed(f"{user.name} is not a member of {channel.guild.name!r}")
        if channel.is_dm and (channel.recipient is None or channel.recipient.id != user.id):
            raise InteractionNotAllowed(f"{user.name} cannot see the DM channel {channel.name!r}")

    def _new_interaction(
        self,
        kind: int,
        user: SimUser,
        channel: SimChannel,
        name: str,
        data: dict[str, Any],
        message: SimMessage | None = None,
    ) -> SimInteraction:
        interaction_id = self.state.snowflakes.next()
        token = fresh_token()
        payload = base_payload(
            interaction_id=interaction_id,
            application_id=self.state.application_id,
            interaction_type=kind,
            token=token,
            user=user,
            channel=channel,
            app_permissions=self.state.bot_permissions(channel),
            attachment_size_limit=self.state.attachment_size_limit,
        )
        payload["data"] = data
        if message is not None:
            payload["message"] = message.to_payload(self.base_url)
        if self.server.validate_responses:
            self.state.spec_violations.extend(
                interaction_violations(payload, f"INTERACTION_CREATE {name!r}")
            )
        interaction = SimInteraction(
            id=interaction_id,
            token=token,
            type=kind,
            user=user,
            channel=channel,
            payload=payload,
            name=name,
            source_message=message,
        )
        self.state.interactions[interaction_id] = interaction
        self.state.interactions_by_token[token] = interaction
        return interaction

    def _session_for(self, channel: SimChannel) -> GatewaySession:
        """The session of the shard Discord would send this channel's interaction to:
        the guild's shard, or shard 0 for a DM."""
        if not self.gateway.live_sessions:
            raise NoBotConnected("no bot is connected to the simulator (call start_bot first)")
        guild_id = channel.guild.id if channel.guild is not None else None
        session = self.gateway.session_for(guild_id)
        if session is None:
            where = "DMs (shard 0)" if guild_id is None else f"guild {guild_id}"
            raise NoBotConnected(f"no connected shard receives interactions from {where}")
        return session

    async def _run(
        self, interaction: SimInteraction, *, timeout: float | None, expect_response: bool
    ) -> SimInteraction:
        timeout = self.interaction_timeout if timeout is None else timeout
        session = self._session_for(interaction.channel)
        interaction.dispatched_at = time.perf_counter()
        interaction.created_at = time.monotonic()
        errors_before = len(self._errors.records)
        await session.dispatch("INTERACTION_CREATE", interaction.payload)
        deadline = time.monotonic() + timeout
        # Whether the bot may still be working on it (then the whole timeout is granted).
        handlers_running = False
        handlers = "finished"
        if self._owner_of(session) is not None:
            try:
                await asyncio.wait_for(interaction.parsed.wait(), timeout)
            except TimeoutError:
                raise InteractionTimeout(
                    f"{interaction.describe()}: the bot did not receive the interaction "
                    f"within {timeout} s"
                ) from None
            pending = {t for t in interaction.handler_tasks if not t.done()}
            if pending:
                _, pending = await asyncio.wait(
                    pending, timeout=max(deadline - time.monotonic(), 0)
                )
            handlers_running = bool(pending)
            handlers = "still running" if pending else "finished"
        else:
            # A bot in another process: its handlers cannot be watched, only its answers.
            handlers_running = expect_response
            handlers = "in another process"
        if interaction.responded:
            return interaction
        remaining = max(deadline - time.monotonic(), 0)
        grace = remaining if handlers_running else min(remaining, self.no_response_grace)
        try:
            await interaction.wait_until(lambda i: i.responded, grace, "a response")
        except InteractionTimeout:
            if not expect_response:
                return interaction
            errors = self._errors.records[errors_before:]
            detail = "".join("\n" + _format_record(r) for r in errors)
            raise InteractionTimeout(
                f"{interaction.describe()}: the bot did not respond (its handlers {handlers}; "
                f"answers: {interaction.events}); errors logged: {len(errors)}{detail}"
            ) from None
        return interaction

    async def slash(
        self,
        user: SimUser | SimMember,
        command: str,
        *,
        channel: SimChannel | None = None,
        timeout: float | None = None,
        expect_response: bool = True,
        **options: Any,
    ) -> SimInteraction:
        """``user`` runs ``/command`` ("name", "group sub" or "name sub") with ``options``.

        User/member options take ``SimUser``; channel options ``SimChannel``. Raises
        ``CommandInputError`` for what the Discord client would not send and
        ``InteractionNotAllowed`` when the user may not use the command here.
        """
        user = user.user if isinstance(user, SimMember) else user
        channel = self._channel(channel)
        self._check_user_in(user, channel)
        schema, rest = find_command(self.state.commands_for(channel.guild), command)
        check_command_allowed(schema, user, channel)
        data = build_command_data(schema, rest, options, guild=channel.guild)
        interaction = self._new_interaction(APPLICATION_COMMAND, user, channel, command, data)
        return await self._run(interaction, timeout=timeout, expect_response=expect_response)

    async def autocomplete(
        self,
        user: SimUser | SimMember,
        command: str,
        *,
        option: str,
        value: Any = "",
        channel: SimChannel | None = None,
        timeout: float | None = None,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """The choices the bot offers while ``user`` types ``value`` into ``option``."""
        user = user.user if isinstance(user, SimMember) else user
        channel = self._channel(channel)
        self._check_user_in(user, channel)
        schema, rest = find_command(self.state.commands_for(channel.guild), command)
        check_command_allowed(schema, user, channel)
        data = build_command_data(
            schema, rest, {**options, option: value}, guild=channel.guild, focused=option
        )
        interaction = self._new_interaction(AUTOCOMPLETE, user, channel, command, data)
        await self._run(interaction, timeout=timeout, expect_response=True)
        return list(interaction.choices or [])

    def _component_target(self, user: SimUser, message: SimMessage) -> SimMessage:
        current = self.state.messages.get(message.id, message)
        if current.deleted:
            raise InteractionNotAllowed(f"message {current.id} was deleted")
        if not current.is_visible_to(user):
            raise InteractionNotAllowed(f"{user.name} cannot see message {current.id}")
        self._check_user_in(user, current.channel)
        return current

    async def click(
        self,
        user: SimUser | SimMember,
        message: SimMessage,
        button: str,
        *,
        timeout: float | None = None,
        expect_response: bool = True,
    ) -> SimInteraction:
        """``user`` presses the button (custom id or label) on ``message``."""
        user = user.user if isinstance(user, SimMember) else user
        message = self._component_target(user, message)
        try:
            target = message.button(button)
        except LookupError as error:
            raise InteractionNotAllowed(str(error)) from None
        if target.disabled:
            raise InteractionNotAllowed(f"button {button!r} on message {message.id} is disabled")
        if target.custom_id is None:
            raise InteractionNotAllowed(f"button {button!r} is a link, not an interaction")
        data = {"custom_id": target.custom_id, "component_type": BUTTON}
        interaction = self._new_interaction(
            MESSAGE_COMPONENT, user, message.channel, target.custom_id, data, message
        )
        return await self._run(interaction, timeout=timeout, expect_response=expect_response)

    async def select(
        self,
        user: SimUser | SimMember,
        message: SimMessage,
        custom_id: str,
        values: list[str] | str,
        *,
        timeout: float | None = None,
        expect_response: bool = True,
    ) -> SimInteraction:
        """``user`` picks ``values`` in the select menu ``custom_id`` on ``message``."""
        user = user.user if isinstance(user, SimMember) else user
        message = self._component_target(user, message)
        chosen = [values] if isinstance(values, str) else list(values)
        component = find_component(message, custom_id, SELECT_TYPES)
        if component.get("disabled"):
            raise InteractionNotAllowed(f"select {custom_id!r} on message {message.id} is disabled")
        check_select_values(component, chosen)
        data = {"custom_id": custom_id, "component_type": component["type"], "values": chosen}
        interaction = self._new_interaction(
            MESSAGE_COMPONENT, user, message.channel, custom_id, data, message
        )
        return await self._run(interaction, timeout=timeout, expect_response=expect_response)

    async def submit_modal(
        self,
        user: SimUser | SimMember,
        modal: SimInteraction | SimModal,
        values: dict[str, Any],
        *,
        timeout: float | None = None,
        expect_response: bool = True,
    ) -> SimInteraction:
        """``user`` fills in the modal (fields by custom id or label) and submits it."""
        user = user.user if isinstance(user, SimMember) else user
        if isinstance(modal, SimInteraction):
            if modal.modal is None:
                raise InteractionNotAllowed(
                    f"{modal.describe()} did not open a modal (answers: {modal.events})"
                )
            modal = modal.modal
        opener = modal.opened_by
        if opener.user.id != user.id:
            raise InteractionNotAllowed(
                f"the modal was shown to {opener.user.name}, not {user.name}"
            )
        data = {"custom_id": modal.custom_id, "components": build_modal_components(modal, values)}
        source = opener.source_message
        if source is not None:
            source = self.state.messages.get(source.id, source)
        interaction = self._new_interaction(
            MODAL_SUBMIT, user, opener.channel, modal.custom_id, data, source
        )
        return await self._run(interaction, timeout=timeout, expect_response=expect_response)

    async def send_user_message(
        self, user: SimUser, channel: SimChannel, content: str
    ) -> SimMessage:
        """``user`` writes a plain message (delivered as MESSAGE_CREATE to bots with the intent)."""
        self._check_user_in(user, channel)
        message = SimMessage(
            id=self.state.snowflakes.next(), channel=channel, author=user, content=content
        )
        self.state.store_message(message)
        await self.gateway.settle()
        return message

    # ----------------------------------------------------------------- waiting for messages

    def _on_message_change(self, message: SimMessage) -> None:
        self._message_event.set()
        self._message_event = asyncio.Event()

    async def wait_for_message(
        self,
        check: Callable[[SimMessage], bool] | None = None,
        *,
        channel: SimChannel | None = None,
        after: SimMessage | int | None = None,
        timeout: float = 5.0,
    ) -> SimMessage:
        """The first stored message (newer than ``after``) in ``channel`` passing ``check``.

        Looks at messages already there, then waits for new ones and edits.
        """
        after_id = after.id if isinstance(after, SimMessage) else (after or 0)
        deadline = time.monotonic() + timeout
        while True:
            pool = (
                channel.messages
                if channel is not None
                else [m for m in self.all_messages if not m.deleted]
            )
            for message in pool:
                if message.id > after_id and (check is None or check(message)):
                    return message
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                where = channel.name if channel is not None else "any channel"
                raise TimeoutError(f"no matching message in {where} within {timeout} s")
            event = self._message_event
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    # ----------------------------------------------------------------- faults

    def rate_limit(
        self, route: str, *, count: int = 1, retry_after: float = 0.05, is_global: bool = False
    ) -> RouteFault:
        """Answer the next ``count`` requests of ``route`` with 429 and ``retry_after``.

        ``route`` is "METHOD /path" with either the template ("POST
        /channels/{channel_id}/messages") or a concrete path ("POST /channels/123/messages").
        """
        method, path = _split_route(route)
        fault = RouteFault(
            method=method,
            route=path,
            remaining=count,
            status=429,
            body={
                "message": "You are being rate limited.",
                "retry_after": retry_after,
                "global": is_global,
                "code": 0,
            },
            # the server adds what Discord sends with a 429 (Via, Retry-After, the
            # X-RateLimit-* headers of the route's bucket or the global scope)
        )
        self.state.faults.append(fault)
        return fault

    def slow_answer(self, route: str, *, seconds: float, count: int = 1) -> RouteFault:
        """Carry out the next ``count`` requests of ``route`` as usual, but send their
        answer only ``seconds`` later (a client that gives up waiting still had its
        request done: an interaction callback counts as the interaction's answer)."""
        method, path = _split_route(route)
        fault = RouteFault(
            method=method, route=path, remaining=count, status=0, body={}, answer_after=seconds
        )
        self.state.faults.append(fault)
        return fault

    def fail_requests(
        self, route: str, *, status: int, code: int, message: str, count: int = 1
    ) -> RouteFault:
        """Answer the next ``count`` requests of ``route`` with a Discord error."""
        method, path = _split_route(route)
        fault = RouteFault(
            method=method,
            route=path,
            remaining=count,
            status=status,
            body={"message": message, "code": code},
        )
        self.state.faults.append(fault)
        return fault

    async def gateway_reconnect(self, timeout: float = 5.0) -> None:
        """Send op 7 RECONNECT; return once the client has RESUMEd on a new socket."""
        sessions = self.gateway.live_sessions
        if not sessions:
            raise NoBotConnected("no bot session to reconnect")
        before = [s.resumes for s in sessions]
        for session in sessions:
            await session.reconnect()
        await self._wait_resumed(sessions, before, timeout)

    async def drop_connection(self, timeout: float = 5.0) -> None:
        """Cut the gateway TCP connection; return once the client has RESUMEd."""
        sessions = self.gateway.live_sessions
        if not sessions:
            raise NoBotConnected("no bot session to drop")
        before = [s.resumes for s in sessions]
        for session in sessions:
            session.drop()
        await self._wait_resumed(sessions, before, timeout)

    async def _wait_resumed(
        self, sessions: list[GatewaySession], before: list[int], timeout: float
    ) -> None:
        deadline = time.monotonic() + timeout
        while any(s.resumes == b for s, b in zip(sessions, before, strict=True)) or not all(
            self._client_caught_up(s) for s in sessions
        ):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the bot did not resume within {timeout} s")
            await asyncio.sleep(0.005)
        # Let the client run the tasks it spawned for RESUMED (on_resumed listeners).
        await asyncio.sleep(0)

    def _owner_of(self, session: GatewaySession) -> BotHandle | None:
        """The in-process client connected through ``session`` (None for another process)."""
        for handle in self.handles:
            if _websocket_of(handle.client, session.session_id) is not None:
                return handle
        return None

    def _client_caught_up(self, session: GatewaySession) -> bool:
        """Whether the client owning ``session`` has read every event sent to it."""
        owner = self._owner_of(session)
        if owner is None:
            return True
        websocket = _websocket_of(owner.client, session.session_id)
        return websocket is not None and (websocket.sequence or 0) >= session.sequence


def client_websockets(client: discord.Client) -> list[Any]:
    """The gateway websockets of a client: its one, or one per shard it runs."""
    found = []
    websocket = getattr(client, "ws", None)
    if websocket is not None:
        found.append(websocket)
    shards = getattr(client, "_AutoShardedClient__shards", None) or {}
    for shard in shards.values():
        if shard.ws is not None:
            found.append(shard.ws)
    return found


def _websocket_of(client: discord.Client, session_id: str) -> Any:
    for websocket in client_websockets(client):
        if websocket.session_id == session_id:
            return websocket
    return None


def _split_route(route: str) -> tuple[str, str]:
    method, _, path = route.partition(" ")
    if not path.startswith("/"):
        raise ValueError(
            f"route must look like 'POST /channels/{{channel_id}}/messages', got {route!r}"
        )
    return method.upper(), path


def _format_record(record: logging.LogRecord) -> str:
    text = f"{record.name}: {record.getMessage()}"
    if record.exc_info and record.exc_info[1] is not None:
        error = record.exc_info[1]
        text += f" -> {type(error).__name__}: {error}"
    return text
