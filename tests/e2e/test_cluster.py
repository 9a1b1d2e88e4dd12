"""The bot split over two processes (:mod:`bot.cluster`) on one PostgreSQL database, through a local Discord with
four shards: process 0 runs shards 0 and 1 (and so every DM click), process 1 runs shards 2 and 3.

North is on shard 1 (process 0's), South on shard 3 (process 1's). South's DM clicks land on process 0, which acts
on the match through the database; process 1, told by a notification, shows its events and runs its deadlines. In
South, carol (DMs closed) locks in from the board's panel (process 1) while dave locks in from his DMs (process 0),
at the same moment, every engagement but one; in that one dave confirms twice at once, on his DM panel (process 0)
and on the panel he opened from the board (process 1): one lock-in, the other refused. Process 1 is killed with
SIGKILL in the middle of South's flips and started again; North goes on meanwhile. Both matches must end as the
engine plays them with the same seed and orders, with every flip shown once, the missed deadline noted once and
every result recorded once.

``AIRWAR_CLUSTER_NO_LOCK=1`` runs the same test with the database's match lock switched off in both processes (to
see that it is what keeps the concurrent confirms apart).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from bot.match.kernel import MatchKernel
from bot.render.card_emoji import NAMES
from tests.e2e.test_airwar import (
    SEED,
    Played,
    assert_flips_shown_once,
    assert_no_order_leaked,
    board,
    button_id,
    click,
    dm_panel,
    flip_lines,
    lift_rate_limits,
    lock_in,
    match_id_of,
    panel_in,
    play,
    reference,
    results,
    reverse,
    slash,
    stack_of,
    weave,
)
from tests.localdiscord import Env
from tests.records import match_results, rating_of

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SHARDS = 4
FLIP_SECONDS = 0.25


class SharedClock:
    """The bots' clock: real time plus an offset the test moves (both processes read it from a file)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0.0
        path.write_text("0")

    def advance(self, seconds: float) -> None:
        self.offset += seconds
        self.path.write_text(repr(self.offset))


class ClusterProcess:
    """One process of the cluster: the real bot on ``shards`` of :data:`SHARDS`."""

    def __init__(self, env: Env, shards: tuple[int, ...], url: str, clock: SharedClock, log: Path) -> None:
        self.env, self.shards, self.url, self.clock, self.log = env, shards, url, clock, log
        self.process: asyncio.subprocess.Process | None = None
        self.lives = 0
        #: the seed of every match this process deals (its servers'): each server's matches deal differently
        self.seed = SEED + shards[0]

    async def start(self) -> None:
        self.lives += 1
        log = self.log.with_suffix(f".{self.lives}.log")
        with log.open("wb") as stderr:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.e2e.test_cluster", self.env.discord.api_base,
                self.env.discord.gateway_url, self.env.token, self.url, ",".join(map(str, self.shards)),
                str(self.clock.path), str(self.seed), os.environ.get("AIRWAR_CLUSTER_NO_LOCK", ""),
                cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=stderr)
        assert self.process.stdout is not None
        try:
            line = await asyncio.wait_for(self.process.stdout.readline(), 60)
        except TimeoutError:
            line = b""
        assert line.strip() == b"resumed", f"the bot process did not start:\n{log.read_text()}"
        self.current_log = log

    def sessions(self) -> list:
        return [s for s in self.env.discord.hub.sessions if s.shard[0] in self.shards]

    async def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        assert await self.process.wait() == -signal.SIGKILL
        await self.env.wait_for(lambda: not self.sessions(), message="the killed process's shards stayed connected")

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), 20)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()

    def errors(self) -> list[str]:
        lines = []
        for life in range(1, self.lives + 1):
            text = self.log.with_suffix(f".{life}.log").read_text()
            lines += [line for line in text.splitlines() if line.startswith(("ERROR", "CRITICAL"))]
        return lines


