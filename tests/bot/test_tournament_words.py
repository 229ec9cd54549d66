"""How an event's player count reads: a number with a noun in the player's language, the
right form for one player, and the announcement's named players capped at PLAYERS_NAMED."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.features.tournaments.words import (
    PLAYERS_NAMED,
    announcement,
    list_line,
    standings_view,
)
from matchcore.service.tournament_info import StandingRow, TournamentInfo


class Names:
    """The NameBook's one method the standings need (the names are not under test)."""

    async def name(self, user_id: int) -> str:
        return f"player{user_id}"


def event(players: int, fmt: str = "arena", status: str = "running") -> TournamentInfo:
    ids = tuple(range(1, players + 1))
    return TournamentInfo(
        id=3,
        guild_id=1,
        channel_id=2,
        thread_id=None,
        creator_id=1,
        game="dalen",
        format=fmt,
        options={"minutes": 60},
        rated=True,
        status=status,
        paused=False,
        closed=False,
        starts_at=0.0,
        ends_at=3600.0,
        round=1,
        rounds=None if fmt == "arena" else 5,
        players=ids,
        standings=tuple(
            StandingRow(rank=i, user_id=u, score=0, buchholz=0, sonneborn_berger=0)
            for i, u in enumerate(ids, start=1)
        ),
        messages={},
        version=1,
    )


@pytest.mark.parametrize(
    ("language", "players", "expected"),
    [
        ("en", 1, "· 1 player"),
        ("en", 8, "· 8 players"),
        ("de", 1, "· 1 Spieler"),
        ("de", 8, "· 8 Spieler"),
    ],
)
def test_the_list_counts_players_with_a_noun(language: str, players: int, expected: str) -> None:
    line = list_line(language, event(players))
    assert line.endswith(expected) or expected + " ·" in line, line
    assert "players:" not in line and "Spieler:" not in line
    assert ". ·" not in line  # the "when" sentence is a part of the line here


@pytest.mark.parametrize(
    ("language", "players", "expected"),
    [("en", 1, "Arena · 1 player"), ("en", 8, "Arena · 8 players"), ("de", 8, "Arena · 8 Spieler")],
)
def test_the_arena_standings_subtitle_counts_players(
    language: str, players: int, expected: str
) -> None:
    names: Any = Names()
    view = asyncio.run(standings_view(language, event(players), names))
    assert view.subtitle == expected


def test_an_announcement_counts_the_players_it_does_not_name() -> None:
    text = announcement("en", event(PLAYERS_NAMED + 7, status="upcoming"))
    assert text.count("<@") == PLAYERS_NAMED
    assert "7" in text.split(f"<@{PLAYERS_NAMED}>")[1].splitlines()[0]
