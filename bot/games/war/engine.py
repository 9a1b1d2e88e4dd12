"""War, and its Drunkard (P'yanitsa) and Tod und Leben presets.

Play: every player still in the game flips the top card of their stock; the highest card takes the pot. A tie
for highest starts a war among the tied players (or everyone, ``war_joins: all``): each lays ``face_down``
cards face down and one face up, and the highest new face-up card takes everything on the table; ties chain.
Won cards go to the bottom of the winner's stock (or to a capture pile that becomes a new stock once shuffled).

Choices made where the sources are silent or disagree (also in ``bot/games/war/rules/war.md`` for players):

* A **round** is one battle, the whole war (chained wars included) is part of the same round.
* ``stats.wars`` counts every war actually fought (cards laid), so a chain of three ties counts 3;
  ``stats.longest_chain`` is the most wars in one round and ``stats.biggest_pot`` the most cards on the table
  in a round with a tie (the "longest war"; 0 until the first tie). All four are in ``stats.to_json()``.
* A player who must join a war with no card at all loses it and is out; under ``short: lose`` a player who
  cannot lay the whole war is out at once and the cards they still hold go into the pot face down. If only one
  player is left in the war they take the pot without laying more; if nobody is left, the pot is set aside.
* Război: a war is as many cards as the tied card's value (2-10 as numbered, J Q K 10, A 11 even when aces are
  low, jokers 11), the last face up; with ``short: play_out`` everyone lays as many as the one with fewest,
  with ``short: lose`` whoever cannot lay the whole war loses.
* ``six_beats_ace``: in a flip where a 6 and an ace face each other on the table, aces count lowest.
* ``joker_each``: the jokers are taken out, the rest is dealt, and the jokers are shared out evenly, each
  buried at a random place in its pile; refused unless the jokers divide evenly (2 players, or 4 with 2 decks).
* Returned cards: the first card of the chosen order comes back up first. ``random`` uses the game's rng: two
  cards keep the order laid when ``rng.random() < 0.5``, else swap; 3-12 cards take one of the n! orders picked
  by one ``rng.random()`` (bias under 1e-6); bigger pots ``rng.shuffle``.
* Explicit ``piles`` replace the deal (no remainder, ``joker_each`` and the Tod und Leben colours are not
  applied); their cards must come from the pack the rules describe.
* Game over reasons: ``all_cards`` (2 players: one holds every card), ``last_standing`` (3-4 players),
  ``short_war`` (the last opponent went out unable to fight a war), ``target``, ``capped``, ``cycle``
  (a deterministic return order came back to a position already seen at a round start: a draw), ``all_out``,
  and ``forfeit`` (or the reason given to ``forfeit``: every other player gave up).
* ``forfeit(seat)``: the seat is out at once and every card it holds (stock, capture pile, a card it flipped
  this round) is set aside; see :meth:`War.forfeit`.

Events (JSON-ready, spectator facts only; face-down cards are never named, only counted; ``cards`` lists are
per seat with ``None`` for a seat not laying):

* ``flip`` {round, seat, card}: one seat flipped through ``apply`` (the round resolves on the last flip);
* ``reshuffle`` {round, seat, cards}: a capture pile of ``cards`` cards became the seat's new stock;
* ``battle`` {round, cards, winner, tied}: the flip; ``winner`` None and ``tied`` the seats on a tie;
* ``war`` {round, war, seats, face_down, cards, winner, tied}: war number ``war`` of the round, ``face_down``
  the count each seat laid face down, ``cards`` the new face-up cards;
* ``out`` {round, seat, reason, forfeit}: reason ``no_cards`` or ``short_war``; ``forfeit`` cards went to the pot;
  a seat that gave up has the reason given to ``forfeit`` (``forfeit`` by default), ``forfeit`` 0 and
  ``aside``, the number of its cards set aside;
* ``take`` {round, seat, cards, face_down, to, counts}: the pot (``face_down`` of them unseen) went to
  ``to`` "pile" or "capture"; ``counts`` each seat's cards afterwards;
* ``pot_aside`` {round, cards}: nobody was left in the war;
* ``game_over`` {round, winner, reason, detail}.

``view(seat)`` is the same for every seat (War piles are face down, even your own): counts of every pile, the
flipped cards waiting on the table, who still has to flip, the last round's events, stats, outcome and rules.
"""

from __future__ import annotations

import copy
import hashlib
import random
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Any, ClassVar, Self

from bot.cards import JOKERS, STANDARD_RANKS, SUITS, is_red, parse_card, standard_pack, strength_table
from bot.errors import GameError, IllegalAction, InvalidRules, InvalidState, NotYourTurn
from bot.game import Action, Event, Game, GameStats, Option, Outcome, rng_from_json
from bot.i18n import N_

STATE_VERSION = 1

_ALL_CARDS = [rank + suit for suit in SUITS for rank in STANDARD_RANKS] + list(JOKERS)
#: Card -> one byte, to fingerprint positions for the repeated-position draw.
_CODE = {card: index + 1 for index, card in enumerate(_ALL_CARDS)}
#: Card -> strength, aces high (True) or low (False); plain dicts for fast look-ups (never changed).
_STRENGTH = {high: dict(strength_table(aces_high=high)) for high in (True, False)}
_SIXES = frozenset("6" + suit for suit in SUITS)
_ACES = frozenset("A" + suit for suit in SUITS)
_RAZBOI_VALUE = {
    card: 11 if card in JOKERS else {"J": 10, "Q": 10, "K": 10, "A": 11}.get(card[:-1]) or int(card[:-1])
    for card in _ALL_CARDS
}

_FACTORIALS = [1]
for _size in range(1, 13):
    _FACTORIALS.append(_FACTORIALS[-1] * _size)


def _six_beats_ace(first: str, second: str, first_strength: int, second_strength: int) -> tuple[int, int]:
    """Two faces' strengths under the ``six`` rule: an ace met by a six is worth nothing."""
    if first in _ACES and second in _SIXES:
        return 0, second_strength
    if second in _ACES and first in _SIXES:
        return first_strength, 0
    return first_strength, second_strength


