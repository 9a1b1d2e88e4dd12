"""How fast ``python -m bot web`` serves its pages on a database of 10,000 finished matches.

    python -m tests.bench.web_pages [--matches 10000] [--requests 300] [--database PATH] [--keep]

The database (a SQLite file on disk; made unless ``--database`` names one this script made before) holds one
server's matches of every game between 200 named players, played by the engines with seeded random legal actions
(the rows the bot writes: match, action log, events, results, ratings), the Air War reviews of the matches whose
pages are asked for (worked out as the web process does), and a finished 64-player tournament whose games are
real matches. ``python -m bot web`` then serves it in its own process, as in production; this process asks for
each kind of page ``--requests`` times, one request at a time (a fresh id each time where the page has one),
over 127.0.0.1, and prints one JSON line: per page the p50, p99 and worst time from request to the last byte (ms).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from bot.storage.database import Database
from bot.web.reviews import export, review_data
from tests.bot.web.data import add_tournament, make_public, name_players, write_finished

ROOT = Path(__file__).resolve().parents[2]
GUILD = 1
PLAYERS = list(range(1001, 1201))
#: the games of the matches, with their share and rules (War's capped so a match is a few hundred events, as the
#: bot's default War games are)
MIX = (("airwar", 0.4, {}), ("army", 0.2, {}), ("casinowar", 0.1, {}), ("war", 0.12, {"max_rounds": 150}),
       ("speedwar", 0.1, {}), ("bundlewar", 0.08, {"max_rounds": 150}))
BATCH = 250
REVIEWED = 40


async def build(path: Path, count: int, seed: int) -> dict[str, list[int]]:
    """The database: ``count`` finished matches, and the ids the benchmark asks for."""
    chooser = random.Random(seed)
    db = await Database.open(path)
    try:
        await make_public(db, GUILD)
        await name_players(db, GUILD, {user: f"Player {user}" for user in PLAYERS})
        games = [name for name, _, _ in MIX]
        weights = [share for _, share, _ in MIX]
        rules = {name: given for name, _, given in MIX}
        ids: dict[str, list[int]] = {name: [] for name in games}
        now = time.time() - count * 60.0
        for start in range(0, count, BATCH):
            async with db.transaction() as conn:
                for number in range(start, min(count, start + BATCH)):
                    game = chooser.choices(games, weights)[0]
                    pair = chooser.sample(PLAYERS, 2)
                    match_id = await write_finished(db, conn, GUILD, game, pair, seed * 1_000_003 + number,
                                                    now + number * 60.0, rules[game])
                    ids[game].append(match_id)
        for match_id in chooser.sample(ids["airwar"], min(REVIEWED, len(ids["airwar"]))):
            data = await asyncio.to_thread(review_data, await export(db, match_id))
            async with db.transaction() as conn:
                await db.web.put_review(conn, match_id, data, time.time())
            ids.setdefault("reviewed", []).append(match_id)
        # (its games: War matches first; a small run has too few, then others)
        ids["tournament"] = [await add_tournament(db, GUILD, chooser.sample(PLAYERS, 64),
                                                  [*ids["war"], *ids["army"], *ids["casinowar"]], chooser)]
    finally:
        await db.close()
    return ids


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def measure(path: Path, ids: dict[str, list[int]], requests: int, seed: int) -> dict[str, dict[str, float]]:
    chooser = random.Random(seed)
    port = _free_port()
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "web", "--port", str(port), "--no-reviews", cwd=ROOT,
        env={**os.environ, "DATABASE_PATH": str(path), "DATABASE_URL": "", "LOG_LEVEL": "WARNING"})
    base = f"http://127.0.0.1:{port}"
    pages = {
        "review_airwar": lambda: f"/m/{chooser.choice(ids['reviewed'])}",
        "review_other_game": lambda: f"/m/{chooser.choice(ids[chooser.choice(['war', 'army', 'casinowar']) ])}",
        "tournament": lambda: f"/t/{ids['tournament'][0]}",
        "tournament_live_poll": lambda: f"/t/{ids['tournament'][0]}?part=live",
        "board": lambda: f"/s/{GUILD}/{chooser.choice(['airwar', 'war', 'army'])}",
        "player": lambda: f"/s/{GUILD}/airwar/p/{chooser.choice(PLAYERS)}",
    }
    timings: dict[str, dict[str, float]] = {}
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(200):
                try:
                    async with session.get(f"{base}/health") as response:
                        if response.status == 200:
                            break
                except aiohttp.ClientError:
                    await asyncio.sleep(0.1)
            for name, path_of in pages.items():
                for _ in range(10):  # warm up (first templates compiled, caches filled)
                    async with session.get(base + path_of()) as response:
                        await response.read()
                taken = []
                for _ in range(requests):
                    url = base + path_of()
                    started = time.perf_counter()
                    async with session.get(url) as response:
                        await response.read()
                        assert response.status == 200, (url, response.status)
                    taken.append((time.perf_counter() - started) * 1000)
                timings[name] = {"p50_ms": round(statistics.median(taken), 2),
                                 "p99_ms": round(_percentile(taken, 0.99), 2), "max_ms": round(max(taken), 2)}
    finally:
        server.terminate()
        await server.wait()
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=300, help="requests per page (default 300)")
    parser.add_argument("--database", type=Path, help="reuse (or make there) this database")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the database made in a temporary folder")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="web-bench-"))
    path = args.database or folder / "airwar.db"
    ids_file = path.with_suffix(".ids.json")
    started = time.perf_counter()
    if path.exists() and ids_file.exists():
        ids = json.loads(ids_file.read_text())
    else:
        ids = asyncio.run(build(path, args.matches, args.seed))
        ids_file.write_text(json.dumps(ids))
    built = time.perf_counter() - started
    timings = asyncio.run(measure(path, ids, args.requests, args.seed))
    print(json.dumps({
        "matches": sum(len(found) for game, found in ids.items() if game not in ("reviewed", "tournament")),
        "database_mb": round(path.stat().st_size / 1e6, 1), "build_seconds": round(built, 1),
        "requests_per_page": args.requests, "pages": timings,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "sqlite_on_disk": True},
    }))
    if args.database is None and not args.keep:
        for item in folder.iterdir():
            item.unlink()
        folder.rmdir()


if __name__ == "__main__":
    main()
