"""A tournament's state: who plays, every game it paired, and what was recorded.

The state is plain data stored as JSON on the tournament's row and rewritten by each step
in the step's transaction (a compare-and-set on the tournament's version). A game is
numbered by its place in ``games``; the match that plays it is found through the
``tournament_games`` rows written in the same transaction, never through the state.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

FORMATS = ("arena", "swiss", "round_robin", "tables")

#: A player's withdrawal, and why: the line that says so names it.
FORFEIT, REMOVED, LEFT = "forfeit", "removed", "left"


@dataclass(frozen=True)
class Entry:
    """One player: when they joined, their rating then, and whether they still play."""

    player: int
    joined_at: float
    rating: float = 1500.0
    withdrawn: str | None = None
    paused: bool = False

    @property
    def active(self) -> bool:
        return self.withdrawn is None


@dataclass(frozen=True)
class Pairing:
    """A game of the tournament. ``players`` in seat order (the first colour first; a bye
    has one player and no match). ``points`` (half points per seat) and ``outcomes``
    (win / draw / loss per seat) once recorded; ``forfeits`` the players who lost by not
    playing (their clock ran out before they moved, or they were removed for it). ``late``:
    an arena's game that ended after the arena's end time: played out, recorded, counted
    for nobody (lichess's rule)."""

    number: int
    round: int
    players: tuple[int, ...]
    started_at: float
    points: tuple[int, ...] | None = None
    outcomes: tuple[str, ...] | None = None
    forfeits: tuple[int, ...] = ()
    late: bool = False

    @property
    def bye(self) -> bool:
        return len(self.players) == 1

    @property
    def done(self) -> bool:
        return self.points is not None


@dataclass(frozen=True)
class TournamentState:
    entries: tuple[Entry, ...] = ()
    games: tuple[Pairing, ...] = ()
    round: int = 0
    reminded: bool = False
    closed: bool = False  # ended early by an admin: nothing more is paired
    # The lines (code, params) of the step that made version ``said_version``: kept with
    # it, so that a start after a kill that came before they were posted says them.
    said: tuple[tuple[str, dict[str, Any]], ...] = ()
    said_version: int = -1
    schedule: tuple[tuple[tuple[tuple[int, int], ...], int | None], ...] = ()

    # ---- reading -----------------------------------------------------------------------
    def entry(self, player: int) -> Entry | None:
        return next((e for e in self.entries if e.player == player), None)

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(e.player for e in self.entries)

    @property
    def active_players(self) -> tuple[int, ...]:
        return tuple(e.player for e in self.entries if e.active)

    def running_games(self) -> tuple[Pairing, ...]:
        return tuple(g for g in self.games if not g.done)

    def games_of(self, player: int) -> list[Pairing]:
        """The player's games in order (an index built once per state: an arena of 500
        asks it for everyone at every step)."""
        return self._by_player.get(player, [])

    @cached_property
    def _by_player(self) -> dict[int, list[Pairing]]:
        index: dict[int, list[Pairing]] = {}
        for game in self.games:
            for player in game.players:
                index.setdefault(player, []).append(game)
        return index

    def playing(self) -> set[int]:
        return {p for g in self.games if not g.done for p in g.players}

    # ---- changing ----------------------------------------------------------------------
    def with_entry(self, entry: Entry) -> TournamentState:
        others = [e for e in self.entries if e.player != entry.player]
        if len(others) == len(self.entries):
            return replace(self, entries=(*self.entries, entry))
        return replace(
            self, entries=tuple(entry if e.player == entry.player else e for e in self.entries)
        )

    def without(self, player: int) -> TournamentState:
        return replace(self, entries=tuple(e for e in self.entries if e.player != player))

    def recorded(self, number: int, points: tuple[int, ...], **extra: Any) -> TournamentState:
        games = list(self.games)
        games[number] = replace(games[number], points=points, **extra)
        return replace(self, games=tuple(games))

    def paired(self, round_: int, players: tuple[int, ...], now: float) -> TournamentState:
        return self.paired_all(round_, [players], now)

    def paired_all(self, round_: int, groups: list[tuple[int, ...]], now: float) -> TournamentState:
        """The state with a new game for each group of players (a bye: one player, a
        win's points at once)."""
        games = list(self.games)
        for players in groups:
            game = Pairing(number=len(games), round=round_, players=players, started_at=now)
            games.append(replace(game, points=(2,)) if game.bye else game)
        return replace(self, games=tuple(games))

    # ---- JSON --------------------------------------------------------------------------
    def to_json(self) -> str:
        data = {
            "entries": [
                {
                    "joined_at": e.joined_at,
                    "paused": e.paused,
                    "player": e.player,
                    "rating": e.rating,
                    "withdrawn": e.withdrawn,
                }
                for e in self.entries
            ],
            "games": [
                {
                    "forfeits": list(g.forfeits),
                    "number": g.number,
                    "outcomes": None if g.outcomes is None else list(g.outcomes),
                    "players": list(g.players),
                    "points": None if g.points is None else list(g.points),
                    "round": g.round,
                    "started_at": g.started_at,
                    **({"late": True} if g.late else {}),  # (rare: only when set)
                }
                for g in self.games
            ],
            "round": self.round,
            "reminded": self.reminded,
            "closed": self.closed,
            "schedule": [[[list(p) for p in pairs], bye] for pairs, bye in self.schedule],
        }
        if self.said:
            data["said"] = [[code, params] for code, params in self.said]
            data["said_version"] = self.said_version
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | None) -> TournamentState:
        if not text:
            return cls()
        data = json.loads(text)
        return cls(
            entries=tuple(Entry(**e) for e in data.get("entries", ())),
            games=tuple(
                Pairing(
                    number=g["number"],
                    round=g["round"],
                    players=tuple(g["players"]),
                    started_at=g["started_at"],
                    points=None if g.get("points") is None else tuple(g["points"]),
                    outcomes=None if g.get("outcomes") is None else tuple(g["outcomes"]),
                    forfeits=tuple(g.get("forfeits", ())),
                    late=bool(g.get("late", False)),
                )
                for g in data.get("games", ())
            ),
            round=data.get("round", 0),
            reminded=data.get("reminded", False),
            closed=data.get("closed", False),
            schedule=tuple(
                (tuple((a, b) for a, b in pairs), bye) for pairs, bye in data.get("schedule", ())
            ),
            said=tuple((str(code), dict(params)) for code, params in data.get("said", ())),
            said_version=int(data.get("said_version", -1)),
        )
