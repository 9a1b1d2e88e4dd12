"""`/leaderboard [game] [season]`: the server's ranked players of a game, or of every game together (the combined
board), this season or a past one, with ◀ / ▶ buttons to page through them.

The board answers publicly (it is something players share), in the server's language; an empty board is an
ephemeral hint instead, in the member's. The
numbers come from :meth:`~bot.services.stats.StatsService.leaderboard` (openskill ratings written when a match
finishes; the combined rating is explained in :mod:`bot.services.stats`); the embed, one short line per ranked
player that reads on a phone, from :func:`bot.render.stats.board`. Players still provisional (fewer games than the
minimum) are not ranked: the footer counts them. The page buttons are dynamic items whose custom id carries the whole
state, ``lb:<guild id>:<game>:<page>`` (this season) or ``lb:<guild id>:<game>:<page>:s<season>`` (a past one), so
they keep working after a restart; anyone may page, but only in the server the board belongs to.

A game played against the house for the server's chips (Casino War) is not rated: its board is its chips board,
beside the skill boards: the players by balance, with the net of their tables (:func:`bot.render.stats.chips_board`),
paged the same way.

``vs_bot``: a game the bot plays has a board of the matches against it (unrated): each player's record per level,
ranked by the strongest level beaten (:meth:`~bot.services.stats.StatsService.bot_board`), page buttons
``lb:<guild id>:<game>:<page>[:s<season>]:bot``.
"""

from __future__ import annotations

import math
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_, Texts
from bot.registry import game_names, registry
from bot.render.common import ENGLISH
from bot.render.stats import (
    COMBINED,
    board,
    board_footer,
    board_title,
    bot_board,
    bot_board_footer,
    chips_board,
    chips_footer,
    chips_title,
    empty_board,
    no_bot_games,
    season_name,
)
from bot.services import USER_ERRORS
from bot.services.stats import Board, BotBoard
from bot.storage.records import LeaderboardPage
from cogs.kit.choices import set_choices
from cogs.kit.items import RoutedButtons
from cogs.kit.messages import private_words, said
from cogs.kit.places import SERVER_ONLY, NotHere, bot_is_member, place_id
from cogs.kit.stats_ui import board_choices, message_words, server_words, stats_service, tell

LEADERBOARD_COLOUR = discord.Colour.gold()
DEFAULT_GAME = "airwar"
PER_PAGE = 10
PREVIOUS, NEXT = "◀", "▶"


def empty_text(board: LeaderboardPage, season: str | None = None, say: Texts = ENGLISH) -> str:
    return empty_board(board.min_games, board.unranked, season, say)


def past_season(shown: Board | BotBoard, say: Texts) -> str | None:
    """The shown season's name when it is a past one (``None``: the current season)."""
    return None if shown.current else season_name(shown.season, say)


def board_embed(shown: Board, say: Texts = ENGLISH) -> discord.Embed:
    page = shown.page
    surface = board(page, board_title(page.game, season_name(shown.season, say), shown.current, say), say)
    embed = discord.Embed(title=surface.title, description=surface.text, colour=LEADERBOARD_COLOUR)
    embed.set_footer(text=board_footer(page.game, page.min_games, page=page.page, pages=page.pages,
                                       unranked=page.unranked, current=shown.current, say=say))
    return embed


def board_view(shown: Board) -> discord.ui.View | None:
    """◀ / ▶ for a board of more than one page (disabled at the ends); ``None`` for a single page."""
    board = shown.page
    if board.pages <= 1:
        return None
    season = None if shown.current else shown.season.number
    view = RoutedButtons()
    view.add_item(PageButton(board.guild_id, board.game, max(1, board.page - 1), season, label=PREVIOUS,
                             disabled=board.page <= 1))
    view.add_item(PageButton(board.guild_id, board.game, min(board.pages, board.page + 1), season, label=NEXT,
                             disabled=board.page >= board.pages))
    return view


def bot_board_embed(shown: BotBoard, say: Texts = ENGLISH) -> discord.Embed:
    surface = bot_board(shown, say)
    embed = discord.Embed(title=surface.title, description=surface.text, colour=LEADERBOARD_COLOUR)
    embed.set_footer(text=bot_board_footer(shown.page, shown.pages, say))
    return embed


