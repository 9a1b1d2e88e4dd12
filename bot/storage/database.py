"""The SQLite storage: opening the database file, applying the numbered migrations in `migrations/`
(NNNN_name.sql), transactions.

The bot has one aiosqlite connection (:class:`SqliteConnection`: it says it is SQLite's, runs the stores' SQLite
texts as written, and raises a broken schema rule as :class:`~bot.storage.errors.ConstraintViolation`). Every
statement of the project goes through :meth:`Database.transaction`
(writes: ``BEGIN IMMEDIATE`` ... ``COMMIT``), :meth:`Database.read` (reads that see no transaction land between
them) or :meth:`Database.statement` (statements one by one: one write that commits by itself, and reads). A
transaction holds the connection alone: nobody sees its uncommitted writes, and it holds only its own statements.
Reads share the connection side by side, never with a transaction; the one-statement writes that may commit
between two statements of a read touch only message ids, DMs, a seat's draft, shown marks and claims (see
:meth:`Database.read`). A statement block holds nothing: each of its statements is handed over outside any
transaction, so a transaction never waits for statement blocks.

Where the statements run: a bot process's own file (the default, ``shared=False``) runs them on the event loop's
thread as they are handed over, checkpoints its write-ahead log from a thread of its own (:class:`WalCheckpoints`)
and sends a statement that finds the file locked by another connection to aiosqlite's thread to wait there
(:class:`SqliteConnection`). A file other processes use too (``shared=True``: the web face's) runs every statement
on aiosqlite's thread, where it may wait for their locks. There, every statement is a round trip to the thread,
and under load each trip waits for the event loop; this module's blocks were built so that whoever holds the
connection alone holds it for every trip, so only transactions do, and as briefly as they can; a click's
one-statement read or write waits at most for the transaction open at that moment, not for the reads and writes
in flight. Reads add no ``BEGIN``/``ROLLBACK`` trips, and the journal is WAL with ``synchronous = NORMAL`` (a
commit is safe from a killed process at once, from a power cut once checkpointed; it does not wait for the disk).
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.errors import ConstraintViolation
from bot.storage.pipeline import STATEMENT_METHODS, Pipelined, Transaction, pipelined
from bot.storage.sql import SQLITE, Connection, Dialect
from bot.storage.stores import Stores

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
#: the first line of a migration that must run with foreign keys off (a table rebuild)
FOREIGN_KEYS_OFF = "-- foreign_keys: off"
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
#: how long a statement waits for another connection's lock on the file (on aiosqlite's thread)
BUSY_TIMEOUT_MS = 5000


class SqliteConnection(aiosqlite.Connection):
    """The bot's aiosqlite connection, saying which database it is (:attr:`dialect`). It runs the text it is given
    as it is, parameters ``?`` by position; a broken constraint is raised as
    :class:`~bot.storage.errors.ConstraintViolation`.

    Where a call runs: on aiosqlite's thread, as aiosqlite does it; or, once :attr:`on_the_loop` is set (the
    database is the process's own file, :meth:`Database.open`), on the event loop's thread at the moment it is
    handed over, with a busy timeout of 0. An indexed statement of the bot takes tens of microseconds, and each trip
    to the thread and back cost several times that in thread switches and in waits for the interpreter's lock
    while the loop was busy. A call that finds the file locked by another connection (``SQLITE_BUSY``: it changed
    nothing) goes to the thread instead, where it waits up to :data:`BUSY_TIMEOUT_MS` while the loop goes on; the
    calls handed over after it follow it there, in order, until the thread has run them all."""

    dialect: Dialect = SQLITE
    #: run each call on the event loop's thread (see the class docstring)
    on_the_loop = False
    #: calls handed to the thread and not done yet (while any is, the next calls go there too, behind them)
    _on_the_thread = 0

    def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Awaitable[Any]:
        # every statement, cursor call and pipelined batch goes through here
        if not self.on_the_loop:
            return super()._execute(_refusing_in_storage_terms, fn, *args, **kwargs)
        if self._on_the_thread:
            return self._to_the_thread(fn, args, kwargs)
        done = asyncio.get_running_loop().create_future()
        try:
            if self._connection is None:
                raise ValueError("Connection closed")
            done.set_result(_refusing_in_storage_terms(fn, *args, **kwargs))
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY:  # (any kind of busy: recovery, snapshot)
                done.set_exception(error)
            else:
                return self._to_the_thread(fn, args, kwargs)
        except Exception as error:
            done.set_exception(error)
        return done

    def _to_the_thread(self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Awaitable[Any]:
        """``fn`` on aiosqlite's thread, waiting there while the file is locked: handed over now, behind the calls
        handed over before it, as aiosqlite's own ``_execute`` does it (its queue, a future of this loop)."""
        loop = asyncio.get_running_loop()
        answer = loop.create_future()
        self._on_the_thread += 1
        self._tx.put_nowait((answer, partial(self._waiting_while_busy, loop, fn, args, kwargs)))
        return answer

    def _waiting_while_busy(self, loop: asyncio.AbstractEventLoop, fn: Callable[..., Any], args: tuple[Any, ...],
                            kwargs: dict[str, Any]) -> Any:
        raw = self._conn
        try:
            raw.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            try:
                return _refusing_in_storage_terms(fn, *args, **kwargs)
            finally:
                raw.execute("PRAGMA busy_timeout = 0")
        finally:
            # counted off once it ran (not when its caller stops waiting): the loop's next call may use the
            # connection again only then
            loop.call_soon_threadsafe(self._thread_call_done)

    def _thread_call_done(self) -> None:
        self._on_the_thread -= 1


