"""Lines every match message may carry, whatever the game: the result, the rating changes,
and the line saying a bot seat is thinking; each in the language it is asked for."""

from __future__ import annotations

from typing import cast

from bot.common.names import NameBook, in_text
from bot.common.service_words import result_words
from bot.service.results import MatchInfo, Update
from engine import get_spec
from i18n import translate


def is_bot(match: MatchInfo, user_id: int) -> bool:
    return any(seat.is_bot and seat.user_id == user_id for seat in match.seats)


async def thinking_line(language: str, names: NameBook, match: MatchInfo, user_id: int) -> str:
    name = in_text(await names.name(user_id))
    if match.bot_to_act:
        return translate(language, "bot.match.thinking", name=name)
    return translate(language, "bot.match.bot_to_move", name=name)


async def result_line(language: str, names: NameBook, match: MatchInfo) -> str:
    """The result, said as the match's last message said it (names instead of pings)."""
    result = match.result or {}
    # the service's result is JSON: "winners" is a list of user ids
    winner_ids = cast("list[int]", result.get("winners", []))
    winners: dict[int | None, str] = {u: f"**{in_text(await names.name(u))}**" for u in winner_ids}
    line = result_words(language, match.seats, result, lambda u: winners.get(u, "?"))
    if match.score_text and get_spec(match.game).is_board_game:
        line += " " + translate(language, "bot.match.score", score=match.score_text)
    return line


def _number(language: str, value: float, signed: bool = False) -> str:
    """A rating as the language writes it (one decimal; German with a decimal comma)."""
    text = f"{value:+.1f}" if signed else f"{value:.1f}"
    return text.replace(".", ",") if language == "de" else text


async def rating_lines(language: str, names: NameBook, update: Update) -> list[str]:
    if not update.rating_changes:
        return []
    parts = []
    for change in update.rating_changes:
        delta = change.after_ordinal - change.before_ordinal
        parts.append(
            translate(
                language,
                "bot.match.rating_change",
                name=in_text(await names.name(change.user_id)),
                before=_number(language, change.before_ordinal),
                after=_number(language, change.after_ordinal),
                delta=_number(language, delta, signed=True),
            )
        )
    lines = [translate(language, "bot.match.ratings", changes=", ".join(parts))]
    result = update.match.result if update.match is not None else None
    rose = all(c.after_ordinal > c.before_ordinal for c in update.rating_changes)
    if result and result.get("draw") and rose:
        # Otherwise a draw that raises both ratings looks like a mistake.
        lines.append(translate(language, "bot.match.draw_raised_ratings"))
    return lines


def rating(language: str, value: float) -> str:
    """A rating (μ − 3σ) as shown in lists: one decimal, the language's decimal mark."""
    return _number(language, value)
