"""Leiff's match options as one validated object, so a server's settings map straight onto it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

MIN_PLAYERS = 2
MAX_PLAYERS = 6
TARGETS = (50, 100)
TEAM_PLAYER_COUNTS = (4, 6)


class OptionsDict(TypedDict):
    """:meth:`LeiffOptions.to_dict`: the options as views and JSON carry them."""

    players: int
    target: int
    specials: bool
    drinking: bool
    water: bool
    teams: bool


@dataclass(frozen=True)
class LeiffOptions:
    """Players, the game-end target and the four expansions/variants."""

    players: int = 2
    target: int = 50
    specials: bool = False
    drinking: bool = False
    water: bool = False
    teams: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise ValueError("the number of players must be a whole number")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"Leiff is played by {MIN_PLAYERS} to {MAX_PLAYERS} players")
        if self.target not in TARGETS or isinstance(self.target, bool):
            raise ValueError("the target must be 50 (short game) or 100 (long game)")
        for flag in ("specials", "drinking", "water", "teams"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"the option {flag!r} must be true or false")
        if self.teams and self.players not in TEAM_PLAYER_COUNTS:
            raise ValueError("teams need 4 or 6 players (two or three teams of two)")

    @classmethod
    def from_mapping(
        cls, data: Mapping[str, Any] | None, players: int | None = None
    ) -> LeiffOptions:
        """Validate a settings mapping; ``players`` may come separately (``new(players=)``)."""
        values = dict(data or {})
        unknown = set(values) - {"players", "target", "specials", "drinking", "water", "teams"}
        if unknown:
            raise ValueError(f"unknown Leiff option(s): {', '.join(sorted(unknown))}")
        if players is not None:
            if "players" in values and values["players"] != players:
                raise ValueError("the number of players is given twice, differently")
            values["players"] = players
        return cls(**values)

    @property
    def braced(self) -> bool:
        """Whether the special cards use the alternatives in braces (water rules).

        Without drinking rules a drinking alternative would mean nothing, so the braced
        alternative applies then too.
        """
        return self.water or not self.drinking

    @property
    def team_count(self) -> int:
        return self.players // 2 if self.teams else 0

    def team_of(self, seat: int) -> int | None:
        """Teams sit alternately: with 4 players teams are {0, 2} and {1, 3}."""
        return seat % self.team_count if self.teams else None

    def teams_list(self) -> list[list[int]] | None:
        if not self.teams:
            return None
        return [
            [s for s in range(self.players) if s % self.team_count == t]
            for t in range(self.team_count)
        ]

    def to_dict(self) -> OptionsDict:
        return {
            "players": self.players,
            "target": self.target,
            "specials": self.specials,
            "drinking": self.drinking,
            "water": self.water,
            "teams": self.teams,
        }
