"""The board's geometry and colours as JSON: the page draws its SVG from the same cell
centres, hexagon radius and rim labels as the pictures (:mod:`render.geometry`), never
from a layout of its own."""

from __future__ import annotations

from functools import cache
from typing import Any

from engine import get_board_game
from engine.hexgrid import hex_grid
from engine.spec import BoardShape
from render.board import plate_corners
from render.geometry import board_geometry
from render.themes import DEFAULT_THEME, RGB, get_theme

# The width the geometry is computed at: the page scales the SVG to its own width.
GEOMETRY_WIDTH = 480


def _hex(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


@cache
def geometry_json(game: str, size: int) -> dict[str, Any]:
    """Cells (names and centres), the hexagon shape, the rim's coordinates, the neighbours
    (Les's lines) and the theme's colours of one board, in picture pixels with the header
    band cut off (the page shows its own header)."""
    board = get_board_game(game)
    size = board.validate_size(size)
    points = board.spec.drawing.board is BoardShape.POINTS
    geometry = board_geometry(size, GEOMETRY_WIDTH, points)
    grid = hex_grid(size)
    top = geometry.header_height
    theme = get_theme(DEFAULT_THEME)
    colours = dict(zip(board.colors, theme.stones, strict=True))
    return {
        "game": board.name,
        "size": size,
        "points": points,
        "width": geometry.width,
        "height": geometry.height - top,
        "radius": geometry.radius,
        "squash": geometry.squash,
        "stoneRadius": geometry.stone_radius,
        "cells": [
            {"name": name, "x": x, "y": y - top}
            for name, (x, y) in zip(grid.names, geometry.centres, strict=True)
        ],
        "neighbours": [list(grid.neighbours[i]) for i in range(grid.cell_count)],
        "rim": [{"text": label.text, "x": label.x, "y": label.y - top} for label in geometry.rim],
        "rimSize": geometry.rim_size,
        # Les's hexagonal plate: its owned holes are shaded inside it, as in the pictures
        "plate": [[x, y - top] for x, y in plate_corners(geometry)] if points else None,
        "colours": {
            "background": _hex(theme.background),
            "cell": _hex(theme.cell),
            "cellEdge": _hex(theme.cell_edge),
            "line": _hex(theme.line),
            "point": _hex(theme.point),
            "label": _hex(theme.border_label),
            "placed": _hex(theme.placed),
            "captured": _hex(theme.captured),
            "removed": _hex(theme.removed),
            "loop": [_hex(theme.loop_first), _hex(theme.loop_second)],
            # how strongly the pictures tint an owned area: the first colour flat, the
            # second in stripes (render.board._draw_areas: mask levels 110 and 200 of 255)
            "areaOpacity": [round(110 / 255, 3), round(200 / 255, 3)],
            "stones": {
                name: {"fill": _hex(stone.fill), "edge": _hex(stone.edge)}
                for name, stone in colours.items()
            },
        },
    }