async def concurrent_lock_ins(env: Env, carol, dave, thread, number: int, played: Played) -> None:
    """carol (DMs closed: the board's panel, process 1) and dave (his DM panel, process 0) fill their orders, then
    both confirm at the same moment."""
    first = await env.wait_for(lambda: board(env, thread, number), timeout=20,
                               message=f"no board for engagement {number}")
    await env.wait_for(lambda: first.buttons, message="no Arrange button on the board")
    await click(env, carol, first, label="Arrange")
    carol_panel = panel_in(env.ephemerals(carol), number)
    dave_panel = await env.wait_for(lambda: dm_panel(env, dave, number), timeout=20)
    orders = [reverse(stack_of(carol_panel)), weave(stack_of(dave_panel))]
    for user, panel, order in ((carol, carol_panel, orders[0]), (dave, dave_panel, orders[1])):
        for card in order:
            await click(env, user, panel, f"card:{card}")
    confirms = await asyncio.gather(env.click(carol, carol_panel, custom_id=button_id(carol_panel, "confirm")),
                                    env.click(dave, dave_panel, custom_id=button_id(dave_panel, "confirm")))
    for ix in confirms:
        await ix.wait_response()
    refused = [ix.message.text for ix in confirms if ix.response.ephemeral and ix.message.text]
    assert refused == [], f"engagement {number}: a confirm was refused: {refused}"
    assert "Your order is locked in" in carol_panel.text and "Your order is locked in" in dave_panel.text
    played.orders[number] = orders
    played.engagements = number


async def double_confirm(env: Env, carol, dave, thread, number: int, played: Played) -> None:
    """dave places his cards on his DM panel (process 0), opens his panel from the board too (process 1), and
    confirms on both at the same moment: one lock-in, the other confirm refused; then carol locks in from the
    board."""
    first = await env.wait_for(lambda: board(env, thread, number), timeout=20,
                               message=f"no board for engagement {number}")
    await env.wait_for(lambda: first.buttons, message="no Arrange button on the board")
    in_dm = await env.wait_for(lambda: dm_panel(env, dave, number), timeout=20)
    dave_order = weave(stack_of(in_dm))
    for card in dave_order:
        await click(env, dave, in_dm, f"card:{card}")
    await click(env, dave, first, label="Arrange")
    in_thread = panel_in(env.ephemerals(dave), number)
    assert in_thread is not None and in_thread.ephemeral_to is dave
    confirms = await asyncio.gather(env.click(dave, in_dm, custom_id=button_id(in_dm, "confirm")),
                                    env.click(dave, in_thread, custom_id=button_id(in_thread, "confirm")))
    for ix in confirms:
        await ix.wait_response()
    refused = [ix.message.text for ix in confirms if ix.response.ephemeral and ix.response.type == 4]
    assert refused == [f"Already done: your battle order for engagement {number} is locked in."], refused
    await click(env, carol, first, label="Arrange")  # (after: the engagement stays open for the second confirm)
    carol_panel = panel_in(env.ephemerals(carol), number)
    carol_order = reverse(stack_of(carol_panel))
    await lock_in(env, carol, carol_panel, carol_order)
    played.orders[number] = [carol_order, dave_order]
    played.engagements = number


async def assert_ended_like_the_engine(env: Env, reader: MatchKernel, match_id: int, played: Played, seed: int,
                                       guild, thread, channel, players, *, drawn=()) -> None:
    match = await reader.get_match(match_id)
    assert match.seed == seed  # dealt by the process of its server
    game, _ = reference(played.orders, seed=seed)
    assert match.status == "finished", match.status
    assert match.result["winner"] == game.outcome.winner and match.result["reason"] == game.outcome.reason
    assert (await reader.view(match_id))["deck_counts"] == game.view(None)["deck_counts"]
    rows = await match_results(reader.db, match_id)
    assert sorted(row.user_id for row in rows) == sorted(player.id for player in players)  # recorded once
    for player in players:
        rating = await rating_of(reader.db, guild.id, player.id)
        assert rating is not None and rating.games == 1
    assert await reader.outbox.unshown_events(match_id) == []
    await env.wait_for(lambda: len(results(env, thread)) == 1 and [m for m in results(env, channel)
                                                                   if f"<#{thread.id}>" in m.text])
    assert len(results(env, thread)) == 1
    assert_flips_shown_once(env, thread, played.engagements)
    assert_no_order_leaked(env, thread, played.orders, players, scope=[thread, channel], seed=seed,
                           drawn=drawn)


