"""Casino War's presenter: the table's events on the kit's presenter (:mod:`cogs.kit.presenter`: the lobby, the
thread, the panels, the result). Every public message speaks the server's language (``show.language``); the
panels their player's (the kit's ``say``).

* ``lobby`` / ``joined`` / ``left`` -- the table's message in the channel (who is seated, Join / Leave / Deal /
  Cancel); ``accepted`` -- the thread is made and the message links it;
* ``turn`` -- the step before loses its **Bet** button; each seat's panel (its one DM message of the match, or the
  thread's ephemeral panel); the step's message (``turn:<step>``) with **Bet**, mentioning who plays here;
* ``dealt``, ``war``, ``reshuffle``, ``stood_up`` -- one line each in the thread; ``hand_over`` -- each seat's
  chips won or lost in the hand (from the hand's ``chips`` events: stored before they are shown);
* ``turn_timeout`` -- a note; the late seats' panels say what was played for them;
* ``game_over`` -- the last step's message loses its button, the panels close; ``result`` -- each player's net.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.games.casinowar import render
from bot.i18n import texts
from bot.storage.records import MatchRecord, QueuedEvent
from cogs.casinowar.ui import BUTTONS, COLOUR
from cogs.kit.messages import NO_MENTIONS, embed_of
from cogs.kit.presenter import Presenter, Show, mentions, shows


def turn_name(step: int) -> str:
    return f"turn:{step}"


class CasinoWarPresenter(Presenter):
    render = render
    buttons = BUTTONS
    prefix = "cw"
    colour = COLOUR
    match_word = "table"

    # --- the table's message -----------------------------------------------------------------------------------
    def opening_message(self, match: MatchRecord, language: str = "en") -> dict[str, Any]:
        surface = render.lobby(mentions(match), match.rules, expires_at=match.deadline_at, say=texts(language))
        return {"embed": embed_of(surface, colour=self.colour),
                "view": self.buttons.lobby_view(match.id, surface.buttons), "allowed_mentions": NO_MENTIONS}

    def closed_challenge_text(self, match: MatchRecord, event_type: str, names: Sequence[str],
                              language: str = "en") -> str:
        return render.closed(mentions(match)[0], event_type, say=texts(language))

    def accepted_text(self, match: MatchRecord, names: Sequence[str], thread_id: int | None,
                      language: str = "en") -> str:
        return render.started(mentions(match), None if thread_id is None else f"<#{thread_id}>", say=texts(language))

    def link_text(self, match: MatchRecord, names: Sequence[str], thread_id: int, language: str = "en") -> str:
        return render.link_line(mentions(match), match.rules, thread_id, say=texts(language))

    # --- steps ---------------------------------------------------------------------------------------------------
    async def _turn_event(self, show: Show, step: int) -> dict[str, Any] | None:
        """The ``turn`` event that opened ``step`` (with its latest deadline), if any."""
        found: dict[str, Any] | None = None
        _, queued_events = await self.outbox.step_record(show.match.id, step)
        for queued in queued_events:
            data = queued.event
            if queued.type == "turn" and data["engagement"] == step:
                found = dict(data)
            elif found is not None and queued.type == "deadline_moved" and data.get("engagement") == step:
                found["deadline_at"] = data["deadline_at"]
        return found

    def _turn_message(self, show: Show, turn: dict[str, Any], *, open_: bool, ping: Sequence[int] = ()) -> dict[
            str, Any]:
        """``send``/``edit`` keyword arguments of a turn's message: its text (``ping``: the users it calls) and,
        while ``open_``, the button that opens each player's panel."""
        match = show.match
        say = texts(show.language)
        text = render.turn(turn, show.names, say=say)
        if ping:
            text = " ".join(f"<@{user_id}>" for user_id in ping) + " " + text
        view = self.buttons.board_view(match.id, turn["engagement"], say(render.PANEL_BUTTON)) if open_ else None
        return {"content": text, "view": view,
                "allowed_mentions": discord.AllowedMentions(users=[discord.Object(u) for u in ping])}

    async def _close_turn(self, show: Show, step: int) -> None:
        """The turn's message without its button (its words stay)."""
        message_id = show.match.messages.get(turn_name(step))
        if message_id is None:
            return
        turn = await self._turn_event(show, step)
        if turn is not None:
            await self._play_edit_if_there(show, message_id, **self._turn_message(show, turn, open_=False))

    @shows("accepted")
    async def _on_accepted(self, show: Show, event: QueuedEvent) -> None:
        await super()._on_accepted(show, event)
        await self._post(show, "opening", content=render.house_edge_line(show.match.rules, say=texts(show.language)))

    @shows("turn")
    async def _on_turn(self, show: Show, event: QueuedEvent) -> None:
        step = event.event["engagement"]
        await self._close_turn(show, step - 1)
        delivery = await self._send_panels(show, step)
        match = show.match
        ping = [match.seats[seat].user_id for seat in self._panel_pings(match, step) if seat in event.event["seats"]]
        await self._post(show, turn_name(step), **self._turn_message(show, dict(event.event), open_=True, ping=ping))
        await self._deadline_from_delivery(show, step, delivery)

    @shows("deadline_moved")
    async def _on_deadline_moved(self, show: Show, event: QueuedEvent) -> None:
        """The turn's message and its players' panels show the deadline that starts from the panels' delivery."""
        step = event.event["engagement"]
        message_id = show.match.messages.get(turn_name(step))
        turn = await self._turn_event(show, step)
        if message_id is None or turn is None:
            return
        turn["deadline_at"] = event.event["deadline_at"]
        await self._play_edit_if_there(show, message_id, **self._turn_message(show, turn, open_=True))
        await self._edit_panels(show, step, list(turn["seats"]))

    @shows("dealt")
    async def _on_dealt(self, show: Show, event: QueuedEvent) -> None:
        await self._close_turn(show, event.event["engagement"])
        text = render.dealt(event.event, show.names, say=texts(show.language))
        await self._post(show, f"dealt:{event.event['hand']}", content=text)

    @shows("war")
    async def _on_war(self, show: Show, event: QueuedEvent) -> None:
        await self._close_turn(show, event.event["engagement"])
        text = render.war(event.event, show.names, say=texts(show.language))
        await self._post(show, f"war:{event.event['hand']}", content=text)

    @shows("hand_over")
    async def _on_hand_over(self, show: Show, event: QueuedEvent) -> None:
        hand = event.event["hand"]
        moves = [q.event for q in await self.outbox.events(show.match.id)
                 if q.type == "chips" and q.event["hand"] == hand]
        text = render.hand_over(event.event, show.names, moves, say=texts(show.language))
        await self._post(show, f"hand:{hand}", content=text)

    @shows("reshuffle")
    async def _on_reshuffle(self, show: Show, event: QueuedEvent) -> None:
        text = render.reshuffle(event.event, say=texts(show.language))
        await self._post(show, f"reshuffle:{event.event['hand']}", content=text)

    @shows("stood_up")
    async def _on_stood_up(self, show: Show, event: QueuedEvent) -> None:
        text = render.stood_up(event.event, show.names, say=texts(show.language))
        await self._post(show, f"stood_up:{event.seq}", content=text)

    @shows("turn_timeout")
    async def _on_turn_timeout(self, show: Show, event: QueuedEvent) -> None:
        step = event.event["engagement"]
        await self._post(show, f"afk:{step}", content=render.afk(event.event, show.names, say=texts(show.language)))
        await self._edit_panels(show, step, event.event["seats"])

    @shows("game_over")
    async def _on_game_over(self, show: Show, event: QueuedEvent) -> None:
        step = event.event["engagement"]
        await self._close_turn(show, step)
        await self._edit_panels(show, step, range(len(show.match.seats)))

    @shows("result")
    async def _on_result(self, show: Show, event: QueuedEvent) -> None:
        events = await self.outbox.events(show.match.id)
        game_over = next((q for q in reversed(events) if q.type == "game_over" and q.seq < event.seq), None)
        if game_over is not None:
            await self._post_result(show, render.result(game_over.event, show.names, texts(show.language),
                                                        hands=show.match.rules.get("hands")))
