"""The simulator's world: users, guilds, channels, members and the messages the bot sent.

Everything here is plain data kept by the simulator between bot restarts. Each model knows
how to render itself as the JSON payload Discord would send (``to_payload``), so the server
and the interaction builder never hand-assemble those shapes twice. Tests read these objects
directly: ``channel.messages[-1].buttons[0].custom_id``, ``message.attachments[0].data``.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from .thread_model import HAS_THREAD_FLAG, ThreadInfo

DISCORD_EPOCH_MS = 1_420_070_400_000

# Channel types (Discord API numbering).
GUILD_TEXT = 0
DM = 1

# Permission bits the bot and tests care about.
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_CHANNELS = 1 << 4
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38

#: What an ordinary member may do in a text channel.
MEMBER_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | ADD_REACTIONS
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
)
#: Everything, as Discord reports it for an administrator.
ALL_PERMISSIONS = (1 << 53) - 1

EPHEMERAL_FLAG = 1 << 6
#: IS_COMPONENTS_V2: the message's components are laid out freely (up to 40), not in rows.
COMPONENTS_V2_FLAG = 1 << 15

# Component types.
ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8
LABEL = 18
SELECT_TYPES = (STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT)


class SnowflakeFactory:
    """Makes Discord-shaped ids: milliseconds since 2015 in the top bits, a counter below.

    Ids made later are always larger, like Discord's, so sorting by id sorts by time.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last = 0

    def next(self) -> int:
        with self._lock:
            candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
            self._last = max(candidate, self._last + 1)
            return self._last

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A new id whose guild would live on ``shard_id`` of ``shard_count``
        (``(id >> 22) % shard_count == shard_id``), still larger than every earlier id."""
        with self._lock:
            stamp = max((int(time.time() * 1000) - DISCORD_EPOCH_MS), (self._last >> 22) + 1)
            stamp += (shard_id - stamp) % shard_count
            self._last = stamp << 22
            return self._last


@dataclass(eq=False)
class SimUser:
    """A Discord account: a person or the bot itself."""

    id: int
    name: str
    global_name: str | None = None
    bot: bool = False
    #: False makes every DM the bot sends this user fail with 403 / code 50007.
    dms_open: bool = True
    #: The language of the user's Discord client, sent with each of their interactions.
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.global_name or self.name

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }

    def __repr__(self) -> str:
        return f"SimUser({self.name!r}, id={self.id})"


@dataclass(eq=False)
class SimRole:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    name: str
    permissions: int
    position: int = 0

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass(eq=False)
class SimMember:
    """A user's membership of one guild, with the permissions interactions report."""

    user: SimUser
    guild: SimGuild
    permissions: int = MEMBER_PERMISSIONS
    nick: str | None = None
    roles: list[SimRole] = field(default_factory=list)
    joined_at: str = "2025-01-01T00:00:00+00:00"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def manage_guild(self) -> bool:
        return bool(self.permissions & (MANAGE_GUILD | ADMINISTRATOR))

    def to_payload(
        self, *, with_user: bool = True, with_permissions: bool = False
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "roles": [str(role.id) for role in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "premium_since": None,
            "communication_disabled_until": None,
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
        }
        if with_user:
            payload["user"] = self.user.to_payload()
        if with_permissions:
            payload["permissions"] = str(self.permissions)
        return payload


@dataclass(eq=False)
class SimAttachment:
    """A file the bot uploaded, kept as bytes so tests can open it (e.g. with Pillow)."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    spoiler: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    def to_payload(self, base_url: str) -> dict[str, Any]:
        url = f"{base_url}/attachments/{self.id}/{self.filename}"
        payload: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": url,
            "proxy_url": url,
        }
        if self.content_type:
            payload["content_type"] = self.content_type
        if self.description:
            payload["description"] = self.description
        return payload


@dataclass(frozen=True)
class SimButton:
    """One button as rendered on a message."""

    custom_id: str | None
    label: str | None
    style: int
    disabled: bool
    url: str | None = None
    emoji: str | None = None


@dataclass(frozen=True)
class SimSelectOption:
    label: str
    value: str
    description: str | None = None
    default: bool = False


@dataclass(frozen=True)
class SimSelect:
    """One select menu as rendered on a message (string selects carry options)."""

    custom_id: str
    type: int
    options: tuple[SimSelectOption, ...]
    placeholder: str | None
    min_values: int
    max_values: int
    disabled: bool

    @property
    def values(self) -> list[str]:
        return [option.value for option in self.options]


def walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every interactive component inside rows, labels, sections and containers, in order."""
    found: list[dict[str, Any]] = []
    for component in components:
        kind = component.get("type")
        if kind in (BUTTON, TEXT_INPUT, *SELECT_TYPES):
            found.append(component)
        if "components" in component:
            found.extend(walk_components(component["components"]))
        if "component" in component:
            found.extend(walk_components([component["component"]]))
        if "accessory" in component:
            found.extend(walk_components([component["accessory"]]))
    return found


def walk_component_paths(
    components: list[dict[str, Any]], at: tuple[str | int, ...]
) -> list[tuple[tuple[str | int, ...], dict[str, Any]]]:
    """``walk_components`` with where each one is (``("components", 0, "components", 2)``)."""
    found: list[tuple[tuple[str | int, ...], dict[str, Any]]] = []

    def visit(component: dict[str, Any], here: tuple[str | int, ...]) -> None:
        if component.get("type") in (BUTTON, TEXT_INPUT, *SELECT_TYPES):
            found.append((here, component))
        for number, child in enumerate(component.get("components") or []):
            visit(child, (*here, "components", number))
        for key in ("component", "accessory"):
            if isinstance(component.get(key), dict):
                visit(component[key], (*here, key))

    for number, component in enumerate(components):
        visit(component, (*at, number))
    return found


def count_components(components: list[dict[str, Any]]) -> int:
    """Every component, rows, sections, containers and their children included (Components
    v2 allows 40 in one message)."""
    total = 0
    for component in components:
        total += 1 + count_components(component.get("components") or [])
        for key in ("component", "accessory"):
            if isinstance(component.get(key), dict):
                total += count_components([component[key]])
    return total


def number_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The components with Discord's numeric ``id`` on each (rows, buttons, selects,
    sections...): kept where the bot gave one, otherwise numbered in order from 1 as Discord
    fills them in. Changes the dicts in place (they are a request's own)."""
    taken: set[int] = set()
    order: list[dict[str, Any]] = []

    def visit(component: dict[str, Any]) -> None:
        order.append(component)
        if isinstance(component.get("id"), int):
            taken.add(component["id"])
        for child in component.get("components") or []:
            visit(child)
        for key in ("component", "accessory"):
            if isinstance(component.get(key), dict):
                visit(component[key])

    for component in components:
        visit(component)
    number = 0
    for component in order:
        if not isinstance(component.get("id"), int):
            number += 1
            while number in taken:
                number += 1
            component["id"] = number
    return components


#: What Discord fills in for a field a bot left out, by component type (its answers carry
#: every one of them: the contract's *ComponentResponse schemas require them).
COMPONENT_DEFAULTS: dict[int, dict[str, Any]] = {
    **{kind: {"min_values": 1, "max_values": 1} for kind in (3, 5, 6, 7, 8)},
    11: {"description": None, "spoiler": False},  # thumbnail
    14: {"spacing": 1, "divider": True},  # separator
    17: {"accent_color": None, "spoiler": False},  # container
}


def complete_components(
    components: list[dict[str, Any]], attachments: list[SimAttachment], base_url: str
) -> list[dict[str, Any]]:
    """The components as Discord answers with them: numbered (``number_components``), the
    fields a bot may leave out filled in, and media given as ``attachment://name`` resolved
    to the message's uploaded file (its URL, id, type and size). In place."""
    number_components(components)
    by_name = {a.filename: a for a in attachments}

    def media(item: dict[str, Any]) -> dict[str, Any]:
        url = str(item.get("url", ""))
        attachment = by_name.get(url.removeprefix("attachment://"))
        if url.startswith("attachment://") and attachment is not None:
            resolved = attachment.to_payload(base_url)
            item.update(
                id=resolved["id"],
                url=resolved["url"],
                proxy_url=resolved["proxy_url"],
                attachment_id=resolved["id"],
            )
            if attachment.content_type:
                item["content_type"] = attachment.content_type
        else:
            item.setdefault("id", "0")
            item.setdefault("proxy_url", url)
        return item

    def visit(component: dict[str, Any]) -> None:
        for key, value in COMPONENT_DEFAULTS.get(component.get("type", 0), {}).items():
            component.setdefault(key, value)
        if isinstance(component.get("media"), dict):
            media(component["media"])
        for item in component.get("items") or []:  # a media gallery's
            item.setdefault("description", None)
            item.setdefault("spoiler", False)
            if isinstance(item.get("media"), dict):
                media(item["media"])
        if component.get("type") == 13 and isinstance(component.get("file"), dict):
            named = by_name.get(str(component["file"].get("url", "")).removeprefix("attachment://"))
            media(component["file"])
            component.setdefault("spoiler", False)
            if named is not None:
                component.setdefault("name", named.filename)
                component.setdefault("size", named.size)
        for child in component.get("components") or []:
            visit(child)
        for key in ("component", "accessory"):
            if isinstance(component.get(key), dict):
                visit(component[key])

    for component in components:
        visit(component)
    return components


def all_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component of a tree (rows, sections, containers, accessories), in order."""
    found: list[dict[str, Any]] = []
    for component in components:
        found.append(component)
        found.extend(all_components(component.get("components") or []))
        if isinstance(component.get("accessory"), dict):
            found.extend(all_components([component["accessory"]]))
    return found


def _emoji_text(emoji: dict[str, Any] | None) -> str | None:
    if not emoji:
        return None
    return emoji.get("name")


@dataclass(frozen=True)
class MessageRevision:
    """What a message looked like before one edit."""

    content: str | None
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: tuple[SimAttachment, ...]
    edited_at: float


@dataclass(eq=False)
class SimMessage:
    """A message in a channel or DM, as the simulator stored it (with its edit history)."""

    id: int
    channel: SimChannel
    author: SimUser
    content: str | None = None
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[SimAttachment] = field(default_factory=list)
    flags: int = 0
    allowed_mentions: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    #: The interaction whose response or followup this is (None for plain channel sends).
    interaction_id: int | None = None
    #: For ephemeral messages, the only user who can see them.
    visible_to: SimUser | None = None
    type: int = 0
    webhook_id: int | None = None
    tts: bool = False
    created_at: float = field(default_factory=time.time)
    edited_at: float | None = None
    history: list[MessageRevision] = field(default_factory=list)
    deleted: bool = False
    #: The nonce it was created with (Discord echoes it in the create response only).
    nonce: str | int | None = None
    #: The thread started from this message (its id is the message's), if any.
    thread: SimChannel | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL_FLAG)

    @property
    def edited(self) -> bool:
        return bool(self.history)

    @property
    def buttons(self) -> list[SimButton]:
        return [
            SimButton(
                custom_id=c.get("custom_id"),
                label=c.get("label"),
                style=c.get("style", 1),
                disabled=bool(c.get("disabled", False)),
                url=c.get("url"),
                emoji=_emoji_text(c.get("emoji")),
            )
            for c in walk_components(self.components)
            if c["type"] == BUTTON
        ]

    @property
    def selects(self) -> list[SimSelect]:
        return [
            SimSelect(
                custom_id=c["custom_id"],
                type=c["type"],
                options=tuple(
                    SimSelectOption(
                        label=o["label"],
                        value=o["value"],
                        description=o.get("description"),
                        default=bool(o.get("default", False)),
                    )
                    for o in c.get("options", [])
                ),
                placeholder=c.get("placeholder"),
                min_values=c.get("min_values", 1),
                max_values=c.get("max_values", 1),
                disabled=bool(c.get("disabled", False)),
            )
            for c in walk_components(self.components)
            if c["type"] in SELECT_TYPES
        ]

    def button(self, key: str) -> SimButton:
        """The button whose custom id or label is ``key`` (custom ids win)."""
        for button in self.buttons:
            if button.custom_id == key:
                return button
        for button in self.buttons:
            if button.label == key:
                return button
        labels = [(b.label, b.custom_id) for b in self.buttons]
        raise LookupError(f"message {self.id} has no button {key!r}; buttons: {labels}")

    def select(self, custom_id: str | None = None) -> SimSelect:
        """The select menu with this custom id (or the only one when None)."""
        selects = self.selects
        if custom_id is None and len(selects) == 1:
            return selects[0]
        for select in selects:
            if select.custom_id == custom_id:
                return select
        raise LookupError(
            f"message {self.id} has no select {custom_id!r}; selects: {[s.custom_id for s in selects]}"
        )

    @property
    def embed_text(self) -> str:
        """Titles, descriptions, field names/values and footers of all embeds, joined."""
        parts: list[str] = []
        for embed in self.embeds:
            parts.extend(str(embed[key]) for key in ("title", "description") if embed.get(key))
            for embed_field in embed.get("fields", []):
                parts.extend((str(embed_field.get("name", "")), str(embed_field.get("value", ""))))
            footer = embed.get("footer") or {}
            if footer.get("text"):
                parts.append(str(footer["text"]))
        return "\n".join(parts)

    @property
    def text(self) -> str:
        """Content, embed text and the text displays of Components v2 (sections' too), in
        order: what a reader of the message sees as words."""
        parts = (self.content or "", self.embed_text, *self.texts)
        return "\n".join(part for part in parts if part)

    # ---- Components v2 (the message flag 1 << 15): the components are the message ----
    @property
    def is_v2(self) -> bool:
        return bool(self.flags & COMPONENTS_V2_FLAG)

    @property
    def texts(self) -> list[str]:
        """The words of every text display, in order (a v2 message has no content)."""
        return [c["content"] for c in all_components(self.components) if c.get("type") == 10]

    @property
    def containers(self) -> list[dict[str, Any]]:
        """The message's containers (type 17), outermost first."""
        return [c for c in all_components(self.components) if c.get("type") == 17]

    @property
    def accent_color(self) -> int | None:
        """The accent colour of the message's first container (None: none, or no colour)."""
        boxes = self.containers
        return boxes[0].get("accent_color") if boxes else None

    @property
    def sections(self) -> list[dict[str, Any]]:
        return [c for c in all_components(self.components) if c.get("type") == 9]

    @property
    def component_count(self) -> int:
        """Every component, nested ones counted (Discord allows 40 with the v2 flag)."""
        return sum(1 for _ in all_components(self.components))

    @property
    def gallery_pictures(self) -> list[SimAttachment]:
        """The uploaded files the message's media galleries and thumbnails show, in order
        (a v2 message shows no attachment that no component names)."""
        found = []
        for component in all_components(self.components):
            items = component.get("items") or []
            if component.get("type") == 11:
                items = [component]
            for item in items:
                attachment = self.attachment_of(str((item.get("media") or {}).get("url", "")))
                if attachment is not None:
                    found.append(attachment)
        return found

    def attachment_of(self, url: str) -> SimAttachment | None:
        """The file a media URL names: ``attachment://name``, or the file's own URL."""
        for attachment in self.attachments:
            if url == f"attachment://{attachment.filename}" or url.endswith(
                f"/attachments/{attachment.id}/{attachment.filename}"
            ):
                return attachment
        return None

    @property
    def pinged_user_ids(self) -> set[int]:
        """Users this message notifies: mentioned in the content (or a v2 message's text
        displays) and allowed by allowed_mentions."""
        words = "\n".join((self.content or "", *self.texts))
        mentioned = {int(found) for found in re.findall(r"<@!?(\d+)>", words)}
        allowed = self.allowed_mentions
        if allowed is None or "users" in (allowed.get("parse") or []):
            return mentioned  # no allowed_mentions: Discord pings every mention
        return mentioned & {int(user_id) for user_id in allowed.get("users") or []}

    @property
    def pings_everyone(self) -> bool:
        """Whether an @everyone / @here in the content (or text displays) would notify the
        channel."""
        words = "\n".join((self.content or "", *self.texts))
        if "@everyone" not in words and "@here" not in words:
            return False
        allowed = self.allowed_mentions
        return allowed is None or "everyone" in (allowed.get("parse") or [])

    def is_visible_to(self, user: SimUser) -> bool:
        """Whether ``user`` can see this message (ephemeral ones only their recipient)."""
        if self.deleted:
            return False
        if self.visible_to is not None:
            return self.visible_to.id == user.id
        if self.channel.type == DM:
            return self.channel.recipient is not None and self.channel.recipient.id == user.id
        return True

    def snapshot(self) -> MessageRevision:
        return MessageRevision(
            content=self.content,
            embeds=_json_copy(self.embeds),
            components=_json_copy(self.components),
            attachments=tuple(self.attachments),
            edited_at=self.edited_at or self.created_at,
        )

    def to_payload(self, base_url: str, *, copy_parts: bool = True) -> dict[str, Any]:
        """The message as Discord sends it. ``copy_parts=False`` shares the embed and
        component dicts with the stored message: only for a payload encoded at once."""
        channel = self.channel
        payload: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "channel_id": str(channel.id),
            "author": self.author.to_payload(),
            "content": self.content or "",
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.to_payload(base_url) for a in self.attachments],
            "embeds": _json_copy(self.embeds) if copy_parts else self.embeds,
            "components": _json_copy(self.components) if copy_parts else self.components,
            "pinned": False,
            "flags": self.flags,
            "timestamp": _iso(self.created_at),
            "edited_timestamp": _iso(self.edited_at) if self.edited_at else None,
        }
        if channel.guild is not None:
            payload["guild_id"] = str(channel.guild.id)
        if self.webhook_id is not None:
            payload["webhook_id"] = str(self.webhook_id)
        if self.message_reference is not None:
            payload["message_reference"] = dict(self.message_reference)
        if self.thread is not None:
            payload["thread"] = thread_payload(self.thread)
            payload["flags"] = self.flags | HAS_THREAD_FLAG
        return payload

    def __repr__(self) -> str:
        flags = " ephemeral" if self.ephemeral else ""
        if self.is_v2:
            return f"SimMessage(id={self.id}, channel={self.channel.name!r}{flags}, v2 text={self.text!r})"
        return f"SimMessage(id={self.id}, channel={self.channel.name!r}{flags}, content={self.content!r})"


