"""Timers for deadlines: one asyncio task per key, firing at a wall-clock time of the injectable clock.

``arm(key, at, factory)`` runs ``await factory()`` once ``clock() >= at`` (at once if ``at`` has passed). Arming a
key again replaces the timer that waits under it. Once a timer fires it no longer waits under its key, so its
callback may arm the same key again (the next deadline) without cancelling itself. An exception in a callback is
logged on the ``bot.match.timers`` logger, never lost.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[Any]]


class Timers:
    def __init__(self, *, clock: Clock = time.time, sleep: Sleep = asyncio.sleep) -> None:
        self.clock = clock
        self._sleep = sleep
        self._waiting: dict[Hashable, asyncio.Task[None]] = {}
        self._running: set[asyncio.Task[None]] = set()

    def arm(self, key: Hashable, at: float, factory: Callable[[], Awaitable[Any]]) -> asyncio.Task[None]:
        """Run ``factory()`` at ``at`` (clock seconds); replaces the timer waiting under ``key``."""
        self.cancel(key)
        task = asyncio.get_running_loop().create_task(self._run(key, at, factory), name=f"timer {key!r}")
        self._waiting[key] = task
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        return task

    async def _run(self, key: Hashable, at: float, factory: Callable[[], Awaitable[Any]]) -> None:
        # asyncio sleeps by the loop's monotonic clock; check the wall clock after waking and sleep the rest.
        while (delay := at - self.clock()) > 0:
            await self._sleep(delay)
        if self._waiting.get(key) is asyncio.current_task():
            del self._waiting[key]
        try:
            await factory()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("timer %r failed", key)

    def cancel(self, key: Hashable) -> bool:
        """Cancel the timer waiting under ``key`` (not one already firing); whether there was one."""
        task = self._waiting.pop(key, None)
        if task is None:
            return False
        task.cancel()
        return True

    def armed(self, key: Hashable) -> bool:
        return key in self._waiting

    def keys(self) -> list[Hashable]:
        return list(self._waiting)

    def __len__(self) -> int:
        return len(self._waiting)

    async def cancel_all(self) -> None:
        """Cancel every timer, waiting or firing (shutdown), and wait until they have stopped."""
        current = asyncio.current_task()
        tasks = [task for task in self._running if task is not current]
        self._waiting.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
