"""`/privacy delete`: a player removes their stats and history from this server.

The command asks first, privately (in the member's language), with Delete / Cancel buttons (dynamic items
``privacy:<guild>:<user>:yes|no``, only the player who asked may press them). Deleting removes their results, ratings
(every season), combined rating, stored name; their matches and tournaments stay for the other players, anonymised (see
:mod:`bot.storage.stats` and :func:`bot.storage.tournaments.anonymise_player`), shown as "deleted player". Refused while
they have a match going on in the server, or are in (or organise) a tournament there that isn't over.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_
from bot.render.stats import command as slash_command
from bot.services import USER_ERRORS
from cogs.kit.items import RoutedButtons
from cogs.kit.messages import private_words, said
from cogs.kit.places import require_server
from cogs.kit.stats_ui import NO_MENTIONS, stats_service, tell

CONFIRM_TEXT = N_("Delete your stats and match history from this server? Your results, ratings (this season's and "
                  "past seasons'), leaderboard places and stored name are removed for good. Matches and tournaments "
                  "you played stay for the other players, with you shown as a deleted player. This can't be undone.")
DELETE, CANCEL = N_("Delete my data"), N_("Cancel")


class PrivacyButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"privacy:(?P<guild>\d+):(?P<user>\d+):(?P<answer>yes|no)"):
    def __init__(self, guild_id: int, user_id: int, answer: str, *, label: str | None = None) -> None:
        yes = answer == "yes"
        super().__init__(discord.ui.Button(
            label=label or (DELETE if yes else CANCEL), custom_id=f"privacy:{guild_id}:{user_id}:{answer}",
            style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary))
        self.guild_id, self.user_id, self.answer = guild_id, user_id, answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> PrivacyButton:
        return cls(int(match["guild"]), int(match["user"]), match["answer"])

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.user_id or interaction.guild_id != self.guild_id:
            _ = private_words(interaction)
            command = f"`{slash_command(_, 'privacy delete')}`"
            await tell(interaction, _("This isn't your question: use {command} yourself.", command=command))
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        _ = private_words(interaction)
        if self.answer == "no":
            await interaction.response.edit_message(content=_("Nothing was deleted."), view=None)
            return
        try:
            deleted = await stats_service(interaction.client).delete_player(self.guild_id, self.user_id)
        except USER_ERRORS as error:
            await interaction.response.edit_message(
                content=_("{refusal} Nothing was deleted.", refusal=said(error, interaction)), view=None,
                allowed_mentions=NO_MENTIONS)
            return
        if deleted.tournaments:
            done = _("Done: your stats and history on this server are deleted ({matches} and {tournaments} "
                     "anonymised).", matches=_.ngettext("{count} match", "{count} matches", deleted.matches),
                     tournaments=_.ngettext("{count} tournament", "{count} tournaments", deleted.tournaments))
        else:
            done = _.ngettext("Done: your stats and history on this server are deleted ({count} match anonymised).",
                              "Done: your stats and history on this server are deleted ({count} matches "
                              "anonymised).", deleted.matches)
        await interaction.response.edit_message(content=done, view=None)


def confirm_view(guild_id: int, user_id: int, say=None) -> discord.ui.View:
    """Delete / Cancel, in ``say``'s language (the member's; English by default)."""
    view = RoutedButtons()
    view.add_item(PrivacyButton(guild_id, user_id, "yes", label=say(DELETE) if say else None))
    view.add_item(PrivacyButton(guild_id, user_id, "no", label=say(CANCEL) if say else None))
    return view


class Privacy(commands.Cog):
    privacy = app_commands.Group(name="privacy", description="Your data on this server")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        """A server's data about its members: refused where the bot is no member."""
        return require_server(interaction, N_("Your data on a server"))

    @privacy.command(name="delete", description="Delete your stats and match history from this server")
    async def delete(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        try:
            await stats_service(self.bot).check_delete(interaction.guild_id, interaction.user.id)
        except USER_ERRORS as error:
            await tell(interaction, said(error, interaction))
            return
        _ = private_words(interaction)
        await interaction.response.send_message(_(CONFIRM_TEXT), view=confirm_view(interaction.guild_id,
                                                                                   interaction.user.id, _),
                                                ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(PrivacyButton)
    await bot.add_cog(Privacy(bot))
