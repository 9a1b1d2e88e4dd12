"""The PostgreSQL implementation of the storage port (asyncpg), chosen by ``DATABASE_URL=postgresql://...``.

Its stores are the SQLite storage's own modules: their SQL is written once, in what both databases understand, and
:func:`translate` rewrites the spellings that differ before a statement reaches PostgreSQL (placeholders, SQLite's
JSON functions, ``INSERT OR IGNORE``, ``IS NOT`` a value, the id an insert made). :class:`PgConnection` gives the
stores the connection methods they call (``execute``, ``execute_fetchall``, ``executemany``, a cursor's
``rowcount`` and ``lastrowid``); a broken constraint is raised as :class:`ConstraintBroken`, a
``sqlite3.IntegrityError``, which is what the stores catch whatever the backend.

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
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from bot.storage import chips, matches, port, preferences, results, seasons, settings, stats, tournaments
from bot.storage.database import DatabaseClosed, Migration, MigrationError
from bot.storage.database import load_migrations as load_numbered

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations" / "postgresql"
#: the tables whose rows get their id from the database: an insert into one returns it (a cursor's lastrowid)
ID_TABLES = frozenset({"matches", "tournaments", "chip_ledger"})
#: the first key of an advisory lock: what the second (an id) numbers
LOCK_MATCH, LOCK_TOURNAMENT = 1, 2
#: the channel of the announcements that wake the other processes (see :meth:`PostgresDatabase.announce`)
ANNOUNCEMENTS = "airwar_changes"
#: what a listener receives when announcements may have been missed (its connection was made again)
MISSED = ""


class ConstraintBroken(sqlite3.IntegrityError):
    """A statement broke a constraint (unique, foreign key, check, or a trigger's rule)."""


# --- the SQL both databases run ---------------------------------------------------------------------------------

_TOKENS = re.compile(r"'(?:[^']|'')*'|\?\d*|:[A-Za-z_]\w*|[^'?:]+|[?:]")
_FUNCTION = re.compile(r"\b(json_extract|json_group_array|json_group_object|json_array|json|instr)\s*\(", re.I)
_INSERT_INTO = re.compile(r"^\s*INSERT\s+(?:OR\s+IGNORE\s+)?INTO\s+\"?(\w+)\"?", re.I)


@dataclass(frozen=True)
class Translated:
    """A statement as PostgreSQL takes it, the parameter names of a named-parameter statement in order, and
    whether it returns the id it inserted."""

    sql: str
    names: tuple[str, ...] = ()
    returns_id: bool = False


def _call_end(sql: str, start: int) -> int:
    """The index of the parenthesis that closes the one opened at ``start``."""
    depth = 0
    index = start
    while index < len(sql):
        char = sql[index]
        if char == "'":
            index = sql.index("'", index + 1)
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    raise ValueError(f"unbalanced parentheses in {sql!r}")


def _arguments(text: str) -> list[str]:
    """A call's arguments (top-level commas only)."""
    parts, depth, current, quoted = [], 0, [], False
    for char in text:
        if char == "'":
            quoted = not quoted
        elif not quoted and char == "(":
            depth += 1
        elif not quoted and char == ")":
            depth -= 1
        elif not quoted and char == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    parts.append("".join(current).strip())
    return parts


def _functions(sql: str) -> str:
    """SQLite's JSON functions (and ``instr``) as PostgreSQL spells them, innermost calls included."""
    while True:
        found = _FUNCTION.search(sql)
        if found is None:
            return sql
        name, open_at = found.group(1).lower(), found.end() - 1
        close_at = _call_end(sql, open_at)
        args = _arguments(_functions(sql[open_at + 1:close_at]))
        if name == "json_extract":
            path = args[1].strip("'")
            if not path.startswith("$."):
                raise ValueError(f"json_extract path {args[1]} is not $.key[.key...]")
            keys = ",".join(path[2:].split("."))
            replacement = f"(({args[0]})::jsonb #>> '{{{keys}}}')"
        elif name == "json_group_array":
            replacement = f"COALESCE(json_agg({args[0]}), '[]'::json)"
        elif name == "json_group_object":
            replacement = f"COALESCE(json_object_agg({args[0]}, {args[1]}), '{{}}'::json)"
        elif name == "json_array":
            replacement = f"json_build_array({', '.join(args)})"
        elif name == "json":
            replacement = f"(({args[0]})::json)"
        else:  # instr(text, part)
            replacement = f"strpos({args[0]}, {args[1]})"
        sql = sql[:found.start()] + replacement + sql[close_at + 1:]


@functools.lru_cache(maxsize=1024)
def translate(sql: str) -> Translated:
    """``sql`` as PostgreSQL runs it (see the module docstring)."""
    pieces: list[str] = []
    names: list[str] = []
    counter = 0
    for token in _TOKENS.findall(sql):
        if token.startswith("?"):
            if len(token) > 1:
                pieces.append(f"${token[1:]}")
            else:
                counter += 1
                pieces.append(f"${counter}")
        elif token.startswith(":") and len(token) > 1:
            name = token[1:]
            if name not in names:
                names.append(name)
            pieces.append(f"${names.index(name) + 1}")
        else:
            pieces.append(token)
    text = "".join(pieces)
    text = _functions(text)
    text = re.sub(r"\bIS NOT (?!NULL\b|DISTINCT\b)", "IS DISTINCT FROM ", text)
    text = re.sub(r"\bAS INTEGER\)", "AS BIGINT)", text)
    returns_id = False
    insert = _INSERT_INTO.match(text)
    if insert is not None:
        ignore = re.match(r"^\s*INSERT\s+OR\s+IGNORE\s+", text, re.I) is not None
        text = re.sub(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO", "INSERT INTO", text, flags=re.I)
        returning = re.search(r"\bRETURNING\b", text, re.I)
        if ignore:
            at = returning.start() if returning else len(text.rstrip().rstrip(";"))
            text = text[:at].rstrip() + " ON CONFLICT DO NOTHING " + text[at:]
        if insert.group(1).lower() in ID_TABLES and not returning:
            text = text.rstrip().rstrip(";") + " RETURNING id"
            returns_id = True
    return Translated(text.strip(), tuple(names), returns_id)


# --- a connection the stores can use ------------------------------------------------------------------------------

def _params(translated: Translated, params: Sequence[Any] | Mapping[str, Any] | None) -> list[Any]:
    if params is None:
        return []
    if isinstance(params, Mapping):
        return [params[name] for name in translated.names]
    return list(params)


def _count(status: str) -> int:
    """The rows a command touched, from its status (``UPDATE 3``, ``INSERT 0 1``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class PgCursor:
    """What a statement left: its rows, ``rowcount`` and ``lastrowid`` (an insert into an id table)."""

    def __init__(self, rows: list[asyncpg.Record], rowcount: int, lastrowid: int | None) -> None:
        self._rows = rows
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchone(self) -> asyncpg.Record | None:
        return self._rows[0] if self._rows else None

    async def fetchall(self) -> list[asyncpg.Record]:
        return list(self._rows)

    async def close(self) -> None:
        return None

    async def __aenter__(self) -> PgCursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class _Pending:
    """``conn.execute(...)``: awaited, or used as ``async with`` (both give the cursor), as aiosqlite's is."""

    def __init__(self, run: Awaitable[PgCursor]) -> None:
        self._run = run

    def __await__(self):  # type: ignore[no-untyped-def]
        return self._run.__await__()

    async def __aenter__(self) -> PgCursor:
        return await self._run

    async def __aexit__(self, *exc: object) -> None:
        return None


class PgConnection:
    """One pooled asyncpg connection, with the methods the stores call. One statement at a time: asyncpg runs
    nothing side by side on a connection, so statements of one block queue on its lock."""

    #: which SQL it speaks (the few whole-database checks that differ ask: :mod:`bot.storage.diagnostics`)
    dialect = "postgresql"

    def __init__(self, raw: asyncpg.Connection) -> None:
        self.raw = raw
        self._lock = asyncio.Lock()

    async def _run(self, sql: str, params: Any) -> PgCursor:
        translated = translate(sql)
        values = _params(translated, params)
        async with self._lock:
            try:
                if translated.returns_id or re.search(r"^\s*(SELECT|WITH)\b|\bRETURNING\b", translated.sql, re.I):
                    rows = await self.raw.fetch(translated.sql, *values)
                    lastrowid = rows[0]["id"] if translated.returns_id and rows else None
                    return PgCursor(rows, len(rows), lastrowid)
                status = await self.raw.execute(translated.sql, *values)
                return PgCursor([], _count(status), None)
            except asyncpg.IntegrityConstraintViolationError as error:
                raise ConstraintBroken(str(error)) from error

    def execute(self, sql: str, params: Any = None) -> _Pending:
        return _Pending(self._run(sql, params))

    async def execute_fetchall(self, sql: str, params: Any = None) -> list[asyncpg.Record]:
        return await (await self._run(sql, params)).fetchall()

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        translated = translate(sql)
        batch = [_params(translated, row) for row in rows]
        if not batch:
            return
        async with self._lock:
            try:
                await self.raw.executemany(translated.sql, batch)
            except asyncpg.IntegrityConstraintViolationError as error:
                raise ConstraintBroken(str(error)) from error


class PgPipelined:
    """:meth:`Storage.pipelined` for PostgreSQL: the writes sent run in order, on the transaction's connection,
    before any statement awaited after them and before the block ends (asyncpg runs one statement at a time on a
    connection, so they are not overlapped; they are still batched out of the caller's way)."""

    def __init__(self, connection: PgConnection) -> None:
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


_current: contextvars.ContextVar[PgConnection | None] = contextvars.ContextVar("pg_connection", default=None)


class PostgresDatabase:
    """A PostgreSQL database through a pool of asyncpg connections: the second implementation of
    :class:`bot.storage.port.Storage` (see the module docstring)."""

    matches: port.MatchStore[PgConnection] = matches  # type: ignore[assignment]
    results: port.ResultStore[PgConnection] = results  # type: ignore[assignment]
    settings: port.SettingsStore[PgConnection] = settings  # type: ignore[assignment]
    stats: port.StatsStore[PgConnection] = stats  # type: ignore[assignment]
    seasons: port.SeasonStore[PgConnection] = seasons  # type: ignore[assignment]
    tournaments: port.TournamentStore[PgConnection] = tournaments  # type: ignore[assignment]
    preferences: port.PreferenceStore[PgConnection] = preferences  # type: ignore[assignment]
    chips: port.ChipStore[PgConnection] = chips  # type: ignore[assignment]

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
    async def _connection(self, begin: Callable[[asyncpg.Connection], Any] | None) -> AsyncIterator[PgConnection]:
        inside = _current.get()
        if inside is not None:
            yield inside
            return
        self._check_open()
        async with self.pool.acquire() as raw:
            connection = PgConnection(raw)
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
    async def transaction(self) -> AsyncIterator[PgConnection]:
        if _current.get() is not None:
            raise RuntimeError("transactions do not nest: this task is already inside one (or a statement block)")
        async with self._connection(lambda raw: raw.transaction()) as connection:
            yield connection

    @asynccontextmanager
    async def read(self) -> AsyncIterator[PgConnection]:
        async with self._connection(lambda raw: raw.transaction(isolation="repeatable_read", readonly=True)) as conn:
            yield conn

    @asynccontextmanager
    async def statement(self) -> AsyncIterator[PgConnection]:
        async with self._connection(None) as connection:
            yield connection

    @asynccontextmanager
    async def pipelined(self, connection: PgConnection) -> AsyncIterator[PgPipelined]:
        watched = PgPipelined(connection)
        try:
            yield watched
        except BaseException:
            watched._sent.clear()
            raise
        await watched.flush()

    async def lock_match(self, connection: PgConnection, match_id: int) -> None:
        """The match's advisory lock, held until the transaction ends: one process's transaction on a match at a
        time, so none writes from a match it read before another's commit."""
        await connection.execute("SELECT pg_advisory_xact_lock(?, ?)", (LOCK_MATCH, match_id))

    async def lock_tournament(self, connection: PgConnection, tournament_id: int) -> None:
        """The tournament's advisory lock (see :meth:`lock_match`)."""
        await connection.execute("SELECT pg_advisory_xact_lock(?, ?)", (LOCK_TOURNAMENT, tournament_id))

    async def announce(self, connection: PgConnection, payload: str) -> None:
        """``NOTIFY``: PostgreSQL delivers it to the listeners when the transaction commits, and never if it rolls
        back."""
        await connection.execute("SELECT pg_notify(?, ?)", (ANNOUNCEMENTS, payload))

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
