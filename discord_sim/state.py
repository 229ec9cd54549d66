"""The simulator's persistent state: the world, the synced commands, the messages and faults.

It outlives any bot client, which is what lets a test restart the bot against the same
messages and components. The REST server and the gateway both change it through the
methods here; they notify connected bots through ``announce`` (set by the gateway).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .activities import Activities
from .models import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    COMPONENTS_V2_FLAG,
    CREATE_PUBLIC_THREADS,
    DM,
    GUILD_TEXT,
    MANAGE_GUILD,
    MEMBER_PERMISSIONS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    MessageRevision,
    SimAttachment,
    SimChannel,
    SimGuild,
    SimMember,
    SimMessage,
    SimRole,
    SimUser,
    SnowflakeFactory,
    complete_components,
)
from .ratelimits import RateLimiter, RouteFault

if TYPE_CHECKING:
    from .interactions import SimInteraction
    from .spec import Violation

#: The permissions the bot's own member has in every guild (what a typical invite grants):
#: a member's, Manage Messages, and Create Public Threads. They come from the bot's own
#: role (Discord makes one per bot, named after it), so discord.py's cache computes them too.
BOT_PERMISSIONS = MEMBER_PERMISSIONS | (1 << 13) | CREATE_PUBLIC_THREADS

GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12


#: One problem of a 50035 Invalid Form Body: where in the JSON, Discord's error code and
#: message, the rule broken.
FormProblem = tuple[tuple[str | int, ...], str, str, str]


class SimHTTPError(Exception):
    """Raised by state operations; the server turns it into a Discord-shaped error response."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        problems: list[FormProblem] | None = None,
    ) -> None:
        super().__init__(f"{status} (code {code}): {message}")
        self.status = status
        self.code = code
        self.message = message
        #: For 50035 Invalid Form Body: what is wrong where, reported under "errors".
        self.problems = problems or []


#: The kinds of request a bot's budget is counted in (``RequestRecord.category``).
CALLBACK = "callback"  # the first answer to an interaction (exempt from the global limit)
CHANNEL_MESSAGE = "channel message"  # a new message in a server channel
EDIT = "edit"  # an edit (or deletion) of a channel message
# a follow-up, or an edit (deletion) of an interaction's message, through the interaction's
# token: beyond the callback, yet spared by the global limit like it
FOLLOW_UP = "follow-up"
DIRECT_MESSAGE = "DM"  # opening a DM channel, a new DM or an edit of one
THREAD = "thread"  # starting a thread, changing one (archive, name), adding its members
OTHER = "other"  # reading (users, channels, messages), command sync, login


@dataclass(frozen=True)
class RequestRecord:
    """One REST request the bot made, as the server answered it."""

    method: str
    route: str
    path: str
    status: int
    at: float
    #: What the request was for (``CALLBACK``, ``CHANNEL_MESSAGE``, ``EDIT``, ``FOLLOW_UP``,
    #: ``DIRECT_MESSAGE``, ``OTHER``).
    category: str = OTHER


