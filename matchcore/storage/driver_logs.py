"""The database drivers' loggers, capped at WARNING wherever the repository is opened.

aiosqlite's DEBUG lines carry every call it runs with its arguments: each statement with
its parameters, that is whole Leiff states (every hand, the draw pile, the seed). A log may
be pasted into a bug report, so these loggers never pass on anything below WARNING. The
cap is put on by the repository when it opens its connection, not by one entry point's
logging set-up: a script or a second front end that embeds the service and turns on DEBUG
is covered too (issue 31). ``bot.app.configure_logging`` may make them quieter still.
"""

from __future__ import annotations

import logging

# Libraries that see stored state. asyncpg logs no statements today (its pool warns of
# broken connections only); it is capped all the same, so that an upgrade cannot start to.
STATE_LOGGERS = ("aiosqlite", "asyncpg")


class _BelowWarning(logging.Filter):
    """Drops records under WARNING: holds even if somebody later sets the logger's level
    to DEBUG by hand."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= logging.WARNING


_CAP = _BelowWarning()


def cap_driver_logs() -> None:
    """Keep the drivers' loggers (and those under them) from passing on anything below
    WARNING. Idempotent; a level set higher (ERROR) is kept."""
    for logger in _driver_loggers():
        if logger.level < logging.WARNING:  # NOTSET included: it would inherit DEBUG
            logger.setLevel(logging.WARNING)
        if _CAP not in logger.filters:
            logger.addFilter(_CAP)


def _driver_loggers() -> list[logging.Logger]:
    """The drivers' loggers and every one under them that exists now (e.g. asyncpg.pool);
    one created later inherits the level."""
    found = [logging.getLogger(name) for name in STATE_LOGGERS]
    for name, logger in list(logging.Logger.manager.loggerDict.items()):
        if isinstance(logger, logging.Logger) and name.startswith(
            tuple(f"{driver}." for driver in STATE_LOGGERS)
        ):
            found.append(logger)
    return found
