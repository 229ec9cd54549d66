"""Components v2: a message laid out as blocks (text, its picture, its controls) in a box.

Discord's Components v2 (the message flag ``IS_COMPONENTS_V2``) lets a message be a tree of
components instead of text with rows of buttons under it: a container with an accent
colour, text displays, a media gallery showing an uploaded picture, sections (text with a
button beside it), separators and the action rows of before. Such a message has no
``content``: its words are text displays. The flag stays with the message for good.

A feature describes such a message as a few :data:`Block`\\ s in :attr:`Outgoing.layout
<bot.common.outgoing.Outgoing.layout>`; :func:`layout_payload` turns them into Discord's
payload, built like every other message of ours from plain dicts (see
:class:`bot.common.components.FixedComponents`: no ``discord.ui`` view to keep), with the
same custom ids, so a click is parsed by the same dynamic items and survives restarts.
:class:`Controls` lays the message's choices out as :func:`bot.common.components.components`
does (rows of five buttons, long families as menus).

Discord's limits (checked here, so that a message that would break them fails in the
tests rather than in production): at most :data:`MAX_COMPONENTS` components counted
through the whole tree, and :data:`MAX_TEXT` characters of text displays in all.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.common.components import (
    SELECT_THRESHOLD,
    Choice,
    arranged,
    button_dict,
    select_dict,
)
from bot.common.custom_ids import PICK, ComponentId
from i18n import DEFAULT_LANGUAGE

MAX_COMPONENTS = 40  # every component of a message, nested ones counted
MAX_TEXT = 4000  # the characters of all its text displays together
MAX_SECTION_TEXTS = 3
MAX_GALLERY_ITEMS = 10

# Component types of Discord's API (docs: components/reference).
ACTION_ROW = 1
SECTION = 9
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
SEPARATOR = 14
CONTAINER = 17


@dataclass(frozen=True)
class Text:
    """Markdown, mentions included (they ping only whom the message allows)."""

    markdown: str


@dataclass(frozen=True)
class Picture:
    """The message's picture (its uploaded file) in a media gallery; ``description`` is
    its alt text."""

    description: str = ""


@dataclass(frozen=True)
class Divider:
    """A separator: a thin line (``visible``) with small or ``large`` padding."""

    visible: bool = True
    large: bool = False


@dataclass(frozen=True)
class Section:
    """A few lines of text with one button beside them (Discord: one to three texts and
    an accessory)."""

    lines: tuple[str, ...]
    choice: Choice


@dataclass(frozen=True)
class Controls:
    """Buttons and menus for ``choices`` (None: the message's own choices), laid out as in
    messages without the flag (five buttons a row, long families as menus)."""

    choices: tuple[Choice, ...] | None = None


@dataclass(frozen=True)
class Raw:
    """Components given as Discord's payload (buttons with ids of their own, a link)."""

    components: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class Box:
    """A container: its blocks grouped, with an accent colour (0xRRGGBB) down its side."""

    blocks: tuple[Block, ...]
    accent: int | None = None


Block = Text | Picture | Divider | Section | Controls | Raw | Box


@dataclass
class LayoutContext:
    """What the blocks are drawn for: the custom ids' scope, target and version, the
    message's choices, its picture's file name (None: no picture) and its language."""

    scope: str
    target: int
    version: int
    choices: Sequence[Choice] = ()
    filename: str | None = None
    language: str = DEFAULT_LANGUAGE
    disabled: bool = False
    _text_left: int = field(default=MAX_TEXT, init=False)
    _menus: int = field(default=0, init=False)

    def custom_id(self, action: str) -> ComponentId:
        return ComponentId(self.scope, self.target, self.version, action)

    def text(self, markdown: str) -> dict[str, Any]:
        """A text display, cut to what is left of the message's text allowance."""
        kept = markdown[: max(self._text_left, 1)]
        self._text_left -= len(kept)
        return {"type": TEXT_DISPLAY, "content": kept}

    def next_menu(self) -> str:
        number = self._menus
        self._menus += 1
        return f"{PICK}{number}"


def layout_payload(blocks: Sequence[Block], context: LayoutContext) -> list[dict[str, Any]]:
    """The message's components: Discord's payload for ``blocks``. Raises ValueError for
    a layout beyond Discord's limits (the message would be refused)."""
    payload = [part for block in blocks for part in _parts(block, context, top=True)]
    total = count_components(payload)
    if total > MAX_COMPONENTS:
        raise ValueError(f"a message of {total} components (Discord allows {MAX_COMPONENTS})")
    return payload


def fits(blocks: Sequence[Block], outgoing: Any) -> bool:
    """Whether ``blocks`` drawn for ``outgoing`` (an :class:`~bot.common.outgoing.Outgoing`)
    stay within Discord's 40 components."""
    context = LayoutContext(
        outgoing.scope,
        outgoing.target,
        outgoing.version,
        outgoing.choices,
        outgoing.filename if outgoing.image is not None else None,
        outgoing.language,
    )
    try:
        layout_payload(blocks, context)
    except ValueError:
        return False
    return True


def count_components(components: Sequence[dict[str, Any]]) -> int:
    """Every component of a payload, those in rows, sections and containers counted."""
    return sum(1 for _ in _walk(components))


def texts_of(components: Sequence[dict[str, Any]]) -> list[str]:
    """The words of a payload's text displays, in order."""
    return [c["content"] for c in _walk(components) if c.get("type") == TEXT_DISPLAY]


def _walk(components: Sequence[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from _walk(component.get("components") or ())
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            yield from _walk((accessory,))


def _parts(block: Block, context: LayoutContext, *, top: bool) -> list[dict[str, Any]]:
    if isinstance(block, Text):
        return [context.text(block.markdown)] if block.markdown.strip() else []
    if isinstance(block, Picture):
        if context.filename is None:
            return []
        item: dict[str, Any] = {"media": {"url": f"attachment://{context.filename}"}}
        if block.description:
            item["description"] = block.description[:1024]
        return [{"type": MEDIA_GALLERY, "items": [item]}]
    if isinstance(block, Divider):
        return [{"type": SEPARATOR, "divider": block.visible, "spacing": 2 if block.large else 1}]
    if isinstance(block, Section):
        lines = [line for line in block.lines if line.strip()][:MAX_SECTION_TEXTS] or ["\u200b"]
        button = button_dict(
            context.custom_id(block.choice.action),
            block.choice.label,
            block.choice.style,
            context.disabled,
        )
        return [
            {
                "type": SECTION,
                "components": [context.text(line) for line in lines],
                "accessory": button,
            }
        ]
    if isinstance(block, Controls):
        return _controls(block, context)
    if isinstance(block, Raw):
        return [dict(component) for component in block.components]
    if not top:
        raise ValueError("a container holds no container")
    children = [part for inner in block.blocks for part in _parts(inner, context, top=False)]
    box: dict[str, Any] = {"type": CONTAINER, "components": children}
    if block.accent is not None:
        box["accent_color"] = block.accent & 0xFFFFFF
    return [box] if children else []


def _controls(block: Controls, context: LayoutContext) -> list[dict[str, Any]]:
    choices = context.choices if block.choices is None else block.choices
    if not choices:
        return []
    button_rows, selects = arranged(choices, SELECT_THRESHOLD, context.language)
    rows = [
        {
            "type": ACTION_ROW,
            "components": [
                button_dict(
                    context.custom_id(choice.action), choice.label, choice.style, context.disabled
                )
                for choice in members
            ],
        }
        for members in button_rows
    ]
    for placeholder, members in selects:
        menu = select_dict(
            context.custom_id(context.next_menu()), members, placeholder, context.disabled
        )
        rows.append({"type": ACTION_ROW, "components": [menu]})
    return rows


def accent_of(colour: tuple[int, int, int] | None) -> int | None:
    """An RGB colour as a container's accent (0xRRGGBB)."""
    if colour is None:
        return None
    red, green, blue = colour
    return discord.Colour.from_rgb(red, green, blue).value


__all__ = [
    "MAX_COMPONENTS",
    "MAX_TEXT",
    "Block",
    "Box",
    "Controls",
    "Divider",
    "LayoutContext",
    "Picture",
    "Raw",
    "Section",
    "Text",
    "accent_of",
    "count_components",
    "fits",
    "layout_payload",
    "texts_of",
]
