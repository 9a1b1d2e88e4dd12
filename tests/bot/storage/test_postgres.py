"""The PostgreSQL storage: its migrations; a broken constraint raised as the storage's own exception; and the
database the tests' server gives. (Its SQL, written beside SQLite's: ``test_sql.py``.)"""

from __future__ import annotations

import pytest

from bot.storage.database import MigrationError
from bot.storage.errors import ConstraintViolation
from bot.storage.postgres import Migration, PostgresDatabase, load_migrations


async def test_an_empty_database_gets_the_baseline_and_a_newer_one_is_refused(postgres):
    url = await postgres.url_for("test-postgres-migrations")
    baseline = load_migrations()
    assert baseline[0].name.endswith("baseline") and baseline[0].version == 9
    database = await PostgresDatabase.open(url)
    try:
        assert await database.schema_version() == baseline[-1].version
        async with database.transaction() as conn:
            await conn.execute("INSERT INTO players (guild_id, user_id, display_name, created_at, updated_at)"
                               " VALUES ($1, $2, $3, $4, $5)", (1, 2, "Ann", 0.0, 0.0))
            with pytest.raises(ConstraintViolation, match="duplicate key"):
                await conn.execute("INSERT INTO players (guild_id, user_id, display_name, created_at, updated_at)"
                                   " VALUES ($1, $2, $3, $4, $5)", (1, 2, "Ann", 0.0, 0.0))
    finally:
        await database.close()
    reopened = await PostgresDatabase.open(url)  # the baseline only makes an empty database
    try:
        async with reopened.read() as conn:
            assert (await conn.execute_fetchall("SELECT COUNT(*) AS n FROM players"))[0]["n"] == 0  # rolled back
        with pytest.raises(MigrationError, match="newer than this code knows"):
            await reopened.migrate([Migration(1, "0001_old", "SELECT 1")])
    finally:
        await reopened.close()


async def test_announcements_reach_every_listener_on_commit_only_and_a_dropped_listener_listens_again(postgres):
    import asyncio

    import asyncpg

    url = await postgres.url_for("announcements")
    speaker, hearer = await PostgresDatabase.open(url, shared=True), await PostgresDatabase.open(url, shared=True)
    heard: list[str] = []
    try:
        assert await hearer.listen(heard.append)

        async def heard_soon(count: int) -> None:
            for _ in range(200):
                if len(heard) >= count:
                    return
                await asyncio.sleep(0.01)
            raise AssertionError(f"heard {heard}")

        async with speaker.transaction() as conn:
            await speaker.announce(conn, "one")
        await heard_soon(1)
        with pytest.raises(RuntimeError):
            async with speaker.transaction() as conn:
                await speaker.announce(conn, "rolled back")
                raise RuntimeError
        async with speaker.transaction() as conn:
            await speaker.announce(conn, "two")
        await heard_soon(2)
        assert heard == ["one", "two"]

        # the database drops the listening connection: it is made again, and says some may have been missed
        admin = await asyncpg.connect(url)
        try:
            ended = await admin.fetchval("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                         "WHERE datname = current_database() AND query LIKE 'LISTEN%'")
        finally:
            await admin.close()
        assert ended == 1
        await heard_soon(3)
        assert heard[2] == ""
        async with speaker.transaction() as conn:
            await speaker.announce(conn, "three")
        await heard_soon(4)
        assert heard[3] == "three"
    finally:
        await speaker.close()
        await hearer.close()
