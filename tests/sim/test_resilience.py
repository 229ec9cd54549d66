"""Restarts with persistent views, rate limits, gateway reconnects and dropped sockets."""

from __future__ import annotations

import asyncio

from discord_sim import DiscordSimulator, World

from .toy_bot import Recorder, make_toy_bot


async def test_persistent_view_survives_a_restart_and_temporary_one_does_not(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    first = await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    challenge = await discord_sim.slash(
        sim_world.alice, "play", game="lefe", opponent=sim_world.bob
    )
    poke = await discord_sim.slash(sim_world.alice, "poke")

    second = await discord_sim.restart_bot(lambda: make_toy_bot(recorder))
    assert first.client.is_closed() and not first.running
    assert (
        second.client is not first.client and recorder.instances == 2 and recorder.ready_count == 2
    )

    accepted = await discord_sim.click(sim_world.bob, challenge.message, "Accept")
    assert accepted.response_type == 7 and challenge.message.content.startswith("Accepted by")
    assert recorder.last("accept")["message_id"] == challenge.message.id

    ignored = await discord_sim.click(sim_world.bob, poke.message, "Poke", expect_response=False)
    assert not ignored.responded
    assert [name for name, _ in recorder.calls].count("poke") == 0


async def test_rate_limited_requests_are_retried_after_retry_after(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    fault = discord_sim.rate_limit(
        f"POST /channels/{sim_world.channel.id}/messages", count=2, retry_after=0.05
    )
    result = await discord_sim.slash(sim_world.alice, "announce", text="hello")

    assert fault.hits == 2 and fault.remaining == 0
    statuses = [
        r.status for r in discord_sim.requests if r.route == "/channels/{channel_id}/messages"
    ]
    assert statuses == [429, 429, 200, 200]
    assert [m.content for m in sim_world.channel.public_messages] == ["hello", "and a reply"]
    # the ephemeral answer went out first, before the refused sends and their retries
    routes = [r.route for r in discord_sim.requests]
    callback = next(i for i, route in enumerate(routes) if route.endswith("/callback"))
    assert callback < routes.index("/channels/{channel_id}/messages")
    assert result.responded


async def test_rate_limit_on_the_followup_route(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    discord_sim.rate_limit("POST /webhooks/{application_id}/{token}", retry_after=0.02)
    result = await discord_sim.slash(sim_world.alice, "slow")
    assert [m.content for m in result.followups] == ["Step 2"]
    assert [
        r.status for r in discord_sim.requests if r.route == "/webhooks/{application_id}/{token}"
    ] == [429, 200]


async def test_gateway_reconnect_request_resumes_the_session(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    [session] = discord_sim.gateway.live_sessions
    await discord_sim.gateway_reconnect()
    assert session.resumes == 1 and recorder.resumed_count == 1 and recorder.ready_count == 1
    result = await discord_sim.slash(sim_world.alice, "move", cell="b2")
    assert result.message.content == "Played b2"


async def test_dropped_socket_is_resumed_and_missed_events_replayed(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    [session] = discord_sim.gateway.live_sessions
    session.drop()
    await asyncio.sleep(0)
    # Sent while the bot is (or is about to be) disconnected: delivered on RESUME.
    await discord_sim.send_user_message(sim_world.carol, sim_world.channel, "anyone there?")
    result = await discord_sim.slash(sim_world.alice, "move", cell="a2")
    assert result.message.content == "Played a2"
    assert session.resumes == 1 and recorder.resumed_count == 1
    assert recorder.last("message") == {
        "author_id": sim_world.carol.id,
        "channel_id": sim_world.channel.id,
    }


async def test_drop_connection_helper_waits_for_the_resume(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    await discord_sim.drop_connection()
    await discord_sim.drop_connection()
    assert recorder.resumed_count == 2 and recorder.ready_count == 1
    choices = await discord_sim.autocomplete(sim_world.bob, "move", option="cell", value="a")
    assert [c["value"] for c in choices] == ["a1", "a2"]
