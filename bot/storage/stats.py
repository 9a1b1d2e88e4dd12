"""A player's finished matches, head to head, the combined rating's bookkeeping, leaderboards of any board, and
deleting a player's data from a server (their matches stay, anonymised).

Anonymised seats. When a player deletes their data, their seat in each finished or cancelled match of the server
gets the user id ``-(seat + 1)`` (:func:`placeholder_id`): negative ids are never Discord users, the seat makes the
id unique within the match (both players may delete), and every deleted seat 0 of every match has the same id,
so nothing links two matches to one person. Readers show such a seat as a deleted player.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage import chips
from bot.storage.records import BotRecord, LeaderboardRow
from bot.storage.sql import Connection, Placeholders, Row, Statement

COMBINED = "all"  #: the combined board's game name (in season archives too)


def placeholder_id(seat: int) -> int:
    """The user id a deleted player's seat gets (see the module docstring)."""
    return -(seat + 1)


def is_placeholder(user_id: int) -> bool:
    return user_id < 0


@dataclass(frozen=True)
class PlayedMatch:
    """One finished match of a server, from one player's seat. ``players``: every seat's user id in seat order
    (a negative id is a deleted player); ``winner_seat`` ``None`` for a draw; ``rating_before/after``: the player's
    per-game rating (openskill ordinal) around it."""

    match_id: int
    game: str
    channel_id: int
    thread_id: int | None
    finished_at: float | None
    seat: int
    outcome: str
    rating_before: float
    rating_after: float
    reason: str | None
    winner_seat: int | None
    players: tuple[int, ...]

    @property
    def play_channel_id(self) -> int:
        return self.thread_id if self.thread_id is not None else self.channel_id

    @property
    def opponents(self) -> tuple[int, ...]:
        return tuple(user_id for seat, user_id in enumerate(self.players) if seat != self.seat)


@dataclass(frozen=True)
class SharedMatch:
    """A finished match two players were both in (head to head)."""

    match_id: int
    game: str
    channel_id: int
    thread_id: int | None
    finished_at: float | None
    reason: str | None
    winner_id: int | None  # None: a draw (or a deleted winner)
    players: tuple[int, ...]

    @property
    def play_channel_id(self) -> int:
        return self.thread_id if self.thread_id is not None else self.channel_id


@dataclass(frozen=True)
class PendingResult:
    """A results row not yet counted in the combined rating."""

    match_id: int
    seat: int
    user_id: int
    outcome: str


@dataclass(frozen=True)
class CombinedPoint:
    match_id: int
    rating_before: float
    rating_after: float


# --- a player's matches ----------------------------------------------------------------------------------


def _game_filter(marks: Placeholders, game: str | None, column: str = "r.game") -> str:
    """`` AND <column> = <game>`` (its parameter added to ``marks``); nothing for every game (``None``)."""
    return "" if game is None else f" AND {column} = {marks(game)}"


async def _players_of(conn: Connection, match_ids: Sequence[int]) -> dict[int, tuple[int, ...]]:
    seats: dict[int, dict[int, int]] = {}
    for start in range(0, len(match_ids), 500):
        marks = Placeholders(conn)
        rows = await conn.execute_fetchall(
            f"SELECT match_id, seat, user_id FROM match_seats WHERE match_id IN"
            f" ({marks.each(match_ids[start:start + 500])})", marks.values,
        )
        for row in rows:
            seats.setdefault(row["match_id"], {})[row["seat"]] = row["user_id"]
    return {match_id: tuple(by_seat[s] for s in sorted(by_seat)) for match_id, by_seat in seats.items()}


#: the seat that won a match ``m`` (``NULL``: none)
_WINNER_SEAT = Statement(
    sqlite="CAST(json_extract(m.result, '$.winner') AS INTEGER)",
    postgresql="CAST(m.result::jsonb #>> '{winner}' AS BIGINT)",
)


def _played_sql(marks: Placeholders, conn: Connection, guild_id: int, user_id: int, game: str | None) -> str:
    """The player's finished matches in the server (of one game, or all), unordered."""
    return ("SELECT r.match_id, r.game, r.seat, r.outcome, r.rating_before, r.rating_after, m.channel_id,"
            f" m.thread_id, m.finished_at, m.reason, {_WINNER_SEAT.on(conn)} AS winner_seat"
            " FROM results AS r JOIN matches AS m ON m.id = r.match_id"
            f" WHERE r.guild_id = {marks(guild_id)} AND r.user_id = {marks(user_id)}{_game_filter(marks, game)}")


