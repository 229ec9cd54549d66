"""The rating players read, and the model it is read from.

Ratings are kept as openskill's Plackett-Luce estimate (``mu``, the skill, and ``sigma``,
how unsure the model still is: 25 and 25/3 for a newcomer). Players read one number on
the scale they know from chess sites: :func:`display_rating` maps ``mu`` linearly so that
a newcomer reads 1500 and a game moves the rating by tens (about 50 in a first game among
two, 10 to 30 once the model is surer). A gap of 100 points means about what it means in
chess: the higher rated of two established players wins about two games in three. The
uncertainty is shown apart, as lichess does: a rating the model is still unsure of is
provisional (shown with "?"), for about the first ten games.

The map is of ``mu`` (not of the cautious ``mu - 3 sigma``) so that a win never lowers a
rating and a loss never raises it, and a newcomer starts in the middle of the scale, not
at its bottom. Nothing stored changes: the map is applied when a rating is shown.
"""

from __future__ import annotations

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma

RATING_START = 1500  # what a newcomer reads
POINTS_PER_SKILL = 20  # rating points per unit of mu
# Provisional while sigma is above this (±130 points): about the first ten games between
# equals, as lichess marks a rating "?" until its deviation has come down.
PROVISIONAL_SIGMA = 6.5


def display_rating(mu: float) -> int:
    """The rating shown for a skill estimate ``mu``: 1500 for a newcomer."""
    return round(RATING_START + POINTS_PER_SKILL * (mu - DEFAULT_MU))


def is_provisional(sigma: float) -> bool:
    """Whether a rating is still provisional (shown with "?")."""
    return sigma > PROVISIONAL_SIGMA
