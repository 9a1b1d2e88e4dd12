"""`/leaderboard [game]`: the server's ranked players of a game, with ◀ / ▶ buttons to page through them.

The board answers publicly (it is something players share); an empty board is an ephemeral hint instead. The
numbers come from :meth:`~bot.services.matches.MatchService.leaderboard` (openskill ratings written when a
match finishes) and the table from :func:`bot.render.airwar.leaderboard_page`. The page buttons are dynamic
items whose custom id carries the whole state, ``lb:<guild id>:<game>:<page>``, so they keep working after a
restart; anyone may page, but only in the server the board belongs to.
"""

from __future__ import annotations

import dataclasses
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.engines import game_class
from bot.render.airwar import leaderboard_page
from bot.services.matches import SUPPORTED_GAMES
from bot.storage.records import LeaderboardPage

LEADERBOARD_COLOUR = discord.Colour.gold()
DEFAULT_GAME = "airwar"
PER_PAGE = 10
PREVIOUS, NEXT = "◀", "▶"


def game_title(game: str) -> str:
    return game_class(game).title


def empty_text(board: LeaderboardPage) -> str:
    games = "game" if board.min_games == 1 else "games"
    text = f"No ranked players yet: play {board.min_games} {games} to be ranked."
    if board.unranked:
        who = "1 player has" if board.unranked == 1 else f"{board.unranked} players have"
        text += f"\n{who} played fewer than {board.min_games} {games} so far."
    return text


def board_embed(board: LeaderboardPage) -> discord.Embed:
    surface = leaderboard_page(board, title=f"{game_title(board.game)} leaderboard")
    embed = discord.Embed(title=surface.title, description=surface.text, colour=LEADERBOARD_COLOUR)
    games = "game" if board.min_games == 1 else "games"
    embed.set_footer(text=f"Players are ranked after {board.min_games} {games}. "
                          "Rating: openskill ordinal (μ − 3σ), higher is better.")
    return embed


def board_view(board: LeaderboardPage) -> discord.ui.View | None:
    """◀ / ▶ for a board of more than one page (disabled at the ends); ``None`` for a single page."""
    if board.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(board.guild_id, board.game, max(1, board.page - 1), label=PREVIOUS,
                             disabled=board.page <= 1))
    view.add_item(PageButton(board.guild_id, board.game, min(board.pages, board.page + 1), label=NEXT,
                             disabled=board.page >= board.pages))
    return view


async def named(bot: commands.Bot, board: LeaderboardPage, interaction: discord.Interaction) -> LeaderboardPage:
    """The page with a display name on every row: the stored one (``remember_player``), else the member's.

    The member who asked is known from the interaction: their current display name is used and remembered
    (the newest name wins). Others without a stored name fall back to the cached member, if any, and
    otherwise to the renderer's ``user <id>``."""
    me = interaction.user
    rows = []
    for row in board.rows:
        name = row.display_name
        if row.user_id == me.id and isinstance(me, discord.Member):
            if name != me.display_name:
                await bot.matches.remember_player(board.guild_id, me.id, me.display_name)  # type: ignore[attr-defined]
            name = me.display_name
        elif not name and interaction.guild is not None:
            member = interaction.guild.get_member(row.user_id)
            name = member.display_name if member is not None else None
        rows.append(row if name == row.display_name else dataclasses.replace(row, display_name=name))
    return dataclasses.replace(board, rows=tuple(rows))


async def load_board(interaction: discord.Interaction, guild_id: int, game: str, page: int) -> LeaderboardPage:
    bot = interaction.client
    board = await bot.matches.leaderboard(guild_id, game, page=page, per_page=PER_PAGE)  # type: ignore[attr-defined]
    return await named(bot, board, interaction)  # type: ignore[arg-type]


PAGE_TEMPLATE = r"lb:(?P<guild>\d+):(?P<game>[a-z]+):(?P<page>\d+)"


class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=PAGE_TEMPLATE):
    """Shows page ``page`` of the guild's board for ``game`` in place of the message's page; works after restarts."""

    def __init__(self, guild_id: int, game: str, page: int, *, label: str = NEXT, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                custom_id=f"lb:{guild_id}:{game}:{page}",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
        self.guild_id = guild_id
        self.game = game
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PageButton:
        return cls(int(match["guild"]), match["game"], int(match["page"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None or interaction.guild_id != self.guild_id:
            await interaction.response.send_message("This leaderboard belongs to another server.", ephemeral=True)
            return False
        if self.game not in SUPPORTED_GAMES:
            await interaction.response.send_message("That leaderboard is no longer available.", ephemeral=True)
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        board = await load_board(interaction, self.guild_id, self.game, self.page)
        if not board.rows:  # cannot happen (ratings are never removed); show the hint rather than a blank table
            await interaction.response.edit_message(content=empty_text(board), embed=None, view=None)
            return
        await interaction.response.edit_message(embed=board_embed(board), view=board_view(board))


class Leaderboard(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="This server's ranked players of a game")
    @app_commands.describe(game="The game whose leaderboard to show (default: Air War)")
    @app_commands.choices(game=[app_commands.Choice(name=game_title(g), value=g) for g in SUPPORTED_GAMES])
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        assert interaction.guild_id is not None  # guild_only
        chosen = game.value if game is not None else DEFAULT_GAME
        board = await load_board(interaction, interaction.guild_id, chosen, 1)
        if not board.rows:
            await interaction.response.send_message(empty_text(board), ephemeral=True)
            return
        view = board_view(board)
        if view is None:
            await interaction.response.send_message(embed=board_embed(board))
        else:
            await interaction.response.send_message(embed=board_embed(board), view=view)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(PageButton)
    await bot.add_cog(Leaderboard(bot))
