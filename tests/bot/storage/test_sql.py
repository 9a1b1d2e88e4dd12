"""Each database reads the stores' SQL as written: every statement's SQLite text is one SQLite prepares as it is,
its PostgreSQL text one PostgreSQL prepares as it is, and neither connection rewrites what it is given. A broken
rule of the schema is the storage's own ConstraintViolation on both databases, never the driver's exception."""

from __future__ import annotations

import re
import sqlite3

import asyncpg
import pytest

from bot.storage import chips, diagnostics, matches, preferences, results, seasons, settings, stats, tournaments
from bot.storage.errors import ConstraintViolation, StorageConflict
from bot.storage.sql import POSTGRESQL, SQLITE, Placeholders, Statement
from tests.bot.services.support import open_database

STORES = (chips, diagnostics, matches, preferences, results, seasons, settings, stats, tournaments)
#: the statements of the stores, by ``module.NAME``
STATEMENTS = {f"{module.__name__.rsplit('.', 1)[-1]}.{name}": value
              for module in STORES for name, value in vars(module).items() if isinstance(value, Statement)}
#: parts of a statement (a condition, an expression) that stores put into statements they build
FRAGMENTS = {"matches._AGAINST_THE_BOT", "stats._WINNER_SEAT"}


def _whole(text: str, name: str) -> str:
    """A statement to prepare: a fragment inside a query that names the tables it reads."""
    if name in FRAGMENTS:
        return f"SELECT {text} FROM matches AS m"
    return text


def test_the_stores_write_their_statements_for_each_database():
    assert len(STATEMENTS) > 80  # every store's, not a few
    for name, statement in STATEMENTS.items():
        assert "$" not in re.sub(r"'[^']*'", "", statement.sqlite), name  # SQLite's own placeholders
        assert "?" not in re.sub(r"'[^']*'", "", statement.postgresql), name  # PostgreSQL's own placeholders


async def test_sqlite_prepares_every_sqlite_text_as_written(tmp_path):
    database = await open_database(tmp_path / "sql.db")
    await database.close()
    raw = sqlite3.connect(tmp_path / "sql.db")
    try:
        for name, statement in STATEMENTS.items():
            # EXPLAIN compiles the statement against the schema without running it
            raw.execute(f"EXPLAIN {_whole(statement.sqlite, name)}",
                        [None] * _parameters(raw, _whole(statement.sqlite, name)))
    finally:
        raw.close()


def _parameters(raw: sqlite3.Connection, sql: str) -> int:
    """How many parameters SQLite finds in ``sql`` (the largest ?NNN, or the count of ?)."""
    numbered = [int(n) for n in re.findall(r"\?(\d+)", sql)]
    return max(numbered) if numbered else len(re.findall(r"\?", re.sub(r"'[^']*'", "", sql)))


async def test_postgresql_prepares_every_postgresql_text_as_written(postgres):
    database = await open_database("sql-statements", postgres)
    try:
        async with database.pool.acquire() as raw:
            for name, statement in STATEMENTS.items():
                try:
                    await raw.prepare(_whole(statement.postgresql, name))
                except asyncpg.PostgresError as error:  # pragma: no cover - the message names the statement
                    pytest.fail(f"{name}: {error}")
    finally:
        await database.close()


async def test_a_postgresql_connection_runs_the_text_it_is_given_and_rewrites_nothing(postgres):
    database = await open_database("sql-as-written", postgres)
    try:
        async with database.statement() as conn:
            assert conn.dialect == POSTGRESQL
            assert [tuple(row) for row in await conn.execute_fetchall("SELECT $1::int + 1", (41,))] == [(42,)]
            with pytest.raises(asyncpg.PostgresError):  # SQLite's spelling is not translated: no such operator
                await conn.execute_fetchall("SELECT ? + 1", (41,))
    finally:
        await database.close()


async def test_a_sqlite_connection_says_so_in_every_block(tmp_path):
    database = await open_database(tmp_path / "dialect.db")
    try:
        async with database.read() as conn:
            assert conn.dialect == SQLITE
        async with database.statement() as conn:
            assert conn.dialect == SQLITE
        async with database.transaction() as conn:
            assert conn.dialect == SQLITE
            async with database.pipelined(conn) as piped:
                assert piped.dialect == SQLITE
    finally:
        await database.close()


