"""Reviews of finished matches: ``/review match:`` and the board's **Review** button.

The answer is private. It is acknowledged at once with a line that says the review is
being worked out; while the AI pool's workers go through the game a part at a time the
line counts the moves done, then the same message becomes the review's first page: the
evaluation graph and a summary (who led, the turning points, each player's biggest
mistakes). **Next** and **Previous** step through the mistakes, one a page: the position,
the move played (a no-entry sign), the engine's better move (a ghost stone in a bold ring)
and the reason where the engine names one. **Continue from here** starts a practice game
against the bot from the page's position, the member playing the side to move.

A page's buttons carry the match and the page (scope ``r``): the stored review is read back
at each click, so pages keep turning after a restart and cost nothing.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot.common.components import Choice, components
from bot.common.context import Context
from bot.common.custom_ids import REVIEW
from bot.common.errors import ErrorHandler, UserFacingError
from bot.common.games import game_title
from bot.common.responder import Responder
from bot.common.routing import ComponentRouter
from bot.common.themes import member_theme
from bot.common.translator import command_text
from bot.delivery.delivery import Delivery
from engine import get_board_game
from engine.ai.review import PlyReview, Review
from i18n import N_, translate
from matchcore.service.learning import MatchReview
from matchcore.service.protocol import GameService

PREVIOUS, NEXT, CONTINUE = "~prev", "~next", "~cont"
CONTINUE_LEVEL = "normal"


def mistakes_in_order(review: Review) -> list[PlyReview]:
    """Every shown mistake of both players, in the game's order (the pages after the first)."""
    return sorted((m for ms in review.mistakes.values() for m in ms), key=lambda m: m.ply)


class Reviewing:
    """``/review`` and the Review button, and the review's pages."""

    def __init__(self, context: Context, delivery: Delivery, errors: ErrorHandler) -> None:
        self.context = context
        self.delivery = delivery
        self.errors = errors

    def register(self, router: ComponentRouter) -> None:
        router.route(REVIEW, self._click)

    @property
    def service(self) -> GameService:
        return self.context.service

    # ---- asking for a review -----------------------------------------------------------
    async def command(self, interaction: discord.Interaction, match_id: int) -> None:
        await self.errors.run(interaction, lambda responder: self.open(responder, match_id))

    async def open(self, responder: Responder, match_id: int) -> None:
        """Answer privately with the review's first page, with progress while it is made."""
        guild_id = responder.interaction.guild_id or 0
        language = responder.language
        note = await responder.private(translate(language, "bot.review.working", match=match_id))

        async def progress(done: int, total: int) -> None:
            if note is not None:
                text = translate(language, "bot.review.progress", done=done, total=total)
                await _quiet_edit(note, content=text)

        reviewed = await self.service.reviews.review(
            match_id, responder.user_id, guild_id, progress
        )
        page = await self.page(responder, reviewed, 0)
        if note is None or not await _quiet_edit(note, **page.edit()):
            await responder.private(**page.send())

    # ---- pages -------------------------------------------------------------------------
    async def page(self, responder: Responder, reviewed: MatchReview, number: int) -> Page:
        """Page ``number``: 0 is the graph and summary, 1.. a mistake each."""
        language = responder.language
        theme = await member_theme(self.service, responder.user_id, responder.interaction.guild_id)
        review = reviewed.review
        mistakes = mistakes_in_order(review)
        number = max(0, min(number, len(mistakes)))
        names = {
            colour: await self._name(language, user_id)
            for colour, user_id in reviewed.players.items()
        }
        if number == 0:
            text = summary_text(language, reviewed, names, mistakes)
            colours = review.colours
            marks = {m.ply: colours.index(m.mover) for m in mistakes}
            title = translate(
                language,
                "bot.review.graph_title",
                first=names.get(colours[0], ""),
                second=names.get(colours[1], ""),
            )
            picture = await self.context.painter.review_graph_png(
                tuple(review.graph),
                tuple(review.turning_points),
                marks,
                title,
                translate(language, "bot.review.graph_axis"),
                theme,
            )
        else:
            mistake = mistakes[number - 1]
            text = mistake_text(language, mistake, names.get(mistake.mover, ""))
            before = self._position(reviewed, mistake.ply)
            caption = translate(
                language, "bot.review.caption", played=mistake.played, better=mistake.best
            )
            picture = await self.context.painter.review_move_png(
                reviewed.game, before, mistake.played, mistake.best, caption, language, theme
            )
        choices = [
            Choice(PREVIOUS, translate(language, "bot.review.button.previous")),
            Choice(
                NEXT, translate(language, "bot.review.button.next"), discord.ButtonStyle.primary
            ),
        ]
        if number > 0:
            choices.append(
                Choice(
                    CONTINUE,
                    translate(language, "bot.review.button.continue"),
                    discord.ButtonStyle.success,
                )
            )
        header = translate(
            language,
            "bot.review.page",
            game=game_title(reviewed.game),
            match=reviewed.match_id,
            page=number + 1,
            pages=len(mistakes) + 1,
        )
        view = components(REVIEW, reviewed.match_id, number, choices, language=language)
        return Page(f"{header}\n{text}", picture, view)

    def _position(self, reviewed: MatchReview, ply: int) -> str:
        state = get_board_game(reviewed.game).from_json(reviewed.state_json)
        for index, position in enumerate(state.history()):
            if index == ply:
                return position.to_json()
        raise UserFacingError("bot.review.no_page")

    async def _name(self, language: str, user_id: int | None) -> str:
        if user_id is None:
            return translate(language, "bot.review.the_bot")
        return await self.context.names.name(user_id)

    async def _click(self, responder: Responder, match_id: int, number: int, action: str) -> None:
        guild_id = responder.interaction.guild_id or 0
        reviewed = await self.service.reviews.review(match_id, responder.user_id, guild_id)
        if action == CONTINUE:
            await self._continue(responder, reviewed, number)
            return
        count = len(mistakes_in_order(reviewed.review)) + 1
        step = -1 if action == PREVIOUS else 1
        page = await self.page(responder, reviewed, (number + step) % count)
        if not await responder.update_origin(**page.edit()):
            await responder.private(**page.send())

    async def _continue(self, responder: Responder, reviewed: MatchReview, number: int) -> None:
        """A practice game against the bot from the position of mistake page ``number``."""
        interaction = responder.interaction
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserFacingError("bot.learning.practice_in_server")
        mistakes = mistakes_in_order(reviewed.review)
        if not 0 < number <= len(mistakes):
            raise UserFacingError("bot.review.no_page")
        game = get_board_game(reviewed.game).from_json(reviewed.state_json)
        update = await self.service.challenge_bot(
            interaction.guild_id,
            interaction.channel_id,
            responder.user_id,
            reviewed.game,
            CONTINUE_LEVEL,
            size=game.size,
            options=dict(game.options) or None,
            moves=game.moves[: mistakes[number - 1].ply],
        )
        await self.delivery.publish(update, responder)

    # ---- the slash command ---------------------------------------------------------------
    def commands(self) -> list[app_commands.Command[Any, ..., None]]:
        feature = self

        @app_commands.command(
            name=command_text("command.review.name"),
            description=command_text("command.review.description"),
        )
        @app_commands.rename(match=command_text("command.option.match"))
        @app_commands.describe(match=command_text("command.review.match"))
        async def review_command(
            interaction: discord.Interaction, match: app_commands.Range[int, 1]
        ) -> None:
            await feature.command(interaction, match)

        return [review_command]


