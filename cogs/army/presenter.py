"""Army's presenter: Army's events on the kit's presenter (:mod:`cogs.kit.presenter`, which shows the challenge,
the panels and the result the way every game does).

What each event becomes:

* ``challenge`` -- the challenge message (posted here only when the command's own answer was lost);
* ``accepted`` / ``declined`` / ``withdrawn`` / ``expired`` -- the challenge message says so and loses its buttons;
  on accept the match's public thread is made from it (the channel itself when the server turned thread per match
  off or threads are refused) and it becomes the live message: who plays, the link to the thread;
* ``turn`` -- the previous step's round message is closed; each player's panel (``dm:<step>:<seat>``: the player's
  one DM message of the match, edited to show the step; ``0``: the panel opens in the thread only); then the step's
  public round message (``round:<step>``): the previous round's reveal, both sides' stamina, who has chosen, the
  deadline, and its **Choose** button, which opens the presser's panel as an ephemeral message until both have
  chosen;
* ``chosen`` -- the round message shows who has chosen (skipped when the same batch already ends the step);
* ``turn_timeout`` -- a note in the match (``afk:<step>``); the late players' panels say what was played for them;
* ``deadline_moved`` -- a note (none when the panels reached their players late: the deadline then starts from
  their delivery); the round message and the waiting players' panels show the new deadline;
* ``game_over`` -- the step's round message and the panels still open are closed;
* ``result`` -- the match's message in the channel becomes the result (with its Rematch button), and the match
  gets it too (``result``).

Everything public speaks the server's language (``show.language``, read once a run); the panels their players'.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.games.army import render
from bot.games.army.flow import ARRANGE_STEP
from bot.i18n import Texts, texts
from bot.render.common import ENGLISH, ButtonSurface
from bot.storage.records import MatchRecord, QueuedEvent
from cogs.army.ui import BUTTONS, COLOUR
from cogs.kit.messages import edit_kwargs, message_kwargs
from cogs.kit.practice import with_hint
from cogs.kit.presenter import Presenter, Show, dm_name, mentions, shows

#: events that end a step: a ``chosen`` followed by one of these in the same batch needs no edit of its own
STEP_ENDS = frozenset({"reveal", "armies_set", "turn_timeout", "game_over"})

__all__ = ["ArmyPresenter", "dm_name", "mentions", "round_name"]


def round_name(step: int) -> str:
    return f"round:{step}"


class ArmyPresenter(Presenter):
    """Army's events on the kit's presenter: the step's public round message, the panels, timeouts, the result."""

    render = render
    buttons = BUTTONS
    prefix = "army"
    colour = COLOUR

    def panel_surface_of(self, match: MatchRecord, panel: Any, say: Texts = ENGLISH) -> ButtonSurface:
        """A panel, with **Hint** in a practice match against the bot."""
        return with_hint(match, super().panel_surface_of(match, panel, say), say)

    # --- steps -----------------------------------------------------------------------------------------------
    async def _round_surface(self, show: Show, step: int, up_to: int, closed: str | None = None):
        events = [q for q in await self.outbox.events(show.match.id, step=step) if q.seq <= up_to]
        turn = next((q.event for q in events if q.type == "turn"), None)
        if turn is None:
            return None
        turn = dict(turn)
        chosen = [False, False]
        for q in events:
            if q.type == "chosen":
                chosen[q.event["seat"]] = True
            elif q.type == "deadline_moved":
                turn["deadline_at"] = q.event["deadline_at"]
        previous = [] if step == ARRANGE_STEP else [
            q.event for q in await self.outbox.events(show.match.id, step=step - 1)]
        return render.round_board(turn, previous, show.names, chosen=chosen, closed=closed,
                                  dms_closed=self._dms_closed(show.match), say=texts(show.language)), chosen

    async def _show_round(self, show: Show, step: int, up_to: int, closed: str | None = None) -> None:
        """Step ``step``'s round message as it stood at event ``up_to`` (posted the first time, edited after)."""
        built = await self._round_surface(show, step, up_to, closed)
        if built is None:
            return
        surface, chosen = built
        match = show.match
        view = (self.buttons.board_view(match.id, step, texts(show.language)(render.PANEL_BUTTON))
                if closed is None and not all(chosen) else None)
        colour = self.finished_colour if closed else self.colour
        message_id = match.messages.get(round_name(step))
        if message_id is not None:
            await self._play_edit(show, message_id, **edit_kwargs(surface, view=view, colour=colour))
            return
        ping = [match.seats[seat].user_id for seat in self._panel_pings(match, step)]
        kwargs = message_kwargs(surface, view=view, colour=colour)
        del kwargs["files"]
        kwargs["allowed_mentions"] = discord.AllowedMentions(users=[discord.Object(u) for u in ping])
        await self._post(show, round_name(step), content=" ".join(f"<@{u}>" for u in ping) or None, **kwargs)

    @shows("turn")
    async def _on_turn(self, show: Show, event: QueuedEvent) -> None:
        step = event.event["engagement"]
        if step > ARRANGE_STEP and round_name(step - 1) in show.match.messages:
            await self._show_round(show, step - 1, event.seq, closed=render.round_closed(texts(show.language)))
        delivery = await self._send_panels(show, step)
        await self._show_round(show, step, event.seq)
        await self._deadline_from_delivery(show, step, delivery)

    @shows("chosen")
    async def _on_chosen(self, show: Show, event: QueuedEvent) -> None:
        step = event.event["engagement"]
        if any(q.step == step and q.type in STEP_ENDS for q in show.batch):
            return  # the step ends in this batch: the next message says it all
        await self._show_round(show, step, event.seq)

    @shows("turn_timeout")
    async def _on_turn_timeout(self, show: Show, event: QueuedEvent) -> None:
        step = event.event["engagement"]
        await self._post(show, f"afk:{step}", content=render.afk(show.names, event.event, texts(show.language)),
                         allowed_mentions=discord.AllowedMentions(users=[discord.Object(u)
                                                                         for u in event.event["user_ids"]]))
        await self._edit_panels(show, step, event.event["seats"])

    @shows("deadline_moved")
    async def _on_deadline_moved(self, show: Show, event: QueuedEvent) -> None:
        step = event.event["engagement"]
        if event.event.get("reason") != "delivery":  # (a panel that came late: its time starts then)
            await self._post(show, f"deadline:{event.seq}",
                             content=render.deadline_moved(show.names, step, event.event["deadline_at"],
                                                           texts(show.language)))
        await self._show_round(show, step, event.seq)
        chosen = {q.event["seat"] for q in await self.outbox.events(show.match.id, step=step)
                  if q.type == "chosen" and q.seq <= event.seq}
        await self._edit_panels(show, step, [seat for seat in (0, 1) if seat not in chosen])

    @shows("game_over")
    async def _on_game_over(self, show: Show, event: QueuedEvent) -> None:
        step = event.event["engagement"]
        if round_name(step) in show.match.messages:
            await self._show_round(show, step, event.seq, closed=render.match_over(texts(show.language)))
        events = await self.outbox.events(show.match.id, step=step)
        chosen = {q.event["seat"] for q in events if q.type == "chosen" and q.seq < event.seq}
        timed_out = {seat for q in events if q.type == "turn_timeout" for seat in q.event["seats"]}
        await self._edit_panels(show, step, [seat for seat in (0, 1) if seat not in chosen | timed_out])

    @shows("result")
    async def _on_result(self, show: Show, event: QueuedEvent) -> None:
        match = show.match
        events = await self.outbox.events(match.id)
        game_over = next((q for q in reversed(events) if q.type == "game_over" and q.seq < event.seq), None)
        if game_over is None:
            return
        final = [q.event for q in events if q.step == game_over.step and q.seq < game_over.seq]
        plain = await self.display_names(match)
        reveals = [q for q in events if q.type == "reveal"]
        say = texts(show.language)
        surface = render.result(game_over.event, final, show.names, ratings=event.event.get("ratings"),
                                rounds=len(reveals), say=say)
        title = render.result_title(game_over.event, plain, say)  # (a title shows no mention: the plain names)
        await self._post_result(show, type(surface)(title, surface.text))
