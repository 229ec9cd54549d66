"""Leiff pictures: the table shows only the spectator view; a hand shows what its seat knows."""

from __future__ import annotations

import io
import itertools
import random
import struct
import zlib

import pytest
from PIL import Image, ImageChops

from engine import get_game
from engine.leiff import random_action
from render import list_themes, png_bytes, render_hand, render_table
from render.encode import (
    SEGMENTS_INFO,
    compressed_rows,
    indexed_png_bytes,
    quantized,
    segmented_png_bytes,
)
from render.leiff import (
    CARD_RATIO,
    LEIFF_LEVEL,
    SLOT_MACHINE,
    SPECIALS,
    draw_card,
    hand_layout,
    place_card,
)
from render.themes import get_theme
from tests.render.helpers import close, decode

NAMES = ["Anna", "Bärbel 🍺 " * 20, "张伟", "محمد", "", "Eve"]
OPTIONS = {"target": 50, "specials": True, "drinking": True, "water": False, "teams": False}
# 12 cards for three seats, then the first discard; the draw pile follows from the seed
DEAL_A = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "4"]
DEAL_B = ["13", "12", "11", "10", "slot", "-1", "philosopher", "2", "belle", "3", "1", "5", "4"]


def _played(players: int, seed: int, actions: int):
    rng = random.Random(seed)
    state = get_game("leiff").new(players=players, seed=seed, options=OPTIONS)
    for _ in range(actions):
        if not state.actors():
            break
        seat, action = random_action(state, rng)
        state = state.play(seat, action)
    return state


@pytest.mark.parametrize("language", ["en", "de"])
def test_table_picture_depends_only_on_the_spectator_view(language: str) -> None:
    game = get_game("leiff")
    one = game.new(players=3, seed=11, options=OPTIONS, deck_order=DEAL_A)
    other = game.new(players=3, seed=11, options=OPTIONS, deck_order=DEAL_B)
    assert one.hands != other.hands  # different hidden truth ...
    names = NAMES[:3]
    picture = png_bytes(render_table(one.view(None), names=names, language=language))
    # ... the same public picture
    assert picture == png_bytes(render_table(other.view(None), names=names, language=language))
    # while the seats' own hands (what they looked at) do differ
    assert png_bytes(render_hand(one.view(0), 0, names=names, language=language)) != png_bytes(
        render_hand(other.view(0), 0, names=names, language=language)
    )


def test_table_shows_cards_only_when_the_view_reveals_them() -> None:
    state = get_game("leiff").new(players=3, seed=11, options=OPTIONS, deck_order=DEAL_A)
    view = state.view(None)
    assert all(label is None for hand in view["hands"] for label in hand)
    revealed = {**view, "hands": [list(hand) for hand in view["hands"]]}
    revealed["hands"][1][2] = "13"
    plain = render_table(view, names=NAMES[:3])
    shown = render_table(revealed, names=NAMES[:3])
    assert ImageChops.difference(plain, shown).getbbox() is not None


def test_hand_shows_known_values_and_backs_for_unknown_slots() -> None:
    state = get_game("leiff").new(players=3, seed=11, options=OPTIONS, deck_order=DEAL_B)
    theme = get_theme("classic")
    for seat in range(3):
        view = state.view(seat)
        hand = view["hands"][seat]
        assert any(label is not None for label in hand) and None in hand
        image = decode(png_bytes(render_hand(view, seat, names=NAMES[:3])))
        layout = hand_layout(view, seat, 480)
        assert image.size == (480, layout.height)
        for label, (x0, y0, x1, y1) in zip(hand, layout.slots, strict=True):
            pixel = image.getpixel((int((x0 + x1) / 2), int(y0 + (y1 - y0) * 0.12)))
            if label is None:
                assert close(pixel, theme.card("back"), 12) or close(
                    pixel, theme.card("back_pattern"), 12
                )
            else:
                faces = (theme.card("face"), theme.card("special_face"), theme.card("slot_face"))
                assert any(close(pixel, face, 12) for face in faces), (label, pixel)


def test_just_drawn_card_is_shown_to_its_holder_only() -> None:
    for seed in range(40):
        state = _played(4, seed, 25)
        holding = state.view(None)["holding"]
        if holding and holding["source"] == "draw":
            break
    else:
        raise AssertionError("no state with a card drawn from the pile")
    seat = holding["seat"]
    mine = state.view(seat)
    layout = hand_layout(mine, seat, 480)
    assert layout.held is not None
    assert mine["holding"]["card"] is not None
    # another seat's hand picture has no held card at all
    other_seat = (seat + 1) % 4
    assert hand_layout(state.view(other_seat), other_seat, 480).held is None
    image = render_hand(mine, seat, names=NAMES[:4])
    x0, y0, x1, y1 = layout.held
    face = image.getpixel((int((x0 + x1) / 2), int(y0 + (y1 - y0) * 0.12)))
    assert not close(face, get_theme("classic").card("back"), 12)


@pytest.mark.parametrize("theme", list_themes())
@pytest.mark.parametrize("players", [2, 6])
def test_tables_and_hands_render_for_every_theme_through_a_game(theme: str, players: int) -> None:
    state = _played(players, players, 0)
    rng = random.Random(players)
    for step in range(120):
        if step % 30 == 0:
            view = state.view(None)
            table = render_table(view, names=NAMES[:players], theme=theme)
            assert table.width == 480 and table.height < 1200
            for seat in range(players):
                hand = render_hand(state.view(seat), seat, names=NAMES[:players], theme=theme)
                assert hand.width == 480 and hand.height < 1200
        if not state.actors():
            break
        seat, action = random_action(state, rng)
        state = state.play(seat, action)


