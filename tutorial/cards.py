"""Tutorial examples of Leiff: a real table dealt from a stacked deck, what the page says
about it, and the picture (a hand, the table, or cards shown large).

As with the boards (:mod:`tutorial.boards`), every claim asks the engine: the actions a
seat is offered, what a seat's view shows, hand sizes, the discard pile's top card, round
scores, the drink ledger. Tables are dealt with the engine's own ``deck_order`` (the listed
cards first, the rest shuffled), and actions are played with ``state.play`` as in a game.
The pictures are the game's own hand and table pictures, drawn from views.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from PIL import Image

from engine import IllegalMove
from engine.leiff import Leiff, LeiffState
from engine.leiff.cards import card_value, load_default_deck
from i18n import translate
from render.annotations import caption_band
from render.card_marks import render_cards, render_hand_marked
from render.leiff import render_table
from render.themes import get_theme

NAMES = ["Anna", "Ben", "Cem", "Dana"]  # the seats' names in every picture and text
PICTURE_WIDTH = 480
LEIFF = Leiff()
Action = tuple[int, str]


@dataclass(frozen=True)
class Deal:
    """A table dealt from a stacked deck: each seat's four cards (``"3 5 12 7"``, slots 1
    to 4), the discard pile's first card, the top of the draw pile (first card first), the
    options; then ``actions`` (seat, action) are played."""

    hands: tuple[str, ...]
    discard: str
    draw: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    actions: tuple[Action, ...] = ()

    def start(self) -> LeiffState:
        order = [label for hand in self.hands for label in hand.split()]
        order += [self.discard, *self.draw.split()]
        return LEIFF.new(
            players=len(self.hands), seed=0, options=dict(self.options), deck_order=order
        )

    def build(self) -> LeiffState:
        state = self.start()
        for seat, action in self.actions:
            state = state.play(seat, action)
        return state


class CardClaim(Protocol):
    """One thing a page says about its table: checked on the page's table (``state``) or,
    for :class:`After`, on the table as dealt (``start``) with more actions played."""

    def problems(self, state: LeiffState, start: LeiffState) -> list[str]: ...


def _differs(what: str, declared: object, engine: object) -> list[str]:
    return [] if declared == engine else [f"{what}: the page says {declared}, the engine {engine}"]


@dataclass(frozen=True)
class Offers:
    """``seat`` may now play every one of ``actions``, and none of ``absent``."""

    seat: int
    actions: tuple[str, ...]
    absent: tuple[str, ...] = ()

    def problems(self, state: LeiffState, start: LeiffState) -> list[str]:
        legal = set(state.legal_actions(self.seat))
        missing = sorted(set(self.actions) - legal)
        allowed = sorted(set(self.absent) & legal)
        found = [f"{NAMES[self.seat]} is not offered {missing}"] if missing else []
        if allowed:
            found.append(f"{NAMES[self.seat]} is offered {allowed}, which the page says is not")
        return found


@dataclass(frozen=True)
class Sees:
    """What ``seat``'s view shows of each hand: ``{seat: (label or None per slot)}``."""

    seat: int | None
    hands: Mapping[int, tuple[str | None, ...]]

    def problems(self, state: LeiffState, start: LeiffState) -> list[str]:
        view = state.view(self.seat)
        found = []
        for owner, labels in self.hands.items():
            shown = tuple(view["hands"][owner])
            who = "the table" if self.seat is None else NAMES[self.seat]
            found += _differs(f"what {who} sees of {NAMES[owner]}'s hand", labels, shown)
        return found


@dataclass(frozen=True)
class Shows:
    """A field of the table's view (the channel's) holds ``value``: hand sizes, the
    discard pile's top, round scores, the ledger, the table rule, immunity, teams."""

    key: str
    value: object

    def problems(self, state: LeiffState, start: LeiffState) -> list[str]:
        view: Mapping[str, Any] = state.view(None)
        return _differs(f"the table's {self.key}", self.value, view.get(self.key))


@dataclass(frozen=True)
class Waits:
    """The engine waits for ``step`` (``turn``, ``effect``, ``spy`` ...) of ``seat``."""

    step: str
    seat: int | None = None

    def problems(self, state: LeiffState, start: LeiffState) -> list[str]:
        waiting = state.waiting_for()
        found = _differs("what the table waits for", self.step, waiting["step"])
        if self.seat is not None:
            found += _differs("whose turn it is", self.seat, waiting["turn"])
        return found


