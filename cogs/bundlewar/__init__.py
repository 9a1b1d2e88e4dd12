"""`/bundlewar challenge|lobby|forfeit|status`: Bundle War on the kit's match cog (the buttons, the panels, timers,
restarts, lobbies and the result are every game's); this module holds its commands and words (the status command's
in the user's language)."""

from __future__ import annotations

from types import MappingProxyType

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.bundlewar import render
from bot.games.bundlewar.flow import GAME
from bot.i18n import Texts
from bot.match.kernel import MatchKernel, MatchStatus
from bot.render.common import ENGLISH
from bot.services.settings import SettingsService
from cogs.bundlewar.presenter import BundleWarPresenter
from cogs.bundlewar.ui import BUTTONS, COG_NAME
from cogs.kit.match_cog import MatchCog, PanelCall
from cogs.kit.match_common import mentions


class BundleWarCog(MatchCog, name=COG_NAME):
    game = GAME
    presenter_class = BundleWarPresenter
    buttons = BUTTONS
    panel_actions = MappingProxyType({"play": MatchKernel.pick, "steal:": MatchKernel.pick, "top:": MatchKernel.pick})

    bundlewar = app_commands.Group(name="bundlewar", description="Bundle War: War with face-up piles you can steal")

    def _panel_call(self, key: str) -> tuple[PanelCall, tuple[str, ...]]:
        return MatchKernel.pick, (key,)  # every panel button picks its key

    @bundlewar.command(name="challenge", description="Challenge someone to Bundle War")
    @app_commands.describe(opponent="Who to challenge", small="A short game: 32 cards and two jokers")
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member | discord.User,
                        small: bool = False) -> None:
        await self.start_challenge(interaction, opponent, rules={"pack": 32} if small else {})

    @bundlewar.command(name="lobby", description="Open a game of Bundle War for 2-4 players that anyone here can join")
    @app_commands.describe(small="A short game: 32 cards and two jokers")
    async def lobby(self, interaction: discord.Interaction, small: bool = False) -> None:
        if await self.refuse_channel(interaction):
            return
        server = await self.server_for_start(interaction, self.service.check_player(interaction.user.id))
        if server is None:
            return
        rules = SettingsService.rules_from(server, GAME, {"pack": 32} if small else None)
        await self.issue_lobby(interaction, game=GAME, rules=rules, pace=None)

    @bundlewar.command(name="forfeit", description="Give up your Bundle War game (the others play on, or win)")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        await self.ask_forfeit(interaction)

    @bundlewar.command(name="status", description="Your Bundle War game: the piles and the card you look at")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.show_status(interaction)

    def status_text(self, status: MatchStatus, *, say: Texts = ENGLISH) -> str:
        return render.status(status.view, mentions(status.match), say=say)


async def setup(bot: commands.Bot) -> None:
    bot.route_clicks(*BUTTONS.items)
    await bot.add_cog(BundleWarCog(bot))
