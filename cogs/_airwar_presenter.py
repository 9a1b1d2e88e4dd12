"""The presenter: shows a match's queued events in Discord, in order, one background task per match.

The match service queues everything there is to show (:meth:`MatchKernel.unshown_events`); the presenter shows
each event and then marks it shown (:meth:`MatchKernel.mark_shown`). It keeps nothing in memory that matters:
message ids go through the service's setters, and every message is rendered from stored events, so showing an
event again (after a kill between showing and marking) edits the same message to the same content, or finds the
message it already sent: every message is sent with a nonce made from the match and the message's name
(:func:`nonce`, ``enforce_nonce``), so a send repeated after a kill between sending and storing its id gets the
message that was sent, not a second one (Discord keeps nonces for a few minutes).

Hidden information. An event that cannot be shown stays unshown, and so does everything after it: the next DM
panels know the deck bottoms the flips revealed, so they wait until the flips are public. When the match's thread
is gone (deleted, no access, locked) the match moves to its channel (a note says so) and goes on there; when
nothing can be shown at all, the match is tried again later (:data:`RETRY_LATER`) and on its next update.

What each event becomes:

* ``challenge`` -- the challenge message (normally the slash command's answer; posted here only when that
  answer was lost);
* ``accepted`` / ``declined`` / ``withdrawn`` / ``expired`` -- the challenge message says so, its buttons go;
  on accept the match's public thread is made from the challenge message (in the channel itself when threads
  are refused) and the channel gets a line linking it;
* ``engagement`` -- each player's DM panel (``dm:<n>:<seat>`` holds its message id; ``0``: DMs closed, the
  board gives that player an "Open my panel" button), then the public board (``board:<n>``);
* ``order_locked`` -- the board shows who has locked in;
* ``flip`` -- the board becomes the flips, one more per event, at the server's flip pace (``fight`` and
  ``engagement_end`` need no edit: the frames include them, the last one the engagement's summary);
* ``arrange_timeout`` -- a note in the thread; the late players' panels say how their engagement ended (played as
  drawn, forfeited) and lose their buttons;
* ``deadline_moved`` -- a note (``deadline:<seq>``), the board and the panels show the new deadline;
* ``game_over`` -- an engagement that was not played is closed on its board, and so are its panels;
* ``result`` -- the result in the thread and in the channel (``result`` and ``result:channel``).

A panel's message is edited under its player's :meth:`Presenter.panel_lock`, the lock the cog holds while it
applies and answers a click: a click answered late can't put back the buttons of a panel the presenter closed.
A panel's picture shows only both stacks as drawn, the same for its whole engagement: a click's answer
(:meth:`Presenter.panel_answer`) changes the text and buttons and keeps the picture the message shows, so a click
draws nothing and costs one edit; the presenter's own (rare) panel edits draw it again from stored state, the same
picture.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.games.airwar import render
from bot.games.airwar.flow import Panel, PublicBoard, public_board
from bot.render.common import ButtonSurface
from bot.services import USER_ERRORS
from bot.storage.records import MatchRecord, QueuedEvent, board_message_name
from cogs._airwar_ui import (
    COLOUR,
    FINISHED_COLOUR,
    challenge_view,
    open_panel_view,
    panel_view,
    rendered,
    rendered_first,
)
from cogs._match_common import ensure_thread
from cogs.kit.messages import NO_MENTIONS, edit_kwargs, embed_of, files_of, message_kwargs, nonce
from cogs.kit.presenter import RETRIES, ShowLoop, dm_name, mentions

if TYPE_CHECKING:
    from bot.client import CardGameBot

log = logging.getLogger("cogs.airwar")

THREAD_ALREADY_CREATED = 160004
#: the match's thread can't be used: deleted (10003), no access (50001) or permission (50013), locked (50083)
THREAD_LOST = frozenset({10003, 50001, 50013, 50083})
UNKNOWN_MESSAGE = 10008
Sleep = Callable[[float], Awaitable[Any]]


class _ThreadLost(Exception):
    """The match's thread can't be used any more (see :data:`THREAD_LOST`)."""

    def __init__(self, error: discord.HTTPException) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass
class _Show:
    """One run's view of a match: the record (refreshed as setters return it) and the names to show."""

    match: MatchRecord
    names: list[str]
    image_names: list[str]
    flip_pace_ms: int | None = None  # the server's pace, read once a run (a change applies from the next one)
    flips_of: PublicBoard | None = None  # the engagement being flipped: every flip of it was stored at once


