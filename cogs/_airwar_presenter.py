"""The presenter: shows a match's queued events in Discord, in order, one background task per match.

The match service queues everything there is to show (:meth:`MatchService.unshown_events`); the presenter shows
each event and then marks it shown (:meth:`MatchService.mark_shown`). It keeps nothing in memory that matters:
message ids go through the service's setters, and every message is rendered from stored events, so showing an
event again (after a kill between showing and marking) edits the same message to the same content, or finds the
message it already sent.

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
* ``arrange_timeout`` -- a note in the thread; the late players' panels lose their buttons;
* ``game_over`` -- an engagement that was not played is closed on its board; open panels lose their buttons;
* ``result`` -- the result in the thread and in the channel (``result`` and ``result:channel``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.render import airwar as render
from bot.render.common import clamp_line
from bot.storage.records import MatchRecord, QueuedEvent
from cogs._airwar_ui import (
    COLOUR,
    FINISHED_COLOUR,
    NO_MENTIONS,
    challenge_view,
    edit_kwargs,
    embed_of,
    files_of,
    message_kwargs,
    open_panel_view,
    panel_view,
)

if TYPE_CHECKING:
    from bot.client import AirWarBot

log = logging.getLogger("cogs.airwar")

THREAD_ALREADY_CREATED = 160004
RETRIES = 4
Sleep = Callable[[float], Awaitable[Any]]


def dm_name(engagement: int, seat: int) -> str:
    """The stored name of a seat's DM panel for an engagement (its message id; 0: the DM was refused)."""
    return f"dm:{engagement}:{seat}"


def mentions(match: MatchRecord) -> list[str]:
    return [f"<@{user_id}>" for user_id in match.user_ids]


def public_view(start: dict[str, Any], rules: dict[str, Any], locked: Sequence[bool]) -> dict[str, Any]:
    """The spectator's view of an engagement as its ``engagement`` event drew it (for :func:`render.board`)."""
    return {
        "game": "airwar", "seat": None, "rules": dict(rules), "engagement": start["number"], "phase": "ordering",
        "stack_size": start["stack_size"], "stacks": [list(stack) for stack in start["stacks"]],
        "locked": list(locked), "waiting_for": [seat for seat in (0, 1) if not locked[seat]], "my_order": None,
        "deck_counts": list(start["deck_counts"]),
        "discards": [[""] * count for count in start["discard_counts"]],
        "table": [[], []], "outcome": None, "stats": {},
    }


@dataclass
class _Show:
    """One run's view of a match: the record (refreshed as setters return it) and the names to show."""

    match: MatchRecord
    names: list[str]
    image_names: list[str]
    engagements: dict[int, list[QueuedEvent]] = field(default_factory=dict)


