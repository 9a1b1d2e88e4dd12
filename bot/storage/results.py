"""Results (one row per seat of a finished match, written once), ratings and the leaderboard."""

from __future__ import annotations

from collections.abc import Iterable

import aiosqlite

from bot.storage.records import LeaderboardRow, RatingRecord, ResultRecord


async def insert_results(conn: aiosqlite.Connection, results: Iterable[ResultRecord], now: float) -> None:
    """Record a finished match's results. The primary key (match, seat) and a trigger (finished matches only)
    make a second recording of the same match fail with ``sqlite3.IntegrityError``."""
    await conn.executemany(
        "INSERT INTO results (match_id, seat, guild_id, game, user_id, outcome, rating_before, rating_after,"
        " rated, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(r.match_id, r.seat, r.guild_id, r.game, r.user_id, r.outcome, r.rating_before, r.rating_after,
          int(r.rated), now) for r in results],
    )


async def results_of_match(conn: aiosqlite.Connection, match_id: int) -> list[ResultRecord]:
    rows = await conn.execute_fetchall("SELECT * FROM results WHERE match_id = ? ORDER BY seat", (match_id,))
    return [
        ResultRecord(row["match_id"], row["seat"], row["guild_id"], row["game"], row["user_id"], row["outcome"],
                     row["rating_before"], row["rating_after"], bool(row["rated"]))
        for row in rows
    ]


def _rating(row: aiosqlite.Row) -> RatingRecord:
    return RatingRecord(row["guild_id"], row["game"], row["user_id"], row["mu"], row["sigma"], row["rating"],
                        row["games"], row["wins"], row["losses"], row["draws"])


async def get_rating(conn: aiosqlite.Connection, guild_id: int, game: str, user_id: int) -> RatingRecord | None:
    rows = await conn.execute_fetchall(
        "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?", (guild_id, game, user_id)
    )
    return _rating(rows[0]) if rows else None


async def put_rating(conn: aiosqlite.Connection, rating: RatingRecord, now: float) -> None:
    await conn.execute(
        "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, rating, games, wins, losses, draws, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, rating = excluded.rating, games = excluded.games,"
        " wins = excluded.wins, losses = excluded.losses, draws = excluded.draws, updated_at = excluded.updated_at",
        (rating.guild_id, rating.game, rating.user_id, rating.mu, rating.sigma, rating.rating, rating.games,
         rating.wins, rating.losses, rating.draws, now),
    )


async def count_players(conn: aiosqlite.Connection, guild_id: int, game: str, min_games: int) -> tuple[int, int]:
    """(players with at least ``min_games`` games, players with fewer) in this server and game."""
    rows = await conn.execute_fetchall(
        "SELECT COALESCE(SUM(CASE WHEN games >= ? THEN 1 ELSE 0 END), 0) AS ranked,"
        " COALESCE(SUM(CASE WHEN games < ? THEN 1 ELSE 0 END), 0) AS unranked"
        " FROM ratings WHERE guild_id = ? AND game = ?",
        (min_games, min_games, guild_id, game),
    )
    row = next(iter(rows))
    return int(row["ranked"]), int(row["unranked"])


async def leaderboard_rows(
    conn: aiosqlite.Connection, guild_id: int, game: str, *, min_games: int, limit: int, offset: int
) -> list[LeaderboardRow]:
    """Ranked players (``min_games`` or more), best rating first (then more wins, more games, lower user id)."""
    rows = await conn.execute_fetchall(
        "SELECT r.*, p.display_name FROM ratings AS r"
        " LEFT JOIN players AS p ON p.guild_id = r.guild_id AND p.user_id = r.user_id"
        " WHERE r.guild_id = ? AND r.game = ? AND r.games >= ?"
        " ORDER BY r.rating DESC, r.wins DESC, r.games DESC, r.user_id ASC LIMIT ? OFFSET ?",
        (guild_id, game, min_games, limit, offset),
    )
    return [
        LeaderboardRow(
            rank=offset + index + 1, user_id=row["user_id"], display_name=row["display_name"], wins=row["wins"],
            losses=row["losses"], draws=row["draws"], games=row["games"],
            win_rate=row["wins"] / row["games"] if row["games"] else 0.0, rating=row["rating"], mu=row["mu"],
            sigma=row["sigma"],
        )
        for index, row in enumerate(rows)
    ]
