"""Discord's published contract (discord_sim/spec.py) bites: what Discord refuses is
refused with its error shape (400, code 50035, the ``errors`` tree), and the test that sent
it fails, naming the operation, the JSON path and the rule."""

from __future__ import annotations

import copy
import functools
import gzip
import hashlib
import json
import subprocess
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from discord_sim import DiscordSimulator, World, update_spec
from discord_sim.harness import ContractViolation
from discord_sim.spec import (
    contract,
    errors_tree,
    interaction_violations,
    request_violations,
    response_violations,
    source,
)

from .toy_bot import Recorder, make_toy_bot


def button(number: int, **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": f"b{number}", "custom_id": f"b{number}"} | extra


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def select(options: int) -> dict[str, Any]:
    return {
        "type": 3,
        "custom_id": "pick",
        "options": [{"label": f"o{n}", "value": str(n)} for n in range(options)],
    }


GOOD = {"content": "a board", "components": [row(button(0), button(1))]}


def leaf(tree: dict[str, Any], *path: str) -> list[dict[str, Any]]:
    """The ``_errors`` at a path of Discord's errors tree (KeyError if it is not there)."""
    node = tree
    for part in path:
        node = node[part]
    errors: list[dict[str, Any]] = node["_errors"]
    return errors


# Each: (what, the message, where Discord reports it, its code, the rule in the failure).
REFUSED = [
    (
        "a message of 2,001 characters",
        {"content": "x" * 2001},
        ("content",),
        "BASE_TYPE_MAX_LENGTH",
        "2000 characters",
    ),
    (
        "a sixth action row",
        {"components": [row(button(n)) for n in range(6)]},
        ("components",),
        "BASE_TYPE_MAX_LENGTH",
        "5 action rows",
    ),
    (
        "a custom id of 101 characters",
        {"components": [row(button(0, custom_id="c" * 101))]},
        ("components", "0", "components", "0", "custom_id"),
        "BASE_TYPE_MAX_LENGTH",
        "maxLength 100 in ButtonComponentForMessageRequest/properties/custom_id",
    ),
    (
        "an unknown component type",
        {"components": [row(button(0, type=99))]},
        ("components", "0", "components", "0", "type"),
        "UNION_TYPE_CHOICES",
        "oneOf in ActionRowComponentForMessageRequest/properties/components/items",
    ),
    (
        "a select with 26 options",
        {"components": [row(select(26))]},
        ("components", "0", "components", "0", "options"),
        "BASE_TYPE_MAX_LENGTH",
        "maxItems 25 in StringSelectComponentForMessageRequest/properties/options",
    ),
]


@pytest.mark.parametrize(
    ("payload", "where", "code", "rule"),
    [case[1:] for case in REFUSED],
    ids=[case[0] for case in REFUSED],
)
async def test_what_discord_refuses_is_refused_with_its_error_shape(
    discord_sim: DiscordSimulator,
    sim_world: World,
    payload: dict[str, Any],
    where: tuple[str, ...],
    code: str,
    rule: str,
) -> None:
    url = f"{discord_sim.base_url}/api/v10/channels/{sim_world.channel.id}/messages"
    headers = {"Authorization": f"Bot {discord_sim.token}"}
    async with aiohttp.ClientSession() as session:
        async with session.post(url, json=payload, headers=headers) as refused:
            assert refused.status == 400
            body = await refused.json()
        async with session.post(url, json=GOOD, headers=headers) as accepted:
            assert accepted.status == 200
    assert body["code"] == 50035 and body["message"] == "Invalid Form Body"
    assert [e["code"] for e in leaf(body["errors"], *where)] == [code]
    # only the good message was stored
    assert [m.content for m in sim_world.channel.messages] == ["a board"]
    # the test that sent it would fail, naming the operation, the JSON path and the rule
    violations = discord_sim.take_spec_violations()
    assert len(violations) == 1
    text = violations[0].describe()
    json_path = "$" + "".join(f"[{p}]" if p.isdigit() else f".{p}" for p in where)
    assert text.startswith(f"create_message (POST /channels/{sim_world.channel.id}/messages)")
    assert json_path in text and rule in text and code in text


async def test_discord_py_sees_the_refusal_as_invalid_form_body(
    discord_sim: DiscordSimulator, sim_world: World, recorder: Recorder
) -> None:
    bot = await discord_sim.start_bot(lambda: make_toy_bot(recorder))
    channel = bot.client.get_channel(sim_world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="too long", custom_id="c" * 101))
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("x", view=view)
    assert refused.value.status == 400 and refused.value.code == 50035
    # discord.py flattens the errors tree into its message
    assert "components.0.components.0.custom_id" in str(refused.value)
    [violation] = discord_sim.take_spec_violations()
    assert violation.path == ("components", 0, "components", 0, "custom_id")


