"""The delivery wing's own record store: what the Discord layer keeps of what it sent.

The match service knows nothing of messages. What the Discord layer must find again after
a restart, or learn from another process, is kept here, in the same database but through
calls of its own (:class:`RecordRepository`, which the core's storage provides) rather
than through the match service:

- a match's message ids by kind (``board``, ``lobby``, ``table``, ``hand:<user>``) and its
  delivery records (``delivered`` for a whole step, ``delivered:channel`` and
  ``delivered:<user>`` for its parts, versions that only grow), written with
  :meth:`DeliveryRecords.set`;
- the lines a Leiff table's living message shows, and that message's id;
- the channel message that shows a challenge (edited when it expires);
- the members whose DMs Discord refused, and the tables told so;
- the matches a start must send again (:meth:`DeliveryRecords.behind`): those with an
  outbox row of the chat front end that these records have not reached.

The records are read with their match (``MatchInfo.messages``, in the statements that read
the match anyway: no statement more a move); everything else is read and written here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from matchcore.records import DmFailure
from matchcore.storage.records import MatchRecord

# Recorded with the match's messages: the last version whose messages all went out.
DELIVERED = "delivered"
# ... the version the channel message shows, and the version a player's private one shows
# (only where they are ahead of "delivered").
CHANNEL_SHOWS = "delivered:channel"


def private_shows(user_id: int) -> str:
    """The record of the version a player's private message shows."""
    return f"delivered:{user_id}"


def has_records(messages: Mapping[str, int]) -> bool:
    """Whether any delivery record was kept for the match (none before they existed)."""
    return any(kind == DELIVERED or kind.startswith(f"{DELIVERED}:") for kind in messages)


class RecordRepository(Protocol):
    """The storage calls the record store makes (``matchcore.storage``'s repository)."""

    async def set_messages(self, match_id: int, messages: Mapping[str, int]) -> bool: ...
    async def table_lines(self, match_id: int) -> tuple[int, list[str]] | None: ...
    async def set_table_lines(
        self, match_id: int, message_id: int, lines: Sequence[str]
    ) -> None: ...
    async def set_challenge_message(self, challenge_id: int, message_id: int | None) -> None: ...
    async def dm_failures(self, user_ids: Iterable[int]) -> dict[int, DmFailure]: ...
    async def record_dm_failure(self, user_id: int, at: float, code: int | None = None) -> None: ...
    async def claim_dm_notice(self, user_id: int, match_id: int) -> bool: ...
    async def clear_dm_failure(self, user_id: int) -> None: ...
    async def undelivered_matches(self, after: int = 0, limit: int = 100) -> list[MatchRecord]: ...


@dataclass(frozen=True)
class Behind:
    """A match whose last step may not all have gone out: what a start needs of it."""

    match_id: int
    guild_id: int
    version: int
    user_ids: tuple[int, ...]
    records: dict[str, int] = field(default_factory=dict)


class DeliveryRecords:
    """Message ids, delivery records, a living table's lines, refused DMs. Made with the
    delivery, bound to the database once the client has opened it (:meth:`bind`)."""

    def __init__(self) -> None:
        self._repo: RecordRepository | None = None
        self.clock: Callable[[], float] = lambda: 0.0

    def bind(self, repo: RecordRepository, clock: Callable[[], float]) -> None:
        """Keep the records in ``repo``; ``clock``: the service's (a refusal's time)."""
        self._repo = repo
        self.clock = clock

    @property
    def repo(self) -> RecordRepository:
        if self._repo is None:
            raise RuntimeError("the delivery records are bound in the client's setup_hook")
        return self._repo

    async def set(self, match_id: int, records: Mapping[str, int]) -> bool:
        """Record message ids and delivery records by kind, in one statement (a delivery
        record never goes back); False when the match is gone (nothing written)."""
        return await self.repo.set_messages(match_id, records)

    async def table_lines(self, match_id: int) -> tuple[int, list[str]] | None:
        """The public event lines a Leiff table's living message shows, with its id."""
        return await self.repo.table_lines(match_id)

    async def set_table_lines(self, match_id: int, message_id: int, lines: Sequence[str]) -> None:
        await self.repo.set_table_lines(match_id, message_id, lines)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """The channel message that shows a challenge, so whichever process sees it expire
        edits that message (``ChallengeInfo.message_id``)."""
        await self.repo.set_challenge_message(challenge_id, message_id)

    # ---- refused DMs (every process must know them) ------------------------------------
    async def dm_failures(self, user_ids: Iterable[int]) -> dict[int, DmFailure]:
        """Of these users, those whose DMs refused the bot: when, and the tables told so."""
        return await self.repo.dm_failures(user_ids)

    async def note_dm_failure(self, user_id: int, code: int | None = None) -> None:
        """A DM to the user was refused (Discord's ``code``, e.g. 50007)."""
        await self.repo.record_dm_failure(user_id, self.clock(), code)

    async def claim_dm_notice(self, user_id: int, match_id: int) -> bool:
        """Whether this table's channel is still to be told that the user's DMs are closed
        (True once per table while the refusal lasts, across processes)."""
        return await self.repo.claim_dm_notice(user_id, match_id)

    async def note_dm_delivered(self, user_id: int) -> None:
        """A DM reached the user: forget an earlier refusal and the tables told of it."""
        await self.repo.clear_dm_failure(user_id)

    # ---- after a start -------------------------------------------------------------------
    async def behind(self, after: int = 0, limit: int = 100) -> list[Behind]:
        """Matches (finished ones included) whose outbox row of the chat front end these
        records have not reached, ids above ``after`` in id order, at most ``limit``: a
        start pages through them (an indexed read of the outbox; no state is parsed)."""
        return [
            Behind(
                match_id=record.id,
                guild_id=record.guild_id,
                version=record.version,
                user_ids=tuple(s.user_id for s in record.seats if s.user_id is not None),
                records=dict(record.messages),
            )
            for record in await self.repo.undelivered_matches(after, limit)
        ]
