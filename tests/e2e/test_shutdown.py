"""SIGTERM (what a Procfile host sends) stops the bot cleanly: in-flight work finishes, the database closes.

The bot runs in a child process through ``bot.__main__.serve`` — the code ``python -m bot`` runs, signal
handlers included — pointed at the test's local Discord (``python -m tests.e2e.test_shutdown ...``).
"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.cards import card_label
from tests.e2e.test_airwar import accept, click, dm_panel, fast_bot, lift_rate_limits, match_id_of, stack_of
from tests.e2e.test_airwar_restart import challenge_without_bot, restart_in_process
from tests.localdiscord import Env

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


async def start_child(env: Env, database: Path) -> tuple[asyncio.subprocess.Process, Path]:
    log = database.with_suffix(".log")
    with log.open("wb") as stderr:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.e2e.test_shutdown", env.discord.api_base, env.discord.gateway_url,
            env.token, str(database), str(env.guild.id), cwd=ROOT, stderr=stderr,
        )
    await env.wait_for(lambda: env.discord.hub.sessions and "airwar" in env.commands, timeout=30,
                       message="the bot process never connected")
    await asyncio.sleep(2.5)  # discord.py waits guild_ready_timeout (2 s by default) before it is ready
    return process, log


async def test_closing_lets_the_command_in_flight_finish_its_writes(make_env, tmp_path):
    database = tmp_path / "airwar.db"
    env = await make_env(fast_bot(database))
    ix = await env.slash(env.user("alice"), "airwar challenge", opponent=env.user("bob"))
    await ix.wait_response()  # answered: the command goes on to store its message and mark its event shown
    await env.bot.close()
    with sqlite3.connect(database) as raw:
        stored = raw.execute("SELECT challenge_message_id FROM matches").fetchall()
        unshown = raw.execute("SELECT COUNT(*) FROM match_events WHERE shown = 0").fetchone()[0]
    assert stored == [(ix.message.id,)] and unshown == 0  # and no error logged (the fixture checks)


async def test_sigterm_mid_match_exits_cleanly_and_the_match_goes_on(make_env, tmp_path):
    database = tmp_path / "airwar.db"
    env = await make_env()
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    process, log = await start_child(env, database)
    try:
        message = await challenge_without_bot(env, alice, bob)
        match_id = match_id_of(message)
        thread = await accept(env, bob, message)
        panel = await env.wait_for(lambda: dm_panel(env, alice, 1))
        first_card = stack_of(panel)[0]
        await click(env, alice, panel, f"card:{first_card}")
        process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(process.wait(), 20)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()

    output = log.read_text()
    assert code == 0, output
    assert "Traceback" not in output and "ERROR" not in output, output
    assert closed_cleanly(database), "the database was not closed: its write-ahead log is still there"
    with sqlite3.connect(database) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        draft = raw.execute("SELECT draft FROM match_seats WHERE user_id = ?", (alice.id,)).fetchone()[0]
    assert first_card in draft  # what the bot answered before SIGTERM is on disk

    await env.wait_for(lambda: not env.discord.hub.sessions, message="the gateway stayed open")
    await restart_in_process(env, database)
    match = await env.bot.matches.get_match(match_id)
    assert match.status == "active" and match.thread_id == thread.id
    # the panel the stopped bot sent still works for the new one
    await click(env, alice, panel, f"card:{stack_of(panel)[1]}")
    await env.wait_for(lambda: f"2 {card_label(stack_of(panel)[1])}" in panel.text,
                       message="the old panel did not answer")


def closed_cleanly(database: Path) -> bool:
    """SQLite folds the write-ahead log back in and removes it when the last connection closes."""
    wal = Path(f"{database}-wal")
    return not wal.exists() or wal.stat().st_size == 0


def main(argv: list[str]) -> None:
    """``python -m tests.e2e.test_shutdown API GATEWAY TOKEN DATABASE GUILD``: ``bot.__main__.serve`` against a
    local Discord started by a test."""
    import logging

    import discord.gateway
    import discord.http
    import yarl

    from bot.__main__ import serve
    from bot.config import Settings
    from bot.logs import setup_logging

    api, gateway, token, database, guild = argv
    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    setup_logging("INFO")
    logging.getLogger("discord").setLevel(logging.WARNING)
    asyncio.run(serve(Settings(token=token, database_path=Path(database), dev_guild_id=int(guild))))


if __name__ == "__main__":
    main(sys.argv[1:])
