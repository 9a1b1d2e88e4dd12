"""Seasons: a server's numbered seasons and the boards of the closed ones.

A server that never started a season is in season 1 (no row yet). Starting a season writes season 1's row if it
is missing, closes the current season, copies its live boards (every game's ``ratings`` and the
``combined_ratings``, as game ``all``) into ``season_ratings`` and empties them, then opens the next season.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.sql import Connection, Row, Statement
from bot.storage.stats import COMBINED


@dataclass(frozen=True)
class Season:
    number: int
    name: str
    started_at: float | None  # None: season 1, which began with the server's first match
    ended_at: float | None  # None: the current season

    @property
    def current(self) -> bool:
        return self.ended_at is None


def default_name(number: int) -> str:
    return f"Season {number}"


def _season(row: Row) -> Season:
    return Season(row["number"], row["name"], row["started_at"], row["ended_at"])


_SEASONS = Statement(
    sqlite="SELECT number, name, started_at, ended_at FROM seasons WHERE guild_id = ? ORDER BY number",
    postgresql="SELECT number, name, started_at, ended_at FROM seasons WHERE guild_id = $1 ORDER BY number",
)


async def seasons(conn: Connection, guild_id: int) -> list[Season]:
    """Every season of the server, oldest first; the last is the current one (season 1 when none was started)."""
    rows = await conn.execute_fetchall(
        _SEASONS.on(conn), (guild_id,)
    )
    found = [_season(row) for row in rows]
    return found or [Season(1, default_name(1), None, None)]


async def current_season(conn: Connection, guild_id: int) -> Season:
    return (await seasons(conn, guild_id))[-1]


_KEEP_CURRENT_SEASON = Statement(
    sqlite=(
        "INSERT INTO seasons (guild_id, number, name, started_at, ended_at) VALUES (?, ?, ?, ?, NULL) ON"
        " CONFLICT (guild_id, number) DO NOTHING"
    ),
    postgresql=(
        "INSERT INTO seasons (guild_id, number, name, started_at, ended_at) VALUES ($1, $2, $3, $4, NULL) ON"
        " CONFLICT (guild_id, number) DO NOTHING"
    ),
)
_END_SEASON = Statement(
    sqlite="UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND number = ?",
    postgresql="UPDATE seasons SET ended_at = $1 WHERE guild_id = $2 AND number = $3",
)
_ARCHIVE_RATINGS = Statement(
    sqlite=(
        "INSERT INTO season_ratings (guild_id, season, game, user_id, mu, sigma, rating, games, wins, losses,"
        " draws) SELECT guild_id, ?, game, user_id, mu, sigma, rating, games, wins, losses, draws FROM"
        " ratings WHERE guild_id = ?"
    ),
    postgresql=(
        "INSERT INTO season_ratings (guild_id, season, game, user_id, mu, sigma, rating, games, wins, losses,"
        " draws) SELECT guild_id, $1, game, user_id, mu, sigma, rating, games, wins, losses, draws FROM"
        " ratings WHERE guild_id = $2"
    ),
)
_ARCHIVE_COMBINED_RATINGS = Statement(
    sqlite=(
        "INSERT INTO season_ratings (guild_id, season, game, user_id, mu, sigma, rating, games, wins, losses,"
        " draws) SELECT guild_id, ?, ?, user_id, mu, sigma, rating, games, wins, losses, draws FROM"
        " combined_ratings WHERE guild_id = ?"
    ),
    postgresql=(
        "INSERT INTO season_ratings (guild_id, season, game, user_id, mu, sigma, rating, games, wins, losses,"
        " draws) SELECT guild_id, $1, $2, user_id, mu, sigma, rating, games, wins, losses, draws FROM"
        " combined_ratings WHERE guild_id = $3"
    ),
)
_EMPTY_RATINGS = Statement(
    sqlite="DELETE FROM ratings WHERE guild_id = ?",
    postgresql="DELETE FROM ratings WHERE guild_id = $1",
)
_EMPTY_COMBINED_RATINGS = Statement(
    sqlite="DELETE FROM combined_ratings WHERE guild_id = ?",
    postgresql="DELETE FROM combined_ratings WHERE guild_id = $1",
)
_OPEN_SEASON = Statement(
    sqlite="INSERT INTO seasons (guild_id, number, name, started_at, ended_at) VALUES (?, ?, ?, ?, NULL)",
    postgresql=(
        "INSERT INTO seasons (guild_id, number, name, started_at, ended_at) VALUES ($1, $2, $3, $4, NULL)"
    ),
)


async def start_season(
    conn: Connection, guild_id: int, name: str | None, now: float
) -> tuple[Season, Season]:
    """Close the current season (archiving its boards) and open the next one, named ``name`` (default "Season N").
    Returns (the closed season, the new one)."""
    current = await current_season(conn, guild_id)
    await conn.execute(
        _KEEP_CURRENT_SEASON.on(conn),
        (guild_id, current.number, current.name, current.started_at),
    )
    await conn.execute(
        _END_SEASON.on(conn), (now, guild_id, current.number)
    )
    await conn.execute(
        _ARCHIVE_RATINGS.on(conn),
        (current.number, guild_id),
    )
    await conn.execute(
        _ARCHIVE_COMBINED_RATINGS.on(conn),
        (current.number, COMBINED, guild_id),
    )
    await conn.execute(_EMPTY_RATINGS.on(conn), (guild_id,))
    await conn.execute(_EMPTY_COMBINED_RATINGS.on(conn), (guild_id,))
    number = current.number + 1
    new_name = name or default_name(number)
    await conn.execute(
        _OPEN_SEASON.on(conn),
        (guild_id, number, new_name, now),
    )
    closed = Season(current.number, current.name, current.started_at, now)
    return closed, Season(number, new_name, now, None)


_ARCHIVED_GAMES = Statement(
    sqlite="SELECT DISTINCT game FROM season_ratings WHERE guild_id = ? AND season = ? ORDER BY game",
    postgresql="SELECT DISTINCT game FROM season_ratings WHERE guild_id = $1 AND season = $2 ORDER BY game",
)


async def archived_games(conn: Connection, guild_id: int, season: int) -> list[str]:
    """The boards a closed season has (game names, ``all`` for the combined one)."""
    rows = await conn.execute_fetchall(
        _ARCHIVED_GAMES.on(conn), (guild_id, season)
    )
    return [row["game"] for row in rows]
