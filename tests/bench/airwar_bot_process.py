"""The real Air War bot in a process of its own, for ``tests.bench.airwar_matches --bot-process``.

    python -m tests.bench.airwar_bot_process API GATEWAY TOKEN DATABASE GUILD OWNER SEED PACE_MS

(On PostgreSQL: ``AIRWAR_BENCH_DATABASE_URL``; one process of a cluster: ``AIRWAR_BENCH_CLUSTER=INDEX/COUNT``, one
shard per process, and ``AIRWAR_BENCH_GUILDS``, the servers whose pace it sets.)

It connects to the benchmark's local Discord (127.0.0.1 only: the same loopback guard as the tests), sets the
server's flip pace through the match service, prints ``{"ready": true}`` and then answers one JSON line per
request line on stdin, so the benchmark never touches the bot's objects:

* ``{"op": "stored", "match": ID}`` -> ``{"stored": bool}``: the challenge message id is stored;
* ``{"op": "unshown"}`` -> ``{"unshown": N}``: matches with events still to show;
* ``{"op": "lag"}``: from now on, measure how late the bot's event loop runs what is due and time its garbage
  collections (:class:`tests.bench.loop_lag.LoopLag`, :class:`tests.bench.loop_lag.GcPauses`);
* ``{"op": "report", "matches": [IDS]}`` -> ``{"finished": N, "arrange_timeouts": N, "errors": [...],
  "loop_lag_ms": {...}, "gc": {...}}``;
* ``{"op": "stop"}``: closes the bot and exits.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import sys
from pathlib import Path
from typing import Any

import discord.gateway
import discord.http
import yarl

from bot import memory
from bot.client import create_bot
from bot.cluster import Cluster
from bot.config import Settings
from tests.bench.loop_lag import GcPauses, LoopLag
from tests.localdiscord.driver import ErrorLogGuard
from tests.localdiscord.netguard import LoopbackOnly


async def serve(argv: list[str]) -> None:
    api, gateway, token, database, guild, owner, seed, pace_ms = argv
    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    refused: list[str] = []
    LoopbackOnly(refused.append).install()
    errors = ErrorLogGuard().install()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    seeds = random.Random(int(seed) + 1)

    async def no_pace(seconds: float) -> None:
        await asyncio.sleep(0)

    url = os.environ.get("AIRWAR_BENCH_DATABASE_URL") or None
    cluster = Cluster()
    if os.environ.get("AIRWAR_BENCH_CLUSTER"):
        index, count = map(int, os.environ["AIRWAR_BENCH_CLUSTER"].split("/"))
        cluster = Cluster.member(index, count)
        seeds = random.Random(int(seed) + 1 + 1000 * index)
    guilds = [int(g) for g in os.environ.get("AIRWAR_BENCH_GUILDS", guild).split(",")]
    settings = Settings(token=token, database_path=Path(database), log_level="WARNING", database_url=url,
                        dev_guild_id=None if cluster.sharded else int(guild), owner_ids=frozenset({int(owner)}),
                        cluster=cluster)
    bot = create_bot(settings, seed_source=lambda: seeds.getrandbits(63), guild_ready_timeout=0.05,
                     pace_sleep=asyncio.sleep if int(pace_ms) else no_pace)
    running = asyncio.create_task(bot.start(token))
    while not bot.is_ready():
        if running.done():
            running.result()
        await asyncio.sleep(0.01)
    memory.settle()  # as python -m bot does once the bot is ready
    if int(pace_ms):
        for guild_id in guilds:
            await bot.matches.set_settings(guild_id, flip_pace_ms=int(pace_ms))
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
                match = await bot.matches.get_match(request["match"])
                answer({"stored": match.challenge_message_id is not None})
            elif op == "lag":
                lag.start()
                pauses.start()
                answer({"lag": True})
            elif op == "unshown":
                answer({"unshown": len(await bot.matches.matches_with_unshown_events())})
            elif op == "report":
                finished = timeouts = 0
                for match_id in request["matches"]:
                    finished += (await bot.matches.get_match(match_id)).status == "finished"
                    timeouts += sum(1 for q in await bot.matches.events(match_id) if q.type == "arrange_timeout")
                lag.stop()
                pauses.stop()
                answer({"finished": finished, "arrange_timeouts": timeouts, "loop_lag_ms": lag.summary(),
                        "gc": pauses.summary(),
                        "errors": errors.describe() + [f"[network] refused {what}" for what in refused]})
            elif op == "stop":
                break
    finally:
        lag.stop()
        pauses.stop()
        await bot.close()
        await asyncio.wait_for(running, 10)


if __name__ == "__main__":
    asyncio.run(serve(sys.argv[1:]))
