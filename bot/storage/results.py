"""Results (one row per seat of a finished match, written once) and ratings (the boards read them:
:mod:`bot.storage.stats`)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.records import RatingRecord, ResultRecord
from bot.storage.sql import Connection, Row, Statement

_INSERT_RESULTS = Statement(
    sqlite=(
        "INSERT INTO results (match_id, seat, guild_id, game, user_id, outcome, rating_before, rating_after,"
        " rated, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    ),
    postgresql=(
        "INSERT INTO results (match_id, seat, guild_id, game, user_id, outcome, rating_before, rating_after,"
        " rated, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
    ),
)


async def insert_results(conn: Connection, results: Iterable[ResultRecord], now: float) -> None:
    """Record a finished match's results. The primary key (match, seat) and a trigger (finished matches only)
    make a second recording of the same match fail with :class:`~bot.storage.errors.ConstraintViolation`."""
    await conn.executemany(
        _INSERT_RESULTS.on(conn),
        [(r.match_id, r.seat, r.guild_id, r.game, r.user_id, r.outcome, r.rating_before, r.rating_after,
          int(r.rated), now) for r in results],
    )


_RESULTS_OF_MATCH = Statement(
    sqlite="SELECT * FROM results WHERE match_id = ? ORDER BY seat",
    postgresql="SELECT * FROM results WHERE match_id = $1 ORDER BY seat",
)


async def results_of_match(conn: Connection, match_id: int) -> list[ResultRecord]:
    rows = await conn.execute_fetchall(_RESULTS_OF_MATCH.on(conn), (match_id,))
    return [
        ResultRecord(row["match_id"], row["seat"], row["guild_id"], row["game"], row["user_id"], row["outcome"],
                     row["rating_before"], row["rating_after"], bool(row["rated"]))
        for row in rows
    ]


def _rating(row: Row) -> RatingRecord:
    return RatingRecord(row["guild_id"], row["game"], row["user_id"], row["mu"], row["sigma"], row["rating"],
                        row["games"], row["wins"], row["losses"], row["draws"])


_GET_RATING = Statement(
    sqlite="SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
    postgresql="SELECT * FROM ratings WHERE guild_id = $1 AND game = $2 AND user_id = $3",
)


async def get_rating(conn: Connection, guild_id: int, game: str, user_id: int) -> RatingRecord | None:
    rows = await conn.execute_fetchall(
        _GET_RATING.on(conn), (guild_id, game, user_id)
    )
    return _rating(rows[0]) if rows else None


_PUT_RATING = Statement(
    sqlite=(
        "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, rating, games, wins, losses, draws,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id) DO"
        " UPDATE SET mu = excluded.mu, sigma = excluded.sigma, rating = excluded.rating, games ="
        " excluded.games, wins = excluded.wins, losses = excluded.losses, draws = excluded.draws, updated_at"
        " = excluded.updated_at"
    ),
    postgresql=(
        "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, rating, games, wins, losses, draws,"
        " updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (guild_id, game,"
        " user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, rating = excluded.rating, games ="
        " excluded.games, wins = excluded.wins, losses = excluded.losses, draws = excluded.draws, updated_at"
        " = excluded.updated_at"
    ),
)


async def put_rating(conn: Connection, rating: RatingRecord, now: float) -> None:
    await conn.execute(
        _PUT_RATING.on(conn),
        (rating.guild_id, rating.game, rating.user_id, rating.mu, rating.sigma, rating.rating, rating.games,
         rating.wins, rating.losses, rating.draws, now),
    )
