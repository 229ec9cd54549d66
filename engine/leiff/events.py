"""Events: one message for one audience, produced by an action, said as a code.

An event is a plain JSON dict, typed as :class:`Event`: ``{"kind", "audience", "code",
"params", "text", "data"}``.
``audience`` is ``"all"`` (the channel and everyone) or a sorted list of seats. ``code`` is
a key of :data:`ENGLISH` (the catalogue's ``leiff.<code>``) and ``params`` its parameters,
so the edges word an event in the reader's language; ``text`` is its English, kept for
logs, tests and the English readers of the engine's surface. In ``text``, ``{pN}`` stands
for player N's name and cards are written in brackets, ``[7]``, so that a reader (and the
tests) can see at a glance which card values a message names.

Parameters are plain JSON values, typed by their names (:func:`words` reads them):

- ``player`` or ``..._player``: a seat, written as that player's name;
- ``card`` or ``..._card``: a card label, written as the card's name in brackets;
- ``players``: a list of seats ("Ann and Ben"); ``cards``: a list of card labels;
- a part (:func:`said`: ``{"code", "params"}``) is worded itself; a list of parts is
  joined with :data:`SEPARATORS` of its name;
- ``count`` chooses the form of a code with two English forms (singular, plural);
- anything else (a slot, a round, a score, a table rule) is written as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Literal, NotRequired, TypeAlias, TypedDict

from engine.errors import fill
from engine.leiff.cards import display_name

PUBLIC: Literal["all"] = "all"
# who an event is for: everyone, or these seats (sorted)
Audience: TypeAlias = Literal["all"] | list[int]
# a parameter of something said (see the module's docstring)
Param: TypeAlias = "int | str | Sequence[int] | Sequence[str] | Said | Sequence[Said]"


class Said(TypedDict):
    """Something said: a code of :data:`ENGLISH` and its parameters."""

    code: str
    params: dict[str, Param]


class Event(TypedDict):
    """One message for one audience (see the module's docstring). ``data`` holds the plain
    facts of the event by name (a seat, a card, the scores; JSON values) for whoever reads
    them; an event stored before the engine spoke in codes has no ``code`` nor ``params``."""

    kind: str
    audience: Audience
    code: NotRequired[str]
    params: NotRequired[dict[str, Param]]
    text: str
    data: dict[str, object]


_NAME_TOKEN = re.compile(r"\{p(\d+)\}")

# code -> English (a pair: singular and plural, chosen by ``count``); the catalogue's
# ``leiff.<code>`` (copied into the English catalogue by ``make i18n-update``).
ENGLISH: dict[str, str | tuple[str, str]] = {
    # ---- dealing and looking -------------------------------------------------------------
    "deal": "Round {round}: four cards each; {card} starts the discard pile; {player} plays first.",
    "look_choose": "Everyone chooses two of their cards to look at.",
    "look_first_two": "You look at your slots 1 and 2: {card} and {second_card}.",
    "look_public": "{player} looks at their slot {slot}.",
    "look_private": "Your slot {slot} is {card}.",
    "look_done": "Everyone has looked: {player} plays first.",
    "refill": "The discard pile (all but its top card) is shuffled into a new draw pile.",
    # ---- cards drawn face down -------------------------------------------------------------
    "penalty_table_talk": "{player} gives {target_player} a table-talk penalty.",
    "add_penalty": (
        "{player} draws a penalty card: {count} card face down (now {total} cards).",
        "{player} draws a penalty card: {count} cards face down (now {total} cards).",
    ),
    "add_wrong_match": (
        "{player} draws for a wrong match: {count} card face down (now {total} cards).",
        "{player} draws for a wrong match: {count} cards face down (now {total} cards).",
    ),
    "add_caught": (
        "{player} was caught and draws: {count} card face down (now {total} cards).",
        "{player} was caught and draws: {count} cards face down (now {total} cards).",
    ),
    "add_wrong_catch": (
        "{player} caught wrongly and draws: {count} card face down (now {total} cards).",
        "{player} caught wrongly and draws: {count} cards face down (now {total} cards).",
    ),
    "add_extra": (
        "{player} draws an extra card: {count} card face down (now {total} cards).",
        "{player} draws an extra card: {count} cards face down (now {total} cards).",
    ),
    # ---- drinks during a round -------------------------------------------------------------
    "drink_immune": "{player} is immune (Kellner) and drinks nothing.",
    "drink_shot": "{player} drinks a shot (or four sips).",
    "drink_shot_doubled": "{player} drinks a shot (or four sips), doubled by the Magier.",
    "drink_shot_linked": "{player} drinks a shot (or four sips). {linked_player} drinks the "
    "same (Dorfschönheit).",
    "drink_shot_doubled_linked": "{player} drinks a shot (or four sips), doubled by the Magier. "
    "{linked_player} drinks the same (Dorfschönheit).",
    "drink_hand_out": "{player} may hand out {hand_out} sip.",
    # ---- matching and catching -------------------------------------------------------------
    "match_right": "{player} matches {card} from slot {slot} onto {top_card}: right!",
    "match_wrong": "{player} shows {card} from slot {slot} against {top_card}: wrong, it goes back.",
    "catch_right": "{player} catches {card} in {owner_player}'s slot {slot}: right!",
    "catch_wrong": "{player} turns over {owner_player}'s slot {slot}: {card} does not match "
    "{top_card}, it goes back.",
    # ---- the turn --------------------------------------------------------------------------
    "next_round": "{player} deals the next round.",
    "leiff": "{player} calls Leiff! The round ends.",
    "draw": "{player} draws a card from the draw pile.",
    "draw_private": "You draw {card}.",
    "take": "{player} takes {card} from the discard pile.",
    "swap_taken": "{player} puts {held_card} into slot {slot} and discards {card}.",
    "swap_drawn": "{player} puts the drawn card into slot {slot} and discards {card}.",
    "swap_private": "Your slot {slot} is now {card}.",
    "discard": "{player} discards {card}.",
    "decline": "{player} does not use the {card}.",
    "draw_pile_empty": "The draw pile is empty and cannot be refilled: the round ends.",
    # ---- the special cards -----------------------------------------------------------------
    "belle_link_ends": "The previous Dorfschönheit link ends.",
    "peek_own": "{player} looks at their own slot {slot}.",
    "peek_other": "{player} looks at {owner_player}'s slot {slot}.",
    "peek_own_private": "Your slot {slot} is {card}.",
    "peek_other_private": "{owner_player}'s slot {slot} is {card}.",
    "blind_swap": "{player} swaps {a_player}'s slot {a_slot} with {b_player}'s slot {b_slot}, "
    "unseen.",
    "blind_swap_own": "{player} swaps their slot {slot} with {other_player}'s slot {other_slot}, "
    "unseen.",
    "slot_discard": "{player} uses the slot machine to discard {card} from slot {slot}.",
    "slot_give": "{player} uses the slot machine on {target_player}.",
    "rotate": "{player} rearranges {target_player}'s cards without showing the new order.",
    "rotate_victim": "{player} rearranged your cards: you no longer know where they are.",
    "rotate_private": (
        "You turned {target_player}'s cards {count} step clockwise.",
        "You turned {target_player}'s cards {count} steps clockwise.",
    ),
    "immune": "{player} is immune until the next round: no drinking, no card effects.",
    "rule": "{player} sets a new table rule: {rule}",
    "belle_link": "{player} will drink whatever {right_player} drinks, until the next "
    "Dorfschönheit.",
    "show": "{player} shows everyone their slot {slot}: {card}.",
    "swap_hands": "{player} swaps their whole hand with {left_player}'s.",
    "enchant_look": (
        "{player} enchants {target_player} and, in return, lets them look at {count} of their "
        "own cards; at round end the two exchange a card.",
        "{player} enchants {target_player} and, in return, lets them look at {count} of their "
        "own cards; at round end the two exchange a card.",
    ),
    "enchant_double": "{player} enchants {target_player} and drinks double this round; at "
    "round end the two exchange a card.",
    "exchange_immune": "{target_player} is immune (Kellner): the Magier's exchange is off.",
    "exchange": "The Magier's exchange: {target_player} gives their best card to {player}, "
    "who gives back their worst (each chooses their own).",
    "exchange_give_best": "The Magier's exchange with {player}: give them the card you choose "
    "as your best; you get back the one they choose as their worst.",
    "exchange_give_worst": "The Magier's exchange with {target_player}: give them the card you "
    "choose as your worst; you get the one they choose as their best.",
    "exchange_chosen": "{player} has chosen the card to give.",
    "exchange_done": "{target_player}'s slot {b_slot} and {player}'s slot {a_slot} change hands.",
    # ---- the end of a round ----------------------------------------------------------------
    "reveal": "All hands are revealed. {hands}",
    "reveal_hand": "{player}: {cards}",
    "reveal_no_cards": "{player}: no cards",
    "scores": "Round {round} scores: {scores}.",
    "scores_bonus": "Round {round} scores: {scores}. {bonus}",
    "score": "{player} {score} (total {total})",
    "scores_teams": "Round {round} scores:\n{teams}",
    "scores_teams_bonus": "Round {round} scores:\n{teams}\n{bonus}",
    "team_score": "Team {players}: {score} this round ({shares}), {total} in total.",
    "share": "{player} {score}",
    "bonus_lowest_score": "{player} called Leiff with the lowest score: {bonus}.",
    "bonus_not_lowest_score": "{player} called Leiff, but someone else scored as low or lower: "
    "{bonus}.",
    "bonus_lowest_team": "{player} called Leiff and their team scored lowest: {bonus}.",
    "bonus_not_lowest_team": "{player} called Leiff, but another team scored as low or lower: "
    "{bonus}.",
    "drinks": "Drinks this round: {drinks}.",
    "drinks_shots": ("{count} shot (or {sips} sips)", "{count} shots (or {sips} sips)"),
    "drinks_sips": ("{count} sip", "{count} sips"),
    "drinks_owed": "{player} {owed}",
    "drinks_shot_count": ("{count} shot", "{count} shots"),
    "drinks_shots_and_sips": "{player} {shots} and {sips} (or {all_sips} sips)",
    "drinks_shots_and_sips_hands_out": "{player} {shots} and {sips} (or {all_sips} sips), and "
    "hands out {given}",
    "drinks_owed_hands_out": "{player} {owed}, and hands out {given}",
    # (said before "drinks_shots_and_sips": kept for the events of matches stored then)
    "drinks_owed_both": "{player} {shots} and {sips}",
    "drinks_owed_both_hands_out": "{player} {shots} and {sips}, and hands out {given}",
    "drinks_hands_out": "{player} hands out {given}",
    "drinks_nothing": "{player} nothing",
    "game_over": (
        "Game over: a total reached {target}. {players} wins with the lowest total, {best}.",
        "Game over: a total reached {target}. {players} win with the lowest total, {best}.",
    ),
}

# how a list of parts is joined, by the parameter's name
SEPARATORS: dict[str, str] = {
    "hands": "; ",
    "scores": ", ",
    "shares": ", ",
    "teams": "\n",
    "drinks": "; ",
}


def said(code: str, **params: Param) -> Said:
    """Something said: a code of :data:`ENGLISH` and its parameters (JSON values)."""
    if code not in ENGLISH:
        raise ValueError(f"unknown Leiff event code {code!r}: add it to engine.leiff.events")
    return {"code": code, "params": params}


# Set while a search plays rounds that nobody reads (``engine.ai.leiff_search``): the
# events keep their codes, parameters and data, and their English is left empty.
_UNWORDED: ContextVar[bool] = ContextVar("leiff_events_unworded", default=False)


@contextmanager
def unworded() -> Iterator[None]:
    """Within it (in this thread or task), events are made without their English text:
    for rounds played out inside a search, whose events are thrown away unread."""
    token = _UNWORDED.set(True)
    try:
        yield
    finally:
        _UNWORDED.reset(token)


def event(kind: str, audience: Literal["all"] | Sequence[int], says: Said, **data: object) -> Event:
    """An event of ``kind`` for ``audience`` saying ``says`` (a :func:`said`)."""
    return {
        "kind": kind,
        "audience": PUBLIC if isinstance(audience, str) else sorted(set(audience)),
        "code": says["code"],
        "params": says["params"],
        "text": "" if _UNWORDED.get() else english(says),
        "data": data,
    }


# message(code, values, count) -> the sentence of a code, its values filled in
Message = Callable[[str, dict[str, str], int | None], str]


def words(
    says: Mapping[str, object],
    message: Message,
    name: Callable[[int], str],
    card_name: Callable[[str], str],
    and_: Callable[[list[str]], str],
) -> str:
    """``says`` in words: each parameter written by its kind (see the module's docstring),
    then the code's message from ``message`` (the engine's English, or a catalogue's).

    ``says`` is a :class:`Said`, or one read back from JSON that travelled (a stored
    table's events, a service event's data): its values are checked as they are read."""
    values: dict[str, str] = {}
    count: int | None = None
    params = says["params"]
    if not isinstance(params, Mapping):
        raise TypeError(f"the parameters of something said are no mapping: {params!r}")
    for key, value in params.items():
        if key == "count":
            count = _number(value)
            values[key] = str(value)
        elif key == "player" or key.endswith("_player"):
            values[key] = name(_number(value))
        elif key == "card" or key.endswith("_card"):
            values[key] = card_name(str(value))
        elif key == "players":
            values[key] = and_([name(_number(seat)) for seat in _items(value)])
        elif key == "cards":
            values[key] = " ".join(card_name(str(label)) for label in _items(value))
        elif isinstance(value, Mapping):
            values[key] = words(value, message, name, card_name, and_)
        elif isinstance(value, list):
            values[key] = SEPARATORS[key].join(
                words(item, message, name, card_name, and_) for item in value
            )
        else:
            values[key] = str(value)
    return message(str(says["code"]), values, count)


def _number(value: object) -> int:
    if isinstance(value, int | str | float):
        return int(value)
    raise TypeError(f"a count or seat is no number: {value!r}")


def _items(value: object) -> list[object]:
    if isinstance(value, list | tuple):
        return list(value)
    raise TypeError(f"a list of seats or cards is no list: {value!r}")


def _english_message(code: str, values: dict[str, str], count: int | None) -> str:
    params: dict[str, object] = dict(values)
    if count is not None:
        params["count"] = count
    return fill(ENGLISH[code], params)


def _english_and(items: list[str]) -> str:
    return " and ".join(items)


def english(says: Mapping[str, object]) -> str:
    """The English of something said, players as ``{pN}`` tokens, cards in brackets.

    Remembered by the code and the parameters' ``repr`` (JSON values, so equal reprs say
    the same): a table says the same few things again and again ("{p1} draws a card from
    the draw pile."), and a searching bot seat plays many rounds a decision
    (``engine.ai.leiff_rollout``), whose events' words were a fifth of its time."""
    key = (str(says["code"]), repr(says["params"]))
    text = _SAID.get(key)
    if text is None:
        text = words(says, _english_message, player, card, _english_and)
        if len(_SAID) >= _SAID_LIMIT:
            _SAID.clear()
        _SAID[key] = text
    return text


# english()'s memory: (code, repr of the parameters) -> the sentence
_SAID: dict[tuple[str, str], str] = {}
_SAID_LIMIT = 20_000


def card(label: str) -> str:
    """A card as written in event texts."""
    return f"[{display_name(label)}]"


def player(seat: int) -> str:
    return "{p" + str(seat) + "}"


def visible_to(item: Event, viewer: int | None) -> bool:
    """Whether an event reaches ``viewer`` (None: the channel, which sees public events only)."""
    audience = item["audience"]
    return audience == PUBLIC or (viewer is not None and viewer in audience)


def render_text(text: str, names: Sequence[str]) -> str:
    """Replace the ``{pN}`` tokens of an event text with player names."""
    return _NAME_TOKEN.sub(lambda m: names[int(m.group(1))], text)
