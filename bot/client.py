"""The bot: a `commands.Bot` that opens the database, loads the cogs and syncs its slash commands.

Restarts. Everything a match needs is in the database, so a bot started again (after a crash, a deploy, a
SIGKILL) picks every match up where it was: once the gateway is ready each game's display (its cog, in
``bot.displays``) moves the deadlines that passed while the bot was away (nobody could click: they move to now +
the match's timer, and the thread is told), shows every event not shown yet and re-arms each open match's deadline
timer from its stored deadline (a challenge that expired meanwhile expires at once). Buttons
in old messages work from the first interaction on: they are dynamic items registered when the cogs load.

Clicks. The bot routes every click itself, by its button's custom id (:meth:`CardGameBot.route_clicks`; discord.py's
view store holds none of the bot's buttons), so one place sees each click through: a click no button takes (a kind
of button no longer shown, an id it can't read), or that its button left unanswered, gets a private answer within
Discord's 3 seconds instead of "This interaction failed".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pkgutil
import re
import time
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.emoji import CARD_EMOJI
from bot.i18n import N_, language_of, texts
from bot.i18n.commands import CommandTranslator
from bot.match.kernel import Announcement, MatchKernel, default_seed, read_announcement
from bot.match.timers import Timers
from bot.registry import registry
from bot.render import cards as card_pictures
from bot.services.preferences import PlayerLanguages
from bot.services.settings import SettingsService
from bot.services.stats import StatsService
from bot.storage import Database
from bot.storage.port import Storage
from bot.storage.records import MatchRecord
from bot.thinking import Thinking

log = logging.getLogger(__name__)

#: the folder of the cogs: read, not imported (the cogs sit above the client, which loads them by name)
COGS_FOLDER = Path(__file__).resolve().parent.parent / "cogs"
#: the package in `cogs` that every cog is made of, and no cog itself
KIT = "kit"

SORRY = N_("Something went wrong on our side; nothing was changed. Please try again in a moment.")
#: the answer to a click on a button of a kind the bot no longer shows, or whose id it can't read
NO_LONGER_IN_USE = N_("That button is no longer in use; nothing was changed.")
#: the answer to a click its button had nothing to do for (a handler that did not answer)
NOTHING_TO_DO = N_("That button has nothing more to do; nothing was changed.")


def cog_extensions() -> list[str]:
    """Every module and package in the `cogs` package (a game's cog is its package, ``cogs/<game>/``; the kit and
    ``_name`` modules are none) and every registered game's cog, as extension names."""
    found = {f"cogs.{module.name}" for module in pkgutil.iter_modules([str(COGS_FOLDER)])
             if module.name != KIT and not module.name.startswith("_")}
    return sorted(found | {plugin.cog_extension for plugin in registry().plugins})


def release_answered(interaction: discord.Interaction) -> None:
    """Break the reference cycle between an answered interaction and its response, so it is freed as soon as the
    bot lets go of it.

    discord.py's ``Interaction`` keeps its ``InteractionResponse``, which keeps the interaction: without this every
    click (its message, components, buttons and user: some 60 objects) lived until a garbage collection found it,
    which filled the collector's older generations; at 200 Air War matches at once that was 111 collections with
    pauses of up to 190 ms in 3 minutes, and 7 collections (none of the older generations) once the cycle is broken
    (``tests.bench.airwar_matches``). The response stays: ``is_done()`` still says it is answered."""
    response = interaction.response
    if response.is_done():
        with contextlib.suppress(AttributeError):  # (released already)
            del response._parent


class MatchDisplay(Protocol):
    """What shows a game's matches in Discord (its cog registers itself in ``bot.displays``)."""

    async def resume(self) -> None:
        """After a start: move the deadlines that passed while the bot was away, show the unshown events (in the
        background) and re-arm the timers."""

    def after(self, update: Any) -> None:
        """A committed update: re-arm its match's timer and show its events (in the background)."""

    def arm(self, match: MatchRecord) -> None:
        """Arm (or cancel) the match's deadline timer from ``match.deadline_at``."""

    def changed_elsewhere(self, match: MatchRecord) -> None:
        """Another process changed the match, this process's to look after (:mod:`bot.cluster`): arm its timer,
        show its events, let the bot's seat play."""


#: Everything the bot does is slash commands, buttons and its own messages: it needs the servers, their channels and
#: threads (``guilds``) and no message events (receiving every message it sends or edits would cost it for nothing).
INTENTS = discord.Intents.none()
INTENTS.guilds = True

