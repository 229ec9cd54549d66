"""A finished Leiff table's record as text, the export of its replay: what the replay's
pages show, round by round, written as the board games' records are (tags in brackets,
then the body; ``matchcore.game_record``).

Each round is the channel's view at its end (``TableReplay.rounds``): every hand as it lay
open when the round was scored, by the cards' printed names, the points of the round and
the total after it. Nothing else of the game is written: not the actions, not the order of
the deck, never the seed, so the record holds nothing the table did not see.

    [Game "Leiff"]
    [Match "12"]
    [Date "2026-11-29"]
    [Players "alice, bob, carol"]
    [Options "target 100, specials, drinking"]
    [Result "carol"]
    [Termination "a total reached 100, and 61 is the lowest total"]

    1. alice: 10 9 Kellner 9 = +38 (38); bob: 6 1 = +7 (7); carol: 2 = +2 (2)
    2. ...
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from engine.leiff.cards import display_name
from engine.leiff.state import SPEC
from engine.leiff.views import LeiffView
from matchcore.service.results import TableReplay

# The table's options a record names, in the order written (a switch by its name alone).
OPTION_ORDER = ("target", "teams", "specials", "drinking", "water")


def _escaped(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _options(view: LeiffView) -> str:
    options = view["options"]
    written = []
    for name in OPTION_ORDER:
        value = options.get(name)
        if value is True:
            written.append(name)
        elif value not in (None, False):
            written.append(f"{name} {value}")
    return ", ".join(written)


def _round(view: LeiffView, names: Sequence[str]) -> str:
    """One round's end: each seat's open hand, the round's points and the total."""
    scores = view.get("round_scores") or []
    totals = view.get("totals") or []
    seats = []
    for seat, hand in enumerate(view["hands"]):
        cards = " ".join(display_name(label) if label is not None else "?" for label in hand)
        points = f" = {scores[seat]:+d}" if seat < len(scores) else ""
        total = f" ({totals[seat]})" if seat < len(totals) else ""
        seats.append(f"{names[seat]}: {cards or '-'}{points}{total}")
    return f"{view['round']}. " + "; ".join(seats)


def table_record(replay: TableReplay, names: Sequence[str]) -> str:
    """The record of a finished table (see the module's docstring)."""
    last = replay.rounds[-1]
    outcome = last.get("outcome")
    winners = outcome["winner"] if outcome else []
    ended = replay.match.finished_at
    tags = [
        ("Game", SPEC.title.english),
        ("Match", str(replay.match.id)),
        ("Date", time.strftime("%Y-%m-%d", time.gmtime(ended)) if ended else ""),
        ("Players", ", ".join(names)),
        ("Options", _options(last)),
        ("Result", ", ".join(names[seat] for seat in winners)),
        ("Termination", outcome["reason"] if outcome else ""),
    ]
    head = "\n".join(f'[{name} "{_escaped(value)}"]' for name, value in tags)
    body = "\n".join(_round(view, names) for view in replay.rounds)
    return f"{head}\n\n{body}\n"
