"""How the service drives the four board games: texts, buttons and results of one position.

Pure functions over engine states and match records; the service core does the storing,
locking and clocks.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import get_spec
from engine.board import BoardState
from matchcore.records import MatchResult
from matchcore.service import reasons
from matchcore.service.ratings import Placing
from matchcore.service.results import Event, say
from matchcore.service.texts import ENGINE_PHRASE, RESULT, Said, level_word
from matchcore.service.texts import SeatColour as SeatColour
from matchcore.service.texts import mention as mention
from matchcore.service.texts import result_text as result_text
from matchcore.storage.records import MatchRecord, SeatRecord

# Engine moves that get a button of their own (cell moves are typed or picked on the board).
SPECIAL_MOVES = ("swap", "pass", "black", "white")


def seat_colour(state: BoardState, seat: int) -> str | None:
    """The colour ``seat`` plays, or None while the opening has not given it one yet (the
    Les set-up: the stones laid then are of both colours, and the other player chooses)."""
    return state.seat_colour(seat) if state.colours_assigned else None


def seats_with_colours(record: MatchRecord, state: BoardState) -> tuple[SeatRecord, ...]:
    """The seats with the colours they play now (after a swap or the Les side choice)."""
    return tuple(s.evolve(colour=seat_colour(state, s.seat)) for s in record.seats)


def seats_yet_to_move(state: BoardState) -> frozenset[int]:
    """The seats that have not made a move of their own yet (a swap, a pass or a side
    choice is a move). Replays the match from its start until both have moved: a few
    plies in every game (the Les set-up and side choice are five), yet not free, so it is
    asked only where an abort is in question (a timeout, an abort, the resign question),
    never for every update."""
    waiting = {0, 1}
    position = state.initial_state()
    for move in state.moves:
        seat = position.seat_to_move
        if seat is not None:
            waiting.discard(seat)
        if not waiting:
            break
        position = position.play(move)
    return frozenset(waiting)


def people_yet_to_move(record: MatchRecord, state: BoardState) -> frozenset[int]:
    """The seats of people who have not moved yet: a match is aborted rather than decided
    while there is one. A bot seat never counts: the bot moves at once and never keeps a
    match from starting, so a member who stops playing against it loses as ever."""
    bots = {seat.seat for seat in record.seats if seat.is_bot}
    return seats_yet_to_move(state) - bots


# How a match its players ended outside the rules ended, by the stored reason's code
ENDED_HOW = {"reason_resigned": "resigned", "reason_timed_out": "time", "reason_agreed": "agreed"}


def picture_state(record: MatchRecord, state: BoardState) -> BoardState:
    """The position a match's picture shows. Once the players ended it outside the rules
    (a resignation, the clock, a draw agreed, an abort), one whose outcome says so
    (:meth:`engine.board.BoardState.ended`): the last picture said "<@u> to move" under a
    line saying that they had lost. Worked out from the stored result, so a picture drawn
    again after a restart says it too."""
    result = record.result
    if record.status == "running" or result is None or state.outcome is not None:
        return state
    if result.get("aborted"):
        return state.ended("aborted", None)
    why = reasons.reason_of(result)
    how = ENDED_HOW.get(why.code) if isinstance(why, Said) else None
    if how == "agreed":
        return state.ended(how, None)
    winners = result.get("winners") or []
    seat = record.seat_of(winners[0]) if len(winners) == 1 else None
    if how is None or seat is None or not state.colours_assigned:
        return state
    return state.ended(how, seat.seat)


def user_to_move(record: MatchRecord, state: BoardState) -> int | None:
    seat = state.seat_to_move
    return None if seat is None else record.user_of(seat)


def move_text(record: MatchRecord, seat: int, before: BoardState, after: BoardState) -> Event:
    """The line describing the move just made."""
    user = mention(record.user_of(seat))
    move = after.last_turn.move or ""
    special = after.game.spec.special_move(move)
    if special is not None:  # swap, pass, a side chosen: the engine's own announcement
        colour = after.seat_colour(seat)
        return say(ENGINE_PHRASE, phrase=special.announce(colour=colour, move=move), player=user)
    then: list[Said] = []
    captured = len(after.last_turn.captured)
    flipped = len(after.last_turn.flipped)
    if captured:
        then.append(Said("stones_captured", {"count": captured}))
    if flipped:
        then.append(Said("stones_flipped", {"count": flipped}))
    if not before.colours_assigned:
        # an opening step (the Les set-up): the colour is the stone's, not the player's
        return say("opening_stone", user=user, colour=after.last_turn.colour, move=move, then=then)
    colour = before.seat_colour(seat)
    return say("board_move", user=user, colour=colour, move=move, then=then)


def turn_text(record: MatchRecord, state: BoardState) -> Event | None:
    """Whose turn it is (and the opening step), or nothing once the game is over or while
    the bot is to move (the Discord layer says the bot is thinking instead)."""
    user = user_to_move(record, state)
    seat = record.seat_of(user) if user is not None else None
    if user is None or (seat is not None and seat.is_bot):
        return None
    hint = state.opening_hint()
    then = [hint] if hint else []
    if not state.colours_assigned:
        # nobody plays a colour yet (the Les set-up and side choice): the hint says what
        # the step asks for, the stone's colour included
        return say("board_turn_plain", user=mention(user), then=then)
    return say("board_turn", user=mention(user), colour=state.to_move, then=then)


def result_line(
    seats: Iterable[SeatRecord], result: MatchResult, why: Said | reasons.EngineOutcome
) -> Event:
    """The line saying a finished match's result (:func:`result_text` in English). ``why``
    the match ended: the service's reason (a :class:`Said`) or the engine's outcome."""
    seats = list(seats)
    pairs = [(seat.user_id, seat.colour) for seat in seats]
    # a game against the bot says the level played, so the player reads which they beat
    levels = [seat.bot_level for seat in seats if seat.is_bot and seat.bot_level]
    params: dict[str, object] = {"seats": pairs, "result": dict(result)}
    if isinstance(why, Said):
        params["why"] = why
    else:
        params["outcome"] = why.to_dict()
    if levels:
        params["then"] = [Said("bot_level", {"level": level_word(levels[0])})]
    return Event(RESULT, params, None, said=True)


def result_from_outcome(record: MatchRecord, state: BoardState) -> MatchResult:
    """The stored result of a game the engine ended."""
    outcome = state.outcome
    assert outcome is not None, "the game has not ended"
    if outcome.winner is None:
        return reasons.result([], outcome, draw=True)
    winner = record.user_of(state.seat_of(outcome.winner))
    return reasons.result([winner], outcome)


def placings(record: MatchRecord) -> list[Placing]:
    """Ranks for the rating update of a finished two-player match."""
    result: MatchResult = record.result or {}
    winners = set(result.get("winners", []))
    return [
        Placing(
            user_ids=(seat.user_id,), rank=1 if result.get("draw") or seat.user_id in winners else 2
        )
        for seat in record.seats
        if seat.user_id is not None
    ]


def channel_actions(record: MatchRecord, state: BoardState) -> tuple[str, ...]:
    """Buttons for the shared board message."""
    if record.status != "running":
        return ("rematch", "review") if record.status == "finished" else ()
    actions = [m for m in SPECIAL_MOVES if m in state.legal_moves()]
    # Before the first move the button ends the match unrated (whoever presses it has not
    # moved); later, "resign" still aborts for a player who has not moved yet (the
    # question the bot asks says which it is).
    actions.append("abort" if state.ply == 0 else "resign")
    if get_spec(record.game).draws_possible:
        if record.draw_offer_seat is None:
            actions.append("offer_draw")
        else:
            actions.extend(("accept_draw", "decline_draw"))
    # a takeback once a move was made (matchcore/service/takebacks.py: who may, when)
    if "takeback_seat" in record.options:
        actions.extend(("accept_takeback", "decline_takeback"))
    elif state.ply > 0:
        actions.append("ask_takeback")
    return tuple(actions)
