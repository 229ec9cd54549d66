"""Turn DMs (issue 35): the DM a member who asked for it (``/prefs turn_dms``) gets when
daily matches wait for them, and the reminder before a deadline.

The service finds and claims the notices (``service.turn_notices()``, one per turn and
kind, across processes); this sends each as one DM in the member's language: one match
reads "Your move in **Lefe** #12 against bob", several "**3 matches wait for you**", a
reminder "**Reminder**: …", then a line per match as ``/games`` writes it (whose turn,
when the time runs out, the control, a link that jumps to the match's newest message),
with the board picture of the most urgent board match drawn as its channel shows it, in
the member's own theme. A member whose DMs are closed is noted as for a Leiff hand.
"""

from __future__ import annotations

import io
import logging

import discord

from bot.common.context import Context
from bot.common.games import game_title
from bot.common.match_list import match_line, within_limit
from bot.common.names import in_text
from bot.common.themes import member_theme
from bot.delivery.records import DeliveryRecords
from engine import get_spec
from i18n import translate
from matchcore.service.results import MatchInfo
from matchcore.service.turn_notices import TurnNotice

log = logging.getLogger(__name__)

DM_CLOSED = 50007


class TurnDms:
    """Sends the turn notices the service hands out."""

    def __init__(self, context: Context, records: DeliveryRecords) -> None:
        self.context = context
        self.records = records

    async def send_due(self) -> int:
        """Send every notice due now; the number sent."""
        sent = 0
        for notice in await self.context.service.turn_notices():
            try:
                sent += await self.send(notice)
            except discord.HTTPException:
                log.exception("could not send the turn DM of user %s", notice.user_id)
        return sent

    async def send(self, notice: TurnNotice) -> bool:
        """One notice as one DM; False when the member's DMs are closed."""
        language = await self.context.languages.member(notice.user_id)
        text = await self.text(language, notice)
        picture = await self._picture(language, notice)
        client = self.context.client
        user = client.get_user(notice.user_id) or await client.fetch_user(notice.user_id)
        try:
            if picture is None:
                await user.send(content=text, allowed_mentions=discord.AllowedMentions.none())
            else:
                await user.send(
                    content=text,
                    file=discord.File(io.BytesIO(picture), filename="board.png"),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                raise
            await self.records.note_dm_failure(notice.user_id, error.code)
            return False
        return True

    async def text(self, language: str, notice: TurnNotice) -> str:
        names = self.context.names
        user_id = notice.user_id
        if len(notice.matches) == 1:
            (match,) = notice.matches
            others = [s.user_id for s in match.seats if s.user_id != user_id]
            head = translate(
                language,
                "bot.turn_dm.one",
                game=game_title(match.game),
                match=match.id,
                players=", ".join([in_text(await names.name(u)) for u in others]),
            )
        else:
            head = translate(language, "bot.turn_dm.several", count=len(notice.matches))
        if notice.reminder:
            head = translate(language, "bot.turn_dm.reminder", text=head)
        lines = [await match_line(language, names, match, user_id) for match in notice.matches]
        return within_limit(language, [head], lines, [translate(language, "bot.turn_dm.off")])

    async def _picture(self, language: str, notice: TurnNotice) -> bytes | None:
        """The board of the most urgent board match among them (a Leiff hand is in its
        own DM already)."""
        match = next((m for m in notice.matches if get_spec(m.game).is_board_game), None)
        if match is None:
            return None
        return await self.board(language, notice.user_id, match)

    async def board(self, language: str, user_id: int, match: MatchInfo) -> bytes | None:
        update = await self.context.service.current(match.id)
        state = next((p.state for p in update.pictures if p.kind == "board"), None)
        if state is None:
            return None
        names = await self.context.names.seat_names(match)
        theme = await member_theme(self.context.service, user_id, match.guild_id)
        return await self.context.painter.board_png(state, names, language, theme=theme)
