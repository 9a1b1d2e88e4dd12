"""Air War's Discord pieces: the buttons that survive restarts and messages built from the render surfaces.

Every button is a :class:`discord.ui.DynamicItem` whose custom id names what it acts on, so a button in a message
sent before a restart still works (nothing about it lives in memory):

* ``aw:c:<match>:<accept|decline|withdraw>`` -- the challenge message;
* ``aw:p:<match>:<engagement>:<key>`` -- the battle-order panel (DM or ephemeral); ``key`` is the render's button
  key: ``card:<CARD>``, ``undo``, ``reset``, ``random``, ``drawn``, ``confirm``;
* ``aw:open:<match>:<engagement>`` -- "Open my panel" on the board (players whose DMs are closed) and in
  ``/airwar status``;
* ``aw:ff:<match>:<yes|no>`` -- the ephemeral "really forfeit?" question.

The items only parse their custom id and hand the click to the Air War cog (``interaction.client.get_cog``);
``interaction_check`` answers a click by someone outside the match with an ephemeral "This isn't your match."
This module holds no game rules and no state.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import multiprocessing
import os
import re
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import discord

from bot.render.common import Button, ButtonSurface, Surface
from cogs._match_common import GameItem

log = logging.getLogger("cogs.airwar")

COG_NAME = "AirWar"
COLOUR = discord.Colour.from_rgb(70, 110, 160)
FINISHED_COLOUR = discord.Colour.from_rgb(110, 110, 110)
NO_MENTIONS = discord.AllowedMentions.none()

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

CHALLENGE_ACTIONS = ("accept", "decline", "withdraw")
PANEL_KEY = r"(?:card:[0-9A-Z]{1,3}|undo|reset|random|drawn|confirm)"


# --- messages from surfaces ----------------------------------------------------------------------------


def embed_of(surface: Surface, *, extra: str = "", colour: discord.Colour = COLOUR) -> discord.Embed:
    """An embed with the surface's title and text (and ``extra`` lines after it); the picture, if any, as its
    image (``attachment://``); the text stays the full description for screen readers and with images off."""
    text = surface.text + (f"\n\n{extra}" if extra else "")
    embed = discord.Embed(title=surface.title, description=text, colour=colour)
    if surface.picture is not None:
        embed.set_image(url=f"attachment://{surface.picture.filename}")
    return embed


def files_of(surface: Surface) -> list[discord.File]:
    """The surface's picture as an upload, with its alt text as the attachment's description."""
    picture = surface.picture
    if picture is None:
        return []
    return [discord.File(io.BytesIO(picture.png), picture.filename, description=picture.alt)]


def message_kwargs(surface: Surface, *, extra: str = "", view: discord.ui.View | None = None,
                   colour: discord.Colour = COLOUR) -> dict[str, Any]:
    """``embed``, ``files`` and ``view`` for ``send``; use :func:`edit_kwargs` for edits."""
    kwargs: dict[str, Any] = {"embed": embed_of(surface, extra=extra, colour=colour), "files": files_of(surface),
                              "allowed_mentions": NO_MENTIONS}
    if view is not None:
        kwargs["view"] = view
    return kwargs


def edit_kwargs(surface: Surface, *, extra: str = "", view: discord.ui.View | None = None,
                colour: discord.Colour = COLOUR) -> dict[str, Any]:
    """``embed``, ``attachments`` (the picture replaces the old one; none: the old ones go) and ``view``
    (``None`` removes the buttons) for an edit."""
    return {"embed": embed_of(surface, extra=extra, colour=colour), "attachments": files_of(surface),
            "view": view, "allowed_mentions": NO_MENTIONS}


T = TypeVar("T")
#: Pictures are drawn one at a time off the event loop: in a process of their own when the machine has a second
#: core (a picture takes a few ms of Pillow and Python, and in a thread much of that would hold the GIL the event
#: loop needs), else in a thread. The render functions are pure: their arguments and results travel by pickle.
_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="airwar-render")
_process: ProcessPoolExecutor | None = None


def _renderer() -> Executor:
    global _process
    if (os.cpu_count() or 1) < 2:
        return _THREAD
    if _process is None:
        _process = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                       initializer=_leave_with_parent, initargs=(os.getpid(),))
    return _process


def _leave_with_parent(parent: int) -> None:
    """In the drawing process: let go of the bot's stdout and stderr (a supervisor waiting for their end waits for
    every process holding them) and exit when the bot is gone, even killed (the pool's own pipes don't tell)."""
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.25)
        os._exit(0)

    threading.Thread(target=watch, name="airwar-render-orphan-watch", daemon=True).start()


