"""The request budget holds: what a move costs outside its interaction callback.

Discord's global limit (50 requests per second per token) spares interaction endpoints
(the callback, and the follow-ups and edits through the interaction's token), so what an
action costs beyond them decides how many actions one token serves. Goals (issue 32): a
board move between members nothing beyond its callback (the new board is the callback's
message; the older board keeps its buttons, which answer that it moved on), a move
against the bot at most 1 (the bot's answer), a Leiff action at a table of six at most 1.
Counted by the simulator, with Discord's limits on (the Leiff tables' windows 20 times
faster: same counts, no seconds waited through). ``python -m bench.budget`` prints the
whole table (Leiff tables of 3 and 6 too; docs/benchmarks/budget.md).
"""

from __future__ import annotations

import random
from pathlib import Path

from bench.budget import Bench
from discord_sim import DiscordSimulator


async def test_a_board_move_costs_nothing_beyond_its_callback_and_a_move_against_the_bot_one(
    tmp_path: Path,
) -> None:
    async with DiscordSimulator() as sim:
        bench = Bench(sim, tmp_path)
        await bench.start()
        rng = random.Random(4)
        board = await bench.board_moves(4, rng)
        against_bot = await bench.moves_against_the_bot(3, rng)
        assert not [i for i in sim.interactions if i.late_response]
        sim.assert_no_bot_errors()

    assert board.actions == 4 and against_bot.actions == 3
    # every move is answered by its callback (the new board)…
    assert board.per_action("callback") == 1 and against_bot.per_action("callback") == 1
    # …and nothing beyond it: the old board keeps its buttons (no edit)
    assert board.outside_callback == 0, board.as_dict()
    # the bot's new board (the older boards keep their buttons), as a follow-up of the
    # member's move: nothing the global limit counts
    assert against_bot.outside_callback <= 1, against_bot.as_dict()
    assert against_bot.per_action("follow-up") == 1, against_bot.as_dict()
    assert board.counted_globally == 0 and against_bot.counted_globally == 0
    assert board.per_action("429") == 0 and against_bot.per_action("429") == 0


async def test_a_resignation_asks_first_and_costs_nothing_beyond_its_callbacks(
    tmp_path: Path,
) -> None:
    """Asking before resigning costs an interaction round trip, never a request: the
    question is the command's callback, the board saying who won is the Yes click's, and
    the older boards keep their buttons (as after a move)."""
    async with DiscordSimulator() as sim:
        bench = Bench(sim, tmp_path)
        await bench.start()
        resigned = await bench.resignations(2, random.Random(5))
        assert not [i for i in sim.interactions if i.late_response]
        sim.assert_no_bot_errors()

    assert resigned.actions == 2
    assert resigned.per_action("callback") == 2, resigned.as_dict()
    assert resigned.outside_callback == 0, resigned.as_dict()


async def test_a_leiff_action_at_a_table_of_six_costs_at_most_one_request(
    tmp_path: Path,
) -> None:
    """Issue 32's Leiff goal: at most 1 request per action on average at a table of six
    outside the callback (the living table message edited, a draw from the pile held back
    for the drawer's discard or swap, and only the DMs of players whose own hand, turn or
    knowledge changed); a table of three costs about as much."""
    # 28 actions in one channel: the windows run 20 times faster so that the test does not
    # wait through the channel's 5 edits per 5 s (the counts are what it checks).
    async with DiscordSimulator(rate_limit_time_scale=0.05) as sim:
        bench = Bench(sim, tmp_path)
        await bench.start()
        six = await bench.leiff_actions(6, 0, 24)
        three = await bench.leiff_actions(3, 0, 12)
        with_bots = await bench.leiff_actions(1, 5, 4)
        assert not [i for i in sim.interactions if i.late_response]
        sim.assert_no_bot_errors()

    assert six.actions == 24 and three.actions == 12 and with_bots.actions == 4
    assert six.outside_callback <= 1, six.as_dict()
    assert three.outside_callback <= 1.25, three.as_dict()
    # a turn (a draw, then a discard or a swap) edits the table once
    assert six.per_action("edit") <= 0.65, six.as_dict()
    # no new channel message per step: the one table message is edited
    assert six.per_action("channel message") < 0.5, six.as_dict()
    # a member's action and the five bot seats' steps after it: a few requests in all
    assert with_bots.outside_callback <= 4, with_bots.as_dict()
    assert six.per_action("429") == 0 and three.per_action("429") == 0


async def test_bot_steps_after_a_member_s_action_edit_the_member_s_dm_once(
    tmp_path: Path,
) -> None:
    # A member's action at a table with bot seats is followed by several bot steps, each
    # posting a table message; the windows run 20 times faster so that the test does not
    # wait through the channel's 5 messages per 5 s (the counts are what it checks).
    async with DiscordSimulator(rate_limit_time_scale=0.05) as sim:
        bench = Bench(sim, tmp_path)
        await bench.start()
        with_bots = await bench.leiff_actions(1, 3, 4)
        assert not [i for i in sim.interactions if i.late_response]
        sim.assert_no_bot_errors()

    assert with_bots.actions == 4
    # its own DM is the clicked message (the callback); the bots' steps redraw it at most
    # once more in all, not once per step
    assert with_bots.per_action("DM") <= 1, with_bots.as_dict()
