"""Words as data: message codes with their English text, and phrases that fill them in.

The engine describes what happened or what is awaited as a :class:`Phrase`: a
:class:`Text` (a stable code such as ``"les.setup.header"`` and its English template)
with parameters. Only the edge (the renderer, the Discord layer) turns a phrase into words,
adding what the engine does not know, such as the display name of the seat a phrase is
about (``{player}``). A translation catalogue looks texts up by their code; the English
template is the source text and the fallback.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

Param = str | int


@dataclass(frozen=True)
class Text:
    """One message: a stable code and its English template (``str.format`` fields)."""

    code: str
    english: str

    def __call__(self, seat: int | None = None, **params: Param) -> Phrase:
        """This text with its parameters; ``seat`` names the seat the phrase is about."""
        return Phrase(self, params, seat)


@dataclass(frozen=True)
class Phrase:
    """A text with its parameters, not yet words in any language."""

    text: Text
    params: Mapping[str, Param] = field(default_factory=dict)
    seat: int | None = None  # the edge fills ``{player}`` with this seat's display name

    @property
    def code(self) -> str:
        return self.text.code

    def english(self, **edge: Param) -> str:
        """The English words, with what the edge adds (``player=...``) filled in too."""
        return self.text.english.format(**self.params, **edge)
