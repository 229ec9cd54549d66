"""``python -m bot`` (what ``make run`` calls): check settings, then start.

With a Discord token: the bot, and the web table beside it. Without one: the web table alone
on this machine (games against the bot, or two people at one screen), after the steps that
connect the bot to Discord.
"""

from __future__ import annotations

import asyncio
import sys

from bot.settings import TOKEN_HELP, Settings
from i18n import N_, translate
from i18n.console import console_language

# Where the web table listens, once it does (the console's language, as TOKEN_HELP).
WEB_OPEN = N_("console.web_open")


def main() -> int:
    settings = Settings.load()
    if not settings.token:
        return run_local(settings)
    from bot.app import run  # imported late: discord.py is only needed once a token exists

    return run(settings)


def run_local(settings: Settings) -> int:
    """The web table without Discord; says where it is and how to connect the bot."""
    from bot.app import configure_logging
    from web.local import check_host, serve_local

    check_host(settings.web_host, signed_in=False)
    configure_logging(settings.log_level)
    language = console_language()
    print(translate(language, TOKEN_HELP), file=sys.stderr)

    def ready(address: str) -> None:
        print(translate(language, WEB_OPEN, address=address), flush=True)

    try:
        return asyncio.run(
            serve_local(
                settings.database,
                settings.web_host,
                settings.web_port,
                ai_workers=settings.ai_workers,
                ready=ready,
            )
        )
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
