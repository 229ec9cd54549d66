"""Another process on the web table's database: it plays one move and exits.

Usage: ``python -m tests.web.outbox_child DATABASE_URL MATCH_ID USER_ID MOVE VERSION``.
Its own service (its own locks, its own cache, no listener of the table) commits the
move; only the database can tell the table's process about it.
"""

from __future__ import annotations

import asyncio
import sys

from matchcore.service import MatchService
from matchcore.storage import open_repository
from web.local import service_choices


async def main(url: str, match_id: int, user_id: int, move: str, version: int) -> None:
    repo = await open_repository(url)
    try:
        service = MatchService(repo, choices=service_choices())
        await service.play(match_id, user_id, move, version)
        await service.close()
    finally:
        await repo.close()


if __name__ == "__main__":
    url, match_id, user_id, move, version = sys.argv[1:]
    asyncio.run(main(url, int(match_id), int(user_id), move, int(version)))
