"""The Discord client: start-up, command sync, the clock loop and a clean shutdown.

``LeafBot`` is a ``discord.AutoShardedClient`` with an application-command tree: it runs the
shards ``SHARD_IDS`` of ``SHARD_COUNT`` (one shard, 0 of 1, when unset), so several
processes, on several machines, can share the gateway over one PostgreSQL database.

It puts the Discord layer together: the shared parts (:mod:`bot.common`: the context,
delivery, the one error handler, the component router) and the features on top of them
(:mod:`bot.features`), each of which registers its commands, its buttons and its message
builders. Its ``setup_hook`` opens the database named by ``DATABASE_URL`` (unless a
service was handed in, as the tests do), starts the match service, registers the two
dynamic component classes that serve every button and select menu ever sent, adds the
slash commands and syncs them (to the development server when one is configured, else
globally), configures the AI worker pool that plays the bot's board-game moves, and starts
the background tick that reports clocks and expiries. ``run(settings)`` is what
``python -m bot`` calls.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import time
from typing import Any

import discord
from aiohttp import web
from discord import app_commands

from bot.common.choices import service_choices
from bot.common.components import ActionButton, ActionSelect
from bot.common.context import Context
from bot.common.custom_ids import FORM, ComponentId
from bot.common.errors import ErrorHandler, report_error
from bot.common.pictures import Painter
from bot.common.rate_buckets import amortise_bucket_sweeps
from bot.common.routing import ComponentRouter, form_text
from bot.common.translator import CatalogueTranslator
from bot.delivery.channel_order import last_look
from bot.delivery.delivery import Delivery
from bot.delivery.turn_dms import TurnDms
from bot.features.board_games import BoardGames
from bot.features.game_features import GameFeature
from bot.features.history import History
from bot.features.information import Information
from bot.features.information.season_posts import SeasonPosts
from bot.features.learning import Learning
from bot.features.leiff_tables import LeiffTables
from bot.features.play import Play
from bot.features.profile import Profiles
from bot.features.review import PuzzleDesk, Reviewing
from bot.features.settings import Preferences, ServerSettings
from bot.features.tournaments import TournamentDesk, TournamentPosts
from bot.settings import Settings
from engine.spec import GameKind
from matchcore import ai_pool
from matchcore.service import MatchService
from matchcore.service.housekeeping import Retention
from matchcore.service.protocol import GameService
from matchcore.storage import Repository, open_repository
from matchcore.storage.driver_logs import STATE_LOGGERS
from matchcore.storage.repository import SchemaTooNew
from render import shutdown_renderer
from web.discord_auth import DiscordApp, add_routes
from web.local import check_host, start_site
from web.server import WebTable
from web.sessions import Sessions

log = logging.getLogger("bot")

TICK_SECONDS = 5.0


def intents() -> discord.Intents:
    """Only non-privileged intents: guild events for the channel and server caches."""
    chosen = discord.Intents.none()
    chosen.guilds = True
    return chosen


class LeafTree(app_commands.CommandTree):
    """The command tree with the project's single error handler."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)


