"""Search-side models of the board games' positions, one module per game.

Each is a leaner copy of the engine's position for the search alone (the seam:
:mod:`engine.ai.model`), checked against the engine by differential tests.
"""
