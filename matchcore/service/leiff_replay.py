"""A finished Leiff table's replay, round by round, as everybody saw it at the table.

The stored last state holds the seed and every action; the table is played again from
its deal and, at the end of each round (when it waits for the next deal and every hand
lies open), the channel's view is kept. Only views for the channel (``view(None)``) leave
this module: no hand that was hidden at the table, never the seed.
"""

from __future__ import annotations

import asyncio

from engine import get_spec
from engine.leiff.state import Leiff, LeiffState
from engine.leiff.views import LeiffView
from engine.spec import GameKind
from matchcore.service.describe import Describer
from matchcore.service.errors import LobbyError, MatchOver
from matchcore.service.results import TableReplay
from matchcore.service.store import MatchStore


def round_ends(final: LeiffState) -> tuple[LeiffView, ...]:
    """The channel's view at the end of every round of the game that ended in ``final``
    (the last one: ``final``'s own, however it ended)."""
    stored = final.to_dict()  # the same table: its seed, deck and options
    state = Leiff().new(
        final.players,
        stored["seed"],
        final.options,
        deck=stored["deck"],
        deck_order=stored["deck_order"],
    )
    views: list[LeiffView] = []
    for seat, action in final.log:
        if state.waiting_for()["step"] == "next":
            views.append(state.view(None))
        state = state.play(seat, action)
    if state != final:
        raise ValueError("the table's actions do not lead to its last state")
    views.append(final.view(None))
    return tuple(views)


class LeiffReplays:
    """The replay of a finished Leiff table."""

    def __init__(self, store: MatchStore, describe: Describer) -> None:
        self.store = store
        self.describe = describe

    async def table_replay(self, match_id: int) -> TableReplay:
        """Errors: ``NotFound``, ``LobbyError`` (not a Leiff table), ``MatchOver`` (the
        table has not finished: a replay never shows a game in play)."""
        record = await self.store.load(match_id)
        if get_spec(record.game).kind is not GameKind.CARDS:
            raise LobbyError("not_a_leiff_table")
        if record.status != "finished" or record.state is None:
            raise MatchOver("replay_not_finished")
        final = self.store.table_state(record)
        rounds = await asyncio.to_thread(round_ends, final)
        return TableReplay(self.describe.info(record, final, rounds[-1]), rounds)
