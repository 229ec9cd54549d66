"""Time controls through the real client (issue 35), in English and in German: ``/play``
offers them with the server's default first, the challenge and the board say the chosen one
in words, and ``/leaderboard`` keeps live and daily matches apart."""

from __future__ import annotations

import re
from typing import Any

from i18n import translate


def match_number(message: Any) -> int:
    return int(re.search(r"#(\d+)", message.text).group(1))


async def test_play_offers_the_time_controls_and_the_match_shows_its_own(
    sim: Any, world: Any, language: str, bot: Any
) -> None:
    alice, bob = world.alice, world.bob
    words = {
        "en": ("3 days per move", "3 min per move", "Daily", "Live"),
        "de": ("3 Tage pro Zug", "3 Min. pro Zug", "Täglich", "Live"),
    }[language]
    three_days, three_minutes, daily, live = words
    offered = await sim.autocomplete(alice, "play", option="clock", value="", game="lefe")
    # the server's own time per move first, marked as its default (a day a move)
    first = offered[0]
    assert first["value"] == "move:86400"
    assert (
        first["name"]
        == {
            "en": "Daily: 1 day per move (this server's default)",
            "de": "Täglich: 1 Tag pro Zug (Standard dieses Servers)",
        }[language]
    )
    values = [choice["value"] for choice in offered]
    assert values == [
        "move:86400",
        "move:60",
        "move:180",
        "move:600",
        "game:600+5",
        "move:172800",
        "move:259200",
        "move:604800",
    ]
    # at a Leiff table: the server's time per turn first, and no whole-game clock
    at_table = await sim.autocomplete(alice, "play", option="clock", value="", game="leiff")
    assert at_table[0]["value"] == "move:300"
    assert "game:600+5" not in [choice["value"] for choice in at_table]
    typed = await sim.autocomplete(alice, "play", option="clock", value=daily[:3], game="lefe")
    assert typed and all(daily in choice["name"] for choice in typed)

    offer = (
        await sim.slash(alice, "play", game="lefe", opponent=bob, clock="move:259200")
    ).last_message
    assert three_days in offer.text
    board = (
        await sim.click(bob, offer, translate(language, "bot.challenge.button.accept"))
    ).last_message
    header = board.text.splitlines()[0]
    assert header.endswith(f" · {three_days}")
    match_id = match_number(board)
    assert (await bot.client.service.get_match(match_id)).time_control == "move:259200"

    offer = (
        await sim.slash(bob, "play", game="dalen", opponent=alice, clock="move:180")
    ).last_message
    assert three_minutes in offer.text
    refused = await sim.slash(alice, "play", game="lefe", opponent=bob, clock="hourly")
    assert refused.ephemeral
    assert translate(language, "service.error.time_control_unknown")[1:] in refused.text
    assert live  # the pool's word is checked on the leaderboard below


async def test_the_leaderboard_keeps_live_and_daily_apart(
    sim: Any, world: Any, language: str, bot: Any, clock: Any
) -> None:
    alice, bob, carol = world.alice, world.bob, world.carol
    service = bot.client.service
    guild = world.guild.id
    live = await service.challenge(
        guild, world.channel.id, alice.id, "lefe", bob.id, time_control="move:600"
    )
    assert live.challenge_id is not None
    started = await service.accept_challenge(live.challenge_id, bob.id)
    await service.resign(started.match_id, bob.id)
    clock.advance(60)
    daily = await service.challenge(
        guild, world.channel.id, carol.id, "lefe", bob.id, time_control="move:172800"
    )
    assert daily.challenge_id is not None
    started = await service.accept_challenge(daily.challenge_id, bob.id)
    await service.resign(started.match_id, carol.id)

    title = translate(language, "bot.leaderboard.title", game="Lefe")
    shown = (await sim.slash(alice, "leaderboard", game="lefe", pool="live")).last_message
    live_word = translate(language, "bot.clock.kind.live")
    daily_word = translate(language, "bot.clock.kind.daily")
    assert shown.text.splitlines()[0] == f"{title} · {live_word}"
    assert "alice" in shown.text and "carol" not in shown.text
    shown = (await sim.slash(alice, "leaderboard", game="lefe", pool="daily")).last_message
    assert shown.text.splitlines()[0] == f"{title} · {daily_word}"
    assert "carol" in shown.text and "alice" not in shown.text
    # without a pool: the server's usual time (a day a move): daily
    shown = (await sim.slash(alice, "leaderboard", game="lefe")).last_message
    assert shown.text.splitlines()[0] == f"{title} · {daily_word}"
    # Bob played both: /stats says which line is which
    stats = (await sim.slash(bob, "stats")).last_message.text
    assert f"Lefe ({live_word})" in stats and f"Lefe ({daily_word})" in stats
