"""`/rules` and `/help`: the players' rules texts, with buttons to switch between games, and what the bot does (a
short overview, then a page per game -- how to start and play it -- and per topic, picked from a menu); both answer
only the member who asks, in their language, and change their message in place."""

from __future__ import annotations

import functools
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.howto import how_to, start_command
from bot.i18n import N_, Texts, language_of, texts
from bot.match.ratings import DISPLAY_START, MIN_GAMES
from bot.registry import game_class, game_names, registry
from bot.render.common import ENGLISH, clamp_line, join_words
from bot.render.stats import command
from bot.rules_text import rules_text
from cogs.kit.choices import set_choices
from cogs.kit.items import RoutedButtons
from cogs.kit.messages import private_words

RULES_COLOUR = discord.Colour.dark_teal()
#: Discord's limit on an embed's description (all of a message's embeds together: 6,000 characters)
DESCRIPTION_LIMIT = 4096


#: ``/help``'s pages beside the overview and the games' (select values), with their titles
TOPICS = {"rankings": N_("Rankings and ratings"), "tournaments": N_("Tournaments"),
          "settings": N_("Settings, your data and panels")}
OVERVIEW = "overview"
#: Discord's limit on a select option's label
OPTION_LIMIT = 100


def command_list(say: Texts, *paths: str) -> str:
    """The commands, as the reader's client names them, in backticks and a comma apart."""
    return ", ".join(f"`{command(say, path)}`" for path in paths)


def overview_text(say: Texts = ENGLISH) -> str:
    """``/help``'s first page: what the bot is, each game in a line with the command that starts it, how to start."""
    _ = say
    lines = [_("Card games of the War family, played right here in Discord."), ""]
    for plugin in registry().plugins:
        title = f"**{_(plugin.title)}**"
        if plugin.variants:
            title = _("{game} (and {variants})", game=title,
                      variants=join_words([_(variant.title) for variant in plugin.variants], say))
        lines.append(f"{title} · {start_command(plugin.name, say)}")
        tagline = rules_text(plugin.name, say.language).tagline
        if tagline:
            lines.append(f"-# {tagline}")
    lines += ["", _("**How to start:** a game's command above, then pick your opponent, who presses **{accept}** "
                    "(at a table or a lobby, the others press **{join}**). Pick a game below to see how it is "
                    "played; {rules} has its full rules.",
                    accept=_("Accept"), join=_("Join"), rules=f"`{command(say, 'rules')}`")]
    return "\n".join(lines)


def game_help(game: str, say: Texts = ENGLISH) -> str:
    """A game's ``/help`` page: its summary, how to start and play it, where its full rules are."""
    _ = say
    tagline = rules_text(game, say.language).tagline
    return ((f"*{tagline}*\n\n" if tagline else "") + how_to(game, say) + "\n\n-# "
            + _("Full rules: {command}", command=f"`{command(say, 'rules')}`"))


def ratings_help(say: Texts = ENGLISH) -> str:
    """How ratings work, for `/help`: the displayed scale and, in small print, what is behind it."""
    _ = say
    leaderboard = f"`{command(say, 'leaderboard')}`"
    return (_.ngettext("**Ratings:** everyone starts at {start}; a win raises your rating, a loss lowers it, never "
                       "below 0. Each game has its own rating and All games one more, over every match; a rating is "
                       "provisional for its first game, then you are ranked on {leaderboard}.",
                       "**Ratings:** everyone starts at {start}; a win raises your rating, a loss lowers it, never "
                       "below 0. Each game has its own rating and All games one more, over every match; a rating is "
                       "provisional for its first {count} games, then you are ranked on {leaderboard}.", MIN_GAMES,
                       start=DISPLAY_START, leaderboard=leaderboard) + "\n"
            + _("-# Behind the number: openskill, a rating method many online games use. It keeps two things for "
                "you, your estimated skill and how sure it is of it; the number shown is a cautious reading of both, "
                "so it also rises as the estimate grows surer, and your first games move it most."))


