"""Speed War: both cards face up at once, and the first player to press the right button takes them.

The rule text (001) says: "Both players keep flipping as fast as they can without taking turns; the faster reader
may scoop the cards before the slower player notices." In Discord each round shows both players' top cards at once
with three buttons: one per card (that card is the higher) and ``=`` (the ranks are equal). Our choices (also in
``bot/games/speedwar/rules/speedwar.md``):

* **Right** is the button of the higher card, or ``=`` on equal ranks (suits don't matter; aces high). A right
  press takes both cards to the bottom of the presser's pile (their own card first); a **wrong** press gives both
  to the other player.
* **Who was first** is decided by the reaction times, not by when the bot heard of the presses: a press carries
  ``ms``, the milliseconds from the round appearing (the edit of the game's live message that shows it, or that
  message's creation) to the press, both by Discord's clock. The round is
  settled when both have pressed, or once the first press's short window has passed (the match's flow). The
  fastest press decides. **Simultaneous** presses (the same ms): if exactly one is right, it takes the cards; if
  both are right or both wrong, each takes their own card back.
* **Absent**: a player who does not press within the window of the other's press simply lost the race. If nobody
  presses before the round's deadline, the higher card takes both (equal ranks: each takes their own back); the
  match counts a missed round, and two in a row forfeit.
* A player with no cards left loses. After ``max_rounds`` rounds the player with more cards wins (equal: a draw).

Actions: ``{"type": "press", "choice": "0" | "1" | "tie" | None, "ms": int | None}`` (``"0"``: seat 0's card is
higher; ``None``: no press, the deadline's default). ``settle_round()`` settles a round with the presses so far.
A match file's moves are ``{"seat": s, "press": {...}}`` and ``{"settle": true}``.

Events: ``round`` {round, cards, counts}; ``pressed`` {round, seat} (never which button, until it is settled);
``settled`` {round, cards, right, presses (per seat: ``{choice, ms}`` or ``None``), taker (``None``: each took their
own), by (``right``, ``wrong``, ``simultaneous``, ``absent``), deciding (the seat whose press decided, or ``None``),
counts}; ``game_over``.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from bot.cards import parse_card, standard_pack, strength_table
from bot.errors import IllegalAction, InvalidState, NotYourTurn
from bot.game import Action, Event, Game, GameStats, Option, Outcome
from bot.i18n import N_

STATE_VERSION = 1
CHOICES = ("0", "1", "tie")
_STRENGTH = strength_table(aces_high=True)


class SpeedWar(Game):
    name: ClassVar[str] = "speedwar"
    title: ClassVar[str] = N_("Speed War")
    #: action keys the bot measures rather than offers (any whole number of ms is legal)
    measured: ClassVar[tuple[str, ...]] = ("ms",)
    options: ClassVar[tuple[Option, ...]] = (
        Option("pack", 52, "52 cards, 36 (6 to A) or 32 (7 to A)", choices=(52, 36, 32)),
        Option("max_rounds", 100, "after this many rounds the most cards wins (equal: a draw)", minimum=1,
               maximum=10_000),
    )

    def __init__(self, rules: dict[str, Any], seed: int, rng: random.Random) -> None:
        super().__init__(rules, seed, rng)
        self.piles: list[deque[str]] = [deque(), deque()]
        self.table: list[str] = []
        self.presses: list[dict[str, Any] | None] = [None, None]
        self.opening_events: list[Event] = []

    # --- construction -------------------------------------------------------------------------------
    @classmethod
    def new(cls, rules: Mapping[str, Any] | None = None, seed: int = 0,
            piles: Sequence[Sequence[str]] | None = None) -> Self:
        resolved = cls.resolve_rules(rules)
        cls._check_seed(seed)
        game = cls(resolved, seed, random.Random(seed))
        if piles is None:
            pack = standard_pack(resolved["pack"])
            game.rng.shuffle(pack)
            dealt = [pack[0::2], pack[1::2]]
        else:
            if isinstance(piles, str | bytes) or len(piles) != 2:
                raise InvalidState("Speed War needs two starting piles, top card first")
            dealt = [[parse_card(card) for card in pile] for pile in piles]
            if not all(dealt):
                raise InvalidState("each player needs at least one card")
        game.piles = [deque(pile) for pile in dealt]
        game.opening_events = game._flip()
        return game

    # --- play ---------------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return 2

    @property
    def round(self) -> int:
        return self.stats.rounds + (0 if self.is_over else 1)

    def right_choice(self) -> str:
        """The right button of the cards on the table."""
        first, second = (_STRENGTH[card] for card in self.table)
        return "tie" if first == second else ("0" if first > second else "1")

    def legal_actions(self, seat: int) -> list[Action]:
        self._check_seat(seat)
        if self.is_over or self.presses[seat] is not None:
            return []
        return [{"type": "press", "choice": choice, "ms": ms} for choice in CHOICES for ms in (300, 700)]

    def pending_seats(self) -> list[int]:
        return [] if self.is_over else [seat for seat in (0, 1) if self.presses[seat] is None]

    def apply(self, seat: int, action: Action) -> list[Event]:
        self._check_not_over()
        self._check_seat(seat)
        press = self._checked(action)
        if self.presses[seat] is not None:
            raise NotYourTurn(N_("You have pressed already this round."))
        self.presses[seat] = press
        events: list[Event] = [{"type": "pressed", "round": self.round, "seat": seat}]
        if all(p is not None for p in self.presses):
            events += self._settle()
        return events

    @staticmethod
    def _checked(action: Any) -> dict[str, Any]:
        if not isinstance(action, Mapping) or action.get("type") != "press" or set(action) - {"type", "choice", "ms"}:
            raise IllegalAction('a Speed War action is {"type": "press", "choice": "0" | "1" | "tie", "ms": N}')
        choice, ms = action.get("choice"), action.get("ms")
        if choice is not None and choice not in CHOICES:
            raise IllegalAction(N_("The choice is 0, 1 or tie, not {choice}."), choice=repr(choice))
        if ms is not None and (isinstance(ms, bool) or not isinstance(ms, int) or ms < 0):
            raise IllegalAction(N_("The reaction time is a whole number of milliseconds, not {ms}."), ms=repr(ms))
        if (choice is None) != (ms is None):
            raise IllegalAction(N_("A press has both a choice and a reaction time (or neither: no press)."))
        return {"type": "press", "choice": choice, "ms": ms}

    def settle_round(self) -> list[Event]:
        """Settle the round with the presses made so far (the window after the first press has passed)."""
        self._check_not_over()
        return self._settle()

    def apply_move(self, move: Mapping[str, Any]) -> list[Event]:
        if isinstance(move, Mapping) and move.get("settle") is True and len(move) == 1:
            return self.settle_round()
        if not isinstance(move, Mapping) or set(move) != {"seat", "press"}:
            raise IllegalAction('a Speed War move is {"seat": s, "press": {...}} or {"settle": true}')
        return self.apply(move["seat"], move["press"])

    def _settle(self) -> list[Event]:
        right = self.right_choice()
        presses = [p if p is not None and p["choice"] is not None else None for p in self.presses]
        made = [seat for seat in (0, 1) if presses[seat] is not None]
        deciding: int | None = None
        if not made:  # nobody pressed: the higher card takes
            taker = None if right == "tie" else int(right)
            by = "absent"
        else:
            fastest = min(presses[seat]["ms"] for seat in made)  # type: ignore[index]
            first = [seat for seat in made if presses[seat]["ms"] == fastest]  # type: ignore[index]
            correct = [seat for seat in first if presses[seat]["choice"] == right]  # type: ignore[index]
            if len(first) == 2:
                by = "simultaneous"
                taker = correct[0] if len(correct) == 1 else None
                deciding = taker
            else:
                deciding = first[0]
                by = "right" if correct else "wrong"
                taker = deciding if correct else 1 - deciding
        cards = list(self.table)
        if taker is None:
            for seat in (0, 1):
                self.piles[seat].append(cards[seat])
        else:
            self.piles[taker].append(cards[taker])
            self.piles[taker].append(cards[1 - taker])
        if right == "tie":
            self.stats.wars += 1
        self.stats.rounds += 1
        self.table = []
        self.presses = [None, None]
        events: list[Event] = [{
            "type": "settled", "round": self.stats.rounds, "cards": cards, "right": right,
            "presses": [None if p is None else {"choice": p["choice"], "ms": p["ms"]} for p in presses],
            "taker": taker, "by": by, "deciding": deciding, "counts": self.counts(),
        }]
        empty = [seat for seat in (0, 1) if not self.piles[seat]]
        if empty:
            self.outcome = Outcome(1 - empty[0], "all_cards", f"seat {1 - empty[0]} has won all the cards")
        elif self.stats.rounds >= self.rules["max_rounds"]:
            counts = self.counts()
            winner = None if counts[0] == counts[1] else (0 if counts[0] > counts[1] else 1)
            self.outcome = Outcome(winner, "capped", f"after {self.stats.rounds} rounds: {counts[0]} to {counts[1]}")
        if self.outcome is not None:
            return [*events, {"type": "game_over", **self.outcome.to_json(), "round": self.stats.rounds}]
        return events + self._flip()

    def _flip(self) -> list[Event]:
        self.table = [self.piles[0].popleft(), self.piles[1].popleft()]
        return [{"type": "round", "round": self.round, "cards": list(self.table), "counts": self.counts()}]

    def counts(self) -> list[int]:
        """Each player's cards, the one face up on the table included."""
        return [len(self.piles[seat]) + (1 if self.table else 0) for seat in (0, 1)]

    def forfeit(self, seat: int, reason: str = "forfeit") -> list[Event]:
        events = super().forfeit(seat, reason)
        for other in (0, 1):  # the cards on the table go back under their owners' piles
            if self.table:
                self.piles[other].appendleft(self.table[other])
        self.table, self.presses = [], [None, None]
        return events

    def draw(self, reason: str, detail: str = "") -> list[Event]:
        events = super().draw(reason, detail)
        for other in (0, 1):
            if self.table:
                self.piles[other].appendleft(self.table[other])
        self.table, self.presses = [], [None, None]
        return events

    # --- what players see ---------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            self._check_seat(seat)
        return {
            "game": self.name, "seat": seat, "rules": dict(self.rules), "round": self.round,
            "cards": list(self.table), "counts": self.counts(), "pressed": [p is not None for p in self.presses],
            "my_press": None if seat is None or self.presses[seat] is None else dict(self.presses[seat]),
            "stats": self.stats.to_json(), "outcome": None if self.outcome is None else self.outcome.to_json(),
        }

    def hidden_from(self, seat: int | None) -> Counter[str]:
        if seat is not None:
            self._check_seat(seat)
        return Counter(card for pile in self.piles for card in pile)

    def draw_piles(self) -> list[list[str]]:
        return [list(pile) for pile in self.piles]

    def card_locations(self) -> dict[str, list[str]]:
        return {"pile_0": list(self.piles[0]), "pile_1": list(self.piles[1]), "table": list(self.table)}

    # --- persistence --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            **self._saved_head(STATE_VERSION), "piles": [list(pile) for pile in self.piles],
            "table": list(self.table), "presses": [None if p is None else dict(p) for p in self.presses],
            "stats": self.stats.to_json(), "outcome": None if self.outcome is None else self.outcome.to_json(),
            "opening_events": [dict(event) for event in self.opening_events],
        }

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> Self:
        game = cls._from_head(data, STATE_VERSION)
        game.piles = [deque(parse_card(card) for card in pile) for pile in data["piles"]]
        game.table = [parse_card(card) for card in data["table"]]
        game.presses = [None if p is None else cls._checked(p) for p in data["presses"]]
        if len(game.piles) != 2 or len(game.presses) != 2 or len(game.table) not in (0, 2):
            raise InvalidState("the saved Speed War game is damaged: two seats, two cards or none on the table")
        stats = data["stats"]
        game.stats = GameStats(int(stats["rounds"]), int(stats["wars"]))
        game.outcome = Outcome.from_json(data["outcome"])
        if (game.outcome is None) != bool(game.table):
            raise InvalidState("the saved Speed War game is damaged: cards on the table only while it runs")
        game.opening_events = [dict(event) for event in data["opening_events"]]
        return game


