"""A Leiff table's replay never shows a hidden card: every page of whole random games (2 to
6 players, special cards and drinking rules, matches, catches and penalties out of turn)
is compared with what the channel's view showed at that moment of the game, card by card
and as a picture. The game is stepped here independently of the replay, so the public view
each page must match is the table's own at that step, not a list written into the test."""

from __future__ import annotations

import random

import pytest

import render
from engine.leiff import random_action
from engine.leiff.state import Leiff, LeiffState
from engine.leiff.views import LeiffView
from matchcore.service.leiff_replay import round_ends

NAMES = ("Ann", "Bob", "Cleo", "Dirk", "Eve", "Finn")
OPTIONS = {"specials": True, "drinking": True, "target": 100}


def _shown_cards(view: LeiffView) -> set[tuple[str, int, int, str]]:
    """Every card a view shows face up, by where it lies: (place, seat, slot, label)."""
    cards = {
        ("hand", seat, slot, label)
        for seat, hand in enumerate(view["hands"])
        for slot, label in enumerate(hand)
        if label is not None
    }
    if view["discard_top"] is not None:
        cards.add(("discard", 0, 0, view["discard_top"]))
    holding = view["holding"]
    if holding is not None and holding["card"] is not None:
        cards.add(("holding", holding["seat"] or 0, 0, holding["card"]))
    return cards


def _hidden_cards(state: LeiffState, public: LeiffView) -> set[tuple[str, int, int, str]]:
    """The cards of the hands that the channel's view does not show at this step."""
    return {
        ("hand", seat, slot, label)
        for seat, hand in enumerate(state.hands)
        for slot, label in enumerate(hand)
        if public["hands"][seat][slot] is None
    }


def _play(players: int, seed: int) -> tuple[LeiffState, list[tuple[LeiffState, LeiffView]]]:
    """A whole random game: its last state and, at every step, the state and the view the
    channel was shown then."""
    rng = random.Random(seed)
    state = Leiff().new(players, seed, OPTIONS)
    steps = [(state, state.view(None))]
    for _ in range(20_000):
        if state.outcome is not None:
            return state, steps
        owners = state.waiting_for()["owners"]
        if owners and rng.random() < 0.75:  # mostly the players the table waits for
            seat = rng.choice(owners)
            action = rng.choice(state.legal_actions(seat))
        else:  # and now and then anyone: matches, catches, penalties out of turn
            seat, action = random_action(state, rng)
        state = state.play(seat, action)
        steps.append((state, state.view(None)))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (3, 6)])
def test_no_page_of_a_table_replay_shows_a_hidden_card(players: int, seed: int) -> None:
    final, steps = _play(players, seed)
    pages = round_ends(final)
    assert len(pages) == len(final.to_dict()["history"])  # a page per round played
    shown_at = [public for _, public in steps]
    for page in pages:
        assert page["viewer"] is None
        # the page is one of the views the channel was shown, at that very step
        step = shown_at.index(page)
        state, public = steps[step]
        assert _shown_cards(page) <= _shown_cards(public)
        assert not _shown_cards(page) & _hidden_cards(state, public)
        # and its picture is exactly the picture of that public view
        drawn = render.table_png(page, names=NAMES[:players], language="de")
        assert drawn == render.table_png(public, names=NAMES[:players], language="de")


def test_the_check_finds_a_card_the_channel_did_not_see() -> None:
    """The comparison above can fail: a player's own view in the middle of a round shows a
    card that the channel's view at that step does not."""
    _, steps = _play(3, 9)
    found = False
    for state, public in steps:
        if state.waiting_for()["step"] in ("next", "over"):
            continue
        for seat in range(3):
            own = state.view(seat)
            if _shown_cards(own) & _hidden_cards(state, public):
                found = True
                break
        if found:
            break
    assert found
