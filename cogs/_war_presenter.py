"""Shows a War match's queued events in Discord, in order, one background task per match.

War has no hidden cards, so the one live message of a game (``table``) is always rendered from the stored game as
it stands (never ahead of what is committed): a batch of round events becomes one edit. Events with a message of
their own are shown where they fall: ``accepted`` (the challenge or lobby message closes, the public thread is
made and linked from the channel, the table is posted), ``turn_timeout`` / ``pace`` / ``deadline_moved`` (notes in
the thread), ``result`` (the result, with the card-count chart, in the thread and in the channel). Every message is
sent with a nonce made from the match and the message's name, so a send repeated after a crash is not doubled, and
events are marked shown only after they were shown.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.games.war import render
from bot.games.war.flow import card_history
from bot.storage.records import MatchRecord, QueuedEvent
from cogs._airwar_presenter import nonce
from cogs._airwar_ui import rendered
from cogs._match_common import ensure_thread, fetch_name, mentions
from cogs._war_ui import COLOUR, FINISHED_COLOUR, NO_MENTIONS, view_of
from cogs.kit.messages import files_of

if TYPE_CHECKING:
    from cogs.war import WarCog

log = logging.getLogger("cogs.war")

RETRY_LATER = (2.0, 10.0, 60.0, 300.0)
#: events the live table shows (a batch of them is one edit)
TABLE_EVENTS = frozenset({"flip", "battle", "war", "take", "out", "reshuffle", "pot_aside", "turn", "vote", "pace",
                          "played_out", "game_over", "turn_timeout", "deadline_moved"})
Sleep = Callable[[float], Awaitable[Any]]


def embed(surface, *, colour: discord.Colour = COLOUR, extra: str = "") -> discord.Embed:
    text = surface.text + (f"\n\n{extra}" if extra else "")
    result = discord.Embed(title=surface.title, description=text, colour=colour)
    if surface.picture is not None:
        result.set_image(url=f"attachment://{surface.picture.filename}")
    return result


class WarPresenter:
    def __init__(self, cog: WarCog) -> None:
        self.cog = cog
        self.bot = cog.bot
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._failures: dict[int, int] = {}
        self._names: dict[tuple[int, int], str] = {}
        self._closed = False

    @property
    def war(self):
        return self.cog.war

    def show(self, match_id: int) -> None:
        if self._closed:
            return
        self._again.add(match_id)
        if match_id not in self._tasks:
            self._tasks[match_id] = asyncio.get_running_loop().create_task(self._run(match_id),
                                                                           name=f"war-presenter-{match_id}")

    async def _run(self, match_id: int) -> None:
        try:
            while match_id in self._again and not self._closed:
                self._again.discard(match_id)
                await self._show_unshown(match_id)
            self._failures.pop(match_id, None)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            if isinstance(error, discord.HTTPException):
                log.warning("showing war match %s failed (%s); its events stay queued", match_id, error)
            else:
                log.exception("showing war match %s failed; its events stay queued", match_id)
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

        self.bot.timers.arm(("war-show", match_id), self.bot.clock() + delay, again)

    async def close(self) -> None:
        self._closed = True
        for match_id in list(self._failures):
            self.bot.timers.cancel(("war-show", match_id))
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # --- names ---------------------------------------------------------------------------------------------
    def remember_name(self, guild_id: int | None, user: discord.abc.User) -> None:
        if guild_id is not None:
            self._names[(guild_id, user.id)] = user.display_name

    async def display_names(self, match: MatchRecord) -> list[str]:
        names = []
        for seat, user_id in enumerate(match.user_ids):
            key = (match.guild_id, user_id)
            if key not in self._names:
                fetched = await fetch_name(self.bot, match.guild_id, user_id)
                if fetched is None:
                    names.append(f"Player {seat + 1}")
                    continue
                self._names[key] = fetched
            names.append(self._names[key])
        return names

    # --- the loop ------------------------------------------------------------------------------------------
    async def _show_unshown(self, match_id: int) -> None:
        queued = await self.war.unshown_events(match_id)
        if not queued:
            return
        table_dirty = False
        for event in queued:
            if self._closed:
                return
            match = await self.war.get_match(match_id)
            handler = getattr(self, f"_on_{event.type}", None)
            if event.type in TABLE_EVENTS:
                table_dirty = True
            if handler is not None:
                if table_dirty:
                    await self._show_table(match)
                    table_dirty = False
                await handler(await self.war.get_match(match_id), event)
                await self.war.mark_shown(match_id, event.seq)
        if table_dirty:
            await self._show_table(await self.war.get_match(match_id))
        await self.war.mark_shown(match_id, queued[-1].seq)

    # --- helpers ---------------------------------------------------------------------------------------------
    def _channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    async def _send(self, match: MatchRecord, channel_id: int, name: str, **kwargs: Any) -> discord.Message:
        kwargs.setdefault("allowed_mentions", NO_MENTIONS)
        return await self._channel(channel_id).send(nonce=nonce(match, name, channel_id), **kwargs)

    async def _edit(self, channel_id: int, message_id: int, **kwargs: Any) -> bool:
        """Edit a message; ``False`` when it is gone."""
        try:
            await self._channel(channel_id).get_partial_message(message_id).edit(**kwargs)
        except discord.NotFound:
            return False
        return True

    # --- challenge and lobby ---------------------------------------------------------------------------------
    async def opening_message(self, match: MatchRecord,
                              names: list[str]) -> tuple[discord.Embed, discord.ui.View | None]:
        """The challenge or lobby message as the match stands."""
        pace = match.options.get("pace", "auto")
        if match.options.get("lobby"):
            surface = render.lobby(names, match.game, match.rules, pace, expires_at=match.deadline_at)
            return embed(surface), view_of(match.id, "l", surface.buttons)
        surface = render.challenge(names[0], names[1], match.game, match.rules, pace,
                                   expires_at=match.deadline_at or 0)
        return embed(surface), view_of(match.id, "c", surface.buttons)

    async def _post_opening(self, match: MatchRecord) -> None:
        """The challenge or lobby message, when the command's answer was lost before its id was stored."""
        if match.challenge_message_id is not None or match.status != "challenge":
            return
        message_embed, view = await self.opening_message(match, mentions(match))
        kwargs: dict[str, Any] = {"embed": message_embed}
        if view is not None:
            kwargs["view"] = view
        message = await self._send(match, match.channel_id, "challenge", **kwargs)
        await self.war.set_challenge_message(match.id, message.id)

    async def _on_challenge(self, match: MatchRecord, event: QueuedEvent) -> None:
        await self._post_opening(match)

    async def _on_lobby(self, match: MatchRecord, event: QueuedEvent) -> None:
        await self._post_opening(match)

    async def _refresh_opening(self, match: MatchRecord) -> None:
        if match.challenge_message_id is None or match.status != "challenge":
            return
        message_embed, view = await self.opening_message(match, mentions(match))
        await self._edit(match.channel_id, match.challenge_message_id, embed=message_embed, view=view,
                         allowed_mentions=NO_MENTIONS)

    async def _on_joined(self, match: MatchRecord, event: QueuedEvent) -> None:
        await self._refresh_opening(match)

    async def _on_left(self, match: MatchRecord, event: QueuedEvent) -> None:
        await self._refresh_opening(match)

    async def _close_opening(self, match: MatchRecord, text: str) -> None:
        if match.challenge_message_id is None:
            return
        try:
            await self._edit(match.channel_id, match.challenge_message_id, content=text, embeds=[], view=None,
                             allowed_mentions=NO_MENTIONS)
        except discord.Forbidden as error:
            log.info("match %s: could not close its opening message: %s", match.id, error)

    async def _on_declined(self, match: MatchRecord, event: QueuedEvent) -> None:
        await self._close_opening(match, render.declined(match.game, *mentions(match)[:2]))

    async def _on_withdrawn(self, match: MatchRecord, event: QueuedEvent) -> None:
        await self._close_opening(match, render.withdrawn(match.game, mentions(match)[0],
                                                          lobby=bool(match.options.get("lobby"))))

    async def _on_expired(self, match: MatchRecord, event: QueuedEvent) -> None:
        await self._close_opening(match, render.expired(match.game, mentions(match)[0],
                                                        lobby=bool(match.options.get("lobby"))))

    async def _on_accepted(self, match: MatchRecord, event: QueuedEvent) -> None:
        names = await self.display_names(match)
        title = render.title_of(match.game)
        thread_name = f"{title}: " + (" vs ".join(names) if len(names) == 2 else ", ".join(names))
        match, thread_id = await ensure_thread(self.bot, self.war, match, thread_name)
        where = f"<#{thread_id}>" if thread_id is not None else None
        await self._close_opening(match, render.started(match.game, mentions(match), where))
        if thread_id is not None and "link" not in match.messages:
            line = (f"⚔️ **{title}:** {', '.join(mentions(match))} · {render.rules_text(match.game, match.rules)} — "
                    f"follow the game in <#{thread_id}>.")
            try:
                message = await self._send(match, match.channel_id, "link", content=line)
                match = await self.war.set_message(match.id, "link", message.id)
            except discord.Forbidden as error:
                log.info("match %s: no link line in channel %s: %s", match.id, match.channel_id, error)
        await self._show_table(match, ping=True)

    # --- the table ---------------------------------------------------------------------------------------------
    async def _show_table(self, match: MatchRecord, *, ping: bool = False) -> None:
        if match.seed is None:
            return
        view = await self.war.view(match.id)
        pace = match.options.get("pace", "auto")
        deadline = match.deadline_at if match.deadline_kind == "turn" else None
        surface = render.table(view, mentions(match), match.game, pace, votes=match.options.get("votes", {}),
                               deadline=deadline)
        over = view.get("outcome") is not None or match.status != "active"
        buttons = None if over else view_of(match.id, "t", surface.buttons, view["round"] + 1)
        colour = FINISHED_COLOUR if over else COLOUR
        message_id = match.messages.get("table")
        if message_id is not None and await self._edit(match.play_channel_id, message_id,
                                                       embed=embed(surface, colour=colour), view=buttons,
                                                       allowed_mentions=NO_MENTIONS):
            return
        kwargs: dict[str, Any] = {"embed": embed(surface, colour=colour)}
        if buttons is not None:
            kwargs["view"] = buttons
        if ping:
            kwargs["content"] = " ".join(mentions(match))
            kwargs["allowed_mentions"] = discord.AllowedMentions(users=[discord.Object(u) for u in match.user_ids])
        name = "table" if message_id is None else f"table/{message_id}"
        message = await self._send(match, match.play_channel_id, name, **kwargs)
        await self.war.set_message(match.id, "table", message.id)

    async def _note(self, match: MatchRecord, name: str, text: str, ping: list[int] | None = None) -> None:
        if name in match.messages or not text:
            return
        allowed = discord.AllowedMentions(users=[discord.Object(u) for u in ping]) if ping else NO_MENTIONS
        message = await self._send(match, match.play_channel_id, name, content=text, allowed_mentions=allowed)
        await self.war.set_message(match.id, name, message.id)

    async def _on_turn_timeout(self, match: MatchRecord, event: QueuedEvent) -> None:
        data = event.event
        ping = [match.seats[s].user_id for s in data.get("auto_flipped", [])]
        await self._note(match, f"afk:{data['round']}", render.turn_timeout(mentions(match), data), ping)

    async def _on_pace(self, match: MatchRecord, event: QueuedEvent) -> None:
        data = event.event
        await self._note(match, f"pace:{event.seq}", render.pace_changed(data["pace"], data["previous"]))

    async def _on_deadline_moved(self, match: MatchRecord, event: QueuedEvent) -> None:
        data = event.event
        await self._note(match, f"deadline:{event.seq}", render.deadline_moved(data["round"], data["deadline_at"]))

    async def _on_result(self, match: MatchRecord, event: QueuedEvent) -> None:
        view = await self.war.view(match.id)
        points, _, rounds = card_history(match)
        names = await self.display_names(match)
        surface = await rendered(render.result, view, mentions(match), match.game, image_names=names, points=points,
                                 rounds=rounds, ratings=event.event.get("ratings"))
        if "result" not in match.messages:
            message = await self._send(match, match.play_channel_id, "result", embed=embed(surface),
                                       files=files_of(surface))
            match = await self.war.set_message(match.id, "result", message.id)
        if match.thread_id is not None and "result:channel" not in match.messages:
            try:
                message = await self._send(match, match.channel_id, "result:channel",
                                           embed=embed(surface, extra=f"The game: <#{match.thread_id}>"),
                                           files=files_of(surface))
            except discord.Forbidden as error:
                log.info("match %s: no result in channel %s: %s", match.id, match.channel_id, error)
                return
            await self.war.set_message(match.id, "result:channel", message.id)
