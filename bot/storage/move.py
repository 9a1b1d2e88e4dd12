"""Copying a SQLite database into an empty PostgreSQL database (``python -m bot migrate-db``, see
:mod:`bot.migrate`), row for row, in one PostgreSQL transaction.

Tables are copied parents before children, rows in their SQLite order, with the tables' triggers off (the rows
already hold what the triggers would have written: a result's season, a chip balance); the identity counters then
continue after the largest id. Every table's copy is compared with the file's, row by row. The caller's ``check``
runs last, still inside the transaction: anything that raises rolls the whole copy back.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.storage.database import Database
from bot.storage.postgres import PostgresDatabase

#: every table, parents before the tables that refer to them
TABLES = (
    "guild_settings", "players", "matches", "match_seats", "match_messages", "match_actions",
    "seasons", "results", "ratings", "guild_default_rules", "guild_start_channels", "season_ratings",
    "combined_ratings", "combined_applied", "combined_results", "tournaments", "tournament_players",
    "tournament_matches", "tournament_games", "match_events", "player_preferences", "chip_balances",
    "chip_ledger", "guild_game_settings", "guild_options", "match_reviews",
)
IDENTITY_TABLES = ("matches", "tournaments", "chip_ledger")
BATCH = 500


class CopyRefused(Exception):
    """The copy cannot be made or does not match (the message says why); nothing was written."""


def _normalised(rows: Sequence[Sequence[Any]]) -> list[tuple[Any, ...]]:
    """Rows as comparable values (a whole number stored as a float in one database reads back equal)."""
    return [tuple(float(value) if isinstance(value, int) and not isinstance(value, bool) else value
                  for value in row) for row in rows]


async def copy_into(source: Database, target: PostgresDatabase,
                    check: Callable[[], Awaitable[None]]) -> dict[str, int]:
    """Copy every table of ``source`` into ``target`` (empty), compare, run ``check``, commit; the rows per table."""
    counts: dict[str, int] = {}
    async with target.pool.acquire() as raw, raw.transaction():
        for table in TABLES:
            if await raw.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{table}")'):
                raise CopyRefused(f"the PostgreSQL database is not empty (table {table} has rows): move into a new "
                                  "database")
        async with source.read() as conn:
            for table in TABLES:
                columns = [row["name"] for row in await conn.execute_fetchall(f'PRAGMA table_info("{table}")')]
                rows = await conn.execute_fetchall(f'SELECT {", ".join(columns)} FROM "{table}" ORDER BY rowid')
                await raw.execute(f'ALTER TABLE "{table}" DISABLE TRIGGER USER')
                if rows:
                    marks = ", ".join(f"${index}" for index in range(1, len(columns) + 1))
                    insert = f'INSERT INTO "{table}" ({", ".join(columns)}) VALUES ({marks})'
                    values = [tuple(row) for row in rows]
                    for start in range(0, len(values), BATCH):
                        await raw.executemany(insert, values[start:start + BATCH])
                await raw.execute(f'ALTER TABLE "{table}" ENABLE TRIGGER USER')
                copied = await raw.fetch(f'SELECT {", ".join(columns)} FROM "{table}"')
                if sorted(_normalised(copied), key=repr) != sorted(_normalised(rows), key=repr):
                    raise CopyRefused(f"table {table}: the copy differs from the file")
                counts[table] = len(rows)
        for table in IDENTITY_TABLES:
            await raw.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                              f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
        await check()
    return counts


async def finished_matches(source: Database) -> list[tuple[int, str, str]]:
    """Every finished match of the file: (id, game, result JSON), oldest first."""
    async with source.read() as conn:
        rows = await conn.execute_fetchall("SELECT id, game, result FROM matches WHERE status = 'finished' ORDER BY id")
    return [(row["id"], row["game"], row["result"]) for row in rows]
