"""The presenter every game's cog shows its matches with: the match's queued events, shown in Discord in order, one
background task per match.

It keeps nothing that matters in memory: every message is rendered from stored events and sent with a nonce made
from the match and the message's name (:func:`~cogs.kit.messages.nonce`), so a send repeated after a crash between
sending and storing its id gets the message sent the first time; its id is stored through the match service, and
each event is marked shown once it is shown, so after a restart showing goes on with the first unshown event and
nothing is posted twice. An event that cannot be shown stays unshown, and so does everything after it (what comes
later may show what it reveals): the match is tried again later (:data:`RETRY_LATER`) and on its next update.
When the match's thread can't be used any more (:data:`THREAD_LOST`: deleted, no access, locked) the match moves
to its channel, a note there says so (message ``moved``), and the event is shown again there.

Requests under one Discord rate limit -- sends in a channel, edits in a channel -- go one at a time, whichever match
they are for (:meth:`Presenter._turn`); DM channels are opened ahead (at the challenge, a join and the accept), a few
at a time, and remembered. What is shown goes out by destination: the match's message in its channel (one rate
limit for every match there) is edited off the match's way (:meth:`Presenter._card_later`), so a busy channel never
holds back the match's thread or its players' panels; a step's panels go to its players' DMs together, and its
deadline starts when the last of them reached its player (:meth:`Presenter._deadline_from_delivery`).

The base shows what every game's match has: the challenge or lobby (``challenge`` / ``lobby``: posted only when the
command's answer was lost, and found among the channel's last messages when only its id was; ``joined`` / ``left``:
the lobby message shows who is in; ``declined`` / ``withdrawn`` / ``expired``; ``accepted``, which makes the
match's thread), each seat's private panel and the result.

A match has one message in its channel, edited through its life (:meth:`Presenter._show_card`): the challenge (or
lobby) with its buttons, then, once accepted, who plays and a link to the thread (no buttons), then the result with
its picture and a Rematch button (:meth:`Presenter._post_result`). The thread keeps the play and gets the result too,
its picture shown from the channel message's upload. A match played in its channel (no thread) gets its result
there, after the play, and its first message then links to it. A tournament's matches have no message of their own
in the channel (the tournament's messages show them there).

An edit uploads a picture only when it differs from the one the message has (:class:`~cogs.kit.pictures.SentPictures`).

Where the bot is no member (a DM, a group DM, a server that did not add it: the match's ``by_interactions`` option)
nothing is posted: what would be sent where the match is played edits its one message instead, and every edit goes
through the newest interaction token of the channel (:mod:`cogs.kit.tokens`); its panels open from the message's
button only, and it has no message of its own besides (:meth:`Presenter.has_channel_card`).

Panels: each step's public message carries the game's button (``buttons.board_view``: "Arrange", "Choose") that opens
the presser's panel as an ephemeral message in the thread. A player who prefers DMs (``dm``, the default; the
player's ``/preferences``) also gets one DM message per match, sent at their first panel and edited for each step
after it (an edit notifies nobody: one notification per match, then none); a player who prefers ``here``, or whose
DMs turn out to be closed (Discord's 50007), gets no DM and is mentioned once on the step's public message instead
(:meth:`Presenter._panel_pings`).

Live messages: a game whose play is many small events shows each phase of it (a round, a block of rounds) in one
message edited as the phase goes on (:meth:`Presenter._show_live`), rendered from the phase's events
(:meth:`Presenter._phase_events`), so its thread gets a message a phase, not one an event; the last of them can
become the result (:meth:`Presenter._post_result`'s ``live``).

A game's presenter subclasses it and registers a method per event type of its own with :func:`shows` (the class's
table, :attr:`ShowLoop.shown_by`; or chooses otherwise: :meth:`Presenter._handler`).

The game's render module (``render``) gives the words and pictures: ``TITLE``, ``challenge(challenger, opponent,
rules, expires_at=)``, ``declined`` / ``withdrawn`` / ``expired(challenger, opponent)``, ``accepted(challenger,
opponent, thread_id)``, ``link_line(names, rules, thread_id)`` and ``panel(panel, names)``. A game that words
these otherwise overrides :meth:`Presenter.opening_message`, :meth:`~Presenter.closed_challenge_text`,
:meth:`~Presenter.accepted_text` or :meth:`~Presenter.link_text`; the note of a lost thread is the kit's unless the
game words it (:meth:`~Presenter.thread_lost_text`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import Any, ClassVar

import discord
from discord.http import handle_message_parameters

from bot.i18n import N_, Texts, texts
from bot.match.kernel import OPPONENT_OPTION, MatchKernel, MatchUpdate
from bot.match.outbox import EventQueue, Outbox
from bot.render.common import ENGLISH, ButtonSurface, Surface, name
from bot.services import USER_ERRORS
from bot.services.preferences import DEFAULT_PANELS, PreferencesService
from bot.storage.records import MatchRecord, QueuedEvent
from cogs.kit.items import MatchButtons, RoutedView
from cogs.kit.layout import as_layout, walk_components, without_buttons
from cogs.kit.match_common import ensure_thread, fetch_name, mentions, message_link
from cogs.kit.messages import NO_MENTIONS, edit_kwargs, embed_of, message_kwargs, nonce
from cogs.kit.pictures import SentPictures
from cogs.kit.stats_ui import settings_service
from cogs.kit.tokens import delivered_by_interactions, interaction_delivery
from cogs.kit.web_links import with_review

log = logging.getLogger("cogs.kit")
#: the mark before a challenge message's closing words, by the event that closed it
CLOSED_MARKS = {"declined": "❌ ", "withdrawn": "↩️ ", "expired": "⌛ "}
#: what a lobby's message says once it closes without a game, by the event that closed it
LOBBY_CLOSED = {"withdrawn": N_("The {game} lobby of **{host}** was cancelled by its host."),
                "expired": N_("The {game} lobby of **{host}** expired: nobody joined or left in time."),
                "": N_("The {game} lobby of **{host}** closed.")}

__all__ = ["Presenter", "Show", "ShowLoop", "ThreadLost", "dm_name", "dms_closed_name", "mentions", "shows"]

RETRIES = 4
#: seconds before a match whose events could not be shown is tried again (its next update tries at once)
RETRY_LATER = (5.0, 15.0, 60.0, 300.0)
#: the match's thread can't be used: deleted (10003), no access (50001) or permission (50013), locked (50083)
THREAD_LOST = frozenset({10003, 50001, 50013, 50083})
#: how many of the channel's last messages are searched for a challenge message whose id was lost
CHALLENGE_SEARCH_LIMIT = 50
UNKNOWN_MESSAGE = 10008
#: DM channels opened at once (``POST /users/@me/channels`` is one rate limit for the whole bot)
DM_OPENS_AT_ONCE = 8
#: players whose DM channel id a process keeps (discord.py keeps 128 private channels)
KNOWN_DM_CHANNELS = 20_000


@dataclass
class Delivery:
    """When a step's panels reached their players: ``by_dm`` (seat -> the clock when its DM was sent or edited) and
    ``in_thread`` (the seats whose panel opens from the public board, which reaches them when it is shown)."""

    by_dm: dict[int, float] = field(default_factory=dict)
    in_thread: list[int] = field(default_factory=list)


def program_seats(match: MatchRecord) -> tuple[int, ...]:
    """The seats the bot plays itself (a match against it): no panel, no ping."""
    opponent = match.options.get(OPPONENT_OPTION)
    return (int(opponent["seat"]),) if opponent else ()


def dm_name(step: int, seat: int) -> str:
    """The name under which a seat's panel of a step is recorded: the id of the seat's DM message that showed it
    (one per match, edited step by step), ``0`` when the panel opens in the match's thread only."""
    return f"dm:{step}:{seat}"


