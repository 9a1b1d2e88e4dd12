"""The real Air War bot, built for a local Discord Env (temp database, commands synced to the local guild)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .driver import Env
from .emoji_limits import AppEmoji
from .state import EMOJI_READINGS, read_emoji


def airwar_bot_factory(database_path: Path, database_url: str | None = None, *, card_emoji_uploaded: bool = True,
                       global_commands: bool = False, **client_options: Any) -> Callable[[Env], Any]:
    """``factory(env)`` -> an ``CardGameBot`` on ``database_path`` (or the PostgreSQL ``database_url``; by default
    the ``AIRWAR_TEST_DATABASE_URL`` environment variable's, when set) with ``dev_guild_id`` = the local guild.

    ``guild_ready_timeout`` defaults to 0.05 s (discord.py waits that long after the last GUILD_CREATE).
    ``card_emoji_uploaded``: the application has its card emoji already (:func:`seed_card_emoji`, as after the
    bot's first start anywhere); ``False``: the bot uploads them as it starts. ``global_commands``: no dev guild, the
    commands synced globally (as in production: what a user install sees).
    """

    def factory(env: Env):
        from bot.client import CardGameBot
        from bot.config import Settings

        read_cards_as_notation()
        if card_emoji_uploaded and not env.world.app_emojis:
            seed_card_emoji(env)

        settings = Settings(
            token=env.token,
            database_path=database_path,
            dev_guild_id=None if global_commands else env.guild.id,
            owner_ids=frozenset({env.guild.owner.id}),
            log_level="INFO",
            database_url=database_url or os.environ.get("AIRWAR_TEST_DATABASE_URL") or None,
        )
        return CardGameBot(settings, **{"guild_ready_timeout": 0.05, **client_options})

    return factory


async def open_test_database(database_path: Path) -> Any:
    """The database the bots of :func:`airwar_bot_factory` use: the ``AIRWAR_TEST_DATABASE_URL`` PostgreSQL database
    when it is set, else the SQLite file (for a test that reads what a bot process stored)."""
    url = os.environ.get("AIRWAR_TEST_DATABASE_URL")
    if url:
        from bot.storage.postgres import PostgresDatabase

        return await PostgresDatabase.open(url)
    from bot.storage import Database

    return await Database.open(database_path)


def run_bot_process(api: str, gateway: str, token: str, make_bot: Callable[[], Any], *, line: str = "ready",
                    after_resume: bool = False) -> None:
    """The body of a test's bot process (``python -m tests.e2e.<module> ...``): point discord.py at the test's local
    Discord, log to stderr, build the bot with ``make_bot()`` (inside the event loop) and run it, printing ``line``
    once it is connected (``after_resume``: once it has also caught up with its matches, ``bot.resumed``)."""
    import asyncio
    import logging
    import sys

    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")

    async def run() -> None:
        bot = make_bot()

        async def on_ready() -> None:
            if after_resume:
                await bot.resumed.wait()
            print(line, flush=True)

        bot.add_listener(on_ready)
        async with bot:
            await bot.start(token)

    asyncio.run(run())


def seed_card_emoji(env: Env) -> None:
    """The application's card emoji as an earlier start of the bot uploaded them (``bot.render.card_emoji``)."""
    from bot.render.card_emoji import NAMES, card_of, emoji_png

    world = env.world
    for name in NAMES:
        emoji = AppEmoji(world.ids.next(), name, emoji_png(card_of(name)), animated=False)
        world.app_emojis[emoji.id] = emoji



def read_cards_as_notation() -> None:
    """A reader of the local Discord's messages sees each card emoji as the card it draws, in the notation the bot
    writes where it has no emoji (``Q♠``; a card face down ``🂠``): :data:`tests.localdiscord.state.EMOJI_READINGS`."""
    from bot.cards import card_label
    from bot.render.card_emoji import NAMES, card_of

    for name in NAMES:
        card = card_of(name)
        EMOJI_READINGS[name] = "🂠" if card is None else card_label(card)


def read_cards(text: str) -> str:
    """``text`` with each card emoji (``<:c_QS:123>``) read as its card (:func:`read_cards_as_notation`)."""
    read_cards_as_notation()
    return read_emoji(text)
