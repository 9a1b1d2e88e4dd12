"""Tournaments: the tournament rows, their players, bracket matches, the games of each series, and the channel's
events in the outbox (:mod:`bot.storage.outbox`, the table matches queue theirs in).

Every function takes the connection of a :meth:`Database.transaction` (writes) or :meth:`Database.read` block and
runs its statements there; none commits. JSON columns are encoded and decoded here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from bot.storage.outbox import EventQueueStore
from bot.storage.sql import Connection, Placeholders, Row, Statement, all_rows, changed_one, one_row

OPEN_STATUSES = ("signup", "check_in", "running", "paused")


@dataclass(frozen=True)
class TournamentRecord:
    id: int
    guild_id: int
    channel_id: int
    name: str
    game: str
    format: str
    rules: dict[str, Any]
    #: best_of, no_show (seconds), check_in (seconds), max_players, rounds (Swiss), pace (War)
    options: dict[str, Any]
    organiser_id: int
    status: str
    seed: int
    signup_closes_at: float | None
    check_in_ends_at: float | None
    #: the Tournament's JSON as stored; :attr:`state` parses it (on first use: most readers never need it)
    state_text: str | None = field(repr=False)
    champion_id: int | None
    signup_message_id: int | None
    bracket_message_id: int | None
    created_at: float
    updated_at: float
    started_at: float | None
    finished_at: float | None

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    @property
    def has_state(self) -> bool:
        return self.state_text is not None

    @cached_property
    def state(self) -> dict[str, Any] | None:
        """The Tournament's JSON (``None`` before the start)."""
        return None if self.state_text is None else json.loads(self.state_text)


@dataclass(frozen=True)
class EntrantRecord:
    user_id: int
    name: str | None
    joined_at: float
    checked_in: bool


@dataclass(frozen=True)
class BracketMatchRecord:
    tournament_id: int
    key: str
    round: str
    players: tuple[int, int]
    status: str
    ready: tuple[bool, bool]
    deadline_at: float | None
    match_id: int | None
    wins: tuple[int, int]
    draws: int
    winner_id: int | None
    outcome: str | None
    call_message_id: int | None
    called_at: float
    decided_at: float | None

    def slot_of(self, user_id: int) -> int | None:
        return self.players.index(user_id) if user_id in self.players else None


@dataclass(frozen=True)
class GameRecord:
    tournament_id: int
    key: str
    number: int
    match_id: int
    winner_id: int | None
    counted: bool


@dataclass(frozen=True)
class TournamentEvent:
    """One channel event of a tournament in the outbox: ``seq`` counts from 1 per tournament; ``shown`` once the
    channel showed it."""

    tournament_id: int
    seq: int
    type: str
    event: dict[str, Any]
    shown: bool


_TOURNAMENT_COLUMNS = {
    "status", "signup_closes_at", "check_in_ends_at", "state", "champion_id", "signup_message_id",
    "bracket_message_id", "started_at", "finished_at", "options",
}
_MATCH_COLUMNS = {"status", "ready_a", "ready_b", "deadline_at", "match_id", "wins_a", "wins_b", "draws",
                  "winner_id", "outcome", "call_message_id", "decided_at"}
_JSON_COLUMNS = {"state", "options"}


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _tournament(row: Row) -> TournamentRecord:
    return TournamentRecord(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], name=row["name"], game=row["game"],
        format=row["format"], rules=json.loads(row["rules"]), options=json.loads(row["options"]),
        organiser_id=row["organiser_id"], status=row["status"], seed=row["seed"],
        signup_closes_at=row["signup_closes_at"], check_in_ends_at=row["check_in_ends_at"],
        state_text=row["state"], champion_id=row["champion_id"],
        signup_message_id=row["signup_message_id"], bracket_message_id=row["bracket_message_id"],
        created_at=row["created_at"], updated_at=row["updated_at"], started_at=row["started_at"],
        finished_at=row["finished_at"],
    )


def _bracket_match(row: Row) -> BracketMatchRecord:
    return BracketMatchRecord(
        tournament_id=row["tournament_id"], key=row["key"], round=row["round"],
        players=(row["player_a"], row["player_b"]), status=row["status"],
        ready=(bool(row["ready_a"]), bool(row["ready_b"])), deadline_at=row["deadline_at"], match_id=row["match_id"],
        wins=(row["wins_a"], row["wins_b"]), draws=row["draws"], winner_id=row["winner_id"], outcome=row["outcome"],
        call_message_id=row["call_message_id"], called_at=row["called_at"], decided_at=row["decided_at"],
    )


