"""High Card's rules: three cards each from a shuffled 52-card deck, three rounds, one secret card per seat and
round, the higher rank takes the round."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Self

from bot.cards import STANDARD_RANKS, SUITS, rank_of
from bot.errors import IllegalAction
from bot.game import Action, Event, Game, GameStats, Outcome, rng_from_json, rng_state_to_json
from bot.i18n import N_

HAND = 3


class HighCard(Game):
    name = "highcard"
    title = N_("High Card")
    options = ()

    def __init__(self, rules: dict[str, Any], seed: int, rng: random.Random, hands: list[list[str]],
                 stock: list[str]) -> None:
        self.rules, self.seed, self.rng = rules, seed, rng
        self.hands = hands
        self.stock = stock
        self.played: list[list[str]] = [[], []]
        self.picks: list[str | None] = [None, None]
        self.wins = [0, 0]
        self.stats = GameStats()

    @classmethod
    def new(cls, rules: Mapping[str, Any] | None = None, seed: int = 0,
            piles: Sequence[Sequence[str]] | None = None) -> Self:
        rng = random.Random(seed)
        deck = [f"{rank}{suit}" for suit in SUITS for rank in STANDARD_RANKS]
        rng.shuffle(deck)
        hands = [list(piles[0]), list(piles[1])] if piles else [deck[:HAND], deck[HAND:2 * HAND]]
        stock = [card for card in deck if card not in hands[0] and card not in hands[1]]
        return cls(cls.resolve_rules(rules), seed, rng, hands, stock)

    @property
    def num_players(self) -> int:
        return 2

    def legal_actions(self, seat: int) -> list[Action]:
        if self.is_over or self.picks[seat] is not None:
            return []
        return [{"type": "pick", "card": card} for card in self.hands[seat]]

    def apply(self, seat: int, action: Action) -> list[Event]:
        self._check_not_over()
        self._check_seat(seat)
        if not isinstance(action, Mapping) or action.get("type") != "pick":
            raise IllegalAction("High Card takes one action: pick a card")
        if self.picks[seat] is not None:
            raise IllegalAction("you picked this round already")
        if action.get("card") not in self.hands[seat]:
            raise IllegalAction(f"{action.get('card')!r} is not in your hand")
        self.picks[seat] = action["card"]
        events: list[Event] = [{"type": "picked", "seat": seat}]
        if all(pick is not None for pick in self.picks):
            events += self._reveal()
        return events

    def _reveal(self) -> list[Event]:
        cards = [str(pick) for pick in self.picks]
        ranks = [STANDARD_RANKS.index(rank_of(card)) for card in cards]
        winner = None if ranks[0] == ranks[1] else (0 if ranks[0] > ranks[1] else 1)
        for seat, card in enumerate(cards):
            self.hands[seat].remove(card)
            self.played[seat].append(card)
        if winner is not None:
            self.wins[winner] += 1
        self.picks = [None, None]
        self.stats.rounds += 1
        events: list[Event] = [{"type": "round", "round": self.stats.rounds, "cards": cards, "winner": winner,
                                "wins": list(self.wins)}]
        if self.stats.rounds == HAND:
            best = None if self.wins[0] == self.wins[1] else (0 if self.wins[0] > self.wins[1] else 1)
            self.outcome = Outcome(best, "rounds" if best is not None else "draw", f"{self.wins[0]}-{self.wins[1]}")
            events.append({"type": "game_over", **self.outcome.to_json()})
        return events

    def apply_move(self, move: Mapping[str, Any]) -> list[Event]:
        picks = move.get("picks")
        if not isinstance(picks, list) or len(picks) != 2:
            raise IllegalAction("a High Card move is {\"picks\": [seat 0's card, seat 1's card]}")
        before = self.to_json()
        try:
            return [*self.apply(0, {"type": "pick", "card": picks[0]}),
                    *self.apply(1, {"type": "pick", "card": picks[1]})]
        except IllegalAction:
            restored = type(self).from_json(before)
            self.__dict__.update(restored.__dict__)
            raise

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "game": self.name, "seat": seat, "round": self.stats.rounds + 1, "wins": list(self.wins),
            "played": [list(cards) for cards in self.played], "picked": [pick is not None for pick in self.picks],
            "hand": None if seat is None else list(self.hands[seat]),
            "my_pick": None if seat is None else self.picks[seat],
            "outcome": None if self.outcome is None else self.outcome.to_json(),
        }

    def hidden_from(self, seat: int | None) -> Counter[str]:
        hidden = Counter(self.stock)
        for other in range(2):
            if other != seat:
                hidden.update(self.hands[other])
        return hidden

    def draw_piles(self) -> list[list[str]]:
        return [list(hand) for hand in self.hands]

    def card_locations(self) -> dict[str, list[str]]:
        return {"stock": list(self.stock), "hand0": list(self.hands[0]), "hand1": list(self.hands[1]),
                "played0": list(self.played[0]), "played1": list(self.played[1])}

    def to_json(self) -> dict[str, Any]:
        return {"rules": dict(self.rules), "seed": self.seed, "rng": rng_state_to_json(self.rng),
                "hands": [list(hand) for hand in self.hands], "stock": list(self.stock),
                "played": [list(cards) for cards in self.played], "picks": list(self.picks),
                "wins": list(self.wins), "rounds": self.stats.rounds,
                "outcome": None if self.outcome is None else self.outcome.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        game = cls(dict(data["rules"]), data["seed"], rng_from_json(data["rng"]), [list(h) for h in data["hands"]],
                   list(data["stock"]))
        game.played = [list(cards) for cards in data["played"]]
        game.picks = list(data["picks"])
        game.wins = list(data["wins"])
        game.stats.rounds = data["rounds"]
        game.outcome = Outcome.from_json(data["outcome"])
        return game
