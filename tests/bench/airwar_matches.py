"""N concurrent Air War matches played to the end through the local Discord by scripted players.

    python -m tests.bench.airwar_matches [--matches N] [--seed S] [--pace-ms MS] [--think-ms MS] [--channels K]
                                         [--ramp-s S] [--bot-process] [--db-dir DIR] [--json]
                                         [--postgresql [--processes N]] [--baseline [--baseline-engagements E]]

The real bot (``bot.client.CardGameBot``, real cogs, a real SQLite file in a temporary directory, or in ``--db-dir``)
runs against the local Discord (``tests/localdiscord``) on 127.0.0.1: by default both in this process and event
loop; with ``--bot-process`` the bot runs in a child process of its own (``tests.bench.airwar_bot_process``, as it
would against the real Discord) and only the fake and the players stay here, so the two no longer compete for one
event loop and one GIL. Discord's default rate limits stay as the fake has them (5 messages and 5 edits per 5 s
per channel, 50 requests per second per other route). The challenges are made in ``#general`` or, with
``--channels K``, spread over K channels (match i in channel i mod K), as on a big server: every challenge, its
accepted edit, the link line and the result copy go to the channel of the challenge, at 5 per 5 s each. The bot
plays each match in a thread of its own. Two scripted players per match: the challenger uses
``/airwar challenge``, the opponent clicks **Accept**, then each finds their DM panel (one message per match,
edited) showing each engagement and clicks it (engagement 1 also goes through ``undo``, ``drawn``, ``random`` and
``reset``; then a card per tap in the order of ``tests.e2e.test_airwar.POLICIES``, then ``confirm``) until the
result is in the match's thread.
``--postgresql`` puts the bot's database on a PostgreSQL server the benchmark starts (data in ``--db-dir`` or the
temporary directory, fsync on); ``--processes N`` runs the bot as N processes of a cluster (:mod:`bot.cluster`),
one shard each, with one server per shard (channel i in server i mod N): the DM clicks all reach shard 0's process.
``--ramp-s`` spreads the challenges evenly over that many seconds (match i's challenger waits i/N of it; default 0:
every challenge at once, a burst no server sees). ``--think-ms`` is each player's mean pause before a click
(uniform in 0..2x; 0: click as soon as the previous answer is in; a person takes 300 ms or more).

A click the bot answers with a deferral (its answer took longer than ``cogs.kit.messages.DEFER_AFTER``) waits for
the clicked message's edit before the player reads the panel again, as a person sees the panel change.

``--baseline`` then plays the same matches, in the same harness and conditions, against a minimal discord.py bot
(``tests.bench.airwar_baseline_bot``: no database, no rules, no rendering; each interaction answered by editing
the clicked message with a fixed text) and adds ``baseline`` (its figures) and ``cpu_ratio_to_baseline``: the real
bot's CPU per interaction divided by the minimal bot's, the floor discord.py itself sets on the machine.

Prints one JSON line:

* ``matches``, ``finished`` (matches whose status is ``finished`` at the end), ``interactions`` (every
  INTERACTION_CREATE the fake sent), ``unanswered``;
* ``p50_ack_ms``, ``p90_ack_ms``, ``p99_ack_ms``, ``max_ack_ms``, ``over_100ms``: per interaction, from the moment
  the fake creates and dispatches the INTERACTION_CREATE (``Interaction.created_at``) to the moment the bot's first
  callback (``POST /interactions/{id}/{token}/callback``) reaches the fake (``ResponseRecord.at``) -- both stamped
  by the fake's clock, for every interaction of every match (nearest-rank percentiles); ``p99_ack_ms_by_kind``:
  the same for ``challenge`` (the slash command), ``accept`` and ``panel`` (battle-order clicks);
  ``p99_ack_ms_by_minute``: the same per minute of the run (by the interaction's creation);
* ``http_429``: 429s the fake answered (``env.http_429``), ``arrange_timeouts``: engagement deadlines the players
  missed (``arrange_timeout`` events in the database -- a player whose panel arrives late misses it);
* ``kb_per_match``: memory -- RSS growth (``/proc/PID/statm``, sampled every 0.25 s) from just before the first
  challenge to its peak during the run, divided by ``matches``: of this process (the bot's picture process
  included) when the bot runs here, which includes the fake's share (it keeps every message, every edit's earlier
  version and every uploaded PNG); of the bot's process and its picture process with ``--bot-process``
  (``fake_kb_per_match`` is then this process's). ``--tracemalloc`` adds ``bot_kb_per_match``: the peak, over
  snapshots taken every few seconds, of the memory tracemalloc traces to allocations with a frame in ``bot/``,
  ``cogs/``, ``discord/`` or ``aiosqlite/`` (in-process runs only), per match; tracing slows the process, so that
  run's latency figures are not comparable (the line says ``"tracemalloc": true``);
* ``seconds`` (first challenge to the last result in a thread), ``settled_seconds`` (until every queued event is
  shown, the channels' backlog included), ``cpu_s`` (CPU seconds of the run: the bot's processes and this one, or
  both together in one process; ``database_server``: the PostgreSQL server's), ``bot_cpu_ms_per_interaction`` (the
  bot processes' CPU over the interactions) and ``database_cpu_ms_per_interaction``,
  ``bot_process``, ``channels``, ``pace_ms`` and ``pace`` (how flips are paced: the
  server setting through ``SettingsService.set_flip_pace_ms`` with real sleeps, or ``"no-op pace_sleep"`` for
  ``--pace-ms 0``), ``think_ms``, ``db_dir`` (a tmpfs such as ``/dev/shm`` makes every commit's fsync free),
  ``load_avg_1m_at_start`` (the machine's load when the run began: other work skews the figures);
* ``loop_lag_ms``: how late each event loop ran a callback that was due (:class:`tests.bench.loop_lag.LoopLag`,
  p50/p99/max), the bot's and the fake's (one figure when they share a loop); ``gc``: their garbage collections
  (count, total and longest pause, and how many walked the oldest generation). The fake keeps every message it
  was sent to the end; what it keeps is frozen out of its collector's sight every second (:func:`freeze_kept`),
  and the bot freezes what it made while starting (:func:`bot.memory.settle`, as ``python -m bot`` does);
* ``failures``: what the pytest fixture would fail on (``env.failures()``: unknown routes, spec violations, late /
  double / missing interaction answers, ERROR logs -- the bot process's too); must be 0. They are printed to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.games.airwar.flow import FLIP_PACE_MS_RANGE
from bot.services.settings import SettingsService
from tests.bench.loop_lag import GcPauses, LoopLag, percentile
from tests.e2e.test_airwar import POLICIES, TITLE, match_id_of, stack_of, title
from tests.localdiscord import Env, Message, User
from tests.localdiscord.airwar import airwar_bot_factory
from tests.localdiscord.state import Channel, Interaction

ROOT = Path(__file__).resolve().parents[2]
LOAD_AT_START = os.getloadavg()[0]
DEFERRED_UPDATE_MESSAGE = 6  # the interaction callback type of a component's deferral
#: the longest line a bot process answers with (a report of 1,000 matches is over asyncio's default 64 KiB)
REPORT_LIMIT = 1 << 24
RESULT_TITLE = re.compile(rf"{TITLE} — (draw|.+ wins|won by the player named .+)")
PAGE_KB = os.sysconf("SC_PAGE_SIZE") / 1024
BOT_FILES = (f"{os.sep}bot{os.sep}", f"{os.sep}cogs{os.sep}", f"{os.sep}discord{os.sep}", f"{os.sep}aiosqlite{os.sep}")


def rss_kb(pid: int | None = None, *, tree: bool = False) -> float:
    """Resident memory of this process (or ``pid``, with its descendants if ``tree``)."""
    total = 0.0
    for member in process_tree(pid) if tree and pid else [pid or "self"]:
        with contextlib.suppress(OSError), open(f"/proc/{member}/statm") as statm:
            total += int(statm.read().split()[1]) * PAGE_KB
    return total


async def poll(predicate: Callable[[], Any], seconds: float, what: str, interval: float = 0.05) -> Any:
    """Cheap waiting for many players at once (``env.wait_for`` wakes every waiter on every change)."""
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        await asyncio.sleep(interval)


class Watch:
    """New messages of one channel matching a title, looked at once each (no rescans)."""

    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        self.seen = 0

    def find(self, wanted: Callable[[str], bool]) -> Message | None:
        messages = self.channel.messages
        while self.seen < len(messages):
            message = messages[self.seen]
            if message.loading:
                return None  # a deferred answer, still being made: look again
            self.seen += 1
            if wanted(title(message)):
                return message
        return None


class InProcessBot:
    """The bot in this process and event loop (the default), asked directly."""

    def __init__(self, env: Env) -> None:
        self.env = env
        self.pid = os.getpid()

    async def stored(self, match_id: int) -> bool:
        return (await self.env.bot.matches.get_match(match_id)).challenge_message_id is not None

    async def unshown(self) -> int:
        return len(await self.env.bot.matches.outbox.matches_with_unshown_events())

    async def report(self, match_ids: list[int]) -> dict[str, Any]:
        matches = self.env.bot.matches
        finished = timeouts = 0
        for match_id in match_ids:
            finished += (await matches.get_match(match_id)).status == "finished"
            timeouts += sum(1 for q in await matches.outbox.events(match_id) if q.type == "arrange_timeout")
        return {"finished": finished, "arrange_timeouts": timeouts, "errors": []}

    async def close(self) -> None:
        """(``env.close`` closes it.)"""


class ChildProcessBot:
    """The bot in a child process (``tests.bench.airwar_bot_process``), asked over its stdin and stdout."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.pid = process.pid
        self._lock = asyncio.Lock()

    @classmethod
    async def start(cls, env: Env, database: Path, args: argparse.Namespace, *, url: str | None = None,
                    member: tuple[int, int] | None = None, guilds: Sequence[int] = ()) -> ChildProcessBot:
        """``url``: the bot on that PostgreSQL database; ``member``: (index, count) of a cluster, with ``guilds``
        the servers of its shard."""
        profile = ["-m", "cProfile", "-o", f"{args.profile_bot}{'' if member is None else f'.{member[0]}'}"] \
            if args.profile_bot else []
        extra = {"AIRWAR_BENCH_DATABASE_URL": url or ""}
        if member is not None:
            extra |= {"AIRWAR_BENCH_CLUSTER": f"{member[0]}/{member[1]}",
                      "AIRWAR_BENCH_GUILDS": ",".join(map(str, guilds))}
        process = await asyncio.create_subprocess_exec(
            sys.executable, *profile, "-m", "tests.bench.airwar_bot_process", env.discord.api_base,
            env.discord.gateway_url, env.token, str(database), str(env.guild.id), str(env.guild.owner.id),
            str(args.seed), str(args.pace_ms), env={**os.environ, **extra},
            cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=REPORT_LIMIT)
        return await cls._ready(process)

    @classmethod
    async def start_minimal(cls, env: Env, engagements: int) -> ChildProcessBot:
        """The minimal discord.py bot of ``tests.bench.airwar_baseline_bot`` (the baseline), ``engagements`` a
        match."""
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.bench.airwar_baseline_bot", env.discord.api_base, env.discord.gateway_url,
            env.token, str(env.guild.id), str(engagements),
            cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=REPORT_LIMIT)
        return await cls._ready(process)

    @classmethod
    async def _ready(cls, process: asyncio.subprocess.Process) -> ChildProcessBot:
        bot = cls(process)
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), 60)
        if not line:
            raise RuntimeError("the bot process stopped before it was ready")
        return bot

    async def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        async with self._lock:
            self.process.stdin.write((json.dumps(request) + "\n").encode())
            await self.process.stdin.drain()
            return json.loads(await self.process.stdout.readline())

    async def stored(self, match_id: int) -> bool:
        return (await self.ask({"op": "stored", "match": match_id}))["stored"]

    async def unshown(self) -> int:
        return (await self.ask({"op": "unshown"}))["unshown"]

    async def report(self, match_ids: list[int]) -> dict[str, Any]:
        return await self.ask({"op": "report", "matches": match_ids})

    async def measure_lag(self) -> None:
        await self.ask({"op": "lag"})

    async def close(self) -> None:
        if self.process.returncode is None:
            assert self.process.stdin is not None
            self.process.stdin.write(b'{"op": "stop"}\n')
            await self.process.stdin.drain()
            try:
                await asyncio.wait_for(self.process.wait(), 20)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()