# --- tournaments -----------------------------------------------------------------------------------------

_INSERT_TOURNAMENT = Statement(
    sqlite=(
        "INSERT INTO tournaments (guild_id, channel_id, name, game, format, rules, options, organiser_id,"
        " status, seed, signup_closes_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'signup',"
        " ?, ?, ?, ?) RETURNING id"
    ),
    postgresql=(
        "INSERT INTO tournaments (guild_id, channel_id, name, game, format, rules, options, organiser_id,"
        " status, seed, signup_closes_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8,"
        " 'signup', $9, $10, $11, $12) RETURNING id"
    ),
)


async def insert_tournament(
    conn: Connection, *, guild_id: int, channel_id: int, name: str, game: str, format: str,
    rules: Mapping[str, Any], options: Mapping[str, Any], organiser_id: int, seed: int,
    signup_closes_at: float | None, now: float,
) -> int:
    inserted = await one_row(
        conn, _INSERT_TOURNAMENT.on(conn),
        (guild_id, channel_id, name, game, format, _dumps(dict(rules)), _dumps(dict(options)), organiser_id, seed,
         signup_closes_at, now, now),
    )
    assert inserted is not None
    return int(inserted["id"])


_LOAD_TOURNAMENT = Statement(
    sqlite="SELECT * FROM tournaments WHERE id = ?",
    postgresql="SELECT * FROM tournaments WHERE id = $1",
)


async def load_tournament(conn: Connection, tournament_id: int) -> TournamentRecord | None:
    row = await one_row(conn, _LOAD_TOURNAMENT.on(conn), (tournament_id,))
    return None if row is None else _tournament(row)


async def update_tournament(conn: Connection, tournament_id: int, now: float, **fields: Any) -> int:
    """Set the given columns (``state`` and ``options`` as JSON-ready values); returns the rows changed.
    ``only_status=`` (a status or a tuple) makes the update conditional on the current status."""
    only_status = fields.pop("only_status", None)
    marks = Placeholders(conn)
    columns = marks.assignments("tournament", fields, _TOURNAMENT_COLUMNS, _JSON_COLUMNS, _dumps)
    sql = (f"UPDATE tournaments SET {', '.join(columns)}, updated_at = {marks(now)} WHERE id = {marks(tournament_id)}"
           + marks.status_in(only_status))
    cursor = await conn.execute(sql, marks.values)
    changed = cursor.rowcount
    await cursor.close()
    return changed


async def open_tournaments(conn: Connection) -> list[TournamentRecord]:
    """Every tournament not finished or cancelled, oldest first."""
    marks = Placeholders(conn)
    rows = await all_rows(conn, f"SELECT * FROM tournaments WHERE status IN ({marks.each(OPEN_STATUSES)}) ORDER BY id",
                          marks.values)
    return [_tournament(row) for row in rows]


async def channel_tournaments(conn: Connection, guild_id: int, channel_id: int, *,
                              open_only: bool = True) -> list[TournamentRecord]:
    """The channel's tournaments (open ones only by default), newest first."""
    marks = Placeholders(conn)
    sql = f"SELECT * FROM tournaments WHERE guild_id = {marks(guild_id)} AND channel_id = {marks(channel_id)}"
    if open_only:
        sql += f" AND status IN ({marks.each(OPEN_STATUSES)})"
    rows = await all_rows(conn, sql + " ORDER BY id DESC", marks.values)
    return [_tournament(row) for row in rows]


_PAST_PAGE = Statement(
    sqlite=(
        "SELECT * FROM tournaments WHERE guild_id = ? AND status IN ('finished', 'cancelled') ORDER BY"
        " COALESCE(finished_at, updated_at) DESC, id DESC LIMIT ? OFFSET ?"
    ),
    postgresql=(
        "SELECT * FROM tournaments WHERE guild_id = $1 AND status IN ('finished', 'cancelled') ORDER BY"
        " COALESCE(finished_at, updated_at) DESC, id DESC LIMIT $2 OFFSET $3"
    ),
)
_PAST_COUNT = Statement(
    sqlite="SELECT COUNT(*) AS n FROM tournaments WHERE guild_id = ? AND status IN ('finished', 'cancelled')",
    postgresql=(
        "SELECT COUNT(*) AS n FROM tournaments WHERE guild_id = $1 AND status IN ('finished', 'cancelled')"
    ),
)


