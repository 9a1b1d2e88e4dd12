"""The War service: War, Drunkard and Tod und Leben matches for 2-4 players, on the match service's machinery.

:class:`WarService` is a :class:`~bot.match.kernel.MatchKernel` for War and its variants: challenges,
decline / withdraw / expiry, forfeits, the result and the ratings are the shared ones; this module adds lobbies,
paces, flips, votes and the War timers. A step is stored as ``matches.engagement``: the rounds played.

Per-match options (``matches.options``): ``pace`` (``flip`` | ``auto`` | ``instant``), ``lobby`` (a lobby rather
than a challenge) and ``host`` (its host's user id), ``votes`` (pace -> user ids who asked for it),
``history`` (each seat's cards at the start and after every ``every``-th round; thinned by halves past
:data:`HISTORY_POINTS`, the last point is the end of the game).

Paces:

* ``flip``: every player still in presses Flip each round (:meth:`WarService.flip`); the round resolves on the
  last flip. A turn deadline (kind ``turn``, the server's arrangement timer) runs per round: who has not flipped
  by then is flipped for (``turn_timeout``); a second miss in a row forfeits (everyone still in missing twice at
  once: a draw, ``double_timeout``).
* ``auto``: the bot plays a round every :data:`AUTO_ROUND_SECONDS` (deadline kind ``round``: the Discord side
  waits that long, then calls :meth:`WarService.auto_round`).
* ``instant``: played out at once, in the step that starts (or switches to) it.

Votes: :meth:`WarService.vote` toggles a player's vote for a faster pace; once every player still in the game
has voted for a pace at least that fast, the game switches (``pace`` event) -- unanimity, so nobody's game is
sped up against their will.

Events, besides the engine's (see :mod:`bot.games.war.engine`) and the shared ones (``challenge``, ``accepted``,
``declined``, ``withdrawn``, ``expired``, ``game_over``, ``result``):

* ``lobby`` {host_id, game, rules, pace, expires_at}; ``joined`` / ``left`` {user_id, user_ids, expires_at};
* ``turn`` {round, deadline_at, seats}: round ``round`` waits for the seats' flips until ``deadline_at``;
* ``turn_timeout`` {round, seats, user_ids, misses, auto_flipped, forfeit};
* ``vote`` {user_id, pace, on, votes}; ``pace`` {pace, previous, by};
* ``played_out`` {from_round, to_round}: rounds played at once (instant), their events not listed;
* ``deadline_moved`` {round, deadline_at, reason}: a turn deadline that passed while the bot was away.

Every engine event is queued with the round it belongs to; in flip and auto pace each round's events are queued,
in instant pace only ``played_out`` and ``game_over``.

Forfeit and status: :meth:`WarService.forfeit_target` (what ``/war forfeit`` asks about), :meth:`check_forfeit`
(the question's No: refuses as a forfeit would, changes nothing), :meth:`forfeit` (a player already out is refused
with :class:`AlreadyOut`, a game that ended with :class:`WarGameNotActive`), :meth:`war_status` (``/war status``).
A lobby's rules are checked for the numbers of players who can play them (:meth:`playable_counts`): Join refuses a
seat no number of players could use, Start says which numbers can play.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.errors import InvalidRules
from bot.games import game_class
from bot.games.base import Event, Game
from bot.games.war import DEFAULT_PACE, PACES
from bot.match import errors
from bot.match.kernel import (
    ACCEPTED,
    CHALLENGED,
    DEADLINE,
    DOUBLE_TIMEOUT,
    FORFEIT,
    TIMEOUT,
    WITHDRAWN,
    MatchKernel,
    MatchUpdate,
    _Work,
)
from bot.storage import Connection, StorageConflict
from bot.storage import matches as store
from bot.storage import settings as settings_store
from bot.storage.records import MatchRecord

AUTO_ROUND_SECONDS = 2.0
DEFAULT_TURN_SECONDS = 120
#: a lobby nobody joins or leaves for this long expires
LOBBY_IDLE_SECONDS = 600
HISTORY_POINTS = 1000
MISSES_TO_FORFEIT = 2

# MatchUpdate.changes words of War
JOINED = "joined"
LEFT = "left"
FLIPPED = "flipped"
ROUND = "round"
VOTED = "voted"
PACE = "pace"


class NotInWarGame(errors.NotInMatch):
    """``/war forfeit`` or ``/war status`` by a user without an open game of the War family."""

    def __init__(self) -> None:
        errors.ServiceError.__init__(self, "You're not in a game of War, Drunkard or Tod und Leben. Start one with "
                                           "`/war challenge` or `/war lobby`.")


class WarGameNotActive(errors.MatchNotActive):
    """A play button, a vote or a forfeit on a game that is not being played (not started yet, or over)."""

    def __init__(self, status: str) -> None:
        errors.ServiceError.__init__(self, "This game hasn't started yet; nothing changed." if status == "challenge"
                                     else "This game is over already; nothing changed.")
        self.status = status


class AlreadyOut(errors.ServiceError):
    """A forfeit (or a Flip, a vote) by a player who is out of the game already (no cards left, gave up, missed
    two rounds in a row): the others play on without them."""

    def __init__(self, what: str) -> None:
        super().__init__(f"You're out of this game already, so {what}; the others play on without you.")


class NotStartedYet(errors.ServiceError):
    """``/war forfeit`` while the user's game is still a challenge or a lobby: there is nothing to give up yet."""


