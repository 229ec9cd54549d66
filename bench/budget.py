"""The request budget: REST requests per action, by category (``make bench-e2e`` runs it).

Discord lets one bot token make 50 requests per second (interaction callbacks excepted) and
5 messages and 5 edits per 5 s in one channel. So what an action costs outside its
callback decides how many actions one token serves. This plays, through the local Discord
simulator with its limits on and the real bot (SQLite, pictures in threads):

- board moves between two members (``/move``),
- moves against the bot (the member's ``/move`` and the bot's answer),
- resignations (``/resign`` and Yes on its question),
- Leiff actions at a table of 3 and of 6 members (clicks on each player's DM controls),
- Leiff actions of the one member at a table with 5 bot seats (their steps included),

and reports, per action, the requests in each category (``callback``, ``channel
message``, ``edit``, ``DM``; ``other`` for reads) and what that means for one token: the
actions per second its 50 requests per second serve. The simulator's windows run 20 times
faster (the counts are Discord's): the counts are what matters here, not the waits.

    python -m bench.budget [--moves N] [--actions N] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GLOBAL_LIMIT = 50  # requests per second per token, interaction endpoints excepted
CATEGORIES = ("callback", "channel message", "edit", "follow-up", "DM", "other", "429")
OUTSIDE_CALLBACK = ("channel message", "edit", "follow-up", "DM")
# What the global limit counts: every request but 429s and Discord's interaction endpoints
# (the callback, and the follow-ups and edits through the interaction's token).
GLOBAL = "global"
TIME_SCALE = 0.05  # the simulator's rate-limit windows, 20 times faster (same counts)


@dataclass
class Scenario:
    """One kind of action and what its requests were."""

    name: str
    actions: int = 0
    counts: Counter[str] = field(default_factory=Counter)

    def per_action(self, category: str) -> float:
        return self.counts[category] / self.actions if self.actions else 0.0

    def add(self, sim: Any, since: int) -> None:
        """Count one action: the requests the bot made since ``sim.requests[since]``."""
        from discord_sim.ratelimits import is_interaction_endpoint

        self.counts += sim.request_counts(since)
        self.counts[GLOBAL] += sum(
            1
            for r in sim.requests[since:]
            if r.status != 429 and not is_interaction_endpoint(r.route)
        )
        self.actions += 1

    @property
    def outside_callback(self) -> float:
        """Every request of an action but its callback (follow-ups included)."""
        return sum(self.per_action(c) for c in OUTSIDE_CALLBACK)

    @property
    def counted_globally(self) -> float:
        """The requests of an action that Discord's global limit counts."""
        return self.per_action(GLOBAL)

    @property
    def actions_per_second(self) -> float:
        """What one token serves: its global 50 requests per second over the requests of
        one action that the global limit counts (interaction endpoints do not)."""
        cost = self.counted_globally
        return GLOBAL_LIMIT / cost if cost else float("inf")

    def as_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.name,
            "actions": self.actions,
            **{c: round(self.per_action(c), 2) for c in CATEGORIES},
            "outside_callback": round(self.outside_callback, 2),
            "counted_globally": round(self.counted_globally, 2),
            "actions_per_second_per_token": round(self.actions_per_second, 1),
        }


