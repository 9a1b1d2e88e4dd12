"""What every game engine is: rules + seed, legal actions, apply, events, views, JSON, outcome.

Engines import nothing from discord or aiosqlite. All randomness comes from the ``random.Random`` a game owns,
so the same rules, seed and actions always give the same events.

Conventions shared by all engines:

* cards are strings in card notation (see :mod:`bot.cards`); piles are lists, **top card first**;
* an action is a JSON-ready ``dict`` with a ``"type"`` key (``{"type": "order", "cards": [...]}``);
* an event is a JSON-ready ``dict`` with a ``"type"`` key and holds only what a spectator may see;
* seats are ``0 .. players-1``; ``view(None)`` is the spectator's view.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from bot.errors import GameError, GameOver, IllegalAction, InvalidRules, InvalidState
from bot.i18n import N_

Event = dict[str, Any]
Action = dict[str, Any]


@dataclass(frozen=True)
class Option:
    """One rule key: its default, the values it takes, and a line for players."""

    key: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def parse(self, value: Any) -> Any:
        """Check a value (JSON, or text from a command line) and return it typed; raise InvalidRules."""
        kind = type(self.default) if self.default is not None else None
        if isinstance(value, str) and kind is not str:
            value = _from_text(value)
        if self.choices is not None:
            for choice in self.choices:
                if value == choice and type(value) is type(choice):
                    return choice
            if isinstance(value, str) and str(value).lower() in {str(c).lower() for c in self.choices}:
                return next(c for c in self.choices if str(c).lower() == value.lower())
            allowed = ", ".join(_show(c) for c in self.choices)
            raise InvalidRules(N_("rule {key} takes one of {allowed}, not {value}"), key=repr(self.key),
                               allowed=allowed, value=_show(value))
        if kind is bool:
            if isinstance(value, bool):
                return value
            raise InvalidRules(N_("rule {key} takes true or false, not {value}"), key=repr(self.key),
                               value=_show(value))
        if kind is int or (self.default is None and (self.minimum is not None or self.maximum is not None)):
            if isinstance(value, bool) or not isinstance(value, int):
                if value is None and self.default is None:
                    return None
                raise InvalidRules(N_("rule {key} takes a whole number, not {value}"), key=repr(self.key),
                                   value=_show(value))
            if self.minimum is not None and value < self.minimum:
                raise InvalidRules(N_("rule {key} must be at least {low}, not {value}"), key=repr(self.key),
                                   low=self.minimum, value=value)
            if self.maximum is not None and value > self.maximum:
                raise InvalidRules(N_("rule {key} must be at most {high}, not {value}"), key=repr(self.key),
                                   high=self.maximum, value=value)
            return value
        return value


def _from_text(text: str) -> Any:
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("none", "null"):
        return None
    try:
        return int(lowered)
    except ValueError:
        return text.strip()


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


def resolve_rules(options: Sequence[Option], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults overlaid with the given rules, every value checked; unknown keys are refused."""
    given = dict(given or {})
    known = {option.key: option for option in options}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise InvalidRules(N_("unknown rule {key}; this game's rules are: {keys}"), key=repr(unknown[0]),
                           keys=", ".join(sorted(known)))
    return {key: option.parse(given[key]) if key in given else option.default for key, option in known.items()}


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` is a seat, or ``None`` for a draw; ``reason`` is a short code."""

    winner: int | None
    reason: str
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason, "detail": self.detail}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Outcome | None:
        if data is None:
            return None
        return cls(data["winner"], data["reason"], data.get("detail", ""))


@dataclass
class GameStats:
    """Counters a simulation reports: rounds (a whole war counts as one) and wars (ties fought out)."""

    rounds: int = 0
    wars: int = 0

    def to_json(self) -> dict[str, int]:
        return {"rounds": self.rounds, "wars": self.wars}


def rng_state_to_json(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: Sequence[Any]) -> random.Random:
    try:
        version, internal, gauss = data
        rng = random.Random.__new__(random.Random)  # (not seeded first: the state set next is the whole of it)
        rng.setstate((version, tuple(internal), gauss))
    except (TypeError, ValueError) as error:
        raise InvalidState(f"the saved random state is damaged: {error}") from None
    return rng


class Game(ABC):
    """A game in progress. Subclasses hold their own state and implement the abstract methods.

    Every game has ``rules`` (resolved, see ``options``), ``seed``, ``rng`` (its own ``random.Random``),
    ``outcome`` (``None`` while it runs) and ``stats``.

    ``apply`` is atomic: it validates first and raises a :class:`bot.errors.GameError` subclass without
    changing anything, or it changes the state and returns the new events.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    options: ClassVar[tuple[Option, ...]]
    #: True when play needs no decisions (War): replay and simulation call ``play_out`` instead of moves.
    automatic: ClassVar[bool] = False
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    #: Events a game causes while it is created (Air War draws its first stacks in ``new``); kept in the JSON.
    opening_events: list[Event] | tuple[()] = ()

    rules: dict[str, Any]
    seed: int
    rng: random.Random
    outcome: Outcome | None = None
    stats: GameStats

    def __init__(self, rules: dict[str, Any], seed: int, rng: random.Random) -> None:
        """A game at its start: resolved ``rules``, its ``seed`` and ``rng``, no outcome, no stats yet. Subclasses
        add their own state (and deal in ``new``)."""
        self.rules = rules
        self.seed = seed
        self.rng = rng
        self.outcome = None
        self.stats = GameStats()

    # --- construction -------------------------------------------------------------------------------
    @classmethod
    @abstractmethod
    def new(cls, rules: Mapping[str, Any] | None = None, seed: int = 0,
            piles: Sequence[Sequence[str]] | None = None) -> Self:
        """A new game from rules and a seed, dealt by the game's own rng, or from explicit piles (top first)."""

    @classmethod
    def resolve_rules(cls, rules: Mapping[str, Any] | None) -> dict[str, Any]:
        return resolve_rules(cls.options, rules)

    @staticmethod
    def _check_seed(seed: Any) -> None:
        """Refuse a seed that is not a whole number (``new`` takes it from a command or a file)."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidRules(N_("the seed must be a whole number, not {seed}"), seed=repr(seed))

    # --- play ---------------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """What this seat may do now (empty when it has nothing to decide)."""

    @abstractmethod
    def apply(self, seat: int, action: Action) -> list[Event]:
        """Validate and play one action; return the events it caused."""

    @abstractmethod
    def apply_move(self, move: Mapping[str, Any]) -> list[Event]:
        """Play one move of a match file (for example one Air War engagement); atomic like ``apply``."""

    def play_out(self, max_steps: int | None = None, record: bool = True) -> list[Event]:
        """Play everything that needs no decision (automatic games: to the end). ``record=False`` is the
        fast path for simulation: the state advances identically but no events are built."""
        return []

    def forfeit(self, seat: int, reason: str = "forfeit") -> list[Event]:
        """The seat gives up (or is forfeited by a timer): in a two-player game the other player wins.
        Games for more players override this (the seat drops out and the game goes on)."""
        self._check_not_over()
        self._check_seat(seat)
        if self.num_players != 2:
            raise NotImplementedError(f"{type(self).__name__} must say how a forfeit works with {self.num_players}")
        self.outcome = Outcome(1 - seat, reason, f"seat {seat} forfeited")
        return [{"type": "game_over", **self.outcome.to_json()}]

    def draw(self, reason: str, detail: str = "") -> list[Event]:
        """End the game at once as a draw (for example both players forfeited together)."""
        self._check_not_over()
        if not isinstance(reason, str) or not reason:
            raise IllegalAction("a draw needs a reason")
        self.outcome = Outcome(None, reason, detail or "the game ended in a draw")
        return [{"type": "game_over", **self.outcome.to_json()}]

    def pending_seats(self) -> list[int]:
        """Seats that have something to decide now."""
        if self.is_over:
            return []
        return [seat for seat in range(self.num_players) if self.legal_actions(seat)]

    # --- what players see ---------------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may see now (``None``: a spectator). Never an opponent's hidden cards."""

    def hidden_from(self, seat: int | None) -> Counter[str]:
        """The cards the game keeps from ``seat`` now (``None``: a spectator), counted by copies: face down,
        in another seat's hand, chosen in secret and not yet revealed. ``view(seat)`` must name none of them.

        With several decks a card is in play more than once; ``hidden_from(seat)[card]`` of its copies are hidden,
        and the view may name ``card`` only while some copy is not. Only what the game shows decides: a card that
        went back face down is hidden again unless the game still shows it, whatever a player may remember or
        work out. A seat never has more hidden from it than a spectator.

        By default every card of the draw piles is hidden from everyone; a game with hands, secret choices or
        other face-down cards, or that shows part of a draw pile, says so here.
        """
        if seat is not None:
            self._check_seat(seat)
        return Counter(card for pile in self.draw_piles() for card in pile)

    @abstractmethod
    def draw_piles(self) -> list[list[str]]:
        """Each seat's draw pile, top card first."""

    @abstractmethod
    def card_locations(self) -> dict[str, list[str]]:
        """Every card in the game, by place; each card is in exactly one place (tests count them)."""

    # --- persistence --------------------------------------------------------------------------------
    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole state, rng included: ``from_json(to_json())`` continues identically."""

    def _saved_head(self, version: int | None = None) -> dict[str, Any]:
        """The keys a saved game starts with: ``game``, ``version`` (when the format has one), ``rules``, ``seed``
        and ``rng``."""
        head: dict[str, Any] = {"game": self.name}
        if version is not None:
            head["version"] = version
        return head | {"rules": dict(self.rules), "seed": self.seed, "rng": rng_state_to_json(self.rng)}

    @classmethod
    def _from_head(cls, data: Mapping[str, Any], version: int | None = None) -> Self:
        """A new game from the head :meth:`_saved_head` wrote (its rules, seed and generator), for ``_from_json``
        to fill in; InvalidState unless ``data`` is a saved game of this class at ``version``."""
        if not isinstance(data, Mapping) or data.get("game") != cls.name or data.get("version") != version:
            raise InvalidState(f"this is not a saved {cls.title} game (version {version})")
        seed = data["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidState("the saved seed is not a whole number")
        return cls(cls.resolve_rules(data["rules"]), seed, rng_from_json(data["rng"]))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The game ``to_json`` saved, read by ``_from_json``; a damaged save raises InvalidState, in the words of
        :meth:`_damaged` for an error ``_from_json`` did not turn into one itself."""
        try:
            return cls._from_json(data)
        except InvalidState:
            raise
        except (GameError, KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            raise InvalidState(cls._damaged(error)) from None

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> Self:
        """The game saved in ``data`` (see :meth:`from_json`)."""
        raise NotImplementedError(f"{cls.__name__} must say how a saved game is read")

    @classmethod
    def _damaged(cls, error: Exception) -> str:
        """The words of the InvalidState that refuses a damaged save, from the error reading it raised."""
        return f"the saved {cls.title} game is damaged: {error!r}"

    # --- helpers for subclasses ---------------------------------------------------------------------
    def _check_not_over(self) -> None:
        if self.outcome is not None:
            raise GameOver(N_("the game is over"))

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.num_players:
            raise IllegalAction(N_("there is no seat {seat} in this game"), seat=repr(seat))


GameFactory = Callable[..., Game]