def _refusing_in_storage_terms(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    try:
        return fn(*args, **kwargs)
    except sqlite3.IntegrityError as error:
        raise ConstraintViolation(str(error)) from error


class WalCheckpoints:
    """Checkpoints of the write-ahead log for a connection that runs on the event loop (:attr:`SqliteConnection
    .on_the_loop`): SQLite's automatic checkpoint would run inside one of its commits, on the loop, and wait for the
    disk twice. Every :attr:`every` seconds this looks at the log's size and, past :attr:`wal_bytes` (SQLite's own
    threshold: 1,000 pages of 4 KiB), copies it into the database from its own connection on its own thread
    (``PASSIVE``: it waits for nobody and nobody waits for it). The last connection to close checkpoints the rest."""

    def __init__(self, path: Path, *, wal_bytes: int = 4 << 20, every: float = 1.0) -> None:
        self.path = path
        self.wal_bytes = wal_bytes
        self.every = every
        self._wal = Path(f"{path}-wal")
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-checkpoints")
        self._connection: sqlite3.Connection | None = None  # (made and used on that thread only)
        self._timer: asyncio.TimerHandle | None = None
        self._running: asyncio.Future | None = None
        self.done = 0

    def start(self) -> None:
        """Look every :attr:`every` seconds from now on (again from now, if already started)."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(self.every, self._look)

    def _look(self) -> None:
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self.every, self._look)
        if self._running is not None:
            return
        try:
            size = self._wal.stat().st_size
        except FileNotFoundError:
            return
        if size > self.wal_bytes:
            self._running = loop.run_in_executor(self._thread, self._checkpoint)
            self._running.add_done_callback(self._finished)

    def _finished(self, running: asyncio.Future) -> None:
        self._running = None
        if not running.cancelled() and running.exception() is not None:
            log.warning("a WAL checkpoint failed: %s", running.exception())

    def _checkpoint(self) -> None:
        if self._connection is None:
            self._connection = sqlite3.connect(self.path, isolation_level=None)
            # (it only copies the log into the file: no page worth keeping in a cache of its own)
            self._connection.execute("PRAGMA cache_size = 8")
        self._connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        self.done += 1

    async def stop(self) -> None:
        """No more checkpoints: the one running finished, the connection closed, the thread gone."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._running is not None:
            await asyncio.wait([self._running])

        def close() -> None:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

        await asyncio.get_running_loop().run_in_executor(self._thread, close)
        self._thread.shutdown()


class MigrationError(Exception):
    """The migration files or the database's schema version are not what this code expects."""


class DatabaseClosed(RuntimeError):
    """The database was closed (the bot is shutting down); nothing was changed."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(directory: Path = MIGRATIONS_DIR, *, baseline: bool = False) -> list[Migration]:
    """The numbered migrations in ``directory``, numbered 1, 2, 3 ... (``baseline``: from the first file's number
    on, which creates the schema at that version from nothing)."""
    migrations = []
    for path in sorted(directory.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if not match:
            raise MigrationError(f"migration file {path.name!r} is not named NNNN_name.sql")
        migrations.append(Migration(int(match.group(1)), path.stem, path.read_text(encoding="utf-8")))
    versions = [m.version for m in migrations]
    first = versions[0] if baseline and versions else 1
    if versions != list(range(first, first + len(versions))):
        raise MigrationError(f"migrations must be numbered {first}, {first + 1}, ... without gaps; found {versions}")
    return migrations


class Database(Stores):
    """The bot's one SQLite connection: WAL journal, foreign keys on, schema at the newest version. The SQLite
    implementation of :class:`bot.storage.port.Storage`: its stores are this package's modules.

    Use it only through :meth:`transaction` (writes), :meth:`statement` (one write) and :meth:`read` (reads); each
    hands out a connection of the stores' :class:`~bot.storage.sql.Connection` (``dialect`` ``"sqlite"``); rows are
    ``aiosqlite.Row`` (by name or by index). :meth:`close` waits for everything in flight.
    """

    def __init__(self, connection: aiosqlite.Connection, path: Path, *, shared: bool = False,
                 raw: sqlite3.Connection | None = None) -> None:
        self.connection = connection
        #: the sqlite3 connection under aiosqlite's, used only where aiosqlite runs its calls (:class:`Transaction`)
        self._raw = raw
        #: the write-ahead log's checkpoints, when statements run on the event loop (:class:`WalCheckpoints`)
        self.checkpoints: WalCheckpoints | None = None
        #: the transaction open now (its task is ``_owner``)
        self._current: Transaction | None = None
        self.path = path
        self._with_other_processes = shared
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task | None = None
        #: tasks inside reads, which run side by side; ``_lock``'s holder waits for them
        self._sharing = _InFlight()
        #: tasks inside :meth:`statement` blocks (close waits for them; a transaction does not)
        self._loose = _InFlight()
        #: from the moment a transaction hands over its BEGIN until its COMMIT or ROLLBACK is done
        self._transaction_over = asyncio.Event()
        self._transaction_over.set()
        self._closed = False

    @classmethod
    async def open(cls, path: Path, migrations: list[Migration] | None = None, *, shared: bool = False) -> Database:
        """The database file at ``path``, migrated; ``shared``: other processes use the same file (see
        :attr:`shared`)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        made: list[sqlite3.Connection] = []

        def connect() -> sqlite3.Connection:  # (on aiosqlite's thread, as aiosqlite.connect does it)
            # (used on the event loop's thread too, once the connection runs there: see SqliteConnection)
            made.append(sqlite3.connect(path, isolation_level=None, check_same_thread=False))
            return made[0]

        connection = await SqliteConnection(connect, 64)
        try:
            await connection.execute("PRAGMA journal_mode = WAL")
            await connection.execute("PRAGMA synchronous = NORMAL")
            await connection.execute("PRAGMA foreign_keys = ON")
            await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            connection.row_factory = aiosqlite.Row
            database = cls(connection, path, shared=shared, raw=made[0])
            await database.migrate(load_migrations() if migrations is None else migrations)
            if not shared:
                # the process's own file: statements on the loop, checkpoints off it (see SqliteConnection)
                await connection.execute("PRAGMA wal_autocheckpoint = 0")
                await connection.execute("PRAGMA busy_timeout = 0")
                connection.on_the_loop = True
                database.checkpoints = WalCheckpoints(path)
                database.checkpoints.start()
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
            # A migration that rebuilds a referenced table starts with FOREIGN_KEYS_OFF: SQLite's table rebuild
            # needs foreign keys off (else dropping the old table cascades), and the pragma only works outside a
            # transaction; the keys are checked before the commit.
            keys_off = migration.sql.startswith(FOREIGN_KEYS_OFF)
            if keys_off:
                await self.connection.execute("PRAGMA foreign_keys = OFF")
            # executescript commits first, so run the statements inside one explicit transaction.
            try:
                await self.connection.executescript(
                    f"BEGIN;\n{migration.sql}\nPRAGMA user_version = {migration.version};"
                )
                if keys_off:
                    async with self.connection.execute("PRAGMA foreign_key_check") as cursor:
                        broken = await cursor.fetchall()
                    if broken:
                        raise MigrationError(f"{len(broken)} rows break foreign keys, first: {tuple(broken[0])}")
                await self.connection.execute("COMMIT")
            except Exception as error:
                if self.connection.in_transaction:
                    await self.connection.execute("ROLLBACK")
                raise MigrationError(f"migration {migration.name} failed and was rolled back: {error}") from error
            finally:
                if keys_off:
                    await self.connection.execute("PRAGMA foreign_keys = ON")

    @property
    def shared(self) -> bool:
        """Other processes use this database too: what one process does with a match must be claimed in the
        database (deadlines, events to show) and nothing read may be kept in memory. ``False`` (the default, one
        bot process on its own file): the process's locks and memory do it."""
        return self._with_other_processes

    @property
    def closed(self) -> bool:
        return self._closed

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """``async with database.transaction() as connection:`` -- one write transaction, all or nothing.

        Transactions are serialised by one ``asyncio.Lock`` and wait for the reads in flight (not for
        :meth:`statement` blocks, whose statements wait for the transaction instead); the transaction starts with
        ``BEGIN IMMEDIATE``, commits when the block ends and rolls back when it raises (any exception, cancellation
        included). Transactions do not nest: opening one inside another (or
        inside a read or statement block) in the same task raises RuntimeError.

        The connection is a :class:`~bot.storage.pipeline.Transaction`: ``BEGIN`` goes to the database with the
        first statement, and a block that runs none commits nothing.
        """
        task = asyncio.current_task()
        if self._inside(task):
            raise RuntimeError("transactions do not nest: this task is already inside one (or a statement block)")
        async with self._alone():
            # (set before BEGIN is handed over: a statement block's statement is handed over before it, and runs
            # before it, or waits until the transaction is over)
            self._transaction_over.clear()
            assert self._raw is not None
            current = self._current = Transaction(self.connection, self._raw)
            try:
                yield current  # type: ignore[misc]
                await current.commit()
            except BaseException:
                current.abandon()
                if current.began:
                    await self._rollback()
                raise
            finally:
                self._current = None
                self._transaction_over.set()

    @asynccontextmanager
    async def _alone(self) -> AsyncIterator[None]:
        """The connection for this task alone: the lock, then every read in flight done."""
        async with self._lock:
            self._check_open()
            self._owner = asyncio.current_task()
            try:
                await self._sharing.done()
                yield
            finally:
                self._owner = None

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        """``async with database.read() as connection:`` -- reads. Each statement reads committed data and never a
        transaction in flight, and no transaction lands between two of them: a transaction waits for the reads in
        flight, and they wait for it. Reads run side by side with each other and with :meth:`statement` blocks,
        whose one-statement writes may commit between two statements of a read; those writes touch only what the
        presenter and the battle-order panel keep (message ids, DMs, a seat's draft, shown marks) and claims, never a
        match's state, status, actions or results, which only transactions write. Only reads: a statement that
        writes would commit on its own. A read of one statement is cheaper as a :meth:`statement` block (it holds
        nothing).

        Inside a transaction of the same task it reads that transaction (its own writes included).
        """
        async with self._shared() as connection:
            yield connection

    @asynccontextmanager
    async def statement(self) -> AsyncIterator[Connection]:
        """``async with database.statement() as connection:`` -- statements one by one: at most ONE that writes,
        which SQLite commits by itself, all or nothing (a write without the ``BEGIN`` and ``COMMIT`` round trips of
        :meth:`transaction`), and reads, each of which sees what is committed when it runs.

        A statement block holds nothing between its statements. Each statement waits while a transaction is open
        (from its ``BEGIN`` to its ``COMMIT`` or ``ROLLBACK``) and is handed to aiosqlite's thread, which runs the
        connection's statements in the order they were handed over, in the same step: it runs before a
        transaction's ``BEGIN`` or after its end, never inside it, and a transaction waits neither for the
        statement blocks in flight nor for their round trips. Side by side with reads, blocks and transactions,
        then: two statements of one block may see a transaction (or another block's write) land between them. A
        caller that reads what it then writes holds what keeps others from writing it meanwhile (a match's lock).
        Inside a transaction or read of the same task, it is part of that one."""
        task = asyncio.current_task()
        if self._inside(task):
            yield self._own(task)
            return
        self._check_open()
        assert task is not None
        with self._loose.holding(task):
            yield _OneByOne(self.connection, self._transaction_over)  # type: ignore[misc]

    @asynccontextmanager
    async def _shared(self) -> AsyncIterator[aiosqlite.Connection]:
        task = asyncio.current_task()
        if self._inside(task):
            yield self._own(task)
            return
        if self._lock.locked():  # a transaction holds the connection, or waits for it: after it
            async with self._lock:
                pass
        self._check_open()
        assert task is not None
        with self._sharing.holding(task):
            yield self.connection

    @staticmethod
    def pipelined(connection: aiosqlite.Connection) -> AbstractAsyncContextManager[Pipelined]:
        """The connection of a transaction (or statement block) sending writes without waiting for each
        (:class:`~bot.storage.pipeline.Pipelined`): they are done when the block ends, or never run if it fails."""
        return pipelined(connection)

    def _own(self, task: asyncio.Task | None) -> aiosqlite.Connection:
        """The connection of the block ``task`` is inside already: its transaction's, if it is in one."""
        if self._current is not None and self._owner is task:
            return self._current  # type: ignore[return-value]
        return self.connection

    def _inside(self, task: asyncio.Task | None) -> bool:
        """The task is inside a transaction, read or statement block of this database already."""
        return (self._owner is not None and self._owner is task) or task in self._sharing or task in self._loose

    async def _rollback(self) -> None:
        """Roll back whatever is open. Always sent, never skipped on ``in_transaction``: aiosqlite runs statements
        in order on its own thread, so after a cancelled ``BEGIN`` or ``COMMIT`` (still queued or running there)
        this ROLLBACK runs after it and leaves the connection clean either way."""
        try:
            await self.connection.execute("ROLLBACK")
        except sqlite3.OperationalError as error:
            if "no transaction is active" not in str(error):
                log.exception("ROLLBACK failed")
        except Exception:  # a broken connection: SQLite rolls back by itself when it closes
            log.exception("ROLLBACK failed")

    def _check_open(self) -> None:
        if self._closed:
            raise DatabaseClosed("the database is closed")

    async def lock_match(self, connection: aiosqlite.Connection, match_id: int) -> None:
        """Nothing to take: a transaction (``BEGIN IMMEDIATE``) holds the whole file against other writers."""

    async def lock_tournament(self, connection: aiosqlite.Connection, tournament_id: int) -> None:
        """Nothing to take (see :meth:`lock_match`)."""

    async def announce(self, connection: aiosqlite.Connection, payload: str) -> None:
        """Nobody to tell: a SQLite bot is one process (see :meth:`listen`)."""

    async def listen(self, receive: Callable[[str], None]) -> bool:
        return False

    async def close(self) -> None:
        """Wait for everything in flight (a clean shutdown loses nothing), then close the connection."""
        async with self._lock:
            await self._sharing.done()
            await self._loose.done()
            if self._closed:
                return
            self._closed = True
            if self.checkpoints is not None:
                await self.checkpoints.stop()
            await self.connection.close()


class _InFlight:
    """The tasks inside one kind of block, and a way to wait until there are none."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task] = set()
        self._none = asyncio.Event()
        self._none.set()

    def __contains__(self, task: object) -> bool:
        return task in self._tasks

    @contextmanager
    def holding(self, task: asyncio.Task) -> Iterator[None]:
        self._tasks.add(task)
        self._none.clear()
        try:
            yield
        finally:
            self._tasks.discard(task)
            if not self._tasks:
                self._none.set()

    async def done(self) -> None:
        await self._none.wait()


class _OneByOne:
    """A statement block's connection (:meth:`Database.statement`): each statement waits while a transaction is
    open, then goes to aiosqlite's thread in the same step (a caller awaits it at once: ``await conn.execute(...)``)."""

    dialect: Dialect = SQLITE

    def __init__(self, connection: aiosqlite.Connection, transaction_over: asyncio.Event) -> None:
        self._connection = connection
        self._transaction_over = transaction_over

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._connection, name)
        if name not in STATEMENT_METHODS:
            return attribute

        async def outside_any_transaction(*args: Any, **kwargs: Any) -> Any:
            while not self._transaction_over.is_set():
                await self._transaction_over.wait()
            return await attribute(*args, **kwargs)

        return outside_any_transaction
