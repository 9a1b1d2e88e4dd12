"""Storage: one SQLite file through aiosqlite. All SQL of the project lives in this package.

* :mod:`bot.storage.database` -- opening, migrations, ``transaction()`` / ``read()``;
* :mod:`bot.storage.matches` -- matches, seats, messages, the action log and the event queue;
* :mod:`bot.storage.results` -- results, ratings, the leaderboard;
* :mod:`bot.storage.settings` -- server settings and players' names;
* :mod:`bot.storage.records` -- the frozen records these hand out.
"""

from bot.storage.database import Database, DatabaseClosed, MigrationError

__all__ = ["Database", "DatabaseClosed", "MigrationError"]
