"""Pictures drawn one at a time, for every game's presenter and cog: :func:`rendered` (in the background) and
:func:`rendered_first` (a picture an interaction's answer waits for goes before the background ones), off the
event loop, or on it for a render function that is :func:`~bot.render.common.quick_to_draw`; and
:class:`SentPictures`, which keeps an edit from uploading again the picture its message has."""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import threading
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.render.common import is_quick_to_draw

log = logging.getLogger("cogs.kit")

T = TypeVar("T")
#: Pictures are drawn one at a time off the event loop: in a process of their own when the machine has a second
#: core (a picture takes a few ms of Pillow and Python, and in a thread much of that would hold the GIL the event
#: loop needs), else in a thread. The render functions are pure: their arguments and results travel by pickle.
_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")
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

    threading.Thread(target=watch, name="render-orphan-watch", daemon=True).start()


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


#: per event loop, the turns of the pictures drawn on it and of those drawn off it (a quick picture does not wait
#: for a chart being drawn in the picture process)
_turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[bool, _Turns]] = weakref.WeakKeyDictionary()


async def _render(first: bool, function: Callable[[], T], *, here: bool) -> T:
    loop = asyncio.get_running_loop()
    lanes = _turns.get(loop)
    if lanes is None:
        lanes = _turns[loop] = {True: _Turns(), False: _Turns()}
    turns = lanes[here]
    await turns.take(first)
    if here:
        # Drawn here, the next picture's turn comes in a later pass of the loop: in a burst of pictures (200
        # matches starting at once) the loop reads what came meanwhile between two of them instead of drawing
        # them all in one pass.
        try:
            return function()
        finally:
            loop.call_soon(turns.give)
    try:
        return await _draw(loop, function)
    finally:
        turns.give()


async def rendered(render: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """``render(*args, **kwargs)`` (a :mod:`bot.render` function that may draw a picture), after the pictures
    asked for before it (and after those of :func:`rendered_first`): off the event loop, or on it when the
    function is :func:`~bot.render.common.quick_to_draw`."""
    return await _render(False, functools.partial(render, *args, **kwargs), here=is_quick_to_draw(render))


async def rendered_first(render: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """:func:`rendered` for a picture an interaction's answer waits for: drawn before the background ones."""
    return await _render(True, functools.partial(render, *args, **kwargs), here=is_quick_to_draw(render))


class SentPictures:
    """The pictures each of the last :attr:`KEPT` messages sent or edited holds (by their
    :attr:`~cogs.kit.messages.PictureFile.key`), so that an edit whose picture has not changed leaves out
    ``attachments``: Discord then keeps the message's attachments, and the embed's ``attachment://`` names the one
    it has. A message not remembered (sent before a restart, or long ago) gets its picture uploaded again."""

    KEPT = 4096

    def __init__(self) -> None:
        self._held: OrderedDict[int, tuple[Any, ...]] = OrderedDict()

    @staticmethod
    def _keys(files: Any) -> tuple[Any, ...] | None:
        """What ``files`` show; ``None`` when one of them is not a picture that knows it."""
        keys = tuple(getattr(file, "key", None) for file in files)
        return None if None in keys else keys

    def unchanged(self, message_id: int, kwargs: dict[str, Any]) -> dict[str, Any]:
        """``edit`` keyword arguments without ``attachments`` when they are the pictures the message holds."""
        if "attachments" not in kwargs or self._held.get(message_id) != self._keys(kwargs["attachments"]):
            return kwargs
        self._held.move_to_end(message_id)
        return {key: value for key, value in kwargs.items() if key != "attachments"}

    def remember(self, message_id: int, files: Any) -> None:
        """The message now holds ``files`` (sent with them, or edited to them)."""
        keys = self._keys(files)
        if keys is None:
            self._held.pop(message_id, None)
            return
        self._held[message_id] = keys
        self._held.move_to_end(message_id)
        while len(self._held) > self.KEPT:
            self._held.popitem(last=False)
