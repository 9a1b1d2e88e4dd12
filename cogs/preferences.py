"""`/preferences panels [where]`: where a player's private panels open, in every game and on every server.

* ``dm`` (the default): one DM message per match, edited for each step, and the board's button in the match's
  thread opens the same panel there;
* ``here``: no DM at all; the board's button opens the panel as an ephemeral message in the match's thread.

Answered privately, in the member's language; without ``where`` it says what is set. A match under way follows a change
from its next step.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_
from bot.render.stats import command as slash_command
from bot.services import USER_ERRORS
from bot.services.preferences import PreferencesService
from cogs.kit.messages import private_words, said
from cogs.kit.stats_ui import tell

PLACES = [app_commands.Choice(name=N_("dm: one DM per match, edited for each step (default)"), value="dm"),
          app_commands.Choice(name=N_("here: in the match's thread, from the board's button; no DMs"), value="here")]
SAID = {
    "dm": N_("Your panels come by DM: one message per match, edited for each step. The board in the match's thread "
             "opens the same panel there too."),
    "here": N_("Your panels open here: press the board's button in the match's thread (only you see the panel). "
               "No DMs."),
}


class Preferences(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.service = PreferencesService(bot.db, clock=bot.clock)  # type: ignore[attr-defined]

    preferences = app_commands.Group(name="preferences", description="Your own choices, on every server")

    @preferences.command(name="panels", description="Where your private game panels open: by DM or in the match")
    @app_commands.describe(where="dm: one DM per match (default) · here: in the match's thread; leave out to see")
    @app_commands.choices(where=PLACES)
    async def panels(self, interaction: discord.Interaction, where: app_commands.Choice[str] | None = None) -> None:
        _ = private_words(interaction)
        try:
            if where is None:
                place = await self.service.panel_place(interaction.user.id)
                command = f"`{slash_command(_, 'preferences panels where')}:`"
                await tell(interaction, _("{place} Change it with {command}.", place=_(SAID[place]), command=command))
                return
            place = await self.service.set_panel_place(interaction.user.id, where.value)
        except USER_ERRORS as error:
            await tell(interaction, said(error, interaction))
            return
        await tell(interaction, _("Saved. {place} A match under way follows it from its next step.",
                                  place=_(SAID[place])))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Preferences(bot))
