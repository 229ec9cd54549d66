"""Leaderboard, stats, replays and the list of games, after a few finished matches (the
rules are the tutorial: tests/bot/test_learning.py)."""

from __future__ import annotations

import io
import re
from dataclasses import replace

import pytest
from PIL import Image

from bot.common.record_words import places_record
from bot.features.leiff_tables.messages import LeiffMessages
from engine.leiff import CALL_LEIFF
from i18n import ordinal, translate, translate_plural
from matchcore.service.results import LeaderboardRow
from tests.bot.helpers import decode_png, pinged, resign, start_board_match
from tests.bot.leiff_driver import LeiffTable
from tests.bot.test_leiff import open_table


async def finish_by_resignation(sim, winner, loser, clock) -> int:
    clock.advance(60)
    match_id, _ = await start_board_match(sim, winner, loser, "dalen", 5)
    await sim.slash(winner, "move", cell="e5")
    await sim.slash(loser, "move", cell="a1")
    await resign(sim, loser)
    return match_id


# Several games in one channel: the point is what the commands show, not the limits.
@pytest.mark.compressed_rate_limits
async def test_leaderboard_stats_replay_and_games(sim, world, bot, clock):
    first = await finish_by_resignation(sim, world.alice, world.bob, clock)
    await finish_by_resignation(sim, world.alice, world.bob, clock)
    await finish_by_resignation(sim, world.bob, world.carol, clock)

    board = await sim.slash(world.carol, "leaderboard", game="dalen")
    assert not board.ephemeral and pinged(board.last_message) == set()
    lines = board.text.splitlines()
    assert lines[0] == "**Dalen leaderboard** · Daily"  # the default: a day a move
    assert lines[1].startswith("1. alice") and "2W 0L" in lines[1]
    assert [line.split(".")[0] for line in lines[1:]] == ["1", "2", "3"]
    assert (await sim.slash(world.carol, "leaderboard", game="les")).text.endswith(
        "Nobody has finished a rated game yet."
    )

    stats = await sim.slash(world.carol, "stats", member=world.bob)
    assert "Statistics of bob" in stats.text and "Dalen:" in stats.text
    assert "1W 2L 0D" in stats.text and pinged(stats.last_message) == set()
    own = await sim.slash(world.carol, "stats")
    assert "0W 1L" in own.text
    # Counted in words a player reads: "1 game", never "1 games" or "best streak 0".
    assert "Dalen: rating" in own.text and "1 game: 0W 1L 0D; lost the last game." in own.text
    assert "3 games: 1W 2L 0D; won the last game." in stats.text
    assert "1 games" not in own.text + stats.text + board.text and "streak 0" not in own.text
    assert lines[3].endswith("(1 game: 0W 1L 0D)")

    replay = await sim.slash(world.bob, "replay", match=first)
    assert replay.ephemeral
    page = replay.last_message
    gif_button = next(b.custom_id for b in page.buttons if b.custom_id.endswith("|~gif"))
    animated = await sim.click(world.bob, page, gif_button)
    gif = Image.open(io.BytesIO(animated.last_message.attachments[0].data))
    assert gif.format == "GIF" and gif.n_frames == 3  # the empty board and two moves

    clock.advance(60)
    running, _ = await start_board_match(sim, world.carol, world.alice, "les", 5)
    # A match Alice has no part in, in another channel, is listed for her too (unmarked).
    clock.advance(60)
    challenge = await sim.slash(
        world.bob, "play", game="lefe", opponent=world.admin, size=5, channel=world.other_channel
    )
    accepted = await sim.click(world.admin, challenge.last_message, "Accept")
    others = int(accepted.last_message.text.split("match #")[1].split()[0])
    lobby = await sim.slash(world.carol, "play", game="leiff")
    games = await sim.slash(world.alice, "games")
    assert games.ephemeral
    # Alice's own match first: whom she plays, whose turn, when the time runs out, the
    # control and a link to its newest message; then the server's others
    lines = games.text.splitlines()
    assert lines[1].startswith(f"★ **Les** #{running} against carol · carol to move · ")
    assert lines[1].split(" · ")[3] == "1 day per move"
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/"
    assert f"[go to it]({link}" in lines[1]
    (other,) = [line for line in lines if line.startswith(f"**Lefe** #{others} ")]
    assert other.startswith(f"**Lefe** #{others} · bob, admin · bob to move · time runs out")
    assert f"{world.guild.id}/{world.other_channel.id}/" in other
    assert "**Leiff**" in games.text and "open table" in games.text
    assert lobby.last_message is not None
    # the same from /mygames, and in a DM: her matches alone, on every server
    assert (await sim.slash(world.alice, "mygames")).text == games.text
    sim.assert_no_bot_errors()


