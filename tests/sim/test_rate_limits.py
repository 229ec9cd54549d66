"""The simulator enforces Discord's rate limits by default, with the answers discord.py reads.

The raw-HTTP tests run on a frozen limiter clock that the test moves by hand, so what they
check does not depend on how fast the machine is; the last tests let the real discord.py
client meet the limits.
"""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord

from discord_sim import DiscordSimulator, World
from discord_sim.ratelimits import ROUTE_BUCKETS

from .toy_bot import Recorder, make_toy_bot


class FrozenClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def freeze(sim: DiscordSimulator) -> FrozenClock:
    clock = FrozenClock()
    sim.state.rate_limiter.clock = clock
    return clock


async def post(
    session: aiohttp.ClientSession, sim: DiscordSimulator, path: str, body: dict[str, Any]
) -> tuple[int, dict[str, str], Any]:
    async with session.post(
        f"{sim.base_url}/api/v10{path}",
        json=body,
        headers={"Authorization": f"Bot {sim.token}"},
    ) as response:
        return response.status, dict(response.headers), await response.json()


async def get(
    session: aiohttp.ClientSession, sim: DiscordSimulator, path: str
) -> tuple[int, dict[str, str]]:
    async with session.get(
        f"{sim.base_url}/api/v10{path}", headers={"Authorization": f"Bot {sim.token}"}
    ) as response:
        await response.read()
        return response.status, dict(response.headers)


async def test_five_messages_per_five_seconds_per_channel_then_429_with_headers(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    clock = freeze(discord_sim)
    path = f"/channels/{sim_world.channel.id}/messages"
    async with aiohttp.ClientSession() as session:
        answers = [await post(session, discord_sim, path, {"content": str(i)}) for i in range(6)]
        # another channel has a bucket of its own
        other = await post(
            session,
            discord_sim,
            f"/channels/{sim_world.other_channel.id}/messages",
            {"content": "x"},
        )
        clock.now += 5.0  # the window has passed
        again = await post(session, discord_sim, path, {"content": "later"})

    assert [status for status, _, _ in answers] == [200] * 5 + [429]
    assert [h["X-RateLimit-Remaining"] for _, h, _ in answers[:5]] == ["4", "3", "2", "1", "0"]
    for _, headers, _ in answers[:5]:
        assert headers["X-RateLimit-Limit"] == "5"
        assert headers["X-RateLimit-Bucket"] == answers[0][1]["X-RateLimit-Bucket"]
        assert float(headers["X-RateLimit-Reset-After"]) == 5.0
        assert float(headers["X-RateLimit-Reset"]) > 0
    _, headers, body = answers[5]
    assert body["retry_after"] == 5.0 and body["global"] is False
    assert headers["X-RateLimit-Scope"] == "user" and headers["Via"]
    assert headers["X-RateLimit-Remaining"] == "0" and headers["Retry-After"] == "5"
    assert "X-RateLimit-Global" not in headers
    assert other[0] == 200 and other[1]["X-RateLimit-Remaining"] == "4"
    assert again[0] == 200 and again[1]["X-RateLimit-Remaining"] == "4"
    # the refused request created nothing
    assert [m.content for m in sim_world.channel.messages] == ["0", "1", "2", "3", "4", "later"]


async def test_global_limit_of_fifty_per_second_spares_interaction_endpoints(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    """Discord: "Interaction endpoints are not bound to the bot's Global Rate Limit": the
    callback, and the follow-ups and message edits an interaction's token opens."""
    clock = freeze(discord_sim)
    async with aiohttp.ClientSession() as session:
        statuses = [(await get(session, discord_sim, "/users/@me"))[0] for _ in range(50)]
        status, headers = await get(session, discord_sim, "/users/@me")
        # a callback and a follow-up still go through (they fail for another reason: no
        # such interaction)
        callback, _, body = await post(
            session, discord_sim, "/interactions/1/token/callback", {"type": 6}
        )
        followup, followup_headers, _ = await post(
            session, discord_sim, "/webhooks/1/token", {"content": "x"}
        )
        clock.now += 1.0
        after, _ = await get(session, discord_sim, "/users/@me")
    assert statuses == [200] * 50
    assert status == 429
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert callback == 404 and body["code"] == 10062
    assert followup != 429 and "X-RateLimit-Global" not in followup_headers
    assert after == 200
    assert discord_sim.state.rate_limiter.refused == {"global": 1}


async def test_limits_can_be_turned_off() -> None:
    async with DiscordSimulator(rate_limits=False) as sim:
        world = sim.populate()
        async with aiohttp.ClientSession() as session:
            answers = [
                await post(session, sim, f"/channels/{world.channel.id}/messages", {"content": "x"})
                for _ in range(8)
            ]
    assert [status for status, _, _ in answers] == [200] * 8
    assert all("X-RateLimit-Remaining" not in headers for _, headers, _ in answers)


def test_every_route_the_bot_posts_or_edits_on_has_a_bucket() -> None:
    routes = {f"{method} {template}" for method, template in ROUTE_BUCKETS}
    assert "POST /channels/{channel_id}/messages" in routes
    assert "PATCH /channels/{channel_id}/messages/{message_id}" in routes
    assert "POST /webhooks/{application_id}/{token}" in routes
    assert "PATCH /webhooks/{application_id}/{token}/messages/{message_id}" in routes


async def test_discord_py_slows_down_on_the_headers_and_never_meets_a_429(
    recorder: Recorder,
) -> None:
    # Windows a tenth as long keep this test short; the counts are Discord's.
    async with DiscordSimulator(rate_limit_time_scale=0.1) as sim:
        world = sim.populate()
        handle = await sim.start_bot(lambda: make_toy_bot(recorder))
        channel = handle.client.get_partial_messageable(world.channel.id)
        sent = await asyncio.gather(*(channel.send(f"m{i}") for i in range(12)))
        assert len(sent) == 12
        assert sorted(m.content for m in world.channel.messages) == sorted(
            f"m{i}" for i in range(12)
        )
        # the client read Remaining/Reset-After and waited for each window instead
        assert sim.state.rate_limiter.refused == {}
        posts = [r for r in sim.requests if r.route == "/channels/{channel_id}/messages"]
        assert [r.status for r in posts] == [200] * 12


async def test_discord_py_retries_after_a_bucket_429(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    handle = await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    client: discord.Client = handle.client
    channel = client.get_partial_messageable(sim_world.channel.id)
    # Another process of the same bot (sharing the token) used up the channel's bucket.
    clock = freeze(discord_sim)
    async with aiohttp.ClientSession() as session:
        for _ in range(5):
            await post(
                session, discord_sim, f"/channels/{sim_world.channel.id}/messages", {"content": "o"}
            )

    clock.now += 4.9  # the client will be told to wait 0.1 s of real time

    async def window_passes() -> None:
        # move the limiter's clock on as soon as the client has met the 429
        while not discord_sim.state.rate_limiter.refused:
            await asyncio.sleep(0.01)
        clock.now += 0.1

    mover = asyncio.create_task(window_passes())
    message = await channel.send("mine")
    await mover
    assert message.content == "mine"
    statuses = [
        r.status for r in discord_sim.requests if r.route == "/channels/{channel_id}/messages"
    ]
    assert statuses[-2:] == [429, 200]
