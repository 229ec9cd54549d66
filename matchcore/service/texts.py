"""What the service says after an action: codes with parameters, and their English.

The service never writes a sentence into an update. Every line it has to say is an
:class:`matchcore.service.results.Event` with ``said=True``: its ``kind`` is a code of
:data:`ENGLISH` (the catalogue's ``service.say.<code>``) and its ``data`` the parameters.
A parameter may itself be something said (a :class:`Said`, or a list of them, joined with
", "), an engine :class:`engine.phrases.Phrase` (the engine's own words, such as the
announcement of a swap), or a plain value (a mention, a number, a colour, a move). A
``then`` parameter holds what is said right after, in the same line.

Three codes are not in the table because their words are someone else's:
:data:`ENGINE_PHRASE` (an engine phrase said as a line, ``data["phrase"]`` with the
``player`` it names), :data:`ENGINE_TEXT` (a Leiff engine event: ``data["said"]``, its
code and parameters, ``data["names"]``, how each seat is named, and ``data["text"]``, its
English with the names filled in) and :data:`RESULT` (a finished match's
result, worded from the stored result by :func:`result_text`).

:func:`english` gives the English of an event, for logs, tests and ``Update.messages``; the
Discord layer words events in the reader's language (``wording/service_words.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, overload

from engine.phrases import Phrase

ENGINE_PHRASE = "engine_phrase"
ENGINE_TEXT = "engine_text"
RESULT = "result_line"

# code -> English; a pair is singular and plural, chosen by ``count``. The English
# catalogue holds the same texts (tests/service/test_said_codes.py).
ENGLISH: dict[str, str | tuple[str, str]] = {
    # time controls (matchcore/service/time_controls.py)
    "time_control_move": "{time} per move",
    "time_control_game": "{time} per player + {increment} a move",
    # board matches
    "board_move": "{user} ({colour}) plays {move}.",
    "stones_captured": ("{count} stone captured.", "{count} stones captured."),
    "stones_flipped": ("{count} stone flipped.", "{count} stones flipped."),
    "opening_stone": "{user} places a {colour} stone on {move}.",
    "board_turn": "{user} to move ({colour}).",
    "board_turn_plain": "{user} to move.",
    "match_started": "{first} vs {second}: {game}, size {size}.",
    "match_started_level": "{first} vs {second} (level {level}): {game}, size {size}.",
    "draw_offered": "{user} offers a draw. {opponent} may accept or decline.",
    "draw_declined": "{user} declines the draw.",
    "takeback_asked": "{user} asks to take back their last move. {opponent} may accept or decline.",
    "takeback_declined": "{user} declines; {asker}'s move stands.",
    "takeback_done": (
        "{user}'s move {moves} is taken back.",
        "The moves {moves} are taken back: {user} plays again.",
    ),
    "first_move_missed": (
        "Match aborted: {user} never moved before their time ran out. It is unrated: nobody "
        "wins or loses."
    ),
    "aborted_before_both_moved": (
        "Match aborted: {user} ran out of time before both players had moved. It is "
        "unrated: nobody wins or loses."
    ),
    "match_aborted_by": (
        "{user} aborts the match before their first move. It is unrated: nobody wins or loses."
    ),
    # challenges
    "challenge_open": "{user} is looking for an opponent: {what}.",
    "challenge_to": "{user} challenges {target} to {what}.",
    "challenge_what": "{game}, size {size}",
    "challenge_what_options": "{game}, size {size} ({options})",
    "challenge_what_clock": "{what}, {clock}",
    "rematch_asked": "{user} asks {opponent} for a rematch.",
    "challenge_declined": "{user} declines the challenge of {challenger}.",
    "challenge_withdrawn": "{user} withdraws the challenge.",
    "challenge_expired": "The challenge of {user} expired.",
    # Leiff lobbies and tables
    "lobby_opened": "{user} opens a Leiff table. Join in!",
    "lobby_joined": "{user} joins the table.",
    "lobby_again": "{user} opens table #{table} again. {players}: click Play again to sit down.",
    "lobby_again_alone": "{user} opens table #{table} again.",
    "table_left": "{user} leaves the table.",
    "table_left_to_bot": "{user} leaves the table; a bot plays their hand from now on.",
    "table_empty": "The table is empty and closes.",
    "new_host": "{user} now hosts the table.",
    "bot_seated": "{user} seats {bot} ({level}) at the table.",
    "game_starts": "The game starts with {count} players ({summary}).",
    "summary_target": "to {target} points",
    "summary_teams": "teams",
    "summary_specials": "special cards",
    "summary_drinking": "drinking rules",
    "summary_water": "water rules",
    "lobby_expired": "The Leiff table closed: nobody started the game in time.",
    "default_played": "{user} ran out of time; the default was played.",
    "timed_out_removed": (
        "{user} timed out {count} time in a row and leaves the table.",
        "{user} timed out {count} times in a row and leaves the table.",
    ),
    # the clock's warnings
    "warning_match": "{who}: {time} left to act in match #{id}.",
    "warning_table": "{who}: {time} left to act at table #{id}.",
    "nobody": "Nobody",
    # a seat without a user (only ever a bot), where a line names a player
    "a_bot": "a bot",
    # the bot's levels (engine.ai.levels.LEVEL_NAMES), and the result line's last words
    # in a game against it: which level was beaten, or won
    "level_beginner": "beginner",
    "level_easy": "easy",
    "level_normal": "normal",
    "level_hard": "hard",
    "level_master": "master",
    "bot_level": "The bot played at level {level}.",
    "level_strength": (
        "Measured strength of this level in this game: about {elo} Elo ({low} to {high}, "
        "from {games} games, on a scale where the bot's first hard level is 1500)."
    ),
    "level_unmeasured": "This level's strength in this game is not measured yet.",
    # tournaments
    "tournament_match": "Tournament #{id}, round {round}.",
    "tournament_match_arena": "Arena tournament #{id}.",
    "tournament_joined": "{user} joins tournament #{id}.",
    "tournament_left": "{user} leaves tournament #{id}.",
    "tournament_pause_player": "{user} takes a break from arena #{id} (Join to play again).",
    "tournament_back": "{user} is back in arena #{id}.",
    "tournament_started": (
        "Tournament #{id} starts with {count} player.",
        "Tournament #{id} starts with {count} players.",
    ),
    "tournament_round": "Round {round} of {rounds} begins.",
    "tournament_bye": "{user} has the bye this round (a win's points).",
    "tournament_forfeit": "{user} did not play their game and is withdrawn from the tournament.",
    "tournament_time_up": (
        "Time is up: no new games; games under way are played out but no longer count."
    ),
    "tournament_finished": "Tournament #{id} is over.",
    "tournament_cancelled": "Tournament #{id} is cancelled: too few players joined.",
    "tournament_cancelled_by": "{user} cancelled tournament #{id}.",
    "tournament_paused": (
        "{user} paused the tournament: games under way go on, nobody is paired until it resumes."
    ),
    "tournament_resumed": "{user} resumed the tournament.",
    "tournament_ended_early": "{user} ended the tournament early: games under way still count.",
    "tournament_removed": "{user} removed {player} from the tournament.",
    "tournament_reminder": "Tournament #{id} ({game}) starts in {minutes} minutes.",
    # why a match ended, when the service ended it (the engine says its own reasons)
    "reason_resigned": "{user} resigned",
    "reason_timed_out": "{user} ran out of time",
    "reason_agreed": "drawn by agreement",
    "reason_nobody_moved": "nobody moved",
    "reason_never_moved": "{user} never moved",
    "reason_out_of_time_early": "{user} ran out of time before both players had moved",
    "reason_aborted": "{user} aborted it before their first move",
    "reason_everyone_left": "everyone else left the table",
    "reason_humans_left": "every human player left the table",
    # a result line in languages other than English (English keeps :func:`result_text`)
    "result_aborted": "The match was aborted: {reason}.",
    "result_aborted_plain": "The match was aborted.",
    "result_drawn": "The game is drawn: {reason}.",
    "result_drawn_plain": "The game is drawn.",
    "result_win": "{names} wins: {reason}.",
    "result_win_plain": "{names} wins.",
    "result_win_many": "{names} win: {reason}.",
    "result_win_many_plain": "{names} win.",
}


# A time's units in English, largest first, singular and plural: the English catalogue's
# duration.* entries, which the Discord layer writes times with in every language
# (tests/service/test_said_codes.py holds the two the same).
ENGLISH_UNITS: tuple[tuple[int, tuple[str, str]], ...] = (
    (86400, ("{count} day", "{count} days")),
    (3600, ("{count} h", "{count} h")),
    (60, ("{count} min", "{count} min")),
    (1, ("{count} s", "{count} s")),
)


def english_duration(seconds: int) -> str:
    """``seconds`` in English, as ``/settings`` writes times: "2 days 6 h", "45 s", "0 s"."""
    parts = []
    rest = seconds
    for unit, (one, many) in ENGLISH_UNITS:
        count, rest = divmod(rest, unit)
        if count:
            parts.append((one if count == 1 else many).format(count=count))
    return " ".join(parts) if parts else ENGLISH_UNITS[-1][1][1].format(count=0)


@dataclass(frozen=True)
class Duration:
    """A time said inside a line, in the reader's units as ``/settings`` writes times ("2
    days 6 h", "4 h", "45 s"; German "2 Tage 6 Std."): the Discord layer words it."""

    seconds: int

    def __str__(self) -> str:
        return english_duration(self.seconds)


