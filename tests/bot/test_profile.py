"""``/profile`` and the leaderboard's seasons through the simulator, in both languages:
the profile's lines (record, favourite opponent, head-to-head with the one who asks), its
rating graph decoded and sampled where the service says each point is; a season set with
``/settings``, ended by the simulated clock, its final standings shown by
``/leaderboard season:`` (offered by autocomplete) while the next season starts fresh."""

from __future__ import annotations

import asyncio
import calendar
import random
import re
from typing import Any

import pytest

from bot.common.record_words import games_count
from engine import get_board_game
from engine.ai.levels import choose_move_from_json
from i18n import month_text, translate
from matchcore.service.season_calendar import CLOSE_GRACE_SECONDS
from render.rating_graph import WIDTH, GraphPanel, point_xy
from render.themes import get_theme
from tests.bot.helpers import (
    decode_png,
    last_board_message,
    pick_move,
    resign,
    stored_state,
)
from tests.bot.test_history import match_id_of_any

FEBRUARY = float(calendar.timegm((2027, 2, 1, 0, 0, 0)))  # the tests' clock starts in January


def near(colour: tuple[int, ...], expected: tuple[int, int, int], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=False))


async def beat(sim: Any, bot: Any, world: Any, clock: Any, language: str, winner: Any) -> int:
    """A rated Lefe match between Alice and Bob: two moves, then the other one resigns."""
    clock.advance(120)  # past the challenge cooldown
    offer = (
        await sim.slash(world.alice, "play", game="lefe", opponent=world.bob, size=5)
    ).last_message
    accepted = await sim.click(world.bob, offer, translate(language, "bot.challenge.button.accept"))
    match_id = match_id_of_any(accepted.last_message)
    rng = random.Random(5)
    players = [world.alice, world.bob]
    for _ in range(2):
        state = await stored_state(bot, match_id)
        await sim.slash(players[state.seat_to_move], "move", cell=pick_move(state, rng))
    loser = world.bob if winner is world.alice else world.alice
    await resign(sim, loser, last_board_message(world.channel))
    result = (await bot.client.service.get_match(match_id)).result or {}
    assert result.get("winners") == [winner.id], result
    return match_id


async def test_the_profile_shows_records_the_head_to_head_and_the_rating_graph(
    sim: Any, world: Any, language: str, bot: Any, clock: Any
) -> None:
    await beat(sim, bot, world, clock, language, world.alice)
    await beat(sim, bot, world, clock, language, world.alice)
    await beat(sim, bot, world, clock, language, world.bob)

    asked = await sim.slash(world.bob, "profile", member=world.alice)
    message = asked.last_message
    assert not message.ephemeral and message.channel is world.channel
    text = message.text
    assert translate(language, "bot.profile.title", name="alice") in text
    pool = translate(language, "bot.clock.kind.daily")
    assert f"**Lefe · {pool}**" in text
    record = translate(
        language,
        "bot.stats.record",
        games=games_count(language, 3),
        wins=2,
        losses=1,
        draws=0,
    )
    # Bob is Alice's only opponent: her favourite, and the one who asked
    assert translate(language, "bot.profile.favourite", name="bob", record=record) in text
    assert translate(language, "bot.profile.versus", name="bob", record=record) in text

    # the graph: a newcomer's 1500, then one point a game, where the service says
    profile = await bot.client.service.profile(world.guild.id, world.alice.id)
    (lefe,) = profile.games
    assert len(lefe.points) == 4 and lefe.points[0][1] == 1500
    assert lefe.points[-1][1] == lefe.stats.rating
    image = decode_png(message)
    assert image.width == WIDTH
    theme = get_theme("classic")
    panel = GraphPanel("", "", lefe.points, "", "")
    for number in range(len(lefe.points)):
        x, y = point_xy(panel, 0, number)
        assert near(image.getpixel((round(x), round(y))), theme.placed), number
    # the header band carries the title
    assert near(image.getpixel((2, 2)), theme.header_background, 8)

    # about oneself: no head-to-head line
    own = (await sim.slash(world.alice, "profile")).last_message.text
    assert translate(language, "bot.profile.versus", name="alice", record=record) not in own
    assert translate(language, "bot.profile.title", name="alice") in own

    # Carol has no rated game: said so, and no picture
    carol = (await sim.slash(world.alice, "profile", member=world.carol)).last_message
    assert translate(language, "bot.profile.none", name="carol") in carol.text
    assert not carol.attachments


