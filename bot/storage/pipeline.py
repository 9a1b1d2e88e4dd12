"""Pipelined writes: a transaction's connection that sends the writes it needs no answer from without waiting for
each, in order, and never lets one land after the transaction failed.

Every SQLite transaction's connection is a :class:`Transaction`: its ``BEGIN``, the writes sent and the statement
awaited after them (or the ``COMMIT``) go to aiosqlite's thread together, as one round trip. A statement block's
connection is wrapped in :class:`Pipelined` (:meth:`bot.storage.database.Database.pipelined`). It is the SQLite
storage's own way to keep a transaction short, so it lives here with the rest of the database code. (On a process's
own file, where statements run on the event loop (:class:`bot.storage.database.SqliteConnection`), a round trip
costs no thread switch; the batching still saves a pass of the loop per statement sent.)"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite
from aiosqlite.context import Result

from bot.storage.sql import SQLITE, Dialect

#: the connection's methods that run SQL
STATEMENT_METHODS = frozenset({"execute", "executemany", "execute_fetchall", "execute_insert", "executescript"})


class Pipelined:
    """A transaction's connection that notes every statement that may write (anything but a ``SELECT``): the match
    in memory is only as good as the last time it was read back.

    It also sends writes without waiting for them (:meth:`send`). aiosqlite runs a connection's statements one by
    one, in the order they were handed to it, on its own thread; each awaited statement costs the transaction a
    round trip to that thread and back through the event loop, and under load every trip waits for a loop pass
    while the transaction holds the database for everyone. Writes whose results nobody needs at once are handed
    over together and awaited together (:meth:`flush`): before any statement awaited after them, and before the
    transaction commits. If the transaction fails, :meth:`abandon` makes sure none of them runs after its
    ``ROLLBACK``."""

    dialect: Dialect = SQLITE

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection
        self.wrote = False
        self._sent: list[asyncio.Task[Any]] = []

    def _note(self, sql: str) -> None:
        if sql.lstrip()[:6].upper() != "SELECT":
            self.wrote = True

    def send(self, write: Callable[[aiosqlite.Connection], Awaitable[Any]]) -> None:
        """Hand ``write(connection)`` -- ONE statement of the storage layer -- to the database without waiting for
        it: after the writes sent before it, before any statement awaited after it. (A second statement inside
        ``write`` would be handed over only once its first returned, behind writes sent later.)"""
        self.wrote = True
        self._sent.append(asyncio.ensure_future(write(self._connection)))

    async def flush(self) -> None:
        """Wait for every write sent; raise the first that failed (once all of them are done)."""
        sent, self._sent = self._sent, []
        failures = [result for result in await asyncio.gather(*sent, return_exceptions=True)
                    if isinstance(result, BaseException)]
        if failures:
            raise failures[0]

    async def abandon(self) -> None:
        """The transaction fails: the writes sent but not handed to the database yet never will be, and those
        handed over are done before the transaction's ``ROLLBACK`` goes after them."""
        sent, self._sent = self._sent, []
        for task in sent:
            task.cancel()
        await asyncio.gather(*sent, return_exceptions=True)

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._connection, name)
        if name not in STATEMENT_METHODS:
            return attribute

        def noted(sql: str, *args: Any, **kwargs: Any) -> Any:
            self._note(sql)
            if not self._sent:
                return attribute(sql, *args, **kwargs)

            async def after_the_writes_sent() -> Any:
                await self.flush()
                return await attribute(sql, *args, **kwargs)

            return after_the_writes_sent()

        return noted


@asynccontextmanager
async def pipelined(connection: aiosqlite.Connection | Transaction) -> AsyncIterator[Pipelined | Transaction]:
    """The connection of a transaction (or statement block), watched (:class:`Pipelined`): the writes sent in the
    block are done when it ends, or never run if it fails. A :class:`Transaction` is its own: its writes sent go
    with its next statement or its ``COMMIT``."""
    if isinstance(connection, Transaction):
        try:
            yield connection
        except BaseException:
            connection.abandon()
            raise
        return
    watched = Pipelined(connection)
    try:
        yield watched
    except BaseException:
        await watched.abandon()
        raise
    await watched.flush()


