"""Storage: one SQLite file through aiosqlite. All SQL of the project lives in this package.

* :mod:`bot.storage.port` -- the typed interface (:class:`~bot.storage.port.Storage` and its stores) that this
  package implements for SQLite and another database could implement too;
* :mod:`bot.storage.database` -- opening, migrations, ``transaction()`` / ``read()``, the stores as attributes;
* :mod:`bot.storage.matches` -- matches (versioned), seats, messages, the action log, the event queue, claims;
* :mod:`bot.storage.results` -- results, ratings, the leaderboard;
* :mod:`bot.storage.settings` -- server settings and players' names;
* :mod:`bot.storage.preferences` -- players' own preferences (where their panels open);
* :mod:`bot.storage.chips` -- each player's chips in a server and the ledger of their movements;
* :mod:`bot.storage.records` -- the frozen records these hand out;
* :mod:`bot.storage.pipeline` -- a transaction's writes sent without waiting for each;
* :mod:`bot.storage.errors` -- what storage refuses (never the driver's exceptions).

Callers hold a :data:`Connection` from ``Database.transaction()`` / ``read()`` / ``statement()`` and pass it to these
modules' functions, which the database also hands out as its stores (``database.matches.load_match(conn, id)``);
nothing outside this package runs SQL or catches the driver's errors.
"""

import aiosqlite

from bot.storage.database import Database, DatabaseClosed, MigrationError
from bot.storage.errors import StorageConflict, VersionConflict
from bot.storage.port import Storage

#: what ``Database`` blocks hand out and the storage functions take
Connection = aiosqlite.Connection

__all__ = [
    "Connection", "Database", "DatabaseClosed", "MigrationError", "Storage", "StorageConflict", "VersionConflict",
]
