"""Building INTERACTION_CREATE payloads, checking them against what the bot synced, and
recording what the bot answered.

A test never sends something real Discord would refuse to send: ``build_command_options``
checks that the command exists, that every option is declared, typed and within its choices
and bounds, and that required ones are present, exactly as the Discord client would before a
user could press Enter. ``SimInteraction`` is the handle a test gets back: the bot's initial
response, its followups and edits, and the timings the load benchmark reads.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .activities import ActivityInstance
from .models import (
    ACTION_ROW,
    ALL_PERMISSIONS,
    DM,
    LABEL,
    SELECT_TYPES,
    TEXT_INPUT,
    SimChannel,
    SimGuild,
    SimMember,
    SimMessage,
    SimRole,
    SimUser,
    walk_components,
)

# Interaction types.
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Interaction callback (response) types.
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9
LAUNCH_ACTIVITY = 12

# Application command option types.
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10
ATTACHMENT = 11

OPTION_TYPE_NAMES = {
    STRING: "string",
    INTEGER: "integer",
    BOOLEAN: "boolean",
    USER: "user",
    CHANNEL: "channel",
    ROLE: "role",
    MENTIONABLE: "mentionable",
    NUMBER: "number",
    ATTACHMENT: "attachment",
}


class CommandInputError(ValueError):
    """The Discord client would not let a user send this (unknown command, bad option…)."""


class InteractionNotAllowed(ValueError):
    """The Discord client would not let this user do this (disabled button, hidden message…)."""


class InteractionTimeout(AssertionError):
    """The bot did not answer an interaction in time ("This interaction failed")."""


@dataclass
class SimModal:
    """A modal the bot opened (response type 9), ready for ``sim.submit_modal``."""

    custom_id: str
    title: str
    components: list[dict[str, Any]]
    #: The interaction that opened it; a submit carries its message along.
    opened_by: SimInteraction

    @property
    def fields(self) -> list[dict[str, Any]]:
        """Every input (text inputs, selects) with ``label`` filled in from a wrapping Label."""
        found: list[dict[str, Any]] = []

        def visit(components: list[dict[str, Any]], label: str | None) -> None:
            for component in components:
                kind = component.get("type")
                if kind == ACTION_ROW:
                    visit(component.get("components", []), None)
                elif kind == LABEL:
                    visit([component["component"]], component.get("label"))
                elif kind == TEXT_INPUT or kind in SELECT_TYPES:
                    entry = dict(component)
                    if label is not None:
                        entry["label"] = label
                    found.append(entry)

        visit(self.components, None)
        return found

    def field(self, key: str) -> dict[str, Any]:
        for entry in self.fields:
            if entry.get("custom_id") == key or entry.get("label") == key:
                return entry
        raise LookupError(f"modal {self.custom_id!r} has no field {key!r}")


@dataclass
class SimInteraction:
    """One interaction a simulated user made, and everything the bot did in answer to it."""

    id: int
    token: str
    type: int
    user: SimUser
    channel: SimChannel
    payload: dict[str, Any]
    #: For commands: "play" or "game start"; for components: the custom id.
    name: str
    #: The message a clicked component is on (None for commands).
    source_message: SimMessage | None = None
    dispatched_at: float = field(default_factory=time.perf_counter)
    created_at: float = field(default_factory=time.monotonic)
    response_type: int | None = None
    first_response_at: float | None = None
    last_reply_at: float | None = None
    #: The response message (types 4 and 5), or the component's message (types 6 and 7).
    message: SimMessage | None = None
    followups: list[SimMessage] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: SimModal | None = None
    #: The Activity instance a launch (response type 12) opened or joined.
    activity: ActivityInstance | None = None
    #: Every answer in order: ("callback", type), ("followup", id), ("edit", id), ("delete", id).
    events: list[tuple[str, Any]] = field(default_factory=list)
    #: A response that came after the 3 s limit (Discord refuses it with 10062).
    late_response: bool = False
    handler_tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    parsed: asyncio.Event = field(default_factory=asyncio.Event)
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    # ----------------------------------------------------------------- reading

    @property
    def responded(self) -> bool:
        return self.response_type is not None

    @property
    def deferred(self) -> bool:
        return self.response_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def ephemeral(self) -> bool:
        """Whether the response message (type 4 or 5) is ephemeral."""
        return (
            self.message is not None
            and self.response_type
            in (
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
            )
            and self.message.ephemeral
        )

    @property
    def messages(self) -> list[SimMessage]:
        """The response message (if the bot created one) followed by the followups."""
        found: list[SimMessage] = []
        if self.message is not None and self.message is not self.source_message:
            found.append(self.message)
        # After a "thinking" deferral the first followup *is* the response message.
        found.extend(m for m in self.followups if m is not self.message)
        return found

    @property
    def last_message(self) -> SimMessage:
        """The latest message of this interaction (followup, else response, else component's)."""
        if self.followups:
            return self.followups[-1]
        if self.message is not None:
            return self.message
        raise LookupError(f"interaction {self.name!r} produced no message (events: {self.events})")

    @property
    def text(self) -> str:
        """All words of all messages of this interaction, for quick assertions."""
        return "\n".join(m.text for m in self.messages)

    @property
    def time_to_first_response(self) -> float | None:
        if self.first_response_at is None:
            return None
        return self.first_response_at - self.dispatched_at

    @property
    def time_to_last_reply(self) -> float | None:
        if self.last_reply_at is None:
            return None
        return self.last_reply_at - self.dispatched_at

    # ----------------------------------------------------------------- waiting

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(
        self, predicate: Callable[[SimInteraction], bool], timeout: float, what: str
    ) -> None:
        deadline = time.monotonic() + timeout
        while not predicate(self):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise InteractionTimeout(
                    f"{self.describe()}: waited {timeout:.2f} s for {what}; bot's answers so far: {self.events}"
                )
            event = self._changed
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                continue

    async def wait_for_followup(self, count: int = 1, timeout: float = 5.0) -> SimMessage:
        """Wait until the bot has sent ``count`` followups in total; return the latest."""
        await self.wait_until(lambda i: len(i.followups) >= count, timeout, f"{count} followup(s)")
        return self.followups[count - 1]

    async def wait_for_reply(self, timeout: float = 5.0) -> SimMessage:
        """After a deferral, wait until the bot filled in the response or sent a followup."""

        def replied(i: SimInteraction) -> bool:
            return any(kind in ("edit", "followup") for kind, _ in i.events)

        await self.wait_until(replied, timeout, "a reply after the deferral")
        return self.last_message

    def describe(self) -> str:
        kinds = {
            APPLICATION_COMMAND: f"/{self.name}",
            AUTOCOMPLETE: f"autocomplete for /{self.name}",
            MESSAGE_COMPONENT: f"component {self.name!r}",
            MODAL_SUBMIT: f"modal {self.name!r}",
        }
        return f"{kinds.get(self.type, self.name)} by {self.user.name} in {self.channel.name}"

    # ----------------------------------------------------------------- recording (server side)

    def record(self, kind: str, detail: Any) -> None:
        now = time.perf_counter()
        self.events.append((kind, detail))
        if kind == "callback" and self.first_response_at is None:
            self.first_response_at = now
        if kind not in ("delete", "late"):
            self.last_reply_at = now
        self._notify()


# --------------------------------------------------------------------- payload builders


def channel_payload(channel: SimChannel, member: SimMember | None) -> dict[str, Any]:
    payload = channel.to_payload()
    if member is not None:
        payload["permissions"] = str(member.permissions)
    return payload


def base_payload(
    *,
    interaction_id: int,
    application_id: int,
    interaction_type: int,
    token: str,
    user: SimUser,
    channel: SimChannel,
    app_permissions: int,
    attachment_size_limit: int,
) -> dict[str, Any]:
    """The fields every interaction carries; discord.py needs all the required ones."""
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": interaction_type,
        "token": token,
        "version": 1,
        "locale": user.locale,
        "entitlements": [],
        "attachment_size_limit": attachment_size_limit,
        "channel_id": str(channel.id),
    }
    guild = channel.guild
    if guild is not None:
        member = guild.member(user)
        payload["guild_id"] = str(guild.id)
        payload["guild"] = {"id": str(guild.id), "locale": guild.preferred_locale, "features": []}
        payload["guild_locale"] = guild.preferred_locale
        payload["member"] = member.to_payload(with_permissions=True)
        payload["channel"] = channel_payload(channel, member)
        payload["app_permissions"] = str(app_permissions)
        payload["authorizing_integration_owners"] = {"0": str(guild.id)}
        payload["context"] = 0
    else:
        payload["user"] = user.to_payload()
        payload["channel"] = channel_payload(channel, None)
        payload["app_permissions"] = str(ALL_PERMISSIONS & app_permissions)
        payload["authorizing_integration_owners"] = {"0": "0"}
        payload["context"] = 1
    return payload