class Presenter(ShowLoop):
    """One task per match shows its unshown events; :meth:`show` starts it (or makes it look again)."""

    prefix = "airwar"
    title = render.TITLE
    colour = COLOUR
    render = render

    def __init__(self, bot: CardGameBot, *, pace_sleep: Sleep = asyncio.sleep) -> None:
        super().__init__(bot)
        self.pace_sleep = pace_sleep
        self._channel_locks: weakref.WeakValueDictionary[tuple[int, str], asyncio.Lock] = \
            weakref.WeakValueDictionary()

    @property
    def matches(self):
        return self.bot.matches

    async def _public_board(self, match_id: int, number: int, up_to: int | None) -> PublicBoard | None:
        """Engagement ``number`` as the public may see it at event ``up_to``."""
        return public_board(*await self.matches.step_record(match_id, number), up_to)

    # --- the loop ----------------------------------------------------------------------------------------
    async def _show_unshown(self, match_id: int) -> None:
        queued = await self.matches.unshown_events(match_id)
        if not queued:
            return
        match = await self.matches.get_match(match_id)
        show = _Show(match, mentions(match), await self.display_names(match))
        unmarked: int | None = None  # an event that shows nothing, marked with the next one (marks go up to a seq)
        for event in queued:
            if self._closed:
                return
            if getattr(self, f"_on_{event.type}", None) is None:
                unmarked = event.seq
                continue
            show.match = await self.matches.get_match(match_id)
            if not await self._show_with_retries(show, event):
                # Nothing after it may go out: the next panels and boards come from what its flips revealed.
                self._retry_later(match_id)
                return
            await self.matches.mark_shown(match_id, event.seq)
            unmarked = None
        if unmarked is not None:
            await self.matches.mark_shown(match_id, unmarked)
        self._shown_all(match_id)

    async def _show_with_retries(self, show: _Show, event: QueuedEvent) -> bool:
        """Show one event; ``False``: it could not be shown (it stays unshown, and so does everything after it)."""
        handler = getattr(self, f"_on_{event.type}", None)
        if handler is None:
            return True
        moved = False
        for attempt in range(RETRIES):
            try:
                await handler(show, event)
                return True
            except _ThreadLost as lost:
                if moved or not await self._move_to_channel(show, lost.error):
                    log.warning("match %s: cannot show event %s (%s) in its thread or its channel: %s; it waits",
                                event.match_id, event.seq, event.type, lost.error)
                    return False
                moved = True  # the same event again, in the channel
            except (discord.Forbidden, discord.NotFound) as error:
                log.warning("match %s: cannot show event %s (%s): %s; it waits, and so does everything after it",
                            event.match_id, event.seq, event.type, error)
                return False
            except discord.HTTPException as error:
                if attempt == RETRIES - 1:
                    log.warning("match %s: showing event %s (%s) failed %d times (%s); trying again later",
                                event.match_id, event.seq, event.type, RETRIES, error)
                    return False
                await asyncio.sleep(0.5 * 2 ** attempt)
        return False

    async def _move_to_channel(self, show: _Show, error: discord.HTTPException) -> bool:
        """The thread is lost: say so in the channel and go on there (``False``: the channel can't be used
        either, nothing changed)."""
        match = show.match
        log.warning("match %s: its thread %s can't be used (%s); going on in channel %s", match.id, match.thread_id,
                    error, match.channel_id)
        try:
            message = await self._send(match, self._channel(match.channel_id), "moved",
                                       content=render.thread_lost(show.names), allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as failure:
            log.warning("match %s: its channel %s can't be used either: %s", match.id, match.channel_id, failure)
            return False
        show.match = await self.matches.move_to_channel(match.id, message.id)
        return True

    # --- helpers -----------------------------------------------------------------------------------------
    def _channel(self, channel_id: int, *, dm: bool = False) -> discord.PartialMessageable:
        kind = discord.ChannelType.private if dm else None
        return self.bot.get_partial_messageable(channel_id, type=kind)

    def _play(self, match: MatchRecord) -> discord.PartialMessageable:
        return self._channel(match.play_channel_id)

    def _turn(self, key: tuple[int, str]) -> asyncio.Lock:
        """Requests of one rate limit go one at a time, whichever match they are for (sends in a channel, edits in
        a channel, DMs opened): discord.py learns a limit from the first answer, so requests sent together before
        it would overrun it (429s); one after the other, it paces them."""
        lock = self._channel_locks.get(key)
        if lock is None:
            lock = self._channel_locks[key] = asyncio.Lock()
        return lock

    async def _send(self, match: MatchRecord, channel: discord.abc.Messageable, name: str,
                    **kwargs: Any) -> discord.Message:
        """Send the match's message ``name`` with its :func:`nonce`: sent again after a crash, it is not doubled."""
        channel_id = channel.id  # type: ignore[attr-defined]
        async with self._turn((channel_id, "send")):
            return await channel.send(nonce=nonce(match, name, channel_id), **kwargs)

    async def _edit(self, channel_id: int, message_id: int, *, dm: bool = False, **kwargs: Any) -> None:
        async with self._turn((channel_id, "edit")):
            await self._channel(channel_id, dm=dm).get_partial_message(message_id).edit(**kwargs)

    def _lost(self, match: MatchRecord, error: discord.HTTPException) -> None:
        if match.thread_id is not None and error.code in THREAD_LOST:
            raise _ThreadLost(error) from error

    async def _play_send(self, show: _Show, name: str, **kwargs: Any) -> discord.Message:
        """Send the match's message ``name`` where the match is played (raises _ThreadLost for a lost thread)."""
        try:
            return await self._send(show.match, self._play(show.match), name, **kwargs)
        except discord.HTTPException as error:
            self._lost(show.match, error)
            raise

    async def _play_edit(self, show: _Show, message_id: int, **kwargs: Any) -> None:
        try:
            await self._edit(show.match.play_channel_id, message_id, **kwargs)
        except discord.HTTPException as error:
            self._lost(show.match, error)
            raise

    def _where(self, match: MatchRecord) -> str:
        return f"<#{match.play_channel_id}>"

    # --- panels ------------------------------------------------------------------------------------------
    async def panel_surface(self, match: MatchRecord, panel: Panel, note: str = "", *,
                            answering: bool = False) -> tuple[ButtonSurface, str]:
        """A panel's surface (as its engagement ended, if it did: ``panel.ended``) and the lines under it.
        ``answering``: an interaction's answer waits for it (its picture is drawn before the background ones)."""
        assert panel.view is not None
        surface = await (rendered_first if answering else rendered)(
            render.dm_panel, panel.view, mentions(match), draft=panel.draft, deadline=panel.deadline_at,
            image_names=await self.display_names(match), closed=render.panel_closed(panel.ended))
        extra = "\n".join(line for line in (note, f"-# Engagement {panel.engagement} of your match in "
                                                  f"{self._where(match)}.") if line)
        return surface, extra

    @staticmethod
    def panel_step(panel: Panel) -> int:
        return panel.engagement

    async def panel_message(self, match: MatchRecord, panel: Panel) -> dict[str, Any]:
        """``send`` keyword arguments of a new message showing ``panel`` (an ephemeral copy of the DM panel)."""
        surface, extra = await self.panel_surface(match, panel, answering=True)
        kwargs = message_kwargs(surface, extra=extra, view=panel_view(match.id, panel.engagement, surface),
                                colour=COLOUR)
        if not kwargs["files"]:
            del kwargs["files"]
        return kwargs

    async def panel_edit(self, match: MatchRecord, panel: Panel, *, answering: bool = False) -> dict[str, Any]:
        """``edit`` keyword arguments that make a panel message show ``panel`` (no buttons once it ended)."""
        note = f"Both orders are in: watch the flips in {self._where(match)}." if panel.ended == "played" else ""
        surface, extra = await self.panel_surface(match, panel, note, answering=answering)
        return edit_kwargs(surface, extra=extra, view=panel_view(match.id, panel.engagement, surface),
                           colour=COLOUR)

    async def panel_answer(self, match: MatchRecord, panel: Panel, shown: discord.Message | None) -> dict[str, Any]:
        """``edit`` keyword arguments for a click's answer: the panel's text and buttons as they stand, and the
        picture ``shown`` (the panel message clicked) already has: a panel's picture is the same for its whole
        engagement (:func:`bot.games.airwar.render.dm_panel`), so a click is answered without drawing, in the time a
        database transaction takes. A message without a picture gets one (drawn first)."""
        image = next((e.image.url for e in (shown.embeds if shown is not None else ()) if e.image.url), None)
        if image is None:
            return await self.panel_edit(match, panel, answering=True)
        note = f"Both orders are in: watch the flips in {self._where(match)}." if panel.ended == "played" else ""
        assert panel.view is not None
        surface = render.dm_panel(panel.view, mentions(match), draft=panel.draft, deadline=panel.deadline_at,
                                  image_names=await self.display_names(match), picture=False,
                                  closed=render.panel_closed(panel.ended))
        extra = "\n".join(line for line in (note, f"-# Engagement {panel.engagement} of your match in "
                                                  f"{self._where(match)}.") if line)
        embed = embed_of(surface, extra=extra, colour=COLOUR)
        embed.set_image(url=image)
        return {"embed": embed, "view": panel_view(match.id, panel.engagement, surface),
                "allowed_mentions": NO_MENTIONS}

    async def _edit_panels(self, show: _Show, engagement: int, seats: Sequence[int]) -> None:
        """The seats' DM panels of the engagement, shown again as they stand now (:meth:`MatchKernel.panel_for`):
        a new deadline, or how the engagement ended for them (then without buttons). Each under its player's
        :meth:`panel_lock`, so a click being answered lands first and this edit after it."""
        match = show.match
        for seat in seats:
            message_id = match.messages.get(dm_name(engagement, seat))
            channel_id = match.seats[seat].dm_channel_id
            if not message_id or channel_id is None:
                continue
            user_id = match.seats[seat].user_id
            async with self.panel_lock(match.id, user_id):
                try:
                    panel = await self.matches.panel_for(match.id, user_id, engagement)
                    kwargs = await self.panel_edit(match, panel)
                    await self._edit(channel_id, message_id, dm=True, **kwargs)
                except (discord.HTTPException, *USER_ERRORS) as error:
                    log.info("match %s: could not update seat %s's panel %s: %s", match.id, seat, engagement, error)

    # --- the challenge ---------------------------------------------------------------------------------
    async def _on_challenge(self, show: _Show, event: QueuedEvent) -> None:
        match = show.match
        if match.challenge_message_id is not None or match.status != "challenge":
            return
        channel = self._channel(match.channel_id)
        message_id = await self._find_challenge(match, channel)
        if message_id is None:
            names = show.names
            surface = render.challenge(names[0], names[1], match.rules, expires_at=event.event["expires_at"])
            message = await self._send(
                match, channel, "challenge", content=names[1], embed=embed_of(surface, colour=COLOUR),
                view=challenge_view(match.id, surface.buttons),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(match.opponent_id)]),
            )
            message_id = message.id
        show.match = await self.matches.set_challenge_message(match.id, message_id)

    async def _find_challenge(self, match: MatchRecord, channel: discord.PartialMessageable) -> int | None:
        """The challenge message the command's answer made before a crash kept its id from being stored (an
        interaction's answer takes no nonce): the newest of the bot's messages with this match's challenge
        buttons among the channel's last 50."""
        prefix = f"aw:c:{match.id}:"
        me = self.bot.user
        try:
            async for message in channel.history(limit=50):
                if me is not None and message.author.id != me.id:
                    continue
                for row in message.components:
                    for item in getattr(row, "children", ()):
                        if str(getattr(item, "custom_id", "") or "").startswith(prefix):
                            return message.id
        except discord.HTTPException as error:
            log.info("match %s: could not look for its challenge message: %s", match.id, error)
        return None

    async def _close_challenge(self, match: MatchRecord, text: str) -> None:
        if match.challenge_message_id is None:
            return
        try:
            await self._edit(match.channel_id, match.challenge_message_id, content=text, embeds=[], view=None,
                             allowed_mentions=NO_MENTIONS)
        except (discord.Forbidden, discord.NotFound) as error:  # deleted, or out of reach: nothing hidden in it
            log.info("match %s: could not close its challenge message: %s", match.id, error)

    async def _on_declined(self, show: _Show, event: QueuedEvent) -> None:
        await self._close_challenge(show.match, "❌ " + render.declined(*show.names))

    async def _on_withdrawn(self, show: _Show, event: QueuedEvent) -> None:
        await self._close_challenge(show.match, "↩️ " + render.withdrawn(*show.names))

    async def _on_expired(self, show: _Show, event: QueuedEvent) -> None:
        await self._close_challenge(show.match, "⌛ " + render.expired(*show.names))

    async def _on_accepted(self, show: _Show, event: QueuedEvent) -> None:
        match = show.match
        thread_id = await self._ensure_thread(show)
        match = show.match
        challenger, opponent = show.names
        where = f"the match is on in <#{thread_id}>" if thread_id is not None else "the match is on right here"
        await self._close_challenge(
            match, f"⚔️ **{opponent}** accepted **{challenger}**'s {render.TITLE} challenge: {where}.")
        if thread_id is not None and "link" not in match.messages:
            line = (f"⚔️ **{render.TITLE}:** {challenger} vs {opponent} · {render.rules_text(match.rules)} — "
                    f"follow the match in <#{thread_id}>.")
            try:
                message = await self._send(match, self._channel(match.channel_id), "link", content=line,
                                           allowed_mentions=NO_MENTIONS)
            except discord.Forbidden as error:  # the thread has everything; the link line is a courtesy
                log.info("match %s: no link line in channel %s: %s", match.id, match.channel_id, error)
                return
            show.match = await self.matches.set_message(match.id, "link", message.id)

    async def _ensure_thread(self, show: _Show) -> int | None:
        """The match's public thread, made from the challenge message the first time; ``None``: the match is
        played in the channel (the server turned thread per match off, the command was used in a thread, or
        threads are not allowed here)."""
        if show.match.thread_id is not None:
            return show.match.thread_id
        names = await self.display_names(show.match)
        show.match, thread_id = await ensure_thread(self.bot, self.matches, show.match,
                                                    f"{render.TITLE}: {names[0]} vs {names[1]}")
        return thread_id

    # --- an engagement ---------------------------------------------------------------------------------
    async def _on_engagement(self, show: _Show, event: QueuedEvent) -> None:
        number = event.event["number"]
        match = show.match
        if match.status == "active" and match.engagement == number:
            for seat in (0, 1):
                if dm_name(number, seat) not in show.match.messages:
                    await self._send_panel(show, number, seat)
        await self._show_board(show, number, up_to=event.seq)

    async def _send_panel(self, show: _Show, number: int, seat: int) -> None:
        match = show.match
        user_id = match.seats[seat].user_id
        panel = await self.matches.panel(match.id, user_id)
        if panel.engagement != number or panel.view is None or panel.finished:
            return
        surface, extra = await self.panel_surface(match, panel)
        try:
            channel = await self._dm(match, seat)
            kwargs = message_kwargs(surface, extra=extra, view=panel_view(match.id, number, surface), colour=COLOUR)
            message = await self._send(match, channel, dm_name(number, seat), **kwargs)
        except discord.Forbidden as error:
            log.info("match %s: no DM to seat %s (%s); the board offers the panel instead", match.id, seat, error)
            show.match = await self.matches.set_message(match.id, dm_name(number, seat), 0)
            return
        await self.matches.set_dm(match.id, user_id, channel.id, message.id)
        show.match = await self.matches.set_message(match.id, dm_name(number, seat), message.id)

    async def _dm(self, match: MatchRecord, seat: int) -> discord.abc.Messageable:
        """The seat's DM channel: the one the match stored, else opened (one at a time, see :meth:`_turn`)."""
        record = match.seats[seat]
        if record.dm_channel_id is not None:
            return self._channel(record.dm_channel_id, dm=True)
        async with self._turn((0, "create_dm")):
            return await self.bot.create_dm(discord.Object(record.user_id))

    def _dms_closed(self, match: MatchRecord, number: int) -> list[int]:
        return [seat for seat in (0, 1) if match.messages.get(dm_name(number, seat)) == 0]

    async def _edit_board(self, show: _Show, board_id: int, kwargs: dict[str, Any]) -> bool:
        """Edit a board; ``False`` when its message is gone (deleted, or left behind in a lost thread)."""
        try:
            await self._play_edit(show, board_id, **kwargs)
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE:
                raise
            log.info("match %s: board message %s is gone; posting it again", show.match.id, board_id)
            return False
        return True

    async def _post_board(self, show: _Show, number: int, lost_id: int | None, **kwargs: Any) -> None:
        """Post engagement ``number``'s board (again, if ``lost_id``'s message is gone) and store its id."""
        name = board_message_name(number) + ("" if lost_id is None else f"/{lost_id}")
        message = await self._play_send(show, name, **kwargs)
        show.match = await self.matches.set_board_message(show.match.id, number, message.id)

    async def _show_board(self, show: _Show, number: int, *, up_to: int, closed: str | None = None) -> None:
        """Engagement ``number``'s board as it stood at event ``up_to`` (posted the first time, edited after);
        ``closed``: the engagement was not played (the game ended), say so and drop the buttons."""
        match = show.match
        board = await self._public_board(match.id, number, up_to)
        if board is None:
            return
        locked = board.locked
        surface = await rendered(render.board, board.view, show.names,
                                 deadline=None if closed else board.deadline_at, image_names=show.image_names)
        no_dm = self._dms_closed(match, number)
        notes = []
        for seat in no_dm:
            if not locked[seat] and not closed:
                notes.append(f"📪 {show.names[seat]}'s DMs are closed: {show.names[seat]}, use "
                             "**Open my battle-order panel** below to arrange your stack.")
        if closed:
            notes.append(closed)
        buttons = open_panel_view(match.id, number) if no_dm and not closed and not all(locked) else None
        board_id = match.board_message_id(number)
        colour = FINISHED_COLOUR if closed else COLOUR
        if board_id is not None:
            kwargs = edit_kwargs(surface, extra="\n".join(notes), view=buttons, colour=colour)
            if await self._edit_board(show, board_id, kwargs):
                return
        ping = [match.seats[seat].user_id for seat in (0, 1) if number == 1 or seat in no_dm]
        kwargs = message_kwargs(surface, extra="\n".join(notes), view=buttons, colour=colour)
        kwargs["allowed_mentions"] = discord.AllowedMentions(users=[discord.Object(u) for u in ping])
        content = " ".join(f"<@{user_id}>" for user_id in ping) or None
        await self._post_board(show, number, board_id, content=content, **kwargs)

    async def _on_order_locked(self, show: _Show, event: QueuedEvent) -> None:
        await self._show_board(show, event.event["engagement"], up_to=event.seq)

    async def _on_flip(self, show: _Show, event: QueuedEvent) -> None:
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
                show.flip_pace_ms = (await self.matches.get_settings(match.guild_id)).flip_pace_ms
            await self.pace_sleep(show.flip_pace_ms / 1000)
        surface = await rendered(render.flips, list(board.events), show.names, flip, engagement=number,
                                 image_names=show.image_names)
        board_id = match.board_message_id(number)
        if board_id is not None and await self._edit_board(show, board_id, edit_kwargs(surface, colour=COLOUR)):
            return
        await self._post_board(show, number, board_id, **message_kwargs(surface, colour=COLOUR))

    async def _on_arrange_timeout(self, show: _Show, event: QueuedEvent) -> None:
        match = show.match
        data = event.event
        number = data["engagement"]
        name = f"afk:{number}"
        if name not in match.messages:
            text = render.afk(show.names, data["seats"], number, forfeit=data.get("forfeit", ()))
            ping = [match.seats[seat].user_id for seat in data["seats"] if seat not in data.get("forfeit", ())]
            message = await self._play_send(
                show, name, content=text,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in ping]))
            show.match = await self.matches.set_message(match.id, name, message.id)
        await self._edit_panels(show, number, data["seats"])

    async def _on_deadline_moved(self, show: _Show, event: QueuedEvent) -> None:
        match = show.match
        data = event.event
        number = data["engagement"]
        board = await self._public_board(match.id, number, event.seq)
        waiting = [seat for seat in (0, 1) if board is None or not board.locked[seat]]
        name = f"deadline:{event.seq}"
        if name not in match.messages:
            text = render.deadline_moved(show.names, number, data["deadline_at"], waiting=waiting)
            message = await self._play_send(show, name, content=text, allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(match.seats[seat].user_id) for seat in waiting]))
            show.match = await self.matches.set_message(match.id, name, message.id)
        if board is not None and not board.played:
            await self._show_board(show, number, up_to=event.seq)
        await self._edit_panels(show, number, waiting)

    async def _on_game_over(self, show: _Show, event: QueuedEvent) -> None:
        match = show.match
        number = event.event.get("engagement")
        if not isinstance(number, int):
            return
        board = await self._public_board(match.id, number, event.seq)
        if board is None or board.played:
            return
        if match.board_message_id(number) is not None:
            why = render.reason_text(event.event, show.names)
            await self._show_board(show, number, up_to=event.seq,
                                   closed=f"🏁 **Game over before this engagement was played.** {why}")
        await self._edit_panels(show, number, [seat for seat in (0, 1) if seat not in board.timed_out])

    async def _on_result(self, show: _Show, event: QueuedEvent) -> None:
        view = await self.matches.view(show.match.id)
        surface = await rendered(render.result, view, show.names, image_names=show.image_names,
                                 ratings=event.event.get("ratings"))
        if "result" not in show.match.messages:
            message = await self._play_send(show, "result", **message_kwargs(surface, colour=COLOUR))
            show.match = await self.matches.set_message(show.match.id, "result", message.id)
        match = show.match
        if match.thread_id is not None and "result:channel" not in match.messages:
            kwargs = message_kwargs(surface, extra=f"The match: <#{match.thread_id}>", colour=COLOUR)
            try:
                message = await self._send(match, self._channel(match.channel_id), "result:channel", **kwargs)
            except discord.Forbidden as error:  # the thread has it; the channel's copy is a courtesy
                log.info("match %s: no result in channel %s: %s", match.id, match.channel_id, error)
                return
            show.match = await self.matches.set_message(match.id, "result:channel", message.id)


__all__ = ["Presenter", "dm_name", "files_of", "nonce"]
