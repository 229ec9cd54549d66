"""The Les opening as the channel reads it, in English and in German: a set-up line names
the colour of the stone laid (black, white, black, white, whoever lays it), and nobody is
said to play a colour before the side is chosen (the picture says "colour not chosen yet"
then too)."""

from __future__ import annotations

import re

from i18n import translate
from tests.bot.helpers import stored_state

SETUP_COLOURS = ("black", "white", "black", "white")


async def start_match(sim, challenger, opponent, game: str, language: str):
    """``challenger`` challenges ``opponent`` (size 5), who accepts: the match and its board."""
    offer = (await sim.slash(challenger, "play", game=game, opponent=opponent, size=5)).last_message
    accept = translate(language, "bot.challenge.button.accept")
    board = (await sim.click(opponent, offer, accept)).last_message
    return int(re.search(r"#(\d+)", board.text).group(1)), board


def colour_words(language: str) -> list[str]:
    return [f"({translate(language, f'colour.{c}')})" for c in ("black", "white")]


async def test_set_up_lines_name_the_stone_and_no_player_s_colour(sim, world, language, bot):
    carol, alice = world.carol, world.alice
    match_id, board = await start_match(sim, carol, alice, "les", language)
    turn = translate(language, "service.say.board_turn_plain", user=f"<@{carol.id}>")
    first_hint = translate(language, "les.setup.hint", step=1, stones=4, colour="black")
    assert f"{turn} {first_hint}" in board.text
    for step, colour in enumerate(SETUP_COLOURS, start=1):
        state = await stored_state(bot, match_id)
        cell = sorted(state.legal_moves())[0]
        board = (await sim.slash(carol, "move", cell=cell)).last_message
        lines = board.text
        laid = translate(
            language, "service.say.opening_stone", user=f"<@{carol.id}>", colour=colour, move=cell
        )
        assert laid in lines, lines
        # the stone laid is the stone the board shows there
        assert (await stored_state(bot, match_id)).stone_at(cell) == colour
        if step < 4:
            hint = translate(
                language, "les.setup.hint", step=step + 1, stones=4, colour=SETUP_COLOURS[step]
            )
            assert f"{turn} {hint}" in lines, lines
    # The side choice: Alice is to move and has no colour yet; nothing says she has one.
    chooser = translate(language, "service.say.board_turn_plain", user=f"<@{alice.id}>")
    assert f"{chooser} {translate(language, 'les.choose.hint')}" in lines, lines
    about_alice = [line for line in lines.splitlines() if f"<@{alice.id}>" in line]
    assert about_alice and not any(
        word in line for line in about_alice for word in colour_words(language)
    ), lines
    # /board shows the match again: its turn line names no colour either
    shown = (await sim.slash(alice, "board")).last_message
    to_move = translate(language, "bot.board.to_move", who="**alice**")
    assert to_move in shown.text, shown.text
    assert not any(word in shown.text for word in colour_words(language)), shown.text
    seats = (await bot.client.service.get_match(match_id)).seats
    assert [s.colour for s in seats] == [None, None]

    # Alice chooses white: from now on each player has a colour, and the lines say it.
    chosen = (
        await sim.click(alice, shown, translate(language, "bot.board.button.white"))
    ).last_message
    black = translate(language, "colour.black")
    # the choice is said with the colour in the reader's words ("wählt Weiß", not the
    # move's code "white")
    said = translate(
        language, "les.move.side.announce", player=f"<@{alice.id}>", colour="white", move="white"
    )
    assert said in chosen.text and translate(language, "colour.white") in said
    if language == "de":
        assert "white" not in chosen.text, chosen.text
    assert (
        translate(language, "service.say.board_turn", user=f"<@{carol.id}>", colour="black")
        in chosen.text
    ), chosen.text
    assert f"({black})" in chosen.text
    seats = (await bot.client.service.get_match(match_id)).seats
    assert [s.colour for s in seats] == ["black", "white"]
    sim.assert_no_bot_errors()