@dataclass
class ResolvedBuilder:
    """Collects the ``resolved`` objects a command's user/channel/role options need."""

    guild: SimGuild | None
    users: dict[str, Any] = field(default_factory=dict)
    members: dict[str, Any] = field(default_factory=dict)
    channels: dict[str, Any] = field(default_factory=dict)
    roles: dict[str, Any] = field(default_factory=dict)

    def add_user(self, user: SimUser) -> str:
        key = str(user.id)
        self.users[key] = user.to_payload()
        if self.guild is not None and user.id in self.guild.members:
            member = self.guild.members[user.id].to_payload(with_user=False, with_permissions=True)
            self.members[key] = member
        return key

    def add_channel(self, channel: SimChannel) -> str:
        key = str(channel.id)
        self.channels[key] = {
            "id": key,
            "type": channel.type,
            "name": channel.name,
            "permissions": str(ALL_PERMISSIONS),
        }
        return key

    def add_role(self, role: SimRole) -> str:
        key = str(role.id)
        self.roles[key] = role.to_payload()
        return key

    def to_payload(self) -> dict[str, Any]:
        resolved: dict[str, Any] = {}
        for name in ("users", "members", "channels", "roles"):
            value = getattr(self, name)
            if value:
                resolved[name] = value
        return resolved


