"""The match core: the match service (:mod:`matchcore.service`), its storage
(:mod:`matchcore.storage`) and the worker pool of the board-game AI (:mod:`matchcore.ai_pool`).

It stands on the engine alone and knows no front end: the Discord layer (``bot/``) is one
client of it, the web table another. Nothing here imports Discord, the web server, the
pictures or the catalogues (``tests/test_import_graph.py``).
"""
