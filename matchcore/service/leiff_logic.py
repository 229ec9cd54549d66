"""How the service drives Leiff: deadlines, default actions, texts per audience, ranks.

Pure functions over engine states and match records. Hidden cards reach a player only
through that player's own view and the events whose audience includes their seat; the
channel gets public events and the spectator's view.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from typing import Any, TypedDict

from engine.leiff.actions import CALL_LEIFF, OUT_OF_TURN_KINDS
from engine.leiff.events import Event as LeiffEvent
from engine.leiff.events import Said
from engine.leiff.state import LeiffState
from engine.leiff.views import LeiffView
from matchcore.service.board_logic import mention
from matchcore.service.guild_settings import GuildSettings
from matchcore.service.ratings import Placing
from matchcore.service.results import Event, say
from matchcore.service.texts import ENGINE_TEXT
from matchcore.service.time_controls import TimeControl
from matchcore.storage.records import MatchRecord

MIN_PLAYERS = 2
MAX_PLAYERS = 6
TEAM_SIZES = (4, 6)
# A Leiff table's channel message is edited in place, and an edit pings nobody; so a
# player the table has waited this long for gets the clock's reminder (a new message that
# pings them), unless a quarter of their time is left sooner (the usual warning).
REMIND_AFTER_SECONDS = 120.0
# Steps of a player's own turn (timed per turn); every other step is a pending choice.
TURN_STEPS = frozenset({"turn"})
_NAME_TOKEN = re.compile(r"\{p(\d+)\}")
# Actions judged against the table as it is when they arrive, whatever message they came
# from (the Discord layer sends them without a version): matching, catching, penalties and
# dealing the next round.
UNVERSIONED = frozenset({"match", "catch", "penalty", "next"})
# Hand versions live above every match version (a match never takes 500 million actions),
# so a button carrying either kind is told apart; both fit the custom id's nine digits.
HAND_VERSION_BASE = 500_000_000


def fill_names(text: str, record: MatchRecord) -> str:
    """Replace ``{pN}`` with a mention of the user in seat N ("Bot N" for a bot seat)."""

    def name(match: re.Match[str]) -> str:
        return seat_mention(record, int(match.group(1)))

    return _NAME_TOKEN.sub(name, text)


def deadline_key(state: LeiffState) -> tuple[str, int | None, int, str | None]:
    """What the clock is running for: the deadline restarts only when this changes, so
    out-of-turn matching and catching never buy the turn player more time."""
    waiting = state.waiting_for()
    return (waiting["step"], waiting["turn"], waiting["round"], waiting.get("card"))


def period_for(state: LeiffState, settings: GuildSettings, control: TimeControl) -> float | None:
    """Seconds allowed for the current step, or None when nothing is awaited: a turn has
    the table's time per move; any other choice as long in a daily game, else the
    server's time for a choice, at most the time per move."""
    waiting = state.waiting_for()
    if waiting["step"] == "over" or not waiting["owners"]:
        return None
    if waiting["step"] in TURN_STEPS or control.daily:
        return float(control.per_move)
    return float(min(settings.leiff_choice_seconds, control.per_move))


def owners(state: LeiffState) -> list[int]:
    """Seats the engine waits for (they owe the current step's choice)."""
    return list(state.waiting_for()["owners"])


def public_texts(state: LeiffState, record: MatchRecord) -> list[str]:
    return [fill_names(e["text"], record) for e in state.events if e["audience"] == "all"]


def private_texts(state: LeiffState, record: MatchRecord) -> list[tuple[int, str]]:
    """(user id, text) for events only some seats may see (bot seats are told nothing:
    they read their own view; nor are players who left the table, whose hand a bot
    plays)."""
    return [(user, fill_names(item["text"], record)) for user, item in _private(state, record)]


def _private(state: LeiffState, record: MatchRecord) -> list[tuple[int, LeiffEvent]]:
    """(user id, event) for each player told a private event (see :func:`private_texts`)."""
    bots = {s.seat for s in record.seats if s.is_bot or s.removed}
    found = []
    for item in state.events:
        if item["audience"] == "all":
            continue
        for seat in item["audience"]:
            user = record.user_of(seat)
            if user is not None and seat not in bots:
                found.append((user, item))
    return found


def _names(state: LeiffState, record: MatchRecord) -> list[str]:
    """How the lines name each seat's player (see :func:`fill_names`)."""
    return [seat_mention(record, seat) for seat in range(state.players)]


