"""Lines every match message may carry, whatever the game: the result, the rating changes,
and the line saying a bot seat is thinking."""

from __future__ import annotations

from typing import Any

from bot.common.names import NameBook, in_text
from bot.service import board_logic
from engine import get_spec


def is_bot(match: Any, user_id: int) -> bool:
    return any(seat.is_bot and seat.user_id == user_id for seat in match.seats)


async def thinking_line(names: NameBook, match: Any, user_id: int) -> str:
    name = in_text(await names.name(user_id))
    if match.bot_to_act:
        return f"**{name}** is thinking…"
    return f"**{name}** to move."


async def result_line(names: NameBook, match: Any) -> str:
    """The result, said as the match's last message said it (names instead of pings)."""
    result = match.result or {}
    winners = {u: f"**{in_text(await names.name(u))}**" for u in result.get("winners", [])}
    line = board_logic.result_text(match.seats, result, lambda u: winners.get(u, "?"))
    if match.score_text and get_spec(match.game).is_board_game:
        line += f" Score: {match.score_text}."
    return line


async def rating_lines(names: NameBook, update: Any) -> list[str]:
    if not update.rating_changes:
        return []
    parts = []
    for change in update.rating_changes:
        name = in_text(await names.name(change.user_id))
        delta = change.after_ordinal - change.before_ordinal
        parts.append(
            f"{name} {change.before_ordinal:.1f} → {change.after_ordinal:.1f} ({delta:+.1f})"
        )
    lines = ["Ratings: " + ", ".join(parts) + "."]
    result = update.match.result if update.match is not None else None
    rose = all(c.after_ordinal > c.before_ordinal for c in update.rating_changes)
    if result and result.get("draw") and rose:
        # Otherwise a draw that raises both ratings looks like a mistake.
        lines.append(
            "A draw raised both ratings: a rating is a cautious estimate (skill minus "
            "three times its uncertainty), and every game played makes it more certain."
        )
    return lines