def dms_closed_name(seat: int) -> str:
    """The mark of a seat whose DMs turned out to be closed in the match (its panels open in the thread)."""
    return f"dms_closed:{seat}"


def without_empty_files(kwargs: dict[str, Any]) -> dict[str, Any]:
    """``send`` keyword arguments of :func:`~cogs.kit.messages.message_kwargs` without ``files`` when there is no
    picture."""
    if not kwargs["files"]:
        del kwargs["files"]
    return kwargs


def uploaded_url(message: discord.Message, filename: str) -> str | None:
    """Where a picture the message holds is shown from, to show it elsewhere without uploading it again: its
    attachment's address without the signature, which Discord renders and refreshes in an embed."""
    found = next((a for a in message.attachments if a.filename == filename), None)
    return None if found is None else found.url.split("?", 1)[0]


class ThreadLost(Exception):
    """The match's thread can't be used any more (see :data:`THREAD_LOST`)."""

    def __init__(self, error: discord.HTTPException) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass
class Show:
    """One run's view of a match: its record as last stored (refreshed as setters return it), its players'
    mentions, the run's queued events and the position among them of the one being shown."""

    match: MatchRecord
    names: list[str]
    queued: list[QueuedEvent]
    at: int = 0
    #: the language of the server's public messages, read once a run (a change shows from the next one)
    language: str = "en"

    @property
    def batch(self) -> list[QueuedEvent]:
        """The run's events after the one being shown."""
        return self.queued[self.at + 1:]


ShowEvent = Callable[[Any, "Show", QueuedEvent], Awaitable[None]]


def shows(*event_types: str) -> Callable[[ShowEvent], ShowEvent]:
    """Register a presenter's method as what shows the events of ``event_types`` (its class's
    :attr:`ShowLoop.shown_by`)."""

    def register(method: ShowEvent) -> ShowEvent:
        method.shown_events = (*getattr(method, "shown_events", ()), *event_types)  # type: ignore[attr-defined]
        return method

    return register


