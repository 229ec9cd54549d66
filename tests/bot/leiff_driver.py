"""Driving a Leiff table through Discord as its players would, and auditing what each saw.

``LeiffTable`` clicks the buttons and menus of each player's own private message (their DM,
or the ephemeral "Show my hand" answer when their DMs are closed). After every step it
audits every message and picture that appeared or changed, against the engine's truth:

- the newest table picture in the channel must be exactly the table drawn from the
  spectator view (in the channel's language), an older one changed meanwhile (the living
  message left behind at a round's end) the spectator view of one of the steps since the
  last audit; a hand picture sent to a player exactly that player's own view (in their
  language; byte-for-byte, the renderer being deterministic);
- every card named in a text must be one its audience was entitled to see at some step
  so far (the living table message keeps the public lines of earlier steps): named by an
  engine event for that audience, or visible in that audience's view.
"""

from __future__ import annotations

import asyncio
import io
import re
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

import render
from bot.common.pictures import HAND_WIDTH
from discord_sim.models import SimMessage, SimUser
from engine import get_game
from engine.leiff.cards import display_name
from i18n import translate

CARD_TOKEN = re.compile(r"\[([^\[\]\s]{1,20})\]")

# How often, and how far apart, a hand's private message is looked at for a control that
# the table already offers (see LeiffTable.act): about 10 s in all.
HAND_LOOKS = 100
HAND_LOOK_GAP = 0.1


@dataclass
class Seen:
    """One (message, attachment) pair already audited."""

    message_id: int
    attachment_ids: tuple[int, ...]
    content: str