async def _draw(loop: asyncio.AbstractEventLoop, function: Callable[[], T]) -> T:
    global _process
    executor = _renderer()
    try:
        return await loop.run_in_executor(executor, function)
    except BrokenProcessPool:  # the drawing process died (killed): a new one for the next picture, this one here
        if _process is executor:
            _process = None
        log.warning("the picture process stopped; starting another")
        return await loop.run_in_executor(_THREAD, function)


class _Turns:
    """Whose picture is drawn next (one per event loop): a picture an interaction's answer waits
    for goes before the background ones (flips, boards), which are paced anyway."""

    def __init__(self) -> None:
        self.busy = False
        self.waiting: tuple[deque[asyncio.Future[None]], deque[asyncio.Future[None]]] = (deque(), deque())

    async def take(self, first: bool) -> None:
        if not self.busy:
            self.busy = True
            return
        turn = asyncio.get_running_loop().create_future()
        self.waiting[0 if first else 1].append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.give()  # it was this one's turn: the next one's now
            raise

    def give(self) -> None:
        for queue in self.waiting:
            while queue:
                turn = queue.popleft()
                if not turn.done():
                    turn.set_result(None)
                    return
        self.busy = False


_turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Turns] = weakref.WeakKeyDictionary()


async def _render(first: bool, function: Callable[[], T]) -> T:
    loop = asyncio.get_running_loop()
    turns = _turns.get(loop)
    if turns is None:
        turns = _turns[loop] = _Turns()
    await turns.take(first)
    try:
        return await _draw(loop, function)
    finally:
        turns.give()


