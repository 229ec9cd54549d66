"""What makes a channel a thread: its metadata, its members, and its payload as Discord sends it.

A public thread (channel type 11) lives under a guild text channel (its ``parent``); it is
a channel of its own for messages (``POST /channels/{thread_id}/messages``), and carries
``thread_metadata`` (archived, locked, auto-archive duration, when its archive state last
changed, when it was made) and a member list (the bot joins the threads it creates).
The REST routes and the rules that gate them are in :mod:`.thread_routes`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models import SimChannel

#: Channel types of threads (Discord API numbering).
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)
#: The durations Discord accepts for ``auto_archive_duration`` (minutes).
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
#: A thread's name: 1 to 100 characters.
NAME_MAX = 100
#: A message flag: a thread was started from this message.
HAS_THREAD_FLAG = 1 << 5
#: The system message a thread started without a message leaves in its parent channel.
THREAD_CREATED_MESSAGE = 18


def iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat()


@dataclass(eq=False)
class ThreadInfo:
    """A thread's own state (its channel is a ``SimChannel`` whose ``thread`` this is)."""

    parent: SimChannel
    owner_id: int
    auto_archive_duration: int = 1440
    archived: bool = False
    locked: bool = False
    created_at: float = field(default_factory=time.time)
    archive_changed_at: float = field(default_factory=time.time)
    #: Members by user id, with when they joined.
    members: dict[int, float] = field(default_factory=dict)
    message_count: int = 0
    total_message_sent: int = 0
    last_message_id: int | None = None
    #: The message the thread was started from (its id is the thread's), if any.
    starter_message_id: int | None = None

    def member_payload(self, thread_id: int, user_id: int) -> dict[str, Any]:
        return {
            "id": str(thread_id),
            "user_id": str(user_id),
            "join_timestamp": iso(self.members[user_id]),
            "flags": 0,
        }

    def metadata(self) -> dict[str, Any]:
        return {
            "archived": self.archived,
            "auto_archive_duration": self.auto_archive_duration,
            "archive_timestamp": iso(self.archive_changed_at),
            "locked": self.locked,
            "create_timestamp": iso(self.created_at),
        }


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
