"""Matches, their seats, messages, action log, and their events in the outbox (:mod:`bot.storage.outbox`).

Every function takes the connection of a :meth:`Database.transaction` (writes) or :meth:`Database.read` block and
runs its statements there; none commits. JSON columns are encoded and decoded here.

Versions. A match's row counts its writes (``matches.version``, :attr:`MatchRecord.version`): every
:func:`update_match` adds one. A writer acting on a record it read (or keeps in memory) passes that record's version
as ``expected_version``: the write is held to it in its own statement and raises :class:`VersionConflict` when
another writer got there first, so the writer reads the match again instead of overwriting a step it has not seen.
Seat and message writes may be held to the version too (a draft for a step that moved on is refused) but leave it
as it is: the version says which step, deadline and state the row is at, and a seat writes only its own row. In one
process the match's lock already orders its writes and the check never fails; it is what lets several processes
share the matches.

Claims. With several processes, each arms timers for the open matches and shows their events; a claim makes sure
one of them does each. A claimant names itself (``owner``: unique per process, e.g. host, pid and start time), and
holds the claim until ``now + lease`` (the clocks of the processes agree to well within a lease):

* a match's timer that fires calls :func:`claim_deadline` with the deadline's kind and step (one statement, in a
  statement block). ``True``: it runs the timeout, whose write of the next deadline (or of none) ends the claim; if
  it finds nothing to do it calls :func:`release_deadline`. ``False``: another process runs it, or the deadline is
  not due or moved on: nothing to do.
* a presenter about to show a match's events calls :func:`claim_unshown`. ``True``: it shows them in order, marking
  them shown (:func:`mark_shown`) and claiming again to renew the claim while it shows, and calls
  :func:`release_unshown` once none is left. ``False``: another process shows them, or none is left.

A claimant that dies holds its claim until the lease runs out; then another process's claim takes it over (the
next timer that fires, the next presenter that looks), and goes on from what is stored: the timeout not yet run,
the first event not marked shown (at worst the one being shown at the death is shown twice, as after a restart).
A single process needs no claims: its match locks and timers do the same in memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import orjson

from bot.storage.errors import ConstraintViolation, StorageConflict, VersionConflict
from bot.storage.outbox import EventQueueStore
from bot.storage.records import ActionRecord, MatchRecord, QueuedEvent, SeatRecord, Status
from bot.storage.sql import Connection, Placeholders, Row, Statement, all_rows, changed_one, one_row

_MATCH_COLUMNS = {
    "thread_id", "challenge_message_id", "arrange_seconds", "seed", "status", "reason", "state", "step",
    "deadline_at", "deadline_kind", "result", "started_at", "finished_at", "options", "rules",
}
_JSON_COLUMNS = {"state", "result", "rules", "options"}
_SEAT_COLUMNS = {"dm_channel_id", "dm_message_id", "draft", "misses"}
#: the columns that say which deadline runs: writing one ends the claim on the deadline
_DEADLINE_COLUMNS = {"deadline_at", "deadline_kind", "step"}


def _dumps(value: Any) -> str:
    """Compact JSON with sorted keys (orjson: a match's state is written at every step)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()


# --- matches ---------------------------------------------------------------------------------------------

async def insert_match(
    conn: Connection, *, guild_id: int, channel_id: int, game: str, rules: Mapping[str, Any],
    arrange_seconds: int | None, user_ids: Sequence[int], deadline_at: float, now: float,
    options: Mapping[str, Any] | None = None, program_seats: Sequence[int] = (),
) -> int:
    """A new challenge (status ``challenge``) with its seats, open; returns the match id. Raises StorageConflict when
    a player is already in an open match of the game (the one-open-match index). ``program_seats``: seats the bot
    plays itself, never counted as open (the bot plays any number of matches at once)."""
    try:
        return await _insert_match(conn, guild_id=guild_id, channel_id=channel_id, game=game, rules=rules,
                                   arrange_seconds=arrange_seconds, user_ids=user_ids, deadline_at=deadline_at,
                                   now=now, options=options, program_seats=program_seats)
    except ConstraintViolation as error:
        raise StorageConflict(str(error)) from None


_INSERT_MATCH = Statement(
    sqlite=(
        "INSERT INTO matches (guild_id, channel_id, game, rules, options, arrange_seconds, status,"
        " deadline_at, deadline_kind, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'challenge', ?,"
        " 'challenge', ?, ?) RETURNING id"
    ),
    postgresql=(
        "INSERT INTO matches (guild_id, channel_id, game, rules, options, arrange_seconds, status,"
        " deadline_at, deadline_kind, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 'challenge',"
        " $7, 'challenge', $8, $9) RETURNING id"
    ),
)
_INSERT_SEATS = Statement(
    sqlite="INSERT INTO match_seats (match_id, seat, user_id, game, open) VALUES (?, ?, ?, ?, ?)",
    postgresql="INSERT INTO match_seats (match_id, seat, user_id, game, open) VALUES ($1, $2, $3, $4, $5)",
)


async def _insert_match(
    conn: Connection, *, guild_id: int, channel_id: int, game: str, rules: Mapping[str, Any],
    arrange_seconds: int | None, user_ids: Sequence[int], deadline_at: float, now: float,
    options: Mapping[str, Any] | None, program_seats: Sequence[int] = (),
) -> int:
    inserted = await one_row(
        conn, _INSERT_MATCH.on(conn),
        (guild_id, channel_id, game, _dumps(dict(rules)), _dumps(dict(options or {})), arrange_seconds, deadline_at,
         now, now),
    )
    assert inserted is not None
    match_id: int = inserted["id"]
    await conn.executemany(
        _INSERT_SEATS.on(conn),
        [(match_id, seat, user_id, game, None if seat in program_seats else 1)
         for seat, user_id in enumerate(user_ids)],
    )
    return match_id


_SEAT_FIELDS = ("seat", "user_id", "dm_channel_id", "dm_message_id", "draft", "misses")
# One statement, not three: on a file other processes share, every statement is a round trip to aiosqlite's thread,
# and under load each trip waits for the event loop (and the GIL) while the transaction holds the database lock for
# everyone else; on the process's own file each is still a step of the SQLite engine and of aiosqlite's cursor.
_SEATS_AS_ARRAYS = ", ".join(f"s.{name}" for name in _SEAT_FIELDS)
_LOAD_MATCH = Statement(
    sqlite=(
        "SELECT m.*,"
        f" (SELECT json_group_array(json_array({_SEATS_AS_ARRAYS}))"
        " FROM match_seats AS s WHERE s.match_id = m.id) AS seats_json,"
        " (SELECT json_group_object(g.name, g.message_id) FROM match_messages AS g WHERE g.match_id = m.id)"
        " AS messages_json"
        " FROM matches AS m WHERE m.id = ?"
    ),
    postgresql=(
        "SELECT m.*,"
        f" (SELECT COALESCE(json_agg(json_build_array({_SEATS_AS_ARRAYS})), '[]'::json)"
        " FROM match_seats AS s WHERE s.match_id = m.id) AS seats_json,"
        " (SELECT COALESCE(json_object_agg(g.name, g.message_id), '{}'::json) FROM match_messages AS g"
        " WHERE g.match_id = m.id) AS messages_json"
        " FROM matches AS m WHERE m.id = $1"
    ),
)


async def load_match(conn: Connection, match_id: int) -> MatchRecord | None:
    return (await load_match_and_state(conn, match_id))[0]


async def load_match_and_state(conn: Connection, match_id: int) -> tuple[MatchRecord | None, str | None]:
    """The match and, in the same statement, the engine's state as stored (JSON text; ``None`` before accept)."""
    row = await one_row(conn, _LOAD_MATCH.on(conn), (match_id,))
    if row is None:
        return None, None
    seats = sorted((dict(zip(_SEAT_FIELDS, seat, strict=True)) for seat in orjson.loads(row["seats_json"])),
                   key=lambda seat: seat["seat"])
    return _match(row, seats, orjson.loads(row["messages_json"])), row["state"]


def _match(row: Row, seats: Iterable[Row], messages: dict[str, int]) -> MatchRecord:
    return MatchRecord(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], thread_id=row["thread_id"],
        challenge_message_id=row["challenge_message_id"], game=row["game"], rules=orjson.loads(row["rules"]),
        options=orjson.loads(row["options"]),
        arrange_seconds=row["arrange_seconds"], seed=row["seed"], status=Status(row["status"]), reason=row["reason"],
        step=row["step"], deadline_at=row["deadline_at"], deadline_kind=row["deadline_kind"],
        result=None if row["result"] is None else orjson.loads(row["result"]), created_at=row["created_at"],
        updated_at=row["updated_at"], started_at=row["started_at"], finished_at=row["finished_at"],
        seats=tuple(
            SeatRecord(
                seat=seat["seat"], user_id=seat["user_id"], dm_channel_id=seat["dm_channel_id"],
                dm_message_id=seat["dm_message_id"], draft=tuple(orjson.loads(seat["draft"])), misses=seat["misses"],
            )
            for seat in seats
        ),
        messages=messages, version=row["version"],
    )


