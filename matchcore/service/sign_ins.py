"""Sign-ins: a front end's sessions (the web table's signed-in browsers), kept in the
database so that they survive a restart and every process on the database knows them.

The front end makes the token and says what the session holds (plain JSON: a name, a
locale, the Activity it was issued for); the core stores a digest of the token with it,
and forgets it when it expires.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from matchcore.records import SignInRecord
from matchcore.storage import Repository


class SignIns:
    """Store, find and forget sign-ins; read matches' versions for a front end's poll
    (``MatchService.sign_ins``: the web table's ``Sessions`` hold it as their store)."""

    def __init__(self, repo: Repository, clock: Callable[[], float]) -> None:
        self.repo = repo
        self.clock = clock

    async def store_sign_in(
        self, token: str, user_id: int, data: Mapping[str, object], lifetime: float | None
    ) -> None:
        now = self.clock()
        expires = None if lifetime is None else now + lifetime
        await self.repo.store_sign_in(token, user_id, data, expires, now)

    async def find_sign_in(self, token: str) -> SignInRecord | None:
        return await self.repo.find_sign_in(token, self.clock())

    async def drop_sign_in(self, token: str) -> None:
        await self.repo.drop_sign_in(token)

    async def prune_sign_ins(self) -> int:
        return await self.repo.prune_sign_ins(self.clock())

    async def match_versions(self, match_ids: Iterable[int]) -> dict[int, int]:
        return await self.repo.match_versions(match_ids)