def _json_copy(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A deep copy of embeds or components (JSON as the bot sent it): through the JSON
    codec, several times faster than ``copy.deepcopy``."""
    return json.loads(json.dumps(parts)) if parts else []


@functools.lru_cache(maxsize=4096)  # a message's times are sent with every payload of it
def _iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat()


@dataclass(eq=False)
class SimChannel:
    """A guild text channel or a DM channel, holding every message sent in it."""

    id: int
    name: str
    type: int
    guild: SimGuild | None = None
    recipient: SimUser | None = None
    position: int = 0
    all_messages: list[SimMessage] = field(default_factory=list)
    #: For a thread: its parent, owner, archive state and members (None for other channels).
    thread: ThreadInfo[SimChannel] | None = None

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def is_thread(self) -> bool:
        return self.thread is not None

    @property
    def parent(self) -> SimChannel | None:
        """A thread's channel (None for other channels)."""
        return self.thread.parent if self.thread is not None else None

    @property
    def archived(self) -> bool:
        return self.thread is not None and self.thread.archived

    @property
    def locked(self) -> bool:
        return self.thread is not None and self.thread.locked

    @property
    def threads(self) -> list[SimChannel]:
        """The threads under this channel, oldest first (archived ones included)."""
        if self.guild is None:
            return []
        return [t for t in self.guild.threads if t.parent is self]

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def messages(self) -> list[SimMessage]:
        """Messages not deleted, oldest first (ephemeral ones included: check ``visible_to``)."""
        return [m for m in self.all_messages if not m.deleted]

    @property
    def public_messages(self) -> list[SimMessage]:
        """Messages everyone in the channel can see (not deleted, not ephemeral)."""
        return [m for m in self.messages if m.visible_to is None]

    @property
    def last_message(self) -> SimMessage | None:
        messages = self.messages
        return messages[-1] if messages else None

    def messages_visible_to(self, user: SimUser) -> list[SimMessage]:
        return [m for m in self.all_messages if m.is_visible_to(user)]

    def to_payload(self) -> dict[str, Any]:
        if self.thread is not None:
            return thread_payload(self)
        if self.type == DM:
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": None,
                "recipients": [self.recipient.to_payload()] if self.recipient else [],
                "flags": 0,
            }
        assert self.guild is not None
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }

    def __repr__(self) -> str:
        return f"SimChannel({self.name!r}, id={self.id}, type={self.type})"