async def past_tournaments(conn: Connection, guild_id: int, *, limit: int, offset: int = 0
                           ) -> tuple[list[TournamentRecord], int]:
    """The server's finished and cancelled tournaments, newest first, and how many there are."""
    rows = await all_rows(conn, _PAST_PAGE.on(conn),
                          (guild_id, limit, offset))
    total = await one_row(conn, _PAST_COUNT.on(conn), (guild_id,))
    assert total is not None
    return [_tournament(row) for row in rows], total["n"]


# --- players ---------------------------------------------------------------------------------------------

_ADD_ENTRANT = Statement(
    sqlite=(
        "INSERT OR IGNORE INTO tournament_players (tournament_id, user_id, name, joined_at) VALUES (?, ?, ?,"
        " ?)"
    ),
    postgresql=(
        "INSERT INTO tournament_players (tournament_id, user_id, name, joined_at) VALUES ($1, $2, $3, $4) ON"
        " CONFLICT DO NOTHING"
    ),
)


async def add_entrant(conn: Connection, tournament_id: int, user_id: int, name: str | None,
                      now: float) -> bool:
    """Sign the user up; ``False`` when they were already."""
    return await changed_one(conn, _ADD_ENTRANT, (tournament_id, user_id, name, now))


_REMOVE_ENTRANT = Statement(
    sqlite="DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
    postgresql="DELETE FROM tournament_players WHERE tournament_id = $1 AND user_id = $2",
)


async def remove_entrant(conn: Connection, tournament_id: int, user_id: int) -> bool:
    return await changed_one(conn, _REMOVE_ENTRANT, (tournament_id, user_id))


_CHECK_IN = Statement(
    sqlite=(
        "UPDATE tournament_players SET checked_in = 1 WHERE tournament_id = ? AND user_id = ? AND checked_in"
        " = 0"
    ),
    postgresql=(
        "UPDATE tournament_players SET checked_in = 1 WHERE tournament_id = $1 AND user_id = $2 AND"
        " checked_in = 0"
    ),
)


async def check_in(conn: Connection, tournament_id: int, user_id: int) -> bool:
    """Mark the user checked in; ``False`` when they already were (or are not signed up)."""
    return await changed_one(conn, _CHECK_IN, (tournament_id, user_id))


_ENTRANTS = Statement(
    sqlite="SELECT * FROM tournament_players WHERE tournament_id = ? ORDER BY joined_at, rowid",
    postgresql="SELECT * FROM tournament_players WHERE tournament_id = $1 ORDER BY joined_at, rowid",
)


async def entrants(conn: Connection, tournament_id: int) -> list[EntrantRecord]:
    """The players signed up, in the order they joined."""
    rows = await all_rows(conn, _ENTRANTS.on(conn),
                          (tournament_id,))
    return [EntrantRecord(row["user_id"], row["name"], row["joined_at"], bool(row["checked_in"])) for row in rows]


_NAMES = Statement(
    sqlite="SELECT user_id, name FROM tournament_players WHERE tournament_id = ? AND name IS NOT NULL",
    postgresql="SELECT user_id, name FROM tournament_players WHERE tournament_id = $1 AND name IS NOT NULL",
)


async def names(conn: Connection, tournament_id: int) -> dict[int, str]:
    rows = await all_rows(conn, _NAMES.on(conn), (tournament_id,))
    return {row["user_id"]: row["name"] for row in rows}


async def ratings_of(conn: Connection, guild_id: int, game: str, user_ids: Iterable[int]
                     ) -> dict[int, float]:
    """The players' ratings (openskill ordinals) for the game in the server; unrated players are left out."""
    ids = list(user_ids)
    if not ids:
        return {}
    marks = Placeholders(conn)
    rows = await all_rows(conn, f"SELECT user_id, rating FROM ratings WHERE guild_id = {marks(guild_id)}"
                               f" AND game = {marks(game)} AND user_id IN ({marks.each(ids)})", marks.values)
    return {row["user_id"]: row["rating"] for row in rows}


