"""``python -m bot`` (what ``make run`` calls): check settings, then start the bot."""

from __future__ import annotations

import sys

from bot.settings import TOKEN_HELP, Settings


def main() -> int:
    settings = Settings.load()
    if not settings.token:
        print(TOKEN_HELP, file=sys.stderr)
        return 2
    from bot.app import run  # imported late: discord.py is only needed once a token exists

    return run(settings)


if __name__ == "__main__":
    sys.exit(main())
