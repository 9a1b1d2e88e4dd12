"""Bundle War's presenter on the kit's: each step's board in the thread (with **Choose**, pinging who plays here),
the private panels (one DM per match, or the board's ephemeral one), one line per thing that happened, the result.
The public messages speak the server's language; the panels their player's (the kit passes their words)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.games.bundlewar import render
from bot.i18n import texts
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
            surface = render.lobby(mentions(match), match.rules, expires_at=match.deadline_at, say=texts(language))
            return {"embed": embed_of(surface, colour=self.colour),
                    "view": self.buttons.lobby_view(match.id, surface.buttons), "allowed_mentions": NO_MENTIONS}
        return super().opening_message(match, language)

    def accepted_text(self, match: MatchRecord, names: Sequence[str], thread_id: int | None,
                      language: str = "en") -> str:
        if match.options.get("lobby") or len(names) != 2:
            if thread_id is not None:
                return self.link_text(match, names, thread_id, language)
            return render.started(names, texts(language))
        return super().accepted_text(match, names, thread_id, language)

    def link_text(self, match: MatchRecord, names: Sequence[str], thread_id: int, language: str = "en") -> str:
        return render.link_line(mentions(match), match.rules, thread_id, say=texts(language))

    async def _close_board(self, show: Show, step: int) -> None:
        message_id = show.match.messages.get(board_name(step))
        if message_id is not None:
            await self._play_edit_if_there(show, message_id, view=None)

    async def _on_turn(self, show: Show, event: QueuedEvent) -> None:
        step = event.event["step"]
        await self._close_board(show, step - 1)
        delivery = await self._send_panels(show, step)
        await self._post_board(show, event)
        await self._deadline_from_delivery(show, step, delivery)

    async def _post_board(self, show: Show, event: QueuedEvent, *, edit: bool = False) -> None:
        """The step's board (``board:<step>``): posted, or with ``edit`` shown again as the match stands (a moved
        deadline)."""
        step = event.event["step"]
        match = show.match
        current = match.step == step
        say = texts(show.language)
        ping = [match.seats[seat].user_id for seat in self._panel_pings(match, step) if seat in event.event["seats"]]
        surface = render.board(event.event, show.names, deadline=match.deadline_at if current else None, say=say)
        content = " ".join(f"<@{user_id}>" for user_id in ping) or None
        view = self.buttons.board_view(match.id, step, say(self.buttons.board_label)) if current else None
        message_id = match.messages.get(board_name(step))
        if edit:
            if message_id is not None:
                await self._play_edit_if_there(show, message_id, embed=embed_of(surface, colour=COLOUR), view=view)
            return
        await self._post(show, board_name(step), content=content, embed=embed_of(surface, colour=COLOUR), view=view,
                         allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in ping]))

    async def _on_deadline_moved(self, show: Show, event: QueuedEvent) -> None:
        """The step's panels reached their players late (or the bot was away): its board and its open panels show
        the deadline as it is now."""
        step = event.event["engagement"]
        turn = next((q for q in reversed(await self.service.events(show.match.id))
                     if q.type == "turn" and q.event.get("step") == step), None)
        if turn is None or show.match.step != step:
            return
        await self._post_board(show, turn, edit=True)
        await self._edit_panels(show, step, turn.event["seats"])

    async def _line(self, show: Show, event: QueuedEvent, text: str) -> None:
        if text:
            await self._post(show, f"line:{event.seq}", content=text, allowed_mentions=NO_MENTIONS)

    async def _on_step_played(self, show: Show, event: QueuedEvent) -> None:
        await self._line(show, event, "\n".join(render.step_lines(event.event, show.names, texts(show.language))))

    async def _on_battle(self, show: Show, event: QueuedEvent) -> None:
        await self._line(show, event, render.battle_line(event.event, show.names, texts(show.language)))

    async def _on_war(self, show: Show, event: QueuedEvent) -> None:
        await self._line(show, event, render.war_line(event.event["seats"], show.names, texts(show.language)))

    async def _on_take(self, show: Show, event: QueuedEvent) -> None:
        await self._line(show, event, render.take_line(event.event, show.names, texts(show.language)))

    async def _on_out(self, show: Show, event: QueuedEvent) -> None:
        await self._line(show, event, render.out_line(event.event, show.names, texts(show.language)))

    async def _on_turn_timeout(self, show: Show, event: QueuedEvent) -> None:
        await self._line(show, event, render.timeout_line(event.event, show.names, texts(show.language)))

    async def _on_game_over(self, show: Show, event: QueuedEvent) -> None:
        await self._close_board(show, show.match.step)

    async def _on_result(self, show: Show, event: QueuedEvent) -> None:
        events = await self.service.events(show.match.id)
        game_over = next((q.event for q in reversed(events) if q.type == "game_over" and q.seq < event.seq), None)
        if game_over is None:
            return
        surface = render.result(game_over, show.names, await self.display_names(show.match),
                                ratings=event.event.get("ratings"), say=texts(show.language))
        await self._post_result(show, surface)