# --- bracket matches -------------------------------------------------------------------------------------

_INSERT_BRACKET_MATCH = Statement(
    sqlite=(
        "INSERT INTO tournament_matches (tournament_id, key, round, player_a, player_b, status, deadline_at,"
        " called_at) VALUES (?, ?, ?, ?, ?, 'called', ?, ?)"
    ),
    postgresql=(
        "INSERT INTO tournament_matches (tournament_id, key, round, player_a, player_b, status, deadline_at,"
        " called_at) VALUES ($1, $2, $3, $4, $5, 'called', $6, $7)"
    ),
)


async def insert_bracket_match(conn: Connection, tournament_id: int, key: str, round: str,
                               players: Sequence[int], deadline_at: float | None, now: float) -> None:
    await conn.execute(
        _INSERT_BRACKET_MATCH.on(conn),
        (tournament_id, key, round, players[0], players[1], deadline_at, now))


_LOAD_BRACKET_MATCH = Statement(
    sqlite="SELECT * FROM tournament_matches WHERE tournament_id = ? AND key = ?",
    postgresql="SELECT * FROM tournament_matches WHERE tournament_id = $1 AND key = $2",
)


async def load_bracket_match(conn: Connection, tournament_id: int, key: str) -> BracketMatchRecord | None:
    row = await one_row(conn, _LOAD_BRACKET_MATCH.on(conn),
                        (tournament_id, key))
    return None if row is None else _bracket_match(row)


async def bracket_matches(conn: Connection, tournament_id: int, *, open_only: bool = False,
                          round: str | None = None, call_message_id: int | None = None) -> list[BracketMatchRecord]:
    """The tournament's bracket matches in the order they were called: only those not decided (``open_only``), of
    one round, or on one call message."""
    marks = Placeholders(conn)
    sql = (f"SELECT * FROM tournament_matches WHERE tournament_id = {marks(tournament_id)}"
           + (" AND status != 'decided'" if open_only else "") + marks.equal_if_given("round", round)
           + marks.equal_if_given("call_message_id", call_message_id))
    rows = await all_rows(conn, sql + " ORDER BY called_at, rowid", marks.values)
    return [_bracket_match(row) for row in rows]


async def update_bracket_match(conn: Connection, tournament_id: int, key: str, **fields: Any) -> int:
    unknown = set(fields) - _MATCH_COLUMNS
    if unknown:
        raise ValueError(f"not tournament match columns: {sorted(unknown)}")
    marks = Placeholders(conn)
    columns = ", ".join(f"{name} = {marks(value)}" for name, value in fields.items())
    cursor = await conn.execute(f"UPDATE tournament_matches SET {columns} WHERE tournament_id = {marks(tournament_id)}"
                                f" AND key = {marks(key)}", marks.values)
    changed = cursor.rowcount
    await cursor.close()
    return changed


_NEXT_DEADLINE = Statement(
    sqlite=(
        "SELECT MIN(deadline_at) AS at FROM tournament_matches WHERE tournament_id = ? AND status = 'called'"
        " AND deadline_at IS NOT NULL"
    ),
    postgresql=(
        "SELECT MIN(deadline_at) AS at FROM tournament_matches WHERE tournament_id = $1 AND status = 'called'"
        " AND deadline_at IS NOT NULL"
    ),
)


async def next_deadline(conn: Connection, tournament_id: int) -> float | None:
    """The earliest no-show deadline of the tournament's called matches (``None``: none)."""
    row = await one_row(conn, _NEXT_DEADLINE.on(conn), (tournament_id,))
    return None if row is None else row["at"]


_STALLED_BRACKET_MATCHES = (  # the same text on both databases
    "SELECT tm.tournament_id, tm.key, CASE WHEN tm.status = 'playing' THEN tm.match_id END AS match_id"
    " FROM tournament_matches AS tm JOIN tournaments AS t ON t.id = tm.tournament_id LEFT JOIN matches AS"
    " m ON m.id = tm.match_id WHERE t.status = 'running' AND tm.status != 'decided' AND (tm.status ="
    " 'waiting' OR (tm.status = 'playing' AND m.status = 'challenge')) ORDER BY tm.tournament_id,"
    " tm.called_at, tm.rowid"
)