class SimState:
    """Every object of the simulated Discord, plus what the bot did to it."""

    def __init__(
        self,
        *,
        bot_name: str = "LeafBot",
        token: str = "sim-bot-token",
        attachment_size_limit: int = 10 * 1024 * 1024,
        rate_limits: bool = True,
        rate_limit_time_scale: float = 1.0,
    ) -> None:
        self.snowflakes = SnowflakeFactory()
        self.token = token
        self.attachment_size_limit = attachment_size_limit
        self.bot_user = SimUser(id=self.snowflakes.next(), name=bot_name, bot=True)
        self.application_owner = SimUser(id=self.snowflakes.next(), name="app-owner")
        self.users: dict[int, SimUser] = {
            self.bot_user.id: self.bot_user,
            self.application_owner.id: self.application_owner,
        }
        self.guilds: dict[int, SimGuild] = {}
        self.channels: dict[int, SimChannel] = {}
        self.dm_channels: dict[int, SimChannel] = {}
        self.messages: dict[int, SimMessage] = {}
        #: Messages created with ``enforce_nonce``, by (author id, nonce), with when.
        self.nonces: dict[tuple[int, str], tuple[float, SimMessage]] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.interactions: dict[int, SimInteraction] = {}
        self.interactions_by_token: dict[str, SimInteraction] = {}
        self.faults: list[RouteFault] = []
        #: Discord's global and per-route limits (``rate_limits=False`` turns them off).
        self.rate_limiter = RateLimiter(enabled=rate_limits, time_scale=rate_limit_time_scale)
        self.requests: list[RequestRecord] = []
        self.unhandled_requests: list[RequestRecord] = []
        #: Every rule of Discord's contract broken (discord_sim/spec.py), by a request,
        #: by one of the simulator's answers or interactions, or a limit of Discord's docs
        #: the simulator enforces: the simulator fails the test with them when it closes.
        self.spec_violations: list[Violation] = []
        self.message_listeners: list[Callable[[SimMessage], None]] = []
        #: Where attachment URLs point; set by the server once it knows its port.
        self.base_url = "http://127.0.0.1"
        #: Set by the gateway: sends an event to connected bots (when their intents ask).
        self.announce: Callable[[str, dict[str, Any], int], None] = lambda event, data, intent: None
        #: The application's Activity: its OAuth2 codes and tokens, its running instances.
        self.activities = Activities(self.bot_user.id)

    @property
    def application_id(self) -> int:
        # Discord gives a bot user the same id as its application.
        return self.bot_user.id

    # ----------------------------------------------------------------- world building

    def add_user(self, name: str, *, global_name: str | None = None, bot: bool = False) -> SimUser:
        user = SimUser(id=self.snowflakes.next(), name=name, global_name=global_name, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(
        self, name: str, *, owner: SimUser | None = None, shard: tuple[int, int] | None = None
    ) -> SimGuild:
        """A guild the bot is in; ``shard=(id, count)`` picks an id on that shard."""
        guild_id = (
            self.snowflakes.next() if shard is None else self.snowflakes.next_on_shard(*shard)
        )
        owner = owner or self.application_owner
        guild = SimGuild(id=guild_id, name=name, owner=owner, state=self)
        guild.roles.append(SimRole(id=guild_id, name="@everyone", permissions=MEMBER_PERMISSIONS))
        self.guilds[guild_id] = guild
        bot_role = SimRole(
            id=self.snowflakes.next(),
            name=self.bot_user.name,
            permissions=BOT_PERMISSIONS,
            position=1,
        )
        guild.roles.append(bot_role)
        bot_member = SimMember(
            user=self.bot_user, guild=guild, permissions=BOT_PERMISSIONS, roles=[bot_role]
        )
        guild.members[self.bot_user.id] = bot_member
        if owner.id not in guild.members and owner is not self.application_owner:
            guild.members[owner.id] = SimMember(
                user=owner, guild=guild, permissions=ALL_PERMISSIONS
            )
        self.announce("GUILD_CREATE", guild.to_payload(), 0)
        return guild

    def add_text_channel(self, guild: SimGuild, name: str) -> SimChannel:
        channel = SimChannel(
            id=self.snowflakes.next(),
            name=name,
            type=GUILD_TEXT,
            guild=guild,
            position=len(guild.channels),
        )
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        self.announce("CHANNEL_CREATE", channel.to_payload(), 0)
        return channel

    def add_member(
        self,
        guild: SimGuild,
        user: SimUser,
        *,
        manage_guild: bool = False,
        administrator: bool = False,
        nick: str | None = None,
    ) -> SimMember:
        permissions = MEMBER_PERMISSIONS
        if manage_guild:
            permissions |= MANAGE_GUILD
        if administrator:
            permissions = ALL_PERMISSIONS | ADMINISTRATOR
        member = SimMember(user=user, guild=guild, permissions=permissions, nick=nick)
        guild.members[user.id] = member
        payload = member.to_payload()
        payload["guild_id"] = str(guild.id)
        self.announce("GUILD_MEMBER_ADD", payload, 0)
        return member

    def set_bot_permissions(self, guild: SimGuild, permissions: int) -> None:
        """Give the bot's role other permissions (a server admin editing it), announced
        with GUILD_ROLE_UPDATE so the client's cache agrees."""
        member = guild.members[self.bot_user.id]
        member.permissions = permissions
        for role in member.roles:
            role.permissions = permissions
            self.announce(
                "GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": role.to_payload()}, 0
            )

    def bot_permissions(self, channel: SimChannel) -> int:
        """What the bot may do in a channel (a thread: in its parent); everything in DMs."""
        if channel.guild is None:
            return ALL_PERMISSIONS
        member = channel.guild.members.get(self.bot_user.id)
        if member is None:
            return 0
        if member.permissions & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return member.permissions

    def dm_channel(self, user: SimUser) -> SimChannel:
        """The DM channel between the bot and ``user`` (created on first use, like Discord)."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = SimChannel(
                id=self.snowflakes.next(), name=f"dm-{user.name}", type=DM, recipient=user
            )
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    # ----------------------------------------------------------------- lookups

    def get_channel(self, channel_id: int) -> SimChannel:
        try:
            return self.channels[channel_id]
        except KeyError:
            raise SimHTTPError(404, 10003, "Unknown Channel") from None

    def get_user(self, user_id: int) -> SimUser:
        try:
            return self.users[user_id]
        except KeyError:
            raise SimHTTPError(404, 10013, "Unknown User") from None

    def get_guild(self, guild_id: int) -> SimGuild:
        try:
            return self.guilds[guild_id]
        except KeyError:
            raise SimHTTPError(404, 10004, "Unknown Guild") from None

    def get_message(self, channel: SimChannel, message_id: int) -> SimMessage:
        message = self.messages.get(message_id)
        if message is None or message.deleted or message.channel is not channel:
            raise SimHTTPError(404, 10008, "Unknown Message")
        return message

    def commands_for(self, guild: SimGuild | None) -> list[dict[str, Any]]:
        """Commands usable in a guild (its own plus global) or, for None, in DMs."""
        if guild is None:
            return list(self.global_commands)
        return list(self.guild_commands.get(guild.id, [])) + list(self.global_commands)

    # ----------------------------------------------------------------- commands

    def sync_commands(
        self, guild_id: int | None, commands: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Replace the command set (bulk overwrite) and echo it back with ids, like Discord."""
        previous = {
            c["name"]: c
            for c in (self.guild_commands.get(guild_id, []) if guild_id else self.global_commands)
        }
        stored: list[dict[str, Any]] = []
        for command in commands:
            entry = copy.deepcopy(command)
            old = previous.get(entry["name"])
            entry["id"] = old["id"] if old else str(self.snowflakes.next())
            entry["application_id"] = str(self.application_id)
            entry["version"] = str(self.snowflakes.next())
            entry.setdefault("type", 1)
            entry.setdefault("description", "")
            entry.setdefault("options", [])
            entry.setdefault("default_member_permissions", None)
            # installed to guilds unless the command says otherwise (Discord's default)
            entry["integration_types"] = entry.get("integration_types") or [0]
            if entry["default_member_permissions"] is not None:
                # Discord echoes permission bit sets as strings, whatever was sent.
                entry["default_member_permissions"] = str(int(entry["default_member_permissions"]))
            if guild_id is not None:
                entry["guild_id"] = str(guild_id)
            stored.append(entry)
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        return copy.deepcopy(stored)

    # ----------------------------------------------------------------- messages

    def check_can_send(self, channel: SimChannel) -> None:
        if channel.type == DM:
            recipient = channel.recipient
            if recipient is None or not recipient.dms_open or recipient.bot:
                raise SimHTTPError(403, 50007, "Cannot send messages to this user")
        elif channel.guild is None or self.bot_user.id not in channel.guild.members:
            raise SimHTTPError(403, 50001, "Missing Access")
        elif channel.thread is not None:
            if not self.bot_permissions(channel) & SEND_MESSAGES_IN_THREADS:
                raise SimHTTPError(403, 50013, "Missing Permissions")
            self.check_thread_open(channel)
        elif not self.bot_permissions(channel) & SEND_MESSAGES:
            raise SimHTTPError(403, 50013, "Missing Permissions")

    @staticmethod
    def check_thread_open(channel: SimChannel) -> None:
        """Discord refuses to change anything in an archived thread until it is unarchived."""
        if channel.archived:
            raise SimHTTPError(400, 50083, "Thread is archived")

    def check_attachments(self, files: list[SimAttachment]) -> None:
        total = sum(f.size for f in files)
        if total > self.attachment_size_limit:
            raise SimHTTPError(413, 40005, "Request entity too large")

    def store_message(self, message: SimMessage) -> SimMessage:
        message.channel.all_messages.append(message)
        self.messages[message.id] = message
        thread = message.channel.thread
        if thread is not None and not message.ephemeral:
            thread.message_count += 1
            thread.total_message_sent += 1
            thread.last_message_id = message.id
        if not message.ephemeral:
            self.announce(
                "MESSAGE_CREATE", self._event_payload(message), self._intent_for(message.channel)
            )
        for listener in list(self.message_listeners):
            listener(message)
        return message

    def edit_message(
        self, message: SimMessage, changes: dict[str, Any], files: list[SimAttachment]
    ) -> SimMessage:
        """Apply a PATCH body to a stored message, keeping the old version in its history."""
        revision: MessageRevision = message.snapshot()
        if "content" in changes:
            message.content = changes["content"]
        if "embeds" in changes:
            message.embeds = list(changes["embeds"] or [])
        if "allowed_mentions" in changes:
            message.allowed_mentions = changes["allowed_mentions"]
        if "flags" in changes and changes["flags"] is not None:
            # Only SUPPRESS_EMBEDS may change after sending, and IS_COMPONENTS_V2 be set
            # (never taken away); ephemeral and others stay.
            wanted = int(changes["flags"])
            message.flags = (message.flags & ~4) | (wanted & 4) | (wanted & COMPONENTS_V2_FLAG)
        if "attachments" in changes:
            kept_ids = {int(a["id"]) for a in changes["attachments"] or [] if "filename" not in a}
            message.attachments = [a for a in message.attachments if a.id in kept_ids] + files
        elif files:
            message.attachments = message.attachments + files
        if "components" in changes:
            message.components = complete_components(
                list(changes["components"] or []), message.attachments, self.base_url
            )
        message.history.append(revision)
        message.edited_at = time.time()
        if not message.ephemeral:
            self.announce(
                "MESSAGE_UPDATE", self._event_payload(message), self._intent_for(message.channel)
            )
        for listener in list(self.message_listeners):
            listener(message)
        return message

    def delete_message(self, message: SimMessage) -> None:
        message.deleted = True
        if not message.ephemeral:
            payload = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild is not None:
                payload["guild_id"] = str(message.channel.guild.id)
            self.announce("MESSAGE_DELETE", payload, self._intent_for(message.channel))
        for listener in list(self.message_listeners):
            listener(message)

    def _event_payload(self, message: SimMessage) -> dict[str, Any]:
        # ``announce`` encodes it before returning: no copy of the message's parts needed
        payload = message.to_payload(self.base_url, copy_parts=False)
        guild = message.channel.guild
        if guild is not None and message.author.id in guild.members:
            payload["member"] = guild.members[message.author.id].to_payload(with_user=False)
        return payload

    @staticmethod
    def _intent_for(channel: SimChannel) -> int:
        return DIRECT_MESSAGES_INTENT if channel.type == DM else GUILD_MESSAGES_INTENT

    # ----------------------------------------------------------------- the budget
    def categorise(self, method: str, template: str, channel_id: str | None) -> str:
        """The category of a request (``CALLBACK``, ``CHANNEL_MESSAGE``, ``EDIT``,
        ``FOLLOW_UP``, ``DIRECT_MESSAGE``, ``OTHER``), for counting what each action costs."""
        if template == "/interactions/{interaction_id}/{token}/callback":
            return CALLBACK
        if template == "/users/@me/channels":
            return DIRECT_MESSAGE
        if template.startswith("/webhooks/"):
            return FOLLOW_UP if method in ("POST", "PATCH", "DELETE") else OTHER
        if template.endswith("/threads") or "/thread-members/" in template:
            return THREAD if method != "GET" else OTHER
        if template == "/channels/{channel_id}" and method == "PATCH":
            return THREAD
        if template.startswith("/channels/{channel_id}/messages") and method != "GET":
            channel = None
            if channel_id is not None and channel_id.isdigit():
                channel = self.channels.get(int(channel_id))
            if channel is not None and channel.is_dm:
                return DIRECT_MESSAGE
            return CHANNEL_MESSAGE if method == "POST" else EDIT
        return OTHER

    # ----------------------------------------------------------------- faults

    def take_fault(self, method: str, template: str, path: str) -> RouteFault | None:
        for fault in self.faults:
            if fault.matches(method, template, path):
                fault.remaining -= 1
                fault.hits += 1
                return fault
        return None
