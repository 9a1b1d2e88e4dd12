"""Pipelined writes: a transaction's connection that sends the writes it needs no answer from without waiting for
each, in order, and never lets one land after the transaction failed.

The match kernel uses it for its transactions (:meth:`bot.storage.database.Database.pipelined`); it is the SQLite
storage's own way to keep a transaction short, so it lives here with the rest of the database code."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite

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
async def pipelined(connection: aiosqlite.Connection) -> AsyncIterator[Pipelined]:
    """The connection of a transaction (or statement block), watched (:class:`Pipelined`): the writes sent in the
    block are done when it ends, or never run if it fails."""
    watched = Pipelined(connection)
    try:
        yield watched
    except BaseException:
        await watched.abandon()
        raise
    await watched.flush()
