"""Time controls in the reader's words, and what ``/play clock:`` offers while one types.

A time control travels as its code (:mod:`matchcore.service.time_controls`); a member reads
it as "3 days per move" or "10 min per player + 5 s a move" (German "3 Tage pro Zug"),
with the kind in front in the list ("Daily: 3 days per move"). The server's time per
move (the default when no control is chosen) comes first, marked, so it is the one
preselected; the offered controls follow, live then daily.
"""

from __future__ import annotations

from i18n import N_, translate
from i18n.typed import normal
from matchcore.service.time_controls import OFFERED, TimeControl, control_of
from wording.service_words import said_words

LIMIT = 25  # suggestions Discord shows

KIND_TEXT_IDS = {
    "live": N_("bot.clock.kind.live"),
    "daily": N_("bot.clock.kind.daily"),
}


def control_words(language: str, code: str | None, server_seconds: int = 0) -> str:
    """The control in words: "3 days per move" (a code None: the server's time)."""
    said = control_of(code, server_seconds).said()
    return said_words(language, said.code, said.params)


def pool_words(language: str, pool: str) -> str:
    """The rating pool's name: "live" or "daily" ("Live", "Täglich")."""
    return translate(language, KIND_TEXT_IDS.get(pool, KIND_TEXT_IDS["live"]))


def labelled(language: str, control: TimeControl) -> str:
    """A control as the list offers it: "Daily: 3 days per move"."""
    return translate(
        language,
        "bot.clock.choice",
        kind=pool_words(language, control.pool),
        clock=control_words(language, control.code),
    )


def clock_suggestions(
    language: str, typed: str, server_seconds: int, *, table: bool
) -> list[tuple[str, str]]:
    """(name, code) pairs for ``/play clock:``: the server's default first and marked, then
    every offered control (a table's without the whole-game clock) whose name holds what
    was typed."""
    default = TimeControl.per_move_of(server_seconds)
    offered = [default] + [
        control
        for control in (TimeControl.parse(code) for code in OFFERED)
        if control != default and not (table and control.whole_game)
    ]
    wanted = normal(typed)
    found: list[tuple[str, str]] = []
    for control in offered:
        name = labelled(language, control)
        if control == default:
            name = translate(language, "bot.clock.default", choice=name)
        if not wanted or wanted in normal(name) or wanted in control.code:
            found.append((name[:100], control.code))
    return found[:LIMIT]
