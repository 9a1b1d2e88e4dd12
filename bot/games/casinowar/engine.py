"""Casino War: one to four players, each against the house, for the server's chips.

The rules (the "Facts from elsewhere" of the rule texts, and 001's "Casino War: ... player bets on each flip, ties
allow a 'surrender' of half-bet or double-up for a war, and aces are the highest rank"):

* each hand, every seated player bets (an amount of the table's ladder between its minimum and maximum, with the
  optional tie bet) or sits the hand out; the bets are secret until every seat has chosen;
* one card to each player who bet and one to the house; the higher rank wins even money (aces high, suits count
  for nothing); the tie bet pays 10 to 1 when the player's card ties the house's, else it is lost;
* on a tie the player surrenders (half the bet comes back, rounded down) or goes to war by raising an amount equal
  to the bet: the house burns three cards and deals one more card to each player at war, then one to itself; a
  player equal or higher wins the raise at even money and the original bet pushes (with ``tie_bonus``, a tie after
  the tie also pays a bonus equal to the bet); a lower card loses both;
* the shoe holds ``decks`` decks with a cut card ``cut_card`` cards from its end: when the cut card comes out the
  hand is played to its end and the whole shoe is reshuffled after it;
* chips never go below zero: a bet (with its tie bet) is at most the seat's chips, war needs chips for the raise
  (else only surrender), and a seat with less than the minimum stands up at the start of a hand;
* the table closes after ``hands`` hands, or once nobody is seated.

Chips: ``stacks`` (a rule set when the table opens, from the players' balances; default ``stake`` each) are each
seat's chips; every movement is a ``chips`` event {hand, seat, kind, amount, stack} -- ``bet`` and ``tie_bet``
(negative, at the deal), ``win``, ``tie_win``, ``surrender``, ``raise`` (negative), ``war_win``, ``bonus`` -- at most
one of each kind per hand and seat, so (match, hand, seat, kind) names a movement once.

Events (public): ``chosen`` {hand, seat} (a bet or a decision is in, not what it is), ``dealt`` {hand, bets, cards,
house, results}, ``tie`` {hand, seats}, ``war`` {hand, burned, surrendered, warring, cards, house, results},
``hand_over`` {hand, net, stacks}, ``reshuffle`` {hand, cards}, ``stood_up`` {hand, seat, reason}, ``game_over``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Self

from bot.cards import standard_pack, strength_table
from bot.errors import IllegalAction, InvalidRules, InvalidState, NotYourTurn
from bot.game import Action, Event, Game, Option, Outcome, rng_from_json
from bot.i18n import N_

RANKS = strength_table(aces_high=True)
PAYOUT_TIE_BET = 10  #: the tie bet pays 10 to 1
BURNED = 3  #: cards the house burns before a war
BET, DECIDE, OVER = "bet", "decide", "over"
#: the most cards one hand can take from the shoe: 4 players and the house, 3 burns, 4 players and the house again
MOST_CARDS_PER_HAND = 5 + BURNED + 5


def bet_ladder(minimum: int, maximum: int) -> list[int]:
    """The amounts a table offers: its minimum, 2, 5, 10, 20, 50 ... times it, and its maximum."""
    amounts = {minimum, maximum}
    factor = 1
    while minimum * factor < maximum:
        for step in (1, 2, 5):
            if minimum * factor * step < maximum:
                amounts.add(minimum * factor * step)
        factor *= 10
    return sorted(amounts)


class CasinoWar(Game):
    name = "casinowar"
    title = N_("Casino War")
    min_players = 1
    max_players = 4
    options = (
        Option("players", 1, "seats at the table (1-4)", minimum=1, maximum=4),
        Option("decks", 6, "decks in the shoe", minimum=1, maximum=8),
        Option("cut_card", 78, "cards left behind the cut card: the shoe is reshuffled after the hand it comes out "
                               "in", minimum=MOST_CARDS_PER_HAND, maximum=400),
        Option("min_bet", 10, "the table's smallest bet", minimum=1, maximum=100_000),
        Option("max_bet", 100, "the table's largest bet", minimum=1, maximum=1_000_000),
        Option("tie_bet", 10, "the optional tie bet (pays 10 to 1); 0: none", minimum=0, maximum=100_000),
        Option("tie_bonus", True, "a tie after going to war pays a bonus equal to the bet"),
        Option("hands", 20, "hands before the table closes", minimum=1, maximum=1000),
        Option("stake", 1000, "the chips a player starts with on the server", minimum=1, maximum=10_000_000),
        Option("daily_topup", 200, "chips added once a day to a player below the starting stake (up to it)",
               minimum=0, maximum=10_000_000),
        Option("stacks", None, "each seat's chips when the table opened (set from the players' balances)"),
    )

    def __init__(self, rules: dict[str, Any], seed: int, rng: random.Random) -> None:
        super().__init__(rules, seed, rng)
        players = rules["players"]
        self.shoe: list[str] = []
        self.discard: list[str] = []
        self.stacks: list[int] = []
        self.net = [0] * players
        self.seated = [True] * players
        self.phase = BET
        self.hand = 1
        self.step = 1
        self.reshuffles = 0
        self.cut_out = False
        #: this hand: each seat's secret choice (a bet, ``{"sit_out": True}``), then its tie decision
        self.choices: list[dict[str, Any] | None] = [None] * players
        self.decisions: list[str | None] = [None] * players
        self.bets: list[dict[str, int] | None] = [None] * players
        self.tied: list[int] = []
        #: the cards of the hand on the table (face up): each seat's, in order dealt, and the house's
        self.cards: list[list[str]] = [[] for _ in range(players)]
        self.house: list[str] = []
        self.last: list[Event] = []

    # --- construction ------------------------------------------------------------------------------------
    @classmethod
    def resolve_rules(cls, rules: Mapping[str, Any] | None) -> dict[str, Any]:
        resolved = super().resolve_rules(rules)
        if resolved["min_bet"] > resolved["max_bet"]:
            raise InvalidRules(N_("the smallest bet ({low}) is more than the largest ({high})"),
                               low=resolved["min_bet"], high=resolved["max_bet"])
        if resolved["stake"] < resolved["min_bet"]:
            raise InvalidRules(N_("the starting stake ({stake}) must cover the smallest bet ({low})"),
                               stake=resolved["stake"], low=resolved["min_bet"])
        if resolved["cut_card"] > resolved["decks"] * 52 - MOST_CARDS_PER_HAND:
            raise InvalidRules(N_("a cut card {cut} cards from the end leaves too few cards to play in a shoe of "
                                  "{decks} decks"), cut=resolved["cut_card"], decks=resolved["decks"])
        stacks = resolved["stacks"]
        if isinstance(stacks, list) and len(stacks) != resolved["players"]:
            resolved["stacks"] = stacks = None  # another table's (a rematch): the deal sets them again
        if stacks is not None and (not isinstance(stacks, list) or any(
                isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in stacks)):
            raise InvalidRules(N_("'stacks' is a list of each seat's chips (whole numbers, 0 or more)"))
        return resolved

    @classmethod
    def new(cls, rules: Mapping[str, Any] | None = None, seed: int = 0,
            piles: Sequence[Sequence[str]] | None = None) -> Self:
        cls._check_seed(seed)
        resolved = cls.resolve_rules(rules)
        game = cls(resolved, seed, random.Random(seed))
        if piles is not None:
            if len(piles) != 1:
                raise InvalidRules(N_("Casino War takes one pile: the shoe, top card first"))
            game.shoe = list(piles[0])
        else:
            game.shoe = standard_pack(decks=resolved["decks"])
            game.rng.shuffle(game.shoe)
        stacks = resolved["stacks"]
        game.stacks = list(stacks) if stacks is not None else [resolved["stake"]] * resolved["players"]
        game._stand_up_broke()
        return game

    # --- reading ---------------------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.stacks)

    @property
    def ladder(self) -> list[int]:
        return bet_ladder(self.rules["min_bet"], self.rules["max_bet"])

    def waiting(self) -> list[int]:
        """The seats whose choice the current phase still waits for."""
        if self.phase == BET:
            return [s for s in range(self.num_players) if self.seated[s] and self.choices[s] is None]
        if self.phase == DECIDE:
            return [s for s in self.tied if self.decisions[s] is None]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        if self.is_over or seat not in self.waiting():
            return []
        if self.phase == DECIDE:
            bet = self.bets[seat]
            assert bet is not None
            return [{"type": "surrender"}, *([{"type": "war"}] if self.stacks[seat] >= bet["main"] else [])]
        stack, tie = self.stacks[seat], self.rules["tie_bet"]
        actions: list[Action] = [{"type": "bet", "amount": amount, "tie": 0} for amount in self.ladder
                                 if amount <= stack]
        if tie:
            actions += [{"type": "bet", "amount": amount, "tie": tie} for amount in self.ladder
                        if amount + tie <= stack]
        return [*actions, {"type": "sit_out"}]

    # --- play --------------------------------------------------------------------------------------------------
    def apply(self, seat: int, action: Action) -> list[Event]:
        self._check_not_over()
        self._check_seat(seat)
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise IllegalAction(N_("an action is an object with a type, not {action}"), action=repr(action))
        if seat not in self.waiting():
            raise NotYourTurn(N_("seat {seat} has nothing to choose now"), seat=seat)
        legal = self.legal_actions(seat)
        if dict(action) not in legal:
            raise IllegalAction(N_("{action} is not one of the choices of seat {seat} now"), action=repr(dict(action)),
                                seat=seat)
        events: list[Event] = [{"type": "chosen", "hand": self.hand, "seat": seat}]
        if self.phase == BET:
            self.choices[seat] = dict(action)
        else:
            self.decisions[seat] = str(action["type"])
        return events + self._advance()

    def apply_move(self, move: Mapping[str, Any]) -> list[Event]:
        if not isinstance(move, Mapping) or set(move) != {"seat", "action"}:
            raise IllegalAction(N_("a Casino War move is {move}"), move='{"seat": seat, "action": {...}}')
        return self.apply(move["seat"], move["action"])

    def forfeit(self, seat: int, reason: str = "forfeit") -> list[Event]:
        """The seat leaves the table: a bet not dealt yet is not played, a tie not decided yet is surrendered; the
        others play on (the table closes once nobody is seated)."""
        self._check_not_over()
        self._check_seat(seat)
        if not self.seated[seat]:
            raise IllegalAction(N_("seat {seat} has left the table already"), seat=seat)
        self.seated[seat] = False
        events: list[Event] = [{"type": "stood_up", "hand": self.hand, "seat": seat, "reason": reason}]
        if self.phase == BET:
            self.choices[seat] = None
        elif seat in self.tied and self.decisions[seat] is None:
            self.decisions[seat] = "surrender"
        return events + self._advance()

    def draw(self, reason: str, detail: str = "") -> list[Event]:
        """The table closes at once (every seat still seated missed its deadlines): each seat leaves, as by
        :meth:`forfeit`."""
        self._check_not_over()
        if not isinstance(reason, str) or not reason:
            raise IllegalAction(N_("closing the table needs a reason"))
        events: list[Event] = []
        for seat in range(self.num_players):
            if self.seated[seat] and not self.is_over:
                events += self.forfeit(seat, reason)
        return events

    # --- the hand ----------------------------------------------------------------------------------------------
    def _advance(self) -> list[Event]:
        """Play what the choices made so far allow: the deal once every bet is in, the war once every tie is
        decided, then the next hand (or the table's end)."""
        events: list[Event] = []
        if self.phase == BET and not self.waiting():
            events += self._deal()
        if self.phase == DECIDE and not self.waiting():
            events += self._war()
        if self.phase == "settled":
            events += self._end_hand()
        return events

    def _draw_card(self) -> str:
        card = self.shoe.pop(0)
        if len(self.shoe) <= self.rules["cut_card"]:
            self.cut_out = True
        return card

    def _move(self, seat: int, kind: str, amount: int) -> Event:
        self.stacks[seat] += amount
        self.net[seat] += amount
        return {"type": "chips", "hand": self.hand, "seat": seat, "kind": kind, "amount": amount,
                "stack": self.stacks[seat]}

    def _deal(self) -> list[Event]:
        self.discard += [card for cards in self.cards for card in cards] + self.house
        self.cards = [[] for _ in range(self.num_players)]
        self.house = []
        players = [s for s in range(self.num_players) if self.choices[s] is not None
                   and self.choices[s].get("type") == "bet"]
        events: list[Event] = []
        if not players:
            self.phase = "settled"
            return events
        self.bets = [None] * self.num_players
        for seat in players:
            choice = self.choices[seat]
            assert choice is not None
            self.bets[seat] = {"main": int(choice["amount"]), "tie": int(choice["tie"])}
        for seat in players:
            self.cards[seat].append(self._draw_card())
        self.house.append(self._draw_card())
        house = RANKS[self.house[0]]
        results: list[str | None] = [None] * self.num_players
        chips: list[Event] = []
        for seat in players:
            bet = self.bets[seat]
            assert bet is not None
            chips.append(self._move(seat, "bet", -bet["main"]))
            if bet["tie"]:
                chips.append(self._move(seat, "tie_bet", -bet["tie"]))
            mine = RANKS[self.cards[seat][0]]
            results[seat] = "win" if mine > house else "lose" if mine < house else "tie"
            if results[seat] == "win":
                chips.append(self._move(seat, "win", 2 * bet["main"]))
            if results[seat] == "tie" and bet["tie"]:
                chips.append(self._move(seat, "tie_win", (PAYOUT_TIE_BET + 1) * bet["tie"]))
        events.append({"type": "dealt", "hand": self.hand, "bets": list(self.bets),
                       "cards": [cards[0] if cards else None for cards in self.cards], "house": self.house[0],
                       "results": results})
        events += chips
        self.tied = [seat for seat in players if results[seat] == "tie"]
        if self.tied:
            self.phase = DECIDE
            self.decisions = [None] * self.num_players
            self.step += 1
            events.append({"type": "tie", "hand": self.hand, "seats": list(self.tied)})
            # a seat that left before the deal has no bet; a seat with a tie that has left surrenders
            for seat in self.tied:
                if not self.seated[seat]:
                    self.decisions[seat] = "surrender"
        else:
            self.phase = "settled"
        return events

    def _war(self) -> list[Event]:
        events: list[Event] = []
        surrendered = [s for s in self.tied if self.decisions[s] == "surrender"]
        warring = [s for s in self.tied if self.decisions[s] == "war"]
        for seat in surrendered:
            bet = self.bets[seat]
            assert bet is not None
            events.append(self._move(seat, "surrender", bet["main"] // 2))
        results: list[str | None] = [None] * self.num_players
        burned: list[str] = []
        if warring:
            self.stats.wars += 1
            for seat in warring:
                bet = self.bets[seat]
                assert bet is not None
                events.append(self._move(seat, "raise", -bet["main"]))
            burned = [self._draw_card() for _ in range(BURNED)]
            self.discard += burned
            for seat in warring:
                self.cards[seat].append(self._draw_card())
            self.house.append(self._draw_card())
            house = RANKS[self.house[-1]]
            for seat in warring:
                bet = self.bets[seat]
                assert bet is not None
                mine = RANKS[self.cards[seat][-1]]
                results[seat] = "win" if mine > house else "lose" if mine < house else "tie"
                if results[seat] != "lose":
                    events.append(self._move(seat, "war_win", 3 * bet["main"]))
                if results[seat] == "tie" and self.rules["tie_bonus"]:
                    events.append(self._move(seat, "bonus", bet["main"]))
        war = {"type": "war", "hand": self.hand, "surrendered": surrendered, "warring": warring,
               "burned": len(burned), "cards": [cards[-1] if seat in warring else None
                                                for seat, cards in enumerate(self.cards)],
               "house": self.house[-1] if warring else None, "results": results}
        self.phase = "settled"
        return [war, *events]

    def _end_hand(self) -> list[Event]:
        events: list[Event] = [{"type": "hand_over", "hand": self.hand, "net": list(self.net),
                                "stacks": list(self.stacks)}]
        self.stats.rounds += 1
        if self.cut_out:
            self.discard += [card for cards in self.cards for card in cards] + self.house
            self.cards = [[] for _ in range(self.num_players)]
            self.house = []
            self.shoe += self.discard
            self.discard = []
            self.rng.shuffle(self.shoe)
            self.cut_out = False
            self.reshuffles += 1
            events.append({"type": "reshuffle", "hand": self.hand, "cards": len(self.shoe)})
        self.choices = [None] * self.num_players
        self.decisions = [None] * self.num_players
        self.bets = [None] * self.num_players
        self.tied = []
        if self.hand >= self.rules["hands"]:
            return events + self._close("hand_limit", f"the table's {self.rules['hands']} hands were played")
        self.hand += 1
        self.step += 1
        self.phase = BET
        events += self._stand_up_broke()
        if not any(self.seated):
            return events + self._close("table_empty", "nobody is seated any more")
        return events

    def _stand_up_broke(self) -> list[Event]:
        events: list[Event] = []
        for seat in range(self.num_players):
            if self.seated[seat] and self.stacks[seat] < self.rules["min_bet"]:
                self.seated[seat] = False
                events.append({"type": "stood_up", "hand": self.hand, "seat": seat, "reason": "chips"})
        if not any(self.seated) and self.outcome is None and events:
            events += self._close("table_empty", "nobody has the chips for the smallest bet")
        return events

    def _close(self, reason: str, detail: str) -> list[Event]:
        self.phase = OVER
        self.outcome = Outcome(None, reason, detail or "the table closed")
        return [{"type": "game_over", **self.outcome.to_json(), "net": list(self.net), "stacks": list(self.stacks)}]

    # --- what players see --------------------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            self._check_seat(seat)
        waiting = self.waiting()
        view: dict[str, Any] = {
            "hand": self.hand, "hands": self.rules["hands"], "phase": self.phase, "step": self.step,
            "stacks": list(self.stacks), "net": list(self.net), "seated": list(self.seated), "waiting": waiting,
            "chosen": [s not in waiting and ((self.phase == BET and self.seated[s]) or (self.phase == DECIDE
                                             and s in self.tied)) for s in range(self.num_players)],
            "tied": list(self.tied), "cards": [list(cards) for cards in self.cards], "house": list(self.house),
            "bets": [dict(bet) if bet is not None else None for bet in self.bets] if self.phase == DECIDE else
            [None] * self.num_players,
            "shoe": len(self.shoe), "cut_card": self.rules["cut_card"], "reshuffles": self.reshuffles,
            "ladder": self.ladder, "tie_bet": self.rules["tie_bet"], "min_bet": self.rules["min_bet"],
            "max_bet": self.rules["max_bet"], "wars": self.stats.wars,
        }
        if seat is not None:
            view["you"] = {"seat": seat, "choice": self.choices[seat], "decision": self.decisions[seat],
                           "actions": self.legal_actions(seat)}
        return view

    def hidden_from(self, seat: int | None) -> Counter[str]:
        if seat is not None:
            self._check_seat(seat)
        return Counter(self.shoe + self.discard)

    def draw_piles(self) -> list[list[str]]:
        return [list(self.shoe)]

    def card_locations(self) -> dict[str, list[str]]:
        places = {"shoe": list(self.shoe), "discard": list(self.discard), "house": list(self.house)}
        for seat, cards in enumerate(self.cards):
            places[f"seat{seat}"] = list(cards)
        return places

    # --- persistence -------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return self._saved_head(1) | {
            "shoe": list(self.shoe), "discard": list(self.discard), "stacks": list(self.stacks),
            "net": list(self.net), "seated": list(self.seated), "phase": self.phase, "hand": self.hand,
            "step": self.step, "reshuffles": self.reshuffles, "cut_out": self.cut_out,
            "choices": [None if c is None else dict(c) for c in self.choices], "decisions": list(self.decisions),
            "bets": [None if b is None else dict(b) for b in self.bets], "tied": list(self.tied),
            "cards": [list(c) for c in self.cards], "house": list(self.house),
            "outcome": None if self.outcome is None else self.outcome.to_json(), "stats": self.stats.to_json(),
        }

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> Self:
        if data.get("game") != cls.name or data.get("version") != 1:
            raise InvalidState(N_("not a saved Casino War game"))
        rules = cls.resolve_rules(data["rules"])
        game = cls(rules, data["seed"], rng_from_json(data["rng"]))
        game.shoe = list(data["shoe"])
        game.discard = list(data["discard"])
        game.stacks = [int(s) for s in data["stacks"]]
        game.net = [int(n) for n in data["net"]]
        game.seated = [bool(s) for s in data["seated"]]
        game.phase = str(data["phase"])
        game.hand, game.step = int(data["hand"]), int(data["step"])
        game.reshuffles, game.cut_out = int(data["reshuffles"]), bool(data["cut_out"])
        game.choices = [None if c is None else dict(c) for c in data["choices"]]
        game.decisions = list(data["decisions"])
        game.bets = [None if b is None else {"main": int(b["main"]), "tie": int(b["tie"])} for b in data["bets"]]
        game.tied = [int(s) for s in data["tied"]]
        game.cards = [list(c) for c in data["cards"]]
        game.house = list(data["house"])
        game.outcome = Outcome.from_json(data["outcome"])
        game.stats.rounds, game.stats.wars = int(data["stats"]["rounds"]), int(data["stats"]["wars"])
        return game