def find_command(commands: list[dict[str, Any]], path: str) -> tuple[dict[str, Any], list[str]]:
    """The synced top-level command for "name" or "group sub", and the remaining path."""
    words = path.split()
    if not words:
        raise CommandInputError("empty command name")
    for command in commands:
        if command.get("type", 1) == 1 and command["name"] == words[0]:
            return command, words[1:]
    names = sorted(c["name"] for c in commands if c.get("type", 1) == 1)
    raise CommandInputError(f"no slash command /{words[0]} is synced here; synced: {names}")


def _leaf_schema(
    command: dict[str, Any], rest: list[str]
) -> tuple[list[dict[str, Any]], list[tuple[int, str]]]:
    """Walk subcommand groups/subcommands; return leaf option schemas and the path taken."""
    schemas: list[dict[str, Any]] = command.get("options", []) or []
    taken: list[tuple[int, str]] = []
    for word in rest:
        for option in schemas:
            if option["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) and option["name"] == word:
                taken.append((option["type"], word))
                schemas = option.get("options", []) or []
                break
        else:
            raise CommandInputError(f"/{command['name']} has no subcommand {word!r} at that level")
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schemas):
        subs = [o["name"] for o in schemas if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        raise CommandInputError(f"/{command['name']} {' '.join(rest)} needs a subcommand: {subs}")
    return schemas, taken


def _convert_value(
    schema: dict[str, Any], value: Any, resolved: ResolvedBuilder, *, focused: bool
) -> Any:
    kind = schema["type"]
    name = schema["name"]
    if focused:
        # What the user has typed so far: always raw text, whatever the option's type.
        return str(value)
    if kind == STRING:
        if not isinstance(value, str):
            raise CommandInputError(f"option {name!r} takes a string, got {value!r}")
        if "min_length" in schema and len(value) < schema["min_length"]:
            raise CommandInputError(
                f"option {name!r} must be at least {schema['min_length']} characters"
            )
        if "max_length" in schema and len(value) > schema["max_length"]:
            raise CommandInputError(
                f"option {name!r} must be at most {schema['max_length']} characters"
            )
    elif kind in (INTEGER, NUMBER):
        allowed = (int,) if kind == INTEGER else (int, float)
        if isinstance(value, bool) or not isinstance(value, allowed):
            raise CommandInputError(
                f"option {name!r} takes an {OPTION_TYPE_NAMES[kind]}, got {value!r}"
            )
        if schema.get("min_value") is not None and value < schema["min_value"]:
            raise CommandInputError(f"option {name!r} must be ≥ {schema['min_value']}")
        if schema.get("max_value") is not None and value > schema["max_value"]:
            raise CommandInputError(f"option {name!r} must be ≤ {schema['max_value']}")
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise CommandInputError(f"option {name!r} takes a boolean, got {value!r}")
    elif kind == USER:
        user = value.user if isinstance(value, SimMember) else value
        if not isinstance(user, SimUser):
            raise CommandInputError(f"option {name!r} takes a user, got {value!r}")
        return resolved.add_user(user)
    elif kind == CHANNEL:
        if not isinstance(value, SimChannel):
            raise CommandInputError(f"option {name!r} takes a channel, got {value!r}")
        allowed_types = schema.get("channel_types")
        if allowed_types and value.type not in allowed_types:
            raise CommandInputError(f"option {name!r} does not accept channel type {value.type}")
        return resolved.add_channel(value)
    elif kind == ROLE:
        if not isinstance(value, SimRole):
            raise CommandInputError(f"option {name!r} takes a role, got {value!r}")
        return resolved.add_role(value)
    elif kind == MENTIONABLE:
        if isinstance(value, SimRole):
            return resolved.add_role(value)
        user = value.user if isinstance(value, SimMember) else value
        if not isinstance(user, SimUser):
            raise CommandInputError(f"option {name!r} takes a user or role, got {value!r}")
        return resolved.add_user(user)
    else:
        raise CommandInputError(
            f"option {name!r} has type {kind}, which the simulator does not send"
        )
    choices = schema.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise CommandInputError(
            f"option {name!r} must be one of {[c['value'] for c in choices]}, got {value!r}"
        )
    return value


def build_command_data(
    command: dict[str, Any],
    rest: list[str],
    values: dict[str, Any],
    *,
    guild: SimGuild | None,
    focused: str | None = None,
) -> dict[str, Any]:
    """The ``data`` of a slash command (or, with ``focused``, autocomplete) interaction."""
    schemas, taken = _leaf_schema(command, rest)
    by_name = {s["name"]: s for s in schemas}
    unknown = sorted(set(values) - set(by_name))
    if unknown:
        raise CommandInputError(
            f"/{command['name']} has no option(s) {unknown}; declared: {sorted(by_name)}"
        )
    if focused is not None:
        if focused not in by_name:
            raise CommandInputError(f"/{command['name']} has no option {focused!r}")
        if not by_name[focused].get("autocomplete"):
            raise CommandInputError(f"option {focused!r} of /{command['name']} has no autocomplete")
    else:
        missing = [s["name"] for s in schemas if s.get("required") and s["name"] not in values]
        if missing:
            raise CommandInputError(f"/{command['name']} is missing required option(s) {missing}")
    resolved = ResolvedBuilder(guild)
    leaves: list[dict[str, Any]] = []
    for schema in schemas:  # in declared order, as the Discord client sends them
        if schema["name"] not in values:
            continue
        is_focused = schema["name"] == focused
        leaf: dict[str, Any] = {
            "name": schema["name"],
            "type": schema["type"],
            "value": _convert_value(schema, values[schema["name"]], resolved, focused=is_focused),
        }
        if is_focused:
            leaf["focused"] = True
        leaves.append(leaf)
    options = leaves
    for kind, word in reversed(taken):
        options = [{"name": word, "type": kind, "options": options}]
    data: dict[str, Any] = {
        "id": command["id"],
        "name": command["name"],
        "type": 1,
        "options": options,
    }
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    resolved_payload = resolved.to_payload()
    if resolved_payload:
        data["resolved"] = resolved_payload
    return data


def check_command_allowed(command: dict[str, Any], user: SimUser, channel: SimChannel) -> None:
    """Refuse what the Discord client hides: commands needing permissions, guild-only in DMs."""
    if channel.type == DM:
        contexts = command.get("contexts")
        if (
            command.get("guild_id")
            or command.get("dm_permission") is False
            or (contexts is not None and 1 not in contexts)
        ):
            raise InteractionNotAllowed(f"/{command['name']} cannot be used in DMs")
        return
    required = command.get("default_member_permissions")
    if required is None:
        return
    assert channel.guild is not None
    member = channel.guild.member(user)
    needed = int(required)
    has = member.permissions
    if needed and (has & needed) != needed and not has & (1 << 3):
        raise InteractionNotAllowed(
            f"{user.name} lacks the permissions /{command['name']} requires ({needed:#x})"
        )


def build_modal_components(modal: SimModal, values: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``components`` of a modal submit: the modal's layout with the user's input."""
    used: set[str] = set()

    def key_of(component: dict[str, Any], label: str | None) -> str | None:
        custom_id = component.get("custom_id")
        if isinstance(custom_id, str) and custom_id in values:
            return custom_id
        name = label if label is not None else component.get("label")
        if name is not None and name in values:
            return name
        return None

    def fill(component: dict[str, Any], label: str | None) -> dict[str, Any]:
        kind = component["type"]
        if kind == ACTION_ROW:
            return {
                "type": ACTION_ROW,
                "components": [fill(c, None) for c in component["components"]],
            }
        if kind == LABEL:
            return {
                "type": LABEL,
                "component": fill(component["component"], component.get("label")),
            }
        key = key_of(component, label)
        title = label or component.get("label") or component.get("custom_id")
        if kind == TEXT_INPUT:
            if key is not None:
                used.add(key)
                text = str(values[key])
            else:
                text = component.get("value") or ""
            if component.get("required", True) and not text:
                raise InteractionNotAllowed(f"modal field {title!r} is required")
            if text and len(text) < component.get("min_length", 0):
                raise InteractionNotAllowed(
                    f"modal field {title!r} needs ≥ {component['min_length']} characters"
                )
            if len(text) > component.get("max_length", 4000):
                raise InteractionNotAllowed(
                    f"modal field {title!r} allows ≤ {component['max_length']} characters"
                )
            return {"type": TEXT_INPUT, "custom_id": component["custom_id"], "value": text}
        if kind in SELECT_TYPES:
            chosen: list[str]
            if key is not None:
                used.add(key)
                raw = values[key]
                chosen = [raw] if isinstance(raw, str) else [str(v) for v in raw]
            else:
                chosen = [o["value"] for o in component.get("options", []) if o.get("default")]
            check_select_values(component, chosen)
            return {"type": kind, "custom_id": component["custom_id"], "values": chosen}
        return dict(component)

    filled = [fill(c, None) for c in modal.components]
    unknown = sorted(set(values) - used)
    if unknown:
        names = [f.get("label") or f.get("custom_id") for f in modal.fields]
        raise InteractionNotAllowed(
            f"modal {modal.custom_id!r} has no field(s) {unknown}; fields: {names}"
        )
    return filled


def check_select_values(component: dict[str, Any], values: list[str]) -> None:
    """Refuse selections the Discord client would not allow."""
    low = component.get("min_values", 1)
    high = component.get("max_values", 1)
    if not low <= len(values) <= high:
        raise InteractionNotAllowed(
            f"select {component.get('custom_id')!r} takes {low}..{high} values, got {len(values)}"
        )
    options = component.get("options")
    if options is not None:
        allowed = [o["value"] for o in options]
        bad = [v for v in values if v not in allowed]
        if bad:
            raise InteractionNotAllowed(
                f"select {component.get('custom_id')!r} has no option(s) {bad}; options: {allowed}"
            )


def find_component(message: SimMessage, custom_id: str, kinds: tuple[int, ...]) -> dict[str, Any]:
    for component in walk_components(message.components):
        if component.get("type") in kinds and component.get("custom_id") == custom_id:
            return component
    raise InteractionNotAllowed(
        f"message {message.id} has no component {custom_id!r}; "
        f"components: {[c.get('custom_id') for c in walk_components(message.components)]}"
    )
