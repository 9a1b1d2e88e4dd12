"""`/preferences panels [where]`: where a player's private panels open, in every game and on every server.

* ``dm`` (the default): one DM message per match, edited for each step, and the board's button in the match's
  thread opens the same panel there;
* ``here``: no DM at all; the board's button opens the panel as an ephemeral message in the match's thread.

Answered privately; without ``where`` it says what is set. A match under way follows a change from its next step.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.services import USER_ERRORS
from bot.services.preferences import PreferencesService
from cogs._stats_ui import tell

PLACES = [app_commands.Choice(name="dm: one DM per match, edited for each step (default)", value="dm"),
          app_commands.Choice(name="here: in the match's thread, from the board's button; no DMs", value="here")]
SAID = {
    "dm": ("Your panels come by DM: one message per match, edited for each step. The board in the match's thread "
           "opens the same panel there too."),
    "here": ("Your panels open here: press the board's button in the match's thread (only you see the panel). "
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
        try:
            if where is None:
                place = await self.service.panel_place(interaction.user.id)
                await tell(interaction, SAID[place] + " Change it with `/preferences panels where:`.")
                return
            place = await self.service.set_panel_place(interaction.user.id, where.value)
        except USER_ERRORS as error:
            await tell(interaction, str(error))
            return
        await tell(interaction, f"Saved. {SAID[place]} A match under way follows it from its next step.")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Preferences(bot))
