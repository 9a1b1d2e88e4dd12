"""Storage: one SQLite file through aiosqlite. All SQL of the project lives in this package."""

from bot.storage.database import Database, MigrationError

__all__ = ["Database", "MigrationError"]
