"""The words of ``/help``: what the bot is, every registered game in a line (its spec's
``tagline``, or its summary, in the registry's order), the three commands to type first,
how a board match ends early, where settings and leaderboards are, and how to read a
rating, in the reader's language.

Command and option names are the slash commands' own, as the reader's Discord client shows
them (``/play`` in English, ``/spielen`` in German), read from the same catalogue entries
the commands are registered with.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.registry import specs
from i18n import DEFAULT_LANGUAGE, N_, phrase, translate


@dataclass(frozen=True)
class HelpText:
    """``/help`` in one language: ``markdown()`` is the message; ``buttons`` label one
    button per game that has a tutorial, leading to it."""

    title: str
    intro: str
    games: tuple[tuple[str, str, str], ...]  # (game, its title, what it is in a line)
    commands: tuple[str, ...]  # the three commands to type first, each with what it does
    ending: str  # how a board match ends early: resigning asks first; aborting is unrated
    more: str  # where settings, leaderboards and statistics are
    ratings: str  # how to read a rating (docs/service.md, "Ratings")
    buttons: tuple[tuple[str, str], ...]  # (game, button label)
    games_heading: str
    commands_heading: str

    def markdown(self) -> str:
        lines = [self.intro, "", f"**{self.games_heading}**"]
        lines += [f"**{title}**: {line}" for _, title, line in self.games]
        lines += ["", f"**{self.commands_heading}**"]
        lines += [f"- {command}" for command in self.commands]
        lines += ["", self.ending, "", self.more, "", self.ratings]
        return "\n".join(lines)


def help_text(language: str = DEFAULT_LANGUAGE, *, bot_name: str = "Leafbot") -> HelpText:
    """The ``/help`` message in ``language``; ``bot_name`` is how the bot is mentioned in the
    practice command (its display name on the server)."""

    def name(msgid: str) -> str:
        return translate(language, msgid)

    names = {
        "play": name(N_("command.play.name")),
        "rules": name(N_("command.rules.name")),
        "leaderboard": name(N_("command.leaderboard.name")),
        "stats": name(N_("command.stats.name")),
        "profile": name(N_("command.profile.name")),
        "resign": name(N_("command.resign.name")),
        "settings": name(N_("command.settings.name")),
        "prefs": name(N_("command.prefs.name")),
        "game": name(N_("command.option.game")),
        "opponent": name(N_("command.option.opponent")),
        "level": name(N_("command.option.level")),
    }
    games = tuple(
        (
            spec.name,
            phrase(language, spec.title()),
            phrase(language, (spec.tagline or spec.summary)()),
        )
        for spec in specs()
    )
    return HelpText(
        title=translate(language, "tutorial.help.title"),
        intro=translate(language, "tutorial.help.intro"),
        games=games,
        commands=(
            translate(language, "tutorial.help.command.play", **names),
            translate(language, "tutorial.help.command.rules", **names),
            translate(
                language,
                "tutorial.help.command.practice",
                bot=bot_name,
                **names,
            ),
        ),
        ending=translate(language, "tutorial.help.ending", **names),
        more=translate(language, "tutorial.help.more", **names),
        ratings=translate(language, "tutorial.help.ratings"),
        buttons=tuple(
            (spec.name, translate(language, "tutorial.help.button", game=title))
            for spec, (_, title, _) in zip(specs(), games, strict=True)
            if spec.tutorial
        ),
        games_heading=translate(language, "tutorial.help.games"),
        commands_heading=translate(language, "tutorial.help.commands"),
    )
