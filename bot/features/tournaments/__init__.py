"""Tournaments in Discord (issue 38): the commands, the announcement and what the steps show."""

from bot.features.tournaments.feature import TournamentDesk
from bot.features.tournaments.posts import TournamentPosts

__all__ = ["TournamentDesk", "TournamentPosts"]
