"""Computer opponents: a search player for the board games and Leiff bot seats.

Pure Python, no Discord, no I/O. The board-game search uses only the engine's public
surface, and what it knows of a game (evaluator, move ordering, level tuning) comes from
the game's spec (``state.game.spec.ai``); Leiff bots decide only from a seat's view.
Entry points:

* :func:`engine.ai.levels.choose_move` (``state, level, seed=...``) for a board-game move,
  run off the event loop through :mod:`matchcore.ai_pool`;
* :func:`engine.ai.leiff_bot.bot_action` (``state, seat``) for a Leiff bot seat, cheap
  enough to call inline.

The design and the figures are in ``docs/ai.md`` and ``docs/benchmarks/ai.md``.
"""
