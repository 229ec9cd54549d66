"""The service tests' fixtures (a SQLite file, a manual clock, a started service)."""

from tests.service.conftest import clock, db_path, service

__all__ = ["clock", "db_path", "service"]
