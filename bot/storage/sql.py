"""The SQL of the stores as each database reads it: a statement is written once per database, side by side, and
a connection says which database it is (``conn.dialect``), so a store picks the text that database runs.

Nothing rewrites SQL on its way to a database. Placeholders are each database's own: ``?`` for SQLite (bound by
position), ``$1``, ``$2`` ... for PostgreSQL (asyncpg's only form). A statement built in code (a column list, an
``IN`` list) takes its placeholders from :class:`Placeholders`, which writes them in the connection's form.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any, Literal, Protocol

Dialect = Literal["sqlite", "postgresql"]
SQLITE: Dialect = "sqlite"
POSTGRESQL: Dialect = "postgresql"


class Row(Protocol):
    """A stored row, read by column name or position."""

    def __getitem__(self, key: str | int) -> Any: ...


class Cursor(Protocol):
    """What a statement left: how many rows it changed, and its rows."""

    @property
    def rowcount(self) -> int: ...

    async def fetchone(self) -> Row | None: ...

    async def fetchall(self) -> Iterable[Row]: ...

    async def close(self) -> None: ...


class Connection(Protocol):
    """A connection the stores take, of one database (:attr:`dialect`): the SQLite one
    (:class:`bot.storage.database.SqliteConnection` and the transaction and statement blocks over it) or the
    PostgreSQL one (:class:`bot.storage.postgres.PostgresConnection`). Each runs the text it is given as it is."""

    @property
    def dialect(self) -> Dialect: ...

    def execute(self, sql: str, parameters: Sequence[Any] = ...) -> Awaitable[Cursor]: ...

    async def execute_fetchall(self, sql: str, parameters: Sequence[Any] = ...) -> Iterable[Row]: ...

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> Any: ...


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement as SQLite runs it and as PostgreSQL runs it (parameters in the same order for both)."""

    sqlite: str
    postgresql: str

    def on(self, conn: Connection) -> str:
        """The text for ``conn``'s database."""
        return self.sqlite if conn.dialect == SQLITE else self.postgresql


class Placeholders:
    """The parameters of a statement built in code, in order, each written as its placeholder in the form of the
    connection's database: ``f"... WHERE id = {marks(match_id)}"`` gives ``?`` for SQLite and ``$1`` for
    PostgreSQL, and :attr:`values` the parameters to run it with."""

    __slots__ = ("_numbered", "values")

    def __init__(self, conn: Connection) -> None:
        self._numbered = conn.dialect == POSTGRESQL
        self.values: list[Any] = []

    def __call__(self, value: Any) -> str:
        self.values.append(value)
        return f"${len(self.values)}" if self._numbered else "?"

    def each(self, values: Iterable[Any]) -> str:
        """A placeholder for each of ``values``, comma-separated (an ``IN`` list)."""
        return ", ".join(self(value) for value in values)

    def assignments(self, table: str, fields: Mapping[str, Any], columns: Set[str], json_columns: Set[str],
                    dumps: Callable[[Any], str]) -> list[str]:
        """An ``UPDATE``'s ``column = placeholder`` for each of ``fields`` (a JSON column's value written by
        ``dumps``, ``None`` left NULL); raise ValueError naming those that are not ``columns`` of ``table``."""
        unknown = set(fields) - columns
        if unknown:
            raise ValueError(f"not {table} columns: {sorted(unknown)}")
        return [f"{name} = {self(dumps(value) if name in json_columns and value is not None else value)}"
                for name, value in fields.items()]

    def equal_if_given(self, column: str, value: Any) -> str:
        """`` AND column = placeholder`` (a query narrowed to one value of a column); empty for ``None``."""
        return "" if value is None else f" AND {column} = {self(value)}"

    def status_in(self, only_status: str | Sequence[str] | None) -> str:
        """`` AND status IN (...)`` for a status or several (an update only of a row in one of them); empty for
        ``None``."""
        if only_status is None:
            return ""
        statuses = (only_status,) if isinstance(only_status, str) else tuple(only_status)
        return f" AND status IN ({self.each(statuses)})"


# --- running statements (the stores' shared helpers) -------------------------------------------------------

async def all_rows(conn: Connection, sql: str, params: Sequence[Any] = ()) -> list[Row]:
    """Every row a query returns."""
    return list(await conn.execute_fetchall(sql, params))


async def one_row(conn: Connection, sql: str, params: Sequence[Any] = ()) -> Row | None:
    """The first row a query returns (``None``: none)."""
    rows = await all_rows(conn, sql, params)
    return rows[0] if rows else None


async def changed_one(conn: Connection, statement: Statement, params: Sequence[Any]) -> bool:
    """Run a statement meant to change one row (a conditional update, an insert that may find its row there, a
    delete); whether it changed one."""
    cursor = await conn.execute(statement.on(conn), params)
    changed = cursor.rowcount == 1
    await cursor.close()
    return changed
