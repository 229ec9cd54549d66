"""A finished Leiff table's replay as an animated GIF: one frame a round, each the table
picture of the channel's view at that round's end (:func:`render.leiff.table.render_table`),
the pages of the table replay one after the other.

It draws only the views it is given. The match core hands out a finished table's round
ends alone, each the channel's view (``view(None)``: every hand lies open then, as the
table saw it when the round was scored), never a player's own view and never a running
game's (``matchcore.service.leiff_replay``), so the GIF shows nothing the replay's pages do
not. The frames share the palette of every Leiff picture of the theme and width
(``leiff_palette``), so they need no colour table of their own; a shorter table is laid on
the table's colour at the top of the tallest.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from engine.leiff.views import LeiffView
from i18n import DEFAULT_LANGUAGE
from render.geometry import check_width
from render.leiff.frame import leiff_palette
from render.leiff.table import render_table
from render.themes import get_theme

# A round's table is read longer than a board's move: its hands, its scores
ROUND_MS = 2500
LAST_ROUND_MS = 6000


def table_replay_gif(
    views: Sequence[LeiffView],
    *,
    names: Sequence[str],
    theme: str = "classic",
    width: int = 480,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    """An animated GIF of a table's round ends (``TableReplay.rounds``), one frame each,
    the last shown longest; its words in the reader's ``language``. Loops for ever."""
    if not views:
        raise ValueError("a replay needs at least one round")
    check_width(width)
    pictures = [
        render_table(view, names=list(names), theme=theme, width=width, language=language)
        for view in views
    ]
    height = max(picture.height for picture in pictures)
    paper = get_theme(theme).card("table")
    palette = leiff_palette(theme, width)
    frames = []
    for picture in pictures:
        canvas = Image.new("RGB", (width, height), paper)
        canvas.paste(picture, (0, 0))
        frames.append(canvas.quantize(palette=palette, dither=Image.Dither.NONE))
    out = io.BytesIO()
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=[ROUND_MS] * (len(frames) - 1) + [LAST_ROUND_MS],
        loop=0,
        disposal=1,
    )
    return out.getvalue()
