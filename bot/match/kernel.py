"""The match kernel: a match's life for a game's flow, from the deal to the result (:class:`MatchKernel`).

One :class:`MatchKernel` per game plays it with the game's flow (:class:`~bot.match.flow.Flow`, declared by the
game's package): the flow says what a step is, what a seat's panel holds, what its choices and defaults are, which
steps play themselves and which events show a step; the kernel does the rest the same way for every game: the deal,
choices and deadlines, auto-played steps, paces and votes, forfeits, the result, the ratings, the match file. It is
built on :class:`~bot.match.challenges.Challenges` (challenges and lobbies, before the deal) and
:class:`~bot.match.work.MatchWork` (one transaction per change, the matches in memory, several processes); the events
it queues and the ids of the messages that show them are its :class:`~bot.match.outbox.Outbox`'s (``outbox``).

No Discord here. A cog calls a method, shows what it returns and stores the ids of the messages it sent. A refused
call raises a :class:`~bot.match.errors.ServiceError` (or the engine's :class:`~bot.errors.GameError`) and changes
nothing.

Deadlines. A step's choices are due the match's timer (``arrange_seconds``: the challenge's own, else the server's)
after it began, plus what the flow adds (Air War: the time the flips take to show), and never before the timer after
the step's panels reached their players (:meth:`MatchKernel.step_delivered`). The cog arms a timer per open match
(:class:`~bot.match.timers.Timers`) at ``match.deadline_at`` calling :meth:`MatchKernel.deadline_due`; after a
restart it first moves the step deadlines that passed while the bot was away (:meth:`MatchKernel.resume_deadlines`:
nobody could click, so nobody missed them), then re-arms them from :meth:`MatchKernel.open_matches`. A choice that
arrives after the deadline but before the timer ran is still accepted.

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
"""

from __future__ import annotations

import dataclasses
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from bot.game import Event, Game
from bot.i18n import N_, Phrase
from bot.match import errors
from bot.match.challenges import CHALLENGE_SECONDS, LOBBY_IDLE_SECONDS, OPPONENT_OPTION, Challenges
from bot.match.ending import finish
from bot.match.export import match_file
from bot.match.flow import CHALLENGE_DEADLINE, Flow
from bot.match.outbox import Outbox
from bot.match.ratings import Ratings
from bot.match.work import (
    CLAIM_SECONDS,
    Announcement,
    Cached,
    Change,
    MatchUpdate,
    Reason,
    Work,
    read_announcement,
)
from bot.registry import game_class, registry
from bot.storage import Connection
from bot.storage.port import Storage
from bot.storage.records import ChipEntry, MatchRecord, Status
from bot.storage.settings import GuildSettings

__all__ = ["CHALLENGE_SECONDS", "CLAIM_SECONDS", "LOBBY_IDLE_SECONDS", "OPPONENT_OPTION", "Announcement", "Change",
           "MatchKernel", "MatchStatus", "MatchUpdate", "Reason", "default_seed", "read_announcement"]

#: the match's timer when neither the challenge nor the server set one
DEFAULT_TIMER_SECONDS = 120
#: a step's panels reaching their players later than its deadline allows for by up to this many seconds leave the
#: deadline as it is (each move is an event, and every surface showing the deadline is edited again)
DELIVERY_SLACK = 2.0
NOTHING_TO_GIVE_UP = N_("there's nothing to give up")
MISSES_TO_FORFEIT = 2
SECONDS_PER_DAY = 86_400
#: the most choices the kernel plays for seats (each a seat's only legal action) after one engine call: a game may
#: play itself on for many steps, never for ever; past it the seat is asked as usual
MAX_ONLY_CHOICES = 1000


def default_seed() -> int:
    """A fresh unpredictable seed that fits SQLite's signed 64-bit integers."""
    return secrets.randbits(63)


@dataclass(frozen=True)
class MatchStatus:
    """A game's ``status`` command: the user's open match, seat, the engine's view for that seat (it shows only what
    the seat may see; ``None`` while still a challenge or lobby) and the seat's panel (``None`` then too)."""

    match: MatchRecord
    seat: int
    view: dict[str, Any] | None
    panel: Any


