"""The presenter every game's cog shows its matches with: the match's queued events, shown in Discord in order, one
background task per match.

It keeps nothing that matters in memory: every message is rendered from stored events and sent with a nonce made
from the match and the message's name (:func:`~cogs.kit.messages.nonce`), its id stored through the match service,
and each event is marked shown once it is shown, so after a restart showing goes on with the first unshown event
and nothing is posted twice. A failure to show waits and retries later (the event stays queued).

The base shows what every game's match has: the challenge (``challenge``; ``declined`` / ``withdrawn`` /
``expired``; ``accepted``, which makes the match's thread and a link line in the channel), each seat's private
panel (sent by DM, or offered by a button when DMs are closed) and the result posted where the match is played and
in its channel. A game's presenter subclasses it and adds an ``_on_<event type>`` method per event of its own.

The game's render module (``render``) gives the words and pictures: ``TITLE``, ``challenge(challenger, opponent,
rules, expires_at=)``, ``declined`` / ``withdrawn`` / ``expired(challenger, opponent)``, ``accepted(challenger,
opponent, thread_id)``, ``link_line(names, rules, thread_id)`` and ``panel(panel, names)``.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar

import discord

from bot.match.kernel import MatchKernel
from bot.render.common import Surface
from bot.services import USER_ERRORS
from bot.storage.records import MatchRecord, QueuedEvent
from cogs._match_common import ensure_thread, fetch_name, mentions
from cogs.kit.items import MatchButtons
from cogs.kit.messages import NO_MENTIONS, edit_kwargs, embed_of, message_kwargs, nonce

log = logging.getLogger("cogs.kit")

__all__ = ["Presenter", "Show", "ShowLoop", "dm_name", "mentions"]

RETRIES = 4
#: seconds before a match whose events could not be shown is tried again (its next update tries at once)
RETRY_LATER = (5.0, 15.0, 60.0, 300.0)


def dm_name(step: int, seat: int) -> str:
    """The name of a seat's panel message of a step (``0`` as its id: the seat's DMs are closed)."""
    return f"dm:{step}:{seat}"


@dataclass
class Show:
    """The match being shown: its record as last stored, its players' mentions, the events after the one shown."""

    match: MatchRecord
    names: list[str]
    batch: list[QueuedEvent]


