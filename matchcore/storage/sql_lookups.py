"""The queries of the server-wide lookups: a channel's matches and a server's newest ones.

Written apart so that the repository runs them and the tests ``EXPLAIN`` exactly them
(``tests/storage/test_lookup_plans.py``): with hundreds of thousands of matches, a lookup
that reads every running match of a server costs tens of milliseconds where an index
answers in a fraction of one (issue 31). Each returns the ``WHERE ...`` tail of
:func:`matchcore.storage.sql.match_query` and its parameters.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from matchcore.storage.sql_access import in_list

NEWEST_FIRST = " ORDER BY updated_at DESC, id DESC"


def channel_lookup(
    guild_id: int, place: int, statuses: Iterable[str], user_id: int | None = None
) -> tuple[str, list[Any]]:
    """Matches played in the channel or thread ``place`` (newest first), only those with a
    seat of ``user_id`` when given. The channel and the thread have an index each
    (``matches_by_channel``, ``matches_by_thread``): SQLite reads both as a multi-index
    OR, PostgreSQL as a BitmapOr; with a user, that user's seats lead."""
    sql, values = in_list(statuses)
    where = f"WHERE guild_id = ? AND (channel_id = ? OR thread_id = ?) AND status IN ({sql})"
    params: list[Any] = [guild_id, place, place, *values]
    if user_id is not None:
        where += " AND id IN (SELECT match_id FROM match_seats WHERE user_id = ?)"
        params.append(user_id)
    return where + NEWEST_FIRST, params


def guild_lookup(
    guild_id: int, statuses: Iterable[str], limit: int | None = None
) -> tuple[str, list[Any]]:
    """A server's matches in ``statuses``, newest first, at most ``limit``.

    ``status IN (...) ORDER BY updated_at`` cannot be read in order from one index range
    (each status is a range of its own), so both back ends would read every match of
    those statuses and sort them to keep ``limit``. With a limit, each status's newest
    ``limit`` are read in order from ``matches_by_guild`` (guild, status, updated_at, id)
    and only those are sorted."""
    wanted = list(dict.fromkeys(statuses))
    if limit is None or not wanted:
        sql, values = in_list(wanted)
        tail, extra = ("", []) if limit is None else (" LIMIT ?", [limit])
        where = f"WHERE guild_id = ? AND status IN ({sql}){NEWEST_FIRST}{tail}"
        return where, [guild_id, *values, *extra]
    parts: list[str] = []
    params: list[Any] = []
    for number, status in enumerate(wanted):
        parts.append(
            "SELECT id FROM (SELECT id FROM matches WHERE guild_id = ? AND status = ?"
            f"{NEWEST_FIRST} LIMIT ?) AS newest_{number}"
        )
        params += [guild_id, status, limit]
    return f"WHERE id IN ({' UNION ALL '.join(parts)}){NEWEST_FIRST} LIMIT ?", [*params, limit]
