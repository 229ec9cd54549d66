"""How low the other seats' unseen Leiff cards are, as a round goes on (for the worlds).

A searching seat deals the cards it has not seen into a world (``engine/ai/leiff_worlds``).
Dealt uniformly, the other seats' hands come out as high as the deck's average, but
players keep low cards and throw high ones, so their real hands sink turn by turn. This
script measures by how much, with sensible seats in every place: at every turn's start,
for the seat to move, the mean value of the other seats' cards it cannot see less the mean
of all the cards it cannot place, by rounds of turns played (the discard pile's size over
the seats). ``OTHER_HAND_SHIFT`` in ``leiff_worlds`` is read off its output; with
``--remembered``, the mean is that of the cards a world deals when it remembers the discard
pile (all it cannot place less the pile under its top, ``leiff_worlds.remembered_piles``),
and ``REMEMBERED_HAND_SHIFT`` is read off that.

    python -m bench.leiff_hands            # tables of 3 and 6, with and without specials
    python -m bench.leiff_hands --remembered
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence

from engine.ai.leiff_bot import decide
from engine.ai.leiff_worlds import remembered_piles, unseen_cards
from engine.leiff import Leiff
from engine.leiff.cards import load_default_deck

MAX_ROUNDS_OF_TURNS = 8


def shifts(players: Sequence[int], games: int, remembered: bool = False) -> dict[int, list[float]]:
    """Per rounds of turns played: each turn's mean shift of the other seats' unseen cards
    (below the cards a world deals once it remembers the discard pile, if ``remembered``)."""
    values = load_default_deck().values()
    found: dict[int, list[float]] = defaultdict(list)
    for count in players:
        for specials in (False, True):
            for seed in range(games):
                options = {"target": 100, "specials": specials}
                state = Leiff().new(players=count, seed=seed, options=options)
                for _ in range(3000):
                    if state.outcome is not None:
                        break
                    for seat in state.actors():
                        view = state.view(seat)
                        waiting = view["waiting_for"]
                        if waiting["step"] == "turn" and seat in waiting["owners"]:
                            unseen = unseen_cards(view)
                            memory = remembered_piles(view, unseen) if remembered else None
                            if memory is not None:
                                unseen = list((Counter(unseen) - Counter(memory.under)).elements())
                            pool = statistics.mean(values[c] for c in unseen)
                            truth = state.hands
                            hidden = [
                                values[truth[other][slot]] - pool
                                for other in range(count)
                                if other != seat
                                for slot, label in enumerate(view["hands"][other])
                                if label is None
                            ]
                            if hidden:
                                turns = min(view["discard_count"] // count, MAX_ROUNDS_OF_TURNS)
                                found[turns].append(statistics.mean(hidden))
                        action = decide(view)
                        if action is not None:
                            state = state.play(seat, action)
                            break
    return dict(found)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 6])
    parser.add_argument("--games", type=int, default=8, help="games per table and option set")
    parser.add_argument(
        "--remembered", action="store_true", help="less the mean of what is not in the pile"
    )
    args = parser.parse_args(argv)
    print("| rounds of turns | turns seen | other seats' unseen cards less the unseen mean |")
    print("|---|---|---|")
    for turns, found in sorted(shifts(args.players, args.games, args.remembered).items()):
        print(f"| {turns} | {len(found)} | {statistics.mean(found):+.2f} |")


if __name__ == "__main__":
    main()