@dataclass(frozen=True)
class WarStatus:
    """``/war status``: the user's open game, their seat and the spectator's view (``None`` before the deal)."""

    match: MatchRecord
    seat: int
    view: dict[str, Any] | None


def faster(pace: str, than: str) -> bool:
    return PACES.index(pace) > PACES.index(than)


def _check_pace(pace: str) -> str:
    if pace not in PACES:
        raise errors.InvalidSetting(f"The pace must be one of {', '.join(PACES)}, not {pace!r}.")
    return pace


class WarService(MatchKernel):
    """See the module docstring."""

    game = "war"

    @staticmethod
    def _step(game: Game) -> int:
        return game.stats.rounds

    @staticmethod
    def _check_active(match: MatchRecord) -> None:
        if match.status != "active":
            raise WarGameNotActive(match.status)

    async def _busy(self, conn: Connection, user_id: int, game: str) -> int | None:
        """A player is in at most one match of the War family at a time (War, Drunkard, Tod und Leben)."""
        for name in self.games:
            busy = await store.open_match_id_for_user(conn, user_id, name)
            if busy is not None:
                return busy
        return None

    def resolve_rules(self, game: str, rules: Mapping[str, Any] | None, players: int = 2) -> dict[str, Any]:
        """The game's rules with ``players`` filled in, checked the way a deal checks them (InvalidRules with the
        engine's message for a bad combination)."""
        if game not in self.games:
            game_class(game)
            raise errors.UnsupportedGame(game, self.games)
        cls = game_class(game)
        given = dict(rules or {})
        given["players"] = players
        if players > cls.max_players:
            raise InvalidRules(f"{cls.title} is for {cls.min_players} to {cls.max_players} players, not {players}")
        resolved = cls.resolve_rules(given)
        cls.new(resolved, seed=0)  # the rule checks that need a deal (jokers shared out, the target)
        return resolved

    def playable_counts(self, game: str, rules: Mapping[str, Any] | None) -> list[int]:
        """The numbers of players the rules can be played by (``joker_each`` shares jokers out evenly, ``target``
        must be more than a player's starting cards, ...)."""
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
        """A lobby's rules: checked for the smallest number of players they can be played by (a ``target`` may need
        more than two); refused with the two-player reason when no number of players can play them."""
        counts = self.playable_counts(game, rules)
        return self.resolve_rules(game, rules, counts[0] if counts else game_class(game).min_players)

    # --- challenges and lobbies ----------------------------------------------------------------------------
    async def check_player(self, user_id: int, game: str = "war") -> None:
        """Raise AlreadyInMatch when the user is in an open War-family match (the cog asks before it answers)."""
        async with self.db.read() as conn:
            busy = await self._busy(conn, user_id, game)
        if busy is not None:
            raise errors.AlreadyInMatch(user_id, self._title(game), you=True, match_id=busy)

    async def challenge(self, guild_id: int, channel_id: int, challenger_id: int, opponent_id: int, *,
                        game: str = "war", rules: Mapping[str, Any] | None = None,
                        arrange_seconds: int | None = None, challenger_name: str | None = None,
                        opponent_name: str | None = None, options: Mapping[str, Any] | None = None,
                        pace: str = DEFAULT_PACE) -> MatchUpdate:
        """A two-player challenge at ``pace``; refuses what :meth:`MatchKernel.challenge` refuses and bad rule
        combinations (InvalidRules)."""
        _check_pace(pace)
        if challenger_id == opponent_id:
            raise errors.CannotChallengeSelf()
        resolved = self.resolve_rules(game, rules, 2)
        return await super().challenge(
            guild_id, channel_id, challenger_id, opponent_id, game=game, rules=resolved,
            arrange_seconds=arrange_seconds, challenger_name=challenger_name, opponent_name=opponent_name,
            options={**dict(options or {}), "pace": pace, "votes": {}},
        )

    async def open_lobby(self, guild_id: int, channel_id: int, host_id: int, *, game: str = "war",
                         rules: Mapping[str, Any] | None = None, pace: str = DEFAULT_PACE,
                         host_name: str | None = None) -> MatchUpdate:
        """A lobby (a match in status ``challenge`` with the host in seat 0) others join until the host starts it;
        it expires after :data:`LOBBY_IDLE_SECONDS` without a join or leave. Refuses a busy host, bad rules."""
        _check_pace(pace)
        resolved = self.resolve_lobby_rules(game, rules)
        title = self._title(game)
        async with self.db.transaction() as conn:
            now = self.clock()
            busy = await self._busy(conn, host_id, game)
            if busy is not None:
                raise errors.AlreadyInMatch(host_id, title, you=True, match_id=busy)
            deadline = now + LOBBY_IDLE_SECONDS
            try:
                match_id = await store.insert_match(
                    conn, guild_id=guild_id, channel_id=channel_id, game=game, rules=resolved, arrange_seconds=None,
                    user_ids=(host_id,), deadline_at=deadline, now=now,
                    options={"pace": pace, "lobby": True, "host": host_id, "votes": {}},
                )
            except StorageConflict:
                raise errors.AlreadyInMatch(host_id, title, you=True) from None
            await settings_store.remember_player(conn, guild_id, host_id, host_name, now)
            match = await store.load_match(conn, match_id)
            assert match is not None
            work = _Work(conn, match, now)
            await work.queue([{"type": "lobby", "host_id": host_id, "game": game, "rules": resolved, "pace": pace,
                               "expires_at": deadline}])
            work.changes |= {CHALLENGED, DEADLINE}
            return await work.result()

    @staticmethod
    def _open_lobby(match: MatchRecord, now: float) -> None:
        if not match.options.get("lobby"):
            raise errors.LobbyError("This isn't a lobby.")
        if match.status != "challenge":
            raise errors.LobbyError("This lobby is closed: the game has started." if match.status != "cancelled"
                                    else "This lobby is closed.")
        if match.deadline_at is not None and now >= match.deadline_at:
            raise errors.LobbyError("This lobby has expired.")

    async def join(self, match_id: int, user_id: int, name: str | None = None) -> MatchUpdate:
        """Take a seat in the lobby. Refuses: a closed or full lobby, a player in it already or busy elsewhere."""
        async with self._work(match_id) as work:
            match = work.match
            self._open_lobby(match, work.now)
            if match.seat_of(user_id) is not None:
                raise errors.LobbyError("You're in this lobby already.")
            cls = game_class(match.game)
            if len(match.seats) >= cls.max_players:
                raise errors.LobbyError(f"This lobby is full: {cls.title} is for at most {cls.max_players} players.")
            counts = self.playable_counts(match.game, match.rules)
            if counts and max(counts) <= len(match.seats):
                raise errors.LobbyError(f"This lobby is full: its rules can be played by at most {max(counts)} "
                                        "players.")
            busy = await self._busy(work.conn, user_id, match.game)
            if busy is not None:
                raise errors.AlreadyInMatch(user_id, cls.title, you=True, match_id=busy)
            await store.add_seat(work.conn, match_id, user_id)
            await settings_store.remember_player(work.conn, match.guild_id, user_id, name, work.now)
            return await self._lobby_changed(work, {"type": "joined", "user_id": user_id}, JOINED)

    async def leave(self, match_id: int, user_id: int) -> MatchUpdate:
        """Give up a seat in the lobby (the host cancels it instead)."""
        async with self._work(match_id) as work:
            match = work.match
            seat = self._seat(match, user_id)
            self._open_lobby(match, work.now)
            if seat == 0:
                raise errors.LobbyError("You're the host: use Cancel to close the lobby.")
            await store.remove_seat(work.conn, match_id, user_id)
            return await self._lobby_changed(work, {"type": "left", "user_id": user_id}, LEFT)

    async def _lobby_changed(self, work: _Work, event: Event, change: str) -> MatchUpdate:
        deadline = work.now + LOBBY_IDLE_SECONDS
        await work.update(deadline_at=deadline, deadline_kind="challenge")
        match = await self._reload(work)
        await work.queue([{**event, "user_ids": list(match.user_ids), "expires_at": deadline}])
        work.changes |= {change, DEADLINE}
        return await work.result()

    async def cancel_lobby(self, match_id: int, user_id: int) -> MatchUpdate:
        """The host closes the lobby (cancelled, reason ``withdrawn``)."""
        async with self._work(match_id) as work:
            match = work.match
            seat = self._seat(match, user_id)
            self._open_lobby(match, work.now)
            if seat != 0:
                raise errors.LobbyError(f"Only the host, <@{match.challenger_id}>, can cancel this lobby.")
            await work.update(status="cancelled", reason=WITHDRAWN, deadline_at=None, deadline_kind=None)
            await work.queue([{"type": WITHDRAWN, "by": user_id}])
            work.changes |= {WITHDRAWN, DEADLINE}
            return await work.result()

    async def start(self, match_id: int, user_id: int) -> MatchUpdate:
        """The host starts the lobby's game with the players in it (at least two): dealt from a fresh seed, the
        rules' ``players`` set to them. Events: ``accepted``, then what the pace starts with."""
        async with self._work(match_id) as work:
            match = work.match
            seat = self._seat(match, user_id)
            self._open_lobby(match, work.now)
            if seat != 0:
                raise errors.LobbyError(f"Only the host, <@{match.challenger_id}>, can start this game.")
            if len(match.seats) < 2:
                raise errors.LobbyError("At least one more player has to join before the game can start.")
            counts = self.playable_counts(match.game, match.rules)
            if len(match.seats) not in counts:
                try:
                    self.resolve_rules(match.game, match.rules, len(match.seats))
                except InvalidRules as error:
                    why = str(error)
                else:  # pragma: no cover - playable_counts tried the same call
                    why = "they can't"
                raise errors.LobbyError(
                    f"This lobby's rules can't be played by {len(match.seats)} players ({why}). They can be played "
                    f"by {' or '.join(map(str, counts))} players: wait for someone to join or ask someone to leave.")
            rules = self.resolve_rules(match.game, match.rules, len(match.seats))
            await work.update(rules=rules)
            work.match = await self._reload(work)
            return await self._begin(work)

    async def accept(self, match_id: int, user_id: int) -> MatchUpdate:
        """The opponent accepts a challenge (a lobby's Start is :meth:`start`)."""
        async with self._work(match_id) as work:
            match = work.match
            seat = self._seat(match, user_id)
            if match.options.get("lobby"):
                raise errors.LobbyError("This is a lobby: its host starts the game.")
            if match.status != "challenge":
                raise errors.ChallengeClosed("accepted" if match.status != "cancelled" else match.reason)
            if seat != 1:
                raise errors.WrongPlayer(f"Only <@{match.opponent_id}> can accept this challenge.", match.opponent_id)
            if match.deadline_at is not None and work.now >= match.deadline_at:
                raise errors.ChallengeClosed("expired")
            return await self._begin(work)

    async def _begin(self, work: _Work) -> MatchUpdate:
        match = work.match
        settings = await self._settings(work.conn, match.guild_id)
        turn = match.arrange_seconds or settings.arrange_seconds or DEFAULT_TURN_SECONDS
        seed = self.seed_source()
        game = game_class(match.game).new(match.rules, seed=seed)
        await work.update(status="active", seed=seed, arrange_seconds=turn, started_at=work.now,
                          state=game.to_json(), engagement=0, deadline_at=None, deadline_kind=None)
        await work.queue([{"type": "accepted", "user_ids": list(match.user_ids), "arrange_seconds": turn,
                           "pace": match.options.get("pace", DEFAULT_PACE), "rules": dict(match.rules)}])
        work.changes |= {ACCEPTED}
        work.match = await self._reload(work)
        options = dict(work.match.options)
        options["history"] = [game.view(None)["card_counts"]]
        options["every"] = 1
        await self._advance(work, game, [], previous=-1, options=options)
        return await work.result()

    # --- playing -------------------------------------------------------------------------------------------
    async def _after_play(self, work: _Work, game: Game, events: list[Event], *, previous_engagement: int) -> None:
        """The shared calls (a forfeit) land here: store, record, schedule or finish."""
        await self._advance(work, game, events, previous=previous_engagement, options=dict(work.match.options))

    async def _advance(self, work: _Work, game: Game, events: list[Event], *, previous: int,
                       options: dict[str, Any], new_deadline: bool = False) -> None:
        """Store the game after engine calls (rounds ``previous`` played before them; -1: the game starts now), queue
        its events, record the card counts, run the pace: play out (instant), the next round's deadline, or finish.
        ``new_deadline``: the pace changed, its deadline starts now."""
        match = work.match
        queued = [dict(event) for event in events]
        pace = options.get("pace", DEFAULT_PACE)
        if game.stats.rounds > max(previous, 0):
            self._record(options, game)
        if pace == "instant" and not game.is_over:
            first = game.stats.rounds + 1
            self._play_out(game, options)
            queued.append({"type": "played_out", "from_round": first, "to_round": game.stats.rounds})
            queued += self._game_over_event(game)
        if game.is_over:
            self._record(options, game, final=True)
        fields: dict[str, Any] = {"state": game.to_json(), "engagement": self._step(game), "options": options}
        if not game.is_over:
            round_started = new_deadline or previous < 0 or game.stats.rounds != previous
            if pace == "auto" and (round_started or match.deadline_kind != "round"):
                fields |= {"deadline_at": work.now + AUTO_ROUND_SECONDS, "deadline_kind": "round"}
                work.changes.add(DEADLINE)
            elif pace == "flip" and (round_started or match.deadline_kind != "turn"):
                deadline = work.now + (match.arrange_seconds or DEFAULT_TURN_SECONDS)
                fields |= {"deadline_at": deadline, "deadline_kind": "turn"}
                view = game.view(None)
                queued.append({"type": "turn", "round": game.stats.rounds + 1, "deadline_at": deadline,
                               "seats": view["to_flip"]})
                work.changes |= {DEADLINE, ROUND}
        await work.update(**fields)
        for event in queued:
            event.setdefault("round", game.stats.rounds)
            event["engagement"] = event["round"]
        await work.queue(queued)
        if game.is_over:
            await self._finish(work, game)
        work.match = await self._reload(work)

    @staticmethod
    def _game_over_event(game: Game) -> list[Event]:
        if game.outcome is None:
            return []
        return [{"type": "game_over", "round": game.stats.rounds, **game.outcome.to_json()}]

    @staticmethod
    def _record(options: dict[str, Any], game: Game, *, final: bool = False) -> None:
        """Each seat's cards after a round (every ``every``-th) or at the end, thinned by halves when too many."""
        history: list[list[int]] = options.setdefault("history", [])
        every = options.setdefault("every", 1)
        counts = list(game.view(None)["card_counts"])
        rounds = game.stats.rounds
        if final:
            options["final"] = [rounds, counts]
            return
        if rounds % every:
            return
        history.append(counts)
        if len(history) > HISTORY_POINTS:
            options["history"] = history[::2]
            options["every"] = every * 2

    def _play_out(self, game: Game, options: dict[str, Any]) -> None:
        """Play to the end without events (instant), recording the counts every ``every``-th round."""
        while not game.is_over:
            every = options.get("every", 1)
            step = every - game.stats.rounds % every
            game.play_out(step, record=False)
            if game.is_over:
                break
            self._record(options, game)

    async def flip(self, match_id: int, user_id: int, round_number: int) -> MatchUpdate:
        """The user flips their top card in round ``round_number`` (flip pace). Refuses: a round that is over
        (StaleRound), a second flip, a player who is out, another pace (NotYourTurn)."""
        async with self._work(match_id) as work:
            match = work.match
            seat = self._seat(match, user_id)
            self._check_active(match)
            if match.options.get("pace") != "flip":
                raise errors.NotYourTurn(f"This game is played at the {match.options.get('pace')} pace now: the bot "
                                         "flips for everyone.")
            current = match.engagement + 1
            if round_number != current:
                raise errors.StaleRound(round_number, current)
            game = await self._game(work)
            view = game.view(None)
            if not view["in_game"][seat]:
                raise AlreadyOut("there's nothing to flip")
            if seat not in view["to_flip"]:
                raise errors.NotYourTurn(f"You've flipped already in round {current}; waiting for the others.")
            action = {"type": "flip"}
            events = game.apply(seat, action)
            await store.append_action(work.conn, match.id, seat=seat, engagement=current, kind="flip",
                                      action=action, now=work.now)
            await store.update_seat(work.conn, match.id, seat, misses=0)
            work.changes.add(FLIPPED)
            await self._advance(work, game, events, previous=match.engagement, options=dict(match.options))
            return await work.result()

    async def auto_round(self, match_id: int, round_number: int) -> MatchUpdate | None:
        """Play round ``round_number`` for everyone (auto pace); ``None`` when that round is not the one due (played
        already, another pace, over): a timer firing twice does nothing."""
        async with self._work(match_id) as work:
            match = work.match
            if (match.status != "active" or match.deadline_kind != "round" or match.options.get("pace") != "auto"
                    or match.engagement + 1 != round_number):
                return None
            game = await self._game(work)
            await store.append_action(work.conn, match.id, seat=0, engagement=round_number, kind="round",
                                      action={"type": "round"}, now=work.now)
            events = game.play_round()
            work.changes.add(ROUND)
            await self._advance(work, game, events, previous=match.engagement, options=dict(match.options))
            return await work.result()

    async def turn_timeout(self, match_id: int, round_number: int) -> MatchUpdate | None:
        """Round ``round_number``'s flip deadline: the seats that have not flipped are flipped for, or, on a second
        miss in a row, forfeit (everyone still in at once: a draw). ``None`` unless that deadline is due."""
        async with self._work(match_id) as work:
            match = work.match
            if (match.status != "active" or match.deadline_kind != "turn" or match.engagement + 1 != round_number
                    or match.deadline_at is None or work.now < match.deadline_at):
                return None
            game = await self._game(work)
            view = game.view(None)
            missed = list(view["to_flip"])
            if not missed:
                return None
            misses = [seat.misses + (1 if seat.seat in missed else 0) for seat in match.seats]
            forfeit = [seat for seat in missed if misses[seat] >= MISSES_TO_FORFEIT]
            still_in = [seat for seat in range(len(match.seats)) if view["in_game"][seat]]
            everyone = sorted(forfeit) == still_in
            flipped = [seat for seat in missed if seat not in forfeit]
            for seat in missed:
                await store.update_seat(work.conn, match.id, seat, misses=misses[seat])
            await work.queue([{
                "type": "turn_timeout", "round": round_number, "engagement": round_number, "seats": missed,
                "user_ids": [match.seats[seat].user_id for seat in missed], "misses": misses,
                "auto_flipped": [] if everyone else flipped, "forfeit": forfeit,
            }])
            work.changes.add(TIMEOUT)
            work.timed_out = tuple(missed)
            events: list[Event] = []
            if everyone:
                events = game.draw(DOUBLE_TIMEOUT, "every player still in missed two rounds in a row: a draw")
            else:
                for seat in forfeit:
                    if not game.is_over:
                        events += game.forfeit(seat, reason="timeout")
                for seat in flipped:
                    if not game.is_over and seat in game.view(None)["to_flip"]:
                        events += game.apply(seat, {"type": "flip"})
                        await store.append_action(work.conn, match.id, seat=seat, engagement=round_number,
                                                  kind="auto_flip", action={"type": "flip"}, now=work.now)
            for seat in forfeit:
                await store.append_action(work.conn, match.id, seat=seat, engagement=round_number, kind="timeout",
                                          action={"type": "timeout"}, now=work.now)
            if forfeit:
                work.changes.add(FORFEIT)
                work.forfeited = tuple(forfeit)
            for event in events:
                if event.get("type") == "game_over":
                    event.setdefault("round", game.stats.rounds)
            await self._advance(work, game, events, previous=match.engagement, options=dict(match.options),
                                new_deadline=True)
            return await work.result()

    async def vote(self, match_id: int, user_id: int, pace: str) -> MatchUpdate:
        """Toggle the user's vote to speed the game up to ``pace``. Once every player still in the game wants a pace
        at least that fast, the game switches to the fastest pace they all want (``pace`` event; instant: the game
        is played out now)."""
        _check_pace(pace)
        async with self._work(match_id) as work:
            match = work.match
            seat = self._seat(match, user_id)
            self._check_active(match)
            current = match.options.get("pace", DEFAULT_PACE)
            if not faster(pace, current):
                raise errors.VoteError(f"The game is at the {current} pace already; vote for a faster one.")
            game = await self._game(work)
            view = game.view(None)
            if not view["in_game"][seat]:
                raise AlreadyOut("only the players still in vote on the pace")
            options = dict(match.options)
            votes = {key: list(value) for key, value in options.get("votes", {}).items()}
            mine = votes.setdefault(pace, [])
            on = user_id not in mine
            if on:
                mine.append(user_id)
            else:
                mine.remove(user_id)
            options["votes"] = {key: value for key, value in votes.items() if value}
            voters = [match.seats[s].user_id for s in range(len(match.seats)) if view["in_game"][s]]
            await work.queue([{"type": "vote", "round": game.stats.rounds, "user_id": user_id, "pace": pace,
                               "on": on, "votes": options["votes"]}])
            work.changes.add(VOTED)
            chosen = None
            for target in reversed(PACES):
                if not faster(target, current):
                    break
                agreed = {uid for p in PACES if PACES.index(p) >= PACES.index(target) for uid in votes.get(p, [])}
                if all(uid in agreed for uid in voters):
                    chosen = target
                    break
            if chosen is None:
                await work.update(options=options)
                work.match = await self._reload(work)
                return await work.result()
            options["pace"] = chosen
            options["votes"] = {}
            await work.queue([{"type": "pace", "round": game.stats.rounds, "pace": chosen, "previous": current,
                               "by": "vote"}])
            work.changes.add(PACE)
            await store.reset_misses(work.conn, match.id)
            await self._advance(work, game, [], previous=match.engagement, options=options, new_deadline=True)
            return await work.result()

    # --- timers --------------------------------------------------------------------------------------------
    async def deadline_due(self, match_id: int) -> MatchUpdate | None:
        """A timer's callback: expire a challenge or lobby, or run a turn deadline (auto rounds: :meth:`auto_round`,
        the Discord side paces them)."""
        async with self.db.read() as conn:
            match = await store.load_match(conn, match_id)
        if match is None or match.deadline_kind is None:
            return None
        if match.deadline_kind == "challenge":
            return await self.expire(match_id)
        if match.deadline_kind == "turn":
            return await self.turn_timeout(match_id, match.engagement + 1)
        if match.deadline_kind == "round":
            return await self.auto_round(match_id, match.engagement + 1)
        return None

    async def resume_deadlines(self) -> list[MatchUpdate]:
        """After the bot was away: a turn deadline that passed meanwhile moves to now + the match's timer (nobody
        could click); event ``deadline_moved``. Challenges and lobbies that expired meanwhile just expire."""
        async with self.db.read() as conn:
            open_ids = await store.open_match_ids(conn, self.games)
            overdue = [match.id for match in await store.load_matches(conn, open_ids)
                       if match.status == "active" and match.deadline_kind == "turn"
                       and match.deadline_at is not None and match.deadline_at <= self.clock()]
        updates = []
        for match_id in overdue:
            async with self._work(match_id) as work:
                match = work.match
                if (match.status != "active" or match.deadline_kind != "turn" or match.deadline_at is None
                        or match.deadline_at > work.now):
                    continue
                deadline = work.now + (match.arrange_seconds or DEFAULT_TURN_SECONDS)
                await work.update(deadline_at=deadline)
                await work.queue([{"type": "deadline_moved", "round": match.engagement + 1,
                                   "engagement": match.engagement + 1, "deadline_at": deadline,
                                   "reason": "bot_away"}])
                work.changes.add(DEADLINE)
                updates.append(await work.result())
        return updates

    # --- reading -------------------------------------------------------------------------------------------
    async def find_war_match(self, user_id: int) -> MatchRecord | None:
        """The user's open match of any War-family game."""
        async with self.db.read() as conn:
            match_id = await self._busy(conn, user_id, self.game)
            return None if match_id is None else await store.load_match(conn, match_id)

    async def war_status(self, user_id: int) -> WarStatus:
        """``/war status``: the user's open War-family game, their seat and the public view (NotInWarGame when
        none). War hides nothing a spectator may not see (face-down cards are only counted), so the view is the
        table's."""
        match = await self.find_war_match(user_id)
        if match is None:
            raise NotInWarGame()
        seat = self._seat(match, user_id)
        if match.status != "active":
            return WarStatus(match, seat, None)
        return WarStatus(match, seat, await self.view(match.id))

    async def forfeit_target(self, user_id: int, game: str = "war") -> MatchRecord:
        """``/war forfeit`` before it asks "really?": the user's active War-family game. Refuses NotInWarGame,
        NotStartedYet (a challenge or lobby: its buttons close it) and AlreadyOut."""
        match = await self.find_war_match(user_id)
        if match is None:
            raise NotInWarGame()
        seat = self._seat(match, user_id)
        title = self._title(match.game)
        if match.status == "challenge":
            if match.options.get("lobby"):
                what = ("Cancel it with the button on the lobby message" if seat == 0
                        else "Leave it with the button on the lobby message")
                raise NotStartedYet(f"Your {title} lobby hasn't started yet, so there's nothing to give up: {what}.")
            other = match.user_ids[1 - seat]
            what = "withdraw it" if seat == 0 else "decline it"
            raise NotStartedYet(f"Your {title} challenge with <@{other}> hasn't started yet, so there's nothing to "
                                f"give up: {what} with the button on the challenge message.")
        await self.check_forfeit(match.id, user_id)
        return match

    async def check_forfeit(self, match_id: int, user_id: int) -> None:
        """Raise what :meth:`forfeit` would refuse (NotYourMatch, WarGameNotActive, AlreadyOut); change nothing."""
        async with self.db.read() as conn:
            match = await store.load_match(conn, match_id)
            if match is None:
                raise errors.MatchNotFound(match_id)
            seat = self._seat(match, user_id)
            self._check_active(match)
            state = await store.load_state(conn, match_id)
        if state is None:
            raise WarGameNotActive(match.status)
        if not game_class(match.game).from_json(state).view(None)["in_game"][seat]:
            raise AlreadyOut("there's nothing to give up")

    async def forfeit(self, match_id: int, user_id: int) -> MatchUpdate:
        """The user gives up: they are out (two players: the other wins; more: the others play on). Refuses
        NotYourMatch, WarGameNotActive (not started or over) and AlreadyOut, in the project's words."""
        async with self._work(match_id) as work:
            match = work.match
            seat = self._seat(match, user_id)
            self._check_active(match)
            game = await self._game(work)
            if not game.view(None)["in_game"][seat]:
                raise AlreadyOut("there's nothing to give up")
            events = game.forfeit(seat, reason="forfeit")
            await store.append_action(work.conn, match.id, seat=seat, engagement=match.engagement, kind="forfeit",
                                      action={"type": "forfeit"}, now=work.now)
            work.changes.add(FORFEIT)
            work.forfeited = (seat,)
            await self._after_play(work, game, events, previous_engagement=match.engagement)
            return await work.result()

    async def forfeit_war(self, user_id: int) -> MatchUpdate:
        """Give up the user's active War-family game at once (what ``/war forfeit`` does once confirmed)."""
        match = await self.forfeit_target(user_id)
        return await self.forfeit(match.id, user_id)

    async def history(self, match_id: int) -> tuple[list[list[int]], int, list[int]]:
        """The card counts recorded: ``(points, every, rounds)`` -- point ``i`` is after round ``i * every`` (point
        0 the deal); at the end one more point at the final round is added. ``rounds`` gives each point's
        round."""
        match = await self.get_match(match_id)
        options = match.options
        points = [list(p) for p in options.get("history", [])]
        every = int(options.get("every", 1))
        rounds = [i * every for i in range(len(points))]
        final = options.get("final")
        if final is not None and (not rounds or final[0] != rounds[-1]):
            points.append(list(final[1]))
            rounds.append(final[0])
        return points, every, rounds


__all__ = ["AUTO_ROUND_SECONDS", "DEFAULT_PACE", "LOBBY_IDLE_SECONDS", "PACES", "AlreadyOut", "NotInWarGame",
           "NotStartedYet", "WarGameNotActive", "WarService", "WarStatus", "faster"]