class LeafBot(discord.AutoShardedClient):
    """The bot: a thin Discord layer over the match service, running some of the shards."""

    def __init__(
        self,
        settings: Settings,
        *,
        service: MatchService | None = None,
        service_options: dict[str, Any] | None = None,
        sync_commands: bool = True,
        tick_seconds: float | None = TICK_SECONDS,
        serve_web: bool = False,
        **client_options: Any,
    ) -> None:
        client_options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        # a board held for a rate limit is looked at again as it leaves (ChannelOrder)
        client_options.setdefault("http_trace", last_look())
        # The bot never reads cached messages (it edits by id), so it keeps none: less memory
        # and less for the garbage collector to walk.
        client_options.setdefault("max_messages", None)
        # Without SHARD_COUNT: one shard (0 of 1), and no /gateway/bot request at start.
        client_options.setdefault("shard_count", settings.shard_count or 1)
        if settings.shard_ids is not None:
            client_options.setdefault("shard_ids", list(settings.shard_ids))
        super().__init__(intents=intents(), **client_options)
        amortise_bucket_sweeps(self.http)
        self.settings = settings
        self.tree = LeafTree(self)
        self.context = Context(self, Painter(settings.render_workers))
        self.context.activity = settings.activity_enabled
        # the match core this client serves: handed in (tests), or built in setup_hook
        self._core = service
        self._owns_repository = service is None
        # e.g. {"clock": ..., "seed_source": ...} for tests and benchmarks
        self._service_options = {
            "state_cache_size": settings.state_cache_size,
            **(service_options or {}),
        }
        self._repository: Repository | None = None
        self._sync_commands = sync_commands
        self._tick_seconds = tick_seconds
        self._tick_task: asyncio.Task[None] | None = None
        # The web table beside the bot (``serve_web``; what ``make run`` does): the same
        # service, its updates delivered to Discord as a command's would be.
        self._serve_web = serve_web
        self.web_table: WebTable | None = None
        self.web_address: str | None = None
        self._web_runner: web.AppRunner | None = None

        # The shared parts, then the features on top of them.
        self.delivery = Delivery(self.context)
        self.turn_dms = TurnDms(self.context, self.delivery.records)
        self.errors = ErrorHandler(self.context, self.delivery.publish_quietly)
        self.components = ComponentRouter(self.errors)  # what every click is handed to
        board_games = BoardGames(self.context, self.delivery, self.errors)
        leiff_tables = LeiffTables(self.context, self.delivery, self.errors)
        learning = Learning(self.context, self.delivery, self.errors, docs_url=settings.docs_url)
        board_games.register(self.components)
        leiff_tables.register(self.components)
        learning.register(self.components)
        history = History(self.context, self.delivery, self.errors)
        history.register(self.components)
        self.reviewing = Reviewing(self.context, self.delivery, self.errors)
        self.puzzle_desk = PuzzleDesk(self.context, self.errors)
        self.reviewing.register(self.components)
        self.puzzle_desk.register(self.components)
        self.tournament_posts = TournamentPosts(self.context, self.delivery)
        self.season_posts = SeasonPosts(self.context)
        self.tournaments_resumed: asyncio.Task[int] | None = None
        tournaments = TournamentDesk(self.context, self.errors, self.tournament_posts)
        tournaments.register(self.components)
        preferences = Preferences(self.context, self.errors, self.delivery)
        preferences.register(self.components)
        board_games.on_review = self.reviewing.open
        board_games.on_answer = self.puzzle_desk.answer
        self._mining: asyncio.Task[None] | None = None
        starters: dict[GameKind, GameFeature] = {
            GameKind.BOARD: board_games,
            GameKind.CARDS: leiff_tables,
        }
        self.features = (
            Play(self.context, self.delivery, self.errors, starters),
            board_games,
            leiff_tables,
            Information(self.context, self.errors),
            Profiles(self.context, self.errors),
            history,
            learning,
            self.reviewing,
            self.puzzle_desk,
            ServerSettings(self.context, self.errors),
            preferences,
            tournaments,
        )

    @property
    def service(self) -> GameService:
        return self.context.service

    @property
    def painter(self) -> Painter:
        return self.context.painter

    # ---- start-up ------------------------------------------------------------------
    async def setup_hook(self) -> None:
        if self._core is None:
            self._repository = await open_repository(
                self.settings.database, pool_size=self.settings.database_pool_size
            )
            options = {
                "retention": retention(self.settings),
                "choices": service_choices(),
                **self._service_options,
            }
            self._core = MatchService(self._repository, **options)
        core = self._core
        self.context.service = core
        # what the delivery keeps of what it sent: its own calls, beside the service's
        self.delivery.records.bind(core.repo, core.clock)
        # Board-game searches run in these worker processes (started on the first bot move).
        ai_pool.configure(self.settings.ai_workers)
        # The bot's own user id sits in its seat of games against it; login has set it.
        # Nothing is read here: a match is read when first needed, so the bot connects
        # within seconds however many matches are running.
        # the bot's turns the core plays after a commit are posted by the delivery
        self.delivery.bot_turns.listen(core.turns)
        await core.start(bot_user_id=self.user.id if self.user is not None else None)
        await self.painter.start()

        self.add_dynamic_items(ActionButton, ActionSelect)
        for feature in self.features:
            for command in feature.commands():
                self.tree.add_command(command)
        # German clients see German command names, options and choices (from the catalogues)
        await self.tree.set_translator(CatalogueTranslator())
        if self._sync_commands:
            await self.sync_commands()
        # Matches whose last step did not all go out before the last stop (or kill) are
        # sent again, each by the process that runs its server's shard: found in the
        # background, a page at a time, by an indexed query.
        self.delivery.resume_undelivered(self._runs_guild)
        if self._tick_seconds:
            self._tick_task = asyncio.create_task(self._tick_loop(), name="leafbot-tick")
        if self._serve_web:
            await self.start_web()
        # Everything loaded so far lives as long as the process: keep it out of the garbage
        # collector's full passes, which otherwise stall the event loop for tens of ms.
        gc.collect()  # only what is alive is frozen, never garbage
        gc.freeze()
        log.info("setup done: %d commands", len(self.tree.get_commands()))

    def _runs_guild(self, guild_id: int) -> bool:
        """Whether one of this process's shards receives the server's events."""
        count = self.shard_count or 1
        shards = self.shard_ids if self.shard_ids is not None else range(count)
        return (guild_id >> 22) % count in shards

    async def sync_commands(self) -> None:
        """Sync to the development server (instant) when configured, else globally."""
        guild_id = self.settings.dev_guild_id
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to development server %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d commands globally (may take up to an hour to appear)", len(synced))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A submitted form of ours goes to the router: custom ids say what it completes,
        so a form opened before a restart still plays (``ComponentRouter.on_form``)."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: Any = interaction.data or {}
        form = ComponentId.decode(str(data.get("custom_id") or ""))
        if form is not None and form.action.startswith(FORM):
            await self.components.on_form(interaction, form, form_text(data))

    async def on_ready(self) -> None:
        if self.tournaments_resumed is None:
            # what a kill kept from going out of the tournaments' last steps (once a start)
            guilds = [g.id for g in self.guilds if self._runs_guild(g.id)]
            self.tournaments_resumed = asyncio.create_task(
                self.tournament_posts.resume(guilds), name="leafbot-tournaments-resume"
            )
        user = self.user
        shards = ",".join(str(i) for i in sorted(self.shards)) or "-"
        log.info(
            "connected as %s (id %s) in %d servers, shards %s of %s",
            user,
            user and user.id,
            len(self.guilds),
            shards,
            self.shard_count,
        )

    async def start_web(self) -> None:
        """Serve the web table on this process's service (docs/web.md). With the Activity
        configured, players sign in through Discord (docs/activity.md) and the table may
        serve other machines; without it, it listens on a loopback address only."""
        service = self._core
        if service is None:
            raise RuntimeError("the web table starts after the match service")
        discord_app = self._discord_app()
        check_host(self.settings.web_host, signed_in=discord_app is not None)
        sessions = Sessions(service.sign_ins)
        self.web_table = WebTable(service, sessions, on_update=self.delivery.publish_quietly)
        # the names of members who play in Discord, as the bot has seen them (not "#id")
        self.web_table.member_name = self.context.names.known
        # a daily puzzle solved at the table is listed on its channel message, as by /move
        self.web_table.puzzles.solved = self.puzzle_desk.refresh_daily
        app = self.web_table.app()
        if discord_app is not None:
            # every socket message of an Activity's session checks its member is still in it
            self.web_table.access = add_routes(app, sessions, service, discord_app).still_in
        self._web_runner, port = await start_site(
            app, self.settings.web_host, self.settings.web_port
        )
        self.web_address = f"http://{self.settings.web_host}:{port}"
        log.info("the web table is open at %s", self.web_address)

    def _discord_app(self) -> DiscordApp | None:
        """The Activity's OAuth2 client, when it is configured; Discord's API is where
        discord.py talks to (the simulator's, in the tests)."""
        settings = self.settings
        # the token the client logged in with (the instance is read with it)
        token = self.http.token or settings.token
        if not settings.activity_enabled or not token:
            return None
        assert settings.discord_client_id is not None and settings.discord_client_secret
        return DiscordApp(
            settings.discord_client_id,
            settings.discord_client_secret,
            token,
            api_base=discord.http.Route.BASE,
        )

    # ---- the clock -----------------------------------------------------------------
    async def _tick_loop(self) -> None:
        assert self._tick_seconds
        while not self.is_closed():
            started = time.monotonic()
            try:
                await self.tick_once()
            except Exception:
                log.exception("clock tick failed")
            try:
                await self.learning_tick()
            except Exception:
                log.exception("the daily puzzle or mining failed")
            try:
                # after the tick's updates went out: a bounded share of a pruning pass,
                # when one is due and this process holds it (docs/service.md, "What is kept")
                await self.service.prune_due()
            except Exception:
                log.exception("pruning failed")
            await asyncio.sleep(max(0.1, self._tick_seconds - (time.monotonic() - started)))

    async def learning_tick(self) -> None:
        """Each server's daily puzzle, posted by the process that claims its day first, and
        the mining of finished rated matches in the background (one match at a time, in the
        AI pool's workers; claimed, so no two processes mine one match)."""
        for guild in self.guilds:
            if self._runs_guild(guild.id):
                await self.puzzle_desk.post_daily(guild)
        if self._mining is None or self._mining.done():
            self._mining = asyncio.create_task(self._mine(), name="leafbot-mining")

    async def _mine(self) -> None:
        try:
            await self.service.puzzles.mine_one()
        except Exception:
            log.exception("mining a match for puzzles failed")

    async def tick_once(self, now: float | None = None) -> int:
        """Run one service tick and publish what it reports; returns the number of updates."""
        updates = await self.service.tick(now) if now is not None else await self.service.tick()
        for update in updates:
            await self.delivery.publish_quietly(update)
        try:  # the final standings of the seasons the tick closed (claimed: once)
            await self.season_posts.post_due(g.id for g in self.guilds if self._runs_guild(g.id))
        except Exception:
            log.exception("season posts failed")
        try:  # the tournaments' claimed steps: starts, pairings, ends, reminders
            for step in await self.service.tournaments.tick(now):
                await self.tournament_posts.publish(step)
        except Exception:
            log.exception("tournament steps failed")
        try:  # then the DMs of daily matches that wait for a member (docs/bot.md)
            await self.turn_dms.send_due()
        except Exception:
            log.exception("turn DMs failed")
        return len(updates)

    # ---- shutdown ------------------------------------------------------------------
    async def close(self) -> None:
        if self._web_runner is not None:
            await self._web_runner.cleanup()
            self._web_runner = None
        if self._tick_task is not None:
            self._tick_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._tick_task
            self._tick_task = None
        # The bots' background turns stop first, while their messages could still be sent;
        # a turn cut short here is played again by the next start.
        await self.tournament_posts.close()
        if self._core is not None and self.context.has_service:
            await self._core.close()
        await self.delivery.close()
        await super().close()
        self.painter.close()
        await ai_pool.shutdown()  # before the repository: a search may still be finishing
        if self._owns_repository and self._repository is not None:
            await self._repository.close()
            self._repository = None
        log.info("bot closed")