async def load_matches(conn: Connection, match_ids: Iterable[int]) -> list[MatchRecord]:
    matches = []
    for match_id in match_ids:
        match = await load_match(conn, match_id)
        if match is not None:
            matches.append(match)
    return matches


_LOAD_STATE = Statement(
    sqlite="SELECT state FROM matches WHERE id = ?",
    postgresql="SELECT state FROM matches WHERE id = $1",
)


async def load_state(conn: Connection, match_id: int) -> dict[str, Any] | None:
    """The engine's JSON state (``None`` before the challenge is accepted)."""
    row = await one_row(conn, _LOAD_STATE.on(conn), (match_id,))
    if row is None or row["state"] is None:
        return None
    return orjson.loads(row["state"])


async def update_match(
    conn: Connection, match_id: int, now: float, *, expected_version: int | None = None,
    only_status: str | Sequence[str] | None = None, **fields: Any,
) -> int:
    """Set the given columns (``state``, ``result`` given as JSON-ready values) and add one to the match's version;
    returns the rows changed.

    ``expected_version``: write only if the match is still at that version (then it is at that version + 1), else
    raise :class:`VersionConflict` -- checked by the update itself, no read before it. ``only_status=`` (a status or
    a tuple of them) makes the update conditional on the current status (0 rows changed when it is not one of
    them). A write of ``deadline_at``, ``deadline_kind`` or ``step`` ends the claim on the deadline that ran
    (:func:`claim_deadline`).
    """
    marks = Placeholders(conn)
    columns = marks.assignments("match", fields, _MATCH_COLUMNS, _JSON_COLUMNS, _dumps)
    columns += [f"updated_at = {marks(now)}", "version = version + 1"]
    if not _DEADLINE_COLUMNS.isdisjoint(fields):
        columns += ["deadline_claimed_by = NULL", "deadline_claimed_until = NULL"]
    sql = f"UPDATE matches SET {', '.join(columns)} WHERE id = {marks(match_id)}" + marks.status_in(only_status)
    sql += _at_version(marks, match_id, expected_version, match_row=True)
    return await _write(conn, sql, marks.values, match_id, expected_version)


