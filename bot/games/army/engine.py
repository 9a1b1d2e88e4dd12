"""Army (version 2): armies with stamina points fight with red attack cards and black defence cards.

Two players, a standard 52-card pack without jokers. The 16 aces, kings, queens and jacks form the **army pile**,
the 36 number cards (2-10) the **fighting pile**; each has its own graveyard. Both piles are shuffled by the game's
own ``random.Random(seed)`` (army pile first, then fighting pile), or given explicitly to :meth:`Army.new` as
``piles=[army_pile, fighting_pile]``, top card first and used as they are (no shuffle): the army pile must hold
exactly the 16 court cards and the fighting pile exactly the 36 number cards.

Our choices where the text is silent (the players' rules text ``bot/games/army/rules/army.md`` says the same):

* dealing: the army cards one at a time, seat 0 first (seat 0 gets the 1st, 3rd and 5th card, seat 1 the 2nd,
  4th and 6th), then the fighting cards the same way (seat 0 the 1st, 3rd ... 9th). The other 10 army cards stay
  face down in the army pile for the whole game;
* each round both played cards go to the fighting graveyard, then seat 0 draws back to 5, then seat 1; when the
  fighting pile is empty the whole graveyard (the two cards just played included) is shuffled by the game rng into
  a new pile;
* a winning red card costs the opposing **front** army 1 SP; when it reaches 0 SP it goes to the army graveyard and
  the next army in line comes face up with its full SP; a player with no armies left loses at once (nobody draws);
* ``max_rounds`` (default 300): after that many rounds the player with more stamina left in total (front army's SP
  left plus the full SP of the armies waiting in line) wins; equal totals are a draw. Reason ``capped``. Only then
  are the armies still hidden in line turned face up (in the ``game_over`` event), so everyone can check the count.

``stats.rounds`` counts the rounds fought, ``stats.wars`` the tied rounds among them (Army has no war: a tie just
costs nothing).

Phases: ``arrange`` (both seats secretly send ``{"type": "arrange", "armies": [3 cards, first fights first]}``),
then one ``play`` phase per round (both seats secretly send ``{"type": "play", "card": "7H"}``). The seats act in
any order; the second action of a phase resolves it inside that ``apply`` call.

Match-file moves (:meth:`Army.apply_move`), each applied atomically (both halves are checked first, then seat 0's
action and seat 1's action are applied exactly as ``apply`` would, so the events are the same as in a live game):

* first ``{"armies": [[seat 0's order], [seat 1's order]]}``;
* then one ``{"plays": ["7H", "3C"]}`` per round: seat 0's card, then seat 1's card.

Events (JSON-ready, spectator-visible only):

* ``chosen`` ``{seat, phase}``: a seat has made its secret choice (never which);
* ``armies_set`` ``{armies: [{seat, army, stamina, armies_left}, ...]}``: each side's first army face up;
* ``reveal`` ``{round, cards: [seat 0's, seat 1's], winner, result, damage, damaged_seat, army, stamina}`` with
  ``result`` one of ``tie``, ``attack`` (a red card won: 1 SP), ``defence`` (a black card won: nothing); ``winner``
  is ``None`` on a tie; ``damaged_seat``/``army``/``stamina`` (the SP it has left) are ``None`` without damage;
* ``army_fallen`` ``{seat, army, next, stamina, armies_left}``: ``next`` is the army now face up (``None`` if none);
* ``reshuffle`` ``{cards}``: the fighting graveyard became the new fighting pile;
* ``draw`` ``{seat, cards, hand_size, pile_left}``;
* ``game_over`` ``{winner, reason, detail, front, armies_left}``: reason ``no_armies``, ``capped``, or the reason
  given to :meth:`Army.forfeit` (``forfeit`` by default); ``winner`` is ``None`` for a draw; ``front`` is each seat's
  face-up ``{army, stamina}`` (``None`` before the armies are set or when a seat has none left), ``armies_left`` each
  seat's number of armies: only public facts. When the cap ends the game (and only then) the event also reveals
  ``armies`` (each seat's armies left, ``[{army, stamina}, ...]`` in fighting order: the front one with the SP it has
  left, the others with their full SP) and ``stamina`` (each seat's total, the sum of those SP).

``view(seat)`` keys: ``game``, ``seat``, ``phase`` (``arrange``, ``play`` or ``over``), ``round`` (rounds fought),
``max_rounds``, ``players`` (per seat: ``seat``, ``front`` = ``{army, stamina}`` once both armies are set, else
``None``; ``armies_left``, ``hand_size``, ``chosen`` = has made this phase's secret choice), ``fighting_pile`` and
``army_pile`` (counts), ``fighting_graveyard`` and ``army_graveyard`` (top first), ``outcome``; and for a seat
``you`` = ``{hand, armies: [{army, stamina}, ...] in fighting order, arranged, chosen}`` (the card chosen this round
or ``None``). A chosen card leaves the hand at once and is shown in the graveyard only after the reveal.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from bot.cards import card_label, is_red, parse_card, rank_of, standard_pack
from bot.errors import IllegalAction, InvalidCard, InvalidRules, InvalidState, NotYourTurn
from bot.game import Action, Event, Game, GameStats, Option, Outcome, rng_from_json
from bot.i18n import N_

STAMINA = {"A": 4, "K": 3, "Q": 2, "J": 1}
HAND_SIZE = 5
ARMIES_EACH = 3
PACK = standard_pack(52)
ARMY_CARDS = tuple(card for card in PACK if rank_of(card) in STAMINA)
FIGHTING_CARDS = tuple(card for card in PACK if rank_of(card) not in STAMINA)
PHASES = ("arrange", "play")


def full_stamina(army: str) -> int:
    """An army card's full stamina points: A 4, K 3, Q 2, J 1."""
    return STAMINA[rank_of(army)]


