"""`/highcard challenge|forfeit|status`: High Card's cog, on the kit (its commands, its events, its words)."""

from __future__ import annotations

from types import MappingProxyType

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import Texts
from bot.match.kernel import MatchKernel, MatchStatus
from bot.render.common import ENGLISH
from bot.storage.records import QueuedEvent
from cogs.kit.items import MatchButtons
from cogs.kit.match_cog import MatchCog
from cogs.kit.presenter import Presenter, Show, shows
from tests.e2e.toygame import render

COG_NAME = "HighCard"
BUTTONS = MatchButtons("hc", cog_name=COG_NAME, title=render.TITLE, panel_key=r"pick:[0-9AJQK]{1,2}[CDHS]",
                       open_label="Open my High Card panel")


class HighCardPresenter(Presenter):
    render = render
    buttons = BUTTONS
    prefix = "hc"
    colour = discord.Colour.dark_gold()

    @shows("turn")
    async def _on_turn(self, show: Show, event: QueuedEvent) -> None:
        await self._send_panels(show, event.event["engagement"])

    @shows("round")
    async def _on_round(self, show: Show, event: QueuedEvent) -> None:
        await self._post(show, f"round:{event.event['round']}", content=render.round_line(show.names, event.event))

    @shows("result")
    async def _on_result(self, show: Show, event: QueuedEvent) -> None:
        game_over = next(q.event for q in await self.outbox.events(show.match.id) if q.type == "game_over")
        await self._post_result(show, render.result(await self.display_names(show.match), game_over))


class HighCardCog(MatchCog, name=COG_NAME):
    game = "highcard"
    presenter_class = HighCardPresenter
    buttons = BUTTONS
    panel_actions = MappingProxyType({"pick:": MatchKernel.pick})

    highcard = app_commands.Group(name="highcard", description="High Card: three secret picks", guild_only=True)

    @highcard.command(name="challenge", description="Challenge someone to High Card")
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member | discord.User) -> None:
        await self.start_challenge(interaction, opponent)

    @highcard.command(name="forfeit", description="Give up your High Card match")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        await self.ask_forfeit(interaction)

    @highcard.command(name="status", description="Your High Card match")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.show_status(interaction)

    def status_text(self, status: MatchStatus, *, say: Texts = ENGLISH) -> str:
        return render.status(status.view)  # (the toy game speaks English only)


async def setup(bot: commands.Bot) -> None:
    bot.route_clicks(*BUTTONS.items)
    await bot.add_cog(HighCardCog(bot))
