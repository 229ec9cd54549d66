"""Domain errors: every refusal of the service, as a code with parameters.

A :class:`ServiceError` carries ``code`` (a key of :data:`ENGLISH`) and ``params`` (plain
values: numbers, ids, names as mentions, identifiers); it never carries a sentence. The
Discord layer turns it into words in the reader's language from the message catalogue
(``service.error.<code>``, see ``docs/service.md``); ``str(error)`` is the English, for
logs and tests. Neither ever names a hidden Leiff card. The bot maps every
:class:`ServiceError` to an ephemeral reply in one error handler.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.errors import english as engine_english

if TYPE_CHECKING:
    from matchcore.service.results import Update

# What each code says in English; a pair is the singular and plural, chosen by ``count``.
# The English catalogue holds the same texts (tests/service/test_error_codes.py).
ENGLISH: dict[str, str | tuple[str, str]] = {
    # the defaults of the error classes
    "unavailable": "that cannot be done right now",
    "not_found": "there is no such match or challenge",
    "not_in_match": "you are not playing in this match",
    "not_your_turn": "it is not your turn",
    "stale_version": "that board has moved on; use the latest message",
    "too_late": "too late: the time ran out first",
    "match_over": "this match is over",
    "illegal_action": "that move is not allowed",
    "challenge_expired": "that challenge is no longer open",
    "cooldown": "please wait {seconds} s before challenging again",
    "too_many_matches": "too many matches are running at once",
    "self_challenge": "you cannot challenge yourself",
    "forbidden": "you are not allowed to do that",
    "invalid_settings": "those settings are not valid",
    "invalid_options": "those match options are not valid",
    "channel_not_allowed": "games cannot be hosted in this channel on this server",
    "invalid_request": "that request is not valid",
    "lobby_error": "that cannot be done in this lobby",
    "review_board_only": "only a board game's match can be reviewed",
    "review_not_finished": "a match is reviewed once it has finished",
    "no_puzzle_left": "you have tried every puzzle there is for now; more come from this server's games",
    # malformed arguments (the Discord layer never makes them)
    "no_such_match": "there is no such match",
    "no_such_challenge": "there is no such challenge",
    "not_a_server": "that is not a Discord server",
    "not_a_channel": "that is not a Discord channel",
    "not_a_thread": "that is not a Discord thread",
    "not_a_message": "that is not a Discord message",
    "not_a_user": "that is not a Discord user",
    "not_a_whole_number": "the {name} must be a whole number",
    "move_not_text": "a move is written as text, like f6",
    "action_not_text": "an action is written as text",
    "no_such_game": "there is no such game",
    "no_such_level": "there is no such level",
    "not_a_message_kind": "that is not a kind of message",
    "not_message_records": "those are not message ids by kind",
    "lines_not_texts": "the lines are given as a short list of texts",
    "options_not_names": "options are given as names with their values",
    "time_not_seconds": "the time must be a number of seconds",
    "permission_not_yes_no": "the permission must be given as yes or no",
    "moves_not_texts": "the moves are given as a list of short texts",
    # games and their options
    "unknown_game": "unknown game {game}; the games are: {games}",
    "leiff_at_a_table": "Leiff is played at a table: open one with the Leiff lobby",
    "board_size": "{game} is played in sizes {sizes}, not {size}",
    "board_option_unknown": "{game} has no option {key} (options: {known})",
    "board_option_type": "option {key} must be a {kind}",
    "board_option_choice": "option {key} must be one of {choices}, not {value}",
    "unknown_level": "the bot's levels are: {levels}",
    "level_only_vs_bot": "a level is only for games against the bot",
    "no_bot_user": "the bot cannot play here: it was started without its user id",
    "leaderboard_size": "the leaderboard shows 1 to 100 players",
    "pool_unknown": "the leaderboards are live or daily",
    "turn_dms_on_or_off": "turn messages are on or off",
    "vacation_days": "a vacation lasts 0 to {most} days (0 ends it)",
    "time_control_unknown": "that is not a time control: pick one from the list",
    "time_control_table": "a Leiff table plays with a time per turn, not a whole-game clock",
    # challenges and rematches
    "challenge_for_other": "this challenge is for {user}",
    "accept_own_challenge": "you cannot accept your own challenge",
    "decline_not_target": "only the challenged player can decline",
    "withdraw_not_challenger": "only the player who made the challenge can withdraw it",
    "challenge_accepted": "that challenge was already accepted",
    "challenge_declined": "that challenge was already declined",
    "challenge_cancelled": "that challenge was already cancelled",
    "challenge_closed_expired": "that challenge was already expired",
    "challenge_expired_now": "that challenge has expired",
    "leiff_rematch": "for another game of Leiff, open a new table",
    "rematch_too_soon": "a rematch can be asked for once the match is over",
    "rematch_asked": "you already asked for a rematch",
    "rematch_started": "the rematch has already started",
    "record_move_illegal": "move {number} of the record, {move}, cannot be played there",
    "record_over": "the game is over at that move: start from an earlier one",
    "takeback_not_in_daily": "this server allows no takebacks in rated daily matches",
    "takeback_nothing": "you have made no move to take back",
    "takeback_asked": "you already asked to take back your move",
    "takeback_answer_first": "your opponent asked for a takeback: accept or decline it first",
    "no_takeback_asked": "nobody asked for a takeback",
    "record_finished_board_only": "only a finished board game has a record",
    "too_many_you": (
        "you already have {count} game running (the limit here is {limit}): {places}",
        "you already have {count} games running (the limit here is {limit}): {places}",
    ),
    "too_many_other": (
        "{user} already has {count} game running (the limit here is {limit})",
        "{user} already has {count} games running (the limit here is {limit})",
    ),
    # board matches
    "not_a_move": "that is not a {game} move",
    "turn_of": "it is {user}'s turn",
    "no_draws": "{game} cannot end in a draw",
    "draw_offered_already": "you have already offered a draw",
    "opponent_offered_draw": "your opponent offered a draw: accept or decline it",
    "no_draw_offer": "there is no draw offer to answer",
    "opponent_must_answer": "your opponent must answer your draw offer",
    "abort_after_moving": (
        "you have moved already, so match #{id} can no longer be aborted (you may resign)"
    ),
    "abort_board_only": "only a board match can be aborted; leave a Leiff table instead",
    # tournaments
    "no_such_tournament": "there is no such tournament",
    "tournament_admin_only": (
        "only members with Manage Server (or the server's tournament role) can do that"
    ),
    "tournament_format": "a tournament is an arena, a Swiss, a round robin or a Leiff event",
    "tournament_format_game": (
        "Leiff plays Leiff events; arenas, Swiss events and round robins are for the board games"
    ),
    "tournament_rounds": "a tournament has {low} to {high} rounds",
    "tournament_minutes": "an arena lasts {low} to {high} minutes",
    "tournament_table_size": "Leiff tables seat 3 to 6 players",
    "tournament_start_time": "the start must be between now and {days} days from now",
    "tournament_joined_already": "you are in this tournament already",
    "tournament_not_joined": "you are not in this tournament",
    "tournament_full": "this tournament is full ({count} players)",
    "tournament_no_late_join": "this tournament has started: it takes no more players",
    "tournament_over": "this tournament is over",
    "tournament_started_already": "this tournament has started already",
    "tournament_player_withdrawn": "{user} is no longer in this tournament",
    # the state of a match or table
    "not_started": "the game has not started yet",
    "not_a_leiff_table": "this is not a Leiff table",
    "already_started": "the game has already started",
    "table_closed": "this table is closed",
    "late_lobby_expired": "too late: this table closed because nobody started the game in time",
    "late_match_aborted": (
        "too late: the time ran out before both players had moved, so the match was aborted "
        "(unrated)"
    ),
    "late_leiff_over": (
        "too late: the time for that step ran out first; the clock played the default, "
        "and that ended the game"
    ),
    "late_leiff_default": (
        "too late: the time for that step ran out first, so the clock played the default; "
        "look at the latest message"
    ),
    "late_board": "too late: the time for that move ran out first, so the match is over",
    # Leiff lobbies
    "leiff_target": "the target is 50 or 100 points",
    "teams_on_or_off": "teams is on or off",
    "teams_not_allowed": "this server does not allow team games",
    "leiff_option_unknown": "a Leiff table cannot choose {key} (only target and teams)",
    "already_seated": "you are already at this table",
    "again_not_over": "a table is played again once its game is over",
    "again_players_only": "only the players of this table can play it again",
    "again_started": "the game at table #{table} has started already",
    "again_closed": "table #{table} has closed",
    "again_busy": "that cannot be done right now; try again",
    "replay_not_finished": "a table's replay is shown once its game is over",
    "table_full": "the table is full ({count} players)",
    "host_only_add_bot": "only the host, {user}, can seat a bot",
    "host_only_remove_bot": "only the host, {user}, can remove a bot",
    "host_only_start": "only the host, {user}, can start the game",
    "no_bot_seat": "there is no bot at this table",
    "not_a_bot_seat": "seat {seat} is not a bot seat",
    "too_few_players": "Leiff needs at least two players",
    "team_sizes": "a team game needs 4 or 6 players",
    # Leiff tables
    "not_a_leiff_action": "that is not a Leiff action",
    "already_left": "you have already left this match",
    "removed": "you left this match or were removed for timing out",
    "hand_moved_on": (
        "your cards or your choices changed after that message was drawn; use the newest one"
    ),
    "cannot_act_now": "you cannot act right now",
    "now_look": "you cannot do that now: choose one of your cards to look at",
    "now_turn_draw": "you cannot do that now: draw a card",
    "now_turn_take": "you cannot do that now: take the discard",
    "now_turn_leiff": "you cannot do that now: call Leiff",
    "now_turn_draw_take": "you cannot do that now: draw a card or take the discard",
    "now_turn_draw_leiff": "you cannot do that now: draw a card or call Leiff",
    "now_turn_take_leiff": "you cannot do that now: take the discard or call Leiff",
    "now_turn_draw_take_leiff": (
        "you cannot do that now: draw a card, take the discard or call Leiff"
    ),
    "now_hold_or_discard": (
        "you cannot do that now: put the card you hold into one of your slots, or discard it"
    ),
    "now_hold": "you cannot do that now: put the card you hold into one of your slots",
    "now_effect_or_skip": "you cannot do that now: use the card's effect or skip it",
    "now_effect": "you cannot do that now: use the card's effect",
    "now_spy": "you cannot do that now: choose one of the Magier's cards to look at",
    "now_exchange": "you cannot do that now: choose the card you give",
    "now_next": "you cannot do that now: deal the next round",
    "now_wait": "you cannot do that now: wait for your turn",
    # settings
    "manage_server_needed": "changing the server's game settings needs the Manage Server permission",
    "no_settings_given": "no settings were given to change",
    "setting_on_off": "{key} must be true or false, not {value}",
    "setting_whole_number": "{key} must be a whole number, not {value}",
    "setting_leiff_target": "leiff_target must be 50 or 100, not {value}",
    "setting_range": "{key} must be between {low} and {high}, not {value}",
    "channels_not_a_list": "allowed_channels must be a list of channel ids",
    "channels_not_ids": "allowed_channels must hold channel ids",
    "role_not_an_id": "tournament_role must be a role id (0: none)",
    "channels_too_many": "allowed_channels can hold at most 50 channels",
    "unknown_setting": "there is no setting {key} (settings: {known})",
    "setting_language": "language must be one of {languages} or auto",
    "setting_theme": "theme must be one of {themes}, not {value}",
    "setting_season": "season must be one of {kinds}",
    "season_unknown": "this server has no season {season}",
    "hints_on_or_off": "hints are on or off",
    "unknown_theme": "the themes are {themes}",
    # the places listed in too_many_you
    "place_lobby": "a Leiff lobby (#{id}) in {place}",
    "place_table": "a Leiff table (#{id}) in {place}",
    "place_board": "{game} (#{id}) in {place}",
    "place_board_vs": "{game} vs {opponent} (#{id}) in {place}",
}
# A refusal the engine gave (``IllegalMove``): its code and parameters travel as
# ``engine_code`` and the rest of ``params``; its English is the engine's.
ENGINE = "engine"
# The places listed in ``too_many_you`` are dicts: ``kind`` (``place_<kind>`` is their
# code), the match ``id``, the ``place`` (a channel mention), and for a board match the
# ``game`` title and perhaps the ``opponent`` (a mention).


def english(code: str, params: Mapping[str, object]) -> str:
    """The English of a service error code with its parameters."""
    if code == ENGINE:
        values = dict(params)
        return engine_english(str(values.pop("engine_code")), values)
    text = ENGLISH[code]
    values = dict(params)
    if "places" in values:
        places = values["places"]
        assert isinstance(places, list | tuple)
        values["places"] = ", ".join(place_english(place) for place in places)
    listed = values.get("sizes")
    if isinstance(listed, list | tuple):  # "5, 7 or 9"
        sizes = [str(size) for size in listed]
        values["sizes"] = " or ".join([", ".join(sizes[:-1]), sizes[-1]] if sizes[1:] else sizes)
    if isinstance(text, tuple):
        text = text[0] if values.get("count") == 1 else text[1]
    return text.format_map(values)


def place_english(place: object) -> str:
    assert isinstance(place, Mapping)
    text = ENGLISH["place_" + str(place["kind"])]
    assert isinstance(text, str)
    return text.format_map(place)


class ServiceError(Exception):
    """Base class: the call was refused and nothing changed."""

    default_code = "unavailable"

    def __init__(self, code: str | None = None, /, **params: object) -> None:
        self.code = code or self.default_code
        if self.code != ENGINE and self.code not in ENGLISH:
            # a programming error: every code needs its English and catalogue entries
            raise ValueError(f"unknown service error code {self.code!r}")
        self.params: dict[str, object] = params
        super().__init__(self.code, params)

    @property
    def message(self) -> str:
        """The refusal in English (the Discord layer uses the catalogue instead)."""
        return english(self.code, self.params)

    def __str__(self) -> str:
        return self.message


class NotFound(ServiceError):
    default_code = "not_found"


class NotInMatch(ServiceError):
    default_code = "not_in_match"


class NotYourTurn(ServiceError):
    default_code = "not_your_turn"


class StaleVersion(ServiceError):
    default_code = "stale_version"


class TooLate(ServiceError):
    """The match's deadline had passed when the call arrived. The call is refused, and the
    timeout the clock tick would have applied is applied and committed instead: ``update``
    describes it (post it like any tick update). The one refusal that changes something."""

    default_code = "too_late"

    def __init__(
        self, code: str | None = None, /, update: Update | None = None, **params: object
    ) -> None:
        super().__init__(code, **params)
        self.update = update


class MatchOver(ServiceError):
    default_code = "match_over"


class IllegalAction(ServiceError):
    """The move was refused: by the service, or by the engine (code :data:`ENGINE`, with
    the engine's own code as ``engine_code``)."""

    default_code = "illegal_action"


class ChallengeExpired(ServiceError):
    default_code = "challenge_expired"


class Cooldown(ServiceError):
    def __init__(self, retry_after: float) -> None:
        self.retry_after = max(0.0, retry_after)
        super().__init__("cooldown", seconds=max(1, round(self.retry_after)))


class TooManyMatches(ServiceError):
    default_code = "too_many_matches"


class SelfChallenge(ServiceError):
    default_code = "self_challenge"


class Forbidden(ServiceError):
    default_code = "forbidden"


class InvalidSettings(ServiceError):
    default_code = "invalid_settings"


class InvalidOptions(ServiceError):
    default_code = "invalid_options"


class ChannelNotAllowed(ServiceError):
    default_code = "channel_not_allowed"


class InvalidRequest(ServiceError):
    """A call with a malformed argument (an id outside Discord's range, a time that is not
    a number); the Discord layer never makes one."""

    default_code = "invalid_request"


class LobbyError(ServiceError):
    default_code = "lobby_error"
