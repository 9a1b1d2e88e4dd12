"""`/airwar challenge|forfeit|status` and every Air War button: the Discord face of Air War's match service, on the
kit's match cog (:mod:`cogs.kit.match_cog`: the buttons' handlers, timers, restarts, the challenge, forfeit and
status are every game's); this module holds Air War's commands, their options, its presenter and its words.

Everything public -- boards, flips, notes, results, DMs -- is shown by the presenter (:mod:`cogs._airwar_presenter`)
in a background task per match, never inside an interaction. Buttons are :mod:`cogs._airwar_ui`'s dynamic items
(custom ids ``aw:c:…``, ``aw:p:…``, ``aw:open:…``, ``aw:ff:…``); they keep working after a restart.
"""

from __future__ import annotations

from types import MappingProxyType

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.airwar import render
from bot.match.kernel import ARRANGE_SECONDS_RANGE, MatchStatus
from cogs._airwar_presenter import AirWarPresenter
from cogs._airwar_ui import BUTTONS, COG_NAME
from cogs._match_common import mentions
from cogs.kit.match_cog import DRAFT_ACTIONS, MatchCog

ACES = [app_commands.Choice(name="high (default): the ace beats the king", value="high"),
        app_commands.Choice(name="low: the ace is below the 2", value="low")]
DECKS = [app_commands.Choice(name="standard, 52 cards (default)", value="standard"),
         app_commands.Choice(name="with two jokers, 54 cards", value="jokers"),
         app_commands.Choice(name="tarot, 78 cards", value="tarot")]


class AirWarCog(MatchCog, name=COG_NAME):
    game = "airwar"
    presenter_class = AirWarPresenter
    buttons = BUTTONS
    panel_actions = MappingProxyType({**DRAFT_ACTIONS, "card:": "tap", "random": "random_order", "drawn": "as_drawn"})

    airwar = app_commands.Group(name="airwar", description="Air War: a card battle between two pilots",
                                guild_only=True)

    # --- commands --------------------------------------------------------------------------------------
    @airwar.command(name="challenge", description="Challenge someone in this server to a game of Air War")
    @app_commands.describe(
        opponent="Who to challenge",
        aces="Aces high (default) or low",
        deck="Each player's deck (default: standard, 52 cards)",
        stack="Cards in each engagement's stack, 3 to 7 (default 5)",
        timer="Seconds to arrange each stack, 30 to 600 (default: this server's timer)",
    )
    @app_commands.choices(aces=ACES, deck=DECKS)
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member | discord.User,
        aces: app_commands.Choice[str] | None = None,
        deck: app_commands.Choice[str] | None = None,
        stack: app_commands.Range[int, 3, 7] | None = None,
        timer: app_commands.Range[int, ARRANGE_SECONDS_RANGE[0], ARRANGE_SECONDS_RANGE[1]] | None = None,
    ) -> None:
        rules = {key: value for key, value in (("aces", aces and aces.value), ("deck", deck and deck.value),
                                                ("stack", stack)) if value is not None}
        await self.start_challenge(interaction, opponent, rules=rules, timer=timer)

    @airwar.command(name="forfeit", description="Give up your Air War match (your opponent wins)")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        await self.ask_forfeit(interaction)

    @airwar.command(name="status", description="Your Air War match: the stacks, the counts and what is known")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.show_status(interaction)  # refused while flips are to be shown

    def status_text(self, status: MatchStatus) -> str:
        panel = status.panel
        return render.status(status.view, mentions(status.match), deadline=panel.deadline_at, draft=panel.draft)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*BUTTONS.items)
    await bot.add_cog(AirWarCog(bot))