def _permutation(size: int, number: int) -> tuple[int, ...]:
    """Permutation ``number`` (0 <= number < size!) of ``range(size)``: Fisher-Yates with ``number``'s digits."""
    order = list(range(size))
    for i in range(size - 1, 0, -1):
        number, j = divmod(number, i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


#: Small pots are reordered by a precomputed getter for each permutation (the same permutations as above).
_REORDER = {size: [itemgetter(*_permutation(size, k)) for k in range(_FACTORIALS[size])] for size in range(3, 7)}

RANDOM, WINNER_FIRST, LOSER_FIRST, PLAYED, REVERSED = range(5)
_ORDER_CODES = {
    "random": RANDOM,
    "winner_first": WINNER_FIRST,
    "loser_first": LOSER_FIRST,
    "played": PLAYED,
    "reversed": REVERSED,
}

WAR_OPTIONS: tuple[Option, ...] = (
    Option("players", 2, N_("number of players; the pack is dealt evenly and the remainder set aside"), minimum=2,
           maximum=4),
    Option(
        "face_down",
        1,
        N_("cards laid face down in a war before the face-up card; razboi: as many cards as the "
        "tied card's value (J Q K 10, A and jokers 11), the last face up"),
        choices=(1, 3, 0, "razboi"),
    ),
    Option(
        "short",
        "play_out",
        N_("running out in a war: play_out lays what you have (your last card face up), lose loses at once"),
        choices=("play_out", "lose"),
    ),
    Option(
        "war_joins",
        "tied",
        N_("with 3-4 players: tied (only the tied players fight the war) or all (everyone)"),
        choices=("tied", "all"),
    ),
    Option(
        "return_order",
        "random",
        N_("order won cards go under the stock: random, winner_first, loser_first, "
        "played (as laid, seat by seat), reversed"),
        choices=("random", "winner_first", "loser_first", "played", "reversed"),
    ),
    Option("capture_pile", False,
           N_("won cards go to a capture pile, shuffled into a new stock when the stock runs out")),
    Option("jokers", 0, N_("jokers in each deck (above the ace)"), choices=(0, 2)),
    Option("joker_each", False, N_("bury one joker at a random place in each player's pile (2 players)")),
    Option("aces", "high", N_("aces high or low"), choices=("high", "low")),
    Option("decks", 1, N_("decks shuffled together (identical cards tie)"), choices=(1, 2)),
    Option("pack", 52, N_("52 cards, 36 (6 to A) or 32 (7 to A)"), choices=(52, 36, 32)),
    Option("six_beats_ace", False, N_("a 6 beats an ace (an ace facing a 6 on the table counts lowest)")),
    Option("target", None, N_("first to hold this many cards wins (none: play for all the cards)"), minimum=1),
    Option("max_rounds", 1_000, N_("after this many rounds the most cards wins (equal: a draw)"), minimum=1,
           maximum=1_000_000),
    Option("double", False, N_("Double War: the top card of each round's winnings stands in the centre as a prize; "
                                "the next round's winner takes it too")),
)


def _with_defaults(options: tuple[Option, ...], **changes: dict[str, Any]) -> tuple[Option, ...]:
    """The options with some fields replaced, e.g. ``pack={"default": 36}``."""
    return tuple(replace(option, **changes[option.key]) if option.key in changes else option for option in options)


@dataclass
class WarStats(GameStats):
    """``rounds`` (a whole war is one round), ``wars`` (every war fought, chained ones each counted),
    ``longest_chain`` (most wars in one round) and ``biggest_pot`` (most cards on the table in one round with a
    tie: the longest war so far, 0 before the first war)."""

    longest_chain: int = 0
    biggest_pot: int = 0

    def to_json(self) -> dict[str, int]:
        return {
            "rounds": self.rounds,
            "wars": self.wars,
            "longest_chain": self.longest_chain,
            "biggest_pot": self.biggest_pot,
        }


class War(Game):
    """War for 2-4 players. Actions: ``{"type": "flip"}`` for every seat still in, once per round; the round
    resolves when the last one flips. ``play_round`` / ``play_out`` flip for everyone."""

    name: ClassVar[str] = "war"
    title: ClassVar[str] = N_("War")
    options: ClassVar[tuple[Option, ...]] = WAR_OPTIONS
    automatic: ClassVar[bool] = True
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    #: The two-player inner loop; tests switch it off to check it agrees with the general round.
    fast_path: ClassVar[bool] = True

    # --- construction -------------------------------------------------------------------------------
    @classmethod
    def new(
        cls, rules: Mapping[str, Any] | None = None, seed: int = 0, piles: Sequence[Sequence[str]] | None = None
    ) -> Self:
        given = dict(rules or {})
        if piles is not None:
            if (
                isinstance(piles, str | bytes)
                or not isinstance(piles, Sequence)
                or any(isinstance(pile, str | bytes) or not isinstance(pile, Sequence) for pile in piles)
            ):
                raise InvalidState("piles must be a list of card lists, one per player, top card first")
            if not cls.min_players <= len(piles) <= cls.max_players:
                raise InvalidState(
                    f"{len(piles)} piles given, but {cls.title} is for {cls.min_players} to {cls.max_players} players"
                )
            given.setdefault("players", len(piles))
        resolved = cls.resolve_rules(given)
        cls._check_rules(resolved)
        cls._check_seed(seed)
        game = cls.__new__(cls)
        game._configure(resolved, seed, random.Random(seed))
        if piles is None:
            dealt, aside = game._deal()
        else:
            if len(piles) != resolved["players"]:
                raise InvalidState(f"{len(piles)} piles given for {resolved['players']} players")
            dealt = [game._parse_pile(pile, f"pile {seat}") for seat, pile in enumerate(piles)]
            aside = []
            cls._check_pack(resolved, [card for pile in dealt for card in pile], InvalidState)
            if sum(1 for pile in dealt if pile) < 2:
                raise InvalidState("at least two players must start with cards")
        total = sum(len(pile) for pile in dealt)
        target = resolved["target"]
        if target is not None:
            most = max(len(pile) for pile in dealt)
            if not most < target <= total:
                raise InvalidRules(
                    N_("rule 'target' must be more than the {most} cards a player starts with and at most the "
                       "{total} cards in play, not {target}"),
                    most=most, total=total, target=target,
                )
        game._piles = [deque(pile) for pile in dealt]
        game._caps = [[] for _ in dealt]
        game._aside = list(aside)
        game._table = [None] * len(dealt)
        game._in = [bool(pile) for pile in dealt]
        game._total = total + len(aside)
        game.stats = WarStats()
        game.outcome = None
        game._seen = set()
        game._last = []
        game._prize = None
        game._prize_owner = None
        if game._cycle:
            game._seen.add(game._position())
        return game

    @classmethod
    def _check_rules(cls, rules: dict[str, Any]) -> None:
        """Refuse rule combinations that cannot be played, with a message for players."""
        if rules["joker_each"]:
            if rules["jokers"] != 2:
                raise InvalidRules(N_("rule 'joker_each' needs jokers: 2"))
            jokers = 2 * rules["decks"]
            if jokers % rules["players"]:
                raise InvalidRules(
                    N_("rule 'joker_each' shares the jokers out evenly, and {jokers} jokers cannot go evenly to "
                       "{players} players: play with 2 players (or 4 players and 2 decks), or turn joker_each off"),
                    jokers=jokers, players=rules["players"],
                )
        if rules["six_beats_ace"] and rules["pack"] == 32:
            raise InvalidRules(N_("rule 'six_beats_ace' needs sixes: use the 52- or 36-card pack"))

    @classmethod
    def _check_pack(cls, rules: dict[str, Any], cards: list[str], error: type[GameError]) -> None:
        """Every card must come from the pack the rules describe, no more copies than it holds."""
        allowed: dict[str, int] = {}
        for card in standard_pack(rules["pack"], jokers=rules["jokers"], decks=rules["decks"]):
            allowed[card] = allowed.get(card, 0) + 1
        seen: dict[str, int] = {}
        for card in cards:
            seen[card] = seen.get(card, 0) + 1
            if card not in allowed:
                raise error(f"{card} is not in the {rules['pack']}-card pack with {rules['jokers']} jokers")
            if seen[card] > allowed[card]:
                raise error(f"{card} appears {seen[card]} times but the pack has {allowed[card]}")

    @staticmethod
    def _parse_pile(pile: Sequence[str], where: str) -> list[str]:
        try:
            return [parse_card(card) for card in pile]
        except GameError as error:
            raise InvalidState(f"{where}: {error}") from None

    def _configure(self, rules: dict[str, Any], seed: int, rng: random.Random) -> None:
        """Rules and the tables derived from them (nothing here changes during play)."""
        self.rules = rules
        self.seed = seed
        self.rng = rng
        self._n = rules["players"]
        self._strength = _STRENGTH[rules["aces"] == "high"]
        self._order = _ORDER_CODES[rules["return_order"]]
        self._capture = rules["capture_pile"]
        self._six = rules["six_beats_ace"]
        self._razboi = rules["face_down"] == "razboi"
        self._war_size = 0 if self._razboi else rules["face_down"] + 1
        self._short_lose = rules["short"] == "lose"
        self._all_join = rules["war_joins"] == "all"
        self._cycle = self._order != RANDOM and not self._capture
        self._double = rules["double"]

    def _deal(self) -> tuple[list[list[str]], list[str]]:
        """Shuffle the pack and deal it evenly, one card at a time; the remainder is set aside."""
        rules, rng, n = self.rules, self.rng, self._n
        pack = standard_pack(rules["pack"], jokers=rules["jokers"], decks=rules["decks"])
        jokers = [card for card in pack if card in JOKERS] if rules["joker_each"] else []
        rest = [card for card in pack if card not in JOKERS] if jokers else pack
        rng.shuffle(rest)
        each = len(rest) // n
        piles = [rest[seat : n * each : n] for seat in range(n)]
        for index, joker in enumerate(jokers):
            pile = piles[index % n]
            pile.insert(rng.randrange(len(pile) + 1), joker)
        return piles, rest[n * each :]

    # --- play ---------------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self._n

    def legal_actions(self, seat: int) -> list[Action]:
        self._check_seat(seat)
        if self.outcome is None and self._in[seat] and self._table[seat] is None:
            return [{"type": "flip"}]
        return []

    def apply(self, seat: int, action: Action) -> list[Event]:
        self._check_not_over()
        self._check_seat(seat)
        if not isinstance(action, Mapping) or action.get("type") != "flip" or len(action) != 1:
            raise IllegalAction('the only action in War is {"type": "flip"}')
        if not self._in[seat]:
            raise NotYourTurn(f"seat {seat} is out of the game")
        if self._table[seat] is not None:
            raise NotYourTurn(f"seat {seat} has flipped already; waiting for the others")
        rnd = self.stats.rounds + 1
        events: list[Event] = []
        card = self._draw(seat, rnd, events)
        self._table[seat] = card
        events.append({"type": "flip", "round": rnd, "seat": seat, "card": card})
        if all(card is not None for seat, card in enumerate(self._table) if self._in[seat]):
            self._round_from_table(True, events)
            self._check_cap(True, events)
        return events

    def forfeit(self, seat: int, reason: str = "forfeit") -> list[Event]:
        """The seat gives up (or a timer gives up for it); the events.

        Refused with a typed error, changing nothing, when the game is over (:class:`GameOver`), there is no
        such seat or ``reason`` is not a non-empty string (:class:`IllegalAction`), or the seat is out already
        (:class:`NotYourTurn`). Otherwise the seat is out: its stock, its capture pile and the card it flipped
        this round, if any, are set aside (no card is created or lost), and an ``out`` event with ``reason``
        and ``aside`` (that many cards) is emitted. Then:

        * one player left: they win, the outcome reason is ``reason``; a card they had flipped this round goes
          back on top of their stock, so the table is empty at the end;
        * two or more left: the game goes on. Flips already made this round stand; if every remaining seat has
          flipped (the forfeiting seat was the last one to flip), the round is resolved now among them, so
          nobody waits for a flip that cannot come. At a round start under a deterministic return order the
          new position counts as seen for the ``cycle`` draw.

        The ``target`` is not lowered: the set-aside cards leave play, so it may become unreachable (more
        than the cards still held). The game then ends by the other rules: last standing (or ``all_out``,
        ``short_war``), ``cycle`` or the ``max_rounds`` cap. No randomness is used unless a round is resolved,
        and that uses the game's rng as ``apply`` would.
        """
        self._check_not_over()
        self._check_seat(seat)
        if not isinstance(reason, str) or not reason:
            raise IllegalAction(f"the reason for a forfeit must be a non-empty string, not {reason!r}")
        if not self._in[seat]:
            raise NotYourTurn(f"seat {seat} is out of the game already")
        rnd = self.stats.rounds + 1
        piles, caps, table = self._piles, self._caps, self._table
        gone = ([] if table[seat] is None else [table[seat]]) + list(piles[seat]) + caps[seat]
        if self._prize is not None and self._prize_owner == seat:  # their Double War prize leaves with them
            gone.append(self._prize)
            self._prize = self._prize_owner = None
        table[seat] = None
        piles[seat].clear()
        caps[seat].clear()
        self._in[seat] = False
        self._aside.extend(gone)
        events: list[Event] = [
            {"type": "out", "round": rnd, "seat": seat, "reason": reason, "forfeit": 0, "aside": len(gone)}
        ]
        left = [other for other in range(self._n) if self._in[other]]
        if len(left) == 1:
            winner = left[0]
            if table[winner] is not None:
                piles[winner].appendleft(table[winner])
                table[winner] = None
            self._finish(winner, reason, f"seat {seat} forfeited: seat {winner} is the last player in", rnd, events)
        elif all(table[other] is not None for other in left):
            self._round_from_table(True, events)
            self._check_cap(True, events)
        elif self._cycle and all(card is None for card in table):
            self._seen.add(self._position())
        self._last = list(events)
        return events

    def apply_move(self, move: Mapping[str, Any]) -> list[Event]:
        raise IllegalAction("war takes no moves: every round is played by flipping (play_out)")

    def play_round(self) -> list[Event]:
        """Flip for everyone still to flip and resolve one round; its events."""
        self._check_not_over()
        return self.play_out(1, True)

    def play_out(self, max_steps: int | None = None, record: bool = True) -> list[Event]:
        """Play rounds to the end, or ``max_steps`` rounds. ``record=False`` builds no events."""
        if self.outcome is not None:
            return []
        if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 0):
            raise IllegalAction(f"max_steps must be a whole number of rounds, not {max_steps!r}")
        out: list[Event] | None = [] if record else None
        stop = self.rules["max_rounds"]
        if max_steps is not None:
            stop = min(stop, self.stats.rounds + max_steps)
        if self.stats.rounds < stop and any(card is not None for card in self._table):
            self._round_from_table(record, out)
        if self._n == 2 and self.fast_path and not self._double:  # (the prize is settled by the general round)
            self._run_two(stop, record, out)
        else:
            while self.outcome is None and self.stats.rounds < stop:
                self._round(None, record, out)
        self._check_cap(record, out)
        if out is None:
            self._last = []
            return []
        return out

    # --- the rounds ---------------------------------------------------------------------------------
    def _run_two(self, stop: int, record: bool, out: list[Event] | None) -> None:
        """Two players: plain battles inline (the hot loop), anything else through ``_round``."""
        stats = self.stats
        rounds = stats.rounds
        a, b = self._piles
        cap_a, cap_b = self._caps
        to_a, to_b = (cap_a, cap_b) if self._capture else (a, b)
        strength = self._strength
        order = self._order
        randomly = order == RANDOM
        # a plain round's two cards go to its winner, seat 0's card (x) first where the order puts it first
        a_first_if_a_wins = order in (PLAYED, WINNER_FIRST)
        a_first_if_b_wins = order in (PLAYED, LOSER_FIRST)
        rand = self.rng.random
        six = self._six
        check = record or self._cycle or self.rules["target"] is not None
        general = self._round
        war_two = self._war_two
        after_plain = self._after_plain
        if self.outcome is not None:
            return
        while rounds < stop:
            if not a or not b:  # a stock to rebuild from the capture pile: the general round does it
                stats.rounds = rounds
                general(None, record, out)
                rounds = stats.rounds
                if self.outcome is not None:
                    break
                continue
            x = a.popleft()
            y = b.popleft()
            sx = strength[x]
            sy = strength[y]
            if six:
                sx, sy = _six_beats_ace(x, y, sx, sy)
            if sx == sy:
                stats.rounds = rounds
                war_two(x, y, record, out)
                rounds = stats.rounds
                if self.outcome is not None:
                    break
                continue
            rounds += 1
            if sx > sy:
                winner, won, x_first, loser, loser_caps = 0, to_a, a_first_if_a_wins, b, cap_b
            else:
                winner, won, x_first, loser, loser_caps = 1, to_b, a_first_if_b_wins, a, cap_a
            if randomly:
                x_first = rand() < 0.5
            if x_first:
                won.append(x)
                won.append(y)
            else:
                won.append(y)
                won.append(x)
            if check or (not loser and not loser_caps):
                stats.rounds = rounds
                after_plain(rounds, [x, y], winner, record, out)
                if self.outcome is not None:
                    break
        stats.rounds = rounds

    def _after_plain(self, rnd: int, cards: list[str], winner: int, record: bool, out: list[Event] | None) -> None:
        """The rest of a two-player round without a war, when needed: events and the end checks."""
        loser = 1 - winner
        finished = not self._piles[loser] and not self._caps[loser]
        events: list[Event] | None = [] if record else None
        if events is not None:
            events.append({"type": "battle", "round": rnd, "cards": cards, "winner": winner, "tied": []})
            events.append(self._take_event(rnd, winner, 2, 0))
        if finished:
            self._in[loser] = False
            if events is not None:
                events.append({"type": "out", "round": rnd, "seat": loser, "reason": "no_cards", "forfeit": 0})
        self._end_checks(rnd, winner, False, events)
        if events is not None and out is not None:
            out.extend(events)
            self._last = events

    def _round_from_table(self, record: bool, out: list[Event] | None) -> None:
        """Finish a round some seats have flipped for already: the others flip now, in seat order."""
        rnd = self.stats.rounds + 1
        events: list[Event] | None = [] if record else None
        first = list(self._table)
        self._table = [None] * self._n
        for seat in range(self._n):
            if self._in[seat] and first[seat] is None:
                first[seat] = self._draw(seat, rnd, events)
        self._round(first, record, out, events)

    def _round(
        self, first: list[str | None] | None, record: bool, out: list[Event] | None, events: list[Event] | None = None
    ) -> None:
        """One whole round for any number of players: the flip, every war, the pot, the drop-outs, the end."""
        n, piles, caps, playing = self._n, self._piles, self._caps, self._in
        stats = self.stats
        rnd = stats.rounds + 1
        if record and events is None:
            events = []
        if first is None:
            first = [self._draw(seat, rnd, events) if playing[seat] else None for seat in range(n)]
        contenders = [seat for seat in range(n) if first[seat] is not None]
        steps: list[list[list[str]]] = [[[card] if card is not None else [] for card in first]]
        faces = first
        best = self._best(faces, contenders)
        tie = len(best) > 1
        face_up = len(contenders)
        if events is not None:
            events.append(
                {
                    "type": "battle",
                    "round": rnd,
                    "cards": list(first),
                    "winner": best[0] if len(best) == 1 else None,
                    "tied": best if len(best) > 1 else [],
                }
            )
        winner: int | None = None
        wars = 0
        short_out = False
        while True:
            if len(best) == 1:
                winner = best[0]
                break
            participants = contenders if self._all_join else best
            size = _RAZBOI_VALUE[faces[best[0]]] if self._razboi else self._war_size
            step: list[list[str]] = [[] for _ in range(n)]
            holding = [len(piles[seat]) + len(caps[seat]) for seat in range(n)]
            remaining = []
            for seat in participants:
                if holding[seat] == 0 or (self._short_lose and holding[seat] < size):
                    forfeit = list(piles[seat]) + caps[seat]
                    piles[seat].clear()
                    caps[seat].clear()
                    step[seat].extend(forfeit)
                    playing[seat] = False
                    short_out = True
                    if events is not None:
                        events.append(
                            {"type": "out", "round": rnd, "seat": seat, "reason": "short_war", "forfeit": len(forfeit)}
                        )
                else:
                    remaining.append(seat)
            if self._razboi and remaining:
                size = min(size, *(holding[seat] for seat in remaining))
            if len(remaining) < 2:
                if any(step):
                    steps.append(step)
                winner = remaining[0] if remaining else None
                break
            wars += 1
            faces = [None] * n
            for seat in remaining:
                laid = step[seat]
                for _ in range(min(size, holding[seat])):
                    laid.append(self._draw(seat, rnd, events))
                faces[seat] = laid[-1]
            steps.append(step)
            face_up += len(remaining)
            contenders = remaining
            best = self._best(faces, contenders)
            if events is not None:
                events.append(
                    {
                        "type": "war",
                        "round": rnd,
                        "war": wars,
                        "seats": list(remaining),
                        "face_down": [len(step[seat]) - 1 if faces[seat] is not None else None for seat in range(n)],
                        "cards": list(faces),
                        "winner": best[0] if len(best) == 1 else None,
                        "tied": best if len(best) > 1 else [],
                    }
                )
        pot = self._order_pot(steps, winner)
        self._settle(rnd, pot, winner, face_up, wars, tie, short_out, events, out)

    def _war_two(self, x: str, y: str, record: bool, out: list[Event] | None) -> None:
        """A two-player round that starts with a tie (the hot path of wars); same rules as ``_round``."""
        a, b = self._piles
        cap_a, cap_b = self._caps
        playing = self._in
        rnd = self.stats.rounds + 1
        events: list[Event] | None = [] if record else None
        if events is not None:
            events.append({"type": "battle", "round": rnd, "cards": [x, y], "winner": None, "tied": [0, 1]})
        strength = self._strength
        razboi, short_lose, six = self._razboi, self._short_lose, self._six
        laid_a = [x]
        laid_b = [y]
        played = [x, y]
        face_a = x
        wars = 0
        face_up = 2
        short_out = False
        winner: int | None
        war_size = self._war_size
        take_a, take_b = a.popleft, b.popleft
        while True:
            size = _RAZBOI_VALUE[face_a] if razboi else war_size
            hold_a = len(a) + len(cap_a)
            hold_b = len(b) + len(cap_b)
            out_a = hold_a == 0 or (short_lose and hold_a < size)
            out_b = hold_b == 0 or (short_lose and hold_b < size)
            if out_a or out_b:
                short_out = True
                for seat, out_now, pile, cap, laid in ((0, out_a, a, cap_a, laid_a), (1, out_b, b, cap_b, laid_b)):
                    if out_now:
                        forfeit = list(pile) + cap
                        pile.clear()
                        cap.clear()
                        laid.extend(forfeit)
                        played.extend(forfeit)
                        playing[seat] = False
                        if events is not None:
                            events.append(
                                {
                                    "type": "out",
                                    "round": rnd,
                                    "seat": seat,
                                    "reason": "short_war",
                                    "forfeit": len(forfeit),
                                }
                            )
                winner = None if out_a and out_b else (1 if out_a else 0)
                break
            if razboi:
                size = min(size, hold_a, hold_b)
            wars += 1
            face_up += 2
            start_a = len(laid_a)
            if len(a) >= size:
                for _ in range(size):
                    laid_a.append(take_a())
            else:
                for _ in range(min(size, hold_a)):
                    laid_a.append(self._draw(0, rnd, events))
            start_b = len(laid_b)
            if len(b) >= size:
                for _ in range(size):
                    laid_b.append(take_b())
            else:
                for _ in range(min(size, hold_b)):
                    laid_b.append(self._draw(1, rnd, events))
            played += laid_a[start_a:]
            played += laid_b[start_b:]
            face_a = laid_a[-1]
            face_b = laid_b[-1]
            sa = strength[face_a]
            sb = strength[face_b]
            if six:
                sa, sb = _six_beats_ace(face_a, face_b, sa, sb)
            winner = None if sa == sb else (0 if sa > sb else 1)
            if events is not None:
                events.append(
                    {
                        "type": "war",
                        "round": rnd,
                        "war": wars,
                        "seats": [0, 1],
                        "face_down": [len(laid_a) - start_a - 1, len(laid_b) - start_b - 1],
                        "cards": [face_a, face_b],
                        "winner": winner,
                        "tied": [0, 1] if winner is None else [],
                    }
                )
            if winner is not None:
                break
        order = self._order
        if winner is None or order == PLAYED:
            pot = played
        elif order == RANDOM:
            pot = played
            self._shuffle_pot(pot)
        elif order == REVERSED:
            pot = played[::-1]
        elif (order == WINNER_FIRST) == (winner == 0):
            pot = laid_a + laid_b
        else:
            pot = laid_b + laid_a
        self._settle(rnd, pot, winner, face_up, wars, True, short_out, events, out)

    def _settle(
        self,
        rnd: int,
        pot: list[str],
        winner: int | None,
        face_up: int,
        wars: int,
        tie: bool,
        short_out: bool,
        events: list[Event] | None,
        out: list[Event] | None,
    ) -> None:
        """The end of a round: the pot to the winner (or aside), stats, drop-outs, the end checks."""
        stats = self.stats
        piles, caps, playing = self._piles, self._caps, self._in
        stats.rounds = rnd
        stats.wars += wars
        if wars > stats.longest_chain:
            stats.longest_chain = wars
        if tie and len(pot) > stats.biggest_pot:
            stats.biggest_pot = len(pot)
        if winner is None:
            self._aside.extend(pot)
            if events is not None:
                events.append({"type": "pot_aside", "round": rnd, "cards": len(pot)})
        else:
            face_down = len(pot) - face_up
            taken = self._prize if self._double else None
            self._prize_change(winner, pot)
            (caps[winner] if self._capture else piles[winner]).extend(pot)
            if events is not None:
                prize = {"prize_taken": taken, **self._prize_keys()} if self._double else {}
                events.append({**self._take_event(rnd, winner, len(pot) + bool(prize), face_down), **prize})
        for seat in range(self._n):
            if playing[seat] and not piles[seat] and not caps[seat]:
                playing[seat] = False
                if events is not None:
                    events.append({"type": "out", "round": rnd, "seat": seat, "reason": "no_cards", "forfeit": 0})
        if self._prize_owner is not None and not playing[self._prize_owner]:
            self._prize_owner = None  # a player out of the game loses their prize: it stands for the next winner
        self._end_checks(rnd, winner, short_out, events)
        if events is not None and out is not None:
            out.extend(events)
            self._last = events

    def _prize_change(self, winner: int, pot: list[str]) -> None:
        """Double War: the round's winner takes the standing prize with the pot (its first card), and the top card
        of their winnings (the pot's last card, the one that would land on top) stands in the centre as the next
        prize, theirs until someone else wins a round."""
        if not self._double:
            return
        if self._prize is not None:
            pot.insert(0, self._prize)
        self._prize, self._prize_owner = pot.pop(), winner

    def _prize_keys(self) -> dict[str, Any]:
        return {"prize": self._prize, "prize_seat": self._prize_owner} if self._double else {}

    def _prize_home(self, winner: int | None) -> None:
        """The game is over: the prize goes to the player it belongs to (else to the winner, else aside), so the
        winner of all the cards holds every card."""
        if self._prize is None:
            return
        home = self._prize_owner if self._prize_owner is not None else winner
        if home is None:
            self._aside.append(self._prize)
        else:
            (self._caps if self._capture else self._piles)[home].append(self._prize)
        self._prize = self._prize_owner = None

    def _shuffle_pot(self, pot: list[str]) -> None:
        """Shuffle won cards with the game's rng. Two cards: keep the order when ``random() < 0.5``; up to 12:
        one ``random()`` picks a permutation (Fisher-Yates digits); more: ``rng.shuffle``."""
        size = len(pot)
        if size == 2:
            if self.rng.random() >= 0.5:
                pot.reverse()
        elif size <= 6:
            table = _REORDER[size]
            pot[:] = table[int(self.rng.random() * len(table))](pot)
        elif size <= 12:
            number = int(self.rng.random() * _FACTORIALS[size])
            for i in range(size - 1, 0, -1):
                number, j = divmod(number, i + 1)
                pot[i], pot[j] = pot[j], pot[i]
        else:
            self.rng.shuffle(pot)

    def _draw(self, seat: int, rnd: int, events: list[Event] | None) -> str:
        """The top card of a stock, rebuilding an empty stock from the shuffled capture pile."""
        pile = self._piles[seat]
        if not pile:
            capture = self._caps[seat]
            self.rng.shuffle(capture)
            pile.extend(capture)
            capture.clear()
            if events is not None:
                events.append({"type": "reshuffle", "round": rnd, "seat": seat, "cards": len(pile)})
        return pile.popleft()

    def _best(self, faces: list[str | None], contenders: list[int]) -> list[int]:
        """The seats whose face-up card is highest (more than one: a war)."""
        strength = self._strength
        values = {seat: strength[faces[seat]] for seat in contenders}
        if self._six and any(faces[seat] in _SIXES for seat in contenders):
            for seat in contenders:
                if faces[seat] in _ACES:
                    values[seat] = 0
        top = max(values.values())
        return [seat for seat in contenders if values[seat] == top]

    def _order_pot(self, steps: list[list[list[str]]], winner: int | None) -> list[str]:
        """The pot in the order it goes under the winner's stock (first card comes back up first)."""
        order = self._order
        if winner is None or order in (RANDOM, PLAYED, REVERSED):
            pot = [card for step in steps for laid in step for card in laid]
            if winner is None or order == PLAYED:
                return pot
            if order == REVERSED:
                pot.reverse()
            else:
                self._shuffle_pot(pot)
            return pot
        mine = [card for step in steps for card in step[winner]]
        others = [card for seat in range(self._n) if seat != winner for step in steps for card in step[seat]]
        return mine + others if order == WINNER_FIRST else others + mine

    def _take_event(self, rnd: int, seat: int, cards: int, face_down: int) -> Event:
        return {
            "type": "take",
            "round": rnd,
            "seat": seat,
            "cards": cards,
            "face_down": face_down,
            "to": "capture" if self._capture else "pile",
            "counts": self._holdings(),
        }

    def _holdings(self) -> list[int]:
        """The cards each seat holds (a Double War prize counts for the seat it belongs to)."""
        held = [len(pile) + len(cap) for pile, cap in zip(self._piles, self._caps, strict=True)]
        if self._prize is not None and self._prize_owner is not None:
            held[self._prize_owner] += 1
        return held

    # --- the end ------------------------------------------------------------------------------------
    def _end_checks(self, rnd: int, winner: int | None, short_out: bool, events: list[Event] | None) -> None:
        """After a round: one or no player left, the target, a repeated position (the cap is checked later)."""
        alive = self._in.count(True)
        if not alive:
            self._finish(None, "all_out", "every player ran out of cards at once", rnd, events)
        elif alive == 1:
            seat = self._in.index(True)
            if short_out:
                self._finish(
                    seat, "short_war", f"seat {seat} wins: the last opponent could not fight a war", rnd, events
                )
            elif self._n == 2:
                self._finish(seat, "all_cards", f"seat {seat} has won all the cards", rnd, events)
            else:
                self._finish(seat, "last_standing", f"seat {seat} is the last player with cards", rnd, events)
        elif (
            self.rules["target"] is not None
            and winner is not None
            and self._holdings()[winner] >= self.rules["target"]
        ):
            self._finish(winner, "target", f"seat {winner} reached {self.rules['target']} cards", rnd, events)
        elif self._cycle:
            position = self._position()
            if position in self._seen:
                self._finish(
                    None,
                    "cycle",
                    f"the position after round {rnd} had been seen before: the game would repeat for ever",
                    rnd,
                    events,
                )
            else:
                self._seen.add(position)

    def _check_cap(self, record: bool, out: list[Event] | None) -> None:
        if self.outcome is not None or self.stats.rounds < self.rules["max_rounds"]:
            return
        holdings = self._holdings()
        most = max(holdings)
        leaders = [seat for seat in range(self._n) if holdings[seat] == most]
        counts = ", ".join(f"seat {seat} {holdings[seat]}" for seat in range(self._n))
        winner = leaders[0] if len(leaders) == 1 else None
        events: list[Event] | None = [] if record else None
        self._finish(winner, "capped", f"after {self.stats.rounds} rounds: {counts}", self.stats.rounds, events)
        if events and out is not None:
            out.extend(events)
            self._last = [*self._last, *events]

    def _finish(self, winner: int | None, reason: str, detail: str, rnd: int, events: list[Event] | None) -> None:
        self._prize_home(winner)
        self.outcome = Outcome(winner, reason, detail)
        if events is not None:
            events.append({"type": "game_over", "round": rnd, **self.outcome.to_json()})

    def _position(self) -> bytes:
        """A fingerprint of the stocks at a round start (used only under deterministic return orders)."""
        digest = hashlib.blake2b(digest_size=16)
        for pile in self._piles:
            digest.update(bytes(map(_CODE.__getitem__, pile)))
            digest.update(b"\xff")
        if self._prize is not None:
            digest.update(bytes((_CODE[self._prize], self._prize_owner or 0)))
        return digest.digest()

    # --- what players see ---------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            self._check_seat(seat)
        over = self.outcome is not None
        return {
            "game": self.name,
            "title": self.title,
            "seat": seat,
            "players": self._n,
            "round": self.stats.rounds,
            "in_game": list(self._in),
            "pile_counts": [len(pile) for pile in self._piles],
            "capture_counts": [len(cap) for cap in self._caps],
            "card_counts": self._holdings(),
            "aside_count": len(self._aside),
            "prize": None if self._prize is None else {"card": self._prize, "seat": self._prize_owner},
            "table": list(self._table),
            "to_flip": [] if over else [s for s in range(self._n) if self._in[s] and self._table[s] is None],
            "last_events": copy.deepcopy(self._last),
            "stats": self.stats.to_json(),
            "outcome": self.outcome.to_json() if over else None,
            "rules": dict(self.rules),
        }

    def hidden_from(self, seat: int | None) -> Counter[str]:
        """Every face-down card (stocks, capture piles, cards set aside), from every seat alike: War piles are face
        down, even your own. Except the cards the last round showed face up, which ``view`` still lists; when such a
        card is on the table again, the copy still face down counts as hidden (with two decks it may be unseen)."""
        if seat is not None:
            self._check_seat(seat)
        hidden = Counter(self._aside)
        for pile in (*self._piles, *self._caps):
            hidden.update(pile)
        shown: Counter[str] = Counter()
        for event in self._last:
            if event["type"] in ("battle", "war"):
                shown.update(card for card in event["cards"] if card is not None)
            elif event["type"] == "flip":
                shown[event["card"]] += 1
            elif event["type"] == "take":  # Double War's prizes are face up
                shown.update(card for card in (event.get("prize"), event.get("prize_taken")) if card is not None)
        shown.subtract(card for card in self._table if card is not None)
        for card, copies in shown.items():
            if copies > 0 and card in hidden:
                left = hidden[card] - copies
                if left > 0:
                    hidden[card] = left
                else:
                    del hidden[card]
        return hidden

    def draw_piles(self) -> list[list[str]]:
        return [list(pile) for pile in self._piles]

    def card_locations(self) -> dict[str, list[str]]:
        places: dict[str, list[str]] = {}
        for seat in range(self._n):
            places[f"pile_{seat}"] = list(self._piles[seat])
            places[f"capture_{seat}"] = list(self._caps[seat])
        places["table"] = [card for card in self._table if card is not None]
        places["aside"] = list(self._aside)
        places["prize"] = [] if self._prize is None else [self._prize]
        return places

    # --- persistence --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole state. ``last_events`` only feeds ``view`` (it is empty after ``record=False`` play)."""
        return {
            **self._saved_head(STATE_VERSION),
            "piles": [list(pile) for pile in self._piles],
            "captures": [list(cap) for cap in self._caps],
            "aside": list(self._aside),
            "table": list(self._table),
            "in_game": list(self._in),
            "cards": self._total,
            "stats": self.stats.to_json(),
            "outcome": self.outcome.to_json() if self.outcome is not None else None,
            "seen": sorted(position.hex() for position in self._seen),
            "last_events": copy.deepcopy(self._last),
            "prize": None if self._prize is None else [self._prize, self._prize_owner],
        }

    @classmethod
    def _damaged(cls, error: Exception) -> str:
        if isinstance(error, GameError):
            return f"the saved game is damaged: {error}"
        return f"the saved game is damaged: {type(error).__name__} {error}"

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> Self:
        def need(ok: bool, message: str) -> None:
            if not ok:
                raise InvalidState(f"the saved game is damaged: {message}")

        need(isinstance(data, Mapping), "not a JSON object")
        need(data.get("game") == cls.name, f"it is a {data.get('game')!r} game, not {cls.name!r}")
        need(data.get("version") == STATE_VERSION, f"unknown version {data.get('version')!r}")
        rules = cls.resolve_rules(data["rules"])
        need(rules == dict(data["rules"]), "the rules are incomplete")
        cls._check_rules(rules)
        seed = data["seed"]
        need(isinstance(seed, int) and not isinstance(seed, bool), "the seed is not a whole number")
        game = cls.__new__(cls)
        game._configure(rules, seed, rng_from_json(data["rng"]))
        n = rules["players"]

        def card_list(value: Any, where: str) -> list[str]:
            need(isinstance(value, list), f"{where} is not a list")
            for card in value:
                need(isinstance(card, str) and parse_card(card) == card, f"{where} holds {card!r}")
            return value

        def per_seat(key: str) -> list[Any]:
            value = data[key]
            need(isinstance(value, list) and len(value) == n, f"{key} must have one entry per player")
            return value

        piles = [card_list(pile, f"pile {seat}") for seat, pile in enumerate(per_seat("piles"))]
        caps = [card_list(cap, f"capture pile {seat}") for seat, cap in enumerate(per_seat("captures"))]
        aside = card_list(data["aside"], "aside")
        table = per_seat("table")
        for card in table:
            need(card is None or (isinstance(card, str) and parse_card(card) == card), f"the table holds {card!r}")
        playing = per_seat("in_game")
        need(all(isinstance(flag, bool) for flag in playing), "in_game must be true or false per player")
        prize = data.get("prize")
        need(prize is None or (rules["double"] and isinstance(prize, list) and len(prize) == 2
                               and isinstance(prize[0], str) and parse_card(prize[0]) == prize[0]
                               and (prize[1] is None or (isinstance(prize[1], int) and 0 <= prize[1] < n))),
             "a bad prize")
        everything = ([card for pile in piles + caps for card in pile] + aside + [c for c in table if c is not None]
                      + ([prize[0]] if prize else []))
        need(data["cards"] == len(everything), f"{len(everything)} cards where there should be {data['cards']}")
        cls._check_pack(rules, everything, InvalidState)
        need(rules["capture_pile"] or not any(caps), "capture piles without the capture_pile rule")
        for seat in range(n):
            holds = bool(piles[seat] or caps[seat] or table[seat] is not None)
            need(holds or not playing[seat] or data["outcome"] is not None, f"seat {seat} is in but has no cards")
            need(
                playing[seat] or (not piles[seat] and not caps[seat] and table[seat] is None),
                f"seat {seat} is out but holds cards",
            )
        stats_data = data["stats"]
        stats = WarStats(**{key: stats_data[key] for key in ("rounds", "wars", "longest_chain", "biggest_pot")})
        for value in stats.to_json().values():
            need(isinstance(value, int) and not isinstance(value, bool) and value >= 0, "bad stats")
        need(stats.rounds <= rules["max_rounds"], "more rounds played than max_rounds")
        outcome_data = data["outcome"]
        outcome = None
        if outcome_data is not None:
            outcome = Outcome.from_json(outcome_data)
            need(
                outcome.winner is None or (isinstance(outcome.winner, int) and 0 <= outcome.winner < n),
                "the outcome names no seat",
            )
            need(isinstance(outcome.reason, str) and isinstance(outcome.detail, str), "bad outcome")
        else:
            need(sum(playing) >= 2, "the game is not over but fewer than two players are in")
        seen = data["seen"]
        need(
            isinstance(seen, list) and all(isinstance(item, str) and len(item) == 32 for item in seen),
            "bad position list",
        )
        last = data["last_events"]
        need(
            isinstance(last, list) and all(isinstance(event, dict) and "type" in event for event in last),
            "bad last events",
        )
        game._piles = [deque(pile) for pile in piles]
        game._caps = [list(cap) for cap in caps]
        game._aside = list(aside)
        game._table = list(table)
        game._in = list(playing)
        game._total = data["cards"]
        game.stats = stats
        game.outcome = outcome
        game._seen = {bytes.fromhex(item) for item in seen}
        game._last = copy.deepcopy(last)
        game._prize, game._prize_owner = (prize[0], prize[1]) if prize else (None, None)
        return game


