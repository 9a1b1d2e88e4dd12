"""The match kernel's plumbing: one transaction per change of a match, the matches kept in memory, and what a
process sharing the database with others does (:class:`MatchWork`, which :class:`~bot.match.kernel.MatchKernel` is
built on), with the vocabulary of what a call changed (:class:`Change`, :class:`MatchUpdate`).

Every method of the kernel that changes a match runs load -> validate -> apply -> persist in ONE transaction
(:meth:`MatchWork._work`), under the match's own ``asyncio.Lock``, and returns once it is committed: a step is stored
before anything shows it.

Memory. Each open match's record and stored state, as last committed, stay in memory (:class:`Cached`): a step
loads nothing, and the panel's clicks, the presenter and the readers ask the database nothing about the match.
Only a committed transaction of the match (under its lock) puts them there; a failed one, or one whose writes were
not read back, forgets them (the next step loads from the database). A finished or cancelled match is forgotten.

Several processes. When the database is shared (:attr:`~bot.storage.port.Storage.shared`: other bot processes play
from it too), the kernel keeps no match in memory (every step loads it), holds every write of a match to the
version it read (the storage refuses a write after another process's: MatchChanged, nothing changed), claims a due
deadline before it runs it (:meth:`~bot.match.kernel.MatchKernel.deadline_due`: one process runs each) and lets a
presenter claim a match's events before it shows them (:meth:`~bot.match.outbox.Outbox.claim_events`), and announces
every change it commits (the game, the match, its server: :meth:`Storage.announce`), so that the process looking
after the match's server (:mod:`bot.cluster`) arms its timer and shows its events. On its own file, one process does
all of it with its locks and memory, and claims cost nothing.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import secrets
import socket
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import orjson

from bot.game import Event, Game
from bot.match import errors
from bot.registry import game_class
from bot.storage import Connection
from bot.storage.errors import VersionConflict
from bot.storage.port import MatchStore, PipelinedConnection, Storage
from bot.storage.records import MatchRecord, QueuedEvent

#: how long a claim on a deadline or on showing a match's events holds (a shared database): past it, another process
#: may take over from a claimant that died
CLAIM_SECONDS = 60


class Change(StrEnum):
    """The vocabulary of :attr:`MatchUpdate.changes`: what a call changed."""

    CHALLENGED = "challenge"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"
    EXPIRED = "expired"
    JOINED = "joined"
    LEFT = "left"
    DRAFT = "draft"
    LOCKED = "locked"
    STEP = "step"
    ONLY = "only"
    AUTO = "auto"
    VOTED = "voted"
    PACE = "pace"
    TIMEOUT = "timeout"
    FORFEIT = "forfeit"
    FINISHED = "finished"
    DEADLINE = "deadline"


class Reason(StrEnum):
    """The reasons the kernel gives: why a challenge or lobby closed (``matches.reason`` of a cancelled match), why a
    game ended when the kernel ended it (``game_over``'s ``reason``), what a seat's timeout logged."""

    DECLINED = "declined"
    WITHDRAWN = "withdrawn"
    EXPIRED = "expired"
    FORFEIT = "forfeit"
    TIMEOUT = "timeout"
    DOUBLE_TIMEOUT = "double_timeout"


@dataclass(frozen=True)
class Announcement:
    """Another process changed a match (:meth:`MatchWork._announcement`): its game's kernel, the match, its server
    and the kernel that changed it (its :attr:`MatchWork.owner`)."""

    game: str
    match_id: int
    guild_id: int | None
    by: str


def read_announcement(payload: str) -> Announcement | None:
    """The announcement in ``payload``; ``None``: not a match's (the channel may carry others)."""
    try:
        data = json.loads(payload)
        return Announcement(str(data["game"]), int(data["match"]),
                            None if data["guild"] is None else int(data["guild"]), str(data["by"]))
    except (ValueError, KeyError, TypeError):
        return None


@dataclass(frozen=True)
class MatchUpdate:
    """What a call changed, committed: the match after it, the events it queued (to show, in order), ``changes``
    (words from the module's vocabulary: challenge, accepted, declined, withdrawn, expired, draft, locked,
    step, only (a seat's only action was played for it), timeout, forfeit, finished, deadline, ...:
    :class:`Change`), the caller's panel for panel calls, and the seats that missed the deadline (``timed_out``) or
    forfeited (``forfeited``)."""

    match: MatchRecord
    events: tuple[QueuedEvent, ...] = ()
    changes: frozenset[str] = frozenset()
    panel: Any = None
    timed_out: tuple[int, ...] = ()
    forfeited: tuple[int, ...] = ()

    @property
    def finished(self) -> bool:
        return Change.FINISHED in self.changes

    @property
    def new_step(self) -> bool:
        """A new step began (Air War: new stacks, a new deadline, fresh panels)."""
        return Change.STEP in self.changes


@dataclass
class Cached:
    """A match as last committed: its record and the engine's state as stored (JSON text, ``None`` before accept).
    ``game``: that state as a game, for reading only (views, panels), made on first use. ``event_seq``: the number
    of its last queued event, once known (the next events are numbered after it without asking the database)."""

    match: MatchRecord
    state: str | None
    game: Game | None = None
    event_seq: int | None = None

    def read_game(self) -> Game | None:
        if self.game is None and self.state is not None:
            self.game = game_class(self.match.game).from_json(orjson.loads(self.state))
        return self.game


@dataclass
class Work:
    """One transaction's changes to one match. ``state``: the engine's state as committed before it (JSON text);
    ``new_state``: the state it stores, if it stores one."""

    conn: Connection
    store: MatchStore[Connection]
    match: MatchRecord
    now: float
    events: list[QueuedEvent] = field(default_factory=list)
    changes: set[str] = field(default_factory=set)
    timed_out: tuple[int, ...] = ()
    forfeited: tuple[int, ...] = ()
    state: str | None = None
    new_state: dict[str, Any] | None = None
    #: the game whose ``to_json()`` is ``new_state`` (:meth:`keep_game`)
    new_game: tuple[Game, dict[str, Any]] | None = None
    cached: Cached | None = None
    event_seq: int | None = None
    #: the match's version as this transaction wrote it so far: each update is held to it and moves it on
    version: int = field(init=False)
    pipelined: bool = field(init=False)

    def __post_init__(self) -> None:
        self.version = self.match.version
        #: the connection sends writes without waiting (asked once: a protocol's isinstance is slow)
        self.pipelined = isinstance(self.conn, PipelinedConnection)

    async def queue(self, events: list[Event]) -> None:
        """Queue events: sent without waiting (:meth:`PipelinedConnection.send`) when the match's last event number
        is known."""
        if not events:
            return
        if self.event_seq is None or not self.pipelined:
            queued = await self.store.append_events(self.conn, self.match.id, events, self.now)
        else:
            queued = self.store.numbered_events(self.match.id, events, after_seq=self.event_seq)
            self.write(self.store.insert_events, queued, self.now)
        self.events += queued
        self.event_seq = queued[-1].seq

    async def update(self, **fields: Any) -> int:
        """Update the match's row; returns the rows changed."""
        self._note_state(fields)
        expected, self.version = self.version, self.version + 1
        return await self.store.update_match(self.conn, self.match.id, self.now, expected_version=expected, **fields)

    def send_update(self, **fields: Any) -> None:
        """:meth:`update` without waiting for it (:meth:`PipelinedConnection.send`): the rows changed are not asked
        for."""
        self._note_state(fields)
        expected, self.version = self.version, self.version + 1
        self.write(self.store.update_match, self.match.id, self.now, expected_version=expected, **fields)

    def write(self, write: Callable[..., Awaitable[Any]], *args: Any, **kwargs: Any) -> None:
        """``write(connection, *args, **kwargs)`` -- one statement of the storage layer -- without waiting for it
        (:meth:`PipelinedConnection.send`)."""
        assert self.pipelined
        self.conn.send(lambda connection: write(connection, *args, **kwargs))

    async def log_action(self, seat: int, step: int, kind: str, action: dict[str, Any]) -> None:
        """Append to the match's action log (sent without waiting when the connection can)."""
        if self.pipelined:
            self.write(self.store.append_action, self.match.id, seat=seat, step=step, kind=kind, action=action,
                       now=self.now)
        else:
            await self.store.append_action(self.conn, self.match.id, seat=seat, step=step, kind=kind, action=action,
                                           now=self.now)

    def keep_game(self, game: Game, state: dict[str, Any]) -> None:
        """``game`` is the one ``state`` (written by this transaction) was made from, and nothing changes it any more:
        once committed, it is the match's game to read (no parsing of the state just written)."""
        self.new_game = (game, state)

    def _note_state(self, fields: dict[str, Any]) -> None:
        if fields.get("state") is not None:
            self.new_state = fields["state"]

    async def reload(self) -> MatchRecord:
        """The match as this transaction has it now."""
        match = await self.store.load_match(self.conn, self.match.id)
        assert match is not None
        self.match = match
        self.version = match.version
        if self.pipelined:
            self.conn.wrote = False  # type: ignore[attr-defined]
        return match

    def mirrored(self, match: MatchRecord) -> None:
        """The caller wrote exactly this change of the match and made the record that shows it: no reload. (Its
        version is the one written, whatever the record it was made from said.)"""
        self.match = match if match.version == self.version else dataclasses.replace(match, version=self.version)
        if self.pipelined:
            self.conn.wrote = False  # type: ignore[attr-defined]

    async def result(self, panel: Any = None) -> MatchUpdate:
        match = self.match
        if not self.pipelined or self.conn.wrote:  # type: ignore[attr-defined]
            match = await self.reload()
        return MatchUpdate(match, tuple(self.events), frozenset(self.changes), panel, self.timed_out, self.forfeited)


class MatchWork:
    """What every change of a match runs in (see the module docstring): the match's lock, its transaction, its record
    in memory, and the claims and announcements of a shared database. ``game`` names the kernel in announcements;
    ``games``: the names it plays."""

    def __init__(self, database: Storage, *, clock: Callable[[], float], game: str, games: tuple[str, ...]) -> None:
        self.game = game
        self.games = games
        self.db = database
        self.store: MatchStore[Connection] = database.matches
        self.clock = clock
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._cache: dict[int, Cached] = {}
        #: match id -> (step, seconds): the timer the step's deadline was set with (the kernel's ``step_delivered``
        #: compares without a transaction)
        self._step_seconds: dict[int, tuple[int, int]] = {}
        #: matches stay in memory only while this process is the database's one user
        self._remembers = not database.shared
        #: this kernel's name in the database's claims (a cluster's process names it after its shards)
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        #: the servers whose matches this process looks after (:mod:`bot.cluster`): resumes, deadlines
        self.owns: Callable[[int | None], bool] = lambda guild_id: True

    def _lock(self, match_id: int) -> asyncio.Lock:
        """The match's lock: every change of the match holds it."""
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    @asynccontextmanager
    async def _work(self, match_id: int, *, one_write: bool = False) -> AsyncIterator[Work]:
        """The match's lock, then one transaction with the match (from memory, else loaded). ``one_write``: the
        block writes one statement at most (:meth:`Storage.statement`: no ``BEGIN``/``COMMIT`` round trips)."""
        async with self._lock(match_id):
            try:
                async with self.db.statement() if one_write else self.db.transaction() as conn:
                    if self.db.shared and not one_write:  # other processes: they wait for this one, and it for them
                        await self.db.lock_match(conn, match_id)
                    cached = self._cache.get(match_id)
                    event_seq = None
                    if cached is None:
                        match, state = await self.store.load_match_and_state(conn, match_id)
                        if match is None:
                            raise errors.MatchNotFound(match_id)
                    else:
                        match, state, event_seq = cached.match, cached.state, cached.event_seq
                    async with self.db.pipelined(conn) as watched:
                        work = Work(watched, self.store, match, self.clock(), state=state, cached=cached,  # type: ignore[arg-type]
                                    event_seq=event_seq)
                        yield work
                    if self.db.shared and (work.events or work.version != match.version):
                        await self.db.announce(conn, self._announcement(work.match))
            except VersionConflict:  # another process wrote the match first: this one saw a stale match
                self._cache.pop(match_id, None)
                raise errors.MatchChanged() from None
            except BaseException:
                self._cache.pop(match_id, None)
                raise
            self._committed(work)

    def _announcement(self, match: MatchRecord) -> str:
        """What tells the match's owner (:mod:`bot.cluster`) that another process changed it: read by
        :func:`read_announcement`."""
        return json.dumps({"game": self.game, "match": match.id, "guild": match.guild_id, "by": self.owner})

    def _committed(self, work: Work) -> None:
        """Keep what ``work`` committed in memory (or forget the match: writes not read back, or it is over)."""
        match_id = work.match.id
        conn = work.conn
        if not work.match.is_open:
            self._step_seconds.pop(match_id, None)
        if (work.pipelined and conn.wrote) or not work.match.is_open or not self._remembers:  # type: ignore[attr-defined]
            self._cache.pop(match_id, None)
            return
        if work.new_state is not None:
            kept = work.new_game
            self._cache[match_id] = Cached(work.match, orjson.dumps(work.new_state).decode(),
                                           game=kept[0] if kept is not None and kept[1] is work.new_state else None,
                                           event_seq=work.event_seq)
        elif work.cached is not None and work.cached.state == work.state:
            work.cached.match = work.match
            work.cached.event_seq = work.event_seq
            self._cache[match_id] = work.cached
        else:
            self._cache[match_id] = Cached(work.match, work.state, event_seq=work.event_seq)

    def _known(self, match_id: int) -> Cached | None:
        """The match as last committed, if it is in memory (read only)."""
        return self._cache.get(match_id) if self._remembers else None

    async def _last_committed(self, match_id: int, conn: Connection | None = None) -> MatchRecord:
        """The match as last committed: from memory when it is there, else one SELECT (on ``conn`` if given)."""
        known = self._known(match_id)
        if known is not None:
            return known.match
        if conn is None:
            async with self.db.statement() as conn:
                match = await self.store.load_match(conn, match_id)
        else:
            match = await self.store.load_match(conn, match_id)
        if match is None:
            raise errors.MatchNotFound(match_id)
        return match

