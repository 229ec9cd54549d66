"""A tournament in the reader's words: its announcement, its line in ``/tournament list``
and the worded view its standings picture is drawn from.

The core hands :class:`~matchcore.service.tournament_info.TournamentInfo` (scores in half
points, Sonneborn–Berger in quarter points); this module writes it for people: points as
"3½", the format and the time control in the reader's language, the start as a Discord
timestamp, and the podium's medals. Nothing here sends anything.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.common.games import game_title
from bot.common.names import NameBook
from bot.common.time_words import control_words
from i18n import N_, translate, translate_plural
from matchcore.service.tournament_info import StandingRow, TournamentInfo
from render.standings import MAX_ROWS, StandingsRow, StandingsView

FORMAT_NAMES = {
    "arena": N_("bot.tournament.format.arena"),
    "swiss": N_("bot.tournament.format.swiss"),
    "round_robin": N_("bot.tournament.format.round_robin"),
    "tables": N_("bot.tournament.format.tables"),
}
STATUS_TEXT = {
    "upcoming": N_("bot.tournament.status.upcoming"),
    "running": N_("bot.tournament.status.running"),
    "finished": N_("bot.tournament.status.finished"),
    "cancelled": N_("bot.tournament.status.cancelled"),
}
MEDALS = ("🥇", "🥈", "🥉")
PLAYERS_NAMED = 40  # mentions in an announcement (the rest are counted)
_FRACTIONS = {0: "", 1: "¼", 2: "½", 3: "¾"}


def points(units: int, per_point: int = 2) -> str:
    """A score kept in parts of a point ("3½" for 7 half points; quarters for
    Sonneborn–Berger, ``per_point`` 4)."""
    whole, rest = divmod(units, per_point)
    fraction = _FRACTIONS[rest * 4 // per_point]
    if whole == 0 and fraction:
        return fraction
    return f"{whole}{fraction}"


def format_name(language: str, fmt: str) -> str:
    return translate(language, FORMAT_NAMES.get(fmt, FORMAT_NAMES["swiss"]))


def title(language: str, info: TournamentInfo) -> str:
    """ "Swiss #3 · Lefe" (the picture's title and the announcement's head)."""
    return translate(
        language,
        "bot.tournament.title",
        format=format_name(language, info.format),
        id=info.id,
        game=game_title(info.game),
    )


def shape(language: str, info: TournamentInfo, server_seconds: int = 0) -> str:
    """What the event is: "size 5 · 5 rounds · 3 min per move · rated"."""
    parts: list[str] = []
    size = info.options.get("size")
    if isinstance(size, int):
        parts.append(translate(language, "bot.tournament.size", size=size))
    if info.format == "arena":
        minutes = int(str(info.options.get("minutes", 60)))
        parts.append(translate(language, "bot.tournament.minutes", minutes=minutes))
    elif info.rounds is not None and info.format != "round_robin":
        parts.append(
            translate_plural(
                language, "bot.tournament.rounds", "bot.tournament.rounds.plural", info.rounds
            )
        )
    if info.format == "tables":
        size_of_table = int(str(info.options.get("table_size", 4)))
        parts.append(translate(language, "bot.tournament.table_size", size=size_of_table))
    code = info.options.get("time_control")
    parts.append(control_words(language, str(code) if code else None, server_seconds))
    rated = N_("bot.tournament.rated") if info.rated else N_("bot.tournament.unrated")
    parts.append(translate(language, rated))
    return " · ".join(parts)


def when(language: str, info: TournamentInfo) -> str:
    """When it starts, runs or ended, as the announcement and the list say it."""
    if info.status == "upcoming":
        if info.starts_at is None:
            return translate(language, "bot.tournament.starts_when_said")
        return translate(language, "bot.tournament.starts_at", time=int(info.starts_at))
    if info.status == "running":
        if info.paused:
            return translate(language, "bot.tournament.paused")
        if info.format == "arena" and info.ends_at is not None:
            return translate(language, "bot.tournament.ends_at", time=int(info.ends_at))
        if info.rounds:
            return translate(
                language, "bot.tournament.round_of", round=info.round, rounds=info.rounds
            )
    return translate(language, STATUS_TEXT.get(info.status, STATUS_TEXT["finished"]))


def podium_line(language: str, info: TournamentInfo) -> str:
    """ "🥇 <@1> 6 · 🥈 <@2> 5½ · 🥉 <@3> 4" (the first three still in)."""
    rows = [r for r in info.standings if r.withdrawn is None][:3]
    parts = [f"{MEDALS[min(row.rank, 3) - 1]} <@{row.user_id}> {points(row.score)}" for row in rows]
    return translate(language, "bot.tournament.podium", podium=" · ".join(parts))


def announcement(language: str, info: TournamentInfo, server_seconds: int = 0) -> str:
    """The announcement's text: what, when, who (mentions that ping nobody)."""
    lines = [
        f"**{title(language, info)}**",
        shape(language, info, server_seconds),
        when(language, info),
    ]
    active = list(info.active_players)
    if active:
        named = ", ".join(f"<@{p}>" for p in active[:PLAYERS_NAMED])
        if len(active) > PLAYERS_NAMED:
            named += " " + translate(
                language, "bot.tournament.more", count=len(active) - PLAYERS_NAMED
            )
        lines.append(translate(language, "bot.tournament.players", count=len(active), names=named))
    else:
        lines.append(translate(language, "bot.tournament.no_players"))
    if info.status == "finished" and info.standings:
        lines.append(podium_line(language, info))
    elif info.status in ("upcoming", "running"):
        lines.append(translate(language, "bot.tournament.how_to_join"))
    if info.thread_id:
        lines.append(translate(language, "bot.tournament.thread", thread=info.thread_id))
    return "\n".join(lines)


