"""Army's presenter: shows an Army match's queued events in Discord, in order, one background task per match.

Like Air War's presenter (whose generic pieces it imports: message building, nonces), it keeps nothing that
matters in memory: every message is rendered from stored events and sent with a nonce made from the match and
the message's name, its id stored through the service, and each event is marked shown once it is shown, so after a
restart showing goes on with the first unshown event and nothing is posted twice.

What each event becomes:

* ``challenge`` -- the challenge message (posted here only when the command's own answer was lost);
* ``accepted`` / ``declined`` / ``withdrawn`` / ``expired`` -- the challenge message says so and loses its buttons;
  on accept the match's public thread is made from it (the channel itself when the server turned thread per match
  off or threads are refused) and the channel gets a line linking the thread;
* ``turn`` -- the previous step's round message is closed; each player's DM panel is sent (``dm:<step>:<seat>``;
  ``0``: DMs closed, the round message then gives that player an "Open my Army panel" button); then the step's
  public round message (``round:<step>``): the previous round's reveal, both sides' stamina, who has chosen, the
  deadline;
* ``chosen`` -- the round message shows who has chosen (skipped when the same batch already ends the step);
* ``turn_timeout`` -- a note in the match (``afk:<step>``); the late players' panels say what was played for them;
* ``deadline_moved`` -- a note; the round message and the waiting players' panels show the new deadline;
* ``game_over`` -- the step's round message and the panels still open are closed;
* ``result`` -- the result in the match and in the channel (``result``, ``result:channel``).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.games.army import render
from bot.games.army.flow import ARRANGE_STEP, ArmyPanel
from bot.render.common import clamp_line
from bot.services import USER_ERRORS
from bot.services.matches import MatchService
from bot.storage.records import MatchRecord, QueuedEvent
from cogs._airwar_presenter import nonce
from cogs._airwar_ui import NO_MENTIONS, edit_kwargs, embed_of, message_kwargs
from cogs._army_ui import COLOUR, FINISHED_COLOUR, challenge_view, open_panel_view, panel_view
from cogs._match_common import ensure_thread

if TYPE_CHECKING:
    from bot.client import AirWarBot

log = logging.getLogger("cogs.army")

RETRIES = 4
RETRY_LATER = (5.0, 15.0, 60.0, 300.0)
#: events that end a step: a ``chosen`` followed by one of these in the same batch needs no edit of its own
STEP_ENDS = frozenset({"reveal", "armies_set", "turn_timeout", "game_over"})


def dm_name(step: int, seat: int) -> str:
    return f"dm:{step}:{seat}"


def round_name(step: int) -> str:
    return f"round:{step}"


def retry_key(match_id: int) -> tuple[str, int]:
    return ("army-show", match_id)


def mentions(match: MatchRecord) -> list[str]:
    return [f"<@{user_id}>" for user_id in match.user_ids]


@dataclass
class _Show:
    match: MatchRecord
    names: list[str]
    batch: list[QueuedEvent]


class ArmyPresenter:
    def __init__(self, bot: AirWarBot, service: MatchService) -> None:
        self.bot = bot
        self.service = service
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._closed = False
        self._failures: dict[int, int] = {}
        self._names: dict[tuple[int, int], str] = {}
        self._panel_locks: weakref.WeakValueDictionary[tuple[int, int], asyncio.Lock] = weakref.WeakValueDictionary()

    # --- tasks -----------------------------------------------------------------------------------------------
    def show(self, match_id: int) -> None:
        if self._closed:
            return
        self._again.add(match_id)
        if match_id not in self._tasks:
            self._tasks[match_id] = asyncio.get_running_loop().create_task(
                self._run(match_id), name=f"army-presenter-{match_id}")

    async def _run(self, match_id: int) -> None:
        try:
            while match_id in self._again and not self._closed:
                self._again.discard(match_id)
                await self._show_unshown(match_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("showing Army match %s failed; its events stay queued", match_id)
            self._retry_later(match_id)
        finally:
            self._tasks.pop(match_id, None)

    def _retry_later(self, match_id: int) -> None:
        if self._closed:
            return
        failures = self._failures[match_id] = self._failures.get(match_id, 0) + 1
        delay = RETRY_LATER[min(failures, len(RETRY_LATER)) - 1]

        async def again() -> None:
            self.show(match_id)

        self.bot.timers.arm(retry_key(match_id), self.bot.clock() + delay, again)

    def panel_lock(self, match_id: int, user_id: int) -> asyncio.Lock:
        """One change at a time to a player's panel message (a click's answer, or the presenter closing it)."""
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
            self.bot.timers.cancel(retry_key(match_id))
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # --- names -----------------------------------------------------------------------------------------------
    def remember_name(self, guild_id: int | None, user: discord.abc.User) -> None:
        if guild_id is not None:
            self._names[(guild_id, user.id)] = user.display_name

    async def display_names(self, match: MatchRecord) -> list[str]:
        """Plain names (thread names and titles can't show mentions): cached, else asked of Discord."""
        names = []
        for seat, user_id in enumerate(match.user_ids):
            key = (match.guild_id, user_id)
            if key not in self._names:
                guild = self.bot.get_guild(match.guild_id)
                try:
                    member = None if guild is None else guild.get_member(user_id) or await guild.fetch_member(user_id)
                except discord.HTTPException:
                    member = None
                if member is None:
                    names.append(f"Player {seat + 1}")
                    continue
                self._names[key] = member.display_name
            names.append(self._names[key])
        return names

    # --- the loop --------------------------------------------------------------------------------------------
    async def _show_unshown(self, match_id: int) -> None:
        queued = await self.service.unshown_events(match_id)
        if not queued:
            return
        match = await self.service.get_match(match_id)
        show = _Show(match, mentions(match), queued)
        for index, event in enumerate(queued):
            if self._closed:
                return
            show.match = await self.service.get_match(match_id)
            show.batch = queued[index + 1:]
            if not await self._show_with_retries(show, event):
                self._retry_later(match_id)
                return
            await self.service.mark_shown(match_id, event.seq)
        if self._failures.pop(match_id, None) is not None:
            self.bot.timers.cancel(retry_key(match_id))

    async def _show_with_retries(self, show: _Show, event: QueuedEvent) -> bool:
        handler = getattr(self, f"_on_{event.type}", None)
        if handler is None:
            return True
        for attempt in range(RETRIES):
            try:
                await handler(show, event)
                return True
            except (discord.Forbidden, discord.NotFound) as error:
                log.warning("Army match %s: cannot show event %s (%s): %s; it waits", event.match_id, event.seq,
                            event.type, error)
                return False
            except discord.HTTPException as error:
                if attempt == RETRIES - 1:
                    log.warning("Army match %s: showing event %s failed %d times (%s)", event.match_id, event.seq,
                                RETRIES, error)
                    return False
                await asyncio.sleep(0.5 * 2 ** attempt)
        return False

    # --- helpers ---------------------------------------------------------------------------------------------
    def _channel(self, channel_id: int, *, dm: bool = False) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private if dm else None)

    @staticmethod
    async def _send(match: MatchRecord, channel: discord.abc.Messageable, name: str, **kwargs: Any) -> discord.Message:
        channel_id = channel.id  # type: ignore[attr-defined]
        return await channel.send(nonce=nonce(match, f"army:{name}", channel_id), **kwargs)

    async def _post(self, show: _Show, name: str, **kwargs: Any) -> None:
        """The match's message ``name`` where the match is played, once (its id stored)."""
        if name in show.match.messages:
            return
        kwargs.setdefault("allowed_mentions", NO_MENTIONS)
        message = await self._send(show.match, self._channel(show.match.play_channel_id), name, **kwargs)
        show.match = await self.service.set_message(show.match.id, name, message.id)

    # --- the challenge ---------------------------------------------------------------------------------------
    async def _on_challenge(self, show: _Show, event: QueuedEvent) -> None:
        match = show.match
        if match.challenge_message_id is not None or match.status != "challenge":
            return
        surface = render.challenge(show.names[0], show.names[1], match.rules, expires_at=event.event["expires_at"])
        message = await self._send(match, self._channel(match.channel_id), "challenge", content=show.names[1],
                                   embed=embed_of(surface, colour=COLOUR),
                                   view=challenge_view(match.id, surface.buttons),
                                   allowed_mentions=discord.AllowedMentions(users=[discord.Object(match.opponent_id)]))
        show.match = await self.service.set_challenge_message(match.id, message.id)

    async def _close_challenge(self, match: MatchRecord, text: str) -> None:
        if match.challenge_message_id is None:
            return
        message = self._channel(match.channel_id).get_partial_message(match.challenge_message_id)
        try:
            await message.edit(content=text, embeds=[], view=None, allowed_mentions=NO_MENTIONS)
        except (discord.Forbidden, discord.NotFound) as error:
            log.info("Army match %s: could not close its challenge message: %s", match.id, error)

    async def _on_declined(self, show: _Show, event: QueuedEvent) -> None:
        await self._close_challenge(show.match, render.declined(*show.names))

    async def _on_withdrawn(self, show: _Show, event: QueuedEvent) -> None:
        await self._close_challenge(show.match, render.withdrawn(*show.names))

    async def _on_expired(self, show: _Show, event: QueuedEvent) -> None:
        await self._close_challenge(show.match, render.expired(*show.names))

    async def _on_accepted(self, show: _Show, event: QueuedEvent) -> None:
        thread_id = await self._ensure_thread(show)
        match = show.match
        await self._close_challenge(match, render.accepted(*show.names, thread_id))
        if thread_id is not None and "link" not in match.messages:
            try:
                message = await self._send(match, self._channel(match.channel_id), "link",
                                           content=render.link_line(show.names, match.rules, thread_id),
                                           allowed_mentions=NO_MENTIONS)
            except discord.Forbidden as error:
                log.info("Army match %s: no link line in channel %s: %s", match.id, match.channel_id, error)
                return
            show.match = await self.service.set_message(match.id, "link", message.id)

    async def _ensure_thread(self, show: _Show) -> int | None:
        """The match's public thread, made from the challenge message the first time; ``None``: the match is played
        in the channel (thread per match is off on the server, the command was used in a thread, or threads are not
        allowed there)."""
        undecided = show.match.thread_id is None and "in_channel" not in show.match.messages
        plain = await self.display_names(show.match) if undecided else ["", ""]
        show.match, thread_id = await ensure_thread(self.bot, self.service, show.match,
                                                    f"{render.TITLE}: {plain[0]} vs {plain[1]}")
        return thread_id

    # --- steps -----------------------------------------------------------------------------------------------
    def _dms_closed(self, match: MatchRecord, step: int) -> list[int]:
        return [seat for seat in (0, 1) if match.messages.get(dm_name(step, seat)) == 0]

    async def _round_surface(self, show: _Show, step: int, up_to: int, closed: str | None = None):
        events = [q for q in await self.service.events(show.match.id, engagement=step) if q.seq <= up_to]
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
            q.event for q in await self.service.events(show.match.id, engagement=step - 1)]
        return render.round_board(turn, previous, show.names, chosen=chosen, closed=closed,
                                  dms_closed=self._dms_closed(show.match, step)), chosen

    async def _show_round(self, show: _Show, step: int, up_to: int, closed: str | None = None) -> None:
        """Step ``step``'s round message as it stood at event ``up_to`` (posted the first time, edited after)."""
        built = await self._round_surface(show, step, up_to, closed)
        if built is None:
            return
        surface, chosen = built
        match = show.match
        no_dm = [seat for seat in self._dms_closed(match, step) if not chosen[seat]]
        view = open_panel_view(match.id, step) if no_dm and closed is None else None
        colour = FINISHED_COLOUR if closed else COLOUR
        message_id = match.messages.get(round_name(step))
        if message_id is not None:
            await self._channel(match.play_channel_id).get_partial_message(message_id).edit(
                **edit_kwargs(surface, view=view, colour=colour))
            return
        ping = [match.seats[seat].user_id for seat in (0, 1) if step == ARRANGE_STEP or seat in no_dm]
        kwargs = message_kwargs(surface, view=view, colour=colour)
        del kwargs["files"]
        kwargs["allowed_mentions"] = discord.AllowedMentions(users=[discord.Object(u) for u in ping])
        await self._post(show, round_name(step), content=" ".join(f"<@{u}>" for u in ping) or None, **kwargs)

    async def _on_turn(self, show: _Show, event: QueuedEvent) -> None:
        step = event.event["engagement"]
        if step > ARRANGE_STEP and round_name(step - 1) in show.match.messages:
            await self._show_round(show, step - 1, event.seq, closed="-# Both choices are in: see the next message.")
        match = show.match
        if match.status == "active" and match.engagement == step:
            for seat in (0, 1):
                if dm_name(step, seat) not in show.match.messages:
                    await self._send_panel(show, step, seat)
        await self._show_round(show, step, event.seq)

    async def _send_panel(self, show: _Show, step: int, seat: int) -> None:
        match = show.match
        user_id = match.seats[seat].user_id
        panel = await self.service.panel(match.id, user_id)
        if panel.step != step or panel.finished:
            return
        surface = render.panel(panel, show.names)
        try:
            channel = await self.bot.create_dm(discord.Object(user_id))
            kwargs = message_kwargs(surface, extra=self.panel_footer(match), colour=COLOUR,
                                    view=panel_view(match.id, step, surface))
            del kwargs["files"]
            message = await self._send(match, channel, dm_name(step, seat), **kwargs)
        except discord.Forbidden as error:
            log.info("Army match %s: no DM to seat %s (%s); the round message offers the panel", match.id, seat,
                     error)
            show.match = await self.service.set_message(match.id, dm_name(step, seat), 0)
            return
        await self.service.set_dm(match.id, user_id, channel.id, message.id)
        show.match = await self.service.set_message(match.id, dm_name(step, seat), message.id)

    @staticmethod
    def panel_footer(match: MatchRecord) -> str:
        return f"-# Your {render.TITLE} match in <#{match.play_channel_id}>."

    def panel_kwargs(self, match: MatchRecord, panel: ArmyPanel) -> dict[str, Any]:
        """``edit`` keyword arguments that make a panel message show ``panel`` (no buttons once chosen or over)."""
        surface = render.panel(panel, mentions(match))
        return edit_kwargs(surface, extra=self.panel_footer(match), view=panel_view(match.id, panel.step, surface),
                           colour=FINISHED_COLOUR if panel.ended else COLOUR)

    async def _edit_panels(self, show: _Show, step: int, seats: Sequence[int]) -> None:
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
                    log.info("Army match %s: could not update seat %s's panel %s: %s", match.id, seat, step, error)

    async def _on_chosen(self, show: _Show, event: QueuedEvent) -> None:
        step = event.event["engagement"]
        if any(q.engagement == step and q.type in STEP_ENDS for q in show.batch):
            return  # the step ends in this batch: the next message says it all
        await self._show_round(show, step, event.seq)

    async def _on_turn_timeout(self, show: _Show, event: QueuedEvent) -> None:
        step = event.event["engagement"]
        await self._post(show, f"afk:{step}", content=render.afk(show.names, event.event),
                         allowed_mentions=discord.AllowedMentions(users=[discord.Object(u)
                                                                         for u in event.event["user_ids"]]))
        await self._edit_panels(show, step, event.event["seats"])

    async def _on_deadline_moved(self, show: _Show, event: QueuedEvent) -> None:
        step = event.event["engagement"]
        await self._post(show, f"deadline:{event.seq}",
                         content=render.deadline_moved(show.names, step, event.event["deadline_at"]))
        await self._show_round(show, step, event.seq)
        chosen = {q.event["seat"] for q in await self.service.events(show.match.id, engagement=step)
                  if q.type == "chosen" and q.seq <= event.seq}
        await self._edit_panels(show, step, [seat for seat in (0, 1) if seat not in chosen])

    async def _on_game_over(self, show: _Show, event: QueuedEvent) -> None:
        step = event.event["engagement"]
        if round_name(step) in show.match.messages:
            await self._show_round(show, step, event.seq, closed="🏁 **The match is over:** see the result below.")
        events = await self.service.events(show.match.id, engagement=step)
        chosen = {q.event["seat"] for q in events if q.type == "chosen" and q.seq < event.seq}
        timed_out = {seat for q in events if q.type == "turn_timeout" for seat in q.event["seats"]}
        await self._edit_panels(show, step, [seat for seat in (0, 1) if seat not in chosen | timed_out])

    async def _on_result(self, show: _Show, event: QueuedEvent) -> None:
        match = show.match
        events = await self.service.events(match.id)
        game_over = next((q for q in reversed(events) if q.type == "game_over" and q.seq < event.seq), None)
        if game_over is None:
            return
        final = [q.event for q in events if q.engagement == game_over.engagement and q.seq < game_over.seq]
        plain = await self.display_names(match)
        reveals = [q for q in events if q.type == "reveal"]
        surface = render.result(game_over.event, final, show.names, ratings=event.event.get("ratings"),
                                rounds=len(reveals))
        title = surface.title
        if game_over.event.get("winner") is not None:
            title = clamp_line(f"{render.TITLE} — {plain[game_over.event['winner']]} wins", 256)
        surface = type(surface)(title, surface.text)
        kwargs = message_kwargs(surface, colour=COLOUR)
        del kwargs["files"]
        await self._post(show, "result", **kwargs)
        match = show.match
        if match.thread_id is not None and "result:channel" not in match.messages:
            kwargs = message_kwargs(surface, extra=f"The match: <#{match.thread_id}>", colour=COLOUR)
            del kwargs["files"]
            try:
                message = await self._send(match, self._channel(match.channel_id), "result:channel", **kwargs)
            except discord.Forbidden as error:
                log.info("Army match %s: no result in channel %s: %s", match.id, match.channel_id, error)
                return
            show.match = await self.service.set_message(match.id, "result:channel", message.id)
