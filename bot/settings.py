"""Process settings, read from the environment or a git-ignored ``.env`` file.

Every setting is listed, with a comment, in ``.env.example``. The token is never logged:
``Settings.__repr__`` hides it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from i18n import N_, translate
from i18n.console import console_language
from matchcore.service.state_cache import DEFAULT_STATE_CACHE_SIZE

# What ``make run`` says without a token: how to connect the bot (in the console's language,
# i18n.console; the steps themselves are the catalogue's, English and German).
TOKEN_HELP = N_("console.no_token")

# Why a setting stops the process (the console's language, as TOKEN_HELP): ``{name}`` is the
# variable, as written in .env.
NOT_A_NUMBER = N_("console.setting.not_a_number")
AT_LEAST_ONE = N_("console.setting.at_least_one")
AT_LEAST_ZERO = N_("console.setting.at_least_zero")
NOT_A_PORT = N_("console.setting.not_a_port")
SHARD_IDS_FORMAT = N_("console.setting.shard_ids_format")
SHARD_IDS_TWICE = N_("console.setting.shard_ids_twice")
SHARD_IDS_ALONE = N_("console.setting.shard_ids_alone")
SHARD_IDS_OUTSIDE = N_("console.setting.shard_ids_outside")


def refusal(msgid: str, **params: object) -> SystemExit:
    """What stops the process on a wrong setting, worded in the console's language."""
    return SystemExit(translate(console_language(), msgid, **params))


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


DEFAULT_DATABASE_PATH = Path("data/leafbot.sqlite3")


def parse_shard_ids(raw: str) -> tuple[int, ...]:
    """``"0,1,4-7"`` -> ``(0, 1, 4, 5, 6, 7)``: shard numbers, single or as ranges."""
    found: list[int] = []
    for part in raw.replace(" ", "").split(","):
        if not part:
            continue
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise refusal(SHARD_IDS_FORMAT, value=raw)
        found.extend(range(int(first), int(last or first) + 1))
    if len(set(found)) != len(found):
        raise refusal(SHARD_IDS_TWICE, value=raw)
    return tuple(found)