def seat_mention(record: MatchRecord, seat: int) -> str:
    """How lines name the player in a Leiff seat. Every seat at a table has a user (a member
    or a bot seat's pseudo id); "?" only for a seat number the table does not have."""
    user = record.user_of(seat)
    return "?" if user is None else mention(user)


def _engine_said(item: LeiffEvent, names: list[str]) -> _EngineSaid:
    """What an engine event says, as the Discord layer words it in the reader's language:
    its code and parameters (``engine.leiff.events``) and the players' names; an event
    stored before the engine spoke in codes has only its English ``text``."""
    if "code" not in item or "params" not in item:
        return {}
    return {"said": {"code": item["code"], "params": item["params"]}, "names": names}


class _EngineSaid(TypedDict, total=False):
    said: Said
    names: list[str]


def public_lines(state: LeiffState, record: MatchRecord) -> list[Event]:
    """The public events of the engine's last step as lines for the channel (the engine's
    code and parameters, and its English with the players' names filled in)."""
    names = _names(state, record)
    return [
        say(
            ENGINE_TEXT,
            text=fill_names(e["text"], record),
            engine_kind=e["kind"],
            **_engine_said(e, names),
        )
        for e in state.events
        if e["audience"] == "all" and e["text"]
    ]


def private_lines(state: LeiffState, record: MatchRecord) -> list[Event]:
    """The private events of the engine's last step as lines for each player told (see
    :func:`private_texts` for who is told)."""
    names = _names(state, record)
    return [
        say(
            ENGINE_TEXT,
            to=user,
            text=fill_names(item["text"], record),
            **_engine_said(item, names),
        )
        for user, item in _private(state, record)
        if item["text"]
    ]


def public_events(state: LeiffState) -> list[tuple[str, dict[str, object]]]:
    return [(e["kind"], dict(e["data"])) for e in state.events if e["audience"] == "all"]


def hand_version(view: LeiffView, seat: int) -> int:
    """The version a player's private buttons carry: a digest of what their decisions rest
    on, taken from their own view (``state.view(seat)``): the round, their hand as they know
    it, the card they hold, the choices the engine offers them now, and the discard top
    while taking it is one of them.

    Other players' moves that leave all this alone keep it, so a click on a message that
    is still right for its player is judged against the newest state instead of being
    refused, and their message needs no edit. Everything it covers is in
    :func:`private_basis`, so whenever it changes the player is sent new buttons.
    """
    actions = [a for a in view["legal_actions"] if a.split(" ", 1)[0] not in UNVERSIONED]
    holding = view.get("holding")
    basis = {
        "seat": seat,
        "round": view["round"],
        "hand": view["hands"][seat],
        "holding": holding if holding and holding.get("seat") == seat else None,
        "actions": actions,
        "top": view["discard_top"] if "take" in actions else None,
    }
    text = json.dumps(basis, sort_keys=True, separators=(",", ":"))
    digest = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
    return HAND_VERSION_BASE + digest % HAND_VERSION_BASE


def owner_refusal(state: LeiffState, seat: int) -> str:
    """Why a choice the engine waits for from ``seat`` was refused, and what to do instead:
    a service error code ("now_<step>"), never a list of internal actions or seat numbers."""
    waiting = state.waiting_for()
    step = waiting["step"]
    verbs = {action.split(" ", 1)[0] for action in state.legal_actions(seat)}
    if step == "look":
        return "now_look"
    if step == "turn":
        options = [verb for verb in ("draw", "take", CALL_LEIFF) if verb in verbs]
        return "now_turn_" + "_".join(options)
    if step == "hold":
        return "now_hold_or_discard" if "discard" in verbs else "now_hold"
    if step == "effect":
        return "now_effect_or_skip" if "decline" in verbs else "now_effect"
    if step in ("spy", "exchange", "next"):
        return f"now_{step}"
    return "now_wait"


