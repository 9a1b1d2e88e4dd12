"""Speed War's presenter on the kit's: the thread gets one live message per block of rounds
(:data:`~bot.games.speedwar.render.BLOCK`, message ``block:<n>``), the round being played on top with its buttons
and the block's settled rounds under them, newest first (who took the cards, each player's press and reaction
time). The next round is shown by editing the message: that edit starts the round's reaction clock (the cog reads
the message's ``edited_timestamp``; a block's first round, its creation). A block once full keeps its rounds, its
buttons gone, and the next round starts a new message. The last block's message becomes the result, with each
player's reaction times. All in the server's language."""

from __future__ import annotations

from typing import Any

from bot.games.speedwar import render
from bot.i18n import texts
from bot.storage.records import QueuedEvent
from cogs.kit.presenter import Presenter, Show, shows
from cogs.speedwar.ui import BUTTONS, COLOUR


def block_name(number: int) -> str:
    """The name of the live message that shows round ``number``."""
    return f"block:{render.block_of(number)}"


def block_of(event: QueuedEvent) -> int | None:
    """The block of rounds an event is of (``None``: the result, a timeout: the block going on)."""
    number = event.event.get("round")
    return None if number is None or event.type in ("game_over", "result") else render.block_of(number)


class SpeedWarPresenter(Presenter):
    render = render
    buttons = BUTTONS
    prefix = "speedwar"
    colour = COLOUR

    async def _block(self, show: Show, event: QueuedEvent) -> tuple[int, list[dict[str, Any]]]:
        """The first round of ``event``'s block, and the block's events up to ``event``."""
        events = await self._phase_events(show, event, block_of)
        first = next((q.event["round"] for q in events if q.type == "round"), event.event.get("round", 1))
        return first, [q.event for q in events]

    async def _show_block(self, show: Show, event: QueuedEvent) -> None:
        """``event``'s block as it stands at ``event``: the round being played on top (with its buttons), or which
        rounds it held once they are all settled; the settled rounds under it."""
        first, events = await self._block(show, event)
        say = texts(show.language)
        rounds = [e for e in events if e["type"] == "round"]
        settled = [e for e in events if e["type"] == "settled"]
        if not rounds:
            return
        current = rounds[-1]
        number = current["round"]
        below = render.block_lines(events, show.names, say)
        if settled and settled[-1]["round"] == number:
            surface = render.closed_block(first, number, settled[-1]["counts"], show.names, say)
            await self._show_live(show, block_name(number), surface, below=below)
            return
        deadline = show.match.deadline_at if show.match.step == number else None
        surface = render.round_surface(current, show.names, deadline=deadline, say=say)
        await self._show_live(show, block_name(number), surface, below=below,
                              view=self.buttons.table_view(show.match.id, number, surface.buttons))
        if deadline is not None:
            # the round's buttons are there now: its time starts (a late message moves the deadline on; the
            # message is not edited for that: an edit would restart the round's reaction clock, and the
            # "nobody pressed" line then only shows a moment sooner than it comes)
            await self._step_shown(show, number)

    def _settled_later_in_run(self, show: Show, number: int) -> bool:
        return any(q.type == "settled" and q.event["round"] == number for q in show.batch)

    @shows("round")
    async def _on_round(self, show: Show, event: QueuedEvent) -> None:
        if not self._settled_later_in_run(show, event.event["round"]):  # (else its settling shows it)
            await self._show_block(show, event)

    @shows("settled")
    async def _on_settled(self, show: Show, event: QueuedEvent) -> None:
        later = next((q for q in show.batch if q.type in ("round", "result")), None)
        if later is not None and (later.type == "result"
                                  or render.block_of(later.event["round"]) == render.block_of(event.event["round"])):
            return  # the next round of the block, or the result, shows it
        await self._show_block(show, event)

    @shows("round_timeout")
    async def _on_round_timeout(self, show: Show, event: QueuedEvent) -> None:
        if event.event.get("forfeit") and not any(q.type == "result" for q in show.batch):
            await self._show_block(show, event)

    @shows("result")
    async def _on_result(self, show: Show, event: QueuedEvent) -> None:
        game_over, events = await self._game_over_before(show, event)
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
        last_round = next((q.event["round"] for q in reversed(events) if q.type == "round"), None)
        if last_round is None:
            await self._post_result(show, surface)
            return
        _, block = await self._block(show, event)
        await self._post_result(show, surface, live=block_name(last_round),
                                below=render.block_lines(block, show.names, say))
