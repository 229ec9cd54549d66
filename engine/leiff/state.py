"""The public Leiff objects: the rules object :class:`Leiff` and the immutable :class:`LeiffState`.

This is the surface the match service, the pictures, the bot and outside checks use (see
``docs/leiff-engine.md``). A state wraps a :class:`Table` that is never changed after the
state is made; ``play`` works on a copy.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.errors import IllegalMove
from engine.leiff.actions import parse_action
from engine.leiff.cards import Deck, load_default_deck
from engine.leiff.events import Event
from engine.leiff.options import MAX_PLAYERS, MIN_PLAYERS, TARGETS, LeiffOptions
from engine.leiff.rules import apply as apply_action
from engine.leiff.rules import deal, legal_actions
from engine.leiff.table import Outcome, Table
from engine.leiff.views import LeiffView, WaitingFor, default_action, view, waiting_for
from engine.phrases import Text
from engine.spec import GameKind, GameSpec, Notation, OptionSpec, Setup

_DEFAULTS = LeiffOptions()
_OPTION_LABELS = {
    "target": Text("game.leiff.option.target", "the total that ends the game"),
    "specials": Text("game.leiff.option.specials", "the five special cards"),
    "drinking": Text("game.leiff.option.drinking", "drinking-rule ledger"),
    "water": Text("game.leiff.option.water", "water rules instead of drinking"),
    "teams": Text("game.leiff.option.teams", "play in teams of two (4 or 6 players)"),
}

# what a table chooses when it opens; the server decides the others (its settings)
_PER_MATCH = frozenset({"target", "teams"})

SPEC = GameSpec(
    name="leiff",
    title=Text("game.leiff.title", "Leiff"),
    tagline=Text(
        "game.leiff.tagline",
        "a party card game: keep your hidden hand low, then call Leiff (2 to 6 players)",
    ),
    tutorial="tutorial.leiff",
    summary=Text(
        "game.leiff.summary",
        "A card game for 2 to 6 players (or teams of two): keep your four face-down cards as "
        "low as you can, remember what you saw, match and catch cards out of turn, and call "
        "Leiff when you think you are lowest.",
    ),
    kind=GameKind.CARDS,
    players=(MIN_PLAYERS, MAX_PLAYERS),
    # LeiffOptions validates them; the players come apart, as the seats taken
    options=tuple(
        OptionSpec(
            name,
            default=getattr(_DEFAULTS, name),
            label=label,
            choices=TARGETS if name == "target" else (),
            per_match=name in _PER_MATCH,
        )
        for name, label in _OPTION_LABELS.items()
    ),
    notation=Notation(examples=("draw", "swap 3", "catch 2.4", "leiff")),
)


class LeiffState:
    """One moment of a Leiff match. Immutable: :meth:`play` returns a new state."""

    __slots__ = ("_table",)

    def __init__(self, table: Table) -> None:
        self._table = table

    # ---- the ENGINE_API surface ---------------------------------------------------------------
    @property
    def players(self) -> int:
        return self._table.players

    @property
    def options(self) -> LeiffOptions:
        return self._table.options

    @property
    def outcome(self) -> Outcome | None:
        return self._table.outcome

    @property
    def hands(self) -> list[list[str]]:
        """The truth: every seat's cards by slot (a fresh list each call)."""
        t = self._table
        return [[t.label(c) for c in hand] for hand in t.hands]

    def actors(self) -> list[int]:
        """Seats that may act right now, ascending; [] once the game is over."""
        return [s for s in range(self.players) if legal_actions(self._table, s)]

    def legal_actions(self, seat: int) -> list[str]:
        """Canonical action strings the seat may play now."""
        return legal_actions(self._table, seat)

    def play(self, seat: int, action: str) -> LeiffState:
        """Apply ``action`` by ``seat``; raises :class:`IllegalMove` (nothing changes) if it may not."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalMove("seat_not_a_number")
        parsed = parse_action(action)
        table = self._table.clone()
        events: list[Event] = []
        apply_action(table, seat, parsed, events)
        table.log.append([seat, str(parsed)])
        table.events = events
        table.remember(events)
        return LeiffState(table)

    def view(self, seat: int | None) -> LeiffView:
        """What ``seat`` may know now; ``None`` is the spectator (the channel)."""
        return view(self._table, seat)

    def winning_seats(self) -> list[int]:
        """The winning seats (ties share the win); [] while the game runs."""
        outcome = self._table.outcome
        return [] if outcome is None else list(outcome.winner)

    # ---- more for the service and the bot -----------------------------------------------------
    @property
    def events(self) -> list[Event]:
        """The events produced by the action that made this state (the deal's, for a new match)."""
        events: list[Event] = json.loads(json.dumps(self._table.events))
        return events

    @property
    def version(self) -> int:
        return len(self._table.log)

    @property
    def log(self) -> tuple[tuple[int, str], ...]:
        return tuple((seat, action) for seat, action in self._table.log)

    @property
    def round(self) -> int:
        return self._table.round

    @property
    def round_over(self) -> bool:
        return self._table.step in ("next", "over")

    def waiting_for(self) -> WaitingFor:
        return waiting_for(self._table)

    def default_action(self, seat: int) -> str | None:
        return default_action(self._table, seat)

    def is_legal(self, seat: int, action: str) -> bool:
        try:
            self.play(seat, action)
        except IllegalMove:
            return False
        return True

    def card_count(self) -> int:
        """Cards in play (hands, piles, a held card): always the whole deck."""
        return len(self._table.all_card_ids())

    def to_dict(self) -> dict[str, Any]:
        return self._table.to_dict()

    def to_json(self) -> str:
        """Byte-stable JSON of the whole truth (seed included: never show it to players)."""
        return self._table.to_json()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LeiffState) and other.to_json() == self.to_json()

    def __hash__(self) -> int:
        return hash(self.to_json())

    def __repr__(self) -> str:
        t = self._table
        return f"<LeiffState players={t.players} round={t.round} step={t.step} turn={t.turn} version={len(t.log)}>"


