"""The outbox as the show loop reads it (:class:`EventQueue`, one per kind of owner: a game's matches, the
tournaments), and a match's outbox: the events the Discord side has to show, queued per match, and the ids of the
messages it sent (:class:`Outbox`, which the kernel queues into and the presenters read from).

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
  while the bot was not running, see :meth:`~bot.match.kernel.MatchKernel.resume_deadlines`; ``delivery``: the
  step's panels reached their players late, see :meth:`~bot.match.kernel.MatchKernel.step_delivered`);
* ``result`` (after ``game_over``): ``winner`` (seat or ``None``), ``winner_id``, ``reason``, ``detail``,
  ``user_ids``, ``outcomes`` (per seat: win/loss/draw), ``ratings`` (per seat: ``before``, ``after``, the
  openskill ordinals, and ``games``: the games on the rating with this one), ``places`` (a game of three or four:
  each seat's finishing place, 1 first, which the ratings were moved by).

The presenter shows unshown events in order and calls :meth:`Outbox.mark_shown` after each (or each batch): after a
restart it continues with the first unshown one, so nothing is shown twice except, at worst, the one being shown at
the kill (showing re-renders a message from state, so that is harmless).
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import socket
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from bot.match import errors
from bot.match.work import CLAIM_SECONDS, MatchWork
from bot.storage.outbox import EventQueueStore
from bot.storage.records import MatchRecord, QueuedEvent, board_message_name

Event = TypeVar("Event")


class EventQueue(Generic[Event]):
    """One kind of owner's events in the outbox (:mod:`bot.storage.outbox`; a match's, a tournament's) as the
    kit's show loop (:class:`cogs.kit.presenter.ShowLoop`) reads them: claimed (a database shared by several
    processes), read, marked shown, released. ``events``: the outbox's statements for this kind of owner;
    ``claimant``: this process's name in a claim (by default one made for it)."""

    def __init__(self, db: Any, events: EventQueueStore[Event], *, clock: Callable[[], float],
                 claimant: str | None = None) -> None:
        self.db = db
        self.queue = events
        self.clock = clock
        self._name = claimant or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"

    def claimant(self) -> str:
        """This process's name in the claims it takes."""
        return self._name

    async def claim_events(self, owner_id: int) -> bool:
        """Before the show loop shows the owner's events (and again while it shows, to keep the claim): ``True``
        when this process is the one to show them. On a database of its own, always (its loop is the one)."""
        if not self.db.shared:
            return True
        async with self.db.statement() as conn:
            return await self.queue.claim(conn, owner_id, self.claimant(), self.clock(), CLAIM_SECONDS)

    async def release_events(self, owner_id: int) -> None:
        """The show loop showed every event it had claimed (see :meth:`claim_events`)."""
        if self.db.shared:
            async with self.db.statement() as conn:
                await self.queue.release(conn, owner_id, self.claimant())

    async def unshown_events(self, owner_id: int) -> list[Event]:
        """Events not shown yet, in order."""
        async with self.db.statement() as conn:  # one SELECT
            return await self.queue.events(conn, owner_id, unshown_only=True)

    async def events(self, owner_id: int, *, step: int | None = None) -> list[Event]:
        """Every event of the owner (or of one step), shown or not, in order (to re-render a message)."""
        async with self.db.statement() as conn:  # one SELECT
            return await self.queue.events(conn, owner_id, step=step)

    async def mark_shown(self, owner_id: int, seq: int) -> int:
        """Mark the owner's events up to ``seq`` (inclusive) shown; returns how many were not yet."""
        async with self.db.statement() as conn:
            return await self.queue.mark_shown(conn, owner_id, seq)

    async def with_unshown_events(self) -> list[int]:
        """The owners with events still to show: after a restart, show them first."""
        async with self.db.statement() as conn:  # one SELECT
            return await self.queue.owners_with_unshown(conn)