def topic_help(topic: str, say: Texts = ENGLISH) -> str:
    """One of ``/help``'s pages beside the games' (:data:`TOPICS`)."""
    _ = say
    c = functools.partial(command_list, say)
    if topic == "rankings":
        return (_("**Rankings:** {leaderboard} (every game, all games together, past seasons), {stats}, {history} "
                  "(with match files to export), {h2h}.", leaderboard=c("leaderboard"), stats=c("stats"),
                  history=c("history"), h2h=c("h2h")) + "\n\n" + ratings_help(say))
    if topic == "tournaments":
        return _("**Tournaments:** {create}, then {commands}; organisers: {organisers}.",
                 create=c("tournament create"),
                 commands=c("tournament start", "tournament status", "tournament bracket", "tournament history"),
                 organisers=c("tournament pause", "tournament resume", "tournament disqualify", "tournament cancel"))
    dm, here = _.pgettext("panel place", "dm"), _.pgettext("panel place", "here")
    return (_("**Server settings** (Manage Server): {commands}, {language} (the language of the server's public "
              "messages), {newseason}. Past seasons: {seasons}.",
              commands=c("settings show", "settings timer", "settings pace", "settings warpace", "settings threads",
                         "settings rules", "settings channels", "settings web"),
              language=c("settings language"), newseason=c("settings newseason"), seasons=c("season list"))
            + "\n\n"
            + _("**Your data:** {command} removes your stats and history from this server.",
                command=c("privacy delete")) + "\n\n"
            + _("**Your panels:** the board in a match's thread opens your private panel; {command} picks {dm} (also "
                "one DM per match, edited each step; the default) or {here} (no DMs).", command=c("preferences panels"),
                dm=f"`{dm}`", here=f"`{here}`"))


def help_pages() -> tuple[str, ...]:
    """``/help``'s pages, in the menu's order: the overview, each game, the topics."""
    return (OVERVIEW, *(plugin.name for plugin in registry().plugins), *TOPICS)


def help_embed(page: str, language: str = "en") -> discord.Embed:
    """One ``/help`` page in ``language`` (the reader's)."""
    _ = texts(language)
    if page == OVERVIEW:
        title, text = _("Air War"), overview_text(_)
    elif page in TOPICS:
        title, text = _(TOPICS[page]), topic_help(page, _)
    else:
        title, text = _(game_class(page).title), game_help(page, _)
    return discord.Embed(title=title, description=text, colour=RULES_COLOUR)


def help_view(page: str, language: str = "en") -> discord.ui.View:
    view = RoutedButtons()
    view.add_item(HelpMenu(page, language))
    return view


class HelpMenu(discord.ui.DynamicItem[discord.ui.Select], template=r"help:menu"):
    """``/help``'s menu: picking a game or a topic shows its page in place of the message's; works after restarts."""

    def __init__(self, current: str = OVERVIEW, language: str = "en") -> None:
        _ = texts(language)
        labels = {OVERVIEW: _("Overview"), **{page: _(label) for page, label in TOPICS.items()}}
        options = [discord.SelectOption(label=clamp_line(labels.get(page) or _(game_class(page).title), OPTION_LIMIT),
                                        value=page, default=page == current) for page in help_pages()]
        super().__init__(discord.ui.Select(custom_id="help:menu", options=options,
                                           placeholder=_("Pick a game to see how it is played")))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str]) -> HelpMenu:
        return cls(language=language_of(interaction.locale))

    async def callback(self, interaction: discord.Interaction) -> None:
        language = language_of(interaction.locale)
        values = (interaction.data or {}).get("values") or [""]
        page = values[0]
        if page not in help_pages():
            _ = private_words(interaction)
            await interaction.response.send_message(_("That page is no longer available."), ephemeral=True)
            return
        await interaction.response.edit_message(embed=help_embed(page, language), view=help_view(page, language))


#: the most a page of a game's rules holds, title and footer included: Discord allows 4,096 characters in an embed,
#: but a page must read on a phone
RULES_PAGE_LIMIT = 3000
#: room kept on a page for its title and footer
_PAGE_FRAME = 300


