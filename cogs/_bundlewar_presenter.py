"""Bundle War's presenter on the kit's: each step's board in the thread (with **Choose**, pinging who plays here),
the private panels (one DM per match, or the board's ephemeral one), one line per thing that happened, the result."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.games.bundlewar import render
from bot.storage.records import MatchRecord, QueuedEvent
from cogs._bundlewar_ui import BUTTONS, COLOUR
from cogs.kit.messages import NO_MENTIONS, embed_of
from cogs.kit.presenter import Presenter, Show, mentions


def board_name(step: int) -> str:
    return f"board:{step}"


class BundleWarPresenter(Presenter):
    render = render
    buttons = BUTTONS
    prefix = "bundlewar"
    colour = COLOUR

    def opening_message(self, match: MatchRecord, language: str = "en") -> dict[str, Any]:
        if match.options.get("lobby"):
            surface = render.lobby(mentions(match), match.rules, expires_at=match.deadline_at)
            return {"embed": embed_of(surface, colour=self.colour),
                    "view": self.buttons.lobby_view(match.id, surface.buttons), "allowed_mentions": NO_MENTIONS}
        return super().opening_message(match, language)

    def link_text(self, match: MatchRecord, names: Sequence[str], thread_id: int, language: str = "en") -> str:
        return render.link_line(mentions(match), match.rules, thread_id)

    async def _close_board(self, show: Show, step: int) -> None:
        message_id = show.match.messages.get(board_name(step))
        if message_id is not None:
            await self._play_edit_if_there(show, message_id, view=None)

    async def _on_turn(self, show: Show, event: QueuedEvent) -> None:
        step = event.event["step"]
        await self._close_board(show, step - 1)
        await self._send_panels(show, step)
        match = show.match
        current = match.step == step
        ping = [match.seats[seat].user_id for seat in self._panel_pings(match, step) if seat in event.event["seats"]]
        surface = render.board(event.event, show.names, deadline=match.deadline_at if current else None)
        content = " ".join(f"<@{user_id}>" for user_id in ping) or None
        await self._post(show, board_name(step), content=content, embed=embed_of(surface, colour=COLOUR),
                         view=self.buttons.board_view(match.id, step) if current else None,
                         allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in ping]))

    async def _line(self, show: Show, event: QueuedEvent, text: str) -> None:
        if text:
            await self._post(show, f"line:{event.seq}", content=text, allowed_mentions=NO_MENTIONS)

    async def _on_step_played(self, show: Show, event: QueuedEvent) -> None:
        await self._line(show, event, "\n".join(render.step_lines(event.event, show.names)))

    async def _on_battle(self, show: Show, event: QueuedEvent) -> None:
        await self._line(show, event, render.battle_line(event.event, show.names))

    async def _on_war(self, show: Show, event: QueuedEvent) -> None:
        seats = event.event["seats"]
        await self._line(show, event, "🂠 " + ", ".join(show.names[seat] for seat in seats)
                         + " lay three cards face down and look at the next." if seats else "")

    async def _on_take(self, show: Show, event: QueuedEvent) -> None:
        await self._line(show, event, render.take_line(event.event, show.names))

    async def _on_out(self, show: Show, event: QueuedEvent) -> None:
        why = {"short_war": "could not fight the war", "no_cards": "has no cards left"}.get(event.event["reason"],
                                                                                           "gave up")
        await self._line(show, event, f"🚫 {show.names[event.event['seat']]} is out: {why}.")

    async def _on_turn_timeout(self, show: Show, event: QueuedEvent) -> None:
        late = ", ".join(show.names[seat] for seat in event.event["seats"])
        await self._line(show, event, f"⌛ {late} missed the deadline: the default was played.")

    async def _on_game_over(self, show: Show, event: QueuedEvent) -> None:
        await self._close_board(show, show.match.step)

    async def _on_result(self, show: Show, event: QueuedEvent) -> None:
        events = await self.service.events(show.match.id)
        game_over = next((q.event for q in reversed(events) if q.type == "game_over" and q.seq < event.seq), None)
        if game_over is None:
            return
        surface = render.result(game_over, show.names, await self.display_names(show.match),
                                ratings=event.event.get("ratings"))
        await self._post_result(show, surface)
