"""Helpers for the tournament tests: a service on a real database, games played out."""

from __future__ import annotations

import random
from collections.abc import Sequence

from matchcore.service import MatchService
from matchcore.service.tournament_info import TournamentUpdate
from tests.service.helpers import GUILD, ManualClock

ADMIN = 9
THREAD = 3000
PLAYERS = tuple(range(101, 160))


async def running_games(service: MatchService, tournament_id: int) -> dict[int, int]:
    """Game number -> match id of the tournament's matches still running."""
    found = await service.repo.tournament_matches(tournament_id)
    return {n: m.id for n, m in found.items() if m.status == "running"}


async def finish(service: MatchService, match_id: int, rng: random.Random) -> None:
    """End a running match with a random result: a resignation, or a draw where the game
    has draws (a Leiff table: everyone but one leaves)."""
    info = await service.get_match(match_id)
    people = [s.user_id for s in info.seats]
    if len(people) > 2:
        rng.shuffle(people)
        for user in people[:-1]:
            await service.resign(match_id, user)
        return
    if info.game != "lublache" and rng.random() < 0.25:
        await service.offer_draw(match_id, people[0])
        await service.accept_draw(match_id, people[1])
        return
    await service.resign(match_id, rng.choice(people))


async def create_and_fill(
    service: MatchService,
    game: str,
    fmt: str,
    players: Sequence[int],
    **options: object,
) -> TournamentUpdate:
    created = await service.tournaments.create(GUILD, 2000, ADMIN, True, game, fmt, **options)  # type: ignore[arg-type]
    tid = created.tournament.id
    await service.tournaments.set_thread(tid, THREAD)
    for player in players:
        await service.tournaments.join(tid, player)
    return created


async def play_rounds(
    service: MatchService,
    clock: ManualClock,
    tournament_id: int,
    rng: random.Random,
    *,
    stop_after: int | None = None,
) -> list[TournamentUpdate]:
    """Finish every running game and tick until the tournament ends (or ``stop_after``
    steps): the updates the ticks returned."""
    updates: list[TournamentUpdate] = []
    for _ in range(200):
        info = await service.tournaments.get(tournament_id)
        if info.status in ("finished", "cancelled"):
            break
        if stop_after is not None and len(updates) >= stop_after:
            break
        for match_id in (await running_games(service, tournament_id)).values():
            await finish(service, match_id, rng)
        clock.advance(5)
        updates.extend(await service.tournaments.tick())
    return updates