class Drunkard(War):
    """Drunkard (P'yanitsa): a 36-card pack (6 to ace), a 6 beats an ace, one face-down then one face-up per
    war (the house choice "next face-up card" is ``face_down: 0``); a player with no cards is out."""

    name: ClassVar[str] = "drunkard"
    title: ClassVar[str] = N_("Drunkard")
    options: ClassVar[tuple[Option, ...]] = _with_defaults(
        WAR_OPTIONS,
        pack={"default": 36},
        six_beats_ace={"default": True, "help": N_("a 6 beats an ace (an ace facing a 6 on the table counts lowest)")},
    )


class TodUndLeben(War):
    """Tod und Leben: seat 0 ("Death", leads) takes every black card, seat 1 ("Life") every red card; each
    shuffles their own; otherwise War with one face-down card per war."""

    name: ClassVar[str] = "todundleben"
    title: ClassVar[str] = N_("Tod und Leben")
    max_players: ClassVar[int] = 2
    options: ClassVar[tuple[Option, ...]] = _with_defaults(
        WAR_OPTIONS,
        players={"help": N_("two players: Death (black cards) and Life (red cards)"), "maximum": 2},
        pack={"choices": (52, 32), "help": N_("52 cards or 32 (7 to A)")},
        joker_each={"help": N_("no effect: with jokers, Death gets the black one and Life the red one")},
    )

    def _deal(self) -> tuple[list[list[str]], list[str]]:
        rules = self.rules
        pack = standard_pack(rules["pack"], jokers=rules["jokers"], decks=rules["decks"])
        death = [card for card in pack if not is_red(card)]
        life = [card for card in pack if is_red(card)]
        self.rng.shuffle(death)
        self.rng.shuffle(life)
        return [death, life], []


class DoubleWar(War):
    """Double War: War with a standing prize (the rule ``double``): the top card of each round's winnings stands in
    the centre, and the next round's winner takes it with the pot (a war's winner included); a round nobody wins
    leaves it standing; at the end it goes to the player it belongs to."""

    name: ClassVar[str] = "doublewar"
    title: ClassVar[str] = N_("Double War")
    options: ClassVar[tuple[Option, ...]] = _with_defaults(WAR_OPTIONS, double={"default": True})
