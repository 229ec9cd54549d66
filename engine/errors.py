"""The one error type the engine raises for a move or action a player may not make.

An :class:`IllegalMove` says *what* was wrong as a stable code with parameters
(``IllegalMove("cell_taken", cell="f6")``); the edges (the bot, the pictures) turn that into
words in the reader's language through the message catalogues, where the code's message is
``illegal.<code>`` (see ``docs/i18n.md``). ``str(error)`` is the English sentence built from
:data:`ENGLISH`, so the engine needs no catalogue and stays readable on its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Every code an IllegalMove may carry, with its English sentence. ``{name}`` is filled from
# the error's parameters; a pair is (one, many), chosen by the ``count`` parameter; a list or
# tuple parameter is written "a or b". The catalogues hold the same texts under
# ``illegal.<code>`` (a test keeps them equal), so a new code needs an entry in both.
ENGLISH: dict[str, str | tuple[str, str]] = {
    # ---- every board game -------------------------------------------------------------------
    "not_text": "a move is written as text, such as 'e5'",
    "no_move": "no move given",
    "game_over": "the game is over",
    "not_your_turn": "it is {colour}'s turn",
    "no_swap": "{game} has no swap",
    "swap_second_move_only": "swap is only possible as the second move",
    "not_a_cell": "{text} is not a cell of this board",
    "cell_taken": "{cell} is taken",
    "seat_not_a_number": "a seat is a whole number",
    # ---- Dalen ------------------------------------------------------------------------------
    "dalen_pass_only_when_stuck": "you may only pass when you have no legal placement",
    "dalen_two_leaves": "{cell} is next to two of your leaves; a new stone may touch at most one",
    # ---- Lefe -------------------------------------------------------------------------------
    "lefe_bad_notation": "{text} is not a Lefe move; write a cell such as e5, or e5xg6",
    "lefe_touching_pair": "{cell} touches two of your stones that touch each other",
    "lefe_capture_due": (
        "{cell} adds leaves to your tree, so it must capture a smaller enemy tree next to it: "
        "play {choices}"
    ),
    "lefe_nothing_to_capture": (
        "{cell} captures nothing (no smaller enemy tree can be taken): play just {cell}"
    ),
    "lefe_not_capturable": "{target} is not in a tree that {cell} can capture: play {choices}",
    # ---- Les --------------------------------------------------------------------------------
    "les_bad_notation": "{text} is not a Les move; write it like {example}",
    "les_setup_one_stone": "during the set-up each move places one stone, such as e5",
    "les_choose_side": "seat B now chooses a side: play black or white",
    "les_first_white": "the first white stone must go next to the black stone at {cell}",
    "les_no_room_for_second_white": (
        "{cell} has no empty point two steps away for the second white stone"
    ),
    "les_second_white": (
        "the second white stone must go exactly two steps from the black stone at {cell}, "
        "not next to it"
    ),
    "les_setting_up": "the first player is still setting up the stones",
    "les_choosing_side": "the second player is choosing a side",
    "les_not_between_colours": "{cell} is not next to both a black and a white stone",
    "les_second_stone_due": (
        "after {cell} you must also place on a point with no stone next to it, such as "
        "{cell}+{example}"
    ),
    "les_no_second_stone": (
        "after {cell} no point is left without a stone next to it: play just {cell}"
    ),
    "les_second_not_isolated": "{cell} must be a point with no stone next to it",
    # ---- Lublache ---------------------------------------------------------------------------
    "lublache_own_loop": "{cell} touches your own loop",
    "lublache_enemy_loop": "{cell} would end on a loop {colour} controls",
    # ---- Leiff ------------------------------------------------------------------------------
    "leiff_not_text": "an action is a short text such as 'draw' or 'swap 2'",
    "leiff_unknown_action": "{text} is not a Leiff action",
    "leiff_rule_missing": "write the new rule after the word 'rule'",
    "leiff_rule_too_long": "a table rule may be at most {limit} characters long",
    "leiff_no_seat": "there is no seat {seat} (seats are 0 to {last})",
    "leiff_no_own_slot": (
        "your hand has no slot {slot} (it has {count} card)",
        "your hand has no slot {slot} (it has {count} cards)",
    ),
    "leiff_no_slot": (
        "{player}'s hand has no slot {slot} (it has {count} card)",
        "{player}'s hand has no slot {slot} (it has {count} cards)",
    ),
    "leiff_round_over": "the round is over: deal the next one with 'next'",
    "leiff_looking": "everyone is still choosing which two cards to look at",
    "leiff_exchange": "the round is over and the Magier's exchange is being chosen",
    "leiff_spy": "the Magier's victim is still looking at two cards",
    "leiff_not_your_turn": "it is {player}'s turn; out of turn you may only match or catch",
    "leiff_start_turn": "start your turn with 'draw', 'take' or 'leiff'",
    "leiff_holding": "put the card you hold into a slot ('swap N') or discard it",
    "leiff_finish_effect": "finish the card effect first (or 'decline' it)",
    "leiff_out_of_turn_in_play_only": (
        "matching, catching and penalties are only possible while a round is played"
    ),
    "leiff_not_possible_now": "'{action}' is not possible now; you may: {actions}",
    "leiff_not_an_answer": "'{action}' does not answer the {card} card; choose one of: {actions}",
    "leiff_penalty_teams_only": "the table-talk penalty exists only in team games",
    "leiff_penalty_other_team": "only the other team can give a table-talk penalty",
    "leiff_nothing_to_match": "the discard pile is empty: there is nothing to match",
    "leiff_catch_own": "you cannot catch your own card: use 'match' for that",
}


def fill(template: str | tuple[str, str], params: Mapping[str, Any]) -> str:
    """An English template (or a (one, many) pair) with ``params`` filled in."""
    if isinstance(template, tuple):
        template = template[0] if params.get("count") == 1 else template[1]
    values = {
        name: " or ".join(str(item) for item in value) if isinstance(value, list | tuple) else value
        for name, value in params.items()
    }
    return template.format(**values)


def english(code: str, params: Mapping[str, Any]) -> str:
    """The English sentence of ``code`` with ``params`` filled in."""
    return fill(ENGLISH[code], params)


class IllegalMove(ValueError):
    """A move or action that the rules forbid: a ``code`` from :data:`ENGLISH` and ``params``.

    ``str(error)`` is a sentence written for players ("f6 is taken", "it is light's turn"),
    safe to show in a channel: neither it nor the parameters ever contain hidden information.
    """

    def __init__(self, code: str, /, **params: Any) -> None:
        if code not in ENGLISH:
            # a programming error, not a player's: every code needs its English (and catalogue) text
            raise ValueError(f"unknown IllegalMove code {code!r}: add it to engine.errors.ENGLISH")
        super().__init__(code, params)
        self.code = code
        self.params: dict[str, Any] = params

    def __str__(self) -> str:
        return english(self.code, self.params)

    def __reduce__(self) -> tuple[Any, ...]:
        # exceptions pickle their args by default; ours need the keyword parameters back
        return (_rebuild, (self.code, self.params))


def _rebuild(code: str, params: dict[str, Any]) -> IllegalMove:
    return IllegalMove(code, **params)
