"""The hand's layout on its own (no Discord): the legend of special cards, and a hand that
would need more than Discord's 40 components falling back to one text for its slots."""

from __future__ import annotations

from typing import Any

import discord

from bot.common.components import Choice
from bot.common.custom_ids import LEIFF
from bot.common.layout import MAX_COMPONENTS, count_components, texts_of
from bot.common.outgoing import Outgoing
from bot.features.leiff_tables.messages import hand_layout
from i18n import translate


def hand(view: dict[str, Any], choices: list[Choice], language: str = "en") -> Outgoing:
    outgoing = Outgoing("", b"png", "hand.png", choices, LEIFF, 7, 3, language=language)
    outgoing.layout = hand_layout(outgoing, view, 0, ["**Leiff** · table #7"])  # type: ignore[arg-type]
    return outgoing


def payload(outgoing: Outgoing) -> list[dict[str, Any]]:
    view = outgoing.view()
    assert view is not None and view.has_components_v2()
    return view.rows


def test_the_legend_names_each_special_card_the_player_sees_once() -> None:
    for language in ("en", "de"):
        view = {"hands": [["philosopher", None, "7", "philosopher"]], "discard_top": "waiter"}
        rows = payload(hand(view, [], language))
        legend = [t for t in texts_of(rows) if t.startswith("-# ")]
        assert len(legend) == 1
        lines = legend[0].split("\n")
        assert [line.split("**")[1] for line in lines] == ["Kneipenphilosoph", "Kellner"]
        assert translate(language, "card.subtitle.waiter") in lines[1]


def test_a_hand_beyond_forty_components_keeps_every_action() -> None:
    slots = 12
    view = {"hands": [[str(n % 13 + 1) for n in range(slots)]], "discard_top": None}
    choices = [Choice(f"match {n}", f"Match your slot {n}") for n in range(1, slots + 1)]
    choices += [
        Choice(f"catch 1.{n}", f"Catch {n}", discord.ButtonStyle.secondary, "catch", "Catch…")
        for n in range(1, 25)
    ]
    choices += [Choice(a, a) for a in ("draw", "take", "leiff", "~quit")]
    outgoing = hand(view, choices)
    rows = payload(outgoing)
    assert count_components(rows) <= MAX_COMPONENTS
    # no sections: the slots are one text, every action is below
    flat = [c for c in _walk(rows)]
    assert not [c for c in flat if c["type"] == 9]
    ids = {c.get("custom_id", "") for c in flat} | {
        o["value"] for c in flat for o in c.get("options", [])
    }
    for choice in choices:
        assert any(choice.action in i for i in ids), choice.action
    # with few slots the sections stay
    small = hand({"hands": [["3", None]], "discard_top": None}, choices[:2])
    assert [c for c in _walk(payload(small)) if c["type"] == 9]


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for component in components:
        found.append(component)
        found.extend(_walk(component.get("components") or []))
        if isinstance(component.get("accessory"), dict):
            found.extend(_walk([component["accessory"]]))
    return found
