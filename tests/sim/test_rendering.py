"""The simulator's picture of a message as HTML (no browser needed to test it)."""

from __future__ import annotations

import io

from PIL import Image

from discord_sim.models import SimAttachment, SimChannel, SimMessage, SimUser
from discord_sim.rendering import render_html


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (0, 128, 0)).save(out, "PNG")
    return out.getvalue()


def message(**fields: object) -> SimMessage:
    bot = SimUser(1, "LeafBot", bot=True)
    channel = SimChannel(2, "games", 0)
    return SimMessage(id=3, channel=channel, author=bot, **fields)  # type: ignore[arg-type]


def test_a_message_without_the_flag_shows_its_words_picture_and_buttons() -> None:
    shown = render_html(
        message(
            content="**Lefe** · match #1\n<@7> to move.\nTime runs out <t:1060:R>.",
            attachments=[SimAttachment(5, "board.png", png(), "image/png")],
            components=[
                {
                    "type": 1,
                    "components": [
                        {"type": 2, "style": 4, "label": "Resign", "custom_id": "r"},
                        {
                            "type": 2,
                            "style": 2,
                            "label": "Pass",
                            "custom_id": "p",
                            "disabled": True,
                        },
                    ],
                }
            ],
        ),
        width=360,
        names={7: "bob"},
        now=1000,
    )
    assert "width: 360px" in shown and "<b>Lefe</b>" in shown and "@bob" in shown
    assert "in 1 minute" in shown and shown.count("data:image/png;base64,") == 1
    assert "background:#da373c" in shown and 'class="button off"' in shown


def test_a_v2_message_shows_only_the_pictures_its_components_name() -> None:
    shown = render_html(
        message(
            flags=1 << 15,
            attachments=[
                SimAttachment(5, "board.png", png(), "image/png"),
                SimAttachment(6, "unused.png", png(), "image/png"),
            ],
            components=[
                {
                    "type": 17,
                    "accent_color": 0xF7F6F1,
                    "components": [
                        {"type": 10, "content": "-# small print"},
                        {"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]},
                        {"type": 12, "items": [{"media": {"url": "attachment://gone.png"}}]},
                    ],
                }
            ],
        )
    )
    assert "--accent: #f7f6f1" in shown and 'class="sub"' in shown
    assert shown.count("data:image/png;base64,") == 1  # unused.png is not shown
    assert "no file for attachment://gone.png" in shown