async def stalled_bracket_matches(conn: Connection) -> list[tuple[int, str, int | None]]:
    """Bracket matches of running tournaments that wait for a game to be dealt (match id ``None``) or whose game
    was dealt but not accepted yet (a crash in between): (tournament id, key, match id), oldest call first."""
    rows = await all_rows(
        conn,
        _STALLED_BRACKET_MATCHES)
    return [(row["tournament_id"], row["key"], row["match_id"]) for row in rows]


_BRACKET_MATCH_OF_GAME = Statement(
    sqlite="SELECT tournament_id, key FROM tournament_games WHERE match_id = ?",
    postgresql="SELECT tournament_id, key FROM tournament_games WHERE match_id = $1",
)


async def bracket_match_of_game(conn: Connection, match_id: int) -> tuple[int, str] | None:
    """The (tournament id, bracket match key) a real match was played for, or ``None``."""
    row = await one_row(conn, _BRACKET_MATCH_OF_GAME.on(conn), (match_id,))
    return None if row is None else (row["tournament_id"], row["key"])


# --- games -----------------------------------------------------------------------------------------------

_NEXT_GAME_NUMBER = Statement(
    sqlite="SELECT COALESCE(MAX(number), 0) + 1 AS n FROM tournament_games WHERE tournament_id = ? AND key = ?",
    postgresql=(
        "SELECT COALESCE(MAX(number), 0) + 1 AS n FROM tournament_games WHERE tournament_id = $1 AND key = $2"
    ),
)
_INSERT_GAME = Statement(
    sqlite="INSERT INTO tournament_games (tournament_id, key, number, match_id) VALUES (?, ?, ?, ?)",
    postgresql="INSERT INTO tournament_games (tournament_id, key, number, match_id) VALUES ($1, $2, $3, $4)",
)


async def insert_game(conn: Connection, tournament_id: int, key: str, match_id: int) -> int:
    row = await one_row(conn, _NEXT_GAME_NUMBER.on(conn), (tournament_id, key))
    assert row is not None
    await conn.execute(_INSERT_GAME.on(conn),
                       (tournament_id, key, row["n"], match_id))
    return row["n"]


async def games(conn: Connection, tournament_id: int, key: str | None = None) -> list[GameRecord]:
    marks = Placeholders(conn)
    sql = f"SELECT * FROM tournament_games WHERE tournament_id = {marks(tournament_id)}"
    if key is not None:
        sql += f" AND key = {marks(key)}"
    rows = await all_rows(conn, sql + " ORDER BY key, number", marks.values)
    return [GameRecord(row["tournament_id"], row["key"], row["number"], row["match_id"], row["winner_id"],
                       bool(row["counted"])) for row in rows]


_COUNT_GAME = Statement(
    sqlite="UPDATE tournament_games SET counted = 1, winner_id = ? WHERE match_id = ? AND counted = 0",
    postgresql="UPDATE tournament_games SET counted = 1, winner_id = $1 WHERE match_id = $2 AND counted = 0",
)


async def count_game(conn: Connection, match_id: int, winner_id: int | None) -> bool:
    """Mark a finished game counted in its series (once); ``False`` if it was counted already."""
    return await changed_one(conn, _COUNT_GAME, (winner_id, match_id))


_FINISHED_UNCOUNTED_GAMES = (  # the same text on both databases
    "SELECT g.tournament_id, g.key, g.match_id FROM tournament_games AS g JOIN matches AS m ON m.id ="
    " g.match_id JOIN tournaments AS t ON t.id = g.tournament_id WHERE g.counted = 0 AND m.status IN"
    " ('finished', 'cancelled') AND t.status IN ('running', 'paused') ORDER BY COALESCE(m.finished_at,"
    " m.updated_at), g.match_id"
)


async def finished_uncounted_games(conn: Connection) -> list[tuple[int, str, int]]:
    """Games of open tournaments whose real match is over (finished or cancelled) but not counted yet:
    (tournament id, key, match id), in the order the matches ended."""
    rows = await all_rows(
        conn,
        _FINISHED_UNCOUNTED_GAMES)
    return [(row["tournament_id"], row["key"], row["match_id"]) for row in rows]


# --- the channel's events, in the outbox ----------------------------------------------------------------

