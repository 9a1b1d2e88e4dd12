"""What the stats, leaderboard, settings and privacy cogs share: their services on the bot, the service that
exports a game's match file, the game choices (made when a cog loads: :func:`cogs.kit.choices.set_choices`), and
whose language an answer speaks: the member's own for what only they see, the server's for what the channel sees
(:func:`words_for`, :func:`message_words`)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n import N_, Texts, texts
from bot.registry import game_names
from bot.render.stats import COMBINED, game_title
from bot.services.settings import SettingsService
from bot.services.stats import StatsService
from cogs.kit.messages import private_words

NO_MENTIONS = discord.AllowedMentions.none()


def game_choices() -> list[app_commands.Choice[str]]:
    """Every registered game and variant as a slash command choice."""
    return [app_commands.Choice(name=game_title(game), value=game) for game in game_names()]


def board_choices() -> list[app_commands.Choice[str]]:
    """Every registered game and variant, and every game together."""
    return [*game_choices(), app_commands.Choice(name=N_("All games (combined)"), value=COMBINED)]


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


async def server_words(bot: Any, guild_id: int | None) -> Texts:
    """The words of the server's language (``/settings language``): for what the channel sees."""
    return texts(await settings_service(bot).language(guild_id))


async def words_for(interaction: discord.Interaction, share: bool) -> Texts:
    """The words of an answer: the server's when it is shared with the channel, else the member's own."""
    if share:
        return await server_words(interaction.client, interaction.guild_id)
    return private_words(interaction)


async def message_words(interaction: discord.Interaction) -> Texts:
    """The words of the message a button is on, when it is shown again: the member's own on an ephemeral message
    (only they see it), the server's on a message the channel sees."""
    message = interaction.message
    return await words_for(interaction, share=message is None or not message.flags.ephemeral)