def controls(view: LeiffView, seat: int) -> list[str]:
    """The actions a player's private message offers, from their own view: the choices
    the engine waits for from them, and the out-of-turn ones (match one of your cards,
    catch another's, a team penalty) for every slot at the table while a round is played.

    The out-of-turn controls are offered whatever the current step: whether one may be
    used is judged when it arrives (the rules judge them against the pile as it is then),
    so they do not come and go with every step of the others, and the message needs no
    edit for that.
    """
    own = [a for a in view["legal_actions"] if a.split(" ", 1)[0] not in OUT_OF_TURN_KINDS]
    if (
        view["round_over"]
        or view.get("outcome")
        or view["waiting_for"]["step"]
        in (
            "next",
            "over",
        )
    ):
        return own
    sizes = view["hand_sizes"]
    found = [f"match {slot}" for slot in range(1, sizes[seat] + 1)]
    found += [
        f"catch {other}.{slot}"
        for other in range(len(sizes))
        if other != seat
        for slot in range(1, sizes[other] + 1)
    ]
    teams = view.get("teams")
    if teams:
        mine: list[int] = next((team for team in teams if seat in team), [])
        found += [f"penalty {other}" for other in range(len(sizes)) if other not in mine]
    return own + found


def private_basis(view: LeiffView, seat: int) -> tuple[Any, ...]:
    """Everything a player's private message shows, from their own view: the hand picture
    (``render.render_hand``: their cards as they know them, the card they hold, the
    discard top only while they hold a card or may take it, their total, immunity, the
    table rule, what the table waits for from them, the result) and their controls.

    What changes with every action (the discard top, the piles, whose turn it is) is left
    out, so a player's message is edited only when their own hand, turn or knowledge
    changed; the table in the channel shows the rest.
    """
    holding = view.get("holding")
    mine = holding if holding and holding.get("seat") == seat else None
    actions = controls(view, seat)
    waiting = view["waiting_for"]
    owes = seat in waiting.get("owners", ())
    totals = view.get("totals") or []
    return (
        view["round"],
        view["hands"][seat],
        mine,
        view["discard_top"] if mine or "take" in actions else None,
        view["round_over"],
        actions,
        (waiting["step"], waiting.get("card")) if owes else None,
        totals[seat] if seat < len(totals) else None,
        seat in (view.get("immune") or ()),
        view.get("rule"),
        view.get("outcome"),
    )


def hand_changed(before: LeiffState | None, after: LeiffState, seat: int) -> bool:
    """Whether ``seat``'s private message must be redrawn (see :func:`private_basis`)."""
    if before is None:
        return True
    return private_basis(before.view(seat), seat) != private_basis(after.view(seat), seat)


def teams_of(state: LeiffState) -> list[list[int]]:
    teams = state.view(None).get("teams")
    return [list(team) for team in teams] if teams else [[seat] for seat in range(state.players)]


def team_places(
    state: LeiffState, removed: Sequence[int], winners: Sequence[int]
) -> tuple[list[int], int]:
    """Each seat's place at the end of a game and the number of places (teams, or seats
    without teams), bots included: ``winners`` (seats) first, then by total (lower is
    better), players (or teams with a player) who left or were removed last. A place is
    one more than the number of teams strictly ahead (equal teams share it: 1, 2, 2, 4),
    so a place reads as "2nd of 4". Partners share their team's place.

    The migration that stored the places of earlier games (``0009_placements``) derives
    them the same way in SQL; tests/storage/test_placements.py holds the two together."""
    view = state.view(None)
    totals = view["totals"]
    teams = teams_of(state)
    removed_set, winner_seats = set(removed), set(winners)
    # (0, 0) won, (1, total) lost, (2, 0) left: the smaller key placed better
    keys = []
    for team in teams:
        if removed_set & set(team):
            keys.append((2, 0))
        elif winner_seats & set(team):
            keys.append((0, 0))
        else:
            keys.append((1, min(totals[seat] for seat in team)))
    places = [0] * state.players
    for team, key in zip(teams, keys, strict=True):
        place = 1 + sum(1 for other in keys if other < key)
        for seat in team:
            places[seat] = place
    return places, len(teams)


def placings(
    record: MatchRecord, state: LeiffState, places: Sequence[int], field: int
) -> list[Placing]:
    """The rated placings of a finished game from each seat's place (:func:`team_places`):
    one per team with a person in it; bot seats are left out, so ratings only compare the
    people with each other (a bot's place still counts in theirs: 2nd of 4 behind a bot)."""
    bots = {s.seat for s in record.seats if s.is_bot}
    result = []
    for team in teams_of(state):
        users = tuple(
            u for u in (record.user_of(seat) for seat in team if seat not in bots) if u is not None
        )
        if users:
            result.append(Placing(user_ids=users, rank=places[team[0]], field=field))
    return result
