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

``--worlds`` measures the worlds themselves at the same moments: how far the mean of the
other seats' unseen cards, of the seat's own and of the draw pile, in worlds sampled from
the seat's view is from the truth, with the discard pile remembered and dealt at random.

    python -m bench.leiff_hands            # tables of 3 and 6, with and without specials
    python -m bench.leiff_hands --remembered
    python -m bench.leiff_hands --worlds --games 3
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence

from engine.ai.leiff_bot import decide
from engine.ai.leiff_worlds import can_sample, remembered_piles, sample_world, unseen_cards
from engine.leiff import Leiff, LeiffState
from engine.leiff.cards import load_default_deck
from engine.leiff.table import Table

MAX_ROUNDS_OF_TURNS = 8
# --worlds: worlds sampled at each turn's start, and rounds of turns from which the rows merge
WORLDS_A_TURN = 2
BUCKETS = 4


def _turn_starts(players: Sequence[int], games: int) -> Iterator[tuple[LeiffState, int, int]]:
    """Every turn's start of games of sensible seats: (state, seat to move, game's seed)."""
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
                            yield state, seat, seed
                        action = decide(view)
                        if action is not None:
                            state = state.play(seat, action)
                            break


def shifts(players: Sequence[int], games: int, remembered: bool = False) -> dict[int, list[float]]:
    """Per rounds of turns played: each turn's mean shift of the other seats' unseen cards
    (below the cards a world deals once it remembers the discard pile, if ``remembered``)."""
    values = load_default_deck().values()
    found: dict[int, list[float]] = defaultdict(list)
    for state, seat, _ in _turn_starts(players, games):
        view = state.view(seat)
        unseen = unseen_cards(view)
        memory = remembered_piles(view, unseen) if remembered else None
        if memory is not None:
            unseen = list((Counter(unseen) - Counter(memory.under)).elements())
        pool = statistics.mean(values[c] for c in unseen)
        truth = state.hands
        hidden = [
            values[truth[other][slot]] - pool
            for other in range(state.players)
            if other != seat
            for slot, label in enumerate(view["hands"][other])
            if label is None
        ]
        if hidden:
            turns = min(view["discard_count"] // state.players, MAX_ROUNDS_OF_TURNS)
            found[turns].append(statistics.mean(hidden))
    return dict(found)


def world_bias(players: Sequence[int], games: int) -> dict[tuple[str, str, bool], list[float]]:
    """Worlds less truth, per card, by (where, rounds of turns, remembered): the mean of
    the other seats' unseen slots, of the seat's own unseen slots and of the draw pile in
    each sampled world, less the true table's."""
    found: dict[tuple[str, str, bool], list[float]] = defaultdict(list)
    for state, seat, seed in _turn_starts(players, games):
        view = state.view(seat)
        if not can_sample(view):
            continue
        truth = Table.from_dict(state.to_dict())
        slots = [
            (other, i)
            for other, hand in enumerate(view["hands"])
            if other != seat
            for i, label in enumerate(hand)
            if label is None
        ]
        own = [i for i, label in enumerate(view["hands"][seat]) if label is None]
        bucket = str(min(view["discard_count"] // state.players, BUCKETS))
        for remember in (False, True):
            rng = random.Random(seed * 100_003 + state.version)
            for _ in range(WORLDS_A_TURN):
                world = sample_world(view, rng, remember=remember)
                for where, cards_w, cards_t in (
                    (
                        "other seats' unseen slots",
                        [world.hands[o][i] for o, i in slots],
                        [truth.hands[o][i] for o, i in slots],
                    ),
                    (
                        "own unseen slots",
                        [world.hands[seat][i] for i in own],
                        [truth.hands[seat][i] for i in own],
                    ),
                    ("draw pile", world.draw, truth.draw),
                ):
                    if cards_t:
                        bias = statistics.mean(map(world.value, cards_w)) - statistics.mean(
                            map(truth.value, cards_t)
                        )
                        found[(where, bucket, remember)].append(bias)
                        found[(where, "all", remember)].append(bias)
    return dict(found)


def _rms(values: list[float]) -> float:
    return math.sqrt(statistics.mean(v * v for v in values))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 6])
    parser.add_argument("--games", type=int, default=8, help="games per table and option set")
    parser.add_argument(
        "--remembered", action="store_true", help="less the mean of what is not in the pile"
    )
    parser.add_argument("--worlds", action="store_true", help="the worlds' bias, per card")
    args = parser.parse_args(argv)
    if args.worlds:
        bias = world_bias(args.players, args.games)
        print(
            "| cards | rounds of turns | worlds | pile dealt at random: bias, rms "
            "| pile remembered: bias, rms |"
        )
        print("|---|---|---|---|---|")
        for where, bucket, remember in sorted(bias):
            if remember:
                continue
            before, after = bias[(where, bucket, False)], bias[(where, bucket, True)]
            print(
                f"| {where} | {bucket} | {len(before)} "
                f"| {statistics.mean(before):+.2f}, {_rms(before):.2f} "
                f"| {statistics.mean(after):+.2f}, {_rms(after):.2f} |"
            )
        return
    print("| rounds of turns | turns seen | other seats' unseen cards less the unseen mean |")
    print("|---|---|---|")
    for turns, found in sorted(shifts(args.players, args.games, args.remembered).items()):
        print(f"| {turns} | {len(found)} | {statistics.mean(found):+.2f} |")


if __name__ == "__main__":
    main()
