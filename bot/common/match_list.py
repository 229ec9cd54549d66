"""What ``/games`` lists: each match in a line saying whose turn it is, when the time runs
out, its time control and a link to its newest message; the reader's matches first.

In a server: the reader's matches there, then the server's others (and open challenges,
which the feature adds). In DMs: the reader's matches on every server. Lines are cut to
Discord's 2000 characters with a line saying how many were left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.common.games import game_title
from bot.common.names import NameBook, in_text
from bot.common.time_words import control_words
from i18n import N_, translate
from matchcore.service.results import MatchInfo

MESSAGE_LIMIT = 2000  # characters of a message
# The kinds of message a match keeps, newest kind of view first (a table's living message,
# a board, a lobby); the link goes to the first the match has.
MESSAGE_KINDS = ("table", "board", "lobby")


def jump_url(match: MatchInfo) -> str | None:
    """The link to the match's newest message in its channel (or thread), if it has one."""
    for kind in MESSAGE_KINDS:
        message_id = match.messages.get(kind)
        if message_id:
            where = match.thread_id or match.channel_id
            return f"https://discord.com/channels/{match.guild_id}/{where}/{message_id}"
    return None


def mine_first(matches: Sequence[MatchInfo], user_id: int) -> list[MatchInfo]:
    """The reader's matches first: those waiting for them, soonest deadline first, then
    their other ones; then everyone else's, as they came (most recently active first)."""

    def key(match: MatchInfo) -> tuple[int, float]:
        if user_id in match.to_act:
            return (0, match.deadline_at or float("inf"))
        if user_id in match.user_ids:
            return (1, 0.0)
        return (2, 0.0)

    return sorted(matches, key=key)


async def match_line(language: str, names: NameBook, match: MatchInfo, user_id: int) -> str:
    """One match: game and number, who plays (for the reader: whom they play), whose turn,
    when the time runs out, the time control, the link."""
    mine = user_id in match.user_ids
    seated = [s.user_id for s in match.seats]
    shown = [u for u in seated if u != user_id] if mine else seated
    players = ", ".join([in_text(await names.name(u)) for u in shown])
    parts = [
        translate(
            language,
            N_("bot.games.line_mine") if mine else N_("bot.games.line"),
            game=game_title(match.game),
            match=match.id,
            players=players,
        )
    ]
    if match.status == "lobby":
        parts.append(translate(language, "bot.games.status.lobby"))
    elif user_id in match.to_act:
        parts.append(translate(language, "bot.games.your_turn"))
    elif match.to_act:
        waiting = ", ".join([in_text(await names.name(u)) for u in match.to_act])
        parts.append(translate(language, "bot.games.turn_of", who=waiting))
    if match.status == "running" and match.deadline_at:
        parts.append(
            translate(language, "bot.games.runs_out", time=f"<t:{int(match.deadline_at)}:R>")
        )
    if match.time_control:
        parts.append(control_words(language, match.time_control))
    url = jump_url(match)
    if url is not None:
        jump = translate(language, "bot.games.jump")
        parts.append(f"[{jump}]({url})")
    return ("★ " if mine else "") + " · ".join(parts)


def within_limit(language: str, head: list[str], lines: list[str], tail: list[str]) -> str:
    """The message: ``head``, as many of ``lines`` as fit with ``tail``, and a line saying
    how many did not."""
    kept = list(lines)
    while True:
        left_out = len(lines) - len(kept)
        more = [translate(language, "bot.games.left_out", count=left_out)] if left_out else []
        text = "\n".join(head + kept + more + tail)
        if len(text) <= MESSAGE_LIMIT or not kept:
            return text[:MESSAGE_LIMIT]
        kept.pop()
