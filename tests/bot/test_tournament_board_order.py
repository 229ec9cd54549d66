"""A board that waited in the channel's rate limit never lands over a newer one.

A tournament's step posts its games' first boards in the background, into the event's
thread; when the thread's message bucket is spent (5 posts per 5 s), discord.py holds the
post until the window resets. Meanwhile the players may already move: ``/move`` is answered
by the interaction (a bucket of its own), so the board of version 1 is shown first, and the
board of version 0 would land below it when its wait is over (the kill test once saw the
versions [1, 2, 3, 0] in a thread). Delivery drops such a post as its request leaves,
after the wait, so it never reaches Discord (a kill cannot leave it behind): the channel
keeps showing the newest board, and the record keeps pointing at it."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from discord.http import handle_message_parameters

from tests.bot.helpers import pick_move, stored_state
from tests.bot.test_kill_delivery import channel_versions, versions_of
from tests.bot.tournament_driver import Event

#: The windows run this much slower than Discord's: the test's /move must be answered
#: while the board waits, with room to spare on a loaded machine.
SLOWER_WINDOWS = 2.0
ROUTE = "/channels/{channel_id}/messages"


async def test_a_first_board_held_by_the_rate_limit_does_not_land_over_a_move(sim, world, bot):
    sim.state.rate_limiter.time_scale = SLOWER_WINDOWS
    made = await sim.slash(
        world.admin, "tournament create", game="lefe", format="round_robin", size=5, rated=False
    )
    event = Event(sim, bot, world, made.last_message)
    await event.join([world.alice, world.bob])
    thread = event.thread
    delivery = bot.client.delivery
    waiting = spend_the_bucket_before_posts(sim, bot.client.http, delivery, thread.id)
    started = asyncio.create_task(sim.slash(world.admin, "tournament start", tournament=event.id))
    # the first board's post has begun (drawn, handed to discord.py) with the thread's
    # bucket spent: it waits for the window to reset, and the player moves meanwhile
    match_id = await asyncio.wait_for(waiting.get(), 20)
    state = await stored_state(bot, match_id)
    match = await event.service.get_match(match_id)
    mover = next(
        m for m in (world.alice, world.bob) if m.id == match.seats[state.seat_to_move].user_id
    )
    moved = await sim.slash(
        mover, "move", cell=pick_move(state, random.Random(38)), match=match_id, channel=thread
    )
    assert not moved.ephemeral, moved.text
    # the move was answered while the first board still waited (else the test shows nothing)
    assert channel_versions(thread, match_id) == [1], "the first board did not wait"
    await started
    await delivery.bots_idle()
    await event.settle()

    # the thread shows the move's board alone, and the match's record is that message;
    # the first board never went out: looked at again as its request left, after the wait
    assert channel_versions(thread, match_id) == [1]
    match = await event.service.get_match(match_id)
    assert match.version == 1
    (newest,) = [m for m in thread.messages if versions_of(m, match_id)]
    assert match.messages["board"] == newest.id
    assert not [m for m in thread.all_messages if versions_of(m, match_id) == {0}]
    sim.assert_no_bot_errors()


def spend_the_bucket_before_posts(
    sim: Any, http: Any, delivery: Any, channel_id: int
) -> asyncio.Queue[int]:
    """Before each channel post of a match that delivery begins, the bot's client spends
    what is left of the channel's message bucket (the real post follows, and waits); the
    queue has the match of each."""
    begun: asyncio.Queue[int] = asyncio.Queue()
    fillers: list[asyncio.Task[Any]] = []
    post = delivery.bot_turns.post

    async def spend() -> None:
        # the post that spends a bucket returns only once its window reset (discord.py
        # waits in it): the fillers go out in the background, the board post once they did
        limiter = sim.state.rate_limiter
        left = limiter.remaining("POST", ROUTE, str(channel_id))
        for _ in range(left):
            fillers.append(
                asyncio.create_task(
                    http.send_message(channel_id, params=handle_message_parameters(content="·"))
                )
            )
        while limiter.remaining("POST", ROUTE, str(channel_id)):
            await asyncio.sleep(0.01)

    async def spent_first(update: Any, channel: Any, **message: Any) -> Any:
        if channel.id == channel_id:
            await spend()
            begun.put_nowait(update.match.id)
        return await post(update, channel, **message)

    delivery.bot_turns.post = spent_first
    return begun