class Outbox(EventQueue[QueuedEvent]):
    """One game's matches' events and message ids (see the module docstring), kept through its kernel's plumbing
    (``kernel``): a message id is stored under the match's lock and kept in its record in memory."""

    def __init__(self, kernel: MatchWork) -> None:
        super().__init__(kernel.db, kernel.store.EVENTS, clock=kernel.clock)
        self.kernel = kernel
        self.store = kernel.store

    def claimant(self) -> str:
        return self.kernel.owner  # the kernel's: a cluster's process names it after its shards

    # --- Discord references ------------------------------------------------------------------------------
    # Each of these is one statement, and the record it returns is made here, not read back: the presenter stores a
    # message id after nearly every message, and a transaction of BEGIN, write, reload and COMMIT held the database
    # (one connection, one lock) for four round trips to its thread while clicks of every match waited.
    async def set_thread(self, match_id: int, thread_id: int | None) -> MatchRecord:
        """Where the match is played (``None``: in the channel itself)."""
        async with self.kernel._work(match_id, one_write=True) as work:
            await work.update(thread_id=thread_id)
            work.mirrored(dataclasses.replace(work.match, thread_id=thread_id, updated_at=work.now))
            return work.match

    async def set_challenge_message(self, match_id: int, message_id: int) -> MatchRecord:
        async with self.kernel._work(match_id, one_write=True) as work:
            await work.update(challenge_message_id=message_id)
            work.mirrored(dataclasses.replace(work.match, challenge_message_id=message_id, updated_at=work.now))
            return work.match

    async def set_dm(self, match_id: int, user_id: int, channel_id: int, message_id: int | None) -> MatchRecord:
        """The user's DM channel and panel message (the one to edit)."""
        async with self.kernel._work(match_id, one_write=True) as work:
            seat = work.match.seat_of(user_id)
            if seat is None:
                raise errors.NotYourMatch()
            await self.store.update_seat(work.conn, match_id, seat, dm_channel_id=channel_id, dm_message_id=message_id)
            work.mirrored(work.match.with_seat(seat, dm_channel_id=channel_id, dm_message_id=message_id))
            return work.match

    async def set_message(self, match_id: int, name: str, message_id: int) -> MatchRecord:
        """Any named message of the match (``"result"``, ...); see :meth:`set_board_message`."""
        async with self.kernel._work(match_id, one_write=True) as work:
            await self.store.set_message(work.conn, match_id, name, message_id)
            work.mirrored(dataclasses.replace(work.match, messages={**work.match.messages, name: message_id}))
            return work.match

    async def set_messages(self, match_id: int, messages: Mapping[str, int]) -> MatchRecord:
        """Several named messages of the match at once (:meth:`set_message`), in one transaction."""
        async with self.kernel._work(match_id) as work:
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
        async with self.kernel._work(match_id) as work:
            await work.update(thread_id=None)
            await self.store.set_message(work.conn, match_id, "in_channel", work.match.channel_id)
            if note_message_id is not None:
                await self.store.set_message(work.conn, match_id, "moved", note_message_id)
            return await work.reload()

    async def step_record(self, match_id: int, step: int) -> tuple[MatchRecord, list[QueuedEvent]]:
        """The match and every event of one step, shown or not (a game's public board of the step is built from
        them: Air War's :func:`~bot.games.airwar.flow.public_board`)."""
        # (statement by statement: what it reads of the match never changes, and a step's events only grow)
        async with self.db.statement() as conn:
            return await self.kernel._last_committed(match_id, conn), await self.store.events(conn, match_id, step=step)

    async def match(self, match_id: int) -> MatchRecord:
        """The match as last committed, with the ids of the messages that show it (``messages``, ``thread_id``,
        ``challenge_message_id``, the seats' DM messages): what a presenter renders and edits."""
        return await self.kernel._last_committed(match_id)

    async def with_unshown_events(self) -> list[int]:
        """Match ids (any status, of this service's ``games``, in the servers this process owns) with events still to
        show: after a restart, show them first."""
        async with self.db.statement() as conn:  # one SELECT (and a second in a cluster)
            ids = await self.store.match_ids_with_unshown_events(conn, self.kernel.games)
            if ids and self.db.shared:
                owns = self.kernel.owns
                owned = {match.id for match in await self.store.load_matches(conn, ids) if owns(match.guild_id)}
                ids = [match_id for match_id in ids if match_id in owned]
            return ids

    #: the same, under the name a game's callers know it by
    matches_with_unshown_events = with_unshown_events
