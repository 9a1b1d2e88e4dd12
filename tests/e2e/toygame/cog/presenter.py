"""High Card's presenter: the kit's, with a method for each of the game's own events."""

from __future__ import annotations

import discord

from bot.i18n import texts
from bot.services.settings import SettingsService
from bot.storage.records import QueuedEvent
from cogs.kit.presenter import Presenter, Show, shows

from .. import ROUND_LINES, render
from .ui import BUTTONS


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
        server = await self.service.get_settings(show.match.guild_id)
        if SettingsService.game_setting(server, "highcard", ROUND_LINES.key) == "off":
            return
        await self._post(show, f"round:{event.event['round']}",
                         content=render.round_line(show.names, event.event, texts(show.language)))

    @shows("result")
    async def _on_result(self, show: Show, event: QueuedEvent) -> None:
        game_over = next(q.event for q in await self.outbox.events(show.match.id) if q.type == "game_over")
        await self._post_result(show, render.result(await self.display_names(show.match), game_over,
                                                    texts(show.language)))
