"""Tests of the match service and its SQLite storage (real database files, no mocks)."""
