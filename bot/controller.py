"""From a slash command or a click to one service call, and its update to messages.

Every handler here follows the same three steps: read what the user asked for from the
interaction, make exactly one service call, and hand the returned ``Update`` to the
presenter. Refusals raised by the service travel to :func:`bot.errors.player_message` and
come back as an ephemeral answer; nothing is changed by a refused call.

Presentation-only helpers live here too: the autocomplete of ``/move`` (filtering the
engine's legal moves by what was typed) and the Lefe capture menu (offered when a typed
cell could capture more than one tree).
"""

from __future__ import annotations

import dataclasses
import logging
import random
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.errors import GENERIC_FAILURE, UNDELIVERED, UserFacingError, player_message
from bot.names import excerpt, in_text
from bot.presenter import Outgoing, full_sentence, game_title, only_for
from bot.responder import Responder
from bot.service import IllegalAction, Message, StaleVersion, TooLate
from bot.ui.components import Choice, build_view
from bot.ui.custom_ids import (
    ADD_BOT,
    BOARD,
    CHALLENGE,
    PICK,
    PROMPT,
    REMOVE_BOT,
    SHOW_HAND,
    ComponentId,
)
from engine import BOARD_GAMES, get_game

if TYPE_CHECKING:
    from bot.app import LeafBot

log = logging.getLogger(__name__)

BOARD_SERVICE_ACTIONS = ("resign", "offer_draw", "accept_draw", "decline_draw")
OUT_OF_TURN = frozenset({"match", "catch", "penalty", "next"})
AUTOCOMPLETE_LIMIT = 25
GAMES_LISTED = 20  # matches shown by /games (a private message holds 2000 characters)
MAX_REPLY = 2000  # Discord's limit for a message's text
# What a typed move can be made of (cells, Lefe captures "e5xg6", Les pairs "e5+b2", words
# such as "pass"); anything else is refused before it reaches the game.
MOVE_TEXT = re.compile(r"[a-z0-9+ ]{1,20}")

Handler = Callable[[Responder], Awaitable[None]]


class RuleModal(discord.ui.Modal, title="Klatschtante: the new table rule"):
    """Free text for the Klatschtante's table rule; submitting plays ``rule TEXT``."""

    rule: discord.ui.TextInput[RuleModal] = discord.ui.TextInput(
        label="Rule (shown on the table)", min_length=1, max_length=100
    )

    def __init__(
        self, controller: Controller, match_id: int, version: int, suggestion: str
    ) -> None:
        super().__init__(timeout=600)
        self.controller = controller
        self.match_id = match_id
        self.version = version
        self.rule.default = suggestion[:100] or None

    async def on_submit(self, interaction: discord.Interaction) -> None:
        text = " ".join(str(self.rule.value).split())

        async def play(responder: Responder) -> None:
            if not text:
                raise UserFacingError("The rule cannot be empty.")
            update = await self.controller.service.leiff_action(
                self.match_id, responder.user_id, f"rule {text}", version=self.version
            )
            await self.controller.presenter.publish(update, responder)

        await self.controller.handle(interaction, play)


