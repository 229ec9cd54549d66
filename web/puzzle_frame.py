"""Puzzles at the web table (issue 37): the member's next puzzle, answered by a click.

The same library, rating and streak as ``/puzzle`` and ``/move`` in Discord: a puzzle is
opened for the member through the match core (``service.puzzles``), a click on the
table is their answer, judged by the core (``Puzzles.answer``: right or wrong, Glicko-2
for the member and the puzzle, the streak), and the page is told the verdict in the
member's language with the solution line, each step's stones, to draw on the board. The
sentences are the Discord layer's own (``wording.puzzle_words``).

Frames: ``puzzle`` (the position, its legal moves, what the puzzle is and the member's
rating) and ``puzzle_result`` (the verdict, the solution's steps, the rating after).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from engine import board_game_names
from engine.ai.puzzles import Puzzle
from i18n import N_, colour_name, translate
from matchcore.learning_records import PuzzleAnswer, PuzzlePlayer, StoredPuzzle
from matchcore.service.errors import ServiceError
from matchcore.service.protocol import GameService
from web.sessions import Session
from web.snapshot import holes_json
from web.texts import BOT_NAME
from wording import puzzle_words

log = logging.getLogger(__name__)

# The member's rating and what to do: click the winning move.
YOU = N_("web.puzzle.you")
# A click that answers no open puzzle (answered already, or an hour passed).
NOT_OPEN = N_("web.puzzle.not_open")
# The daily puzzle asked for where there is none today (see PuzzleDesk.daily), or once the
# member has answered it.
NO_DAILY = N_("web.puzzle.no_daily")
DAILY_DONE = N_("web.puzzle.daily_done")
# The daily puzzle's first line, as the channel's message says it.
DAILY_TITLE = "bot.puzzle.daily"


def _players(puzzle: Puzzle, name: Callable[[int], str], language: str) -> tuple[str, str] | None:
    users = puzzle_words.user_ids(puzzle.source)
    if users is None:
        return None
    first, second = (translate(language, BOT_NAME) if u is None else name(u) for u in users)
    return first, second


def puzzle_frame(
    stored: StoredPuzzle,
    player: PuzzlePlayer,
    name: Callable[[int], str],
    language: str,
    *,
    daily: bool = False,
) -> dict[str, Any]:
    """The ``puzzle`` frame: the position from its stones, the engine's legal moves, and
    the puzzle's lines (what, from where, how hard, the member's rating and streak); the
    daily puzzle says so first, as the channel's message does."""
    puzzle = stored.puzzle
    state = puzzle.position()
    game = translate(language, f"game.{puzzle.game}.title")
    lines = [
        translate(language, DAILY_TITLE, game=game, colour=puzzle.to_move)
        if daily
        else puzzle_words.title(language, puzzle, stored.id),
        puzzle_words.source(language, puzzle.source, _players(puzzle, name, language)),
        puzzle_words.how(language, puzzle, stored.rating),
        translate(language, YOU, rating=round(player.rating), streak=player.streak),
    ]
    return {
        "type": "puzzle",
        "puzzle": stored.id,
        "game": puzzle.game,
        "size": puzzle.size,
        "stones": dict(state.stones),
        "holes": holes_json(state),
        "toMove": puzzle.to_move,
        "toMoveName": colour_name(language, puzzle.to_move),
        "legal": state.legal_moves(),
        "lines": [line for line in lines if line],
        "daily": daily,
    }


def solution_steps(puzzle: Puzzle) -> list[dict[str, Any]]:
    """The solution line played out by the engine from the puzzle's position: each
    move's colour and the cells it placed on, captured, flipped and removed."""
    state = puzzle.position()
    steps = []
    for move in puzzle.solution:
        colour = state.to_move
        state = state.play(move)
        last = state.last_turn
        steps.append(
            {
                "move": move,
                "colour": colour,
                "placed": list(last.placed),
                "captured": list(last.captured),
                "flipped": list(last.flipped),
                "removed": list(last.removed),
            }
        )
    return steps


def result_frame(answered: PuzzleAnswer, language: str) -> dict[str, Any]:
    """The ``puzzle_result`` frame: right or wrong in words, the solution's steps to draw,
    the member's rating before and after and their streak."""
    stored = answered.puzzle
    return {
        "type": "puzzle_result",
        "puzzle": stored.id,
        "solved": answered.solved,
        "move": answered.move,
        "solution": list(stored.puzzle.solution),
        "steps": solution_steps(stored.puzzle),
        "lines": puzzle_words.verdict(language, answered),
        "rating": round(answered.after.rating),
        "streak": answered.after.streak,
    }


