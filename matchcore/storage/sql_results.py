"""The SQL a finished rated (or vs-bot) match writes in its commit's transaction: the new
ratings (compare and set on the number of games), the placements and the record against
the bot. Called by :meth:`matchcore.storage.sql.SqlRepository.commit_match`."""

from __future__ import annotations

from collections.abc import Sequence

from matchcore.storage import mapping
from matchcore.storage.records import PlacementRecord, RatingRecord, VsBotResult
from matchcore.storage.repository import RatingConflict
from matchcore.storage.sql_access import Transaction


async def write_results(
    tx: Transaction,
    ratings: Sequence[RatingRecord],
    placements: Sequence[PlacementRecord],
    bot_results: Sequence[VsBotResult],
) -> None:
    """Store a result's ratings and placements, and add its games against the bot."""
    for rating in ratings:
        await put_rating(tx, rating)
    if placements:
        columns = ", ".join(mapping.PLACEMENT_COLUMNS)
        marks = ",".join("?" * len(mapping.PLACEMENT_COLUMNS))
        await tx.executemany(
            f"INSERT INTO placements({columns}) VALUES ({marks})",
            [mapping.placement_values(placement) for placement in placements],
        )
    # Added in SQL, not read-modified-written: two matches of one player may end at the
    # same moment in different processes.
    for result in bot_results:
        await tx.execute(
            "INSERT INTO vs_bot_stats"
            "(guild_id, game, level, user_id, games, wins, losses, draws, updated_at) "
            "VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?) "
            "ON CONFLICT(guild_id, game, level, user_id) DO UPDATE SET "
            "games = vs_bot_stats.games + 1, wins = vs_bot_stats.wins + excluded.wins, "
            "losses = vs_bot_stats.losses + excluded.losses, "
            "draws = vs_bot_stats.draws + excluded.draws, "
            "updated_at = excluded.updated_at",
            (
                result.guild_id,
                result.game,
                result.level,
                result.user_id,
                int(result.outcome == "win"),
                int(result.outcome == "loss"),
                int(result.outcome == "draw"),
                float(result.at),
            ),
        )


async def put_rating(tx: Transaction, rating: RatingRecord) -> None:
    """Store a rating computed from the stored one with one game less (compare and set on
    ``games``: two results of one player never overwrite each other)."""
    columns = ", ".join(mapping.RATING_COLUMNS)
    marks = ",".join("?" * len(mapping.RATING_COLUMNS))
    key = ", ".join(mapping.RATING_KEY)
    updates = ", ".join(
        f"{column} = excluded.{column}"
        for column in mapping.RATING_COLUMNS
        if column not in mapping.RATING_KEY
    )
    changed = await tx.execute(
        f"INSERT INTO ratings({columns}) VALUES ({marks}) "
        f"ON CONFLICT({key}) DO UPDATE SET {updates} "
        "WHERE ratings.games = excluded.games - 1",
        mapping.rating_values(rating),
    )
    if changed != 1:
        raise RatingConflict(f"the rating of {rating.user_id} in {rating.game} changed meanwhile")
