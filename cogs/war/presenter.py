"""War's presenter: War's events on the kit's presenter (:mod:`cogs.kit.presenter`, which shows every game's
matches the same way: in order, one background task per match, nothing doubled after a crash, an event that can't
be shown holding back everything after it, the match moved to its channel when its thread is lost, the challenge's
or lobby's life, the thread, the match's one message in its channel, the result).

War has no hidden cards, so the one live message of a game (``table``) is always rendered from the stored game as
it stands (never ahead of what is committed): a run of round events (:data:`TABLE_EVENTS`) becomes one edit, made
at the last of them before an event with a message of its own. What each event becomes:

* ``challenge`` / ``lobby`` -- the challenge or lobby message (posted here only when the command's answer was
  lost); ``joined`` / ``left`` -- the lobby message shows who is in;
* ``accepted`` / ``declined`` / ``withdrawn`` / ``expired`` -- the challenge or lobby message says so and loses its
  buttons; on ``accepted`` (a challenge accepted, a lobby started) the public thread is made, the challenge or
  lobby message becomes the live one linking it, and the table is posted, pinging the players;
* the round events -- the table, with the rounds played since its last edit summed up (auto pace shows runs of
  rounds); ``turn_timeout``, ``pace`` and ``deadline_moved`` also get a note in the game (but a switch to
  :data:`~bot.games.war.flow.NEXT_WAR`, which lasts one run of rounds: the table shows it);
* ``result`` -- the result, with the card-count chart (uploaded once), in the channel's message of the game
  (with its Rematch button for two players) and in the game.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.games.war import render
from bot.games.war.flow import DEFAULT_PACE, NEXT_WAR, TURN, card_history
from bot.i18n import Texts, texts
from bot.match.kernel import MatchKernel
from bot.render.common import ENGLISH, Surface, plain_names
from bot.storage.records import MatchRecord, QueuedEvent
from cogs.kit.messages import NO_MENTIONS, embed_of
from cogs.kit.pictures import rendered
from cogs.kit.presenter import Presenter, Show, mentions, shows
from cogs.war.ui import BUTTONS, COLOUR, TABLE_STEP

#: events the live table shows (a run of them is one edit)
TABLE_EVENTS = frozenset({"flip", "battle", "war", "take", "out", "reshuffle", "pot_aside", "turn", "vote", "pace",
                          "played_out", "game_over", "turn_timeout", "deadline_moved"})


@dataclass
class WarShow(Show):
    """A run's view of a game, and the last event the table has shown in it (``table_seq``)."""

    table_seq: int = 0


def _switch_to_next_war(event: QueuedEvent) -> bool:
    return event.type == "pace" and event.event.get("pace") == NEXT_WAR