class ShowLoop:
    """What every game's presenter runs on: one background task per match showing its unshown events
    (:meth:`_show_unshown`, the subclass's), a retry later when they could not all be shown, one lock per player's
    panel message, and the players' plain names. ``prefix`` names the tasks and retry timers; ``title`` the game in
    logs."""

    prefix: ClassVar[str]
    title: ClassVar[str]

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._closed = False
        self._failures: dict[int, int] = {}  # match id -> runs in a row that left events unshown
        self._names: dict[tuple[int, int], str] = {}
        self._panel_locks: weakref.WeakValueDictionary[tuple[int, int], asyncio.Lock] = weakref.WeakValueDictionary()

    def retry_key(self, match_id: int) -> tuple[str, int]:
        """The timer under which a match whose events could not be shown waits to be tried again."""
        return (f"{self.prefix}-show", match_id)

    async def _show_unshown(self, match_id: int) -> None:
        raise NotImplementedError

    # --- tasks -----------------------------------------------------------------------------------------------
    def show(self, match_id: int) -> None:
        """Show the match's unshown events soon (in a background task; one at a time per match)."""
        if self._closed:
            return
        self._again.add(match_id)
        if match_id not in self._tasks:
            self._tasks[match_id] = asyncio.get_running_loop().create_task(
                self._run(match_id), name=f"{self.prefix}-presenter-{match_id}")

    async def _run(self, match_id: int) -> None:
        try:
            while match_id in self._again and not self._closed:
                self._again.discard(match_id)
                await self._show_unshown(match_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("showing %s match %s failed; its events stay queued", self.title, match_id)
            self._retry_later(match_id)
        finally:
            self._tasks.pop(match_id, None)

    def _retry_later(self, match_id: int) -> None:
        """Events of the match stay unshown: look again in a while (sooner if the match changes meanwhile)."""
        if self._closed:
            return
        failures = self._failures[match_id] = self._failures.get(match_id, 0) + 1
        delay = RETRY_LATER[min(failures, len(RETRY_LATER)) - 1]

        async def again() -> None:
            self.show(match_id)

        self.bot.timers.arm(self.retry_key(match_id), self.bot.clock() + delay, again)

    def _shown_all(self, match_id: int) -> None:
        """Every event of the match is shown: no retry waits any more."""
        if self._failures.pop(match_id, None) is not None:
            self.bot.timers.cancel(self.retry_key(match_id))

    def panel_lock(self, match_id: int, user_id: int) -> asyncio.Lock:
        """One change at a time to a player's panel message: the cog holds it while it applies and answers a click,
        the presenter while it closes or refreshes the panel, so neither undoes the other."""
        key = (match_id, user_id)
        lock = self._panel_locks.get(key)
        if lock is None:
            lock = self._panel_locks[key] = asyncio.Lock()
        return lock

    async def idle(self) -> None:
        """Wait until no match is being shown (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def close(self) -> None:
        self._closed = True
        for match_id in list(self._failures):
            self.bot.timers.cancel(self.retry_key(match_id))
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # --- names -----------------------------------------------------------------------------------------------
    def remember_name(self, guild_id: int | None, user: discord.abc.User) -> None:
        if guild_id is not None:
            self._names[(guild_id, user.id)] = user.display_name

    async def display_names(self, match: MatchRecord) -> list[str]:
        """Plain names (pictures, thread names and titles can't show mentions): cached, else asked of Discord."""
        names = []
        for seat, user_id in enumerate(match.user_ids):
            key = (match.guild_id, user_id)
            if key not in self._names:
                fetched = await fetch_name(self.bot, match.guild_id, user_id)
                if fetched is None:  # not cached: the next message asks again
                    names.append(f"Player {seat + 1}")
                    continue
                self._names[key] = fetched
            names.append(self._names[key])
        return names


class Presenter(ShowLoop):
    """See the module docstring. Subclasses set ``render``, ``buttons``, ``prefix`` (the nonces' and tasks'),
    ``colour`` and ``finished_colour``."""

    render: ClassVar[ModuleType]
    buttons: ClassVar[MatchButtons]
    colour: ClassVar[discord.Colour]
    finished_colour: ClassVar[discord.Colour] = discord.Colour.from_rgb(110, 110, 110)

    def __init__(self, bot: Any, service: MatchKernel) -> None:
        super().__init__(bot)
        self.service = service

    @property
    def title(self) -> str:  # type: ignore[override]
        return str(self.render.TITLE)

    # --- the loop --------------------------------------------------------------------------------------------
    async def _show_unshown(self, match_id: int) -> None:
        queued = await self.service.unshown_events(match_id)
        if not queued:
            return
        match = await self.service.get_match(match_id)
        show = Show(match, mentions(match), queued)
        for index, event in enumerate(queued):
            if self._closed:
                return
            show.match = await self.service.get_match(match_id)
            show.batch = queued[index + 1:]
            if not await self._show_with_retries(show, event):
                self._retry_later(match_id)
                return
            await self.service.mark_shown(match_id, event.seq)
        self._shown_all(match_id)

    async def _show_with_retries(self, show: Show, event: QueuedEvent) -> bool:
        handler = getattr(self, f"_on_{event.type}", None)
        if handler is None:
            return True
        for attempt in range(RETRIES):
            try:
                await handler(show, event)
                return True
            except (discord.Forbidden, discord.NotFound) as error:
                log.warning("%s match %s: cannot show event %s (%s): %s; it waits", self.title, event.match_id,
                            event.seq, event.type, error)
                return False
            except discord.HTTPException as error:
                if attempt == RETRIES - 1:
                    log.warning("%s match %s: showing event %s failed %d times (%s)", self.title, event.match_id,
                                event.seq, RETRIES, error)
                    return False
                await asyncio.sleep(0.5 * 2 ** attempt)
        return False

    # --- sending ---------------------------------------------------------------------------------------------
    def _channel(self, channel_id: int, *, dm: bool = False) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private if dm else None)

    async def _send(self, match: MatchRecord, channel: discord.abc.Messageable, name: str,
                    **kwargs: Any) -> discord.Message:
        channel_id = channel.id  # type: ignore[attr-defined]
        return await channel.send(nonce=nonce(match, f"{self.prefix}:{name}", channel_id), **kwargs)

    async def _post(self, show: Show, name: str, **kwargs: Any) -> None:
        """The match's message ``name`` where the match is played, once (its id stored)."""
        if name in show.match.messages:
            return
        kwargs.setdefault("allowed_mentions", NO_MENTIONS)
        message = await self._send(show.match, self._channel(show.match.play_channel_id), name, **kwargs)
        show.match = await self.service.set_message(show.match.id, name, message.id)

    # --- the challenge ---------------------------------------------------------------------------------------
    async def _on_challenge(self, show: Show, event: QueuedEvent) -> None:
        match = show.match
        if match.challenge_message_id is not None or match.status != "challenge":
            return
        surface = self.render.challenge(show.names[0], show.names[1], match.rules,
                                        expires_at=event.event["expires_at"])
        message = await self._send(match, self._channel(match.channel_id), "challenge", content=show.names[1],
                                   embed=embed_of(surface, colour=self.colour),
                                   view=self.buttons.challenge_view(match.id, surface.buttons),
                                   allowed_mentions=discord.AllowedMentions(users=[discord.Object(match.opponent_id)]))
        show.match = await self.service.set_challenge_message(match.id, message.id)

    async def _close_challenge(self, match: MatchRecord, text: str) -> None:
        if match.challenge_message_id is None:
            return
        message = self._channel(match.channel_id).get_partial_message(match.challenge_message_id)
        try:
            await message.edit(content=text, embeds=[], view=None, allowed_mentions=NO_MENTIONS)
        except (discord.Forbidden, discord.NotFound) as error:
            log.info("%s match %s: could not close its challenge message: %s", self.title, match.id, error)

    async def _on_declined(self, show: Show, event: QueuedEvent) -> None:
        await self._close_challenge(show.match, self.render.declined(*show.names))

    async def _on_withdrawn(self, show: Show, event: QueuedEvent) -> None:
        await self._close_challenge(show.match, self.render.withdrawn(*show.names))

    async def _on_expired(self, show: Show, event: QueuedEvent) -> None:
        await self._close_challenge(show.match, self.render.expired(*show.names))

    async def _on_accepted(self, show: Show, event: QueuedEvent) -> None:
        thread_id = await self._ensure_thread(show)
        match = show.match
        await self._close_challenge(match, self.render.accepted(*show.names, thread_id))
        if thread_id is not None and "link" not in match.messages:
            try:
                message = await self._send(match, self._channel(match.channel_id), "link",
                                           content=self.render.link_line(show.names, match.rules, thread_id),
                                           allowed_mentions=NO_MENTIONS)
            except discord.Forbidden as error:
                log.info("%s match %s: no link line in channel %s: %s", self.title, match.id, match.channel_id,
                         error)
                return
            show.match = await self.service.set_message(match.id, "link", message.id)

    async def _ensure_thread(self, show: Show) -> int | None:
        """The match's public thread, made from the challenge message the first time; ``None``: the match is played
        in the channel (thread per match is off on the server, the command was used in a thread, or threads are not
        allowed there)."""
        undecided = show.match.thread_id is None and "in_channel" not in show.match.messages
        plain = await self.display_names(show.match) if undecided else ["", ""]
        show.match, thread_id = await ensure_thread(self.bot, self.service, show.match,
                                                    f"{self.title}: {plain[0]} vs {plain[1]}")
        return thread_id

    # --- the seats' panels -----------------------------------------------------------------------------------
    def _dms_closed(self, match: MatchRecord, step: int) -> list[int]:
        return [seat for seat in range(len(match.seats)) if match.messages.get(dm_name(step, seat)) == 0]

    def panel_footer(self, match: MatchRecord) -> str:
        return f"-# Your {self.title} match in <#{match.play_channel_id}>."

    async def panel_message(self, match: MatchRecord, panel: Any) -> dict[str, Any]:
        """``send`` keyword arguments of a new message showing ``panel`` (no picture)."""
        surface = self.render.panel(panel, mentions(match))
        kwargs = message_kwargs(surface, extra=self.panel_footer(match), colour=self.colour,
                                view=self.buttons.panel_view(match.id, self.panel_step(panel), surface))
        del kwargs["files"]
        return kwargs

    @staticmethod
    def panel_step(panel: Any) -> int:
        """The step a panel is of."""
        return int(panel.step)

    async def panel_answer(self, match: MatchRecord, panel: Any, shown: discord.Message | None) -> dict[str, Any]:
        """``edit`` keyword arguments of a click's answer: the panel message (``shown``) as ``panel`` shows it."""
        return self.panel_kwargs(match, panel)

    def panel_kwargs(self, match: MatchRecord, panel: Any) -> dict[str, Any]:
        """``edit`` keyword arguments that make a panel message show ``panel`` (no buttons once chosen or over)."""
        surface = self.render.panel(panel, mentions(match))
        return edit_kwargs(surface, extra=self.panel_footer(match),
                           view=self.buttons.panel_view(match.id, self.panel_step(panel), surface),
                           colour=self.finished_colour if panel.ended else self.colour)

    async def _send_panel(self, show: Show, step: int, seat: int) -> None:
        """Seat ``seat``'s panel of ``step`` by DM (message ``dm:<step>:<seat>``; ``0`` when DMs are closed)."""
        match = show.match
        user_id = match.seats[seat].user_id
        panel = await self.service.panel(match.id, user_id)
        if self.panel_step(panel) != step or panel.finished:
            return
        try:
            channel = await self.bot.create_dm(discord.Object(user_id))
            kwargs = await self.panel_message(match, panel)
            message = await self._send(match, channel, dm_name(step, seat), **kwargs)
        except discord.Forbidden as error:
            log.info("%s match %s: no DM to seat %s (%s); the match offers the panel", self.title, match.id, seat,
                     error)
            show.match = await self.service.set_message(match.id, dm_name(step, seat), 0)
            return
        await self.service.set_dm(match.id, user_id, channel.id, message.id)
        show.match = await self.service.set_message(match.id, dm_name(step, seat), message.id)

    async def _edit_panels(self, show: Show, step: int, seats: Sequence[int]) -> None:
        """The seats' panel messages of ``step`` as they stand now (or as the step ended for them)."""
        match = show.match
        for seat in seats:
            message_id = match.messages.get(dm_name(step, seat))
            channel_id = match.seats[seat].dm_channel_id
            if not message_id or channel_id is None:
                continue
            user_id = match.seats[seat].user_id
            async with self.panel_lock(match.id, user_id):
                try:
                    panel = await self.service.panel_for(match.id, user_id, step)
                    await self._channel(channel_id, dm=True).get_partial_message(message_id).edit(
                        **self.panel_kwargs(match, panel))
                except (discord.HTTPException, *USER_ERRORS) as error:
                    log.info("%s match %s: could not update seat %s's panel %s: %s", self.title, match.id, seat,
                             step, error)

    # --- the result ------------------------------------------------------------------------------------------
    async def _post_result(self, show: Show, surface: Surface) -> None:
        """The result where the match is played (``result``) and, when that is a thread, in the channel too
        (``result:channel``)."""
        kwargs = message_kwargs(surface, colour=self.colour)
        del kwargs["files"]
        await self._post(show, "result", **kwargs)
        match = show.match
        if match.thread_id is not None and "result:channel" not in match.messages:
            kwargs = message_kwargs(surface, extra=f"The match: <#{match.thread_id}>", colour=self.colour)
            del kwargs["files"]
            try:
                message = await self._send(match, self._channel(match.channel_id), "result:channel", **kwargs)
            except discord.Forbidden as error:
                log.info("%s match %s: no result in channel %s: %s", self.title, match.id, match.channel_id, error)
                return
            show.match = await self.service.set_message(match.id, "result:channel", message.id)
