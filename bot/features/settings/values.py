"""Server settings as typed in ``/settings``: text in, the values the service checks out;
and the settings as the reader's language describes them."""

from __future__ import annotations

from bot.common.errors import UserFacingError
from bot.common.languages import LANGUAGE_NAMES
from bot.service.guild_settings import INT_LIMITS, GuildSettings
from i18n import N_, translate

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
    "theme": N_("command.settings.key.theme"),
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
                raise UserFacingError("bot.settings.error.channels")
            ids.append(int(digits))
        return ids
    text = value.strip()
    if text.lstrip("-").isdigit():
        return int(text)
    return text


def describe(language: str, settings: GuildSettings, server_default: str) -> list[str]:
    """One line per setting, in ``language``: its name as ``/settings`` lists it, its value
    and, for a number, the values allowed; first the language of channel messages
    (``server_default``: the one the server's Discord locale gives)."""
    if settings.language:
        chosen = LANGUAGE_NAMES.get(settings.language, settings.language)
    else:
        chosen = translate(
            language, "bot.settings.language.auto", name=LANGUAGE_NAMES[server_default]
        )
    lines = [translate(language, "bot.settings.language", value=chosen)]
    for key, msgid in SETTING_TEXT_IDS.items():
        value = getattr(settings, key)
        if key == "allowed_channels":
            shown = (
                ", ".join(f"<#{c}>" for c in value)
                if value
                else translate(language, "bot.settings.all_channels")
            )
        elif isinstance(value, bool):
            shown = translate(language, N_("bot.settings.on") if value else N_("bot.settings.off"))
        elif key in INT_LIMITS:
            low, high = INT_LIMITS[key]
            shown = translate(language, "bot.settings.number", value=value, low=low, high=high)
        else:
            shown = str(value)
        name = translate(language, msgid)
        # English names a setting by its key; other languages add the key for /settings
        line = f"{key}: {shown}"
        lines.append(f"`{line}`" if name == key else f"{name}: `{line}`")
    return lines