class MatchKernel(Challenges):
    """See the module docstring. ``clock`` gives Unix seconds; ``seed_source`` a game's seed on accept;
    ``draft_rng`` shuffles the panel's "random" order (the player's draft, not the game). Its matches' events and
    message ids are its :attr:`outbox`'s."""

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
        plugin = registry().entry(game).plugin
        if plugin.flow is None:
            raise TypeError(f"{game} declares no flow")
        super().__init__(database, clock=clock, game=game,
                         games=tuple(games) if games is not None else registry().family(game))
        self.flow = plugin.flow()
        self.paces = plugin.paces
        self.default_pace = plugin.default_pace
        self.seed_source = seed_source
        self.draft_rng = draft_rng or random.SystemRandom()
        self.ratings = ratings or Ratings()
        self.outbox = Outbox(self)

    def _step(self, game: Game) -> int:
        """The step a game is at, stored as ``matches.step``."""
        return self.flow.step(game)

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

    async def _game(self, work: Work) -> Game:
        """The game as committed, the transaction's own to change."""
        if work.state is None:
            raise self.flow.not_active(work.match.status)
        return game_class(work.match.game).from_json(orjson.loads(work.state))

    def _read_game(self, work: Work) -> Game:
        """The game as committed, to read only (views, panels): shared, never changed."""
        if work.state is None:
            raise errors.MatchNotActive(work.match.status)
        if work.cached is None or work.cached.state != work.state:
            work.cached = Cached(work.match, work.state)
        game = work.cached.read_game()
        assert game is not None
        return game

    def _panel(self, match: MatchRecord, game: Game | None, seat: int) -> Any:
        return self.flow.panel(match, game, seat)

    # --- settings -------------------------------------------------------------------------------------------
    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings as the game plays by them (the flow's ``settings_in_force``)."""
        async with self.db.statement() as conn:  # one SELECT
            return await self._settings(conn, guild_id)

    async def _settings(self, conn: Connection, guild_id: int) -> GuildSettings:
        return self.flow.settings_in_force(await self.db.settings.get_settings(conn, guild_id))

    async def _deal(self, work: Work, settings: GuildSettings | None) -> MatchUpdate:
        """Deal the match's game from a fresh seed and begin it (an accepted challenge, a started lobby)."""
        match = work.match
        if settings is None:  # (not in memory before: read here)
            settings = await self._settings(work.conn, match.guild_id)
        arrange = match.arrange_seconds or settings.arrange_seconds or DEFAULT_TIMER_SECONDS
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

    async def step_delivered(self, match_id: int, step: int, at: float, *,
                             unseen: bool = False) -> MatchUpdate | None:
        """The step's choices reached their players at ``at`` (the last of their panels was delivered: a DM sent or
        edited, the public board with its button posted, or the thread's message whose buttons they act with: War's
        table, Speed War's round): a player's time starts when they can act, so the
        step's deadline becomes at least ``at`` + the match's timer. Moved by more than
        :data:`DELIVERY_SLACK`: event ``deadline_moved`` (``reason`` ``delivery``); else, or when the step is
        over, nothing changes and ``None`` is returned (most calls decide that from memory, without a
        transaction).

        ``unseen``: the step's panels and board are about to be shown at ``at`` and nothing shows its deadline yet
        (the presenter asks before it sends them, so they show the deadline they will keep): the deadline moves
        without an event, as nothing is there to show it again."""
        known = self._known(match_id)
        timer = self._step_seconds.get(match_id)
        if known is not None and timer is not None and timer[0] == step:
            deadline = self._delivered_deadline(known.match, step, at + timer[1])
            if deadline is None:
                return None
        async with self._work(match_id, one_write=unseen) as work:  # (unseen: the deadline is its one write)
            match = work.match
            if timer is not None and timer[0] == step:
                seconds: float = timer[1]
            else:
                seconds = match.arrange_seconds or (await self._settings(work.conn, match.guild_id)).arrange_seconds
            deadline = self._delivered_deadline(match, step, at + seconds)
            if deadline is None:
                return None
            await work.update(deadline_at=deadline)
            if not unseen:
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
        """A draft's change: on the match in memory when it is there (checked and changed there, its one write -- the
        seat's draft -- stored before it returns, nothing read back), else in a one-write block."""
        if self._known(match_id) is not None:
            async with self._lock(match_id):
                known = self._known(match_id)  # (again: a change may have forgotten it meanwhile)
                if known is not None:
                    game = known.read_game()
                    seat, panel, new_draft = self._drafted(known.match, game, user_id, step, change)
                    if new_draft is None:
                        return MatchUpdate(known.match, panel=panel)
                    async with self.db.statement() as conn:
                        await self.store.update_seat(conn, match_id, seat, draft=new_draft)
                    match = known.match = known.match.with_seat(seat, draft=tuple(new_draft))
                    return MatchUpdate(match, changes=frozenset({Change.DRAFT}), panel=self._panel(match, game, seat))
        async with self._work(match_id, one_write=True) as work:
            game = self._read_game(work)
            seat, panel, new_draft = self._drafted(work.match, game, user_id, step, change)
            if new_draft is not None:
                await self.store.update_seat(work.conn, match_id, seat, draft=new_draft)
                work.changes.add(Change.DRAFT)
                work.mirrored(work.match.with_seat(seat, draft=tuple(new_draft)))
            return await work.result(self._panel(work.match, game, seat))

    def _drafted(self, match: MatchRecord, game: Game | None, user_id: int, step: int,
                 change: Callable[[list[str], list[str]], list[str]]) -> tuple[int, Any, list[str] | None]:
        """The user's seat, their panel and the draft ``change`` makes of it (``None``: the same); refuses a match
        not being played, a stale step and a choice locked in already."""
        seat = self._seat(match, user_id)
        self._check_active(match)
        self._check_step(match, step)
        panel = self._panel(match, game, seat)
        items, draft = self.flow.draft_items(panel)
        if self.flow.locked(panel):
            raise self.flow.already_chosen(step)
        new_draft = change(items, draft)
        return seat, panel, None if new_draft == draft else new_draft

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
    async def _after_play(self, work: Work, game: Game, events: list[Event], *, previous_step: int,
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
                if plan.kind == self.flow.deadline_kind:  # (a step of choices on the flow's own clock: Speed War's)
                    self._step_seconds[match.id] = (self.flow.due_step(step), plan.seconds)
            fields |= {"deadline_at": deadline, "deadline_kind": plan.kind}
            work.changes.add(Change.DEADLINE)
        if step_changed:
            work.write(self.store.reset_drafts, match.id)
            work.changes.add(Change.STEP)
        work.send_update(**fields)
        work.keep_game(game, fields["state"])
        moves = self.flow.chip_moves([*events, *settled])
        if moves:  # stored with the step that makes them, before anything shows them; once (the ledger's key)
            await self.db.chips.record(work.conn, [
                ChipEntry(match.guild_id, match.seats[move.seat].user_id, match.id, move.hand, move.seat, move.kind,
                          move.amount) for move in moves], work.now)
        await work.queue(queued)
        if game.is_over:
            await finish(work, game, self.flow, self.ratings, self.db.results)
            await work.reload()
            return
        written = {name: value for name, value in fields.items() if name != "state"}
        seats = tuple(dataclasses.replace(seat, draft=()) for seat in match.seats) if step_changed else match.seats
        work.mirrored(dataclasses.replace(match, **written, seats=seats, updated_at=work.now))

    async def _play_only_choices(self, work: Work, game: Game, events: list[Event],
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

    # --- reading -------------------------------------------------------------------------------------------
    async def get_match(self, match_id: int) -> MatchRecord:
        return await self._last_committed(match_id)

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
        return match_file(self.flow, match, log)