class Bench:
    """A simulator with a world, and the bot running against it."""

    def __init__(self, sim: Any, folder: Path) -> None:
        self.sim = sim
        self.folder = folder
        self.world = sim.populate()
        self.handle: Any = None
        self.seeds = itertools.count(7)

    async def start(self) -> None:
        from bot.app import LeafBot
        from bot.settings import Settings

        settings = Settings(
            token="simulated",
            database_path=self.folder / "budget.sqlite3",
            dev_guild_id=self.world.guild.id,
            render_workers=0,
        )
        options = {"seed_source": lambda: next(self.seeds)}
        self.handle = await self.sim.start_bot(
            lambda: LeafBot(settings, service_options=options, tick_seconds=None)
        )

    @property
    def client(self) -> Any:
        return self.handle.client

    async def settled(self, *results: Any) -> None:
        """The handlers of these interactions, the bot turns and any redelivery are done."""
        for result in results:
            await asyncio.gather(*result.handler_tasks, return_exceptions=True)
        delivery = self.client.delivery
        await delivery.bots_idle()
        await delivery.deliveries_idle()

    async def state(self, match_id: int) -> Any:
        from engine import get_game

        record = await self.client.service.repo.get_match(match_id)
        return record, get_game(record.game).from_json(record.state)

    def member(self, name: str) -> Any:
        return self.sim.add_member(self.world.guild, name)

    async def channel(self, name: str) -> Any:
        return self.world.guild.add_text_channel(name)

    # ---- board games ---------------------------------------------------------------
    async def board_moves(self, moves: int, rng: random.Random) -> Scenario:
        scenario = Scenario("board move (member vs member)")
        alice, bob = self.world.alice, self.world.bob
        channel = await self.channel("board")
        challenge = await self.sim.slash(
            alice, "play", channel=channel, game="lefe", opponent=bob, size=7
        )
        accepted = await self.sim.click(bob, challenge.last_message, "Accept")
        await self.settled(accepted)
        match_id = _match_id(accepted.last_message)
        players = (alice, bob)
        for _ in range(moves):
            _, state = await self.state(match_id)
            if state.outcome is not None:
                break
            since = len(self.sim.requests)
            moved = await self.sim.slash(
                players[state.seat_to_move], "move", channel=channel, cell=_pick(state, rng)
            )
            await self.settled(moved)
            scenario.add(self.sim, since)
        return scenario

    async def resignations(self, count: int, rng: random.Random) -> Scenario:
        """Resigning a match between members: ``/resign``, then Yes on the question (one
        action, two interactions; both moved first, so it is a resignation, not an abort)."""
        scenario = Scenario("resignation (/resign, then Yes)")
        alice, bob = self.world.alice, self.world.bob
        channel = await self.channel("resign")
        await self.client.service.update_settings(
            self.world.guild.id, self.world.admin.id, True, challenge_cooldown_seconds=0
        )
        for _ in range(count):
            challenge = await self.sim.slash(
                alice, "play", channel=channel, game="lefe", opponent=bob, size=5
            )
            accepted = await self.sim.click(bob, challenge.last_message, "Accept")
            await self.settled(accepted)
            match_id = _match_id(accepted.last_message)
            for player in (alice, bob):
                _, state = await self.state(match_id)
                moved = await self.sim.slash(
                    player, "move", channel=channel, cell=_pick(state, rng)
                )
                await self.settled(moved)
            since = len(self.sim.requests)
            asked = await self.sim.slash(alice, "resign", channel=channel)
            await self.settled(asked)
            confirmed = await self.sim.click(alice, asked.last_message, "Yes, resign")
            await self.settled(confirmed)
            scenario.add(self.sim, since)
        return scenario

    async def moves_against_the_bot(self, moves: int, rng: random.Random) -> Scenario:
        scenario = Scenario("move against the bot (with its answer)")
        alice = self.member("vs-bot")
        channel = await self.channel("vs-bot")
        started = await self.sim.slash(
            alice,
            "play",
            channel=channel,
            game="lefe",
            opponent=self.sim.bot_user,
            size=7,
            level="easy",
        )
        await self.settled(started)
        match_id = _match_id(started.last_message)
        for _ in range(moves):
            _, state = await self.state(match_id)
            if state.outcome is not None:
                break
            since = len(self.sim.requests)
            moved = await self.sim.slash(alice, "move", channel=channel, cell=_pick(state, rng))
            await self.settled(moved)
            scenario.add(self.sim, since)
        return scenario

    # ---- Leiff ---------------------------------------------------------------------
    async def leiff_actions(self, people: int, bots: int, actions: int) -> Scenario:
        label = f"Leiff action, table of {people + bots}"
        if bots:
            label += f" ({people} member, {bots} bot seats; their steps included)"
        scenario = Scenario(label)
        channel = await self.channel(f"leiff-{people}-{bots}")
        players = [self.member(f"p{people}{bots}-{i}") for i in range(people)]
        host, *guests = players
        opened = await self.sim.slash(host, "play", channel=channel, game="leiff")
        lobby = opened.last_message
        for guest in guests:
            await self.sim.click(guest, lobby, "Join")
        for _ in range(bots):
            await self.sim.click(host, lobby, "Add bot seat")
        started = await self.sim.click(host, lobby, "Start")
        await self.settled(started)
        match_id = int((lobby.content or "").split("table #", 1)[1].split()[0])
        done = 0
        while done < actions:
            record, state = await self.state(match_id)
            if state.outcome is not None or record.status != "running":
                break
            seat, action = _leiff_choice(state)
            if seat >= len(players):  # a bot seat's step: it plays by itself
                await self.settled()
                continue
            control = _control(self.sim, players[seat], action)
            for other in state.legal_actions(seat) if control is None else ():
                # the preferred answer has no control (see docs/benchmarks): any other
                control = _control(self.sim, players[seat], other)
                if control is not None:
                    action = other
                    break
            if control is None:
                raise AssertionError(f"no DM control for {action!r} of seat {seat}")
            message, component = control
            since = len(self.sim.requests)
            if hasattr(component, "values"):
                result = await self.sim.select(players[seat], message, component.custom_id, action)
            else:
                result = await self.sim.click(players[seat], message, component.custom_id)
            await self.settled(result)
            if result.ephemeral:
                raise AssertionError(f"{action!r} was refused: {result.text}")
            scenario.add(self.sim, since)
            done += 1
        return scenario


