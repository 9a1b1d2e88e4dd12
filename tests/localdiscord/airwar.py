"""The real Air War bot, built for a local Discord Env (temp database, commands synced to the local guild)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .driver import Env


def airwar_bot_factory(database_path: Path, database_url: str | None = None,
                       **client_options: Any) -> Callable[[Env], Any]:
    """``factory(env)`` -> an ``CardGameBot`` on ``database_path`` (or the PostgreSQL ``database_url``; by default
    the ``AIRWAR_TEST_DATABASE_URL`` environment variable's, when set) with ``dev_guild_id`` = the local guild.

    ``guild_ready_timeout`` defaults to 0.05 s (discord.py waits that long after the last GUILD_CREATE).
    """

    def factory(env: Env):
        from bot.client import CardGameBot
        from bot.config import Settings

        settings = Settings(
            token=env.token,
            database_path=database_path,
            dev_guild_id=env.guild.id,
            owner_ids=frozenset({env.guild.owner.id}),
            log_level="INFO",
            database_url=database_url or os.environ.get("AIRWAR_TEST_DATABASE_URL") or None,
        )
        return CardGameBot(settings, **{"guild_ready_timeout": 0.05, **client_options})

    return factory
