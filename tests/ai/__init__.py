"""Tests of the AI opponents: board-game search, levels, worker pool and Leiff bot seats."""