async def test_leaving_the_simulator_fails_the_test_that_broke_the_contract(
    recorder: Recorder,
) -> None:
    with pytest.raises(ContractViolation) as failed:
        async with DiscordSimulator() as sim:
            world = sim.populate()
            bot = await sim.start_bot(lambda: make_toy_bot(recorder))
            channel = bot.client.get_channel(world.channel.id)
            assert isinstance(channel, discord.TextChannel)
            with pytest.raises(discord.HTTPException):
                await channel.send("x" * 2001)
    report = str(failed.value)
    assert "create_message" in report and "$.content" in report and "2000" in report


async def test_routes_and_parameters_outside_the_spec_are_refused(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    headers = {"Authorization": f"Bot {discord_sim.token}"}
    base = f"{discord_sim.base_url}/api/v10"
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.get(f"{base}/channels/{sim_world.channel.id}/nonsense") as unknown:
            assert unknown.status == 404
        async with session.get(f"{base}/channels/general") as bad_id:
            assert bad_id.status == 400
            body = await bad_id.json()
        async with session.get(
            f"{base}/channels/{sim_world.channel.id}/messages", params={"limit": "500"}
        ) as too_many:
            assert too_many.status == 400
            limit = await too_many.json()
    assert [e["code"] for e in leaf(body["errors"], "channel_id")] == ["NUMBER_TYPE_COERCE"]
    assert [e["code"] for e in leaf(limit["errors"], "limit")] == ["NUMBER_TYPE_MAX"]
    found = [(v.operation, v.where, v.json_path) for v in discord_sim.take_spec_violations()]
    assert found == [
        ("(no operation)", "route", "$"),
        ("get_channel", "path", "$.channel_id"),
        ("list_messages", "query", "$.limit"),
    ]


def test_uploads_must_be_the_files_the_attachments_name() -> None:
    body = {
        "content": "x",
        "attachments": [{"id": 0, "filename": "a.png"}, {"id": 1, "filename": "b.png"}],
    }
    operation, violations = request_violations(
        "POST", "/channels/1/messages", {}, "multipart/form-data", body, {0: ("a.png", b"", None)}
    )
    assert operation == "create_message"
    assert [(v.json_path, v.code) for v in violations] == [
        ("$.attachments[1].id", "ATTACHMENT_NOT_FOUND")
    ]
    _, eleven = request_violations(
        "POST",
        "/channels/1/messages",
        {},
        "multipart/form-data",
        {"content": "x"},
        {n: ("f.png", b"", None) for n in range(11)},
    )
    assert [v.json_path for v in eleven] == ["$.files[10]"]


def test_snowflakes_may_be_numbers_in_requests_never_in_answers() -> None:
    # discord.py sends an upload's attachment id as the file's index, a number
    _, violations = request_violations(
        "POST", "/users/@me/channels", {}, "application/json", {"recipient_id": 1234}, {}
    )
    assert violations == []
    user = {
        "id": 1234,
        "username": "alice",
        "avatar": None,
        "discriminator": "0",
        "public_flags": 0,
        "flags": 0,
        "global_name": None,
        "primary_guild": None,
    }
    [wrong] = response_violations("GET", "/users/1234", 200, user)
    assert (wrong.json_path, wrong.code) == ("$.id", "STRING_TYPE_CONVERT")
    assert response_violations("GET", "/users/1234", 200, user | {"id": "1234"}) == []


def test_interactions_the_simulator_sends_follow_the_spec() -> None:
    payload = {
        "type": 3,
        "locale": "en",  # Discord says en-US or en-GB
        "data": {"component_type": 2, "custom_id": "x"},
    }
    [locale] = interaction_violations(payload, "a click")
    assert locale.operation == "INTERACTION_CREATE" and locale.json_path == "$.locale"
    assert locale.code == "BASE_TYPE_CHOICES" and '"en-US"' in locale.message
    assert interaction_violations(payload | {"locale": "de"}, "a click") == []
    unknown = copy.deepcopy(payload) | {"locale": "de", "type": 7}
    assert [v.json_path for v in interaction_violations(unknown, "a click")] == ["$.type"]
    # the channel as GET /channels/{id} would answer it: a DM names its recipients
    dm = payload | {"locale": "de", "channel": {"id": "5", "type": 1, "flags": 0}}
    assert [v.json_path for v in interaction_violations(dm, "a click")] == ["$.channel.recipients"]


def test_the_errors_tree_is_discords() -> None:
    _, violations = request_violations(
        "POST",
        "/channels/1/messages",
        {},
        "application/json",
        {"components": [row(button(0, custom_id="")), row(select(0))]},
        {},
    )
    tree = errors_tree(violations)
    assert tree == {
        "components": {
            "0": {
                "components": {
                    "0": {
                        "custom_id": {
                            "_errors": [
                                {
                                    "code": "BASE_TYPE_MIN_LENGTH",
                                    "message": "Must be 1 or more in length.",
                                }
                            ]
                        }
                    }
                }
            },
            "1": {
                "components": {
                    "0": {
                        "options": {
                            "_errors": [
                                {
                                    "code": "BASE_TYPE_MIN_LENGTH",
                                    "message": "Must be 1 or more in length.",
                                }
                            ]
                        }
                    }
                }
            },
        }
    }
    # and the spec's own ErrorResponse takes it (with Discord's string codes)
    body = {"code": 50035, "message": "Invalid Form Body", "errors": tree}
    assert response_violations("POST", "/channels/1/messages", 400, body) == []


def test_the_pinned_spec_is_recorded() -> None:
    info = source()
    assert info["repository"].endswith("discord/discord-api-spec")
    assert len(info["commit"]) == 40 and info["path"] == "specs/openapi.json"
    assert contract().document["openapi"] == info["openapi"] == "3.1.0"


async def post_message(sim: DiscordSimulator, world: World, payload: dict[str, Any]) -> Any:
    url = f"{sim.base_url}/api/v10/channels/{world.channel.id}/messages"
    headers = {"Authorization": f"Bot {sim.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json=payload, headers=headers) as answer,
    ):
        return answer.status, await answer.json()


COMPONENTS_V2 = 1 << 15


def container(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "accent_color": 0x2E7D32, "components": list(children)}


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


async def test_components_v2_messages_keep_discords_documented_rules(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    board = container(text("Alice to move"), row(button(0), button(1)))
    status, stored = await post_message(
        discord_sim, sim_world, {"flags": COMPONENTS_V2, "components": [board]}
    )
    assert status == 200
    # Discord numbers every component, the nested ones too
    assert [c["id"] for c in stored["components"][0]["components"]] == [2, 3]
    # no content beside Components v2 (the spec does not say so; Discord's docs do)
    status, body = await post_message(
        discord_sim, sim_world, {"flags": COMPONENTS_V2, "content": "hi", "components": [board]}
    )
    assert status == 400
    assert [e["code"] for e in leaf(body["errors"], "content")] == [
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"
    ]
    # 40 components in all: a container of 41 texts is refused though it is one at the top
    status, body = await post_message(
        discord_sim,
        sim_world,
        {"flags": COMPONENTS_V2, "components": [container(*(text(str(n)) for n in range(40)))]},
    )
    assert status == 400 and leaf(body["errors"], "components")[0]["code"] == "BASE_TYPE_MAX_LENGTH"
    # without the flag a container is not an action row
    status, body = await post_message(discord_sim, sim_world, {"components": [board]})
    assert status == 400
    assert leaf(body["errors"], "components", "0", "type")[0]["code"] == "BASE_TYPE_CHOICES"
    assert [v.json_path for v in discord_sim.take_spec_violations()] == [
        "$.content",
        "$.components",
        "$.components[0].type",
    ]


async def test_a_components_v2_answer_is_shaped_as_discords(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    png = b"\x89PNG\r\n\x1a\n" + bytes(64)
    payload = {
        "flags": COMPONENTS_V2,
        "attachments": [{"id": 0, "filename": "board.png"}],
        "components": [
            container(
                {"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]},
                {"type": 14},
                text("Alice to move"),
                row({"type": 3, "custom_id": "pick", "options": [{"label": "a", "value": "a"}]}),
            )
        ],
    }
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", png, filename="board.png", content_type="image/png")
    url = f"{discord_sim.base_url}/api/v10/channels/{sim_world.channel.id}/messages"
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            url, data=form, headers={"Authorization": f"Bot {discord_sim.token}"}
        ) as answer,
    ):
        assert answer.status == 200
        stored = await answer.json()
    gallery, separator, _, menu_row = stored["components"][0]["components"]
    media = gallery["items"][0]["media"]
    attachment = stored["attachments"][0]
    # the picture the gallery names is the uploaded file, as Discord resolves it
    assert media["url"] == attachment["url"] and media["attachment_id"] == attachment["id"]
    assert gallery["items"][0]["spoiler"] is False
    assert (separator["spacing"], separator["divider"]) == (1, True)
    assert menu_row["components"][0]["min_values"] == 1
    # and the whole answer met the contract's MessageResponse
    assert discord_sim.spec_violations == []


def test_the_update_pins_a_repositorys_spec_with_its_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a stand-in for discord/discord-api-spec: a git repository with specs/openapi.json
    origin = tmp_path / "discord-api-spec"
    (origin / "specs").mkdir(parents=True)
    spec_text = json.dumps({"openapi": "3.1.0", "info": {"version": "10"}, "paths": {}})
    (origin / "specs" / "openapi.json").write_text(spec_text)
    run = functools.partial(subprocess.run, cwd=origin, check=True, capture_output=True)
    run(["git", "init", "--quiet", "--initial-branch", "main"])
    run(["git", "add", "."])
    run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "spec"])
    commit = run(["git", "rev-parse", "HEAD"], text=True).stdout.strip()
    monkeypatch.setattr(update_spec, "SPEC_PATH", tmp_path / "pinned.json.gz")
    monkeypatch.setattr(update_spec, "SOURCE_PATH", tmp_path / "pinned.source.json")
    info = update_spec.update(str(origin), None)
    first = (tmp_path / "pinned.json.gz").read_bytes()
    assert gzip.decompress(first).decode() == spec_text
    recorded = json.loads((tmp_path / "pinned.source.json").read_text())
    assert recorded == info and recorded["commit"] == commit
    assert recorded["sha256"] == hashlib.sha256(spec_text.encode()).hexdigest()
    # the same commit gives the same bytes (nothing to commit after an update that found
    # nothing new)
    update_spec.update(str(origin), "main")
    assert (tmp_path / "pinned.json.gz").read_bytes() == first


