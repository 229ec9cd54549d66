"""The instruction-count benchmark's work runs (valgrind itself is not needed here)."""

from __future__ import annotations

from bench import picture_instructions


def test_each_mode_draws_its_pictures_and_setup_none() -> None:
    pictures = len(picture_instructions.GAMES) * picture_instructions.PICTURES_PER_GAME
    reply = picture_instructions.work("reply")
    rgb = picture_instructions.work("rgb")
    drawn = picture_instructions.work("draw")
    assert len(reply) == len(rgb) == len(drawn) == pictures
    # the bot's file and the RGB picture's file are the same bytes, of pictures drawn whole
    assert reply == rgb
    assert all(image.size == drawn[0].size and image.mode == "RGB" for image in drawn)
    assert picture_instructions.work("setup") == []


def test_the_window_is_a_third_into_each_game() -> None:
    for name in picture_instructions.GAMES:
        window = picture_instructions._positions(name)
        assert len(window) == picture_instructions.PICTURES_PER_GAME + 1
        assert window[0].ply == picture_instructions.FIRST_PLY - 1
