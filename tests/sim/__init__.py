"""Tests of the local Discord simulator, driven through the real discord.py client."""
