"""Opening the database and applying the numbered migrations in `migrations/` (NNNN_name.sql)."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class MigrationError(Exception):
    """The migration files or the database's schema version are not what this code expects."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    migrations = []
    for path in sorted(directory.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if not match:
            raise MigrationError(f"migration file {path.name!r} is not named NNNN_name.sql")
        migrations.append(Migration(int(match.group(1)), path.stem, path.read_text(encoding="utf-8")))
    versions = [m.version for m in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise MigrationError(f"migrations must be numbered 1, 2, 3 ... without gaps; found {versions}")
    return migrations


class Database:
    """The bot's one SQLite connection: WAL journal, foreign keys on, schema at the newest version."""

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self.connection = connection
        self.path = path

    @classmethod
    async def open(cls, path: Path, migrations: list[Migration] | None = None) -> Database:
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        try:
            await connection.execute("PRAGMA journal_mode = WAL")
            await connection.execute("PRAGMA foreign_keys = ON")
            await connection.execute("PRAGMA busy_timeout = 5000")
            database = cls(connection, path)
            await database.migrate(load_migrations() if migrations is None else migrations)
        except BaseException:
            await connection.close()
            raise
        return database

    async def schema_version(self) -> int:
        async with self.connection.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0])

    async def migrate(self, migrations: list[Migration]) -> None:
        """Apply each migration newer than the stored version, each in its own transaction."""
        current = await self.schema_version()
        newest = migrations[-1].version if migrations else 0
        if current > newest:
            raise MigrationError(
                f"the database {self.path} is at schema version {current}, newer than this code knows ({newest}); "
                "update the bot"
            )
        for migration in migrations:
            if migration.version <= current:
                continue
            log.info("applying migration %s", migration.name)
            # executescript commits first, so run the statements inside one explicit transaction.
            try:
                await self.connection.executescript(
                    f"BEGIN;\n{migration.sql}\nPRAGMA user_version = {migration.version};\nCOMMIT;"
                )
            except Exception as error:
                if self.connection.in_transaction:
                    await self.connection.execute("ROLLBACK")
                raise MigrationError(f"migration {migration.name} failed and was rolled back: {error}") from error

    async def close(self) -> None:
        await self.connection.close()
