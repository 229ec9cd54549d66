"""One word for a board's size everywhere a player reads it, in English ("size 5") and in
German ("Größe 5"): the challenge, the match's first line, the board message's header, the
picture's header, a refused size and the /play option; never "5-board", "board 5" or
"side 5" ("Brett 5", "5er-Brett")."""

from __future__ import annotations

import re

from engine import get_game
from i18n import translate
from render.board import header_layout
from render.themes import get_theme

WORD = {"en": "size 5", "de": "Größe 5"}
OTHER_WORDS = re.compile(r"\d-board|board \d|side \d|Brett \d|\der-Brett|Seitenlänge")
CONTROL = {"en": "1 day per move", "de": "1 Tag pro Zug"}


async def test_a_match_s_size_reads_the_same_everywhere(sim, world, language, bot):
    alice, bob = world.alice, world.bob
    word = WORD[language]
    offer = (await sim.slash(alice, "play", game="lefe", opponent=bob, size=5)).last_message
    assert f"Lefe, {word}" in offer.text, offer.text
    accept = translate(language, "bot.challenge.button.accept")
    board = (await sim.click(bob, offer, accept)).last_message
    header = board.text.splitlines()[0]
    # the size, then the match's time control (the server's default: a day a move)
    assert f" · {word} · " in header, header
    assert header.endswith(CONTROL[language]), header
    assert f"Lefe, {word}." in board.text, board.text
    refused = await sim.slash(alice, "play", game="dalen", opponent=bob, size=11)
    sizes = {
        "en": "sizes 5, 6, 7, 8 or 9, not 11",
        "de": "in den Größen 5, 6, 7, 8 oder 9, nicht 11",
    }
    assert refused.ephemeral and sizes[language] in refused.text, refused.text
    for text in (offer.text, board.text, refused.text):
        assert not OTHER_WORDS.search(text), text
    # the picture's header says it with the same word
    state = get_game("lefe").new(size=5)
    layout = header_layout(state, ("alice", "bob"), get_theme("classic"), 360, language)
    words = " ".join(text.text for text in layout.texts)
    assert f"Lefe · {word} · " in words and not OTHER_WORDS.search(words), words
    # and so does /play's option
    option = {"en": "size", "de": "größe"}[language]
    assert option in translate(language, "command.play.size").lower()
    sim.assert_no_bot_errors()