def thread_payload(channel: SimChannel, *, member_of: int | None = None) -> dict[str, Any]:
    """A thread as Discord sends it (``ThreadResponse``); ``member_of``: the user whose
    thread member object is included when they are a member (the bot's, in THREAD_CREATE)."""
    info = channel.thread
    assert info is not None and channel.guild is not None
    payload: dict[str, Any] = {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(channel.guild.id),
        "parent_id": str(info.parent.id),
        "owner_id": str(info.owner_id),
        "name": channel.name,
        "last_message_id": str(info.last_message_id) if info.last_message_id else None,
        "rate_limit_per_user": 0,
        "flags": 0,
        "message_count": info.message_count,
        "member_count": min(len(info.members), 50),
        "total_message_sent": info.total_message_sent,
        "thread_metadata": info.metadata(),
    }
    if member_of is not None and member_of in info.members:
        payload["member"] = info.member_payload(channel.id, member_of)
    return payload


class GuildOwner(Protocol):
    """What a guild asks of the simulator's state that owns it (``SimState``, which builds
    on these models): new channels and members are made, and announced, there."""

    def add_text_channel(self, guild: SimGuild, name: str) -> SimChannel: ...

    def add_member(
        self,
        guild: SimGuild,
        user: SimUser,
        *,
        manage_guild: bool = False,
        administrator: bool = False,
        nick: str | None = None,
    ) -> SimMember: ...