class Controller:
    """Turns interactions into service calls and their updates into messages."""

    def __init__(self, bot: LeafBot) -> None:
        self.bot = bot

    @property
    def service(self) -> Any:
        return self.bot.service

    @property
    def presenter(self) -> Any:
        return self.bot.presenter

    # ---- the common frame ----------------------------------------------------------
    async def handle(self, interaction: discord.Interaction, handler: Handler) -> None:
        """Run one handler with a responder; every exception becomes an ephemeral answer."""
        responder = Responder(interaction)
        self.presenter.names.remember_interaction(interaction)
        try:
            await handler(responder)
        except Exception as error:
            text = player_message(error)
            if text is None:
                log.error(
                    "unexpected error handling interaction %s", interaction.id, exc_info=error
                )
                text = GENERIC_FAILURE
            await self._refuse(responder, full_sentence(text))
            if isinstance(error, TooLate) and error.update is not None:
                # The clock's timeout was applied instead: the channel hears of it as from
                # a tick (the refusal above has already answered the interaction).
                await self._publish_quietly(error.update)
        finally:
            await responder.finish()

    async def _publish_quietly(self, update: Any) -> None:
        try:
            await self.presenter.publish(update)
        except Exception:
            log.exception("could not publish a %s update", update.kind)

    @staticmethod
    async def _refuse(responder: Responder, text: str) -> None:
        """Answer privately; if that answer cannot be delivered, a short generic one, and if
        even that fails the placeholder says so (it never reads as a success)."""
        for attempt in (text[:MAX_REPLY], UNDELIVERED):
            try:
                await responder.private(attempt)
                return
            except discord.HTTPException as error:
                log.warning(
                    "could not deliver a reply to interaction %s: %s",
                    responder.interaction.id,
                    error,
                )
        responder.failed = True

    # ---- components ----------------------------------------------------------------
    async def on_component(
        self, interaction: discord.Interaction, component: ComponentId, values: tuple[str, ...]
    ) -> None:
        async def run(responder: Responder) -> None:
            action = component.action
            if action.startswith(PICK):
                if not values:
                    raise UserFacingError("Pick one of the options.")
                action = values[0]
            if component.scope == CHALLENGE:
                await self._challenge_click(responder, component.target, action)
            elif component.scope == BOARD:
                await self._board_click(responder, component.target, component.version, action)
            else:
                await self._leiff_click(responder, component.target, component.version, action)

        await self.handle(interaction, run)

    async def _challenge_click(self, responder: Responder, challenge_id: int, action: str) -> None:
        calls = {
            "accept": self.service.accept_challenge,
            "decline": self.service.decline_challenge,
            "cancel": self.service.cancel_challenge,
        }
        if action not in calls:
            raise UserFacingError("That button is no longer in use.")
        update = await calls[action](challenge_id, responder.user_id)
        await self.presenter.publish(update, responder)

    async def _board_click(
        self, responder: Responder, match_id: int, version: int, action: str
    ) -> None:
        user_id = responder.user_id
        if action == "~keep":
            await self.service.get_match(match_id)  # a finished or unknown match says so
            await responder.private("To keep your colour, simply play your move: `/move cell`.")
            return
        if action == "rematch":
            update = await self.service.rematch(match_id, user_id)
        elif action in BOARD_SERVICE_ACTIONS:
            update = await getattr(self.service, action)(match_id, user_id, version=version)
        else:
            update = await self.service.play(match_id, user_id, action, version=version)
        await self.presenter.publish(update, responder)

    async def _leiff_click(
        self, responder: Responder, match_id: int, version: int, action: str
    ) -> None:
        user_id = responder.user_id
        if action == SHOW_HAND:
            await self._show_hand(responder, match_id)
            return
        if action.startswith(PROMPT):
            await self._open_rule_modal(responder, match_id, version)
            return
        if action == "join":
            update = await self.service.join_lobby(match_id, user_id, version=None)
        elif action == "leave":
            update = await self.service.leave_lobby(match_id, user_id, version=None)
        elif action == "start":
            update = await self.service.start_lobby(match_id, user_id, version=None)
        elif action == ADD_BOT:
            update = await self.service.add_bot_seat(match_id, user_id, version=None)
        elif action == REMOVE_BOT:
            update = await self.service.remove_bot_seat(match_id, user_id, version=None)
        else:
            # Matching, catching and penalties are judged against the pile as it is when they
            # arrive (the rules say so), so they carry no version; turn actions do.
            out_of_turn = action.split(" ", 1)[0] in OUT_OF_TURN
            try:
                update = await self.service.leiff_action(
                    match_id, user_id, action, version=None if out_of_turn else version
                )
            except StaleVersion:
                if responder.origin_is_private:  # bring the outdated hand message up to date
                    await self._refresh_hand(responder, match_id)
                raise
        await self.presenter.publish(update, responder)

    async def _hand_outgoing(self, match_id: int, user_id: int) -> tuple[Any, Outgoing]:
        update = await self.service.current(match_id, for_user=user_id)
        match = update.match
        if match is None or match.game != "leiff":
            raise UserFacingError("That is not a Leiff table.")
        if user_id not in match.user_ids:
            raise UserFacingError("You are not playing at this table.")
        if match.status == "lobby":
            raise UserFacingError("The game has not started yet.")
        names = await self.presenter.seat_names(match)
        return match, await self.presenter.hand_message(update, user_id, names)

    async def _show_hand(self, responder: Responder, match_id: int) -> None:
        match, outgoing = await self._hand_outgoing(match_id, responder.user_id)
        # A player whose DMs refused us may have opened them since: try once more, and if
        # the hand gets through, it lives in their DMs again from now on.
        if await self.presenter.dm_refused(responder.user_id) and await self.presenter.try_dm(
            match, responder.user_id, outgoing, refused_before=True
        ):
            await responder.private(
                "Your DMs are open again: your hand is there now, and it stays up to date there."
            )
            return
        await responder.private(**outgoing.send_kwargs())

    async def _refresh_hand(self, responder: Responder, match_id: int) -> None:
        """A stale click in a hand message: bring that message up to date."""
        try:
            _, outgoing = await self._hand_outgoing(match_id, responder.user_id)
        except Exception:
            return
        await responder.update_origin(**outgoing.edit_kwargs())

    async def _open_rule_modal(self, responder: Responder, match_id: int, version: int) -> None:
        update = await self.service.current(match_id)
        actions = next((b.actions for b in update.buttons if b.for_user == responder.user_id), ())
        suggestion = next((a[len("rule ") :] for a in actions if a.startswith("rule ")), None)
        if suggestion is None:
            raise UserFacingError("There is no table rule to write right now.")
        await responder.modal(RuleModal(self, match_id, version, suggestion))

    # ---- slash commands ------------------------------------------------------------
    async def play(
        self,
        interaction: discord.Interaction,
        game: str,
        opponent: discord.abc.User | None,
        size: int | None,
        options: dict[str, Any],
        level: str | None = None,
    ) -> None:
        async def run(responder: Responder) -> None:
            if interaction.guild_id is None:
                raise UserFacingError("Games are played in a server channel, not in DMs.")
            me = self.bot.user
            against_me = opponent is not None and me is not None and opponent.id == me.id
            if game == "leiff":
                if level is not None:
                    raise UserFacingError(
                        "Leiff has no level option: open the table, then press **Add bot seat**."
                    )
                if opponent is not None:
                    raise UserFacingError(
                        "Leiff opens a table anyone can join; leave out the opponent."
                    )
                if size is not None:
                    raise UserFacingError("Leiff has no board size.")
                update = await self.service.open_lobby(
                    interaction.guild_id,
                    interaction.channel_id,
                    responder.user_id,
                    options=options or None,
                )
            else:
                if opponent is not None and opponent.bot and not against_me:
                    raise UserFacingError(
                        "Other bots cannot accept challenges; challenge a person, me, "
                        "or leave the opponent out."
                    )
                if level is not None and not against_me:
                    raise UserFacingError(
                        "A level is only for games against me: choose me as the opponent, "
                        "or leave the level out."
                    )
                update = await self.service.challenge(
                    interaction.guild_id,
                    interaction.channel_id,
                    responder.user_id,
                    game,
                    opponent.id if opponent is not None else None,
                    size=size,
                    options=options or None,
                    level=level,
                )
            await self.presenter.publish(update, responder)

        await self.handle(interaction, run)

    # ---- "my match here" -------------------------------------------------------------
    async def match_here(self, guild_id: int, channel_id: int, user_id: int) -> Any:
        """The user's most recently active match (or lobby) in this channel, or None."""
        return await self.service.match_in_channel(guild_id, channel_id, user_id)

    async def _my_match(self, interaction: discord.Interaction, user_id: int) -> Any:
        if interaction.guild_id is None:
            raise UserFacingError("Use this in the channel where your match is played.")
        match = await self.match_here(interaction.guild_id, interaction.channel_id, user_id)
        if match is None:
            raise UserFacingError(
                "You have no running match in this channel. Start one with `/play`."
            )
        return match

    async def _board_matches_here(self, interaction: discord.Interaction, user_id: int) -> Any:
        """The user's running board matches in this channel, whatever else they play here
        (a Leiff table never hides them), most recently active first."""
        if interaction.guild_id is None:
            return []
        return await self.service.board_matches_in_channel(
            interaction.guild_id, interaction.channel_id, user_id
        )

    async def match_label(self, match: Any, user_id: int, *, in_message: bool = False) -> str:
        """A match as its player recognises it: "Lefe vs Bob (#12)" (opponent by name)."""
        others = [seat.user_id for seat in match.seats if seat.user_id != user_id]
        opponent = await self.presenter.names.name(others[0]) if others else "nobody"
        if in_message:
            opponent = in_text(opponent)
        return f"{game_title(match.game)} vs {opponent} (#{match.id})"

    async def _my_board_match(
        self,
        interaction: discord.Interaction,
        user_id: int,
        match_id: int | None,
        *,
        for_a_move: bool,
    ) -> tuple[Any, str | None]:
        """The board match ``/move`` or ``/resign`` acts on, and a line saying which one it
        was when the player has several here and did not name it (else None).

        The ``match`` option names it; without it, the only board match here, or (for a
        move) the only one where it is the player's turn. Anything else is refused with the
        list to choose from: resigning the wrong match must never happen by accident.
        """
        if interaction.guild_id is None:
            raise UserFacingError("Use this in the channel where your match is played.")
        matches = await self._board_matches_here(interaction, user_id)
        if match_id is not None:
            chosen = next((m for m in matches if m.id == match_id), None)
            if chosen is None:
                raise UserFacingError(
                    f"Match #{match_id} is not one of your running board matches in this "
                    "channel." + await self._yours_here(matches, user_id)
                )
            return chosen, None
        if not matches:
            raise UserFacingError(await self._no_board_match(interaction, user_id, for_a_move))
        if len(matches) == 1:
            return matches[0], None
        due = [m for m in matches if user_id in m.to_act]
        if for_a_move and len(due) == 1:
            label = await self.match_label(due[0], user_id, in_message=True)
            name = in_text(await self.presenter.names.name(user_id))
            return due[0], (
                f"Played in {label}: **{name}** has {len(matches)} board matches in this channel."
            )
        raise UserFacingError(
            f"You have {len(matches)} board matches in this channel. Choose one with the "
            "`match` option." + await self._yours_here(matches, user_id)
        )

    async def _yours_here(self, matches: list[Any], user_id: int) -> str:
        if not matches:
            return ""
        labels = [await self.match_label(m, user_id, in_message=True) for m in matches]
        return " Yours here: " + ", ".join(labels) + "."

    async def _no_board_match(
        self, interaction: discord.Interaction, user_id: int, for_a_move: bool
    ) -> str:
        assert interaction.guild_id is not None
        other = await self.match_here(interaction.guild_id, interaction.channel_id, user_id)
        if other is not None and other.game == "leiff":
            if for_a_move:
                return (
                    "You have no board match in this channel. Leiff is played with the "
                    "buttons of your hand (in your DMs, or under **Show my hand**)."
                )
            return (
                "You have no board match in this channel. Leiff has no resignation: if you "
                "stop playing, the clock plays for you, and after a few timeouts in a row you "
                "leave the table."
            )
        return "You have no running match in this channel. Start one with `/play`."

    async def match_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The caller's board matches in this channel, as "Lefe vs Bob (#12)"."""
        user_id = interaction.user.id
        typed = "".join(str(current).split()).casefold().lstrip("#")
        choices = []
        for match in await self._board_matches_here(interaction, user_id):
            label = await self.match_label(match, user_id)
            if typed and typed not in "".join(label.split()).casefold():
                continue
            choices.append(app_commands.Choice(name=label[:100], value=match.id))
        return choices[:AUTOCOMPLETE_LIMIT]

    async def move(
        self, interaction: discord.Interaction, text: str, match_id: int | None = None
    ) -> None:
        async def run(responder: Responder) -> None:
            match, note = await self._my_board_match(
                interaction, responder.user_id, match_id, for_a_move=True
            )
            move = " ".join(text.split()).lower()
            if not move:
                raise UserFacingError("Type a cell, for example `f6`.")
            if not MOVE_TEXT.fullmatch(move):
                # Quote only a short, safe excerpt: the reply must stay readable (and within
                # Discord's limit) whatever was typed.
                raise UserFacingError(
                    f"“{excerpt(text)}” is not a move. Type a cell such as `f6`; "
                    "the list above the box shows your legal moves."
                )
            try:
                update = await self.service.play(match.id, responder.user_id, move, version=None)
            except IllegalAction as error:
                # A bare Lefe cell that must capture one of several trees: offer the choice.
                captures = await self._capture_options(match, responder.user_id, move)
                if not captures:
                    reason = str(error)
                    if reason.startswith(move + " ") and not move[:1].isdigit():
                        # The rules quote what was typed first: keep it as typed, in quotes
                        # (not capitalised like the start of a sentence).
                        raise UserFacingError(f"“{move}”{reason[len(move) :]}") from None
                    raise
                view = build_view(BOARD, match.id, match.version, captures, select_threshold=1)
                await responder.private(
                    f"{move} can capture more than one tree: which one?", view=view
                )
                return
            await self.presenter.publish(_with_note(update, note), responder)

        await self.handle(interaction, run)

    async def _legal_moves(self, match: Any, user_id: int) -> tuple[Any, list[str]]:
        """The stored state and its legal moves when it is the user's turn (else none)."""
        if user_id not in match.to_act:
            return None, []
        update = await self.service.current(match.id)
        state = next(
            (p.state for p in update.pictures if p.kind == "board" and p.state is not None), None
        )
        if state is None or state.outcome is not None:
            return state, []
        return state, list(state.legal_moves())

    async def _capture_options(self, match: Any, user_id: int, move: str) -> list[Choice]:
        """Lefe: a bare cell whose placement must capture one of several trees."""
        if match.game != "lefe" or "x" in move:
            return []
        _, legal = await self._legal_moves(match, user_id)
        if move in legal:
            return []
        captures = sorted(m for m in legal if m.startswith(move + "x"))
        if len(captures) < 2:
            return []
        return [
            Choice(
                m,
                f"{move}, capturing the tree at {m.split('x', 1)[1]}",
                discord.ButtonStyle.primary,
                "capture",
                "Capture which tree?",
            )
            for m in captures
        ]

    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's legal moves in their board match here that start with what they
        typed (the match named by the ``match`` option, else the only one, else the only
        one where it is their turn)."""
        user_id = interaction.user.id
        matches = await self._board_matches_here(interaction, user_id)
        chosen = getattr(interaction.namespace, "match", None)
        if isinstance(chosen, int) and not isinstance(chosen, bool):
            matches = [m for m in matches if m.id == chosen]
        elif len(matches) > 1:
            matches = [m for m in matches if user_id in m.to_act]
        if len(matches) != 1:
            return []
        match = matches[0]
        _, legal = await self._legal_moves(match, interaction.user.id)
        typed = "".join(current.split()).lower()
        found = sorted((m for m in legal if m.startswith(typed)), key=_move_order)
        return [
            app_commands.Choice(name=_move_label(m), value=m) for m in found[:AUTOCOMPLETE_LIMIT]
        ]

    async def board(self, interaction: discord.Interaction) -> None:
        async def run(responder: Responder) -> None:
            match = await self._my_match(interaction, responder.user_id)
            update = await self.service.current(match.id, for_user=responder.user_id)
            # showing the board again pings nobody and shows only the caller's own hand
            update = only_for(dataclasses.replace(update, mentions=()), responder.user_id)
            await self.presenter.publish(update, responder)

        await self.handle(interaction, run)

    async def resign(self, interaction: discord.Interaction, match_id: int | None = None) -> None:
        async def run(responder: Responder) -> None:
            match, note = await self._my_board_match(
                interaction, responder.user_id, match_id, for_a_move=False
            )
            update = await self.service.resign(match.id, responder.user_id, version=None)
            await self.presenter.publish(_with_note(update, note), responder)

        await self.handle(interaction, run)

    async def games(self, interaction: discord.Interaction) -> None:
        async def run(responder: Responder) -> None:
            if interaction.guild_id is None:
                raise UserFacingError("Use this in a server.")
            guild_id = interaction.guild_id
            matches = await self.service.guild_matches(guild_id, limit=GAMES_LISTED + 1)
            challenges = await self.service.open_challenges(guild_id)
            lines = ["**Matches on this server** (yours marked ★)"]
            for match in matches[:GAMES_LISTED]:
                names = ", ".join(in_text(n) for n in await self.presenter.seat_names(match))
                place = f"<#{match.thread_id or match.channel_id}>"
                mine = "★ " if responder.user_id in match.user_ids else ""
                status = "open table" if match.status == "lobby" else "running"
                lines.append(
                    f"{mine}#{match.id} {game_title(match.game)} ({status}) in {place}: {names}"
                )
            if len(matches) > GAMES_LISTED:
                lines.append(f"…and more; these are the {GAMES_LISTED} most recently active.")
            if not matches:
                lines.append("None running. Start one with `/play`.")
            lines.append("**Open challenges**")
            for challenge in challenges[:20]:
                who = in_text(await self.presenter.names.name(challenge.challenger_id))
                aimed = (
                    f" for {in_text(await self.presenter.names.name(challenge.target_id))}"
                    if challenge.target_id is not None
                    else " (anyone may accept)"
                )
                lines.append(
                    f"{game_title(challenge.game)} by {who}{aimed} in <#{challenge.channel_id}>, "
                    f"expires <t:{int(challenge.expires_at)}:R>"
                )
            if not challenges:
                lines.append("None.")
            await responder.private("\n".join(lines))

        await self.handle(interaction, run)

    async def replay(self, interaction: discord.Interaction, match_id: int) -> None:
        async def run(responder: Responder) -> None:
            match = await self.service.get_match(match_id)
            if match.guild_id != interaction.guild_id:
                raise UserFacingError("There is no such match on this server.")
            if match.game not in BOARD_GAMES:
                raise UserFacingError("Replays are made for the board games only.")
            if match.status != "finished":
                raise UserFacingError(
                    "That match is still running; a replay is made once it is over."
                )
            await responder.acknowledge()
            update = await self.service.current(match.id)
            state = next(
                p.state for p in update.pictures if p.kind == "board" and p.state is not None
            )
            names = await self.presenter.seat_names(match)
            gif = await self.bot.painter.replay_gif(state, names)
            await responder.private(
                f"Replay of match #{match.id} ({game_title(match.game)}).",
                file=discord.File(_bytes_io(gif), filename=f"match-{match.id}.gif"),
            )

        await self.handle(interaction, run)

    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        async def run(responder: Responder) -> None:
            await responder.acknowledge()
            text, image, filename = await rules_card(game, self.bot.painter)
            await responder.private(text, file=discord.File(_bytes_io(image), filename=filename))

        await self.handle(interaction, run)

    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        async def run(responder: Responder) -> None:
            if interaction.guild_id is None:
                raise UserFacingError("Use this in a server.")
            rows = await self.service.leaderboard(interaction.guild_id, game)
            lines = [f"**{game_title(game)} leaderboard**"]
            for row in rows:
                name = in_text(await self.presenter.names.name(row.user_id))
                lines.append(
                    f"{row.rank}. {name}: {row.ordinal:.1f} ({_games(row.games)}: "
                    f"{row.wins}W {row.losses}L {row.draws}D)"
                )
            if not rows:
                lines.append("Nobody has finished a rated game yet.")
            await responder.public(
                interaction.channel,
                content="\n".join(lines),  # type: ignore[arg-type]
                allowed_mentions=discord.AllowedMentions.none(),
            )

        await self.handle(interaction, run)

    async def stats(
        self, interaction: discord.Interaction, member: discord.abc.User | None
    ) -> None:
        async def run(responder: Responder) -> None:
            if interaction.guild_id is None:
                raise UserFacingError("Use this in a server.")
            user = member or interaction.user
            rows = await self.service.stats(interaction.guild_id, user.id)
            lines = [f"**Statistics of {in_text(await self.presenter.names.name(user.id))}**"]
            against_bot: list[str] = []
            for row in rows:
                if row.games:
                    lines.append(
                        f"{game_title(row.game)}: rating {row.ordinal:.1f}, {_games(row.games)}: "
                        f"{row.wins}W {row.losses}L {row.draws}D{_streak(row)}."
                    )
                # Games against the bot never touch the rating: they are listed apart.
                for record in row.vs_bot:
                    against_bot.append(
                        f"{game_title(record.game)} ({record.level}): {_games(record.games)}: "
                        f"{record.wins}W {record.losses}L {record.draws}D."
                    )
            if not any(row.games for row in rows):
                lines.append("No finished rated games yet.")
            if against_bot:
                lines.append("**Against the bot** (not rated)")
                lines.extend(against_bot)
            await responder.public(
                interaction.channel,
                content="\n".join(lines),  # type: ignore[arg-type]
                allowed_mentions=discord.AllowedMentions.none(),
            )

        await self.handle(interaction, run)

    async def settings(
        self, interaction: discord.Interaction, key: str | None, value: str | None
    ) -> None:
        async def run(responder: Responder) -> None:
            if interaction.guild_id is None:
                raise UserFacingError("Settings belong to a server; use this there.")
            allowed = bool(interaction.permissions.manage_guild)
            if key is None:
                if not allowed:
                    raise UserFacingError("You need the Manage Server permission for that.")
                current = await self.service.get_settings(interaction.guild_id)
            else:
                if value is None:
                    raise UserFacingError(f"Give a value for {key}.")
                current = await self.service.update_settings(
                    interaction.guild_id,
                    responder.user_id,
                    allowed,
                    **{key: _setting_value(key, value)},
                )
            body = "\n".join(f"`{line}`" for line in current.describe())
            await responder.private(f"**Server settings**\n{body}")

        await self.handle(interaction, run)


def _games(count: int) -> str:
    return "1 game" if count == 1 else f"{count} games"


def _streak(row: Any) -> str:
    """The current run and the best run of wins, in words ("" when there is nothing to say)."""
    parts = []
    if row.streak > 0:
        parts.append("won the last game" if row.streak == 1 else f"won the last {row.streak}")
    elif row.streak < 0:
        lost = -row.streak
        parts.append("lost the last game" if lost == 1 else f"lost the last {lost}")
    if row.best_streak > 1:
        parts.append(f"best run {row.best_streak} wins in a row")
    return "; " + ", ".join(parts) if parts else ""


def _with_note(update: Any, note: str | None) -> Any:
    """The update with one more line for the channel message (first, after the header)."""
    if note is None:
        return update
    return dataclasses.replace(update, messages=(Message(note), *update.messages))


def _setting_value(key: str, value: str) -> Any:
    """Settings arrive as text; channel lists may be given as mentions or ids."""
    if key == "allowed_channels":
        tokens = value.replace(",", " ").split()
        ids = []
        for token in tokens:
            if token.lower() == "none":
                continue
            digits = token.strip("<#>")
            if not digits.isdigit():
                raise UserFacingError("allowed_channels takes channel mentions or ids (or `none`).")
            ids.append(int(digits))
        return ids
    text = value.strip()
    if text.lstrip("-").isdigit():
        return int(text)
    return text


def _move_order(move: str) -> tuple[str, int, str]:
    column = move[:1]
    digits = "".join(ch for ch in move[1:3] if ch.isdigit())
    return (column, int(digits or 0), move)


def _move_label(move: str) -> str:
    if "x" in move and move not in ("swap",):
        cell, _, tree = move.partition("x")
        return f"{cell}, capturing the tree at {tree}"
    if "+" in move:
        first, _, second = move.partition("+")
        return f"{first} then {second}"
    return move


def _bytes_io(data: bytes) -> Any:
    import io

    return io.BytesIO(data)


async def rules_card(game: str, painter: Any) -> tuple[str, bytes, str]:
    """A short rules summary and a rendered example position of ``game``."""
    rules = get_game(game)
    summary = str(getattr(rules, "summary", "") or "")
    if game == "leiff":
        state = rules.new(players=3, seed=11, options={})
        view = state.view(0)
        # Example players: the picture's title reads "Ann's hand".
        image = await painter.hand_png(view, 0, ["Ann", "Ben", "Cleo"])
        return f"**Leiff**\n{summary}", image, "leiff-example.png"
    size = min(rules.sizes)
    state = rules.new(size=size)
    chooser = random.Random(7)  # a fixed example, the same every time
    for _ in range(12):
        moves = state.legal_moves()
        if state.outcome is not None or not moves:
            break
        state = state.play(chooser.choice(sorted(moves)))
    image = await painter.board_png(state, ["Alice", "Bob"])
    return (
        f"**{rules.title}**\n{summary}\nExample position after a few moves:",
        image,
        f"{game}-example.png",
    )


__all__ = ["Controller", "RuleModal", "rules_card"]
