"""Bundle War's presenter on the kit's: one live message per round in the thread (``round:<n>``: the steps from the
first look to the take, wars and the pile-top pick included), edited as the round goes on: on top the step being
played (who chooses, the deadline, the **Choose** button that opens a panel), under it what happened in the round so
far, one line each; once the round is over, what happened in it (no button). The message mentions the players whose
panel opens there when it is posted; one whose panel first opens there in a later step of the round gets a short note
mentioning them (an edit notifies nobody), deleted once that step is over. The private panels (one DM per match, or
Choose's ephemeral one) show the card each looks at, which no public message names before it is played. The last
round's message becomes the result. The public messages speak the server's language; the panels their player's (the
kit passes their words)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.games.bundlewar import render
from bot.i18n import texts
from bot.storage.records import MatchRecord, QueuedEvent
from cogs.bundlewar.ui import BUTTONS, COLOUR
from cogs.kit.messages import NO_MENTIONS, embed_of
from cogs.kit.presenter import Presenter, Show, mentions, shows

#: the events a round's message shows (a run of them is one edit, made at the last)
SHOWN = frozenset({"turn", "step_played", "battle", "war", "take", "pot_aside", "out", "turn_timeout", "game_over",
                   "deadline_moved", "result"})
#: events after which the step a ``turn`` opened is over
STEP_ENDS = frozenset({"step_played", "take", "pot_aside", "game_over"})


def round_name(number: int) -> str:
    return f"round:{number}"


def round_of(event: QueuedEvent) -> int | None:
    """The round an event is of (``None``: a timeout, a moved deadline, the result: the round going on)."""
    number = event.event.get("round")
    return None if number is None or event.type in ("game_over", "result") else number


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

    async def _show_round(self, show: Show, event: QueuedEvent) -> None:
        """``event``'s round as it stands at ``event``: the step being played on top with **Choose** (while it is the
        match's step and waits for a choice), what happened under it; else (the round over, or no step of it waiting:
        a step may play itself) what happened in it."""
        events = [q.event for q in await self._phase_events(show, event, round_of)]
        number = next((e["round"] for e in events if e.get("round") is not None
                       and e["type"] not in ("game_over", "result")), None)
        if number is None:
            return
        match = show.match
        say = texts(show.language)
        lines = render.round_lines(events, show.names, say)
        turns = [e for e in events if e["type"] == "turn"]
        turn = turns[-1] if turns else None
        if (turn is None or match.status != "active" or match.step != turn["step"]
                or any(e["type"] in STEP_ENDS for e in events[events.index(turn) + 1:])):
            await self._show_live(show, round_name(number), render.round_over(number, lines, say))
            await self._drop_notes(show, turns)
            return
        step = turn["step"]
        await self._drop_notes(show, turns[:-1])
        surface = render.board(turn, show.names, deadline=match.deadline_at, say=say)
        view = self.buttons.board_view(match.id, step, say(self.buttons.board_label))
        ping = [match.seats[seat].user_id for seat in self._panel_pings(match, step) if seat in turn["seats"]]
        if ping and round_name(number) in match.messages:
            await self._post(show, f"ping:{step}", content=render.ping_note([f"<@{u}>" for u in ping], say),
                             allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in ping]))
        await self._show_live(show, round_name(number), surface, view=view, below=lines, ping=ping)

    async def _drop_notes(self, show: Show, turns: Sequence[dict[str, Any]]) -> None:
        """The notes that called players to the round's message for ``turns``' steps go once those steps are over:
        the thread keeps one message a round."""
        for turn in turns:
            await self._drop(show, f"ping:{turn['step']}")

    def _shown_later_in_run(self, show: Show, event: QueuedEvent) -> bool:
        """Whether a later event of this run shows the same round's message (then it says it all at once)."""
        number = round_of(event)
        for later in show.batch:
            if round_of(later) not in (None, number):
                return False  # the next round's: this round's message is shown now
            if later.type in SHOWN:
                return True
        return False

    @shows("turn")
    async def _on_turn(self, show: Show, event: QueuedEvent) -> None:
        step = event.event["step"]
        delivery = await self._send_panels(show, step)
        if delivery.by_dm or delivery.in_thread or not self._shown_later_in_run(show, event):
            await self._show_round(show, event)
        await self._deadline_from_delivery(show, step, delivery)

    @shows("deadline_moved")
    async def _on_deadline_moved(self, show: Show, event: QueuedEvent) -> None:
        """The step's panels reached their players late (or the bot was away): its round's message and its open
        panels show the deadline as it is now."""
        step = event.event["engagement"]
        if show.match.step != step:
            return
        await self._show_round(show, event)
        turn = next((q for q in reversed(await self.outbox.events(show.match.id))
                     if q.type == "turn" and q.event.get("step") == step), None)
        if turn is not None:
            await self._edit_panels(show, step, turn.event["seats"])

    @shows("step_played", "battle", "war", "take", "pot_aside", "out", "turn_timeout", "game_over")
    async def _on_round_event(self, show: Show, event: QueuedEvent) -> None:
        if not self._shown_later_in_run(show, event):
            await self._show_round(show, event)


    @shows("result")
    async def _on_result(self, show: Show, event: QueuedEvent) -> None:
        game_over, _ = await self._game_over_before(show, event)
        if game_over is None:
            return
        say = texts(show.language)
        surface = render.result(game_over, show.names, await self.display_names(show.match),
                                ratings=event.event.get("ratings"), places=event.event.get("places"), say=say)
        # the last round's message becomes the result; a last round that played itself in the same run as the
        # game's end has none yet: the result is posted with its lines
        last_round = [q for q in await self._phase_events(show, event, round_of)]
        number = next((found for q in last_round if (found := round_of(q)) is not None), None)
        if number is None:
            await self._post_result(show, surface)
            return
        lines = render.round_lines([q.event for q in last_round], show.names, say)
        await self._post_result(show, surface, live=round_name(number), below=lines)