def retention(settings: Settings) -> Retention:
    """What the database keeps, as the settings say."""
    return Retention(
        closed_challenges_days=settings.keep_closed_challenges_days,
        ended_match_messages_days=settings.keep_ended_match_messages_days,
        member_languages_days=settings.keep_member_languages_days,
        every_hours=settings.prune_every_hours,
    )


def configure_logging(level: str) -> None:
    """Plain, readable logs on stderr; discord.py's own chatter one level quieter, and the
    database drivers (which would print hidden cards) capped at WARNING (the repository
    caps them too when it opens its connection, for those who never call this)."""
    chosen = getattr(logging, level.upper(), logging.INFO)
    # A stderr handler unless one is configured already; the level is set either way.
    logging.basicConfig(format="%(asctime)s %(levelname)-7s %(name)s: %(message)s")
    logging.getLogger().setLevel(chosen)
    logging.getLogger("discord").setLevel(max(logging.INFO, chosen))
    for name in STATE_LOGGERS:
        logging.getLogger(name).setLevel(max(logging.WARNING, chosen))


async def _main(settings: Settings) -> int:
    bot = LeafBot(settings, serve_web=True)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signame in ("SIGINT", "SIGTERM"):
        with contextlib.suppress(NotImplementedError, AttributeError):
            loop.add_signal_handler(getattr(signal, signame), stop.set)
    runner = asyncio.create_task(bot.start(settings.token or ""), name="leafbot")
    stopper = asyncio.create_task(stop.wait(), name="leafbot-stop")
    done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
    if stopper in done:
        log.info("stop requested, shutting down")
    await bot.close()
    stopper.cancel()
    if runner in done and runner.exception() is not None:
        error = runner.exception()
        if isinstance(error, discord.LoginFailure):
            log.error("Discord refused the token (check DISCORD_TOKEN)")
            return 1
        if isinstance(error, SchemaTooNew):
            log.error("cannot start: %s", error)
            return 1
        if isinstance(error, OSError | asyncio.TimeoutError) and _is_database_error(error):
            log.error("could not reach the database: %s (check DATABASE_URL)", error)
            return 1
        if isinstance(error, OSError | asyncio.TimeoutError):
            # no network, DNS failure, refused connection: one line says it all
            log.error("could not reach Discord: %s (check the network and try again)", error)
            return 1
        log.error("the bot stopped: %s", error, exc_info=error)
        return 1
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await runner
    return 0


def _is_database_error(error: BaseException) -> bool:
    """Whether a connection error came from the database driver (not from Discord)."""
    trace = error.__traceback__
    while trace is not None:
        module = trace.tb_frame.f_globals.get("__name__", "")
        if module.startswith(("asyncpg", "matchcore.storage")):
            return True
        trace = trace.tb_next
    return False


def run(settings: Settings) -> int:
    """Start the bot and block until Ctrl-C / SIGTERM; returns the process exit code."""
    configure_logging(settings.log_level)
    log.info("starting with %r", settings)  # Settings.__repr__ hides the token
    for note in settings.notes:
        log.warning("%s", note)
    try:
        return asyncio.run(_main(settings))
    except KeyboardInterrupt:
        return 0
    finally:
        shutdown_renderer(wait=False)