@dataclass(frozen=True)
class Said:
    """Something said inside a line: a code of :data:`ENGLISH` and its parameters."""

    code: str
    params: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.code not in ENGLISH:
            raise ValueError(f"unknown service text code {self.code!r}")

    def __str__(self) -> str:
        """The English (for logs, tests and English texts such as ``str(error)``)."""
        return english(self.code, self.params)


def english(code: str, params: Mapping[str, object]) -> str:
    """The English of a said code with its parameters (and what is said ``then``)."""
    if code == ENGINE_PHRASE:
        phrase = params["phrase"]
        assert isinstance(phrase, Phrase)
        player = params.get("player")
        text = phrase.english(player=str(player)) if player is not None else phrase.english()
    elif code == ENGINE_TEXT:
        text = str(params["text"])
    elif code == RESULT:
        seats, result = result_params(params)
        text = result_text(seats, result)
    else:
        template = ENGLISH[code]
        values = {key: _value(value) for key, value in params.items() if key != "then"}
        if isinstance(template, tuple):
            template = template[0] if values.get("count") == "1" else template[1]
        text = template.format_map(values)
    then = params.get("then")
    if isinstance(then, list | tuple):
        text = " ".join([text, *(_value(item) for item in then)])
    return text


def result_params(
    params: Mapping[str, object],
) -> tuple[list[SeatColour], dict[str, object]]:
    """The seats (user and colour) and the stored result a :data:`RESULT` line names."""
    seats, result = params["seats"], params["result"]
    assert isinstance(seats, list | tuple) and isinstance(result, Mapping)
    return [SeatColour(*pair) for pair in seats], dict(result)


