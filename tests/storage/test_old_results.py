"""Results stored before reasons carried codes read in German too.

A finished match's row written in the old form (winners, an English ``reason``, ``draw``;
no code) is read back through the repository, on SQLite and PostgreSQL, and worded the
way history lines and redrawn messages word a result (``result_words``): in German, the
reason is the catalogue's German for the code its English belongs to.
"""

from __future__ import annotations

from typing import Any

import pytest

from i18n import translate, translate_plural
from matchcore.storage import MatchRecord, Repository, SeatRecord
from tests.bot.language_check import english_in
from wording.service_words import result_words

ALICE, BOB = 900_000_000_000_000_011, 900_000_000_000_000_012
NAMES = {ALICE: "Anna", BOB: "Bernd"}


def old_row(game: str, result: dict[str, Any]) -> MatchRecord:
    return MatchRecord(
        id=0,
        guild_id=1,
        channel_id=2,
        game=game,
        status="finished",
        created_at=1.0,
        updated_at=2.0,
        finished_at=2.0,
        state='{"x":1}',
        result=result,
        seats=(SeatRecord(0, ALICE, colour="dark"), SeatRecord(1, BOB, colour="light")),
    )


def de(msgid: str, **params: Any) -> str:
    return translate("de", msgid, **params)


OLD_RESULTS = [
    pytest.param(
        "lefe",
        {"winners": [ALICE], "reason": f"<@{BOB}> resigned", "draw": False},
        de(
            "service.say.result_win",
            names="Anna",
            reason=de("service.say.reason_resigned", user=f"<@{BOB}>"),
        ),
        id="resigned",
    ),
    pytest.param(
        "dalen",
        {"winners": [], "reason": "drawn by agreement", "draw": True},
        de("service.say.result_drawn", reason=de("service.say.reason_agreed")),
        id="agreed",
    ),
    pytest.param(
        "lefe",
        {"winners": [BOB], "reason": "light wins 4–2: dark has no legal placement"},
        # the engine's own "light wins" names the winner: the player goes in for the colour
        de("outcome.lefe_win_stuck", colour="Bernd (Hell)", high=4, low=2, stuck_colour="dark")
        + ".",
        id="engine",
    ),
    pytest.param(
        "les",
        {
            "winners": [],
            "reason": "draw: 2 holes each, alike in size and border; dark has no legal placement",
            "draw": True,
        },
        de(
            "service.say.result_drawn",
            reason=translate_plural(
                "de",
                "outcome.les_draw_alike",
                "outcome.les_draw_alike.plural",
                2,
                stuck_colour="dark",
            ),
        ),
        id="engine-plural",
    ),
]


@pytest.mark.parametrize(("game", "old", "german"), OLD_RESULTS)
async def test_an_old_result_reads_in_german(
    repo: Repository, game: str, old: dict[str, Any], german: str
) -> None:
    stored = await repo.create_match(old_row(game, old))
    record = await repo.get_match(stored.id)
    assert record is not None and record.result == old  # read back in the old form
    line = result_words("de", record.seats, record.result, lambda user: NAMES.get(user, "?"))
    assert line == german
    assert english_in(line, NAMES.values()) == []
    # English keeps the sentence it always had
    english = result_words("en", record.seats, record.result, lambda user: NAMES.get(user, "?"))
    assert old["reason"].split(":")[-1].strip() in english


async def test_an_old_reason_nobody_knows_stays_as_stored(repo: Repository) -> None:
    old = {"winners": [ALICE], "reason": "the moon rose", "draw": False}
    stored = await repo.create_match(old_row("lefe", old))
    record = await repo.get_match(stored.id)
    assert record is not None and record.result is not None
    line = result_words("de", record.seats, record.result, lambda user: NAMES.get(user, "?"))
    assert line == de("service.say.result_win", names="Anna", reason="the moon rose")
