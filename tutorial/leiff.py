"""The Leiff tutorial: the cards, the deal and what you see, a turn, matching and catching,
the Leiff call and the score, each card with an effect, the five special cards, drinking
and water rules, teams, and a practice table.

Every table is dealt from a stacked deck: Anna, Ben and Cem (seats 0, 1 and 2) get the
cards listed, in slots 1 to 4.
"""

from __future__ import annotations

from i18n import N_
from tutorial.cards import (
    After,
    CardClaim,
    CardExample,
    Cards,
    Deal,
    Hand,
    Offers,
    Sees,
    Shows,
    TablePicture,
    Values,
    Waits,
)
from tutorial.pages import Page

ANNA, BEN, CEM = 0, 1, 2
HANDS = ("3 5 12 7", "5 1 9 2", "10 6 4 8")  # Anna sees 3 and 5, Ben 5 and 1, Cem 10 and 6
SLOTS = tuple(f"swap {slot}" for slot in range(1, 5))
SPECIALS = {"specials": True}


def _drawn(card: str, **options: bool) -> Deal:
    """The usual table, with ``card`` on top of the draw pile."""
    return Deal(HANDS, "6", card, options)


def _discarded(card: str, *then: str) -> tuple[tuple[int, str], ...]:
    """Anna draws ``card`` and discards it at once (its effect is then hers), then plays
    ``then``."""
    return ((ANNA, "draw"), (ANNA, "discard"), *((ANNA, action) for action in then))


def _special(
    label: str, actions: tuple[str, ...], *more: CardClaim, **options: bool
) -> CardExample:
    """A special card's page: the card shown large, what discarding it offers, and more."""
    return CardExample(
        _drawn(label, specials=True, **options),
        (After(_discarded(label), (Offers(ANNA, actions),)), *more),
        Cards((label,)),
    )