RATING_IN_ROW = re.compile(r"^Dalen: \w+ (\S+?)(\??), ", re.MULTILINE)
# a rating change as the result shows it: "bob 1500 → 1447? (−53)"
CHANGE = re.compile(r"(\w+) (\S+) → (\S+?)(\??) \(([+\N{MINUS SIGN}±])(\d+)\)")


async def resigned_dalen(sim, winner, loser, language: str, clock) -> str:
    """``loser`` resigns a Dalen match against ``winner``; the final message's text."""
    clock.advance(60)
    offer = (await sim.slash(winner, "play", game="dalen", opponent=loser, size=5)).last_message
    await sim.click(loser, offer, translate(language, "bot.challenge.button.accept"))
    # both move first: before a player's first move, Resign offers an unrated abort
    await sim.slash(winner, "move", cell="e5")
    board = (await sim.slash(loser, "move", cell="a1")).last_message
    return (await resign(sim, loser, board)).last_message.text


@pytest.mark.compressed_rate_limits
async def test_ratings_read_around_1500_and_a_loss_slightly_below(sim, world, language, bot, clock):
    """A newcomer reads 1500; one lost game reads a few dozen points less, marked
    provisional, never a negative number; the leaderboard lists no negative rating."""
    ended = await resigned_dalen(sim, world.alice, world.bob, language, clock)
    changes = {name: rest for name, *rest in CHANGE.findall(ended)}
    assert set(changes) == {"alice", "bob"}, ended
    for name, sign, won in (("alice", "+", True), ("bob", "\N{MINUS SIGN}", False)):
        before, after, provisional, shown_sign, delta = changes[name]
        assert before == "1500" and provisional == "?" and shown_sign == sign
        assert 1500 < int(after) < 1600 if won else 1400 < int(after) < 1500
        assert abs(int(after) - 1500) == int(delta)

    loser = (await sim.slash(world.carol, "stats", member=world.bob)).text
    (value, provisional) = RATING_IN_ROW.search(loser).groups()
    assert value == changes["bob"][1] and provisional == "?"
    winner = (await sim.slash(world.carol, "stats", member=world.alice)).text
    assert 1500 < int(RATING_IN_ROW.search(winner).group(1)) < 1600

    # Many more losses: still far from zero, every rating on the board a plain number.
    for _ in range(6):
        await resigned_dalen(sim, world.carol, world.bob, language, clock)
    board = (await sim.slash(world.alice, "leaderboard", game="dalen")).text
    rows = board.splitlines()[1:]
    assert [row.split(" ")[1].rstrip(":") for row in rows] == ["carol", "alice", "bob"]
    # "1. carol: 1612? (6 games: 6W 0L 0D)": digits only, never a sign
    ratings = [int(re.search(r": (\d+)\?? \(", row).group(1)) for row in rows]
    assert ratings == sorted(ratings, reverse=True) and ratings[-1] > 1000
    sim.assert_no_bot_errors()


async def play_leiff_to_the_end(table: LeiffTable, players) -> None:
    """Whoever the table waits for plays: the player to move calls Leiff as soon as they
    may, every other choice is its default, until the game is over."""
    for _ in range(400):
        state = await table.state()
        if state.outcome is not None:
            return
        owner = state.waiting_for()["owners"][0]
        legal = state.legal_actions(owner)
        action = CALL_LEIFF if CALL_LEIFF in legal else state.default_action(owner)
        await table.act(players[owner], action)
    raise AssertionError("the game did not end")


