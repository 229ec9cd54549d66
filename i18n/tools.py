"""Keeping the catalogues current: extraction and update with Babel's own machinery.

``python -m i18n extract`` writes the template ``i18n/locales/leafbot.pot`` from the code
(Babel's extractor over the files ``i18n/babel.cfg`` maps, with the keywords below);
``python -m i18n update`` then merges it into every language's ``.po`` (new ids arrive
empty, ids no code names any more are dropped) and gives each entry of the template the
English text as a comment, so a translator sees what to translate; ``python -m i18n check``
says what is out of date or untranslated and exits 1 if anything is (the tests run it).
``make i18n-extract`` and ``make i18n-update`` call the first two.
"""

from __future__ import annotations

import copy
import io
import string
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po
from babel.util import TextWrapper

from i18n.catalogues import DEFAULT_LANGUAGE, DOMAIN, LANGUAGES, po_path, template_path
from i18n.extract import table_in_source, texts_in_source

ROOT = Path(__file__).resolve().parent.parent
MAPPING = Path(__file__).resolve().parent / "babel.cfg"
# The functions whose literal arguments are message ids (Babel's keyword specs: which
# arguments, counted from 1). Only these: the default gettext keywords are not ours.
KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "translate": (2,),
    "translate_plural": (2, 3),
    "N_": None,
    "command_text": None,
    # a refusal decided in the Discord layer: UserFacingError("bot.x.y", name=value)
    "UserFacingError": (1,),
}

MessageId = str | tuple[str, str]


