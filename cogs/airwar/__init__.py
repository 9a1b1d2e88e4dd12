"""`/airwar challenge|lobby|forfeit|status` and every Air War button: the Discord face of Air War's match service, on
the kit's match cog (:mod:`cogs.kit.match_cog`: the buttons' handlers, timers, restarts, the challenge, forfeit and
status are every game's); this module holds Air War's commands, their options, its presenter and its words.

Everything public -- boards, flips, notes, results, DMs -- is shown by the presenter (:mod:`cogs.airwar.presenter`)
in a background task per match, never inside an interaction. Buttons are :mod:`cogs.airwar.ui`'s dynamic items
(custom ids ``aw:c:…``, ``aw:l:…``, ``aw:p:…``, ``aw:open:…``, ``aw:ff:…``); they keep working after a restart.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.airwar import PLUGIN, practice, render
from bot.games.airwar.flow import ARRANGE_SECONDS_RANGE
from bot.i18n import Texts
from bot.match.kernel import MatchKernel, MatchStatus
from bot.render.common import ENGLISH
from bot.services.settings import SettingsService
from bot.storage.records import MatchRecord
from cogs.airwar.presenter import AirWarPresenter
from cogs.airwar.ui import BUTTONS, COG_NAME
from cogs.kit.choices import plugin_choices
from cogs.kit.match_cog import DRAFT_ACTIONS, MatchCog
from cogs.kit.match_common import mentions
from cogs.kit.messages import private_words
from cogs.kit.practice import PracticeCog

ACES = plugin_choices(PLUGIN, "aces")
DECKS = plugin_choices(PLUGIN, "deck")
LEVELS = [app_commands.Choice(name="expert: my best play, leaning on the habits you show", value="expert"),
          app_commands.Choice(name="hard (default): my best play, mixed so it can't be read", value="hard"),
          app_commands.Choice(name="medium: my best order if you play your stack as drawn", value="medium"),
          app_commands.Choice(name="easy: a random order", value="easy")]


class AirWarCog(PracticeCog, MatchCog, name=COG_NAME):
    game = "airwar"
    presenter_class = AirWarPresenter
    buttons = BUTTONS
    panel_actions = MappingProxyType({**DRAFT_ACTIONS, "card:": MatchKernel.tap, "random": MatchKernel.random_order,
                                      "drawn": MatchKernel.as_drawn})

    hint_target = "bot.ai.review:hint_data"
    review_target = "bot.ai.review:summary"
    review_unit = "engagement"

    def hint_args(self, panel: Any) -> tuple[Any, ...]:
        """The public view (what everyone sees), the seat and the order being built."""
        return panel.view, panel.seat, list(panel.draft)

    def hint_text(self, data: Mapping[str, Any], say: Texts) -> str:
        return practice.hint(data, say)

    airwar = app_commands.Group(name="airwar", description="Air War: a card battle for 2-4 pilots")

    # --- commands --------------------------------------------------------------------------------------
    @airwar.command(name="challenge", description="Challenge someone to a game of Air War")
    @app_commands.describe(
        opponent="Who to challenge (me, the bot, for an unrated practice match)",
        aces="Aces high (default) or low",
        deck="Each player's deck (default: standard, 52 cards)",
        stack="Cards in each engagement's stack, 3 to 7 (default 5)",
        timer="Seconds to arrange each stack, 30 to 600 (default: this server's timer)",
        level="Against me: how well I play (default hard)",
    )
    @app_commands.choices(aces=ACES, deck=DECKS, level=LEVELS)
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member | discord.User,
        aces: app_commands.Choice[str] | None = None,
        deck: app_commands.Choice[str] | None = None,
        stack: app_commands.Range[int, 3, 7] | None = None,
        timer: app_commands.Range[int, ARRANGE_SECONDS_RANGE[0], ARRANGE_SECONDS_RANGE[1]] | None = None,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        rules = {key: value for key, value in (("aces", aces and aces.value), ("deck", deck and deck.value),
                                                ("stack", stack)) if value is not None}
        await self.start_challenge(interaction, opponent, rules=rules, timer=timer, level=level and level.value)

    @airwar.command(name="lobby", description="Open a game of Air War for 3-4 players that anyone here can join")
    @app_commands.describe(aces="Aces high (default) or low", deck="Each player's deck (default: standard, 52 cards)",
                           stack="Cards in each engagement's stack, 3 to 7 (default 5)",
                           level="I take a seat myself and play at this level (an unrated game)")
    @app_commands.choices(aces=ACES, deck=DECKS, level=LEVELS)
    async def lobby(self, interaction: discord.Interaction, aces: app_commands.Choice[str] | None = None,
                    deck: app_commands.Choice[str] | None = None,
                    stack: app_commands.Range[int, 3, 7] | None = None,
                    level: app_commands.Choice[str] | None = None) -> None:
        given = {key: value for key, value in (("aces", aces and aces.value), ("deck", deck and deck.value),
                                               ("stack", stack)) if value is not None}
        if await self.refuse_channel(interaction):
            return
        server = await self.server_for_start(interaction, self.service.check_player(interaction.user.id))
        if server is None:
            return
        await self.issue_lobby(interaction, game=self.game, rules=SettingsService.rules_from(server, self.game, given),
                               pace=None, level=level and level.value)

    async def on_lobby_button(self, interaction: discord.Interaction, match_id: int, action: str) -> None:
        """A lobby starts with three or four players (two play a challenge)."""
        if action == "start":
            match = await self.service.get_match(match_id)
            if match.status == "challenge" and match.options.get("lobby") and len(match.seats) < 3 \
                    and match.seats[0].user_id == interaction.user.id:
                _ = private_words(interaction)
                await self.tell(interaction, _.ngettext(
                    "A {game} lobby starts with 3 or 4 players: wait for {count} more to join (two play a "
                    "`/airwar challenge`).",
                    "A {game} lobby starts with 3 or 4 players: wait for {count} more to join (two play a "
                    "`/airwar challenge`).", 3 - len(match.seats), game=_(render.TITLE)))
                return
        await super().on_lobby_button(interaction, match_id, action)

    # --- private answers, in the asker's language (``say``) ---------------------------------------------
    def forfeited_text(self, match: MatchRecord, user_id: int, *, say: Texts = ENGLISH) -> str:
        if len(match.seats) == 2:
            return super().forfeited_text(match, user_id, say=say)
        _ = say
        winner = (match.result or {}).get("winner") if match.status == "finished" else None
        winner_mention = "" if winner is None else f"<@{match.user_ids[winner]}>"
        wins = _("{player} wins.", player=winner_mention) if winner is not None else _("The others play on.")
        return "🏳️ " + _("You forfeited your {game} match: you are out.", game=_(render.TITLE)) + " " + wins

    async def forfeit_question(self, match: MatchRecord, seat: int, *, say: Texts = ENGLISH) -> str:
        if len(match.seats) == 2:
            return await super().forfeit_question(match, seat, say=say)
        _ = say
        where = f"<#{match.play_channel_id}>"
        return _("Forfeit your {game} match in {channel}? You are out at once and the others play on; the last one "
                 "standing wins.", game=_(render.TITLE), channel=where)

    @airwar.command(name="forfeit", description="Give up your Air War match (your opponent wins)")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        await self.ask_forfeit(interaction)

    @airwar.command(name="status", description="Your Air War match: the stacks, the counts and what is known")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.show_status(interaction)  # refused while flips are to be shown

    def status_text(self, status: MatchStatus, *, say: Texts = ENGLISH) -> str:
        panel = status.panel
        return render.status(status.view, mentions(status.match), deadline=panel.deadline_at, draft=panel.draft,
                             say=say)


async def setup(bot: commands.Bot) -> None:
    bot.route_clicks(*BUTTONS.items)
    await bot.add_cog(AirWarCog(bot))
