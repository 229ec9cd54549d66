"""Request bodies: the multipart form discord.py builds is read part by part, and a body
that is not well-formed multipart is refused with 400, also over HTTP."""

from __future__ import annotations

import json

import aiohttp
import pytest

from discord_sim import DiscordSimulator, World
from discord_sim.forms import header_params, parse_form
from discord_sim.state import SimHTTPError

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4 + b"\r\n--not-the-boundary\r\n"


async def discord_py_form(payload: dict[str, object], files: list[tuple[str, bytes]]) -> tuple:
    """The body and Content-Type discord.py sends with files (``FormData(quote_fields=False)``,
    a ``payload_json`` part, then ``files[n]`` parts of ``application/octet-stream``)."""
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps(payload))
    for index, (filename, data) in enumerate(files):
        form.add_field(
            f"files[{index}]", data, filename=filename, content_type="application/octet-stream"
        )
    writer = form()
    return writer.content_type, await writer.as_bytes()


async def test_the_form_discord_py_sends_is_read_part_by_part() -> None:
    payload = {"content": "Zug 7: e5", "attachments": [{"id": 0, "filename": "board.png"}]}
    files = [("board.png", PNG), ('odd "name" \\ ü.png', b"")]
    content_type, body = await discord_py_form(payload, files)

    parsed, uploaded = parse_form(content_type, body)

    assert parsed == payload
    assert uploaded == {
        0: ("board.png", PNG, "application/octet-stream"),
        1: ('odd "name" \\ ü.png', b"", "application/octet-stream"),
    }


def test_header_parameters_are_unquoted_and_unescaped() -> None:
    params = header_params('form-data; name="files[0]"; filename="a \\"b\\" c.png"; x=plain')
    assert params == {"name": "files[0]", "filename": 'a "b" c.png', "x": "plain"}


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("multipart/form-data", b"--b\r\n\r\n{}\r\n--b--\r\n"),  # no boundary
        ("multipart/form-data; boundary=b", b"--b\r\nContent-Disposition: form-data; name=x\r\n"),
        (
            "multipart/form-data; boundary=b",
            b'--b\r\nContent-Disposition: form-data; filename="a.png"\r\n\r\nxx\r\n--b--\r\n',
        ),
        (
            "multipart/form-data; boundary=b",
            b"--b\r\nContent-Disposition: form-data; name=x\r\n--b--",
        ),
        (
            "multipart/form-data; boundary=b",
            b"--b\r\nContent-Disposition: form-data; name=payload_json\r\n\r\n{not json\r\n--b--\r\n",
        ),
        ("multipart/form-data; boundary=b", b"--b\r\nno colon here\r\n\r\nx\r\n--b--\r\n"),
    ],
    ids=["no-boundary", "unclosed", "unnamed", "no-blank-line", "bad-json", "bad-header"],
)
def test_a_malformed_form_is_refused(content_type: str, body: bytes) -> None:
    with pytest.raises(SimHTTPError) as refused:
        parse_form(content_type, body)
    assert refused.value.status == 400


async def test_a_truncated_upload_is_answered_400_and_stores_nothing(
    discord_sim: DiscordSimulator, sim_world: World
) -> None:
    content_type, body = await discord_py_form({"content": "hi"}, [("board.png", PNG)])
    url = f"{discord_sim.base_url}/api/v10/channels/{sim_world.channel.id}/messages"
    headers = {"Authorization": f"Bot {discord_sim.token}", "Content-Type": content_type}
    async with aiohttp.ClientSession() as session:
        async with session.post(url, data=body[:-10], headers=headers) as cut:
            assert cut.status == 400
            assert (await cut.json())["code"] == 50035
        async with session.post(url, data=body, headers=headers) as whole:
            assert whole.status == 200
            stored = await whole.json()
    assert [m.content for m in sim_world.channel.messages] == ["hi"]
    assert stored["attachments"][0]["size"] == len(PNG)
