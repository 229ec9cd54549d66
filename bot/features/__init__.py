"""The Discord layer's features, after python-discord/bot's cogs: each owns its slash
commands, its buttons, menus and forms, and the messages it builds.

- :mod:`bot.features.play`: ``/play`` and ``/board``, for every kind of game;
- :mod:`bot.features.board_games`: challenges, ``/move``, ``/resign``, board messages;
- :mod:`bot.features.leiff_tables`: lobbies, tables, hands, the rule form;
- :mod:`bot.features.information`: ``/games``, ``/replay``, ``/rules``, ``/leaderboard``,
  ``/stats``;
- :mod:`bot.features.settings`: ``/settings`` (the server's), and the place for members'
  own preferences.

Features use the shared helpers of :mod:`bot.common` (below them) and never each other:
the client (:mod:`bot.app`) builds them and hands ``/play`` the feature of each kind of
game.
"""
