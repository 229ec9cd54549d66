"""Learning the games: illustrated tutorials, move hints and pictures of why a move was refused.

Sits between the engine, the pictures and the catalogues (below) and the bot (above): the
bot asks this package what to show and shows it; nothing here imports Discord.

- :func:`tutorial_pages` — a game's tutorial in the reader's language: one rule a page,
  each with a title, a body (Discord markdown), a picture drawn from a real engine position
  and annotated, a page counter, and, on the last page, a practice game against the bot;
- :func:`check_tutorial` — where a game's pages disagree with the engine (nothing when they
  agree; the tests run it for every page);
- :func:`hint_picture` — a board picture with a dot on every cell where the player to move
  may put a stone (per-member move hints);
- :func:`illegal_move_picture` — for a refused ``/move``, the board with the refused cell
  and the stones the refusal is about marked (None when a picture would add nothing);
- :func:`help_text` — the ``/help`` message's words.

Pages are data (:mod:`tutorial.pages`): their words are message ids in ``i18n/locales``,
their examples build positions with the engine's API (:mod:`tutorial.boards`,
:mod:`tutorial.cards`). ``python -m tutorial docs`` writes the player pages ``docs/rules``
from the same pages.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache

from engine import IllegalMove
from engine.board import BoardState
from engine.registry import UnknownGame, get_spec, specs
from engine.spec import GameSpec
from i18n import DEFAULT_LANGUAGE, phrase, translate
from render import board_png, png_bytes
from render.annotations import hint_cells, refusal_annotations, render_annotated
from tutorial.help import HelpText, help_text
from tutorial.pages import PRACTICE_LEVEL, Page, words

__all__ = [
    "PRACTICE_LEVEL",
    "HelpText",
    "TutorialPage",
    "check_tutorial",
    "game_pages",
    "help_text",
    "hint_picture",
    "illegal_move_picture",
    "tutorial_games",
    "tutorial_page",
    "tutorial_pages",
]


def tutorial_games() -> tuple[str, ...]:
    """The registered games that have a tutorial, in the registry's order (/help's)."""
    return tuple(spec.name for spec in specs() if spec.tutorial)


def _spec(game: str) -> GameSpec:
    try:
        return get_spec(game)
    except UnknownGame:
        raise ValueError(
            f"{game!r} is no game and has no tutorial; the tutorials are {_listed()}"
        ) from None


def _listed() -> str:
    return ", ".join(tutorial_games())


def game_pages(game: str) -> tuple[Page, ...]:
    """A game's pages, in reading order: the ``PAGES`` of the module its spec names
    (``GameSpec.tutorial``), imported when first asked for."""
    module = _spec(game).tutorial
    if module is None:
        raise ValueError(f"{game!r} has no tutorial; the tutorials are {_listed()}")
    pages: tuple[Page, ...] = importlib.import_module(module).PAGES
    return pages


@dataclass(frozen=True)
class TutorialPage:
    """One page as the reader sees it: words in their language, the picture on request.

    ``number`` counts from 1; ``counter`` is "Page 2 of 9" in the reader's language;
    ``practice`` says the page offers a practice game against the bot at
    ``practice_level`` (the last page of every tutorial), ``practice_button`` its label.
    """

    game: str
    key: str
    number: int
    count: int
    title: str
    body: str
    counter: str
    practice: bool
    practice_button: str | None
    language: str
    theme: str

    @property
    def practice_level(self) -> str | None:
        return PRACTICE_LEVEL if self.practice else None

    def picture(self) -> bytes:
        """The page's picture as PNG bytes (drawn once per process, then remembered)."""
        return _picture(self.game, self.number - 1, self.language, self.theme)

    @property
    def filename(self) -> str:
        return f"{self.game}-{self.number:02d}-{self.key}.png"


@lru_cache(maxsize=256)
def _picture(game: str, index: int, language: str, theme: str) -> bytes:
    page = game_pages(game)[index]
    return png_bytes(page.example.picture(language, theme))


def _game_title(game: str, language: str) -> str:
    return phrase(language, get_spec(game).title())


def tutorial_page(
    game: str, number: int, language: str = DEFAULT_LANGUAGE, *, theme: str = "classic"
) -> TutorialPage:
    """Page ``number`` (from 1) of ``game``'s tutorial, in ``language``."""
    pages = game_pages(game)
    if not 1 <= number <= len(pages):
        raise ValueError(f"the {game} tutorial has pages 1 to {len(pages)}, not {number}")
    page = pages[number - 1]
    title = _game_title(game, language)
    return TutorialPage(
        game=game,
        key=page.key,
        number=number,
        count=len(pages),
        title=words(language, page.title, game=title),
        body=words(language, page.body, game=title),
        counter=translate(language, "tutorial.counter", number=number, count=len(pages)),
        practice=page.practice,
        practice_button=translate(language, "tutorial.practice.button") if page.practice else None,
        language=language,
        theme=theme,
    )


def tutorial_pages(
    game: str, language: str = DEFAULT_LANGUAGE, *, theme: str = "classic"
) -> list[TutorialPage]:
    """Every page of ``game``'s tutorial, in reading order, in ``language``."""
    return [
        tutorial_page(game, number, language, theme=theme)
        for number in range(1, len(game_pages(game)) + 1)
    ]


def check_tutorial(game: str) -> list[str]:
    """Where ``game``'s pages disagree with the engine, page by page (empty: they agree)."""
    return [
        f"{game} page {number} ({page.key}): {problem}"
        for number, page in enumerate(game_pages(game), start=1)
        for problem in page.example.problems()
    ]


def hint_picture(
    state: BoardState,
    *,
    names: tuple[str, str] = ("", ""),
    theme: str = "classic",
    width: int = 480,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    """The board picture of ``state`` with a dot on every cell where the player to move may
    put a stone (the first stone of a Les turn; the set-up stone during the Les set-up)."""
    return board_png(
        state,
        names=names,
        theme=theme,
        width=width,
        language=language,
        hints=hint_cells(state, state.legal_moves()),
    )


def illegal_move_picture(
    state: BoardState,
    move: str,
    *,
    names: tuple[str, str] = ("", ""),
    theme: str = "classic",
    width: int = 480,
    language: str = DEFAULT_LANGUAGE,
) -> bytes | None:
    """Why ``move`` is refused in ``state``, as a picture: the refused cell gets a no-entry
    sign, the stones the engine's refusal names a ring (the friendly neighbours that touch in
    Lefe, the leaves in Dalen), a loop its band (Lublache). None when the move is legal or the
    refusal names no stones (its sentence says it all: "f6 is taken")."""
    try:
        state.play(move)
    except IllegalMove as error:
        marks = refusal_annotations(error.code, error.params)
        if marks is None:
            return None
        image = render_annotated(
            state, marks, names=names, theme=theme, width=width, language=language
        )
        return png_bytes(image)
    return None