#: the names discord.py gives the tasks that run a slash command or a button's callback
ROUTED_CLICK_TASK = "airwar-click-"  #: a routed button's click (:meth:`CardGameBot.route_clicks`)
HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-dynamic-item-", "discord-ui-view-dispatch-",
                 "discord.py: on_interaction", ROUTED_CLICK_TASK)
#: how long closing waits for them (a Procfile host sends SIGTERM and kills 30 s later)
HANDLERS_GRACE = 5.0

#: Every command is declared for both kinds of install (a server's, a user's) and every context (servers, the DM
#: with the bot, group DMs): a user who installed the app finds its commands in their DMs and group DMs and in servers
#: that allow external apps. The server-only commands refuse elsewhere with words of their own
#: (:func:`cogs.kit.places.require_server`).
EVERY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
EVERY_CONTEXT = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)


class CardGameBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = default_seed,
        timer_sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        pace_sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        defer_after: float = 1.5,
        **client_options: Any,
    ) -> None:
        """``clock`` and ``seed_source`` let a test pin the time and the deal; ``timer_sleep`` is how deadline
        timers wait (a test whose clock jumps passes short sleeps: the timers look at the clock after each) and
        ``pace_sleep`` how the flips wait between two (the server's pace in seconds); ``defer_after``: seconds
        before an answer that is not ready is deferred (Discord allows 3; 0 defers every answer). The defaults are
        the real ones."""
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            max_messages=None,
            help_command=None,
            owner_ids=set(settings.owner_ids) or None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            allowed_installs=EVERY_INSTALL,
            allowed_contexts=EVERY_CONTEXT,
            **client_options,
        )
        self.settings = settings
        #: the servers this process looks after (all of them unless the bot runs as a cluster)
        self.cluster = settings.cluster
        self.clock = clock
        self.seed_source = seed_source
        self.database: Storage | None = None
        #: every game's match service by game name (variants share their game's), built in :meth:`setup_hook`
        self.game_services: dict[str, MatchKernel] = {}
        self.stats_service: StatsService | None = None
        self.guild_settings: SettingsService | None = None
        self.player_languages: PlayerLanguages | None = None
        self.timers = Timers(clock=clock, sleep=timer_sleep)
        self._routed: list[tuple[re.Pattern[str], type[discord.ui.DynamicItem[Any]]]] = []
        self._clicks: set[asyncio.Task[None]] = set()
        #: the app's card emoji (uploaded at start; the process's, which the buttons read)
        self.card_emoji = CARD_EMOJI
        #: the process the bot's own players think in (off the event loop), started at the first need
        self.thinking = Thinking()
        self.pace_sleep = pace_sleep
        self.defer_after = defer_after
        #: each game's cog, by game name, while it is loaded: shows its matches and arms their timers
        self.displays: dict[str, MatchDisplay] = {}
        self._resume_task: asyncio.Task[None] | None = None
        self._catching_up: set[asyncio.Task[None]] = set()
        #: announcements heard before the start's resume was over, caught up with after it
        self._announced_early: list[Announcement] = []
        #: set once the start's resume (:meth:`resume_matches`) is over: from then on only new updates show matches
        self.resumed = asyncio.Event()
        self.tree.on_error = self.on_app_command_error

    @property
    def db(self) -> Storage:
        if self.database is None:
            raise RuntimeError("the database is not open yet (setup_hook has not run)")
        return self.database

    @property
    def matches(self) -> MatchKernel:
        """Air War's match service."""
        return self.service_for("airwar")

    def service_for(self, game: str) -> MatchKernel:
        """The match service that plays ``game`` (a game or a variant; InvalidRules for a name not registered)."""
        family = registry().entry(game).family
        service = self.game_services.get(family)
        if service is None:
            raise RuntimeError("the match services are not ready yet (setup_hook has not run)")
        return service

    def build_services(self, database: Database) -> None:
        """Every service the bot runs, in one place: each registered game's, the stats and the settings."""
        games = registry()
        self.game_services = {
            plugin.name: MatchKernel(database, clock=self.clock, seed_source=self.seed_source, game=plugin.name)
            for plugin in games.plugins
        }
        for kernel in self.game_services.values():
            kernel.owns = self.cluster.owns
            if self.cluster.sharded:
                kernel.owner = f"{self.cluster.name}: {kernel.game}"
        self.stats_service = StatsService(database, clock=self.clock)
        self.guild_settings = SettingsService(database, clock=self.clock)
        self.player_languages = PlayerLanguages(database, clock=self.clock)

    async def setup_hook(self) -> None:
        if self.settings.database_url:
            from bot.storage.postgres import PostgresDatabase

            self.database = await PostgresDatabase.open(self.settings.database_url, shared=self.cluster.partial)
        else:
            self.database = await Database.open(self.settings.database_path)
        self.build_services(self.database)
        if self.database.shared:
            await self.database.listen(self.announced)
        for extension in cog_extensions():
            await self.load_extension(extension)
        await self.tree.set_translator(CommandTranslator())
        await self.sync_commands()
        await self.sync_card_emoji()
        # before logging in (about half a second, once per process): drawn while the first interactions come, it
        # would hold the interpreter's lock the event loop needs
        await asyncio.to_thread(card_pictures.warm_up)
        self._resume_task = asyncio.create_task(self._resume_when_ready(), name="airwar-resume")

    async def _resume_when_ready(self) -> None:
        # Not in setup_hook itself: the gateway is not connected yet there (no guilds or channels cached, and
        # waiting for it would block the login). Once per process, not on every on_ready (reconnects).
        await self.wait_until_ready()
        try:
            await self.resume_matches()
        except Exception:
            log.exception("resuming the matches after the start failed")
        finally:
            self.resumed.set()
            early, self._announced_early = self._announced_early, []
            for announcement in early:  # (what changed while the resume read the matches)
                self._catch_up_soon(announcement)

    def announced(self, payload: str) -> None:
        """A process changed a match (:meth:`Storage.listen`): if it was another one, and the match's server is this
        process's, arm the match's timer, show its events and let the bot's seat play, as if the change were this
        process's own."""
        if payload == "":  # some may have been missed: catch up with every match of this process's
            if self.resumed.is_set():
                self._catching_up_with(self._catch_up_everything(), "airwar-catch-up")
            return
        announcement = read_announcement(payload)
        if announcement is None or not self.cluster.owns(announcement.guild_id):
            return
        if not self.resumed.is_set():
            self._announced_early.append(announcement)
            return
        self._catch_up_soon(announcement)

    def _catch_up_soon(self, announcement: Announcement) -> None:
        service = self.game_services.get(announcement.game)
        display = self.displays.get(announcement.game)
        if service is None or display is None or announcement.by == service.owner:
            return
        self._catching_up_with(self._catch_up(service, display, announcement.match_id),
                               f"airwar-announced-{announcement.match_id}")

    def _catching_up_with(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._catching_up.add(task)
        task.add_done_callback(self._catching_up.discard)

    async def _catch_up_everything(self) -> None:
        """Every open match of this process's servers, and every one with events to show, as if another process had
        just changed it."""
        for game, display in list(self.displays.items()):
            try:
                service = self.service_for(game)
                for match in await service.open_matches():
                    display.changed_elsewhere(match)
                for match_id in await service.outbox.matches_with_unshown_events():
                    display.changed_elsewhere(await service.get_match(match_id))
            except Exception:
                log.exception("catching up with the %s matches failed", game)

    async def _catch_up(self, service: MatchKernel, display: MatchDisplay, match_id: int) -> None:
        try:
            match = await service.get_match(match_id)
            display.changed_elsewhere(match)
            if not match.is_open:
                self.dispatch("match_over_elsewhere", match)  # (a tournament's goes on at once)
        except Exception:
            log.exception("catching up with match %s, changed by another process, failed", match_id)

    async def resume_matches(self) -> None:
        """After a start, for every game's display in turn: move the deadlines that passed meanwhile, show every
        match's unshown events, in order, and re-arm every open match's timer (:meth:`MatchDisplay.resume`)."""
        for game, display in list(self.displays.items()):
            try:
                await display.resume()
            except Exception:
                log.exception("resuming the %s matches after the start failed", game)

    async def sync_card_emoji(self) -> None:
        """The card emoji uploaded as the app's own, once (:class:`~bot.emoji.CardEmoji`); a failure leaves the
        messages with the card notation alone (logged, never fatal)."""
        try:
            await self.card_emoji.sync(self)
        except discord.HTTPException as error:
            log.warning("the card emoji could not be uploaded: %s; cards show as text", error)

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """To the dev guild when one is set (instant updates while developing), globally otherwise."""
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), self.settings.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))
        return synced

    async def _finish_handlers(self) -> None:
        """Let the slash commands and clicks in flight finish (for up to :data:`HANDLERS_GRACE` seconds) while the
        gateway, HTTP and the database are still open: a command that has answered may still have a write to make
        (storing its message, marking its event shown), and it would fail on a closed database."""
        current = asyncio.current_task()
        running = [task for task in asyncio.all_tasks() if task is not current and not task.done()
                   and task.get_name().startswith(HANDLER_TASKS)]
        if running:
            log.info("closing: waiting for %d commands and clicks in flight", len(running))
            await asyncio.wait(running, timeout=HANDLERS_GRACE)

    def route_clicks(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Clicks on these buttons are handed to them by their custom id (:meth:`on_interaction`), as discord.py
        does for dynamic items but without building a view from the clicked message for each click (a good part
        of a click's cost) and without dropping a click on a button its message no longer shows. The kit's match
        buttons, in :class:`cogs.kit.items.RoutedView` views (which discord.py does not keep), and every other
        button the bot shows (:meth:`add_dynamic_items`)."""
        self._routed += [(item.__discord_ui_compiled_template__, item) for item in items]

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """The bot routes every button's clicks itself (:meth:`route_clicks`), so that one place answers each
        click, whatever became of its button: discord.py's view store is left out (it would drop a click on a
        button its message no longer shows, unanswered). The buttons' views are
        :class:`cogs.kit.items.RoutedButtons`, which discord.py does not keep either."""
        self.route_clicks(*items)

    async def _route_click(self, interaction: discord.Interaction) -> None:
        """Hand a click to its button (:meth:`route_clicks`); a click that no button takes (a button of a kind the
        bot no longer shows, a malformed id) or that its button left unanswered (it had nothing to do) is answered
        privately: never "This interaction failed"."""
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        taken = failed = False
        try:
            for pattern, factory in self._routed:
                found = pattern.fullmatch(custom_id)
                if found is None:
                    continue
                taken = True
                item = await factory.from_custom_id(interaction, discord.ui.Button(custom_id=custom_id), found)
                if await item.interaction_check(interaction):
                    await item.callback(interaction)
                break
        except Exception:
            log.exception("a click on %s failed", custom_id)
            failed = True
        if interaction.response.is_done():
            release_answered(interaction)
            return
        if not taken:
            log.info("a click on %s, which no button takes, answered", custom_id)
        answer = SORRY if failed else NOTHING_TO_DO if taken else NO_LONGER_IN_USE
        await self._tell_privately(interaction, texts(interaction.locale)(answer))
        release_answered(interaction)

    @staticmethod
    async def _tell_privately(interaction: discord.Interaction, text: str) -> None:
        try:
            await interaction.response.send_message(text, ephemeral=True,
                                                    allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:  # (answered meanwhile, or too late: nothing more to do)
            log.warning("could not answer interaction %s: %s", interaction.id, error)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every click goes to its button (:meth:`route_clicks`), in a task of its own, and is answered whatever
        becomes of it; and the language of the user's client is remembered beside it: what the bot sends them
        outside an interaction (a DM panel) speaks it."""
        if interaction.type is discord.InteractionType.component:
            click = asyncio.get_running_loop().create_task(self._route_click(interaction),
                                                           name=f"{ROUTED_CLICK_TASK}{interaction.id}")
            self._clicks.add(click)
            click.add_done_callback(self._clicks.discard)
        languages = self.player_languages
        if languages is None or self.database is None:
            return
        try:
            await languages.note(interaction.user.id, language_of(interaction.locale))
        except Exception:
            log.warning("could not store the language of user %s", interaction.user.id, exc_info=True)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, getattr(self.user, "id", "?"), len(self.guilds))

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.CheckFailure):
            _ = texts(interaction.locale)
            message = (error.said(_) if hasattr(error, "said") else str(error)) or _("You can't use this command here.")
        else:
            log.error("command %r failed", interaction.command and interaction.command.qualified_name,
                      exc_info=error)
            message = texts(interaction.locale)(SORRY)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not tell the user about a failed command", exc_info=True)
        release_answered(interaction)

    async def on_app_command_completion(self, interaction: discord.Interaction, command: Any) -> None:
        release_answered(interaction)

    async def close(self) -> None:
        try:
            if self._resume_task is not None and not self._resume_task.done():
                self._resume_task.cancel()
            for task in list(self._catching_up):
                task.cancel()
            await self.timers.cancel_all()
            await self._finish_handlers()
            await super().close()
        finally:
            self.thinking.close()
            if self.database is not None:
                await self.database.close()
                self.database = None


class ShardedCardGameBot(CardGameBot, commands.AutoShardedBot):
    """The bot on a range of shards (:mod:`bot.cluster`): discord.py runs one gateway connection per shard."""


def create_bot(settings: Settings, **options: Any) -> CardGameBot:
    """The bot the settings ask for: sharded when ``SHARD_COUNT`` (or a cluster) is set."""
    cluster = settings.cluster
    if cluster.sharded:
        return ShardedCardGameBot(settings, shard_count=cluster.shard_count, shard_ids=list(cluster.shard_ids),
                                  **options)
    return CardGameBot(settings, **options)
