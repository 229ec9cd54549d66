"""The ladder's rating fit (bench/elo.py) against results worked out by hand."""

from __future__ import annotations

import math

import pytest

from bench.elo import ELO_PER_NATURAL, Z_95, Pairing, connected_to, expected_score, fit_elo


def test_a_three_to_one_score_is_400_log10_3_elo_with_the_textbook_interval() -> None:
    fit = fit_elo(["a", "b"], [Pairing("a", "b", 400, 300)], anchor="b", prior_draws=0)
    a = fit.rating("a")
    assert fit.converged
    assert a.elo - 1500 == pytest.approx(400 * math.log10(3), abs=1e-6)  # 190.85
    # Fisher information of n games at p = 3/4: n·p·(1 − p); se = 1 / sqrt(that)
    half = Z_95 * ELO_PER_NATURAL / math.sqrt(400 * 0.75 * 0.25)
    assert (a.low, a.high) == pytest.approx((a.elo - half, a.elo + half))
    assert fit.rating("b") == type(a)("b", 1500.0, 1500.0, 1500.0)
    assert expected_score(a.elo - 1500) == pytest.approx(0.75)


def test_draws_count_half_and_the_anchor_only_shifts_the_ratings() -> None:
    # 100 wins, 100 draws, 0 losses is a score of 3/4, as 150 wins and 50 losses are
    pairings = [Pairing("x", "y", 200, 150.0), Pairing("y", "z", 200, 100.0)]
    on_y = fit_elo(["x", "y", "z"], pairings, anchor="y", prior_draws=0)
    on_z = fit_elo(["x", "y", "z"], pairings, anchor="z", anchor_elo=0, prior_draws=0)
    assert on_y.rating("x").elo - on_y.rating("y").elo == pytest.approx(190.85, abs=0.01)
    assert on_y.rating("z").elo == pytest.approx(1500, abs=1e-6)  # even score: equal
    for player in "xyz":
        gap = on_y.rating(player).elo - on_z.rating(player).elo
        assert gap == pytest.approx(1500, abs=1e-6)


def test_a_clean_sweep_stays_finite_thanks_to_the_virtual_draw() -> None:
    fit = fit_elo(["level", "random"], [Pairing("level", "random", 200, 200)], anchor="random")
    gap = fit.rating("level").elo - fit.rating("random").elo
    assert fit.converged
    # one virtual draw: 200.5 points of 201 games
    assert gap == pytest.approx(400 * math.log10(200.5 / 0.5), abs=1e-6)


def test_the_fit_refuses_what_it_cannot_rate() -> None:
    with pytest.raises(ValueError, match="anchor"):
        fit_elo(["a", "b"], [Pairing("a", "b", 2, 1)], anchor="c")
    with pytest.raises(ValueError, match="never met"):
        fit_elo(["a", "b", "c"], [Pairing("a", "b", 2, 1)], anchor="a")


def test_the_players_tied_to_the_anchor_are_found_through_chains_of_pairings() -> None:
    pairings = [
        Pairing("easy", "random", 4, 4),
        Pairing("master", "reference", 4, 2),
        Pairing("hard", "master", 0, 0),  # no games: no tie
    ]
    assert connected_to("reference", pairings) == {"reference", "master"}
    assert connected_to("random", pairings) == {"random", "easy"}
    with pytest.raises(ValueError, match="easy, random never met 'reference'"):
        fit_elo(["reference", "master", "easy", "random"], pairings, anchor="reference")
