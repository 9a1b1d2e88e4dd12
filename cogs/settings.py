"""`/settings ...` (the server's settings for every game, and `/settings newseason`) and `/season list`.

Discord sets who sees a command per top-level command, not per subcommand: `/settings` is for members with the Manage
Server permission (``default_member_permissions``, so Discord hides it from the others), `/season list` is for everyone
(players pick a past season's board by its number). Starting a season is a change, so it is `/settings newseason`. The
permission is still checked here, as a server may let others reach the command in its Integrations settings: they get an
ephemeral refusal and nothing changes. Every answer is ephemeral except a new season, which the server should see (in
the server's language; the others in the member's). Values are checked by
:class:`~bot.services.settings.SettingsService`; a bad one gets its message and changes nothing."""

from __future__ import annotations

import math

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.airwar.flow import ARRANGE_SECONDS_RANGE, FLIP_PACE_MS_RANGE
from bot.i18n import LANGUAGES, N_
from bot.registry import game_names
from bot.render import stats as render
from bot.services import USER_ERRORS
from bot.services.settings import InvalidSetting
from bot.storage.settings import WAR_PACES, GuildSettings
from bot.web.links import board_url
from cogs.kit.choices import set_choices
from cogs.kit.messages import private_words, said
from cogs.kit.places import require_server
from cogs.kit.stats_ui import NO_MENTIONS, game_choices, server_words, settings_service, stats_service, tell

NEEDS_MANAGE = N_("Changing the server's settings needs the Manage Server permission.")
SEASON_NEEDS_MANAGE = N_("Starting a new season needs the Manage Server permission.")
PACE_CHOICES = [
    app_commands.Choice(name=N_("flip: every player presses Flip for each round"), value="flip"),
    app_commands.Choice(name=N_("auto: the bot plays the rounds by itself"), value="auto"),
    app_commands.Choice(name=N_("instant: played out at once, the result shown"), value="instant"),
]
assert [c.value for c in PACE_CHOICES] == list(WAR_PACES)
WEB_STATES = [app_commands.Choice(name=name, value=name) for name in ("on", "off")]
CHANNEL_ACTIONS = [app_commands.Choice(name=name, value=name) for name in ("add", "remove", "clear")]
PACE_SECONDS = (FLIP_PACE_MS_RANGE[0] / 1000, FLIP_PACE_MS_RANGE[1] / 1000)
DEFAULTS = GuildSettings(0)
#: each language by its own name (never translated: a reader finds their language by the name they know)
LANGUAGE_CHOICES = [app_commands.Choice(name=app_commands.locale_str(native, verbatim=True), value=code)
                    for code, native in LANGUAGES.items()]


MANAGE_SERVER = discord.Permissions(manage_guild=True)


def may_manage(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions.manage_guild)


