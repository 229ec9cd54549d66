"""A board game's record as text, both ways: export a finished match, import a record.

The format follows chess's PGN, the record format players already know: tag pairs, then
the moves in the game's own notation (each move's canonical string, numbered by ply, a Les
turn's two stones one move), then the result from seat A's side::

    [Game "Lefe"]
    [Size "6"]
    [Options ""]
    [Match "12"]
    [Date "2026-11-29"]
    [TimeControl "1 day per move"]
    [SeatA "alice"]
    [SeatB "bob"]
    [Result "1-0"]
    [Termination "resigned"]

    1. f6 2. swap 3. e5 4. d7 1-0

``1-0``: seat A won, ``0-1``: seat B, ``1/2-1/2``: a draw, ``*``: not known. Reading is
forgiving, as a record pasted into a Discord command arrives on one line: tags and moves
may share a line, move numbers may touch their move (``1.f6``), a tag the reader does not
know is kept, and only the game, its size, its options and its moves are needed. Reading
checks no rule: the service plays the moves through the engine (one at a time, naming the
first that is not legal).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from engine import get_board_game

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_NUMBER = re.compile(r"^\d+\.+")
MAX_RECORD_TEXT = 6000  # what a Discord command's text option holds


class RecordError(ValueError):
    """A text that is no record: ``code`` says why (``record_no_game``, ``record_game``,
    ``record_size``, ``record_option``), ``params`` with what."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class GameRecord:
    """One board game's record: what is needed to play it again (``game``, ``size``,
    ``options``, ``moves``) and what a reader wants to know of it."""

    game: str  # the registry's name ("lefe")
    size: int
    moves: tuple[str, ...]
    options: Mapping[str, bool | int] = field(default_factory=dict)
    players: tuple[str, str] = ("", "")  # by seat: A (who started), B
    result: str = "*"
    termination: str = ""
    date: str = ""  # ISO, "2026-11-29"
    time_control: str = ""
    match_id: int | None = None

    def text(self) -> str:
        """The record as text (see the module's docstring)."""
        rules = get_board_game(self.game)
        tags = [
            ("Game", rules.title),
            ("Size", str(self.size)),
            ("Options", _options_text(self.options)),
            ("Match", "" if self.match_id is None else str(self.match_id)),
            ("Date", self.date),
            ("TimeControl", self.time_control),
            ("SeatA", self.players[0]),
            ("SeatB", self.players[1]),
            ("Result", self.result),
            ("Termination", self.termination),
        ]
        head = "\n".join(f'[{name} "{_escaped(value)}"]' for name, value in tags)
        body = " ".join(f"{number}. {move}" for number, move in enumerate(self.moves, start=1))
        body = f"{body} {self.result}".strip()
        return f"{head}\n\n{_wrapped(body)}\n"


def parse_record(text: str) -> GameRecord:
    """The record in ``text``; :class:`RecordError` when it names no game, an unknown or a
    non-board game, or a size or option the game does not have."""
    tags = {name.lower(): _unescaped(value) for name, value in _TAG.findall(text)}
    movetext = _TAG.sub(" ", text)
    if "game" not in tags:
        raise RecordError("record_no_game")
    try:
        rules = get_board_game(tags["game"])
    except (KeyError, ValueError):
        raise RecordError("record_game", game=tags["game"][:24]) from None
    try:
        size = int(tags["size"]) if tags.get("size") else rules.default_size
        rules.validate_size(size)
    except (ValueError, TypeError):
        raise RecordError("record_size", game=rules.title, size=tags.get("size", "")[:8]) from None
    options = _options_of(tags.get("options", ""), rules.title)
    try:
        rules.validate_options(dict(options))
    except (ValueError, TypeError):
        raise RecordError("record_option", game=rules.title, option=tags["options"][:40]) from None
    moves: list[str] = []
    result = tags.get("result", "*")
    for token in movetext.split():
        if token in RESULTS:
            result = token
            continue
        move = _NUMBER.sub("", token)
        if move:
            moves.append(move.lower())
    players = (tags.get("seata", ""), tags.get("seatb", ""))
    match = tags.get("match", "")
    return GameRecord(
        game=rules.name,
        size=size,
        moves=tuple(moves),
        options=options,
        players=players,
        result=result if result in RESULTS else "*",
        termination=tags.get("termination", ""),
        date=tags.get("date", ""),
        time_control=tags.get("timecontrol", ""),
        match_id=int(match) if match.isdigit() else None,
    )


def result_of(winner_seats: list[int], draw: bool) -> str:
    """The result tag from the seats that won (seat A is 0)."""
    if draw:
        return "1/2-1/2"
    if winner_seats == [0]:
        return "1-0"
    if winner_seats == [1]:
        return "0-1"
    return "*"


def _options_text(options: Mapping[str, bool | int]) -> str:
    return ",".join(
        f"{name}={str(value).lower() if isinstance(value, bool) else value}"
        for name, value in sorted(options.items())
    )


def _options_of(text: str, title: str) -> dict[str, bool | int]:
    options: dict[str, bool | int] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        name, _, value = part.partition("=")
        word = value.strip().lower()
        if word in ("true", "false"):
            options[name.strip()] = word == "true"
        elif word.lstrip("-").isdigit():
            options[name.strip()] = int(word)
        else:
            raise RecordError("record_option", game=title, option=part.strip()[:40])
    return options


def _escaped(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unescaped(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _wrapped(text: str, width: int = 79) -> str:
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return "\n".join(lines)
