"""Service updates → Discord messages.

The service returns an ``Update`` for every call and every clock tick: texts for the channel
or for one user, pictures to draw, the actions that apply now and whom to mention. This
module turns one update into the messages people see and sends them to the right places:

- the match channel gets one message per update (board or table picture, public texts,
  the buttons, and a mention of the player whose turn it is — the only ping the bot makes);
  the previous match message loses its buttons so only the newest board can be clicked;
- in Leiff each player gets their private view (hand picture, what they just learnt,
  buttons for every action open to them) by DM, kept in one DM message edited in place;
- a player whose DMs are closed (Discord error 50007) is named in the channel, without
  anything secret, and offered a "Show my hand" button that answers ephemerally.

No rule lives here: what is legal, whose turn it is and who may see what all come from the
service; this module only decides how it looks.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.labels import leiff_choices, service_choices
from bot.names import NameBook, in_text
from bot.service import board_logic
from bot.ui.components import Choice, build_view
from bot.ui.custom_ids import ADD_BOT, BOARD, CHALLENGE, LEIFF, REMOVE_BOT, SHOW_HAND
from engine import get_game

if TYPE_CHECKING:
    from bot.responder import Responder

log = logging.getLogger(__name__)

DM_CLOSED = 50007
LOBBY_KINDS = {
    "lobby",
    "lobby_opened",
    "lobby_joined",
    "lobby_left",
    "lobby_updated",
    "joined",
    "left",
}
CHALLENGE_END_KINDS = {"challenge_declined", "challenge_cancelled", "challenge_expired"}
MAX_LEIFF_PLAYERS = 6
# After Discord refused a user's DMs, they are tried again at the next table, whenever the
# player presses "Show my hand", and otherwise at most this often (the player may have
# opened them meanwhile; each try that fails costs one request).
DM_RETRY_SECONDS = 600.0


@dataclass
class Outgoing:
    """One message to send or edit."""

    content: str
    image: bytes | None = None
    filename: str = "board.png"
    choices: list[Choice] = field(default_factory=list)
    scope: str = BOARD
    target: int = 0
    version: int = 0
    pings: tuple[int, ...] = ()

    def view(self) -> discord.ui.View | None:
        return build_view(self.scope, self.target, self.version, self.choices)

    def allowed_mentions(self) -> discord.AllowedMentions:
        return discord.AllowedMentions(
            everyone=False,
            roles=False,
            replied_user=False,
            users=[discord.Object(user_id) for user_id in self.pings],
        )

    def file(self) -> discord.File | None:
        if self.image is None:
            return None
        return discord.File(io.BytesIO(self.image), filename=self.filename)

    def send_kwargs(self) -> dict[str, Any]:
        """Arguments for a new message (``send``, ``send_message``, ``followup.send``)."""
        kwargs: dict[str, Any] = {
            "content": self.content[:2000],
            "allowed_mentions": self.allowed_mentions(),
        }
        view = self.view()
        if view is not None:
            kwargs["view"] = view
        file = self.file()
        if file is not None:
            kwargs["file"] = file
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """Arguments for editing a message into this one (the old picture is replaced)."""
        file = self.file()
        return {
            "content": self.content[:2000],
            "allowed_mentions": self.allowed_mentions(),
            "view": self.view(),
            "attachments": [file] if file is not None else [],
        }


def sentence(text: str) -> str:
    """Service texts start in lower case so they can be embedded; a message line starts upper."""
    text = text.strip()
    first_word = text.split(" ", 1)[0]
    if not text or any(ch.isdigit() or ch == "_" for ch in first_word):
        # a cell name ("c3 is taken") or a setting ("leiff_target must be …") keeps its case
        return text
    return text[:1].upper() + text[1:]


def full_sentence(text: str) -> str:
    """A refusal as a complete sentence: upper case first (see :func:`sentence`), and a full
    stop at the end unless it ends in one already (or in "?", "!", "…", a quote or a code
    span)."""
    text = sentence(text)
    if text and text[-1] not in ".?!…”`)":
        text += "."
    return text


def only_for(update: Any, user_id: int) -> Any:
    """The update without anything addressed to other users (their hands, their news)."""
    return dataclasses.replace(
        update,
        messages=tuple(m for m in update.messages if m.to in (None, user_id)),
        pictures=tuple(p for p in update.pictures if p.for_user in (None, user_id)),
        buttons=tuple(b for b in update.buttons if b.for_user in (None, user_id)),
    )


def describe_leiff_options(options: dict[str, Any]) -> str:
    """A table's options in words: "to 50 points, special cards, drinking rules"."""
    parts = [f"to {options.get('target', 50)} points"]
    if options.get("specials"):
        parts.append("special cards")
    if options.get("drinking"):
        parts.append("water rules" if options.get("water") else "drinking rules")
    if options.get("teams"):
        parts.append("teams of two")
    return ", ".join(parts)


