"""Colour themes for every picture, kept as data in ``data/themes/*.json``.

A theme is a flat bundle of RGB colours. The JSON files are the single source: adding a theme
means adding a file. Every theme tells the two stone colours apart by lightness (near-black
against near-white), never by hue alone, and uses colours from the Okabe–Ito palette for the
markers so that they stay distinct under the common colour-vision deficiencies.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from PIL import ImageColor

THEME_DIR = Path(__file__).resolve().parent.parent / "data" / "themes"

RGB = tuple[int, int, int]


def _rgb(value: str) -> RGB:
    red, green, blue = ImageColor.getrgb(value)[:3]
    return (red, green, blue)


@dataclass(frozen=True)
class StoneColours:
    fill: RGB
    edge: RGB


@dataclass(frozen=True)
class Theme:
    """All colours one picture needs; load with :func:`get_theme`."""

    name: str
    description: str
    background: RGB
    header_background: RGB
    header_text: RGB
    header_muted: RGB
    header_highlight: RGB
    header_turn: RGB
    header_icon_halo: RGB  # mid grey behind the colour icons: both stones stand out on it
    cell: RGB
    cell_edge: RGB
    line: RGB
    point: RGB
    label: RGB
    border_label: RGB
    stones: tuple[StoneColours, StoneColours]  # first colour, second colour
    placed: RGB
    captured: RGB
    removed: RGB
    loop_first: RGB
    loop_second: RGB
    loop_halo: RGB
    cards: MappingProxyType[str, RGB]
    # the marks of render.annotations (move hints, tutorials, why a move was refused):
    # "may" (a cell where a stone may go), "may_not", "about" (a stone a rule is about)
    annotations: MappingProxyType[str, RGB] = field(default_factory=lambda: MappingProxyType({}))

    def stone(self, code: int) -> StoneColours:
        """Colours of a stone by its cell code (1 first colour, 2 second colour)."""
        return self.stones[code - 1]

    def card(self, key: str) -> RGB:
        return self.cards[key]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Theme:
        header, board, markers, loops = (
            data["header"],
            data["board"],
            data["markers"],
            data["loops"],
        )
        stones = data["stones"]
        return cls(
            name=data["name"],
            description=data["description"],
            background=_rgb(data["background"]),
            header_background=_rgb(header["background"]),
            header_text=_rgb(header["text"]),
            header_muted=_rgb(header["muted"]),
            header_highlight=_rgb(header["highlight"]),
            header_turn=_rgb(header["turn"]),
            header_icon_halo=_rgb(header["icon_halo"]),
            cell=_rgb(board["cell"]),
            cell_edge=_rgb(board["cell_edge"]),
            line=_rgb(board["line"]),
            point=_rgb(board["point"]),
            label=_rgb(board["label"]),
            border_label=_rgb(board["border_label"]),
            stones=(
                StoneColours(_rgb(stones["first"]["fill"]), _rgb(stones["first"]["edge"])),
                StoneColours(_rgb(stones["second"]["fill"]), _rgb(stones["second"]["edge"])),
            ),
            placed=_rgb(markers["placed"]),
            captured=_rgb(markers["captured"]),
            removed=_rgb(markers["removed"]),
            loop_first=_rgb(loops["first"]),
            loop_second=_rgb(loops["second"]),
            loop_halo=_rgb(loops["halo"]),
            cards=MappingProxyType({key: _rgb(value) for key, value in data["cards"].items()}),
            annotations=MappingProxyType(
                {key: _rgb(value) for key, value in data.get("annotations", {}).items()}
            ),
        )


def _load_themes() -> dict[str, Theme]:
    themes: dict[str, Theme] = {}
    for path in sorted(THEME_DIR.glob("*.json")):
        theme = Theme.from_dict(json.loads(path.read_text(encoding="utf-8")))
        themes[theme.name] = theme
    if "classic" not in themes:
        raise RuntimeError(f"the classic theme is missing from {THEME_DIR}")
    return themes


THEMES: MappingProxyType[str, Theme] = MappingProxyType(_load_themes())
DEFAULT_THEME = "classic"


def list_themes() -> list[str]:
    """Names of the available themes, the default first."""
    return [DEFAULT_THEME, *sorted(name for name in THEMES if name != DEFAULT_THEME)]


def get_theme(name: str) -> Theme:
    """The theme called ``name``; ValueError naming the choices for an unknown one."""
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(
            f"unknown theme {name!r}; the themes are: {', '.join(list_themes())}"
        ) from None
