"""The bot's levels as members see and choose them: their words in both languages, the
choices ``/play`` and ``/import`` offer (with each level's measured strength in the game
at hand, data/ai-strength.json), and what a member typed read back as a level."""

from __future__ import annotations

from bot.common.errors import UserFacingError
from bot.common.names import excerpt
from engine.ai.levels import LEVEL_NAMES
from i18n import LANGUAGES, N_, translate
from matchcore.strength import measured_strength

# a level's choice: what it is like ("easy: thinks briefly…"), one per engine level (a test
# checks that every level has one)
LEVEL_TEXT_IDS = {
    "beginner": N_("command.play.level.beginner"),
    "easy": N_("command.play.level.easy"),
    "normal": N_("command.play.level.normal"),
    "hard": N_("command.play.level.hard"),
    "master": N_("command.play.level.master"),
}
# a level's short name ("easy", German "leicht"), which a member may also type, and which
# the history's lines say
LEVEL_WORD_IDS = {
    "beginner": N_("bot.level.beginner"),
    "easy": N_("bot.level.easy"),
    "normal": N_("bot.level.normal"),
    "hard": N_("bot.level.hard"),
    "master": N_("bot.level.master"),
}
# Discord's limit on a choice's name
CHOICE_NAME_LIMIT = 100


def level_choices(language: str, game: object, typed: str = "") -> list[tuple[str, str]]:
    """The levels as (name, level) pairs in ``language``: each level's description, and
    where the ladder has measured the level in ``game`` (data/ai-strength.json), its Elo
    after it ("… · about 1495 Elo"), the description cut short to keep within Discord's
    100 characters. Only the levels whose name or word contains what was ``typed``."""
    wanted = typed.strip().casefold()
    offered = []
    for level in LEVEL_NAMES:
        name = translate(language, LEVEL_TEXT_IDS[level])
        if wanted and wanted not in name.casefold() and wanted not in level:
            continue
        strength = measured_strength(game, level) if isinstance(game, str) else None
        if strength is not None:
            suffix = " · " + translate(language, "bot.play.level_elo", elo=strength.elo)
            room = CHOICE_NAME_LIMIT - len(suffix)
            if len(name) > room:
                name = name[: room - 1].rstrip() + "…"
            name += suffix
        offered.append((name, level))
    return offered


def level_typed(text: str) -> str | None:
    """The level a member chose or typed: a level's id (what a choice sends), or its word
    in any language ("leicht", "Master"); None when it is neither."""
    wanted = text.strip().casefold()
    for level in LEVEL_NAMES:
        words = {translate(lang, LEVEL_WORD_IDS[level]).casefold() for lang in LANGUAGES}
        if wanted == level or wanted in words:
            return level
    return None


def chosen_level(text: str | None, language: str) -> str | None:
    """The level of a command's ``level`` option (None: not given). Text that names no
    level is refused with the levels in the member's ``language``, what they typed quoted
    short and harmless."""
    if text is None:
        return None
    level = level_typed(text)
    if level is None:
        words = [translate(language, LEVEL_WORD_IDS[name]) for name in LEVEL_NAMES]
        raise UserFacingError(
            "bot.play.error.unknown_level", typed=excerpt(text), levels=", ".join(words)
        )
    return level