def _at_version(marks: Placeholders, match_id: int, expected_version: int | None, *, match_row: bool) -> str:
    """The condition (`` AND ...``) that holds a write of the match to ``expected_version`` (none when it is
    ``None``), its parameters added to ``marks``. ``match_row``: the write is of the ``matches`` row itself (else
    of the match's seats or messages, which ask the row in the same statement)."""
    if expected_version is None:
        return ""
    if match_row:
        return f" AND version = {marks(expected_version)}"
    return f" AND (SELECT version FROM matches WHERE id = {marks(match_id)}) = {marks(expected_version)}"


_VERSION = Statement(
    sqlite="SELECT version FROM matches WHERE id = ?",
    postgresql="SELECT version FROM matches WHERE id = $1",
)


async def _write(conn: Connection, sql: str, params: Sequence[Any], match_id: int,
                 expected_version: int | None) -> int:
    """Run one write of the match; the rows changed. A write held to a version that changed nothing raises
    VersionConflict if the version moved on (asked only then: a write that changes its row costs one statement)."""
    cursor = await conn.execute(sql, params)
    # (no close: one more round trip, and the cursor holds nothing once it has run)
    if expected_version is not None and cursor.rowcount == 0:
        row = await one_row(conn, _VERSION.on(conn), (match_id,))
        if row is None or row["version"] != expected_version:
            raise VersionConflict(match_id, expected_version)
    return cursor.rowcount