def test_placeholders_are_written_in_the_form_of_the_connections_database():
    class On:
        def __init__(self, dialect):
            self.dialect = dialect

    for dialect, expected in ((SQLITE, "a = ? AND b IN (?, ?)"), (POSTGRESQL, "a = $1 AND b IN ($2, $3)")):
        marks = Placeholders(On(dialect))
        assert f"a = {marks(1)} AND b IN ({marks.each(['x', 'y'])})" == expected
        assert marks.values == [1, "x", "y"]


async def _match(database) -> int:
    async with database.transaction() as conn:
        return await matches.insert_match(conn, guild_id=1, channel_id=2, game="airwar", rules={},
                                          arrange_seconds=None, user_ids=[10, 20], deadline_at=5.0, now=1.0)


async def test_a_broken_unique_key_is_a_constraint_violation_on_both_databases(tmp_path, backend, databases):
    database = await open_database(tmp_path / "unique.db", databases)
    try:
        match_id = await _match(database)
        with pytest.raises(ConstraintViolation, match=r"(?i)unique|duplicate") as refused:
            async with database.transaction() as conn:
                await matches.add_seat(conn, match_id, 10)  # already seated
        assert not isinstance(refused.value, sqlite3.Error | asyncpg.PostgresError)
        with pytest.raises(StorageConflict):  # the one-open-match rule, in the store's words
            await _match(database)
        async with database.read() as conn:
            assert [seat.user_id for seat in (await matches.load_match(conn, match_id)).seats] == [10, 20]
    finally:
        await database.close()


async def test_a_trigger_s_rule_is_a_constraint_violation_on_both_databases(tmp_path, backend, databases):
    from bot.storage.records import ResultRecord

    database = await open_database(tmp_path / "trigger.db", databases)
    try:
        match_id = await _match(database)
        with pytest.raises(ConstraintViolation, match="only for finished"):
            async with database.transaction() as conn:
                await results.insert_results(
                    conn, [ResultRecord(match_id, 0, 1, "airwar", 10, "win", 0.0, 1.0, True)], 2.0)
        async with database.read() as conn:
            assert await results.results_of_match(conn, match_id) == []
    finally:
        await database.close()


async def test_a_write_sent_down_a_pipelined_transaction_is_refused_the_same_way(tmp_path, backend, databases):
    database = await open_database(tmp_path / "sent.db", databases)
    try:
        match_id = await _match(database)
        with pytest.raises(ConstraintViolation):
            async with database.transaction() as conn, database.pipelined(conn) as piped:
                piped.send(lambda sent: matches.add_seat(sent, match_id, 20))
    finally:
        await database.close()


async def test_each_database_is_sent_its_own_text_of_a_statement_unchanged(tmp_path, backend, databases):
    database = await open_database(tmp_path / "sent-text.db", databases)
    try:
        match_id = await _match(database)
        sent: list[str] = []
        if backend == SQLITE:  # SQLite traces a statement with its parameters' values in place
            await database.connection.set_trace_callback(sent.append)
        async with database.statement() as conn:
            if backend == POSTGRESQL:
                conn.raw.add_query_logger(log := lambda logged: sent.append(logged.query))
            assert await matches.load_state(conn, match_id) is None
            assert await matches.open_match_ids(conn, ["airwar"]) == [match_id]
            if backend == POSTGRESQL:  # (what the pool sends when it takes the connection back is not the store's)
                conn.raw.remove_query_logger(log)
        if backend == SQLITE:
            await database.connection.set_trace_callback(None)
            assert sent == [matches._LOAD_STATE.sqlite.replace("?", str(match_id)),
                            "SELECT id FROM matches WHERE status IN ('challenge', 'active') AND game IN ('airwar')"
                            " ORDER BY id"]
        else:
            assert sent == [matches._LOAD_STATE.postgresql,
                            "SELECT id FROM matches WHERE status IN ('challenge', 'active') AND game IN ($1)"
                            " ORDER BY id"]
    finally:
        await database.close()
