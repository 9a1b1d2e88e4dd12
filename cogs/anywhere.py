"""Playing where the bot is no member (a user's install of the app: DMs, group DMs, servers that did not add it).

Every interaction's token is heard here (:meth:`cogs.kit.tokens.InteractionDelivery.heard`): there it is the only way
the bot can show anything, so a channel's newest token is what its matches are shown with, and a click in a channel
whose matches were paused (their tokens ran out) resumes them. A paused match's table has a **Continue** button
(:class:`ContinueButton`): pressing it is such a click, and nothing more.
"""

from __future__ import annotations

import re

import discord
from discord.ext import commands

from cogs.kit.tokens import CONTINUE_PREFIX, interaction_delivery


class ContinueButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"{CONTINUE_PREFIX}(?P<match>[0-9]{{1,19}})"):
    """A paused match's Continue: the click's fresh token resumes the match (heard by :class:`Anywhere`); the click
    itself only acknowledges (the table changes as the match resumes)."""

    def __init__(self, match_id: int) -> None:
        super().__init__(discord.ui.Button(label="Continue", custom_id=f"{CONTINUE_PREFIX}{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ContinueButton:
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction_delivery(interaction.client).heard(interaction)
        await interaction.response.defer()


class Anywhere(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.delivery = interaction_delivery(bot)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.delivery.heard(interaction)

    async def cog_unload(self) -> None:
        await self.delivery.close()


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(ContinueButton)
    await bot.add_cog(Anywhere(bot))
