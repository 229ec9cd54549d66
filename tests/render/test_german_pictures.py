"""A German picture carries German words, and differs from the English one only where text is.

The words come from the pure functions that lay out a picture's text (``header_layout``,
``status_line``, ``score_line`` for boards; the Leiff status and label functions); the
pixel tests then show that the board, the stones and the cards are the same in both
languages and every changed pixel lies in a box of text.
"""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine import BOARD_GAMES, get_game
from engine.board import BoardState
from render import render_board, render_hand, render_table, replay_gif
from render.board import header_layout, score_line, status_line
from render.geometry import board_geometry
from render.leiff import (
    draw_card,
    hand_layout,
    special_subtitle,
    table_layout,
)
from render.leiff.words import drinks_text, round_line, table_status
from render.themes import get_theme
from tests.render.english_pictures import _marked_views

NAMES = ("Ann", "Bob")


def _game_over(name: str, seed: int = 3) -> BoardState:
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new(size=game.sizes[0])
    while state.outcome is None:
        state = state.play(rng.choice(state.legal_moves()))
    return state


def _texts(state: BoardState, language: str) -> list[str]:
    layout = header_layout(state, NAMES, get_theme("classic"), 480, language)
    return [item.text for item in layout.texts]


def test_a_german_board_header_speaks_german() -> None:
    state = get_game("lefe").new(size=6).play("f6")
    german = " ".join(_texts(state, "de"))
    assert "Zuletzt: f6." in german
    assert "Bob (Hell) ist am Zug oder tauscht die Farben." in german
    assert "Lefe · Größe 6 · Zug 2" in german
    assert "Dunkel" in german and "Hell" in german
    english = " ".join(_texts(state, "en"))
    assert "Bob (light) to move, or swap." in english
    for word in ("Last", "move", "side", "dark", "light"):
        assert word not in german


@pytest.mark.parametrize("name", BOARD_GAMES)
def test_a_finished_game_reads_in_german_to_the_end(name: str) -> None:
    state = _game_over(name)
    line = status_line(state, NAMES, "de")
    assert "gewinnt" in line or "Unentschieden" in line, line
    for word in ("wins", "draw", "Draw", "placement", "passed", "Last"):
        assert word not in line, line
    assert status_line(state, NAMES, "en") != line


def test_score_lines_in_german() -> None:
    assert (
        score_line(_game_over("les"), "de").count("Loch")
        + score_line(_game_over("les"), "de").count("Löcher")
        == 2
    )
    lublache = score_line(_game_over("lublache"), "de")
    assert "besitzt" in lublache and "Schleife" in lublache
    lefe_start = get_game("lefe").new(size=6)
    assert score_line(lefe_start, "de") == "Dunkel 0 (keine Bäume) · Hell 0 (keine Bäume)"
    assert score_line(lefe_start, "en") == "dark 0 (no trees) · light 0 (no trees)"


def test_les_set_up_and_choice_in_german() -> None:
    state = get_game("les").new(size=5)
    assert status_line(state, NAMES, "de") == "Aufbau: Ann setzt Stein 1 von 4 (Schwarz)."
    texts = _texts(state, "de")
    assert texts.count("Farbe noch offen") == 2
    assert status_line(state, ("", ""), "de").startswith("Aufbau: Spieler A setzt")


def _text_mask(state: BoardState, width: int) -> Image.Image:
    """White where either language's header text is drawn (its boxes, a pixel larger)."""
    geo = board_geometry(state.size, width, state.game.name == "les")
    mask = Image.new("L", (width, geo.height), 0)
    draw = ImageDraw.Draw(mask)
    for language in ("en", "de"):
        for item in header_layout(state, NAMES, get_theme("classic"), width, language).texts:
            if item.text:
                box = item.font.getbbox(item.text, anchor=item.anchor)
                x, y = item.xy
                draw.rectangle(
                    (x + box[0] - 1, y + box[1] - 1, x + box[2] + 1, y + box[3] + 1), fill=255
                )
    return mask


@pytest.mark.parametrize("name", BOARD_GAMES)
def test_german_and_english_boards_differ_exactly_where_text_is(name: str) -> None:
    for state in (get_game(name).new(size=get_game(name).sizes[0]), _game_over(name)):
        english = render_board(state, names=NAMES)
        german = render_board(state, names=NAMES, language="de")
        changed = ImageChops.difference(english, german).convert("L").point(lambda v: 255 * (v > 0))
        assert changed.getbbox() is not None  # the words did change ...
        outside = ImageChops.subtract(changed, _text_mask(state, 480))
        assert outside.getbbox() is None  # ... and nothing else did: board, stones, marks
        geo = board_geometry(state.size, 480, name == "les")
        assert changed.getbbox()[3] <= geo.header_height


