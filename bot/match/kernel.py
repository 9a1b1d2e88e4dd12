"""The match kernel: challenges, secret choices with drafts and deadlines, forfeits, results, ratings, export.

One :class:`MatchKernel` per game plays it with the game's flow (:class:`~bot.match.flow.Flow`, declared by the
game's package): the flow says what a step is, what a seat's panel holds, what its choices and defaults are, which
steps play themselves and which events show a step; the kernel does the rest the same way for every game: the
challenge or the lobby, the deal, choices and deadlines, auto-played steps, paces and votes, forfeits, the result,
the ratings, the match file.

No Discord here. A cog calls a method, shows what it returns and stores the ids of the messages it sent. Every
method that changes a match runs load -> validate -> apply -> persist in ONE transaction, under the match's own
``asyncio.Lock``, and returns once it is committed: a step is stored before anything shows it. A refused call
raises a :class:`~bot.match.errors.ServiceError` (or the engine's :class:`~bot.errors.GameError`) and changes
nothing.

Events. Everything the Discord side has to show is queued per match (``seq`` from 1): the engine's events (as the
flow tags them), the flow's own (see each game's ``flow`` module) and the kernel's:

* ``challenge``: ``challenger_id``, ``opponent_id``, ``game``, ``rules``, ``arrange_seconds`` (the challenge's
  timer option or ``None``), ``expires_at``;
* ``accepted``: ``user_ids`` (by seat), ``arrange_seconds`` (the timer in force) and the flow's keys;
  ``declined`` / ``withdrawn``: ``by``; ``expired``;
* a lobby's (games for more than two): ``lobby`` {host_id, game, rules, pace, expires_at}; ``joined`` / ``left``
  {user_id, user_ids, expires_at}; ``withdrawn`` when its host cancels it;
* ``vote`` {user_id, pace, on, votes} and ``pace`` {pace, previous, by}: a vote for a faster pace, and the switch
  once every player still in wants one at least that fast (unanimity: nobody's game is sped up against their
  will);
* the flow's timeout event (``arrange_timeout``, ``turn_timeout``): ``engagement``, ``seats`` (who missed the
  deadline), ``user_ids`` (theirs), ``misses`` (per seat, in a row, after this one), ``forfeit`` (seats forfeited
  by this miss), and the flow's own keys;
* ``deadline_moved``: ``engagement``, ``deadline_at`` (the new one), ``reason`` (``bot_away``: the deadline passed
  while the bot was not running, see :meth:`MatchKernel.resume_deadlines`; ``delivery``: the step's panels reached
  their players late, see :meth:`MatchKernel.step_delivered`);
* ``result`` (after ``game_over``): ``winner`` (seat or ``None``), ``winner_id``, ``reason``, ``detail``,
  ``user_ids``, ``outcomes`` (per seat: win/loss/draw), ``ratings`` (per seat: ``before``, ``after``, the
  openskill ordinals, and ``games``: the games on the rating with this one), ``places`` (a game of three or four:
  each seat's finishing place, 1 first, which the ratings were moved by).

The cog shows unshown events in order and calls :meth:`MatchKernel.mark_shown` after each (or each batch):
after a restart it continues with the first unshown one, so nothing is shown twice except, at worst, the one
being shown at the kill (showing re-renders a message from state, so that is harmless).

Deadlines. A challenge expires :data:`CHALLENGE_SECONDS` after it was made, a lobby :data:`LOBBY_IDLE_SECONDS`
after its last join or leave; a step's choices are due
``arrange_seconds`` after it began, plus what the flow adds (Air War: the time the flips take to show), and never
before ``arrange_seconds`` after the step's panels reached their players (:meth:`MatchKernel.step_delivered`). The cog
arms a timer per open match (:class:`~bot.match.timers.Timers`) at ``match.deadline_at`` calling
:meth:`MatchKernel.deadline_due`; after a restart it first moves the step deadlines that passed while the bot was
away (:meth:`MatchKernel.resume_deadlines`: nobody could click, so nobody missed them), then re-arms them from
:meth:`MatchKernel.open_matches`. A choice that arrives after the deadline but before the timer ran is still
accepted. A challenge cannot be accepted after its deadline.

Hidden information. What a seat's panel shows may be derived from public reveals (the flow's ``reveal_events``);
while any of them is still to be shown in public, :meth:`MatchKernel.status` and :meth:`MatchKernel.open_panel`
refuse (StillShowing), and the Discord side shows no later event.

Choices that play themselves. After every engine call (a deal, a choice, a timeout's defaults, a forfeit, an
auto-played step, a pace change) the kernel looks at the seats the step waits for: one with exactly one legal action
(the flow's :meth:`~bot.match.flow.Flow.only_action`) is not asked, the kernel plays the action for it in the same
transaction, logged under the flow's ``only_kind``; when that was the last choice the step waited for, the next
step begins at once and may play itself too (up to :data:`MAX_ONLY_CHOICES` in one call; the game may even end).
Such a seat gets no deadline of its own and its choice no panel; the engine's events show what it played. Each
step's events are tagged with that step. War's flow turns this off (its one action, Flip, is how it is played).

Missed deadlines: a seat without a choice when the step's timeout runs has missed it (misses + 1; a seat that
chooses is back to 0). On a first miss it plays the flow's default; on the second in a row it forfeits
(``game_over`` reason ``timeout``). When every seat reaches two in a row at once, the match ends as a draw
(reason ``double_timeout``).

Memory. Each open match's record and stored state, as last committed, stay in memory (:class:`_Cached`): a step
loads nothing, and the panel's clicks, the presenter and the readers ask the database nothing about the match.
Only a committed transaction of the match (under its lock) puts them there; a failed one, or one whose writes were
not read back, forgets them (the next step loads from the database). A finished or cancelled match is forgotten.

Several processes. When the database is shared (:attr:`~bot.storage.port.Storage.shared`: other bot processes play
from it too), the kernel keeps no match in memory (every step loads it), holds every write of a match to the
version it read (the storage refuses a write after another process's: MatchChanged, nothing changed), claims a due
deadline before it runs it (:meth:`MatchKernel.deadline_due`: one process runs each) and lets a presenter claim a
match's events before it shows them (:meth:`MatchKernel.claim_events`), and announces every change it commits (the
game, the match, its server: :meth:`Storage.announce`), so that the process looking after the match's server
(:mod:`bot.cluster`) arms its timer and shows its events. On its own file, one process does all of it with its
locks and memory, and claims cost nothing.

One open match per player per family: a player in a challenge, a lobby or an active match of a game or any of
its variants (in any server) can neither challenge nor be challenged to any of them; a unique index in the database
backs the check per game.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import math
import os
import random
import secrets
import socket
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import orjson

from bot.errors import InvalidRules
from bot.game import Event, Game
from bot.i18n import N_, Phrase
from bot.match import errors
from bot.match.flow import CHALLENGE_DEADLINE, Flow
from bot.match.ratings import Ratings
from bot.registry import game_class, registry
from bot.storage import Connection
from bot.storage.errors import StorageConflict, VersionConflict
from bot.storage.port import MatchStore, PipelinedConnection, Storage
from bot.storage.records import (
    ChipEntry,
    LeaderboardPage,
    MatchRecord,
    QueuedEvent,
    RatingRecord,
    ResultRecord,
    Status,
    board_message_name,
)
from bot.storage.settings import GuildSettings

CHALLENGE_SECONDS = 300
#: how long a claim on a deadline or on showing a match's events holds (a shared database): past it, another process
#: may take over from a claimant that died
CLAIM_SECONDS = 60
#: a lobby nobody joins or leaves for this long expires
LOBBY_IDLE_SECONDS = 600
DEFAULT_ARRANGE_SECONDS = 120
#: a step's panels reaching their players later than its deadline allows for by up to this many seconds leave the
#: deadline as it is (each move is an event, and every surface showing the deadline is edited again)
DELIVERY_SLACK = 2.0
ARRANGE_SECONDS_RANGE = (30, 600)
#: Discord allows 5 edits per 5 s per channel: a board's flips (one edit each) must not go faster than 1 per second.
FLIP_PACE_MS_RANGE = (1000, 5000)
NOTHING_TO_GIVE_UP = N_("there's nothing to give up")
MISSES_TO_FORFEIT = 2
SECONDS_PER_DAY = 86_400
#: the most choices the kernel plays for seats (each a seat's only legal action) after one engine call: a game may
#: play itself on for many steps, never for ever; past it the seat is asked as usual
MAX_ONLY_CHOICES = 1000

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


#: ``matches.options`` key of a match against the bot: ``{"seat": the bot's seat, "level": its level}``; such a
#: match is unrated and the bot's seat is never counted as busy
OPPONENT_OPTION = "opponent"


@dataclass(frozen=True)
class Announcement:
    """Another process changed a match (:meth:`MatchKernel._announcement`): its game's kernel, the match, its server
    and the kernel that changed it (its :attr:`MatchKernel.owner`)."""

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


def default_seed() -> int:
    """A fresh unpredictable seed that fits SQLite's signed 64-bit integers."""
    return secrets.randbits(63)


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


@dataclass(frozen=True)
class MatchStatus:
    """A game's ``status`` command: the user's open match, seat, the engine's view for that seat (it shows only what
    the seat may see; ``None`` while still a challenge or lobby) and the seat's panel (``None`` then too)."""

    match: MatchRecord
    seat: int
    view: dict[str, Any] | None
    panel: Any




@dataclass
class _Cached:
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
class _Work:
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
    cached: _Cached | None = None
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