def usable_cores() -> int:
    """The cores this process may run on (a container's limit, where the system says it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def default_render_workers(cores: int | None = None) -> int:
    """Picture workers when ``RENDER_WORKERS`` is not set: one per core but one, at least one.

    The bot's own process (its event loop, database thread and the pool's threads) needs a
    core of its own: on two cores, two busy picture workers took it from the loop in bursts,
    and the replies waited (``make bench-e2e`` at 80 moves/s: p99 41–159 ms with two
    workers, 25–28 ms with one, which used 0.42 of a core; docs/benchmarks/e2e.md)."""
    return max(1, (usable_cores() if cores is None else cores) - 1)


@dataclass(frozen=True)
class Settings:
    token: str | None = field(default=None, repr=False)
    database_path: Path = DEFAULT_DATABASE_PATH
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    render_workers: int = field(default_factory=default_render_workers)
    ai_workers: int = 1
    # sqlite:///path or postgresql://...; None: the SQLite file at database_path.
    database_url: str | None = field(default=None, repr=False)
    database_pool_size: int = 10
    # Sharding: the total number of shards, and which of them this process runs (None:
    # all of them). Unset: one process, one shard.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # How many matches' parsed states one process keeps in memory (the most recently used;
    # about 19 KB each): the rest are read from the database when next needed.
    state_cache_size: int = DEFAULT_STATE_CACHE_SIZE
    # Where the project's docs/ folder is published (https://.../docs): /rules links each
    # game's rules page under it. None: no link.
    docs_url: str | None = None
    # The Activity (docs/activity.md): the application's OAuth2 client id and secret, with
    # which the web table signs players in through Discord. Both set: the Activity is on
    # (a "Play on the board" button on boards). The secret is never logged.
    discord_client_id: int | None = None
    discord_client_secret: str | None = field(default=None, repr=False)
    # How long what only grew is kept, in days, and how often it is pruned (docs/service.md,
    # "What is kept"): closed challenges, the message ids and event lines of ended matches,
    # the languages of members not seen since.
    keep_closed_challenges_days: int = 30
    keep_ended_match_messages_days: int = 7
    keep_member_languages_days: int = 180
    prune_every_hours: int = 24
    # Where the web table listens (docs/web.md). Without Discord's sign-in it serves this
    # machine only: the host must be a loopback address.
    web_host: str = "127.0.0.1"
    web_port: int = 8080
    # What the settings said that deserves a word in the log at start-up.
    notes: tuple[str, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.shard_count is not None and self.shard_count < 1:
            raise refusal(AT_LEAST_ONE, name="SHARD_COUNT")
        for name in (
            "keep_closed_challenges_days",
            "keep_ended_match_messages_days",
            "keep_member_languages_days",
            "prune_every_hours",
        ):
            if getattr(self, name) < 1:
                raise refusal(AT_LEAST_ONE, name=name.upper())
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise refusal(SHARD_IDS_ALONE)
            wrong = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
            if wrong or not self.shard_ids:
                raise refusal(
                    SHARD_IDS_OUTSIDE,
                    last=self.shard_count - 1,
                    shards=self.shard_count,
                    value=",".join(map(str, self.shard_ids)),
                )

    @property
    def activity_enabled(self) -> bool:
        return self.discord_client_id is not None and bool(self.discord_client_secret)

    @property
    def database(self) -> str:
        """Where the data lives: the URL, or the SQLite file's path."""
        return self.database_url or str(self.database_path)

    @property
    def database_kind(self) -> str:
        return "postgresql" if self.database.startswith(("postgresql:", "postgres:")) else "sqlite"

    def __repr__(self) -> str:  # never show the token, nor a database password
        token = "set" if self.token else "missing"
        if self.database_kind == "postgresql":
            where = "postgresql (DATABASE_URL)"
        else:
            where = repr(self.database.removeprefix("sqlite:///"))
        shards = "all" if self.shard_ids is None else ",".join(map(str, self.shard_ids))
        return (
            f"Settings(token={token}, database={where}, dev_guild_id={self.dev_guild_id}, "
            f"log_level={self.log_level!r}, shard_count={self.shard_count}, shards={shards})"
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
                raise refusal(NOT_A_NUMBER, name=key, value=raw) from None

        url = (merged.get("DATABASE_URL") or "").strip() or None
        path = (merged.get("DATABASE_PATH") or "").strip()
        notes: list[str] = []
        if path and url:
            notes.append("DATABASE_PATH is ignored: DATABASE_URL is set and wins")
        elif path:
            notes.append(
                "DATABASE_PATH is deprecated: write DATABASE_URL=sqlite:///" + path + " instead"
            )
        shard_ids = (merged.get("SHARD_IDS") or "").strip()
        # 0 is a real choice: pictures drawn in threads of the bot process, no workers.
        render_workers = integer("RENDER_WORKERS", default_render_workers())
        if render_workers is None or render_workers < 0:
            raise refusal(AT_LEAST_ZERO, name="RENDER_WORKERS")
        state_cache_size = integer("STATE_CACHE_SIZE", DEFAULT_STATE_CACHE_SIZE)
        if state_cache_size is None or state_cache_size < 0:
            raise refusal(AT_LEAST_ZERO, name="STATE_CACHE_SIZE")
        web_port = integer("WEB_PORT", 8080)
        if web_port is None or not 0 <= web_port <= 65535:
            raise refusal(NOT_A_PORT, name="WEB_PORT", value=web_port)
        return cls(
            token=(merged.get("DISCORD_TOKEN") or "").strip() or None,
            database_path=Path(path) if path else DEFAULT_DATABASE_PATH,
            database_url=url,
            database_pool_size=integer("DATABASE_POOL_SIZE", 10) or 10,
            dev_guild_id=integer("DEV_GUILD_ID", None),
            log_level=(merged.get("LOG_LEVEL") or "INFO").upper(),
            render_workers=render_workers,
            ai_workers=integer("AI_WORKERS", 1) or 1,
            shard_count=integer("SHARD_COUNT", None),
            shard_ids=parse_shard_ids(shard_ids) if shard_ids else None,
            docs_url=(merged.get("DOCS_URL") or "").strip() or None,
            discord_client_id=integer("DISCORD_CLIENT_ID", None),
            discord_client_secret=(merged.get("DISCORD_CLIENT_SECRET") or "").strip() or None,
            keep_closed_challenges_days=integer("KEEP_CLOSED_CHALLENGES_DAYS", 30) or 0,
            keep_ended_match_messages_days=integer("KEEP_ENDED_MATCH_MESSAGES_DAYS", 7) or 0,
            keep_member_languages_days=integer("KEEP_MEMBER_LANGUAGES_DAYS", 180) or 0,
            prune_every_hours=integer("PRUNE_EVERY_HOURS", 24) or 0,
            state_cache_size=state_cache_size,
            web_host=(merged.get("WEB_HOST") or "").strip() or "127.0.0.1",
            web_port=web_port,
            notes=tuple(notes),
        )