@dataclass(frozen=True)
class After:
    """``claims`` hold after ``actions`` are played on the table as dealt (the page's other
    claims are about the table its picture shows)."""

    actions: tuple[Action, ...]
    claims: tuple[CardClaim, ...]

    def problems(self, state: LeiffState, start: LeiffState) -> list[str]:
        table = start
        for seat, action in self.actions:
            try:
                table = table.play(seat, action)
            except IllegalMove as error:
                return [f"{NAMES[seat]} may not play {action!r}: {error}"]
        steps = ", ".join(action for _, action in self.actions)
        return [
            f"after {steps}: {p}" for claim in self.claims for p in claim.problems(table, start)
        ]


@dataclass(frozen=True)
class Values:
    """The cards are worth these points, and the deck holds ``base`` cards (``specials``
    more with the expansion)."""

    values: Mapping[str, int]
    base: int = 56
    specials: int = 5

    def problems(self, state: LeiffState, start: LeiffState) -> list[str]:
        deck = load_default_deck()
        found = _differs("the cards in the deck", self.base, len(deck.cards(False)))
        found += _differs(
            "the special cards", self.specials, len(deck.cards(True)) - len(deck.cards(False))
        )
        for label, value in self.values.items():
            found += _differs(f"the points of {label}", value, card_value(label))
        return found


# ---- pictures -------------------------------------------------------------------------------


class CardPicture(Protocol):
    def draw(self, state: LeiffState, language: str, theme: str) -> Image.Image: ...


@dataclass(frozen=True)
class Hand:
    """``seat``'s hand as its owner sees it, the cards of ``rings`` (slots from 1) ringed."""

    seat: int
    rings: tuple[int, ...] = ()

    def draw(self, state: LeiffState, language: str, theme: str) -> Image.Image:
        return render_hand_marked(
            state.view(self.seat),
            self.seat,
            self.rings,
            names=NAMES[: state.players],
            theme=theme,
            width=PICTURE_WIDTH,
            language=language,
        )


@dataclass(frozen=True)
class TablePicture:
    """The table as ``viewer`` sees it (None: the channel's picture)."""

    viewer: int | None = None

    def draw(self, state: LeiffState, language: str, theme: str) -> Image.Image:
        return render_table(
            state.view(self.viewer),
            names=NAMES[: state.players],
            theme=theme,
            width=PICTURE_WIDTH,
            language=language,
        )


@dataclass(frozen=True)
class Cards:
    """Cards shown large (their points are in their corners)."""

    labels: tuple[str, ...]

    def draw(self, language: str, theme: str) -> Image.Image:
        return render_cards(self.labels, theme=theme, width=PICTURE_WIDTH, language=language).image


@dataclass(frozen=True)
class CardExample:
    """A Leiff page's table (``deal``; None when only cards are shown), its claims, its
    picture and an optional caption (a message id) above it."""

    deal: Deal | None
    claims: tuple[CardClaim, ...]
    picture_of: Hand | TablePicture | Cards
    caption: str | None = None

    def state(self) -> LeiffState | None:
        return None if self.deal is None else self.deal.build()

    def problems(self) -> list[str]:
        if self.deal is None:
            start = state = LEIFF.new(players=2)
        else:
            try:
                start, state = self.deal.start(), self.deal.build()
            except (IllegalMove, ValueError) as error:
                return [f"the table cannot be dealt: {error}"]
        return [problem for claim in self.claims for problem in claim.problems(state, start)]

    def named_cells(self) -> set[str]:
        return set()  # a card game has no cells to name

    def picture(self, language: str, theme: str) -> Image.Image:
        state = self.state()
        if isinstance(self.picture_of, Cards):
            image = self.picture_of.draw(language, theme)
        else:
            assert state is not None, "a hand or table picture needs a deal"
            image = self.picture_of.draw(state, language, theme)
        if self.caption is None:
            return image
        band = caption_band(translate(language, self.caption), image.width, get_theme(theme))
        framed = Image.new("RGB", (image.width, band.height + image.height))
        framed.paste(band, (0, 0))
        framed.paste(image, (0, band.height))
        return framed
