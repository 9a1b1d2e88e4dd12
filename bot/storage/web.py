"""What the web face (:mod:`bot.web`) reads, and the two things stored for it: a server's options by name
(``guild_options``: ``/settings web on`` is the option ``web`` set to ``on``; a server without a row has every
option off) and each finished Air War match's review (``match_reviews``: JSON, written once after the match
ended; see :mod:`bot.web.reviews`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from bot.storage.sql import Connection, Statement

#: the option that makes a server's pages public
WEB = "web"

_GET_OPTION = Statement(
    sqlite="SELECT value FROM guild_options WHERE guild_id = ? AND name = ?",
    postgresql="SELECT value FROM guild_options WHERE guild_id = $1 AND name = $2",
)
_SET_OPTION = Statement(
    sqlite=("INSERT INTO guild_options (guild_id, name, value, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at"),
    postgresql=("INSERT INTO guild_options (guild_id, name, value, updated_at) VALUES ($1, $2, $3, $4)"
                " ON CONFLICT (guild_id, name) DO UPDATE SET value = excluded.value,"
                " updated_at = excluded.updated_at"),
)
_CLEAR_OPTION = Statement(
    sqlite="DELETE FROM guild_options WHERE guild_id = ? AND name = ?",
    postgresql="DELETE FROM guild_options WHERE guild_id = $1 AND name = $2",
)


async def get_option(conn: Connection, guild_id: int, name: str) -> str | None:
    """The server's value of the option ``name``; ``None``: never set (off)."""
    rows = await conn.execute_fetchall(_GET_OPTION.on(conn), (guild_id, name))
    row = next(iter(rows), None)
    return None if row is None else row["value"]


async def set_option(conn: Connection, guild_id: int, name: str, value: str | None, now: float) -> None:
    """Set the server's option ``name`` (``None``: clear it, back to off)."""
    if value is None:
        await conn.execute(_CLEAR_OPTION.on(conn), (guild_id, name))
    else:
        await conn.execute(_SET_OPTION.on(conn), (guild_id, name, value, now))


_GET_REVIEW = Statement(
    sqlite="SELECT review FROM match_reviews WHERE match_id = ?",
    postgresql="SELECT review FROM match_reviews WHERE match_id = $1",
)
_PUT_REVIEW = Statement(
    sqlite="INSERT INTO match_reviews (match_id, review, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
    postgresql=("INSERT INTO match_reviews (match_id, review, created_at) VALUES ($1, $2, $3)"
                " ON CONFLICT DO NOTHING"),
)
_UNREVIEWED = Statement(
    sqlite=("SELECT m.id FROM matches AS m WHERE m.status = 'finished' AND m.game = ? AND NOT EXISTS"
            " (SELECT 1 FROM match_reviews AS r WHERE r.match_id = m.id) ORDER BY m.finished_at DESC LIMIT ?"),
    postgresql=("SELECT m.id FROM matches AS m WHERE m.status = 'finished' AND m.game = $1 AND NOT EXISTS"
                " (SELECT 1 FROM match_reviews AS r WHERE r.match_id = m.id) ORDER BY m.finished_at DESC LIMIT $2"),
)


async def get_review(conn: Connection, match_id: int) -> dict[str, Any] | None:
    rows = await conn.execute_fetchall(_GET_REVIEW.on(conn), (match_id,))
    row = next(iter(rows), None)
    return None if row is None else orjson.loads(row["review"])


async def put_review(conn: Connection, match_id: int, review: Mapping[str, Any], now: float) -> None:
    """Store the match's review, once (a second one for the same match is dropped)."""
    await conn.execute(_PUT_REVIEW.on(conn), (match_id, orjson.dumps(review).decode(), now))


async def unreviewed(conn: Connection, game: str, limit: int) -> list[int]:
    """Finished matches of ``game`` without a stored review, the newest first."""
    rows = await conn.execute_fetchall(_UNREVIEWED.on(conn), (game, limit))
    return [row["id"] for row in rows]


@dataclass(frozen=True)
class PlayerResult:
    """One finished match of a player on a board: its id, when, how it went and the rating after it."""

    match_id: int
    finished_at: float
    outcome: str
    rating_after: float
    rated: bool


_PLAYER_RESULTS = Statement(
    sqlite=("SELECT r.match_id, r.outcome, r.rating_after, r.rated, m.finished_at FROM results AS r JOIN matches"
            " AS m ON m.id = r.match_id WHERE r.guild_id = ? AND r.game = ? AND r.user_id = ?"
            " ORDER BY m.finished_at DESC, r.match_id DESC LIMIT ?"),
    postgresql=("SELECT r.match_id, r.outcome, r.rating_after, r.rated, m.finished_at FROM results AS r JOIN"
                " matches AS m ON m.id = r.match_id WHERE r.guild_id = $1 AND r.game = $2 AND r.user_id = $3"
                " ORDER BY m.finished_at DESC, r.match_id DESC LIMIT $4"),
)


async def player_results(conn: Connection, guild_id: int, game: str, user_id: int, limit: int) -> list[PlayerResult]:
    """The player's last ``limit`` finished matches of ``game`` in the server, the newest first."""
    rows = await conn.execute_fetchall(_PLAYER_RESULTS.on(conn), (guild_id, game, user_id, limit))
    return [PlayerResult(row["match_id"], row["finished_at"], row["outcome"], row["rating_after"], bool(row["rated"]))
            for row in rows]
