"""Leiff events: rounds of tables of 3 to 6 seated by score, placements scored.

Each round the players still in, strongest score first, sit at tables of the size the
event asks for (4 by default): the top scores at table 1, the next at table 2, ... When
the number does not divide, some tables take one more or one fewer, never below 3 nor
above 6, and never more than one apart. A table's places score (in half points)
``2 × (table size − place)``: at a table of 4, first 6, second 4, third 2, last 0; players
sharing a place share its points (rounded down to whole half points).
"""

from __future__ import annotations

from collections.abc import Sequence

MIN_TABLE, MAX_TABLE = 3, 6


def table_sizes(players: int, preferred: int = 4) -> list[int]:
    """Sizes of the tables for ``players`` (each 3..6, at most one apart, as close to
    ``preferred`` as the number allows); [] when fewer than 3 play."""
    if players < MIN_TABLE:
        return []
    best: list[int] | None = None
    for count in range(1, players // MIN_TABLE + 1):
        small, extra = divmod(players, count)
        if small < MIN_TABLE or small + (extra > 0) > MAX_TABLE:
            continue
        sizes = [small + 1] * extra + [small] * (count - extra)
        cost = sum(abs(size - preferred) for size in sizes)
        if best is None or cost < sum(abs(size - preferred) for size in best):
            best = sizes
    return best or []


def seat_tables(ranked: Sequence[int], preferred: int = 4) -> list[list[int]]:
    """The tables of one round, players given strongest first."""
    tables = []
    start = 0
    for size in table_sizes(len(ranked), preferred):
        tables.append(list(ranked[start : start + size]))
        start += size
    return tables


def place_points(places: Sequence[int]) -> list[int]:
    """Half points for each seat's place (1 = first) at one table; shared places share."""
    size = len(places)
    points = []
    for place in places:
        sharing = sum(1 for other in places if other == place)
        total = sum(2 * (size - p) for p in range(place, place + sharing))
        points.append(total // sharing)
    return points
