"""The parsed engine states a process keeps: the most recently used matches, a bounded few.

Parsing a stored state costs (a Lublache position works out its loops, Les its holes, Lefe
its forests) and a parsed state takes memory (about 19 KB for a board match half-way), so a
process keeps the states of the matches it used last, at most ``capacity`` of them
(``STATE_CACHE_SIZE``), and parses again a match it let go. The database is the truth: a
state is kept with the version it was parsed from and used only for that version, so a
state dropped and parsed again is the same position.

A match being worked on (its lock held: an action is between reading and committing) is
never let go; while more matches than ``capacity`` are being worked on at once, the cache
holds them all and shrinks back as they are done.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from matchcore.service.steps import GameState

# Room for every match a busy process plays at once (2,000 board matches moving every
# 30 s at the peak hour of docs/scaling.md fit in one process's share), about 40 MB.
DEFAULT_STATE_CACHE_SIZE = 2000


class StateCache:
    """Parsed states by match id, each with the version it is the state of; least
    recently used let go first, never one that ``in_use`` says is being worked on."""

    def __init__(
        self,
        capacity: int = DEFAULT_STATE_CACHE_SIZE,
        in_use: Callable[[int], bool] = lambda match_id: False,
    ) -> None:
        if capacity < 0:
            raise ValueError("the state cache's capacity must be 0 or more")
        self.capacity = capacity
        self.in_use = in_use
        self._states: OrderedDict[int, tuple[int, GameState]] = OrderedDict()
        # Told of every match let go or dropped (what is kept beside a state goes with it).
        self.dropped_listeners: list[Callable[[int], None]] = []

    def __len__(self) -> int:
        return len(self._states)

    def __contains__(self, match_id: object) -> bool:
        return match_id in self._states

    def get(self, match_id: int, version: int) -> GameState | None:
        """The state of the match at ``version`` if kept (now the most recently used)."""
        kept = self._states.get(match_id)
        if kept is None or kept[0] != version:
            return None
        self._states.move_to_end(match_id)
        return kept[1]

    def put(self, match_id: int, version: int, state: GameState) -> None:
        """Keep the state of the match at ``version`` (replacing an older one), then let
        the least recently used go while there are more than ``capacity``."""
        self._states[match_id] = (version, state)
        self._states.move_to_end(match_id)
        if len(self._states) > self.capacity:
            self._shrink()

    def drop(self, match_id: int) -> None:
        """Forget the match (it finished, or another process moved it on)."""
        if self._states.pop(match_id, None) is not None:
            self._dropped(match_id)

    def _shrink(self) -> None:
        excess = len(self._states) - self.capacity
        for match_id in list(self._states):  # least recently used first
            if excess <= 0:
                return
            if self.in_use(match_id):
                continue
            del self._states[match_id]
            self._dropped(match_id)
            excess -= 1

    def _dropped(self, match_id: int) -> None:
        for listener in self.dropped_listeners:
            listener(match_id)