def rules_pages(game: str, language: str = "en") -> list[str]:
    """A game's rules text in ``language``, in pages of at most :data:`RULES_PAGE_LIMIT` characters with their
    title and footer, cut between paragraphs."""
    text = rules_text(game, language)
    limit = RULES_PAGE_LIMIT - _PAGE_FRAME - len(text.title)
    pages = description_parts(text.body, limit)
    # as many pages, as even as the paragraphs allow (no last page of three lines)
    for even in range(len(text.body) // len(pages), limit, 100):
        if len(balanced := description_parts(text.body, even)) == len(pages):
            return balanced
    return pages


def rules_embed(game: str, language: str = "en", page: int = 0) -> discord.Embed:
    """Page ``page`` (from 0; a page past the last shows the last) of a game's rules in ``language`` (the
    reader's: the answer is theirs alone)."""
    _ = texts(language)
    text = rules_text(game, language)
    pages = rules_pages(game, language)
    page = min(max(page, 0), len(pages) - 1)
    embed = discord.Embed(title=text.title, description=pages[page], colour=RULES_COLOUR)
    hint = _("Use the buttons to read another game's rules.")
    if len(pages) > 1:
        hint = _("Page {page} of {pages}", page=page + 1, pages=len(pages)) + " · " + hint
    embed.set_footer(text=hint)
    return embed


def description_parts(body: str, limit: int = DESCRIPTION_LIMIT) -> list[str]:
    """``body`` in as few parts of at most ``limit`` characters as its paragraphs allow (a paragraph longer than
    ``limit`` cut between its lines, or its words)."""
    pieces: list[tuple[str, str]] = []  # (the separator before it, the piece)
    for paragraph in body.split("\n\n"):
        if len(paragraph) <= limit:
            pieces.append(("\n\n", paragraph))
            continue
        for number, line in enumerate(paragraph.split("\n")):
            separator = "\n\n" if number == 0 else "\n"
            while len(line) > limit:
                cut = line.rfind(" ", 0, limit)
                cut = limit if cut <= 0 else cut
                pieces.append((separator, line[:cut]))
                line, separator = line[cut:].lstrip(), " "
            pieces.append((separator, line))
    parts: list[str] = []
    for separator, piece in pieces:
        if parts and len(parts[-1]) + len(separator) + len(piece) <= limit:
            parts[-1] += separator + piece
        else:
            parts.append(piece)
    return parts


def rules_view(current: str, language: str = "en", page: int = 0) -> discord.ui.View:
    """The buttons under a game's rules: the previous and next page of a text with several, then one per game."""
    view = RoutedButtons()
    pages = len(rules_pages(current, language)) if current in game_names() else 1
    page = min(max(page, 0), pages - 1)
    if pages > 1:
        _ = texts(language)
        view.add_item(RulesButton(current, page=page - 1, label=_("◀ Previous page"), disabled=page == 0))
        view.add_item(RulesButton(current, page=page + 1, label=_("Next page ▶"), disabled=page == pages - 1))
    for number, game in enumerate(game_names()):  # (under the page buttons' row when there are any)
        view.add_item(RulesButton(game, current=game == current, language=language,
                                  row=1 + number // 5 if pages > 1 else None))
    return view


class RulesButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"rules:(?P<game>[a-z]+)(?::(?P<page>-?[0-9]+))?"):
    """Shows a game's rules (a page of them: ``page``, from 0) in place of the message's current text; works after
    restarts. A game's button, or (``label``) a page button of the game shown."""

    def __init__(self, game: str, *, current: bool = False, language: str = "en", page: int | None = None,
                 label: str | None = None, disabled: bool = False, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                # (a game's button: the rules text's title, also in the catalogues)
                label=label if label is not None else texts(language)(game_class(game).title),
                custom_id=f"rules:{game}" if page is None else f"rules:{game}:{page}",
                style=discord.ButtonStyle.primary if current else discord.ButtonStyle.secondary,
                disabled=current or disabled,
                row=0 if page is not None else row,
            )
        )
        self.game = game
        self.page = page or 0

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> RulesButton:
        page = match["page"]
        return cls(match["game"], page=None if page is None else int(page))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if self.game in game_names():
            return True
        _ = private_words(interaction)
        await interaction.response.send_message(_("Those rules are no longer available."), ephemeral=True)
        return False

    async def callback(self, interaction: discord.Interaction) -> None:
        language = language_of(interaction.locale)
        await interaction.response.edit_message(embed=rules_embed(self.game, language, self.page),
                                                view=rules_view(self.game, language, self.page))


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
            embed=rules_embed(game.value, language), view=rules_view(game.value, language), ephemeral=True
        )

    @app_commands.command(name="help", description="What this bot does and how to start")
    async def help(self, interaction: discord.Interaction) -> None:
        language = language_of(interaction.locale)
        await interaction.response.send_message(embed=help_embed(OVERVIEW, language),
                                                view=help_view(OVERVIEW, language), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(RulesButton, HelpMenu)
    await bot.add_cog(Rules(bot))
