"""``python -m bot migrate-db --to postgresql://... [--from data/airwar.db]``: a bot's SQLite database moved into an
empty PostgreSQL database, and checked.

The SQLite file is first brought to the newest schema (as the bot would), the PostgreSQL database to the same
version (its baseline). Every table is copied in one PostgreSQL transaction, parents before children, rows in their
SQLite order, with the tables' triggers off (the rows already hold what the triggers would have written: a result's
season, a chip balance); the identity counters then continue after the largest id. Before the commit the copy is
checked: every table's rows equal the file's, row by row, and every finished match replays from its stored moves to
its stored result. Anything that fails rolls the whole copy back: the PostgreSQL database stays empty.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.storage.database import Database

#: every table, parents before the tables that refer to them
TABLES = (
    "guild_settings", "players", "matches", "match_seats", "match_messages", "match_events", "match_actions",
    "seasons", "results", "ratings", "guild_default_rules", "guild_start_channels", "season_ratings",
    "combined_ratings", "combined_applied", "combined_results", "tournaments", "tournament_players",
    "tournament_matches", "tournament_games", "tournament_events", "player_preferences", "chip_balances",
    "chip_ledger",
)
IDENTITY_TABLES = ("matches", "tournaments", "chip_ledger")
BATCH = 500


class MigrationRefused(Exception):
    """The move cannot be made (the message says why); nothing was written."""


@dataclass
class MoveReport:
    """What was moved: rows per table, and the finished matches replayed to their stored result."""

    rows: dict[str, int] = field(default_factory=dict)
    replayed: int = 0

    def lines(self) -> list[str]:
        width = max(map(len, self.rows)) if self.rows else 0
        lines = [f"{table:<{width}}  {count:>8} rows, every one equal" for table, count in self.rows.items()]
        lines.append(f"{self.replayed} finished matches replayed to their stored result")
        return lines


async def _columns(source: Database, table: str) -> list[str]:
    rows = await source.connection.execute_fetchall(f'PRAGMA table_info("{table}")')
    return [row["name"] for row in rows]


def _normalised(rows: Sequence[Sequence[Any]]) -> list[tuple[Any, ...]]:
    """Rows as comparable values (a whole number stored as a float in one database reads back equal)."""
    return [tuple(float(value) if isinstance(value, int) and not isinstance(value, bool) else value
                  for value in row) for row in rows]


async def move(source_path: Path, url: str) -> MoveReport:
    """Copy the SQLite database at ``source_path`` into the empty PostgreSQL database at ``url`` and check it (the
    caller checks the file exists: opening a missing one would make a new, empty database)."""
    from bot.storage.postgres import PostgresDatabase

    source = await Database.open(source_path)
    try:
        target = await PostgresDatabase.open(url)
        try:
            return await _move(source, target)
        finally:
            await target.close()
    finally:
        await source.close()


async def _move(source: Database, target: Any) -> MoveReport:
    report = MoveReport()
    async with target.pool.acquire() as raw, raw.transaction():
        for table in TABLES:
            if await raw.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{table}")'):
                raise MigrationRefused(f"the PostgreSQL database is not empty (table {table} has rows): move into a "
                                       "new database")
        for table in TABLES:
            columns = await _columns(source, table)
            rows = await source.connection.execute_fetchall(
                f'SELECT {", ".join(columns)} FROM "{table}" ORDER BY rowid')
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
                raise MigrationRefused(f"table {table}: the copy differs from the file")
            report.rows[table] = len(rows)
        for table in IDENTITY_TABLES:
            await raw.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                              f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
        report.replayed = await _replay_finished(source)
    return report


async def _replay_finished(source: Database) -> int:
    """Replay every finished match of the file from its moves; raise MigrationRefused if one does not end as
    stored. (The file's rows and the copy's are equal by then: the file is what is read.)"""
    from bot.games import registry
    from bot.match.kernel import MatchKernel
    from bot.replay import MatchFileError, replay

    kernels: dict[str, MatchKernel] = {}
    rows = await source.connection.execute_fetchall(
        "SELECT id, game, result FROM matches WHERE status = 'finished' ORDER BY id")
    for row in rows:
        family = registry().entry(row["game"]).plugin.name
        kernel = kernels.get(family) or kernels.setdefault(family, MatchKernel(source, game=family))
        result = json.loads(row["result"])
        try:
            last = list(replay(await kernel.export(row["id"])))[-1]
        except MatchFileError as error:
            raise MigrationRefused(f"match {row['id']} does not replay: {error}") from None
        if (last.get("winner"), last.get("reason")) != (result.get("winner"), result.get("reason")):
            raise MigrationRefused(f"match {row['id']} replays to {last.get('winner')}/{last.get('reason')}, not "
                                   f"its stored {result.get('winner')}/{result.get('reason')}")
    return len(rows)
