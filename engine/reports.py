"""What a board position reports besides its stones: how the game ended, what the last move
did, and the loops on the board (Lublache). Plain frozen records, read by pictures, messages
and the AI; the mould of :mod:`engine.board` fills them in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.phrases import Phrase
from engine.reasons import reason as reason_text


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: ``winner`` is a colour name, or None for a draw.

    ``reason`` is an English sentence; ``code`` and ``params`` say the same for the edges to
    put in the reader's language (``engine.reasons``). Outcomes stored before codes existed
    have only the sentence.
    """

    winner: str | None
    reason: str
    code: str | None = field(default=None, compare=False)
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def because(cls, winner: str | None, code: str, **params: Any) -> Outcome:
        """The outcome with reason ``code`` (English from ``engine.reasons.REASONS``)."""
        return cls(winner, reason_text(code, params), code, params)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(data["winner"], data["reason"], data.get("code"), dict(data.get("params") or {}))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"winner": self.winner, "reason": self.reason}
        if self.code is not None:
            data["code"] = self.code
            data["params"] = dict(self.params)
        return data


@dataclass(frozen=True)
class LastTurn:
    """What the last move did, in cell names, so pictures can mark it without rules code."""

    colour: str | None = None
    move: str | None = None
    placed: tuple[str, ...] = ()
    captured: tuple[str, ...] = ()
    flipped: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    loops: tuple[tuple[str, ...], ...] = ()  # Lublache: loops closed by this move

    def to_dict(self) -> dict[str, Any]:
        return {
            "colour": self.colour,
            "move": self.move,
            "placed": list(self.placed),
            "captured": list(self.captured),
            "flipped": list(self.flipped),
            "removed": list(self.removed),
            "loops": [list(loop) for loop in self.loops],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LastTurn:
        return cls(
            colour=data.get("colour"),
            move=data.get("move"),
            placed=tuple(data.get("placed", ())),
            captured=tuple(data.get("captured", ())),
            flipped=tuple(data.get("flipped", ())),
            removed=tuple(data.get("removed", ())),
            loops=tuple(tuple(loop) for loop in data.get("loops", ())),
        )


@dataclass(frozen=True)
class ScoreSummary:
    """The live score as data, for a line in words ("Dark leads 3–2: distinct leaf counts 2
    vs 2, most leaves: dark"): each colour's points in colour order, the colour that would
    win if the game were scored now (None when level) and what the points are made of, one
    phrase a part. The edge words it in the reader's language."""

    points: tuple[tuple[str, int], ...]
    leader: str | None
    parts: tuple[Phrase, ...] = ()


@dataclass(frozen=True)
class LoopView:
    """One loop on the board (Lublache), described for pictures, bots and help texts.

    ``cells`` are cell names in walking order round the loop; ``owner`` is the colour of
    every stone when the loop is single-coloured; ``controllers`` lists the colours holding
    at least half of its stones (both of them when an even loop is split evenly).
    """

    cells: tuple[str, ...]
    owner: str | None
    controllers: tuple[str, ...]

    @property
    def controller(self) -> str | None:
        """The colour holding more than half of the stones; None when split evenly."""
        return self.controllers[0] if len(self.controllers) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "cells": list(self.cells),
            "owner": self.owner,
            "controllers": list(self.controllers),
        }


@dataclass(frozen=True)
class TreeView:
    """One tree on the board (Lefe, Dalen), described for pictures and tutorials.

    ``cells`` are its stones in notation order; ``leaves`` those of them that are leaves by
    the game's own rule (Lefe counts a lone stone as a leaf, Dalen does not).
    """

    colour: str
    cells: tuple[str, ...]
    leaves: tuple[str, ...]