class ShowLoop:
    """The kit's show loop, the outbox's only reader, which every game's presenter and the tournament cog run on:
    one background task per owner of events (a match, a tournament) showing its unshown events
    (:meth:`_show_unshown`, the subclass's, reading them from :attr:`outbox`), claimed while it shows them, a retry
    later when they could not all be shown, one lock per player's panel message, and the players' plain names.
    ``prefix`` names the tasks and retry timers; ``title`` the game."""

    prefix: ClassVar[str]
    title: ClassVar[str]
    #: what the loop shows the events of, in logs ("showing match 7 failed")
    owner_word: ClassVar[str] = "match"
    #: the outbox the loop reads: its events, claims and marks (and the ids of the messages it sends)
    outbox: EventQueue[Any]
    #: event type -> the method that shows it: the methods each class registers with :func:`shows`, over its base's
    shown_by: ClassVar[Mapping[str, ShowEvent]] = MappingProxyType({})
    #: event types whose shown mark may wait for the next event's in the same run (one write for several): events
    #: that show again as they were (an edit of the same message) if a crash comes before the mark, and that no
    #: player's action waits for (an event of another type is marked before it is shown, and so is a run's last)
    marked_with_the_next: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        table = dict(cls.shown_by)
        for value in vars(cls).values():
            for event_type in getattr(value, "shown_events", ()):
                table[event_type] = value
        for event_type, method in table.items():
            if getattr(cls, method.__name__, None) is not method:  # it would show the event the base class's way
                raise TypeError(f"{cls.__name__}.{method.__name__} overrides what shows {event_type!r} events: "
                                f"register it with @shows({event_type!r})")
        cls.shown_by = MappingProxyType(table)

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._closed = False
        self._failures: dict[int, int] = {}  # match id -> runs in a row that left events unshown
        self._names: dict[tuple[int, int], str] = {}
        self._panel_locks: weakref.WeakValueDictionary[tuple[int, int], asyncio.Lock] = weakref.WeakValueDictionary()

    def retry_key(self, match_id: int) -> tuple[str, int]:
        """The timer under which a match whose events could not be shown waits to be tried again."""
        return (f"{self.prefix}-show", match_id)

    async def _show_unshown(self, match_id: int) -> None:
        raise NotImplementedError

    async def _claim(self, owner_id: int) -> bool:
        """Whether this process shows the owner's events now (a database shared by several processes: one at a
        time, see :meth:`~bot.match.outbox.EventQueue.claim_events`); asked again before each run, which renews the
        claim."""
        return await self.outbox.claim_events(owner_id)

    async def _release(self, owner_id: int) -> None:
        """This process has shown what it claimed."""
        await self.outbox.release_events(owner_id)

    async def show_pending(self) -> list[int]:
        """After a start: show every owner's events left unshown (the outbox's, of this loop's kind of owner);
        returns their ids."""
        pending = await self.outbox.with_unshown_events()
        for owner_id in pending:
            self.show(owner_id)
        return pending

    # --- tasks -----------------------------------------------------------------------------------------------
    def show(self, match_id: int) -> None:
        """Show the match's unshown events soon (in a background task; one at a time per match)."""
        if self._closed:
            return
        self._again.add(match_id)
        if match_id not in self._tasks:
            self._tasks[match_id] = asyncio.get_running_loop().create_task(
                self._run(match_id), name=f"{self.prefix}-presenter-{match_id}")

    async def _run(self, match_id: int) -> None:
        claimed = False
        try:
            while match_id in self._again and not self._closed:
                self._again.discard(match_id)
                claimed = await self._claim(match_id)
                if not claimed:  # another process is showing them: look again later, in case it misses these
                    self._retry_later(match_id)
                    return
                await self._show_unshown(match_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s: showing %s %s failed; its events stay queued", self.title, self.owner_word, match_id)
            self._retry_later(match_id)
        finally:
            self._tasks.pop(match_id, None)
            if claimed:
                await self._release(match_id)

    def _retry_later(self, match_id: int) -> None:
        """Events of the match stay unshown: look again in a while (sooner if the match changes meanwhile)."""
        if self._closed:
            return
        failures = self._failures[match_id] = self._failures.get(match_id, 0) + 1
        delay = RETRY_LATER[min(failures, len(RETRY_LATER)) - 1]

        async def again() -> None:
            self.show(match_id)

        self.bot.timers.arm(self.retry_key(match_id), self.bot.clock() + delay, again)

    def _shown_all(self, match_id: int) -> None:
        """Every event of the match is shown: no retry waits any more."""
        if self._failures.pop(match_id, None) is not None:
            self.bot.timers.cancel(self.retry_key(match_id))

    def panel_lock(self, match_id: int, user_id: int) -> asyncio.Lock:
        """One change at a time to a player's panel message: the cog holds it while it applies and answers a click,
        the presenter while it closes or refreshes the panel, so neither undoes the other."""
        key = (match_id, user_id)
        lock = self._panel_locks.get(key)
        if lock is None:
            lock = self._panel_locks[key] = asyncio.Lock()
        return lock

    async def idle(self) -> None:
        """Wait until no match is being shown (tests, shutdown)."""
        while self._tasks or self._other_tasks():
            await asyncio.gather(*list(self._tasks.values()), *self._other_tasks(), return_exceptions=True)

    def _other_tasks(self) -> list[asyncio.Task[Any]]:
        """What a presenter does besides its matches' runs (card edits, DMs opened ahead)."""
        return []

    async def close(self) -> None:
        self._closed = True
        for match_id in list(self._failures):
            self.bot.timers.cancel(self.retry_key(match_id))
        tasks = list(self._tasks.values()) + self._other_tasks()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # --- names -----------------------------------------------------------------------------------------------
    def remember_name(self, guild_id: int | None, user: discord.abc.User) -> None:
        if guild_id is not None:
            self._names[(guild_id, user.id)] = user.display_name

    async def display_names(self, match: MatchRecord) -> list[str]:
        """Plain names (pictures, thread names and titles can't show mentions): cached, else asked of Discord."""
        names = []
        for seat, user_id in enumerate(match.user_ids):
            key = (match.guild_id, user_id)
            if key not in self._names:
                fetched = await fetch_name(self.bot, match.guild_id, user_id)
                if fetched is None:  # not cached: the next message asks again
                    names.append(f"Player {seat + 1}")
                    continue
                self._names[key] = fetched
            names.append(self._names[key])
        return names


class Presenter(ShowLoop):
    """See the module docstring. Subclasses set ``render``, ``buttons``, ``prefix`` (the tasks' and retry timers'),
    ``colour`` and ``finished_colour``."""

    render: ClassVar[ModuleType]
    buttons: ClassVar[MatchButtons]
    colour: ClassVar[discord.Colour]
    finished_colour: ClassVar[discord.Colour] = discord.Colour.from_rgb(110, 110, 110)
    #: the step's public message shows the match's own deadline (not only its events'): the step's deadline is
    #: started just before its panels go out (:meth:`_start_deadline`), so they and the board show the deadline
    #: they keep, and a step whose panels arrive on time needs no second edit of each
    deadline_starts_when_shown: ClassVar[bool] = False
    #: what the game's words call a match ("game" in War's)
    match_word: ClassVar[str] = "match"

    def __init__(self, bot: Any, service: MatchKernel) -> None:
        super().__init__(bot)
        self.service = service
        #: the matches' events to show and the ids of the messages that show them
        self.outbox: Outbox = service.outbox
        #: event type -> what shows it, bound once (:attr:`ShowLoop.shown_by`)
        self._shows: dict[str, Callable[[Show, QueuedEvent], Awaitable[None]]] = {
            event_type: method.__get__(self) for event_type, method in self.shown_by.items()}
        self.preferences = PreferencesService(service.db, clock=service.clock)
        self._rate_locks: weakref.WeakValueDictionary[tuple[int, str], asyncio.Lock] = weakref.WeakValueDictionary()
        self._pictures = SentPictures()
        self._dm_channels: OrderedDict[int, int] = OrderedDict()  # user id -> DM channel id, the newest last
        self._dm_opening: dict[int, asyncio.Future[int]] = {}
        self._dm_opens = asyncio.Semaphore(DM_OPENS_AT_ONCE)
        self._background: set[asyncio.Task[None]] = set()
        #: where the bot is no member, what is shown goes through interaction tokens (:mod:`cogs.kit.tokens`)
        self.tokens = interaction_delivery(bot)
        #: match id -> {event seq: its card edit on its way} (:meth:`_card_later`)
        self._card_work: dict[int, dict[int, asyncio.Task[None]]] = {}
        #: match id -> the last event this process showed / marked shown, while a card edit is on its way
        self._shown_up_to: dict[int, int] = {}
        self._marked: dict[int, int] = {}
        #: match id -> (the last event seq it holds, the events of the match's phase being shown and after it)
        self._phases: dict[int, tuple[int, list[QueuedEvent]]] = {}
        #: match id -> the last step whose buttons reached the players in the thread (:meth:`_step_shown`)
        self._steps_shown: dict[int, int] = {}
        #: what a committed update the presenter made (a moved deadline) is handed to: the cog's ``after``
        self.on_update: Callable[[MatchUpdate], None] = lambda update: None

    @property
    def title(self) -> str:  # type: ignore[override]
        return str(self.render.TITLE)

    def _other_tasks(self) -> list[asyncio.Task[Any]]:
        return [*self._background, *(task for work in self._card_work.values() for task in work.values())]

    # --- the loop --------------------------------------------------------------------------------------------
    async def _new_show(self, match: MatchRecord, queued: list[QueuedEvent]) -> Show:
        """A run's :class:`Show` (a game's presenter may keep more in its own)."""
        return Show(match, mentions(match), queued, language=await self.language(match))

    async def _show_unshown(self, match_id: int) -> None:
        seen = self._shown_up_to.get(match_id, 0)
        # (an event this process showed whose card edit is still on its way is unshown in the database: not again)
        queued = [q for q in await self.outbox.unshown_events(match_id) if q.seq > seen]
        if not queued:
            return
        show = await self._new_show(await self.outbox.match(match_id), queued)
        # an event that shows nothing, or one of ``marked_with_the_next``, is marked with the next one (marks go up to
        # a seq); ``waiting``: such an event was shown, its mark not written yet
        unmarked: int | None = None
        waiting = False
        for index, event in enumerate(queued):
            if self._closed:
                return
            show.at = index
            handler = self._handler(show, event)
            if handler is None:
                unmarked = event.seq
                continue
            if waiting and event.type not in self.marked_with_the_next and unmarked is not None:
                await self._mark_shown(match_id, unmarked)
                waiting = False
            show.match = await self.outbox.match(match_id)
            if not await self._show_with_retries(show, event, handler):
                if unmarked is not None and waiting:
                    await self._mark_shown(match_id, unmarked)
                self._retry_later(match_id)
                return
            if event.type in self.marked_with_the_next:
                unmarked, waiting = event.seq, True
                continue
            await self._mark_shown(match_id, event.seq)
            unmarked, waiting = None, False
        if unmarked is not None:
            await self._mark_shown(match_id, unmarked)
        self._shown_all(match_id)

    async def _mark_shown(self, match_id: int, seq: int) -> None:
        """Events up to ``seq`` are shown: marked so in the database up to the first whose card edit is still on
        its way (:meth:`_card_later`; marks go up to a seq), the rest once it lands."""
        self._shown_up_to[match_id] = max(seq, self._shown_up_to.get(match_id, 0))
        pending = self._card_work.get(match_id)
        up_to = min(pending) - 1 if pending else self._shown_up_to[match_id]
        if up_to > self._marked.get(match_id, 0):
            await self.outbox.mark_shown(match_id, up_to)
            self._marked[match_id] = up_to
        if not pending:
            self._marked.pop(match_id, None)
            self._shown_up_to.pop(match_id, None)

    def _card_later(self, show: Show, event: QueuedEvent, **card: Any) -> None:
        """The match's message in its channel made to show ``card`` (:meth:`_show_card`'s arguments) off the match's
        way: the channel's edits are one rate limit for every match there (5 per 5 s), and the thread's messages
        and the players' panels need not wait for it. The event counts as shown only once the edit landed (a
        restart shows it again); a later card of the match waits for it (:meth:`_show_card`). An edit that keeps
        failing is given up after :data:`RETRIES` tries (the match's next card shows the match as it is then)."""
        own = dataclasses.replace(show)

        async def edit() -> None:
            for attempt in range(RETRIES):
                try:
                    await self._show_card(own, **card)
                    break
                except discord.HTTPException as error:  # (a message gone or refused is handled there)
                    if attempt == RETRIES - 1:
                        log.warning("%s match %s: its message in the channel could not show event %s (%s); the "
                                    "next one will", self.title, event.match_id, event.seq, error)
                    else:
                        await asyncio.sleep(0.5 * 2 ** attempt)
            pending = self._card_work[event.match_id]
            pending.pop(event.seq, None)
            if not pending:
                del self._card_work[event.match_id]
            await self._mark_shown(event.match_id, self._shown_up_to.get(event.match_id, event.seq))

        task = asyncio.get_running_loop().create_task(edit(), name=f"{self.prefix}-card-{event.match_id}")
        self._card_work.setdefault(event.match_id, {})[event.seq] = task

    def _handler(self, show: Show, event: QueuedEvent) -> Callable[[Show, QueuedEvent], Awaitable[None]] | None:
        """What shows the run's event ``show.at`` (the method registered for its type: :func:`shows`); ``None``:
        nothing (it is marked shown with the next one)."""
        return self._shows.get(event.type)

    async def _show_with_retries(self, show: Show, event: QueuedEvent,
                                 handler: Callable[[Show, QueuedEvent], Awaitable[None]]) -> bool:
        """Show one event; ``False``: it could not be shown (it stays unshown, and so does everything after it)."""
        moved = False
        for attempt in range(RETRIES):
            try:
                await handler(show, event)
                return True
            except ThreadLost as lost:
                if moved or not await self._move_to_channel(show, lost.error):
                    log.warning("%s: showing match %s failed at event %s (%s), in its thread or its channel: %s;"
                                " it waits", self.title, event.match_id, event.seq, event.type, lost.error)
                    return False
                moved = True  # the same event again, in the channel
            except (discord.Forbidden, discord.NotFound) as error:
                log.warning("%s: showing match %s failed at event %s (%s): %s; it waits, and so does everything"
                            " after it", self.title, event.match_id, event.seq, event.type, error)
                return False
            except discord.HTTPException as error:
                if attempt == RETRIES - 1:
                    log.warning("%s: showing match %s failed at event %s (%s) %d times (%s); trying again later",
                                self.title, event.match_id, event.seq, event.type, RETRIES, error)
                    return False
                await asyncio.sleep(0.5 * 2 ** attempt)
        return False

    def thread_lost_text(self, names: Sequence[str], say: Texts = ENGLISH) -> str:
        """The channel's note when the match's thread is lost, in ``say``'s language (the server's)."""
        _ = say
        players = ", ".join(f"**{name(player)}**" for player in names)
        return "⚠️ " + _("The thread of the {game} match of {players} is gone, so the match goes on here.",
                          game=say(self.title), players=players)

    async def _move_to_channel(self, show: Show, error: discord.HTTPException) -> bool:
        """The thread is lost: say so in the channel and go on there (``False``: the channel can't be used
        either, nothing changed)."""
        match = show.match
        log.warning("%s match %s: its thread %s can't be used (%s); going on in channel %s", self.title, match.id,
                    match.thread_id, error, match.channel_id)
        try:
            message = await self._send(match, self._channel(match.channel_id), "moved",
                                       content=self.thread_lost_text(show.names, texts(show.language)),
                                       allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as failure:
            log.warning("%s match %s: its channel %s can't be used either: %s", self.title, match.id,
                        match.channel_id, failure)
            return False
        show.match = await self.outbox.move_to_channel(match.id, message.id)
        return True

    # --- sending ---------------------------------------------------------------------------------------------
    def _channel(self, channel_id: int, *, dm: bool = False) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private if dm else None)

    def _turn(self, key: tuple[int, str]) -> asyncio.Lock:
        """Requests of one rate limit go one at a time, whichever match they are for (``(channel id, "send")``,
        ``(channel id, "edit")``): discord.py learns a limit from the first answer, so
        requests sent together before it would overrun it (429s); one after the other, it paces them."""
        lock = self._rate_locks.get(key)
        if lock is None:
            lock = self._rate_locks[key] = asyncio.Lock()
        return lock

    async def _send(self, match: MatchRecord, channel: discord.abc.Messageable, name: str,
                    **kwargs: Any) -> discord.Message:
        """Send the match's message ``name`` with its :func:`nonce`: sent again after a crash, it is not doubled. A
        match shown through interaction tokens gets its one message edited instead
        (:meth:`~cogs.kit.tokens.InteractionDelivery.replace`)."""
        channel_id = channel.id  # type: ignore[attr-defined]
        if delivered_by_interactions(match) and channel_id == match.play_channel_id:
            self.tokens.track(match)
            return await self.tokens.replace(match, channel_id, **kwargs)
        async with self._turn((channel_id, "send")):
            message = await channel.send(nonce=nonce(match, name, channel_id), **as_layout(kwargs, edit=False))
        self._pictures.remember(message.id, kwargs.get("files", ()))
        return message

    async def _edit(self, channel_id: int, message_id: int, *, dm: bool = False, **kwargs: Any) -> dict[str, Any]:
        """Edit a message (its picture uploaded only when it changed); returns the message as edited (Discord's
        payload: nothing here reads it but its attachments, so it is not made a ``discord.Message``). An edit of
        ``view=None`` alone takes the message's buttons away and keeps all else it shows. In a channel where the bot
        is no member the edit goes through the channel's newest interaction token (:mod:`cogs.kit.tokens`)."""
        kwargs = self._pictures.unchanged(message_id, kwargs)
        by_token = not dm and self.tokens.serves(channel_id)
        if set(kwargs) <= {"view", "allowed_mentions"} and kwargs.get("view") is None:
            shown = await (self.tokens.fetch(channel_id, message_id) if by_token
                           else self._channel(channel_id, dm=dm).fetch_message(message_id))
            kwargs = {**kwargs, "view": without_buttons(shown)}
        if by_token:
            message = await self.tokens.edit(channel_id, message_id, **as_layout(kwargs, edit=True))
            if "attachments" in kwargs:
                self._pictures.remember(message_id, kwargs["attachments"])
            return message
        state = self.bot._connection
        async with self._turn((channel_id, "edit")):
            with handle_message_parameters(previous_allowed_mentions=state.allowed_mentions,
                                           **as_layout(kwargs, edit=True)) as params:
                message = await self.bot.http.edit_message(channel_id, message_id, params=params)
        if "attachments" in kwargs:
            self._pictures.remember(message_id, kwargs["attachments"])
        return message

    @staticmethod
    def _raise_if_thread_lost(match: MatchRecord, error: discord.HTTPException) -> None:
        if match.thread_id is not None and error.code in THREAD_LOST:
            raise ThreadLost(error) from error

    async def _play_send(self, show: Show, name: str, **kwargs: Any) -> discord.Message:
        """Send the match's message ``name`` where the match is played (:class:`ThreadLost` for a lost thread)."""
        try:
            return await self._send(show.match, self._channel(show.match.play_channel_id), name, **kwargs)
        except discord.HTTPException as error:
            self._raise_if_thread_lost(show.match, error)
            raise

    async def _play_edit(self, show: Show, message_id: int, **kwargs: Any) -> None:
        """Edit a message where the match is played (:class:`ThreadLost` for a lost thread)."""
        try:
            await self._edit(show.match.play_channel_id, message_id, **kwargs)
        except discord.HTTPException as error:
            self._raise_if_thread_lost(show.match, error)
            raise

    async def _play_edit_if_there(self, show: Show, message_id: int, **kwargs: Any) -> bool:
        """:meth:`_play_edit`; ``False`` when the message is gone (deleted, or left behind in a lost thread): the
        caller posts it again."""
        try:
            await self._play_edit(show, message_id, **kwargs)
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE:
                raise
            log.info("%s match %s: message %s is gone; posting it again", self.title, show.match.id, message_id)
            return False
        return True

    async def _post(self, show: Show, name: str, **kwargs: Any) -> None:
        """The match's message ``name`` where the match is played, once (its id stored)."""
        if name in show.match.messages:
            return
        kwargs.setdefault("allowed_mentions", NO_MENTIONS)
        message = await self._play_send(show, name, **kwargs)
        show.match = await self.outbox.set_message(show.match.id, name, message.id)

    async def _drop(self, show: Show, name: str) -> None:
        """Delete the match's message ``name`` where the match is played, when it has one (a note that means nothing
        any more); its id stays stored, so a run shown again does not post it again."""
        message_id = show.match.messages.get(name)
        if message_id is None or delivered_by_interactions(show.match):  # (there, every name is the one table)
            return
        try:
            async with self._turn((show.match.play_channel_id, "delete")):
                await self.bot.http.delete_message(show.match.play_channel_id, message_id)
        except discord.NotFound:
            pass  # deleted already

    # --- live messages: one message edited as a phase of the match goes on -----------------------------------
    async def _show_live(self, show: Show, name: str, surface: Surface, *, view: RoutedView | None = None,
                         below: str = "", ping: Sequence[int] = ()) -> None:
        """The match's live message ``name`` (one message a phase of the match -- a round, a block of rounds -- is
        shown in, edited as it goes on, so the thread gets one message a phase) made to show ``surface``, ``view``'s
        buttons (none: no buttons) and ``below`` under them: edited when the match has it, else posted (again, when
        it is gone), mentioning the users ``ping`` then only: an edit notifies nobody."""
        message_id = show.match.messages.get(name)
        if message_id is not None and await self._play_edit_if_there(
                show, message_id, **edit_kwargs(surface, view=view, colour=self.colour, below=below)):
            return
        kwargs = without_empty_files(message_kwargs(surface, view=view, colour=self.colour, below=below))
        if ping:
            kwargs["content"] = " ".join(f"<@{user_id}>" for user_id in ping)
            kwargs["allowed_mentions"] = discord.AllowedMentions(users=[discord.Object(u) for u in ping])
        message = await self._play_send(show, name if message_id is None else f"{name}/{message_id}", **kwargs)
        show.match = await self.outbox.set_message(show.match.id, name, message.id)

    async def _phase_events(self, show: Show, event: QueuedEvent,
                            phase_of: Callable[[QueuedEvent], int | None]) -> list[QueuedEvent]:
        """The match's events of the phase ``event`` is in, up to it. ``phase_of`` tells an event's phase (a round, a
        block of rounds; ``None``: the phase going on when it came, e.g. a timeout or the result): the phase is the
        last one named at or before ``event``, its events the ones back to an event of another phase. Kept from run
        to run while the runs follow each other (a phase's message is rendered again at each of its events without
        reading the whole match), read from the stored events otherwise."""
        kept = self._phases.get(show.match.id)
        first = show.queued[0].seq
        if kept is not None and kept[0] >= first - 1:
            known = [q for q in kept[1] if q.seq < first] + show.queued
        else:
            known = await self.outbox.events(show.match.id)
        upto = [q for q in known if q.seq <= event.seq]
        phase = next((p for q in reversed(upto) if (p := phase_of(q)) is not None), None)
        start = len(upto)
        while start > 0 and phase_of(upto[start - 1]) in (None, phase):
            start -= 1
        self._phases[show.match.id] = (known[-1].seq if known else event.seq, known[start:])
        return upto[start:]

    # --- the match's message in its channel ------------------------------------------------------------------
    @staticmethod
    def has_channel_card(match: MatchRecord) -> bool:
        """Whether the match has a message of its own in its channel (challenge, then live, then result): every
        match but a tournament's, which the tournament's own messages show in the channel, and one shown through
        interaction tokens, whose one message is where it is played (:mod:`cogs.kit.tokens`)."""
        return "tournament" not in match.options and not delivered_by_interactions(match)

    async def _show_card(self, show: Show, *, content: str | None = None, surface: Surface | None = None,
                         extra: str = "", view: RoutedView | None = None) -> discord.Message | None:
        """The match's one message in its channel (its challenge message) made to show ``content`` and/or
        ``surface`` (with ``extra`` lines and ``view``'s buttons; none: no buttons): edited, or posted when the
        match has none or it is gone. ``None``: the match has none (:meth:`has_channel_card`) or the channel refuses
        it (the match goes on without)."""
        match = show.match
        if not self.has_channel_card(match):
            return None
        earlier = [task for task in self._card_work.get(match.id, {}).values() if task is not asyncio.current_task()]
        if earlier:  # (a card edit on its way lands first: the channel shows the match's latest)
            await asyncio.gather(*earlier, return_exceptions=True)
            show.match = match = await self.outbox.match(match.id)
        message_id = match.challenge_message_id
        if message_id is not None:
            edit: dict[str, Any] = {"content": content, "embeds": [], "attachments": [], "view": view,
                                    "allowed_mentions": NO_MENTIONS}
            if surface is not None:
                edit.update(edit_kwargs(surface, extra=extra, view=view, colour=self.colour))
                del edit["embeds"]
            try:
                edited = await self._edit(match.channel_id, message_id, **edit)
                return discord.Message(state=self.bot._connection, channel=self._channel(match.channel_id),
                                       data=edited)  # type: ignore[arg-type]
            except discord.Forbidden as error:
                log.info("%s match %s: could not update its message %s: %s", self.title, match.id, message_id, error)
                return None
            except discord.NotFound as error:
                if error.code != UNKNOWN_MESSAGE:
                    raise
                log.info("%s match %s: its message %s is gone; posting it again", self.title, match.id, message_id)
        send: dict[str, Any] = {"allowed_mentions": NO_MENTIONS}
        if surface is not None:
            send.update(without_empty_files(message_kwargs(surface, extra=extra, view=view, colour=self.colour)))
        elif view is not None:
            send["view"] = view
        if content is not None:
            send["content"] = content
        name = "card" if message_id is None else f"card/{message_id}"
        try:
            message = await self._send(match, self._channel(match.channel_id), name, **send)
        except discord.Forbidden as error:
            log.info("%s match %s: no message in channel %s: %s", self.title, match.id, match.channel_id, error)
            return None
        show.match = await self.outbox.set_challenge_message(match.id, message.id)
        return message

    def can_rematch(self, match: MatchRecord) -> bool:
        """Whether the match can be played again from its result: it has a message of its own in the channel, and
        two players (a challenge) or a game with lobbies (a new lobby)."""
        return (len(match.seats) == 2 or self.buttons.LobbyButton is not None) and self.has_channel_card(match)

    def rematch_view(self, match: MatchRecord, say: Texts = ENGLISH) -> RoutedView | None:
        """The Rematch button of a finished match's result, while its rematch was not made yet (in ``say``'s
        language: the server's)."""
        if "rematch" in match.messages or not self.can_rematch(match):
            return None
        return self.buttons.rematch_view(match.id, say=say)

    async def remove_rematch(self, channel_id: int, message_id: int) -> None:
        """The rematch was made: the result message loses its Rematch button (a failure is only logged)."""
        try:
            await self._edit(channel_id, message_id, view=None)
        except discord.HTTPException as error:
            log.info("%s: could not remove the Rematch button of message %s: %s", self.title, message_id, error)

    # --- the challenge ---------------------------------------------------------------------------------------
    async def language(self, match: MatchRecord) -> str:
        """The language of the public messages in the match's server (``/settings language``)."""
        return await settings_service(self.bot).language(match.guild_id)

    async def player_words(self, match: MatchRecord, seat: int) -> Texts:
        """The words of what the bot sends a seat outside an interaction (its DM panel): its player's Discord
        language as their client last showed it, else the server's."""
        user_id = match.seats[seat].user_id
        languages = getattr(self.bot, "player_languages", None)
        known = {} if languages is None else await languages.of([user_id])
        return texts(known.get(user_id) or await self.language(match))

    def opening_message(self, match: MatchRecord, language: str = "en") -> dict[str, Any]:
        """``send`` keyword arguments of the match's challenge message as the match stands (the opponent pinged), in
        the server's ``language``; a game with lobbies words its lobby message here too."""
        names = mentions(match)
        assert match.deadline_at is not None
        surface = self.render.challenge(names[0], names[1], match.rules, expires_at=match.deadline_at,
                                        say=texts(language))
        return {"content": names[1], "embed": embed_of(surface, colour=self.colour),
                "view": self.buttons.challenge_view(match.id, surface.buttons),
                "allowed_mentions": discord.AllowedMentions(users=[discord.Object(match.opponent_id)])}

    @shows("challenge", "lobby")
    async def _on_challenge(self, show: Show, event: QueuedEvent) -> None:
        match = show.match
        self.open_dms_ahead(match)
        if match.challenge_message_id is not None or match.status != "challenge":
            return
        channel = self._channel(match.channel_id)
        message_id = await self._find_challenge(match, channel)
        if message_id is None:
            message = await self._send(match, channel, "challenge",
                                       **self.opening_message(match, await self.language(match)))
            message_id = message.id
        show.match = await self.outbox.set_challenge_message(match.id, message_id)


    @shows("joined", "left")
    async def _on_joined(self, show: Show, event: QueuedEvent) -> None:
        """A lobby's message shows who is in it now."""
        match = show.match
        if match.challenge_message_id is None or match.status != "challenge":
            return
        self.open_dms_ahead(match)
        try:
            await self._edit(match.channel_id, match.challenge_message_id,
                             **self.opening_message(match, await self.language(match)))
        except (discord.Forbidden, discord.NotFound) as error:
            log.info("%s match %s: could not update its lobby message: %s", self.title, match.id, error)


    async def _find_challenge(self, match: MatchRecord, channel: discord.PartialMessageable) -> int | None:
        """The challenge (or lobby) message the command's answer made before a crash kept its id from being stored
        (an interaction's answer takes no nonce): the newest of the bot's messages with this match's challenge
        buttons among the channel's last :data:`CHALLENGE_SEARCH_LIMIT`."""
        prefixes = self.buttons.opening_id_prefixes(match.id)
        me = self.bot.user
        try:
            async for message in channel.history(limit=CHALLENGE_SEARCH_LIMIT):
                if me is not None and message.author.id != me.id:
                    continue
                if any(str(getattr(item, "custom_id", "") or "").startswith(prefixes)
                       for item in walk_components(message.components)):
                    return message.id
        except discord.HTTPException as error:
            log.info("%s match %s: could not look for its challenge message: %s", self.title, match.id, error)
        return None

    def match_title(self, match: MatchRecord) -> str:
        """The name of the match's game (a variant's own)."""
        return self.title

    def closed_challenge_text(self, match: MatchRecord, event_type: str, names: Sequence[str],
                              language: str = "en") -> str:
        """What the challenge message says once it is ``declined``, ``withdrawn`` or ``expired`` (the event), in
        the server's ``language``; a lobby's, once it closes without a game."""
        if match.options.get("lobby"):
            _ = texts(language)
            closed = LOBBY_CLOSED.get(event_type, LOBBY_CLOSED[""])
            return CLOSED_MARKS.get(event_type, "") + _(closed, game=_(self.match_title(match)), host=names[0])
        return str(getattr(self.render, event_type)(*names, say=texts(language)))

    def accepted_text(self, match: MatchRecord, names: Sequence[str], thread_id: int | None,
                      language: str = "en") -> str:
        """What the challenge message says once accepted and played in the channel (``thread_id`` ``None``)."""
        return str(self.render.accepted(*names, thread_id, say=texts(language)))

    def link_text(self, match: MatchRecord, names: Sequence[str], thread_id: int, language: str = "en") -> str:
        """What the match's message in its channel says while the match is played in its thread: who plays, and
        the link to the thread."""
        return str(self.render.link_line(names, match.rules, thread_id, say=texts(language)))

    async def _close_challenge(self, match: MatchRecord, text: str) -> None:
        """The challenge message says ``text`` and loses its buttons."""
        if match.challenge_message_id is None:
            return
        closed = {"content": text, "embeds": [], "view": None, "allowed_mentions": NO_MENTIONS}
        try:
            await self._edit(match.channel_id, match.challenge_message_id, **closed)
        except (discord.Forbidden, discord.NotFound) as error:  # deleted, or out of reach: nothing hidden in it
            log.info("%s match %s: could not close its challenge message: %s", self.title, match.id, error)

    @shows("declined", "withdrawn", "expired")
    async def _on_declined(self, show: Show, event: QueuedEvent) -> None:
        language = show.language
        await self._close_challenge(show.match,
                                    self.closed_challenge_text(show.match, event.type, show.names, language))


    @shows("accepted")
    async def _on_accepted(self, show: Show, event: QueuedEvent) -> None:
        """The thread is made, and the match's message in the channel says who plays and where (no buttons; on its
        way while the match goes on: :meth:`_card_later`)."""
        self.open_dms_ahead(show.match)
        thread_id = await self._ensure_thread(show)
        language = show.language
        if thread_id is None:
            live = self.accepted_text(show.match, show.names, thread_id, language)
        else:
            live = self.link_text(show.match, show.names, thread_id, language)
        self._card_later(show, event, content=live)

    async def _ensure_thread(self, show: Show) -> int | None:
        """The match's public thread, made from the challenge message the first time; ``None``: the match is played
        in the channel (thread per match is off on the server, the command was used in a thread, or threads are not
        allowed there)."""
        name = ""
        if show.match.thread_id is None and "in_channel" not in show.match.messages:
            plain = await self.display_names(show.match)
            _ = texts(show.language)
            players = _("{first} vs {second}", first=plain[0], second=plain[1]) if len(plain) == 2 else ", ".join(plain)
            name = _("{game}: {players}", game=_(self.match_title(show.match)), players=players)
        show.match, thread_id = await ensure_thread(self.bot, self.service, show.match, name)
        return thread_id

    # --- the seats' panels -----------------------------------------------------------------------------------
    def _panels_here(self, match: MatchRecord, step: int) -> list[int]:
        """The seats whose panel of ``step`` opens only in the match's thread, from the board's button (they
        prefer it, or their DMs are closed)."""
        return [seat for seat in range(len(match.seats)) if match.messages.get(dm_name(step, seat)) == 0]

    def _dms_closed(self, match: MatchRecord) -> list[int]:
        """The seats whose DMs turned out to be closed in this match (their panels open in the thread from then
        on)."""
        return [seat for seat in range(len(match.seats)) if dms_closed_name(seat) in match.messages]

    def _panel_pings(self, match: MatchRecord, step: int) -> list[int]:
        """The seats to mention on ``step``'s public message, so that each player gets at most one notification a
        step: those whose panel of the step opens in the thread, the first time it does (their first panel of the
        match, or the previous one went by DM). A panel sent by DM notifies by itself, the first time only: later
        steps edit that message, which notifies nobody."""
        return [seat for seat in self._panels_here(match, step)
                if match.messages.get(dm_name(step - 1, seat)) != 0 and seat not in program_seats(match)]

    def panel_footer(self, match: MatchRecord, say: Texts = ENGLISH) -> str:
        template = N_("Your {game} table in {channel}.") if self.match_word == "table" else N_(
            "Your {game} match in {channel}.")
        return "-# " + say(template, game=say(self.title), channel=f"<#{match.play_channel_id}>")

    def where_line(self, channel_id: int, say: Texts = ENGLISH) -> str:
        """``The match: <#thread>`` (``game``, ``table``: as the game calls a match), in ``say``'s language."""
        where = {"game": N_("The game: {channel}"), "table": N_("The table: {channel}")}.get(
            self.match_word, N_("The match: {channel}"))
        return say(where, channel=f"<#{channel_id}>")

    async def panel_message(self, match: MatchRecord, panel: Any, *, answering: bool = True,
                            say: Texts = ENGLISH) -> dict[str, Any]:
        """``send`` keyword arguments of a new message showing ``panel`` in ``say``'s language (the player's:
        ``private_words(interaction)`` when ``answering``, an interaction's answer waiting for it, else
        :meth:`player_words` for a DM)."""
        surface = self.panel_surface_of(match, panel, say)
        return without_empty_files(message_kwargs(
            surface, extra=self.panel_footer(match, say), colour=self.colour,
            view=self.buttons.panel_view(match.id, self.panel_step(panel), surface)))

    def panel_surface_of(self, match: MatchRecord, panel: Any, say: Texts = ENGLISH) -> ButtonSurface:
        """What a panel shows, with its buttons, in ``say``'s language (the game's render's ``panel``)."""
        return self.render.panel(panel, mentions(match), say=say)

    @staticmethod
    def panel_step(panel: Any) -> int:
        """The step a panel is of."""
        return int(panel.step)

    def panel_due(self, panel: Any, step: int) -> bool:
        """Whether ``panel`` (a seat's current one) is to be sent as the seat's panel of ``step``."""
        return self.panel_step(panel) == step and not panel.finished

    async def panel_answer(self, match: MatchRecord, panel: Any, shown: discord.Message | None, *,
                           say: Texts = ENGLISH) -> dict[str, Any]:
        """``edit`` keyword arguments of a click's answer: the panel message (``shown``) as ``panel`` shows it."""
        return await self.panel_edit(match, panel, answering=True, say=say)

    async def panel_edit(self, match: MatchRecord, panel: Any, *, answering: bool = False,
                         say: Texts = ENGLISH) -> dict[str, Any]:
        """``edit`` keyword arguments that make a panel message show ``panel`` (no buttons once chosen or over), in
        ``say``'s language."""
        surface = self.panel_surface_of(match, panel, say)
        return edit_kwargs(surface, extra=self.panel_footer(match, say),
                           view=self.buttons.panel_view(match.id, self.panel_step(panel), surface),
                           colour=self.finished_colour if panel.ended else self.colour)

    async def _send_panels(self, show: Show, step: int) -> Delivery:
        """Each seat's panel of ``step``, when ``step`` is the match's current one (once per seat and step, for a seat
        with something to choose: :meth:`_has_choice`): by DM for a player who prefers it (the default), else in the
        thread only, from the board's button. The seats' DMs go out together (each waits only for its own DM
        channel). Returns when each panel reached its player, for
        :meth:`_deadline_from_delivery`."""
        match = show.match
        delivery = Delivery()
        if match.status != "active" or match.step != step:
            return delivery
        seats = [seat for seat in range(len(match.seats)) if dm_name(step, seat) not in match.messages
                 and seat not in program_seats(match) and await self._has_choice(match, seat)]
        if not seats:
            return delivery
        places = await self.preferences.panel_places(match.seats[seat].user_id for seat in seats)
        if self.deadline_starts_when_shown:
            await self._start_deadline(show, step)
        messages: dict[str, int] = {}
        outcomes = await asyncio.gather(*(
            self._send_panel(show, step, seat, places[match.seats[seat].user_id], messages, delivery)
            for seat in seats), return_exceptions=True)
        # (the stored names: one write for the seats together, whatever each DM did)
        if messages:
            show.match = await self.outbox.set_messages(match.id, messages)
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome
        return delivery

    async def _has_choice(self, match: MatchRecord, seat: int) -> bool:
        """Whether the seat has something to choose in the match's current step: a seat the step does not wait for,
        or whose only action the kernel played for it, gets no panel of the step (no DM, no ping, no deadline)."""
        panel = await self.service.panel(match.id, match.seats[seat].user_id)
        return not self.service.flow.locked(panel)

    async def _send_panel(self, show: Show, step: int, seat: int, place: str, messages: dict[str, int],
                          delivery: Delivery) -> None:
        """Seat ``seat``'s panel of ``step`` (message ``dm:<step>:<seat>``, put in ``messages`` for the caller to
        store): the seat's one DM message of the match, sent the first time and edited for each later step; ``0``
        when the panel opens in the thread only (``place`` is ``here``, or the seat's DMs are closed:
        :meth:`_dms_closed`, found out here the first time). ``delivery`` gets when the DM reached the player."""
        match = show.match
        user_id = match.seats[seat].user_id
        if place == "here" or seat in self._dms_closed(match) or delivered_by_interactions(match):
            messages[dm_name(step, seat)] = 0
            delivery.in_thread.append(seat)
            return
        # under the player's panel lock: a click on the DM's previous step is answered before the message moves on
        async with self.panel_lock(match.id, user_id):
            panel = await self.service.panel(match.id, user_id)
            if not self.panel_due(panel, step):
                return
            try:
                message_id = await self._show_in_dm(show, step, seat, panel)
                delivery.by_dm[seat] = self.service.clock()
            except discord.Forbidden as error:
                log.info("%s match %s: no DM to seat %s (%s); its panels open in the match from now on",
                         self.title, match.id, seat, error)
                messages[dms_closed_name(seat)] = 0
                delivery.in_thread.append(seat)
                message_id = 0
        messages[dm_name(step, seat)] = message_id

    async def _start_deadline(self, show: Show, step: int) -> None:
        """The step's panels and public message are about to be shown, and nothing shows its deadline yet: it
        starts now (it was set when the step began, before the last step's flips or rounds were shown), moved
        without an event (:meth:`MatchKernel.step_delivered`'s ``unseen``)."""
        update = await self.service.step_delivered(show.match.id, step, self.service.clock(), unseen=True)
        if update is not None:
            show.match = update.match
            self.on_update(update)

    async def _deadline_from_delivery(self, show: Show, step: int, delivery: Delivery) -> None:
        """After the step's panels (:meth:`_send_panels`) and its public board were shown: the step's deadline
        starts when its last player could act (their DM, or the board for a player whose panel opens there, which
        is now); the kernel moves it if the panels were late (:meth:`MatchKernel.step_delivered`)."""
        times = list(delivery.by_dm.values()) + ([self.service.clock()] if delivery.in_thread else [])
        if not times:
            return
        update = await self.service.step_delivered(show.match.id, step, max(times))
        if update is not None:
            show.match = update.match
            self.on_update(update)

    async def _step_shown(self, show: Show, step: int) -> None:
        """The message whose buttons the players of ``step`` act with (War's table, Speed War's round) was just
        shown to them: the step's deadline starts no earlier than now (the kernel moves it when the message came
        late: :meth:`MatchKernel.step_delivered`). Once per step."""
        match_id = show.match.id
        if self._steps_shown.get(match_id) == step:
            return
        self._steps_shown[match_id] = step
        update = await self.service.step_delivered(match_id, step, self.service.clock())
        if update is not None:
            show.match = update.match
            self.on_update(update)

    async def _show_in_dm(self, show: Show, step: int, seat: int, panel: Any) -> int:
        """The seat's DM message of the match made to show ``panel``: edited when there is one (an edit notifies
        nobody), else sent (with the nonce of ``dm:<step>:<seat>``) and stored as the seat's; its id.
        ``discord.Forbidden``: the seat's DMs are closed."""
        match = show.match
        record = match.seats[seat]
        if record.dm_message_id and record.dm_channel_id is not None:
            try:
                await self._edit(record.dm_channel_id, record.dm_message_id, dm=True,
                                 **await self.panel_edit(match, panel, say=await self.player_words(match, seat)))
                return record.dm_message_id
            except discord.NotFound as error:
                if error.code != UNKNOWN_MESSAGE:
                    raise
                log.info("%s match %s: seat %s's DM panel is gone; sending it again", self.title, match.id, seat)
        channel = await self._dm(match, seat)
        message = await self._send(match, channel, dm_name(step, seat),
                                   **await self.panel_message(match, panel, answering=False,
                                                              say=await self.player_words(match, seat)))
        show.match = await self.outbox.set_dm(match.id, record.user_id, channel.id, message.id)
        return message.id

    async def _dm(self, match: MatchRecord, seat: int) -> discord.abc.Messageable:
        """The seat's DM channel: the one the match stored, else the player's as this process knows it (opened
        ahead: :meth:`open_dms_ahead`), else opened now."""
        record = match.seats[seat]
        if record.dm_channel_id is not None:
            return self._channel(record.dm_channel_id, dm=True)
        return self._channel(await self._dm_channel_id(record.user_id), dm=True)

    async def _dm_channel_id(self, user_id: int) -> int:
        """The id of the player's DM channel with the bot (it never changes): known, else opened, a few at a time
        (:data:`DM_OPENS_AT_ONCE`: discord.py paces the route once its first answer told the limit; a player's
        second ask waits for the first)."""
        known = self._dm_channels.get(user_id)
        if known is not None:
            self._dm_channels.move_to_end(user_id)
            return known
        opening = self._dm_opening.get(user_id)
        if opening is None:
            opening = self._dm_opening[user_id] = asyncio.ensure_future(self._open_dm(user_id))
            opening.add_done_callback(lambda _: self._dm_opening.pop(user_id, None))
        return await asyncio.shield(opening)

    async def _open_dm(self, user_id: int) -> int:
        async with self._dm_opens:
            channel = await self.bot.create_dm(discord.Object(user_id))
        self._dm_channels[user_id] = channel.id
        while len(self._dm_channels) > KNOWN_DM_CHANNELS:
            self._dm_channels.popitem(last=False)
        return int(channel.id)

    def open_dms_ahead(self, match: MatchRecord) -> None:
        """Open the DM channels of the match's players whose panels go by DM, in the background (a challenge, a
        join): when the match starts, their first panels wait for no DM to open."""
        users = [seat.user_id for index, seat in enumerate(match.seats) if index not in program_seats(match)
                 and seat.dm_channel_id is None and seat.user_id not in self._dm_channels]
        if users and not self._closed and not delivered_by_interactions(match):
            task = asyncio.get_running_loop().create_task(self._open_dms(users), name=f"{self.prefix}-dms-{match.id}")
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def _open_dms(self, user_ids: Sequence[int]) -> None:
        try:
            places = await self.preferences.panel_places(user_ids)
            await asyncio.gather(*(self._dm_channel_id(user_id) for user_id in user_ids
                                   if places[user_id] == DEFAULT_PANELS))
        except discord.HTTPException as error:  # (the panel opens it, or finds the DMs closed)
            log.info("%s: could not open DMs ahead: %s", self.title, error)

    async def _edit_panels(self, show: Show, step: int, seats: Sequence[int]) -> None:
        """The seats' DM panels of ``step`` shown again as they stand now (:meth:`MatchKernel.panel_for`): a new
        deadline, or how the step ended for them (then without buttons). The seat's DM message still shows
        ``step``: the next step's panel comes with a later event. Each under its player's :meth:`panel_lock`, so a
        click being answered lands first and this edit after it."""
        for seat in seats:
            async with self.panel_lock(show.match.id, show.match.seats[seat].user_id):
                await self.refresh_dm_panel(show.match, seat, step)

    async def refresh_dm_panel(self, match: MatchRecord, seat: int, step: int) -> None:
        """The seat's DM message, when it showed its panel of ``step``, shown again as that panel stands now (the
        caller holds the player's :meth:`panel_lock`); a failure is logged, never raised."""
        message_id = match.messages.get(dm_name(step, seat))
        channel_id = match.seats[seat].dm_channel_id
        if not message_id or channel_id is None:
            return
        try:
            panel = await self.service.panel_for(match.id, match.seats[seat].user_id, step)
            await self._edit(channel_id, message_id, dm=True,
                             **await self.panel_edit(match, panel, say=await self.player_words(match, seat)))
        except (discord.HTTPException, *USER_ERRORS) as error:
            log.info("%s match %s: could not update seat %s's panel %s: %s", self.title, match.id, seat, step,
                     error)

    # --- the result ------------------------------------------------------------------------------------------
    async def _game_over_before(self, show: Show, result: QueuedEvent) -> tuple[dict[str, Any] | None,
                                                                                list[QueuedEvent]]:
        """The ``game_over`` event queued before ``result`` (``None``: none), and every event of the match."""
        events = await self.outbox.events(show.match.id)
        game_over = next((q.event for q in reversed(events) if q.type == "game_over" and q.seq < result.seq), None)
        return game_over, events

    async def _post_result(self, show: Show, surface: Surface, *, live: str | None = None, below: str = "") -> None:
        """The result, with its picture uploaded once and the Rematch button (:meth:`rematch_view`). A match played
        in a thread: its message in the channel becomes the result (the upload), then the thread gets the result
        (message ``result``), its picture shown from that upload. A match played in its channel: the result is
        posted there, after the play, and the match's first message links to it. ``live``: the play's last live
        message (:meth:`_show_live`) becomes the result where the match is played, ``below`` under it (the last
        phase's lines), rather than a message of its own (a picture then shows in the channel's message only); with no
        such message (the last phase played itself with the end), the result's own message shows ``below``."""
        match = show.match
        self._phases.pop(match.id, None)
        self._steps_shown.pop(match.id, None)
        say = _ = texts(show.language)
        live = live if live is not None and live in match.messages else None
        view = await with_review(self.bot, match.guild_id, match.id, self.rematch_view(match, say), say)
        if match.thread_id is None:
            if live is not None and "result" not in match.messages:
                await self._show_live(show, live, surface, below=below, view=view)
                show.match = await self.outbox.set_message(match.id, "result", show.match.messages[live])
            await self._post(show, "result", **without_empty_files(
                message_kwargs(surface, colour=self.colour, view=view, below=below)))
            link = message_link(match.guild_id, match.channel_id, show.match.messages["result"])
            await self._show_card(show, content=f"🏁 **{surface.title}** · " + _("[the result]({link})", link=link))
            return
        if "result" in match.messages:  # (the channel's message became the result before it was posted)
            return
        card = await self._show_card(show, surface=surface, extra=self.where_line(match.thread_id, say), view=view)
        if live is not None:
            await self._show_live(show, live, surface, below=below)
            show.match = await self.outbox.set_message(match.id, "result", show.match.messages[live])
            return
        image_url = None if card is None or surface.picture is None else uploaded_url(card, surface.picture.filename)
        await self._post(show, "result", **without_empty_files(
            message_kwargs(surface, colour=self.colour, image_url=image_url, below=below)))