def list_line(language: str, info: TournamentInfo) -> str:
    """One event of ``/tournament list``: "**Swiss #3 · Lefe** · 8 players · round 2 of 5"."""
    count = len(info.active_players)
    head = translate_plural(
        language,
        "bot.tournament.list_line",
        "bot.tournament.list_line.plural",
        count,
        title=title(language, info),
        # the announcement's sentence, as a part of a line here: without its full stop
        when=when(language, info).rstrip("."),
    )
    if info.status == "finished":
        winner = next((r for r in info.standings if r.withdrawn is None), None)
        if winner is not None:
            head += " · " + translate(
                language, "bot.tournament.won_by", user=f"<@{winner.user_id}>"
            )
    where = info.messages.get("announcement")
    if where:
        head += f" · https://discord.com/channels/{info.guild_id}/{info.channel_id}/{where}"
    return head


def headings(language: str, info: TournamentInfo) -> tuple[str, ...]:
    base = (
        translate(language, "bot.tournament.heading.rank"),
        translate(language, "bot.tournament.heading.player"),
        translate(language, "bot.tournament.heading.points"),
    )
    if info.format in ("swiss", "round_robin"):
        return (
            *base,
            translate(language, "bot.tournament.heading.buchholz"),
            translate(language, "bot.tournament.heading.sonneborn_berger"),
        )
    return (*base, translate(language, "bot.tournament.heading.games"))


def _tiebreaks(info: TournamentInfo, row: StandingRow) -> tuple[str, ...]:
    if info.format in ("swiss", "round_robin"):
        return (points(row.buchholz), points(row.sonneborn_berger, 4))
    return (str(row.games),)


async def standings_view(
    language: str, info: TournamentInfo, names: NameBook, *, final: bool = False
) -> StandingsView:
    """The standings worded for the picture; ``final`` marks the podium."""
    shown: Sequence[StandingRow] = info.standings[:MAX_ROWS]
    rows = []
    for row in shown:
        name = await names.name(row.user_id)
        if row.withdrawn is not None:
            name = translate(language, "bot.tournament.withdrawn", name=name)
        elif row.paused:
            name = translate(language, "bot.tournament.on_break", name=name)
        rows.append(
            StandingsRow(
                rank=row.rank,
                name=name,
                points=points(row.score),
                tiebreaks=_tiebreaks(info, row),
                on_fire=row.on_fire,
                playing=row.playing and not final,
                out=row.withdrawn is not None,
            )
        )
    hidden = len(info.standings) - len(shown)
    more = translate(language, "bot.tournament.more", count=hidden) if hidden > 0 else ""
    if final:
        subtitle = translate(language, "bot.tournament.final_standings")
    elif info.status == "upcoming":
        subtitle = translate(language, "bot.tournament.status.upcoming")
    elif info.format == "arena":
        subtitle = translate_plural(
            language,
            "bot.tournament.arena_subtitle",
            "bot.tournament.arena_subtitle.plural",
            len(info.players),
        )
    else:
        subtitle = translate(
            language, "bot.tournament.round_of", round=info.round, rounds=info.rounds or 0
        )
    return StandingsView(
        title=title(language, info),
        subtitle=subtitle,
        headings=headings(language, info),
        rows=tuple(rows),
        podium=final,
        more=more,
    )
