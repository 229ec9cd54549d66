"""The page's own words: message ids of the catalogues, sent to the page in the reader's
language when its socket opens (the page holds no sentence of its own)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import board_game_names, get_board_game
from engine.ai.levels import LEVEL_NAMES
from i18n import N_, language_for, translate
from i18n.catalogues import translations
from matchcore.service.leiff_logic import MAX_PLAYERS, MIN_PLAYERS
from matchcore.service.results import MatchInfo
from matchcore.strength import measured_strength
from web.sessions import Identity

# The labels the page shows; its code looks them up by the part after "web.".
PAGE_TEXTS = (
    N_("web.title"),
    N_("web.connecting"),
    N_("web.reconnecting"),
    N_("web.new_game"),
    N_("web.game"),
    N_("web.opponent"),
    N_("web.opponent.bot"),
    N_("web.opponent.hotseat"),
    N_("web.level"),
    N_("web.size"),
    N_("web.start"),
    N_("web.resign"),
    N_("web.resign.confirm"),
    N_("web.resign.yes"),
    N_("web.cancel"),
    N_("web.offer_draw"),
    N_("web.accept_draw"),
    N_("web.decline_draw"),
    N_("web.draw_offered"),
    N_("web.rematch"),
    N_("web.moves"),
    N_("web.back"),
    N_("web.forward"),
    N_("web.live"),
    N_("web.score"),
    N_("web.clock"),
    N_("web.capture_choice"),
    N_("web.no_capture"),
    N_("web.you"),
    N_("web.bot_name"),
    N_("web.second_player"),
    N_("web.my_matches"),
    N_("web.no_matches"),
    N_("web.intro"),
    N_("web.viewing"),
    N_("web.players"),
    N_("web.leiff.leave"),
    N_("web.leiff.log"),
    N_("web.leiff.send_rule"),
    N_("web.puzzle.open"),
    N_("web.puzzle.next"),
    N_("web.puzzle.done"),
    N_("web.puzzle.daily"),
    N_("web.puzzle.any_game"),
)

# every level the bot offers, weakest first, as /play offers them
LEVELS = LEVEL_NAMES

# The units a clock's time left is written in, as the bot writes times (i18n.typed).
DURATION_UNITS = ("duration.day", "duration.hour", "duration.minute")

# A match that is not running, in the status line (a finished game says why it ended).
STATUS_TEXTS = {
    "lobby": N_("web.status.lobby"),
    "finished": N_("web.status.finished"),
    "aborted": N_("web.status.aborted"),
}

YOUR_TURN = N_("web.your_turn")
TO_MOVE = N_("web.to_move")
BOT_NAME = N_("web.bot_name")

# Why a message was refused without the core being asked.
TOO_FAST = N_("web.error.too_fast")
MALFORMED = N_("web.error.malformed")
FAILED = N_("web.error.failed")


def page_texts(language: str) -> dict[str, str]:
    """The page's labels in ``language``, keyed by the id without its ``web.`` prefix."""
    # as written, placeholders and all: the page fills them in ({name})
    catalogue = translations(language_for(language))
    texts = {msgid.removeprefix("web."): catalogue.gettext(msgid) for msgid in PAGE_TEXTS}
    # the clock's units, both forms with {count} (the page picks one: web/frontend/src/clock.ts)
    for unit in DURATION_UNITS:
        texts[unit] = catalogue.ngettext(unit, f"{unit}.plural", 1)
        texts[f"{unit}.plural"] = catalogue.ngettext(unit, f"{unit}.plural", 2)
    for level in LEVELS:
        texts[f"level.{level}"] = translate(language, f"bot.level.{level}")
    # a level's measured strength beside its name, "about {elo} Elo" (as /play says it)
    texts["level_elo"] = catalogue.gettext("bot.play.level_elo")
    for game in (*board_game_names(), "leiff"):
        texts[f"game.{game}"] = translate(language, f"game.{game}.title")
        texts[f"tagline.{game}"] = translate(language, f"game.{game}.tagline")
    return texts


def language_of(locale: str) -> str:
    """The catalogue language of a member's locale (English when none fits)."""
    return language_for(locale)


def welcome_frame(identity: Identity, language: str, *, local: bool) -> dict[str, Any]:
    """The ``welcome`` frame a socket gets first: who it speaks for, the page's words, and
    the games a local table can start (Leiff's "size" is its number of players, the others
    bot seats), each board game with the Elo the ladder measured for its levels (only the
    measured ones: data/ai-strength.json)."""
    return {
        "type": "welcome",
        "user": {"id": identity.user_id, "name": identity.name},
        "language": language,
        "texts": page_texts(language),
        "local": local,
        "levels": list(LEVELS),
        "games": [
            *(
                {
                    "name": name,
                    "sizes": list(get_board_game(name).sizes),
                    "defaultSize": get_board_game(name).default_size,
                    "strength": _strength(name),
                }
                for name in board_game_names()
            ),
            {
                "name": "leiff",
                "sizes": list(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
                "defaultSize": 4,
                "cards": True,
            },
        ],
    }


def _strength(game: str) -> dict[str, int]:
    """The measured levels of ``game``: level -> Elo."""
    measured = {level: measured_strength(game, level) for level in LEVELS}
    return {level: found.elo for level, found in measured.items() if found is not None}


# The start page's list of the member's games: whose turn each is.
MATCH_YOUR_TURN = N_("web.match.your_turn")
MATCH_WAITING = N_("web.match.waiting")
MATCH_AGAINST = N_("web.match.against")


def match_line(
    info: MatchInfo, member: int, name: Callable[[int], str], language: str
) -> dict[str, Any]:
    """One of the member's games as the start page lists it: the game, against whom, and
    whose turn it is (or that it has not started, or has ended)."""
    bots = {seat.user_id for seat in info.seats if seat.is_bot}

    def called(user: int) -> str:
        return translate(language, BOT_NAME) if user in bots else name(user)

    others = [
        called(seat.user_id)
        for seat in info.seats
        if seat.user_id is not None and seat.user_id != member
    ]
    yours = info.status == "running" and member in info.to_act
    if yours:
        status = translate(language, MATCH_YOUR_TURN)
    elif info.status == "running" and info.to_act:
        names = ", ".join(dict.fromkeys(called(user) for user in info.to_act))
        status = translate(language, MATCH_WAITING, names=names)
    else:
        status = translate(language, STATUS_TEXTS.get(info.status, STATUS_TEXTS["finished"]))
    return {
        "match": info.id,
        "game": info.game,
        "status": info.status,
        "yourTurn": yours,
        "against": translate(language, MATCH_AGAINST, names=", ".join(dict.fromkeys(others)))
        if others
        else "",
        "text": status,
    }
