"""``/games`` in a DM (issue 35): the caller's matches on every server, theirs alone, each
with whose turn it is and a link to it; the commands are synced globally here, as in
production, so that they exist in DMs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.app import LeafBot
from bot.settings import Settings
from i18n import translate


async def test_games_in_a_dm_lists_my_matches_on_every_server(
    sim: Any, world: Any, language: str, database: Path, clock: Any
) -> None:
    def factory() -> LeafBot:
        settings = Settings(token="simulated", database_path=database, render_workers=0)
        return LeafBot(
            settings, service_options={"clock": clock, "seed_source": lambda: 7}, tick_seconds=None
        )

    handle = await sim.start_bot(factory)
    try:
        service = handle.client.service
        alice, bob, carol = world.alice, world.bob, world.carol
        other_guild = world.guild.id + 1  # a server this process does not see: ids only
        mine = []
        for guild, channel, opponent in (
            (world.guild.id, world.channel.id, bob),
            (other_guild, 77, carol),
        ):
            offer = await service.challenge(
                guild, channel, alice.id, "lefe", opponent.id, time_control="move:259200"
            )
            assert offer.challenge_id is not None
            started = await service.accept_challenge(offer.challenge_id, opponent.id)
            mine.append(started.match_id)
            await service.repo.set_message(started.match_id, "board", 5000 + started.match_id)
        clock.advance(60)
        offer = await service.challenge(world.guild.id, world.channel.id, bob.id, "dalen", carol.id)
        assert offer.challenge_id is not None
        theirs = (await service.accept_challenge(offer.challenge_id, carol.id)).match_id

        answer = await sim.slash(alice, "games", channel=sim.dm_channel(alice))
        text = answer.text
        lines = text.splitlines()
        assert lines[0] == translate(language, "bot.games.title_everywhere")
        assert len(lines) == 3 and f"#{theirs} " not in text
        your_turn = translate(language, "bot.games.your_turn")
        three_days = {"en": "3 days per move", "de": "3 Tage pro Zug"}[language]
        for match_id, guild, channel in (
            (mine[0], world.guild.id, world.channel.id),
            (mine[1], other_guild, 77),
        ):
            (line,) = [line for line in lines if f"#{match_id} " in line]
            assert line.startswith("★ **Lefe**") and your_turn in line and three_days in line
            url = f"https://discord.com/channels/{guild}/{channel}/{5000 + match_id}"
            assert f"]({url})" in line
        # Carol, with nothing to do: her match waits for Bob
        carol_sees = (await sim.slash(carol, "mygames", channel=sim.dm_channel(carol))).text
        bob_to_move = translate(language, "bot.games.turn_of", who="bob")
        assert f"#{mine[1]} " in carol_sees and f"#{theirs} " in carol_sees
        assert bob_to_move in carol_sees and your_turn not in carol_sees
        sim.assert_no_bot_errors()
    finally:
        await handle.stop()