PAGES = (
    Page(
        N_("tutorial.leiff.cards.title"),
        N_("tutorial.leiff.cards.body"),
        CardExample(
            None,
            (Values({"-1": -1, "slot": 0, "1": 1, "7": 7, "12": 12, "13": 13, "waiter": 4}),),
            Cards(("-1", "slot", "1", "7", "13")),
        ),
    ),
    Page(
        N_("tutorial.leiff.deal.title"),
        N_("tutorial.leiff.deal.body"),
        CardExample(
            Deal(HANDS, "6"),
            (
                Sees(ANNA, {ANNA: ("3", "5", None, None), BEN: (None, None, None, None)}),
                Sees(BEN, {BEN: ("5", "1", None, None), ANNA: (None, None, None, None)}),
                Sees(None, {ANNA: (None, None, None, None)}),
            ),
            Hand(ANNA, rings=(1, 2)),
            caption=N_("tutorial.leiff.deal.caption"),
        ),
    ),
    Page(
        N_("tutorial.leiff.turn.title"),
        N_("tutorial.leiff.turn.body"),
        CardExample(
            Deal(HANDS, "6", "2", actions=((ANNA, "draw"),)),
            (
                After((), (Offers(ANNA, ("leiff", "draw", "take")),)),
                Offers(ANNA, (*SLOTS, "discard")),
                After(((ANNA, "take"),), (Offers(ANNA, SLOTS, absent=("discard",)),)),
                After(((ANNA, "draw"), (ANNA, "swap 1")), (Shows("discard_top", "3"),)),
            ),
            Hand(ANNA),
        ),
    ),
    Page(
        N_("tutorial.leiff.match.title"),
        N_("tutorial.leiff.match.body"),
        CardExample(
            Deal(HANDS, "5"),
            (
                Offers(BEN, ("match 1", "match 2")),  # out of turn too
                After(
                    ((ANNA, "match 2"),),
                    (Shows("discard_top", "5"), Shows("hand_sizes", [3, 4, 4])),
                ),
                After(((ANNA, "match 1"),), (Shows("hand_sizes", [6, 4, 4]),)),
            ),
            Hand(ANNA, rings=(2,)),
            caption=N_("tutorial.leiff.match.caption"),
        ),
    ),
    Page(
        N_("tutorial.leiff.catch.title"),
        N_("tutorial.leiff.catch.body"),
        CardExample(
            Deal(HANDS, "5", actions=((ANNA, "catch 1.1"),)),
            (
                Shows("discard_top", "5"),
                Shows("hand_sizes", [4, 5, 4]),
                After(((CEM, "catch 1.2"),), (Shows("hand_sizes", [4, 4, 5]),)),
            ),
            TablePicture(),
            caption=N_("tutorial.leiff.catch.caption"),
        ),
    ),
    Page(
        N_("tutorial.leiff.call.title"),
        N_("tutorial.leiff.call.body"),
        CardExample(
            Deal(("-1 2 3 1", "5 1 9 2", "10 6 4 8"), "6", actions=((ANNA, "leiff"),)),
            (Shows("round_over", True), Shows("round_scores", [0, 17, 28])),
            TablePicture(),
        ),
    ),
    Page(
        N_("tutorial.leiff.seven.title"),
        N_("tutorial.leiff.seven.body"),
        CardExample(
            Deal(HANDS, "6", "7", actions=_discarded("7", "peek 3")),
            (
                After(_discarded("7"), (Offers(ANNA, ("peek 1", "peek 4", "decline")),)),
                Sees(ANNA, {ANNA: ("3", "5", "12", None)}),
                # a 7 put into the hand does nothing: the old card is discarded, Ben's turn
                After(((ANNA, "draw"), (ANNA, "swap 4")), (Waits("turn", BEN),)),
            ),
            Hand(ANNA, rings=(3,)),
        ),
    ),
    Page(
        N_("tutorial.leiff.eight.title"),
        N_("tutorial.leiff.eight.body"),
        CardExample(
            Deal(HANDS, "6", "8", actions=_discarded("8", "peek 1.3")),
            (
                After(_discarded("8"), (Offers(ANNA, ("peek 0.4", "peek 1.3", "peek 2.1")),)),
                Sees(ANNA, {BEN: (None, None, "9", None)}),
                Sees(BEN, {BEN: ("5", "1", None, None)}),
            ),
            TablePicture(viewer=ANNA),
            caption=N_("tutorial.leiff.eight.caption"),
        ),
    ),
    Page(
        N_("tutorial.leiff.nine.title"),
        N_("tutorial.leiff.nine.body"),
        CardExample(
            # Anna knows the 12 in her slot 2 and gives it away for Ben's unseen slot 3
            Deal(
                ("3 12 5 7", "5 1 2 9", "10 6 4 8"),
                "6",
                "9",
                actions=_discarded("9", "trade 0.2 1.3"),
            ),
            (
                After(
                    _discarded("9"),
                    (Offers(ANNA, ("trade 0.2 1.3", "trade 1.1 2.1"), absent=("trade 1.1 1.2",)),),
                ),
                Sees(ANNA, {ANNA: ("3", None, None, None), BEN: (None, None, "12", None)}),
                Sees(BEN, {BEN: ("5", "1", None, None)}),
            ),
            TablePicture(viewer=ANNA),
            caption=N_("tutorial.leiff.nine.caption"),
        ),
    ),
    Page(
        N_("tutorial.leiff.slot.title"),
        N_("tutorial.leiff.slot.body"),
        CardExample(
            _drawn("slot"),
            (
                After(
                    _discarded("slot"),
                    (Offers(ANNA, ("slot discard 1", "slot give 1", "slot give 2", "decline")),),
                ),
                After(
                    _discarded("slot", "slot give 1"),
                    (Shows("hand_sizes", [4, 5, 4]), Offers(BEN, ("draw",), absent=("take",))),
                ),
            ),
            Cards(("slot",)),
        ),
    ),
    Page(
        N_("tutorial.leiff.philosopher.title"),
        N_("tutorial.leiff.philosopher.body"),
        _special(
            "philosopher",
            ("rotate 1 1", "rotate 2 3", "decline"),
            After(
                _discarded("philosopher", "rotate 1 1"),
                (Sees(BEN, {BEN: (None, None, None, None)}),),
            ),
        ),
    ),
    Page(
        N_("tutorial.leiff.waiter.title"),
        N_("tutorial.leiff.waiter.body"),
        _special(
            "waiter",
            ("immune", "decline"),
            After(_discarded("waiter", "immune"), (Shows("immune", [ANNA]),)),
        ),
    ),
    Page(
        N_("tutorial.leiff.gossip.title"),
        N_("tutorial.leiff.gossip.body"),
        _special(
            "gossip",
            ("decline",),
            After(
                _discarded("gossip", "rule Whoever says Leiff too early drinks a sip"),
                (Shows("rule", "Whoever says Leiff too early drinks a sip"),),
            ),
        ),
    ),
    Page(
        N_("tutorial.leiff.belle.title"),
        N_("tutorial.leiff.belle.body"),
        _special(
            "belle",
            ("belle link", "belle swap", "decline"),
            After(_discarded("belle", "belle link"), (Shows("link", {"seat": ANNA, "to": CEM}),)),
            After(
                _discarded("belle", "belle swap"),
                # Anna keeps knowing her old 3 and 5, now in Ben's hand; hers are new to her
                (Sees(ANNA, {ANNA: (None, None, None, None), BEN: ("3", "5", None, None)}),),
            ),
            drinking=True,
        ),
    ),
    Page(
        N_("tutorial.leiff.magician.title"),
        N_("tutorial.leiff.magician.body"),
        _special(
            "magician",
            ("enchant 1", "enchant 2", "decline"),
            After(
                _discarded("magician", "enchant 2"),
                (Shows("enchantments", [{"by": ANNA, "target": CEM}]),),
            ),
            drinking=True,
        ),
    ),
    Page(
        N_("tutorial.leiff.drinking.title"),
        N_("tutorial.leiff.drinking.body"),
        CardExample(
            Deal(
                ("-1 -1 slot 1", "13 10 4 2", "10 6 4 8"),
                "6",
                options={"drinking": True},
                actions=((ANNA, "leiff"),),
            ),
            (
                Shows(
                    "drinks",
                    [
                        {"sips": 0, "shots": 0, "hand_out": 1},
                        {"sips": 2, "shots": 2, "hand_out": 0},
                        {"sips": 6, "shots": 1, "hand_out": 0},
                    ],
                ),
            ),
            TablePicture(),
        ),
    ),
    Page(
        N_("tutorial.leiff.water.title"),
        N_("tutorial.leiff.water.body"),
        CardExample(
            Deal(HANDS, "6", "belle magician", {"specials": True, "drinking": True, "water": True}),
            (
                After(
                    _discarded("belle"),
                    (Offers(ANNA, ("belle show 1", "belle swap"), absent=("belle link",)),),
                ),
                # Ben then draws the Magier and enchants Anna: she looks at two of his cards
                After(
                    (
                        *_discarded("belle", "belle show 1"),
                        (BEN, "draw"),
                        (BEN, "discard"),
                        (BEN, "enchant 0"),
                    ),
                    (Waits("spy"), Offers(ANNA, ("spy 1", "spy 4"))),
                ),
            ),
            Cards(("belle", "magician")),
        ),
    ),
    Page(
        N_("tutorial.leiff.teams.title"),
        N_("tutorial.leiff.teams.body"),
        CardExample(
            Deal(("3 5 12 7", "5 1 9 2", "10 6 4 8", "2 11 1 6"), "6", options={"teams": True}),
            (
                Shows("teams", [[0, 2], [1, 3]]),
                Waits("look"),
                Offers(ANNA, ("look 1", "look 2", "look 3", "look 4")),
                After(
                    tuple((seat, f"look {slot}") for seat in range(4) for slot in (3, 4)),
                    (
                        Sees(ANNA, {ANNA: (None, None, "12", "7")}),
                        Offers(BEN, ("penalty 0", "penalty 2"), absent=("penalty 3",)),
                    ),
                ),
            ),
            TablePicture(),
        ),
    ),
    Page(
        N_("tutorial.leiff.practice.title"),
        N_("tutorial.leiff.practice.body"),
        CardExample(
            Deal(HANDS, "6"),
            (Sees(ANNA, {ANNA: ("3", "5", None, None)}),),
            Hand(ANNA),
        ),
        practice=True,
    ),
)