def _games_filter(marks: Placeholders, games: Iterable[str] | None, column: str = "game") -> str:
    """`` AND <column> IN (...)`` for ``games`` (``None``: every game), its parameters added to ``marks``."""
    if games is None:
        return ""
    names = list(games)
    return f" AND {column} IN ({marks.each(names) or 'NULL'})"


async def open_match_ids(conn: Connection, games: Iterable[str] | None = None) -> list[int]:
    """Matches in ``challenge`` or ``active`` (of ``games`` only, if given), oldest first."""
    marks = Placeholders(conn)
    where = _games_filter(marks, games)
    rows = await all_rows(conn, f"SELECT id FROM matches WHERE status IN ('challenge', 'active'){where} ORDER BY id",
                          marks.values)
    return [row["id"] for row in rows]


#: the condition that a match ``m`` is against the bot (its options name the bot's seat)
_AGAINST_THE_BOT = Statement(
    sqlite="json_extract(m.options, '$.opponent.seat') IS NOT NULL",
    postgresql="(m.options::jsonb #>> '{opponent,seat}') IS NOT NULL",
)


async def finished_program_matches_without(conn: Connection, games: Iterable[str], name: str,
                                            since: float) -> list[int]:
    """Matches against the bot of ``games`` finished at ``since`` or later that have no message named ``name``
    stored (a message the bot posts after such a match), oldest first."""
    marks = Placeholders(conn)
    against_the_bot = _AGAINST_THE_BOT.on(conn)
    rows = await all_rows(
        conn,
        f"SELECT m.id FROM matches AS m WHERE m.status = 'finished' AND m.finished_at >= {marks(since)}"
        f" AND {against_the_bot}{_games_filter(marks, games, 'm.game')} AND NOT EXISTS"
        f" (SELECT 1 FROM match_messages AS g WHERE g.match_id = m.id AND g.name = {marks(name)}) ORDER BY m.id",
        marks.values)
    return [row["id"] for row in rows]


async def open_matches_of_users(
    conn: Connection, user_ids: Iterable[int], games: Iterable[str]
) -> dict[int, int]:
    """Each of the users' open (challenge or active) match of any of ``games``, in any server: user id -> match id
    (users in none are left out). One statement however many users and games."""
    users, names = list(user_ids), list(games)
    if not users or not names:
        return {}
    marks = Placeholders(conn)
    rows = await all_rows(
        conn,
        f"SELECT user_id, match_id FROM match_seats WHERE open = 1 AND game IN ({marks.each(names)})"
        f" AND user_id IN ({marks.each(users)}) ORDER BY match_id",
        marks.values,
    )
    found: dict[int, int] = {}
    for row in rows:
        found.setdefault(row["user_id"], row["match_id"])
    return found