@dataclass
class LeiffTable:
    sim: Any
    handle: Any
    match_id: int
    players: list[SimUser]  # by seat
    channel: Any
    closed_dms: set[int] = field(default_factory=set)
    # the language of the channel's messages, and of each player's (by user id; else "en")
    channel_language: str = "en"
    languages: dict[int, str] = field(default_factory=dict)
    audited: dict[int, tuple[tuple[int, ...], str]] = field(default_factory=dict)
    # What each audience (a seat, None for the channel) was entitled to see at some step
    # so far, and the states of the steps since the last audit (replayed from the seed).
    known: dict[int | None, set[str]] = field(default_factory=dict)
    replayed: Any = None
    window: list[Any] = field(default_factory=list)
    # the state before the newest step (the table message may show it: a draw from the
    # pile waits for the drawer's next step, see living.py)
    before_last: Any = None
    checked_pictures: int = 0
    checked_texts: int = 0

    # ---- the truth -------------------------------------------------------------------
    async def state(self) -> Any:
        record = await self.handle.client.service.repo.get_match(self.match_id)
        return get_game("leiff").from_json(record.state)

    async def names(self) -> list[str]:
        match = await self.handle.client.service.get_match(self.match_id)
        return await self.handle.client.context.names.seat_names(match)

    def seat_of(self, user: SimUser) -> int | None:
        """The user's seat, or None for someone not at the table (they know what the
        channel knows)."""
        return next((i for i, p in enumerate(self.players) if p.id == user.id), None)

    # ---- acting ----------------------------------------------------------------------
    async def hand_message(self, user: SimUser) -> SimMessage:
        """The player's current private message with their buttons."""
        if user.id in self.closed_dms:
            label = translate(self.channel_language, "bot.leiff.button.show_hand")
            opener = self.latest_with_button(self.channel.messages, label)
            answer = await self.sim.click(user, opener, label)
            assert answer.ephemeral
            return answer.last_message
        dms = [m for m in self.sim.dms(user) if m.attachments or m.buttons or m.selects]
        assert dms, f"{user.name} has no hand message"
        return dms[-1]

    @staticmethod
    def latest_with_button(messages: list[SimMessage], label: str) -> SimMessage:
        for message in reversed(messages):
            if any(b.label == label and not b.disabled for b in message.buttons):
                return message
        raise LookupError(f"no message with a live {label!r} button")

    async def act(self, user: SimUser, action: str) -> Any:
        """Click the button, or pick the menu option, of ``action`` in the user's hand.

        The state is read from the store, but the hand's private message follows the table
        a little later (a step made on the web is answered there first, the DMs go out in
        the background and wait in their rate limits): when the control is not there yet,
        wait for the deliveries and look again, for a few seconds at most."""
        offered: list[str | None] = []
        for _ in range(HAND_LOOKS):
            message = await self.hand_message(user)
            for button in message.buttons:
                if (
                    button.custom_id
                    and button.custom_id.split("|", 4)[-1] == action
                    and not button.disabled
                ):
                    result = await self.sim.click(user, message, button.custom_id)
                    await self.audit()
                    return result
            for select in message.selects:
                if action in select.values and not select.disabled:
                    result = await self.sim.select(user, message, select.custom_id, action)
                    await self.audit()
                    return result
            offered = [b.custom_id for b in message.buttons] + [
                v for s in message.selects for v in s.values
            ]
            await self.handle.client.delivery.deliveries_idle()
            await asyncio.sleep(HAND_LOOK_GAP)
        raise AssertionError(f"{user.name} has no control for {action!r}; offered: {offered}")

    async def write_rule(self, user: SimUser, text: str) -> Any:
        """Klatschtante: open the rule modal from the hand message and submit ``text``."""
        message = await self.hand_message(user)
        button = next(
            b for b in message.buttons if b.custom_id and b.custom_id.endswith("~prompt:rule")
        )
        opened = await self.sim.click(user, message, button.custom_id)
        assert opened.modal is not None, "the rule button did not open a form"
        label = translate(self.languages.get(user.id, "en"), "bot.leiff.rule_form.label")
        result = await self.sim.submit_modal(user, opened, {label: text})
        await self.audit()
        return result

    # ---- the audit -------------------------------------------------------------------
    def audience_of(self, message: SimMessage) -> int | None:
        """The seat a message is meant for (None: the channel, or someone not playing)."""
        if message.visible_to is not None:
            return self.seat_of(message.visible_to)
        if message.channel.is_dm:
            return self.seat_of(message.channel.recipient)
        return None

    async def audit(self) -> None:
        """Check every message that appeared or changed since the last audit (once the
        table's queued channel message and the bot seats' turns have gone out)."""
        await self.handle.client.delivery.bots_idle()
        state = await self.state()
        names = await self.names()
        self.learn(state)
        for message in self.sim.all_messages:
            if message.deleted:
                continue
            key = (tuple(a.id for a in message.attachments), message.text)
            if self.audited.get(message.id) == key:
                continue
            self.audited[message.id] = key
            if message.author.id != self.sim.bot_user.id:
                continue
            self.check_message(message, state, names)

    def learn(self, state: Any) -> None:
        """Replay the steps since the last audit (a burst of bot turns counts step by
        step) and add what each audience could see at each."""
        table = state._table
        self.window = []
        if self.replayed is None:
            self.replayed = get_game("leiff").new(
                state.players, table.seed, table.options, deck_order=table.deck_order
            )
            self._learn_step(self.replayed)
        for seat, action in state.log[len(self.replayed.log) :]:
            self.before_last = self.replayed
            self.replayed = self.replayed.play(int(seat), str(action))
            self._learn_step(self.replayed)
        if not self.window:
            self.window.append(self.replayed)

    def _learn_step(self, state: Any) -> None:
        self.window.append(state)
        for seat in (None, *range(state.players)):
            self.known.setdefault(seat, set()).update(self.allowed_cards(state, seat))

    def held_back(self, state: Any) -> list[Any]:
        """The state the table message may show instead of ``state``: the one before a
        draw from the draw pile (held back for the drawer's discard or swap)."""
        if state.log and state.log[-1][1] == "draw" and self.before_last is not None:
            return [self.before_last]
        return []

    def newest_table_message(self) -> int | None:
        tables = [
            m.id
            for m in self.channel.messages
            if any(a.filename == "table.png" for a in m.attachments)
        ]
        return tables[-1] if tables else None

    def allowed_cards(self, state: Any, seat: int | None) -> set[str]:
        view = state.view(seat)
        allowed: set[str] = set()
        for event in state.events:
            audience = event["audience"]
            if audience == "all" or (seat is not None and seat in audience):
                allowed.update(CARD_TOKEN.findall(event["text"]))
        for hand in view["hands"]:
            allowed.update(card for card in hand if card is not None)
        if view.get("discard_top"):
            allowed.add(view["discard_top"])
        holding = view.get("holding") or {}
        if holding.get("card"):
            allowed.add(holding["card"])
        # texts write a card by its display name ("[Kellner]" for the waiter)
        return allowed | {display_name(card) for card in allowed}

    def check_message(self, message: SimMessage, state: Any, names: list[str]) -> None:
        seat = self.audience_of(message)
        for token in CARD_TOKEN.findall(message.text):
            assert token in self.known.get(seat, set()), (
                f"message {message.id} for {'the channel' if seat is None else names[seat]} "
                f"names the card [{token}] its audience may not know: {message.text!r}"
            )
            self.checked_texts += 1
        for attachment in message.attachments:
            if attachment.filename == "table.png":
                assert seat is None, (
                    f"a table picture went to a single player (message {message.id})"
                )
                candidates = (
                    [state, *self.held_back(state)]
                    if message.id == self.newest_table_message()
                    else self.window[::-1]
                )
                assert any(
                    attachment.data
                    == render.png_bytes(
                        render.render_table(
                            step.view(None), names=names, language=self.channel_language
                        )
                    )
                    for step in candidates
                ), f"table picture {message.id} is not the spectator view"
            elif attachment.filename == "hand.png":
                assert seat is not None, (
                    f"a hand picture was posted in the channel (message {message.id})"
                )
                language = self.languages.get(self.players[seat].id, "en")
                expected = render.png_bytes(
                    render.render_hand(
                        state.view(seat), seat, names=names, width=HAND_WIDTH, language=language
                    )
                )
                assert attachment.data == expected, (
                    f"hand picture {message.id} sent to {names[seat]} is not their own current view"
                )
            else:
                continue
            Image.open(io.BytesIO(attachment.data)).verify()
            self.checked_pictures += 1


async def play_to_the_gossip(table: LeiffTable, players: list[Any]) -> Any:
    """Play until a player must write the Klatschtante's rule; returns that player."""
    for _ in range(40):
        state = await table.state()
        waiting = state.waiting_for()
        turn_player = players[waiting["turn"]] if waiting["turn"] is not None else None
        if waiting["step"] == "turn":
            await table.act(turn_player, "draw")
        elif waiting["step"] == "hold":
            holding = state.view(waiting["turn"])["holding"]["card"]
            await table.act(turn_player, "discard" if holding == "gossip" else "swap 4")
        elif waiting["step"] == "effect" and waiting["card"] == "gossip":
            return turn_player
        else:
            owner = waiting["owners"][0]
            await table.act(players[owner], state.default_action(owner))
    raise AssertionError("nobody had to write a rule")