#: a tournament's channel events in the outbox (:mod:`bot.storage.outbox`); the functions below are its statements
EVENTS: EventQueueStore[TournamentEvent] = EventQueueStore(
    "tournament_id", "tournaments",
    lambda tournament_id, seq, step, kind, event, shown: TournamentEvent(tournament_id, seq, kind, event, shown),
    claim_needs_unshown=False)
append_events = EVENTS.append
unshown_events = EVENTS.unshown
mark_shown = EVENTS.mark_shown
last_event = EVENTS.last_event
tournaments_with_unshown_events = EVENTS.owners_with_unshown


# --- deleting a player's data --------------------------------------------------------------------------

#: the keys of a channel event that name players (a user id, or a list of them)
_PLAYER_KEYS = frozenset({"user_id", "player", "players", "winner", "champion", "by", "busy", "left_out"})


async def open_tournaments_of_player(conn: Connection, guild_id: int, user_id: int
                                     ) -> list[TournamentRecord]:
    """The server's tournaments not over yet that the user signed up for or organises, oldest first."""
    marks = Placeholders(conn)
    rows = await all_rows(conn, f"SELECT * FROM tournaments AS t WHERE t.guild_id = {marks(guild_id)}"
                               f" AND t.status IN ({marks.each(OPEN_STATUSES)}) AND (t.organiser_id = {marks(user_id)}"
                               " OR EXISTS (SELECT 1 FROM tournament_players AS p WHERE p.tournament_id = t.id"
                               f" AND p.user_id = {marks(user_id)})) ORDER BY t.id", marks.values)
    return [_tournament(row) for row in rows]


_TOURNAMENTS_OF_PLAYER = Statement(
    sqlite=(
        "SELECT * FROM tournaments AS t WHERE t.guild_id = ?1 AND (t.organiser_id = ?2 OR t.champion_id = ?2"
        " OR EXISTS (SELECT 1 FROM tournament_players AS p WHERE p.tournament_id = t.id AND p.user_id = ?2)"
        " OR EXISTS (SELECT 1 FROM match_events AS e WHERE e.tournament_id = t.id AND"
        " instr(e.event, CAST(?2 AS TEXT)) > 0)) ORDER BY t.id"
    ),
    postgresql=(
        "SELECT * FROM tournaments AS t WHERE t.guild_id = $1 AND (t.organiser_id = $2 OR t.champion_id = $2"
        " OR EXISTS (SELECT 1 FROM tournament_players AS p WHERE p.tournament_id = t.id AND p.user_id = $2)"
        " OR EXISTS (SELECT 1 FROM match_events AS e WHERE e.tournament_id = t.id AND"
        " strpos(e.event, CAST($2 AS TEXT)) > 0)) ORDER BY t.id"
    ),
)


async def tournaments_of_player(conn: Connection, guild_id: int, user_id: int) -> list[TournamentRecord]:
    """Every tournament of the server that holds something of the user: they signed up (and maybe left) or
    organised it, or a channel event names them; oldest first."""
    rows = await all_rows(
        conn,
        _TOURNAMENTS_OF_PLAYER.on(conn),
        (guild_id, user_id))
    return [_tournament(row) for row in rows]


_PLACEHOLDER_FOR = Statement(
    sqlite="SELECT user_id FROM tournament_players WHERE tournament_id = ? ORDER BY joined_at, rowid",
    postgresql="SELECT user_id FROM tournament_players WHERE tournament_id = $1 ORDER BY joined_at, rowid",
)


async def placeholder_for(conn: Connection, tournament_id: int, user_id: int) -> int:
    """The id a deleted player gets in a tournament: ``-(n + 1)`` for the n-th player to sign up (from 0), so
    placeholders are distinct within a tournament and say nothing across tournaments; someone who is not signed
    up (the organiser, a player who left) gets ``-(players + 1)``."""
    rows = await all_rows(conn, _PLACEHOLDER_FOR.on(conn),
                          (tournament_id,))
    ids = [row["user_id"] for row in rows]
    return -(ids.index(user_id) + 1) if user_id in ids else -(len(ids) + 1)


def _scrub_event(value: Any, user_id: int, placeholder: int, key: str | None = None) -> Any:
    if isinstance(value, dict):
        return {name: _scrub_event(item, user_id, placeholder, name) for name, item in value.items()}
    if key in _PLAYER_KEYS:
        if isinstance(value, list):
            return [placeholder if item == user_id and not isinstance(item, bool) else item for item in value]
        if value == user_id and not isinstance(value, bool):
            return placeholder
    return value


