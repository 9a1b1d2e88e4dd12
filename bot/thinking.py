"""Where the bot's own players think: one worker process, so a long solve never blocks the event loop.

The worker starts at the first need (a spawned process: it shares nothing with the bot's threads) and runs one
task at a time. Each task is a pure function named ``"module:function"`` with picklable arguments.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from importlib import import_module
from typing import Any


def _call(target: str, args: tuple[Any, ...]) -> Any:
    module, _, function = target.partition(":")
    return getattr(import_module(module), function)(*args)


class Thinking:
    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    async def run(self, target: str, *args: Any) -> Any:
        """``target(*args)`` in the worker process (``target``: ``"module:function"``)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return await asyncio.get_running_loop().run_in_executor(self._pool, _call, target, args)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
