"""The simulator's Activity: a launch (callback type 12), OAuth2's code exchange, the user
read with a Bearer token and the instance read with the bot token, as Discord does them."""

from __future__ import annotations

import base64

import aiohttp
import discord
import pytest
from discord import app_commands

from discord_sim import DiscordSimulator, World
from discord_sim.interactions import LAUNCH_ACTIVITY

LAUNCHED: list[discord.InteractionCallbackResponse[discord.Client]] = []


def make_launcher() -> discord.Client:
    """A bot with one command, ``/launch``, answered by launching the Activity."""
    client = discord.Client(intents=discord.Intents.default())
    tree = app_commands.CommandTree(client)

    @tree.command(description="Launch the Activity")
    async def launch(interaction: discord.Interaction) -> None:
        LAUNCHED.append(await interaction.response.launch_activity())

    async def setup_hook() -> None:
        await tree.sync()

    client.setup_hook = setup_hook  # type: ignore[method-assign]
    return client


async def _token(
    sim: DiscordSimulator, form: dict[str, str], *, auth: str | None = None
) -> tuple[int, dict[str, str]]:
    headers = {"Authorization": auth} if auth else {}
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{sim.base_url}/api/v10/oauth2/token", data=form, headers=headers) as answer,
    ):
        return answer.status, await answer.json()


async def _get(sim: DiscordSimulator, path: str, auth: str) -> tuple[int, dict[str, object]]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{sim.base_url}/api/v10{path}", headers={"Authorization": auth}) as answer,
    ):
        return answer.status, await answer.json()


async def test_a_launch_makes_an_instance_the_bot_can_read(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    discord_sim.enable_activity()
    LAUNCHED.clear()
    await discord_sim.start_bot(make_launcher)
    interaction = await discord_sim.slash(sim_world.alice, "launch")
    assert interaction.response_type == LAUNCH_ACTIVITY
    assert interaction.activity is not None
    (instance,) = discord_sim.activity_instances()
    assert instance is interaction.activity
    assert instance.users == [sim_world.alice.id]
    assert instance.channel_id == sim_world.channel.id
    # discord.py reads the instance's id from the callback's answer
    assert LAUNCHED[0].resource is not None
    assert LAUNCHED[0].resource.id == instance.instance_id  # type: ignore[union-attr]
    # a second member's launch in the same channel joins the running instance
    await discord_sim.slash(sim_world.bob, "launch")
    assert discord_sim.activity_instances() == [instance]
    assert instance.users == [sim_world.alice.id, sim_world.bob.id]
    app = discord_sim.bot_user.id
    status, body = await _get(
        discord_sim,
        f"/applications/{app}/activity-instances/{instance.instance_id}",
        "Bot " + discord_sim.token,
    )
    assert status == 200
    assert body["users"] == [str(sim_world.alice.id), str(sim_world.bob.id)]
    assert body["location"] == {
        "id": f"gc-{sim_world.channel.id}",
        "kind": "gc",
        "channel_id": str(sim_world.channel.id),
        "guild_id": str(sim_world.guild.id),
    }
    status, _ = await _get(
        discord_sim,
        f"/applications/{app}/activity-instances/i-1-gc-2-3",
        "Bot " + discord_sim.token,
    )
    assert status == 404
    # a user's token does not read instances: that takes the bot's
    code = discord_sim.consent(sim_world.alice)
    client_id, secret = (
        discord_sim.state.activities.application_id,
        discord_sim.state.activities.client_secret,
    )
    _, tokens = await _token(
        discord_sim,
        {
            "grant_type": "authorization_code",
            "code": code,
            "client_id": str(client_id),
            "client_secret": secret,
        },
    )
    status, _ = await _get(
        discord_sim,
        f"/applications/{app}/activity-instances/{instance.instance_id}",
        "Bearer " + tokens["access_token"],
    )
    assert status == 401


async def test_a_launch_is_refused_without_an_activity(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    LAUNCHED.clear()
    await discord_sim.start_bot(make_launcher)
    interaction = await discord_sim.slash(sim_world.alice, "launch", expect_response=False)
    assert interaction.response_type is None
    assert discord_sim.activity_instances() == []
    refused = discord_sim.take_spec_violations()
    assert [v.code for v in refused] == ["INTERACTION_CALLBACK_TYPE_INVALID"]


async def test_a_code_is_exchanged_once_for_a_token_that_reads_its_user(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    client_id, secret = discord_sim.enable_activity()
    code = discord_sim.consent(sim_world.alice)
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "client_id": str(client_id),
        "client_secret": secret,
    }
    status, tokens = await _token(discord_sim, form)
    assert status == 200
    assert tokens["token_type"] == "Bearer" and tokens["scope"] == "identify"
    status, user = await _get(discord_sim, "/users/@me", "Bearer " + tokens["access_token"])
    assert status == 200
    assert user["id"] == str(sim_world.alice.id) and user["username"] == "alice"
    # single use
    status, refusal = await _token(discord_sim, form)
    assert (status, refusal["error"]) == (400, "invalid_grant")
    # a made-up token reads nobody
    status, _ = await _get(discord_sim, "/users/@me", "Bearer not-a-token")
    assert status == 401
    assert discord_sim.take_spec_violations() == []


@pytest.mark.parametrize("wrong", ["secret", "client", "grant", "expired"])
async def test_the_exchange_refuses_what_discord_refuses(
    discord_sim: DiscordSimulator, sim_world: World, wrong: str
) -> None:
    client_id, secret = discord_sim.enable_activity()
    activities = discord_sim.state.activities
    code = discord_sim.consent(sim_world.alice)
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "client_id": str(client_id),
        "client_secret": secret,
    }
    expected = {
        "secret": (401, "invalid_client"),
        "client": (401, "invalid_client"),
        "grant": (400, "unsupported_grant_type"),
        "expired": (400, "invalid_grant"),
    }[wrong]
    if wrong == "secret":
        form["client_secret"] = secret + "x"
    elif wrong == "client":
        form["client_id"] = str(client_id + 1)
    elif wrong == "grant":
        form["grant_type"] = "client_credentials"
    else:
        activities.codes[code].expires_at = activities.clock() - 1
    status, refusal = await _token(discord_sim, form)
    assert (status, refusal["error"]) == expected
    assert not activities.tokens


async def test_the_client_may_sign_its_exchange_with_basic_auth(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    client_id, secret = discord_sim.enable_activity()
    code = discord_sim.consent(sim_world.bob)
    basic = "Basic " + base64.b64encode(f"{client_id}:{secret}".encode()).decode()
    status, tokens = await _token(
        discord_sim, {"grant_type": "authorization_code", "code": code}, auth=basic
    )
    assert status == 200
    status, user = await _get(discord_sim, "/users/@me", "Bearer " + tokens["access_token"])
    assert (status, user["id"]) == (200, str(sim_world.bob.id))
