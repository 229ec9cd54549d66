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
    """One message: a stable code and its English template (``str.format`` fields).

    A message with a number in it has a ``plural`` English template too, used unless the
    ``count`` parameter is 1; a catalogue then gives every language its own plural forms.
    """

    code: str
    english: str
    plural: str | None = None

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
        template = self.text.english
        if self.text.plural is not None and self.params.get("count") != 1:
            template = self.text.plural
        return template.format(**self.params, **edge)
