"""Speed War's presenter on the kit's: a new message in the thread for every round (its appearance starts the
reaction clock), edited once settled (its buttons removed), and the result with each player's reaction times; all
in the server's language."""

from __future__ import annotations

from bot.games.speedwar import render
from bot.i18n import texts
from bot.storage.records import QueuedEvent
from cogs._speedwar_ui import BUTTONS, COLOUR
from cogs.kit.messages import embed_of
from cogs.kit.presenter import Presenter, Show


def round_name(number: int) -> str:
    return f"round:{number}"


class SpeedWarPresenter(Presenter):
    render = render
    buttons = BUTTONS
    prefix = "speedwar"
    colour = COLOUR

    async def _on_round(self, show: Show, event: QueuedEvent) -> None:
        number = event.event["round"]
        surface = render.round_surface(event.event, show.names, deadline=show.match.deadline_at
                                       if show.match.step == number else None, say=texts(show.language))
        await self._post(show, round_name(number), embed=embed_of(surface, colour=COLOUR),
                         view=self.buttons.table_view(show.match.id, number, surface.buttons))

    async def _on_settled(self, show: Show, event: QueuedEvent) -> None:
        message_id = show.match.messages.get(round_name(event.event["round"]))
        surface = render.settled_surface(event.event, show.names, say=texts(show.language))
        if message_id is not None:
            await self._play_edit_if_there(show, message_id, embed=embed_of(surface, colour=COLOUR), view=None)

    async def _on_round_timeout(self, show: Show, event: QueuedEvent) -> None:
        forfeit = event.event.get("forfeit") or []
        if forfeit:
            await self._post(show, f"timeout:{event.event['engagement']}",
                             content=render.timed_out([show.names[seat] for seat in forfeit],
                                                      texts(show.language)))

    async def _on_result(self, show: Show, event: QueuedEvent) -> None:
        events = await self.service.events(show.match.id)
        game_over = next((q.event for q in reversed(events) if q.type == "game_over" and q.seq < event.seq), None)
        if game_over is None:
            return
        times: list[list[int]] = [[], []]
        for queued in events:
            if queued.type == "settled":
                for seat, press in enumerate(queued.event["presses"]):
                    if press is not None:
                        times[seat].append(press["ms"])
        say = texts(show.language)
        reactions = [render.reaction_line(show.names[seat], times[seat], say) for seat in (0, 1)]
        surface = render.result(game_over, show.names, await self.display_names(show.match),
                                ratings=event.event.get("ratings"), reactions=reactions, say=say)
        await self._post_result(show, surface)
