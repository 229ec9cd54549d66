"""Elo ratings from a round robin: a Bradley–Terry fit by maximum likelihood, with intervals.

The model: player ``i`` scores against player ``j`` with probability
``p_ij = 1 / (1 + 10 ** ((r_j - r_i) / 400))``; a win counts 1, a draw ½, a loss 0, and
the games are independent. The ratings maximise the log-likelihood

    sum over pairings of  s_ij · log p_ij + (n_ij − s_ij) · log (1 − p_ij)

(``n_ij`` games, ``s_ij`` points of ``i`` against ``j``). Only differences are defined, so
one player is the anchor with a fixed rating (the ladder: the reference at 1500).

Why not a library: the PyPI package for Bradley–Terry fits, ``choix``, fits win/loss
comparisons only (no draws, which Lefe and Les have plenty of), gives no intervals and
brings NumPy and SciPy into the locks; a fit over six players is a few lines.

* **Prior.** A level that wins all 200 games against the random player has no finite
  maximum-likelihood rating gap. Every pairing therefore gets ``prior_draws`` virtual
  drawn games (one by default, as in BayesElo): a 200–0 line then reads as 200.5 of 201,
  about 1,040 Elo, a lower bound rather than a measurement. Say so where it matters.
* **Fit.** Newton's method on the (concave) log-likelihood, with the step halved while it
  does not improve it; converged when no rating would move by more than ``tolerance``
  Elo. The result says how many steps it took and whether it converged.
* **Intervals.** From the Fisher information (the negative Hessian at the optimum, the
  anchor's row and column left out, inverted): each rating's standard error relative to
  the anchor, and ``estimate ± z·se`` with ``z = 1.96`` for 95 %. The anchor's interval is
  its fixed value. These are Wald intervals: for a player far from everyone (the random
  player) they are symmetric where the truth is not; read them as an order of magnitude.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

ELO_PER_NATURAL = 400 / math.log(10)  # one natural-log unit of odds, in Elo points
Z_95 = 1.959963984540054  # the normal distribution's 97.5th percentile


@dataclass(frozen=True)
class Pairing:
    """The games between two players: ``points`` is ``first``'s (win 1, draw ½)."""

    first: str
    second: str
    games: int
    points: float


@dataclass(frozen=True)
class Rating:
    """One player's fitted rating and its 95 % interval, in Elo points."""

    player: str
    elo: float
    low: float
    high: float


@dataclass(frozen=True)
class Fit:
    """The fitted ratings, in the players' order, and how the fit went."""

    ratings: tuple[Rating, ...]
    anchor: str
    steps: int
    converged: bool
    max_gradient: float  # the largest |d log-likelihood / d rating| at the end, per Elo

    def rating(self, player: str) -> Rating:
        for rating in self.ratings:
            if rating.player == player:
                return rating
        raise KeyError(player)