def test_round_end_and_klatschtante_rule_and_long_hands_render() -> None:
    state = _played(3, 5, 0)
    view = state.view(None)
    view["rule"] = "Wer " + "sehr " * 60 + "lange Regeln schreibt, trinkt."
    view["hands"] = [
        ["slot", "philosopher", "waiter", "gossip", "belle", "magician", "-1", "13", "7"]
    ] * 3
    view["hand_sizes"] = [9, 9, 9]
    view["round_over"] = True
    image = render_table(view, names=NAMES[:3], width=320)
    assert image.width == 320
    seat_view = {**view, "viewer": 0}
    hand = render_hand(seat_view, 0, names=NAMES[:3])
    assert len(hand_layout(seat_view, 0, 480).slots) == 9
    assert hand.height > render_hand(state.view(0), 0, names=NAMES[:3]).height


def test_a_team_tables_rows_say_that_their_totals_are_the_teams():
    from render.leiff import score_details
    from render.leiff.words import table_status
    from tests.leiff.helpers import look_everyone, stacked

    low, mid, high = ["1", "2", "-1", "slot"], ["5", "6", "3", "4"], ["13", "12", "12", "13"]
    state = look_everyone(stacked([low, mid, mid, high], "9", teams=True))
    state = state.play(state.waiting_for()["turn"], "leiff")
    view = state.view(None)
    scores = view["round_scores"]
    assert score_details(view, 0) == [
        f"team 1: total {view['totals'][0]}, round {scores[0] + scores[2]:+d}"
    ]
    assert score_details(view, 3) == [
        f"team 2: total {view['totals'][3]}, round {scores[1] + scores[3]:+d}"
    ]
    alone = stacked([low, mid], "9", target=100).play(0, "leiff").view(None)
    assert score_details(alone, 1) == [
        f"total {alone['totals'][1]}",
        f"round {alone['round_scores'][1]:+d}",
    ]
    # the game is over (a team reached 50): the status line says it once, in words
    status = table_status(view, ["Hal", "Ivy", "Jo", "Kai"], None)
    assert status == (
        f"Game over: Hal and Jo win. A total reached 50, and {view['totals'][0]} is the "
        "lowest total."
    )


def test_a_placed_card_is_the_drawn_card_anywhere() -> None:
    # place_card pastes cards drawn once per place modulo 2 pixels: the pixels must be
    # draw_card's at any box, fractions of a half and odd whole parts included, over any
    # background (a card blends nothing with what lies under it)
    rng = random.Random(21)
    labels = [None, "-1", "5", "13", SLOT_MACHINE, *SPECIALS]
    for theme_name in list_themes():
        theme = get_theme(theme_name)
        for _ in range(40):
            background = Image.effect_noise((140, 170), 60).convert("RGB")
            width = rng.choice((30, 44, 60, 70.5, 84, 107))
            x0 = rng.choice((3, 4, 5.5, 6.5, 7.25, 10.75)) + rng.randint(0, 8)
            y0 = rng.choice((2, 3.5, 4.5, 9.1)) + rng.randint(0, 8)
            box = (x0, y0, x0 + width, y0 + width * CARD_RATIO)
            label = rng.choice(labels)
            language = rng.choice(("en", "de"))
            drawn, placed = background.copy(), background.copy()
            draw_card(drawn, box, label, theme, language)
            place_card(placed, box, label, theme, language)
            assert ImageChops.difference(drawn, placed).getbbox() is None, (box, label)


def test_tables_and_hands_are_packed_faster_strip_by_strip_and_stay_small() -> None:
    # level 3, not 6: two thirds of the time for a sixth more bytes, far under 30 KB; each
    # strip compressed on its own, so that the next picture reuses the strips it shares
    state = get_game("leiff").new(players=6, seed=3, options={"specials": True, "drinking": True})
    rng = random.Random(3)
    for _ in range(40):
        if not state.actors():
            break
        seat, action = random_action(state, rng)
        state = state.play(seat, action)
    names = [f"Player {n}" for n in range(6)]
    for image in (
        render_table(state.view(None), names=names),
        render_hand(state.view(2), 2, names=names),
    ):
        data = png_bytes(image)
        indexed = quantized(image)
        size, cuts = image.info[SEGMENTS_INFO]
        assert size == image.size and len(cuts) >= 2
        rows = [0, *cuts, image.height]
        pieces = [
            compressed_rows(indexed.crop((0, top, image.width, bottom)), LEIFF_LEVEL)
            for top, bottom in itertools.pairwise(rows)
        ]
        palette = bytes(indexed.getpalette() or [])
        assert data == segmented_png_bytes(image.size, palette, pieces, LEIFF_LEVEL)
        assert data != segmented_png_bytes(
            image.size, palette, [compressed_rows(indexed, 6)], LEIFF_LEVEL
        )
        assert len(data) <= 30 * 1024
        # one valid zlib stream (its Adler-32 checked), the picture's indices row by row
        stream = zlib.decompress(_idat(data))
        assert len(stream) == (image.width + 1) * image.height
        decoded = Image.open(io.BytesIO(data))
        assert decoded.mode == "P" and decoded.tobytes() == indexed.tobytes()
        # without its strips (a crop keeps the info), the file is one whole stream again
        whole = image.crop((0, 0, image.width, image.height - 1))
        assert whole.info.get(SEGMENTS_INFO) is not None
        assert png_bytes(whole) == indexed_png_bytes(quantized(whole), LEIFF_LEVEL)


def _idat(png: bytes) -> bytes:
    """The data of a PNG file's IDAT chunks, joined."""
    data, at = b"", 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        if png[at + 4 : at + 8] == b"IDAT":
            data += png[at + 8 : at + 8 + length]
        at += 12 + length
    return data