_ANONYMISE_ENTRANT = Statement(
    sqlite="UPDATE tournament_players SET user_id = ?, name = NULL WHERE tournament_id = ? AND user_id = ?",
    postgresql=(
        "UPDATE tournament_players SET user_id = $1, name = NULL WHERE tournament_id = $2 AND user_id = $3"
    ),
)
_ANONYMISE_ORGANISER_AND_CHAMPION = Statement(
    sqlite=(
        "UPDATE tournaments SET organiser_id = CASE WHEN organiser_id = ?1 THEN ?2 ELSE organiser_id END,"
        " champion_id = CASE WHEN champion_id = ?1 THEN ?2 ELSE champion_id END, state = COALESCE(?3, state)"
        " WHERE id = ?4"
    ),
    postgresql=(
        "UPDATE tournaments SET organiser_id = CASE WHEN organiser_id = $1 THEN $2 ELSE organiser_id END,"
        " champion_id = CASE WHEN champion_id = $1 THEN $2 ELSE champion_id END, state = COALESCE($3, state)"
        " WHERE id = $4"
    ),
)
_ANONYMISE_BRACKET_PLAYERS = Statement(
    sqlite=(
        "UPDATE tournament_matches SET player_a = CASE WHEN player_a = ?1 THEN ?2 ELSE player_a END, player_b"
        " = CASE WHEN player_b = ?1 THEN ?2 ELSE player_b END, winner_id = CASE WHEN winner_id = ?1 THEN ?2"
        " ELSE winner_id END WHERE tournament_id = ?3 AND ?1 IN (player_a, player_b, winner_id)"
    ),
    postgresql=(
        "UPDATE tournament_matches SET player_a = CASE WHEN player_a = $1 THEN $2 ELSE player_a END, player_b"
        " = CASE WHEN player_b = $1 THEN $2 ELSE player_b END, winner_id = CASE WHEN winner_id = $1 THEN $2"
        " ELSE winner_id END WHERE tournament_id = $3 AND $1 IN (player_a, player_b, winner_id)"
    ),
)
_ANONYMISE_GAME_WINNER = Statement(
    sqlite="UPDATE tournament_games SET winner_id = ? WHERE tournament_id = ? AND winner_id = ?",
    postgresql="UPDATE tournament_games SET winner_id = $1 WHERE tournament_id = $2 AND winner_id = $3",
)
_EVENTS_TO_ANONYMISE = Statement(
    sqlite="SELECT seq, event FROM match_events WHERE tournament_id = ?",
    postgresql="SELECT seq, event FROM match_events WHERE tournament_id = $1",
)
_REWRITE_EVENT = Statement(
    sqlite="UPDATE match_events SET event = ? WHERE tournament_id = ? AND seq = ?",
    postgresql="UPDATE match_events SET event = $1 WHERE tournament_id = $2 AND seq = $3",
)


async def anonymise_player(conn: Connection, tournament_id: int, user_id: int, placeholder: int,
                           state: Mapping[str, Any] | None) -> None:
    """Replace the user by ``placeholder`` in the tournament: their signup row (name forgotten), organiser and
    champion, bracket matches, games, every channel event; ``state`` (the Tournament's JSON with the player
    replaced already, ``None``: leave it) is stored."""
    await conn.execute(_ANONYMISE_ENTRANT.on(conn),
                       (placeholder, tournament_id, user_id))
    await conn.execute(
        _ANONYMISE_ORGANISER_AND_CHAMPION.on(conn),
        (user_id, placeholder, None if state is None else _dumps(dict(state)), tournament_id))
    await conn.execute(
        _ANONYMISE_BRACKET_PLAYERS.on(conn),
        (user_id, placeholder, tournament_id))
    await conn.execute(_ANONYMISE_GAME_WINNER.on(conn),
                       (placeholder, tournament_id, user_id))
    updates = []
    for row in await all_rows(conn, _EVENTS_TO_ANONYMISE.on(conn), (tournament_id,)):
        event = json.loads(row["event"])
        scrubbed = _scrub_event(event, user_id, placeholder)
        if scrubbed != event:
            updates.append((_dumps(scrubbed), tournament_id, row["seq"]))
    await conn.executemany(_REWRITE_EVENT.on(conn), updates)