# --- seats -----------------------------------------------------------------------------------------------

async def update_seat(
    conn: Connection, match_id: int, seat: int, *, expected_version: int | None = None, **fields: Any
) -> None:
    """Set seat columns: ``dm_channel_id``, ``dm_message_id``, ``draft`` (a list of cards), ``misses``.

    ``expected_version``: write only while the match is at that version, else raise VersionConflict (a draft for
    a step that moved on). A seat's write leaves the version as it is: seats write their own rows, side by side."""
    unknown = set(fields) - _SEAT_COLUMNS
    if unknown:
        raise ValueError(f"not seat columns: {sorted(unknown)}")
    marks = Placeholders(conn)
    columns = ", ".join(f"{name} = {marks(_dumps(list(v)) if name == 'draft' else v)}" for name, v in fields.items())
    sql = f"UPDATE match_seats SET {columns} WHERE match_id = {marks(match_id)} AND seat = {marks(seat)}"
    sql += _at_version(marks, match_id, expected_version, match_row=False)
    await _write(conn, sql, marks.values, match_id, expected_version)


_GAME_OF_MATCH = Statement(
    sqlite="SELECT game FROM matches WHERE id = ?",
    postgresql="SELECT game FROM matches WHERE id = $1",
)
_SEAT_COUNT = Statement(
    sqlite="SELECT COUNT(*) AS n FROM match_seats WHERE match_id = ?",
    postgresql="SELECT COUNT(*) AS n FROM match_seats WHERE match_id = $1",
)
_INSERT_OPEN_SEAT = Statement(
    sqlite="INSERT INTO match_seats (match_id, seat, user_id, game, open) VALUES (?, ?, ?, ?, 1)",
    postgresql="INSERT INTO match_seats (match_id, seat, user_id, game, open) VALUES ($1, $2, $3, $4, 1)",
)


async def add_seat(conn: Connection, match_id: int, user_id: int) -> int:
    """A new open seat for the user after the match's last one (a lobby being joined); returns its number.
    Raises :class:`~bot.storage.errors.ConstraintViolation` when the user is in the match or in another open match
    of its game."""
    row = await one_row(conn, _GAME_OF_MATCH.on(conn), (match_id,))
    if row is None:
        raise ValueError(f"no match {match_id}")
    count = await one_row(conn, _SEAT_COUNT.on(conn), (match_id,))
    assert count is not None
    seat = count["n"]
    await conn.execute(_INSERT_OPEN_SEAT.on(conn),
                       (match_id, seat, user_id, row["game"]))
    return seat


_SEAT_OF_USER = Statement(
    sqlite="SELECT seat FROM match_seats WHERE match_id = ? AND user_id = ?",
    postgresql="SELECT seat FROM match_seats WHERE match_id = $1 AND user_id = $2",
)
_DELETE_SEAT = Statement(
    sqlite="DELETE FROM match_seats WHERE match_id = ? AND seat = ?",
    postgresql="DELETE FROM match_seats WHERE match_id = $1 AND seat = $2",
)
_SEATS_AFTER_OUT_OF_THE_WAY = Statement(
    sqlite="UPDATE match_seats SET seat = seat + 1000000 WHERE match_id = ? AND seat > ?",
    postgresql="UPDATE match_seats SET seat = seat + 1000000 WHERE match_id = $1 AND seat > $2",
)
_SEATS_AFTER_DOWN_ONE = Statement(
    sqlite="UPDATE match_seats SET seat = seat - 1000001 WHERE match_id = ? AND seat >= 1000000",
    postgresql="UPDATE match_seats SET seat = seat - 1000001 WHERE match_id = $1 AND seat >= 1000000",
)