async def _played(conn: Connection, rows: Iterable[Row]) -> list[PlayedMatch]:
    rows = list(rows)
    players = await _players_of(conn, [row["match_id"] for row in rows])
    return [
        PlayedMatch(row["match_id"], row["game"], row["channel_id"], row["thread_id"], row["finished_at"],
                    row["seat"], row["outcome"], row["rating_before"], row["rating_after"], row["reason"],
                    row["winner_seat"], players.get(row["match_id"], ()))
        for row in rows
    ]


_REACTION_TIMES = Statement(
    sqlite=(
        "SELECT CAST(json_extract(a.action, '$.ms') AS INTEGER) AS ms FROM match_actions a JOIN matches m ON"
        " m.id = a.match_id JOIN match_seats s ON s.match_id = a.match_id AND s.seat = a.seat WHERE"
        " m.guild_id = ? AND m.game = ? AND m.status = 'finished' AND s.user_id = ? AND a.kind = 'press' AND"
        " json_extract(a.action, '$.ms') IS NOT NULL ORDER BY a.match_id, a.seq"
    ),
    postgresql=(
        "SELECT CAST(((a.action)::jsonb #>> '{ms}') AS BIGINT) AS ms FROM match_actions a JOIN matches m ON"
        " m.id = a.match_id JOIN match_seats s ON s.match_id = a.match_id AND s.seat = a.seat WHERE"
        " m.guild_id = $1 AND m.game = $2 AND m.status = 'finished' AND s.user_id = $3 AND a.kind = 'press'"
        " AND ((a.action)::jsonb #>> '{ms}') IS NOT NULL ORDER BY a.match_id, a.seq"
    ),
)


async def reaction_times(conn: Connection, guild_id: int, user_id: int, game: str) -> list[int]:
    """The reaction times (``ms`` of each press the player made) in the server's finished matches of ``game``,
    oldest first."""
    rows = await conn.execute_fetchall(
        _REACTION_TIMES.on(conn),
        (guild_id, game, user_id))
    return [int(row["ms"]) for row in rows]


async def played_matches(
    conn: Connection, guild_id: int, user_id: int, game: str | None = None
) -> list[PlayedMatch]:
    """Every finished match of the player in the server (of one game, or all), oldest first."""
    marks = Placeholders(conn)
    rows = await conn.execute_fetchall(
        _played_sql(marks, conn, guild_id, user_id, game) + " ORDER BY m.finished_at, m.id", marks.values
    )
    return await _played(conn, rows)


async def count_played(conn: Connection, guild_id: int, user_id: int, game: str | None = None) -> int:
    marks = Placeholders(conn)
    rows = await conn.execute_fetchall(
        f"SELECT COUNT(*) AS n FROM results AS r WHERE r.guild_id = {marks(guild_id)} AND r.user_id = {marks(user_id)}"
        + _game_filter(marks, game),
        marks.values,
    )
    return int(next(iter(rows))["n"])


async def records_by_place(conn: Connection, user_id: int, game: str | None = None) -> dict[int, dict[str, int]]:
    """The player's finished matches counted by place (a server, or a DM / group DM: ``results.guild_id``) and
    outcome: ``{place: {"win": n, "loss": n, "draw": n}}`` (outcomes never met left out)."""
    marks = Placeholders(conn)
    rows = await conn.execute_fetchall(
        f"SELECT r.guild_id AS place, r.outcome AS outcome, COUNT(*) AS n FROM results AS r "
        f"WHERE r.user_id = {marks(user_id)}" + _game_filter(marks, game) + " GROUP BY r.guild_id, r.outcome",
        marks.values,
    )
    found: dict[int, dict[str, int]] = {}
    for row in rows:
        found.setdefault(int(row["place"]), {})[str(row["outcome"])] = int(row["n"])
    return found


async def played_page(
    conn: Connection, guild_id: int, user_id: int, *, limit: int, offset: int, game: str | None = None
) -> list[PlayedMatch]:
    """The player's finished matches, newest first, ``limit`` from ``offset``."""
    marks = Placeholders(conn)
    sql = _played_sql(marks, conn, guild_id, user_id, game)
    rows = await conn.execute_fetchall(
        f"{sql} ORDER BY m.finished_at DESC, m.id DESC LIMIT {marks(limit)} OFFSET {marks(offset)}", marks.values,
    )
    return await _played(conn, rows)