async def test_two_processes_four_shards_a_kill_and_one_action_per_click(make_env, tmp_path, postgres):
    from bot.storage.postgres import PostgresDatabase

    url = await postgres.url_for("e2e-cluster")
    env = await make_env(shard_count=SHARDS)
    lift_rate_limits(env)
    north = env.add_guild("North", shard=(1, SHARDS))
    south = env.add_guild("South", shard=(3, SHARDS))
    alice, bob = env.user("alice", member=False), env.user("bob", member=False)
    carol, dave = env.user("carol", member=False, dms_open=False), env.user("dave", member=False)
    for user, guild in ((alice, north), (bob, north), (carol, south), (dave, south)):
        env.join(user, guild)
    north_channel, south_channel = env.channel(guild=north), env.channel(guild=south)
    clock = SharedClock(tmp_path / "clock")
    first = ClusterProcess(env, (0, 1), url, clock, tmp_path / "first")
    second = ClusterProcess(env, (2, 3), url, clock, tmp_path / "second")
    reader_db = await PostgresDatabase.open(url, shared=True)
    reader = MatchKernel(reader_db, game="airwar")
    try:
        await first.start()
        await second.start()
        assert sorted(s.shard for s in env.discord.hub.sessions) == [(n, SHARDS) for n in range(SHARDS)]
        # the card emoji: uploaded by the first process, found by the second
        assert env.world.app_emoji_creates == len(NAMES)
        assert sorted(emoji.name for emoji in env.world.app_emojis.values()) == sorted(NAMES)

        north_ix = await slash(env, alice, "airwar challenge", opponent=bob, timer=600, where=north_channel)
        south_ix = await slash(env, carol, "airwar challenge", opponent=dave, timer=30, where=south_channel)
        north_id, south_id = match_id_of(north_ix.message), match_id_of(south_ix.message)
        await click(env, bob, north_ix.message, label="Accept")
        await click(env, dave, south_ix.message, label="Accept")
        north_thread = await env.wait_for(lambda: north_ix.message.thread)
        south_thread = await env.wait_for(lambda: south_ix.message.thread)

        # South: two engagements of concurrent confirms from both processes; North: two through process 0
        south_played, north_played = Played(), await play(env, (alice, bob), north_thread, until=2)
        await concurrent_lock_ins(env, carol, dave, south_thread, 1, south_played)
        await double_confirm(env, carol, dave, south_thread, 2, south_played)

        # the kill: process 1 dies in the middle of South's flips of engagement 3
        await concurrent_lock_ins(env, carol, dave, south_thread, 3, south_played)
        await env.wait_for(lambda: flip_lines(board(env, south_thread, 3).text) >= 2, timeout=10)
        await second.kill()
        shown_at_kill = flip_lines(board(env, south_thread, 3).text)
        assert "Engagement 3 over" not in board(env, south_thread, 3).text, "the flips ended before the kill"
        # North goes on meanwhile (its server and the DMs are process 0's)
        north_played = await play(env, (alice, bob), north_thread, first=3, played=north_played, until=3)
        await second.start()
        await env.wait_for(lambda: "Engagement 3 over" in board(env, south_thread, 3).text, timeout=15)
        assert flip_lines(board(env, south_thread, 3).text) > shown_at_kill

        # a deadline in South, run by its owner once: dave locks in (process 0), carol lets the time run out
        dave_panel = await env.wait_for(lambda: dm_panel(env, dave, 4), timeout=20)
        dave_order = weave(stack_of(dave_panel))
        await lock_in(env, dave, dave_panel, dave_order)
        await env.wait_for(lambda: "✅ locked in" in board(env, south_thread, 4).text)
        clock.advance(31)
        note = await env.wait_for(lambda: [m for m in env.messages(south_thread) if m.text.startswith("⏰")],
                                  timeout=10)
        assert f"**<@{carol.id}>** did not lock in an order" in note[0].text
        game_at_4 = reference({n: south_played.orders[n] for n in (1, 2, 3)}, seed=second.seed)[0]
        south_played.orders[4] = [list(game_at_4.view(None)["stacks"][0]), dave_order]
        south_played.engagements = 4

        # both to the end
        north_played = await play(env, (alice, bob), north_thread, first=4, played=north_played)
        number = 5
        while await env.wait_for(lambda n=number: "over" if results(env, south_thread) else board(env, south_thread, n),
                                 timeout=20) != "over":
            await concurrent_lock_ins(env, carol, dave, south_thread, number, south_played)
            number += 1
        await assert_ended_like_the_engine(env, reader, north_id, north_played, first.seed, north, north_thread,
                                           north_channel, (alice, bob))
        await assert_ended_like_the_engine(env, reader, south_id, south_played, second.seed, south, south_thread,
                                           south_channel, (carol, dave), drawn=[(4, 0)])
        assert len([m for m in env.messages(south_thread) if m.text.startswith("⏰")]) == 1  # fired once
        assert [m for m in env.messages(north_thread) if m.text.startswith("⏰")] == []
        assert first.errors() == [] and second.errors() == []
    finally:
        for process in (first, second):
            await process.stop()
        await reader_db.close()


