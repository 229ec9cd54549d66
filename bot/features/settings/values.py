"""Server settings as typed in ``/settings``: text in, the values the service checks out."""

from __future__ import annotations

from bot.common.errors import UserFacingError
from i18n import N_

# each setting key with the message id of its choice (English: the key itself)
SETTING_TEXT_IDS = {
    "leiff_drinking": N_("command.settings.key.leiff_drinking"),
    "leiff_water": N_("command.settings.key.leiff_water"),
    "leiff_specials": N_("command.settings.key.leiff_specials"),
    "leiff_target": N_("command.settings.key.leiff_target"),
    "leiff_teams_allowed": N_("command.settings.key.leiff_teams_allowed"),
    "board_move_seconds": N_("command.settings.key.board_move_seconds"),
    "leiff_turn_seconds": N_("command.settings.key.leiff_turn_seconds"),
    "leiff_choice_seconds": N_("command.settings.key.leiff_choice_seconds"),
    "leiff_max_timeouts": N_("command.settings.key.leiff_max_timeouts"),
    "challenge_expiry_seconds": N_("command.settings.key.challenge_expiry_seconds"),
    "challenge_cooldown_seconds": N_("command.settings.key.challenge_cooldown_seconds"),
    "max_matches_per_user": N_("command.settings.key.max_matches_per_user"),
    "allowed_channels": N_("command.settings.key.allowed_channels"),
}


def setting_value(key: str, value: str) -> int | str | list[int]:
    """Settings arrive as text; channel lists may be given as mentions or ids."""
    if key == "allowed_channels":
        tokens = value.replace(",", " ").split()
        ids = []
        for token in tokens:
            if token.lower() == "none":
                continue
            digits = token.strip("<#>")
            if not digits.isdigit():
                raise UserFacingError("allowed_channels takes channel mentions or ids (or `none`).")
            ids.append(int(digits))
        return ids
    text = value.strip()
    if text.lstrip("-").isdigit():
        return int(text)
    return text
