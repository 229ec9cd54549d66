"""The rating players read (matchcore.service.rating_scale): 1500 for a newcomer, tens of points
a game, the right way after a win or a loss, never anything near zero in a real history;
and /help says so in both languages."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from i18n import LANGUAGES
from matchcore.service.rating_scale import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    RATING_START,
    display_rating,
    is_provisional,
)
from matchcore.service.ratings import Placing, rate
from matchcore.storage import RatingRecord
from tutorial import help_text

PLAYERS = range(1, 9)
# A rated result: two to six of the players, in a random order of finish (ties allowed).
results = st.lists(
    st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=6, unique=True).flatmap(
        lambda seated: st.tuples(
            st.just(seated), st.lists(st.integers(1, 3), min_size=len(seated), max_size=len(seated))
        )
    ),
    min_size=1,
    max_size=120,
)


def _shown(ratings: dict[int, RatingRecord], user: int) -> int:
    found = ratings.get(user)
    return display_rating(found.mu if found else DEFAULT_MU)


def test_a_newcomer_reads_1500_and_is_provisional() -> None:
    assert display_rating(DEFAULT_MU) == RATING_START == 1500
    assert is_provisional(DEFAULT_SIGMA)


@settings(max_examples=200, deadline=None)
@given(results)
def test_ratings_stay_sane_and_move_the_right_way(history) -> None:
    ratings: dict[int, RatingRecord] = {}
    for seated, ranks in history:
        placings = [Placing((user,), rank) for user, rank in zip(seated, ranks, strict=True)]
        before = {user: _shown(ratings, user) for user in seated}
        after_records = rate(placings, ratings, guild_id=1, game="leiff", pool="human", now=0.0)
        for record in after_records:
            ratings[record.user_id] = record
        best, worst = min(ranks), max(ranks)
        for user, rank in zip(seated, ranks, strict=True):
            now = _shown(ratings, user)
            # a game moves a rating by tens, never by hundreds
            assert abs(now - before[user]) < 250
            # Winning alone never costs, finishing last alone never pays (a shared place is
            # partly a draw: it may move a rating either way).
            if rank == best and ranks.count(best) == 1:
                assert now >= before[user]
            if rank == worst and ranks.count(worst) == 1:
                assert now <= before[user]
            assert 500 < now < 2500


def test_even_a_long_run_of_losses_reads_far_above_zero() -> None:
    ratings: dict[int, RatingRecord] = {}
    strong = RatingRecord(1, "lefe", 2, mu=40.0, sigma=1.0, updated_at=0.0)
    for _ in range(500):
        ratings[2] = strong
        for record in rate(
            [Placing((2,), 1), Placing((1,), 2)],
            ratings,
            guild_id=1,
            game="lefe",
            pool="human",
            now=0.0,
        ):
            ratings[record.user_id] = record
    assert 500 < _shown(ratings, 1) < 1500
    assert not is_provisional(ratings[1].sigma)


def test_help_tells_how_to_read_a_rating_in_both_languages() -> None:
    for language in LANGUAGES:
        body = help_text(language).markdown()
        assert help_text(language).ratings in body
        assert str(display_rating(DEFAULT_MU)) in help_text(language).ratings
        assert "?" in help_text(language).ratings
