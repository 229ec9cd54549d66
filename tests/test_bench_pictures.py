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


def test_the_hints_mode_makes_the_files_with_dots_the_bot_sends() -> None:
    from render import png_bytes
    from render.annotations import hint_cells, render_hint_cells

    hinted = picture_instructions.work("hints")
    plain = picture_instructions.work("reply")
    assert len(hinted) == len(plain)
    assert all(dotted != bare for dotted, bare in zip(hinted, plain, strict=True))
    first = picture_instructions._positions(picture_instructions.GAMES[0])[1]
    dots = hint_cells(first, first.legal_moves())
    names = picture_instructions.NAMES
    assert hinted[0] == png_bytes(render_hint_cells(first, dots, names=names))


def test_the_window_is_a_third_into_each_game() -> None:
    for name in picture_instructions.GAMES:
        window = picture_instructions._positions(name)
        assert len(window) == picture_instructions.PICTURES_PER_GAME + 1
        assert window[0].ply == picture_instructions.FIRST_PLY - 1


def test_the_leiff_modes_make_the_files_the_bot_sends() -> None:
    table = picture_instructions.work("table")
    hand = picture_instructions.work("hand")
    assert len(table) == len(hand) == picture_instructions.LEIFF_PICTURES
    # the strip-by-strip files are the RGB pictures' files, and the table changes
    assert table == picture_instructions.work("table-rgb")
    assert hand == picture_instructions.work("hand-rgb")
    assert len(set(table)) > picture_instructions.LEIFF_PICTURES // 2
    assert all(data.startswith(b"\x89PNG") for data in table + hand)