def test_a_german_leiff_status_speaks_to_you_and_about_others() -> None:
    labels = {label: view for label, view, _ in _marked_views()}
    names = ["Anna", "Bärbel", "", "Jan"]
    hold = labels["hold"]
    assert table_status(hold, names, 1, "de") == (
        "Tausch die gezogene Karte gegen eine Handkarte oder wirf sie ab."
    )
    assert table_status(hold, names, None, "de") == (
        "Bärbel tauscht die gezogene Karte gegen eine Handkarte oder wirft sie ab."
    )
    assert table_status(labels["effect"], names, None, "de") == (
        "Bärbel nutzt den Effekt von Klatschtante oder verzichtet darauf."
    )
    assert table_status(labels["over"], names, None, "de").startswith(
        "Spielende: Bärbel und Jan gewinnen."
    )
    assert table_status(labels["nobody"], names, None, "de").startswith(
        "Spielende: niemand gewinnt."
    )
    line = round_line(labels["hold"], "de")
    assert line == "Runde 1 · bis 50 Punkte · Teams · Special Karten · Trinkregeln"
    drinks = {"shots": 1, "sips": 3, "hand_out": 1}
    assert drinks_text(drinks, "de") == "trinkt: 1 Shot, 3 Schlücke, verteilt 1 Schluck"
    assert drinks_text(drinks, "en") == "drinks: 1 shot, 3 sips, hands out 1"


def test_german_and_english_leiff_pictures_show_the_same_cards() -> None:
    for label, view, names in _marked_views():
        for seat in (0, 1):
            english = render_hand(view, seat, names=names)
            german = render_hand(view, seat, names=names, language="de")
            assert ImageChops.difference(english, german).getbbox() is not None, label
            layout = hand_layout(view, seat, 480)
            labels = [*view["hands"][seat]]
            boxes = [*layout.slots]
            if layout.discard is not None:  # shown while the seat holds a card or may take it
                labels.append(view["discard_top"])
                boxes.append(layout.discard)
            if layout.held:
                labels.append(view["holding"]["card"])
                boxes.append(layout.held)
            for card, box in zip(labels, boxes, strict=True):
                x0, y0, x1, y1 = (round(v) for v in box)
                if special_subtitle(str(card)) and x1 - x0 >= 70:
                    y1 = y0 + round((y1 - y0) * 0.55)  # above the subtitle, the same
                crop = (x0, y0, x1, y1)
                assert (
                    ImageChops.difference(english.crop(crop), german.crop(crop)).getbbox() is None
                ), (label, card)
        english_table = render_table(view, names=names)
        german_table = render_table(view, names=names, language="de")
        # the seats' cards are the same (too narrow for subtitles: the legend says those),
        # where each language's layout puts them (a seat's German lines may need one more)
        english_seats = table_layout(view, 480, names, "en").seats
        german_seats = table_layout(view, 480, names, "de").seats
        for english_block, german_block in zip(english_seats, german_seats, strict=True):
            for english_box, german_box in zip(
                english_block.cards, german_block.cards, strict=True
            ):
                english_card = english_table.crop(tuple(round(v) for v in english_box))
                german_card = german_table.crop(tuple(round(v) for v in german_box))
                assert ImageChops.difference(english_card, german_card).getbbox() is None, label


def test_special_cards_keep_their_german_name_with_a_subtitle_in_each_language() -> None:
    assert special_subtitle("philosopher", "en") == "reorders a player's hand"
    assert special_subtitle("philosopher", "de") == "verdreht die Hand eines Spielers"
    for label in ("philosopher", "waiter", "gossip", "belle", "magician"):
        assert special_subtitle(label, "en") != special_subtitle(label, "de")
    assert special_subtitle("7", "de") is None
    # the slot machine's says what it does too (in the table's legend)
    assert special_subtitle("slot", "en") != special_subtitle("slot", "de")


def test_a_special_card_differs_between_languages_only_in_its_subtitle() -> None:
    english = Image.new("RGB", (120, 168))
    german = Image.new("RGB", (120, 168))
    theme = get_theme("classic")
    box = (5.0, 5.0, 115.0, 159.0)
    draw_card(english, box, "belle", theme, "en")
    draw_card(german, box, "belle", theme, "de")
    changed = ImageChops.difference(english, german).getbbox()
    assert changed is not None
    # the star, the German name and the corner are the same; only the lines below change
    assert changed[1] > 5 + 154 * 0.55
    narrow_en, narrow_de = Image.new("RGB", (40, 60)), Image.new("RGB", (40, 60))
    draw_card(narrow_en, (0, 0, 40, 56), "belle", theme, "en")
    draw_card(narrow_de, (0, 0, 40, 56), "belle", theme, "de")
    assert ImageChops.difference(narrow_en, narrow_de).getbbox() is None  # no room: name only


def test_a_replay_speaks_the_reader_s_language() -> None:
    state = get_game("lefe").new(size=5)
    for move in ("c3", "swap", "d4"):
        state = state.play(move)
    states = list(state.history())
    english = replay_gif(states, names=NAMES)
    assert replay_gif(states, names=NAMES, language="en") == english
    german = replay_gif(states, names=NAMES, language="de")
    assert german != english
    first = Image.open(io.BytesIO(german))
    first.seek(len(states) - 1)
    last_german = first.convert("RGB")
    in_german = render_board(state, names=NAMES, width=400, language="de", replay=True)
    in_english = render_board(state, names=NAMES, width=400, replay=True)
    # the last frame is the German replay picture of the last position (up to the GIF's
    # palette)

    def distance(one: Image.Image, other: Image.Image) -> int:
        return sum(ImageChops.difference(one, other).convert("L").histogram()[24:])

    assert last_german.size == in_german.size
    assert distance(last_german, in_german) < distance(last_german, in_english) / 4
