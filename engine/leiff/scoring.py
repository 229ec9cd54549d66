"""Round end, scoring, game end and the drinking ledger.

The ledger keeps, per seat and round, what the rules made that seat drink while the round
ran (``Table.drinks``: sips, shots, sips to hand out), recorded at the moment it happened so
that a Kellner played later does not undo earlier drinks. :func:`ledger` derives the
announced figures: the Magier's double and the Dorfschönheit's link are applied on top.
"""

from __future__ import annotations

from typing import TypedDict

from engine.leiff.events import PUBLIC, Event, Said, event, said
from engine.leiff.table import Outcome, Table

SIPS, SHOTS, HAND_OUT = 0, 1, 2
SHOT_THRESHOLD = 10  # a hand card worth this much or more costs a shot after the round


def record_drink(t: Table, seat: int, *, sips: int = 0, shots: int = 0, hand_out: int = 0) -> bool:
    """Add to a seat's raw ledger; the Kellner's immunity waives drinking, not handing out.

    Returns whether anything was recorded to be drunk.
    """
    if not t.options.drinking:
        return False
    if seat in t.immune:
        sips = shots = 0
    row = t.drinks[seat]
    row[SIPS] += sips
    row[SHOTS] += shots
    row[HAND_OUT] += hand_out
    return bool(sips or shots)


