"""The PostgreSQL storage: the SQL the stores write once, as PostgreSQL runs it; its migrations; a broken constraint
raised as the stores expect; and the database the tests' server gives."""

from __future__ import annotations

import sqlite3

import pytest

from bot.storage.database import MigrationError
from bot.storage.postgres import Migration, PostgresDatabase, load_migrations, translate


@pytest.mark.parametrize(("sqlite", "postgresql"), [
    ("SELECT * FROM t WHERE a = ? AND b = ?", "SELECT * FROM t WHERE a = $1 AND b = $2"),
    ("UPDATE t SET a = ?2 WHERE id = ?1 AND b = ?2", "UPDATE t SET a = $2 WHERE id = $1 AND b = $2"),
    ("SELECT :guild AS g, x FROM t WHERE y = :guild AND z = :other",
     "SELECT $1 AS g, x FROM t WHERE y = $1 AND z = $2"),
    ("SELECT 'a?b' FROM t WHERE c = ?", "SELECT 'a?b' FROM t WHERE c = $1"),
    ("SELECT json_extract(m.options, '$.opponent.level') AS level FROM m",
     "SELECT ((m.options)::jsonb #>> '{opponent,level}') AS level FROM m"),
    ("SELECT json_group_array(json_array(s.a, s.b)) FROM s",
     "SELECT COALESCE(json_agg(json_build_array(s.a, s.b)), '[]'::json) FROM s"),
    ("SELECT json_group_object(g.name, g.id) FROM g",
     "SELECT COALESCE(json_object_agg(g.name, g.id), '{}'::json) FROM g"),
    ("SELECT json(rules) FROM r", "SELECT ((rules)::json) FROM r"),
    ("SELECT instr(e.event, CAST(?2 AS TEXT)) FROM e", "SELECT strpos(e.event, CAST($2 AS TEXT)) FROM e"),
    ("SELECT id FROM m WHERE kind IS NOT 'challenge' AND x IS NOT NULL",
     "SELECT id FROM m WHERE kind IS DISTINCT FROM 'challenge' AND x IS NOT NULL"),
    ("SELECT CAST(json_extract(r, '$.winner') AS INTEGER) FROM m",
     "SELECT CAST(((r)::jsonb #>> '{winner}') AS BIGINT) FROM m"),
    ("INSERT OR IGNORE INTO p (a, b) VALUES (?, ?)", "INSERT INTO p (a, b) VALUES ($1, $2) ON CONFLICT DO NOTHING"),
    ("INSERT INTO matches (a) VALUES (?)", "INSERT INTO matches (a) VALUES ($1) RETURNING id"),
    ("INSERT INTO match_actions (a) SELECT ? RETURNING seq", "INSERT INTO match_actions (a) SELECT $1 RETURNING seq"),
])
def test_the_sql_is_rewritten_where_postgresql_spells_it_differently(sqlite, postgresql):
    assert translate(sqlite).sql == postgresql


def test_named_parameters_keep_their_order_and_an_insert_into_an_id_table_returns_its_id():
    assert translate("SELECT :b, :a, :b").names == ("b", "a")
    assert translate("INSERT INTO tournaments (a) VALUES (?)").returns_id
    assert not translate("INSERT INTO players (a) VALUES (?)").returns_id


async def test_an_empty_database_gets_the_baseline_and_a_newer_one_is_refused(postgres):
    url = await postgres.url_for("test-postgres-migrations")
    baseline = load_migrations()
    assert baseline[0].name.endswith("baseline") and baseline[0].version == 9
    database = await PostgresDatabase.open(url)
    try:
        assert await database.schema_version() == baseline[-1].version
        async with database.transaction() as conn:
            await conn.execute("INSERT INTO players (guild_id, user_id, display_name, created_at, updated_at)"
                               " VALUES (?, ?, ?, ?, ?)", (1, 2, "Ann", 0.0, 0.0))
            with pytest.raises(sqlite3.IntegrityError, match="duplicate key"):  # what the stores catch
                await conn.execute("INSERT INTO players (guild_id, user_id, display_name, created_at, updated_at)"
                                   " VALUES (?, ?, ?, ?, ?)", (1, 2, "Ann", 0.0, 0.0))
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
