"""What makes a channel a thread: its metadata, its members, Discord's thread constants.

A public thread (channel type 11) lives under a guild text channel (its ``parent``); it is
a channel of its own for messages (``POST /channels/{thread_id}/messages``), and carries
``thread_metadata`` (archived, locked, auto-archive duration, when its archive state last
changed, when it was made) and a member list (the bot joins the threads it creates).
The REST routes and the rules that gate them are in :mod:`.thread_routes`; a thread's
payload is built in :mod:`.models` (``thread_payload``), where its channel is.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

#: The channel a thread lives under (``SimChannel`` in :mod:`.models`, which builds on
#: this module and so is not imported here).
ParentT = TypeVar("ParentT")

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
class ThreadInfo(Generic[ParentT]):
    """A thread's own state (its channel is a ``SimChannel`` whose ``thread`` this is)."""

    parent: ParentT
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