def simulate(games: int, seed: int, rules: Mapping[str, Any] | None = None, *,
             reactions: Sequence[float] = (400.0, 400.0), errors: Sequence[float] = (0.05, 0.05)) -> dict[str, Any]:
    """Scripted players: each round both press; seat ``s`` after a reaction time drawn from a normal law around
    ``reactions[s]`` ms (a fifth of it as its spread, at least 80 ms, whole ms) and presses a wrong button with
    chance ``errors[s]``. Game ``i`` is dealt from seed ``seed * 2**32 + i``. Reports the game lengths, wins and
    draws, and the share of rounds a wrong press decided."""
    resolved = SpeedWar.resolve_rules(rules)
    rounds = wrong = together = 0
    lengths: list[int] = []
    wins = [0, 0]
    draws = 0
    for index in range(games):
        game = SpeedWar.new(resolved, seed=seed * 2**32 + index)
        player = random.Random(seed * 2**32 + index + 1)
        while not game.is_over:
            right = game.right_choice()
            for seat in (0, 1):
                ms = max(80, round(player.gauss(reactions[seat], reactions[seat] / 5)))
                wrong_press = player.random() < errors[seat]
                choice = player.choice([c for c in CHOICES if c != right]) if wrong_press else right
                events = game.apply(seat, {"type": "press", "choice": choice, "ms": ms})
            settled = next(event for event in events if event["type"] == "settled")
            rounds += 1
            wrong += settled["by"] == "wrong" or (settled["by"] == "simultaneous" and settled["taker"] is not None
                                                  and settled["presses"][1 - settled["taker"]]["choice"] != right)
            together += settled["by"] == "simultaneous"
        lengths.append(game.stats.rounds)
        if game.outcome.winner is None:
            draws += 1
        else:
            wins[game.outcome.winner] += 1
    return {"games": games, "reactions_ms": list(reactions), "errors": list(errors),
            "mean_rounds": round(sum(lengths) / games, 2), "wins": wins, "draws": draws,
            "rounds_decided_by_a_wrong_press": round(wrong / rounds, 4),
            "simultaneous_rounds": round(together / rounds, 4)}
