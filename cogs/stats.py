"""`/stats [player] [game]`, `/history [player]` and `/h2h player [opponent] [game]`: a server's records.

Each answers only the member who asks (ephemeral, in their language) unless they set ``share``, which posts it for
the channel (in the server's language).
`/stats` answers with the numbers and a chart of the rating history; `/history` lists finished matches, newest
first, five to a page, each linking the thread (or channel) it was played in, with ◀ / ▶ and an Export button per
match that sends its match file (the match's complete record, which ``python -m bot replay`` plays to the same
result) privately. The buttons are dynamic items (``hist:<guild>:<user>:<page>``, ``hx:<guild>:<match>``): they
keep working after a restart and on a private answer; anyone in the server may page or export (a finished match
hides nothing), nobody from another server.
"""

from __future__ import annotations

import io
import json
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_, Texts
from bot.render import stats as render
from bot.render.common import ENGLISH
from bot.services import USER_ERRORS
from bot.services.stats import HistoryPage
from cogs.kit.choices import set_choices
from cogs.kit.items import RoutedButtons
from cogs.kit.messages import private_words, said
from cogs.kit.places import place_id
from cogs.kit.stats_ui import NO_MENTIONS, game_choices, message_words, stats_service, tell, words_for

STATS_COLOUR = discord.Colour.blurple()
HISTORY_PER_PAGE = 5
PREVIOUS, NEXT = "◀", "▶"
SHARE_HELP = "Post the answer for everyone here (default: only you see it)"


def _plain_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


async def answer(interaction: discord.Interaction, share: bool, **message) -> None:
    """The command's answer: ephemeral unless the member asked to share it."""
    await interaction.response.send_message(ephemeral=not share, allowed_mentions=NO_MENTIONS, **message)


def history_message(page: HistoryPage, say: Texts = ENGLISH) -> tuple[discord.Embed, discord.ui.View | None]:
    _ = say
    surface = render.history(page, render.player(page.user_id, say), say)
    embed = discord.Embed(title=surface.title, description=surface.text, colour=STATS_COLOUR)
    if not page.matches:
        return embed, None
    view = RoutedButtons()
    if page.pages > 1:
        view.add_item(HistoryPageButton(page.guild_id, page.user_id, max(1, page.page - 1), label=PREVIOUS,
                                        disabled=page.page <= 1))
        view.add_item(HistoryPageButton(page.guild_id, page.user_id, min(page.pages, page.page + 1), label=NEXT,
                                        disabled=page.page >= page.pages))
    first = (page.page - 1) * page.per_page + 1
    for index, match in enumerate(page.matches, first):
        view.add_item(ExportButton(page.guild_id, match.match_id, label=_("Export {number}", number=index)))
    return embed, view


def export_text(match_id: int, game: str, say: Texts = ENGLISH) -> str:
    """What the match file is, in a player's words, and one line for those who run the bot."""
    _ = say
    replay = f"`python -m bot replay match-{match_id}.json`"
    return (_("💾 The complete record of match {match} ({game}): its rules, the seed that dealt the cards and every "
              "move in order. Keep it to replay the match move by move, or to check its result: anyone with the file "
              "gets the same game again.", match=match_id, game=render.game_title(game, say)) + "\n"
            + _("-# Running the bot? {command} plays it.", command=replay))


