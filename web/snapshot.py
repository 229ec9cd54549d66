"""What one socket is shown of a board match: a plain JSON frame from the match as stored
and its engine state, worded in the reader's language.

Legal moves are the engine's own list, sent only to a socket whose member is to move; the
page never works them out. Every frame carries the match version, so a page that
reconnects knows whether it missed anything (it then gets the newest frame whole).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from engine.board import BoardState
from engine.reports import LastTurn
from i18n import colour_name, outcome_reason, phrase, translate
from matchcore.service.results import MatchInfo
from web.sessions import Identity
from web.texts import BOT_NAME, STATUS_TEXTS, TO_MOVE, YOUR_TURN


def last_turn_json(last: LastTurn | None) -> dict[str, Any] | None:
    if last is None or not last.move:
        return None
    return {
        "colour": last.colour,
        "move": last.move,
        "placed": list(last.placed),
        "captured": list(last.captured),
        "flipped": list(last.flipped),
        "removed": list(last.removed),
        "loops": [list(loop) for loop in last.loops],
    }


def holes_json(state: BoardState) -> list[dict[str, Any]]:
    """Les's owned holes as the pictures shade them: the owner colour and the empty cells
    (none for a game whose board shows no holes)."""
    if not state.game.spec.drawing.owned_holes:
        return []
    return [{"owner": owner, "cells": list(cells)} for owner, cells in state.holes()]


def seat_name(
    user_id: int | None, is_bot: bool, names: Mapping[int, Identity], language: str
) -> str:
    """How a seat is named: the member's name as signed in, the bot's, or a number."""
    if is_bot:
        return translate(language, BOT_NAME)
    if user_id is not None and user_id in names:
        return names[user_id].name
    return f"#{user_id}"


def special_label(state: BoardState, move: str, language: str) -> str:
    """A word move's button (swap, pass, a side) in the reader's language."""
    special = state.game.spec.special_move(move)
    if special is None:
        return move
    return translate(language, special.button.code)


def board_frame(
    info: MatchInfo,
    state: BoardState,
    *,
    viewer: Mapping[int, Identity],
    names: Mapping[int, Identity],
    language: str,
) -> dict[str, Any]:
    """The ``state`` frame of a board match for a socket acting for ``viewer`` (user ids;
    several at a shared hot-seat screen)."""
    seats = []
    for seat in info.seats:
        colour = state.seat_colour(seat.seat)
        seats.append(
            {
                "seat": seat.seat,
                "name": seat_name(seat.user_id, seat.is_bot, names, language),
                "colour": colour,
                "colourName": colour_name(language, colour),
                "bot": seat.is_bot,
                "level": seat.bot_level,
                "you": seat.user_id in viewer,
            }
        )
    running = info.status == "running" and not state.is_over
    to_move = state.seat_to_move if running else None
    mover = info.to_act[0] if running and info.to_act else None
    yours = mover is not None and mover in viewer
    legal = state.legal_moves() if yours else []
    prompt = state.opening_prompt() if running else None
    if state.is_over and state.outcome is not None:
        # a line of its own: a sentence ("White wins: ...", the catalogue's "{colour} wins")
        reason = outcome_reason(language, state.outcome)
        status = reason[:1].upper() + reason[1:]
    elif info.status != "running":
        status = translate(language, STATUS_TEXTS.get(info.status, STATUS_TEXTS["finished"]))
    elif prompt is not None and to_move is not None:
        status = phrase(language, prompt, player=seats[to_move]["name"])
    elif to_move is not None:
        status = translate(
            language,
            YOUR_TURN if yours else TO_MOVE,
            name=seats[to_move]["name"],
            colour=seats[to_move]["colourName"],
        )
    else:
        status = ""
    offer = info.draw_offer_by
    return {
        "type": "state",
        "kind": "board",
        "match": info.id,
        "version": info.version,
        "game": info.game,
        "size": state.size,
        "status": info.status,
        "statusText": status,
        "seats": seats,
        "stones": dict(state.stones),
        "last": last_turn_json(state.last_turn),
        "holes": holes_json(state),
        "toMove": to_move,
        "yourTurn": yours,
        "legal": legal,
        "special": [
            {"move": move, "label": special_label(state, move, language)}
            for move in legal
            if state.game.spec.special_move(move) is not None
        ],
        "moves": list(state.moves),
        "score": [phrase(language, part) for part in state.score_phrases()],
        "deadline": info.deadline_at,
        "now": time.time(),
        "drawOffer": None
        if offer is None
        else {
            "by": offer,
            "name": next(
                (seats[s.seat]["name"] for s in info.seats if s.user_id == offer), str(offer)
            ),
            "toYou": offer not in viewer,
        },
        "seated": any(seat.user_id in viewer for seat in info.seats),
        "vsBot": info.vs_bot,
    }


def position_at(state: BoardState, ply: int, language: str) -> dict[str, Any]:
    """The ``position`` frame: the board after the first ``ply`` moves of the game (the
    move list's steps back and forward), replayed by the engine, with the score it had
    then in ``language`` (the live score line would contradict the stones shown)."""
    ply = max(0, min(ply, len(state.moves)))
    game = state.game
    if state.start is not None:
        past = game.position(**state.start)
    else:
        past = game.new(state.size, **dict(state.options))
    for move in state.moves[:ply]:
        past = past.play(move)
    return {
        "type": "position",
        "ply": ply,
        "stones": dict(past.stones),
        "last": last_turn_json(past.last_turn) if ply else None,
        "holes": holes_json(past),
        "score": [phrase(language, part) for part in past.score_phrases()],
    }
