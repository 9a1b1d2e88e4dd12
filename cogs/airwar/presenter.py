"""Air War's presenter: Air War's events on the kit's presenter (:mod:`cogs.kit.presenter`, which shows every game's
matches the same way: in order, one background task per match, nothing doubled after a crash, an event that can't
be shown holding back everything after it, the match moved to its channel when its thread is lost, the challenge's
life, the thread, the match's one message in its channel, the panels, the result).

Hidden information: the next panels know the deck bottoms the flips revealed, so they wait until the flips are
public (an event that can't be shown holds back everything after it).

What each event becomes:

* ``challenge`` -- the challenge message (normally the slash command's answer; posted here only when that
  answer was lost);
* ``accepted`` / ``declined`` / ``withdrawn`` / ``expired`` -- the challenge message says so, its buttons go;
  on accept the match's public thread is made from the challenge message (in the channel itself when threads
  are refused) and the challenge message becomes the live one: who plays, the rules, the link to the thread;
* ``engagement`` -- each player's panel (``dm:<n>:<seat>``: the player's one DM message of the match, edited to
  show engagement ``n``, above it how engagement ``n - 1`` ended; ``0``: the panel opens in the thread only), then
  the public board (``board:<n>``), whose
  **Arrange** button opens the presser's panel as an ephemeral message until both orders are locked in; the
  engagement's deadline starts as they go out (so they show the one they keep) and moves on if the last panel
  reached its player late;
* ``order_locked`` -- the board shows who has locked in (not for the last one: its flips follow at once);
* ``flip`` -- the board becomes the flips, one more per event, at the server's flip pace (``fight`` and
  ``engagement_end`` need no edit: the frames include them, the last one the engagement's summary);
* ``arrange_timeout`` -- a note in the thread; the late players' panels say how their engagement ended (played as
  drawn, forfeited) and lose their buttons;
* ``deadline_moved`` -- a note (``deadline:<seq>``; none when the panels reached their players late: the deadline
  then starts from their delivery), the board and the panels show the new deadline;
* ``game_over`` -- an engagement that was not played is closed on its board, and so are its panels;
* ``result`` -- the match's message in the channel becomes the result (with its Rematch button), and the thread
  gets it too (``result``).

A panel's message is edited under its player's :meth:`~cogs.kit.presenter.ShowLoop.panel_lock`, the lock the cog
holds while it applies and answers a click: a click answered late can't put back the buttons of a panel the
presenter closed. The live table (panels, boards, flips) is text with the cards as the app's emoji (the kit sends
it as Components V2): nothing is drawn or uploaded until the result, so a click's answer costs one edit.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.games.airwar import render, render_many
from bot.games.airwar.flow import Panel, PublicBoard, public_board
from bot.i18n import Texts, texts
from bot.match.kernel import MatchKernel
from bot.render.common import ENGLISH, ButtonSurface, accepted_line, clamp
from bot.storage.records import MatchRecord, QueuedEvent, board_message_name
from cogs.airwar.ui import BUTTONS, COLOUR
from cogs.kit.messages import NO_MENTIONS, edit_kwargs, embed_of, message_kwargs
from cogs.kit.pictures import rendered
from cogs.kit.practice import with_hint
from cogs.kit.presenter import CLOSED_MARKS, Presenter, Show, mentions, shows, without_empty_files

Sleep = Callable[[float], Awaitable[Any]]
SUMMARIES_KEPT = 2000  #: engagement summaries kept for the panels' clicks (the latest, per match and language)


@dataclass
class AirWarShow(Show):
    """A run's view of an Air War match: also the players' plain names (for the result's title), the server's flip
    pace (read once a run: a change applies from the next one) and the engagement being flipped (every flip of it
    was stored at once)."""

    image_names: list[str] = field(default_factory=list)
    flip_pace_ms: int | None = None
    flips_of: PublicBoard | None = None


class AirWarPresenter(Presenter):
    """Air War's events on the kit's presenter: the panels, the boards and their flips, the notes, the result.
    ``pace_sleep`` (the bot's) waits between two flips."""

    render = render
    buttons = BUTTONS
    prefix = "airwar"
    colour = COLOUR
    deadline_starts_when_shown = True  # (the board's deadline is the match's: ``public_board``)
    marked_with_the_next = frozenset({"order_locked"})  # (edits of the board, shown again as they were)

    def __init__(self, bot: Any, service: MatchKernel) -> None:
        super().__init__(bot, service)
        self.pace_sleep: Sleep = getattr(bot, "pace_sleep", asyncio.sleep)
        self._summaries: dict[tuple[int, int, str], str] = {}  # (match, engagement, language): its summary

    async def _new_show(self, match: MatchRecord, queued: list[QueuedEvent]) -> AirWarShow:
        return AirWarShow(match, mentions(match), queued, language=await self.language(match),
                          image_names=await self.display_names(match))

    async def _public_board(self, match_id: int, number: int, up_to: int | None) -> PublicBoard | None:
        """Engagement ``number`` as the public may see it at event ``up_to``."""
        return public_board(*await self.outbox.step_record(match_id, number), up_to)

    # --- words -------------------------------------------------------------------------------------------
    def opening_message(self, match: MatchRecord, language: str = "en") -> dict[str, Any]:
        """The challenge message, or a lobby's (3 or 4 players) as it stands."""
        if not match.options.get("lobby"):
            return super().opening_message(match, language)
        surface = render_many.lobby(mentions(match), match.rules, expires_at=match.deadline_at, say=texts(language))
        return {"embed": embed_of(surface, colour=self.colour),
                "view": self.buttons.lobby_view(match.id, surface.buttons), "allowed_mentions": NO_MENTIONS}

    def closed_challenge_text(self, match: MatchRecord, event_type: str, names: Sequence[str],
                              language: str = "en") -> str:
        closed = super().closed_challenge_text(match, event_type, names, language)
        return closed if match.options.get("lobby") else CLOSED_MARKS[event_type] + closed  # (a lobby's has its mark)

    def accepted_text(self, match: MatchRecord, names: Sequence[str], thread_id: int | None,
                      language: str = "en") -> str:
        if len(names) != 2:
            return render_many.started(names, None if thread_id is None else f"<#{thread_id}>", texts(language))
        challenger, opponent = names
        return "⚔️ " + accepted_line(render.TITLE, challenger, opponent, thread_id, texts(language))

    def link_text(self, match: MatchRecord, names: Sequence[str], thread_id: int, language: str = "en") -> str:
        _ = texts(language)
        return "⚔️ " + _("**{game}:** {players} · {rules} — follow the match in {thread}.", game=_(render.TITLE),
                         players=render.versus(names, _), rules=render.rules_text(match.rules, say=_),
                         thread=f"<#{thread_id}>")

    def thread_lost_text(self, names: Sequence[str], say: Texts = ENGLISH) -> str:
        """The channel's note when the match's thread is lost, in ``say``'s language (the server's)."""
        return render.thread_lost(names, say=say)

    # --- panels ------------------------------------------------------------------------------------------
    @staticmethod
    def _panel_lines(match: MatchRecord, panel: Panel, note: str, say: Texts = ENGLISH) -> str:
        """The lines under a panel: ``note``, and which engagement of which match it is."""
        _ = say
        where = "-# " + _("Engagement {number} of your match in {channel}.", number=panel.engagement,
                            channel=f"<#{match.play_channel_id}>")
        return f"{note}\n{where}" if note else where

    @staticmethod
    def _played_note(match: MatchRecord, panel: Panel, say: Texts = ENGLISH) -> str:
        _ = say
        if panel.ended != "played":
            return ""
        return _("Both orders are in: watch the flips in {channel}.", channel=f"<#{match.play_channel_id}>")

    async def panel_surface(self, match: MatchRecord, panel: Panel, note: str = "", *,
                            say: Texts = ENGLISH) -> tuple[ButtonSurface, str]:
        """A panel's surface (as its engagement ended, if it did: ``panel.ended``) and the lines under it; above
        it, how the engagement before ended (:meth:`last_outcome`), so a player in their DMs knows the score."""
        assert panel.view is not None
        surface = render.dm_panel(panel.view, mentions(match), draft=panel.draft, deadline=panel.deadline_at,
                                  closed=render.panel_closed(panel.ended, say), say=say)
        if panel.view.get("phase") != "over":
            last = await self.last_outcome(match, panel.engagement - 1, say)
            if last:
                surface = dataclasses.replace(surface, text=clamp(f"{last}\n\n{surface.text}", say=say))
        return with_hint(match, surface, say), self._panel_lines(match, panel, note, say)

    async def last_outcome(self, match: MatchRecord, number: int, say: Texts = ENGLISH) -> str:
        """Engagement ``number``'s summary (what each player kept and lost, the decks after), once it was played
        (public by then: a panel of the next engagement waits for its flips to be shown); ``""`` for none. Kept in
        memory for the clicks that follow (each redraws the panel)."""
        if number < 1:
            return ""
        key = (match.id, number, say.language)
        summary = self._summaries.get(key)
        if summary is None:
            board = await self._public_board(match.id, number, None)
            if board is None or not board.played:
                return ""
            summary = render.engagement_summary(list(board.events), mentions(match), engagement=number, say=say)
            self._summaries[key] = summary
            while len(self._summaries) > SUMMARIES_KEPT:
                del self._summaries[next(iter(self._summaries))]
        return summary

    @staticmethod
    def panel_step(panel: Panel) -> int:
        return panel.engagement

    def panel_due(self, panel: Panel, step: int) -> bool:
        return super().panel_due(panel, step) and panel.view is not None and bool(panel.stack)  # (none: out)

    async def panel_message(self, match: MatchRecord, panel: Panel, *, answering: bool = True,
                            say: Texts = ENGLISH) -> dict[str, Any]:
        """``send`` keyword arguments of a new message showing ``panel`` (a DM panel, or its ephemeral copy)."""
        surface, extra = await self.panel_surface(match, panel, say=say)
        return without_empty_files(message_kwargs(
            surface, extra=extra, view=self.buttons.panel_view(match.id, panel.engagement, surface), colour=COLOUR))

    async def panel_edit(self, match: MatchRecord, panel: Panel, *, answering: bool = False,
                         say: Texts = ENGLISH) -> dict[str, Any]:
        """``edit`` keyword arguments that make a panel message show ``panel`` (no buttons once it ended)."""
        surface, extra = await self.panel_surface(match, panel, self._played_note(match, panel, say), say=say)
        return edit_kwargs(surface, extra=extra, view=self.buttons.panel_view(match.id, panel.engagement, surface),
                           colour=COLOUR)

    # --- an engagement ---------------------------------------------------------------------------------
    @shows("engagement")
    async def _on_engagement(self, show: AirWarShow, event: QueuedEvent) -> None:
        number = event.event["number"]
        delivery = await self._send_panels(show, number)
        await self._show_board(show, number, up_to=event.seq)
        await self._deadline_from_delivery(show, number, delivery)

    async def _post_board(self, show: AirWarShow, number: int, lost_id: int | None, **kwargs: Any) -> None:
        """Post engagement ``number``'s board (again, if ``lost_id``'s message is gone) and store its id."""
        name = board_message_name(number) + ("" if lost_id is None else f"/{lost_id}")
        message = await self._play_send(show, name, **kwargs)
        show.match = await self.outbox.set_board_message(show.match.id, number, message.id)

    async def _show_board(self, show: AirWarShow, number: int, *, up_to: int, closed: str | None = None) -> None:
        """Engagement ``number``'s board as it stood at event ``up_to`` (posted the first time, edited after);
        ``closed``: the engagement was not played (the game ended), say so and drop the buttons."""
        match = show.match
        board = await self._public_board(match.id, number, up_to)
        if board is None:
            return
        locked = board.locked
        board_id = match.board_message_id(number)
        say = texts(show.language)
        surface = render.board(board.view, show.names, deadline=None if closed else board.deadline_at,
                               ended=closed is not None, say=say)
        notes = []
        for seat in self._dms_closed(match):
            if not locked[seat] and not closed:
                _ = say
                notes.append("📪 " + _("{player}'s DMs are closed: {player}, use **{button}** below to arrange your "
                                       "stack.", player=show.names[seat], button=_(render.PANEL_BUTTON)))
        if closed:
            notes.append(closed)
        buttons = (self.buttons.board_view(match.id, number, say(render.PANEL_BUTTON))
                   if not closed and not all(locked) else None)
        colour = self.finished_colour if closed else COLOUR
        if board_id is not None:
            kwargs = edit_kwargs(surface, extra="\n".join(notes), view=buttons, colour=colour)
            if await self._play_edit_if_there(show, board_id, **kwargs):
                return
        ping = [match.seats[seat].user_id for seat in self._panel_pings(match, number)]
        kwargs = message_kwargs(surface, extra="\n".join(notes), view=buttons, colour=colour)
        kwargs["allowed_mentions"] = discord.AllowedMentions(users=[discord.Object(u) for u in ping])
        content = " ".join(f"<@{user_id}>" for user_id in ping) or None
        await self._post_board(show, number, board_id, content=content, **kwargs)

    @shows("order_locked")
    async def _on_order_locked(self, show: AirWarShow, event: QueuedEvent) -> None:
        number = event.event["engagement"]
        if any(q.type == "flip" and q.event["engagement"] == number for q in show.batch):
            return  # the last order: the flips that follow in this batch replace the board at once
        await self._show_board(show, number, up_to=event.seq)

    @shows("flip")
    async def _on_flip(self, show: AirWarShow, event: QueuedEvent) -> None:
        match = show.match
        number, flip = event.event["engagement"], event.event["flip"]
        board = show.flips_of
        if board is None or board.engagement != number or not any(
                e.get("type") == "flip" and e.get("flip") == flip for e in board.events):
            board = show.flips_of = await self._public_board(match.id, number, event.seq)
        if board is None:
            return
        if flip > 1:
            if show.flip_pace_ms is None:
                show.flip_pace_ms = (await self.service.get_settings(match.guild_id)).flip_pace_ms
            await self.pace_sleep(show.flip_pace_ms / 1000)
        surface = render.flips(list(board.events), show.names, flip, engagement=number, say=texts(show.language))
        board_id = match.board_message_id(number)
        if board_id is not None and await self._play_edit_if_there(show, board_id,
                                                                   **edit_kwargs(surface, colour=COLOUR)):
            return
        await self._post_board(show, number, board_id, **message_kwargs(surface, colour=COLOUR))

    @shows("arrange_timeout")
    async def _on_arrange_timeout(self, show: AirWarShow, event: QueuedEvent) -> None:
        match = show.match
        data = event.event
        number = data["engagement"]
        ping = [match.seats[seat].user_id for seat in data["seats"] if seat not in data.get("forfeit", ())]
        await self._post(show, f"afk:{number}",
                         content=render.afk(show.names, data["seats"], number, forfeit=data.get("forfeit", ()),
                                            say=texts(show.language)),
                         allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in ping]))
        await self._edit_panels(show, number, data["seats"])

    @shows("deadline_moved")
    async def _on_deadline_moved(self, show: AirWarShow, event: QueuedEvent) -> None:
        match = show.match
        data = event.event
        number = data["engagement"]
        board = await self._public_board(match.id, number, event.seq)
        waiting = [seat for seat in range(len(match.seats)) if board is None or not board.locked[seat]]
        if data.get("reason") != "delivery":  # (a panel that came late: its time starts then, said by the deadline)
            await self._post(show, f"deadline:{event.seq}",
                             content=render.deadline_moved(show.names, number, data["deadline_at"], waiting=waiting,
                                                           say=texts(show.language)),
                             allowed_mentions=discord.AllowedMentions(
                                 users=[discord.Object(match.seats[seat].user_id) for seat in waiting]))
        if board is not None and not board.played:
            await self._show_board(show, number, up_to=event.seq)
        await self._edit_panels(show, number, waiting)

    @shows("game_over")
    async def _on_game_over(self, show: AirWarShow, event: QueuedEvent) -> None:
        match = show.match
        number = event.event.get("engagement")
        if not isinstance(number, int):
            return
        board = await self._public_board(match.id, number, event.seq)
        if board is None or board.played:
            return
        if match.board_message_id(number) is not None:
            _ = texts(show.language)
            why = render.reason_text(event.event, show.names, say=_)
            over = _("**Game over before this engagement was played.**")
            await self._show_board(show, number, up_to=event.seq, closed=f"🏁 {over} {why}")
        await self._edit_panels(show, number, [seat for seat in range(len(match.seats))
                                               if seat not in board.timed_out])

    @shows("result")
    async def _on_result(self, show: AirWarShow, event: QueuedEvent) -> None:
        view = await self.service.view(show.match.id)
        surface = await rendered(render.result, view, show.names, image_names=show.image_names,
                                 ratings=event.event.get("ratings"), say=texts(show.language))
        await self._post_result(show, surface)


__all__ = ["AirWarPresenter"]