def _match_id(message: Any) -> int:
    for button in message.buttons:
        if button.custom_id and button.custom_id.startswith("lb|b|"):
            return int(button.custom_id.split("|")[2])
    text = message.content or ""
    return int(text.split("match #", 1)[1].split()[0])


def _pick(state: Any, rng: random.Random) -> str:
    moves: list[str] = sorted(state.legal_moves())
    plain = [m for m in moves if m != "swap"] or moves
    return rng.choice(plain)


def _leiff_choice(state: Any) -> tuple[int, str]:
    waiting = state.waiting_for()
    step, turn = waiting["step"], waiting["turn"]
    if step == "turn":
        return turn, "draw"
    if step == "hold":
        holding = state.view(turn)["holding"]
        return turn, "discard" if holding["source"] == "draw" else "swap 1"
    owner = waiting["owners"][0]
    return owner, state.default_action(owner)


def _control(sim: Any, user: Any, action: str) -> tuple[Any, Any] | None:
    for message in reversed(sim.dms(user)):
        for button in message.buttons:
            if (button.custom_id or "").rsplit("|", 1)[-1] == action and not button.disabled:
                return message, button
        for menu in message.selects:
            if action in menu.values:
                return message, menu
    return None


async def measure(moves: int = 12, actions: int = 24, seed: int = 3) -> list[Scenario]:
    from discord_sim.harness import DiscordSimulator

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        async with DiscordSimulator(rate_limit_time_scale=TIME_SCALE) as sim:
            bench = Bench(sim, Path(folder))
            await bench.start()
            scenarios = [
                await bench.board_moves(moves, rng),
                await bench.moves_against_the_bot(moves, rng),
                await bench.resignations(max(moves // 4, 1), rng),
                await bench.leiff_actions(3, 0, actions),
                await bench.leiff_actions(6, 0, actions),
                await bench.leiff_actions(1, 5, max(actions // 3, 1)),
            ]
            late = [i for i in sim.interactions if i.late_response]
            if late:
                raise AssertionError(f"{len(late)} interactions answered after 3 s")
    return scenarios


def table(scenarios: list[Scenario]) -> str:
    head = (
        "| action | measured | callback | channel message | edit | follow-up | DM "
        "| outside the callback | other | 429 | counted in the global limit "
        "| actions/s per token |\n|---|---|---|---|---|---|---|---|---|---|---|---|"
    )
    rows = [
        f"| {s.name} | {s.actions} | {s.per_action('callback'):.2f} | "
        f"{s.per_action('channel message'):.2f} | {s.per_action('edit'):.2f} | "
        f"{s.per_action('follow-up'):.2f} | {s.per_action('DM'):.2f} | "
        f"**{s.outside_callback:.2f}** | {s.per_action('other'):.2f} | "
        f"{s.per_action('429'):.2f} | {s.counted_globally:.2f} | "
        f"{_rate(s.actions_per_second)} |"
        for s in scenarios
    ]
    return "\n".join([head, *rows])


def _rate(value: float) -> str:
    return "no limit" if value == float("inf") else f"{value:.0f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--moves", type=int, default=12, help="board moves per scenario")
    parser.add_argument("--actions", type=int, default=24, help="Leiff actions per table")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    scenarios = asyncio.run(measure(args.moves, args.actions))
    from bench.__main__ import machine_line

    print(f"machine: {machine_line()}")
    print(f"command: python -m bench.budget --moves {args.moves} --actions {args.actions}")
    print(
        "Requests per action (the global limit, 50/s per token, counts all but the "
        "interaction endpoints: callbacks and follow-ups):"
    )
    print(table(scenarios))
    if args.json:
        args.json.write_text(json.dumps([s.as_dict() for s in scenarios], indent=2) + "\n")


if __name__ == "__main__":
    main()
