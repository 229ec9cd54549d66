"""``/rules``: a short summary of a game and an example picture of it."""

from __future__ import annotations

import random
from typing import Any

from bot.common.pictures import Painter
from engine import get_game


async def rules_card(game: str, painter: Painter) -> tuple[str, bytes, str]:
    """A short rules summary and a rendered example position of ``game``."""
    rules: Any = get_game(game)
    summary = str(getattr(rules, "summary", "") or "")
    if game == "leiff":
        state = rules.new(players=3, seed=11, options={})
        view = state.view(0)
        # Example players: the picture's title reads "Ann's hand".
        image = await painter.hand_png(view, 0, ["Ann", "Ben", "Cleo"])
        return f"**Leiff**\n{summary}", image, "leiff-example.png"
    size = min(rules.sizes)
    state = rules.new(size=size)
    chooser = random.Random(7)  # a fixed example, the same every time
    for _ in range(12):
        moves = state.legal_moves()
        if state.outcome is not None or not moves:
            break
        state = state.play(chooser.choice(sorted(moves)))
    image = await painter.board_png(state, ["Alice", "Bob"])
    return (
        f"**{rules.title}**\n{summary}\nExample position after a few moves:",
        image,
        f"{game}-example.png",
    )
