"""Tests of the Lublache engine (RULINGS §6)."""