class WarPresenter(Presenter):
    """War's events on the kit's presenter: the opening messages, the live table, the notes, the result."""

    render = render
    buttons = BUTTONS
    prefix = "war"
    colour = COLOUR
    match_word = "game"

    def __init__(self, bot: Any, service: MatchKernel) -> None:
        super().__init__(bot, service)
        #: match id -> the round being played when its table was last shown (what a click on it meant)
        self._table_rounds: dict[int, int] = {}

    def table_round(self, match_id: int) -> int | None:
        """The round the game's table showed being played when it was last shown (``None``: not shown since the
        start, or the game is over)."""
        return self._table_rounds.get(match_id)

    async def _new_show(self, match: MatchRecord, queued: list[QueuedEvent]) -> Show:
        return WarShow(match, mentions(match), queued, language=await self.language(match))

    def _own_handler(self, show: Show, event: QueuedEvent) -> Callable[[Show, QueuedEvent], Awaitable[None]] | None:
        """The method registered for the event's type (a switch to the next war has none: the table shows the rounds
        it plays)."""
        return None if _switch_to_next_war(event) else super()._handler(show, event)

    def _handler(self, show: Show, event: QueuedEvent) -> Callable[[Show, QueuedEvent], Awaitable[None]] | None:
        own = self._own_handler(show, event)
        if event.type not in TABLE_EVENTS or own is not None:
            return own
        for later in show.batch:
            if later.type in TABLE_EVENTS:
                return None  # a later one shows the table as it stands
            if self._own_handler(show, later) is not None:
                break
        return self._on_table_event

    # --- words -----------------------------------------------------------------------------------------------
    def opening_message(self, match: MatchRecord, language: str = "en") -> dict[str, Any]:
        """The challenge (the opponent pinged) or lobby message as the match stands."""
        names = mentions(match)
        pace = match.options.get("pace", DEFAULT_PACE)
        if match.options.get("lobby"):
            surface = render.lobby(names, match.game, match.rules, pace, expires_at=match.deadline_at,
                                   say=texts(language))
            return {"embed": embed_of(surface, colour=self.colour),
                    "view": self.buttons.lobby_view(match.id, surface.buttons), "allowed_mentions": NO_MENTIONS}
        surface = render.challenge(names[0], names[1], match.game, match.rules, pace,
                                   expires_at=match.deadline_at or 0, say=texts(language))
        return {"content": names[1], "embed": embed_of(surface, colour=self.colour),
                "view": self.buttons.challenge_view(match.id, surface.buttons),
                "allowed_mentions": discord.AllowedMentions(users=[discord.Object(match.opponent_id)])}

    def match_title(self, match: MatchRecord) -> str:
        """The variant's title (the kit translates it for the thread's name)."""
        return str(render.title_of(match.game))

    def closed_challenge_text(self, match: MatchRecord, event_type: str, names: Sequence[str],
                              language: str = "en") -> str:
        names = mentions(match)
        say = texts(language)
        if event_type == "declined":
            return render.declined(match.game, names[0], names[1], say)
        closed = render.withdrawn if event_type == "withdrawn" else render.expired
        return closed(match.game, names[0], lobby=bool(match.options.get("lobby")), say=say)

    def accepted_text(self, match: MatchRecord, names: Sequence[str], thread_id: int | None,
                      language: str = "en") -> str:
        return render.started(match.game, mentions(match), f"<#{thread_id}>" if thread_id is not None else None,
                              texts(language))

    def link_text(self, match: MatchRecord, names: Sequence[str], thread_id: int, language: str = "en") -> str:
        return render.link_line(match.game, mentions(match), match.rules, thread_id, texts(language))

    def thread_lost_text(self, names: Sequence[str], say: Texts = ENGLISH) -> str:
        return render.thread_lost(names, say)

    # --- the table -------------------------------------------------------------------------------------------
    @shows("accepted")
    async def _on_accepted(self, show: Show, event: QueuedEvent) -> None:
        await super()._on_accepted(show, event)
        await self._show_table(show, ping=True)

    async def _on_table_event(self, show: Show, event: QueuedEvent) -> None:
        await self._show_table(show)

    async def _show_table(self, show: Show, *, ping: bool = False) -> None:
        """The table as the game stands, with the rounds played since it was last shown in this run (posted the
        first time, and again when its message is gone; edited after); ``ping``: the new message pings the
        players."""
        match = show.match
        if match.seed is None:
            return
        assert isinstance(show, WarShow)
        run = [q.event for q in show.queued[:show.at + 1] if q.seq > show.table_seq]
        view = await self.service.view(match.id)
        names = mentions(match)
        deadline = match.deadline_at if match.deadline_kind == TURN else None
        surface = render.table(view, names, match.game, match.options.get("pace", DEFAULT_PACE),
                               votes=match.options.get("votes", {}), deadline=deadline, run=run,
                               say=texts(show.language))
        over = view.get("outcome") is not None or match.status != "active"
        buttons = None if over else self.buttons.table_view(match.id, TABLE_STEP, surface.buttons)
        table = embed_of(surface, colour=self.finished_colour if over else self.colour)
        message_id = match.messages.get("table")
        if message_id is None or not await self._play_edit_if_there(show, message_id, embed=table, view=buttons,
                                                                     allowed_mentions=NO_MENTIONS):
            kwargs: dict[str, Any] = {"embed": table, "allowed_mentions": NO_MENTIONS}
            if buttons is not None:
                kwargs["view"] = buttons
            if ping:
                kwargs["content"] = " ".join(names)
                kwargs["allowed_mentions"] = discord.AllowedMentions(users=[discord.Object(u) for u in match.user_ids])
            message = await self._play_send(show, "table" if message_id is None else f"table/{message_id}", **kwargs)
            show.match = await self.outbox.set_message(match.id, "table", message.id)
        show.table_seq = show.queued[show.at].seq
        if over:
            self._table_rounds.pop(match.id, None)
        else:
            self._table_rounds[match.id] = view["round"] + 1
            if deadline is not None:  # (the round's Flip button is there now: its time starts)
                await self._step_shown(show, self.service.flow.due_step(match.step))

    async def _note(self, show: Show, name: str, text: str, ping: Sequence[int] = ()) -> None:
        """A note in the game (message ``name``, once), after the table as it stands."""
        await self._show_table(show)
        if text:
            allowed = discord.AllowedMentions(users=[discord.Object(u) for u in ping]) if ping else NO_MENTIONS
            await self._post(show, name, content=text, allowed_mentions=allowed)

    @shows("turn_timeout")
    async def _on_turn_timeout(self, show: Show, event: QueuedEvent) -> None:
        data = event.event
        ping = [show.match.seats[seat].user_id for seat in data.get("auto_flipped", [])]
        await self._note(show, f"afk:{data['round']}",
                         render.turn_timeout(mentions(show.match), data, texts(show.language)), ping)

    @shows("pace")
    async def _on_pace(self, show: Show, event: QueuedEvent) -> None:
        data = event.event
        await self._note(show, f"pace:{event.seq}",
                         render.pace_changed(data["pace"], data["previous"], texts(show.language)))

    @shows("deadline_moved")
    async def _on_deadline_moved(self, show: Show, event: QueuedEvent) -> None:
        data = event.event
        # (a table that reached its players late: the table shows the deadline its delivery set; no note)
        note = "" if data.get("reason") == "delivery" else render.deadline_moved(data["round"], data["deadline_at"],
                                                                                 texts(show.language))
        await self._note(show, f"deadline:{event.seq}", note)

    # --- the result ------------------------------------------------------------------------------------------
    @shows("result")
    async def _on_result(self, show: Show, event: QueuedEvent) -> None:
        match = show.match
        view = await self.service.view(match.id)
        points, _, rounds = card_history(match)
        say = texts(show.language)
        image_names = await self.display_names(match)
        surface = render.result(view, mentions(match), match.game, image_names=image_names, points=points,
                                rounds=rounds, ratings=event.event.get("ratings"), say=say, drawn=False)
        if points:  # (the words made here, in the server's language; the picture drawn off the event loop)
            plain = plain_names(mentions(match), image_names, say)
            picture = await rendered(render.draw_chart, points, rounds, plain,
                                     **render.chart_words(match.game, points, rounds, plain, say))
            surface = Surface(surface.title, surface.text, picture)
        await self._post_result(show, surface)
