"""Lines every match message may carry, whatever the game: the result, the places of a
finished Leiff table, the rating changes (ratings as players read them), and the line
saying a bot seat is thinking; each in the language it is asked for."""

from __future__ import annotations

from bot.common.names import NameBook, in_text
from engine import get_spec
from i18n import ordinal, phrase, translate
from matchcore.records import MatchResult
from matchcore.service.results import MatchInfo, Update
from wording.service_words import listing, result_words


def is_bot(match: MatchInfo, user_id: int) -> bool:
    return any(seat.is_bot and seat.user_id == user_id for seat in match.seats)


async def thinking_line(language: str, names: NameBook, match: MatchInfo, user_id: int) -> str:
    name = in_text(await names.name(user_id))
    if match.bot_to_act:
        return translate(language, "bot.match.thinking", name=name)
    return translate(language, "bot.match.bot_to_move", name=name)


async def result_line(language: str, names: NameBook, match: MatchInfo) -> str:
    """The result, said as the match's last message said it (names instead of pings)."""
    result: MatchResult = match.result or {}
    winner_ids = result.get("winners", [])
    winners: dict[int | None, str] = {u: f"**{in_text(await names.name(u))}**" for u in winner_ids}
    line = result_words(language, match.seats, result, lambda u: winners.get(u, "?"))
    if match.score_phrases and get_spec(match.game).is_board_game:
        score = " · ".join(phrase(language, said) for said in match.score_phrases)
        line += " " + translate(language, "bot.match.score", score=score)
    return line


async def places_line(language: str, names: NameBook, match: MatchInfo) -> str | None:
    """Where everyone at a finished Leiff table finished, best first: "Places: 1st carol,
    2nd bob, 3rd alice and dave." (partners, and equal totals, share a place); None for a
    match whose result keeps no places (a board game, or a table finished before places
    were kept)."""
    places = match.result.get("places") if match.result is not None else None
    if not isinstance(places, list) or len(places) != len(match.seats):
        return None
    seated = await names.seat_names(match)
    by_place: dict[int, list[str]] = {}
    for seat, name in zip(match.seats, seated, strict=True):
        by_place.setdefault(int(places[seat.seat]), []).append(in_text(name))
    parts = [
        translate(
            language,
            "bot.match.place",
            place=ordinal(language, place),
            names=listing(language, who),
        )
        for place, who in sorted(by_place.items())
    ]
    return translate(language, "bot.match.places", places=", ".join(parts))


def rating(value: int, provisional: bool = False) -> str:
    """A rating as players read it (``matchcore.service.rating_scale``): "1512", or "1512?" while
    it is provisional, the sign chess sites mark it with in every language. Digits without
    a thousands separator, as ratings are written in English and German alike."""
    return f"{value}?" if provisional else str(value)


def rating_delta(delta: int) -> str:
    """A rating's change with its sign: "+12", "−8" (a minus, not a hyphen), "±0"."""
    if delta > 0:
        return f"+{delta}"
    return f"\N{MINUS SIGN}{-delta}" if delta < 0 else "\N{PLUS-MINUS SIGN}0"


async def rating_lines(language: str, names: NameBook, update: Update) -> list[str]:
    if not update.rating_changes:
        return []
    parts = []
    for change in update.rating_changes:
        parts.append(
            translate(
                language,
                "bot.match.rating_change",
                name=in_text(await names.name(change.user_id)),
                before=change.before_rating,
                after=rating(change.after_rating, change.after_provisional),
                delta=rating_delta(change.after_rating - change.before_rating),
            )
        )
    return [translate(language, "bot.match.ratings", changes=", ".join(parts))]