def _expected(diff_natural: float) -> float:
    return 1.0 / (1.0 + math.exp(-diff_natural))


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a small symmetric positive-definite matrix (Gauss–Jordan)."""
    size = len(matrix)
    work = [row[:] + [1.0 if i == j else 0.0 for j in range(size)] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(work[r][col]))
        if abs(work[pivot][col]) < 1e-300:
            raise ValueError("the information matrix is singular: some players never met")
        work[col], work[pivot] = work[pivot], work[col]
        scale = work[col][col]
        work[col] = [value / scale for value in work[col]]
        for row in range(size):
            if row != col and work[row][col] != 0.0:
                factor = work[row][col]
                work[row] = [a - factor * b for a, b in zip(work[row], work[col], strict=True)]
    return [row[size:] for row in work]


def connected_to(anchor: str, pairings: Iterable[Pairing]) -> set[str]:
    """The players tied to ``anchor`` by a chain of pairings with games (the anchor
    included): only their ratings are defined relative to it."""
    neighbours: dict[str, set[str]] = {}
    for pairing in pairings:
        if pairing.games > 0:
            neighbours.setdefault(pairing.first, set()).add(pairing.second)
            neighbours.setdefault(pairing.second, set()).add(pairing.first)
    reached = {anchor}
    frontier = [anchor]
    while frontier:
        for other in neighbours.get(frontier.pop(), ()):
            if other not in reached:
                reached.add(other)
                frontier.append(other)
    return reached


def fit_elo(
    players: Sequence[str],
    pairings: Iterable[Pairing],
    *,
    anchor: str,
    anchor_elo: float = 1500.0,
    prior_draws: float = 1.0,
    tolerance: float = 1e-6,
    max_steps: int = 100,
) -> Fit:
    """Fit Elo ratings to the pairings' results (see the module's docstring).

    Every player must have met the anchor through some chain of pairings (a round robin
    always does; :func:`connected_to` says who has); ``anchor`` keeps ``anchor_elo``.
    """
    pairings = list(pairings)
    index = {player: i for i, player in enumerate(players)}
    if anchor not in index:
        raise ValueError(f"the anchor {anchor!r} is not among the players")
    apart = [p for p in players if p not in connected_to(anchor, pairings)]
    if apart:
        raise ValueError(
            f"{', '.join(apart)} never met {anchor!r}, even through other players:"
            " no rating relative to it"
        )
    size = len(players)
    games = [[0.0] * size for _ in range(size)]
    points = [[0.0] * size for _ in range(size)]
    for pairing in pairings:
        i, j = index[pairing.first], index[pairing.second]
        if i == j:
            raise ValueError(f"{pairing.first!r} cannot play itself")
        games[i][j] += pairing.games
        games[j][i] += pairing.games
        points[i][j] += pairing.points
        points[j][i] += pairing.games - pairing.points
    for i in range(size):
        for j in range(size):
            if i != j and games[i][j] > 0:
                games[i][j] += prior_draws
                points[i][j] += prior_draws / 2

    free = [i for i in range(size) if i != index[anchor]]
    theta = [0.0] * size  # natural units, the anchor at 0

    def log_likelihood(values: Sequence[float]) -> float:
        total = 0.0
        for i in range(size):
            for j in range(size):
                if i != j and games[i][j] > 0:
                    p = _expected(values[i] - values[j])
                    total += points[i][j] * math.log(max(p, 1e-300))
        return total  # (i, j) and (j, i) together: s·log p + (n − s)·log(1 − p)

    def gradient_and_information(values: Sequence[float]) -> tuple[list[float], list[list[float]]]:
        gradient = [0.0] * size
        information = [[0.0] * size for _ in range(size)]
        for i in range(size):
            for j in range(size):
                if i == j or games[i][j] == 0:
                    continue
                p = _expected(values[i] - values[j])
                gradient[i] += points[i][j] - games[i][j] * p
                weight = games[i][j] * p * (1.0 - p)
                information[i][i] += weight
                information[i][j] -= weight
        return gradient, information

    steps = 0
    converged = False
    current = log_likelihood(theta)
    while steps < max_steps:
        gradient, information = gradient_and_information(theta)
        reduced = [[information[i][j] for j in free] for i in free]
        inverse = _invert(reduced)
        delta = [
            sum(inverse[a][b] * gradient[free[b]] for b in range(len(free)))
            for a in range(len(free))
        ]
        step = 1.0
        while True:
            trial = theta[:]
            for a, i in enumerate(free):
                trial[i] += step * delta[a]
            value = log_likelihood(trial)
            if value >= current - 1e-12 or step < 1e-6:
                break
            step /= 2
        theta, current = trial, value
        steps += 1
        if max(abs(step * d) for d in delta) * ELO_PER_NATURAL < tolerance:
            converged = True
            break

    gradient, information = gradient_and_information(theta)
    reduced = [[information[i][j] for j in free] for i in free]
    covariance = _invert(reduced)
    offset = anchor_elo
    ratings = []
    for i, player in enumerate(players):
        elo = offset + theta[i] * ELO_PER_NATURAL
        if i == index[anchor]:
            ratings.append(Rating(player, elo, elo, elo))
            continue
        a = free.index(i)
        half = Z_95 * math.sqrt(covariance[a][a]) * ELO_PER_NATURAL
        ratings.append(Rating(player, elo, elo - half, elo + half))
    max_gradient = max(abs(gradient[i]) for i in free) / ELO_PER_NATURAL if free else 0.0
    return Fit(tuple(ratings), anchor, steps, converged, max_gradient)


def expected_score(elo_gap: float) -> float:
    """The expected score of a player ``elo_gap`` points above its opponent."""
    return 1.0 / (1.0 + 10 ** (-elo_gap / 400))
