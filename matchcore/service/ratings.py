"""Ratings with openskill's Plackett-Luce model, plus wins, losses, draws and streaks.

A result is given as ranks: one entry per team (a team is a list of user ids; a board-game
player is a team of one), lower rank is better, equal ranks are a tie. A match where every
team shares the same rank is a draw for everyone. Between two sides, the side ranked first
wins and the other loses; at a table of more (Leiff), finishing first is a win and any
other place is just that, a place ("2nd of 4" is no loss): it is kept as a placement
(:class:`matchcore.storage.PlacementRecord`), counted neither as a win nor as a loss, and ends a
run of wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from matchcore.service.rating_scale import DEFAULT_MU, DEFAULT_SIGMA, MODEL
from matchcore.service.results import RatingChange
from matchcore.service.season_calendar import Season
from matchcore.storage import Repository
from matchcore.storage.records import MatchRecord, PlacementRecord, RatingRecord
from matchcore.storage.season_records import RatingPoint, SeasonRating


@dataclass(frozen=True)
class Placing:
    """One team's result in a match: ``rank`` 1 is best; equal ranks tie. ``field`` is the
    number of places at the table (bots' included), so the team finished ``rank`` of
    ``field`` ("2nd of 4"); board games are 1 or 2 of 2."""

    def places(self, placings: Sequence[Placing]) -> int:
        """The number of places at the table this placing was among."""
        return self.field if self.field is not None else len(placings)

    user_ids: tuple[int, ...]
    rank: int
    field: int | None = None  # None: as many places as placings (no bots at the table)


def fresh_rating(guild_id: int, game: str, user_id: int, pool: str, now: float) -> RatingRecord:
    return RatingRecord(
        guild_id=guild_id,
        game=game,
        user_id=user_id,
        pool=pool,
        mu=DEFAULT_MU,
        sigma=DEFAULT_SIGMA,
        updated_at=now,
    )


def rate(
    placings: Sequence[Placing],
    current: Mapping[int, RatingRecord],
    *,
    guild_id: int,
    game: str,
    pool: str,
    now: float,
) -> list[RatingRecord]:
    """New rating records for every player of ``placings`` (missing ones start fresh)."""
    if len(placings) < 2:
        raise ValueError("a rated result needs at least two teams")
    before = {
        user: current.get(user) or fresh_rating(guild_id, game, user, pool, now)
        for placing in placings
        for user in placing.user_ids
    }
    teams = [
        [MODEL.create_rating([before[user].mu, before[user].sigma]) for user in placing.user_ids]
        for placing in placings
    ]
    rated = MODEL.rate(teams, ranks=[float(p.rank) for p in placings])
    records = []
    for placing, team in zip(placings, rated, strict=True):
        outcome = _outcome(placing, placings)
        for user, rating in zip(placing.user_ids, team, strict=True):
            records.append(_recorded(before[user], rating.mu, rating.sigma, outcome, now))
    return records


def _outcome(placing: Placing, placings: Sequence[Placing]) -> str:
    """ "win", "loss", "draw", or "placed" (a place at a table of more than two sides)."""
    best = min(p.rank for p in placings)
    if all(p.rank == best for p in placings):
        return "draw"
    if placing.places(placings) <= 2:
        return "win" if placing.rank == best else "loss"
    return "win" if placing.rank == 1 else "placed"


def _recorded(old: RatingRecord, mu: float, sigma: float, outcome: str, now: float) -> RatingRecord:
    if outcome == "win":
        streak = old.streak + 1 if old.streak > 0 else 1
    elif outcome == "loss":
        streak = old.streak - 1 if old.streak < 0 else -1
    else:  # a draw, or a place that is not first
        streak = 0
    return old.evolve(
        mu=mu,
        sigma=sigma,
        games=old.games + 1,
        wins=old.wins + (outcome == "win"),
        losses=old.losses + (outcome == "loss"),
        draws=old.draws + (outcome == "draw"),
        streak=streak,
        best_streak=max(old.best_streak, streak),
        updated_at=now,
    )


@dataclass(frozen=True)
class RatedResult:
    """What a finished rated match stores with it, in its transaction: the new all-time
    ratings, each person's placement, the rating history points, the season ratings (none
    while the server has no seasons), and how each rating changed (for the result line)."""

    ratings: list[RatingRecord] = field(default_factory=list)
    placements: list[PlacementRecord] = field(default_factory=list)
    history: list[RatingPoint] = field(default_factory=list)
    season_ratings: list[SeasonRating] = field(default_factory=list)
    changes: list[RatingChange] = field(default_factory=list)


class RatingBook:
    """The service's part that rates a finished match among people: reads the players'
    ratings (all-time, and the season's), computes the new ones and says how each changed.
    The match store commits them with the match, in one transaction."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    async def rate_result(
        self,
        record: MatchRecord,
        placings: Sequence[Placing],
        pool: str,
        season: Season | None = None,
    ) -> RatedResult:
        """What a finished match stores in its rating ``pool`` (live or daily) and, when
        the server rates in seasons, in ``season`` (the one the result falls in); nothing
        for a match that is unrated, against the bot, or has fewer than two placings."""
        if not placings or not record.rated or record.vs_bot or len(placings) < 2:
            return RatedResult()
        users = [u for p in placings for u in p.user_ids]
        before = await self.repo.get_ratings(record.guild_id, record.game, users, pool)
        ratings = rate(
            placings,
            before,
            guild_id=record.guild_id,
            game=record.game,
            pool=pool,
            now=record.updated_at,
        )
        changes = []
        for new in ratings:
            old = before.get(new.user_id)
            changes.append(
                RatingChange(
                    user_id=new.user_id,
                    game=record.game,
                    before_mu=old.mu if old else DEFAULT_MU,
                    before_sigma=old.sigma if old else DEFAULT_SIGMA,
                    after_mu=new.mu,
                    after_sigma=new.sigma,
                )
            )
        placements = [
            PlacementRecord(
                match_id=record.id,
                guild_id=record.guild_id,
                game=record.game,
                user_id=user,
                place=placing.rank,
                field=placing.places(placings),
                finished_at=record.finished_at or record.updated_at,
                pool=pool,
            )
            for placing in placings
            for user in placing.user_ids
        ]
        history = [
            RatingPoint(
                match_id=record.id,
                guild_id=record.guild_id,
                game=record.game,
                user_id=new.user_id,
                pool=pool,
                mu=new.mu,
                sigma=new.sigma,
                games=new.games,
                at=record.updated_at,
            )
            for new in ratings
        ]
        seasonal: list[SeasonRating] = []
        if season is not None:
            stored = await self.repo.get_season_ratings(
                record.guild_id, season.key, record.game, users, pool
            )
            fresh = rate(
                placings,
                stored,
                guild_id=record.guild_id,
                game=record.game,
                pool=pool,
                now=record.updated_at,
            )
            seasonal = [SeasonRating(season.key, season.ends_at, new) for new in fresh]
        return RatedResult(ratings, placements, history, seasonal, changes)
