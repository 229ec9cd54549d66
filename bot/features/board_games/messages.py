"""The messages of board matches and challenges: what the channel sees after each update.

A board match is one channel message per update, laid out in Components v2
(:mod:`bot.common.layout`): a box whose accent colour down its side is the colour to move
(its stone colour in the server's theme), holding the title, the board picture with the
last move marked, a line per event, whose turn it is (the only ping), the time left, and
the buttons that apply now; while it is the turn of a member whose move hints are on, the
picture has a dot on every cell where they may play. A challenge is one message with
Accept / Decline / Withdraw and its expiry time, edited in place when it ends. Both are
written in the server's language.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.common.context import Context
from bot.common.custom_ids import ACTIVITY, BOARD, CHALLENGE
from bot.common.games import game_title
from bot.common.layout import Box, Controls, Picture, Text, accent_of
from bot.common.match_lines import (
    is_bot,
    rating_lines,
    result_line,
    thinking_line,
)
from bot.common.names import in_text
from bot.common.outgoing import Outgoing, challenge_of, match_of, picture_name, sentence
from bot.common.themes import server_theme
from bot.common.time_words import control_words
from bot.delivery.delivery import MessageBuilder
from bot.features.board_games.labels import KEEP, board_choices
from engine import get_spec
from engine.board import BoardState
from i18n import N_, translate
from matchcore.service.results import MatchInfo, Update
from render.themes import get_theme
from wording.service_words import texts_for


class ChallengeMessages(MessageBuilder):
    """The channel message of a challenge (or an open seek)."""

    def __init__(self, context: Context) -> None:
        self.context = context

    def message_kind(self, update: Update) -> str:
        return "challenge"

    async def public_message(self, update: Update, language: str) -> Outgoing:
        names = self.context.names
        challenge = challenge_of(update)
        pings = tuple(update.mentions)
        who = await names.mention_or_name(challenge.challenger_id, ())
        title = game_title(challenge.game)
        size = translate(language, "bot.challenge.size", size=challenge.size)
        lines = [sentence(t) for t in texts_for(language, update, None)]
        if not lines:
            if challenge.target_id is None:
                msgid = (
                    N_("bot.challenge.open_sized") if challenge.size else N_("bot.challenge.open")
                )
                lines.append(translate(language, msgid, who=who, game=title, size=size))
            else:
                target = await names.mention_or_name(challenge.target_id, pings)
                msgid = N_("bot.challenge.to_sized") if challenge.size else N_("bot.challenge.to")
                lines.append(
                    translate(language, msgid, who=who, target=target, game=title, size=size)
                )
        choices = []
        if challenge.status == "open":
            lines.append(
                translate(
                    language, "bot.challenge.expires", time=f"<t:{int(challenge.expires_at)}:R>"
                )
            )
            actions = [a for b in update.buttons for a in b.actions]
            if self.context.activity:
                actions.append(ACTIVITY)
            choices = board_choices(language, actions)
        return Outgoing(
            "\n".join(lines),
            choices=choices,
            scope=CHALLENGE,
            target=challenge.id,
            version=0,
            pings=pings,
            language=language,
        )


class BoardMessages(MessageBuilder):
    """The channel message of a board match."""

    def __init__(self, context: Context) -> None:
        self.context = context

    def message_kind(self, update: Update) -> str:
        return "board"

    def outdated_by_newer(self, outgoing: Outgoing) -> bool:
        """Never: an older board keeps its buttons when a newer one is posted (no edit,
        no request). They carry the version they were drawn for, so a click on one is
        answered, to the clicker alone, that the board has moved on."""
        return False

    def keeps_buttons_of(self, message: discord.Message) -> bool:
        return True  # as outdated_by_newer: never greyed

    async def public_message(self, update: Update, language: str) -> Outgoing:
        names = self.context.names
        match = match_of(update)
        seat_names = await names.seat_names(match)
        # whom the service asks to notify: the player to move, or the one a draw offer awaits
        pings = tuple(update.mentions) if match.status == "running" else ()
        picture = next(
            (p for p in update.pictures if p.kind == "board" and p.for_user is None), None
        )
        image = None
        state = picture.state if picture is not None else None
        hints = await self.hints_shown(match, state)
        theme = await server_theme(self.context.service, match.guild_id)
        if state is not None:
            image = await self.context.painter.board_png(
                state, seat_names, language, hints=hints, theme=theme
            )
        lines = [sentence(t) for t in texts_for(language, update, None)]
        title = game_title(match.game)
        if state is not None:
            header = translate(
                language, "bot.board.header_sized", game=title, match=match.id, size=state.size
            )
        else:
            header = translate(language, "bot.board.header", game=title, match=match.id)
        if match.time_control:
            header = f"{header} · {control_words(language, match.time_control)}"
        lines.insert(0, header)
        refresh = update.kind == "refresh"  # a redraw carries no service text of its own
        if match.status == "running":
            for user_id in match.to_act:
                if is_bot(match, user_id):
                    lines.append(await thinking_line(language, names, match, user_id))
                    continue
                mention = await names.mention_or_name(user_id, pings)
                if refresh or not any(mention in line for line in lines):
                    seat = next((s for s in match.seats if s.user_id == user_id), None)
                    if seat is not None and seat.colour:
                        lines.append(
                            translate(
                                language,
                                "bot.board.to_move_colour",
                                who=mention,
                                colour=seat.colour,
                            )
                        )
                    else:
                        lines.append(translate(language, "bot.board.to_move", who=mention))
            for seat in match.seats:  # a player on vacation: their clock stops meanwhile
                if seat.user_id and seat.away_until and seat.away_until > self.context.now():
                    who = f"**{in_text(await names.name(seat.user_id))}**"
                    until = f"<t:{int(seat.away_until)}:f>"
                    lines.append(translate(language, "bot.board.away", who=who, time=until))
            if match.deadline_at:
                lines.append(
                    translate(
                        language, "bot.board.deadline", time=f"<t:{int(match.deadline_at)}:R>"
                    )
                )
            if refresh and match.draw_offer_by:
                offerer = await names.mention_or_name(match.draw_offer_by, ())
                lines.append(translate(language, "bot.board.draw_offered", who=offerer))
        elif match.result is not None and refresh:
            lines.append(await result_line(language, names, match))
        if hints:
            lines.append(translate(language, "bot.board.hints"))
        lines.extend(await rating_lines(language, names, update))
        actions = [a for b in update.buttons for a in b.actions]  # one shared board message
        if match.status == "running" and match.bot_to_act and not _human_to_act(match):
            # The bot answers within seconds with a board of its own: this one carries no
            # buttons, so nothing on it needs greying out then (a request less per move).
            actions = []
        if self.context.activity and actions and match.status == "running":
            # on a message that has buttons anyway: the button costs no request
            actions.append(ACTIVITY)
        choices = board_choices(language, _with_keep(actions))
        version = max((b.version for b in update.buttons), default=match.version)
        layout = (
            Box(
                (
                    Text(lines[0]),
                    Picture(translate(language, "bot.board.picture", game=title)),
                    Text("\n".join(lines[1:])),
                    Controls(),
                ),
                accent=_accent(match, theme),
            ),
        )
        return Outgoing(
            "\n".join(lines),
            image,
            picture_name("board", match.id, match.version),
            choices,
            BOARD,
            match.id,
            version,
            pings,
            language,
            layout,
        )

    async def hints_shown(self, match: MatchInfo, state: BoardState | None) -> bool:
        """Whether the picture marks where the player to move may play: while a running
        game waits for one member (not the bot) whose hints are on (their ``/prefs``, or
        the default for their first games of the game). Where a stone may go is no secret
        in these games, so the shared picture of that member's turn carries the dots."""
        if state is None or match.status != "running" or getattr(state, "outcome", None):
            return False
        if len(match.to_act) != 1 or is_bot(match, match.to_act[0]):
            return False
        return bool(await self.context.service.hints_on(match.to_act[0], match.game))


def _accent(match: MatchInfo, theme: str) -> int | None:
    """The colour to move (its stones' colour in ``theme``), for the message's accent; none
    once the match is over or while no seat has a colour (Les's set-up)."""
    if match.status != "running":
        return None
    colours = get_spec(match.game).colours
    to_move = {s.colour for s in match.seats if s.user_id in match.to_act and s.colour}
    if len(to_move) != 1:
        return None
    (colour,) = to_move
    if colour not in colours:
        return None
    return accent_of(get_theme(theme).stones[colours.index(colour)].fill)


def _human_to_act(match: MatchInfo) -> bool:
    return any(not is_bot(match, user_id) for user_id in match.to_act)


def _with_keep(actions: Sequence[str]) -> list[str]:
    # The pie rule's "keep" is simply playing a move; its button only explains that.
    actions = list(actions)
    if "swap" in actions:
        actions.append(KEEP)
    return actions
