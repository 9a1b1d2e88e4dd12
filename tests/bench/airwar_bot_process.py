"""The real Air War bot in a process of its own, for ``tests.bench.airwar_matches --bot-process``.

    python -m tests.bench.airwar_bot_process API GATEWAY TOKEN DATABASE GUILD OWNER SEED PACE_MS

(On PostgreSQL: ``AIRWAR_BENCH_DATABASE_URL``; one process of a cluster: ``AIRWAR_BENCH_CLUSTER=INDEX/COUNT``, one
shard per process, and ``AIRWAR_BENCH_GUILDS``, the servers whose pace it sets.)

It connects to the benchmark's local Discord (127.0.0.1 only: the same loopback guard as the tests), sets the
server's flip pace through the match service, prints ``{"ready": true}`` and then answers the benchmark's requests
(:mod:`tests.bench.bot_protocol`), so the benchmark never touches the bot's objects; ``stop`` closes the bot.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path
from typing import Any

from bot.client import create_bot
from bot.cluster import Cluster
from bot.config import Settings
from bot.services.settings import SettingsService
from tests.bench.bot_protocol import Guards, serve, start


async def main(argv: list[str]) -> None:
    api, gateway, token, database, guild, owner, seed, pace_ms = argv
    guards = Guards(api, gateway)
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
    running = await start(bot, token)
    if int(pace_ms):
        for guild_id in guilds:
            await SettingsService(bot.matches.db).set_flip_pace_ms(guild_id, int(pace_ms))

    async def stored(match_id: int) -> bool:
        return (await bot.matches.get_match(match_id)).challenge_message_id is not None

    async def unshown() -> int:
        return len(await bot.matches.outbox.matches_with_unshown_events())

    async def report(match_ids: list[int]) -> dict[str, Any]:
        finished = timeouts = 0
        for match_id in match_ids:
            finished += (await bot.matches.get_match(match_id)).status == "finished"
            timeouts += sum(1 for q in await bot.matches.outbox.events(match_id) if q.type == "arrange_timeout")
        return {"finished": finished, "arrange_timeouts": timeouts,
                "errors": guards.problems()}

    await serve(bot, running, stored=stored, unshown=unshown, report=report)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
