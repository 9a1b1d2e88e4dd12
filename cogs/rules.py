"""`/rules` and `/help`: the players' rules texts, with buttons to switch between games."""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import game_names, registry
from bot.i18n import language_of, texts
from bot.match.ratings import DISPLAY_SCALE, DISPLAY_START, MIN_GAMES, Ratings
from bot.rules_text import rules_text
from cogs.kit.choices import set_choices
from cogs.kit.messages import private_words

RULES_COLOUR = discord.Colour.dark_teal()
#: Discord's limit on an embed's description (all of a message's embeds together: 6,000 characters)
DESCRIPTION_LIMIT = 4096


def games_help() -> str:
    """Each registered game's line of `/help`, from its plugin (a variant is named with its game)."""
    lines = []
    for plugin in registry().plugins:
        variants = [variant.title for variant in plugin.variants]
        title = f"**{plugin.title}**" + (f" (and {', '.join(variants)})" if variants else "")
        lines.append(f"{title}: {plugin.help}\n")
    return "".join(lines)


def ratings_help() -> str:
    """How ratings work, for `/help`: the displayed scale and, underneath, openskill's numbers."""
    start = Ratings().initial()
    return (f"**Ratings:** everyone starts at {DISPLAY_START}; a win raises your rating, a loss lowers it, never "
            "below 0. Each game has its own rating and All games one more, over every match; a rating is "
            f"provisional for its first {MIN_GAMES} games, then you are ranked on `/leaderboard`.\n"
            "-# Underneath is an openskill rating (Plackett-Luce): μ, your estimated skill "
            f"({start.mu:g} at first), and σ, how unsure that estimate still is ({start.sigma:.2f} at first). "
            f"The number shown is {DISPLAY_START} + {DISPLAY_SCALE:g} × (μ − 3σ), the ordinal: a cautious "
            "estimate that also rises as σ shrinks, so the first games move it most.\n")


def rules_embeds(game: str, language: str = "en") -> list[discord.Embed]:
    """A game's rules in ``language`` (the reader's: the answer is theirs alone): one embed, or more where the text
    is longer than an embed's description (a translation may be), cut between paragraphs."""
    _ = texts(language)
    text = rules_text(game, language)
    embeds = [discord.Embed(title=text.title if not embeds_so_far else None, description=part, colour=RULES_COLOUR)
              for embeds_so_far, part in enumerate(description_parts(text.body))]
    embeds[-1].set_footer(text=_("Use the buttons to read another game's rules."))
    return embeds


def description_parts(body: str, limit: int = DESCRIPTION_LIMIT) -> list[str]:
    """``body`` in as few parts of at most ``limit`` characters as its paragraphs allow."""
    parts: list[str] = []
    for paragraph in body.split("\n\n"):
        if parts and len(parts[-1]) + 2 + len(paragraph) <= limit:
            parts[-1] += "\n\n" + paragraph
        else:
            parts.append(paragraph[:limit])
    return parts


def rules_view(current: str, language: str = "en") -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for game in game_names():
        view.add_item(RulesButton(game, current=game == current, language=language))
    return view


class RulesButton(discord.ui.DynamicItem[discord.ui.Button], template=r"rules:(?P<game>[a-z]+)"):
    """Shows one game's rules in place of the message's current text; works after restarts."""

    def __init__(self, game: str, *, current: bool = False, language: str = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=rules_text(game, language).title,
                custom_id=f"rules:{game}",
                style=discord.ButtonStyle.primary if current else discord.ButtonStyle.secondary,
                disabled=current,
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> RulesButton:
        return cls(match["game"])

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if self.game in game_names():
            return True
        _ = private_words(interaction)
        await interaction.response.send_message(_("Those rules are no longer available."), ephemeral=True)
        return False

    async def callback(self, interaction: discord.Interaction) -> None:
        language = language_of(interaction.locale)
        await interaction.response.edit_message(embeds=rules_embeds(self.game, language),
                                                view=rules_view(self.game, language))


class Rules(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        set_choices(self.rules, game=[app_commands.Choice(name=rules_text(g).title, value=g) for g in game_names()])

    @app_commands.command(name="rules", description="Read the rules of a game")
    @app_commands.describe(game="The game whose rules to show")
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        language = language_of(interaction.locale)
        await interaction.response.send_message(
            embeds=rules_embeds(game.value, language), view=rules_view(game.value, language), ephemeral=True
        )

    @app_commands.command(name="help", description="What this bot does and how to start")
    async def help(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(
            title="Air War",
            description=(
                "Card games of the War family, played right here in Discord.\n\n"
                "**Games:** " + ", ".join(rules_text(g).title for g in game_names()) + ".\n\n"
                + games_help() +
                "**Rankings:** `/leaderboard` (every game, all games together, past seasons), `/stats`, "
                "`/history` (with match files to export), `/h2h`.\n"
                + ratings_help() +
                "**Tournaments:** `/tournament create`, then `/tournament start`, `/tournament status`, "
                "`/tournament bracket`, `/tournament history`; organisers: `/tournament pause`, "
                "`/tournament resume`, `/tournament disqualify`, `/tournament cancel`.\n"
                "**Server settings** (Manage Server): `/settings show`, `/settings timer`, `/settings pace`, "
                "`/settings warpace`, `/settings threads`, `/settings rules`, `/settings channels`, "
                "`/settings language` (the language of the server's public messages), `/settings newseason`. "
                "Past seasons: `/season list`.\n"
                "**Your data:** `/privacy delete` removes your stats and history from this server.\n"
                "**Your panels:** the board in a match's thread opens your private panel; `/preferences panels` "
                "picks `dm` (also one DM per match, edited each step; the default) or `here` (no DMs).\n"
                "**Read the rules:** `/rules` and pick a game, or press a button below.\n"
            ),
            colour=RULES_COLOUR,
        )
        await interaction.response.send_message(embed=embed, view=rules_view(""), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(RulesButton)
    await bot.add_cog(Rules(bot))
