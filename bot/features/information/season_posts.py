"""A season's final standings, posted once in the server's chosen channel when it closes.

A server that rates in seasons (``/settings season``) and chose a channel for them
(``/settings season_channel``) gets, once a season is closed (its final standings kept,
:mod:`matchcore.service.seasons`), one message there: the season's name, then the best
places of every game and pool that had a rated result, as ``/leaderboard season:`` shows
them (no picture: the leaderboard has none), in the server's language, pinging nobody.

Exactly once across restarts and processes: the post is claimed work. The clock loop of
each process asks the service for the posts of the servers it runs; the service claims
each with a lease (one process at a time). The claimant reads the channel's newest
messages first (a process killed after posting and before saying so posted it already:
the same first line by the bot), posts with a nonce otherwise, and then tells the service
it is done. Killed in between, the post is claimed again once the lease ran out, and the
look finds the message. A post Discord refuses for good (the channel gone, no permission)
is given up (and logged); one held up (429, an outage) stays claimed and is tried again
after the lease.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable

import discord

from bot.common.context import Context
from bot.common.games import game_title
from bot.common.match_list import within_limit
from bot.common.names import in_text
from bot.common.record_words import leaderboard_row
from bot.common.time_words import pool_words
from bot.delivery.redelivery import RECENT_MESSAGES, is_transient
from bot.features.information.seasons import season_name
from i18n import translate
from matchcore.service.seasons import SeasonPost

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()


def post_nonce(post: SeasonPost) -> str:
    """The post's nonce: Discord returns the message already made with it for a few minutes."""
    key = f"season:{post.guild_id}:{post.season.key}"
    return hashlib.blake2b(key.encode(), digest_size=12).hexdigest()


class SeasonPosts:
    """Posts the final standings of the seasons this process claimed."""

    def __init__(self, context: Context) -> None:
        self.context = context

    async def post_due(self, guild_ids: Iterable[int]) -> int:
        """Post every closed season of these servers that is due; the number posted."""
        service = self.context.service
        posted = 0
        for post in await service.season_posts_due(list(guild_ids)):
            try:
                posted += await self._post(post)
            except discord.HTTPException as error:
                if is_transient(error):  # still claimed: tried again once the lease ran out
                    log.warning("the season post of %s is held up: %s", post.guild_id, error)
                    continue
                log.warning("season %s of %s not posted: %s", post.season.key, post.guild_id, error)
            await service.season_post_done(post.guild_id, post.season.key)
        return posted

    async def _post(self, post: SeasonPost) -> bool:
        settings = await self.context.service.get_settings(post.guild_id)
        channel = self.context.client.get_channel(settings.season_channel)
        if not settings.season_channel or not isinstance(
            channel, discord.TextChannel | discord.Thread
        ):
            return False  # no channel chosen (or it is gone): nothing to post
        language = await self.context.languages.server(post.guild_id)
        text = await self.words(language, post)
        if await self._shown(channel, text.split("\n", 1)[0]):
            return False
        await channel.send(content=text, allowed_mentions=NO_MENTIONS, nonce=post_nonce(post))
        return True

    async def _shown(self, channel: discord.TextChannel | discord.Thread, title: str) -> bool:
        """Whether the bot's post with this first line is among the channel's newest."""
        me = self.context.client.user
        try:
            async for message in channel.history(limit=RECENT_MESSAGES):
                mine = me is not None and message.author.id == me.id
                if mine and message.content.split("\n", 1)[0] == title:
                    return True
        except discord.Forbidden:
            log.info("cannot read the recent messages of channel %s", channel.id)
        return False

    async def words(self, language: str, post: SeasonPost) -> str:
        """The post: its title, each board's best places, where to read the rest."""
        name = season_name(language, post.season)
        head = [translate(language, "bot.season.post.title", season=name)]
        lines: list[str] = []
        for board in post.boards:
            lines.append(f"**{game_title(board.game)} · {pool_words(language, board.pool)}**")
            for row in board.rows:
                player = in_text(await self.context.names.name(row.user_id))
                lines.append(leaderboard_row(language, board.game, row, player))
        if not lines:
            lines.append(translate(language, "bot.leaderboard.empty"))
        tail = [translate(language, "bot.season.post.more")]
        return within_limit(language, head, lines, tail)