async def shared_matches(
    conn: Connection, guild_id: int, first: int, second: int, game: str | None = None
) -> list[SharedMatch]:
    """The finished matches of the server both players were seated in, newest first."""
    marks = Placeholders(conn)
    rows = await conn.execute_fetchall(
        "SELECT m.id, m.game, m.channel_id, m.thread_id, m.finished_at, m.reason,"
        f" {_WINNER_SEAT.on(conn)} AS winner_seat FROM matches AS m"
        f" JOIN match_seats AS a ON a.match_id = m.id AND a.user_id = {marks(first)}"
        f" JOIN match_seats AS b ON b.match_id = m.id AND b.user_id = {marks(second)}"
        f" WHERE m.guild_id = {marks(guild_id)} AND m.status = 'finished'{_game_filter(marks, game, 'm.game')}"
        " ORDER BY m.finished_at DESC, m.id DESC",
        marks.values,
    )
    players = await _players_of(conn, [row["id"] for row in rows])
    shared = []
    for row in rows:
        seats = players.get(row["id"], ())
        winner = row["winner_seat"]
        winner_id = seats[winner] if winner is not None and 0 <= winner < len(seats) else None
        shared.append(SharedMatch(row["id"], row["game"], row["channel_id"], row["thread_id"], row["finished_at"],
                                  row["reason"], winner_id, seats))
    return shared


_FINISHED_MATCH_GUILD = Statement(
    sqlite="SELECT guild_id, game FROM matches WHERE id = ? AND status = 'finished'",
    postgresql="SELECT guild_id, game FROM matches WHERE id = $1 AND status = 'finished'",
)


async def finished_match_guild(conn: Connection, match_id: int) -> tuple[int, str] | None:
    """(guild id, game) of a finished match; ``None`` when there is no such finished match."""
    rows = await conn.execute_fetchall(
        _FINISHED_MATCH_GUILD.on(conn), (match_id,)
    )
    return (rows[0]["guild_id"], rows[0]["game"]) if rows else None


