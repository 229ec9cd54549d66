"""Buttons and select menus: one dynamic button class and one dynamic select class.

Both are ``discord.ui.DynamicItem``s whose custom id (see :mod:`bot.common.custom_ids`)
holds the match or challenge id, the version and the action. They are registered once with
``bot.add_dynamic_items`` so a click on any message — also one sent before a restart — is
parsed from its custom id and handed to the client's component router (its ``components``
attribute, :class:`ComponentHandler`); no view object has to survive.

:func:`components` lays a list of :class:`Choice` out as buttons (and select menus for long
families such as "catch a card"), within Discord's limits of five rows of five buttons, as
the payload every message the bot sends carries; :func:`build_view` lays them out the same
as a ``discord.ui.View``, the reference the tests hold that payload to.
:func:`ordered_choices` turns action strings into choices from a feature's table of labels.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import discord

from bot.common.custom_ids import BUTTON_TEMPLATE, PICK, SELECT_TEMPLATE, ComponentId
from i18n import DEFAULT_LANGUAGE, translate

log = logging.getLogger(__name__)

MAX_ROWS = 5
BUTTONS_PER_ROW = 5
OPTIONS_PER_SELECT = 25
# A family of actions (same first word) with more members than this becomes a select menu.
SELECT_THRESHOLD = 5


@dataclass(frozen=True)
class Choice:
    """One action shown to a user: the action string, its label and how it looks."""

    action: str
    label: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    family: str = ""  # actions of one family may be grouped into a select menu
    family_label: str = ""  # placeholder of that select menu


def ordered_choices(
    language: str,
    actions: Sequence[str],
    labels: Mapping[str, tuple[str, discord.ButtonStyle]],
    order: Sequence[str],
) -> list[Choice]:
    """Choices for plain actions (one label each: a message id, worded in ``language``),
    without repeats, in ``order`` (actions it does not list last); an action without a
    label reads as itself, capitalised."""
    rank = {name: index for index, name in enumerate(order)}
    unique = list(dict.fromkeys(actions))
    unique.sort(key=lambda action: rank.get(action, len(order)))
    choices = []
    for action in unique:
        if action in labels:
            msgid, style = labels[action]
            choices.append(Choice(action, translate(language, msgid), style))
        else:
            choices.append(Choice(action, action.capitalize(), discord.ButtonStyle.secondary))
    return choices


@runtime_checkable
class ComponentHandler(Protocol):
    """What handles a click: the client's ``components`` (the bot's component router)."""

    async def on_component(
        self, interaction: discord.Interaction, component: ComponentId, values: tuple[str, ...]
    ) -> None: ...


def _handler(interaction: discord.Interaction) -> ComponentHandler:
    handler = getattr(interaction.client, "components", None)
    if not isinstance(handler, ComponentHandler):
        raise RuntimeError("the client has no component router")
    return handler


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    """Any button of ours; the callback hands the decoded id to the component router."""

    def __init__(
        self,
        component_id: ComponentId,
        *,
        label: str = "?",
        style: Any = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(_button(component_id, label, style, disabled), row=row)
        self.component_id = component_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionButton:
        component_id = ComponentId.decode(match.string)  # the custom id the template matched
        assert component_id is not None  # the template matched
        return cls(component_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).on_component(interaction, self.component_id, ())


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """A select menu of ours: the chosen option's value is the action string."""

    def __init__(
        self,
        component_id: ComponentId,
        *,
        options: Sequence[discord.SelectOption],
        placeholder: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(_select(component_id, options, placeholder, disabled), row=row)
        self.component_id = component_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionSelect:
        component_id = ComponentId.decode(match.string)  # the custom id the template matched
        assert component_id is not None
        return cls(component_id, options=[discord.SelectOption(label="-")])

    async def callback(self, interaction: discord.Interaction) -> None:
        data = interaction.data
        chosen: Any = data.get("values", ()) if isinstance(data, dict) else ()
        values = tuple(chosen)
        await _handler(interaction).on_component(interaction, self.component_id, values)


def build_view(
    scope: str,
    target: int,
    version: int,
    choices: Sequence[Choice],
    *,
    disabled: bool = False,
    select_threshold: int = SELECT_THRESHOLD,
    language: str = DEFAULT_LANGUAGE,
) -> discord.ui.View | None:
    """A persistent view with one component per choice, or None when there is nothing
    (the menus' own placeholders in ``language``).

    Families with more than ``select_threshold`` members become select menus (one per 25
    options); everything else is a button. If the choices do not fit in five rows the
    remaining buttons are folded into one more select menu, so no action is ever silently
    dropped.
    """
    if not choices:
        return None
    button_rows, selects = arranged(choices, select_threshold, language)
    view = discord.ui.View(timeout=None)
    for row, members in enumerate(button_rows):
        for choice in members:
            view.add_item(
                ActionButton(
                    ComponentId(scope, target, version, choice.action),
                    label=choice.label,
                    style=choice.style,
                    disabled=disabled,
                    row=row,
                )
            )
    for number, (placeholder, members) in enumerate(selects):
        view.add_item(
            ActionSelect(
                ComponentId(scope, target, version, f"{PICK}{number}"),
                options=_options(members),
                placeholder=placeholder,
                disabled=disabled,
                row=len(button_rows) + number,
            )
        )
    return view


class FixedComponents:
    """A message's components as Discord's payload, given to discord.py as its ``view``.

    A ``discord.ui.View`` is built to be listened to; ours never are (a click is parsed
    from its custom id by the dynamic items, see the module's docstring). Yet a view, its
    items and their wrappers refer to each other, so every view sent becomes cyclic
    garbage that only the garbage collector frees: with the interactions discord.py
    parses, that made each young collection in the bot cost about a millisecond under
    load. This holds the same payload (:func:`components` builds it from discord.py's own
    items, which refer to nothing) and tells discord.py there is nothing to store."""

    __discord_ui_view__ = True  # what discord.py checks before sending a view
    timeout = None

    def __init__(self, rows: list[dict[str, Any]], *, v2: bool = False) -> None:
        self.rows = rows
        self.v2 = v2

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows

    def has_components_v2(self) -> bool:
        """Whether these are Components v2 (:mod:`bot.common.layout`): discord.py then sets
        the message's IS_COMPONENTS_V2 flag."""
        return self.v2

    def is_finished(self) -> bool:
        return True  # nothing to store or to time out

    def is_dispatchable(self) -> bool:
        return False


def components(
    scope: str,
    target: int,
    version: int,
    choices: Sequence[Choice],
    *,
    disabled: bool = False,
    select_threshold: int = SELECT_THRESHOLD,
    language: str = DEFAULT_LANGUAGE,
) -> FixedComponents | None:
    """What :func:`build_view` would send, as a payload without a view (see
    :class:`FixedComponents`); None when there is nothing."""
    if not choices:
        return None
    button_rows, selects = arranged(choices, select_threshold, language)
    rows = [
        {
            "type": 1,
            "components": [
                button_dict(
                    ComponentId(scope, target, version, choice.action),
                    choice.label,
                    choice.style,
                    disabled,
                )
                for choice in members
            ],
        }
        for members in button_rows
    ]
    for number, (placeholder, members) in enumerate(selects):
        component_id = ComponentId(scope, target, version, f"{PICK}{number}")
        rows.append(
            {"type": 1, "components": [select_dict(component_id, members, placeholder, disabled)]}
        )
    return FixedComponents(rows)


def button_dict(
    component_id: ComponentId, label: str, style: Any, disabled: bool
) -> dict[str, Any]:
    """One of our buttons as Discord's payload."""
    return dict(_button(component_id, label, style, disabled).to_component_dict())


def select_dict(
    component_id: ComponentId, members: Sequence[Choice], placeholder: str | None, disabled: bool
) -> dict[str, Any]:
    """One of our menus (an option per choice) as Discord's payload."""
    menu = _select(component_id, _options(members), placeholder, disabled)
    return dict(menu.to_component_dict())


def _button(
    component_id: ComponentId, label: str, style: Any, disabled: bool
) -> discord.ui.Button[Any]:
    """One of our buttons as discord.py's item (within Discord's label limit)."""
    return discord.ui.Button(
        label=label[:80],
        style=style or discord.ButtonStyle.secondary,
        custom_id=component_id.encode(),
        disabled=disabled,
    )


def _select(
    component_id: ComponentId,
    options: Sequence[discord.SelectOption],
    placeholder: str | None,
    disabled: bool,
) -> discord.ui.Select[Any]:
    """One of our menus as discord.py's item: one option is chosen at a time."""
    return discord.ui.Select(
        custom_id=component_id.encode(),
        options=list(options),
        placeholder=(placeholder or "…")[:150],
        disabled=disabled,
        min_values=1,
        max_values=1,
    )


def _options(members: Sequence[Choice]) -> list[discord.SelectOption]:
    return [discord.SelectOption(label=m.label[:100], value=m.action[:100]) for m in members]


def arranged(
    choices: Sequence[Choice], select_threshold: int, language: str
) -> tuple[list[list[Choice]], list[tuple[str, list[Choice]]]]:
    """The rows of buttons, then the select menus (placeholder, members) under them: at
    most five rows in all."""
    families: dict[str, list[Choice]] = {}
    for choice in choices:
        families.setdefault(choice.family or choice.action, []).append(choice)

    buttons: list[Choice] = []
    selects: list[tuple[str, list[Choice]]] = []
    for family, members in families.items():
        if family and len(members) > select_threshold:
            placeholder = members[0].family_label or translate(
                language, "bot.menu.choose_family", family=family
            )
            for start in range(0, len(members), OPTIONS_PER_SELECT):
                selects.append((placeholder, members[start : start + OPTIONS_PER_SELECT]))
        else:
            buttons.extend(members)

    def rows_needed() -> int:
        return len(selects) + -(-len(buttons) // BUTTONS_PER_ROW)

    more = translate(language, "bot.menu.more")
    while rows_needed() > MAX_ROWS:
        packed = _packed(selects, more)
        if len(packed) < len(selects):
            # menus of several families share rows before any button is folded away
            selects = packed
        elif buttons:
            # fold the last buttons into one more select menu
            spill = buttons[-OPTIONS_PER_SELECT:]
            del buttons[-OPTIONS_PER_SELECT:]
            selects.append((more, spill))
        else:
            log.error("%d actions do not fit in one message", sum(len(m) for _, m in selects))
            break
    button_rows = [
        buttons[index : index + BUTTONS_PER_ROW]
        for index in range(0, len(buttons), BUTTONS_PER_ROW)
    ]
    return button_rows, selects[: MAX_ROWS - len(button_rows)]


def _packed(selects: list[tuple[str, list[Choice]]], more: str) -> list[tuple[str, list[Choice]]]:
    """The same options in as few menus as possible, in order; a menu holding one family
    keeps its placeholder, a mixed one reads ``more``."""
    options = [(placeholder, member) for placeholder, members in selects for member in members]
    packed = []
    for start in range(0, len(options), OPTIONS_PER_SELECT):
        chunk = options[start : start + OPTIONS_PER_SELECT]
        placeholders = {placeholder for placeholder, _ in chunk}
        placeholder = chunk[0][0] if len(placeholders) == 1 else more
        packed.append((placeholder, [member for _, member in chunk]))
    return packed


def disabled_copy(message: discord.Message | None) -> FixedComponents | None:
    """The message's own components, every button and menu disabled (for a used or
    outdated message); a Components v2 message keeps its whole layout (text, picture),
    its picture still pointing at its own uploaded file."""
    if message is None or not message.components:
        return None
    files = _attachment_names(message)
    rows = [_disabled(component.to_dict(), files) for component in message.components]  # type: ignore[arg-type]  # discord.py's component TypedDicts are read as plain JSON
    return FixedComponents(rows, v2=message.flags.components_v2)


def _attachment_names(message: discord.Message) -> dict[str, str]:
    """The message's files by the URLs Discord gives them in its components, each as an
    ``attachment://`` reference (which an edit resolves against the files it keeps)."""
    names = {}
    for attachment in message.attachments:
        for url in (attachment.url, attachment.proxy_url):
            if url:
                names[url.split("?", 1)[0]] = f"attachment://{attachment.filename}"
    return names


def _disabled(component: dict[str, Any], files: Mapping[str, str]) -> dict[str, Any]:
    if component.get("type") in (2, 3, 5, 6, 7, 8) and component.get("style") != 5:
        component["disabled"] = True
    media = component.get("media")
    if isinstance(media, dict):
        media["url"] = files.get(str(media.get("url", "")).split("?", 1)[0], media.get("url"))
    for item in component.get("items") or ():
        _disabled(item, files)
    for child in component.get("components") or ():
        _disabled(child, files)
    if isinstance(component.get("accessory"), dict):
        _disabled(component["accessory"], files)
    return component


def custom_ids(components: Sequence[Any]) -> list[str]:
    """The custom ids of every button and menu of a message (discord.py's components),
    in rows, sections and containers alike."""
    found: list[str] = []
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            found.append(custom_id)
        found.extend(custom_ids(getattr(component, "children", ())))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            found.extend(custom_ids((accessory,)))
    return found


__all__ = [
    "ActionButton",
    "ActionSelect",
    "Choice",
    "ComponentHandler",
    "build_view",
    "disabled_copy",
    "ordered_choices",
]