def fighting_value(card: str) -> int:
    """A fighting card's number, 2-10."""
    return int(rank_of(card))


class Army(Game):
    """Army for two players; see the module docstring for the rules, moves and events."""

    name: ClassVar[str] = "army"
    title: ClassVar[str] = N_("Army")
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "max_rounds",
            300,
            "rounds fought before the game stops; more stamina left in total wins, equal is a draw",
            minimum=1,
            maximum=100_000,
        ),
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2

    def __init__(self, rules: dict[str, Any], seed: int, rng: random.Random) -> None:
        super().__init__(rules, seed, rng)
        self.phase = "arrange"
        self.army_pile: list[str] = []
        self.army_graveyard: list[str] = []
        self.fighting_pile: list[str] = []
        self.fighting_graveyard: list[str] = []
        self.hands: list[list[str]] = [[], []]
        self.armies: list[list[str]] = [[], []]
        self.stamina: list[int] = [0, 0]
        self.arranged: list[bool] = [False, False]
        self.played: list[str | None] = [None, None]

    # --- construction -------------------------------------------------------------------------------
    @classmethod
    def new(cls, rules: Mapping[str, Any] | None = None, seed: int = 0,
            piles: Sequence[Sequence[str]] | None = None) -> Self:
        """A new game. ``piles=[army_pile, fighting_pile]`` (top first) deals those piles as they are."""
        resolved = cls.resolve_rules(rules)
        cls._check_seed(seed)
        rng = random.Random(seed)
        if piles is None:
            army_pile, fighting_pile = list(ARMY_CARDS), list(FIGHTING_CARDS)
            rng.shuffle(army_pile)
            rng.shuffle(fighting_pile)
        else:
            army_pile, fighting_pile = _check_piles(piles)
        game = cls(resolved, seed, rng)
        for index in range(2 * ARMIES_EACH):
            game.armies[index % 2].append(army_pile[index])
        for index in range(2 * HAND_SIZE):
            game.hands[index % 2].append(fighting_pile[index])
        game.army_pile = army_pile[2 * ARMIES_EACH:]
        game.fighting_pile = fighting_pile[2 * HAND_SIZE:]
        game.stamina = [full_stamina(line[0]) for line in game.armies]
        return game

    # --- play ---------------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return 2

    def legal_actions(self, seat: int) -> list[Action]:
        self._check_seat(seat)
        if self.is_over:
            return []
        if self.phase == "arrange":
            if self.arranged[seat]:
                return []
            return [{"type": "arrange", "armies": list(order)} for order in itertools.permutations(self.armies[seat])]
        if self.played[seat] is not None:
            return []
        return [{"type": "play", "card": card} for card in self.hands[seat]]

    def apply(self, seat: int, action: Action) -> list[Event]:
        self._check_not_over()
        self._check_seat(seat)
        value = self._check_action(seat, action)
        if self.phase == "arrange":
            return self._arrange(seat, value)
        return self._play(seat, value)

    def apply_move(self, move: Mapping[str, Any]) -> list[Event]:
        self._check_not_over()
        if not isinstance(move, Mapping) or len(move) != 1 or not {"armies", "plays"} & set(move):
            raise IllegalAction('a move is {"armies": [[...], [...]]} or {"plays": [card, card]}')
        if "armies" in move:
            kind, field, values = "arrange", "armies", move["armies"]
        else:
            kind, field, values = "play", "card", move["plays"]
        if not isinstance(values, list | tuple) or len(values) != 2:
            raise IllegalAction(f"the move needs one entry for each seat, seat 0's first: {dict(move)!r}")
        actions = [{"type": kind, field: value} for value in values]
        for seat, action in enumerate(actions):
            self._check_action(seat, action)
        events = self.apply(0, actions[0])
        return events + self.apply(1, actions[1])

    def forfeit(self, seat: int, reason: str = "forfeit") -> list[Event]:
        self._check_seat(seat)
        events = super().forfeit(seat, reason)
        events[0].update(self._public_end())
        return events

    # --- validation ---------------------------------------------------------------------------------
    def _check_action(self, seat: int, action: Action) -> Any:
        """The action's normalised value (the order or the card); raise a GameError and change nothing."""
        if not isinstance(action, Mapping) or "type" not in action:
            raise IllegalAction('an action is a dict with a "type": "arrange" or "play"')
        kind = action["type"]
        if kind not in ("arrange", "play"):
            raise IllegalAction(f'there is no action {kind!r} in Army; the actions are "arrange" and "play"')
        if kind != self.phase:
            if self.phase == "arrange":
                raise IllegalAction(N_("Set the order of your armies first; the fighting starts when both have."))
            raise IllegalAction(N_("The armies are already set; now play a fighting card."))
        if kind == "arrange":
            if self.arranged[seat]:
                raise NotYourTurn(N_("You have already set your armies; waiting for the other player."))
            return self._check_order(seat, action.get("armies"))
        if self.played[seat] is not None:
            raise NotYourTurn(N_("You have already chosen your card this round; waiting for the other player."))
        if "card" not in action:
            raise IllegalAction('say which card to play: {"type": "play", "card": "7H"}')
        card = parse_card(action["card"])
        if card not in self.hands[seat]:
            raise IllegalAction(N_("{card} is not in your hand."), card=card_label(card))
        return card

    def _check_order(self, seat: int, order: Any) -> list[str]:
        if not isinstance(order, list | tuple) or len(order) != ARMIES_EACH:
            raise IllegalAction(N_("List your 3 army cards in the order they fight, the first first."))
        cards = [parse_card(card) for card in order]
        if sorted(cards) != sorted(self.armies[seat]):
            raise IllegalAction(N_("Your armies are {armies}: list each of them once."),
                                armies=", ".join(card_label(army) for army in self.armies[seat]))
        return cards

    # --- resolution ---------------------------------------------------------------------------------
    def _arrange(self, seat: int, order: list[str]) -> list[Event]:
        self.armies[seat] = order
        self.stamina[seat] = full_stamina(order[0])
        self.arranged[seat] = True
        events: list[Event] = [{"type": "chosen", "seat": seat, "phase": "arrange"}]
        if all(self.arranged):
            self.phase = "play"
            events.append({
                "type": "armies_set",
                "armies": [
                    {"seat": s, "army": self.armies[s][0], "stamina": self.stamina[s],
                     "armies_left": len(self.armies[s])}
                    for s in range(2)
                ],
            })
        return events

    def _play(self, seat: int, card: str) -> list[Event]:
        self.hands[seat].remove(card)
        self.played[seat] = card
        events: list[Event] = [{"type": "chosen", "seat": seat, "phase": "play"}]
        if all(card is not None for card in self.played):
            events += self._resolve_round()
        return events

    def _resolve_round(self) -> list[Event]:
        cards: list[str] = [card for card in self.played if card is not None]
        self.played = [None, None]
        self.stats.rounds += 1
        values = [fighting_value(card) for card in cards]
        reveal: Event = {"type": "reveal", "round": self.stats.rounds, "cards": list(cards), "winner": None,
                         "result": "tie", "damage": 0, "damaged_seat": None, "army": None, "stamina": None}
        events = [reveal]
        target = None
        if values[0] == values[1]:
            self.stats.wars += 1
        else:
            winner = 0 if values[0] > values[1] else 1
            reveal["winner"] = winner
            if is_red(cards[winner]):
                target = 1 - winner
                self.stamina[target] -= 1
                reveal.update(result="attack", damage=1, damaged_seat=target,
                              army=self.armies[target][0], stamina=self.stamina[target])
            else:
                reveal["result"] = "defence"
        self.fighting_graveyard[:0] = reversed(cards)  # seat 1's card ends on top
        if target is not None and self.stamina[target] == 0:
            events.append(self._army_falls(target))
            if not self.armies[target]:
                self.outcome = Outcome(1 - target, "no_armies", f"seat {target} has no armies left")
                events.append(self._game_over(reveal=False))
                return events
        for seat in range(2):
            events += self._draw(seat)
        if self.stats.rounds >= self.rules["max_rounds"]:
            totals = self._totals()
            winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
            self.outcome = Outcome(winner, "capped", f"{self.stats.rounds} rounds fought; stamina left "
                                                     f"{totals[0]} (seat 0) against {totals[1]} (seat 1)")
            events.append(self._game_over(reveal=True))
        return events

    def _army_falls(self, seat: int) -> Event:
        fallen = self.armies[seat].pop(0)
        self.army_graveyard.insert(0, fallen)
        following = self.armies[seat][0] if self.armies[seat] else None
        self.stamina[seat] = full_stamina(following) if following else 0
        return {"type": "army_fallen", "seat": seat, "army": fallen, "next": following,
                "stamina": self.stamina[seat] if following else None, "armies_left": len(self.armies[seat])}

    def _draw(self, seat: int) -> list[Event]:
        events: list[Event] = []
        drawn = 0
        while len(self.hands[seat]) < HAND_SIZE:
            if not self.fighting_pile:
                self.fighting_pile = self.fighting_graveyard
                self.fighting_graveyard = []
                self.rng.shuffle(self.fighting_pile)
                events.append({"type": "reshuffle", "cards": len(self.fighting_pile)})
            self.hands[seat].append(self.fighting_pile.pop(0))
            drawn += 1
        if drawn:
            events.append({"type": "draw", "seat": seat, "cards": drawn, "hand_size": len(self.hands[seat]),
                           "pile_left": len(self.fighting_pile)})
        return events

    def _game_over(self, reveal: bool) -> Event:
        """The end: public facts only, unless ``reveal`` (the round cap decided): then every army left, face up."""
        assert self.outcome is not None
        event: Event = {"type": "game_over", **self.outcome.to_json(), **self._public_end()}
        if reveal:
            event["armies"] = [self._line(s) for s in range(2)]
            event["stamina"] = self._totals()
        return event

    def _public_end(self) -> dict[str, Any]:
        """What everyone already knows at the end: each face-up army with its SP, and how many armies are left."""
        fronts = [{"army": line[0], "stamina": self.stamina[s]} if self.phase == "play" and line else None
                  for s, line in enumerate(self.armies)]
        return {"front": fronts, "armies_left": [len(line) for line in self.armies]}

    def _line(self, seat: int) -> list[dict[str, Any]]:
        """A seat's armies in fighting order with their SP: the front one's SP left, the others' full SP."""
        return [{"army": army, "stamina": self.stamina[seat] if i == 0 else full_stamina(army)}
                for i, army in enumerate(self.armies[seat])]

    def _totals(self) -> list[int]:
        """Each seat's stamina left: the front army's SP left plus the full SP of the armies behind it."""
        return [sum(army["stamina"] for army in self._line(s)) for s in range(2)]

    # --- what players see ---------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """Own hand, armies and chosen card; everyone's face-up army, counts, graveyards. Nothing hidden."""
        if seat is not None:
            self._check_seat(seat)
        revealed = self.phase == "play"
        players = []
        for s in range(2):
            front = None
            if revealed and self.armies[s]:
                front = {"army": self.armies[s][0], "stamina": self.stamina[s]}
            chosen = self.arranged[s] if self.phase == "arrange" else self.played[s] is not None
            players.append({"seat": s, "front": front, "armies_left": len(self.armies[s]),
                            "hand_size": len(self.hands[s]), "chosen": chosen})
        result: dict[str, Any] = {
            "game": self.name,
            "seat": seat,
            "phase": "over" if self.is_over else self.phase,
            "round": self.stats.rounds,
            "max_rounds": self.rules["max_rounds"],
            "players": players,
            "fighting_pile": len(self.fighting_pile),
            "army_pile": len(self.army_pile),
            "fighting_graveyard": list(self.fighting_graveyard),
            "army_graveyard": list(self.army_graveyard),
            "outcome": self.outcome.to_json() if self.outcome else None,
        }
        if seat is not None:
            result["you"] = {
                "hand": list(self.hands[seat]),
                "armies": self._line(seat),
                "arranged": self.arranged[seat],
                "chosen": self.played[seat],
            }
        return result

    def hidden_from(self, seat: int | None) -> Counter[str]:
        """Both piles, from everyone; and from anyone but their owner: a hand, a card chosen this round and the
        armies not face up (all three while they are being arranged, then all but the front one). When the round
        cap ended the game, every army left was shown (in ``game_over``)."""
        if seat is not None:
            self._check_seat(seat)
        hidden = Counter(self.fighting_pile) + Counter(self.army_pile)
        all_shown = self.outcome is not None and self.outcome.reason == "capped"
        for other in range(2):
            if other == seat:
                continue
            hidden.update(self.hands[other])
            if self.played[other] is not None:
                hidden[self.played[other]] += 1
            line = self.armies[other]
            face_up = len(line) if all_shown else 1 if self.phase == "play" else 0
            hidden.update(line[face_up:])
        return hidden

    def draw_piles(self) -> list[list[str]]:
        """Army has no draw pile per seat: both players draw from shared piles. This returns those shared piles,
        ``[fighting pile, army pile]``, top card first (the army pile holds the 10 army cards nobody was dealt)."""
        return [list(self.fighting_pile), list(self.army_pile)]

    def card_locations(self) -> dict[str, list[str]]:
        locations = {
            "army_pile": list(self.army_pile),
            "army_graveyard": list(self.army_graveyard),
            "fighting_pile": list(self.fighting_pile),
            "fighting_graveyard": list(self.fighting_graveyard),
        }
        for s in range(2):
            locations[f"hand_{s}"] = list(self.hands[s])
            locations[f"armies_{s}"] = list(self.armies[s])
            locations[f"played_{s}"] = [self.played[s]] if self.played[s] is not None else []
        return locations

    # --- persistence --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            **self._saved_head(),
            "phase": self.phase,
            "army_pile": list(self.army_pile),
            "army_graveyard": list(self.army_graveyard),
            "fighting_pile": list(self.fighting_pile),
            "fighting_graveyard": list(self.fighting_graveyard),
            "hands": [list(hand) for hand in self.hands],
            "armies": [list(line) for line in self.armies],
            "stamina": list(self.stamina),
            "arranged": list(self.arranged),
            "played": list(self.played),
            "stats": self.stats.to_json(),
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    @classmethod
    def _damaged(cls, error: Exception) -> str:
        return f"this saved Army game is damaged: {error}"

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> Self:
        def fail(message: str) -> InvalidState:
            return InvalidState(f"this saved Army game is damaged: {message}")

        if not isinstance(data, Mapping) or data.get("game") != cls.name:
            raise fail("it is not an Army game")
        try:
            rules = cls.resolve_rules(data["rules"])
        except InvalidRules as error:
            raise fail(str(error)) from None
        seed = data["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise fail("the seed is not a whole number")
        game = cls(rules, seed, rng_from_json(data["rng"]))
        game.phase = data["phase"]
        if game.phase not in PHASES:
            raise fail(f"there is no phase {game.phase!r}")
        game.army_pile = _cards(data["army_pile"])
        game.army_graveyard = _cards(data["army_graveyard"])
        game.fighting_pile = _cards(data["fighting_pile"])
        game.fighting_graveyard = _cards(data["fighting_graveyard"])
        game.hands = _pair(data["hands"], _cards)
        game.armies = _pair(data["armies"], _cards)
        game.stamina = _pair(data["stamina"], _whole)
        game.arranged = _pair(data["arranged"], _flag)
        game.played = _pair(data["played"], lambda card: None if card is None else parse_card(card))
        stats = data["stats"]
        game.stats = GameStats(_whole(stats["rounds"]), _whole(stats["wars"]))
        outcome = data["outcome"]
        if outcome is not None:
            game.outcome = Outcome.from_json(outcome)
            winner, reason = game.outcome.winner, game.outcome.reason
            if not (winner is None or (type(winner) is int and winner in (0, 1))) or not isinstance(reason, str) \
                    or not reason:
                raise fail("the outcome is not one this game can have")
        game._check_consistent(fail)
        return game

    def _check_consistent(self, fail: Any) -> None:
        places = self.card_locations()
        if Counter(card for cards in places.values() for card in cards) != Counter(PACK):
            raise fail("the cards are not exactly one 52-card pack")
        army_places = ("army_pile", "army_graveyard", "armies_0", "armies_1")
        for place, cards in places.items():
            wanted = ARMY_CARDS if place in army_places else FIGHTING_CARDS
            if any(card not in wanted for card in cards):
                raise fail(f"{place} holds a card that does not belong there")
        if len(self.army_pile) != len(ARMY_CARDS) - 2 * ARMIES_EACH:
            raise fail("the army pile does not hold the 10 army cards nobody was dealt")
        if self.stats.wars > self.stats.rounds or self.stats.rounds > self.rules["max_rounds"]:
            raise fail("the round counters are impossible")
        if not self.is_over and self.stats.rounds >= self.rules["max_rounds"]:
            raise fail("the last round allowed was fought but the game goes on")
        if all(card is not None for card in self.played):
            raise fail("both cards of the round are chosen but the round was not fought")
        for s in range(2):
            line = self.armies[s]
            if len(self.hands[s]) + (self.played[s] is not None) > HAND_SIZE:
                raise fail(f"seat {s} holds more than {HAND_SIZE} fighting cards")
            if not self.is_over and len(self.hands[s]) + (self.played[s] is not None) != HAND_SIZE:
                raise fail(f"seat {s} does not hold {HAND_SIZE} fighting cards")
            if line and not 1 <= self.stamina[s] <= full_stamina(line[0]):
                raise fail(f"seat {s}'s front army has impossible stamina")
            if not line and (self.stamina[s] != 0 or not self.is_over):
                raise fail(f"seat {s} has no armies but the game goes on")
        if self.phase == "arrange":
            if all(self.arranged):
                raise fail("both armies are set but the fighting has not started")
            if any(len(line) != ARMIES_EACH for line in self.armies):
                raise fail("each seat must hold 3 armies before they are set")
            if self.stats.rounds or self.army_graveyard or any(self.played) or any(
                    self.stamina[s] != full_stamina(self.armies[s][0]) for s in range(2)):
                raise fail("the armies are not set yet but the fighting has started")
        elif not all(self.arranged):
            raise fail("the fighting has started before both armies were set")
        fallen = [ARMIES_EACH - len(line) for line in self.armies]
        if len(self.army_graveyard) != sum(fallen):
            raise fail("the army graveyard does not match the armies lost")


def _check_piles(piles: Sequence[Sequence[str]]) -> tuple[list[str], list[str]]:
    """Explicit starting piles ``[army_pile, fighting_pile]``: the 16 court cards and the 36 number cards."""
    try:
        if isinstance(piles, str) or len(piles) != 2 or any(isinstance(pile, str) for pile in piles):
            raise InvalidState("Army takes two piles: [army pile, fighting pile], top card first")
        army_pile, fighting_pile = (_cards(pile) for pile in piles)
    except (InvalidCard, TypeError) as error:
        raise InvalidState(f"the starting piles are not cards: {error}") from None
    if sorted(army_pile) != sorted(ARMY_CARDS):
        raise InvalidState("the army pile must hold exactly the 16 aces, kings, queens and jacks")
    if sorted(fighting_pile) != sorted(FIGHTING_CARDS):
        raise InvalidState("the fighting pile must hold exactly the 36 number cards 2-10")
    return army_pile, fighting_pile


def _cards(items: Any) -> list[str]:
    if not isinstance(items, list | tuple):
        raise InvalidState(f"expected a list of cards, not {items!r}")
    return [parse_card(item) for item in items]


def _pair(items: Any, convert: Any) -> list[Any]:
    if not isinstance(items, list | tuple) or len(items) != 2:
        raise InvalidState(f"expected one entry for each of the 2 seats, not {items!r}")
    return [convert(item) for item in items]


def _whole(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidState(f"expected a whole number, not {value!r}")
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise InvalidState(f"expected true or false, not {value!r}")
    return value
