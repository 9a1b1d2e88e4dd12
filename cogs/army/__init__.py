"""`/army challenge|forfeit|status` and every Army button: the Discord face of Army's match service, on the kit's
match cog (:mod:`cogs.kit.match_cog`: the buttons, timers, restarts and the challenge are every game's); this
module holds Army's commands, their options and its status words. Buttons are ``army:…`` dynamic items
(:mod:`cogs.army.ui`); they keep working after a restart.

Every answer here is private, so it speaks the user's own (client's) language: ``/army status``, the forfeit
question and its answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.army import practice, render
from bot.games.army.flow import GAME
from bot.i18n import Texts
from bot.match.flow import TIMER_SECONDS_RANGE
from bot.match.kernel import MatchKernel, MatchStatus
from bot.render.common import ENGLISH
from cogs.army.presenter import ArmyPresenter, mentions
from cogs.army.ui import BUTTONS, COG_NAME
from cogs.kit.match_cog import DRAFT_ACTIONS, MatchCog
from cogs.kit.practice import PracticeCog

MAX_ROUNDS_RANGE = (1, 100_000)
LEVELS = [app_commands.Choice(name="hard (default): the best card against any hand you could hold", value="hard"),
          app_commands.Choice(name="medium: a rule of thumb (attack with the highest red)", value="medium"),
          app_commands.Choice(name="easy: a random card", value="easy")]


class ArmyCog(PracticeCog, MatchCog, name=COG_NAME):
    game = GAME
    presenter_class = ArmyPresenter
    buttons = BUTTONS
    panel_actions = MappingProxyType({**DRAFT_ACTIONS, "army:": MatchKernel.tap, "play:": MatchKernel.pick,
                                      "dealt": MatchKernel.as_drawn})

    hint_target = "bot.ai.army_review:hint_data"
    review_target = "bot.ai.army_review:summary"
    review_unit = "round"

    def hint_text(self, data: Mapping[str, Any], say: Texts) -> str:
        return practice.hint(data, say)

    army = app_commands.Group(name="army", description="Army: armies with stamina fight with red and black cards")

    @army.command(name="challenge", description="Challenge someone to a game of Army")
    @app_commands.describe(
        opponent="Who to challenge (me, the bot, for an unrated practice match)",
        timer="Seconds for each choice (the armies, each card), 30 to 600 (default: this server's timer)",
        rounds="Rounds before the game stops and the stamina left decides (default: this server's, else 300)",
        level="Against me: how well I play (default hard)",
    )
    @app_commands.choices(level=LEVELS)
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member | discord.User,
        timer: app_commands.Range[int, TIMER_SECONDS_RANGE[0], TIMER_SECONDS_RANGE[1]] | None = None,
        rounds: app_commands.Range[int, MAX_ROUNDS_RANGE[0], MAX_ROUNDS_RANGE[1]] | None = None,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.start_challenge(interaction, opponent, rules={} if rounds is None else {"max_rounds": rounds},
                                   timer=timer, level=level and level.value)

    @army.command(name="forfeit", description="Give up your Army match (your opponent wins)")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        await self.ask_forfeit(interaction)

    @army.command(name="status", description="Your Army match: the stamina, your armies and your hand")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.show_status(interaction)

    # --- the answers, in the user's language (``say``) ------------------------------------------------------
    def status_text(self, status: MatchStatus, *, say: Texts = ENGLISH) -> str:
        panel = status.panel
        return render.status(status.view, mentions(status.match), deadline=panel.deadline_at, draft=panel.draft,
                             step=panel.step, say=say)


async def setup(bot: commands.Bot) -> None:
    bot.route_clicks(*BUTTONS.items)
    await bot.add_cog(ArmyCog(bot))
