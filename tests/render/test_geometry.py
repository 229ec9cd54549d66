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
        assert geo.cell_at(x, y - geo.half_step * 0.9) == index


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
            (x1, y1), (x2, y2) = geo.centre(index), geo.centre(other)
            # one column across and half a cell up or down, or one cell up or down
            assert (abs(x2 - x1), abs(y2 - y1)) in (
                (geo.column_step, geo.half_step),
                (0, 2 * geo.half_step),
            )
            # as far apart as a regular hexagon's neighbours, within a pixel
            assert math.dist((x1, y1), (x2, y2)) == pytest.approx(SQRT3 * geo.radius, abs=1.0)
    # number 1 is at the bottom of each column; column a is on the left
    assert geo.centre("a1")[1] > geo.centre("a2")[1]
    assert geo.centre("a1")[0] < geo.centre("b1")[0]


WIDTHS = range(240, 1601, 7)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("points", [False, True])
def test_every_centre_is_a_pixel_centre_on_a_whole_pixel_lattice(size: int, points: bool) -> None:
    """What makes every cell the same pixels as every other, and the files small."""
    for width in WIDTHS:
        geo = board_geometry(size, width, points)
        assert isinstance(geo.column_step, int) and isinstance(geo.half_step, int)
        for x, y in geo.centres:
            assert x % 1 == 0.5 and y % 1 == 0.5
        # the stone sprites are pasted at the pixel that holds the centre: drawn concentric
        assert all(geo.pixel(i) == (x - 0.5, y - 0.5) for i, (x, y) in enumerate(geo.centres))


@pytest.mark.parametrize("size", SIZES)
def test_cells_stay_within_a_pixel_of_regular_hexagons_and_the_room_they_had(size: int) -> None:
    for width in WIDTHS:
        geo = board_geometry(size, width)
        regular_height = SQRT3 * geo.radius
        assert abs(2 * geo.half_step - regular_height) <= 1.0
        assert geo.squash == pytest.approx(2 * geo.half_step / regular_height)
        # the board spans the picture but for the rim's numbers beside it, less (on each
        # side) at most a pixel per column step and two thirds of one for the outer cell's
        # radius (the steps are whole pixels), and half a pixel (its centre's)
        m = size - 1
        left = geo.origin[0] - m * geo.column_step - geo.radius
        right = geo.origin[0] + m * geo.column_step + geo.radius
        rim = 1.05 * geo.rim_size + 3 * width / 480
        assert rim - 0.5 <= left <= rim + m + 2 / 3 + 0.5
        assert rim - 0.5 <= width - right <= rim + m + 2 / 3 + 0.5


@pytest.mark.parametrize("size", SIZES)
def test_the_hexagons_tile_the_board_exactly(size: int) -> None:
    """Neighbouring cells share their corners (to a thousandth of a pixel): the grooves
    between cells are even all over the board."""
    grid = hex_grid(size)
    for width in (240, 360, 480, 1024):
        geo = board_geometry(size, width)
        corners = {
            index: {(round(x, 3), round(y, 3)) for x, y in geo.hexagon(index)}
            for index in range(grid.cell_count)
        }
        for index, neighbours in enumerate(grid.neighbours):
            for other in neighbours:
                assert len(corners[index] & corners[other]) == 2


def test_named_cells_outside_the_board_are_refused() -> None:
    with pytest.raises(ValueError):
        board_geometry(5, 480).centre("z9")
    with pytest.raises(ValueError):
        board_geometry(5, 100)
