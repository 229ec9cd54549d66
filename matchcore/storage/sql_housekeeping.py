"""The SQL of housekeeping: chores that one process at a time claims, and pruning by age.

A table is pruned a window at a time: the next ``limit`` keys in order (a match id, a user
id, a challenge id), of whose rows those its retention lets go are deleted in the same
transaction. A pass walks each table once from its start, so its cost is the
size of what is kept (after the first pass, recent rows only), never the whole history
again, and each transaction is short enough for moves to go on between two windows.
A group of queries of :class:`matchcore.storage.sql.SqlRepository` over a back end's
:class:`matchcore.storage.sql_access.SqlAccess`.
"""

from __future__ import annotations

from matchcore.storage.sql_access import SqlAccess, in_list

# The smallest key a window starts after (every id is above it; PostgreSQL's BIGINT floor).
FIRST_KEY = -(2**63)

# What each prunable table is walked by, and which of its rows go: each condition has one
# placeholder, the time before which the row is old enough (see docs/service.md).
_MATCH_ENDED = (
    "EXISTS (SELECT 1 FROM matches m WHERE m.id = {table}.match_id "
    "AND m.finished_at IS NOT NULL AND m.finished_at <= ?)"
)
# An outbox row whose audience has been shown its version (docs/service.md, "The
# outbox"): the record 'delivered:<audience>' has reached it, or for the chat front end's
# audiences (no prefix) the whole step's delivered_version on the match row.
_OUTBOX_DELIVERED = (
    "(version <= COALESCE((SELECT r.message_id FROM match_messages r "
    "WHERE r.match_id = outbox.match_id AND r.kind = 'delivered:' || outbox.audience), -1) "
    "OR ((outbox.audience = 'channel' OR outbox.audience NOT LIKE '%:%') "
    "AND version <= COALESCE((SELECT m.delivered_version FROM matches m "
    "WHERE m.id = outbox.match_id), -1)))"
)
# The member is seated at no running match and no open lobby.
_SEATED_NOWHERE = (
    "NOT EXISTS (SELECT 1 FROM match_seats s JOIN matches m "
    "ON m.id = s.match_id WHERE s.user_id = {table}.user_id "
    "AND m.status IN ('lobby', 'running'))"
)
PRUNE_RULES: dict[str, tuple[str, str]] = {
    # delivered, whatever its age; undelivered only once its match ended long ago (walked
    # before match_messages: its rows are judged by those records)
    "outbox": ("match_id", f"({_OUTBOX_DELIVERED} OR {_MATCH_ENDED.format(table='outbox')})"),
    # expired, declined, withdrawn (cancelled) or accepted: the match keeps what was agreed
    "challenges": ("id", "status <> 'open' AND expires_at <= ?"),
    # message ids, delivery records, a table's event lines and DM notices of ended matches
    "match_messages": ("match_id", _MATCH_ENDED.format(table="match_messages")),
    "table_lines": ("match_id", _MATCH_ENDED.format(table="table_lines")),
    "dm_notices": ("match_id", _MATCH_ENDED.format(table="dm_notices")),
    # not seen for long, and not seated at a running match or an open lobby
    "member_languages": (
        "user_id",
        "seen_at <= ? AND " + _SEATED_NOWHERE.format(table="member_languages"),
    ),
    # a refusal of DMs long ago, of a member seated at no running match or open lobby: the
    # delivery and redelivery of a table's hands read it (retry or not, the channel's
    # notice once) only while the member plays; a later table tries their DMs afresh
    "dm_failures": ("user_id", "failed_at <= ? AND " + _SEATED_NOWHERE.format(table="dm_failures")),
    # nothing chosen (no hints, theme or turn DMs chosen, no vacation): the same as no row
    "member_preferences": (
        "user_id",
        "hints IS NULL AND theme IS NULL AND turn_dms IS NULL AND vacation_until IS NULL "
        "AND updated_at <= ?",
    ),
}


class HousekeepingQueries(SqlAccess):
    """Chores claimed with a lease, and pruning a window at a time."""

    async def claim_chore(
        self, name: str, owner: str, lease_now: float, lease_until: float, due_by: float
    ) -> bool:
        # Claimed when nobody else holds a live lease and the last pass finished at or
        # before due_by; the owner renews its own lease while its pass runs.
        changed = await self._write(
            "INSERT INTO chores(name, claimed_by, claimed_until) VALUES (?, ?, ?) "
            "ON CONFLICT(name) DO UPDATE SET claimed_by = excluded.claimed_by, "
            "claimed_until = excluded.claimed_until "
            "WHERE (chores.claimed_until IS NULL OR chores.claimed_until <= ? "
            "OR chores.claimed_by = ?) AND (chores.done_at IS NULL OR chores.done_at <= ?)",
            (name, owner, float(lease_until), float(lease_now), owner, float(due_by)),
        )
        return changed == 1

    async def finish_chore(self, name: str, owner: str, done_at: float) -> bool:
        changed = await self._write(
            "UPDATE chores SET done_at = ?, claimed_by = NULL, claimed_until = NULL "
            "WHERE name = ? AND claimed_by = ?",
            (float(done_at), name, owner),
        )
        return changed == 1

    async def prune_window(
        self, table: str, after: int, before: float, limit: int
    ) -> tuple[int, int | None]:
        key, goes = PRUNE_RULES[table]
        async with self._transaction() as tx:
            rows = await tx.fetch(
                f"SELECT DISTINCT {key} FROM {table} WHERE {key} > ? ORDER BY {key} LIMIT ?",
                (after, limit),
            )
            if not rows:
                return 0, None
            # The window's own keys, not a range: each is one probe of the key's index,
            # whatever plan a statement prepared long ago (PostgreSQL's generic plans)
            # would choose for a range of unknown width.
            keys = [int(row[0]) for row in rows]
            sql, values = in_list(keys)
            deleted = await tx.execute(
                f"DELETE FROM {table} WHERE {key} IN ({sql}) AND {goes}",
                (*values, float(before)),
            )
        return deleted, keys[-1]