async def test_a_nonce_enforced_returns_the_message_it_made(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    """As Discord: with ``enforce_nonce``, the same nonce from the same author within a few
    minutes returns the message made then (no second one); without it, or with another
    nonce, a message is made; a nonce longer than 25 characters is refused by the spec."""
    before = len(sim_world.channel.messages)
    status, first = await post_message(
        discord_sim, sim_world, {"content": "board v3", "nonce": "m1v3", "enforce_nonce": True}
    )
    assert status == 200 and first["nonce"] == "m1v3"
    status, again = await post_message(
        discord_sim, sim_world, {"content": "board v3", "nonce": "m1v3", "enforce_nonce": True}
    )
    assert status == 200 and again["id"] == first["id"]
    assert len(sim_world.channel.messages) == before + 1
    status, other = await post_message(
        discord_sim, sim_world, {"content": "board v4", "nonce": "m1v4", "enforce_nonce": True}
    )
    status, loose = await post_message(discord_sim, sim_world, {"content": "x", "nonce": "m1v4"})
    assert len({first["id"], other["id"], loose["id"]}) == 3
    assert len(sim_world.channel.messages) == before + 3
    # held a few minutes only
    made_at, message = discord_sim.state.nonces[(discord_sim.state.bot_user.id, "m1v3")]
    discord_sim.state.nonces[(discord_sim.state.bot_user.id, "m1v3")] = (made_at - 600, message)
    status, late = await post_message(
        discord_sim, sim_world, {"content": "board v3", "nonce": "m1v3", "enforce_nonce": True}
    )
    assert late["id"] != first["id"]
    status, _ = await post_message(
        discord_sim, sim_world, {"content": "y", "nonce": "n" * 26, "enforce_nonce": True}
    )
    assert status == 400
    assert [v.json_path for v in discord_sim.take_spec_violations()] == ["$.nonce"]
