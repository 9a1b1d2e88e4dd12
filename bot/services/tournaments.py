"""The tournament service: signup, check-in, the bracket, matches played as real games, organiser tools, history.

No Discord here. The bracket logic is :class:`bot.tournaments.Tournament` (pure); this service stores it as JSON
after every change, in the same transaction as everything else that change did, under one ``asyncio.Lock`` per
tournament. A refused call raises a :class:`TournamentRefused` (or the logic's
:class:`~bot.tournaments.TournamentError`) and changes nothing.

Life of a tournament: ``signup`` (Join / Leave) -> optional ``check_in`` (players confirm within the window; who
does not is left out) -> ``running`` (``paused`` by the organiser) -> ``finished`` or ``cancelled``. Signup closes
on :meth:`TournamentService.start` or by itself at ``signup_closes_at``; fewer than two players cancel it.

Rounds are called whole: a round's matches are called together once every pairing of it is known and the round
before it in its bracket is over (round robin: round by round; elimination: once the round before is played out;
double elimination: the winners' and the losers' bracket each at their own pace), so a round has one Ready call.

A bracket match is a series (best of ``best_of``) of real matches of the game, each made by the game's own
:class:`~bot.match.kernel.MatchKernel` (a challenge inserted with a far deadline, then ``accept`` deals it):
the game's cog shows it, keeps its timers and records its result and ratings, once. When a bracket match is
*called* both players have ``no_show`` seconds to press Ready; a player who does not forfeits the match (both:
the better seed goes through in elimination, a draw otherwise). ``no_show`` 0 deals the first game at once.

The end of a game is learnt by reconciliation (:meth:`TournamentService.reconcile`): every game of an open
tournament whose match finished (or was cancelled) and is not counted yet is counted in its series, in the order
the matches ended. It is idempotent and reads only stored rows, so running it after a restart (and after every
update of a game, and now and then) loses nothing. A drawn game counts for nobody; a series needs
``best_of // 2 + 1`` wins; in elimination a series that runs out of games without a winner goes on for at most
:data:`EXTRA_GAMES` more, then the better seed goes through; in round robin and Swiss it is decided on wins after
``best_of`` games (equal: a draw). A cancelled game is dealt again.

Pausing stops the no-show clocks and the dealing of new games (games under way play on and are counted);
resuming restarts every no-show window from then. Cancelling ends the tournament (games under way play on as
ordinary matches). Disqualifying forfeits the player's game under way and records the bracket's forfeits.

Channel events (queued in the outbox with the write that made them, shown in order by the tournament cog's show
loop through :class:`TournamentOutbox`): ``created``,
``signup`` (the list changed), ``check_in`` {ends_at}, ``started`` {players, left_out}, ``call`` {key, round,
players, deadline_at, ready_check} (a round's calls are queued together), ``ready`` {key, user_id, ready}, ``game``
{key, match_id, number}, ``waiting`` {key, busy}, ``game_over`` {key, match_id, winner, wins, draws}, ``result``
{key, round, players, winner, outcome, wins, draws}, ``round_over`` {round} (the round's last result; a round of
byes has none), ``disqualified`` {player, by}, ``paused`` / ``resumed`` / ``cancelled`` {by, reason}, ``over``
{champion} (after the last round's ``round_over``). Tournaments from before rounds were summed up may hold
``round`` events (a Swiss round paired), which say nothing new.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
import weakref
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from bot.errors import GameError
from bot.i18n import N_, Phrase, Texts, texts
from bot.match.errors import ServiceError
from bot.match.kernel import OPPONENT_OPTION, MatchKernel, MatchUpdate, default_seed
from bot.match.outbox import EventQueue
from bot.registry import game_class, registry
from bot.storage import Connection
from bot.storage.errors import StorageConflict
from bot.storage.port import Storage, TournamentStore
from bot.storage.tournaments import BracketMatchRecord, EntrantRecord, GameRecord, TournamentEvent, TournamentRecord
from bot.tournaments import Format, Round, Tournament, TournamentError
from bot.tournaments.swiss import max_rounds

DEFAULT_NO_SHOW = 600
NO_SHOW_RANGE = (0, 3600)
CHECK_IN_RANGE = (0, 3600)
BEST_OF = (1, 3, 5, 7)
PLAYERS_RANGE = (2, 256)
EXTRA_GAMES = 3
#: a tournament game is inserted as a challenge the service accepts at once; the deadline only matters if the
#: accept never happens (a crash in between: reconciliation accepts it on the next start)
GAME_CHALLENGE_SECONDS = 7 * 24 * 3600
NAME_LIMIT = 100


class TournamentRefused(ServiceError):
    """A tournament call refused, for the user: ``TournamentRefused(N_("..."), **params)``. ``str(error)`` is the
    English, :meth:`said` the user's language: a ``game`` param is a game's title (said in the language too), a
    param with a ``said`` of its own (a :class:`~bot.i18n.Phrase`, an engine's error) is said in it too."""

    def __init__(self, template: str, /, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(self.said(texts("en")), template=template, **params)

    def said(self, say: Texts) -> str:
        params = {key: say(value) if key == "game" else value.said(say) if hasattr(value, "said") else value
                  for key, value in self.params.items()}
        return say(self.template, **params) if params else say(self.template)


class NotOrganiser(TournamentRefused):
    def __init__(self, organiser_id: int) -> None:
        super().__init__(N_("Only the organiser ({organiser}) or someone with Manage Server can do that."),
                         organiser=f"<@{organiser_id}>")


class TournamentNotFound(TournamentRefused):
    def __init__(self) -> None:
        super().__init__(N_("There is no such tournament."))


@dataclass(frozen=True)
class TournamentUpdate:
    """What a call changed, committed: the tournament after it, the channel events it queued, the games it dealt
    or ended (for the game's display), and when the tournament next needs a tick (``None``: nothing due)."""

    tournament: TournamentRecord
    events: tuple[TournamentEvent, ...] = ()
    games: tuple[MatchUpdate, ...] = ()
    next_due: float | None = None


@dataclass
class _Work:
    conn: Connection
    store: TournamentStore[Connection]
    tournament: TournamentRecord
    now: float
    events: list[TournamentEvent] = field(default_factory=list)
    launch: list[str] = field(default_factory=list)  # bracket matches whose next game is to be dealt
    forfeit: list[tuple[int, int]] = field(default_factory=list)  # (match id, user id) to forfeit after commit

    async def queue(self, *events: Mapping[str, Any]) -> None:
        if events:
            self.events += await self.store.append_events(self.conn, self.tournament.id, events, self.now)

    async def update(self, **fields: Any) -> None:
        await self.store.update_tournament(self.conn, self.tournament.id, self.now, **fields)
        reloaded = await self.store.load_tournament(self.conn, self.tournament.id)
        assert reloaded is not None
        self.tournament = reloaded


def _person(user_id: int) -> str | Phrase:
    """A player in a private answer: a mention, or "a deleted player" for one who deleted their data."""
    return Phrase(N_("a deleted player")) if user_id < 0 else f"<@{user_id}>"


def parse_rules(text: str | None) -> dict[str, Any]:
    """``"face_down=3 aces=low"`` -> ``{"face_down": 3, "aces": "low"}`` (numbers, true/false and none read as such)."""
    rules: dict[str, Any] = {}
    for part in re.split(r"[\s,;]+", (text or "").strip()):
        if not part:
            continue
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise TournamentRefused(
                N_("Write the rules as key=value pairs (like `face_down=3 aces=low`), not `{part}`."), part=part)
        lowered = value.lower()
        if lowered in ("true", "yes", "on"):
            rules[key] = True
        elif lowered in ("false", "no", "off"):
            rules[key] = False
        elif lowered in ("none", "null"):
            rules[key] = None
        elif re.fullmatch(r"-?\d+", value):
            rules[key] = int(value)
        else:
            rules[key] = value
    return rules


class TournamentService:
    """See the module docstring. ``services(game)`` gives the match service that plays ``game`` (``None``: it
    cannot be played now)."""

    def __init__(self, database: Storage, services: Callable[[str], MatchKernel | None], *,
                 clock: Callable[[], float] = time.time, seed_source: Callable[[], int] = default_seed) -> None:
        self.db = database
        self.store: TournamentStore[Connection] = database.tournaments
        self.services = services
        self.clock = clock
        self.seed_source = seed_source
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._reconcile_lock = asyncio.Lock()
        #: the channel events the tournaments queue, and the ids of the messages that show them
        self.outbox = TournamentOutbox(database, clock=clock)

    # --- plumbing ----------------------------------------------------------------------------------------
    def _lock(self, tournament_id: int) -> asyncio.Lock:
        lock = self._locks.get(tournament_id)
        if lock is None:
            lock = self._locks[tournament_id] = asyncio.Lock()
        return lock

    @asynccontextmanager
    async def _work(self, tournament_id: int) -> AsyncIterator[_Work]:
        async with self.db.transaction() as conn:
            if self.db.shared:  # other processes run this tournament too: one transaction at a time
                await self.db.lock_tournament(conn, tournament_id)
            tournament = await self.store.load_tournament(conn, tournament_id)
            if tournament is None:
                raise TournamentNotFound()
            yield _Work(conn, self.store, tournament, self.clock())

    async def _run(self, tournament_id: int, body: Callable[[_Work], Any]) -> TournamentUpdate:
        """Under the tournament's lock: one transaction running ``body``, then the games it asked for dealt and the
        forfeits it asked for made (each the game service's own transaction; reconciliation finishes the job if a
        crash comes in between)."""
        async with self._lock(tournament_id):
            async with self._work(tournament_id) as work:
                await body(work)
            games: list[MatchUpdate] = []
            for match_id, user_id in work.forfeit:
                games += await self._forfeit_game(work.tournament, match_id, user_id)
            extra_events: list[TournamentEvent] = []
            for key in work.launch:
                launched, events = await self._launch(tournament_id, key)
                games += launched
                extra_events += events
            tournament = await self.get(tournament_id)
            return TournamentUpdate(tournament, tuple(work.events + extra_events), tuple(games),
                                    await self.next_due(tournament_id))

    def _service(self, game: str) -> MatchKernel:
        service = self.services(game)
        if service is None:
            raise TournamentRefused(N_("{game} can't be played in a tournament right now."),
                                    game=game_class(game).title)
        return service

    # --- creating and signing up ---------------------------------------------------------------------------
    async def create(self, guild_id: int, channel_id: int, organiser_id: int, name: str, game: str, format: str, *,
                     rules: Mapping[str, Any] | None = None, max_players: int | None = None,
                     signup_closes_at: float | None = None, best_of: int = 1, check_in: int = 0,
                     no_show: int = DEFAULT_NO_SHOW, rounds: int | None = None, pace: str | None = None,
                     organiser_name: str | None = None, bot: Mapping[str, Any] | None = None) -> TournamentUpdate:
        """A new tournament in signup. Refuses: an empty or long name, a game nobody can play here, bad rules, a
        format that does not exist, ``best_of`` not 1/3/5/7, bad windows, a signup close in the past, a Swiss round
        count that can never fit, another open tournament in the channel, a ``bot`` level the game's bot does not
        play. ``bot``: ``{"id", "name", "level"}``, the bot itself takes the last seat when an odd number of players
        start, and plays its games at that level (unrated games, like every match against it)."""
        name = " ".join((name or "").split())
        if not name or len(name) > NAME_LIMIT:
            raise TournamentRefused(N_("A tournament's name is 1 to {limit} characters."), limit=NAME_LIMIT)
        try:
            fmt = Format(format)
        except ValueError:
            raise TournamentRefused(N_("The formats are: {formats}."),
                                    formats=", ".join(f.value for f in Format)) from None
        try:
            game_class(game)
        except GameError:
            raise TournamentRefused(N_("There is no game {name}."), name=repr(game)) from None
        if not registry().entry(game).plugin.flow.tournaments:
            raise TournamentRefused(N_("{game} is played against the house, not against each other: it has no "
                                       "tournaments."), game=game_class(game).title)
        service = self._service(game)
        resolved = self._resolve_rules(service, game, rules)
        if best_of not in BEST_OF:
            raise TournamentRefused(N_("A match is best of 1, 3, 5 or 7 games."))
        for template, value, (low, high) in (
                (N_("The check-in window is {low} to {high} seconds, not {value}."), check_in, CHECK_IN_RANGE),
                (N_("The no-show window is {low} to {high} seconds, not {value}."), no_show, NO_SHOW_RANGE)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise TournamentRefused(template, low=low, high=high, value=value)
        low, high = PLAYERS_RANGE
        if max_players is not None and not low <= max_players <= high:
            raise TournamentRefused(N_("A tournament has {low} to {high} players."), low=low, high=high)
        if rounds is not None and (fmt is not Format.SWISS or rounds < 1):
            raise TournamentRefused(N_("Only a Swiss tournament takes a number of rounds (1 or more)."))
        if rounds is not None and max_players is not None and rounds > max_rounds(max_players):
            raise TournamentRefused(N_("A Swiss of at most {players} players has at most {rounds} rounds."),
                                    players=max_players, rounds=max_rounds(max_players))
        options: dict[str, Any] = {"best_of": best_of, "check_in": check_in, "no_show": no_show,
                                   "max_players": max_players or high}
        if rounds is not None:
            options["rounds"] = rounds
        if bot is not None:
            options["bot"] = self._bot_option(game, bot)
        paces = registry().entry(game).plugin.paces
        if paces:
            pace = pace or registry().entry(game).plugin.default_pace
            if pace not in paces:
                raise TournamentRefused(N_("The pace is one of {paces}, not {pace}."), paces=", ".join(paces),
                                        pace=repr(pace))
            options["pace"] = pace
        elif pace is not None:
            raise TournamentRefused(N_("{game} has no pace to choose."), game=game_class(game).title)
        now = self.clock()
        if signup_closes_at is not None and signup_closes_at <= now:
            raise TournamentRefused(N_("The signup can't close in the past."))
        async with self.db.transaction() as conn:
            for other in await self.store.channel_tournaments(conn, guild_id, channel_id):
                raise TournamentRefused(N_("This channel already runs a tournament: **{name}**. One at a time per "
                                           "channel."), name=other.name)
            tournament_id = await self.store.insert_tournament(
                conn, guild_id=guild_id, channel_id=channel_id, name=name, game=game, format=fmt.value,
                rules=resolved, options=options, organiser_id=organiser_id, seed=self.seed_source(),
                signup_closes_at=signup_closes_at, now=now)
            await self.db.settings.remember_player(conn, guild_id, organiser_id, organiser_name, now)
            tournament = await self.store.load_tournament(conn, tournament_id)
            assert tournament is not None
            events = await self.store.append_events(conn, tournament_id, [{"type": "created"}], now)
        return TournamentUpdate(tournament, tuple(events), (), await self.next_due(tournament_id))

    @staticmethod
    def _bot_option(game: str, bot: Mapping[str, Any]) -> dict[str, Any]:
        plugin = registry().entry(game).plugin
        title = game_class(game).title
        if not plugin.opponent or plugin.name != game:
            raise TournamentRefused(N_("I don't play {game} myself, so I can't fill a seat of its tournament."),
                                    game=title)
        if bot.get("level") not in plugin.levels:
            raise TournamentRefused(N_("I play {game} at these levels: {levels}."), game=title,
                                    levels=", ".join(plugin.levels))
        return {"id": int(bot["id"]), "name": bot.get("name"), "level": bot["level"]}

    @staticmethod
    def _resolve_rules(service: MatchKernel, game: str, rules: Mapping[str, Any] | None) -> dict[str, Any]:
        try:
            resolve = getattr(service, "resolve_rules", None)
            if resolve is not None:
                return dict(resolve(game, rules, 2))
            return game_class(game).resolve_rules(rules)
        except GameError as error:
            raise TournamentRefused(N_("Those rules don't work: {error}"), error=error) from None

    async def join(self, tournament_id: int, user_id: int, name: str | None = None) -> TournamentUpdate:
        async def body(work: _Work) -> None:
            t = work.tournament
            if t.status != "signup":
                raise TournamentRefused(N_("The signup of this tournament is closed."))
            players = await self.store.entrants(work.conn, t.id)
            if any(p.user_id == user_id for p in players):
                raise TournamentRefused(N_("You're signed up already."))
            if len(players) >= t.options["max_players"]:
                raise TournamentRefused(N_("This tournament is full ({count} players)."),
                                        count=t.options["max_players"])
            await self.store.add_entrant(work.conn, t.id, user_id, name, work.now)
            await self.db.settings.remember_player(work.conn, t.guild_id, user_id, name, work.now)
            await work.queue({"type": "signup", "user_id": user_id, "joined": True})

        return await self._run(tournament_id, body)

    async def leave(self, tournament_id: int, user_id: int) -> TournamentUpdate:
        async def body(work: _Work) -> None:
            if work.tournament.status not in ("signup", "check_in"):
                raise TournamentRefused(N_("The tournament has started: ask the organiser if you have to drop out."))
            if not await self.store.remove_entrant(work.conn, work.tournament.id, user_id):
                raise TournamentRefused(N_("You're not signed up."))
            await work.queue({"type": "signup", "user_id": user_id, "joined": False})

        return await self._run(tournament_id, body)

    async def check_in(self, tournament_id: int, user_id: int) -> TournamentUpdate:
        async def body(work: _Work) -> None:
            if work.tournament.status != "check_in":
                raise TournamentRefused(N_("This tournament isn't checking in."))
            players = {p.user_id: p for p in await self.store.entrants(work.conn, work.tournament.id)}
            if user_id not in players:
                raise TournamentRefused(N_("You're not signed up for this tournament."))
            if players[user_id].checked_in:
                raise TournamentRefused(N_("You're checked in already."))
            await self.store.check_in(work.conn, work.tournament.id, user_id)
            await work.queue({"type": "signup", "user_id": user_id, "checked_in": True})

        return await self._run(tournament_id, body)

    # --- the organiser --------------------------------------------------------------------------------------
    @staticmethod
    def _check_organiser(tournament: TournamentRecord, user_id: int, manager: bool) -> None:
        if user_id != tournament.organiser_id and not manager:
            raise NotOrganiser(tournament.organiser_id)

    async def start(self, tournament_id: int, user_id: int, *, manager: bool = False) -> TournamentUpdate:
        """Close the signup: check-in starts (if the tournament has a window), or the bracket. During check-in:
        start with the players checked in so far."""
        async def body(work: _Work) -> None:
            t = work.tournament
            self._check_organiser(t, user_id, manager)
            if t.status == "signup":
                await self._close_signup(work)
            elif t.status == "check_in":
                await self._begin(work)
            else:
                raise TournamentRefused(N_("This tournament has started already.") if t.is_open
                                        else N_("This tournament is over."))

        return await self._run(tournament_id, body)

    async def _close_signup(self, work: _Work) -> None:
        players = await self.store.entrants(work.conn, work.tournament.id)
        if len(players) < 2:
            raise TournamentRefused(N_("At least two players have to sign up before the tournament can start."))
        window = work.tournament.options.get("check_in", 0)
        if window:
            await work.update(status="check_in", check_in_ends_at=work.now + window)
            await work.queue({"type": "check_in", "ends_at": work.now + window})
        else:
            await self._begin(work)

    async def _begin(self, work: _Work) -> None:
        t = work.tournament
        entrants = await self.store.entrants(work.conn, t.id)
        players = [p.user_id for p in entrants if p.checked_in or t.status != "check_in"]
        bot = t.options.get("bot")
        if bot is not None and len(players) % 2 == 1 and bot["id"] not in players:
            await self.store.add_entrant(work.conn, t.id, bot["id"], bot.get("name"), work.now)
            players.append(bot["id"])
            await work.queue({"type": "signup", "user_id": bot["id"], "joined": True, "bot": bot["level"]})
        if len(players) < 2:
            await work.update(status="cancelled", finished_at=work.now, check_in_ends_at=None)
            await work.queue({"type": "cancelled", "by": None, "reason": "too_few_players", "players": players})
            return
        ratings = await self.store.ratings_of(work.conn, t.guild_id, t.game, players)
        options = {"rounds": t.options["rounds"]} if t.format == Format.SWISS and "rounds" in t.options else {}
        if options and options["rounds"] > max_rounds(len(players)):
            options = {"rounds": max_rounds(len(players))}
        tournament = Tournament.new(t.format, players, ratings=ratings, rng=random.Random(t.seed), options=options)
        await work.update(status="running", state=tournament.to_json(), started_at=work.now, check_in_ends_at=None,
                          signup_closes_at=None)
        await work.queue({"type": "started", "players": list(tournament.players),
                          "left_out": [p.user_id for p in entrants if p.user_id not in players]})
        await self._follow(work, tournament, tournament.events)

    async def disqualify(self, tournament_id: int, user_id: int, player_id: int, *,
                         manager: bool = False) -> TournamentUpdate:
        async def body(work: _Work) -> None:
            t = work.tournament
            self._check_organiser(t, user_id, manager)
            if t.status not in ("running", "paused"):
                raise TournamentRefused(N_("Only a running tournament's players can be disqualified."))
            tournament = Tournament.from_json(t.state or {})
            if player_id not in tournament.players:
                raise TournamentRefused(N_("{player} isn't playing in this tournament."), player=f"<@{player_id}>")
            try:
                events = tournament.disqualify(player_id)
            except TournamentError as error:
                raise TournamentRefused(N_("{player} can't be disqualified: {reason}."), player=f"<@{player_id}>",
                                        reason=error) from None
            for row in await self.store.bracket_matches(work.conn, t.id, open_only=True):
                if player_id in row.players and row.match_id is not None and row.status == "playing":
                    work.forfeit.append((row.match_id, player_id))
            await work.update(state=tournament.to_json())
            await work.queue({"type": "disqualified", "player": player_id, "by": user_id})
            await self._follow(work, tournament, events)

        return await self._run(tournament_id, body)

    async def pause(self, tournament_id: int, user_id: int, *, manager: bool = False) -> TournamentUpdate:
        async def body(work: _Work) -> None:
            self._check_organiser(work.tournament, user_id, manager)
            if work.tournament.status != "running":
                raise TournamentRefused(N_("Only a running tournament can be paused."))
            await work.update(status="paused")
            for row in await self.store.bracket_matches(work.conn, work.tournament.id, open_only=True):
                if row.status == "called":
                    await self.store.update_bracket_match(work.conn, row.tournament_id, row.key, deadline_at=None)
            await work.queue({"type": "paused", "by": user_id})

        return await self._run(tournament_id, body)

    async def resume(self, tournament_id: int, user_id: int, *, manager: bool = False) -> TournamentUpdate:
        async def body(work: _Work) -> None:
            self._check_organiser(work.tournament, user_id, manager)
            if work.tournament.status != "paused":
                raise TournamentRefused(N_("This tournament isn't paused."))
            await work.update(status="running")
            window = work.tournament.options.get("no_show", DEFAULT_NO_SHOW)
            for row in await self.store.bracket_matches(work.conn, work.tournament.id, open_only=True):
                if row.status == "called":
                    await self.store.update_bracket_match(work.conn, row.tournament_id, row.key,
                                                     deadline_at=work.now + window)
                elif row.status == "waiting":
                    work.launch.append(row.key)
            await work.queue({"type": "resumed", "by": user_id, "deadline_at": work.now + window})

        return await self._run(tournament_id, body)

    async def cancel(self, tournament_id: int, user_id: int, *, manager: bool = False) -> TournamentUpdate:
        async def body(work: _Work) -> None:
            self._check_organiser(work.tournament, user_id, manager)
            if not work.tournament.is_open:
                raise TournamentRefused(N_("This tournament is over already."))
            await work.update(status="cancelled", finished_at=work.now, check_in_ends_at=None)
            for row in await self.store.bracket_matches(work.conn, work.tournament.id, open_only=True):
                await self.store.update_bracket_match(work.conn, row.tournament_id, row.key, status="decided",
                                                 outcome="cancelled", deadline_at=None, decided_at=work.now)
            await work.queue({"type": "cancelled", "by": user_id, "reason": "organiser"})

        return await self._run(tournament_id, body)

    # --- bracket matches ------------------------------------------------------------------------------------
    async def ready(self, tournament_id: int, key: str, user_id: int) -> TournamentUpdate:
        """A player of a called match presses Ready; once both have, its first game is dealt."""
        async def body(work: _Work) -> None:
            row = await self.store.load_bracket_match(work.conn, tournament_id, key)
            if row is None:
                raise TournamentRefused(N_("That match isn't part of this tournament."))
            slot = row.slot_of(user_id)
            if slot is None:
                raise TournamentRefused(N_("This isn't your match."))
            if row.status == "decided" or not work.tournament.is_open:
                raise self._over_text(work.tournament, row)
            if work.tournament.status == "paused":
                raise TournamentRefused(N_("The tournament is paused; press Ready again once it goes on."))
            if row.status != "called":
                raise await self._under_way_text(work, row)
            if row.ready[slot]:
                raise TournamentRefused(N_("You're ready already; waiting for your opponent."))
            ready = list(row.ready)
            ready[slot] = True
            await self.store.update_bracket_match(work.conn, tournament_id, key,
                                             **{"ready_a" if slot == 0 else "ready_b": 1})
            await work.queue({"type": "ready", "key": key, "user_id": user_id, "ready": ready})
            if all(ready):
                await self.store.update_bracket_match(work.conn, tournament_id, key, status="waiting", deadline_at=None)
                work.launch.append(key)

        return await self._run(tournament_id, body)

    @staticmethod
    def _over_text(tournament: TournamentRecord, row: BracketMatchRecord) -> TournamentRefused:
        """What a late Ready click on a match that is over is told."""
        if tournament.status == "cancelled":
            return TournamentRefused(N_("This tournament was cancelled: there is nothing to be ready for."))
        if row.outcome == "cancelled" or row.status != "decided":
            return TournamentRefused(N_("This tournament is over: there is nothing to be ready for."))
        if row.outcome == "disqualified":
            return TournamentRefused(N_("This match is over: it went to a forfeit after a disqualification."))
        if row.winner_id is None:
            return TournamentRefused(N_("This match is over: it ended in a draw."))
        winner = _person(row.winner_id)
        if row.outcome == "no_show":
            return TournamentRefused(
                N_("This match is over: {winner} went through, the opponent didn't press Ready in time."),
                winner=winner)
        if row.outcome == "double_no_show":
            return TournamentRefused(
                N_("This match is over: neither player pressed Ready in time, so {winner} went through."),
                winner=winner)
        return TournamentRefused(N_("This match is over: {winner} won it."), winner=winner)

    async def _under_way_text(self, work: _Work, row: BracketMatchRecord) -> TournamentRefused:
        """What a late Ready click on a match whose game is under way is told (its thread, once it has one)."""
        match = None if row.match_id is None else await self.db.matches.load_match(work.conn, row.match_id)
        if match is not None and match.thread_id is not None:
            return TournamentRefused(N_("You're both ready: your game is under way in {thread}."),
                                     thread=f"<#{match.thread_id}>")
        return TournamentRefused(N_("You're both ready: your game is under way (or starts in a moment)."))

    async def tick(self, tournament_id: int) -> TournamentUpdate:
        """A timer's callback: whatever is due now (signup closing, check-in ending, no-shows)."""
        async def body(work: _Work) -> None:
            t = work.tournament
            if t.status == "signup" and t.signup_closes_at is not None and work.now >= t.signup_closes_at:
                if len(await self.store.entrants(work.conn, t.id)) < 2:
                    await work.update(status="cancelled", finished_at=work.now)
                    await work.queue({"type": "cancelled", "by": None, "reason": "too_few_players"})
                else:
                    await self._close_signup(work)
            elif t.status == "check_in" and t.check_in_ends_at is not None and work.now >= t.check_in_ends_at:
                await self._begin(work)
            elif t.status == "running":
                for row in await self.store.bracket_matches(work.conn, t.id, open_only=True):
                    if row.status == "called" and row.deadline_at is not None and work.now >= row.deadline_at:
                        await self._no_show(work, row)

        return await self._run(tournament_id, body)

    async def _no_show(self, work: _Work, row: BracketMatchRecord) -> None:
        tournament = Tournament.from_json(work.tournament.state or {})
        present = [player for player, ready in zip(row.players, row.ready, strict=True) if ready]
        if len(present) == 1:
            winner: int | None = present[0]
            outcome = "no_show"
        elif tournament.is_elimination:
            winner = min(row.players, key=tournament.seed_of)
            outcome = "double_no_show"
        else:
            winner, outcome = None, "double_no_show"
        await self._decide(work, tournament, row, winner, outcome)

    async def _decide(self, work: _Work, tournament: Tournament, row: BracketMatchRecord, winner: int | None,
                      outcome: str) -> None:
        """The series is decided: into the bracket, and on to what that opens."""
        await self.store.update_bracket_match(work.conn, row.tournament_id, row.key, status="decided", winner_id=winner,
                                         outcome=outcome, deadline_at=None, decided_at=work.now)
        events = tournament.record_result(row.key, winner)
        await work.update(state=tournament.to_json())
        fresh = await self.store.load_bracket_match(work.conn, row.tournament_id, row.key)
        assert fresh is not None
        await work.queue({"type": "result", "key": row.key, "round": row.round, "players": list(row.players),
                          "winner": winner, "outcome": outcome, "wins": list(fresh.wins), "draws": fresh.draws})
        await self._follow(work, tournament, events)

    async def _follow(self, work: _Work, tournament: Tournament, events: list[dict[str, Any]]) -> None:
        """Act on the bracket's events: forfeits, the rounds they complete, the end; then call the rounds that can
        start."""
        t = work.tournament
        touched: list[str] = []  # the rounds a result was recorded in, in order
        for event in events:
            kind = event["type"]
            if kind == "result":
                if event["round"] not in touched:
                    touched.append(event["round"])
                if event["outcome"] != "forfeit":
                    continue
                row = await self.store.load_bracket_match(work.conn, t.id, event["match"])
                if row is not None and row.status != "decided":
                    await self.store.update_bracket_match(work.conn, t.id, row.key, status="decided",
                                                     winner_id=event["winner"], outcome="disqualified",
                                                     deadline_at=None, decided_at=work.now)
                await work.queue({"type": "result", "key": event["match"], "round": event["round"],
                                  "players": event["players"], "winner": event["winner"], "outcome": "forfeit",
                                  "wins": [0, 0], "draws": 0})
        rounds = {round_.label: round_ for round_ in tournament.rounds()}
        for label in touched:
            round_ = rounds[label]
            if round_.is_complete and await self._was_called(work, round_):
                await work.queue({"type": "round_over", "round": label})
        for event in events:
            if event["type"] == "tournament_over":
                await work.update(status="finished", champion_id=event["champion"], finished_at=work.now)
                for row in await self.store.bracket_matches(work.conn, t.id, open_only=True):
                    await self.store.update_bracket_match(work.conn, t.id, row.key, status="decided",
                                                     outcome="cancelled", deadline_at=None, decided_at=work.now)
                await work.queue({"type": "over", "champion": event["champion"], "reason": event["reason"]})
                return
        await self._call_rounds(work, tournament)

    async def _was_called(self, work: _Work, round_: Round) -> bool:
        """Whether a match of the round was called: a round of byes, or one decided by forfeits before it was
        called, has nothing to sum up."""
        for match in round_.matches:
            if await self.store.load_bracket_match(work.conn, work.tournament.id, match.key) is not None:
                return True
        return False

    async def _call_rounds(self, work: _Work, tournament: Tournament) -> None:
        """Call every round that can start and is not called yet, a round as a whole: once every pairing of it is
        known and the round before it in its bracket is over (so one Ready call goes out per round)."""
        t = work.tournament
        window = t.options.get("no_show", DEFAULT_NO_SHOW)
        running = t.status == "running"
        deadline = work.now + window if window and running else None
        before: dict[str, Round] = {}
        for round_ in tournament.rounds():
            previous = before.get(round_.bracket)
            before[round_.bracket] = round_
            if previous is not None and not previous.is_complete:
                continue
            if not all(all(match.known) for match in round_.matches):
                continue
            # the bot's Ready is queued after the round's calls: the channel posts a round's consecutive calls as
            # one call (split only when it needs several messages), so nothing may come between them
            bot_ready: list[dict[str, Any]] = []
            for match in round_.matches:
                if not match.is_ready or await self.store.load_bracket_match(work.conn, t.id, match.key) is not None:
                    continue
                players = list(match.players)
                await self.store.insert_bracket_match(work.conn, t.id, match.key, round_.label, players, deadline,
                                                 work.now)
                await work.queue({"type": "call", "key": match.key, "round": round_.label, "players": players,
                                  "deadline_at": deadline, "ready_check": bool(window)})
                bot_id = (t.options.get("bot") or {}).get("id")
                if window and bot_id in players:  # the bot is always ready
                    slot = players.index(bot_id)
                    await self.store.update_bracket_match(work.conn, t.id, match.key,
                                                          **{"ready_a" if slot == 0 else "ready_b": 1})
                    bot_ready.append({"type": "ready", "key": match.key, "user_id": bot_id,
                                      "ready": [slot == 0, slot == 1]})
                if not window:
                    await self.store.update_bracket_match(work.conn, t.id, match.key, status="waiting")
                    if running:
                        work.launch.append(match.key)
            await work.queue(*bot_ready)

    # --- games -----------------------------------------------------------------------------------------------
    async def _launch(self, tournament_id: int, key: str) -> tuple[list[MatchUpdate], list[TournamentEvent]]:
        """Deal the next game of a bracket match that waits for one (status ``waiting``), if the tournament runs
        and both players are free; else it keeps waiting (retried by :meth:`reconcile`)."""
        async with self.db.transaction() as conn:
            t = await self.store.load_tournament(conn, tournament_id)
            row = await self.store.load_bracket_match(conn, tournament_id, key)
            if t is None or row is None or t.status != "running" or row.status != "waiting":
                return [], []
            service = self.services(t.game)
            if service is None:
                return [], []
            now = self.clock()
            options: dict[str, Any] = {"tournament": t.id, "tournament_match": key}
            plugin = registry().entry(t.game).plugin
            if plugin.paces:
                options["pace"] = t.options.get("pace", plugin.default_pace)
            bot = t.options.get("bot")
            program_seats = tuple(slot for slot, user_id in enumerate(row.players) if bot and user_id == bot["id"])
            if program_seats:  # the bot plays any number of matches at once
                options[OPPONENT_OPTION] = {"seat": program_seats[0], "level": bot["level"]}
            busy_players = await self.db.matches.open_matches_of_users(conn, row.players, registry().family(t.game))
            for slot, user_id in enumerate(row.players):
                if user_id in busy_players and slot not in program_seats:
                    if row.outcome == "busy":  # said so already
                        return [], []
                    await self.store.update_bracket_match(conn, t.id, key, outcome="busy")
                    events = await self.store.append_events(conn, t.id, [{"type": "waiting", "key": key,
                                                                      "busy": user_id}], now)
                    return [], events
            played = await self.store.games(conn, t.id, key)
            number = len(played) + 1
            # the better seed challenges (seat 0)
            try:
                match_id = await self.db.matches.insert_match(
                    conn, guild_id=t.guild_id, channel_id=t.channel_id, game=t.game, rules=t.rules,
                    arrange_seconds=None, user_ids=row.players, deadline_at=now + GAME_CHALLENGE_SECONDS, now=now,
                    options=options, program_seats=program_seats)
            except StorageConflict:
                return [], []
            thread_id = await self._series_thread(conn, played)
            if thread_id is not None:
                await self.db.matches.update_match(conn, match_id, now, thread_id=thread_id)
            await self.store.insert_game(conn, t.id, key, match_id)
            await self.store.update_bracket_match(conn, t.id, key, status="playing", match_id=match_id, outcome=None)
            events = await self.store.append_events(conn, t.id, [{"type": "game", "key": key, "match_id": match_id,
                                                             "number": number, "players": list(row.players)}], now)
        update = await self._accept(service, match_id, row.players[1])
        return ([update] if update is not None else []), events

    async def _series_thread(self, conn: Connection, played: Sequence[GameRecord]) -> int | None:
        """The thread the series' games so far were played in (``None``: none yet, or they were played in the
        channel). A game played again (after a draw) goes on in it: a new thread would post one more "thread
        started" notice in the channel for every replay."""
        for game in reversed(played):
            match = await self.db.matches.load_match(conn, game.match_id)
            if match is not None and match.thread_id is not None:
                return match.thread_id
        return None

    @staticmethod
    async def _accept(service: MatchKernel, match_id: int, opponent_id: int) -> MatchUpdate | None:
        try:
            return await service.accept(match_id, opponent_id)
        except ServiceError:  # accepted already (a retry after a crash), or cancelled meanwhile: reconciled later
            return None

    async def _forfeit_game(self, tournament: TournamentRecord, match_id: int, user_id: int) -> list[MatchUpdate]:
        service = self.services(tournament.game)
        if service is None:
            return []
        try:
            return [await service.forfeit(match_id, user_id)]
        except (ServiceError, GameError):
            return []

    async def reconcile(self) -> list[TournamentUpdate]:
        """Count every finished game not counted yet, deal the games that wait (players free again, a crash
        between dealing and accepting), and return the updates. Idempotent."""
        async with self._reconcile_lock:
            updates: list[TournamentUpdate] = []
            async with self.db.read() as conn:
                done = await self.store.finished_uncounted_games(conn)
                pending = await self._stalled(conn)
            for tournament_id, key, match_id in done:
                updates.append(await self._count(tournament_id, key, match_id))
            for tournament_id, key, match_id in pending:
                updates.append(await self._unstall(tournament_id, key, match_id))
            return updates

    async def _stalled(self, conn: Connection) -> list[tuple[int, str, int | None]]:
        return await self.store.stalled_bracket_matches(conn)

    async def _unstall(self, tournament_id: int, key: str, match_id: int | None) -> TournamentUpdate:
        async with self._lock(tournament_id):
            games: list[MatchUpdate] = []
            events: list[TournamentEvent] = []
            if match_id is None:
                games, events = await self._launch(tournament_id, key)
            else:
                tournament = await self.get(tournament_id)
                row = await self.bracket_match(tournament_id, key)
                service = self.services(tournament.game)
                if service is not None and row is not None:
                    update = await self._accept(service, match_id, row.players[1])
                    games = [update] if update is not None else []
            tournament = await self.get(tournament_id)
            return TournamentUpdate(tournament, tuple(events), tuple(games), await self.next_due(tournament_id))

    async def _count(self, tournament_id: int, key: str, match_id: int) -> TournamentUpdate:
        async def body(work: _Work) -> None:
            match = await self.db.matches.load_match(work.conn, match_id)
            assert match is not None
            winner = match.result.get("winner_id") if match.status == "finished" and match.result else None
            if not await self.store.count_game(work.conn, match_id, winner):
                return
            row = await self.store.load_bracket_match(work.conn, tournament_id, key)
            if row is None or row.status == "decided" or row.match_id != match_id:
                return  # decided meanwhile (a disqualification, a cancel): the game stays an ordinary match
            if match.status == "cancelled":
                await self.store.update_bracket_match(work.conn, tournament_id, key, status="waiting", match_id=None)
                work.launch.append(key)
                return
            wins = list(row.wins)
            draws = row.draws
            if winner in row.players:
                wins[row.players.index(winner)] += 1
            else:
                draws += 1
            await self.store.update_bracket_match(work.conn, tournament_id, key, wins_a=wins[0], wins_b=wins[1],
                                             draws=draws, match_id=None)
            tournament = Tournament.from_json(work.tournament.state or {})
            decided = self._series_winner(tournament, row, wins, draws, work.tournament.options.get("best_of", 1))
            await work.queue({"type": "game_over", "key": key, "match_id": match_id, "winner": winner,
                              "wins": wins, "draws": draws})
            if decided is not None:
                fresh = await self.store.load_bracket_match(work.conn, tournament_id, key)
                assert fresh is not None
                await self._decide(work, tournament, fresh, decided[0], "series")
            else:
                await self.store.update_bracket_match(work.conn, tournament_id, key, status="waiting")
                work.launch.append(key)

        return await self._run(tournament_id, body)

    @staticmethod
    def _series_winner(tournament: Tournament, row: BracketMatchRecord, wins: list[int], draws: int,
                       best_of: int) -> tuple[int | None] | None:
        """``(winner,)`` (``(None,)``: a draw) once the series is decided, else ``None`` (another game)."""
        needed = best_of // 2 + 1
        for slot in (0, 1):
            if wins[slot] >= needed:
                return (row.players[slot],)
        played = wins[0] + wins[1] + draws
        if tournament.is_elimination:
            if played < best_of + EXTRA_GAMES:
                if played >= best_of and wins[0] != wins[1]:
                    return (row.players[0 if wins[0] > wins[1] else 1],)
                return None
            if wins[0] != wins[1]:
                return (row.players[0 if wins[0] > wins[1] else 1],)
            return (min(row.players, key=tournament.seed_of),)
        if played < best_of:
            return None
        if wins[0] == wins[1]:
            return (None,)
        return (row.players[0 if wins[0] > wins[1] else 1],)

    # --- reading ---------------------------------------------------------------------------------------------
    async def get(self, tournament_id: int) -> TournamentRecord:
        async with self.db.read() as conn:
            tournament = await self.store.load_tournament(conn, tournament_id)
        if tournament is None:
            raise TournamentNotFound()
        return tournament

    async def in_channel(self, guild_id: int, channel_id: int) -> TournamentRecord | None:
        """The channel's open tournament, else its latest one (``None``: it never had one)."""
        async with self.db.read() as conn:
            open_ = await self.store.channel_tournaments(conn, guild_id, channel_id)
            if open_:
                return open_[0]
            every = await self.store.channel_tournaments(conn, guild_id, channel_id, open_only=False)
        return every[0] if every else None

    async def entrants(self, tournament_id: int) -> list[EntrantRecord]:
        async with self.db.read() as conn:
            return await self.store.entrants(conn, tournament_id)

    async def names(self, tournament_id: int) -> dict[int, str]:
        async with self.db.read() as conn:
            return await self.store.names(conn, tournament_id)

    async def bracket_match(self, tournament_id: int, key: str) -> BracketMatchRecord | None:
        async with self.db.read() as conn:
            return await self.store.load_bracket_match(conn, tournament_id, key)

    async def bracket_matches(self, tournament_id: int, *, round: str | None = None,
                              call_message_id: int | None = None) -> list[BracketMatchRecord]:
        """The bracket matches called so far, in the order they were called (of one round, or on one message)."""
        async with self.db.read() as conn:
            return await self.store.bracket_matches(conn, tournament_id, round=round, call_message_id=call_message_id)

    async def games(self, tournament_id: int) -> list[GameRecord]:
        async with self.db.read() as conn:
            return await self.store.games(conn, tournament_id)

    async def bracket(self, tournament_id: int) -> Tournament | None:
        """The bracket state (``None`` before the start)."""
        tournament = await self.get(tournament_id)
        return None if not tournament.has_state else Tournament.from_json(tournament.state or {})

    async def history(self, guild_id: int, page: int = 1, per_page: int = 10) -> tuple[list[TournamentRecord], int]:
        """The server's past tournaments, newest first; and the number of pages."""
        per_page = max(1, per_page)
        async with self.db.read() as conn:
            _, total = await self.store.past_tournaments(conn, guild_id, limit=1)
            pages = max(1, -(-total // per_page))
            page = min(max(1, page), pages)
            rows, _ = await self.store.past_tournaments(conn, guild_id, limit=per_page, offset=(page - 1) * per_page)
        return rows, pages

    async def open_tournaments(self) -> list[TournamentRecord]:
        async with self.db.read() as conn:
            return await self.store.open_tournaments(conn)

    async def next_due(self, tournament_id: int) -> float | None:
        """When :meth:`tick` next has something to do for the tournament."""
        async with self.db.read() as conn:
            t = await self.store.load_tournament(conn, tournament_id)
            if t is None:
                return None
            if t.status == "signup":
                return t.signup_closes_at
            if t.status == "check_in":
                return t.check_in_ends_at
            if t.status != "running":
                return None
            return await self.store.next_deadline(conn, t.id)

    async def unshown_events(self, tournament_id: int) -> list[TournamentEvent]:
        """The tournament's channel events not shown yet, in order (its outbox's: :class:`TournamentOutbox`)."""
        return await self.outbox.unshown_events(tournament_id)


class TournamentOutbox(EventQueue[TournamentEvent]):
    """The tournaments' channel events in the outbox, as the tournament cog's show loop reads them (the same
    :class:`~bot.match.outbox.EventQueue` a game's matches are read through), and the ids of the messages that show
    them: the status message and the Ready calls. ``owns``: the servers whose tournaments this process shows
    (:mod:`bot.cluster`; set by the bot)."""

    def __init__(self, database: Storage, *, clock: Callable[[], float]) -> None:
        super().__init__(database, database.tournaments.EVENTS, clock=clock)
        self.store: TournamentStore[Connection] = database.tournaments
        self.owns: Callable[[int | None], bool] = lambda guild_id: True

    async def with_unshown_events(self) -> list[int]:
        """Tournaments (of the servers this process owns) with channel events still to show."""
        ids = await super().with_unshown_events()
        owned = []
        async with self.db.read() as conn:
            for tournament_id in ids:
                tournament = await self.store.load_tournament(conn, tournament_id)
                if tournament is not None and self.owns(tournament.guild_id):
                    owned.append(tournament_id)
        return owned

    async def last_event(self, tournament_id: int, *types: str) -> TournamentEvent | None:
        """The tournament's latest channel event of one of these types, shown or not."""
        async with self.db.read() as conn:
            return await self.queue.last_event(conn, tournament_id, types)

    async def set_message(self, tournament_id: int, name: str, message_id: int) -> TournamentRecord:
        """``signup`` or ``bracket``: the message the Discord side edits."""
        column = {"signup": "signup_message_id", "bracket": "bracket_message_id"}[name]
        async with self.db.transaction() as conn:
            await self.store.update_tournament(conn, tournament_id, self.clock(), **{column: message_id})
            tournament = await self.store.load_tournament(conn, tournament_id)
        assert tournament is not None
        return tournament

    async def set_call_message(self, tournament_id: int, keys: Sequence[str], message_id: int) -> None:
        """The message that calls these bracket matches (one Ready call holds several)."""
        async with self.db.transaction() as conn:
            for key in keys:
                await self.store.update_bracket_match(conn, tournament_id, key, call_message_id=message_id)
