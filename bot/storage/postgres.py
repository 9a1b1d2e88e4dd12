"""The PostgreSQL implementation of the storage port (asyncpg), chosen by ``DATABASE_URL=postgresql://...``.

Its stores are the storage package's modules; each of their statements is written for PostgreSQL beside its SQLite
text (:class:`bot.storage.sql.Statement`), and :class:`PostgresConnection` runs the text it is given as it is,
parameters ``$1``, ``$2`` ... in order. A broken constraint (unique, foreign key, check, a trigger's rule) is raised
as :class:`bot.storage.errors.ConstraintViolation`, as the SQLite storage raises it.

Connections come from a pool: a transaction holds one for its statements (``READ COMMITTED``: a store that reads
what it then writes locks the rows it needs, see the kernel); a read holds one in a ``REPEATABLE READ`` read-only
transaction, so no commit lands between its statements; a statement block takes one per block and lets each
statement commit by itself. Migrations are numbered SQL files in ``migrations/postgresql/``; the first one is a
baseline that creates the schema at the version it is numbered with (the SQLite migrations' version then), and the
version is kept in ``schema_version``.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg

from bot.storage.database import DatabaseClosed, Migration, MigrationError
from bot.storage.database import load_migrations as load_numbered
from bot.storage.errors import ConstraintViolation
from bot.storage.sql import POSTGRESQL, Dialect
from bot.storage.stores import Stores

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations" / "postgresql"
#: the first key of an advisory lock: what the second (an id) numbers
LOCK_MATCH, LOCK_TOURNAMENT = 1, 2
#: the channel of the announcements that wake the other processes (see :meth:`PostgresDatabase.announce`)
ANNOUNCEMENTS = "airwar_changes"
#: what a listener receives when announcements may have been missed (its connection was made again)
MISSED = ""


# --- the connection the stores use -------------------------------------------------------------------------------

#: a statement that returns rows (asyncpg's ``fetch``); any other returns its status, which counts the rows it changed
_RETURNS_ROWS = re.compile(r"^\s*(?:SELECT|WITH)\b|\bRETURNING\b", re.IGNORECASE)


@functools.lru_cache(maxsize=1024)
def _returns_rows(sql: str) -> bool:
    return _RETURNS_ROWS.search(sql) is not None


def _count(status: str) -> int:
    """The rows a command touched, from its status (``UPDATE 3``, ``INSERT 0 1``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class PostgresCursor:
    """What a statement left: its rows and ``rowcount`` (the rows it returned, or changed)."""

    __slots__ = ("_rows", "rowcount")

    def __init__(self, rows: list[asyncpg.Record], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount

    async def fetchone(self) -> asyncpg.Record | None:
        return self._rows[0] if self._rows else None

    async def fetchall(self) -> list[asyncpg.Record]:
        return list(self._rows)

    async def close(self) -> None:
        """Nothing to free: the rows came with the statement."""


class PostgresConnection:
    """One pooled asyncpg connection, with the statement methods of :class:`bot.storage.sql.Connection`. It runs
    the text it is given as it is (the stores' PostgreSQL texts), with the parameters in order (``$1``, ``$2``
    ...); a broken constraint (unique, foreign key, check, or a trigger's rule) is raised as
    :class:`~bot.storage.errors.ConstraintViolation`. One statement at a time: asyncpg runs nothing side by side
    on a connection, so statements of one block queue on its lock."""

    dialect: Dialect = POSTGRESQL

    def __init__(self, raw: asyncpg.Connection) -> None:
        self.raw = raw
        self._lock = asyncio.Lock()

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> PostgresCursor:
        async with self._lock:
            try:
                if _returns_rows(sql):
                    rows = await self.raw.fetch(sql, *parameters)
                    return PostgresCursor(rows, len(rows))
                return PostgresCursor([], _count(await self.raw.execute(sql, *parameters)))
            except asyncpg.IntegrityConstraintViolationError as error:
                raise ConstraintViolation(str(error)) from error

    async def execute_fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> list[asyncpg.Record]:
        return await (await self.execute(sql, parameters)).fetchall()

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> None:
        batch = list(parameters)
        if not batch:
            return
        async with self._lock:
            try:
                await self.raw.executemany(sql, batch)
            except asyncpg.IntegrityConstraintViolationError as error:
                raise ConstraintViolation(str(error)) from error


class PostgresPipelined:
    """:meth:`Storage.pipelined` for PostgreSQL: the writes sent run in order, on the transaction's connection,
    before any statement awaited after them and before the block ends (asyncpg runs one statement at a time on a
    connection, so they are not overlapped; they are still batched out of the caller's way)."""

    dialect: Dialect = POSTGRESQL

    def __init__(self, connection: PostgresConnection) -> None:
        self._connection = connection
        self._sent: list[Callable[[Any], Awaitable[Any]]] = []
        self.wrote = False

    def send(self, write: Callable[[Any], Awaitable[Any]]) -> None:
        self.wrote = True
        self._sent.append(write)

    async def flush(self) -> None:
        sent, self._sent = self._sent, []
        for write in sent:
            await write(self._connection)

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._connection, name)
        if name not in ("execute", "execute_fetchall", "executemany"):
            return attribute

        def noted(sql: str, *args: Any, **kwargs: Any) -> Any:
            if sql.lstrip()[:6].upper() != "SELECT":
                self.wrote = True
            if not self._sent:
                return attribute(sql, *args, **kwargs)

            async def after_the_writes_sent() -> Any:
                await self.flush()
                result = attribute(sql, *args, **kwargs)
                return await result

            return after_the_writes_sent()

        return noted


# --- the database ------------------------------------------------------------------------------------------------

def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """PostgreSQL's migrations: a baseline, then one per version after it."""
    return load_numbered(directory, baseline=True)


_current: contextvars.ContextVar[PostgresConnection | None] = contextvars.ContextVar("pg_connection", default=None)


class PostgresDatabase(Stores):
    """A PostgreSQL database through a pool of asyncpg connections: the second implementation of
    :class:`bot.storage.port.Storage` (see the module docstring)."""

    def __init__(self, pool: asyncpg.Pool, url: str, *, shared: bool = False) -> None:
        self.pool = pool
        self.url = url
        self._shared = shared
        self._closed = False
        self._listener: asyncpg.Connection | None = None
        self._receivers: list[Callable[[str], None]] = []
        self._relistening: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, url: str, migrations: list[Migration] | None = None, *, shared: bool = False,
                   max_connections: int = 10) -> PostgresDatabase:
        pool = await asyncpg.create_pool(url, min_size=1, max_size=max_connections)
        database = cls(pool, url, shared=shared)
        try:
            await database.migrate(load_migrations() if migrations is None else migrations)
        except BaseException:
            await pool.close()
            raise
        return database

    async def schema_version(self) -> int:
        async with self.pool.acquire() as raw:
            await raw.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
            return int(await raw.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))

    async def migrate(self, migrations: list[Migration]) -> None:
        """Apply the baseline to an empty database, then every newer migration, each in its own transaction (one
        process at a time: an advisory lock)."""
        async with self.pool.acquire() as raw:
            await raw.execute("SELECT pg_advisory_lock(7207)")
            try:
                current = await self.schema_version()
                newest = migrations[-1].version if migrations else 0
                if current > newest:
                    raise MigrationError(f"the database is at schema version {current}, newer than this code knows "
                                         f"({newest}); update the bot")
                if migrations and current and current < migrations[0].version:
                    raise MigrationError(f"the database is at schema version {current}, older than the baseline "
                                         f"({migrations[0].version})")
                for index, migration in enumerate(migrations):
                    if (index == 0 and current) or (index > 0 and migration.version <= current):
                        continue  # the baseline only makes an empty database
                    log.info("applying PostgreSQL migration %s", migration.name)
                    try:
                        async with raw.transaction():
                            await raw.execute(migration.sql)
                            await raw.execute("DELETE FROM schema_version")
                            await raw.execute("INSERT INTO schema_version (version) VALUES ($1)", migration.version)
                    except Exception as error:
                        raise MigrationError(f"migration {migration.name} failed and was rolled back: "
                                             f"{error}") from error
                    current = migration.version
            finally:
                await raw.execute("SELECT pg_advisory_unlock(7207)")

    @property
    def shared(self) -> bool:
        return self._shared

    @property
    def closed(self) -> bool:
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise DatabaseClosed("the database is closed")

    @asynccontextmanager
    async def _connection(self, begin: Callable[[asyncpg.Connection], Any] | None) -> AsyncIterator[PostgresConnection]:
        inside = _current.get()
        if inside is not None:
            yield inside
            return
        self._check_open()
        async with self.pool.acquire() as raw:
            connection = PostgresConnection(raw)
            token = _current.set(connection)
            try:
                if begin is None:
                    yield connection
                else:
                    async with begin(raw):
                        yield connection
            finally:
                _current.reset(token)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresConnection]:
        if _current.get() is not None:
            raise RuntimeError("transactions do not nest: this task is already inside one (or a statement block)")
        async with self._connection(lambda raw: raw.transaction()) as connection:
            yield connection

    @asynccontextmanager
    async def read(self) -> AsyncIterator[PostgresConnection]:
        async with self._connection(lambda raw: raw.transaction(isolation="repeatable_read", readonly=True)) as conn:
            yield conn

    @asynccontextmanager
    async def statement(self) -> AsyncIterator[PostgresConnection]:
        async with self._connection(None) as connection:
            yield connection

    @asynccontextmanager
    async def pipelined(self, connection: PostgresConnection) -> AsyncIterator[PostgresPipelined]:
        watched = PostgresPipelined(connection)
        try:
            yield watched
        except BaseException:
            watched._sent.clear()
            raise
        await watched.flush()

    async def lock_match(self, connection: PostgresConnection, match_id: int) -> None:
        """The match's advisory lock, held until the transaction ends: one process's transaction on a match at a
        time, so none writes from a match it read before another's commit."""
        await connection.execute("SELECT pg_advisory_xact_lock($1, $2)", (LOCK_MATCH, match_id))

    async def lock_tournament(self, connection: PostgresConnection, tournament_id: int) -> None:
        """The tournament's advisory lock (see :meth:`lock_match`)."""
        await connection.execute("SELECT pg_advisory_xact_lock($1, $2)", (LOCK_TOURNAMENT, tournament_id))

    async def announce(self, connection: PostgresConnection, payload: str) -> None:
        """``NOTIFY``: PostgreSQL delivers it to the listeners when the transaction commits, and never if it rolls
        back."""
        await connection.execute("SELECT pg_notify($1, $2)", (ANNOUNCEMENTS, payload))

    async def listen(self, receive: Callable[[str], None]) -> bool:
        """A connection of its own that listens (a pooled one would stop hearing when it goes back). If the database
        drops it, it is made again (retried with a growing pause) and ``receive("")`` says announcements may have
        been missed meanwhile."""
        self._check_open()
        self._receivers.append(receive)
        if self._listener is None:
            await self._connect_listener()
        else:
            await self._listener.add_listener(ANNOUNCEMENTS, self._hear(receive))
        return True

    @staticmethod
    def _hear(receive: Callable[[str], None]) -> Callable[..., None]:
        return lambda _conn, _pid, _channel, payload: receive(payload)

    async def _connect_listener(self) -> None:
        listener = await asyncpg.connect(self.url)
        listener.add_termination_listener(self._listener_lost)
        for receive in self._receivers:
            await listener.add_listener(ANNOUNCEMENTS, self._hear(receive))
        self._listener = listener

    def _listener_lost(self, connection: asyncpg.Connection) -> None:
        if self._closed or connection is not self._listener:
            return
        log.warning("the database closed the connection that listens for announcements; listening again")
        self._listener = None
        self._relistening = asyncio.get_running_loop().create_task(self._listen_again(), name="airwar-relisten")

    async def _listen_again(self) -> None:
        pause = 0.25
        while not self._closed:
            try:
                await self._connect_listener()
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                log.warning("listening for announcements again failed (%s); retrying in %.1f s", error, pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 30.0)
                continue
            for receive in self._receivers:
                receive(MISSED)
            return

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._relistening is not None:
            self._relistening.cancel()
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        await self.pool.close()