class Transaction:
    """A SQLite transaction's connection (:meth:`bot.storage.database.Database.transaction`), with the
    :class:`Pipelined` connection's ``wrote`` and :meth:`send`, in fewer round trips.

    Each round trip to aiosqlite's thread (a file other processes share) costs two passes of the event loop, and
    under load a pass takes milliseconds while the transaction holds the database for everyone. So nothing goes
    alone that can go with the next statement: ``BEGIN IMMEDIATE`` is handed over with the transaction's first
    statement, the writes sent (:meth:`send`) with the statement awaited after them, and the last of them with the
    ``COMMIT`` (:meth:`commit`): a transaction that only writes is one round trip. On the thread they run in that
    order and stop at the first that fails, so a statement never runs after a ``BEGIN`` or a write that failed, and
    the ``COMMIT`` never after a failed write; the caller's ``ROLLBACK`` (:meth:`began`) then undoes the rest.

    The writes sent are the storage layer's functions (``write(connection)``, one statement each, as for
    :class:`Pipelined`), run on the thread with a connection whose statements never suspend (:class:`_OnTheThread`).
    """

    dialect: Dialect = SQLITE

    def __init__(self, connection: aiosqlite.Connection, raw: sqlite3.Connection) -> None:
        self._connection = connection
        self._raw = raw
        self._begun = False
        self._sent: list[Callable[[Any], Awaitable[Any]]] = []
        self.wrote = False

    @property
    def began(self) -> bool:
        """``BEGIN`` was handed to the thread (it may have run, or be running): a failure needs a ``ROLLBACK``."""
        return self._begun

    def send(self, write: Callable[[Any], Awaitable[Any]]) -> None:
        """``write(connection)`` -- ONE statement of the storage layer -- goes with the next statement awaited, or
        with the ``COMMIT``."""
        self.wrote = True
        self._sent.append(write)

    async def flush(self) -> None:
        """Run the writes sent now (and ``BEGIN``, if it has not gone yet)."""
        if self._sent:
            await self._together(None)

    def abandon(self) -> None:
        """The transaction fails: the writes sent and not handed over never run."""
        self._sent = []

    async def commit(self) -> None:
        """``COMMIT`` with the writes sent before it; nothing at all if nothing ran (no statement, no write)."""
        if self._begun or self._sent:
            await self._together(_commit)

    def _together(self, last: Callable[[sqlite3.Connection], Any] | None) -> Awaitable[Any]:
        """``BEGIN`` (the first time), the writes sent, then ``last(raw connection)``, in one round trip."""
        begin, self._begun = not self._begun, True
        writes, self._sent = self._sent, []
        raw = self._raw

        def run() -> Any:
            if begin:
                raw.execute("BEGIN IMMEDIATE")
            if writes:
                here = _OnTheThread(raw)
                for write in writes:
                    _at_once(write(here))
            return None if last is None else last(raw)

        # aiosqlite runs what it is handed on its thread, in order; its statements are made this way too
        return self._connection._execute(run)

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._connection, name)
        if name not in STATEMENT_METHODS:
            return attribute

        def statement(sql: str, *args: Any) -> Any:
            if sql.lstrip()[:6].upper() != "SELECT":
                self.wrote = True
            if self._begun and not self._sent:
                return attribute(sql, *args)
            return Result(self._with_the_rest(name, sql, args))

        return statement

    async def _with_the_rest(self, name: str, sql: str, args: tuple[Any, ...]) -> Any:
        """A statement handed over after ``BEGIN`` or the writes sent, which have not gone yet: with them."""
        value = await self._together(lambda raw: _STATEMENTS[name](raw, sql, *args))
        return aiosqlite.Cursor(self._connection, value) if isinstance(value, sqlite3.Cursor) else value


def _commit(raw: sqlite3.Connection) -> None:
    raw.execute("COMMIT")


def _insert(raw: sqlite3.Connection, sql: str, parameters: Sequence[Any] = ()) -> Any:
    cursor = raw.execute(sql, parameters)
    cursor.execute("SELECT last_insert_rowid()")
    return cursor.fetchone()


#: what each of aiosqlite's statement methods does on its thread (a cursor comes back as aiosqlite's Cursor)
_STATEMENTS: dict[str, Callable[..., Any]] = {
    "execute": lambda raw, sql, parameters=(): raw.execute(sql, parameters),
    "executemany": lambda raw, sql, parameters: raw.executemany(sql, parameters),
    "execute_fetchall": lambda raw, sql, parameters=(): raw.execute(sql, parameters).fetchall(),
    "execute_insert": _insert,
    "executescript": lambda raw, sql: raw.executescript(sql),
}


def _at_once(awaitable: Awaitable[Any]) -> Any:
    """Run a storage function called with :class:`_OnTheThread` to its end, here and now."""
    steps = awaitable.__await__()
    try:
        steps.send(None)
    except StopIteration as done:
        return done.value
    steps.close()
    raise RuntimeError("a write sent waited for something other than its own statement")


class _Ready:
    """What a statement on :class:`_OnTheThread` gives: awaiting it (or ``async with``) returns at once."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __await__(self) -> Generator[Any, None, Any]:
        return self.value
        yield  # (a generator that returns before its first yield)

    async def __aenter__(self) -> Any:
        return self.value

    async def __aexit__(self, *exc_info: object) -> None:
        return None


class _Cursor:
    """aiosqlite's cursor as the storage layer uses it, over a cursor that has run already."""

    __slots__ = ("_cursor",)

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    def fetchone(self) -> _Ready:
        return _Ready(self._cursor.fetchone())

    def fetchall(self) -> _Ready:
        return _Ready(self._cursor.fetchall())

    def close(self) -> _Ready:
        return _Ready(self._cursor.close())


class _OnTheThread:
    """The connection a write sent is run with, where aiosqlite runs its calls (its thread, or the event loop's for
    a process's own file): aiosqlite's statement methods, run at once."""

    __slots__ = ("_raw",)
    dialect: Dialect = SQLITE

    def __init__(self, raw: sqlite3.Connection) -> None:
        self._raw = raw

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> _Ready:
        return _Ready(_Cursor(self._raw.execute(sql, parameters)))

    def executemany(self, sql: str, parameters: Any) -> _Ready:
        return _Ready(_Cursor(self._raw.executemany(sql, parameters)))

    def execute_fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> _Ready:
        return _Ready(self._raw.execute(sql, parameters).fetchall())

    def execute_insert(self, sql: str, parameters: Sequence[Any] = ()) -> _Ready:
        return _Ready(_insert(self._raw, sql, parameters))
