"""What each seat (or the channel) may see, what the engine waits for, and timeout defaults.

A view is a projection of the truth through one viewer's knowledge: a hand slot shows its
card only if that viewer tracks the physical card in it (``Table.known``), or once the round
is over and every hand has been revealed. Besides the last action's events it may see, a
view holds what the round's public events said since the deal (``round_events``, each a code
and its parameters): what everyone at the table was told, the same for every viewer.
"""

from __future__ import annotations

import copy
from typing import Any, Required, TypedDict, TypeVar, cast

from engine.leiff.events import Event, Said, visible_to
from engine.leiff.options import OptionsDict
from engine.leiff.rules import legal_actions, out_of_turn_actions
from engine.leiff.scoring import Drinks, ledger, seat_totals, unit_totals
from engine.leiff.table import PLAY_STEPS, Outcome, Table


class WaitingFor(TypedDict):
    """What the engine waits for: the step, whose it is, and who may act out of turn."""

    step: str
    turn: int | None
    owners: list[int]
    card: str | None  # the card whose effect choice is owed
    out_of_turn: list[int]
    round: int
    version: int


class Holding(TypedDict):
    seat: int | None
    source: str | None  # "draw" or "discard"
    card: str | None  # None when this viewer may not see the held card


class Link(TypedDict):
    seat: int
    to: int


class Enchantment(TypedDict):
    by: int
    target: int


class OutcomeDict(TypedDict, total=False):
    winner: Required[list[int]]
    reason: Required[str]
    code: str  # why, as a code with params (engine.reasons); absent in old stored games
    params: dict[str, Any]


def outcome_dict(outcome: Outcome) -> OutcomeDict:
    data: OutcomeDict = {"winner": list(outcome.winner), "reason": outcome.reason}
    if outcome.code is not None:
        data["code"] = outcome.code
        data["params"] = dict(outcome.params)
    return data


class LeiffView(TypedDict):
    """What one seat (or the channel) may know: a JSON-able dict (ENGINE_API's view)."""

    game: str
    viewer: int | None
    players: int
    options: OptionsDict
    round: int
    version: int
    first: int
    hands: list[list[str | None]]  # per seat, per slot: the card label, or None if unknown
    hand_sizes: list[int]
    draw_count: int
    discard_count: int
    discard_top: str | None
    holding: Holding | None
    waiting_for: WaitingFor
    legal_actions: list[str]
    default_action: str | None
    immune: list[int]
    rule: str | None
    link: Link | None
    enchantments: list[Enchantment]
    teams: list[list[int]] | None
    totals: list[int]
    team_totals: list[int] | None
    round_scores: list[int] | None
    history: list[list[int]]
    caller: int | None
    drinks: list[Drinks] | None
    round_over: bool
    outcome: OutcomeDict | None
    events: list[Event]
    round_events: list[Said]  # what the round's public events said so far (every viewer's)


def owners(t: Table) -> list[int]:
    """Seats owing the choice the engine waits for."""
    step = t.step
    if step == "look":
        return [s for s in range(t.players) if t.looks_left[s] > 0]
    if step in ("turn", "hold", "effect"):
        return [t.turn] if t.turn is not None else []
    if step == "spy":
        return [t.spy["seat"]] if t.spy else []
    if step == "exchange":
        if t.exchange is None:
            return []
        return sorted(
            s for s in (t.exchange["by"], t.exchange["target"]) if s not in t.exchange["gives"]
        )
    if step == "next":
        return list(range(t.players))
    return []


def waiting_for(t: Table) -> WaitingFor:
    return {
        "step": t.step,
        "turn": t.turn if t.step in PLAY_STEPS else None,
        "owners": owners(t),
        "card": t.effect if t.step == "effect" else None,
        "out_of_turn": [s for s in range(t.players) if out_of_turn_actions(t, s)],
        "round": t.round,
        "version": len(t.log),
    }


def _known_slots(t: Table, viewer: int, seat: int) -> list[tuple[int, int]]:
    """(value, slot) of the seat's cards that the viewer knows."""
    return [(t.value(c), i + 1) for i, c in enumerate(t.hands[seat]) if c in t.known[viewer]]


