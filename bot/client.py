"""The bot: a `commands.Bot` that opens the database, loads the cogs and syncs its slash commands."""

from __future__ import annotations

import logging
import pkgutil
import time
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import cogs
from bot.config import Settings
from bot.services.matches import MatchService, default_seed
from bot.services.timers import Timers
from bot.storage import Database

log = logging.getLogger(__name__)

SORRY = "Something went wrong on our side; nothing was changed. Please try again in a moment."


def cog_extensions() -> list[str]:
    """Every module in the `cogs` package, as extension names."""
    return sorted(f"cogs.{module.name}" for module in pkgutil.iter_modules(cogs.__path__) if not module.ispkg)


class AirWarBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = default_seed,
        **client_options: Any,
    ) -> None:
        """``clock`` and ``seed_source`` let a test pin the time and the deal; the defaults are the real ones."""
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            owner_ids=set(settings.owner_ids) or None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **client_options,
        )
        self.settings = settings
        self.clock = clock
        self.seed_source = seed_source
        self.database: Database | None = None
        self._matches: MatchService | None = None
        self.timers = Timers(clock=clock)
        self.tree.on_error = self.on_app_command_error

    @property
    def db(self) -> Database:
        if self.database is None:
            raise RuntimeError("the database is not open yet (setup_hook has not run)")
        return self.database

    @property
    def matches(self) -> MatchService:
        if self._matches is None:
            raise RuntimeError("the match service is not ready yet (setup_hook has not run)")
        return self._matches

    async def setup_hook(self) -> None:
        self.database = await Database.open(self.settings.database_path)
        self._matches = MatchService(self.database, clock=self.clock, seed_source=self.seed_source)
        for extension in cog_extensions():
            await self.load_extension(extension)
        await self.sync_commands()

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

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, getattr(self.user, "id", "?"), len(self.guilds))

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.CheckFailure):
            message = str(error) or "You can't use this command here."
        else:
            log.error("command %r failed", interaction.command and interaction.command.qualified_name,
                      exc_info=error)
            message = SORRY
        try:
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not tell the user about a failed command", exc_info=True)

    async def close(self) -> None:
        try:
            await self.timers.cancel_all()
            await super().close()
        finally:
            if self.database is not None:
                await self.database.close()
                self.database = None
