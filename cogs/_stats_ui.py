"""What the stats, leaderboard, settings and privacy cogs share: their services on the bot, the service that
exports a game's match file, and the game choices (made when a cog loads: :func:`cogs.kit.choices.set_choices`)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.games import game_names
from bot.render.stats import COMBINED, game_title
from bot.services.settings import SettingsService
from bot.services.stats import StatsService

NO_MENTIONS = discord.AllowedMentions.none()


def game_choices() -> list[app_commands.Choice[str]]:
    """Every registered game and variant as a slash command choice."""
    return [app_commands.Choice(name=game_title(game), value=game) for game in game_names()]


def board_choices() -> list[app_commands.Choice[str]]:
    """Every registered game and variant, and every game together."""
    return [*game_choices(), app_commands.Choice(name="All games (combined)", value=COMBINED)]


def stats_service(bot: Any) -> StatsService:
    """The bot's stats service (built at start-up)."""
    service = bot.stats_service
    assert isinstance(service, StatsService), "the bot's services are not built yet"
    return service


def settings_service(bot: Any) -> SettingsService:
    """The bot's settings service (built at start-up); the game cogs read the same one."""
    service = bot.guild_settings
    assert isinstance(service, SettingsService), "the bot's services are not built yet"
    return service


async def tell(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer (a followup once the interaction was answered)."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
    else:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
