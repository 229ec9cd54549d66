"""The "Play on the board" button: shown only when the Activity is configured, on the
/play reply and on the boards; a click launches the Activity in that channel (interaction
callback type 12), also on a message sent before a restart, and costs a move nothing."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.app import LeafBot
from bot.settings import Settings
from discord_sim import DiscordSimulator, World
from discord_sim.interactions import LAUNCH_ACTIVITY
from i18n import translate
from tests.bot.helpers import pick_move, start_board_match, stored_state
from tests.service.helpers import ManualClock, open_service


def activity_bot(
    world: World,
    database: Path,
    clock: Any,
    *,
    client: tuple[int, str] = (1, "not-used-unless-the-table-is-served"),
    serve_web: bool = False,
) -> Callable[[], LeafBot]:
    seeds = itertools.count(1000)

    def factory() -> LeafBot:
        settings = Settings(
            token="simulated",
            database_path=database,
            dev_guild_id=world.guild.id,
            render_workers=0,
            discord_client_id=client[0],
            discord_client_secret=client[1],
            web_port=0,
        )
        options = {"clock": clock, "seed_source": lambda: next(seeds)}
        return LeafBot(settings, service_options=options, tick_seconds=None, serve_web=serve_web)

    return factory


async def test_the_button_launches_the_activity_in_the_boards_channel_also_after_a_restart(
    sim: DiscordSimulator, world: World, database: Path, clock: Any, language: str
) -> None:
    sim.enable_activity()
    factory = activity_bot(world, database, clock)
    await sim.start_bot(factory)
    label = translate(language, "bot.board.button.activity")
    challenge = await sim.slash(world.alice, "play", game="dalen", opponent=world.bob, size=5)
    offer = challenge.last_message
    assert offer.button(label) is not None  # the /play reply carries it
    launched = await sim.click(world.carol, offer, label)
    assert launched.response_type == LAUNCH_ACTIVITY
    accept = translate(language, "bot.challenge.button.accept")
    board = (await sim.click(world.bob, offer, accept)).last_message
    launched = await sim.click(world.alice, board, label)
    assert launched.response_type == LAUNCH_ACTIVITY
    (instance,) = sim.activity_instances()
    assert instance.channel_id == world.channel.id and instance.guild_id == world.guild.id
    assert instance.users == [world.carol.id, world.alice.id]
    # the button needs no memory of the message: after a restart it launches as before
    await sim.restart_bot(factory)
    again = await sim.click(world.bob, board, label)
    assert again.response_type == LAUNCH_ACTIVITY
    assert instance.users == [world.carol.id, world.alice.id, world.bob.id]
    sim.assert_no_bot_errors()


async def test_without_the_activity_configured_no_board_carries_the_button(
    sim: DiscordSimulator, world: World, bot: Any
) -> None:
    _, board = await start_board_match(sim, world.alice, world.bob, "dalen", 5)
    labels = [b.label for b in board.buttons]
    assert labels and "Play on the board" not in labels
    challenge = await sim.slash(world.carol, "play", game="lefe")
    assert "Play on the board" not in [b.label for b in challenge.last_message.buttons]


async def test_a_launch_discord_refuses_is_said_to_the_clicker(
    sim: DiscordSimulator, world: World, database: Path, clock: Any
) -> None:
    # configured in the bot, but the application's Activity is off in the Developer Portal
    await sim.start_bot(activity_bot(world, database, clock))
    _, board = await start_board_match(sim, world.alice, world.bob, "dalen", 5)
    refused = await sim.click(world.alice, board, "Play on the board")
    assert refused.ephemeral
    assert refused.text == translate("en", "bot.activity.not_launched")
    assert sim.activity_instances() == []
    assert [v.code for v in sim.take_spec_violations()] == ["INTERACTION_CALLBACK_TYPE_INVALID"]


async def test_with_the_activity_on_a_move_costs_nothing_beyond_its_callback(
    sim: DiscordSimulator, world: World, database: Path, clock: Any
) -> None:
    sim.enable_activity()
    handle = await sim.start_bot(activity_bot(world, database, clock))
    match_id, board = await start_board_match(sim, world.alice, world.bob, "dalen", 5)
    assert board.button("Play on the board") is not None
    rng = random.Random(3)
    for player in (world.alice, world.bob, world.alice):
        state = await stored_state(handle, match_id)
        before = len(sim.requests)
        moved = await sim.slash(player, "move", cell=pick_move(state, rng))
        await handle.client.delivery.bots_idle()
        assert moved.last_message.button("Play on the board") is not None
        assert sim.request_counts(before) == {"callback": 1}, sim.request_counts(before)


async def test_the_bots_web_table_signs_members_in_through_discord(
    sim: DiscordSimulator, world: World, database: Path, clock: Any
) -> None:
    """Beside the bot, with the Activity configured: a member who pressed the button signs
    in with Discord's code and gets a session the socket accepts; nothing else does."""
    client = sim.enable_activity()
    handle = await sim.start_bot(
        activity_bot(world, database, clock, client=client, serve_web=True)
    )
    address = handle.client.web_address
    assert address is not None
    _, board = await start_board_match(sim, world.alice, world.bob, "dalen", 5)
    await sim.click(world.alice, board, "Play on the board")
    (instance,) = sim.activity_instances()
    async with aiohttp.ClientSession() as http:
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await http.ws_connect(f"{address}/ws")
        # bob did not launch it: his code signs nobody in for this Activity
        body = {"code": sim.consent(world.bob), "instance_id": instance.instance_id}
        async with http.post(f"{address}/api/token", json=body) as answer:
            assert answer.status == 401
        body = {"code": sim.consent(world.alice), "instance_id": instance.instance_id}
        async with http.post(f"{address}/api/token", json=body) as answer:
            signed = await answer.json()
            assert answer.status == 200, signed
        assert signed["user"]["id"] == str(world.alice.id)
        async with http.ws_connect(f"{address}/ws?session={signed['session']}") as socket:
            welcome = await socket.receive_json(timeout=10)
        assert welcome["type"] == "welcome"
    sim.assert_no_bot_errors()