class BotProcesses:
    """The bot as several processes on one PostgreSQL database (a cluster, one shard each), asked as one."""

    def __init__(self, bots: list[ChildProcessBot]) -> None:
        self.bots = bots
        self.pid = bots[0].pid
        self.pids = [bot.pid for bot in bots]

    async def stored(self, match_id: int) -> bool:
        return await self.bots[0].stored(match_id)  # (any process reads every match)

    async def unshown(self) -> int:
        return sum([await bot.unshown() for bot in self.bots])  # (each counts its servers')

    async def report(self, match_ids: list[int]) -> dict[str, Any]:
        reports = [await bot.report(match_ids) for bot in self.bots]
        return {**reports[0], "errors": [e for r in reports for e in r["errors"]],
                "loop_lag_ms": [r["loop_lag_ms"] for r in reports], "gc": [r["gc"] for r in reports]}

    async def measure_lag(self) -> None:
        for bot in self.bots:
            await bot.measure_lag()

    async def close(self) -> None:
        await asyncio.gather(*(bot.close() for bot in self.bots))


def process_tree(pid: int) -> list[int]:
    """The process and its descendants (the bot's picture process)."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            for child in (task / "children").read_text().split():
                found += process_tree(int(child))
    return found


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its descendants (threads included), from ``/proc/PID/stat``."""
    total = 0.0
    for member in process_tree(pid):
        with contextlib.suppress(OSError), open(f"/proc/{member}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


@dataclass
class Bench:
    env: Env
    args: argparse.Namespace
    rng: random.Random
    wait: float
    bot: InProcessBot | ChildProcessBot | BotProcesses
    channels: list[Channel]
    done: list[int] = field(default_factory=list)
    match_ids: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    last_result_at: float = 0.0
    first_panel: list[float] = field(default_factory=list)

    async def think(self) -> None:
        if self.args.think_ms > 0:
            await asyncio.sleep(self.rng.uniform(0, 2 * self.args.think_ms / 1000))

    async def click(self, user: User, message: Message, key: str, *, panel: bool = True) -> bool:
        """Click the enabled button whose custom id ends with ``:key``; False when there is none or the bot
        refused (an ephemeral answer): the panel moved on (a missed deadline). ``panel``: the clicked message is a
        panel, which the click's answer edits (a public message's click, Accept, changes it later by itself)."""
        await self.think()
        button = next((b for b in message.buttons if b["custom_id"].endswith(f":{key}")), None)
        if button is None or button.get("disabled"):
            return False
        versions = len(message.history)
        ix = await self.env.click(user, message, custom_id=button["custom_id"])
        response = await ix.wait_response(timeout=self.wait)
        if response.type == DEFERRED_UPDATE_MESSAGE and panel:
            # the answer is on its way: an edit of the clicked message, or a private note (a refusal); read the panel
            # once it lands (reading it before would find the click's effect missing and give the engagement up)
            await poll(lambda: len(message.history) > versions or ix.followups, self.wait,
                       f"{user.name}: a deferred click's answer")
            return not ix.followups
        return not (response.type == 4 and response.ephemeral)

    async def play_match(self, number: int, challenger: User, opponent: User) -> None:
        env = self.env
        channel = self.channels[number % len(self.channels)]
        await asyncio.sleep(self.args.ramp_s * number / max(1, self.args.matches))
        await self.think()
        ix = await env.slash(challenger, "airwar challenge", opponent=opponent, where=channel)
        await ix.wait_response(timeout=self.wait)
        if ix.response.ephemeral:
            raise AssertionError(f"match {number}: challenge refused: {ix.message.text}")
        message = await poll(lambda: ix.message if ix.message.buttons else None, self.wait, "no challenge buttons")
        match_id = match_id_of(message)
        self.match_ids.append(match_id)
        await self.think()
        # accept once the bot has stored its challenge message (a person takes longer than that anyway)
        for _ in range(int(self.wait / 0.05)):
            if await self.bot.stored(match_id):
                break
            await asyncio.sleep(0.05)
        if not await self.click(opponent, message, "accept", panel=False):
            raise AssertionError(f"match {number}: the accept was refused")
        accepted = time.perf_counter()
        thread = await poll(lambda: message.thread, self.args.timeout, f"match {number}: no thread")
        assert thread.parent is channel
        await asyncio.gather(self.play_seat(thread, challenger, 0, accepted),
                             self.play_seat(thread, opponent, 1, accepted))
        self.done.append(match_id)
        self.last_result_at = time.perf_counter()

    async def play_seat(self, thread: Channel, user: User, seat: int, accepted: float) -> None:
        dm = self.env.dm(user)  # one panel message per match, edited from engagement to engagement
        results = Watch(thread)
        over = False
        number = 1
        while True:
            panel_title = f"{TITLE} — engagement {number}: your battle order"

            def ready(wanted: str = panel_title) -> Message | str | None:
                nonlocal over
                over = over or results.find(lambda t: bool(RESULT_TITLE.fullmatch(t))) is not None
                shown = next((m for m in reversed(dm.messages) if not m.loading and title(m) == wanted), None)
                return shown or ("over" if over else None)

            found = await poll(ready, self.args.timeout, f"{user.name}: no panel {number} and no result")
            if found == "over":
                return
            panel: Message = found
            if number == 1:
                self.first_panel.append(time.perf_counter() - accepted)
            if panel.buttons:
                order = POLICIES[seat](stack_of(panel))
                keys = [f"card:{order[0]}", "undo", "drawn", "random", "reset"] if number == 1 else []
                keys += [f"card:{card}" for card in order] + ["confirm"]
                for key in keys:
                    if not await self.click(user, panel, key):
                        break
            number += 1


async def settle(bot: InProcessBot | ChildProcessBot | BotProcesses, seconds: float) -> None:
    """Until every queued event has been shown (the presenters are done, the channel's backlog included)."""
    deadline = time.monotonic() + seconds
    while await bot.unshown():
        if time.monotonic() > deadline:
            raise TimeoutError("events still unshown")
        await asyncio.sleep(0.25)


async def sample_memory(peak: dict[str, float], pids: dict[str, tuple[int, bool]], stop: asyncio.Event,
                        traced: bool) -> None:
    last_snapshot = 0.0
    while not stop.is_set():
        for name, (pid, tree) in pids.items():
            peak[name] = max(peak[name], rss_kb(pid, tree=tree))
        if traced and time.monotonic() - last_snapshot > 5:
            peak["bot"] = max(peak["bot"], bot_traced_kb())
            last_snapshot = time.monotonic()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.25)


