"""Pictures of the games, as pure functions from engine states and views to Pillow images.

The engine never imports this package. Everything the bot needs is exported here:

- :func:`render_board` — a board game state (Lefe, Dalen, Lublache, Les) as a picture;
- :func:`render_table` / :func:`render_hand` — Leiff's table (spectator view) and one
  player's hand (that seat's view); :func:`table_png` / :func:`hand_png` — their PNG
  files, drawing only the strips earlier pictures did not have;
- :func:`replay_gif` — a whole board game as an animated GIF; :func:`table_replay_gif` — a
  finished Leiff table's round ends (the channel's views) as one;
- :func:`png_bytes` — deterministic PNG bytes of a picture;
- :func:`board_png` — a reply's board picture as PNG bytes, drawn straight to the
  palette (the file of ``png_bytes(render_board(...))``, faster);
- :func:`render_async` / :func:`shutdown_renderer` — run any of these off the event loop;
- :data:`THEMES` / :func:`list_themes` — the colour themes (data in ``data/themes``).
"""

from __future__ import annotations

from render.board import render_board
from render.encode import png_bytes
from render.indexed import board_png
from render.leiff import hand_png, render_hand, render_table, table_png
from render.leiff.replay import table_replay_gif
from render.offload import render_async, shutdown_renderer
from render.replay import replay_gif
from render.themes import THEMES, list_themes

__all__ = [
    "THEMES",
    "board_png",
    "hand_png",
    "list_themes",
    "png_bytes",
    "render_async",
    "render_board",
    "render_hand",
    "render_table",
    "replay_gif",
    "shutdown_renderer",
    "table_png",
    "table_replay_gif",
]