async def test_without_discords_sign_in_the_table_serves_this_machine_only(
    tmp_path: Path,
) -> None:
    repo, service = await open_service(tmp_path / "bot.sqlite3", ManualClock())
    try:
        settings = Settings(token="t", web_host="0.0.0.0", web_port=0, render_workers=0)
        bot = LeafBot(settings, service=service, serve_web=True)
        with pytest.raises(SystemExit, match="sign-in"):
            await bot.start_web()
        assert bot.web_address is None
    finally:
        await repo.close()


async def test_the_daily_puzzle_solved_in_the_activity_lists_its_solver_in_the_channel(
    sim: DiscordSimulator, world: World, database: Path, clock: Any
) -> None:
    """The server's puzzle of the day, posted in its puzzle channel, opened and solved by a
    click at the web table in the Activity: the channel message lists the solver, as after
    an answer by ``/move``."""
    client = sim.enable_activity()
    handle = await sim.start_bot(
        activity_bot(world, database, clock, client=client, serve_web=True)
    )
    service = handle.client.service
    await service.update_settings(
        world.guild.id, world.alice.id, True, puzzle_channel=world.channel.id
    )
    await handle.client.learning_tick()
    today = await service.puzzles.daily(world.guild.id)
    assert today is not None and today.message_id is not None
    _, board = await start_board_match(sim, world.alice, world.bob, "dalen", 5)
    await sim.click(world.alice, board, "Play on the board")
    (instance,) = sim.activity_instances()
    address = handle.client.web_address
    async with aiohttp.ClientSession() as http:
        body = {"code": sim.consent(world.alice), "instance_id": instance.instance_id}
        async with http.post(f"{address}/api/token", json=body) as answer:
            signed = await answer.json()
        async with http.ws_connect(f"{address}/ws?session={signed['session']}") as socket:
            assert (await socket.receive_json(timeout=10))["type"] == "welcome"
            await socket.send_json({"type": "puzzle_daily"})
            shown = await socket.receive_json(timeout=10)
            assert shown["type"] == "puzzle" and shown["puzzle"] == today.puzzle_id
            stored = await service.puzzles.get(today.puzzle_id)
            assert stored is not None
            move = stored.puzzle.first_move
            await socket.send_json(
                {"type": "puzzle_answer", "puzzle": shown["puzzle"], "move": move}
            )
            verdict = await socket.receive_json(timeout=10)
            assert verdict["type"] == "puzzle_result" and verdict["solved"]
    assert f"<@{world.alice.id}>" in sim.state.messages[today.message_id].text
    sim.assert_no_bot_errors()
