"""Test suite (a package so that helpers such as ``tests.discord_sim`` can be imported)."""
