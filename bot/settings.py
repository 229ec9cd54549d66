"""Process settings, read from the environment or a git-ignored ``.env`` file.

Every setting is listed, with a comment, in ``.env.example``. The token is never logged:
``Settings.__repr__`` hides it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

TOKEN_HELP = """\
No Discord bot token found (DISCORD_TOKEN is not set).

To get one:
  1. Open https://discord.com/developers/applications and click "New Application".
  2. In the application, open "Bot", click "Reset Token" and copy the token.
  3. Put it in a file named .env in the project folder (see .env.example):
         DISCORD_TOKEN=your-token-here
     or export it in your shell:  export DISCORD_TOKEN=your-token-here
  4. Invite the bot: "OAuth2" -> "URL Generator", tick the scopes "bot" and
     "applications.commands", the permissions "Send Messages", "Attach Files",
     "Embed Links" and "Read Message History", open the generated URL and pick your server.
No privileged intents are needed.
Then run `make run` again."""


def load_dotenv(path: Path) -> dict[str, str]:
    """Parse a simple KEY=VALUE file (comments, blank lines, optional quotes)."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        if line.startswith("export "):
            line = line[len("export ") :]
        key, value = line.split("=", 1)
        key, value = key.strip(), value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


@dataclass(frozen=True)
class Settings:
    token: str | None = field(default=None, repr=False)
    database_path: Path = Path("data/leafbot.sqlite3")
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    render_workers: int = 2
    ai_workers: int = 1

    def __repr__(self) -> str:  # never show the token
        token = "set" if self.token else "missing"
        return (
            f"Settings(token={token}, database_path={str(self.database_path)!r}, "
            f"dev_guild_id={self.dev_guild_id}, log_level={self.log_level!r})"
        )

    @classmethod
    def load(
        cls, env: dict[str, str] | None = None, dotenv: Path | None = Path(".env")
    ) -> Settings:
        """Settings from ``env`` (default: the process environment) over the ``.env`` file."""
        merged: dict[str, str] = {}
        if dotenv is not None:
            merged.update(load_dotenv(dotenv))
        merged.update(os.environ if env is None else env)

        def integer(key: str, default: int | None) -> int | None:
            raw = merged.get(key, "").strip()
            if not raw:
                return default
            try:
                return int(raw)
            except ValueError:
                raise SystemExit(f"{key} must be a whole number, not {raw!r}") from None

        # 0 is a real choice: pictures drawn in threads of the bot process, no workers.
        render_workers = integer("RENDER_WORKERS", 2)
        if render_workers is None or render_workers < 0:
            raise SystemExit("RENDER_WORKERS must be 0 or more")
        return cls(
            token=(merged.get("DISCORD_TOKEN") or "").strip() or None,
            database_path=Path(merged.get("DATABASE_PATH") or "data/leafbot.sqlite3"),
            dev_guild_id=integer("DEV_GUILD_ID", None),
            log_level=(merged.get("LOG_LEVEL") or "INFO").upper(),
            render_workers=render_workers,
            ai_workers=integer("AI_WORKERS", 1) or 1,
        )