async def names(conn: Connection, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
    """The stored display names of these players (those that have one)."""
    wanted = sorted({user_id for user_id in user_ids if not is_placeholder(user_id)})
    found: dict[int, str] = {}
    for start in range(0, len(wanted), 500):
        marks = Placeholders(conn)
        rows = await conn.execute_fetchall(
            f"SELECT user_id, display_name FROM players WHERE guild_id = {marks(guild_id)}"
            f" AND display_name IS NOT NULL AND user_id IN ({marks.each(wanted[start:start + 500])})",
            marks.values,
        )
        found.update({row["user_id"]: row["display_name"] for row in rows})
    return found


# --- the combined rating -----------------------------------------------------------------------------------


_PENDING_RESULTS = Statement(
    sqlite=(
        "SELECT r.match_id, r.seat, r.user_id, r.outcome FROM results AS r JOIN matches AS m ON m.id ="
        " r.match_id WHERE r.guild_id = ? AND r.rated = 1 AND NOT EXISTS (SELECT 1 FROM combined_applied AS a"
        " WHERE a.match_id = r.match_id) ORDER BY m.finished_at, m.id, r.seat"
    ),
    postgresql=(
        "SELECT r.match_id, r.seat, r.user_id, r.outcome FROM results AS r JOIN matches AS m ON m.id ="
        " r.match_id WHERE r.guild_id = $1 AND r.rated = 1 AND NOT EXISTS (SELECT 1 FROM combined_applied AS"
        " a WHERE a.match_id = r.match_id) ORDER BY m.finished_at, m.id, r.seat"
    ),
)


async def pending_results(conn: Connection, guild_id: int) -> list[list[PendingResult]]:
    """The server's finished matches not yet in the combined rating, in the order they finished, each as its
    results rows by seat."""
    rows = await conn.execute_fetchall(
        _PENDING_RESULTS.on(conn),
        (guild_id,),
    )
    matches: list[list[PendingResult]] = []
    for row in rows:
        result = PendingResult(row["match_id"], row["seat"], row["user_id"], row["outcome"])
        if matches and matches[-1][0].match_id == result.match_id:
            matches[-1].append(result)
        else:
            matches.append([result])
    return matches


_COMBINED_RATING = Statement(
    sqlite="SELECT * FROM combined_ratings WHERE guild_id = ? AND user_id = ?",
    postgresql="SELECT * FROM combined_ratings WHERE guild_id = $1 AND user_id = $2",
)


async def combined_rating(conn: Connection, guild_id: int, user_id: int) -> Row | None:
    rows = await conn.execute_fetchall(
        _COMBINED_RATING.on(conn), (guild_id, user_id)
    )
    return rows[0] if rows else None


_PUT_COMBINED_RATING = Statement(
    sqlite=(
        "INSERT INTO combined_ratings (guild_id, user_id, mu, sigma, rating, games, wins, losses, draws,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET mu"
        " = excluded.mu, sigma = excluded.sigma, rating = excluded.rating, games = excluded.games, wins ="
        " excluded.wins, losses = excluded.losses, draws = excluded.draws, updated_at = excluded.updated_at"
    ),
    postgresql=(
        "INSERT INTO combined_ratings (guild_id, user_id, mu, sigma, rating, games, wins, losses, draws,"
        " updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (guild_id, user_id) DO"
        " UPDATE SET mu = excluded.mu, sigma = excluded.sigma, rating = excluded.rating, games ="
        " excluded.games, wins = excluded.wins, losses = excluded.losses, draws = excluded.draws, updated_at"
        " = excluded.updated_at"
    ),
)


async def put_combined_rating(
    conn: Connection, guild_id: int, user_id: int, *, mu: float, sigma: float, rating: float, games: int,
    wins: int, losses: int, draws: int, now: float,
) -> None:
    await conn.execute(
        _PUT_COMBINED_RATING.on(conn),
        (guild_id, user_id, mu, sigma, rating, games, wins, losses, draws, now),
    )


_MARK_COMBINED_APPLIED = Statement(
    sqlite="INSERT INTO combined_applied (match_id, guild_id) VALUES (?, ?)",
    postgresql="INSERT INTO combined_applied (match_id, guild_id) VALUES ($1, $2)",
)
_INSERT_COMBINED_RESULT = Statement(
    sqlite=(
        "INSERT INTO combined_results (match_id, seat, guild_id, user_id, rating_before, rating_after) VALUES"
        " (?, ?, ?, ?, ?, ?)"
    ),
    postgresql=(
        "INSERT INTO combined_results (match_id, seat, guild_id, user_id, rating_before, rating_after) VALUES"
        " ($1, $2, $3, $4, $5, $6)"
    ),
)


async def mark_combined(
    conn: Connection, guild_id: int, match_id: int, points: Sequence[tuple[int, int, float, float]]
) -> None:
    """Match ``match_id`` is counted: ``points`` are (seat, user id, rating before, rating after)."""
    await conn.execute(_MARK_COMBINED_APPLIED.on(conn), (match_id, guild_id))
    await conn.executemany(
        _INSERT_COMBINED_RESULT.on(conn),
        [(match_id, seat, guild_id, user_id, before, after) for seat, user_id, before, after in points],
    )


_COMBINED_HISTORY = Statement(
    sqlite=(
        "SELECT c.match_id, c.rating_before, c.rating_after FROM combined_results AS c JOIN matches AS m ON"
        " m.id = c.match_id WHERE c.guild_id = ? AND c.user_id = ? ORDER BY m.finished_at, m.id"
    ),
    postgresql=(
        "SELECT c.match_id, c.rating_before, c.rating_after FROM combined_results AS c JOIN matches AS m ON"
        " m.id = c.match_id WHERE c.guild_id = $1 AND c.user_id = $2 ORDER BY m.finished_at, m.id"
    ),
)


async def combined_history(conn: Connection, guild_id: int, user_id: int) -> list[CombinedPoint]:
    """The player's combined rating after each match, oldest first."""
    rows = await conn.execute_fetchall(
        _COMBINED_HISTORY.on(conn),
        (guild_id, user_id),
    )
    return [CombinedPoint(row["match_id"], row["rating_before"], row["rating_after"]) for row in rows]


# --- boards --------------------------------------------------------------------------------------------------


def _board_source(marks: Placeholders, guild_id: int, game: str, season: int | None) -> tuple[str, str]:
    """(table, condition on its rows ``r``) of a board: the live per-game or combined one, or a closed season's.
    The condition's parameters are added to ``marks``: nothing that takes one may come between it and them."""
    if season is not None:
        return "season_ratings", (f"r.guild_id = {marks(guild_id)} AND r.season = {marks(season)}"
                                  f" AND r.game = {marks(game)}")
    if game == COMBINED:
        return "combined_ratings", f"r.guild_id = {marks(guild_id)}"
    return "ratings", f"r.guild_id = {marks(guild_id)} AND r.game = {marks(game)}"


async def board_counts(
    conn: Connection, guild_id: int, game: str, min_games: int, *, season: int | None = None
) -> tuple[int, int]:
    """(players with at least ``min_games`` games, players with fewer) on the board."""
    marks = Placeholders(conn)
    ranked, unranked = marks(min_games), marks(min_games)
    table, condition = _board_source(marks, guild_id, game, season)
    rows = await conn.execute_fetchall(
        f"SELECT COALESCE(SUM(CASE WHEN r.games >= {ranked} THEN 1 ELSE 0 END), 0) AS ranked,"
        f" COALESCE(SUM(CASE WHEN r.games < {unranked} THEN 1 ELSE 0 END), 0) AS unranked"
        f" FROM {table} AS r WHERE {condition}",
        marks.values,
    )
    row = next(iter(rows))
    return int(row["ranked"]), int(row["unranked"])


async def board_rows(
    conn: Connection, guild_id: int, game: str, *, min_games: int, limit: int, offset: int,
    season: int | None = None,
) -> list[LeaderboardRow]:
    """Ranked players (``min_games`` or more), best rating first (then more wins, more games, lower user id)."""
    marks = Placeholders(conn)
    table, condition = _board_source(marks, guild_id, game, season)
    rows = await conn.execute_fetchall(
        f"SELECT r.*, p.display_name FROM {table} AS r"
        " LEFT JOIN players AS p ON p.guild_id = r.guild_id AND p.user_id = r.user_id"
        f" WHERE {condition} AND r.games >= {marks(min_games)} ORDER BY r.rating DESC, r.wins DESC, r.games DESC,"
        f" r.user_id ASC LIMIT {marks(limit)} OFFSET {marks(offset)}",
        marks.values,
    )
    return LeaderboardRow.ranked(rows, offset)


_BOT_RECORDS = Statement(
    sqlite=(
        "SELECT r.user_id, json_extract(m.options, '$.opponent.level') AS level, SUM(CASE WHEN r.outcome ="
        " 'win' THEN 1 ELSE 0 END) AS wins, SUM(CASE WHEN r.outcome = 'loss' THEN 1 ELSE 0 END) AS losses,"
        " SUM(CASE WHEN r.outcome = 'draw' THEN 1 ELSE 0 END) AS draws FROM results AS r JOIN matches AS m ON"
        " m.id = r.match_id WHERE r.guild_id = ? AND r.game = ? AND r.rated = 0 AND r.user_id > 0 AND"
        " json_extract(m.options, '$.opponent.seat') IS NOT NULL AND CAST(json_extract(m.options,"
        " '$.opponent.seat') AS INTEGER) != r.seat AND r.created_at >= ? AND r.created_at < ? GROUP BY"
        " r.user_id, level ORDER BY r.user_id, level"
    ),
    postgresql=(
        "SELECT r.user_id, ((m.options)::jsonb #>> '{opponent,level}') AS level, SUM(CASE WHEN r.outcome ="
        " 'win' THEN 1 ELSE 0 END) AS wins, SUM(CASE WHEN r.outcome = 'loss' THEN 1 ELSE 0 END) AS losses,"
        " SUM(CASE WHEN r.outcome = 'draw' THEN 1 ELSE 0 END) AS draws FROM results AS r JOIN matches AS m ON"
        " m.id = r.match_id WHERE r.guild_id = $1 AND r.game = $2 AND r.rated = 0 AND r.user_id > 0 AND"
        " ((m.options)::jsonb #>> '{opponent,seat}') IS NOT NULL AND CAST(((m.options)::jsonb #>>"
        " '{opponent,seat}') AS BIGINT) != r.seat AND r.created_at >= $3 AND r.created_at < $4 GROUP BY"
        " r.user_id, level ORDER BY r.user_id, level"
    ),
)


async def bot_records(conn: Connection, guild_id: int, game: str, *, since: float | None = None,
                      until: float | None = None) -> list[BotRecord]:
    """Every player's results against the bot in the server's matches of ``game`` finished in ``[since, until)``
    (``None``: no bound), per level (the match's ``opponent`` option); the bot's own seat and deleted players'
    seats are left out."""
    rows = await conn.execute_fetchall(
        _BOT_RECORDS.on(conn),
        (guild_id, game, float("-inf") if since is None else since, float("inf") if until is None else until),
    )
    return [BotRecord(row["user_id"], row["level"], row["wins"], row["losses"], row["draws"]) for row in rows]


# --- deleting a player ----------------------------------------------------------------------------------------


_OPEN_MATCH_IDS = Statement(
    sqlite=(
        "SELECT m.id FROM matches AS m JOIN match_seats AS s ON s.match_id = m.id WHERE m.guild_id = ? AND"
        " s.user_id = ? AND m.status IN ('challenge', 'active') ORDER BY m.id"
    ),
    postgresql=(
        "SELECT m.id FROM matches AS m JOIN match_seats AS s ON s.match_id = m.id WHERE m.guild_id = $1 AND"
        " s.user_id = $2 AND m.status IN ('challenge', 'active') ORDER BY m.id"
    ),
)


async def open_match_ids(conn: Connection, guild_id: int, user_id: int) -> list[int]:
    """The player's open (challenge or active) matches in the server."""
    rows = await conn.execute_fetchall(
        _OPEN_MATCH_IDS.on(conn),
        (guild_id, user_id),
    )
    return [row["id"] for row in rows]


def _scrub(value: Any, user_id: int, placeholder: int, name: str | None) -> Any:
    """``value`` (parsed JSON) with the user's id replaced by the placeholder and their stored name removed."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return placeholder if value == user_id else value
    if isinstance(value, str):
        if value in (str(user_id), f"<@{user_id}>", f"<@!{user_id}>"):
            return str(placeholder)
        if name and value == name:
            return "deleted player"
        return value
    if isinstance(value, list):
        return [_scrub(item, user_id, placeholder, name) for item in value]
    if isinstance(value, dict):
        return {key: _scrub(item, user_id, placeholder, name) for key, item in value.items()}
    return value


def _scrub_text(text: str | None, user_id: int, placeholder: int, name: str | None) -> str | None:
    if text is None:
        return None
    scrubbed = _scrub(json.loads(text), user_id, placeholder, name)
    return json.dumps(scrubbed)


@dataclass(frozen=True)
class Deletion:
    """What deleting a player did: seats anonymised (``matches``; ``results``: of finished matches), per-game
    ratings removed (live), archived season rows removed and tournaments anonymised."""

    results: int
    matches: int
    ratings: int
    archived: int
    tournaments: int = 0


_DISPLAY_NAME = Statement(
    sqlite="SELECT display_name FROM players WHERE guild_id = ? AND user_id = ?",
    postgresql="SELECT display_name FROM players WHERE guild_id = $1 AND user_id = $2",
)
_SEATS_OF_PLAYER = Statement(
    sqlite=(
        "SELECT s.match_id, s.seat, m.status FROM match_seats AS s JOIN matches AS m ON m.id = s.match_id"
        " WHERE m.guild_id = ? AND s.user_id = ? AND m.status IN ('finished', 'cancelled')"
    ),
    postgresql=(
        "SELECT s.match_id, s.seat, m.status FROM match_seats AS s JOIN matches AS m ON m.id = s.match_id"
        " WHERE m.guild_id = $1 AND s.user_id = $2 AND m.status IN ('finished', 'cancelled')"
    ),
)
_ANONYMISE_SEAT = Statement(
    sqlite=(
        "UPDATE match_seats SET user_id = ?, dm_channel_id = NULL, dm_message_id = NULL WHERE match_id = ?"
        " AND seat = ?"
    ),
    postgresql=(
        "UPDATE match_seats SET user_id = $1, dm_channel_id = NULL, dm_message_id = NULL WHERE match_id = $2"
        " AND seat = $3"
    ),
)
_ANONYMISE_RESULT = Statement(
    sqlite="UPDATE results SET user_id = ?, rating_before = 0, rating_after = 0 WHERE match_id = ? AND seat = ?",
    postgresql=(
        "UPDATE results SET user_id = $1, rating_before = 0, rating_after = 0 WHERE match_id = $2 AND seat ="
        " $3"
    ),
)
_ANONYMISE_COMBINED_RESULT = Statement(
    sqlite=(
        "UPDATE combined_results SET user_id = ?, rating_before = 0, rating_after = 0 WHERE match_id = ? AND"
        " seat = ?"
    ),
    postgresql=(
        "UPDATE combined_results SET user_id = $1, rating_before = 0, rating_after = 0 WHERE match_id = $2"
        " AND seat = $3"
    ),
)
_MATCH_TEXTS = Statement(
    sqlite="SELECT result, options, state FROM matches WHERE id = ?",
    postgresql="SELECT result, options, state FROM matches WHERE id = $1",
)
_REWRITE_MATCH_TEXTS = Statement(
    sqlite="UPDATE matches SET result = ?, options = ?, state = ?, version = version + 1 WHERE id = ?",
    postgresql="UPDATE matches SET result = $1, options = $2, state = $3, version = version + 1 WHERE id = $4",
)
_MATCH_EVENTS = Statement(
    sqlite="SELECT seq, type, event FROM match_events WHERE match_id = ?",
    postgresql="SELECT seq, type, event FROM match_events WHERE match_id = $1",
)
_REWRITE_MATCH_EVENT = Statement(
    sqlite="UPDATE match_events SET event = ? WHERE match_id = ? AND seq = ?",
    postgresql="UPDATE match_events SET event = $1 WHERE match_id = $2 AND seq = $3",
)
_DELETE_RATINGS = Statement(
    sqlite="DELETE FROM ratings WHERE guild_id = ? AND user_id = ?",
    postgresql="DELETE FROM ratings WHERE guild_id = $1 AND user_id = $2",
)
_DELETE_SEASON_RATINGS = Statement(
    sqlite="DELETE FROM season_ratings WHERE guild_id = ? AND user_id = ?",
    postgresql="DELETE FROM season_ratings WHERE guild_id = $1 AND user_id = $2",
)
_DELETE_COMBINED_RATING = Statement(
    sqlite="DELETE FROM combined_ratings WHERE guild_id = ? AND user_id = ?",
    postgresql="DELETE FROM combined_ratings WHERE guild_id = $1 AND user_id = $2",
)
_DELETE_PLAYER_NAME = Statement(
    sqlite="DELETE FROM players WHERE guild_id = ? AND user_id = ?",
    postgresql="DELETE FROM players WHERE guild_id = $1 AND user_id = $2",
)


async def delete_player(conn: Connection, guild_id: int, user_id: int) -> Deletion:
    """Remove the player's stats and history from the server: per-game and combined ratings (live and archived)
    and their stored name are deleted; their seats in the server's finished and cancelled matches get a placeholder
    id (seat, results row and combined-rating row, whose ratings are zeroed) and every mention of them in those
    matches' stored JSON (result, options, state, events) is replaced the same way; their DM ids are forgotten.
    Call with no open match of the player in the server (the caller checks it in the same transaction)."""
    name_rows = await conn.execute_fetchall(
        _DISPLAY_NAME.on(conn), (guild_id, user_id)
    )
    name = name_rows[0]["display_name"] if name_rows else None
    seats = await conn.execute_fetchall(
        _SEATS_OF_PLAYER.on(conn),
        (guild_id, user_id),
    )
    for seat_row in seats:
        match_id, seat = seat_row["match_id"], seat_row["seat"]
        placeholder = placeholder_id(seat)
        await conn.execute(
            _ANONYMISE_SEAT.on(conn),
            (placeholder, match_id, seat),
        )
        # the seat's result stays (the match still has one per seat) but no longer says whose it was, nor a
        # rating: ratings chain from one match to the next and would tie the anonymised matches together
        await conn.execute(
            _ANONYMISE_RESULT.on(conn),
            (placeholder, match_id, seat),
        )
        await conn.execute(
            _ANONYMISE_COMBINED_RESULT.on(conn),
            (placeholder, match_id, seat),
        )
        match_rows = await conn.execute_fetchall(
            _MATCH_TEXTS.on(conn), (match_id,)
        )
        row = match_rows[0]
        await conn.execute(
            _REWRITE_MATCH_TEXTS.on(conn),
            (_scrub_text(row["result"], user_id, placeholder, name),
             _scrub_text(row["options"], user_id, placeholder, name),
             _scrub_text(row["state"], user_id, placeholder, name), match_id),
        )
        events = await conn.execute_fetchall(
            _MATCH_EVENTS.on(conn), (match_id,)
        )
        updates = []
        for event in events:
            data = _scrub(json.loads(event["event"]), user_id, placeholder, name)
            ratings = data.get("ratings") if isinstance(data, dict) else None
            if event["type"] == "result" and isinstance(ratings, list) and 0 <= seat < len(ratings):
                ratings[seat] = {"before": 0, "after": 0}
            updates.append((json.dumps(data), match_id, event["seq"]))
        await conn.executemany(_REWRITE_MATCH_EVENT.on(conn), updates)
    results = sum(1 for seat_row in seats if seat_row["status"] == "finished")
    ratings = await conn.execute(_DELETE_RATINGS.on(conn), (guild_id, user_id))
    archived = await conn.execute(
        _DELETE_SEASON_RATINGS.on(conn), (guild_id, user_id)
    )
    await conn.execute(_DELETE_COMBINED_RATING.on(conn), (guild_id, user_id))
    await conn.execute(_DELETE_PLAYER_NAME.on(conn), (guild_id, user_id))
    await chips.delete_player(conn, guild_id, user_id)
    return Deletion(results, len(seats), ratings.rowcount, archived.rowcount)


_HAS_DATA = Statement(
    sqlite=(
        "SELECT EXISTS (SELECT 1 FROM players WHERE guild_id = ?1 AND user_id = ?2) OR EXISTS (SELECT 1 FROM"
        " results WHERE guild_id = ?1 AND user_id = ?2) OR EXISTS (SELECT 1 FROM ratings WHERE guild_id = ?1"
        " AND user_id = ?2) OR EXISTS (SELECT 1 FROM chip_balances WHERE guild_id = ?1 AND user_id = ?2) OR"
        " EXISTS (SELECT 1 FROM season_ratings WHERE guild_id = ?1 AND user_id = ?2) OR EXISTS (SELECT 1 FROM"
        " match_seats AS s JOIN matches AS m ON m.id = s.match_id WHERE m.guild_id = ?1 AND"
        " s.user_id = ?2) OR EXISTS (SELECT 1 FROM tournament_players AS p JOIN tournaments AS t ON t.id ="
        " p.tournament_id WHERE t.guild_id = ?1 AND p.user_id = ?2) OR EXISTS (SELECT 1 FROM"
        " tournaments WHERE guild_id = ?1 AND organiser_id = ?2) AS found"
    ),
    postgresql=(
        "SELECT EXISTS (SELECT 1 FROM players WHERE guild_id = $1 AND user_id = $2) OR EXISTS (SELECT 1 FROM"
        " results WHERE guild_id = $1 AND user_id = $2) OR EXISTS (SELECT 1 FROM ratings WHERE guild_id = $1"
        " AND user_id = $2) OR EXISTS (SELECT 1 FROM chip_balances WHERE guild_id = $1 AND user_id = $2) OR"
        " EXISTS (SELECT 1 FROM season_ratings WHERE guild_id = $1 AND user_id = $2) OR EXISTS (SELECT 1 FROM"
        " match_seats AS s JOIN matches AS m ON m.id = s.match_id WHERE m.guild_id = $1 AND"
        " s.user_id = $2) OR EXISTS (SELECT 1 FROM tournament_players AS p JOIN tournaments AS t ON t.id ="
        " p.tournament_id WHERE t.guild_id = $1 AND p.user_id = $2) OR EXISTS (SELECT 1 FROM"
        " tournaments WHERE guild_id = $1 AND organiser_id = $2) AS found"
    ),
)


async def has_data(conn: Connection, guild_id: int, user_id: int) -> bool:
    """Whether the server holds anything of the player (a name, results, ratings, archives, seats, tournaments
    they signed up for or organised)."""
    rows = await conn.execute_fetchall(
        _HAS_DATA.on(conn),
        (guild_id, user_id),
    )
    return bool(next(iter(rows))["found"])