async def remove_seat(conn: Connection, match_id: int, user_id: int) -> int | None:
    """Take the user's seat out of the match (a lobby being left); the seats after it move up one, so seats stay
    numbered 0, 1, ... Returns the seat the user had (``None``: not in the match, nothing changed)."""
    row = await one_row(conn, _SEAT_OF_USER.on(conn), (match_id, user_id))
    if row is None:
        return None
    seat = row["seat"]
    await conn.execute(_DELETE_SEAT.on(conn), (match_id, seat))
    # in two steps: moving each seat down one at once could meet the next one's number mid-statement
    await conn.execute(_SEATS_AFTER_OUT_OF_THE_WAY.on(conn),
                       (match_id, seat))
    await conn.execute(_SEATS_AFTER_DOWN_ONE.on(conn),
                       (match_id,))
    return seat


_RESET_MISSES = Statement(
    sqlite="UPDATE match_seats SET misses = 0 WHERE match_id = ?",
    postgresql="UPDATE match_seats SET misses = 0 WHERE match_id = $1",
)


async def reset_misses(conn: Connection, match_id: int) -> None:
    await conn.execute(_RESET_MISSES.on(conn), (match_id,))


_RESET_DRAFTS = Statement(
    sqlite="UPDATE match_seats SET draft = '[]' WHERE match_id = ?",
    postgresql="UPDATE match_seats SET draft = '[]' WHERE match_id = $1",
)


async def reset_drafts(conn: Connection, match_id: int) -> None:
    await conn.execute(_RESET_DRAFTS.on(conn), (match_id,))


# --- messages --------------------------------------------------------------------------------------------

async def set_message(
    conn: Connection, match_id: int, name: str, message_id: int, *, expected_version: int | None = None
) -> None:
    """Store the id of the match's message ``name``. ``expected_version``: only while the match is at that version
    (else VersionConflict); the version stays as it is."""
    marks = Placeholders(conn)
    values = f"{marks(match_id)}, {marks(name)}, {marks(message_id)}"
    condition = _at_version(marks, match_id, expected_version, match_row=False)
    # (the WHERE, true without a condition, keeps SQLite from reading ON CONFLICT as a join's ON)
    await _write(
        conn,
        f"INSERT INTO match_messages (match_id, name, message_id) SELECT {values} WHERE true{condition}"
        " ON CONFLICT (match_id, name) DO UPDATE SET message_id = excluded.message_id",
        marks.values, match_id, expected_version,
    )


# --- action log ------------------------------------------------------------------------------------------

_APPEND_ACTION = Statement(
    sqlite=(
        "INSERT INTO match_actions (match_id, seq, seat, step, kind, action, created_at) SELECT ?,"
        " COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ? FROM match_actions WHERE match_id = ? RETURNING seq"
    ),
    postgresql=(
        "INSERT INTO match_actions (match_id, seq, seat, step, kind, action, created_at) SELECT $1,"
        " COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5, $6 FROM match_actions WHERE match_id = $7 RETURNING seq"
    ),
)


async def append_action(
    conn: Connection, match_id: int, *, seat: int, step: int, kind: str, action: Mapping[str, Any],
    now: float,
) -> int:
    """Log an action after the match's last one; returns its number (one statement: it runs inside a transaction,
    which holds the connection for every round trip)."""
    row = await one_row(
        conn,
        _APPEND_ACTION.on(conn),
        (match_id, seat, step, kind, _dumps(dict(action)), now, match_id),
    )
    assert row is not None
    return row["seq"]


_ACTIONS = Statement(
    sqlite="SELECT * FROM match_actions WHERE match_id = ? ORDER BY seq",
    postgresql="SELECT * FROM match_actions WHERE match_id = $1 ORDER BY seq",
)


async def actions(conn: Connection, match_id: int) -> list[ActionRecord]:
    rows = await all_rows(conn, _ACTIONS.on(conn), (match_id,))
    return [
        ActionRecord(row["match_id"], row["seq"], row["seat"], row["step"], row["kind"],
                     orjson.loads(row["action"]), row["created_at"])
        for row in rows
    ]


