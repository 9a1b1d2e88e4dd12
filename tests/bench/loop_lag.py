"""How late an event loop runs a callback that is due: a probe sleeps ``interval`` seconds over and over and
records how much later than asked it woke up. A busy loop wakes it late by about the time its queue takes to
drain, which is what an interaction's every step waits for too."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from typing import Any


def percentile(values: list[float], p: float) -> float:
    """Nearest rank."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


class LoopLag:
    def __init__(self, interval: float = 0.01) -> None:
        self.interval = interval
        self.lags_ms: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> LoopLag:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="loop-lag-probe")
        return self

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time()
            await asyncio.sleep(self.interval)
            self.lags_ms.append((loop.time() - asked - self.interval) * 1000)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def summary(self) -> dict[str, Any]:
        lags = self.lags_ms
        return {"p50": round(percentile(lags, 50), 1), "p99": round(percentile(lags, 99), 1),
                "max": round(max(lags, default=0.0), 1)}


class GcPauses:
    """Every garbage collection of this process while it runs: how many, and the longest (a collection of the
    oldest generation walks every tracked object, and the event loop waits for it)."""

    def __init__(self) -> None:
        self.pauses_ms: list[float] = []
        self.oldest_ms: list[float] = []  # collections of the oldest generation
        self.by_generation: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._started: float | None = None
        self.oldest_objects: list[int] = []  # tracked objects as each collection of the oldest generation began
        self.oldest_collected: list[int] = []

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            if info.get("generation") == 2:
                self.oldest_objects.append(len(gc.get_objects()))
            self._started = time.perf_counter()
        elif self._started is not None:
            pause = (time.perf_counter() - self._started) * 1000
            self.pauses_ms.append(pause)
            self.by_generation.setdefault(info.get("generation", -1), []).append(pause)
            if info.get("generation") == 2:
                self.oldest_ms.append(pause)
                self.oldest_collected.append(info.get("collected", 0))
            self._started = None

    def start(self) -> GcPauses:
        gc.callbacks.append(self._callback)
        return self

    def stop(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._callback)

    def summary(self) -> dict[str, Any]:
        return {"count": len(self.pauses_ms), "total_ms": round(sum(self.pauses_ms), 1),
                "max_ms": round(max(self.pauses_ms, default=0.0), 1), "oldest_generation": len(self.oldest_ms),
                "oldest_max_ms": round(max(self.oldest_ms, default=0.0), 1),
                "oldest_tracked_objects_max": max(self.oldest_objects, default=0),
                "oldest_collected_max": max(self.oldest_collected, default=0),
                "by_generation": {generation: {"count": len(pauses), "total_ms": round(sum(pauses), 1),
                                               "p50_ms": round(percentile(pauses, 50), 2),
                                               "max_ms": round(max(pauses, default=0.0), 1)}
                                  for generation, pauses in sorted(self.by_generation.items())}}
