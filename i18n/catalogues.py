"""Where the catalogues live and how a process loads them: each ``.po`` read once, compiled
in memory with Babel and served by the standard library's gettext (plural rules from the
catalogue's ``Plural-Forms`` header, which Babel writes from CLDR)."""

from __future__ import annotations

import io
import threading
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

DOMAIN = "leafbot"
DEFAULT_LANGUAGE = "en"
# English first: it is the fallback of every other language.
LANGUAGES: tuple[str, ...] = ("en", "de")
LOCALE_DIR = Path(__file__).resolve().parent / "locales"

_loaded: dict[str, Translations] = {}
_lock = threading.RLock()  # pictures are drawn on worker threads; German loads English


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def template_path() -> Path:
    return LOCALE_DIR / f"{DOMAIN}.pot"


def _compile(language: str) -> Translations:
    with po_path(language).open("rb") as po_file:
        catalogue = read_po(po_file, locale=language, domain=DOMAIN)
    mo_file = io.BytesIO()
    write_mo(mo_file, catalogue)  # fuzzy entries are left out, as msgfmt does
    mo_file.seek(0)
    return Translations(mo_file, domain=DOMAIN)


def translations(language: str) -> Translations:
    """The compiled catalogue of a supported language (any other gets English's). A message
    missing from a translation falls back to English."""
    found = _loaded.get(language)
    if found is not None:
        return found
    if language not in LANGUAGES:
        return translations(DEFAULT_LANGUAGE)
    with _lock:
        if language not in _loaded:
            compiled = _compile(language)
            if language != DEFAULT_LANGUAGE:
                compiled.add_fallback(translations(DEFAULT_LANGUAGE))
            _loaded[language] = compiled
        return _loaded[language]
