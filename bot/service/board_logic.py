"""How the service drives the four board games: texts, buttons and results of one position.

Pure functions over engine states and match records; the service core does the storing,
locking and clocks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from bot.service.ratings import Placing
from bot.storage.records import MatchRecord, SeatRecord

# Games whose rules can end in a draw, so a draw by agreement is possible.
DRAWABLE_GAMES = frozenset({"lefe", "dalen", "les"})
# Engine moves that get a button of their own (cell moves are typed or picked on the board).
SPECIAL_MOVES = ("swap", "pass", "black", "white")


def mention(user_id: int | None) -> str:
    """How texts name a player: a Discord mention, or "Bot N" for a Leiff bot seat's
    pseudo id (negative; no Discord user has one)."""
    if user_id is None:
        return "a bot"
    if user_id < 0:
        return f"Bot {-user_id}"
    return f"<@{user_id}>"


def seats_with_colours(record: MatchRecord, state: Any) -> tuple[SeatRecord, ...]:
    """The seats with the colours they play now (after a swap or the Les side choice)."""
    return tuple(s.evolve(colour=state.seat_colour(s.seat)) for s in record.seats)


def user_to_move(record: MatchRecord, state: Any) -> int | None:
    seat = state.seat_to_move
    return None if seat is None else record.user_of(seat)


def opening_hint(state: Any) -> str | None:
    """A line explaining the opening step the player to move is in, if any."""
    phase = getattr(state, "phase", None)
    if state.game.name == "les" and phase == "setup":
        step = int(state.extra.get("step", 1))
        return f"Les set-up: stone {step} of 4."
    if state.game.name == "les" and phase == "choose":
        return "Choose your side: black or white (black moves first)."
    if "swap" in state.legal_moves():
        return "You may play swap to take the first colour."
    return None


def move_text(record: MatchRecord, seat: int, before: Any, after: Any) -> str:
    """One line describing the move just made."""
    user = mention(record.user_of(seat))
    move = after.last_turn.move or ""
    if move == "swap":
        return f"{user} swaps: they now play {after.seat_colour(seat)}."
    if move in ("black", "white") and after.game.name == "les":
        return f"{user} chooses {move}."
    if move == "pass":
        return f"{user} passes."
    colour = before.seat_colour(seat)
    line = f"{user} ({colour}) plays {move}."
    captured = len(after.last_turn.captured)
    flipped = len(after.last_turn.flipped)
    if captured:
        line += f" {captured} stone{'s' * (captured != 1)} captured."
    if flipped:
        line += f" {flipped} stone{'s' * (flipped != 1)} flipped."
    return line


def turn_text(record: MatchRecord, state: Any) -> str:
    """Whose turn it is (and the opening step), or nothing once the game is over or while
    the bot is to move (the Discord layer says the bot is thinking instead)."""
    user = user_to_move(record, state)
    seat = record.seat_of(user) if user is not None else None
    if user is None or (seat is not None and seat.is_bot):
        return ""
    line = f"{mention(user)} to move ({state.to_move})."
    hint = opening_hint(state)
    return f"{line} {hint}" if hint else line


def result_from_outcome(record: MatchRecord, state: Any) -> dict[str, Any]:
    """The stored result of a game the engine ended."""
    outcome = state.outcome
    if outcome.winner is None:
        return {"winners": [], "reason": outcome.reason, "draw": True}
    winner = record.user_of(state.seat_of(outcome.winner))
    return {"winners": [winner], "reason": outcome.reason, "draw": False}


def result_text(
    seats: Iterable[Any], result: dict[str, Any], name: Callable[[int | None], str] = mention
) -> str:
    """The result in one sentence that names the winner once: "<@1> (dark) wins 4–2: light
    has no legal placement." (the engine's "dark wins 4–2: …" with the player put in),
    "The game is drawn 4–4: …", "<@1> wins: <@2> resigned." ``seats`` are the match's
    seats (anything with ``user_id`` and ``colour``); ``name`` writes a player."""
    reason = str(result.get("reason") or "")
    if result.get("draw") or not result.get("winners"):
        if reason.startswith("draw ") or reason.startswith("draw:"):  # the engine's "draw 4–4: …"
            return f"The game is drawn{reason[len('draw') :]}."
        if reason.startswith("drawn "):  # "drawn by agreement"
            return f"The game is {reason}."
        return f"The game is drawn: {reason}." if reason else "The game is drawn."
    winners = list(result["winners"])
    names = " and ".join(name(u) for u in winners)
    colour = next((s.colour for s in seats if s.user_id == winners[0]), None)
    if len(winners) != 1:
        colour = None
    if colour and reason.startswith(f"{colour} wins"):
        rest = reason[len(colour) + len(" wins") :]
        if rest.startswith(": it "):  # Lublache's "white wins: it has no legal placement left"
            rest = f": {colour} {rest[len(': it ') :]}"
        return f"{names} ({colour}) wins{rest}."
    if len(winners) == 1:
        return f"{names} wins: {reason}." if reason else f"{names} wins."
    return f"{names} win: {reason}." if reason else f"{names} win."


def placings(record: MatchRecord) -> list[Placing]:
    """Ranks for the rating update of a finished two-player match."""
    result = record.result or {}
    winners = set(result.get("winners", []))
    return [
        Placing(
            user_ids=(seat.user_id,), rank=1 if result.get("draw") or seat.user_id in winners else 2
        )
        for seat in record.seats
        if seat.user_id is not None
    ]


def channel_actions(record: MatchRecord, state: Any) -> tuple[str, ...]:
    """Buttons for the shared board message."""
    if record.status != "running":
        return ("rematch",) if record.status == "finished" else ()
    actions = [m for m in SPECIAL_MOVES if m in state.legal_moves()]
    actions.append("resign")
    if record.game in DRAWABLE_GAMES:
        if record.draw_offer_seat is None:
            actions.append("offer_draw")
        else:
            actions.extend(("accept_draw", "decline_draw"))
    return tuple(actions)
