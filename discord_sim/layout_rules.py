"""Components v2 as Discord checks them: what may hold what, and how much.

With the message flag IS_COMPONENTS_V2 (``1 << 15``) a message's components are its whole
layout (Discord's docs, components/reference and the message resource):

- no ``content``, ``embeds``, ``poll`` or ``stickers`` (null is allowed: an edit that makes a
  message v2 sets them to null); the flag is never taken away again;
- at most 40 components in all, those inside rows, sections and containers counted; the
  text displays hold at most 4000 characters together;
- at the top: action rows (1), sections (9), text displays (10), media galleries (12),
  files (13), separators (14) and containers (17); a container holds the same but no
  container; a thumbnail (11) only as a section's accessory;
- an action row: one to five buttons, or one select menu alone; a section: one to three
  text displays and an accessory (a button or a thumbnail); a media gallery: one to ten
  items, each with a media URL; a separator's spacing 1 or 2; an accent colour within
  0xFFFFFF; a file only as ``attachment://``;
- an ``attachment://name`` reference names a file of the message.

Without the flag: only action rows at the top (up to five), as before.

:func:`layout_problems` lists what a request breaks, each as (JSON path, Discord's error
code, its message), for the server's 400 / 50035 answer. These are the simulator's own
rules, stricter than the published spec where it is loose.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

COMPONENTS_V2 = 1 << 15
MAX_COMPONENTS = 40
MAX_TEXT = 4000

ACTION_ROW = 1
BUTTON = 2
SELECTS = (3, 5, 6, 7, 8)
SECTION = 9
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
FILE = 13
SEPARATOR = 14
CONTAINER = 17
LINK_STYLE = 5
PREMIUM_STYLE = 6

TOP_LEVEL_V2 = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER)
IN_CONTAINER = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR)

Path = tuple[str | int, ...]
Problem = tuple[Path, str, str]


def layout_problems(
    payload: dict[str, Any], *, was_v2: bool = False, filenames: Sequence[str] = ()
) -> list[Problem]:
    """What ``payload`` (a message's create or edit body) breaks of Discord's component
    rules. ``was_v2``: the message edited has the flag already; ``filenames``: the files
    the message will have (uploaded with it, or kept from before)."""
    flags = payload.get("flags")
    v2 = was_v2 or bool(int(flags or 0) & COMPONENTS_V2)
    components = payload.get("components")
    if not isinstance(components, list):
        components = []
    if not v2:
        return list(_legacy(components))
    problems: list[Problem] = []
    for legacy in ("content", "embeds", "poll", "stickers"):
        if payload.get(legacy) is not None and legacy in payload:
            if legacy in ("embeds", "stickers") and payload[legacy] == []:
                continue  # an empty list takes nothing away and adds nothing
            problems.append(
                (
                    (legacy,),
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"The '{legacy}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                )
            )
    if ("components" in payload or not was_v2) and not components:
        # the components are all of a v2 message: without them it would be empty
        problems.append(
            (("components",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 40 in length.")
        )
    for number, component in enumerate(components):
        problems.extend(_component(component, ("components", number), TOP_LEVEL_V2, filenames))
    total = sum(1 for _ in walk(components))
    if total > MAX_COMPONENTS:
        problems.append(
            (
                ("components",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_COMPONENTS} or fewer in length ({total} components, nested "
                "ones counted).",
            )
        )
    text = sum(len(str(c.get("content") or "")) for c in walk(components) if _is(c, TEXT_DISPLAY))
    if text > MAX_TEXT:
        problems.append(
            (
                ("components",),
                "BASE_TYPE_MAX_LENGTH",
                f"The text displays of a message hold {MAX_TEXT} or fewer characters ({text}).",
            )
        )
    return problems


def walk(components: Sequence[Any]) -> Iterator[dict[str, Any]]:
    """Every component of a tree, rows, sections, containers and accessories included."""
    for component in components:
        if not isinstance(component, dict):
            continue
        yield component
        yield from walk(component.get("components") or ())
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            yield from walk((accessory,))


def _is(component: Any, kind: int) -> bool:
    return isinstance(component, dict) and component.get("type") == kind


def _legacy(components: list[Any]) -> Iterator[Problem]:
    for number, component in enumerate(components):
        kind = component.get("type") if isinstance(component, dict) else None
        if kind != ACTION_ROW:
            yield (
                ("components", number, "type"),
                "BASE_TYPE_CHOICES",
                f"Component type {kind} needs MessageFlags.IS_COMPONENTS_V2; a message "
                "without it has action rows at the top.",
            )
        else:
            yield from _row(component, ("components", number))


def _component(
    component: Any, at: Path, allowed: tuple[int, ...], filenames: Sequence[str]
) -> Iterator[Problem]:
    if not isinstance(component, dict):
        yield (at, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
        return
    kind = component.get("type")
    if kind not in allowed:
        yield (
            (*at, "type"),
            "UNION_TYPE_CHOICES",
            f'Value of field "type" must be one of {allowed} here (got {kind}).',
        )
        return
    if kind == ACTION_ROW:
        yield from _row(component, at)
    elif kind == SECTION:
        yield from _section(component, at, filenames)
    elif kind == TEXT_DISPLAY:
        content = component.get("content")
        if not isinstance(content, str) or not content:
            yield ((*at, "content"), "BASE_TYPE_REQUIRED", "This field is required")
    elif kind == MEDIA_GALLERY:
        items = component.get("items")
        if not isinstance(items, list) or not 1 <= len(items) <= 10:
            yield ((*at, "items"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 10 in length.")
            return
        for number, item in enumerate(items):
            yield from _media(item, (*at, "items", number), "media", filenames)
    elif kind == FILE:
        yield from _media(component, at, "file", filenames)
        url = str((component.get("file") or {}).get("url", ""))
        if not url.startswith("attachment://"):
            yield ((*at, "file", "url"), "BASE_TYPE_INVALID", "A file is an attachment://.")
    elif kind == SEPARATOR:
        if component.get("spacing", 1) not in (1, 2):
            yield ((*at, "spacing"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
    elif kind == CONTAINER:
        accent = component.get("accent_color")
        if accent is not None and not (isinstance(accent, int) and 0 <= accent <= 0xFFFFFF):
            yield ((*at, "accent_color"), "NUMBER_TYPE_MAX", "Must be 16777215 or less.")
        children = component.get("components")
        if not isinstance(children, list) or not children:
            yield ((*at, "components"), "BASE_TYPE_REQUIRED", "This field is required")
            return
        for number, child in enumerate(children):
            yield from _component(child, (*at, "components", number), IN_CONTAINER, filenames)


def _row(row: dict[str, Any], at: Path) -> Iterator[Problem]:
    children = row.get("components")
    if not isinstance(children, list) or not children:
        yield ((*at, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        return
    kinds = [c.get("type") if isinstance(c, dict) else None for c in children]
    selects = [k for k in kinds if k in SELECTS]
    if selects and len(children) > 1:
        yield (
            (*at, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "A row holds up to 5 buttons or a single select.",
        )
    elif len(children) > 5:
        yield ((*at, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    for number, (child, kind) in enumerate(zip(children, kinds, strict=True)):
        if kind == BUTTON:
            yield from _button(child, (*at, "components", number))
        elif kind not in SELECTS:
            yield (
                (*at, "components", number, "type"),
                "UNION_TYPE_CHOICES",
                f"An action row holds buttons or a select, not type {kind}.",
            )


def _button(button: dict[str, Any], at: Path) -> Iterator[Problem]:
    style = button.get("style")
    if style == LINK_STYLE:
        if not button.get("url") or button.get("custom_id"):
            yield (at, "BUTTON_COMPONENT_INVALID", "A link button has a url and no custom_id.")
    elif style != PREMIUM_STYLE and not button.get("custom_id"):
        yield ((*at, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")


def _section(section: dict[str, Any], at: Path, filenames: Sequence[str]) -> Iterator[Problem]:
    texts = section.get("components")
    if not isinstance(texts, list) or not 1 <= len(texts) <= 3:
        yield ((*at, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 3 in length.")
    else:
        for number, text in enumerate(texts):
            yield from _component(text, (*at, "components", number), (TEXT_DISPLAY,), filenames)
    accessory = section.get("accessory")
    if not isinstance(accessory, dict):
        yield ((*at, "accessory"), "BASE_TYPE_REQUIRED", "This field is required")
    elif accessory.get("type") == BUTTON:
        yield from _button(accessory, (*at, "accessory"))
    elif accessory.get("type") == THUMBNAIL:
        yield from _media(accessory, (*at, "accessory"), "media", filenames)
    else:
        yield (
            (*at, "accessory", "type"),
            "UNION_TYPE_CHOICES",
            "A section's accessory is a button or a thumbnail.",
        )


def _media(holder: Any, at: Path, key: str, filenames: Sequence[str]) -> Iterator[Problem]:
    media = holder.get(key) if isinstance(holder, dict) else None
    url = media.get("url") if isinstance(media, dict) else None
    if not isinstance(url, str) or not url:
        yield ((*at, key, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        return
    if url.startswith("attachment://") and url.removeprefix("attachment://") not in filenames:
        yield (
            (*at, key, "url"),
            "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
            f"{url} names no file of the message.",
        )
