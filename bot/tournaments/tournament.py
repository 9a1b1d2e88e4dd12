"""A tournament as a state machine: create it, record results and disqualifications, read rounds and standings.

Formats (:class:`Format`): single elimination, double elimination (with a grand-final reset), round robin (circle
method) and Swiss. The whole state is JSON (:meth:`Tournament.to_json`, :meth:`Tournament.from_json`), so a
service can store it after every call. :meth:`Tournament.record_result` and :meth:`Tournament.disqualify` are atomic:
they check everything first and raise a :class:`~bot.tournaments.errors.TournamentError` without changing
anything, or they change the state and return the events they caused (also appended to :attr:`Tournament.events`,
which holds the events since the object was made or loaded: they are not part of the saved state, which stays the
size of the bracket however long the tournament runs).

Randomness: only the seeding draws from the ``random.Random`` given to :meth:`Tournament.new` (to order players
their ratings do not separate); pairing and scheduling are deterministic. So the saved state holds no random state,
and the same players, ratings, options and rng state always give the same tournament.

Choices where a tournament could go either way:

* a match is decided by one game as far as this module knows; "best of" is the match layer's business;
* draws are accepted in round robin and Swiss only (``record_result(key, None)``); elimination needs a winner;
* **matches may be played in any order** once their players are known: :meth:`Tournament.pending_matches` lists
  all of them (in an elimination bracket a losers' round can run while the winners' bracket goes on; a round-robin
  schedule is fixed, and a service that wants strict rounds plays :meth:`Tournament.current_round` only). A Swiss
  round is paired when the previous round is complete;
* **disqualification** (:meth:`Tournament.disqualify`): the player's results so far stand. Every match of theirs
  that has both players is awarded to the opponent at once (a ``forfeit``), and every later one as soon as it is
  known. In elimination they are out for good (a double-elimination player does not drop to the losers' bracket
  on a forfeit). In round robin *all* their remaining games are forfeits (everyone keeps the same number of
  games). In Swiss their current game is a forfeit and they are no longer paired. A forfeit scores like a win and
  counts as a meeting (no rematch later); disqualified players are listed last in the standings;
* a Swiss ends early (``reason: no_pairing``) if a round cannot be paired under the rules: fewer than two players
  left, or an odd field where everyone left has had a bye (only possible after disqualifications);
* :attr:`Tournament.champion` is the winner of the final in elimination, and the top of the final standings in
  round robin and Swiss (``None`` while the tournament runs, or if the final was void or the top row is
  disqualified).

Events (JSON-ready dicts with a ``type``), in order:

* ``tournament_started`` ``{format, players (seed order), options}``;
* ``round_started`` ``{round, matches}`` (Swiss, when a round is paired);
* ``match_ready`` ``{match, round, players}``: both players are known, the result is awaited;
* ``result`` ``{match, round, players, outcome, winner}`` (outcomes: see :mod:`.model`);
* ``grand_final_reset`` ``{match: "GF2"}``: the losers'-bracket champion won ``GF``;
* ``eliminated`` ``{player, match}``: a player lost a match with no way back (elimination formats);
* ``disqualified`` ``{player}``;
* ``tournament_over`` ``{champion, reason}``: reason ``final_decided``, ``all_rounds_played`` or ``no_pairing``.

JSON shape (``version`` 1)::

    {"version": 1, "format": "swiss", "players": [ids, seed 1 first], "ratings": [rating or null, per player],
     "options": {"rounds": 3}, "rounds": [{"label": "R1", "bracket": "rounds", "number": 1, "matches": ["R1-1"]}],
     "matches": [{"key", "round", "players", "known", "sources", "outcome", "winner"}, ...],
     "disqualified": [ids], "finish": null or {"champion", "reason"}}
"""

from __future__ import annotations

import copy
import math
import random
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from enum import StrEnum
from typing import Any, Self

from bot.i18n import N_
from bot.tournaments import brackets
from bot.tournaments.errors import (
    DamagedTournament,
    DrawNotAllowed,
    InvalidTournament,
    MatchNotReady,
    PlayerAlreadyOut,
    PlayerNotInMatch,
    ResultAlreadyRecorded,
    TournamentError,
    TournamentOver,
    UnknownMatch,
    UnknownPlayer,
)
from bot.tournaments.model import Event, Match, MatchOutcome, Round, RoundPlan, Source, Takes
from bot.tournaments.roundrobin import circle_schedule
from bot.tournaments.seeding import Rating, seed_order
from bot.tournaments.standings import DISQUALIFIED, StandingRow, elimination_standings, scored_standings
from bot.tournaments.swiss import default_rounds, max_rounds, pair_round