def game_title(game: str) -> str:
    try:
        return str(get_game(game).title)
    except Exception:
        return game.capitalize()


class Presenter:
    """Builds and sends the messages of service updates."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.names = NameBook(client)
        # user id -> their DM channel id (Discord never changes it: safe to keep per process).
        # Everything else another process may need is in the database: the users whose DMs
        # refused us and the tables told so (``service.dm_failures``), the message showing
        # a challenge (``ChallengeInfo.message_id``), every match message id.
        self._dm_channels: dict[int, int] = {}

        # Bot turns run in one background task per match; a request that arrives while it
        # runs marks the match so the task asks the service once more before it ends.
        self._bot_tasks: dict[int, asyncio.Task[None]] = {}
        self._bots_wanted: set[int] = set()

    async def close(self) -> None:
        self._dm_channels.clear()
        tasks = list(self._bot_tasks.values())
        self._bot_tasks.clear()
        self._bots_wanted.clear()
        for task in tasks:
            task.cancel()
        # a bot move cut short here is played again by the next start's tick
        await asyncio.gather(*tasks, return_exceptions=True)

    # ---- the bot's own turns -------------------------------------------------------
    def request_bot_turns(self, update: Any) -> None:
        """After an update is posted: if a bot seat is due to act, let it act in the
        background (a hard board move takes seconds; nobody's interaction waits for it)."""
        match = update.match
        if match is None or match.status != "running" or not match.bot_to_act:
            return
        self._bots_wanted.add(match.id)
        task = self._bot_tasks.get(match.id)
        if task is None or task.done():
            self._bot_tasks[match.id] = asyncio.create_task(
                self._play_bot_turns(match.id), name=f"bot-turns-{match.id}"
            )

    async def _play_bot_turns(self, match_id: int) -> None:
        try:
            while match_id in self._bots_wanted:
                self._bots_wanted.discard(match_id)
                for update in await self.service.advance_bots(match_id):
                    # posting it may ask for more bot turns: this loop runs again then
                    await self.publish(update)
        except asyncio.CancelledError:
            raise
        except Exception:
            # The next clock tick plays whatever is still due.
            log.exception("the bot could not take its turn in match %s", match_id)
        finally:
            if self._bot_tasks.get(match_id) is asyncio.current_task():
                del self._bot_tasks[match_id]
            self._bots_wanted.discard(match_id)

    async def bots_idle(self) -> None:
        """Wait until no bot turn is being played or posted (tests and shutdown use it)."""
        while self._bot_tasks:
            await asyncio.gather(*list(self._bot_tasks.values()), return_exceptions=True)

    @property
    def service(self) -> Any:
        return self.client.service  # type: ignore[attr-defined]

    @property
    def painter(self) -> Any:
        return self.client.painter  # type: ignore[attr-defined]

    # ---- names ---------------------------------------------------------------------
    async def seat_names(self, match: Any) -> list[str]:
        """Display names in seat order (a bot seat reads "the bot")."""
        return [await self.names.name(seat.user_id) for seat in match.seats]

    async def mention_or_name(self, user_id: int, pings: Sequence[int]) -> str:
        if user_id in pings:
            return f"<@{user_id}>"
        return f"**{in_text(await self.names.name(user_id))}**"

    # ---- building ------------------------------------------------------------------
    async def public_message(self, update: Any) -> Outgoing | None:
        """The channel message of an update, or None when the channel has nothing new."""
        if update.challenge is not None and update.match is None:
            return await self._challenge_message(update)
        match = update.match
        if match is None:
            texts = [sentence(t) for t in update.texts_for(None)]
            return Outgoing("\n".join(texts)) if texts else None
        if match.game == "leiff":
            return await self._leiff_public(update)
        return await self._board_public(update)

    async def _challenge_message(self, update: Any) -> Outgoing:
        challenge = update.challenge
        pings = tuple(update.mentions)
        who = await self.mention_or_name(challenge.challenger_id, ())
        title = game_title(challenge.game)
        size = f" (board {challenge.size})" if challenge.size else ""
        lines = [sentence(t) for t in update.texts_for(None)]
        if not lines:
            if challenge.target_id is None:
                lines.append(f"{who} is looking for a game of {title}{size}: anyone may accept.")
            else:
                target = await self.mention_or_name(challenge.target_id, pings)
                lines.append(f"{who} challenges {target} to {title}{size}.")
        choices: list[Choice] = []
        if challenge.status == "open":
            lines.append(f"Expires <t:{int(challenge.expires_at)}:R>.")
            actions = [a for b in update.buttons for a in b.actions]
            choices = service_choices(actions)
        return Outgoing(
            "\n".join(lines),
            choices=choices,
            scope=CHALLENGE,
            target=challenge.id,
            version=0,
            pings=pings,
        )

    async def _board_public(self, update: Any) -> Outgoing:
        match = update.match
        names = await self.seat_names(match)
        # whom the service asks to notify: the player to move, or the one a draw offer awaits
        pings = tuple(update.mentions) if match.status == "running" else ()
        picture = next(
            (p for p in update.pictures if p.kind == "board" and p.for_user is None), None
        )
        image = None
        state = picture.state if picture is not None else None
        if state is not None:
            image = await self.painter.board_png(state, names)
        lines = [sentence(t) for t in update.texts_for(None)]
        header = f"**{game_title(match.game)}** · match #{match.id}"
        if state is not None:
            header += f" · board {state.size}"
        lines.insert(0, header)
        refresh = update.kind == "refresh"  # a redraw carries no service text of its own
        if match.status == "running":
            for user_id in match.to_act:
                if _is_bot(match, user_id):
                    lines.append(await self._thinking_line(match, user_id))
                    continue
                mention = await self.mention_or_name(user_id, pings)
                if refresh or not any(mention in line for line in lines):
                    seat = next((s for s in match.seats if s.user_id == user_id), None)
                    colour = f" ({seat.colour})" if seat is not None and seat.colour else ""
                    lines.append(f"{mention} to move{colour}.")
            if match.deadline_at:
                lines.append(f"Time for this move runs out <t:{int(match.deadline_at)}:R>.")
            if refresh and match.draw_offer_by:
                offerer = await self.mention_or_name(match.draw_offer_by, ())
                lines.append(f"{offerer} offers a draw.")
        elif match.result is not None and refresh:
            lines.append(await self._result_line(match))
        lines.extend(await self._rating_lines(update))
        actions = [a for b in update.buttons for a in b.actions]  # one shared board message
        choices = service_choices(self._with_keep(actions))
        version = max((b.version for b in update.buttons), default=match.version)
        return Outgoing(
            "\n".join(lines), image, "board.png", choices, BOARD, match.id, version, pings
        )

    async def _thinking_line(self, match: Any, user_id: int) -> str:
        name = in_text(await self.names.name(user_id))
        if match.bot_to_act:
            return f"**{name}** is thinking…"
        return f"**{name}** to move."

    @staticmethod
    def _with_keep(actions: Sequence[str]) -> list[str]:
        # The pie rule's "keep" is simply playing a move; its button only explains that.
        actions = list(actions)
        if "swap" in actions:
            actions.append("~keep")
        return actions

    async def _result_line(self, match: Any) -> str:
        """The result, said as the match's last message said it (names instead of pings)."""
        result = match.result or {}
        names = {u: f"**{in_text(await self.names.name(u))}**" for u in result.get("winners", [])}
        line = board_logic.result_text(match.seats, result, lambda u: names.get(u, "?"))
        if match.score_text and match.game != "leiff":
            line += f" Score: {match.score_text}."
        return line

    async def _rating_lines(self, update: Any) -> list[str]:
        if not update.rating_changes:
            return []
        parts = []
        for change in update.rating_changes:
            name = in_text(await self.names.name(change.user_id))
            delta = change.after_ordinal - change.before_ordinal
            parts.append(
                f"{name} {change.before_ordinal:.1f} → {change.after_ordinal:.1f} ({delta:+.1f})"
            )
        lines = ["Ratings: " + ", ".join(parts) + "."]
        result = update.match.result if update.match is not None else None
        rose = all(c.after_ordinal > c.before_ordinal for c in update.rating_changes)
        if result and result.get("draw") and rose:
            # Otherwise a draw that raises both ratings looks like a mistake.
            lines.append(
                "A draw raised both ratings: a rating is a cautious estimate (skill minus "
                "three times its uncertainty), and every game played makes it more certain."
            )
        return lines

    async def _leiff_public(self, update: Any) -> Outgoing:
        match = update.match
        names = await self.seat_names(match)
        lines = [f"**Leiff** · table #{match.id}"]
        lines.extend(sentence(t) for t in update.texts_for(None))
        pings: tuple[int, ...] = ()
        image = None
        if match.status == "lobby":
            players = ", ".join(f"**{in_text(n)}**" for n in names) or "nobody yet"
            lines.append(f"Players ({len(names)}/{MAX_LEIFF_PLAYERS}): {players}.")
            options = match.options or {}
            lines.append(f"Options: {describe_leiff_options(options)}.")
            if options.get("teams"):
                lines.append(
                    "Teams of two sit alternately, in the order of joining (4 or 6 players)."
                )
            lines.append(
                "The host starts the game once 2 to 6 players have joined, and may seat bots."
            )
        else:
            picture = next((p for p in update.pictures if p.kind == "table"), None)
            if picture is not None and picture.view is not None:
                image = await self.painter.table_png(picture.view, names)
            if match.status == "running":
                pings = tuple(u for u in update.mentions if u in match.to_act)
                if _table_step(update) == "next":
                    lines.append(
                        "The round is over. When everyone has seen the hands, anyone may deal "
                        "the next round with **Deal the next round** under their hand."
                    )
                elif pings:
                    # One line, however many players a step waits for (a team deal: four).
                    who = [await self.mention_or_name(u, pings) for u in pings]
                    lines.append(_listing(who) + ", your move.")
                for user_id in match.to_act:
                    if _is_bot(match, user_id) and match.bot_to_act:
                        lines.append(await self._thinking_line(match, user_id))
            elif match.result is not None and update.kind == "refresh":
                lines.append(await self._result_line(match))
            lines.extend(await self._rating_lines(update))
        actions = [a for b in update.buttons if b.for_user is None for a in b.actions]
        if match.status == "running":
            actions.append(SHOW_HAND)
        elif match.status == "lobby":
            # The bot-seat buttons are the Discord layer's own (the service checks the host).
            if len(match.seats) < MAX_LEIFF_PLAYERS:
                actions.append(ADD_BOT)
            if any(seat.is_bot for seat in match.seats):
                actions.append(REMOVE_BOT)
        choices = service_choices(actions)
        version = next((b.version for b in update.buttons if b.for_user is None), match.version)
        return Outgoing(
            "\n".join(lines), image, "table.png", choices, LEIFF, match.id, version, pings
        )

    @staticmethod
    def private_users(update: Any) -> list[int]:
        """The Leiff players this update has something private for (their hand, news)."""
        match = update.match
        if match is None or match.game != "leiff" or match.status == "lobby":
            return []
        users = {p.for_user for p in update.pictures if p.for_user is not None}
        users |= {m.to for m in update.messages if m.to is not None}
        users |= {b.for_user for b in update.buttons if b.for_user is not None}
        # Leiff bot seats have negative pseudo ids: nobody to send a DM to.
        return sorted(u for u in users if u > 0)

    async def private_messages(self, update: Any) -> dict[int, Outgoing]:
        """Each Leiff player's private view in this update, by user id."""
        users = self.private_users(update)
        if not users:
            return {}
        names = await self.seat_names(update.match)
        drawn = await asyncio.gather(*(self.hand_message(update, u, names) for u in users))
        return dict(zip(users, drawn, strict=True))

    async def hand_message(self, update: Any, user_id: int, names: Sequence[str]) -> Outgoing:
        """One player's private message: their view, their news and their actions."""
        match = update.match
        seat = next((s.seat for s in match.seats if s.user_id == user_id), None)
        picture = next(
            (p for p in update.pictures if p.kind == "hand" and p.for_user == user_id), None
        )
        image = None
        if picture is not None and picture.view is not None and seat is not None:
            image = await self.painter.hand_png(picture.view, seat, names)
        lines = [f"**Leiff** · table #{match.id} · your hand"]
        lines.extend(sentence(t) for t in update.texts_for(user_id))
        if match.status == "running" and user_id in match.to_act and _table_step(update) != "next":
            lines.append("**Your move.**")
        buttons = next((b for b in update.buttons if b.for_user == user_id), None)
        choices = leiff_choices(buttons.actions, names) if buttons is not None else []
        if buttons is not None and not buttons.actions and match.status == "running":
            lines.append("Nothing to do right now: the channel pings you when it is your move.")
        version = buttons.version if buttons is not None else match.version
        return Outgoing("\n".join(lines), image, "hand.png", choices, LEIFF, match.id, version)

    # ---- sending -------------------------------------------------------------------
    def channel_of(self, update: Any) -> discord.abc.Messageable | None:
        channel_id = update.thread_id or update.channel_id
        if channel_id is None and update.match is not None:
            channel_id = update.match.thread_id or update.match.channel_id
        if channel_id is None and update.challenge is not None:
            channel_id = update.challenge.thread_id or update.challenge.channel_id
        if channel_id is None:
            return None
        return self.client.get_partial_messageable(channel_id, guild_id=update.guild_id)

    async def publish(
        self, update: Any, responder: Responder | None = None
    ) -> discord.Message | None:
        """Send everything one update asks for; returns the public message if one was posted.

        The answer the clicking user waits for goes first: their own hand when they clicked
        in it, else the channel message. Everything else is drawn side by side.
        """
        users = self.private_users(update)
        if responder is not None and responder.origin_is_private and responder.user_id in users:
            names = await self.seat_names(update.match)
            mine = await self.hand_message(update, responder.user_id, names)
            await self._send_private(update, responder.user_id, mine, responder)
            update = dataclasses.replace(
                update,
                pictures=tuple(p for p in update.pictures if p.for_user != responder.user_id),
                messages=tuple(m for m in update.messages if m.to != responder.user_id),
                buttons=tuple(b for b in update.buttons if b.for_user != responder.user_id),
            )
        public, privates = await asyncio.gather(
            self.public_message(update), self.private_messages(update)
        )
        posted = None
        if public is not None:
            posted = await self._send_public(update, public, responder)
        await asyncio.gather(
            *(self._send_private(update, u, o, responder) for u, o in privates.items())
        )
        self.request_bot_turns(update)
        return posted

    def _message_kind(self, update: Any) -> str:
        if update.match is None:
            return "challenge"
        if update.match.game == "leiff":
            return "lobby" if update.match.status == "lobby" else "table"
        return "board"

    async def _send_public(
        self, update: Any, public: Outgoing, responder: Responder | None
    ) -> discord.Message | None:
        channel = self.channel_of(update)
        if channel is None:
            return None
        kind = self._message_kind(update)
        origin = responder.origin if responder is not None else None
        origin_is_public = (
            origin is not None and responder is not None and not responder.origin_is_private
        )

        # A lobby or a finished challenge is one message kept up to date in place.
        if origin_is_public and (kind == "lobby" or update.kind in CHALLENGE_END_KINDS):
            assert responder is not None
            if await responder.update_origin(**public.edit_kwargs()):
                if update.match is not None:
                    await self.service.set_message(update.match.id, kind, origin.id)
                return origin
        if origin is not None and responder is not None and not responder.origin_updated:
            # the clicked message has been used: its buttons go grey
            await responder.update_origin(view=_disabled(origin))
        if update.kind in CHALLENGE_END_KINDS and origin is None and update.challenge is not None:
            known = update.challenge.message_id
            if known is not None:
                try:
                    message = channel.get_partial_message(known)  # type: ignore[attr-defined]
                    await message.edit(**public.edit_kwargs())
                    return None
                except discord.HTTPException:
                    pass
        previous = update.match.messages.get(kind) if update.match is not None else None
        if responder is not None:
            posted = await responder.public(channel, **public.send_kwargs())
        else:
            posted = await channel.send(**public.send_kwargs())
        # Record the new message and grey out the previous one, side by side.
        chores = []
        if update.match is not None and posted is not None:
            chores.append(self.service.set_message(update.match.id, kind, posted.id))
        if update.match is None and update.challenge is not None and posted is not None:
            chores.append(self.service.set_challenge_message(update.challenge.id, posted.id))
        if (
            previous
            and (origin is None or previous != origin.id)
            and (posted is None or previous != posted.id)
        ):
            chores.append(self._strip_buttons(channel, previous))
        await asyncio.gather(*chores)
        return posted

    async def _strip_buttons(self, channel: discord.abc.Messageable, message_id: int) -> None:
        try:
            await channel.get_partial_message(message_id).edit(view=None)  # type: ignore[attr-defined]
        except discord.HTTPException as error:
            log.debug("could not clear the buttons of message %s: %s", message_id, error)

    async def _send_private(
        self, update: Any, user_id: int, outgoing: Outgoing, responder: Responder | None
    ) -> None:
        match = update.match
        mine = responder is not None and responder.user_id == user_id
        # the player clicked in their own hand message: that message becomes the new one
        if (
            mine
            and responder is not None
            and responder.origin_is_private
            and await responder.update_origin(**outgoing.edit_kwargs())
        ):
            if responder.in_dm and responder.origin is not None:
                await self.service.set_message(match.id, f"hand:{user_id}", responder.origin.id)
            return
        refusal = await self._refusal(user_id)
        if not self._worth_a_dm(refusal, match.id):
            if mine and responder is not None:
                await responder.private(**outgoing.send_kwargs())
            return
        if refusal is not None:
            # Trying again after a refusal: send the whole hand, as the player may never
            # have had one in their DMs.
            outgoing = await self.current_hand(match.id, user_id)
        if await self.try_dm(match, user_id, outgoing, refused_before=refusal is not None):
            return
        if mine and responder is not None:
            await responder.private(**outgoing.send_kwargs())
        await self._dm_closed_notice(update, user_id)

    async def _refusal(self, user_id: int) -> Any:
        """The user's DM refusal as every process knows it (a ``DmFailure``), or None."""
        return (await self.service.dm_failures([user_id])).get(user_id)

    def _worth_a_dm(self, refusal: Any, match_id: int) -> bool:
        return (
            refusal is None
            or match_id not in refusal.noticed
            or self._now() - refusal.failed_at >= DM_RETRY_SECONDS
        )

    def _now(self) -> float:
        return float(self.service.clock())  # the service's clock: tests move it

    async def try_dm(
        self, match: Any, user_id: int, outgoing: Outgoing, *, refused_before: bool
    ) -> bool:
        """Send (or edit) the player's DM hand message; False when Discord refuses their
        DMs (50007), which is remembered (in the database, for every process) until a DM
        gets through again. ``refused_before``: the DMs were refused last time."""
        try:
            await self._deliver_dm(match, user_id, outgoing)
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                raise
            await self.service.note_dm_failure(user_id, error.code)
            log.info("DMs closed for user %s; offering the in-channel hand button", user_id)
            return False
        if refused_before:
            await self.service.note_dm_delivered(user_id)
            log.info("DMs open again for user %s", user_id)
        return True

    async def dm_refused(self, user_id: int) -> bool:
        """Whether Discord refused this user's DMs the last time they were tried."""
        return await self._refusal(user_id) is not None

    async def current_hand(self, match_id: int, user_id: int) -> Outgoing:
        """The player's whole private message as the match is now."""
        update = await self.service.current(match_id, for_user=user_id)
        return await self.hand_message(update, user_id, await self.seat_names(update.match))

    async def _deliver_dm(self, match: Any, user_id: int, outgoing: Outgoing) -> None:
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            dm = await user.create_dm()
            channel_id = self._dm_channels[user_id] = dm.id
        channel = self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        key = f"hand:{user_id}"
        previous = match.messages.get(key)
        if previous:
            try:
                await channel.get_partial_message(previous).edit(**outgoing.edit_kwargs())
                return
            except discord.NotFound:
                pass
        posted = await channel.send(**outgoing.send_kwargs())
        await self.service.set_message(match.id, key, posted.id)

    async def _dm_closed_notice(self, update: Any, user_id: int) -> None:
        """Once per table while the DMs stay closed: say so in the channel, naming no card,
        with the "Show my hand" button."""
        match = update.match
        if not await self.service.claim_dm_notice(user_id, match.id):
            return  # this table was told already (by this process or another)
        channel = self.channel_of(update)
        if channel is None:
            return
        name = in_text(await self.names.name(user_id))
        notice = Outgoing(
            f"I cannot send **{name}** direct messages (their DMs are closed). "
            f"**{name}**, use **Show my hand** to see your cards and actions here, privately; "
            "once you open your DMs, pressing it moves your hand back there.",
            choices=service_choices([SHOW_HAND]),
            scope=LEIFF,
            target=match.id,
            version=match.version,
        )
        await channel.send(**notice.send_kwargs())


def _table_step(update: Any) -> str | None:
    """The step a Leiff table waits for, read from a view the update carries (if any)."""
    for picture in update.pictures:
        if picture.view is not None:
            return (picture.view.get("waiting_for") or {}).get("step")
    return None


def _listing(items: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _is_bot(match: Any, user_id: int) -> bool:
    return any(seat.is_bot and seat.user_id == user_id for seat in match.seats)


def _disabled(message: discord.Message | None) -> discord.ui.View | None:
    from bot.ui.components import disabled_copy

    return disabled_copy(message)
