"""Kill the bot and start it again: every match goes on where it was.

The first bot runs in a real separate process (``python -m tests.e2e.test_airwar_restart ...``, the entry point
at the bottom) connected to the test's local Discord, and is killed with SIGKILL: no cleanup, no goodbye, the
database as the kill left it. A new bot (in the test's process, so the fixture checks its logs and
interactions) then starts on the same database file. The match must end exactly as the engine plays it with the
same seed and the same orders; the buttons of the messages the dead bot sent must keep working; no flip may be
shown twice and the result must be recorded once.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import pytest

from tests.e2e.test_airwar import (
    PACE_MS,
    SEED,
    accept,
    assert_finished_like_reference,
    assert_flips_shown_once,
    assert_no_order_leaked,
    board,
    challenge,
    click,
    dm_panel,
    fast_bot,
    flip_lines,
    lift_rate_limits,
    match_id_of,
    play,
    slash,
    stack_of,
    weave,
)
from tests.localdiscord import Env

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """The real bot in a child process, pointed at the test's local Discord."""

    def __init__(self, process: asyncio.subprocess.Process, log: Path) -> None:
        self.process = process
        self.log = log

    @classmethod
    async def start(cls, env: Env, database: Path, *, flip_seconds: float) -> BotProcess:
        log = database.with_suffix(".log")
        with log.open("wb") as stderr:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.e2e.test_airwar_restart", env.discord.api_base,
                env.discord.gateway_url, env.token, str(database), str(env.guild.id), str(env.owner.id),
                str(flip_seconds), cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=stderr,
            )
        bot = cls(process, log)
        assert process.stdout is not None
        try:
            line = await asyncio.wait_for(process.stdout.readline(), 30)
        except TimeoutError:
            line = b""
        assert line.strip() == b"ready", f"the bot process did not get ready:\n{log.read_text()}"
        return bot

    async def kill(self, env: Env) -> None:
        self.process.send_signal(signal.SIGKILL)
        assert await self.process.wait() == -signal.SIGKILL
        await env.wait_for(lambda: not env.discord.hub.sessions, message="the killed bot's gateway stayed open")
        errors = [line for line in self.log.read_text().splitlines() if line.startswith(("ERROR", "CRITICAL"))]
        assert errors == [], self.log.read_text()

    async def ensure_dead(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


def board_text(env: Env, thread, number: int) -> str:
    message = board(env, thread, number)
    return message.text if message is not None else ""


async def restart_in_process(env: Env, database: Path) -> None:
    """The second life: the real bot in this process, on the dead bot's database."""
    bot = fast_bot(database)(env)
    await env.start_bot(bot)
    await env.wait_for(lambda: bot.match_display is not None)


async def test_a_kill_mid_arrangement_loses_nothing(make_env, tmp_path):
    database = tmp_path / "airwar.db"
    env = await make_env()
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()
    first = await BotProcess.start(env, database, flip_seconds=0.0)
    try:
        await slash(env, env.owner, "airwar settings", pace=PACE_MS / 1000)
        message = await challenge_without_bot(env, alice, bob)
        match_id = match_id_of(message)
        thread = await accept(env, bob, message)
        played = await play(env, (alice, bob), thread, until=1)
        # engagement 2: alice locks in, bob places two cards ... and the bot dies
        alice_panel = await env.wait_for(lambda: dm_panel(env, alice, 2))
        bob_panel = await env.wait_for(lambda: dm_panel(env, bob, 2))
        alice_order = list(reversed(stack_of(alice_panel)))
        bob_order = weave(stack_of(bob_panel))
        for card in alice_order:
            await click(env, alice, alice_panel, f"card:{card}")
        await click(env, alice, alice_panel, "confirm")
        await click(env, bob, bob_panel, f"card:{bob_order[0]}")
        await click(env, bob, bob_panel, f"card:{bob_order[1]}")
        await env.wait_for(lambda: "✅ locked in" in board_text(env, thread, 2))
        await first.kill(env)
    finally:
        await first.ensure_dead()

    await restart_in_process(env, database)
    bot = env.bot
    await env.wait_for(lambda: bot.timers.armed(("airwar", match_id)), message="the deadline was not re-armed")
    assert (await bot.matches.get_match(match_id)).deadline_kind == "arrange"
    # bob goes on with the buttons of the message the dead bot sent
    assert "1 " + bob_order[0] in bob_panel.text and "2 " + bob_order[1] in bob_panel.text
    for card in bob_order[2:]:
        await click(env, bob, bob_panel, f"card:{card}")
    await click(env, bob, bob_panel, "confirm")
    played.orders[2] = [alice_order, bob_order]
    played.engagements = 2
    played = await play(env, (alice, bob), thread, first=3, played=played)

    await assert_finished_like_reference(env, match_id, played, thread, channel, (alice, bob))
    assert_flips_shown_once(env, thread, played.engagements)
    assert_no_order_leaked(env, thread, played.orders, (alice, bob))
    assert len([m for m in env.messages(channel) if "follow the match" in m.content]) == 1


async def test_a_kill_mid_flips_shows_no_flip_twice(make_env, tmp_path):
    database = tmp_path / "airwar.db"
    env = await make_env()
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()
    first = await BotProcess.start(env, database, flip_seconds=0.3)  # slow flips: time to kill in the middle
    try:
        await slash(env, env.owner, "airwar settings", pace=PACE_MS / 1000)
        message = await challenge_without_bot(env, alice, bob)
        match_id = match_id_of(message)
        thread = await accept(env, bob, message)
        played = await play(env, (alice, bob), thread, until=2)
        await env.wait_for(lambda: flip_lines(board_text(env, thread, 2)) >= 2, timeout=10)
        flipping = board(env, thread, 2)
        await first.kill(env)
    finally:
        await first.ensure_dead()
    shown_at_kill = flip_lines(flipping.text)
    assert "Engagement 2 over" not in flipping.text, "the flips ended before the kill; slow them down"
    assert dm_panel(env, alice, 3) is None

    await restart_in_process(env, database)
    await env.wait_for(lambda: "Engagement 2 over" in board(env, thread, 2).text)
    assert flip_lines(board(env, thread, 2).text) > shown_at_kill
    played = await play(env, (alice, bob), thread, first=3, played=played)

    await assert_finished_like_reference(env, match_id, played, thread, channel, (alice, bob))
    assert_flips_shown_once(env, thread, played.engagements)
    assert_no_order_leaked(env, thread, played.orders, (alice, bob))


async def challenge_without_bot(env: Env, challenger, opponent):
    """:func:`challenge` for a bot in another process (its database is not ours to read)."""
    ix = await slash(env, challenger, "airwar challenge", opponent=opponent)
    assert not ix.response.ephemeral, ix.message.content
    await asyncio.sleep(0.2)  # the bot stores the challenge message's id right after answering
    return ix.message


async def test_a_restarted_bot_rearms_the_deadlines(make_env, tmp_path):
    """The timers live in memory: a new bot arms them again from the stored deadlines."""
    database = tmp_path / "airwar.db"
    env = await make_env(fast_bot(database))
    alice, bob, carol, dave = (env.user(name) for name in ("alice", "bob", "carol", "dave"))
    waiting = await challenge(env, alice, bob)
    playing = await challenge(env, carol, dave, timer=30)
    thread = await accept(env, dave, playing)
    await env.wait_for(lambda: board(env, thread, 1) and dm_panel(env, carol, 1) and dm_panel(env, dave, 1))
    await env.bot.close()  # the database stays as it was; the new bot knows nothing else
    env.bot = None
    await restart_in_process(env, database)

    env.clock.advance(31)  # carol and dave miss the arrangement deadline: their stacks play as drawn
    note = await env.wait_for(lambda: next((m for m in env.messages(thread) if m.content.startswith("⏰")), None))
    assert "neither" in note.content and "both stacks play as drawn" in note.content
    env.clock.advance(300)  # the challenge that was never answered expires
    await env.wait_for(lambda: "expired" in waiting.content)
    assert not waiting.buttons


# --- the bot process --------------------------------------------------------------------------------------------


def main(argv: list[str]) -> None:
    """``python -m tests.e2e.test_airwar_restart API GATEWAY TOKEN DATABASE GUILD OWNER FLIP_SECONDS``: the real bot
    against a local Discord started by a test; prints ``ready`` once connected; logs to stderr."""
    import logging

    import discord.gateway
    import discord.http
    import yarl

    from bot.client import AirWarBot
    from bot.config import Settings

    api, gateway, token, database, guild, owner, flip_seconds = argv
    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")

    async def pace_sleep(seconds: float) -> None:
        await asyncio.sleep(float(flip_seconds))

    async def run() -> None:
        settings = Settings(token=token, database_path=Path(database), dev_guild_id=int(guild),
                            owner_ids=frozenset({int(owner)}), log_level="INFO")
        bot = AirWarBot(settings, seed_source=lambda: SEED, pace_sleep=pace_sleep, guild_ready_timeout=0.05)

        async def on_ready() -> None:
            print("ready", flush=True)

        bot.add_listener(on_ready)
        async with bot:
            await bot.start(token)

    asyncio.run(run())


if __name__ == "__main__":
    main(sys.argv[1:])