def bot_board_view(shown: BotBoard, guild_id: int) -> discord.ui.View | None:
    if shown.pages <= 1:
        return None
    season = None if shown.current else shown.season.number
    view = RoutedButtons()
    view.add_item(PageButton(guild_id, shown.game, max(1, shown.page - 1), season, label=PREVIOUS,
                             disabled=shown.page <= 1, bot=True))
    view.add_item(PageButton(guild_id, shown.game, min(shown.pages, shown.page + 1), season, label=NEXT,
                             disabled=shown.page >= shown.pages, bot=True))
    return view


def no_bot_games_text(game: str, season: str | None, say: Texts = ENGLISH) -> str:
    return no_bot_games(game, season, say)


def is_chips_board(game: str) -> bool:
    """The game's board is its chips board (a game played against the house is not rated)."""
    return game in game_names() and not registry().entry(game).plugin.flow.rated


async def chips_page(interaction: discord.Interaction, guild_id: int, game: str, page: int,
                     say: Texts = ENGLISH) -> tuple[discord.Embed, discord.ui.View | None] | None:
    """The chips board's page as an embed and its ◀ / ▶ (``None``: nobody has chips here yet)."""
    database = stats_service(interaction.client).db
    async with database.read() as conn:
        count = await database.chips.board_count(conn, guild_id)
        pages = max(1, math.ceil(count / PER_PAGE))
        page = min(max(1, page), pages)
        rows = await database.chips.board_rows(conn, guild_id, limit=PER_PAGE, offset=(page - 1) * PER_PAGE)
    if not rows:
        return None
    surface = chips_board(rows, chips_title(game, say), say)
    embed = discord.Embed(title=surface.title, description=surface.text, colour=LEADERBOARD_COLOUR)
    embed.set_footer(text=chips_footer(page, pages, say))
    view = None
    if pages > 1:
        view = RoutedButtons()
        view.add_item(PageButton(guild_id, game, max(1, page - 1), label=PREVIOUS, disabled=page <= 1))
        view.add_item(PageButton(guild_id, game, min(pages, page + 1), label=NEXT, disabled=page >= pages))
    return embed, view


NO_CHIPS = N_("Nobody has chips here yet: they come with a first seat at a table.")


async def load_board(interaction: discord.Interaction, guild_id: int, game: str, page: int,
                     season: int | None = None) -> Board:
    return await stats_service(interaction.client).leaderboard(guild_id, game, page=page, per_page=PER_PAGE,
                                                               season=season)


PAGE_TEMPLATE = r"lb:(?P<guild>\d+):(?P<game>[a-z]+):(?P<page>\d+)(?::s(?P<season>\d+))?(?P<bot>:bot)?"