class Leiff:
    """The rules object: makes Leiff matches (2–6 players, options validated)."""

    spec = SPEC
    name = SPEC.name
    title = SPEC.title.english
    min_players, max_players = SPEC.players
    summary = SPEC.summary.english

    def validate_options(
        self, options: Mapping[str, Any] | None, players: int | None = None
    ) -> LeiffOptions:
        return LeiffOptions.from_mapping(options, players)

    def start(self, setup: Setup) -> LeiffState:
        """A new match from a setup, as every game makes one (:class:`engine.protocols.Game`)."""
        return self.new(setup.players, setup.seed, setup.options)

    def new(
        self,
        players: int | None = None,
        seed: int | str = 0,
        options: Mapping[str, Any] | LeiffOptions | None = None,
        *,
        deck: Deck | Mapping[str, Any] | None = None,
        deck_order: Sequence[str] | None = None,
    ) -> LeiffState:
        """A new match, first round dealt.

        ``deck`` plays another deck (a :class:`Deck` or its dict); ``deck_order`` (tests,
        demos) deals the listed labels first in round 1, see ``docs/leiff-engine.md``.
        """
        if isinstance(options, LeiffOptions):
            opts = (
                options
                if players is None
                else LeiffOptions.from_mapping(options.to_dict(), players)
            )
        else:
            opts = LeiffOptions.from_mapping(options, players)
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise ValueError("the seed must be a whole number or a string")
        if deck is None:
            deck = load_default_deck()
        elif not isinstance(deck, Deck):
            deck = Deck.from_dict(deck)
        table = Table(
            options=opts,
            deck=deck,
            seed=seed,
            deck_order=None if deck_order is None else [str(label) for label in deck_order],
        )
        events: list[Event] = []
        deal(table, events)
        table.events = events
        table.remember(events)
        return LeiffState(table)

    def replay(
        self,
        seed: int | str,
        players: int | None,
        options: Mapping[str, Any] | LeiffOptions | None,
        log: Iterable[Sequence[Any]],
        *,
        deck: Deck | Mapping[str, Any] | None = None,
        deck_order: Sequence[str] | None = None,
    ) -> LeiffState:
        """Rebuild a match from its seed, options and action log (``state.log``)."""
        state = self.new(players, seed, options, deck=deck, deck_order=deck_order)
        for seat, action in log:
            state = state.play(int(seat), str(action))
        return state

    def from_json(self, text: str | bytes | Mapping[str, Any]) -> LeiffState:
        """Rebuild a state from :meth:`LeiffState.to_json` output."""
        data = json.loads(text) if isinstance(text, str | bytes) else json.loads(json.dumps(text))
        return LeiffState(Table.from_dict(data))

    def __repr__(self) -> str:
        return "<Leiff>"