def _key(message: Message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def extract() -> Catalog:
    """A fresh template: every message id the code names, with where it is named."""
    with MAPPING.open(encoding="utf-8") as mapping:
        method_map, options_map = parse_mapping_cfg(  # type: ignore[no-untyped-call]  # Babel's function has no hints
            mapping, filename=str(MAPPING)
        )
    template = Catalog(domain=DOMAIN, project="Leafbot", fuzzy=False)
    for filename, line, message, comments, context in extract_from_dir(
        ROOT, method_map, options_map, keywords=KEYWORDS
    ):
        # the catalogues name the file only (write_po without line numbers): no churn
        template.add(message, None, [(filename, line)], auto_comments=comments, context=context)
    return template


def _read(path: Path, language: str | None) -> Catalog | None:
    if not path.is_file():
        return None
    with path.open("rb") as po_file:
        return read_po(po_file, locale=language, domain=DOMAIN)


def read_catalogue(language: str) -> Catalog:
    found = _read(po_path(language), language)
    if found is None:
        raise FileNotFoundError(po_path(language))
    return found


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a message text."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def texts(message: Message) -> list[str]:
    """The translated text(s) of a catalogue entry: one, or one per plural form."""
    if isinstance(message.string, str):
        return [message.string]
    return list(message.string or ())


def _annotate(template: Catalog, english: Catalog | None) -> None:
    """English as a translator comment, and the brace-format flag where it has fields."""
    for message in template:
        if not message.id:
            continue
        source = english.get(message.id) if english is not None else None
        if source is None:
            continue
        shown = [text for text in texts(source) if text]
        if shown:
            message.auto_comments = [f"English: {text}" for text in shown]
        if any(placeholders(text) for text in shown):
            message.flags.add("python-brace-format")


def _serialise(catalogue: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalogue, sort_output=True, include_lineno=False, ignore_obsolete=True)
    return out.getvalue()


def _without_dates(data: bytes) -> bytes:
    """A catalogue's text without what changes when nothing was changed: its dates and the
    Babel version that wrote it (a new Babel release must not rewrite every file)."""
    lines = data.splitlines()
    return b"\n".join(
        line for line in lines if b"-Date:" not in line and b'"Generated-By:' not in line
    )


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _write_if_changed(path: Path, catalogue: Catalog) -> bool:
    data = _serialise(catalogue)
    if path.is_file() and _without_dates(path.read_bytes()) == _without_dates(data):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def write_template() -> Catalog:
    template = extract()
    english = _read(po_path(DEFAULT_LANGUAGE), DEFAULT_LANGUAGE)
    if english is not None:
        _engine_english(english)
    _annotate(template, english)
    if _write_if_changed(template_path(), template):
        print(f"wrote {_shown(template_path())}")
    return template


_COMMENT_WRAP = TextWrapper(width=76, break_long_words=False)  # Babel's, as write_po wraps


def _words(comments: Iterable[str]) -> list[str]:
    """Comments as words, the same before and after a round trip through a .po file (which
    wraps long comments over several lines and keeps each distinct line once)."""
    lines = [line for comment in comments for line in _COMMENT_WRAP.wrap(comment)]
    return " ".join(dict.fromkeys(lines)).split()


ENGINE_DIR = ROOT / "engine"


def engine_tables() -> dict[str, dict[str, str | tuple[str, str]]]:
    """The English of the code tables by message-id prefix (see ``i18n/babel.cfg``): the
    engine's refusals, its reasons for an end, and (prefix "") every ``Text`` written in
    its modules; the Leiff engine's event texts; the match service's refusals."""
    refusals = (ENGINE_DIR / "errors.py").read_text(encoding="utf-8")
    reasons = (ENGINE_DIR / "reasons.py").read_text(encoding="utf-8")
    leiff = (ENGINE_DIR / "leiff" / "events.py").read_text(encoding="utf-8")
    texts: dict[str, str | tuple[str, str]] = {}
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        texts.update(texts_in_source(path.read_text(encoding="utf-8")))
    service = (ROOT / "matchcore" / "service" / "errors.py").read_text(encoding="utf-8")
    said = (ROOT / "matchcore" / "service" / "texts.py").read_text(encoding="utf-8")
    return {
        "illegal.": table_in_source(refusals, "ENGLISH"),
        "outcome.": table_in_source(reasons, "REASONS"),
        "leiff.": table_in_source(leiff, "ENGLISH"),
        "service.error.": table_in_source(service, "ENGLISH"),
        "service.say.": table_in_source(said, "ENGLISH"),
        "": texts,
    }


def _engine_english(catalogue: Catalog) -> None:
    """The engine's English is the English of its codes' messages: copy it in."""
    for prefix, table in engine_tables().items():
        for code, english in table.items():
            message = catalogue.get(f"{prefix}{code}")
            if message is not None:
                message.string = english


def update() -> None:
    """Extract, then bring every language's catalogue in line with the template.

    The English catalogue takes the engine's English for its codes. In the others, an
    entry whose English changed since it was translated (its "English:" comment says what
    it was) is marked fuzzy, so the translation is looked at again.
    """
    english = _read(po_path(DEFAULT_LANGUAGE), DEFAULT_LANGUAGE) or Catalog(
        locale=DEFAULT_LANGUAGE, domain=DOMAIN, project="Leafbot", fuzzy=False
    )
    template = extract()
    # Catalog.update adopts the template's new message objects: give it a copy, so that
    # the English filled in below stays out of the template and the other languages
    english.update(copy.deepcopy(template), no_fuzzy_matching=True, update_creation_date=False)
    english.obsolete.clear()
    _engine_english(english)
    for message in english:
        message.auto_comments = []  # the English needs no comment of itself
    _annotate(template, english)
    if _write_if_changed(template_path(), template):
        print(f"wrote {_shown(template_path())}")
    if _write_if_changed(po_path(DEFAULT_LANGUAGE), english):
        print(f"wrote {_shown(po_path(DEFAULT_LANGUAGE))}")
    for language in LANGUAGES:
        if language == DEFAULT_LANGUAGE:
            continue
        catalogue = _read(po_path(language), language) or Catalog(
            locale=language, domain=DOMAIN, project="Leafbot", fuzzy=False
        )
        translated_from = {_key(m): _words(m.auto_comments) for m in catalogue if m.id}
        # no fuzzy matching: ids are codes, and a near-miss code is a different message
        catalogue.update(template, no_fuzzy_matching=True, update_creation_date=False)
        catalogue.obsolete.clear()
        for message in catalogue:
            before = translated_from.get(_key(message)) if message.id else None
            if before and before != _words(message.auto_comments) and any(texts(message)):
                message.flags.add("fuzzy")
        if _write_if_changed(po_path(language), catalogue):
            print(f"wrote {_shown(po_path(language))}")


def _ids(messages: Iterable[Message]) -> dict[str, MessageId]:
    found: dict[str, MessageId] = {}
    for message in messages:
        if isinstance(message.id, str):
            if message.id:
                found[message.id] = message.id
        elif message.id:
            found[message.id[0]] = (message.id[0], message.id[1])
    return found


def problems() -> list[str]:
    """What is out of date or untranslated; empty when the catalogues are complete."""
    found: list[str] = []
    wanted = _ids(extract())
    template = _read(template_path(), None)
    if template is None or _ids(template) != wanted:
        found.append("the template leafbot.pot is out of date: run make i18n-update")
    for language in LANGUAGES:
        catalogue = _read(po_path(language), language)
        if catalogue is None:
            found.append(f"{language}: no catalogue: run make i18n-update")
            continue
        have = _ids(catalogue)
        for key in sorted(wanted.keys() - have.keys()):
            found.append(f"{language}: {key} is missing: run make i18n-update")
        for key in sorted(have.keys() - wanted.keys()):
            found.append(f"{language}: {key} is named by no code: run make i18n-update")
        for key in sorted(wanted.keys() & have.keys()):
            if have[key] != wanted[key]:
                found.append(f"{language}: {key} changed between one and plural forms")
        for message in catalogue:
            if not message.id:
                continue
            if message.fuzzy:
                found.append(f"{language}: {_key(message)} is marked fuzzy")
            if not all(texts(message)):
                found.append(f"{language}: {_key(message)} is not translated")
    return found


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "extract":
        write_template()
        return 0
    if command == "update":
        update()
        return 0
    if command == "check":
        found = problems()
        for line in found:
            print(line)
        return 1 if found else 0
    print("usage: python -m i18n extract | update | check", file=sys.stderr)
    return 2