class Presenter:
    """One task per match shows its unshown events; :meth:`show` starts it (or makes it look again)."""

    def __init__(self, bot: AirWarBot, *, pace_sleep: Sleep = asyncio.sleep) -> None:
        self.bot = bot
        self.pace_sleep = pace_sleep
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._names: dict[tuple[int, int], str] = {}
        self._closed = False

    @property
    def matches(self):
        return self.bot.matches

    # --- tasks -----------------------------------------------------------------------------------------
    def show(self, match_id: int) -> None:
        """Show the match's unshown events soon (in a background task; one at a time per match)."""
        if self._closed:
            return
        self._again.add(match_id)
        if match_id not in self._tasks:
            self._tasks[match_id] = asyncio.get_running_loop().create_task(
                self._run(match_id), name=f"airwar-presenter-{match_id}")

    async def _run(self, match_id: int) -> None:
        try:
            while match_id in self._again and not self._closed:
                self._again.discard(match_id)
                await self._show_unshown(match_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("showing match %s failed; its events stay queued", match_id)
        finally:
            self._tasks.pop(match_id, None)

    async def close(self) -> None:
        self._closed = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # --- names -----------------------------------------------------------------------------------------
    def remember_name(self, guild_id: int | None, user: discord.abc.User) -> None:
        if guild_id is not None:
            self._names[(guild_id, user.id)] = user.display_name

    async def display_names(self, match: MatchRecord) -> list[str]:
        """Plain names for pictures and alt text (mentions can't be drawn): cached, else asked of Discord."""
        names = []
        for seat, user_id in enumerate(match.user_ids):
            key = (match.guild_id, user_id)
            if key not in self._names:
                fetched = await self._fetch_name(match.guild_id, user_id)
                if fetched is None:  # not cached: the next message asks again
                    names.append(f"Player {seat + 1}")
                    continue
                self._names[key] = fetched
            names.append(self._names[key])
        return names

    async def _fetch_name(self, guild_id: int, user_id: int) -> str | None:
        guild = self.bot.get_guild(guild_id)
        try:
            if guild is not None:
                member = guild.get_member(user_id) or await guild.fetch_member(user_id)
                return member.display_name
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            return user.display_name
        except discord.HTTPException:
            return None

    # --- the loop ----------------------------------------------------------------------------------------
    async def _show_unshown(self, match_id: int) -> None:
        queued = await self.matches.unshown_events(match_id)
        if not queued:
            return
        match = await self.matches.get_match(match_id)
        show = _Show(match, mentions(match), await self.display_names(match))
        for event in queued:
            if self._closed:
                return
            show.match = await self.matches.get_match(match_id)
            await self._show_with_retries(show, event)
            await self.matches.mark_shown(match_id, event.seq)

    async def _show_with_retries(self, show: _Show, event: QueuedEvent) -> None:
        handler = getattr(self, f"_on_{event.type}", None)
        if handler is None:
            return
        for attempt in range(RETRIES):
            try:
                await handler(show, event)
                return
            except (discord.Forbidden, discord.NotFound) as error:
                log.warning("match %s: cannot show event %s (%s): %s", event.match_id, event.seq, event.type, error)
                return
            except discord.HTTPException as error:
                if attempt == RETRIES - 1:
                    log.error("match %s: showing event %s (%s) failed %d times, skipped: %s", event.match_id,
                              event.seq, event.type, RETRIES, error)
                    return
                await asyncio.sleep(0.5 * 2 ** attempt)

    # --- helpers -----------------------------------------------------------------------------------------
    def _channel(self, channel_id: int, *, dm: bool = False) -> discord.PartialMessageable:
        kind = discord.ChannelType.private if dm else None
        return self.bot.get_partial_messageable(channel_id, type=kind)

    def _play(self, match: MatchRecord) -> discord.PartialMessageable:
        return self._channel(match.play_channel_id)

    async def _engagement(self, show: _Show, number: int, *, up_to: int) -> list[QueuedEvent]:
        """The engagement's events (shown or not), fetched again if the cached ones stop before ``up_to``."""
        cached = show.engagements.get(number)
        if cached is None or cached[-1].seq < up_to:
            cached = await self.matches.events(show.match.id, engagement=number)
            show.engagements[number] = cached
        return cached

    def _where(self, match: MatchRecord) -> str:
        return f"<#{match.thread_id}>" if match.thread_id is not None else f"<#{match.channel_id}>"

    async def _remove_panel_buttons(self, match: MatchRecord, engagement: int, seats: Sequence[int]) -> None:
        """The seats' DM panels of the engagement keep their text and lose their buttons."""
        for seat in seats:
            message_id = match.messages.get(dm_name(engagement, seat))
            channel_id = match.seats[seat].dm_channel_id
            if not message_id or channel_id is None:
                continue
            try:
                await self._channel(channel_id, dm=True).get_partial_message(message_id).edit(view=None)
            except discord.HTTPException as error:
                log.info("match %s: could not close seat %s's panel %s: %s", match.id, seat, engagement, error)

    # --- the challenge ---------------------------------------------------------------------------------
    async def _on_challenge(self, show: _Show, event: QueuedEvent) -> None:
        match = show.match
        if match.challenge_message_id is not None or match.status != "challenge":
            return
        names = show.names
        surface = render.challenge(names[0], names[1], match.rules, expires_at=event.event["expires_at"])
        message = await self._channel(match.channel_id).send(
            content=names[1], embed=embed_of(surface), view=challenge_view(match.id, surface.buttons),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(match.opponent_id)]),
        )
        show.match = await self.matches.set_challenge_message(match.id, message.id)

    async def _close_challenge(self, match: MatchRecord, text: str) -> None:
        if match.challenge_message_id is None:
            return
        message = self._channel(match.channel_id).get_partial_message(match.challenge_message_id)
        await message.edit(content=text, embeds=[], view=None, allowed_mentions=NO_MENTIONS)

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
            message = await self._channel(match.channel_id).send(line, allowed_mentions=NO_MENTIONS)
            show.match = await self.matches.set_message(match.id, "link", message.id)

    async def _ensure_thread(self, show: _Show) -> int | None:
        """The match's public thread, made from the challenge message the first time; ``None``: the match is
        played in the channel (the command was used in a thread, or threads are not allowed here)."""
        match = show.match
        if match.thread_id is not None:
            return match.thread_id
        if "in_channel" in match.messages:
            return None
        channel = self.bot.get_channel(match.channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(match.channel_id)
            except discord.HTTPException:
                channel = None
        thread_id: int | None = None
        if isinstance(channel, discord.TextChannel):
            names = await self.display_names(match)
            name = clamp_line(f"{render.TITLE}: {names[0]} vs {names[1]}", 100)
            try:
                if match.challenge_message_id is not None:
                    try:
                        thread = await channel.get_partial_message(match.challenge_message_id).create_thread(
                            name=name, auto_archive_duration=1440)
                    except discord.NotFound:  # the challenge message is gone: a thread of its own
                        thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                                             auto_archive_duration=1440)
                else:
                    thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                                         auto_archive_duration=1440)
                thread_id = thread.id
            except discord.Forbidden as error:
                log.info("match %s: no thread in channel %s (%s); playing in the channel", match.id, channel.id,
                         error)
            except discord.HTTPException as error:
                if error.code != THREAD_ALREADY_CREATED or match.challenge_message_id is None:
                    raise
                thread_id = match.challenge_message_id  # made before a restart: a message's thread has its id
        if thread_id is None:
            show.match = await self.matches.set_message(match.id, "in_channel", match.channel_id)
            return None
        show.match = await self.matches.set_thread(match.id, thread_id)
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
        surface = render.dm_panel(panel.view, show.names, draft=panel.draft, deadline=panel.deadline_at,
                                  image_names=show.image_names)
        extra = f"-# Engagement {number} of your match in {self._where(match)}."
        try:
            channel = await self.bot.create_dm(discord.Object(user_id))
            message = await channel.send(**message_kwargs(surface, extra=extra,
                                                          view=panel_view(match.id, number, surface)))
        except discord.Forbidden as error:
            log.info("match %s: no DM to seat %s (%s); the board offers the panel instead", match.id, seat, error)
            show.match = await self.matches.set_message(match.id, dm_name(number, seat), 0)
            return
        await self.matches.set_dm(match.id, user_id, channel.id, message.id)
        show.match = await self.matches.set_message(match.id, dm_name(number, seat), message.id)

    def _dms_closed(self, match: MatchRecord, number: int) -> list[int]:
        return [seat for seat in (0, 1) if match.messages.get(dm_name(number, seat)) == 0]

    async def _show_board(self, show: _Show, number: int, *, up_to: int, closed: str | None = None) -> None:
        """Engagement ``number``'s board as it stood at event ``up_to`` (posted the first time, edited after);
        ``closed``: the engagement was not played (the game ended), say so and drop the buttons."""
        match = show.match
        events = await self._engagement(show, number, up_to=up_to)
        start = next((e.event for e in events if e.type == "engagement"), None)
        if start is None:
            return
        locked = [False, False]
        for queued in events:
            if queued.type == "order_locked" and queued.seq <= up_to:
                locked[queued.event["seat"]] = True
        view = public_view(start, match.rules, locked)
        surface = render.board(view, show.names, deadline=None if closed else start.get("deadline_at"),
                               image_names=show.image_names)
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
            await self._play(match).get_partial_message(board_id).edit(**kwargs)
            return
        ping = [match.seats[seat].user_id for seat in (0, 1) if number == 1 or seat in no_dm]
        kwargs = message_kwargs(surface, extra="\n".join(notes), view=buttons)
        kwargs["allowed_mentions"] = discord.AllowedMentions(users=[discord.Object(u) for u in ping])
        content = " ".join(f"<@{user_id}>" for user_id in ping) or None
        message = await self._play(match).send(content=content, **kwargs)
        show.match = await self.matches.set_board_message(match.id, number, message.id)

    async def _on_order_locked(self, show: _Show, event: QueuedEvent) -> None:
        if show.match.board_message_id(event.event["engagement"]) is not None:
            await self._show_board(show, event.event["engagement"], up_to=event.seq)

    async def _on_flip(self, show: _Show, event: QueuedEvent) -> None:
        match = show.match
        number, flip = event.event["engagement"], event.event["flip"]
        board_id = match.board_message_id(number)
        if board_id is None:
            return
        events = await self._engagement(show, number, up_to=event.seq)
        if flip > 1:
            settings = await self.matches.get_settings(match.guild_id)
            await self.pace_sleep(settings.flip_pace_ms / 1000)
        surface = render.flips([q.event for q in events], show.names, flip, engagement=number,
                               image_names=show.image_names)
        await self._play(match).get_partial_message(board_id).edit(**edit_kwargs(surface))

    async def _on_arrange_timeout(self, show: _Show, event: QueuedEvent) -> None:
        match = show.match
        data = event.event
        number = data["engagement"]
        name = f"afk:{number}"
        if name not in match.messages:
            text = render.afk(show.names, data["seats"], number, forfeit=data.get("forfeit", ()))
            ping = [match.seats[seat].user_id for seat in data["seats"] if seat not in data.get("forfeit", ())]
            message = await self._play(match).send(
                text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in ping]))
            show.match = await self.matches.set_message(match.id, name, message.id)
        await self._remove_panel_buttons(show.match, number, data["seats"])

    async def _on_game_over(self, show: _Show, event: QueuedEvent) -> None:
        match = show.match
        number = event.event.get("engagement")
        if not isinstance(number, int):
            return
        events = await self._engagement(show, number, up_to=event.seq)
        played = any(q.type == "flip" for q in events)
        if not played and match.board_message_id(number) is not None:
            why = render.reason_text(event.event, show.names)
            await self._show_board(show, number, up_to=event.seq,
                                   closed=f"🏁 **Game over before this engagement was played.** {why}")
        locked = {q.event["seat"] for q in events if q.type == "order_locked" and q.seq <= event.seq}
        await self._remove_panel_buttons(show.match, number, [seat for seat in (0, 1) if seat not in locked])

    async def _on_result(self, show: _Show, event: QueuedEvent) -> None:
        match = show.match
        view = await self.matches.view(match.id)
        surface = render.result(view, show.names, image_names=show.image_names, ratings=event.event.get("ratings"))
        if "result" not in match.messages:
            try:
                message = await self._play(match).send(**message_kwargs(surface))
                show.match = await self.matches.set_message(match.id, "result", message.id)
            except (discord.Forbidden, discord.NotFound) as error:  # the thread is gone: the channel still hears
                log.warning("match %s: no result in its thread: %s", match.id, error)
        if match.thread_id is not None and "result:channel" not in show.match.messages:
            kwargs = message_kwargs(surface, extra=f"The match: <#{match.thread_id}>")
            message = await self._channel(match.channel_id).send(**kwargs)
            show.match = await self.matches.set_message(match.id, "result:channel", message.id)


__all__ = ["Presenter", "dm_name", "files_of", "public_view"]
