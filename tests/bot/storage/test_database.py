import asyncio
import os
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from bot.storage import Database, DatabaseClosed, MigrationError
from bot.storage.database import Migration, load_migrations
from bot.storage.errors import ConstraintViolation


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


# --- the schema --------------------------------------------------------------------------------------------

EXPECTED_TABLES = {
    "guild_settings", "players", "matches", "match_seats", "match_messages", "match_actions", "match_events",
    "results", "ratings",
}


async def test_the_schema_has_every_table_and_opening_twice_changes_nothing(tmp_path):
    path = tmp_path / "airwar.db"
    database = await Database.open(path)
    async with database.read() as conn:
        tables = {row[0] for row in await conn.execute_fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")}
        schema = await conn.execute_fetchall("SELECT type, name, sql FROM sqlite_master ORDER BY name")
    assert tables >= EXPECTED_TABLES
    await database.close()
    again = await Database.open(path)
    async with again.read() as conn:
        assert await conn.execute_fetchall("SELECT type, name, sql FROM sqlite_master ORDER BY name") == schema
    assert await again.schema_version() == len(load_migrations())
    await again.close()


# --- transactions ------------------------------------------------------------------------------------------

@pytest.fixture
async def database(tmp_path):
    database = await Database.open(tmp_path / "airwar.db")
    async with database.transaction() as conn:
        await conn.execute("CREATE TABLE log (writer TEXT, step INTEGER)")
    yield database
    await database.close()


async def test_two_concurrent_transactions_never_interleave(database):
    async def writer(name: str) -> None:
        async with database.transaction() as conn:
            for step in range(5):
                await conn.execute("INSERT INTO log VALUES (?, ?)", (name, step))
                await asyncio.sleep(0)  # give the other writer every chance to cut in

    await asyncio.gather(*(writer(name) for name in "abcd"))
    async with database.read() as conn:
        rows = [tuple(row) for row in await conn.execute_fetchall("SELECT writer, step FROM log ORDER BY rowid")]
    assert len(rows) == 20
    for start in range(0, 20, 5):  # each writer's five rows are one block
        block = rows[start:start + 5]
        assert {writer for writer, _ in block} == {block[0][0]}
        assert [step for _, step in block] == list(range(5))


async def test_a_failing_transaction_rolls_back_and_the_next_one_works(database):
    with pytest.raises(ZeroDivisionError):
        async with database.transaction() as conn:
            await conn.execute("INSERT INTO log VALUES ('lost', 1)")
            1 / 0  # noqa: B018
    async with database.transaction() as conn:
        await conn.execute("INSERT INTO log VALUES ('kept', 1)")
    async with database.read() as conn:
        assert [tuple(r) for r in await conn.execute_fetchall("SELECT * FROM log")] == [("kept", 1)]


async def test_a_cancelled_transaction_rolls_back(database):
    started = asyncio.Event()

    async def slow() -> None:
        async with database.transaction() as conn:
            await conn.execute("INSERT INTO log VALUES ('cancelled', 1)")
            started.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(slow())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    async with database.transaction() as conn:
        await conn.execute("INSERT INTO log VALUES ('after', 1)")
    async with database.read() as conn:
        assert [tuple(r) for r in await conn.execute_fetchall("SELECT * FROM log")] == [("after", 1)]


async def test_a_reader_never_sees_a_writer_in_flight(database):
    inside = asyncio.Event()
    release = asyncio.Event()

    async def writer() -> None:
        async with database.transaction() as conn:
            await conn.execute("INSERT INTO log VALUES ('w', 1)")
            inside.set()
            await release.wait()

    task = asyncio.create_task(writer())
    await inside.wait()

    async def reader() -> int:
        async with database.read() as conn:
            return (await conn.execute_fetchall("SELECT COUNT(*) FROM log"))[0][0]

    read = asyncio.create_task(reader())
    await asyncio.sleep(0.01)
    assert not read.done()  # it waits for the writer
    release.set()
    await task
    assert await read == 1


async def test_transactions_do_not_nest_and_reads_inside_see_the_transaction(database):
    async with database.transaction() as conn:
        await conn.execute("INSERT INTO log VALUES ('x', 1)")
        async with database.read() as inner:
            assert (await inner.execute_fetchall("SELECT COUNT(*) FROM log"))[0][0] == 1
        with pytest.raises(RuntimeError, match="nest"):
            async with database.transaction():
                pass


@pytest.mark.parametrize("block", ["transaction", "statement"])
async def test_close_waits_for_the_block_in_flight(tmp_path, block):
    database = await Database.open(tmp_path / "airwar.db")
    async with database.transaction() as conn:
        await conn.execute("CREATE TABLE t (x INTEGER)")
    inside = asyncio.Event()

    async def writer() -> None:
        async with getattr(database, block)() as conn:
            inside.set()
            for x in range(3 if block == "transaction" else 1):  # a statement block writes once
                await asyncio.sleep(0.01)
                await conn.execute("INSERT INTO t VALUES (?)", (x,))

    task = asyncio.create_task(writer())
    await inside.wait()
    await database.close()  # a clean shutdown: the writer finishes and commits first
    await task
    with pytest.raises(DatabaseClosed):
        async with database.transaction():
            pass
    with sqlite3.connect(tmp_path / "airwar.db") as raw:
        assert raw.execute("SELECT COUNT(*) FROM t").fetchone()[0] == (3 if block == "transaction" else 1)


# --- constraints the schema keeps by itself ------------------------------------------------------------------

async def _insert_match(conn, match_id: int, users=(1, 2), status: str = "challenge") -> None:
    await conn.execute(
        "INSERT INTO matches (id, guild_id, channel_id, game, rules, status, created_at, updated_at)"
        " VALUES (?, 1, 1, 'airwar', '{}', ?, 0, 0)", (match_id, status))
    for seat, user in enumerate(users):
        await conn.execute(
            "INSERT INTO match_seats (match_id, seat, user_id, game, open) VALUES (?, ?, ?, 'airwar', 1)",
            (match_id, seat, user))


async def test_a_player_is_in_one_open_match_per_game(database):
    async with database.transaction() as conn:
        await _insert_match(conn, 1, (1, 2))
    with pytest.raises(ConstraintViolation):
        async with database.transaction() as conn:
            await _insert_match(conn, 2, (2, 3))
    async with database.transaction() as conn:  # once the first is over, the seat is free again
        await conn.execute("UPDATE matches SET status = 'cancelled' WHERE id = 1")
        await _insert_match(conn, 2, (2, 3))
    async with database.read() as conn:
        assert [tuple(r) for r in await conn.execute_fetchall(
            "SELECT match_id, user_id, open FROM match_seats ORDER BY match_id, seat")] == [
            (1, 1, None), (1, 2, None), (2, 2, 1), (2, 3, 1)]


async def test_results_only_for_finished_matches_once_and_final_statuses_stay(database):
    insert = ("INSERT INTO results (match_id, seat, guild_id, game, user_id, outcome, rating_before, rating_after,"
              " created_at) VALUES (1, 0, 1, 'airwar', 1, 'win', 0, 1, 0)")
    async with database.transaction() as conn:
        await _insert_match(conn, 1)
    with pytest.raises(ConstraintViolation, match="only for finished"):
        async with database.transaction() as conn:
            await conn.execute(insert)
    async with database.transaction() as conn:
        await conn.execute("UPDATE matches SET status = 'finished', result = '{}', seed = 1, state = '{}' WHERE id = 1")
        await conn.execute(insert)
    with pytest.raises(ConstraintViolation):
        async with database.transaction() as conn:
            await conn.execute(insert)
    with pytest.raises(ConstraintViolation, match="cannot change its status"):
        async with database.transaction() as conn:
            await conn.execute("UPDATE matches SET status = 'active' WHERE id = 1")


async def test_the_games_migration_keeps_every_row_and_widens_the_checks(tmp_path):
    path = tmp_path / "old.db"
    first, *rest = load_migrations()
    database = await Database.open(path, migrations=[first])
    async with database.transaction() as conn:
        await conn.execute(
            "INSERT INTO matches (id, guild_id, channel_id, game, rules, status, seed, state, result, created_at,"
            " updated_at) VALUES (7, 1, 2, 'airwar', '{}', 'finished', 5, '{}', '{\"winner\": 0}', 0, 0)"
        )
        await conn.execute("INSERT INTO match_seats (match_id, seat, user_id, game) VALUES (7, 0, 11, 'airwar')")
        await conn.execute("INSERT INTO match_actions VALUES (7, 1, 0, 1, 'order', '{}', 0)")
        await conn.execute(
            "INSERT INTO match_events (match_id, seq, type, event, created_at) VALUES (7, 1, 'x', '{}', 0)"
        )
        await conn.execute(
            "INSERT INTO results VALUES (7, 0, 1, 'airwar', 11, 'win', 0, 1, 0)"
        )
    await database.close()

    database = await Database.open(path)
    try:
        assert await database.schema_version() == len(rest) + 1
        async with database.transaction() as conn:
            rows = await conn.execute_fetchall("SELECT options, status FROM matches WHERE id = 7")
            assert [tuple(row) for row in rows] == [("{}", "finished")]
            for table in ("match_seats", "match_actions", "match_events", "results"):
                count = await conn.execute_fetchall(f"SELECT COUNT(*) FROM {table} WHERE match_id = 7")
                assert next(iter(count))[0] == 1, table
            await conn.execute(
                "INSERT INTO matches (id, guild_id, channel_id, game, rules, status, deadline_at, deadline_kind,"
                " created_at, updated_at) VALUES (8, 1, 2, 'war', '{}', 'challenge', 1, 'turn', 0, 0)"
            )
            await conn.execute("INSERT INTO match_actions VALUES (8, 1, 0, 0, 'flip', '{}', 0)")
            # any kind a game's flow names (a new game brings its own), but a kind
            await conn.execute("UPDATE matches SET deadline_kind = 'a_new_kind' WHERE id = 8")
            with pytest.raises(ConstraintViolation):
                await conn.execute("UPDATE matches SET deadline_kind = '' WHERE id = 8")
            with pytest.raises(ConstraintViolation):  # still only finished matches get results
                await conn.execute(
                    "INSERT INTO results (match_id, seat, guild_id, game, user_id, outcome, rating_before,"
                    " rating_after, created_at) VALUES (8, 0, 1, 'war', 11, 'win', 0, 1, 0)"
                )
            with pytest.raises(ConstraintViolation):  # the final-status trigger survived the rebuild
                await conn.execute("UPDATE matches SET status = 'active' WHERE id = 7")
            await conn.execute("DELETE FROM matches WHERE id = 7")  # foreign keys cascade again
            left = await conn.execute_fetchall("SELECT COUNT(*) FROM match_seats WHERE match_id = 7")
            assert next(iter(left))[0] == 0
        async with database.connection.execute("PRAGMA foreign_keys") as cursor:
            assert (await cursor.fetchone())[0] == 1
    finally:
        await database.close()


async def test_a_migration_with_foreign_keys_off_that_breaks_them_rolls_back(tmp_path):
    path = tmp_path / "db.sqlite"
    parent = Migration(1, "0001_parent", "CREATE TABLE p (id INTEGER PRIMARY KEY);"
                       "CREATE TABLE c (p_id INTEGER REFERENCES p (id));")
    breaking = Migration(2, "0002_break", "-- foreign_keys: off\nINSERT INTO c VALUES (42);")
    with pytest.raises(MigrationError, match="foreign keys"):
        await Database.open(path, migrations=[parent, breaking])
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == 1
        assert raw.execute("SELECT COUNT(*) FROM c").fetchone()[0] == 0


INSERT_PLAYER = "INSERT INTO players (guild_id, user_id, display_name, created_at, updated_at) VALUES"


async def test_a_lone_statement_commits_by_itself_and_a_failed_one_changes_nothing(tmp_path):
    database = await Database.open(tmp_path / "one.db")
    try:
        async with database.statement() as conn:
            await conn.execute(f"{INSERT_PLAYER} (1, 2, 'a', 0, 0)")
        again = await Database.open(tmp_path / "one.db")  # another connection sees it: committed
        try:
            async with again.read() as conn:
                names = await conn.execute_fetchall("SELECT display_name FROM players")
            assert [tuple(row) for row in names] == [("a",)]
        finally:
            await again.close()
        with pytest.raises(ConstraintViolation):
            async with database.statement() as conn:
                await conn.execute(f"{INSERT_PLAYER} (3, 4, 'b', 0, 0), (1, 2, 'c', 0, 0)")
        async with database.read() as conn:
            rows = list(await conn.execute_fetchall("SELECT guild_id, user_id, display_name FROM players"))
        assert [tuple(row) for row in rows] == [(1, 2, "a")]
        assert not database.connection.in_transaction
    finally:
        await database.close()


@pytest.mark.parametrize("kinds", [("statement", "statement"), ("read", "statement"), ("read", "read")])
async def test_reads_and_statement_blocks_run_side_by_side(database, kinds):
    inside = [asyncio.Event(), asyncio.Event()]

    async def block(me: int) -> None:
        async with getattr(database, kinds[me])() as conn:
            inside[me].set()
            await asyncio.wait_for(inside[1 - me].wait(), 5)  # the other is in at the same time
            if kinds[me] == "statement":
                await conn.execute("INSERT INTO log VALUES (?, ?)", (f"s{me}", 0))

    await asyncio.gather(block(0), block(1))
    async with database.read() as conn:
        rows = {tuple(row) for row in await conn.execute_fetchall("SELECT writer, step FROM log")}
    assert rows == {(f"s{me}", 0) for me in (0, 1) if kinds[me] == "statement"}


async def test_no_statement_lands_inside_a_transaction(database):
    """A transaction does not wait for the statement blocks in flight; a block's statement issued while a
    transaction is open waits until it is over, so the transaction's rollback takes no block's write with it."""
    order: list[str] = []
    release_first = asyncio.Event()
    transaction_open = asyncio.Event()

    async def first_statement() -> None:
        async with database.statement() as conn:
            order.append("statement 1 in")
            await release_first.wait()
            await conn.execute("INSERT INTO log VALUES ('s1', 0)")
            order.append("statement 1 out")

    async def failing_transaction() -> None:
        with pytest.raises(ZeroDivisionError):
            async with database.transaction() as conn:
                order.append("transaction in")
                await conn.execute("INSERT INTO log VALUES ('t', 0)")
                transaction_open.set()
                for _ in range(20):
                    await asyncio.sleep(0)  # the statements' every chance to cut in
                order.append("transaction fails")
                raise ZeroDivisionError

    async def second_statement() -> None:
        async with database.statement() as conn:
            order.append("statement 2 in")
            await conn.execute("INSERT INTO log VALUES ('s2', 0)")
            order.append("statement 2 out")

    first = asyncio.create_task(first_statement())
    await asyncio.sleep(0)
    transaction = asyncio.create_task(failing_transaction())
    await asyncio.wait_for(transaction_open.wait(), 5)  # not held up by the block in flight
    release_first.set()
    second = asyncio.create_task(second_statement())
    await asyncio.gather(first, transaction, second)
    assert order.index("transaction fails") < order.index("statement 1 out")
    assert order.index("transaction fails") < order.index("statement 2 out")
    async with database.read() as conn:
        rows = {row[0] for row in await conn.execute_fetchall("SELECT writer FROM log")}
    assert rows == {"s1", "s2"}  # the rolled-back transaction took neither statement with it


async def test_a_transaction_inside_a_statement_block_is_refused(database):
    async with database.statement():
        with pytest.raises(RuntimeError, match="do not nest"):
            async with database.transaction():
                pass


class Trips:
    """Counts what a database hands to aiosqlite's thread (each hand-over is a round trip through the loop)."""

    def __init__(self, database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        handed = database.connection._execute

        async def counted(function, *args, **kwargs):
            self.count += 1
            return await handed(function, *args, **kwargs)

        monkeypatch.setattr(database.connection, "_execute", counted)


async def logged(database: Database) -> list[tuple]:
    async with database.read() as conn:
        return [tuple(row) for row in await conn.execute_fetchall("SELECT writer, step FROM log ORDER BY rowid")]


async def test_a_transaction_that_only_sends_writes_is_one_round_trip(database, monkeypatch):
    trips = Trips(database, monkeypatch)
    async with database.transaction() as conn, database.pipelined(conn) as watched:
        for step in range(3):
            watched.send(lambda connection, step=step: connection.execute("INSERT INTO log VALUES ('w', ?)", (step,)))
    assert trips.count == 1  # BEGIN, the three writes and COMMIT
    async with database.transaction() as conn:
        pass
    assert trips.count == 1  # nothing ran: nothing handed over
    assert await logged(database) == [("w", 0), ("w", 1), ("w", 2)]


async def test_begin_and_the_writes_sent_go_with_the_statement_awaited_after_them(database, monkeypatch):
    trips = Trips(database, monkeypatch)
    async with database.transaction() as conn, database.pipelined(conn) as watched:
        watched.send(lambda connection: connection.execute("INSERT INTO log VALUES ('a', 1)"))
        rows = await conn.execute_fetchall("SELECT COUNT(*) FROM log")
        assert trips.count == 1 and rows[0][0] == 1  # BEGIN + the write + the read, which sees it
        cursor = await conn.execute("INSERT INTO log VALUES ('b', 2)")
        assert cursor.rowcount == 1 and trips.count == 2  # the transaction's own statement, on its own
        async with database.statement() as inner:  # inside the transaction: part of it, in order
            watched.send(lambda connection: connection.execute("INSERT INTO log VALUES ('c', 3)"))
            assert (await inner.execute_fetchall("SELECT COUNT(*) FROM log"))[0][0] == 3
    assert await logged(database) == [("a", 1), ("b", 2), ("c", 3)]


async def test_nothing_runs_after_a_begin_that_failed(tmp_path):
    """Another process holds the file's write lock: BEGIN IMMEDIATE fails, and the write handed over with it must
    not run on its own (outside any transaction it would commit by itself)."""
    database = await Database.open(tmp_path / "airwar.db")
    try:
        async with database.transaction() as conn:
            await conn.execute("CREATE TABLE log (writer TEXT, step INTEGER)")
        await database.connection.execute("PRAGMA busy_timeout = 50")
        other = sqlite3.connect(tmp_path / "airwar.db", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        for how in ("statement", "sent"):
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                async with database.transaction() as conn, database.pipelined(conn) as watched:
                    if how == "statement":
                        await conn.execute("INSERT INTO log VALUES ('lost', 1)")
                    else:
                        watched.send(lambda connection: connection.execute("INSERT INTO log VALUES ('lost', 2)"))
        other.execute("ROLLBACK")
        other.close()
        async with database.transaction() as conn:
            await conn.execute("INSERT INTO log VALUES ('kept', 1)")
        assert await logged(database) == [("kept", 1)]
    finally:
        await database.close()


async def test_a_write_sent_that_fails_stops_the_ones_after_it_and_the_commit(database):
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        async with database.transaction() as conn, database.pipelined(conn) as watched:
            watched.send(lambda connection: connection.execute("INSERT INTO log VALUES ('first', 1)"))
            watched.send(lambda connection: connection.execute("INSERT INTO nowhere VALUES (1)"))
            watched.send(lambda connection: connection.execute("INSERT INTO log VALUES ('third', 3)"))
    assert await logged(database) == []
    async with database.transaction() as conn:  # the connection is clean: no transaction left open
        await conn.execute("INSERT INTO log VALUES ('next', 1)")
    assert await logged(database) == [("next", 1)]


async def test_a_write_sent_that_waits_for_something_else_is_refused(database):
    async def waits(connection) -> None:
        await asyncio.sleep(0)
        await connection.execute("INSERT INTO log VALUES ('late', 1)")

    with pytest.raises(RuntimeError, match="waited for something other"):
        async with database.transaction() as conn, database.pipelined(conn) as watched:
            watched.send(waits)
    assert await logged(database) == []


# --- where statements run ----------------------------------------------------------------------------------

def _thread_of_statements(database: Database) -> None:
    """``SELECT thread_id()``: the thread the statement runs on."""
    database._raw.create_function("thread_id", 0, threading.get_ident)


async def _statement_thread(database: Database) -> int:
    async with database.statement() as conn:
        rows = await conn.execute_fetchall("SELECT thread_id()")
    return rows[0][0]


@pytest.mark.parametrize("shared", [False, True])
async def test_the_process_own_file_runs_its_statements_on_the_loop_a_shared_one_on_the_thread(tmp_path, shared):
    database = await Database.open(tmp_path / "where.db", shared=shared)
    try:
        _thread_of_statements(database)
        on_the_loop = await _statement_thread(database) == threading.get_ident()
        assert on_the_loop is not shared
        async with database.transaction() as conn:  # a transaction's round trip too
            rows = await conn.execute_fetchall("SELECT thread_id()")
        assert (rows[0][0] == threading.get_ident()) is not shared
    finally:
        await database.close()


async def test_a_statement_that_finds_the_file_locked_waits_on_the_thread_while_the_loop_goes_on(tmp_path):
    path = tmp_path / "locked.db"
    database = await Database.open(path)
    try:
        _thread_of_statements(database)
        async with database.transaction() as conn:
            await conn.execute("CREATE TABLE log (n INTEGER, thread INTEGER)")
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another connection holds the file's write lock

        async def write(n: int) -> None:
            async with database.statement() as conn:
                await conn.execute("INSERT INTO log VALUES (?, thread_id())", (n,))

        first = asyncio.create_task(write(1))
        await asyncio.sleep(0)
        second = asyncio.create_task(write(2))  # handed over behind the first: it goes to the thread too
        ticks = 0
        started = time.monotonic()
        while time.monotonic() - started < 0.3:  # the loop goes on meanwhile
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks >= 10
        assert not first.done() and not second.done()
        other.execute("COMMIT")
        other.close()
        await asyncio.wait_for(asyncio.gather(first, second), 5)
        async with database.read() as conn:
            rows = [tuple(row) for row in await conn.execute_fetchall("SELECT n, thread FROM log ORDER BY rowid")]
        assert [n for n, _ in rows] == [1, 2]
        assert all(thread != threading.get_ident() for _, thread in rows)
        assert await _statement_thread(database) == threading.get_ident()  # and back on the loop once done
    finally:
        await database.close()


def _size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0


async def test_the_write_ahead_log_is_checkpointed_off_the_loop_and_stays_small(tmp_path):
    path = tmp_path / "wal.db"
    database = await Database.open(path)
    wal = Path(f"{path}-wal")
    try:
        async with database.read() as conn:
            assert (await conn.execute_fetchall("PRAGMA wal_autocheckpoint"))[0][0] == 0  # none inside a commit
        checkpoints = database.checkpoints
        checkpoints.wal_bytes, checkpoints.every = 64 << 10, 0.02
        checkpoints.start()
        async with database.transaction() as conn:
            await conn.execute("CREATE TABLE blobs (b BLOB)")
        largest = 0
        for _ in range(40):  # 40 x 100 KiB written; the log is reused once checkpointed
            async with database.transaction() as conn:
                await conn.executemany("INSERT INTO blobs VALUES (?)", [(os.urandom(1024),) for _ in range(100)])
            largest = max(largest, _size(wal))
            await asyncio.sleep(0.05)
        assert checkpoints.done >= 1
        assert largest < 1 << 20, largest
    finally:
        await database.close()
    assert _size(wal) == 0  # the last connection checkpointed the rest
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT COUNT(*) FROM blobs").fetchone()[0] == 4000
