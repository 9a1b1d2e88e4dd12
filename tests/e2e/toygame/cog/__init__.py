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
from bot.services import USER_ERRORS
from cogs.kit.match_cog import MatchCog
from cogs.kit.messages import private_words, said
from cogs.kit.messages import tell_privately as tell
from cogs.kit.stats_ui import settings_service
from cogs.settings import NEEDS_MANAGE, may_manage

from .. import ROUND_LINES, render
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

    @highcard.command(name="rounds", description="Whether each round gets a line in the match's thread")
    @app_commands.describe(shown="on (the default) or off: the thread then shows only the result")
    @app_commands.choices(shown=[app_commands.Choice(name=app_commands.locale_str(value, verbatim=True), value=value)
                                 for value in ROUND_LINES.choices])
    async def rounds(self, interaction: discord.Interaction, shown: app_commands.Choice[str]) -> None:
        """The server's round lines (for members who may manage the server), stored as every game's settings are."""
        _ = private_words(interaction)
        assert interaction.guild_id is not None
        if not may_manage(interaction):
            await tell(interaction, _(NEEDS_MANAGE))
            return
        try:
            await settings_service(self.bot).set_game_setting(interaction.guild_id, self.game, ROUND_LINES.key,
                                                              shown.value)
        except USER_ERRORS as error:
            await tell(interaction, _("{refusal} Nothing was changed.", refusal=said(error, interaction)))
            return
        await tell(interaction, f"{_(ROUND_LINES.label)}: {shown.value}")

    def status_text(self, status: MatchStatus, *, say: Texts = ENGLISH) -> str:
        return render.status(status.view, say)


async def setup(bot: commands.Bot) -> None:
    bot.route_clicks(*BUTTONS.items)
    await bot.add_cog(HighCardCog(bot))