# The socket's puzzle messages (web.server.MESSAGES holds their fields).
PUZZLE_MESSAGES = ("puzzle", "puzzle_daily", "puzzle_answer")


class PuzzleDesk:
    """What a socket's puzzle messages do: one call of ``service.puzzles`` each."""

    def __init__(self, service: GameService, local_guild: int | None) -> None:
        self.service = service
        self.local_guild = local_guild  # the local table's server (its mined puzzles)
        # Told (server, puzzle) after a member of a server solved a puzzle here: the
        # Discord layer lists the solver on the day's puzzle message when it is that one
        # (PuzzleDesk.refresh_daily), as after an answer by /move. None: nobody to tell.
        self.solved: Callable[[int, int], Awaitable[None]] | None = None

    def _guild(self, session: Session) -> int | None:
        """The server whose mined puzzles the member may get (the starter set always)."""
        if session.place is not None:
            return session.place.guild_id
        return self.local_guild

    async def handle(
        self,
        session: Session,
        data: dict[str, Any],
        name: Callable[[int], str],
        language: str,
    ) -> dict[str, Any]:
        """The frame answering one of :data:`PUZZLE_MESSAGES`."""
        if data["type"] == "puzzle_daily":
            return await self.daily(session, name, language)
        if data["type"] == "puzzle_answer":
            return await self.answer(session, data, language)
        return await self.next(session, data, name, language)

    async def next(
        self,
        session: Session,
        data: dict[str, Any],
        name: Callable[[int], str],
        language: str,
    ) -> dict[str, Any]:
        """Open the untried puzzle nearest the member's rating (of ``game``, or any)."""
        game = data.get("game")
        if game is not None and game not in board_game_names():
            raise ServiceError("forbidden")
        user = session.identity.user_id
        stored, player = await self.service.puzzles.next_puzzle(user, self._guild(session), game)
        return puzzle_frame(stored, player, name, language)

    async def daily(
        self, session: Session, name: Callable[[int], str], language: str
    ) -> dict[str, Any]:
        """Open the server's puzzle of the day for the member, as the **Solve** button of
        its channel message does: the one posted today; on a server that posts none (no
        ``puzzle_channel``, and the local table's) the day's puzzle is claimed here, once
        a day across processes, as the bot claims it (``Puzzles.claim_daily``). A server
        with a puzzle channel the bot has not posted in yet today has none yet: the web
        never takes the bot's post from it."""
        guild = self._guild(session)
        if guild is None:
            return {"type": "error", "text": translate(language, NO_DAILY)}
        puzzles = self.service.puzzles
        today = await puzzles.daily(guild)
        if today is None:
            settings = await self.service.get_settings(guild)
            if not settings.puzzle_channel:
                channel = session.place.channel_id if session.place is not None else 0
                await puzzles.claim_daily(guild, channel)
                today = await puzzles.daily(guild)  # claimed here, or by another process
        if today is None:
            return {"type": "error", "text": translate(language, NO_DAILY)}
        user = session.identity.user_id
        stored = await puzzles.show(user, today.puzzle_id, guild)
        opened = await puzzles.open_puzzle(user)
        if opened is None or opened.id != stored.id:  # answered already (an attempt each)
            return {"type": "error", "text": translate(language, DAILY_DONE)}
        player = await puzzles.player(user)
        return puzzle_frame(stored, player, name, language, daily=True)

    async def answer(self, session: Session, data: dict[str, Any], language: str) -> dict[str, Any]:
        """Judge ``move`` as the answer to the member's open puzzle ``puzzle`` (refused
        when that puzzle is not the one open: answered already, or an hour passed)."""
        user = session.identity.user_id
        opened = await self.service.puzzles.open_puzzle(user)
        answered = None
        if opened is not None and opened.id == data["puzzle"]:
            answered = await self.service.puzzles.answer(user, data["move"])
        if answered is None:
            return {"type": "error", "text": translate(language, NOT_OPEN)}
        guild = self._guild(session)
        if answered.solved and guild is not None and self.solved is not None:
            try:
                await self.solved(guild, answered.puzzle.id)
            except Exception:  # the verdict stands: the channel's list is a courtesy
                log.exception("could not list the solver of puzzle %s", answered.puzzle.id)
        return result_frame(answered, language)