VERSION = 1
MIN_PLAYERS = 2
MAX_PLAYERS = 1024
ROUNDS = "rounds"  # the Swiss option
ROUND_BRACKET = "rounds"  # the bracket name of round-robin and Swiss rounds


class Format(StrEnum):
    SINGLE_ELIMINATION = "single_elimination"
    DOUBLE_ELIMINATION = "double_elimination"
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"

    @property
    def is_elimination(self) -> bool:
        return self in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION)


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Tournament:
    """A tournament in progress (or over). Build one with :meth:`new` or :meth:`from_json`.

    Reading: :attr:`players` (seed order), :meth:`seed_of`, :meth:`rounds`, :meth:`current_round`,
    :meth:`pending_matches`, :meth:`match`, :meth:`matches`, :meth:`active_players`, :meth:`standings`,
    :attr:`events`, :attr:`disqualified`, :attr:`is_over`, :attr:`champion`, :attr:`finish_reason`.
    Acting: :meth:`record_result`, :meth:`disqualify`; :meth:`replace_player` (anonymising). Saving:
    :meth:`to_json`, :meth:`from_json`; two tournaments are equal when their JSON is."""

    def __init__(self, format: Format, seeded: Sequence[int], ratings: Mapping[int, Rating | None],
                 options: Mapping[str, Any]) -> None:
        self.format = format
        self._seeded = tuple(seeded)
        self._seed = {player: index + 1 for index, player in enumerate(self._seeded)}
        self._ratings = {player: ratings.get(player) for player in self._seeded}
        self.options = dict(options)
        self._matches: dict[str, Match] = {}
        self._plans: list[RoundPlan] = []
        self._round_index: dict[str, int] = {}
        self._feeds: dict[Source, str] = {}
        self._disqualified: list[int] = []
        self._events: list[Event] = []
        self._finish: dict[str, Any] | None = None

    # --- construction -------------------------------------------------------------------------------
    @classmethod
    def new(cls, format: Format | str, players: Sequence[int], *, ratings: Mapping[int, Rating | None] | None = None,
            rng: random.Random | None = None, seeded: bool = False,
            options: Mapping[str, Any] | None = None) -> Self:
        """Start a tournament.

        ``players`` are ids; with ``seeded=True`` they are already in seed order (seed 1 first) and neither
        ``ratings`` nor ``rng`` orders them. Otherwise they are seeded by ``ratings`` (see :mod:`.seeding`), the
        ``rng`` ordering those the ratings do not separate. ``options``: ``rounds`` (Swiss only; default
        ceil(log2 players), at most players - 1, or players for an odd field)."""
        try:
            format = Format(format)
        except ValueError:
            known = ", ".join(f.value for f in Format)
            raise InvalidTournament(N_("there is no tournament format {format}; the formats are: {known}"),
                                    format=repr(format), known=known) from None
        players = list(players)
        if not all(_is_id(player) for player in players):
            raise InvalidTournament(N_("every player is a whole-number id"))
        if len(set(players)) != len(players):
            raise InvalidTournament(N_("a player can enter a tournament only once"))
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise InvalidTournament(N_("a tournament has {low} to {high} players, not {count}"), low=MIN_PLAYERS,
                                    high=MAX_PLAYERS, count=len(players))
        ratings = dict(ratings or {})
        for player, rating in ratings.items():
            if player not in players:
                raise InvalidTournament(N_("player {player} has a rating but is not in the tournament"),
                                        player=repr(player))
            if rating is not None and (isinstance(rating, bool) or not isinstance(rating, int | float)
                                       or not math.isfinite(rating)):
                raise InvalidTournament(N_("the rating of player {player} must be a number, not {rating}"),
                                        player=player, rating=repr(rating))
        resolved = cls._resolve_options(format, len(players), options)
        order = players if seeded else seed_order(players, ratings, rng)
        tournament = cls(format, order, ratings, resolved)
        tournament._start()
        return tournament

    @staticmethod
    def _resolve_options(format: Format, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        given = dict(options or {})
        allowed = {ROUNDS} if format is Format.SWISS else set()
        unknown = sorted(set(given) - allowed, key=str)
        if unknown:
            takes = ", ".join(sorted(allowed)) or "none"
            raise InvalidTournament(N_("unknown option {option} for {format}; its options are: {takes}"),
                                    option=repr(unknown[0]), format=format.value, takes=takes)
        if format is not Format.SWISS:
            return {}
        rounds = given.get(ROUNDS)
        if rounds is None:
            rounds = default_rounds(players)
        most = max_rounds(players)
        if not _is_id(rounds) or not 1 <= rounds <= most:
            raise InvalidTournament(N_("a Swiss of {players} players has 1 to {most} rounds, not {rounds}"),
                                    players=players, most=most, rounds=repr(rounds))
        return {ROUNDS: rounds}

    def _start(self) -> None:
        self._emit({"type": "tournament_started", "format": self.format.value, "players": list(self._seeded),
                    "options": dict(self.options)})
        if self.format is Format.SWISS:
            self._pair_next_round()
            return
        if self.format is Format.ROUND_ROBIN:
            for number, pairs in enumerate(circle_schedule(self._seeded), start=1):
                label = f"R{number}"
                self._add_round(RoundPlan(label, ROUND_BRACKET, number, ()),
                                [Match(f"{label}-{i + 1}", label, pair) for i, pair in enumerate(pairs)])
        else:
            build = (brackets.single_elimination if self.format is Format.SINGLE_ELIMINATION
                     else brackets.double_elimination)
            for plan, matches in build(self._seeded):
                self._add_round(plan, matches)
        self._open(list(self._matches))
        self._advance()

    def _add_round(self, plan: RoundPlan, matches: Sequence[Match]) -> None:
        plan = replace(plan, match_keys=tuple(match.key for match in matches))
        self._round_index[plan.label] = len(self._plans)
        self._plans.append(plan)
        for match in matches:
            self._matches[match.key] = match
            for source in match.sources:
                if source is not None:
                    self._feeds[source] = match.key

    # --- reading ------------------------------------------------------------------------------------
    @property
    def players(self) -> tuple[int, ...]:
        """Every player, seed 1 first."""
        return self._seeded

    def seed_of(self, player: int) -> int:
        if player not in self._seed:
            raise UnknownPlayer(player)
        return self._seed[player]

    @property
    def ratings(self) -> dict[int, Rating | None]:
        return dict(self._ratings)

    @property
    def is_elimination(self) -> bool:
        return self.format.is_elimination

    @property
    def events(self) -> list[Event]:
        """Every event since this object was made (by :meth:`new`: since the start) or loaded, in order (a copy)."""
        return copy.deepcopy(self._events)

    @property
    def disqualified(self) -> tuple[int, ...]:
        """The disqualified players, in the order they were disqualified."""
        return tuple(self._disqualified)

    @property
    def is_over(self) -> bool:
        return self._finish is not None

    @property
    def champion(self) -> int | None:
        return None if self._finish is None else self._finish["champion"]

    @property
    def finish_reason(self) -> str | None:
        return None if self._finish is None else self._finish["reason"]

    def match(self, match_key: str) -> Match:
        match = self._matches.get(match_key) if isinstance(match_key, str) else None
        if match is None:
            raise UnknownMatch(match_key)
        return match

    def matches(self) -> list[Match]:
        """Every match built so far, in play order of their rounds."""
        return [self._matches[key] for plan in self._plans for key in plan.match_keys]

    def rounds(self) -> list[Round]:
        """Every round built so far with its matches, in an order they can be played in. Elimination brackets are
        built whole at the start (plus ``GF2`` on a reset), a round robin's schedule too; Swiss rounds appear
        as they are paired."""
        return [self._round(plan) for plan in self._plans]

    def _round(self, plan: RoundPlan) -> Round:
        return Round(plan.label, plan.bracket, plan.number, tuple(self._matches[key] for key in plan.match_keys))

    def current_round(self) -> Round | None:
        """The first round (in play order) with a match not yet decided; ``None`` once everything is decided."""
        for plan in self._plans:
            if not all(self._matches[key].is_decided for key in plan.match_keys):
                return self._round(plan)
        return None

    def pending_matches(self) -> list[Match]:
        """The matches waiting for a result: both players known, in play order."""
        return [match for match in self.matches() if match.is_ready]

    def active_players(self) -> list[int]:
        """Players still in, seed order: not disqualified, and (elimination) not eliminated."""
        out = set(self._disqualified) | set(self._eliminations())
        return [player for player in self._seeded if player not in out]

    def standings(self) -> list[StandingRow]:
        """The standings now (see :mod:`.standings` for the order and the tie-breaks)."""
        if self.is_elimination:
            return elimination_standings(self._seeded, self._matches.values(), self._disqualified,
                                         self._eliminations(), self.champion)
        return scored_standings(self._seeded, self._matches.values(), self._disqualified,
                                use_buchholz=self.format is Format.SWISS)

    def _eliminations(self) -> dict[int, tuple[int, str]]:
        """Players who lost a played match with no way back: player -> (round position, match key)."""
        if not self.is_elimination:
            return {}
        out: dict[int, tuple[int, str]] = {}
        for match in self._matches.values():
            if match.outcome is MatchOutcome.WIN and Source(match.key, Takes.LOSER) not in self._feeds:
                out[match.loser] = (self._round_index[match.round], match.key)  # type: ignore[index]
        return out

    # --- acting -------------------------------------------------------------------------------------
    def record_result(self, match_key: str, winner: int | None) -> list[Event]:
        """Record the result of a ready match: ``winner`` is a player of the match, or ``None`` for a draw (round
        robin and Swiss only). Returns the events it caused (the next matches becoming ready, a new Swiss round,
        the end)."""
        self._check_not_over()
        match = self.match(match_key)
        if match.is_decided:
            raise ResultAlreadyRecorded(match.key)
        if not match.is_ready:
            raise MatchNotReady(match.key)
        if winner is None:
            if self.is_elimination:
                raise DrawNotAllowed(match.key)
            outcome = MatchOutcome.DRAW
        elif _is_id(winner) and match.has_player(winner):
            outcome = MatchOutcome.WIN
        else:
            raise PlayerNotInMatch(match.key, winner)
        start = len(self._events)
        self._decide(match, outcome, winner)
        self._settle([match.key])
        self._advance()
        return copy.deepcopy(self._events[start:])

    def disqualify(self, player: int) -> list[Event]:
        """Disqualify a player (see the module notes for what happens to their matches); returns the events."""
        self._check_not_over()
        if not _is_id(player) or player not in self._seed:
            raise UnknownPlayer(player)
        if player in self._disqualified:
            raise PlayerAlreadyOut(player, "disqualified")
        if player in self._eliminations():
            raise PlayerAlreadyOut(player, "eliminated")
        start = len(self._events)
        self._disqualified.append(player)
        self._emit({"type": "disqualified", "player": player})
        self._open([match.key for match in self.matches() if match.has_player(player)])
        self._advance()
        return copy.deepcopy(self._events[start:])

    def replace_player(self, player: int, new_id: int) -> None:
        """Give ``player`` the id ``new_id`` everywhere (seeding, matches, disqualifications, the end, the events
        held) and forget their rating; nothing else changes (a deleted player's place in a bracket stays).
        ``new_id`` must not be a player of the tournament already."""
        if not _is_id(player) or player not in self._seed:
            raise UnknownPlayer(player)
        if not _is_id(new_id) or new_id in self._seed:
            raise InvalidTournament(f"player id {new_id!r} is taken (or not a whole number)")

        def swap(value: Any) -> Any:
            return new_id if value == player and _is_id(value) else value

        self._seeded = tuple(swap(p) for p in self._seeded)
        self._seed = {player: index + 1 for index, player in enumerate(self._seeded)}
        self._ratings = {swap(p): (None if p == player else rating) for p, rating in self._ratings.items()}
        for key, match in self._matches.items():
            self._matches[key] = replace(match, players=(swap(match.players[0]), swap(match.players[1])),
                                         winner=swap(match.winner))
        self._disqualified = [swap(p) for p in self._disqualified]
        if self._finish is not None:
            self._finish["champion"] = swap(self._finish["champion"])
        for event in self._events:
            for name, value in event.items():
                if name in ("player", "winner", "champion"):
                    event[name] = swap(value)
                elif name == "players" and isinstance(value, list):
                    event[name] = [swap(p) for p in value]

    def _check_not_over(self) -> None:
        if self._finish is not None:
            raise TournamentOver(N_("the tournament is over"))

    # --- the machinery ------------------------------------------------------------------------------
    def _emit(self, event: Event) -> None:
        self._events.append(event)

    def _automatic(self, match: Match) -> tuple[MatchOutcome, int | None] | None:
        """The outcome of a match with both slots known that needs no result, or ``None`` if it must be played."""
        present = [player for player in match.players if player is not None]
        playing = [player for player in present if player not in self._disqualified]
        if len(present) == 2 and len(playing) == 2:
            return None
        if not playing:
            return MatchOutcome.VOID, None
        return (MatchOutcome.BYE if len(present) == 1 else MatchOutcome.FORFEIT), playing[0]

    def _open(self, keys: Iterable[str]) -> None:
        """Decide the given matches that need no result (byes, forfeits), announce those that are ready, and let
        the decisions flow through the bracket."""
        decided: list[str] = []
        for key in keys:
            match = self._matches[key]
            if match.is_decided or not all(match.known):
                continue
            automatic = self._automatic(match)
            if automatic is not None:
                self._decide(match, *automatic)
                decided.append(key)
            else:
                self._announce(match)
        self._settle(decided)

    def _settle(self, decided: Iterable[str]) -> None:
        """Fill the slots fed by the decided matches, deciding byes and forfeits as they appear (elimination)."""
        queue = deque(consumer for key in decided for consumer in self._consumers(key))
        while queue:
            match = self._matches[queue.popleft()]
            if match.is_decided:
                continue
            filled = self._filled(match)
            if filled == match:
                continue
            self._matches[match.key] = filled
            if not all(filled.known):
                continue
            automatic = self._automatic(filled)
            if automatic is None:
                self._announce(filled)
            else:
                self._decide(filled, *automatic)
                queue.extend(self._consumers(filled.key))

    def _consumers(self, key: str) -> list[str]:
        return [self._feeds[source] for source in (Source(key, Takes.WINNER), Source(key, Takes.LOSER))
                if source in self._feeds]

    def _filled(self, match: Match) -> Match:
        players, known = list(match.players), list(match.known)
        for slot, source in enumerate(match.sources):
            if known[slot] or source is None:
                continue
            feeder = self._matches[source.match]
            if not feeder.is_decided:
                continue
            if source.takes is Takes.WINNER:
                players[slot] = feeder.winner
            else:
                # A disqualified player does not drop to the losers' bracket.
                loser = feeder.loser
                players[slot] = None if loser in self._disqualified else loser
            known[slot] = True
        return replace(match, players=(players[0], players[1]), known=(known[0], known[1]))

    def _announce(self, match: Match) -> None:
        self._emit({"type": "match_ready", "match": match.key, "round": match.round, "players": list(match.players)})

    def _decide(self, match: Match, outcome: MatchOutcome, winner: int | None) -> None:
        decided = replace(match, outcome=outcome, winner=winner)
        self._matches[match.key] = decided
        self._emit({"type": "result", "match": match.key, "round": match.round, "players": list(match.players),
                    "outcome": outcome.value, "winner": winner})
        if not self.is_elimination:
            return
        if (self.format is Format.DOUBLE_ELIMINATION and match.key == brackets.GRAND_FINAL_KEY
                and outcome is MatchOutcome.WIN and winner == match.players[1]):
            plan, reset = brackets.reset_final(decided)
            self._add_round(plan, [reset])
            self._emit({"type": "grand_final_reset", "match": reset.key})
        if outcome is MatchOutcome.WIN and Source(match.key, Takes.LOSER) not in self._feeds:
            self._emit({"type": "eliminated", "player": decided.loser, "match": match.key})

    def _advance(self) -> None:
        """End the tournament, or pair the next Swiss round, when the state calls for it."""
        if self._finish is not None:
            return
        if self.is_elimination:
            final = self._matches[self._plans[-1].match_keys[-1]]
            if final.is_decided:
                self._end(final.winner, "final_decided")
            return
        if not all(match.is_decided for match in self._matches.values()):
            return
        if self.format is Format.ROUND_ROBIN or len(self._plans) >= self.options[ROUNDS]:
            self._end(self._leader(), "all_rounds_played")
        else:
            self._pair_next_round()

    def _leader(self) -> int | None:
        top = self.standings()[0]
        return None if top.status == DISQUALIFIED else top.player

    def _end(self, champion: int | None, reason: str) -> None:
        self._finish = {"champion": champion, "reason": reason}
        self._emit({"type": "tournament_over", "champion": champion, "reason": reason})

    def _pair_next_round(self) -> None:
        scores = dict.fromkeys(self._seeded, 0.0)
        met: set[frozenset[int]] = set()
        had_bye: set[int] = set()
        for match in self._matches.values():
            for player in match.players:
                if player is not None:
                    scores[player] += match.points_of(player)
            if match.is_bye:
                had_bye.add(match.winner)  # type: ignore[arg-type]
            elif None not in match.players:
                met.add(frozenset(match.players))  # type: ignore[arg-type]
        active = [player for player in self._seeded if player not in self._disqualified]
        ranked = sorted(active, key=lambda player: (-scores[player], self._seed[player]))
        pairing = pair_round(ranked, scores, met, had_bye)
        if pairing is None:
            self._end(self._leader(), "no_pairing")
            return
        number = len(self._plans) + 1
        label = f"R{number}"
        slots: list[tuple[int, int | None]] = [*pairing.pairs]
        if pairing.bye is not None:
            slots.append((pairing.bye, None))
        matches = [Match(f"{label}-{index + 1}", label, slot) for index, slot in enumerate(slots)]
        self._add_round(RoundPlan(label, ROUND_BRACKET, number, ()), matches)
        self._emit({"type": "round_started", "round": label, "matches": [match.key for match in matches]})
        self._open(match.key for match in matches)

    # --- persistence --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole state: ``from_json(to_json())`` is an identical tournament that continues identically."""
        return {
            "version": VERSION,
            "format": self.format.value,
            "players": list(self._seeded),
            "ratings": [self._ratings[player] for player in self._seeded],
            "options": dict(self.options),
            "rounds": [plan.to_json() for plan in self._plans],
            "matches": [self._matches[key].to_json() for plan in self._plans for key in plan.match_keys],
            "disqualified": list(self._disqualified),
            "finish": dict(self._finish) if self._finish is not None else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        try:
            return cls._load(data)
        except DamagedTournament:
            raise
        except (TournamentError, KeyError, TypeError, ValueError, AttributeError) as error:
            raise DamagedTournament(f"this saved tournament is damaged: {error}") from None

    @classmethod
    def _load(cls, data: Mapping[str, Any]) -> Self:
        def fail(message: str) -> DamagedTournament:
            return DamagedTournament(f"this saved tournament is damaged: {message}")

        if not isinstance(data, Mapping) or data.get("version") != VERSION:
            raise fail(f"it is not a version {VERSION} tournament")
        format = Format(data["format"])
        players = list(data["players"])
        if not all(_is_id(player) for player in players) or len(set(players)) != len(players):
            raise fail("the players are not distinct whole-number ids")
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise fail(f"a tournament cannot have {len(players)} players")
        ratings = list(data["ratings"])
        if len(ratings) != len(players):
            raise fail("there is not one rating (or null) per player")
        tournament = cls(format, players, dict(zip(players, ratings, strict=True)),
                         cls._resolve_options(format, len(players), data["options"]))
        matches = {}
        for item in data["matches"]:
            match = Match.from_json(item)
            if match.key in matches:
                raise fail(f"match {match.key} appears twice")
            for player in (*match.players, match.winner):
                if player is not None and player not in tournament._seed:
                    raise fail(f"match {match.key} names player {player}, who is not in the tournament")
            for source in match.sources:
                if source is not None and source.match not in matches:
                    raise fail(f"match {match.key} is fed by {source.match}, which does not come before it")
            matches[match.key] = match
        listed: list[str] = []
        for item in data["rounds"]:
            plan = RoundPlan.from_json(item)
            if any(key not in matches or matches[key].round != plan.label for key in plan.match_keys):
                raise fail(f"round {plan.label} lists a match that is not in it")
            tournament._add_round(plan, [matches[key] for key in plan.match_keys])
            listed.extend(plan.match_keys)
        if sorted(listed) != sorted(matches):
            raise fail("the rounds and the matches do not agree")
        disqualified = list(data["disqualified"])
        if any(player not in tournament._seed for player in disqualified) or len(set(disqualified)) != len(
                disqualified):
            raise fail("the disqualified players are not distinct players of the tournament")
        tournament._disqualified = disqualified
        finish = data["finish"]
        if finish is not None:
            champion, reason = finish["champion"], finish["reason"]
            if (champion is not None and champion not in tournament._seed) or not isinstance(reason, str):
                raise fail("the end of the tournament is not a champion and a reason")
            tournament._finish = {"champion": champion, "reason": reason}
        if not tournament._plans:
            raise fail("it has no rounds")
        return tournament

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tournament):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        state = "over" if self.is_over else "running"
        return f"<Tournament {self.format.value} {len(self._seeded)} players, {state}>"