# --- event queue -----------------------------------------------------------------------------------------

def event_step(event: Mapping[str, Any]) -> int | None:
    """The step an event belongs to, as its flow tagged it (``engagement``; Air War's ``engagement`` events carry
    theirs as ``number``)."""
    value = event.get("engagement", event.get("number") if event.get("type") == "engagement" else None)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


#: a match's events in the outbox (:mod:`bot.storage.outbox`); the functions below are its statements
EVENTS: EventQueueStore[QueuedEvent] = EventQueueStore("match_id", "matches", QueuedEvent, step_of=event_step)
append_events = EVENTS.append
numbered_events = EVENTS.numbered
insert_events = EVENTS.insert
events = EVENTS.events
mark_shown = EVENTS.mark_shown


async def match_ids_with_unshown_events(conn: Connection, games: Iterable[str] | None = None) -> list[int]:
    """Matches (of ``games`` only, if given) with events not shown yet."""
    if games is None:
        return await EVENTS.owners_with_unshown(conn)
    marks = Placeholders(conn)
    where = _games_filter(marks, games, "m.game")
    rows = await all_rows(conn, "SELECT DISTINCT e.match_id FROM match_events AS e JOIN matches AS m"
                            f" ON m.id = e.match_id WHERE e.shown = 0{where} ORDER BY e.match_id", marks.values)
    return [row["match_id"] for row in rows]


# --- claims ----------------------------------------------------------------------------------------------

# A claim is one conditional update: of the processes claiming at once, one changes the row, and the others find it
# claimed (SQLite runs one write at a time; PostgreSQL checks the row the update locked). Parameters, numbered the
# same on both databases: 1 the match, 2 the owner, 3 now, 4 the lease (then the deadline's kind and step).
_CLAIM_DEADLINE = Statement(
    sqlite=(
        "UPDATE matches SET deadline_claimed_by = ?2, deadline_claimed_until = ?3 + ?4 WHERE id = ?1"
        " AND (deadline_claimed_by IS NULL OR deadline_claimed_by = ?2 OR deadline_claimed_until <= ?3)"
        " AND deadline_kind = ?5 AND step = ?6 AND deadline_at <= ?3"
    ),
    postgresql=(
        "UPDATE matches SET deadline_claimed_by = $2, deadline_claimed_until = $3 + $4 WHERE id = $1"
        " AND (deadline_claimed_by IS NULL OR deadline_claimed_by = $2 OR deadline_claimed_until <= $3)"
        " AND deadline_kind = $5 AND step = $6 AND deadline_at <= $3"
    ),
)
_RELEASE_DEADLINE = Statement(
    sqlite=(
        "UPDATE matches SET deadline_claimed_by = NULL, deadline_claimed_until = NULL"
        " WHERE id = ? AND deadline_claimed_by = ?"
    ),
    postgresql=(
        "UPDATE matches SET deadline_claimed_by = NULL, deadline_claimed_until = NULL"
        " WHERE id = $1 AND deadline_claimed_by = $2"
    ),
)
async def claim_deadline(
    conn: Connection, match_id: int, kind: str, step: int, owner: str, now: float, lease: float
) -> bool:
    """Claim the match's deadline of ``kind`` at ``step`` (``matches.step``) for ``owner`` until ``now +
    lease``, if it is due (``deadline_at <= now``) and nobody else holds it (unclaimed, or the claim ran out).
    ``True``: ``owner`` runs it. Claiming again while holding it renews the claim."""
    return await changed_one(conn, _CLAIM_DEADLINE, (match_id, owner, now, lease, kind, step))


async def release_deadline(conn: Connection, match_id: int, owner: str) -> bool:
    """Give up ``owner``'s claim on the match's deadline (it found nothing to do); ``False``: it held none."""
    return await changed_one(conn, _RELEASE_DEADLINE, (match_id, owner))


claim_unshown = EVENTS.claim
release_unshown = EVENTS.release
