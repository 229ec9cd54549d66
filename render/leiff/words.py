"""The words of a table and a hand, in the reader's language: a seat's name, its scores, what
the table waits for, the round's line, a seat's drinks."""

from __future__ import annotations

from collections.abc import Sequence

from engine.leiff.cards import display_name
from engine.leiff.scoring import Drinks
from engine.leiff.views import LeiffView
from i18n import DEFAULT_LANGUAGE, outcome_reason, translate, translate_plural


def seat_name(names: Sequence[str], seat: int, language: str = DEFAULT_LANGUAGE) -> str:
    given = str(names[seat]).strip() if 0 <= seat < len(names) and names[seat] is not None else ""
    return given or translate(language, "picture.leiff.player", number=seat + 1)


def score_details(view: LeiffView, seat: int, language: str = DEFAULT_LANGUAGE) -> list[str]:
    """A seat's scores as its table row shows them: "total 37", "round +12"; in a team game
    the team's, labelled so ("team 1: total 15, round +15"), since those are the totals
    that count there."""
    totals = view.get("totals") or []
    round_scores = view.get("round_scores")
    teams = view.get("teams")
    if teams and seat < len(totals):
        team = next((number for number, members in enumerate(teams) if seat in members), 0)
        if not round_scores:
            return [
                translate(language, "picture.leiff.team_total", number=team + 1, total=totals[seat])
            ]
        team_round = sum(int(round_scores[s]) for s in teams[team] if s < len(round_scores))
        return [
            translate(
                language,
                "picture.leiff.team_scores",
                number=team + 1,
                total=totals[seat],
                score=f"{team_round:+d}",
            )
        ]
    details = []
    if seat < len(totals):
        details.append(translate(language, "picture.leiff.total", total=totals[seat]))
    if round_scores and seat < len(round_scores):
        score = round_scores[seat]
        shown = f"{score:+d}" if isinstance(score, int) else str(score)
        details.append(translate(language, "picture.leiff.round_score", score=shown))
    return details


def table_status(
    view: LeiffView,
    names: Sequence[str],
    viewer: int | None,
    language: str = DEFAULT_LANGUAGE,
) -> str:
    """What the table is waiting for, in words, from the view's ``waiting_for``."""
    outcome = view.get("outcome")
    if outcome:
        winners = [seat_name(names, s, language) for s in outcome.get("winner", [])]
        reason = outcome_reason(language, outcome)
        reason = reason[:1].upper() + reason[1:]  # it follows a full stop
        if not winners:
            return translate(language, "picture.leiff.game_over_nobody", reason=reason).strip()
        return translate_plural(
            language,
            "picture.leiff.game_over",
            "picture.leiff.game_over.plural",
            len(winners),
            winners=_and_list(language, winners),
            reason=reason,
        ).strip()
    waiting = view.get("waiting_for") or {}
    step = waiting.get("step")
    turn = waiting.get("turn")
    # what the seat to act must do: said to "you" on their own picture, else by name
    mine = turn is not None and turn == viewer
    name = "?" if turn is None else seat_name(names, turn, language)

    if view.get("round_over") or step == "next":
        return translate(language, "picture.leiff.round_over")
    if step == "look":
        return translate(language, "picture.leiff.look")
    if step == "turn":
        if mine:
            return translate(language, "picture.leiff.turn_you")
        return translate(language, "picture.leiff.turn", name=name)
    if step == "hold":
        if mine:
            return translate(language, "picture.leiff.hold_you")
        return translate(language, "picture.leiff.hold", name=name)
    if step == "effect":
        card = waiting.get("card")
        if not card:
            if mine:
                return translate(language, "picture.leiff.effect_you_unknown")
            return translate(language, "picture.leiff.effect_unknown", name=name)
        if mine:
            return translate(language, "picture.leiff.effect_you", card=display_name(card))
        return translate(language, "picture.leiff.effect", name=name, card=display_name(card))
    if step == "spy":
        return translate(language, "picture.leiff.spy")
    if step == "exchange":
        return translate(language, "picture.leiff.exchange")
    return ""


def hand_status(
    view: LeiffView, names: Sequence[str], seat: int, language: str = DEFAULT_LANGUAGE
) -> str:
    """A hand's status line: what the table waits for from this seat, or, while others
    are playing their turns, only that (whose turn it is changes with every action and is
    the table's to show; the hand picture stays the same until this seat's part changes)."""
    waiting = view.get("waiting_for") or {}
    others = seat not in (waiting.get("owners") or ())
    if others and not view.get("outcome") and waiting.get("step") in ("turn", "hold", "effect"):
        return translate(language, "picture.leiff.others_turn")
    return table_status(view, names, seat, language)


def _and_list(language: str, items: Sequence[str]) -> str:
    """Names joined "a and b and c" in the language."""
    joined = items[0]
    for item in items[1:]:
        joined = translate(language, "list.and", left=joined, right=item)
    return joined


def round_line(view: LeiffView, language: str = DEFAULT_LANGUAGE) -> str:
    options = view.get("options") or {}
    parts = [
        translate(language, "picture.leiff.round", number=view.get("round", 1)),
        translate(language, "picture.leiff.target", target=options.get("target", 50)),
    ]
    if options.get("teams"):
        parts.append(translate(language, "picture.leiff.teams"))
    if options.get("specials"):
        parts.append(translate(language, "picture.leiff.specials"))
    if options.get("drinking"):
        if options.get("water"):
            parts.append(translate(language, "picture.leiff.water_rules"))
        else:
            parts.append(translate(language, "picture.leiff.drinking_rules"))
    return " · ".join(parts)


def drinks_text(
    entry: Drinks | None, language: str = DEFAULT_LANGUAGE, *, settled: bool = False
) -> str:
    """A seat's drinks this round ("drinks: 1 shot, 4 sips"); ``settled`` once the round
    is over, when "nothing yet" would promise more."""
    if not entry:
        return ""
    parts = []
    if entry.get("shots"):
        parts.append(
            translate_plural(
                language, "picture.leiff.shots", "picture.leiff.shots.plural", entry["shots"]
            )
        )
    if entry.get("sips"):
        parts.append(
            translate_plural(
                language, "picture.leiff.sips", "picture.leiff.sips.plural", entry["sips"]
            )
        )
    if entry.get("hand_out"):
        parts.append(
            translate_plural(
                language,
                "picture.leiff.hands_out",
                "picture.leiff.hands_out.plural",
                entry["hand_out"],
            )
        )
    if not parts:
        if settled:
            return translate(language, "picture.leiff.drinks_none")
        return translate(language, "picture.leiff.drinks_nothing")
    return translate(language, "picture.leiff.drinks", drinks=", ".join(parts))
