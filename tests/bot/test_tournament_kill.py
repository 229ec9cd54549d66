"""kill -9 in the middle of a tournament loses nothing and doubles nothing: one bot process
(``tests.bot.shard_child``, its clock ticking every 0.25 s) on SQLite, and again on
PostgreSQL, runs a round robin of 4, and the test kills it with SIGKILL a random instant
after each game's resignation (while the process records the game, pairs the next round,
posts its boards, lines and standings) and starts it again. The members play in the
event's thread with ``/move`` and ``/resign``. At the end: everyone met everyone once,
every game a finished match; no board of any game was posted twice in the thread and the
newest shows the stored version; one standings message in the thread, one final
standings in the channel, recorded."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from discord_sim import DiscordSimulator
from matchcore.storage import open_repository
from tests.bot.shard_child import __name__ as _child  # noqa: F401  (the process it runs)
from tests.bot.test_kill_delivery import KILL_WITHIN, channel_versions, database, resign
from tests.bot.test_shards import BotProcess, Game

pytestmark = pytest.mark.slow


async def until(check: Any, what: str, timeout: float = 60.0) -> Any:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        found = await check()
        if found:
            return found
        assert asyncio.get_running_loop().time() < deadline, what
        await asyncio.sleep(0.1)


def is_standings(message: Any) -> bool:
    return bool(message.attachments) and message.attachments[0].filename.startswith("standings-")


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_kills_in_the_middle_of_a_round_robin_lose_and_double_nothing(
    kind: str, tmp_path: Path
) -> None:
    rng = random.Random(38)
    (tmp_path / "clock").write_text("0")
    async with database(kind, tmp_path) as url, DiscordSimulator(interaction_timeout=20) as sim:
        repo = await open_repository(url)  # migrates before the bot starts
        process = BotProcess(sim, url, 0, tmp_path, shards=1)
        try:
            guild = sim.add_guild("Kills", shard=(0, 1), channels=("games",))
            (channel,) = guild.channels
            admin = sim.add_member(guild, "admin", manage_guild=True)
            players = [sim.add_member(guild, f"player{n}") for n in range(4)]
            users = {p.id: p for p in players}
            await process.start()
            game = Game(sim, repo)
            made = await sim.slash(
                admin,
                "tournament create",
                channel=channel,
                game="lefe",
                format="round_robin",
                size=5,
                # unrated: a rated game is mined for puzzles in the AI pool's worker
                # processes, which a SIGKILL of the bot leaves behind, orphaned
                rated=False,
            )
            announcement = made.last_message
            button = next(b for b in announcement.buttons if b.custom_id)
            tid = int(str(button.custom_id).split("|")[2])
            # the command is answered first, the thread opened after (a bot in another
            # process: the test sees only its answers): the games play there once it is
            thread = await until(lambda: _thread(sim, announcement), "the event has no thread", 20)

            async def thread_recorded() -> bool:
                record = await repo.get_tournament(tid)
                return record is not None and record.thread_id == thread.id

            await until(thread_recorded, "the thread was not recorded", 20)
            for player in players:
                await sim.click(player, announcement, f"lb|n|{tid}|0|join")
            await sim.slash(admin, "tournament start", channel=channel, tournament=tid)

            async def running() -> list[Any]:
                found = await repo.tournament_matches(tid)
                return [m for m in found.values() if m.status == "running"]

            kills = 0
            for _ in range(3):  # the three rounds
                for match in await until(running, "the next round was not paired"):
                    seats = [users[s.user_id] for s in sorted(match.seats, key=lambda s: s.seat)]
                    for _ in range(2):
                        await game.board_move(match.id, seats, thread, rng)
                    await resign(sim, game, match.id, rng.choice(seats), thread)
                    await asyncio.sleep(rng.uniform(0.0, KILL_WITHIN))
                    await process.kill()
                    await process.start()
                    kills += 1

            async def over() -> bool:
                record = await repo.get_tournament(tid)
                assert record is not None
                return (
                    record.status == "finished"
                    and "final" in record.messages
                    and record.messages.get("shown", 0) >= record.version
                    # the standings picture is redrawn after its step (a start redraws it
                    # when a kill came first): it shows the end, marked version + 1
                    and record.messages.get("standings_at", 0) > record.version
                    and not await repo.undelivered_matches()
                )

            await until(over, "the tournament did not end and show it all")
            await asyncio.sleep(1.0)
            await process.stop()

            matches = await repo.tournament_matches(tid)
            assert kills == 6 and len(matches) == 6
            assert all(m.status == "finished" for m in matches.values())
            pairs = sorted(sorted(s.user_id for s in m.seats) for m in matches.values())
            assert pairs == sorted(sorted(p) for p in itertools.combinations(users, 2))
            for match in matches.values():
                shown = channel_versions(thread, match.id)
                twice = [v for v, n in Counter(shown).items() if n > 1]
                assert not twice, f"match {match.id}: versions posted twice: {twice}"
                assert shown and shown[-1] == match.version, (shown, match.version)
                assert channel_versions(channel, match.id) == []
            record = await repo.get_tournament(tid)
            assert record is not None
            standings = [m for m in thread.messages if is_standings(m)]
            assert [m.id for m in standings] == [record.messages["standings"]]
            finals = [m for m in channel.messages if is_standings(m)]
            assert [m.id for m in finals] == [record.messages["final"]]
        except BaseException:
            lines = process.log_text().splitlines()
            print("--- bot ---", *lines[-80:], sep="\n")
            raise
        finally:
            await process.stop()
            await repo.close()


async def _thread(sim: DiscordSimulator, announcement: Any) -> Any:
    return sim.state.messages[announcement.id].thread
