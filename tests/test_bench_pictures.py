"""The instruction-count benchmark's work runs (valgrind itself is not needed here)."""

from __future__ import annotations

import pytest

from bench import picture_instructions


@pytest.mark.parametrize("mode", [*picture_instructions.MODES, "setup"])
def test_each_mode_draws_its_pictures(mode: str) -> None:
    picture_instructions.work(mode)


def test_the_window_is_a_third_into_each_game() -> None:
    for name in picture_instructions.GAMES:
        window = picture_instructions._positions(name)
        assert len(window) == picture_instructions.PICTURES_PER_GAME + 1
        assert window[0].ply == picture_instructions.FIRST_PLY - 1
