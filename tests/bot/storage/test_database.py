import sqlite3

import pytest

from bot.storage import Database, MigrationError
from bot.storage.database import Migration, load_migrations


async def test_open_applies_every_migration_once_with_wal_and_foreign_keys(tmp_path):
    path = tmp_path / "nested" / "airwar.db"
    database = await Database.open(path)
    try:
        assert await database.schema_version() == len(load_migrations())
        async with database.connection.execute("PRAGMA journal_mode") as cursor:
            assert (await cursor.fetchone())[0] == "wal"
        async with database.connection.execute("PRAGMA foreign_keys") as cursor:
            assert (await cursor.fetchone())[0] == 1
        async with database.connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cursor:
            tables = {row[0] for row in await cursor.fetchall()}
        assert {"guild_settings", "players", "matches"} <= tables
    finally:
        await database.close()
    reopened = await Database.open(path)  # a second start finds nothing to do
    assert await reopened.schema_version() == len(load_migrations())
    await reopened.close()


async def test_a_failing_migration_rolls_back_and_keeps_the_version(tmp_path):
    path = tmp_path / "db.sqlite"
    good = Migration(1, "0001_good", "CREATE TABLE a (x INTEGER);")
    bad = Migration(2, "0002_bad", "CREATE TABLE b (y INTEGER);\nINSERT INTO nowhere VALUES (1);")
    with pytest.raises(MigrationError, match="0002_bad"):
        await Database.open(path, migrations=[good, bad])
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == 1
        tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"a"}


async def test_a_database_newer_than_the_code_is_refused(tmp_path):
    path = tmp_path / "db.sqlite"
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA user_version = 99")
    with pytest.raises(MigrationError, match="newer"):
        await Database.open(path)
