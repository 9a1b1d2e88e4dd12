"""The outbox: everything the Discord side has to show, matches' and tournaments' alike, in one table
(``match_events``). A row belongs to one owner, a match (``match_id``) or a tournament (``tournament_id``); each
owner's events are numbered from 1 (``seq``) and marked ``shown`` once the Discord side showed them.

:class:`EventQueueStore` is the table's statements for one kind of owner: :data:`bot.storage.matches.EVENTS` (a
match's events, claimed on ``matches``) and :data:`bot.storage.tournaments.EVENTS` (a tournament's channel events,
claimed on ``tournaments``). Events are queued in the transaction of the write that made them; a presenter claims
an owner's unshown events (a database shared by several processes, see :mod:`bot.storage.matches`), shows them in
order, marks each shown, and releases the claim.

Every function takes the connection of a transaction, read or statement block and never commits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import orjson

from bot.storage.sql import Connection, Placeholders, Row, Statement, all_rows, changed_one

Event = TypeVar("Event")
#: makes an owner's record of one event: (owner id, seq, step, type, event, shown)
MakeEvent = Callable[[int, int, "int | None", str, dict[str, Any], bool], Event]


def _dumps(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()


def _statement(column: str, table: str, *, sqlite: str, postgresql: str) -> Statement:
    """A statement of the outbox for one kind of owner: ``{owner}`` is its column in the outbox, ``{owners}`` its
    table (both fixed names, filled in once when the store is made)."""
    return Statement(sqlite=sqlite.format(owner=column, owners=table),
                     postgresql=postgresql.format(owner=column, owners=table))


class EventQueueStore(Generic[Event]):
    """The outbox's statements for one kind of owner: ``column`` names it in the outbox (``match_id``,
    ``tournament_id``), ``table`` holds the owners and their claims (``events_claimed_by``,
    ``events_claimed_until``); ``make`` makes the record of an event, ``step_of`` tags an event with its step.
    ``claim_needs_unshown``: a claim is only taken while the owner has events to show (a tournament's showing also
    brings its messages up to date with nothing queued, so its claim does not ask)."""

    def __init__(self, column: str, table: str, make: MakeEvent[Event], *,
                 step_of: Callable[[Mapping[str, Any]], int | None] = lambda event: None,
                 claim_needs_unshown: bool = True) -> None:
        self.column = column
        self.make = make
        self.step_of = step_of

        def statement(*, sqlite: str, postgresql: str) -> Statement:
            return _statement(column, table, sqlite=sqlite, postgresql=postgresql)

        self._last_seq = statement(
            sqlite="SELECT COALESCE(MAX(seq), 0) AS seq FROM match_events WHERE {owner} = ?",
            postgresql="SELECT COALESCE(MAX(seq), 0) AS seq FROM match_events WHERE {owner} = $1")
        self._insert = statement(
            sqlite="INSERT INTO match_events ({owner}, seq, step, type, event, shown, created_at)"
                   " VALUES (?, ?, ?, ?, ?, 0, ?)",
            postgresql="INSERT INTO match_events ({owner}, seq, step, type, event, shown, created_at)"
                       " VALUES ($1, $2, $3, $4, $5, 0, $6)")
        self._mark_shown = statement(
            sqlite="UPDATE match_events SET shown = 1 WHERE {owner} = ? AND seq <= ? AND shown = 0 RETURNING seq",
            postgresql="UPDATE match_events SET shown = 1 WHERE {owner} = $1 AND seq <= $2 AND shown = 0"
                       " RETURNING seq")
        with_unshown = ("SELECT DISTINCT {owner} AS owner FROM match_events WHERE shown = 0 AND {owner} IS NOT NULL"
                        " ORDER BY 1")  # the same text on both databases
        self._with_unshown = statement(sqlite=with_unshown, postgresql=with_unshown)
        # parameters numbered the same on both databases: 1 the owner, 2 the claimant, 3 now, 4 the lease
        self._claim = statement(
            sqlite="UPDATE {owners} SET events_claimed_by = ?2, events_claimed_until = ?3 + ?4 WHERE id = ?1"
                   " AND (events_claimed_by IS NULL OR events_claimed_by = ?2 OR events_claimed_until <= ?3)"
                   + (" AND EXISTS (SELECT 1 FROM match_events WHERE {owner} = ?1 AND shown = 0)"
                      if claim_needs_unshown else ""),
            postgresql="UPDATE {owners} SET events_claimed_by = $2, events_claimed_until = $3 + $4 WHERE id = $1"
                       " AND (events_claimed_by IS NULL OR events_claimed_by = $2 OR events_claimed_until <= $3)"
                       + (" AND EXISTS (SELECT 1 FROM match_events WHERE {owner} = $1 AND shown = 0)"
                          if claim_needs_unshown else ""))
        self._release = statement(
            sqlite="UPDATE {owners} SET events_claimed_by = NULL, events_claimed_until = NULL"
                   " WHERE id = ? AND events_claimed_by = ?",
            postgresql="UPDATE {owners} SET events_claimed_by = NULL, events_claimed_until = NULL"
                       " WHERE id = $1 AND events_claimed_by = $2")

    def record(self, row: Row) -> Event:
        return self.make(row[self.column], row["seq"], row["step"], row["type"], orjson.loads(row["event"]),
                         bool(row["shown"]))

    # --- queueing (in the transaction of the write that made the events) -------------------------------------
    async def append(self, conn: Connection, owner_id: int, events: Iterable[Mapping[str, Any]],
                     now: float) -> list[Event]:
        """Queue events (not shown yet), numbered after the owner's last one."""
        row = (await all_rows(conn, self._last_seq.on(conn), (owner_id,)))[0]
        queued = self.numbered(owner_id, events, after_seq=row["seq"])
        await self.insert(conn, queued, now)
        return queued

    def numbered(self, owner_id: int, events: Iterable[Mapping[str, Any]], *, after_seq: int) -> list[Event]:
        """Events to queue, numbered after ``after_seq`` (the owner's last event), for :meth:`insert`."""
        return [self.make(owner_id, seq, self.step_of(event), str(event["type"]), dict(event), False)
                for seq, event in enumerate(events, start=after_seq + 1)]

    async def insert(self, conn: Connection, queued: Sequence[Any], now: float) -> None:
        """Queue numbered events (:meth:`numbered`) in one statement."""
        await conn.executemany(
            self._insert.on(conn),
            [(getattr(q, self.column), q.seq, getattr(q, "step", None), q.type, _dumps(q.event), now)
             for q in queued])

    # --- reading and marking -------------------------------------------------------------------------------
    async def events(self, conn: Connection, owner_id: int, *, unshown_only: bool = False,
                     step: int | None = None, after_seq: int = 0) -> list[Event]:
        """The owner's events in order (``unshown_only``: not shown yet; ``step``: of one step; after a seq)."""
        marks = Placeholders(conn)
        sql = (f"SELECT * FROM match_events WHERE {self.column} = {marks(owner_id)} AND seq > {marks(after_seq)}"
               + (" AND shown = 0" if unshown_only else "") + marks.equal_if_given("step", step))
        return [self.record(row) for row in await all_rows(conn, sql + " ORDER BY seq", marks.values)]

    async def unshown(self, conn: Connection, owner_id: int) -> list[Event]:
        return await self.events(conn, owner_id, unshown_only=True)

    async def last_event(self, conn: Connection, owner_id: int, types: Sequence[str]) -> Event | None:
        """The owner's latest event of one of these types (``None``: none)."""
        marks = Placeholders(conn)
        rows = await all_rows(conn, f"SELECT * FROM match_events WHERE {self.column} = {marks(owner_id)}"
                                   f" AND type IN ({marks.each(types)}) ORDER BY seq DESC LIMIT 1", marks.values)
        return self.record(rows[0]) if rows else None

    async def mark_shown(self, conn: Connection, owner_id: int, up_to_seq: int) -> int:
        """Mark every event of the owner up to ``up_to_seq`` (inclusive) shown; returns how many were not yet. One
        statement."""
        return len(await all_rows(conn, self._mark_shown.on(conn), (owner_id, up_to_seq)))

    async def owners_with_unshown(self, conn: Connection) -> list[int]:
        """The owners with events not shown yet."""
        return [row["owner"] for row in await all_rows(conn, self._with_unshown.on(conn))]

    # --- claims (a database shared by several processes) ---------------------------------------------------
    async def claim(self, conn: Connection, owner_id: int, claimant: str, now: float, lease: float) -> bool:
        """Claim the showing of the owner's events for ``claimant`` until ``now + lease``, if nobody else holds
        the claim (unclaimed, or it ran out) and (see the class) it has events to show. ``True``: ``claimant``
        shows them, in order, marking them shown. Claiming again while holding it renews the claim."""
        return await changed_one(conn, self._claim, (owner_id, claimant, now, lease))

    async def release(self, conn: Connection, owner_id: int, claimant: str) -> bool:
        """Give up ``claimant``'s claim on showing the owner's events; ``False``: it held none."""
        return await changed_one(conn, self._release, (owner_id, claimant))
