"""Driving a tournament through the simulator: members join with the announcement's
button, admins use ``/tournament``, games are played and ended, the clock ticks.

Where a test has many games to finish, some members are stood in for by the test: their
moves and resignations go to the service directly and the bot publishes the updates as
it would after a click (the *bot opponents standing in for members*); at least one game a
round is played by real interactions (``/move`` and ``/resign`` with its question).
"""

from __future__ import annotations

import io
import random
import re
from typing import Any

from PIL import Image

from discord_sim.models import SimMessage
from tests.bot.helpers import pick_move, resign, stored_state

TID = re.compile(r"#(\d+)")
EDIT_GAP = 0.05


def tournament_id_of(message: SimMessage) -> int:
    """The tournament's number, from the announcement's buttons (``lb|n|<id>|0|join``)."""
    for button in message.buttons:
        if button.custom_id and button.custom_id.startswith("lb|n|"):
            return int(button.custom_id.split("|")[2])
    raise LookupError("not an announcement")


def button_id(message: SimMessage, action: str) -> str:
    return next(
        b.custom_id for b in message.buttons if b.custom_id and b.custom_id.endswith(f"|{action}")
    )


def png_of(message: SimMessage) -> Image.Image:
    (attachment,) = message.attachments
    assert attachment.data.startswith(b"\x89PNG")
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    return image.convert("RGB")


class Event:
    """One tournament in the simulator, from the test's side."""

    def __init__(self, sim: Any, handle: Any, world: Any, announcement: SimMessage) -> None:
        self.sim = sim
        self.handle = handle
        self.world = world
        self.announcement = announcement
        self.id = tournament_id_of(announcement)
        self.rng = random.Random(self.id * 38)

    @property
    def service(self) -> Any:
        return self.handle.client.service

    @property
    def posts(self) -> Any:
        return self.handle.client.tournament_posts

    async def info(self) -> Any:
        return await self.service.tournaments.get(self.id)

    @property
    def thread(self) -> Any:
        """The event's thread (started from its announcement)."""
        thread = self.current_announcement().thread
        assert thread is not None, "the announcement has no thread"
        return thread

    def current_announcement(self) -> SimMessage:
        return self.sim.state.messages[self.announcement.id]

    async def join(self, members: list[Any]) -> None:
        for member in members:
            clicked = await self.sim.click(
                member, self.announcement, button_id(self.announcement, "join")
            )
            assert not clicked.ephemeral or clicked.text == "", clicked.text

    async def running(self) -> dict[int, int]:
        """Game number -> match id of the event's running matches."""
        found = await self.service.store.repo.tournament_matches(self.id)
        return {n: m.id for n, m in found.items() if m.status == "running"}

    async def tick(self, seconds: float = 5.0) -> None:
        """The clock moves on and the bot's tick runs (steps claimed and shown)."""
        clock = self.service.clock
        clock.advance(seconds)
        await self.handle.client.tick_once()
        await self.settle()

    async def settle(self) -> None:
        # the standings' edits are coalesced EDIT_GAP seconds apart: shorter here, where
        # the simulated clock jumps and real seconds would only make the test slow
        self.posts.edits.gap = EDIT_GAP
        await self.posts.idle()
        await self.handle.client.delivery.deliveries_idle()

    async def play_by_interactions(self, match_id: int, users: dict[int, Any]) -> None:
        """Both players move once with ``/move``, then one resigns with ``/resign``."""
        match = await self.service.get_match(match_id)
        seats = [users[s.user_id] for s in match.seats]
        place = self.sim.state.get_channel(match.thread_id or match.channel_id)
        for _ in range(2):
            state = await stored_state(self.handle, match_id)
            mover = seats[state.seat_to_move]
            moved = await self.sim.slash(
                mover, "move", cell=pick_move(state, self.rng), match=match_id, channel=place
            )
            assert not moved.ephemeral, moved.text
        loser = self.rng.choice(seats)
        await resign(self.sim, loser, match=match_id, channel=place)

    async def stand_in(self, match_id: int) -> None:
        """The test stands in for the players: a move each, then a resignation or a draw
        (a Leiff table: all but one leave), published by the bot as after a click."""
        service = self.service
        publish = self.handle.client.delivery.publish_quietly
        match = await service.get_match(match_id)
        people = [s.user_id for s in match.seats]
        if len(people) > 2:
            self.rng.shuffle(people)
            for user in people[:-1]:
                await publish(await service.resign(match_id, user))
            return
        for _ in range(2):
            state = await stored_state(self.handle, match_id)
            mover = people[state.seat_to_move]
            await publish(await service.play(match_id, mover, pick_move(state, self.rng)))
        if match.game != "lublache" and self.rng.random() < 0.2:
            await publish(await service.offer_draw(match_id, people[0]))
            await publish(await service.accept_draw(match_id, people[1]))
            return
        await publish(await service.resign(match_id, self.rng.choice(people)))

    async def play_out(self, users: dict[int, Any], *, rounds: int | None = None) -> int:
        """Finish every running game (one a round by interactions, the others stood in
        for) and tick, until the event ends or ``rounds`` rounds were finished; returns
        the rounds played."""
        played = 0
        for _ in range(60):
            info = await self.info()
            if info.status in ("finished", "cancelled") or (
                rounds is not None and played >= rounds
            ):
                break
            running = await self.running()
            for index, match_id in enumerate(sorted(running.values())):
                match = await self.service.get_match(match_id)
                if index == 0 and len(match.seats) == 2:
                    await self.play_by_interactions(match_id, users)
                else:
                    await self.stand_in(match_id)
            await self.settle()
            await self.tick()
            played += 1
        return played