async def rendered(render: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """``render(*args, **kwargs)`` (a :mod:`bot.render` function that may draw a picture) off the event loop,
    after the pictures asked for before it (and after those of :func:`rendered_first`)."""
    return await _render(False, functools.partial(render, *args, **kwargs))


async def rendered_first(render: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """:func:`rendered` for a picture an interaction's answer waits for: drawn before the background ones."""
    return await _render(True, functools.partial(render, *args, **kwargs))


# --- views -----------------------------------------------------------------------------------------------


def challenge_view(match_id: int, buttons: Sequence[Button]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for button in buttons:
        if button.key in CHALLENGE_ACTIONS:
            view.add_item(ChallengeButton(match_id, button.key, label=button.label, style=STYLES[button.style],
                                          disabled=not button.enabled))
    return view


def panel_view(match_id: int, engagement: int, surface: ButtonSurface) -> discord.ui.View | None:
    """The panel's buttons (``None`` when there are none: locked in or over)."""
    if not surface.buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in surface.buttons:
        view.add_item(PanelButton(match_id, engagement, button.key, label=button.label,
                                  style=STYLES.get(button.style, discord.ButtonStyle.secondary),
                                  disabled=not button.enabled, row=button.row))
    return view


def open_panel_view(match_id: int, engagement: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(OpenPanelButton(match_id, engagement))
    return view


def forfeit_view(match_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ForfeitButton(match_id, "yes"))
    view.add_item(ForfeitButton(match_id, "no"))
    return view


# --- answering in time ----------------------------------------------------------------------------------

DEFER_AFTER = 1.5  # seconds: Discord drops an interaction not answered within 3 s


class Answer:
    """Answers an interaction once and in time: if the real answer is not ready ``defer_after`` seconds (default
    :data:`DEFER_AFTER`; the bot's ``defer_after``) after the work began, a deferral goes out first (the work goes
    on) and the answer follows as an edit of the original response or a followup. One lock orders the deferral and
    the answer, so never both answer.

    ``thinking``/``ephemeral`` say how to defer: a component's deferral is an update of its message; a command's
    is "thinking", public or ephemeral like the answer it will get. An ephemeral note after a public "thinking"
    deferral removes the public "thinking…" message first (the first followup would take its place, in public)."""

    def __init__(self, interaction: discord.Interaction, *, thinking: bool = False, ephemeral: bool = False,
                 defer_after: float | None = None) -> None:
        self.interaction = interaction
        self._lock = asyncio.Lock()
        self._public_thinking = False
        delay = DEFER_AFTER if defer_after is None else defer_after
        self._watch = asyncio.get_running_loop().create_task(self._defer_later(delay, thinking, ephemeral))

    async def _defer_later(self, delay: float, thinking: bool, ephemeral: bool) -> None:
        await asyncio.sleep(delay)
        async with self._lock:
            if not self.interaction.response.is_done():
                log.info("interaction %s: deferred, the answer takes longer", self.interaction.id)
                await self.interaction.response.defer(thinking=thinking, ephemeral=ephemeral)
                self._public_thinking = thinking and not ephemeral

    async def __aenter__(self) -> Answer:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self._watch.cancel()

    async def edit(self, **kwargs: Any) -> None:
        """Edit the component's message (or the command's response)."""
        async with self._lock:
            self._watch.cancel()
            if self.interaction.response.is_done():
                self._public_thinking = False
                await self.interaction.edit_original_response(**kwargs)
            else:
                await self.interaction.response.edit_message(**kwargs)

    async def send(self, content: str | None = None, *, ephemeral: bool = False, **kwargs: Any) -> int | None:
        """A new message (a command's response, or a followup once answered); returns its id when known."""
        kwargs.setdefault("allowed_mentions", NO_MENTIONS)
        if content is not None:
            kwargs["content"] = content
        async with self._lock:
            self._watch.cancel()
            if self.interaction.response.is_done():
                if ephemeral and self._public_thinking:
                    try:
                        await self.interaction.delete_original_response()
                    except discord.HTTPException as error:  # the note then takes its place (in public)
                        log.warning("interaction %s: could not remove the public deferral: %s", self.interaction.id,
                                    error)
                self._public_thinking = False
                message = await self.interaction.followup.send(ephemeral=ephemeral, wait=True, **kwargs)
                return message.id
            callback = await self.interaction.response.send_message(ephemeral=ephemeral, **kwargs)
            return callback.message_id

    async def tell(self, text: str) -> None:
        """An ephemeral note."""
        await self.send(text, ephemeral=True)

    async def acknowledge(self) -> None:
        """Nothing to say: the message will change by itself (a component's deferred update)."""
        async with self._lock:
            self._watch.cancel()
            if not self.interaction.response.is_done():
                await self.interaction.response.defer()


# --- the dynamic items -----------------------------------------------------------------------------------


class _MatchItem(GameItem):
    cog_name = COG_NAME
    title = "Air War"


class ChallengeButton(_MatchItem, discord.ui.DynamicItem[discord.ui.Button],
                      template=r"aw:c:(?P<match>[0-9]{1,19}):(?P<action>accept|decline|withdraw)"):
    def __init__(self, match_id: int, action: str, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label or action.title(), style=style, disabled=disabled,
                                           custom_id=f"aw:c:{match_id}:{action}"))
        self.match_id = match_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ChallengeButton:
        return cls(int(match["match"]), match["action"], label=item.label, style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "on_challenge_button", self.action)


class PanelButton(_MatchItem, discord.ui.DynamicItem[discord.ui.Button],
                  template=rf"aw:p:(?P<match>[0-9]{{1,19}}):(?P<engagement>[0-9]{{1,6}}):(?P<key>{PANEL_KEY})"):
    def __init__(self, match_id: int, engagement: int, key: str, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or key, style=style, disabled=disabled, row=row,
                                           custom_id=f"aw:p:{match_id}:{engagement}:{key}"))
        self.match_id = match_id
        self.engagement = engagement
        self.key = key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> PanelButton:
        return cls(int(match["match"]), int(match["engagement"]), match["key"], label=item.label, style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "on_panel_button", self.engagement, self.key)


class OpenPanelButton(_MatchItem, discord.ui.DynamicItem[discord.ui.Button],
                      template=r"aw:open:(?P<match>[0-9]{1,19}):(?P<engagement>[0-9]{1,6})"):
    def __init__(self, match_id: int, engagement: int) -> None:
        super().__init__(discord.ui.Button(label="Open my battle-order panel", style=discord.ButtonStyle.primary,
                                           custom_id=f"aw:open:{match_id}:{engagement}"))
        self.match_id = match_id
        self.engagement = engagement

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> OpenPanelButton:
        return cls(int(match["match"]), int(match["engagement"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "on_open_panel", self.engagement)


class ForfeitButton(_MatchItem, discord.ui.DynamicItem[discord.ui.Button],
                    template=r"aw:ff:(?P<match>[0-9]{1,19}):(?P<answer>yes|no)"):
    def __init__(self, match_id: int, answer: str) -> None:
        yes = answer == "yes"
        super().__init__(discord.ui.Button(
            label="Forfeit" if yes else "Keep playing",
            style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
            custom_id=f"aw:ff:{match_id}:{answer}",
        ))
        self.match_id = match_id
        self.answer = answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ForfeitButton:
        return cls(int(match["match"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "on_forfeit_button", self.answer)


DYNAMIC_ITEMS = (ChallengeButton, PanelButton, OpenPanelButton, ForfeitButton)