class Page:
    """One page of a review (or a puzzle): its text, its picture and its buttons."""

    def __init__(self, text: str, picture: bytes, view: Any, filename: str = "review.png") -> None:
        self.text, self.picture, self.view, self.filename = text, picture, view, filename

    def _file(self) -> discord.File:
        return discord.File(io.BytesIO(self.picture), filename=self.filename)

    def send(self) -> dict[str, Any]:
        sent: dict[str, Any] = {"content": self.text, "file": self._file()}
        if self.view is not None:
            sent["view"] = self.view
        return sent

    def edit(self) -> dict[str, Any]:
        return {"content": self.text, "attachments": [self._file()], "view": self.view}


async def _quiet_edit(message: discord.Message, **changes: Any) -> bool:
    try:
        await message.edit(**changes)
    except discord.HTTPException:
        return False
    return True


def _percent(chance: float) -> int:
    return round(100 * chance)


def summary_text(
    language: str, reviewed: MatchReview, names: dict[str, str], mistakes: list[PlyReview]
) -> str:
    """The first page's words: who led, the turning points, the mistakes listed."""
    review = reviewed.review
    lines: list[str] = []
    if review.turning_points:
        turns = ", ".join(str(ply + 1) for ply in review.turning_points)
        lines.append(translate(language, "bot.review.turns", moves=turns))
    if not mistakes:
        lines.append(translate(language, "bot.review.no_mistakes"))
    for mistake in mistakes:
        lines.append(
            translate(
                language,
                "bot.review.mistake_line",
                move=mistake.ply + 1,
                who=names.get(mistake.mover, ""),
                played=mistake.played,
                better=mistake.best,
                lost=_percent(mistake.loss),
            )
        )
    return "\n".join(lines)


REASONS = {
    "win_missed": N_("bot.review.reason.win_missed"),
    "loss_allowed": N_("bot.review.reason.loss_allowed"),
    "capture_missed": N_("bot.review.reason.capture_missed"),
    "tree_left_capturable": N_("bot.review.reason.tree_left_capturable"),
    "flip_missed": N_("bot.review.reason.flip_missed"),
    "loop_not_closed": N_("bot.review.reason.loop_not_closed"),
    "hole_given_away": N_("bot.review.reason.hole_given_away"),
}


def mistake_text(language: str, mistake: PlyReview, who: str) -> str:
    """A mistake's page: the move, the better one, what it cost and why."""
    lines = [
        translate(
            language,
            "bot.review.mistake",
            move=mistake.ply + 1,
            who=who,
            played=mistake.played,
            better=mistake.best,
            before=_percent(mistake.best_value),
            after=_percent(mistake.played_value),
        )
    ]
    if mistake.reason in REASONS:
        lines.append(translate(language, REASONS[mistake.reason]))
    return "\n".join(lines)