def hand_drinks(values: list[int]) -> tuple[int, int, int]:
    """After-round drinking for one hand: (sips, shots, sips to hand out).

    One shot per card worth 10 or more; the other cards are summed: a positive sum costs
    that sum divided by three, rounded up, in sips; a negative sum lets the player hand out
    that many sips.
    """
    shots = sum(1 for v in values if v >= SHOT_THRESHOLD)
    rest = sum(v for v in values if v < SHOT_THRESHOLD)
    if rest > 0:
        return -(-rest // 3), shots, 0
    return 0, shots, -rest


class Drinks(TypedDict):
    """One seat's line of the drink ledger."""

    sips: int
    shots: int
    hand_out: int


def ledger(t: Table) -> list[Drinks] | None:
    """This round's announced ledger per seat, or None without drinking rules."""
    if not t.options.drinking:
        return None
    rows: list[Drinks] = []
    for seat, (sips, shots, hand_out) in enumerate(t.drinks):
        factor = 2 if seat in t.doubled and seat not in t.immune else 1
        rows.append({"sips": sips * factor, "shots": shots * factor, "hand_out": hand_out})
    if t.link is not None:
        linked, to = t.link
        if linked not in t.immune:
            rows[linked] = {
                "sips": rows[linked]["sips"] + rows[to]["sips"],
                "shots": rows[linked]["shots"] + rows[to]["shots"],
                "hand_out": rows[linked]["hand_out"],
            }
    return rows


def unit_of(t: Table, seat: int) -> int:
    """The scoring unit of a seat: its team with teams, else the seat itself."""
    team = t.options.team_of(seat)
    return seat if team is None else team


def unit_totals(t: Table) -> list[int]:
    units = t.options.team_count or t.players
    totals = [0] * units
    for row in t.history:
        for seat, points in enumerate(row):
            totals[unit_of(t, seat)] += points
    return totals


def seat_totals(t: Table) -> list[int]:
    """Running total shown for each seat (with teams: the team's total)."""
    totals = unit_totals(t)
    return [totals[unit_of(t, seat)] for seat in range(t.players)]


def _team_score_lines(t: Table, scores: list[int]) -> list[Said]:
    """One line per team: its round score (each player's share) and its total."""
    totals = unit_totals(t)
    lines = []
    for team, seats in enumerate(t.options.teams_list() or []):
        shares = [said("share", player=s, score=scores[s]) for s in seats]
        round_score = sum(scores[s] for s in seats)
        lines.append(
            said(
                "team_score",
                players=list(seats),
                score=round_score,
                shares=shares,
                total=totals[team],
            )
        )
    return lines


def _drinks_part(seat: int, row: Drinks) -> Said:
    """One seat's part of the round's drinks, counted in words with their plurals."""
    shots, sips, hand_out = row["shots"], row["sips"], row["hand_out"]
    shot_part = said("drinks_shots", count=shots, sips=4 * shots)
    sip_part = said("drinks_sips", count=sips)
    given = said("drinks_sips", count=hand_out)
    if not shots and not sips:
        if hand_out:
            return said("drinks_hands_out", player=seat, given=given)
        return said("drinks_nothing", player=seat)
    out = "_hands_out" if hand_out else ""
    extra: dict[str, Said] = {"given": given} if hand_out else {}
    if shots and sips:
        # "1 shot and 3 sips (or 7 sips)": the shot's sips said once, for the whole
        return said(
            f"drinks_shots_and_sips{out}",
            player=seat,
            shots=said("drinks_shot_count", count=shots),
            sips=sip_part,
            all_sips=4 * shots + sips,
            **extra,
        )
    owed = shot_part if shots else sip_part
    return said(f"drinks_owed{out}", player=seat, owed=owed, **extra)


def finish_round(t: Table, events: list[Event]) -> None:
    """Reveal every hand, score the round, settle drinks and decide whether the game is over."""
    n = t.players
    t.holding = None
    t.hold_source = None
    t.effect = None
    t.spy = None
    t.exchange = None
    t.turn = None
    reveal = [[s, i + 1, t.label(c)] for s in range(n) for i, c in enumerate(t.hands[s])]
    for hand in t.hands:
        for c in hand:
            t.reveal_to_all(c)
    shown = [
        said("reveal_hand", player=s, cards=[t.label(c) for c in t.hands[s]])
        if t.hands[s]
        else said("reveal_no_cards", player=s)
        for s in range(n)
    ]
    events.append(event("reveal", PUBLIC, said("reveal", hands=shown), reveal=reveal))

    sums = [sum(t.value(c) for c in hand) for hand in t.hands]
    scores = list(sums)
    bonus: Said | None = None
    if t.caller is not None:
        unit_sums: dict[int, int] = {}
        for seat in range(n):
            unit_sums[unit_of(t, seat)] = unit_sums.get(unit_of(t, seat), 0) + sums[seat]
        mine = unit_sums[unit_of(t, t.caller)]
        strictly_lowest = all(v > mine for u, v in unit_sums.items() if u != unit_of(t, t.caller))
        points = -5 if strictly_lowest else 5
        scores[t.caller] += points
        lowest = "lowest" if strictly_lowest else "not_lowest"
        who = "team" if t.options.teams else "score"
        bonus = said(f"bonus_{lowest}_{who}", player=t.caller, bonus=f"{points:+d}")
    t.round_scores = scores
    t.history.append(scores)
    totals = seat_totals(t)
    with_bonus = {} if bonus is None else {"bonus": bonus}
    tail = "" if bonus is None else "_bonus"
    if t.options.teams:
        says = said(
            f"scores_teams{tail}", round=t.round, teams=_team_score_lines(t, scores), **with_bonus
        )
    else:
        parts = [said("score", player=s, score=scores[s], total=totals[s]) for s in range(n)]
        says = said(f"scores{tail}", round=t.round, scores=parts, **with_bonus)
    events.append(event("round", PUBLIC, says, scores=scores))

    if t.options.drinking:
        for seat in range(n):
            sips, shots, hand_out = hand_drinks([t.value(c) for c in t.hands[seat]])
            record_drink(t, seat, sips=sips, shots=shots, hand_out=hand_out)
        rows = ledger(t) or []
        parts = [_drinks_part(seat, row) for seat, row in enumerate(rows)]
        events.append(event("drink", PUBLIC, said("drinks", drinks=parts), ledger=rows))

    unit_scores = unit_totals(t)
    if max(unit_scores) >= t.options.target:
        best = min(unit_scores)
        winners = sorted(s for s in range(n) if unit_scores[unit_of(t, s)] == best)
        t.outcome = Outcome.because(
            winners, "leiff_target_reached", target=t.options.target, best=best
        )
        t.step = "over"
        says = said(
            "game_over",
            target=t.options.target,
            players=winners,
            count=len(winners),
            best=best,
        )
        events.append(event("game_over", PUBLIC, says, winner=winners))

    else:
        t.step = "next"
