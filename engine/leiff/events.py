"""Events: one message for one audience, produced by an action.

An event is a plain dict ``{"kind", "audience", "text", "data"}``. ``audience`` is ``"all"``
(the channel and everyone) or a sorted list of seats. In ``text``, ``{pN}`` stands for
player N's name and cards are written in brackets, ``[7]``, so that a reader (and the
tests) can see at a glance which card values a message names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from engine.leiff.cards import display_name

PUBLIC = "all"

_NAME_TOKEN = re.compile(r"\{p(\d+)\}")


def event(kind: str, audience: str | Sequence[int], text: str, **data: Any) -> dict[str, Any]:
    return {
        "kind": kind,
        "audience": PUBLIC if audience == PUBLIC else sorted(set(audience)),
        "text": text,
        "data": data,
    }


def card(label: str) -> str:
    """A card as written in event texts."""
    return f"[{display_name(label)}]"


def player(seat: int) -> str:
    return "{p" + str(seat) + "}"


def visible_to(item: dict[str, Any], viewer: int | None) -> bool:
    """Whether an event reaches ``viewer`` (None: the channel, which sees public events only)."""
    audience = item["audience"]
    return audience == PUBLIC or (viewer is not None and viewer in audience)


def render_text(text: str, names: Sequence[str]) -> str:
    """Replace the ``{pN}`` tokens of an event text with player names."""
    return _NAME_TOKEN.sub(lambda m: names[int(m.group(1))], text)
