"""The benchmark's line protocol with a bot in a child process (``tests.bench.airwar_matches --bot-process``, or
``--baseline``): one JSON request per line on stdin, one JSON answer per line on stdout.

* ``{"op": "stored", "match": ID}`` -> ``{"stored": bool}``: the match's challenge message is stored;
* ``{"op": "unshown"}`` -> ``{"unshown": N}``: matches with events still to show;
* ``{"op": "lag"}``: from now on, measure how late the bot's event loop runs what is due and time its garbage
  collections (:class:`tests.bench.loop_lag.LoopLag`, :class:`tests.bench.loop_lag.GcPauses`);
* ``{"op": "report", "matches": [IDS]}`` -> ``{"finished": N, "arrange_timeouts": N, "errors": [...],
  "loop_lag_ms": {...}, "gc": {...}}``;
* ``{"op": "stop"}``: the answers end (the caller closes its bot).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl

from bot import memory
from tests.bench.loop_lag import GcPauses, LoopLag
from tests.localdiscord.driver import ErrorLogGuard
from tests.localdiscord.netguard import LoopbackOnly


class Guards:
    """A bot process pointed at the benchmark's local Discord (``api``, ``gateway``): any connection elsewhere
    refused (the loopback guard of the tests) and every ERROR log kept, both reported as ``problems()``."""

    def __init__(self, api: str, gateway: str) -> None:
        discord.http.Route.BASE = api
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
        self.refused: list[str] = []
        LoopbackOnly(self.refused.append).install()
        self.errors = ErrorLogGuard().install()
        logging.basicConfig(level=logging.WARNING, stream=sys.stderr)

    def problems(self) -> list[str]:
        return self.errors.describe() + [f"[network] refused {what}" for what in self.refused]


async def start(bot: discord.Client, token: str) -> asyncio.Task[None]:
    """Starts ``bot`` and returns once it is ready, having frozen what it made while starting (as ``python -m
    bot`` does)."""
    running = asyncio.create_task(bot.start(token))
    while not bot.is_ready():
        if running.done():
            running.result()
        await asyncio.sleep(0.01)
    memory.settle()
    return running


async def serve(bot: discord.Client, running: asyncio.Task[None], *, stored: Callable[[int], Awaitable[bool]],
                unshown: Callable[[], Awaitable[int]],
                report: Callable[[list[int]], Awaitable[dict[str, Any]]]) -> None:
    """:func:`answer_requests`, then closes the bot."""
    try:
        await answer_requests(stored=stored, unshown=unshown, report=report)
    finally:
        await bot.close()
        await asyncio.wait_for(running, 10)


async def answer_requests(*, stored: Callable[[int], Awaitable[bool]], unshown: Callable[[], Awaitable[int]],
                          report: Callable[[list[int]], Awaitable[dict[str, Any]]]) -> None:
    """Prints ``{"ready": true}``, then answers each request until ``stop`` or the end of stdin. ``report`` gives
    ``finished``, ``arrange_timeouts`` and ``errors``; the loop's lag and the collections are added here."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    def answer(value: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(value) + "\n")
        sys.stdout.flush()

    answer({"ready": True})
    lag = LoopLag()
    pauses = GcPauses()
    try:
        while line := await reader.readline():
            request = json.loads(line)
            op = request["op"]
            if op == "stored":
                answer({"stored": await stored(request["match"])})
            elif op == "lag":
                lag.start()
                pauses.start()
                answer({"lag": True})
            elif op == "unshown":
                answer({"unshown": await unshown()})
            elif op == "report":
                figures = await report(request["matches"])
                lag.stop()
                pauses.stop()
                answer({**figures, "loop_lag_ms": lag.summary(), "gc": pauses.summary()})
            elif op == "stop":
                break
    finally:
        lag.stop()
        pauses.stop()