def bot_traced_kb() -> float:
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(True, f"*{part}*", all_frames=True) for part in BOT_FILES])
    return sum(stat.size for stat in snapshot.statistics("filename")) / 1024


async def freeze_kept(stop: asyncio.Event) -> None:
    """Keep what the fake stores out of its garbage collector's sight while the matches run: it keeps every
    message, every edit's earlier version and every uploaded picture to the end, and a full collection walking
    all of it stopped this process (the fake and the players) for up to 0.6 s at a time at 30 matches, which
    the interactions of the moment then waited for -- a cost of the harness, not of the bot."""
    while not stop.is_set():
        gc.freeze()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1.0)
    gc.unfreeze()


def interaction_kind(ix: Interaction) -> str:
    """``challenge``, ``accept`` or ``panel`` (a click on a battle-order panel)."""
    if ix.type == 2:
        return "challenge"
    custom_id = str(ix.data.get("custom_id", ""))
    return "panel" if custom_id.startswith("aw:p:") else custom_id.rsplit(":", 1)[-1]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    seeds = random.Random(args.seed + 1)

    async def no_pace(seconds: float) -> None:
        await asyncio.sleep(0)

    pace_sleep = no_pace if args.pace_ms == 0 else asyncio.sleep
    with tempfile.TemporaryDirectory(prefix="airwar-bench-", dir=args.db_dir) as directory, \
            contextlib.ExitStack() as servers:
        database = Path(directory) / "airwar.db"
        url = None
        server_pid: int | None = None
        if args.postgresql:
            from tests.postgres import Databases, postgres_server

            server = servers.enter_context(postgres_server(durable=True, directory=args.db_dir))
            url = await Databases(server).url_for("bench")
            server_pid = int((server.data / "postmaster.pid").read_text().split()[0])
        factory = None if args.bot_process else airwar_bot_factory(
            database, seed_source=lambda: seeds.getrandbits(63), pace_sleep=pace_sleep, database_url=url)
        count = args.processes
        env = await Env.start(factory, record_requests=False, shard_count=count)
        # one server per process (on its shard); a single process plays in the fake's own server
        guilds = [env.add_guild(f"Server {i + 1}", shard=(i, count)) for i in range(count)] if count > 1 \
            else [env.guild]
        bot: InProcessBot | ChildProcessBot | BotProcesses | None = None
        report: dict[str, Any] = {"finished": 0, "arrange_timeouts": 0, "errors": []}
        cpu_before = {"fake": time.process_time(), "bot": 0.0}
        bot_pids: list[int] = []
        try:
            if count > 1:
                bot = BotProcesses([await ChildProcessBot.start(env, database, args, url=url, member=(i, count),
                                                                guilds=[guilds[i].id]) for i in range(count)])
                bot_pids = bot.pids
                await env.wait_for(lambda: "airwar" in {c["name"] for c in env.global_commands}, timeout=30,
                                   message="no commands synced")
            elif args.minimal_bot:
                bot = await ChildProcessBot.start_minimal(env, args.baseline_engagements)
                bot_pids = [bot.pid]
                await env.wait_for(lambda: "airwar" in env.commands, timeout=30, message="no commands synced")
            elif args.bot_process:
                bot = await ChildProcessBot.start(env, database, args, url=url)
                bot_pids = [bot.pid]
                await env.wait_for(lambda: "airwar" in env.commands, timeout=30, message="no commands synced")
            else:
                bot = InProcessBot(env)
                if args.pace_ms:
                    await SettingsService(env.bot.matches.db).set_flip_pace_ms(env.guild.id, args.pace_ms)
            # channel i is in server i mod the servers; match i in channel i mod the channels
            channels = [env.channel("general" if i < len(guilds) else f"arena-{i + 1}", guild=guilds[i % len(guilds)])
                        for i in range(args.channels)]
            players = [env.user(f"pilot{i}", member=count == 1) for i in range(2 * args.matches)]
            if count > 1:
                for i, player in enumerate(players):
                    env.join(player, channels[(i // 2) % len(channels)].guild)
            for player in players:
                env.dm(player)
            await env._flush()
            await asyncio.sleep(0.2)
            if args.tracemalloc:
                tracemalloc.start(16)
            # (the bot's picture process is the bot's memory: counted with the bot's process)
            pids = {"rss": (os.getpid(), not args.bot_process),
                    **{f"bot_rss{i}": (pid, True) for i, pid in enumerate(bot_pids)}}
            peak = {name: rss_kb(pid, tree=tree) for name, (pid, tree) in pids.items()} | {"bot": 0.0}
            base = dict(peak)
            base_bot = bot_traced_kb() if args.tracemalloc else 0.0
            stop = asyncio.Event()
            sampler = asyncio.create_task(sample_memory(peak, pids, stop, args.tracemalloc))
            bench = Bench(env, args, rng, wait=10.0, bot=bot, channels=channels)
            cpu_before = {"fake": time.process_time(), "bot": sum(map(process_cpu_seconds, bot_pids)),
                          "database": process_cpu_seconds(server_pid) if server_pid else 0.0}
            fake_lag = LoopLag().start()
            fake_gc = GcPauses().start()
            keeper = asyncio.create_task(freeze_kept(stop))
            if isinstance(bot, ChildProcessBot | BotProcesses):
                await bot.measure_lag()
            started = time.perf_counter()
            outcomes = await asyncio.wait_for(asyncio.gather(
                *[bench.play_match(i, players[2 * i], players[2 * i + 1]) for i in range(args.matches)],
                return_exceptions=True), args.timeout)
            for outcome in outcomes:
                if isinstance(outcome, BaseException):
                    bench.problems.append(f"[player] {outcome!r}")
            played = (bench.last_result_at or time.perf_counter()) - started
            await settle(bot, args.timeout)
            settled = time.perf_counter() - started
            cpu = {"fake": time.process_time() - cpu_before["fake"],
                   "bot": sum(map(process_cpu_seconds, bot_pids)) - cpu_before["bot"],
                   "database": process_cpu_seconds(server_pid) - cpu_before["database"] if server_pid else 0.0}
            stop.set()
            await sampler
            fake_lag.stop()
            fake_gc.stop()
            await keeper
            if args.tracemalloc:
                peak["bot"] = max(peak["bot"], bot_traced_kb())
                tracemalloc.stop()
            report = await bot.report(bench.match_ids)
        finally:
            interactions = list(env.world.interactions.values())
            if bot is not None:
                await bot.close()
            await env.close()
        failures = env.failures() + report["errors"] + bench.problems
    acks = [(ix.response.at - ix.created_at) * 1000 for ix in interactions if ix.response is not None]
    by_kind: dict[str, list[float]] = {}
    for ix in interactions:
        if ix.response is not None:
            by_kind.setdefault(interaction_kind(ix), []).append((ix.response.at - ix.created_at) * 1000)
    first = min((ix.created_at for ix in interactions), default=0.0)
    by_minute: dict[int, list[float]] = {}
    for ix in interactions:
        if ix.response is not None:
            by_minute.setdefault(int((ix.created_at - first) // 60), []).append((ix.response.at - ix.created_at) * 1000)
    for line in failures[:40]:
        print(line, file=sys.stderr)
    out: dict[str, Any] = {
        "matches": args.matches,
        "finished": report["finished"],
        "interactions": len(interactions),
        "unanswered": len(interactions) - len(acks),
        "p50_ack_ms": round(percentile(acks, 50), 1),
        "p90_ack_ms": round(percentile(acks, 90), 1),
        "p99_ack_ms": round(percentile(acks, 99), 1),
        "max_ack_ms": round(max(acks, default=0.0), 1),
        "over_100ms": sum(1 for a in acks if a > 100),
        "p99_ack_ms_by_kind": {kind: round(percentile(values, 99), 1) for kind, values in sorted(by_kind.items())},
        "p99_ack_ms_by_minute": [round(percentile(by_minute[m], 99), 1) for m in sorted(by_minute)],
        "http_429": env.http_429,
        "http_429_routes": dict(Counter(line.split(" (")[0] for line in env.discord.rate_limits.log_429)),
        "first_panel_p50_s": round(percentile(bench.first_panel, 50), 2),
        "first_panel_max_s": round(max(bench.first_panel, default=0.0), 2),
        "arrange_timeouts": report["arrange_timeouts"],
    }
    out["loop_lag_ms"] = ({"bot": report.get("loop_lag_ms"), "fake_and_players": fake_lag.summary()}
                          if args.bot_process else {"bot_fake_and_players": fake_lag.summary()})
    out["gc"] = ({"bot": report.get("gc"), "fake_and_players": fake_gc.summary()}
                 if args.bot_process else {"bot_fake_and_players": fake_gc.summary()})
    if args.bot_process:
        out["kb_per_match"] = round(sum(peak[f"bot_rss{i}"] - base[f"bot_rss{i}"] for i in range(len(bot_pids)))
                                    / args.matches, 1)
        out["memory"] = "bot process rss_peak_delta"
        out["fake_kb_per_match"] = round((peak["rss"] - base["rss"]) / args.matches, 1)
    else:
        out["kb_per_match"] = round((peak["rss"] - base["rss"]) / args.matches, 1)
        out["memory"] = "rss_peak_delta (bot and fake)"
    out.update({
        "seconds": round(played, 1),
        "settled_seconds": round(settled, 1),
        "cpu_s": {"bot": round(cpu["bot"], 1), "fake_and_players": round(cpu["fake"], 1),
                  **({"database_server": round(cpu["database"], 1)} if server_pid else {})} if args.bot_process
        else {"bot_fake_and_players": round(cpu["fake"], 1)},
        "bot_cpu_ms_per_interaction": round(cpu["bot"] * 1000 / max(1, len(interactions)), 2)
        if args.bot_process else None,
        "database_cpu_ms_per_interaction": round(cpu["database"] * 1000 / max(1, len(interactions)), 2)
        if server_pid else None,
        "bot_process": args.bot_process,
        "processes": args.processes,
        "database": "postgresql" if args.postgresql else "sqlite",
        "channels": args.channels,
        "pace_ms": args.pace_ms,
        "pace": "server setting (set_flip_pace_ms), real sleeps" if args.pace_ms else "no-op pace_sleep",
        "think_ms": args.think_ms,
        "ramp_s": args.ramp_s,
        "db_dir": args.db_dir or tempfile.gettempdir(),
        "seed": args.seed,
        "cpus": os.cpu_count(),
        "load_avg_1m_at_start": LOAD_AT_START,
        "failures": len(failures),
    })
    if args.tracemalloc:
        out["bot_kb_per_match"] = round((peak["bot"] - base_bot) / args.matches, 1)
        out["tracemalloc"] = True
    return out


BASELINE_KEYS = ("finished", "interactions", "p50_ack_ms", "p99_ack_ms", "p99_ack_ms_by_minute", "first_panel_p50_s",
                 "first_panel_max_s", "cpu_s", "bot_cpu_ms_per_interaction", "seconds", "failures")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.airwar_matches")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1234)
    low, high = FLIP_PACE_MS_RANGE
    parser.add_argument("--pace-ms", type=int, default=low,
                        help=f"the server's flip pace ({low}-{high}, set through the match service; default: the "
                             "lowest allowed); 0: a no-op pace_sleep")
    parser.add_argument("--think-ms", type=float, default=0.0, help="mean pause before each click")
    parser.add_argument("--ramp-s", type=float, default=0.0,
                        help="spread the challenges evenly over this many seconds (default 0: all at once)")
    parser.add_argument("--channels", type=int, default=1,
                        help="spread the challenges over this many channels (default 1: all in #general)")
    parser.add_argument("--bot-process", action="store_true",
                        help="run the bot in a child process (the fake and the players stay in this one)")
    parser.add_argument("--db-dir", help="where the bot's SQLite file goes (default: the system's temporary "
                        "directory; /dev/shm takes the disk's fsync out of every commit)")
    parser.add_argument("--profile-bot", metavar="FILE",
                        help="with --bot-process: cProfile the bot's process into FILE")
    parser.add_argument("--postgresql", action="store_true",
                        help="the bot on a PostgreSQL server the benchmark starts (its data in --db-dir; fsync on, "
                        "commits not waiting for it, like the SQLite file's WAL)")
    parser.add_argument("--processes", type=int, default=1,
                        help="with --postgresql: the bot as this many processes, one shard and one server each "
                        "(implies --bot-process)")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds for the whole run")
    parser.add_argument("--tracemalloc", action="store_true", help="also trace the bot's memory (slows the run)")
    parser.add_argument("--baseline", action="store_true",
                        help="then run the same matches against a minimal discord.py bot (no database, no rules, no "
                        "rendering: tests.bench.airwar_baseline_bot) and add cpu_ratio_to_baseline (implies "
                        "--bot-process)")
    parser.add_argument("--baseline-engagements", type=int, default=19,
                        help="engagements per match of the minimal bot (default 19, about a real match's)")
    parser.add_argument("--json", action="store_true", help="accepted; the output is always one JSON line")
    args = parser.parse_args()
    if args.processes > 1 and not args.postgresql:
        parser.error("--processes needs --postgresql: the processes share one database")
    if args.baseline and (args.postgresql or args.tracemalloc):
        parser.error("--baseline compares one bot process on SQLite (no --postgresql, no --tracemalloc)")
    args.bot_process = args.bot_process or args.processes > 1 or args.baseline
    if args.pace_ms and not low <= args.pace_ms <= high:
        parser.error(f"--pace-ms is 0 or {low}..{high} (the server setting's range)")
    args.minimal_bot = False
    out = asyncio.run(run(args))
    if args.baseline:
        # the same harness, players and conditions, right after: only the bot differs
        baseline = asyncio.run(run(argparse.Namespace(**{**vars(args), "minimal_bot": True})))
        out["baseline"] = {key: baseline[key] for key in BASELINE_KEYS}
        out["cpu_ratio_to_baseline"] = round(out["bot_cpu_ms_per_interaction"]
                                             / max(baseline["bot_cpu_ms_per_interaction"], 1e-9), 2)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