async def test_a_season_ends_its_final_standings_stay_and_the_next_starts_fresh(
    sim: Any, world: Any, language: str, bot: Any, clock: Any
) -> None:
    kind = translate(language, "bot.season_kind.monthly")
    offered = await sim.autocomplete(
        world.admin, "settings", option="value", value=kind[:3], key="season"
    )
    assert [c["value"] for c in offered] == ["monthly"]
    await sim.slash(world.admin, "settings", key="season", value=kind)
    assert (await bot.client.service.get_settings(world.guild.id)).season == "monthly"

    await beat(sim, bot, world, clock, language, world.alice)
    await beat(sim, bot, world, clock, language, world.alice)
    # February comes; the tick after the grace closes January
    clock.now = FEBRUARY + CLOSE_GRACE_SECONDS + 1
    await bot.client.tick_once()
    await beat(sim, bot, world, clock, language, world.bob)

    january, february = month_text(language, 2027, 1), month_text(language, 2027, 2)
    offered = await sim.autocomplete(world.carol, "leaderboard", option="season", game="lefe")
    assert [(c["name"], c["value"]) for c in offered] == [
        (translate(language, "bot.season.current", season=february), "2027-02"),
        (translate(language, "bot.season.final", season=january), "2027-01"),
    ]

    def board_names(text: str) -> list[str]:
        return re.findall(r"^\d+\. (\w+):", text, flags=re.MULTILINE)

    final = (
        await sim.slash(world.carol, "leaderboard", game="lefe", season="2027-01")
    ).last_message
    assert translate(language, "bot.leaderboard.season", season=january) in final.text
    assert board_names(final.text) == ["alice", "bob"], final.text
    # a season typed by its name (not picked from the list) is found too
    typed = february.upper() if language == "en" else february
    now = (await sim.slash(world.carol, "leaderboard", game="lefe", season=typed)).last_message
    assert board_names(now.text) == ["bob", "alice"], now.text
    assert games_count(language, 1) in now.text and games_count(language, 3) not in now.text
    # the all-time board goes on: Alice won two of three
    all_time = (await sim.slash(world.carol, "leaderboard", game="lefe")).last_message
    assert board_names(all_time.text) == ["alice", "bob"], all_time.text
    assert games_count(language, 3) in all_time.text


async def weakest_reply(state_json: str, game: str, level: str) -> str:
    """The bot's opponent in the next test: always the first of its legal moves (what the
    test is about is the words of a win against a level, not the search)."""
    state = get_board_game(game).from_json(state_json)
    return sorted(state.legal_moves())[0]


@pytest.mark.compressed_rate_limits
async def test_a_win_against_the_bot_names_the_level_beaten_in_the_result_and_the_profile(
    sim: Any, world: Any, language: str, make_bot: Any
) -> None:
    handle = await sim.start_bot(lambda: make_bot(ai_move=weakest_reply))
    me = sim.bot_user
    started = await sim.slash(world.alice, "play", game="dalen", opponent=me, size=5, level="easy")
    match_id = match_id_of_any(started.last_message)
    for _ in range(200):
        await handle.client.delivery.bots_idle()
        state = await stored_state(handle, match_id)
        if state.outcome is not None:
            break
        assert state.seat_to_move == 0, "the bot left its turn unplayed"
        move = await asyncio.to_thread(
            choose_move_from_json, state.to_json(), "dalen", "normal", None
        )
        await sim.slash(world.alice, "move", cell=move)
    await handle.client.delivery.bots_idle()
    final = await handle.client.service.get_match(match_id)
    assert final.status == "finished" and (final.result or {}).get("winners") == [world.alice.id]
    easy = translate(language, "bot.level.easy")
    # the result line says the level the member beat (matchcore/service/board_logic.py)
    said = translate(language, "service.say.bot_level", level=easy)
    assert said in last_board_message(world.channel).text

    profile = (await sim.slash(world.bob, "profile", member=world.alice)).last_message
    beaten = translate(language, "bot.profile.levels_of_game", game="Dalen", levels=easy)
    assert translate(language, "bot.profile.levels_beaten", games=beaten) in profile.text
    sim.assert_no_bot_errors()
