"""The language of the lines a process writes to its console (``make run``: the start
message without a token, the steps that connect the bot to Discord, the address of the web
table, a refusal to start): read from the environment as gettext reads it, ``LANGUAGE``,
then ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` (``LANG=de_DE.UTF-8`` reads German), English
when none names a language of the catalogues (``C``, ``POSIX``, unset, any other).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from i18n.catalogues import DEFAULT_LANGUAGE, LANGUAGES

# gettext's order: the first variable set decides (LANGUAGE may list several, "de:en")
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def console_language(environ: Mapping[str, str] | None = None) -> str:
    """The catalogue language of the console's lines ("de" or "en")."""
    found = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = found.get(name, "")
        if not value:
            continue
        for choice in value.split(":"):
            primary = choice.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
            if primary in LANGUAGES:
                return primary
        if name != "LANGUAGE":  # LANGUAGE names no known one: the locale's variables decide
            return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE
