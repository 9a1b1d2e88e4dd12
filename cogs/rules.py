"""`/rules` and `/help`: the players' rules texts, with buttons to switch between games, and what the bot does; both
answer only the member who asks, in their language."""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import game_class, game_names, registry
from bot.i18n import Texts, language_of, texts
from bot.match.ratings import DISPLAY_SCALE, DISPLAY_START, MIN_GAMES, Ratings
from bot.render.common import ENGLISH
from bot.render.stats import command
from bot.rules_text import rules_text
from cogs.kit.choices import set_choices
from cogs.kit.items import RoutedButtons
from cogs.kit.messages import private_words

RULES_COLOUR = discord.Colour.dark_teal()
#: Discord's limit on an embed's description (all of a message's embeds together: 6,000 characters)
DESCRIPTION_LIMIT = 4096


def games_help(say: Texts = ENGLISH) -> str:
    """Each registered game's line of `/help`, from its plugin (a variant is named with its game)."""
    _ = say
    lines = []
    for plugin in registry().plugins:
        variants = [_(variant.title) for variant in plugin.variants]
        title = (_("**{game}** (and {variants})", game=_(plugin.title), variants=", ".join(variants)) if variants
                 else f"**{_(plugin.title)}**")
        lines.append(f"{title}: {_(plugin.help)}\n")
    return "".join(lines)


def ratings_help(say: Texts = ENGLISH) -> str:
    """How ratings work, for `/help`: the displayed scale and, underneath, openskill's numbers."""
    _ = say
    start = Ratings().initial()
    leaderboard = f"`{command(say, 'leaderboard')}`"
    return (_.ngettext("**Ratings:** everyone starts at {start}; a win raises your rating, a loss lowers it, never "
                       "below 0. Each game has its own rating and All games one more, over every match; a rating is "
                       "provisional for its first game, then you are ranked on {leaderboard}.",
                       "**Ratings:** everyone starts at {start}; a win raises your rating, a loss lowers it, never "
                       "below 0. Each game has its own rating and All games one more, over every match; a rating is "
                       "provisional for its first {count} games, then you are ranked on {leaderboard}.", MIN_GAMES,
                       start=DISPLAY_START, leaderboard=leaderboard) + "\n"
            + _("-# Underneath is an openskill rating (Plackett-Luce): μ, your estimated skill ({mu} at first), and "
                "σ, how unsure that estimate still is ({sigma} at first). The number shown is {start} + {scale} × "
                "(μ − 3σ), the ordinal: a cautious estimate that also rises as σ shrinks, so the first games move it "
                "most.", mu=_.number(round(start.mu, 2)), sigma=_.number(start.sigma, digits=2), start=DISPLAY_START,
                scale=_.number(DISPLAY_SCALE)) + "\n")


def help_text(say: Texts = ENGLISH) -> str:
    """`/help`'s text: the games, the commands, how ratings work."""
    _ = say

    def c(*paths: str) -> str:
        return ", ".join(f"`{command(say, path)}`" for path in paths)

    games = ", ".join(_(game_class(game).title) for game in game_names())
    dm, here = _.pgettext("panel place", "dm"), _.pgettext("panel place", "here")
    dm, here = f"`{dm}`", f"`{here}`"
    return (_("Card games of the War family, played right here in Discord.") + "\n\n"
            + _("**Games:** {games}.", games=games) + "\n\n"
            + games_help(say)
            + _("**Rankings:** {leaderboard} (every game, all games together, past seasons), {stats}, {history} (with "
                "match files to export), {h2h}.", leaderboard=c("leaderboard"), stats=c("stats"),
                history=c("history"), h2h=c("h2h")) + "\n"
            + ratings_help(say)
            + _("**Tournaments:** {create}, then {commands}; organisers: {organisers}.",
                create=c("tournament create"),
                commands=c("tournament start", "tournament status", "tournament bracket", "tournament history"),
                organisers=c("tournament pause", "tournament resume", "tournament disqualify",
                             "tournament cancel")) + "\n"
            + _("**Server settings** (Manage Server): {commands}, {language} (the language of the server's public "
                "messages), {newseason}. Past seasons: {seasons}.",
                commands=c("settings show", "settings timer", "settings pace", "settings warpace", "settings threads",
                           "settings rules", "settings channels"),
                language=c("settings language"), newseason=c("settings newseason"), seasons=c("season list"))
            + "\n"
            + _("**Your data:** {command} removes your stats and history from this server.",
                command=c("privacy delete")) + "\n"
            + _("**Your panels:** the board in a match's thread opens your private panel; {command} picks {dm} (also "
                "one DM per match, edited each step; the default) or {here} (no DMs).", command=c("preferences panels"),
                dm=dm, here=here) + "\n"
            + _("**Read the rules:** {command} and pick a game, or press a button below.", command=c("rules")) + "\n")


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
    view = RoutedButtons()
    for game in game_names():
        view.add_item(RulesButton(game, current=game == current, language=language))
    return view


class RulesButton(discord.ui.DynamicItem[discord.ui.Button], template=r"rules:(?P<game>[a-z]+)"):
    """Shows one game's rules in place of the message's current text; works after restarts."""

    def __init__(self, game: str, *, current: bool = False, language: str = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=texts(language)(game_class(game).title),  # (the rules text's title, also in the catalogues)
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
        language = language_of(interaction.locale)
        _ = texts(language)
        embed = discord.Embed(title=_("Air War"), description=help_text(_), colour=RULES_COLOUR)
        await interaction.response.send_message(embed=embed, view=rules_view("", language), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(RulesButton)
    await bot.add_cog(Rules(bot))
