"""The messages of board matches and challenges: what the channel sees after each update.

A board match is one channel message per update: the board picture with the last move
marked, a line per event, whose turn it is (the only ping), the time left, and the
buttons that apply now; while it is the turn of a member whose move hints are on, the
picture has a dot on every cell where they may play. A challenge is one message with Accept / Decline / Withdraw and
its expiry time, edited in place when it ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.common.context import Context
from bot.common.custom_ids import BOARD, CHALLENGE
from bot.common.delivery import MessageBuilder
from bot.common.games import game_title
from bot.common.match_lines import (
    is_bot,
    rating_lines,
    result_line,
    thinking_line,
)
from bot.common.outgoing import Outgoing, sentence
from bot.features.board_games.labels import KEEP, board_choices
from i18n import DEFAULT_LANGUAGE, translate


class ChallengeMessages(MessageBuilder):
    """The channel message of a challenge (or an open seek)."""

    def __init__(self, context: Context) -> None:
        self.context = context

    def message_kind(self, update: Any) -> str:
        return "challenge"

    async def public_message(self, update: Any) -> Outgoing:
        names = self.context.names
        challenge = update.challenge
        pings = tuple(update.mentions)
        who = await names.mention_or_name(challenge.challenger_id, ())
        title = game_title(challenge.game)
        size = f" (board {challenge.size})" if challenge.size else ""
        lines = [sentence(t) for t in update.texts_for(None)]
        if not lines:
            if challenge.target_id is None:
                lines.append(f"{who} is looking for a game of {title}{size}: anyone may accept.")
            else:
                target = await names.mention_or_name(challenge.target_id, pings)
                lines.append(f"{who} challenges {target} to {title}{size}.")
        choices = []
        if challenge.status == "open":
            lines.append(f"Expires <t:{int(challenge.expires_at)}:R>.")
            actions = [a for b in update.buttons for a in b.actions]
            choices = board_choices(actions)
        return Outgoing(
            "\n".join(lines),
            choices=choices,
            scope=CHALLENGE,
            target=challenge.id,
            version=0,
            pings=pings,
        )


class BoardMessages(MessageBuilder):
    """The channel message of a board match."""

    def __init__(self, context: Context) -> None:
        self.context = context

    def message_kind(self, update: Any) -> str:
        return "board"

    async def public_message(self, update: Any) -> Outgoing:
        names = self.context.names
        match = update.match
        seat_names = await names.seat_names(match)
        # whom the service asks to notify: the player to move, or the one a draw offer awaits
        pings = tuple(update.mentions) if match.status == "running" else ()
        picture = next(
            (p for p in update.pictures if p.kind == "board" and p.for_user is None), None
        )
        image = None
        state = picture.state if picture is not None else None
        hints = await self.hints_shown(match, state)
        if state is not None:
            image = await self.context.painter.board_png(state, seat_names, hints=hints)
        lines = [sentence(t) for t in update.texts_for(None)]
        header = f"**{game_title(match.game)}** · match #{match.id}"
        if state is not None:
            header += f" · board {state.size}"
        lines.insert(0, header)
        refresh = update.kind == "refresh"  # a redraw carries no service text of its own
        if match.status == "running":
            for user_id in match.to_act:
                if is_bot(match, user_id):
                    lines.append(await thinking_line(names, match, user_id))
                    continue
                mention = await names.mention_or_name(user_id, pings)
                if refresh or not any(mention in line for line in lines):
                    seat = next((s for s in match.seats if s.user_id == user_id), None)
                    colour = f" ({seat.colour})" if seat is not None and seat.colour else ""
                    lines.append(f"{mention} to move{colour}.")
            if match.deadline_at:
                lines.append(f"Time for this move runs out <t:{int(match.deadline_at)}:R>.")
            if refresh and match.draw_offer_by:
                offerer = await names.mention_or_name(match.draw_offer_by, ())
                lines.append(f"{offerer} offers a draw.")
        elif match.result is not None and refresh:
            lines.append(await result_line(names, match))
        if hints:
            lines.append(translate(DEFAULT_LANGUAGE, "bot.board.hints"))
        lines.extend(await rating_lines(names, update))
        actions = [a for b in update.buttons for a in b.actions]  # one shared board message
        choices = board_choices(_with_keep(actions))
        version = max((b.version for b in update.buttons), default=match.version)
        return Outgoing(
            "\n".join(lines), image, "board.png", choices, BOARD, match.id, version, pings
        )

    async def hints_shown(self, match: Any, state: Any) -> bool:
        """Whether the picture marks where the player to move may play: while a running
        game waits for one member (not the bot) whose hints are on (their ``/prefs``, or
        the default for their first games of the game). Where a stone may go is no secret
        in these games, so the shared picture of that member's turn carries the dots."""
        if state is None or match.status != "running" or getattr(state, "outcome", None):
            return False
        if len(match.to_act) != 1 or is_bot(match, match.to_act[0]):
            return False
        return bool(await self.context.service.hints_on(match.to_act[0], match.game))


def _with_keep(actions: Sequence[str]) -> list[str]:
    # The pie rule's "keep" is simply playing a move; its button only explains that.
    actions = list(actions)
    if "swap" in actions:
        actions.append(KEEP)
    return actions