# --- a process of the cluster -----------------------------------------------------------------------------------


def main(argv: list[str]) -> None:
    """``python -m tests.e2e.test_cluster API GATEWAY TOKEN URL SHARD_IDS CLOCK_FILE SEED NO_LOCK``: one process of the
    cluster against a local Discord started by a test; prints ``resumed`` once connected and caught up."""
    from bot.client import CardGameBot, create_bot
    from bot.cluster import Cluster
    from bot.config import Settings
    from bot.storage.postgres import PostgresDatabase
    from tests.localdiscord.airwar import run_bot_process

    api, gateway, token, url, shard_ids, clock_file, seed, no_lock = argv
    if no_lock:
        async def no_match_lock(self, connection, match_id: int) -> None:
            return None

        PostgresDatabase.lock_match = no_match_lock  # type: ignore[method-assign]

    clock_path = Path(clock_file)
    read = {"at": 0.0, "offset": 0.0}

    def clock() -> float:
        now = time.time()
        if now - read["at"] > 0.02:
            read["at"] = now
            with contextlib.suppress(OSError, ValueError):
                read["offset"] = float(clock_path.read_text() or 0)
        return now + read["offset"]

    async def pace_sleep(seconds: float) -> None:
        await asyncio.sleep(FLIP_SECONDS)

    async def timer_sleep(seconds: float) -> None:
        await asyncio.sleep(min(seconds, 0.05))

    def make_bot() -> CardGameBot:
        settings = Settings(token=token, database_path=Path("unused.db"), log_level="INFO", database_url=url,
                            cluster=Cluster(SHARDS, tuple(int(n) for n in shard_ids.split(","))))
        return create_bot(settings, clock=clock, seed_source=lambda: int(seed), pace_sleep=pace_sleep,
                          timer_sleep=timer_sleep, guild_ready_timeout=0.05)

    run_bot_process(api, gateway, token, make_bot, line="resumed", after_resume=True)


if __name__ == "__main__":
    main(sys.argv[1:])
