"""The cell ↔ pixel geometry every picture and test relies on."""

from __future__ import annotations

import math

import pytest

from engine.hexgrid import hex_grid
from render.geometry import SQRT3, board_geometry

SIZES = range(5, 10)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("width", [320, 480, 800])
def test_every_cell_centre_maps_back_to_its_cell(size: int, width: int) -> None:
    geo = board_geometry(size, width)
    for index in range(hex_grid(size).cell_count):
        x, y = geo.centre(index)
        assert geo.cell_at(x, y) == index
        # a point just inside the hexagon's flat side still belongs to the cell
        assert geo.cell_at(x, y - geo.radius * SQRT3 / 2 * 0.9) == index


@pytest.mark.parametrize("size", SIZES)
def test_board_fits_inside_the_picture_below_the_header(size: int) -> None:
    geo = board_geometry(size, 480)
    for index in range(hex_grid(size).cell_count):
        for x, y in geo.hexagon(index):
            assert 0 <= x <= geo.width
            assert geo.header_height < y < geo.height


@pytest.mark.parametrize("size", SIZES)
def test_neighbours_are_one_cell_apart_and_columns_read_bottom_up(size: int) -> None:
    grid = hex_grid(size)
    geo = board_geometry(size, 480)
    for index, neighbours in enumerate(grid.neighbours):
        for other in neighbours:
            gap = math.dist(geo.centre(index), geo.centre(other))
            assert gap == pytest.approx(SQRT3 * geo.radius)
    # number 1 is at the bottom of each column; column a is on the left
    assert geo.centre("a1")[1] > geo.centre("a2")[1]
    assert geo.centre("a1")[0] < geo.centre("b1")[0]


def test_named_cells_outside_the_board_are_refused() -> None:
    with pytest.raises(ValueError):
        board_geometry(5, 480).centre("z9")
    with pytest.raises(ValueError):
        board_geometry(5, 100)
