"""Round robin by the circle method (Berger tables): everyone meets everyone once.

One seat stays put and the others turn round it, half the circle a round (a step of n/2,
which Berger's tables use, instead of one place: every player then changes sides of the
table nearly every round). With an odd number the fixed seat is a phantom: whoever it
meets rests that round (the bye). The fixed player's colour alternates by round; at every
other table the player on the first half of the circle takes the first colour. With an
even number every player's colours end within one, never three the same in a row.
"""

from __future__ import annotations

from collections.abc import Sequence


def round_robin(players: Sequence[int]) -> list[tuple[tuple[tuple[int, int], ...], int | None]]:
    """Every round as (pairs (first colour, second colour), the player with the bye)."""
    seats: list[int | None] = list(players)
    if len(seats) % 2:
        seats.insert(0, None)
    n = len(seats)
    fixed, ring = seats[0], seats[1:]
    step = (n // 2) % max(n - 1, 1)
    rounds = []
    for number in range(n - 1):
        table = [fixed, *ring]
        pairs = []
        bye = None
        for index in range(n // 2):
            a, b = table[index], table[n - 1 - index]
            if a is None or b is None:
                bye = b if a is None else a
                continue
            first = number % 2 == 0 if index == 0 else True
            pairs.append((a, b) if first else (b, a))
        rounds.append((tuple(pairs), bye))
        if step:
            ring = ring[-step:] + ring[:-step]
    return rounds
