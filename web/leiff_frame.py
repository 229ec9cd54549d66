"""What one socket is shown of a Leiff table: the table as every player may see it, and
the hand of the socket's own seat, from that seat's engine view alone.

A seat's view (``state.view(seat)``) holds only the cards that seat knows; a spectator's
(``state.view(None)``) only what the channel sees. A frame is built from exactly one of
them, so a hidden card of another seat never reaches a socket: not in the hands, the held
card, the events (the view keeps only those the viewer may see) or the actions (only the
viewer's own). The lines and the labels are worded as the Discord layer words them
(:mod:`wording`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Mapping
from typing import Any

from engine.leiff.cards import display_name
from engine.leiff.state import LeiffState
from engine.leiff.views import LeiffView
from i18n import N_, translate
from matchcore.service import leiff_logic
from matchcore.service.results import MatchInfo
from render.leiff.cards import special_subtitle
from render.leiff.words import drinks_text, round_line, score_details, table_status
from web.sessions import Identity
from web.texts import BOT_NAME, STATUS_TEXTS
from wording.leiff_actions import action_words
from wording.service_words import leiff_event


def seat_names(info: MatchInfo, names: Mapping[int, Identity], language: str) -> list[str]:
    """How each seat is named: the member as signed in, or the bot (numbered when several)."""
    bots = [s.seat for s in info.seats if s.is_bot]
    found = []
    for seat in sorted(info.seats, key=lambda s: s.seat):
        if seat.is_bot:
            name = translate(language, BOT_NAME)
            found.append(f"{name} {bots.index(seat.seat) + 1}" if len(bots) > 1 else name)
        elif seat.user_id is not None and seat.user_id in names:
            found.append(names[seat.user_id].name)
        else:
            found.append(f"#{seat.user_id}")
    return found


def card_json(label: str | None, language: str) -> dict[str, Any] | None:
    """A card the viewer may see (its label, printed name and a special's subtitle); None
    for a card they may not."""
    if label is None:
        return None
    # a special card keeps its German name in both languages, with what it does beneath
    return {
        "label": label,
        "name": display_name(label),
        "subtitle": special_subtitle(label, language),
    }


def seat_of(info: MatchInfo, user_id: int) -> int | None:
    """The seat a member plays at this table (a seat they left counts as none)."""
    for seat in info.seats:
        if seat.user_id == user_id and not seat.is_bot and not seat.removed:
            return seat.seat
    return None


def leiff_frame(
    info: MatchInfo,
    state: LeiffState,
    *,
    viewer: int,
    names: Mapping[int, Identity],
    language: str,
) -> dict[str, Any]:
    """The ``state`` frame of a Leiff table for the member ``viewer`` (a user id): their own
    seat's view if they sit there, else the spectator's."""
    seat = seat_of(info, viewer)
    view: LeiffView = state.view(seat)
    who = seat_names(info, names, language)
    running = info.status == "running" and not view.get("outcome")
    owners = set(view["waiting_for"]["owners"])
    drinks = view.get("drinks") or []
    seats = []
    for number in range(view["players"]):
        seats.append(
            {
                "seat": number,
                "name": who[number],
                "bot": any(s.seat == number and s.is_bot for s in info.seats),
                "you": number == seat,
                "cards": [card_json(label, language) for label in view["hands"][number]],
                "scores": score_details(view, number, language),
                "drinks": drinks_text(
                    drinks[number] if number < len(drinks) else None,
                    language,
                    settled=view["round_over"],
                )
                if view["options"].get("drinking")
                else "",
                "immune": number in view["immune"],
                "toAct": running and number in owners,
            }
        )
    holding = view["holding"]
    actions: list[dict[str, Any]] = []
    hand_version = None
    if seat is not None and running:
        named = tuple(who)
        actions = [
            action_json(language, action, named, seat)
            for action in leiff_logic.controls(view, seat)
        ]
        hand_version = leiff_logic.hand_version(view, seat)
    lines = [
        leiff_event(language, {"said": {"code": e["code"], "params": e["params"]}, "names": who})
        for e in view["events"]
        if "code" in e and "params" in e
    ]
    status = table_status(view, who, seat, language)
    if info.status not in ("running", "finished") and not status:
        status = translate(language, STATUS_TEXTS.get(info.status, STATUS_TEXTS["finished"]))
    return {
        "type": "state",
        "kind": "leiff",
        "match": info.id,
        "version": info.version,
        "game": info.game,
        "status": info.status,
        "statusText": status,
        "round": round_line(view, language),
        "seats": seats,
        "you": seat,
        "drawCount": view["draw_count"],
        "discardTop": card_json(view["discard_top"], language),
        "holding": None
        if holding is None
        else {
            "seat": holding["seat"],
            "source": holding["source"],
            "card": card_json(holding["card"], language),
        },
        "rule": view["rule"],
        "words": pile_words(view, seat, language),
        "actions": actions,
        "handVersion": hand_version,
        "lines": lines,
        "deadline": info.deadline_at,
        "now": time.time(),
        "seated": seat is not None,
    }


def action_json(
    language: str, action: str, seat_names: tuple[str, ...], reader: int
) -> dict[str, Any]:
    """One offered action as the page shows it: its label, its family's menu, the card it
    is about and its short label beside that card."""
    found = dict(_worded(language, action, reader, len(seat_names)))
    label = found["label"]
    if SEAT_MARK in label:  # the seats it names, by this table's names
        for number, name in enumerate(seat_names):
            label = label.replace(_seat_mark(number), name)
        found["label"] = label
    found["card"] = list(found["card"]) if found["card"] else None  # (kept as a tuple)
    return found


# A seat in a label worded once for every table (its number between two marks no name and
# no catalogue text holds); action_json puts the table's name in its place.
SEAT_MARK = "\x00"


def _seat_mark(number: int) -> str:
    return f"{SEAT_MARK}{number}{SEAT_MARK}"


# The same few dozen actions are offered at every table step after step (a match of each
# own slot, a catch of every other card), to each seat in its language: each is parsed and
# worded once for all tables, by the seats it names rather than their names, not once per
# frame (bench/web_frames.py; docs/benchmarks/web.md). The Discord layer keeps its choices
# in a cache too (bot/features/leiff_tables/labels.py).
@functools.lru_cache(maxsize=4096)
def _worded(language: str, action: str, reader: int, seats: int) -> tuple[tuple[str, Any], ...]:
    marks = tuple(_seat_mark(number) for number in range(seats))
    words = action_words(language, action, marks, reader)
    beside = words.beside
    if beside is None and words.kind == "catch":
        beside = translate(language, CATCH_BESIDE)
    elif beside is None and words.kind == "peek_at":
        beside = translate(language, "bot.leiff.beside.look")
    return (
        ("action", action),
        ("label", words.label),
        ("family", words.family),
        ("menu", words.menu),
        ("card", words.card),
        ("beside", beside),
        ("free", action.startswith("rule")),
    )


CATCH_BESIDE = N_("web.leiff.catch")


def pile_words(view: LeiffView, seat: int | None, language: str) -> dict[str, str]:
    """The piles' and the rule's words, as the pictures write them."""
    words = {
        "draw": translate(language, "picture.leiff.draw_count", count=view["draw_count"]),
        "discard": translate(language, "picture.leiff.discard_top"),
    }
    holding = view["holding"]
    if holding is not None and seat is not None and holding["seat"] == seat:
        source = "drawn" if holding["source"] == "draw" else "taken"
        words["holding"] = translate(language, f"picture.leiff.you_hold_{source}")
    if view["rule"]:
        words["rule"] = translate(language, "picture.leiff.rule", rule=view["rule"])
    if seat is not None and seat in view["immune"]:
        words["immune"] = translate(language, "picture.leiff.you_are_immune")
    return words


def lobby_frame(
    info: MatchInfo, *, viewer: int, names: Mapping[int, Identity], language: str
) -> dict[str, Any]:
    """A Leiff table not started yet: who sits there, and what the member may do (join,
    leave, add a bot seat; the host starts it). The core judges each again."""
    who = seat_names(info, names, language)
    seated = any(s.user_id == viewer for s in info.seats)
    actions = ["leave"] if seated else ["join"]
    if viewer == info.host_id:
        actions += ["add_bot", "start"]
    return {
        "type": "state",
        "kind": "lobby",
        "match": info.id,
        "version": info.version,
        "game": info.game,
        "status": info.status,
        "statusText": translate(language, STATUS_TEXTS["lobby"]),
        "seats": [
            {"seat": s.seat, "name": who[n], "bot": s.is_bot}
            for n, s in enumerate(sorted(info.seats, key=lambda s: s.seat))
        ],
        "actions": [
            {"action": action, "label": translate(language, LOBBY_LABELS[action])}
            for action in actions
        ],
        "seated": seated,
        "now": time.time(),
    }


# The lobby's buttons, as the channel message's (bot/features/leiff_tables/labels.py).
LOBBY_LABELS = {
    "join": N_("bot.leiff.button.join"),
    "leave": N_("bot.leiff.button.leave"),
    "start": N_("bot.leiff.button.start"),
    "add_bot": N_("bot.leiff.button.add_bot"),
}