class Settings(commands.Cog):
    settings = app_commands.Group(name="settings", description="This server's settings for every game",
                                  default_permissions=MANAGE_SERVER)
    season = app_commands.Group(name="season", description="Seasons: fresh leaderboards, the old ones kept")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        """Settings and seasons are a server's: refused where the bot is no member."""
        return require_server(interaction, N_("Server settings and seasons"))

    async def cog_load(self) -> None:
        set_choices(self.rules, game=game_choices())

    @property
    def service(self):
        return settings_service(self.bot)

    async def _change(self, interaction: discord.Interaction, change, answer=None) -> None:
        """Run a setter for a member who may manage the server; answer the settings after it (or what
        ``answer(words)`` says), or the refusal."""
        assert interaction.guild_id is not None
        _ = private_words(interaction)
        if not may_manage(interaction):
            await tell(interaction, _(NEEDS_MANAGE))
            return
        try:
            current = await change(interaction.guild_id)
        except USER_ERRORS as error:
            await tell(interaction, _("{refusal} Nothing was changed.", refusal=said(error, interaction)))
            return
        await tell(interaction, answer(_) if answer is not None
                   else _("Saved.") + "\n" + render.settings(current, game_names(), _))

    @settings.command(name="show", description="Show this server's settings")
    async def show(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        await tell(interaction, render.settings(await self.service.get(interaction.guild_id), game_names(),
                                                private_words(interaction)))

    @settings.command(name="timer", description="Air War: seconds each player has to arrange a stack")
    @app_commands.describe(seconds=f"{ARRANGE_SECONDS_RANGE[0]} to {ARRANGE_SECONDS_RANGE[1]} seconds "
                                   f"(default {DEFAULTS.arrange_seconds})")
    async def timer(self, interaction: discord.Interaction,
                    seconds: app_commands.Range[int, ARRANGE_SECONDS_RANGE[0], ARRANGE_SECONDS_RANGE[1]]) -> None:
        await self._change(interaction, lambda guild: self.service.set_arrange_seconds(guild, seconds))

    @settings.command(name="pace", description="Air War: seconds between two flips")
    @app_commands.describe(seconds=f"{PACE_SECONDS[0]:g} to {PACE_SECONDS[1]:g} seconds "
                                   f"(default {DEFAULTS.flip_pace_ms / 1000:g})")
    async def pace(self, interaction: discord.Interaction,
                   seconds: app_commands.Range[float, PACE_SECONDS[0], PACE_SECONDS[1]]) -> None:
        async def change(guild: int):
            # Discord keeps to the option's range; a client that does not is refused in the option's own unit
            low, high = PACE_SECONDS
            if not (math.isfinite(seconds) and low <= seconds <= high):
                _ = private_words(interaction)
                raise InvalidSetting(f"The flip pace must be from {low:g} to {high:g} seconds, not {seconds:g}.",
                                     template=N_("The flip pace must be from {low} to {high} seconds, not "
                                                 "{seconds}."), low=_.number(low), high=_.number(high),
                                     seconds=_.number(seconds))
            return await self.service.set_flip_pace_ms(guild, round(seconds * 1000))  # to the millisecond

        await self._change(interaction, change)

    @settings.command(name="warpace", description="War: the pace new games start at")
    @app_commands.describe(pace="How new War games play their rounds (a game's players may still vote to speed up)")
    @app_commands.choices(pace=PACE_CHOICES)
    async def war_pace(self, interaction: discord.Interaction, pace: app_commands.Choice[str]) -> None:
        await self._change(interaction, lambda guild: self.service.set_war_pace(guild, pace.value))

    @settings.command(name="threads", description="Whether each match gets a thread of its own")
    @app_commands.describe(enabled="on: a thread per match (default); off: matches play in the channel")
    async def threads(self, interaction: discord.Interaction, enabled: bool) -> None:
        await self._change(interaction, lambda guild: self.service.set_thread_per_match(guild, enabled))

    @settings.command(name="rules", description="A game's default rules on this server")
    @app_commands.describe(game="The game", rules='key=value pairs, e.g. "aces=low stack=3"; "reset" for the '
                                                  "game's own defaults")
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str], rules: str) -> None:
        await self._change(interaction, lambda guild: self.service.set_default_rules(guild, game.value, rules))

    @settings.command(name="channels", description="The channels where matches may start (none: anywhere)")
    @app_commands.describe(action="add or remove a channel, or clear the list", channel="The channel")
    @app_commands.choices(action=CHANNEL_ACTIONS)
    async def channels(self, interaction: discord.Interaction, action: app_commands.Choice[str],
                       channel: discord.TextChannel | None = None) -> None:
        if action.value == "clear":
            await self._change(interaction, self.service.clear_start_channels)
            return
        if channel is None:
            _ = private_words(interaction)
            if not may_manage(interaction):
                await tell(interaction, _(NEEDS_MANAGE))
            elif action.value == "add":
                await tell(interaction, _("Name the channel to add. Nothing was changed."))
            else:
                await tell(interaction, _("Name the channel to remove. Nothing was changed."))
            return
        setter = self.service.add_start_channel if action.value == "add" else self.service.remove_start_channel
        await self._change(interaction, lambda guild: setter(guild, channel.id))

    @settings.command(name="language", description="The language of this server's public messages")
    @app_commands.describe(language="Challenges, boards and results in this language; private replies follow each "
                                    "member's own")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction, language: app_commands.Choice[str]) -> None:
        def saved(_) -> str:
            return _("Saved: this server's public messages are in {language} from now on. Private replies follow "
                     "each member's own Discord language.", language=LANGUAGES[language.value])

        await self._change(interaction, lambda guild: self.service.set_language(guild, language.value), saved)

    @settings.command(name="web", description="Whether this server's boards, match reviews and tournament pages "
                                              "are public on the web")
    @app_commands.describe(state="on: anyone with the link sees them; off (default): they are not found")
    @app_commands.choices(state=WEB_STATES)
    async def web(self, interaction: discord.Interaction, state: app_commands.Choice[str]) -> None:
        public = state.value == "on"

        def saved(_) -> str:
            if not public:
                return _("Saved: this server's web pages are off; their links answer “not found”.")
            address = self.bot.settings.web_url
            where = "" if address is None else "\n" + board_url(address, interaction.guild_id, game_names()[0])
            return _("Saved: this server's boards, match reviews and tournament pages are public on the web.") + where

        await self._change(interaction, lambda guild: self.service.set_web_public(guild, public), saved)

    # --- seasons ----------------------------------------------------------------------------------------
    @settings.command(name="newseason", description="End this season (its boards are kept) and start fresh boards")
    @app_commands.describe(name="The new season's name (default: Season N)")
    async def new_season(self, interaction: discord.Interaction, name: str | None = None) -> None:
        assert interaction.guild_id is not None
        if not may_manage(interaction):
            await tell(interaction, private_words(interaction)(SEASON_NEEDS_MANAGE))
            return
        try:
            closed, new = await stats_service(self.bot).start_season(interaction.guild_id, name)
        except USER_ERRORS as error:
            await tell(interaction, said(error, interaction))
            return
        _ = await server_words(self.bot, interaction.guild_id)  # the channel sees it
        board = f"`{render.command(_, 'leaderboard season')}:{closed.number}`"
        await interaction.response.send_message(
            _("🏁 **{closed}** is over: its leaderboards are kept ({board}). **{new}** starts now, with fresh "
              "leaderboards for every game.", closed=render.season_name(closed, _), board=board,
              new=render.season_name(new, _)), allowed_mentions=NO_MENTIONS)

    @season.command(name="list", description="This server's seasons")
    async def season_list(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        await tell(interaction, render.seasons(await stats_service(self.bot).seasons(interaction.guild_id),
                                               private_words(interaction)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Settings(bot))