@dataclass(eq=False)
class SimGuild:
    """A server with text channels, roles and members."""

    id: int
    name: str
    owner: SimUser
    #: The ``SimState`` that owns this guild (new channels and members go through it).
    state: GuildOwner | None = field(repr=False, default=None)
    channels: list[SimChannel] = field(default_factory=list)
    members: dict[int, SimMember] = field(default_factory=dict)
    roles: list[SimRole] = field(default_factory=list)
    #: Threads under its text channels, oldest first (archived ones too).
    threads: list[SimChannel] = field(default_factory=list)
    #: The server's language (its community "preferred locale"), in GUILD_CREATE and in
    #: every interaction from it.
    preferred_locale: str = "en-US"

    @property
    def text_channels(self) -> list[SimChannel]:
        return [c for c in self.channels if c.type == GUILD_TEXT]

    def channel(self, name: str) -> SimChannel:
        for channel in self.channels:
            if channel.name == name:
                return channel
        raise LookupError(f"guild {self.name!r} has no channel {name!r}")

    def member(self, user: SimUser | int) -> SimMember:
        user_id = user if isinstance(user, int) else user.id
        try:
            return self.members[user_id]
        except KeyError:
            raise LookupError(f"user {user_id} is not a member of guild {self.name!r}") from None

    def _state(self) -> GuildOwner:
        if self.state is None:
            raise RuntimeError(f"guild {self.name!r} belongs to no simulator state")
        return self.state

    def add_text_channel(self, name: str) -> SimChannel:
        """Create a text channel (announced to connected bots)."""
        return self._state().add_text_channel(self, name)

    def add_member(
        self,
        user: SimUser,
        *,
        manage_guild: bool = False,
        administrator: bool = False,
        nick: str | None = None,
    ) -> SimMember:
        """Make ``user`` a member; ``manage_guild`` grants the Manage Server permission."""
        return self._state().add_member(
            self, user, manage_guild=manage_guild, administrator=administrator, nick=nick
        )

    def to_payload(self) -> dict[str, Any]:
        members = [m.to_payload() for m in self.members.values()]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.to_payload() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": self.preferred_locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "home_header": None,
            "region": "deprecated",
            "widget_enabled": False,
            "widget_channel_id": None,
            "max_presences": None,
            "max_members": 250000,
            "max_stage_video_channel_users": 50,
            "max_video_channel_users": 25,
            "premium_subscription_count": 0,
            "safety_alerts_channel_id": None,
            "nsfw": False,
            "incidents_data": None,
            "unavailable": False,
            "large": False,
            "member_count": len(members),
            "members": members,
            "channels": [c.to_payload() for c in self.channels],
            # the active threads (Discord leaves archived ones out)
            "threads": [thread_payload(t) for t in self.threads if not t.archived],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "joined_at": "2025-01-01T00:00:00+00:00",
        }

    def __repr__(self) -> str:
        return f"SimGuild({self.name!r}, id={self.id})"


_counter = itertools.count(1)


def fresh_token() -> str:
    """An interaction token: unique and opaque, like Discord's."""
    return f"sim-interaction-token-{next(_counter)}-{time.monotonic_ns():x}"
