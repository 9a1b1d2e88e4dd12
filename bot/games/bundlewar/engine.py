"""Bundle War: the War / Stealing Bundles hybrid of the rule text 003, for 2-4 players.

The text: "When cards are won, they are not added to the bottom of the winner's card supply but placed in a pile
face up beside the player... the winner can choose which of the new cards to place on top. As players take cards
from the top of their face down packet to play, they look at them before playing them. If the rank of your card
matches the top card of an opponent's face-up pile, then instead of playing it normally you can use it to steal
that pile." Our choices where it is silent (also in ``bot/games/bundlewar/rules/bundlewar.md``):

* Decisions are secret and simultaneous, in **steps**: every player looking at a card chooses to **play** it or to
  **steal** an opponent's pile with it; the step resolves when all have chosen. A stealer then looks at their next
  card and chooses again in the next step; the others wait.
* All steals of a step happen at once, from the piles as they were: a stealer puts their card on top of the pile
  and puts the whole of it on top of their own pile. Two players stealing each other's piles exchange them.
* **Steal-back race** (the text's own fix): a card played that matches its player's own pile top protects that pile
  for the step: a steal of it fails. Two players stealing the same pile: the first after its owner in seat order
  gets it; the other's steal fails. A failed stealer keeps their card and chooses again.
* When nobody is left choosing, the face-up cards fight: the highest takes everything on the table (two jokers are
  the highest cards, and tie with each other). A tie for highest is a war among the tied: three cards face down
  (never looked at, they can't steal), then a card they look at and may steal with or play. A player who cannot
  lay the whole war loses at once (is out; their laid cards stay in the pot).
* The winner picks which of the won **face-up** cards goes on top of their pile (the deadline's default: the
  highest); the rest go under it as they were laid. Only the top's rank matters, so the choices are one card of
  each rank: won cards all of one rank leave nothing to choose.
* An empty packet is refilled from the player's pile, shuffled. A player with neither is out. The last player with
  cards wins; after ``max_rounds`` rounds the most cards wins (equal: a draw).

Actions: ``{"type": "play"}``, ``{"type": "steal", "victim": seat}``, ``{"type": "top", "card": card}``.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from bot.cards import JOKERS, parse_card, rank_of, standard_pack, strength_table
from bot.errors import IllegalAction, InvalidState, NotYourTurn
from bot.game import Action, Event, Game, GameStats, Option, Outcome
from bot.i18n import N_

STATE_VERSION = 1
WAR_DOWN = 3
#: steals a player may make in one round (then the card in hand must be played): a round always ends
MAX_STEALS = 3
_STRENGTH = strength_table(aces_high=True)
DECIDE, TOP = "decide", "top"


def same_rank(first: str, second: str) -> bool:
    return (first in JOKERS and second in JOKERS) or (first not in JOKERS and rank_of(first) == rank_of(second))


class BundleWar(Game):
    name: ClassVar[str] = "bundlewar"
    title: ClassVar[str] = N_("Bundle War")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options: ClassVar[tuple[Option, ...]] = (
        Option("players", 2, "number of players", minimum=2, maximum=4),
        Option("pack", 52, "52 cards or 32 (7 to A), with two jokers", choices=(52, 32)),
        Option("max_rounds", 200, "after this many rounds the most cards wins (equal: a draw)", minimum=1,
               maximum=10_000),
    )

    def __init__(self, rules: dict[str, Any], seed: int, rng: random.Random) -> None:
        super().__init__(rules, seed, rng)
        n = rules["players"]
        self.packets: list[deque[str]] = [deque() for _ in range(n)]
        self.piles: list[list[str]] = [[] for _ in range(n)]
        self.playing = [True] * n
        self.looking: list[str | None] = [None] * n
        self.table: list[list[str]] = [[] for _ in range(n)]  # each seat's cards laid this round, in order
        self.faceup: list[str | None] = [None] * n
        self.shown: list[str] = []  # the round's face-up cards, in the order they were shown
        self.contenders: list[int] = []
        self.deciders: list[int] = []
        self.choices: dict[int, dict[str, Any]] = {}
        self.phase = DECIDE
        self.steps = 0
        self.winner: int | None = None
        #: seats whose pile a card they played this round protects (the text's fix of the steal-back race)
        self.protected: set[int] = set()
        self.stolen = [0] * n  # steals made this round, per seat
        self.opening_events: list[Event] = []

    # --- construction -------------------------------------------------------------------------------
    @classmethod
    def new(cls, rules: Mapping[str, Any] | None = None, seed: int = 0,
            piles: Sequence[Sequence[str]] | None = None) -> Self:
        given = dict(rules or {})
        if piles is not None:
            given.setdefault("players", len(piles))
        resolved = cls.resolve_rules(given)
        cls._check_seed(seed)
        game = cls(resolved, seed, random.Random(seed))
        n = resolved["players"]
        if piles is None:
            pack = standard_pack(resolved["pack"], jokers=2)
            game.rng.shuffle(pack)
            each = len(pack) // n
            dealt = [pack[seat:n * each:n] for seat in range(n)]
        else:
            if len(piles) != n:
                raise InvalidState(f"{len(piles)} piles for {n} players")
            dealt = [[parse_card(card) for card in pile] for pile in piles]
        game.packets = [deque(pile) for pile in dealt]
        game.playing = [bool(pile) for pile in dealt]
        game.opening_events = game._start_round()
        return game

    # --- play ---------------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.rules["players"]

    @property
    def step(self) -> int:
        return self.steps + 1

    def legal_actions(self, seat: int) -> list[Action]:
        self._check_seat(seat)
        if self.is_over or seat not in self.deciders or seat in self.choices:
            return []
        if self.phase == TOP:
            return [{"type": "top", "card": card} for card in self.top_choices()]
        card = self.looking[seat]
        assert card is not None
        return [{"type": "play"}] + [{"type": "steal", "victim": victim} for victim in self.stealable(seat, card)]

    def top_choices(self) -> list[str]:
        """The won face-up cards the winner picks the pile's top from: one of each rank, the first shown (only a
        top's rank matters, a steal matches ranks; the two jokers are one rank). Any shown card is still accepted
        (:meth:`apply`), so a match file that named another card of the rank plays as it did."""
        kept: dict[str, str] = {}
        for card in self.shown:
            kept.setdefault("joker" if card in JOKERS else rank_of(card), card)
        return list(kept.values())

    def stealable(self, seat: int, card: str) -> list[int]:
        if self.stolen[seat] >= MAX_STEALS:
            return []
        return [victim for victim in range(self.num_players) if victim != seat and self.piles[victim]
                and self.playing[victim] and same_rank(card, self.piles[victim][-1])]

    def pending_seats(self) -> list[int]:
        return [] if self.is_over else [seat for seat in self.deciders if seat not in self.choices]

    def apply(self, seat: int, action: Action) -> list[Event]:
        self._check_not_over()
        self._check_seat(seat)
        if seat not in self.deciders:
            raise NotYourTurn(N_("You have nothing to choose now."))
        if seat in self.choices:
            raise NotYourTurn(N_("You have chosen already in this step."))
        if not isinstance(action, Mapping) or (action not in self.legal_actions(seat) and not (
                self.phase == TOP and dict(action).keys() == {"type", "card"} and action["type"] == "top"
                and action["card"] in self.shown)):
            raise IllegalAction(N_("That is not a choice you can make now: {action}."), action=repr(action))
        self.choices[seat] = dict(action)
        events: list[Event] = [{"type": "chosen", "step": self.step, "seat": seat}]
        if not self.pending_seats():
            events += self._resolve_top() if self.phase == TOP else self._resolve_step()
        return events

    def apply_move(self, move: Mapping[str, Any]) -> list[Event]:
        if not isinstance(move, Mapping) or set(move) != {"seat", "choice"}:
            raise IllegalAction('a Bundle War move is {"seat": s, "choice": {...}}')
        return self.apply(move["seat"], move["choice"])

    def default(self, seat: int) -> Action:
        """What a seat that missed the deadline plays: its card, or the highest won card on top."""
        if self.phase == TOP:
            return {"type": "top", "card": max(self.shown, key=_STRENGTH.__getitem__)}
        return {"type": "play"}

    # --- the round ----------------------------------------------------------------------------------
    def _draw(self, seat: int, events: list[Event]) -> str | None:
        packet = self.packets[seat]
        if not packet and self.piles[seat]:
            pile = self.piles[seat]
            self.rng.shuffle(pile)
            packet.extend(pile)
            pile.clear()
            events.append({"type": "reshuffle", "round": self.round, "seat": seat, "cards": len(packet)})
        return packet.popleft() if packet else None

    @property
    def round(self) -> int:
        return self.stats.rounds + 1

    def _start_round(self) -> list[Event]:
        events: list[Event] = []
        self.contenders = [seat for seat in range(self.num_players) if self.playing[seat]]
        for seat in self.contenders:
            self.looking[seat] = self._draw(seat, events)
        self.deciders = list(self.contenders)
        self.phase, self.choices, self.protected = DECIDE, {}, set()
        self.stolen = [0] * self.num_players
        return [*events, self._step_event()]

    def _step_event(self) -> Event:
        return {"type": "turn", "step": self.step, "round": self.round, "phase": self.phase,
                "seats": list(self.deciders), "tops": self.tops(), "counts": self.counts()}

    def _resolve_step(self) -> list[Event]:
        choices, self.choices = self.choices, {}
        self.steps += 1
        played = [seat for seat, choice in choices.items() if choice["type"] == "play"]
        wanted = {seat: choice["victim"] for seat, choice in choices.items() if choice["type"] == "steal"}
        self.protected |= {seat for seat in played if self.piles[seat]
                           and same_rank(self.looking[seat], self.piles[seat][-1])}  # type: ignore[arg-type]
        granted: dict[int, int] = {}
        for victim in sorted(set(wanted.values())):
            if victim in self.protected:
                continue
            stealers = [seat for seat in wanted if wanted[seat] == victim]
            order = [(victim + k) % self.num_players for k in range(1, self.num_players)]
            granted[min(stealers, key=order.index)] = victim
        old = [list(pile) for pile in self.piles]
        robbed = set(granted.values())
        for seat in range(self.num_players):
            if seat in robbed:
                self.piles[seat] = []
        steals = []
        for seat, victim in sorted(granted.items()):
            card = self.looking[seat]
            assert card is not None
            self.piles[seat] = self.piles[seat] + old[victim] + [card]
            steals.append({"seat": seat, "victim": victim, "card": card, "cards": len(old[victim]) + 1})
            self.stolen[seat] += 1
            self.looking[seat] = None
        shown = []
        for seat in played:
            card = self.looking[seat]
            assert card is not None
            self.table[seat].append(card)
            self.faceup[seat], self.looking[seat] = card, None
            self.shown.append(card)
            shown.append({"seat": seat, "card": card})
        failed = [seat for seat in wanted if seat not in granted]
        blocked = sorted(self.protected & set(wanted.values()))
        events: list[Event] = [{"type": "step_played", "step": self.steps, "round": self.round, "played": shown,
                                "steals": steals, "failed": failed, "protected": blocked, "tops": self.tops(),
                                "counts": self.counts()}]
        again = []
        for seat in granted:  # a stealer looks at their next card
            card = self._draw(seat, events)
            if card is None:
                self.faceup[seat] = None
                self.contenders.remove(seat)  # nothing left to play this round
            else:
                self.looking[seat] = card
                again.append(seat)
        self.deciders = sorted(again + failed)
        if self.deciders:
            return [*events, self._step_event()]
        return events + self._battle()

    def _battle(self) -> list[Event]:
        contenders = [seat for seat in self.contenders if self.faceup[seat] is not None]
        if not contenders:
            return self._take(None)
        top = max(_STRENGTH[self.faceup[seat]] for seat in contenders)  # type: ignore[index]
        best = [seat for seat in contenders if _STRENGTH[self.faceup[seat]] == top]  # type: ignore[index]
        events: list[Event] = [{"type": "battle", "round": self.round, "cards": list(self.faceup),
                                "winner": best[0] if len(best) == 1 else None, "tied": best if len(best) > 1 else []}]
        if len(best) == 1:
            return events + self._take(best[0])
        survivors = []
        for seat in best:  # three face down, then one to look at
            laid = []
            for _ in range(WAR_DOWN + 1):
                card = self._draw(seat, events)
                if card is None:
                    break
                laid.append(card)
            if len(laid) < WAR_DOWN + 1:
                self.table[seat].extend(laid)
                self.playing[seat] = False
                self.faceup[seat] = None
                events.append({"type": "out", "round": self.round, "seat": seat, "reason": "short_war"})
                continue
            self.table[seat].extend(laid[:-1])
            self.looking[seat] = laid[-1]
            self.faceup[seat] = None
            survivors.append(seat)
        self.stats.wars += 1
        events.append({"type": "war", "round": self.round, "seats": survivors, "face_down": WAR_DOWN})
        if len(survivors) <= 1:
            return events + self._take(survivors[0] if survivors else None)
        self.contenders, self.deciders = survivors, list(survivors)
        return [*events, self._step_event()]

    def _take(self, winner: int | None) -> list[Event]:
        pot = [card for laid in self.table for card in laid] + [c for c in self.looking if c is not None]
        if winner is None:  # everyone in the war went out: the pot leaves play
            self.stats.rounds += 1
            return [{"type": "pot_aside", "round": self.round - 1, "cards": len(pot)}, *self._next_round()]
        self.winner = winner
        if not self.shown:  # nothing face up to choose from
            return self._finish_take(None)
        if sum(self.playing) <= 1:  # the others are out: the game ends now, the highest card on top
            return self._finish_take(max(self.shown, key=_STRENGTH.__getitem__))
        self.phase, self.deciders, self.choices = TOP, [winner], {}
        return [self._step_event()]

    def _resolve_top(self) -> list[Event]:
        self.steps += 1
        choice = self.choices.pop(self.deciders[0])
        return self._finish_take(choice["card"])

    def _finish_take(self, top: str | None) -> list[Event]:
        winner = self.winner
        assert winner is not None
        pot = [card for laid in self.table for card in laid] + [c for c in self.looking if c is not None]
        if top is not None:
            pot.remove(top)
            pot.append(top)
        self.piles[winner].extend(pot)
        self.stats.rounds += 1
        event = {"type": "take", "round": self.stats.rounds, "seat": winner, "cards": len(pot), "top": top,
                 "counts": None}
        self.winner = None
        self.table = [[] for _ in range(self.num_players)]
        self.looking = [None] * self.num_players
        event["counts"] = self.counts()
        return [event, *self._next_round()]

    def _next_round(self) -> list[Event]:
        self.table = [[] for _ in range(self.num_players)]
        self.faceup = [None] * self.num_players
        self.looking = [None] * self.num_players
        self.shown = []
        events: list[Event] = []
        for seat in range(self.num_players):
            if self.playing[seat] and not self.packets[seat] and not self.piles[seat]:
                self.playing[seat] = False
                events.append({"type": "out", "round": self.stats.rounds, "seat": seat, "reason": "no_cards"})
        alive = [seat for seat in range(self.num_players) if self.playing[seat]]
        if len(alive) <= 1:
            winner = alive[0] if alive else None
            self.outcome = Outcome(winner, "last_standing" if alive else "all_out",
                                   f"seat {winner} is the last player with cards" if alive else "nobody has cards")
        elif self.stats.rounds >= self.rules["max_rounds"]:
            counts = self.counts()
            most = max(counts)
            leaders = [seat for seat in range(self.num_players) if counts[seat] == most]
            self.outcome = Outcome(leaders[0] if len(leaders) == 1 else None, "capped",
                                   f"after {self.stats.rounds} rounds: " + ", ".join(map(str, counts)))
        if self.outcome is not None:
            self.deciders, self.choices = [], {}
            return [*events, {"type": "game_over", **self.outcome.to_json(), "round": self.stats.rounds}]
        return events + self._start_round()

    def forfeit(self, seat: int, reason: str = "forfeit") -> list[Event]:
        self._check_not_over()
        self._check_seat(seat)
        if not self.playing[seat]:
            raise NotYourTurn(N_("You are out of this game already."))
        self.playing[seat] = False
        events: list[Event] = [{"type": "out", "round": self.round, "seat": seat, "reason": reason}]
        alive = [other for other in range(self.num_players) if self.playing[other]]
        if len(alive) == 1:
            self.outcome = Outcome(alive[0], reason, f"seat {seat} forfeited")
            self.deciders, self.choices = [], {}
            return [*events, {"type": "game_over", **self.outcome.to_json(), "round": self.stats.rounds}]
        if seat in self.deciders:  # the others go on: its choice is no longer waited for
            self.deciders.remove(seat)
            self.choices.pop(seat, None)
            if seat in self.contenders:
                self.contenders.remove(seat)
            if self.phase == TOP:  # the winner gave up: the pot goes to the next round's winner
                self.phase, self.winner = DECIDE, None
                self.stats.rounds += 1
                return events + self._next_round()
            if not self.pending_seats():
                events += self._resolve_step()
        elif seat in self.contenders:
            self.contenders.remove(seat)
        return events

    # --- what players see ---------------------------------------------------------------------------
    def tops(self) -> list[str | None]:
        return [pile[-1] if pile else None for pile in self.piles]

    def counts(self) -> list[int]:
        return [len(self.packets[s]) + len(self.piles[s]) + len(self.table[s]) + (self.looking[s] is not None)
                for s in range(self.num_players)]

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            self._check_seat(seat)
        return {
            "game": self.name, "seat": seat, "rules": dict(self.rules), "round": self.round, "step": self.step,
            "phase": "over" if self.is_over else self.phase, "in_game": list(self.playing), "tops": self.tops(),
            "pile_counts": [len(pile) for pile in self.piles], "packet_counts": [len(p) for p in self.packets],
            "faceup": list(self.faceup), "shown": list(self.shown) if self.phase == TOP else [],
            "deciders": list(self.deciders), "chosen": [s in self.choices for s in range(self.num_players)],
            "looking": None if seat is None else self.looking[seat], "counts": self.counts(),
            "outcome": None if self.outcome is None else self.outcome.to_json(),
        }

    def hidden_from(self, seat: int | None) -> Counter[str]:
        if seat is not None:
            self._check_seat(seat)
        hidden: Counter[str] = Counter()
        for other in range(self.num_players):
            hidden.update(self.packets[other])
            hidden.update(self.piles[other][:-1])
            if other != seat and self.looking[other] is not None:
                hidden[self.looking[other]] += 1
            hidden.update(card for card in self.table[other] if card not in self.shown)
        return hidden

    def draw_piles(self) -> list[list[str]]:
        return [list(packet) for packet in self.packets]

    def card_locations(self) -> dict[str, list[str]]:
        places: dict[str, list[str]] = {}
        for seat in range(self.num_players):
            places[f"packet_{seat}"] = list(self.packets[seat])
            places[f"pile_{seat}"] = list(self.piles[seat])
            places[f"table_{seat}"] = list(self.table[seat])
            places[f"looking_{seat}"] = [] if self.looking[seat] is None else [self.looking[seat]]
        return places

    # --- persistence --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            **self._saved_head(STATE_VERSION), "packets": [list(p) for p in self.packets],
            "piles": [list(p) for p in self.piles], "playing": list(self.playing), "looking": list(self.looking),
            "table": [list(t) for t in self.table], "faceup": list(self.faceup), "shown": list(self.shown),
            "contenders": list(self.contenders), "deciders": list(self.deciders),
            "choices": {str(seat): dict(choice) for seat, choice in self.choices.items()}, "phase": self.phase,
            "steps": self.steps, "winner": self.winner, "protected": sorted(self.protected),
            "stolen": list(self.stolen),
            "stats": self.stats.to_json(),
            "outcome": None if self.outcome is None else self.outcome.to_json(),
            "opening_events": [dict(event) for event in self.opening_events],
        }

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> Self:
        game = cls._from_head(data, STATE_VERSION)
        n = game.num_players
        game.packets = [deque(parse_card(card) for card in packet) for packet in data["packets"]]
        game.piles = [[parse_card(card) for card in pile] for pile in data["piles"]]
        game.playing = [bool(flag) for flag in data["playing"]]
        game.looking = [None if card is None else parse_card(card) for card in data["looking"]]
        game.table = [[parse_card(card) for card in laid] for laid in data["table"]]
        game.faceup = [None if card is None else parse_card(card) for card in data["faceup"]]
        game.shown = [parse_card(card) for card in data["shown"]]
        game.contenders, game.deciders = list(data["contenders"]), list(data["deciders"])
        game.choices = {int(seat): dict(choice) for seat, choice in data["choices"].items()}
        game.phase, game.steps, game.winner = data["phase"], int(data["steps"]), data["winner"]
        game.protected = {int(seat) for seat in data["protected"]}
        game.stolen = [int(count) for count in data["stolen"]]
        if any(len(part) != n for part in (game.packets, game.piles, game.playing, game.looking, game.table)):
            raise InvalidState("the saved Bundle War game is damaged: one entry per player")
        if game.phase not in (DECIDE, TOP):
            raise InvalidState("the saved Bundle War game is damaged: an unknown phase")
        stats = data["stats"]
        game.stats = GameStats(int(stats["rounds"]), int(stats["wars"]))
        game.outcome = Outcome.from_json(data["outcome"])
        game.opening_events = [dict(event) for event in data["opening_events"]]
        return game