def _value(value: object) -> str:
    if isinstance(value, Said):
        return english(value.code, value.params)
    if isinstance(value, Phrase):
        return value.english()
    if isinstance(value, list | tuple):
        return ", ".join(_value(item) for item in value)
    return str(value)


class SeatColour(NamedTuple):
    """A seat as a result line names it: its player and the colour they played."""

    user_id: int | None
    colour: str | None


@overload
def mention(user_id: int) -> str: ...
@overload
def mention(user_id: int | None) -> str | Said: ...
def mention(user_id: int | None) -> str | Said:
    """How texts name a player: a Discord mention, "Bot N" for a Leiff bot seat's pseudo id
    (negative; no Discord user has one), or, for a seat without a user, "a bot" said in the
    reader's language (:data:`ENGLISH` ``a_bot``)."""
    if user_id is None:
        return Said("a_bot")
    if user_id < 0:
        return f"Bot {-user_id}"
    return f"<@{user_id}>"


def level_word(level: str) -> Said | str:
    """A bot level as lines name it: said in the reader's language (``level_<name>``), or
    as stored when it is no level the texts know."""
    code = f"level_{level}"
    return Said(code) if code in ENGLISH else level


def english_mention(user_id: int | None) -> str:
    """:func:`mention` in English, as a string."""
    return str(mention(user_id))


class Seated(Protocol):
    """A seat as a result line reads it (a stored seat, a match's, a :class:`SeatColour`)."""

    @property
    def user_id(self) -> int | None: ...

    @property
    def colour(self) -> str | None: ...


def result_winners(result: Mapping[str, object]) -> list[int | None]:
    """The winners a stored result names (user ids; None for a seat without one)."""
    winners = result.get("winners") or []
    if not isinstance(winners, list | tuple):
        raise TypeError(f"a result's winners are no list: {winners!r}")
    found: list[int | None] = []
    for user in winners:
        if user is not None and not isinstance(user, int):
            raise TypeError(f"a winner is no user id: {user!r}")
        found.append(user)
    return found


def result_text(
    seats: Iterable[Seated],
    result: Mapping[str, object],
    name: Callable[[int | None], str] = english_mention,
) -> str:
    """The result in one sentence that names the winner once: "<@1> (dark) wins 4–2: light
    has no legal placement." (the engine's "dark wins 4–2: …" with the player put in),
    "The game is drawn 4–4: …", "<@1> wins: <@2> resigned." ``seats`` are the match's
    seats (anything with ``user_id`` and ``colour``); ``name`` writes a player."""
    reason = str(result.get("reason") or "")
    if result.get("aborted"):  # unrated, nobody won: "The match was aborted: <@2> never moved."
        return f"The match was aborted: {reason}." if reason else "The match was aborted."
    if result.get("draw") or not result.get("winners"):
        if reason.startswith("draw ") or reason.startswith("draw:"):  # the engine's "draw 4–4: …"
            return f"The game is drawn{reason[len('draw') :]}."
        if reason.startswith("drawn "):  # "drawn by agreement"
            return f"The game is {reason}."
        return f"The game is drawn: {reason}." if reason else "The game is drawn."
    winners = result_winners(result)
    names = " and ".join(name(u) for u in winners)
    colour = next((s.colour for s in seats if s.user_id == winners[0]), None)
    if len(winners) != 1:
        colour = None
    if colour and reason.startswith(f"{colour} wins"):
        rest = reason[len(colour) + len(" wins") :]
        if rest.startswith(": it "):  # Lublache's "white wins: it has no legal placement left"
            rest = f": {colour} {rest[len(': it ') :]}"
        return f"{names} ({colour}) wins{rest}."
    if len(winners) == 1:
        return f"{names} wins: {reason}." if reason else f"{names} wins."
    return f"{names} win: {reason}." if reason else f"{names} win."
