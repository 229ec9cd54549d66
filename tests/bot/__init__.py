"""End-to-end tests of the Discord bot through the local simulator (real discord.py client)."""
