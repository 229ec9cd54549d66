"""The whole truth of one Leiff match at one moment, as a plain mutable record.

Rules code copies a :class:`Table`, changes the copy and wraps it in a new immutable
state; a table inside a state is never changed again. Cards are identified by their index
into the round's card list (``labels``), so knowledge can follow a physical card wherever
it moves: ``known[v]`` is the set of card ids whose place in a hand viewer ``v`` has seen
and not lost track of (index ``players`` is the spectator: the channel).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, TypedDict

from engine.leiff.cards import Deck
from engine.leiff.events import PUBLIC, Event, Said
from engine.leiff.options import LeiffOptions
from engine.reasons import reason as reason_text

PLAY_STEPS = frozenset({"turn", "hold", "effect", "spy"})


class Exchange(TypedDict):
    """The Magier's exchange under way: ``by`` enchanted ``target``; ``gives`` the slot
    each of the two has chosen to give so far, by seat."""

    by: int
    target: int
    gives: dict[int, int]


@dataclass(frozen=True)
class Outcome:
    """The end of a match: the winning seats (ties share the win) and why: an English
    ``reason`` and the same as a ``code`` with ``params`` (``engine.reasons``)."""

    winner: list[int]
    reason: str
    code: str | None = field(default=None, compare=False)
    params: dict[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def because(cls, winner: list[int], code: str, **params: Any) -> Outcome:
        return cls(winner, reason_text(code, params), code, params)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        """Stored outcomes from before codes existed have only ``winner`` and ``reason``."""
        return cls(
            list(data["winner"]), data["reason"], data.get("code"), dict(data.get("params") or {})
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"winner": list(self.winner), "reason": self.reason}
        if self.code is not None:
            data["code"] = self.code
            data["params"] = dict(self.params)
        return data


@dataclass
class Table:
    options: LeiffOptions
    deck: Deck
    seed: int | str
    deck_order: list[str] | None = None
    log: list[list[Any]] = field(default_factory=list)
    round: int = 0
    first: int = 0
    labels: list[str] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    draw: list[int] = field(default_factory=list)  # top of the pile is the last item
    discard: list[int] = field(default_factory=list)  # top of the pile is the last item
    known: list[set[int]] = field(default_factory=list)
    step: str = "turn"
    turn: int | None = 0
    holding: int | None = None
    hold_source: str | None = None
    effect: str | None = None  # label of the card whose effect choice is owed
    looks_left: list[int] = field(default_factory=list)
    spy: dict[str, int] | None = None  # {"seat": looker, "of": magician, "left": n}
    exchange: Exchange | None = None
    pending_exchanges: list[list[int]] = field(default_factory=list)
    immune: set[int] = field(default_factory=set)
    rule: str | None = None
    link: list[int] | None = None  # [seat, to]: seat drinks what `to` drinks
    enchantments: list[list[int]] = field(default_factory=list)
    doubled: set[int] = field(default_factory=set)
    caller: int | None = None
    drinks: list[list[int]] = field(default_factory=list)  # per seat [sips, shots, hand_out]
    refills: int = 0
    exhausted: bool = False
    round_scores: list[int] | None = None
    history: list[list[int]] = field(default_factory=list)
    outcome: Outcome | None = None
    events: list[Event] = field(default_factory=list)
    # what was said to everyone this round so far (from its deal on), each public event
    # as its code and parameters: what a player may remember of the round (who took or
    # threw away which card); the next deal starts it afresh. Without the events' English
    # and data, so that views, which copy it, and the stored table stay small.
    round_events: list[Said] = field(default_factory=list)

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def spectator(self) -> int:
        return self.options.players

    def clone(self) -> Table:
        """A copy deep enough that changing it never touches this table."""
        return Table(
            options=self.options,
            deck=self.deck,
            seed=self.seed,
            deck_order=self.deck_order,
            log=list(self.log),
            round=self.round,
            first=self.first,
            labels=self.labels,  # never changed within a round; a new deal makes a new list
            hands=[list(h) for h in self.hands],
            draw=list(self.draw),
            discard=list(self.discard),
            known=[set(k) for k in self.known],
            step=self.step,
            turn=self.turn,
            holding=self.holding,
            hold_source=self.hold_source,
            effect=self.effect,
            looks_left=list(self.looks_left),
            spy=None if self.spy is None else dict(self.spy),
            exchange=None
            if self.exchange is None
            else {**self.exchange, "gives": dict(self.exchange["gives"])},
            pending_exchanges=[list(e) for e in self.pending_exchanges],
            immune=set(self.immune),
            rule=self.rule,
            link=None if self.link is None else list(self.link),
            enchantments=[list(e) for e in self.enchantments],
            doubled=set(self.doubled),
            caller=self.caller,
            drinks=[list(d) for d in self.drinks],
            refills=self.refills,
            exhausted=self.exhausted,
            round_scores=None if self.round_scores is None else list(self.round_scores),
            history=[list(h) for h in self.history],
            outcome=self.outcome,
            events=[],
            round_events=list(self.round_events),
        )

    # ---- small helpers used by the rules ----------------------------------------------
    def label(self, card_id: int) -> str:
        return self.labels[card_id]

    def value(self, card_id: int) -> int:
        return self.deck.spec(self.labels[card_id]).value

    def top(self) -> int | None:
        return self.discard[-1] if self.discard else None

    def rng(self, purpose: str) -> random.Random:
        """A generator fixed by the seed, the round and what it is for (shuffle, refill n)."""
        return random.Random(f"leiff:{self.seed}:{self.round}:{purpose}")

    def forget(self, card_id: int) -> None:
        """The card left a hand: nobody tracks it in a hand any more."""
        for seen in self.known:
            seen.discard(card_id)

    def remember(self, events: list[Event]) -> None:
        """Add what the public ones of an action's ``events`` said to the round's memory;
        a deal among them starts it afresh, with the deal's."""
        public = [e for e in events if e["audience"] == PUBLIC]
        deals = [i for i, e in enumerate(public) if e["kind"] == "deal"]
        said: list[Said] = [
            {"code": e["code"], "params": e["params"]}
            for e in public[deals[-1] if deals else 0 :]
            if "code" in e
        ]
        if deals:
            self.round_events = said
        elif said:
            self.round_events = [*self.round_events, *said]

    def reveal_to_all(self, card_id: int) -> None:
        for seen in self.known:
            seen.add(card_id)

    def all_card_ids(self) -> list[int]:
        ids = [c for hand in self.hands for c in hand] + self.draw + self.discard
        if self.holding is not None:
            ids.append(self.holding)
        return ids

    # ---- serialisation ------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": 1,
            "game": "leiff",
            "options": self.options.to_dict(),
            "deck": self.deck.to_dict(),
            "seed": self.seed,
            "deck_order": self.deck_order,
            "log": self.log,
            "round": self.round,
            "first": self.first,
            "labels": self.labels,
            "hands": self.hands,
            "draw": self.draw,
            "discard": self.discard,
            "known": [sorted(k) for k in self.known],
            "step": self.step,
            "turn": self.turn,
            "holding": self.holding,
            "hold_source": self.hold_source,
            "effect": self.effect,
            "looks_left": self.looks_left,
            "spy": self.spy,
            "exchange": None
            if self.exchange is None
            else {
                "by": self.exchange["by"],
                "target": self.exchange["target"],
                "gives": {str(k): v for k, v in sorted(self.exchange["gives"].items())},
            },
            "pending_exchanges": self.pending_exchanges,
            "immune": sorted(self.immune),
            "rule": self.rule,
            "link": self.link,
            "enchantments": self.enchantments,
            "doubled": sorted(self.doubled),
            "caller": self.caller,
            "drinks": self.drinks,
            "refills": self.refills,
            "exhausted": self.exhausted,
            "round_scores": self.round_scores,
            "history": self.history,
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "events": self.events,
            "round_events": self.round_events,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        if data.get("game") != "leiff":
            raise ValueError(f"this JSON holds a {data.get('game')!r} match, not 'leiff'")
        exchange = data["exchange"]
        outcome = data["outcome"]
        return cls(
            options=LeiffOptions.from_mapping(data["options"]),
            deck=Deck.from_dict(data["deck"]),
            seed=data["seed"],
            deck_order=data["deck_order"],
            log=[list(entry) for entry in data["log"]],
            round=data["round"],
            first=data["first"],
            labels=list(data["labels"]),
            hands=[list(h) for h in data["hands"]],
            draw=list(data["draw"]),
            discard=list(data["discard"]),
            known=[set(k) for k in data["known"]],
            step=data["step"],
            turn=data["turn"],
            holding=data["holding"],
            hold_source=data["hold_source"],
            effect=data["effect"],
            looks_left=list(data["looks_left"]),
            spy=data["spy"],
            exchange=None
            if exchange is None
            else {
                "by": exchange["by"],
                "target": exchange["target"],
                "gives": {int(k): v for k, v in exchange["gives"].items()},
            },
            pending_exchanges=[list(e) for e in data["pending_exchanges"]],
            immune=set(data["immune"]),
            rule=data["rule"],
            link=data["link"],
            enchantments=[list(e) for e in data["enchantments"]],
            doubled=set(data["doubled"]),
            caller=data["caller"],
            drinks=[list(d) for d in data["drinks"]],
            refills=data["refills"],
            exhausted=data["exhausted"],
            round_scores=data["round_scores"],
            history=[list(h) for h in data["history"]],
            outcome=None if outcome is None else Outcome.from_dict(outcome),
            events=data["events"],
            # stored before the view remembered the round: it remembers from the next deal
            round_events=list(data.get("round_events", [])),
        )
