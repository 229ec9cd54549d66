"""Ratings with openskill's Plackett-Luce model, plus wins, losses, draws and streaks.

A result is given as ranks: one entry per team (a team is a list of user ids; a board-game
player is a team of one), lower rank is better, equal ranks are a tie. A match where every
team shares the same rank is a draw for everyone; otherwise the teams ranked first win
and all others lose.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.service.rating_scale import DEFAULT_MU, DEFAULT_SIGMA, MODEL
from bot.service.results import RatingChange
from bot.storage import Repository
from bot.storage.records import MatchRecord, RatingRecord


@dataclass(frozen=True)
class Placing:
    """One team's result in a match: ``rank`` 1 is best; equal ranks tie."""

    user_ids: tuple[int, ...]
    rank: int


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
    best = min(p.rank for p in placings)
    everyone_tied = all(p.rank == best for p in placings)
    records = []
    for placing, team in zip(placings, rated, strict=True):
        for user, rating in zip(placing.user_ids, team, strict=True):
            old = before[user]
            if everyone_tied:
                outcome = "draw"
            elif placing.rank == best:
                outcome = "win"
            else:
                outcome = "loss"
            records.append(_recorded(old, rating.mu, rating.sigma, outcome, now))
    return records


def _recorded(old: RatingRecord, mu: float, sigma: float, outcome: str, now: float) -> RatingRecord:
    if outcome == "win":
        streak = old.streak + 1 if old.streak > 0 else 1
    elif outcome == "loss":
        streak = old.streak - 1 if old.streak < 0 else -1
    else:
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


class RatingBook:
    """The service's part that rates a finished match among people: reads the players'
    ratings, computes the new ones and says how each changed. The match store commits
    them with the match, in one transaction."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    async def rate_result(
        self, record: MatchRecord, placings: Sequence[Placing]
    ) -> tuple[list[RatingRecord], list[RatingChange]]:
        """The new rating records and the changes for a finished match; nothing for a
        match that is unrated, against the bot, or has fewer than two placings."""
        if not placings or not record.rated or record.vs_bot or len(placings) < 2:
            return [], []
        users = [u for p in placings for u in p.user_ids]
        before = await self.repo.get_ratings(record.guild_id, record.game, users)
        ratings = rate(
            placings,
            before,
            guild_id=record.guild_id,
            game=record.game,
            pool="human",
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
        return ratings, changes