# A whole game in one channel: its point is what the commands show, not the limits.
@pytest.mark.compressed_rate_limits
async def test_a_leiff_game_of_four_shows_places_not_losses(sim, world, language, bot):
    players = [world.alice, world.bob, world.carol, world.admin]
    match_id, _ = await open_table(sim, world, players, language)
    table = LeiffTable(
        sim,
        bot,
        match_id,
        players,
        world.channel,
        channel_language=language,
        languages={user.id: language for user in players},
    )
    await play_leiff_to_the_end(table, players)
    record = await bot.client.service.get_match(match_id)
    places, field = record.result["places"], record.result["field"]
    assert field == 4 and sorted(places)[0] == 1
    second = next(seat for seat, place in enumerate(places) if place == 2)
    name = players[second].name

    # The table's last message says everyone's place, best first.
    words = {place: ordinal(language, place) for place in range(1, 5)}
    shown = "\n".join(m.text for m in world.channel.messages)
    listed = translate(language, "bot.match.places", places="")[:-1]
    assert listed in shown and f"{words[2]} {name}" in shown, shown[-600:]

    # Shown again later (a redelivery after a restart draws it from the stored result):
    # the result and the places, no rating lines.
    again = await LeiffMessages(bot.client.context, bot.client.delivery.records).public_message(
        await bot.client.service.current(match_id), language, []
    )
    assert f"{words[2]} {name}" in again.content and listed in again.content, again.content

    stats = (await sim.slash(world.carol, "stats", member=players[second])).text
    (row,) = await bot.client.service.stats(world.guild.id, players[second].id)
    one_game = translate_plural(language, "bot.stats.games", "bot.stats.games.plural", 1)
    count = translate(language, "bot.stats.place_count", count=1, place=words[2])
    finished = translate(language, "bot.stats.last_place", place=words[2], field=4)
    line = translate(
        language,
        "bot.stats.row",
        game="Leiff",
        rating=f"{row.rating}?",
        record=translate(language, "bot.stats.places_record", games=one_game, places=count),
        streak=f"; {finished}",
    )
    assert line in stats.splitlines(), stats  # "Leiff: rating 1531?, 1 game: 1× 2nd; finished
    # 2nd of 4 in the last game.": no "0W 1L", as if second of four were a loss
    assert row.losses == 0 and row.last_place == (2, 4) and row.rating > 1500
    board = (await sim.slash(world.carol, "leaderboard", game="leiff")).text
    assert count in board and len(board.splitlines()) == 5

    # /history says the place, "2nd of 4" ("2. von 4"), never "lost"
    history = (await sim.slash(world.carol, "history", member=players[second])).last_message
    (line,) = [text for text in history.text.splitlines() if f"`#{match_id}`" in text]
    place = translate(language, "bot.history.place", place=words[2], field=4)
    assert f"· {place} ·" in line, line
    assert translate(language, "bot.history.lost") not in line

    # /profile tells the game in places too, and the head-to-head as ahead and behind
    profile = (await sim.slash(players[0], "profile", member=players[second])).last_message
    assert count in profile.text and finished in profile.text, profile.text
    first = next(seat for seat, place in enumerate(places) if place == 1)
    (entry,) = (
        await bot.client.service.profile(world.guild.id, players[second].id, players[first].id)
    ).games
    assert entry.versus_viewer is not None and entry.versus_viewer.losses == 1
    assert decode_png(profile).width > 0
    sim.assert_no_bot_errors()


def test_a_leiff_record_without_known_places_says_only_its_games() -> None:
    row = LeaderboardRow(1, 5, 1520, True, 26.0, 7.0, 3, 1, 0, 0, 0)
    assert places_record("en", row) == "3 games"
    assert places_record("de", replace(row, places=((1, 1), (3, 2)))) == (
        "3 Partien: 1× 1. Platz, 2× 3. Platz"
    )