class MatchKernel:
    """See the module docstring. ``clock`` gives Unix seconds; ``seed_source`` a game's seed on accept;
    ``draft_rng`` shuffles the panel's "random" order (the player's draft, not the game)."""

    #: the registered game this kernel plays (its variants too: ``games``); ``flow`` is that game's
    game: str
    flow: Flow

    def __init__(
        self,
        database: Storage,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = default_seed,
        draft_rng: random.Random | None = None,
        ratings: Ratings | None = None,
        game: str | None = None,
        games: Sequence[str] | None = None,
    ) -> None:
        """``game``: the registered game this kernel plays with its flow; ``games``: the names it plays (default:
        ``game`` and its registered variants)."""
        if game is None:
            raise TypeError("a match kernel plays a registered game: name it")
        self.game = game
        plugin = registry().entry(self.game).plugin
        if plugin.flow is None:
            raise TypeError(f"{self.game} declares no flow")
        self.flow = plugin.flow()
        #: the paces a match can be played at, slowest first (empty: the game has none)
        self.paces: tuple[str, ...] = plugin.paces
        self.default_pace = plugin.default_pace
        self.games: tuple[str, ...] = tuple(games) if games is not None else registry().family(self.game)
        self.db = database
        self.store: MatchStore[Connection] = database.matches
        self.clock = clock
        self.seed_source = seed_source
        self.draft_rng = draft_rng or random.SystemRandom()
        self.ratings = ratings or Ratings()
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._cache: dict[int, _Cached] = {}
        #: match id -> (step, seconds): the timer the step's deadline was set with (:meth:`step_delivered` compares
        #: without a transaction)
        self._step_seconds: dict[int, tuple[int, int]] = {}
        #: matches stay in memory only while this process is the database's one user
        self._remembers = not database.shared
        #: this kernel's name in the database's claims (a cluster's process names it after its shards)
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        #: the servers whose matches this process looks after (:mod:`bot.cluster`): resumes, deadlines
        self.owns: Callable[[int | None], bool] = lambda guild_id: True

    # --- plumbing ----------------------------------------------------------------------------------------
    @asynccontextmanager
    async def _work(self, match_id: int, *, one_write: bool = False) -> AsyncIterator[_Work]:
        """The match's lock, then one transaction with the match (from memory, else loaded). ``one_write``: the
        block writes one statement at most (:meth:`Storage.statement`: no ``BEGIN``/``COMMIT`` round trips)."""
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        async with lock:
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
                        work = _Work(watched, self.store, match, self.clock(), state=state, cached=cached,  # type: ignore[arg-type]
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

    def _committed(self, work: _Work) -> None:
        """Keep what ``work`` committed in memory (or forget the match: writes not read back, or it is over)."""
        match_id = work.match.id
        conn = work.conn
        if not work.match.is_open:
            self._step_seconds.pop(match_id, None)
        if (work.pipelined and conn.wrote) or not work.match.is_open or not self._remembers:  # type: ignore[attr-defined]
            self._cache.pop(match_id, None)
            return
        if work.new_state is not None:
            self._cache[match_id] = _Cached(work.match, orjson.dumps(work.new_state).decode(),
                                            event_seq=work.event_seq)
        elif work.cached is not None and work.cached.state == work.state:
            work.cached.match = work.match
            work.cached.event_seq = work.event_seq
            self._cache[match_id] = work.cached
        else:
            self._cache[match_id] = _Cached(work.match, work.state, event_seq=work.event_seq)

    def _known(self, match_id: int) -> _Cached | None:
        """The match as last committed, if it is in memory (read only)."""
        return self._cache.get(match_id) if self._remembers else None

    def _step(self, game: Game) -> int:
        """The step a game is at, stored as ``matches.step``."""
        return self.flow.step(game)

    def _family(self, game: str | None = None) -> tuple[str, ...]:
        """The games whose open match keeps a player from another: this kernel's (``game``'s family if named)."""
        return tuple(self.games if game is None or game in self.games else registry().family(game))

    async def _busy(self, conn: Connection, user_id: int, game: str | None = None) -> int | None:
        """The user's open match of the family (any of ``games``; of ``game``'s family if named): it keeps them from
        another."""
        return (await self.store.open_matches_of_users(conn, (user_id,), self._family(game))).get(user_id)

    async def _refuse_busy(self, conn: Connection, challenger_id: int, opponent_id: int, game: str | None = None,
                           *, program: bool = False, sent_ok: bool = False) -> None:
        """Raise AlreadyInMatch when either player (the challenger first) is in an open match of the family: one
        statement for both (``program``: the opponent is the bot, who plays any number of matches; ``sent_ok``: a
        challenge the challenger sent that is still waiting does not count, see :meth:`sent_challenge`)."""
        players = (challenger_id,) if program else (challenger_id, opponent_id)
        busy = await self.store.open_matches_of_users(conn, players, self._family(game))
        sent = busy.get(challenger_id)
        if sent_ok and sent is not None and await self._is_sent_challenge(conn, sent, challenger_id):
            busy = {user_id: match_id for user_id, match_id in busy.items() if match_id != sent}
        for user_id in players:
            if user_id in busy:
                raise errors.AlreadyInMatch(user_id, self._title(game or self.game), you=user_id == challenger_id,
                                            match_id=busy[user_id])

    async def _is_sent_challenge(self, conn: Connection, match_id: int, user_id: int) -> bool:
        """Whether the match is a two-player challenge the user sent that nobody has answered yet."""
        match = await self.store.load_match(conn, match_id)
        return (match is not None and match.status == Status.CHALLENGE and not match.options.get("lobby")
                and match.challenger_id == user_id)

    @staticmethod
    def _title(game: str) -> str:
        return game_class(game).title

    @staticmethod
    def _seat(match: MatchRecord, user_id: int) -> int:
        seat = match.seat_of(user_id)
        if seat is None:
            raise errors.NotYourMatch()
        return seat

    def _check_active(self, match: MatchRecord) -> None:
        if match.status != Status.ACTIVE:
            raise self.flow.not_active(match.status)

    def _check_step(self, match: MatchRecord, step: int) -> None:
        current = self.flow.due_step(match.step)
        if step != current:
            raise self.flow.stale(step, current)

    def _check_still_in(self, game: Game, seat: int, what: str | Phrase) -> None:
        if seat not in self.flow.still_in(game):
            raise errors.AlreadyOut(what)

    async def _game(self, work: _Work) -> Game:
        """The game as committed, the transaction's own to change."""
        if work.state is None:
            raise self.flow.not_active(work.match.status)
        return game_class(work.match.game).from_json(orjson.loads(work.state))

    def _read_game(self, work: _Work) -> Game:
        """The game as committed, to read only (views, panels): shared, never changed."""
        if work.state is None:
            raise errors.MatchNotActive(work.match.status)
        if work.cached is None or work.cached.state != work.state:
            work.cached = _Cached(work.match, work.state)
        game = work.cached.read_game()
        assert game is not None
        return game

    @staticmethod
    def _validate_range(name: str, value: Any, bounds: tuple[int, int], unit: str) -> int:
        low, high = bounds
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise errors.InvalidSetting(N_("The {name} must be a whole number from {low} to {high} {unit}, not "
                                           "{value}."), name=Phrase(name), low=low, high=high, unit=Phrase(unit),
                                        value=value)
        return value

    def _panel(self, match: MatchRecord, game: Game | None, seat: int) -> Any:
        return self.flow.panel(match, game, seat)

    # --- settings and players ----------------------------------------------------------------------------
    async def get_settings(self, guild_id: int) -> GuildSettings:
        async with self.db.statement() as conn:  # one SELECT
            return await self._settings(conn, guild_id)

    async def _settings(self, conn: Connection, guild_id: int) -> GuildSettings:
        """The server's settings in force: a flip pace stored before the minimum was raised counts as the minimum."""
        stored = await self.db.settings.get_settings(conn, guild_id)
        low, high = FLIP_PACE_MS_RANGE
        pace = min(max(stored.flip_pace_ms, low), high)
        return stored if pace == stored.flip_pace_ms else dataclasses.replace(stored, flip_pace_ms=pace)

    async def set_settings(
        self, guild_id: int, *, arrange_seconds: int | None = None, flip_pace_ms: int | None = None
    ) -> GuildSettings:
        """Change the server's arrangement timer (30-600 s) and/or flip pace (1000-5000 ms); returns the settings.
        A running match keeps the timer it started with; the flip pace applies from the next engagement on."""
        if arrange_seconds is not None:
            self._validate_range(N_("arrangement timer"), arrange_seconds, ARRANGE_SECONDS_RANGE, N_("seconds"))
        if flip_pace_ms is not None:
            self._validate_range(N_("flip pace"), flip_pace_ms, FLIP_PACE_MS_RANGE, N_("milliseconds"))
        async with self.db.transaction() as conn:
            current = await self._settings(conn, guild_id)
            new = GuildSettings(
                guild_id,
                current.arrange_seconds if arrange_seconds is None else arrange_seconds,
                current.flip_pace_ms if flip_pace_ms is None else flip_pace_ms,
            )
            await self.db.settings.put_settings(conn, new, self.clock())
        return new

    async def remember_player(self, guild_id: int, user_id: int, display_name: str) -> None:
        """Store the name the leaderboard shows for a player (the newest one wins)."""
        async with self.db.transaction() as conn:
            await self.db.settings.remember_player(conn, guild_id, user_id, display_name, self.clock())

    # --- rules and paces -----------------------------------------------------------------------------------
    def resolve_rules(self, game: str, rules: Mapping[str, Any] | None, players: int = 2) -> dict[str, Any]:
        """The game's rules for ``players`` (filled in for a game played by different numbers), checked the way a
        deal checks them: the engine's InvalidRules for a bad combination; UnsupportedGame for another game."""
        if game not in self.games:
            game_class(game)  # an unknown name: the registry's InvalidRules, naming the games
            raise errors.UnsupportedGame(game, self.games)
        cls = game_class(game)
        given = dict(rules or {})
        if cls.max_players > cls.min_players:
            given["players"] = players
        if not cls.min_players <= players <= cls.max_players:
            raise InvalidRules(N_("{game} is for {low} to {high} players, not {players}"), game=Phrase(cls.title),
                               low=cls.min_players, high=cls.max_players, players=players)
        resolved = cls.resolve_rules(given)
        cls.new(resolved, seed=0)  # the rule checks that need a deal (jokers shared out, a target)
        return resolved

    def playable_counts(self, game: str, rules: Mapping[str, Any] | None) -> list[int]:
        """The numbers of players the rules can be played by (War's ``joker_each`` shares jokers out evenly, its
        ``target`` must be more than a player's starting cards, ...)."""
        cls = game_class(game)
        counts = []
        for players in range(cls.min_players, cls.max_players + 1):
            try:
                self.resolve_rules(game, rules, players)
            except InvalidRules:
                continue
            counts.append(players)
        return counts

    def resolve_lobby_rules(self, game: str, rules: Mapping[str, Any] | None) -> dict[str, Any]:
        """A lobby's rules: checked for the smallest number of players they can be played by; refused with the
        two-player reason when no number of players can play them."""
        counts = self.playable_counts(game, rules)
        return self.resolve_rules(game, rules, counts[0] if counts else game_class(game).min_players)

    def _pace_options(self, pace: str | None) -> dict[str, Any]:
        """A new match's options for its pace (none for a game without paces)."""
        if not self.paces:
            if pace is not None:
                raise errors.InvalidSetting(N_("{game} has no paces to choose from."), game=self._title(self.game))
            return {}
        return {"pace": self._check_pace(pace or self.default_pace or self.paces[0]), "votes": {}}

    def _check_pace(self, pace: str) -> str:
        if pace not in self.paces:
            raise errors.InvalidSetting(N_("The pace must be one of {paces}, not {pace}."), paces=", ".join(self.paces),
                                        pace=repr(pace))
        return pace

    def faster(self, pace: str, than: str) -> bool:
        return self.paces.index(pace) > self.paces.index(than)

    # --- challenges ----------------------------------------------------------------------------------------
    async def sent_challenge(self, user_id: int) -> int | None:
        """The user's open match of the family when it is a two-player challenge they sent that nobody has answered
        yet: it does not keep them from sending another (:meth:`check_player`, :meth:`check_challenge`); the cog
        withdraws it when they do, and :meth:`challenge` and :meth:`open_lobby` still refuse while it is open."""
        async with self.db.statement() as conn:
            busy = await self._busy(conn, user_id)
            return busy if busy is not None and await self._is_sent_challenge(conn, busy, user_id) else None

    async def check_player(self, user_id: int) -> None:
        """Raise AlreadyInMatch when the user is in an open match of the family other than a challenge they sent
        that is still waiting (:meth:`sent_challenge`); the cog asks before it answers."""
        async with self.db.statement() as conn:
            busy = await self._busy(conn, user_id)
            if busy is not None and await self._is_sent_challenge(conn, busy, user_id):
                busy = None
        if busy is not None:
            raise errors.AlreadyInMatch(user_id, self._title(self.game), you=True, match_id=busy)

    async def check_challenge(self, challenger_id: int, opponent_id: int, game: str | None = None) -> None:
        """Raise what :meth:`challenge` would refuse for these two players right now (yourself; either already in
        an open match of the family, but for a challenge the challenger sent that is still waiting:
        :meth:`sent_challenge`), changing nothing: the cog asks before it answers in public. :meth:`challenge`
        checks again (a challenge made in between still refuses there)."""
        if challenger_id == opponent_id:
            raise errors.CannotChallengeSelf()
        async with self.db.statement() as conn:
            await self._refuse_busy(conn, challenger_id, opponent_id, game, sent_ok=True)

    async def challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int,
        *,
        game: str | None = None,
        rules: Mapping[str, Any] | None = None,
        arrange_seconds: int | None = None,
        challenger_name: str | None = None,
        opponent_name: str | None = None,
        options: Mapping[str, Any] | None = None,
        pace: str | None = None,
    ) -> MatchUpdate:
        """A two-player challenge (status ``challenge``, expiring in :data:`CHALLENGE_SECONDS`). ``rules`` are the
        game's rule keys (Air War: ``aces``, ``deck``, ``stack``); ``arrange_seconds`` the match's own timer
        (30-600), else the server's when accepted; ``pace`` one of the game's paces (default: the game's). Refuses:
        yourself, a player (either) already in an open match of the family, bad rules (the engine's InvalidRules), a
        bad timer or pace. Bots and non-members are for the cog to refuse. ``options``: more per-match options
        (``matches.options``)."""
        if challenger_id == opponent_id:
            raise errors.CannotChallengeSelf()
        game = game or self.game
        resolved = self.resolve_rules(game, rules, 2)
        title = self._title(game)
        options = {**dict(options or {}), **self._pace_options(pace)} or None
        program = bool(options and options.get(OPPONENT_OPTION))
        if arrange_seconds is not None:
            self._validate_range(N_("arrangement timer"), arrange_seconds, ARRANGE_SECONDS_RANGE, N_("seconds"))
        async with self.db.transaction() as conn:
            now = self.clock()
            await self._refuse_busy(conn, challenger_id, opponent_id, game, program=program)
            deadline = now + CHALLENGE_SECONDS
            try:
                match_id = await self.store.insert_match(
                    conn, guild_id=guild_id, channel_id=channel_id, game=game, rules=resolved,
                    arrange_seconds=arrange_seconds, user_ids=(challenger_id, opponent_id), deadline_at=deadline,
                    now=now, options=options, program_seats=(1,) if program else (),
                )
            except StorageConflict:  # the one-open-match index: cannot happen past the check above
                raise errors.AlreadyInMatch(opponent_id, title) from None
            match = await self.store.load_match(conn, match_id)
            assert match is not None
            async with self.db.pipelined(conn) as watched:
                work = _Work(watched, self.store, match, now, event_seq=0)  # type: ignore[arg-type]  (a new match: no events yet)
                for user_id, name in ((challenger_id, challenger_name), (opponent_id, opponent_name)):
                    work.write(self.db.settings.remember_player, guild_id, user_id, name, now)
                await work.queue([{
                    "type": "challenge", "challenger_id": challenger_id, "opponent_id": opponent_id, "game": game,
                    "rules": resolved, "arrange_seconds": arrange_seconds, "expires_at": deadline,
                }])
                work.changes |= {Change.CHALLENGED, Change.DEADLINE}
                work.mirrored(match)  # (players and events are not part of the record)
                update = await work.result()
        self._committed(work)  # (the accept and the challenge message's id start from it, not from a read)
        return update

    async def accept(self, match_id: int, user_id: int) -> MatchUpdate:
        """The opponent accepts: the game is dealt from a fresh seed, its first step begins (or it plays itself).
        Events: ``accepted``, then the game's opening events. A lobby is started by its host instead
        (:meth:`start`)."""
        known = self._known(match_id)
        settings = None if known is None else await self.get_settings(known.match.guild_id)
        async with self._work(match_id) as work:
            match = work.match
            seat = match.seat_of(user_id)  # (anyone else is told who can accept)
            if match.options.get("lobby"):
                raise errors.LobbyError(N_("This is a lobby: its host starts the game."))
            if match.status != Status.CHALLENGE:
                raise errors.ChallengeClosed("accepted" if match.status != Status.CANCELLED else match.reason)
            if seat != 1:
                raise errors.WrongPlayer(N_("Only {player} can accept this challenge."), match.opponent_id,
                                         player=f"<@{match.opponent_id}>")
            if match.deadline_at is not None and work.now >= match.deadline_at:
                raise errors.ChallengeClosed("expired")
            return await self._deal(work, settings)

    async def _deal(self, work: _Work, settings: GuildSettings | None) -> MatchUpdate:
        """Deal the match's game from a fresh seed and begin it (an accepted challenge, a started lobby)."""
        match = work.match
        if settings is None:  # (not in memory before: read here)
            settings = await self._settings(work.conn, match.guild_id)
        arrange = match.arrange_seconds or settings.arrange_seconds or DEFAULT_ARRANGE_SECONDS
        seed = self.seed_source()
        rules = dict(match.rules)
        terms = self.flow.chip_terms(rules)
        if terms is not None:  # a game for the server's chips: dealt with each seat's balance
            balances = await self.db.chips.sit_down(
                work.conn, match.guild_id, match.user_ids, stake=terms.stake, daily_topup=terms.daily_topup,
                day=int(work.now // SECONDS_PER_DAY), now=work.now)
            rules = self.flow.with_balances(rules, balances)
        game = game_class(match.game).new(rules, seed=seed)
        started = {"status": Status.ACTIVE, "seed": seed, "arrange_seconds": arrange, "started_at": work.now,
                   "step": self._step(game), "deadline_at": None, "deadline_kind": None, "rules": rules}
        work.send_update(**started, state=game.to_json())
        work.mirrored(dataclasses.replace(match, **started, updated_at=work.now))
        await work.queue([self.flow.accepted_event(work.match, {
            "type": "accepted", "user_ids": list(match.user_ids), "arrange_seconds": arrange})])
        work.changes |= {Change.ACCEPTED}
        await self._after_play(work, game, list(game.opening_events), previous_step=0, settings=settings,
                               started=True)
        return await work.result()

    # --- lobbies ---------------------------------------------------------------------------------------------
    async def open_lobby(self, guild_id: int, channel_id: int, host_id: int, *, game: str | None = None,
                         rules: Mapping[str, Any] | None = None, pace: str | None = None,
                         host_name: str | None = None, bot: Mapping[str, Any] | None = None) -> MatchUpdate:
        """A lobby (a match in status ``challenge`` with the host in seat 0) others join until the host starts it;
        it expires after :data:`LOBBY_IDLE_SECONDS` without a join or leave. Refuses a busy host, bad rules.
        ``bot`` (``{"id", "name", "level"}``): the bot takes seat 1 and plays it at that level (the game's
        results are unrated, like every match against the bot)."""
        game = game or self.game
        options = {**self._pace_options(pace), "lobby": True, "host": host_id}
        if bot is not None:
            options[OPPONENT_OPTION] = {"seat": 1, "level": bot["level"]}
        resolved = self.resolve_lobby_rules(game, rules)
        title = self._title(game)
        async with self.db.transaction() as conn:
            now = self.clock()
            busy = await self._busy(conn, host_id)
            if busy is not None:
                raise errors.AlreadyInMatch(host_id, title, you=True, match_id=busy)
            deadline = now + LOBBY_IDLE_SECONDS
            try:
                match_id = await self.store.insert_match(
                    conn, guild_id=guild_id, channel_id=channel_id, game=game, rules=resolved, arrange_seconds=None,
                    user_ids=(host_id,) if bot is None else (host_id, int(bot["id"])), deadline_at=deadline, now=now,
                    options=options, program_seats=() if bot is None else (1,),
                )
            except StorageConflict:
                raise errors.AlreadyInMatch(host_id, title, you=True) from None
            await self.db.settings.remember_player(conn, guild_id, host_id, host_name, now)
            if bot is not None:
                await self.db.settings.remember_player(conn, guild_id, int(bot["id"]), bot.get("name"), now)
            match = await self.store.load_match(conn, match_id)
            assert match is not None
            work = _Work(conn, self.store, match, now)
            await work.queue([{"type": "lobby", "host_id": host_id, "game": game, "rules": resolved,
                               "pace": options.get("pace"), "expires_at": deadline}])
            work.changes |= {Change.CHALLENGED, Change.DEADLINE}
            return await work.result()

    @staticmethod
    def _check_lobby_open(match: MatchRecord, now: float) -> None:
        if not match.options.get("lobby"):
            raise errors.LobbyError(N_("This isn't a lobby."))
        if match.status != Status.CHALLENGE:
            raise errors.LobbyError(N_("This lobby is closed: the game has started.")
                                    if match.status != Status.CANCELLED else N_("This lobby is closed."))
        if match.deadline_at is not None and now >= match.deadline_at:
            raise errors.LobbyError(N_("This lobby has expired."))

    def _check_host(self, work: _Work, user_id: int, refusal: str) -> None:
        """Refuse a host's action (start, cancel: ``refusal`` says who can, with ``{host}``) unless the lobby is open
        and ``user_id`` is its host (anyone else, in the lobby or not, is told who can)."""
        match = work.match
        self._check_lobby_open(match, work.now)
        if match.seat_of(user_id) != 0:
            raise errors.LobbyError(refusal, host=f"<@{match.challenger_id}>")

    async def join(self, match_id: int, user_id: int, name: str | None = None) -> MatchUpdate:
        """Take a seat in the lobby. Refuses: a closed or full lobby, a player in it already or busy elsewhere."""
        async with self._work(match_id) as work:
            match = work.match
            self._check_lobby_open(match, work.now)
            if match.seat_of(user_id) is not None:
                raise errors.LobbyError(N_("You're in this lobby already."))
            cls = game_class(match.game)
            if len(match.seats) >= cls.max_players:
                raise errors.LobbyError(N_("This lobby is full: {game} is for at most {count} players."),
                                        game=cls.title, count=cls.max_players)
            counts = self.playable_counts(match.game, match.rules)
            if counts and max(counts) <= len(match.seats):
                raise errors.LobbyError(N_("This lobby is full: its rules can be played by at most {count} players."),
                                        count=max(counts))
            busy = await self._busy(work.conn, user_id)
            if busy is not None:
                raise errors.AlreadyInMatch(user_id, cls.title, you=True, match_id=busy)
            await self.store.add_seat(work.conn, match_id, user_id)
            await self.db.settings.remember_player(work.conn, match.guild_id, user_id, name, work.now)
            return await self._lobby_changed(work, {"type": "joined", "user_id": user_id}, Change.JOINED)

    async def leave(self, match_id: int, user_id: int) -> MatchUpdate:
        """Give up a seat in the lobby (the host cancels it instead)."""
        async with self._work(match_id) as work:
            match = work.match
            seat = match.seat_of(user_id)
            self._check_lobby_open(match, work.now)
            if seat is None:
                raise errors.LobbyError(N_("You haven't joined, so there is nothing to leave."))
            if seat == 0:
                raise errors.LobbyError(self.flow.host_leaves)
            await self.store.remove_seat(work.conn, match_id, user_id)
            return await self._lobby_changed(work, {"type": "left", "user_id": user_id}, Change.LEFT)

    async def _lobby_changed(self, work: _Work, event: Event, change: str) -> MatchUpdate:
        deadline = work.now + LOBBY_IDLE_SECONDS
        await work.update(deadline_at=deadline, deadline_kind=CHALLENGE_DEADLINE)
        match = await work.reload()
        await work.queue([{**event, "user_ids": list(match.user_ids), "expires_at": deadline}])
        work.changes |= {change, Change.DEADLINE}
        return await work.result()

    async def cancel_lobby(self, match_id: int, user_id: int) -> MatchUpdate:
        """The host closes the lobby (cancelled, reason ``withdrawn``)."""
        async with self._work(match_id) as work:
            self._check_host(work, user_id, self.flow.host_cancels)
            return await self._cancel(work, Reason.WITHDRAWN, {"by": user_id})

    async def start(self, match_id: int, user_id: int) -> MatchUpdate:
        """The host starts the lobby's game with the players in it (at least the game's fewest: two, or one at a
        table against the house): dealt from a fresh seed, the rules' ``players`` set to them. Events:
        ``accepted``, then what the game starts with."""
        async with self._work(match_id) as work:
            match = work.match
            self._check_host(work, user_id, self.flow.host_starts)
            if len(match.seats) < game_class(match.game).min_players:
                raise errors.LobbyError(N_("At least one more player has to join before the game can start."))
            counts = self.playable_counts(match.game, match.rules)
            if len(match.seats) not in counts:
                why: Any = Phrase(N_("they can't"))
                try:
                    self.resolve_rules(match.game, match.rules, len(match.seats))
                except InvalidRules as error:
                    why = Phrase(error.template, **error.params)
                raise errors.LobbyError(
                    N_("This lobby's rules can't be played by {players} players ({why}). They can be played by "
                       "{counts} players: wait for someone to join or ask someone to leave."),
                    players=len(match.seats), why=why, counts=Phrase(N_("{items} or {last}"),
                                                                     items=", ".join(map(str, counts[:-1])),
                                                                     last=counts[-1])
                    if len(counts) > 1 else str(counts[0]) if counts else "?")
            await work.update(rules=self.resolve_rules(match.game, match.rules, len(match.seats)))
            await work.reload()
            return await self._deal(work, None)

    async def decline(self, match_id: int, user_id: int) -> MatchUpdate:
        """The opponent declines the challenge (cancelled, reason ``declined``)."""
        return await self._close_challenge(match_id, user_id, seat_allowed=1, reason=Reason.DECLINED)

    async def withdraw(self, match_id: int, user_id: int) -> MatchUpdate:
        """The challenger withdraws the challenge (cancelled, reason ``withdrawn``)."""
        return await self._close_challenge(match_id, user_id, seat_allowed=0, reason=Reason.WITHDRAWN)

    async def _close_challenge(self, match_id: int, user_id: int, *, seat_allowed: int,
                               reason: Reason) -> MatchUpdate:
        async with self._work(match_id) as work:
            match = work.match
            seat = match.seat_of(user_id)  # (anyone else is told who can)
            if match.status != Status.CHALLENGE:
                raise errors.ChallengeClosed("accepted" if match.status != Status.CANCELLED else match.reason)
            if seat != seat_allowed:
                allowed = match.seats[seat_allowed].user_id
                refusal = (N_("Only {player} can decline this challenge.") if reason == Reason.DECLINED
                           else N_("Only {player} can withdraw this challenge."))
                raise errors.WrongPlayer(refusal, allowed, player=f"<@{allowed}>")
            return await self._cancel(work, reason, {"by": user_id})

    async def expire(self, match_id: int) -> MatchUpdate | None:
        """Cancel the challenge (reason ``expired``) if it is still open and its deadline has passed; otherwise
        ``None`` (so a timer firing twice, early or after an accept does nothing)."""
        async with self._work(match_id) as work:
            match = work.match
            if match.status != Status.CHALLENGE or match.deadline_at is None or work.now < match.deadline_at:
                return None
            return await self._cancel(work, Reason.EXPIRED, {})

    @staticmethod
    async def _cancel(work: _Work, reason: Reason, keys: dict[str, Any]) -> MatchUpdate:
        """Close the challenge or lobby (cancelled, ``reason``); its event is ``reason`` with ``keys``."""
        await work.update(status=Status.CANCELLED, reason=reason, deadline_at=None, deadline_kind=None)
        await work.queue([{"type": reason, **keys}])
        work.changes |= {Change(reason), Change.DEADLINE}
        return await work.result()

    async def deadline_due(self, match_id: int) -> MatchUpdate | None:
        """A timer's callback: run whatever deadline of the match has passed (expire the challenge or lobby, the
        step's timeout, or play the auto-played step); ``None`` when nothing is due (finished, early, done
        already)."""
        async with self.db.statement() as conn:  # one SELECT (and, shared, one claim)
            match = await self.store.load_match(conn, match_id)
            if match is None or match.deadline_kind is None:
                return None
            if self.db.shared and not await self.store.claim_deadline(
                    conn, match_id, match.deadline_kind, match.step, self.owner, self.clock(), CLAIM_SECONDS):
                return None  # another process runs it (or it is not due)
        update = await self._run_deadline(match)
        if update is None and self.db.shared:
            async with self.db.statement() as conn:
                await self.store.release_deadline(conn, match_id, self.owner)
        return update

    async def _run_deadline(self, match: MatchRecord) -> MatchUpdate | None:
        if match.deadline_kind == CHALLENGE_DEADLINE:
            return await self.expire(match.id)
        if match.deadline_kind == self.flow.deadline_kind:
            return await self.step_timeout(match.id, self.flow.due_step(match.step))
        if match.deadline_kind == self.flow.auto_deadline_kind:
            return await self.auto_step(match.id, self.flow.due_step(match.step))
        return None

    async def resume_deadlines(self) -> list[MatchUpdate]:
        """After the bot was away (a start): a step's deadline that passed meanwhile was not the players' fault
        (nobody could click), so it moves to now + the match's timer. Event ``deadline_moved``: ``engagement``,
        ``deadline_at``, ``reason`` (``bot_away``). A challenge that expired meanwhile just expires. Call it before
        the timers are armed again; returns the updates (one per moved deadline)."""
        async with self.db.read() as conn:
            open_ids = await self.store.open_match_ids(conn, self.games)
            overdue = [match.id for match in await self.store.load_matches(conn, open_ids)
                       if self.owns(match.guild_id) and match.status == Status.ACTIVE
                       and match.deadline_kind == self.flow.deadline_kind
                       and match.deadline_at is not None and match.deadline_at <= self.clock()]
        updates = []
        for match_id in overdue:
            update = await self._move_deadline(match_id)
            if update is not None:
                updates.append(update)
        return updates

    async def _move_deadline(self, match_id: int) -> MatchUpdate | None:
        async with self._work(match_id) as work:
            match = work.match
            if (match.status != Status.ACTIVE or match.deadline_kind != self.flow.deadline_kind
                    or match.deadline_at is None or match.deadline_at > work.now):
                return None
            settings = await self._settings(work.conn, match.guild_id)
            deadline = work.now + (match.arrange_seconds or settings.arrange_seconds)
            await work.update(deadline_at=deadline)
            step = self.flow.due_step(match.step)
            await work.queue([{"type": "deadline_moved", **self.flow.step_keys(step), "engagement": step,
                               "deadline_at": deadline, "reason": "bot_away"}])
            work.changes.add(Change.DEADLINE)
            return await work.result()

    async def step_delivered(self, match_id: int, step: int, at: float) -> MatchUpdate | None:
        """The step's choices reached their players at ``at`` (the last of their panels was delivered: a DM sent or
        edited, or the public board with its button posted): a player's time starts when they can act, so the
        step's deadline becomes at least ``at`` + the match's timer. Moved by more than
        :data:`DELIVERY_SLACK`: event ``deadline_moved`` (``reason`` ``delivery``); else, or when the step is
        over, nothing changes and ``None`` is returned (most calls decide that from memory, without a
        transaction)."""
        known = self._known(match_id)
        timer = self._step_seconds.get(match_id)
        if known is not None and timer is not None and timer[0] == step:
            deadline = self._delivered_deadline(known.match, step, at + timer[1])
            if deadline is None:
                return None
        async with self._work(match_id) as work:
            match = work.match
            seconds = match.arrange_seconds or (await self._settings(work.conn, match.guild_id)).arrange_seconds
            deadline = self._delivered_deadline(match, step, at + seconds)
            if deadline is None:
                return None
            await work.update(deadline_at=deadline)
            await work.queue([{"type": "deadline_moved", **self.flow.step_keys(step), "engagement": step,
                               "deadline_at": deadline, "reason": "delivery"}])
            work.changes.add(Change.DEADLINE)
            return await work.result()

    def _delivered_deadline(self, match: MatchRecord, step: int, deadline: float) -> float | None:
        """``deadline`` when it moves the step's choice deadline on by more than :data:`DELIVERY_SLACK`, else
        ``None`` (the step is over, or its deadline allows for the delivery already)."""
        if (match.status != Status.ACTIVE or match.deadline_kind != self.flow.deadline_kind
                or self.flow.due_step(match.step) != step or match.deadline_at is None
                or deadline <= match.deadline_at + DELIVERY_SLACK):
            return None
        return deadline

    # --- the panel ---------------------------------------------------------------------------------------
    async def panel(self, match_id: int, user_id: int) -> Any:
        """The user's panel as it stands (to render a DM again after a restart)."""
        known = self._known(match_id)
        if known is not None:
            return self._panel(known.match, known.read_game(), self._seat(known.match, user_id))
        async with self.db.read() as conn:
            match = await self.store.load_match(conn, match_id)
            if match is None:
                raise errors.MatchNotFound(match_id)
            seat = self._seat(match, user_id)
            state = await self.store.load_state(conn, match_id)
        game = None if state is None else game_class(match.game).from_json(state)
        return self._panel(match, game, seat)

    async def panel_for(self, match_id: int, user_id: int, step: int) -> Any:
        """The user's panel of ``step``, what its message may show now: while the step is played, the panel as it
        stands (:meth:`panel`); once it is over, as it ended for the seat (the flow's ``ended_panel``)."""
        known = self._known(match_id)
        if known is not None and known.match.status == Status.ACTIVE and step == known.match.step:
            return self._panel(known.match, known.read_game(), self._seat(known.match, user_id))
        # statement by statement: the match and its state in one, then (for a step that is over) the action log,
        # which only grows: a lock-in landing in between adds actions of later steps, which the flow leaves out
        async with self.db.statement() as conn:
            match, state_text = await self.store.load_match_and_state(conn, match_id)
            if match is None:
                raise errors.MatchNotFound(match_id)
            seat = self._seat(match, user_id)
            current = match.status == Status.ACTIVE and step == match.step
            log = [] if current or state_text is None else await self.store.actions(conn, match_id)
        if state_text is None or match.seed is None:
            raise errors.MatchNotActive(match.status)
        if current:
            return self._panel(match, game_class(match.game).from_json(orjson.loads(state_text)), seat)
        if not 1 <= step <= match.step:
            raise self.flow.stale(step, match.step)
        return self.flow.ended_panel(match, seat, user_id, step, log)

    async def open_panel(self, match_id: int, user_id: int, step: int) -> Any:
        """"Open my panel" (a player whose DMs are closed): the user's panel of the step being played. Refuses a
        match not being played (MatchNotActive), a button of a step that is over (the flow's stale refusal) and,
        while events that reveal what the panel shows are still to be shown, everything (StillShowing)."""
        async with self.db.read() as conn:
            match, seat = await self._active_seat(conn, match_id, user_id)
            self._check_step(match, step)
            await self._check_shown(conn, match)
            state = await self.store.load_state(conn, match_id)
        game = None if state is None else game_class(match.game).from_json(state)
        return self._panel(match, game, seat)

    async def _active_seat(self, conn: Connection, match_id: int, user_id: int) -> tuple[MatchRecord, int]:
        """The match, stored, and the user's seat in it; refuses a match that is not there, not theirs or not being
        played."""
        match = await self.store.load_match(conn, match_id)
        if match is None:
            raise errors.MatchNotFound(match_id)
        seat = self._seat(match, user_id)
        self._check_active(match)
        return match, seat

    async def _check_shown(self, conn: Connection, match: MatchRecord) -> None:
        """The one rule for what is private to a player but derived from public reveals (Air War's next stacks and
        the decks' known bottoms): it is not shown while any reveal of the match is still to be shown in public."""
        if not self.flow.reveal_events:
            return
        reveal = next((q for q in await self.store.events(conn, match.id, unshown_only=True)
                       if q.type in self.flow.reveal_events), None)
        if reveal is not None:
            raise errors.StillShowing(reveal.step or match.step, match.play_channel_id)

    # --- drafts and choices ----------------------------------------------------------------------------
    async def _draft(
        self, match_id: int, user_id: int, step: int, change: Callable[[list[str], list[str]], list[str]]
    ) -> MatchUpdate:
        async with self._work(match_id, one_write=True) as work:
            match = work.match
            seat = self._seat(match, user_id)
            self._check_active(match)
            self._check_step(match, step)
            game = self._read_game(work)
            panel = self._panel(match, game, seat)
            items, draft = self.flow.draft_items(panel)
            if self.flow.locked(panel):
                raise self.flow.already_chosen(step)
            new_draft = change(items, draft)
            if new_draft != draft:
                await self.store.update_seat(work.conn, match.id, seat, draft=new_draft)
                work.changes.add(Change.DRAFT)
                work.mirrored(match.with_seat(seat, draft=tuple(new_draft)))
            return await work.result(self._panel(work.match, game, seat))

    async def tap(self, match_id: int, user_id: int, step: int, item: str) -> MatchUpdate:
        """Place ``item`` (one of the draft's items not placed yet) next in the order."""

        def change(items: list[str], draft: list[str]) -> list[str]:
            remaining = list(items)
            for placed in draft:
                remaining.remove(placed)
            if item not in remaining:
                if item in items:
                    raise self.flow.draft_error(Phrase(N_("{item} is already placed."),
                                                       item=self.flow.item_label(item)))
                raise self.flow.draft_error(self.flow.not_yours(self.flow.item_label(item)))
            return [*draft, item]

        return await self._draft(match_id, user_id, step, change)

    async def undo(self, match_id: int, user_id: int, step: int) -> MatchUpdate:
        """Take back the last item placed (nothing to undo: no change)."""
        return await self._draft(match_id, user_id, step, lambda items, draft: draft[:-1])

    async def reset(self, match_id: int, user_id: int, step: int) -> MatchUpdate:
        """Take back every item placed."""
        return await self._draft(match_id, user_id, step, lambda items, draft: [])

    async def random_order(self, match_id: int, user_id: int, step: int) -> MatchUpdate:
        """Place every item in a random order (still to confirm)."""

        def change(items: list[str], draft: list[str]) -> list[str]:
            order = list(items)
            self.draft_rng.shuffle(order)
            return order

        return await self._draft(match_id, user_id, step, change)

    async def as_drawn(self, match_id: int, user_id: int, step: int) -> MatchUpdate:
        """Place every item in the order it was drawn or dealt (still to confirm)."""
        return await self._draft(match_id, user_id, step, lambda items, draft: list(items))

    async def confirm(self, match_id: int, user_id: int, step: int) -> MatchUpdate:
        """Lock in the draft as the seat's choice of the step (the flow refuses an incomplete one). Events: the
        engine's (Air War: ``order_locked``; when it was the last choice, the step is played and the next begins,
        or the game ends with ``result``). A second confirm raises the flow's already-chosen refusal (or its stale
        one once the step was played)."""
        return await self._choose(match_id, user_id, step, self.flow.lock_draft, picking=False)

    async def pick(self, match_id: int, user_id: int, step: int, item: str) -> MatchUpdate:
        """Lock in ``item`` at once as the seat's choice of the step (Army's fighting card)."""
        return await self._choose(match_id, user_id, step, lambda panel: self.flow.pick(panel, item), picking=True)

    async def choose(self, match_id: int, user_id: int, step: int, action: dict[str, Any]) -> MatchUpdate:
        """Lock in an engine action as the seat's choice of the step, as it is (no draft): what a program playing
        a seat sends. The engine refuses an illegal one (a GameError, nothing changed); logged under the flow's
        kind for it."""
        return await self._choose(match_id, user_id, step, lambda panel: (action, self.flow.kind_of(action)),
                                  picking=None)

    async def _choose(self, match_id: int, user_id: int, step: int,
                      choice: Callable[[Any], tuple[dict[str, Any], str]], *, picking: bool | None) -> MatchUpdate:
        """``picking``: the phase check the flow makes (``None``: none, the engine checks the action)."""
        settings = await self._settings_if_last(match_id, user_id)
        async with self._work(match_id) as work:
            match = work.match
            seat = self._seat(match, user_id)
            self._check_active(match)
            self.flow.check_choosing(match)
            self._check_step(match, step)
            game = await self._game(work)
            panel = self._panel(match, game, seat)
            if picking is not None:
                self.flow.check_phase(panel, picking=picking)
            if self.flow.locked(panel):
                raise self.flow.already_chosen(step)
            action, kind = choice(panel)
            events = game.apply(seat, action)
            work.write(self.store.append_action, match.id, seat=seat, step=match.step, kind=kind,
                       action=action, now=work.now)
            if match.seats[seat].misses:
                work.write(self.store.update_seat, match.id, seat, misses=0)
                match = match.with_seat(seat, misses=0)
            work.mirrored(match)  # (the action log is not part of the record)
            work.changes.add(Change.LOCKED)
            await self._after_play(work, game, events, previous_step=match.step, settings=settings)
            return await work.result(self._panel(work.match, game, seat))

    async def _settings_if_last(self, match_id: int, user_id: int) -> GuildSettings | None:
        """The server's settings, read before a lock-in's transaction when the match in memory says it is the last
        choice the step waits for (the next step's deadline needs them): the transaction then holds the database
        one round trip shorter. ``None``: the transaction reads them if it needs them."""
        known = self._known(match_id)
        game = None if known is None else known.read_game()
        if known is None or game is None:
            return None
        seat = known.match.seat_of(user_id)
        if seat is None or any(other != seat for other in self.flow.waiting_for(game)):
            return None
        return await self.get_settings(known.match.guild_id)

    # --- timeouts, auto-played steps, votes ------------------------------------------------------------------
    async def step_timeout(self, match_id: int, step: int) -> MatchUpdate | None:
        """The deadline of ``step``: only if the match is still at that step and the deadline has passed (else
        ``None``; idempotent). Seats without a choice missed it: they get the flow's default, or, on a second miss
        in a row, forfeit (everyone still in at once: a draw)."""
        async with self._work(match_id) as work:
            match = work.match
            if (match.status != Status.ACTIVE or match.deadline_kind != self.flow.deadline_kind
                    or self.flow.due_step(match.step) != step or match.deadline_at is None
                    or work.now < match.deadline_at):
                return None
            game = await self._game(work)
            waiting = self.flow.waiting_for(game)
            if not waiting:
                return None
            # a seat whose only action is still to play (the step played on as far as MAX_ONLY_CHOICES let it, or the
            # match was stored before the kernel played those) missed nothing: it plays it now, with the step
            missed = [seat for seat in waiting if not self._plays_itself(game, seat)]
            if not missed:
                await self._after_play(work, game, [], previous_step=match.step, restart=True)
                return await work.result()
            misses = [seat.misses + (1 if seat.seat in missed else 0) for seat in match.seats]
            forfeit = [seat for seat in missed if misses[seat] >= MISSES_TO_FORFEIT]
            everyone = sorted(forfeit) == self.flow.still_in(game)
            for seat in missed:
                await self.store.update_seat(work.conn, match.id, seat, misses=misses[seat])
            events: list[Event] = []
            if everyone:
                events = self.flow.double_timeout(game, Reason.DOUBLE_TIMEOUT)
            for seat in forfeit:
                if not everyone and not game.is_over:
                    events += game.forfeit(seat, reason=Reason.TIMEOUT)
                await self.store.append_action(work.conn, match.id, seat=seat, step=match.step,
                                          kind=Reason.TIMEOUT, action={"type": Reason.TIMEOUT}, now=work.now)
            waiting = [] if game.is_over else self.flow.waiting_for(game)
            defaulted = [seat for seat in missed if seat not in forfeit and seat in waiting]
            # (the flow words the event from the step as it was missed: before the defaults play it)
            await work.queue([self.flow.timeout_event(game, {
                "type": self.flow.timeout_event_type, **self.flow.step_keys(step), "engagement": step,
                "seats": missed, "user_ids": [match.seats[seat].user_id for seat in missed], "misses": misses,
                "forfeit": forfeit,
            }, defaulted)])
            for seat in defaulted:
                if not game.is_over:
                    action, kind = self.flow.default(game, seat)
                    events += game.apply(seat, action)
                    await self.store.append_action(work.conn, match.id, seat=seat, step=match.step,
                                              kind=kind, action=action, now=work.now)
            work.changes.add(Change.TIMEOUT)
            work.timed_out = tuple(missed)
            if forfeit:
                work.changes.add(Change.FORFEIT)
                work.forfeited = tuple(forfeit)
            await work.reload()
            await self._after_play(work, game, events, previous_step=match.step, restart=True)
            return await work.result()

    async def auto_step(self, match_id: int, step: int) -> MatchUpdate | None:
        """Play ``step`` for everyone (its auto deadline is due; War's auto pace). ``None`` when that step is not
        the one due (played already, another pace, over): a timer firing twice does nothing."""
        async with self._work(match_id) as work:
            match = work.match
            if (not self.flow.auto_deadline_kind or match.status != Status.ACTIVE
                    or match.deadline_kind != self.flow.auto_deadline_kind
                    or self.flow.due_step(match.step) != step):
                return None
            game = await self._game(work)
            kind = self.flow.auto_kind
            work.write(self.store.append_action, match.id, seat=0, step=match.step, kind=kind,
                       action={"type": kind}, now=work.now)
            events = self.flow.play_auto(game)
            work.changes.add(Change.AUTO)
            await self._after_play(work, game, events, previous_step=match.step)
            return await work.result()

    async def vote(self, match_id: int, user_id: int, pace: str) -> MatchUpdate:
        """Toggle the user's vote to speed the match up to ``pace``. Once every player still in wants a pace at
        least that fast, the match switches to the fastest pace they all want (``pace`` event); the flow then says
        what the new pace starts with (War's instant: the game is played out now)."""
        self._check_pace(pace)
        async with self._work(match_id) as work:
            match = work.match
            seat = self._seat(match, user_id)
            self._check_active(match)
            current = match.options.get("pace", self.default_pace)
            if not self.faster(pace, current):
                raise errors.VoteError(N_("The game is at the {pace} pace already; vote for a faster one."),
                                       pace=self.flow.pace_words(current))
            game = await self._game(work)
            voters_in = self.flow.still_in(game)
            self._check_still_in(game, seat, Phrase(N_("only the players still in vote on the pace")))
            options = dict(match.options)
            votes = {key: list(value) for key, value in options.get("votes", {}).items()}
            mine = votes.setdefault(pace, [])
            on = user_id not in mine
            if on:
                mine.append(user_id)
            else:
                mine.remove(user_id)
            options["votes"] = {key: value for key, value in votes.items() if value}
            step_keys = self.flow.step_keys(match.step)
            await work.queue([{"type": "vote", **step_keys, "user_id": user_id, "pace": pace, "on": on,
                               "votes": options["votes"]}])
            work.changes.add(Change.VOTED)
            voters = [match.seats[s].user_id for s in voters_in]
            chosen = None
            for target in reversed(self.paces):
                if not self.faster(target, current):
                    break
                agreed = {uid for p in self.paces if not self.faster(target, p) for uid in votes.get(p, [])}
                if all(uid in agreed for uid in voters):
                    chosen = target
                    break
            if chosen is None:
                await work.update(options=options)
                await work.reload()
                return await work.result()
            options["pace"] = chosen
            options["votes"] = {}
            await work.queue([{"type": "pace", **step_keys, "pace": chosen, "previous": current, "by": "vote"}])
            work.changes.add(Change.PACE)
            await self.store.reset_misses(work.conn, match.id)
            await work.reload()
            await self._after_play(work, game, [], previous_step=match.step, options=options,
                                   restart=True)
            return await work.result()

    # --- forfeits ----------------------------------------------------------------------------------------------
    async def forfeit(self, match_id: int, user_id: int) -> MatchUpdate:
        """The user gives up the active match: out of the game (two players: the other wins, ``game_over`` reason
        ``forfeit``; more: the others play on). Refuses a player out already (AlreadyOut)."""
        async with self._work(match_id) as work:
            match = work.match
            seat = self._seat(match, user_id)
            self._check_active(match)
            game = await self._game(work)
            self._check_still_in(game, seat, Phrase(NOTHING_TO_GIVE_UP))
            events = game.forfeit(seat, reason=Reason.FORFEIT)
            await self.store.append_action(
                work.conn, match.id, seat=seat, step=match.step, kind=Reason.FORFEIT,
                action={"type": Reason.FORFEIT}, now=work.now,
            )
            work.changes.add(Change.FORFEIT)
            work.forfeited = (seat,)
            await self._after_play(work, game, events, previous_step=match.step)
            return await work.result()

    async def check_forfeit(self, match_id: int, user_id: int) -> None:
        """Raise what :meth:`forfeit` would refuse (NotYourMatch, the flow's not-active refusal, AlreadyOut);
        change nothing (the "really give up?" question's No)."""
        async with self.db.read() as conn:
            match, seat = await self._active_seat(conn, match_id, user_id)
            state = await self.store.load_state(conn, match_id)
        if state is None:
            raise self.flow.not_active(match.status)
        self._check_still_in(game_class(match.game).from_json(state), seat, Phrase(NOTHING_TO_GIVE_UP))

    async def forfeit_mine(self, user_id: int, game: str | None = None) -> MatchUpdate:
        """Forfeit the user's active match of the family at once (the flow's not-in-match refusal when none is
        active: a challenge is not a match to forfeit)."""
        match = await self.find_match(user_id)
        if match is None or match.status != Status.ACTIVE:
            raise self.flow.not_in_match(self._title(game or self.game))
        return await self.forfeit(match.id, user_id)

    async def forfeit_target(self, user_id: int, game: str | None = None) -> MatchRecord:
        """``forfeit`` before it asks "really?": the user's active match of the family. Refuses the flow's
        not-in-match refusal (none), NotStartedYet (a challenge or lobby: its buttons close it) and AlreadyOut."""
        match = await self.find_match(user_id)
        title = self._title(game or self.game)
        if match is None:
            raise self.flow.not_in_match(title)
        seat = self._seat(match, user_id)
        title = self._title(match.game)
        if match.status == Status.CHALLENGE:
            if match.options.get("lobby"):
                raise errors.NotStartedYet(
                    N_("Your {game} lobby hasn't started yet, so there's nothing to give up: Cancel it with the button "
                       "on the lobby message.") if seat == 0 else
                    N_("Your {game} lobby hasn't started yet, so there's nothing to give up: Leave it with the button "
                       "on the lobby message."), game=title)
            raise errors.ChallengeNotStarted(title, match.user_ids[1 - seat], challenger=seat == 0)
        await self.check_forfeit(match.id, user_id)
        return match

    # --- playing, ending -------------------------------------------------------------------------------------
    async def _after_play(self, work: _Work, game: Game, events: list[Event], *, previous_step: int,
                          settings: GuildSettings | None = None, options: dict[str, Any] | None = None,
                          started: bool = False, restart: bool = False) -> None:
        """Store the game after an engine call, play the seats' only actions (:meth:`_play_only_choices`), let the
        flow settle it, queue the events, set the next deadline or finish the match. ``work.match`` must be the match
        as written so far (reloaded or mirrored): the match goes on with a record made here, not read back.
        ``settings``: the server's, if the caller read them already; ``options``: the match's options as the caller
        changed them; ``started``: the game was just dealt; ``restart``: the deadline starts again (the pace changed,
        a timeout played)."""
        match = work.match
        options = dict(match.options) if options is None else options
        queued, segment, segment_step, played = await self._play_only_choices(work, game, events, previous_step)
        events = [*events, *played]
        settled = self.flow.settle(game, options, previous_step, started=started)
        step = self._step(game)
        fields: dict[str, Any] = {"state": game.to_json(), "step": step}
        if options != match.options:
            fields["options"] = options
        queued += self.flow.tag(game, [*segment, *settled], segment_step)
        step_changed = not game.is_over and step != previous_step
        plan = None if game.is_over else self.flow.schedule(match, game, options,
                                                              new_step=step_changed or started or restart)
        if plan is not None:
            if plan.seconds is None:  # a step of choices: the match's timer, and what the flow adds
                if settings is None:
                    settings = await self._settings(work.conn, match.guild_id)
                seconds = match.arrange_seconds or settings.arrange_seconds
                deadline = work.now + seconds + self.flow.extra_seconds(events, settings.flip_pace_ms)
                self.flow.step_started(game, queued, deadline, seconds)
                self._step_seconds[match.id] = (self.flow.due_step(step), seconds)
            else:
                deadline = work.now + plan.seconds
            fields |= {"deadline_at": deadline, "deadline_kind": plan.kind}
            work.changes.add(Change.DEADLINE)
        if step_changed:
            work.write(self.store.reset_drafts, match.id)
            work.changes.add(Change.STEP)
        work.send_update(**fields)
        moves = self.flow.chip_moves([*events, *settled])
        if moves:  # stored with the step that makes them, before anything shows them; once (the ledger's key)
            await self.db.chips.record(work.conn, [
                ChipEntry(match.guild_id, match.seats[move.seat].user_id, match.id, move.hand, move.seat, move.kind,
                          move.amount) for move in moves], work.now)
        await work.queue(queued)
        if game.is_over:
            await self._finish(work, game)
            await work.reload()
            return
        written = {name: value for name, value in fields.items() if name != "state"}
        seats = tuple(dataclasses.replace(seat, draft=()) for seat in match.seats) if step_changed else match.seats
        work.mirrored(dataclasses.replace(match, **written, seats=seats, updated_at=work.now))

    async def _play_only_choices(self, work: _Work, game: Game, events: list[Event],
                                 previous_step: int) -> tuple[list[Event], list[Event], int, list[Event]]:
        """Play, for every seat the step waits for, the action that is its only one (logged under the flow's
        ``only_kind``), step after step while they play themselves (at most :data:`MAX_ONLY_CHOICES`). Returns the
        events of the steps that are over, tagged with their step (the engine call's ``events`` with
        ``previous_step``), the untagged events of the step the game is at now and that step (``previous_step`` and
        ``events`` when nothing played itself in a new step), and every event the actions played caused."""
        queued: list[Event] = []
        segment, segment_step = list(events), previous_step
        played: list[Event] = []
        if not self.flow.only_choices_play_themselves:
            return queued, segment, segment_step, played
        for _ in range(MAX_ONLY_CHOICES):
            only = self._only_choice(game)
            if only is None:
                break
            seat, action = only
            step = self._step(game)
            if step != segment_step:  # a new step plays itself: what came before it belongs to the step before
                queued += self.flow.tag(game, segment, segment_step)
                segment, segment_step = [], step
            caused = game.apply(seat, action)
            segment += caused
            played += caused
            await work.log_action(seat, step, self.flow.only_kind, action)
            work.changes.add(Change.ONLY)
        return queued, segment, segment_step, played

    def _only_choice(self, game: Game) -> tuple[int, dict[str, Any]] | None:
        """The first seat the step waits for that has exactly one legal action, and that action."""
        if game.is_over:
            return None
        for seat in self.flow.waiting_for(game):
            action = self.flow.only_action(game, seat)
            if action is not None:
                return seat, action
        return None

    def _plays_itself(self, game: Game, seat: int) -> bool:
        """The seat, one the step waits for, has exactly one legal action and the flow lets the kernel play it."""
        return self.flow.only_choices_play_themselves and self.flow.only_action(game, seat) is not None

    async def _finish(self, work: _Work, game: Game) -> None:
        """The game is over: in this transaction, the match finishes and the result, results rows and ratings are
        written, once (a conditional update on status, and the results' primary key)."""
        match = work.match
        outcome = game.outcome
        assert outcome is not None
        users = list(match.user_ids)
        result = {
            "winner": outcome.winner, "winner_id": None if outcome.winner is None else users[outcome.winner],
            "reason": outcome.reason, "detail": outcome.detail, "engagement": self._step(game), "user_ids": users,
        }
        changed = await work.update(
            status=Status.FINISHED, reason=outcome.reason, result=result, deadline_at=None, deadline_kind=None,
            finished_at=work.now, only_status=Status.ACTIVE,
        )
        if changed != 1:
            raise RuntimeError(f"match {match.id} cannot finish: it is no longer active")
        if not self.flow.rated or match.options.get(OPPONENT_OPTION):
            await self._finish_unrated(work, game, result)
            return
        before = []
        for user_id in users:
            stored = await self.db.results.get_rating(work.conn, match.guild_id, match.game, user_id)
            before.append(stored or RatingRecord(match.guild_id, match.game, user_id, *self._initial()))
        skills = [self.ratings.skill(r.mu, r.sigma) for r in before]
        places = self.flow.places(game)
        after = self.ratings.rate(skills, outcome.winner, places)
        outcomes = ["draw" if outcome.winner is None else "win" if seat == outcome.winner else "loss"
                    for seat in range(len(users))]
        await self.db.results.insert_results(work.conn, [
            ResultRecord(match.id, seat, match.guild_id, match.game, users[seat], outcomes[seat],
                         before[seat].rating, after[seat].ordinal)
            for seat in range(len(users))
        ], work.now)
        for seat, old in enumerate(before):
            await self.db.results.put_rating(work.conn, RatingRecord(
                match.guild_id, match.game, old.user_id, after[seat].mu, after[seat].sigma, after[seat].ordinal,
                old.games + 1, old.wins + (outcomes[seat] == "win"), old.losses + (outcomes[seat] == "loss"),
                old.draws + (outcomes[seat] == "draw"),
            ), work.now)
        await work.queue([{
            **{k: v for k, v in result.items() if k != "engagement"}, "type": "result",
            "engagement": self._step(game), "outcomes": outcomes,
            "ratings": [{"before": before[seat].rating, "after": after[seat].ordinal, "games": before[seat].games + 1}
                        for seat in range(len(users))],
            **({} if places is None else {"places": places}),
        }])
        work.changes |= {Change.FINISHED, Change.DEADLINE}

    async def _finish_unrated(self, work: _Work, game: Game, result: dict[str, Any]) -> None:
        """A game against the house or the bot is over: each seat's outcome is its own (the flow's, else from the
        winner), results are written unrated (no rating moves, no rating board, no combined rating)."""
        match = work.match
        users = list(match.user_ids)
        winner = game.outcome.winner if game.outcome is not None else None
        outcomes = self.flow.outcomes(game) or [
            "draw" if winner is None else "win" if seat == winner else "loss" for seat in range(len(users))]
        await work.update(result={**result, "outcomes": outcomes})
        await self.db.results.insert_results(work.conn, [
            ResultRecord(match.id, seat, match.guild_id, match.game, users[seat], outcomes[seat], 0.0, 0.0,
                         rated=False)
            for seat in range(len(users))
        ], work.now)
        await work.queue([{
            **{k: v for k, v in result.items() if k != "engagement"}, "type": "result",
            "engagement": self._step(game), "outcomes": outcomes, "ratings": None,
        }])
        work.changes |= {Change.FINISHED, Change.DEADLINE}

    def _initial(self) -> tuple[float, float, float]:
        skill = self.ratings.initial()
        return skill.mu, skill.sigma, skill.ordinal

    # --- Discord references ------------------------------------------------------------------------------
    # Each of these is one statement, and the record it returns is made here, not read back: the presenter stores a
    # message id after nearly every message, and a transaction of BEGIN, write, reload and COMMIT held the database
    # (one connection, one lock) for four round trips to its thread while clicks of every match waited.
    async def set_thread(self, match_id: int, thread_id: int | None) -> MatchRecord:
        """Where the match is played (``None``: in the channel itself)."""
        async with self._work(match_id, one_write=True) as work:
            await work.update(thread_id=thread_id)
            work.mirrored(dataclasses.replace(work.match, thread_id=thread_id, updated_at=work.now))
            return work.match

    async def set_challenge_message(self, match_id: int, message_id: int) -> MatchRecord:
        async with self._work(match_id, one_write=True) as work:
            await work.update(challenge_message_id=message_id)
            work.mirrored(dataclasses.replace(work.match, challenge_message_id=message_id, updated_at=work.now))
            return work.match

    async def set_dm(self, match_id: int, user_id: int, channel_id: int, message_id: int | None) -> MatchRecord:
        """The user's DM channel and panel message (the one to edit)."""
        async with self._work(match_id, one_write=True) as work:
            seat = self._seat(work.match, user_id)
            await self.store.update_seat(work.conn, match_id, seat, dm_channel_id=channel_id, dm_message_id=message_id)
            work.mirrored(work.match.with_seat(seat, dm_channel_id=channel_id, dm_message_id=message_id))
            return work.match

    async def set_message(self, match_id: int, name: str, message_id: int) -> MatchRecord:
        """Any named message of the match (``"result"``, ...); see :meth:`set_board_message`."""
        async with self._work(match_id, one_write=True) as work:
            await self.store.set_message(work.conn, match_id, name, message_id)
            work.mirrored(dataclasses.replace(work.match, messages={**work.match.messages, name: message_id}))
            return work.match

    async def set_messages(self, match_id: int, messages: Mapping[str, int]) -> MatchRecord:
        """Several named messages of the match at once (:meth:`set_message`), in one transaction."""
        async with self._work(match_id) as work:
            for name, message_id in messages.items():
                await self.store.set_message(work.conn, match_id, name, message_id)
            work.mirrored(dataclasses.replace(work.match, messages={**work.match.messages, **messages}))
            return work.match

    async def set_board_message(self, match_id: int, step: int, message_id: int) -> MatchRecord:
        """Step ``step``'s board (Air War: the message its flips edit); read back by
        ``match.board_message_id(step)``."""
        return await self.set_message(match_id, board_message_name(step), message_id)

    async def move_to_channel(self, match_id: int, note_message_id: int | None = None) -> MatchRecord:
        """The match's thread is gone (deleted, or the bot may no longer post in it): from now on the match is shown
        in its channel (``thread_id`` ``None``, message ``in_channel``). ``note_message_id``: the channel's note
        saying so (message ``moved``). Boards stored before keep their ids (in the lost thread)."""
        async with self._work(match_id) as work:
            await work.update(thread_id=None)
            await self.store.set_message(work.conn, match_id, "in_channel", work.match.channel_id)
            if note_message_id is not None:
                await self.store.set_message(work.conn, match_id, "moved", note_message_id)
            return await work.reload()

    async def step_record(self, match_id: int, step: int) -> tuple[MatchRecord, list[QueuedEvent]]:
        """The match and every event of one step, shown or not (a game's public board of the step is built from
        them: Air War's :func:`~bot.games.airwar.flow.public_board`)."""
        known = self._known(match_id)
        # (statement by statement: what it reads of the match never changes, and a step's events only grow)
        async with self.db.statement() as conn:
            match = known.match if known is not None else await self.store.load_match(conn, match_id)
            if match is None:
                raise errors.MatchNotFound(match_id)
            return match, await self.store.events(conn, match_id, step=step)

    # --- the event queue ---------------------------------------------------------------------------------
    async def claim_events(self, match_id: int) -> bool:
        """Before a presenter shows the match's events (and again while it shows, to keep the claim): ``True`` when
        this process is the one to show them. On a database of its own, always (its presenter's loop is the one)."""
        if not self.db.shared:
            return True
        async with self.db.statement() as conn:
            return await self.store.claim_unshown(conn, match_id, self.owner, self.clock(), CLAIM_SECONDS)

    async def release_events(self, match_id: int) -> None:
        """The presenter showed every event it had claimed (see :meth:`claim_events`)."""
        if self.db.shared:
            async with self.db.statement() as conn:
                await self.store.release_unshown(conn, match_id, self.owner)

    async def unshown_events(self, match_id: int) -> list[QueuedEvent]:
        """Events not shown yet, in order."""
        async with self.db.statement() as conn:  # one SELECT
            return await self.store.events(conn, match_id, unshown_only=True)

    async def events(self, match_id: int, *, step: int | None = None) -> list[QueuedEvent]:
        """Every event of the match (or of one step), shown or not, in order (to re-render a board)."""
        async with self.db.statement() as conn:  # one SELECT
            return await self.store.events(conn, match_id, step=step)

    async def mark_shown(self, match_id: int, seq: int) -> int:
        """Mark the match's events up to ``seq`` (inclusive) shown; returns how many were not yet."""
        async with self.db.statement() as conn:
            return await self.store.mark_shown(conn, match_id, seq)

    async def matches_with_unshown_events(self) -> list[int]:
        """Match ids (any status, of this service's ``games``, in the servers this process owns) with events still to
        show: after a restart, show them first."""
        async with self.db.statement() as conn:  # one SELECT (and a second in a cluster)
            ids = await self.store.match_ids_with_unshown_events(conn, self.games)
            if ids and self.db.shared:
                owned = {match.id for match in await self.store.load_matches(conn, ids) if self.owns(match.guild_id)}
                ids = [match_id for match_id in ids if match_id in owned]
            return ids

    # --- reading -------------------------------------------------------------------------------------------
    async def get_match(self, match_id: int) -> MatchRecord:
        known = self._known(match_id)
        if known is not None:
            return known.match
        async with self.db.statement() as conn:  # one SELECT
            match = await self.store.load_match(conn, match_id)
        if match is None:
            raise errors.MatchNotFound(match_id)
        return match

    async def find_match(self, user_id: int, game: str | None = None) -> MatchRecord | None:
        """The user's open (challenge or active) match of the family (``game``'s if named), in any server; ``None``
        when there is none."""
        async with self.db.read() as conn:
            match_id = await self._busy(conn, user_id, game)
            return None if match_id is None else await self.store.load_match(conn, match_id)

    async def finished_against_the_bot_without(self, name: str, since: float) -> list[int]:
        """This kernel's matches against the bot finished at ``since`` or later with no message ``name`` yet."""
        async with self.db.read() as conn:
            return await self.store.finished_program_matches_without(conn, self.games, name, since)

    async def open_matches(self) -> list[MatchRecord]:
        """Every match of this service's ``games`` in ``challenge`` or ``active`` with its deadline: after a restart,
        re-arm their timers (in the servers this process owns)."""
        async with self.db.read() as conn:
            matches = await self.store.load_matches(conn, await self.store.open_match_ids(conn, self.games))
        return [match for match in matches if self.owns(match.guild_id)]

    async def view(self, match_id: int, user_id: int | None = None) -> dict[str, Any]:
        """The engine's view for the user's seat, or a spectator's (``user_id=None``: the public board)."""
        known = self._known(match_id)
        if known is not None and known.state is not None:
            seat = None if user_id is None else self._seat(known.match, user_id)
            game = known.read_game()
            assert game is not None
            return game.view(seat)
        async with self.db.read() as conn:
            match = await self.store.load_match(conn, match_id)
            if match is None:
                raise errors.MatchNotFound(match_id)
            state = await self.store.load_state(conn, match_id)
        seat = None if user_id is None else self._seat(match, user_id)
        if state is None:
            raise errors.MatchNotActive(match.status)
        return game_class(match.game).from_json(state).view(seat)

    async def program_turn(self, match_id: int) -> tuple[int, int, dict[str, Any], str] | None:
        """What the bot's own seat of a match against it has to choose now: ``(step, seat, the seat's view, key)``
        (``key`` seeds its choice: the match's seed, step and seat, so a choice made again is the same); ``None``
        when it has nothing to choose (not such a match, not active, already chosen)."""
        match = await self.get_match(match_id)
        opponent = match.options.get(OPPONENT_OPTION)
        if not opponent or match.status != Status.ACTIVE:
            return None
        seat = int(opponent["seat"])
        async with self.db.read() as conn:
            state = await self.store.load_state(conn, match_id)
        if state is None:
            return None
        game = game_class(match.game).from_json(state)
        if game.is_over or seat not in self.flow.waiting_for(game):
            return None
        step = self.flow.due_step(match.step)
        return step, seat, game.view(seat), f"{match.seed}:{step}:{seat}"

    async def status(self, user_id: int, game: str | None = None) -> MatchStatus:
        """``status``: the user's open match of the family (the flow's not-in-match refusal when none). While
        reveals of the match are still to be shown in public it refuses (StillShowing): Air War's seat view already
        holds the next stacks and what those flips taught about the decks (the same rule as :meth:`open_panel`)."""
        async with self.db.read() as conn:
            match_id = await self._busy(conn, user_id)
            match = None if match_id is None else await self.store.load_match(conn, match_id)
            state = None if match_id is None else await self.store.load_state(conn, match_id)
            if match is not None and state is not None:
                await self._check_shown(conn, match)
        if match is None:
            raise self.flow.not_in_match(self._title(game or self.game))
        seat = self._seat(match, user_id)
        if state is None:
            return MatchStatus(match, seat, None, None)
        game_obj = game_class(match.game).from_json(state)
        return MatchStatus(match, seat, game_obj.view(seat), self._panel(match, game_obj, seat))

    async def results(self, match_id: int) -> list[ResultRecord]:
        async with self.db.read() as conn:
            return await self.db.results.results_of_match(conn, match_id)

    async def rating(self, guild_id: int, user_id: int, game: str | None = None) -> RatingRecord | None:
        async with self.db.read() as conn:
            return await self.db.results.get_rating(conn, guild_id, game or self.game, user_id)

    async def export(self, match_id: int, *, allow_open: bool = False) -> dict[str, Any]:
        """The match as a match file for ``python -m bot replay``: ``{"game", "rules", "seed", "moves"}``, one move
        per played step (the flow's ``export_move`` of every seat's choice), then ``{"forfeit": seat, "reason":
        ...}`` or ``{"draw": "double_timeout"}`` if the match ended that way. Only for finished matches unless
        ``allow_open`` (the seed deals every hidden card). A choice of a step that was never played stays out of
        the file: nobody ever saw it."""
        async with self.db.read() as conn:
            match = await self.store.load_match(conn, match_id)
            if match is None:
                raise errors.MatchNotFound(match_id)
            log = await self.store.actions(conn, match_id)
        if match.seed is None:
            raise errors.MatchNotActive(match.status)
        if match.status != Status.FINISHED and not allow_open:
            raise errors.ServiceError(N_("The match file is available once the match is over."))
        seats = len(match.seats)
        choices: dict[int, list[dict[str, Any] | None]] = {}
        moves: list[dict[str, Any]] = []
        timeouts = [action for action in log if action.kind == Reason.TIMEOUT]
        # A game of more than two where seats go out: a step some seats never chose in was played once anything of
        # a later step is logged, or, for the last step, when the game ended in play (not by a forfeit or draw).
        ended_in_play = (match.result or {}).get("reason") not in (Reason.FORFEIT, Reason.TIMEOUT,
                                                                   Reason.DOUBLE_TIMEOUT)

        def flush(before: int | None) -> None:
            for step in sorted(choices):
                if (before is None or step < before) and any(choice is not None for choice in choices[step]):
                    moves.append(self.flow.export_move(choices.pop(step)))  # type: ignore[arg-type]

        for action in log:
            if seats > 2 and any(step < action.step for step in choices):
                flush(action.step)
            if action.kind in self.flow.choice_kinds:
                single = self.flow.export_choice(action.seat, action.action)
                if single is not None:
                    moves.append(single)
                    continue
                step = choices.setdefault(action.step, [None] * seats)
                step[action.seat] = action.action
                if all(choice is not None for choice in step):
                    moves.append(self.flow.export_move(choices.pop(action.step)))  # type: ignore[arg-type]
            elif action.kind == Reason.FORFEIT:
                if action.step in choices:  # an order locked before giving up is never played
                    choices[action.step][action.seat] = None
                forfeit = {"forfeit": action.seat, "reason": Reason.FORFEIT}
                moves.append(self.flow.ending_move(forfeit, action.step))
            elif action.kind == Reason.TIMEOUT:
                together = [t for t in timeouts if t.step == action.step]
                last_step = action.step == log[-1].step and match.result is not None
                everyone_left = last_step and match.result.get("reason") == Reason.DOUBLE_TIMEOUT
                if len(together) == seats or everyone_left:
                    if action is together[0]:
                        moves.append(self.flow.ending_move({"draw": Reason.DOUBLE_TIMEOUT}, action.step))
                else:
                    moves.append(self.flow.ending_move({"forfeit": action.seat, "reason": Reason.TIMEOUT},
                                                       action.step))
        if seats > 2 and ended_in_play and match.status == Status.FINISHED:
            flush(None)
        return {"game": match.game, "rules": dict(match.rules), "seed": match.seed, "moves": moves}

    async def leaderboard(
        self, guild_id: int, game: str | None = None, page: int = 1, per_page: int = 10, min_games: int = 3
    ) -> LeaderboardPage:
        """The server's board for the game: players with at least ``min_games`` finished matches, best openskill
        ordinal first; players with fewer are not listed (``unranked`` counts them). ``page`` is 1-based and
        clamped to the pages there are."""
        game = game or self.game
        per_page = max(1, per_page)
        min_games = max(0, min_games)
        async with self.db.read() as conn:
            ranked, unranked = await self.db.results.count_players(conn, guild_id, game, min_games)
            pages = max(1, math.ceil(ranked / per_page))
            page = min(max(1, page), pages)
            rows = await self.db.results.leaderboard_rows(
                conn, guild_id, game, min_games=min_games, limit=per_page, offset=(page - 1) * per_page
            )
        return LeaderboardPage(guild_id, game, page, pages, per_page, min_games, ranked, unranked, tuple(rows))
