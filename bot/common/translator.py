"""Slash commands in the reader's language: their texts come from the message catalogues.

Every name, description and choice of a command is written as ``command_text("id")``: a
``locale_str`` whose text is the English catalogue entry (what Discord shows by default)
and which carries its message id. When the tree syncs, discord.py asks the
:class:`CatalogueTranslator` (registered in ``LeafBot.setup_hook``) for each Discord locale;
it answers with the catalogue's text for German clients and nothing for the others, which
then see the English. Proper names (the games' names) are plain strings and stay as they are.
"""

from __future__ import annotations

import discord
from discord import app_commands

from i18n import DEFAULT_LANGUAGE, language_for, translate


def command_text(msgid: str) -> app_commands.locale_str:
    """A command's name, description or choice: English text that knows its message id."""
    return app_commands.locale_str(translate(DEFAULT_LANGUAGE, msgid), msgid=msgid)


class CatalogueTranslator(app_commands.Translator):
    """Answers discord.py's questions "this text in that locale?" from the catalogues."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        msgid = string.extras.get("msgid")
        language = language_for(locale)
        if msgid is None or language == DEFAULT_LANGUAGE:
            return None  # Discord shows the English text given with the command
        text = translate(language, msgid)
        # a text the catalogues do not know (a game registered at run time) stays English
        return None if text == msgid else text