class HistoryPageButton(discord.ui.DynamicItem[discord.ui.Button], template=r"hist:(?P<guild>\d+):(?P<user>\d+):"
                                                                             r"(?P<page>\d+)"):
    def __init__(self, guild_id: int, user_id: int, page: int, *, label: str = NEXT, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=f"hist:{guild_id}:{user_id}:{page}",
                                           style=discord.ButtonStyle.secondary, disabled=disabled, row=0))
        self.guild_id, self.user_id, self.page = guild_id, user_id, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> HistoryPageButton:
        return cls(int(match["guild"]), int(match["user"]), int(match["page"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if place_id(interaction) != self.guild_id:
            _ = private_words(interaction)
            await tell(interaction, _("This history belongs to another server."))
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        page = await stats_service(interaction.client).history(self.guild_id, self.user_id, self.page,
                                                               HISTORY_PER_PAGE)
        embed, view = history_message(page, await message_words(interaction))
        await interaction.response.edit_message(embed=embed, view=view, allowed_mentions=NO_MENTIONS)


class ExportButton(discord.ui.DynamicItem[discord.ui.Button], template=r"hx:(?P<guild>\d+):(?P<match>\d+)"):
    """Sends the match file of a finished match of this server, privately."""

    def __init__(self, guild_id: int, match_id: int, *, label: str = N_("Export")) -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=f"hx:{guild_id}:{match_id}",
                                           style=discord.ButtonStyle.primary, emoji="💾", row=1))
        self.guild_id, self.match_id = guild_id, match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ExportButton:
        return cls(int(match["guild"]), int(match["match"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if place_id(interaction) != self.guild_id:
            _ = private_words(interaction)
            await tell(interaction, _("This match belongs to another server."))
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        try:
            game = await stats_service(bot).exportable(self.guild_id, self.match_id)
            data = await bot.service_for(game).export(self.match_id)
        except USER_ERRORS as error:
            await tell(interaction, said(error, interaction))
            return
        text = json.dumps(data, indent=1) + "\n"
        file = discord.File(io.BytesIO(text.encode()), filename=f"match-{self.match_id}.json")
        await interaction.response.send_message(export_text(self.match_id, game, private_words(interaction)),
                                                file=file, ephemeral=True)


class Stats(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        set_choices(self.stats, game=game_choices())
        set_choices(self.h2h, game=game_choices())

    @property
    def service(self):
        return stats_service(self.bot)

    @app_commands.command(name="stats", description="A player's record, streaks and rating here")
    @app_commands.describe(player="Whose stats (default: yours)", game="One game (default: every game together)",
                           share=SHARE_HELP)
    async def stats(self, interaction: discord.Interaction, player: discord.Member | discord.User | None = None,
                    game: app_commands.Choice[str] | None = None, share: bool = False) -> None:
        who = player or interaction.user
        here = place_id(interaction)
        try:
            data = await self.service.player_stats(here, who.id, game and game.value)
            places = await self.service.records_by_place(who.id, game and game.value)
        except USER_ERRORS as error:
            await tell(interaction, said(error, interaction))
            return
        say = await words_for(interaction, share)
        surface = render.stats(data, who.mention, say)
        servers = {record.place: guild.name for record in places if (guild := self.bot.get_guild(record.place))}
        everywhere = render.everywhere(places, here, servers, say)
        text = f"{surface.text}\n\n{everywhere}" if everywhere else surface.text
        embed = discord.Embed(title=surface.title, description=text, colour=STATS_COLOUR)
        picture = render.rating_chart(data, _plain_name(who), say) if data.games else None
        if picture is None:
            await answer(interaction, share, embed=embed)
            return
        embed.set_image(url=f"attachment://{picture.filename}")
        file = discord.File(io.BytesIO(picture.png), filename=picture.filename, description=picture.alt)
        await answer(interaction, share, embed=embed, file=file)

    @app_commands.command(name="history", description="A player's finished matches here, newest first")
    @app_commands.describe(player="Whose matches (default: yours)", share=SHARE_HELP)
    async def history(self, interaction: discord.Interaction, player: discord.Member | discord.User | None = None,
                      share: bool = False) -> None:
        who = player or interaction.user
        page = await self.service.history(place_id(interaction), who.id, 1, HISTORY_PER_PAGE)
        say = await words_for(interaction, share)
        if not page.total:
            await answer(interaction, share, content=render.history(page, who.mention, say).text)
            return
        embed, view = history_message(page, say)
        await answer(interaction, share, embed=embed, **({} if view is None else {"view": view}))

    @app_commands.command(name="h2h", description="Two players' matches against each other here")
    @app_commands.describe(player="One player", opponent="The other (default: you)",
                           game="One game (default: every game)", share=SHARE_HELP)
    async def h2h(self, interaction: discord.Interaction, player: discord.Member | discord.User,
                  opponent: discord.Member | discord.User | None = None,
                  game: app_commands.Choice[str] | None = None, share: bool = False) -> None:
        other = opponent or interaction.user
        try:
            data = await self.service.head_to_head(place_id(interaction), player.id, other.id, game and game.value)
        except USER_ERRORS as error:
            await tell(interaction, said(error, interaction))
            return
        surface = render.head_to_head(data, await words_for(interaction, share))
        embed = discord.Embed(title=surface.title, description=surface.text, colour=STATS_COLOUR)
        await answer(interaction, share, embed=embed)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(HistoryPageButton, ExportButton)
    await bot.add_cog(Stats(bot))