def default_action(t: Table, seat: int) -> str | None:
    """The documented safe action for a seat whose time ran out (None if it owes nothing)."""
    if seat not in owners(t):
        return None
    step = t.step
    if step == "look":
        return next(f"look {i + 1}" for i, c in enumerate(t.hands[seat]) if c not in t.known[seat])
    if step == "turn":
        return "draw" if t.draw else "leiff"
    if step == "hold":
        if t.hold_source == "draw" or not t.hands[seat]:
            return "discard"
        known = _known_slots(t, seat, seat)
        return f"swap {max(known)[1] if known else 1}"
    if step == "effect":
        return "decline"
    if step == "spy":
        assert t.spy is not None
        magician_hand = t.hands[t.spy["of"]]
        unseen = [i + 1 for i, c in enumerate(magician_hand) if c not in t.known[seat]]
        return f"spy {unseen[0] if unseen else 1}"
    if step == "exchange":
        assert t.exchange is not None
        known = _known_slots(t, seat, seat)
        if not known:
            return "give 1"
        # the enchanted player gives their best (lowest) card, the Magier their worst (highest)
        pick = min(known) if seat == t.exchange["target"] else max(known)
        return f"give {pick[1]}"
    if step == "next":
        return "next"
    return None


_SHARED = (str, int, float, bool, type(None))  # immutable: a copy may share them
_J = TypeVar("_J")


def json_copy(value: _J) -> _J:
    """A deep copy of a JSON value (dicts, lists, strings, numbers), as ``copy.deepcopy``
    makes it, in a fraction of its time: a bot asks for several views per action, each with
    its events. Anything else is left to ``copy.deepcopy``."""
    return cast(_J, _json_copy(value))  # a copy of the same shape


def _json_copy(value: object) -> object:
    if isinstance(value, dict):
        return {key: _json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_copy(item) for item in value]
    if isinstance(value, _SHARED):
        return value
    return copy.deepcopy(value)


def said_copy(item: Said) -> Said:
    """A copy of something said (see :func:`json_copy`), a little quicker for the round's
    memory, whose parameters are mostly a seat, a slot and a card."""
    params = {
        key: value if isinstance(value, str | int) else json_copy(value)
        for key, value in item["params"].items()
    }
    return {"code": item["code"], "params": params}


def view(t: Table, viewer: int | None) -> LeiffView:
    """Everything ``viewer`` (a seat, or None for the channel) may know right now."""
    if viewer is not None and not (isinstance(viewer, int) and 0 <= viewer < t.players):
        raise ValueError(f"there is no seat {viewer!r}")
    index = t.spectator if viewer is None else viewer
    seen = t.known[index]
    revealed = t.step in ("next", "over")
    hands = [[t.label(c) if revealed or c in seen else None for c in hand] for hand in t.hands]
    top = t.top()
    holding: Holding | None = None
    if t.holding is not None:
        show = t.hold_source == "discard" or viewer == t.turn
        holding = {
            "seat": t.turn,
            "source": t.hold_source,
            "card": t.label(t.holding) if show else None,
        }
    return {
        "game": "leiff",
        "viewer": viewer,
        "players": t.players,
        "options": t.options.to_dict(),
        "round": t.round,
        "version": len(t.log),
        "first": t.first,
        "hands": hands,
        "hand_sizes": [len(h) for h in t.hands],
        "draw_count": len(t.draw),
        "discard_count": len(t.discard),
        "discard_top": None if top is None else t.label(top),
        "holding": holding,
        "waiting_for": waiting_for(t),
        "legal_actions": [] if viewer is None else legal_actions(t, viewer),
        "default_action": None if viewer is None else default_action(t, viewer),
        "immune": sorted(t.immune),
        "rule": t.rule,
        "link": None if t.link is None else {"seat": t.link[0], "to": t.link[1]},
        "enchantments": [{"by": by, "target": target} for by, target in t.enchantments],
        "teams": t.options.teams_list(),
        "totals": seat_totals(t),
        "team_totals": unit_totals(t) if t.options.teams else None,
        "round_scores": None if t.round_scores is None else list(t.round_scores),
        "history": [list(row) for row in t.history],
        "caller": t.caller,
        "drinks": ledger(t),
        "round_over": revealed,
        "outcome": None if t.outcome is None else outcome_dict(t.outcome),
        "events": [json_copy(e) for e in t.events if visible_to(e, viewer)],
        "round_events": [said_copy(e) for e in t.round_events],
    }
