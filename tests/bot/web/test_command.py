"""``python -m bot web``: its own process on the bot's database file, serving the pages on 127.0.0.1."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.bot.web.data import add_finished, make_public, name_players

ROOT = Path(__file__).resolve().parents[3]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _environment(database: Path) -> dict[str, str]:
    return {**os.environ, "DATABASE_PATH": str(database), "DATABASE_URL": "", "LOG_LEVEL": "WARNING"}


async def test_the_web_command_serves_the_bot_s_database_in_its_own_process(sqlite_db, tmp_path):
    db = sqlite_db
    await make_public(db, 1)
    await name_players(db, 1, {11: "Alice", 12: "Bob"})
    match_id = await add_finished(db, 1, "airwar", [11, 12], 3, 100.0)
    port = _free_port()
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "web", "--port", str(port), cwd=ROOT, env=_environment(tmp_path / "airwar.db"),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                if (await asyncio.to_thread(_get, f"{base}/health"))[0] == 200:
                    break
            except OSError:
                await asyncio.sleep(0.1)
        status, html = await asyncio.to_thread(_get, f"{base}/m/{match_id}")
        assert status == 200 and "Alice" in html
        assert (await asyncio.to_thread(_get, f"{base}/s/2/airwar"))[0] == 404
        # its reviewer works the finished Air War match's review out by itself, once, and stores it
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            async with db.read() as conn:
                if await db.web.get_review(conn, match_id) is not None:
                    break
            await asyncio.sleep(0.5)
        status, html = await asyncio.to_thread(_get, f"{base}/m/{match_id}")
        assert 'class="step-accuracy"' in html
    finally:
        server.terminate()
        await asyncio.wait_for(server.wait(), 10)


def test_the_web_command_without_a_database_says_so(tmp_path):
    done = subprocess.run([sys.executable, "-m", "bot", "web", "--port", str(_free_port())], cwd=ROOT,
                          env=_environment(tmp_path / "none.db"), capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "no database" in done.stderr
