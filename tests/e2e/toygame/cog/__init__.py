"""`/highcard challenge|forfeit|status`: High Card's cog, on the kit (its commands here, its events in
:mod:`.presenter`, its buttons in :mod:`.ui`, its words in the game's render and catalogue)."""

from __future__ import annotations

from types import MappingProxyType

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import Texts
from bot.match.kernel import MatchKernel, MatchStatus
from bot.render.common import ENGLISH
from cogs.kit.match_cog import MatchCog

from .. import render
from .presenter import HighCardPresenter
from .ui import BUTTONS, COG_NAME


class HighCardCog(MatchCog, name=COG_NAME):
    game = "highcard"
    presenter_class = HighCardPresenter
    buttons = BUTTONS
    panel_actions = MappingProxyType({"pick:": MatchKernel.pick})

    highcard = app_commands.Group(name="highcard", description="High Card: three secret picks", guild_only=True)

    @highcard.command(name="challenge", description="Challenge someone to High Card")
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member | discord.User) -> None:
        await self.start_challenge(interaction, opponent)

    @highcard.command(name="forfeit", description="Give up your High Card match")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        await self.ask_forfeit(interaction)

    @highcard.command(name="status", description="Your High Card match")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.show_status(interaction)

    def status_text(self, status: MatchStatus, *, say: Texts = ENGLISH) -> str:
        return render.status(status.view, say)


async def setup(bot: commands.Bot) -> None:
    bot.route_clicks(*BUTTONS.items)
    await bot.add_cog(HighCardCog(bot))
