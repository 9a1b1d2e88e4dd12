"""The start and the end of a match that never began: challenges and lobbies (:class:`Challenges`, which
:class:`~bot.match.kernel.MatchKernel` is built on), with the rules and paces a new match is made with.

A challenge expires :data:`CHALLENGE_SECONDS` after it was made, a lobby :data:`LOBBY_IDLE_SECONDS` after its last
join or leave; a challenge cannot be accepted after its deadline. One open match per player per family: a player in
a challenge, a lobby or an active match of a game or any of its variants (in any server) can neither challenge nor
be challenged to any of them; a unique index in the database backs the check per game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.errors import InvalidRules
from bot.game import Event
from bot.i18n import N_, Phrase
from bot.match import errors
from bot.match.flow import CHALLENGE_DEADLINE, Flow
from bot.match.work import Change, MatchUpdate, MatchWork, Reason, Work
from bot.registry import game_class, registry
from bot.storage import Connection
from bot.storage.errors import StorageConflict
from bot.storage.records import MatchRecord, Status
from bot.storage.settings import GuildSettings

CHALLENGE_SECONDS = 300
#: a lobby nobody joins or leaves for this long expires
LOBBY_IDLE_SECONDS = 600
#: ``matches.options`` key of a match against the bot: ``{"seat": the bot's seat, "level": its level}``; such a
#: match is unrated and the bot's seat is never counted as busy
OPPONENT_OPTION = "opponent"


class Challenges(MatchWork):
    """Challenges and lobbies of the kernel's game (see the module docstring); the deal that begins the match is the
    kernel's (:meth:`~bot.match.kernel.MatchKernel._deal`)."""

    flow: Flow
    #: the paces a match can be played at, slowest first (empty: the game has none)
    paces: tuple[str, ...]
    default_pace: str | None

    async def _deal(self, work: Work, settings: GuildSettings | None) -> MatchUpdate:
        """Deal the match's game and begin it (the kernel's)."""
        raise NotImplementedError

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings in force (the kernel's)."""
        raise NotImplementedError

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
    def _validate_range(name: str, value: Any, bounds: tuple[int, int], unit: str) -> int:
        low, high = bounds
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise errors.InvalidSetting(N_("The {name} must be a whole number from {low} to {high} {unit}, not "
                                           "{value}."), name=Phrase(name), low=low, high=high, unit=Phrase(unit),
                                        value=value)
        return value

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
            self._validate_range(self.flow.timer_name, arrange_seconds, self.flow.timer_range, N_("seconds"))
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
                work = Work(watched, self.store, match, now, event_seq=0)  # type: ignore[arg-type]  (a new match: no events yet)
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
            work = Work(conn, self.store, match, now)
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

    def _check_host(self, work: Work, user_id: int, refusal: str) -> None:
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

    async def _lobby_changed(self, work: Work, event: Event, change: str) -> MatchUpdate:
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
    async def _cancel(work: Work, reason: Reason, keys: dict[str, Any]) -> MatchUpdate:
        """Close the challenge or lobby (cancelled, ``reason``); its event is ``reason`` with ``keys``."""
        await work.update(status=Status.CANCELLED, reason=reason, deadline_at=None, deadline_kind=None)
        await work.queue([{"type": reason, **keys}])
        work.changes |= {Change(reason), Change.DEADLINE}
        return await work.result()

