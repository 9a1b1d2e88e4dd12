"""Storage: one SQLite file through aiosqlite (the default), or a PostgreSQL database through asyncpg shared by
several bot processes (``DATABASE_URL``). All SQL of the project lives in this package.

* :mod:`bot.storage.port` -- the typed interface (:class:`~bot.storage.port.Storage` and its stores) that this
  package implements twice, for SQLite and for PostgreSQL, with the same stores;
* :mod:`bot.storage.sql` -- how the stores write SQL: each statement once per database, side by side
  (:class:`~bot.storage.sql.Statement`), picked by the connection's :attr:`~bot.storage.sql.Connection.dialect`,
  and run as written (nothing rewrites SQL on its way to a database);
* :mod:`bot.storage.database` -- SQLite: opening, migrations, ``transaction()`` / ``read()``, the stores as
  attributes;
* :mod:`bot.storage.postgres` -- PostgreSQL: the same, over a pool of connections;
* :mod:`bot.storage.matches` -- matches (versioned), seats, messages, the action log, the event queue, claims;
* :mod:`bot.storage.results` -- results and ratings;
* :mod:`bot.storage.settings` -- server settings and players' names;
* :mod:`bot.storage.preferences` -- players' own preferences (where their panels open);
* :mod:`bot.storage.chips` -- each player's chips in a server and the ledger of their movements;
* :mod:`bot.storage.records` -- the frozen records these hand out;
* :mod:`bot.storage.pipeline` -- a transaction's writes sent without waiting for each;
* :mod:`bot.storage.errors` -- what storage refuses, the same on both databases (never the driver's exceptions).

Callers hold a :data:`Connection` from ``Database.transaction()`` / ``read()`` / ``statement()`` and pass it to these
modules' functions, which the database also hands out as its stores (``database.matches.load_match(conn, id)``);
nothing outside this package runs SQL or catches the driver's errors.
"""

from bot.storage.database import Database, DatabaseClosed, MigrationError
from bot.storage.errors import ConstraintViolation, StorageConflict, VersionConflict
from bot.storage.port import Storage
from bot.storage.sql import Connection

__all__ = [
    "Connection", "ConstraintViolation", "Database", "DatabaseClosed", "MigrationError", "Storage",
    "StorageConflict", "VersionConflict",
]