class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=PAGE_TEMPLATE):
    """Shows page ``page`` of the guild's board for ``game`` (of season ``season``; ``None``: the current one) in
    place of the message's page; works after restarts."""

    def __init__(self, guild_id: int, game: str, page: int, season: int | None = None, *, label: str = NEXT,
                 disabled: bool = False, bot: bool = False) -> None:
        suffix = ("" if season is None else f":s{season}") + (":bot" if bot else "")
        super().__init__(
            discord.ui.Button(
                label=label,
                custom_id=f"lb:{guild_id}:{game}:{page}{suffix}",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
        self.guild_id = guild_id
        self.game = game
        self.page = page
        self.season = season
        self.bot = bot

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PageButton:
        season = None if match["season"] is None else int(match["season"])
        return cls(int(match["guild"]), match["game"], int(match["page"]), season, bot=match["bot"] is not None)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if place_id(interaction) != self.guild_id:
            _ = private_words(interaction)
            await interaction.response.send_message(_("This leaderboard belongs to another server."), ephemeral=True)
            return False
        if self.game not in (*game_names(), COMBINED):
            _ = private_words(interaction)
            await interaction.response.send_message(_("That leaderboard is no longer available."), ephemeral=True)
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        say = await message_words(interaction)
        if self.bot:
            try:
                against = await stats_service(interaction.client).bot_board(
                    self.guild_id, self.game, page=self.page, per_page=PER_PAGE, season=self.season)
            except USER_ERRORS as error:
                await tell(interaction, said(error, interaction))
                return
            if not against.rows:
                await interaction.response.edit_message(
                    content=no_bot_games_text(self.game, past_season(against, say), say), embed=None, view=None)
                return
            await interaction.response.edit_message(embed=bot_board_embed(against, say),
                                                    view=bot_board_view(against, self.guild_id))
            return
        if is_chips_board(self.game):
            shown = await chips_page(interaction, self.guild_id, self.game, self.page, say)
            if shown is None:
                await interaction.response.edit_message(content=say(NO_CHIPS), embed=None, view=None)
            else:
                await interaction.response.edit_message(embed=shown[0], view=shown[1])
            return
        try:
            shown = await load_board(interaction, self.guild_id, self.game, self.page, self.season)
        except USER_ERRORS as error:
            await tell(interaction, said(error, interaction))
            return
        if not shown.page.rows:  # the board was emptied meanwhile (a new season, deleted players): say so
            await interaction.response.edit_message(content=empty_text(shown.page, past_season(shown, say), say),
                                                    embed=None, view=None)
            return
        await interaction.response.edit_message(embed=board_embed(shown, say), view=board_view(shown))


class Leaderboard(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        set_choices(self.leaderboard, game=board_choices())

    @app_commands.command(name="leaderboard", description="This server's ranked players of a game, or of all games")
    @app_commands.describe(game="The game whose leaderboard to show, or all games together (default: Air War)",
                           season="A past season's board, by number (default: this season; see /season list)",
                           vs_bot="The board of practice matches against me, by level, instead")
    async def leaderboard(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None,
        season: app_commands.Range[int, 1] | None = None, vs_bot: bool = False,
    ) -> None:
        if interaction.guild_id is not None and not bot_is_member(interaction):
            raise NotHere(SERVER_ONLY, feature=N_("A server's leaderboard"))
        place = place_id(interaction)  # (a group DM's board ranks the games played there)
        chosen = game.value if game is not None else DEFAULT_GAME
        if vs_bot:
            await self.show_bot_board(interaction, place, chosen, season)
            return
        public = await server_words(self.bot, place)
        if is_chips_board(chosen) and season is None:
            chips = await chips_page(interaction, place, chosen, 1, public)
            if chips is None:
                await interaction.response.send_message(private_words(interaction)(NO_CHIPS), ephemeral=True)
            elif chips[1] is None:
                await interaction.response.send_message(embed=chips[0])
            else:
                await interaction.response.send_message(embed=chips[0], view=chips[1])
            return
        try:
            shown = await load_board(interaction, place, chosen, 1, season)
        except USER_ERRORS as error:
            await tell(interaction, said(error, interaction))
            return
        if not shown.page.rows:
            _ = private_words(interaction)
            await interaction.response.send_message(empty_text(shown.page, past_season(shown, _), _), ephemeral=True)
            return
        view = board_view(shown)
        if view is None:
            await interaction.response.send_message(embed=board_embed(shown, public))
        else:
            await interaction.response.send_message(embed=board_embed(shown, public), view=view)


    async def show_bot_board(self, interaction: discord.Interaction, guild_id: int, game: str,
                             season: int | None) -> None:
        try:
            shown = await stats_service(interaction.client).bot_board(guild_id, game, page=1, per_page=PER_PAGE,
                                                                      season=season)
        except USER_ERRORS as error:
            await tell(interaction, said(error, interaction))
            return
        if not shown.rows:
            _ = private_words(interaction)
            await interaction.response.send_message(no_bot_games_text(game, past_season(shown, _), _), ephemeral=True)
            return
        public = await server_words(self.bot, guild_id)
        view = bot_board_view(shown, guild_id)
        if view is None:
            await interaction.response.send_message(embed=bot_board_embed(shown, public))
        else:
            await interaction.response.send_message(embed=bot_board_embed(shown, public), view=view)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(PageButton)
    await bot.add_cog(Leaderboard(bot))
