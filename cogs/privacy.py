"""`/privacy delete`: a player removes their stats and history from this server.

The command asks first, privately, with Delete / Cancel buttons (dynamic items ``privacy:<guild>:<user>:yes|no``,
only the player who asked may press them). Deleting removes their results, ratings (every season), combined rating,
stored name; their matches and tournaments stay for the other players, anonymised (see :mod:`bot.storage.stats`
and :func:`bot.storage.tournaments.anonymise_player`), shown as "deleted player". Refused while they have a match
going on in the server, or are in (or organise) a tournament there that isn't over.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.services import USER_ERRORS
from cogs._stats_ui import NO_MENTIONS, stats_service, tell

CONFIRM_TEXT = ("Delete your stats and match history from this server? Your results, ratings (this season's and "
                "past seasons'), leaderboard places and stored name are removed for good. Matches and tournaments you "
                "played stay for the other players, with you shown as a deleted player. This can't be undone.")


class PrivacyButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"privacy:(?P<guild>\d+):(?P<user>\d+):(?P<answer>yes|no)"):
    def __init__(self, guild_id: int, user_id: int, answer: str) -> None:
        yes = answer == "yes"
        super().__init__(discord.ui.Button(
            label="Delete my data" if yes else "Cancel", custom_id=f"privacy:{guild_id}:{user_id}:{answer}",
            style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary))
        self.guild_id, self.user_id, self.answer = guild_id, user_id, answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> PrivacyButton:
        return cls(int(match["guild"]), int(match["user"]), match["answer"])

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.user_id or interaction.guild_id != self.guild_id:
            await tell(interaction, "This isn't your question: use `/privacy delete` yourself.")
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.answer == "no":
            await interaction.response.edit_message(content="Nothing was deleted.", view=None)
            return
        try:
            deleted = await stats_service(interaction.client).delete_player(self.guild_id, self.user_id)
        except USER_ERRORS as error:
            await interaction.response.edit_message(content=f"{error} Nothing was deleted.", view=None,
                                                    allowed_mentions=NO_MENTIONS)
            return
        matches = "1 match" if deleted.matches == 1 else f"{deleted.matches} matches"
        if deleted.tournaments:
            matches += " and " + ("1 tournament" if deleted.tournaments == 1 else f"{deleted.tournaments} tournaments")
        await interaction.response.edit_message(
            content=f"Done: your stats and history on this server are deleted ({matches} anonymised).", view=None)


def confirm_view(guild_id: int, user_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PrivacyButton(guild_id, user_id, "yes"))
    view.add_item(PrivacyButton(guild_id, user_id, "no"))
    return view


class Privacy(commands.Cog):
    privacy = app_commands.Group(name="privacy", description="Your data on this server", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @privacy.command(name="delete", description="Delete your stats and match history from this server")
    async def delete(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        try:
            await stats_service(self.bot).check_delete(interaction.guild_id, interaction.user.id)
        except USER_ERRORS as error:
            await tell(interaction, str(error))
            return
        await interaction.response.send_message(CONFIRM_TEXT, view=confirm_view(interaction.guild_id,
                                                                                interaction.user.id), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(PrivacyButton)
    await bot.add_cog(Privacy(bot))
