"""``/rules``: a short summary of a game and an example picture of it."""

from __future__ import annotations

import random
from typing import Any

from bot.common.games import game_title
from bot.common.pictures import Painter
from engine import get_game, get_spec
from i18n import translate


async def rules_card(language: str, game: str, painter: Painter) -> tuple[str, bytes, str]:
    """A short rules summary and a rendered example position of ``game``, in ``language``."""
    rules: Any = get_game(game)
    summary = translate(language, get_spec(game).summary.code)
    if game == "leiff":
        state = rules.new(players=3, seed=11, options={})
        view = state.view(0)
        # Example players: the picture's title reads "Ann's hand".
        image = await painter.hand_png(view, 0, ["Ann", "Ben", "Cleo"], language)
        return f"**Leiff**\n{summary}", image, "leiff-example.png"
    size = min(rules.sizes)
    state = rules.new(size=size)
    chooser = random.Random(7)  # a fixed example, the same every time
    for _ in range(12):
        moves = state.legal_moves()
        if state.outcome is not None or not moves:
            break
        state = state.play(chooser.choice(sorted(moves)))
    image = await painter.board_png(state, ["Alice", "Bob"], language)
    example = translate(language, "bot.rules.example")
    return (
        f"**{game_title(game)}**\n{summary}\n{example}",
        image,
        f"{game}-example.png",
    )
