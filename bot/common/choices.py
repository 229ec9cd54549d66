"""The theme and language ids the Discord layer serves, which the match core checks servers'
settings and members' preferences against (it knows no picture and no catalogue itself)."""

from __future__ import annotations

from i18n import LANGUAGES
from matchcore.service import Choices
from render.themes import list_themes


def service_choices() -> Choices:
    """The renderer's themes (the default first) and the catalogues' languages."""
    return Choices(themes=tuple(list_themes()), languages=tuple(LANGUAGES))
