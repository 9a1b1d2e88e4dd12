"""What the stats, leaderboard, settings and privacy cogs share: their services on the bot, the service that
exports a game's match file, and the game choices."""

from __future__ import annotations

import inspect
from importlib import import_module
from typing import Any

import discord
from discord import app_commands

from bot.engines import GAME_NAMES
from bot.render.stats import COMBINED, game_title
from bot.services.matches import MatchService
from bot.services.settings import SettingsService
from bot.services.stats import StatsService

NO_MENTIONS = discord.AllowedMentions.none()
GAME_CHOICES = [app_commands.Choice(name=game_title(game), value=game) for game in GAME_NAMES]
BOARD_CHOICES = [*GAME_CHOICES, app_commands.Choice(name="All games (combined)", value=COMBINED)]

#: where a game's match service lives, for a game the bot's own ``matches`` service does not play
_SERVICES = {"war": ("bot.services.war", "WarService"), "drunkard": ("bot.services.war", "WarService"),
             "todundleben": ("bot.services.war", "WarService"), "army": ("bot.services.army", "ArmyService")}


def stats_service(bot: Any) -> StatsService:
    """The bot's stats service (made on first use, on the bot's database and clock)."""
    service = getattr(bot, "stats_service", None)
    if not isinstance(service, StatsService):
        service = StatsService(bot.db, clock=bot.clock)
        bot.stats_service = service
    return service


def settings_service(bot: Any) -> SettingsService:
    """The bot's settings service (made on first use); the game cogs read the same one."""
    service = getattr(bot, "guild_settings", None)
    if not isinstance(service, SettingsService):
        service = SettingsService(bot.db, clock=bot.clock)
        bot.guild_settings = service
    return service


def match_service_for(bot: Any, game: str) -> MatchService:
    """The match service that plays ``game`` (its export builds the match file): one on the bot if there is one,
    else a reading-only instance of the game's service class on the bot's database."""
    candidates = [bot.matches, *(value for value in vars(bot).values() if isinstance(value, MatchService))]
    for service in candidates:
        if game in service.games:
            return service
    if game in _SERVICES:
        module_name, class_name = _SERVICES[game]
        try:
            cls = getattr(import_module(module_name), class_name)
        except (ImportError, AttributeError):
            cls = None
        if inspect.isclass(cls) and issubclass(cls, MatchService):
            return cls(bot.db, clock=bot.clock)
    return bot.matches


async def tell(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer (a followup once the interaction was answered)."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
    else:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
