"""Which theme a picture is drawn in.

Pictures in a channel are everybody's: they use the server's theme (``/settings theme``).
A picture only one member sees (their Leiff hand in a DM or a private answer, a tutorial
page, a replay, a refused move) uses the theme that member chose with ``/prefs theme``,
and the server's when they chose none (in a DM without a server: the default theme).
"""

from __future__ import annotations

from matchcore.service.protocol import GameService
from render.themes import DEFAULT_THEME


async def server_theme(service: GameService, guild_id: int | None) -> str:
    """The theme of a server's channel pictures."""
    if guild_id is None:
        return DEFAULT_THEME
    return str((await service.get_settings(guild_id)).theme)


async def member_theme(service: GameService, user_id: int, guild_id: int | None) -> str:
    """The theme of a picture only ``user_id`` sees, shown for a server (or none)."""
    chosen = (await service.preferences(user_id)).theme
    if chosen is not None:
        return str(chosen)
    return await server_theme(service, guild_id)
