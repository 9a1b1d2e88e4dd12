"""Air War: two players, a deck each, stacks shown face up, ordered in secret and flipped card by card.

The rules text players read is ``bot/games/airwar/rules/airwar.md``; this module follows it exactly.

State between two ``apply`` calls is always one of two things:

* **ordering**: both stacks of the current engagement are drawn (``stacks``, in the order they were drawn)
  and the game waits until each seat has locked in a play order (``orders``). The second order plays the
  whole engagement at once and draws the next stacks in the same call.
* **over**: ``outcome`` is set. Cards left on the table (a tie nobody could break) stay on the table.

Piles are lists, top card first, like everywhere in the project. That holds for the discard piles too:
``discards[seat][0]`` is the card discarded last. Each deck is an unknown part on top (``unknown[seat]``
cards, never shown in any view) above the cards that went back to its bottom during play, which every
player saw (every flip is public). The size of the unknown part is not kept but worked out (see
:attr:`AirWar.unknown`), so a saved game cannot claim that hidden cards are known.

Events (JSON-ready dicts, only what a spectator may see):

* ``engagement``: ``number``, ``stack_size``, ``stacks`` (as drawn), ``deck_counts``, ``discard_counts``;
* ``order_locked``: ``engagement``, ``seat``, ``waiting_for`` (seats still to order) -- never the order;
* ``flip``: ``engagement``, ``flip`` (1-based in the engagement), ``fight`` (1-based), ``cards`` (seat 0's,
  seat 1's), ``sources`` (``"stack"`` or ``"deck"`` for each), ``result`` (``"tie"`` or ``"win"``),
  ``winner`` (seat, ``None`` on a tie);
* ``fight``: ``engagement``, ``fight``, ``winner``, ``loser``, ``kept`` (the winner's cards in the order
  played, now at the bottom of his deck in that order), ``discarded`` (the loser's cards in the order played),
  ``ties`` (ties in this fight), ``deck_counts``, ``discard_counts``;
* ``engagement_end``: ``engagement``, ``fights``, ``ties``, ``deck_counts``, ``discard_counts``;
* ``game_over``: ``winner`` (``None``: a draw), ``reason`` (``short_stack``, ``out_of_cards``, ``forfeit``),
  ``detail``, ``engagement``, ``deck_counts``.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Self

from bot.cards import card_label, parse_card, standard_pack, strength_table, tarot_pack
from bot.errors import IllegalAction, InvalidCard, InvalidRules, InvalidState, NotYourTurn
from bot.game import Action, Event, Game, GameStats, Option, Outcome
from bot.i18n import N_

SEATS = (0, 1)
JSON_VERSION = 1
SHORT_STACK = "short_stack"
OUT_OF_CARDS = "out_of_cards"
#: 3-4 players: nobody left could draw a full stack, and the winner had the most cards left (equal most: a draw)
MOST_CARDS = "most_cards"

DECK_SIZES = {"standard": 52, "jokers": 54, "tarot": 78}


def pack_for(deck: str) -> list[str]:
    """One player's full, unshuffled deck for the ``deck`` rule."""
    if deck == "tarot":
        return tarot_pack()
    return standard_pack(52, jokers=2 if deck == "jokers" else 0)


def _other(seat: int) -> int:
    return 1 - seat


class AirWar(Game):
    """Air War for two players (see the module docstring for the state, events and views)."""

    name = "airwar"
    title = N_("Air War")
    min_players = 2
    max_players = 4
    options = (
        Option("aces", "high", N_("aces rank above the king (high) or below the 2 (low)"), choices=("high", "low")),
        Option("stack", 5, N_("cards in each engagement's stack"), minimum=3, maximum=7),
        Option(
            "deck",
            "standard",
            N_("each player's deck: standard (52 cards), jokers (54: two jokers above the ace) or tarot (78)"),
            choices=("standard", "jokers", "tarot"),
        ),
        Option("players", 2, N_("number of players, each with a deck of their own"), minimum=2, maximum=4),
    )

    def __init__(self, rules: dict[str, Any], seed: int, rng: random.Random) -> None:
        super().__init__(rules, seed, rng)
        self.n: int = rules.get("players", 2)
        self.seats = range(self.n)
        self.decks: list[list[str]] = [[] for _ in self.seats]
        self.stacks: list[list[str]] = [[] for _ in self.seats]
        self.orders: list[list[str] | None] = [None] * self.n
        self.table: list[list[str]] = [[] for _ in self.seats]
        self.discards: list[list[str]] = [[] for _ in self.seats]
        #: 3-4 players only (two players are always both in): who is still playing, the order seats went out in,
        #: and how many cards each seat has put back at the bottom of its deck (see :attr:`unknown`)
        self.in_game: list[bool] = [True] * self.n
        self.out_order: list[int] = []
        self.kept: list[int] = [0] * self.n
        #: a draw of 3-4 players: the seats that went out last, at once (they share first place)
        self.together: list[int] = []
        self.engagement = 0
        #: two players: every engagement played, its stacks as drawn and the orders flipped (public once flipped:
        #: what an opponent can learn of a player's habits)
        self.played: list[dict[str, list[list[str]]]] = []
        #: the events of the game's start (the first engagement, or the game's end): ``new`` has no return
        #: value for them, so the bot reads them here.
        self.opening_events: list[Event] = []
        self._setup()

    def _setup(self) -> None:
        self.tarot = self.rules["deck"] == "tarot"
        self.strength = strength_table(aces_high=self.rules["aces"] == "high", tarot=self.tarot)
        self.stack_size: int = self.rules["stack"]
        self.pack = Counter(pack_for(self.rules["deck"]))

    # --- construction -------------------------------------------------------------------------------
    @classmethod
    def resolve_rules(cls, rules: Mapping[str, Any] | None) -> dict[str, Any]:
        """The rules, checked; ``players`` is left out for two (a two-player game's rules are what they always
        were, so its match files and saved games read the same)."""
        unknown = sorted(set(rules or {}) - {option.key for option in cls.options})
        if unknown:  # (the number of players is set by who plays, not chosen like a rule)
            chosen = ", ".join(sorted(option.key for option in cls.options if option.key != "players"))
            raise InvalidRules(N_("unknown rule {rule}; this game's rules are: {rules}"), rule=repr(unknown[0]),
                               rules=chosen)
        resolved = super().resolve_rules(rules)
        if resolved["players"] == 2:
            del resolved["players"]
        return resolved

    @classmethod
    def new(cls, rules: Mapping[str, Any] | None = None, seed: int = 0,
            piles: Sequence[Sequence[str]] | None = None) -> Self:
        given = dict(rules or {})
        if piles is not None and "players" not in given and isinstance(piles, Sequence) \
                and not isinstance(piles, str | bytes) and cls.min_players <= len(piles) <= cls.max_players:
            given["players"] = len(piles)
        resolved = cls.resolve_rules(given)
        cls._check_seed(seed)
        game = cls(resolved, seed, random.Random(seed))
        if piles is None:
            decks = []
            for _seat in game.seats:  # seat 0's deck is shuffled first, then seat 1's, ...; never again
                deck = pack_for(resolved["deck"])
                game.rng.shuffle(deck)
                decks.append(deck)
        else:
            decks = game._parse_piles(piles)
        game.decks = decks
        game.opening_events = game._start_engagement()
        return game

    def _parse_piles(self, piles: Any) -> list[list[str]]:
        if isinstance(piles, str | bytes) or not isinstance(piles, Sequence) or len(piles) != self.n:
            count = "exactly two" if self.n == 2 else str(self.n)
            raise InvalidState(f"Air War needs {count} starting piles, one deck per seat (top card first)")
        decks = []
        for seat, pile in enumerate(piles):
            if isinstance(pile, str | bytes) or not isinstance(pile, Sequence):
                raise InvalidState(f"seat {seat}'s pile must be a list of cards, top card first")
            try:
                deck = [parse_card(card, tarot=self.tarot) for card in pile]
            except InvalidCard as error:
                raise InvalidState(f"seat {seat}'s pile: {error}") from None
            self._check_cards_fit(seat, deck)
            if len(deck) < self.stack_size:
                raise InvalidState(
                    f"seat {seat}'s pile has {len(deck)} cards; each deck needs at least a full stack "
                    f"of {self.stack_size}"
                )
            decks.append(deck)
        return decks

    def _check_cards_fit(self, seat: int, cards: Sequence[str]) -> None:
        """A seat's cards must all come from one deck of the chosen kind, each card at most once."""
        counts = Counter(cards)
        for card, count in counts.items():
            if card not in self.pack:
                raise InvalidState(f"seat {seat} has {card}, which is not in a {self.rules['deck']} deck")
            if count > self.pack[card]:
                raise InvalidState(f"seat {seat} has {card} {count} times, but a deck holds it only once")

    # --- play ---------------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.n

    def legal_actions(self, seat: int) -> list[Action]:
        self._check_seat(seat)
        if self.is_over or self.orders[seat] is not None or not self.in_game[seat]:
            return []
        stack = self.stacks[seat]
        seen: set[tuple[str, ...]] = set()
        actions = []
        for order in itertools.permutations(stack):
            if order not in seen:
                seen.add(order)
                actions.append({"type": "order", "cards": list(order)})
        return actions

    def pending_seats(self) -> list[int]:
        if self.is_over:
            return []
        return [seat for seat in self.seats if self.orders[seat] is None and self.in_game[seat]]

    def apply(self, seat: int, action: Action) -> list[Event]:
        self._check_seat(seat)
        self._check_not_over()
        if not isinstance(action, Mapping) or action.get("type") != "order":
            kind = action.get("type") if isinstance(action, Mapping) else action
            raise IllegalAction(N_("Air War has one action, order (your stack in play order), not {kind}"),
                                kind=repr(kind))
        order = self._check_order(seat, action.get("cards"))
        self.orders[seat] = order
        events = [self._locked_event(seat)]
        if not self.pending_seats():
            events += self._play_engagement() if self.n == 2 else self._play_engagement_of_many()
        return events

    def apply_move(self, move: Mapping[str, Any]) -> list[Event]:
        """One engagement of a match file: ``{"orders": [seat 0's order, seat 1's order, ...]}`` (``null`` for a
        seat that is out)."""
        self._check_not_over()
        orders = move.get("orders") if isinstance(move, Mapping) else None
        if isinstance(orders, str | bytes) or not isinstance(orders, Sequence) or len(orders) != self.n:
            raise IllegalAction('an Air War move is {"orders": [seat 0\'s order, seat 1\'s order, ...]}')
        playing = [seat for seat in self.seats if self.in_game[seat]]
        for seat in self.seats:
            if seat not in playing and orders[seat] is not None:
                raise IllegalAction(f"seat {seat} is out of the game: its order must be null")
        checked = {seat: self._check_order(seat, orders[seat]) for seat in playing}  # all checked before any plays
        events = []
        for seat in playing:
            self.orders[seat] = checked[seat]
            events.append(self._locked_event(seat))
        return events + (self._play_engagement() if self.n == 2 else self._play_engagement_of_many())

    def forfeit(self, seat: int, reason: str = "forfeit") -> list[Event]:
        """Two players: the other wins. Three or four: the seat is out (its stack, seen by everyone, goes to its
        discard pile; its deck leaves play face down) and the others play on; the last one in wins. If every seat
        still in has locked in its order, the engagement is played at once."""
        self._check_seat(seat)
        self._check_not_over()
        if self.n == 2:
            self.outcome = Outcome(_other(seat), reason, f"seat {seat} forfeited")
            return [self._game_over_event()]
        if not self.in_game[seat]:
            raise NotYourTurn(N_("seat {seat} is out of the game already"), seat=seat)
        self.discards[seat][:0] = reversed(self.stacks[seat])
        self.stacks[seat] = []
        events = [self._knock_out(seat, reason)]
        if sum(self.in_game) == 1:
            return [*events, self._finish_many(reason)]
        if not self.pending_seats():
            events += self._play_engagement_of_many()
        return events

    def _check_order(self, seat: int, cards: Any) -> list[str]:
        """The seat's order, checked against its stack; raise a typed error and change nothing."""
        if not self.in_game[seat]:
            raise NotYourTurn(N_("seat {seat} is out of the game"), seat=seat)
        if self.orders[seat] is not None:
            raise NotYourTurn(N_("seat {seat} has already locked in an order for engagement {engagement}"), seat=seat,
                              engagement=self.engagement)
        stack = self.stacks[seat]
        size = len(stack)
        if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
            raise IllegalAction(N_("an order is a list of your {size} stack cards in the order you will play them"),
                                size=size)
        order = [parse_card(card, tarot=self.tarot) for card in cards]
        counts = Counter(order)
        for card in order:
            if counts[card] > 1:
                raise IllegalAction(N_("{card} appears {times} times in your order; play each card once"),
                                    card=card_label(card),
                                    times=counts[card])
            if card not in stack:
                raise IllegalAction(N_("{card} is not in your stack; your stack is {stack}"),
                                    card=card_label(card), stack=" ".join(card_label(c) for c in stack))
        if len(order) != size:
            missing = [card for card in stack if card not in counts]
            raise IllegalAction(N_("your order must hold all {size} cards of your stack; missing {missing}"),
                                size=size, missing=" ".join(card_label(card) for card in missing))
        return order

    def _play_engagement(self) -> list[Event]:
        """Flip both orders side by side, settle every fight, then start the next engagement."""
        orders = [list(order or []) for order in self.orders]
        self.played.append({"stacks": [list(stack) for stack in self.stacks], "orders": [list(o) for o in orders]})
        self.stacks = [list(order) for order in orders]  # what is left to flip, in play order
        events: list[Event] = []
        flips = fights = ties = fight_ties = 0
        while True:
            if self.stacks[0]:
                cards = [self.stacks[seat].pop(0) for seat in SEATS]
                sources = ["stack", "stack"]
            elif self.table[0]:
                empty = [seat for seat in SEATS if not self.decks[seat]]
                if empty:
                    self.stacks = [[], []]
                    self.orders = [None, None]
                    events.append(self._out_of_cards(empty))
                    return events
                cards = [self._draw(seat) for seat in SEATS]
                sources = ["deck", "deck"]
            else:
                break
            flips += 1
            for seat in SEATS:
                self.table[seat].append(cards[seat])
            first, second = (self.strength[card] for card in cards)
            winner = None if first == second else (0 if first > second else 1)
            events.append({
                "type": "flip", "engagement": self.engagement, "flip": flips, "fight": fights + 1,
                "cards": list(cards), "sources": sources, "result": "tie" if winner is None else "win",
                "winner": winner,
            })
            if winner is None:
                ties += 1
                fight_ties += 1
                self.stats.wars += 1
                continue
            fights += 1
            loser = _other(winner)
            kept, discarded = self.table[winner], self.table[loser]
            self.decks[winner].extend(kept)
            self.discards[loser][:0] = reversed(discarded)
            self.table = [[], []]
            events.append({
                "type": "fight", "engagement": self.engagement, "fight": fights, "winner": winner,
                "loser": loser, "kept": kept, "discarded": discarded, "ties": fight_ties,
                **self._counts(),
            })
            fight_ties = 0
        self.orders = [None, None]
        self.stats.rounds += 1
        events.append({
            "type": "engagement_end", "engagement": self.engagement, "fights": fights, "ties": ties,
            **self._counts(),
        })
        return events + self._start_engagement()

    def _start_engagement(self) -> list[Event]:
        """Draw the next stacks, or end the game when a seat cannot draw a full stack."""
        if self.n != 2:
            return self._start_engagement_of_many()
        size = self.stack_size
        short = [seat for seat in SEATS if len(self.decks[seat]) < size]
        if short:
            self.stacks = [[], []]
            if len(short) == 2:
                counts = self._counts()["deck_counts"]
                detail = (f"neither player can draw a full stack of {size} "
                          f"(seat 0 has {counts[0]} cards, seat 1 has {counts[1]}): a draw")
                self.outcome = Outcome(None, SHORT_STACK, detail)
            else:
                seat = short[0]
                detail = (f"seat {seat} cannot draw a full stack of {size} "
                          f"({len(self.decks[seat])} cards left): seat {_other(seat)} wins")
                self.outcome = Outcome(_other(seat), SHORT_STACK, detail)
            return [self._game_over_event()]
        self.engagement += 1
        self.stacks = [[self._draw(seat) for _ in range(size)] for seat in SEATS]
        self.orders = [None, None]
        return [{
            "type": "engagement", "number": self.engagement, "stack_size": size,
            "stacks": [list(stack) for stack in self.stacks], **self._counts(),
        }]

    # --- three or four players ------------------------------------------------------------------------
    def _play_engagement_of_many(self) -> list[Event]:
        """Three or four players: every player with stack cards left flips one; the highest card is kept, the
        others are discarded; a tie for highest goes on among the tied players only (the others lose the fight at
        once), each flipping their next stack card, then their deck's top card. A player with stack cards left
        when nobody else has any puts them back at the bottom of their deck, unopposed."""
        self.stacks = [list(order or []) for order in self.orders]  # what is left to flip, in play order
        events: list[Event] = []
        counter = {"flips": 0, "fights": 0, "ties": 0}
        while sum(self.in_game) > 1:
            fighters = [seat for seat in self.seats if self.in_game[seat] and self.stacks[seat]]
            if len(fighters) < 2:
                break
            if self._fight_of_many(fighters, counter, events):  # everyone left is out: the game is a draw
                return events
        for seat in self.seats:
            if self.stacks[seat]:
                cards, self.stacks[seat] = self.stacks[seat], []
                self.decks[seat].extend(cards)
                self.kept[seat] += len(cards)
                events.append({"type": "unopposed", "engagement": self.engagement, "seat": seat, "cards": cards,
                               **self._counts()})
        self.orders = [None] * self.n
        self.stats.rounds += 1
        events.append({"type": "engagement_end", "engagement": self.engagement, "fights": counter["fights"],
                       "ties": counter["ties"], **self._counts()})
        if sum(self.in_game) <= 1:
            return [*events, self._finish_many(OUT_OF_CARDS)]
        return events + self._start_engagement()

    def _fight_of_many(self, fighters: list[int], counter: dict[str, int], events: list[Event]) -> bool:
        """One fight among ``fighters`` (ties included); True when it ended the game as a draw."""
        fight_ties = 0
        discarded: list[list[str]] = [[] for _ in self.seats]
        losers: list[int] = []

        def lose(seats: Sequence[int]) -> None:
            for seat in seats:
                discarded[seat] = list(self.table[seat])
                self.discards[seat][:0] = reversed(self.table[seat])
                self.table[seat] = []
                losers.append(seat)

        while True:
            dry = [seat for seat in fighters if not self.stacks[seat] and not self.decks[seat]]
            if dry:  # a tied player with no card to add is out
                if len(dry) == sum(self.in_game):  # nobody else is left: a draw, the tied cards stay on the table
                    for seat in dry:
                        events.append(self._knock_out(seat, OUT_OF_CARDS))
                    self.stacks = [[] for _ in self.seats]
                    self.orders = [None] * self.n
                    events.append(self._finish_many(OUT_OF_CARDS, dry))
                    return True
                lose(dry)
                for seat in dry:
                    events.append(self._knock_out(seat, OUT_OF_CARDS))
                fighters = [seat for seat in fighters if seat not in dry]
                if len(fighters) <= 1:
                    winner = fighters[0] if fighters else None
                    break
            cards: list[str | None] = [None] * self.n
            sources: list[str | None] = [None] * self.n
            for seat in fighters:
                from_stack = bool(self.stacks[seat])
                cards[seat] = self.stacks[seat].pop(0) if from_stack else self._draw(seat)
                sources[seat] = "stack" if from_stack else "deck"
                self.table[seat].append(cards[seat])
            counter["flips"] += 1
            best = max(self.strength[card] for card in cards if card is not None)
            top = [seat for seat in fighters if self.strength[cards[seat]] == best]  # type: ignore[index]
            winner = top[0] if len(top) == 1 else None
            events.append({
                "type": "flip", "engagement": self.engagement, "flip": counter["flips"],
                "fight": counter["fights"] + 1, "cards": cards, "sources": sources,
                "result": "tie" if winner is None else "win", "winner": winner,
                "tied": [] if winner is not None else top,
            })
            lose([seat for seat in fighters if seat not in top])
            if winner is not None:
                break
            counter["ties"] += 1
            fight_ties += 1
            self.stats.wars += 1
            fighters = top
        counter["fights"] += 1
        kept: list[str] = []
        if winner is not None:
            kept, self.table[winner] = self.table[winner], []
            self.decks[winner].extend(kept)
            self.kept[winner] += len(kept)
        events.append({
            "type": "fight", "engagement": self.engagement, "fight": counter["fights"], "winner": winner,
            "losers": losers, "kept": kept, "discarded": discarded, "ties": fight_ties, **self._counts(),
        })
        return False

    def _start_engagement_of_many(self) -> list[Event]:
        """Three or four players: a player who cannot draw a full stack is out; the last one in wins (none: a
        draw); else the next stacks are drawn."""
        size = self.stack_size
        short = [seat for seat in self.seats if self.in_game[seat] and len(self.decks[seat]) < size]
        if short and len(short) == sum(self.in_game):  # nobody left can field a stack: the most cards go out last
            short.sort(key=lambda seat: len(self.decks[seat]))
            most = len(self.decks[short[-1]])
            leaders = [seat for seat in short if len(self.decks[seat]) == most]
            events = [self._knock_out(seat, SHORT_STACK) for seat in short if seat not in leaders]
            if len(leaders) > 1:
                events += [self._knock_out(seat, SHORT_STACK) for seat in leaders]
            self.stacks = [[] for _ in self.seats]
            return [*events, self._finish_many(MOST_CARDS, leaders)]
        events = [self._knock_out(seat, SHORT_STACK) for seat in short]
        if sum(self.in_game) <= 1:
            self.stacks = [[] for _ in self.seats]
            return [*events, self._finish_many(SHORT_STACK, short)]
        self.engagement += 1
        self.stacks = [[self._draw(seat) for _ in range(size)] if self.in_game[seat] else [] for seat in self.seats]
        self.orders = [None] * self.n
        return [*events, {
            "type": "engagement", "number": self.engagement, "stack_size": size,
            "stacks": [list(stack) for stack in self.stacks], "in_game": list(self.in_game), **self._counts(),
        }]

    def _knock_out(self, seat: int, reason: str) -> Event:
        """The seat is out (its deck, if any, leaves play face down where it lies)."""
        self.in_game[seat] = False
        self.out_order.append(seat)
        self.orders[seat] = None
        return {"type": "out", "engagement": self.engagement, "seat": seat, "reason": reason,
                "deck_count": len(self.decks[seat])}

    def _finish_many(self, reason: str, together: Sequence[int] = ()) -> Event:
        """The end of a game of three or four: the last one in wins; ``together`` went out last, at once (when
        nobody is left: a draw)."""
        left = [seat for seat in self.seats if self.in_game[seat]]
        if left:
            detail = f"seat {left[0]} is the last player left: seat {left[0]} wins"
            if reason == MOST_CARDS:
                detail = f"nobody left could draw a full stack; seat {left[0]} had the most cards left and wins"
            self.outcome = Outcome(left[0], reason, detail)
        else:
            detail = f"the last players ({', '.join(f'seat {s}' for s in together)}) went out together: a draw"
            self.outcome = Outcome(None, reason, detail)
            self.together = sorted(together)
        return self._game_over_event()

    def _out_of_cards(self, empty: list[int]) -> Event:
        if len(empty) == 2:
            detail = "both players had to add a tie-breaker card and neither had one: a draw"
            self.outcome = Outcome(None, OUT_OF_CARDS, detail)
        else:
            seat = empty[0]
            detail = f"seat {seat} had to add a tie-breaker card and had none: seat {_other(seat)} wins"
            self.outcome = Outcome(_other(seat), OUT_OF_CARDS, detail)
        return self._game_over_event()

    def _draw(self, seat: int) -> str:
        """The top card of the seat's deck (an unknown card while any are left above the known bottom)."""
        return self.decks[seat].pop(0)

    @property
    def unknown(self) -> list[int]:
        """How many cards on top of each deck nobody has seen, worked out from public counts.

        A seat's deck only ever gains the cards it keeps, at the bottom, and each fight's winner keeps exactly as
        many cards as the loser discards (both sides of the table hold as many), so seat ``s`` has kept
        ``len(discards[1 - s])`` cards in all. Every draw takes the top card, so no kept card is drawn again while
        an unknown card is left above it: the known bottom is all the kept cards (or the whole deck).
        """
        if self.n != 2:  # three or four players: a fight's winner keeps as many cards as he played, counted
            return [max(0, len(self.decks[seat]) - self.kept[seat]) for seat in self.seats]
        return [max(0, len(self.decks[seat]) - len(self.discards[_other(seat)])) for seat in SEATS]

    def _counts(self) -> dict[str, list[int]]:
        return {
            "deck_counts": [len(deck) for deck in self.decks],
            "discard_counts": [len(pile) for pile in self.discards],
        }

    def _locked_event(self, seat: int) -> Event:
        return {
            "type": "order_locked", "engagement": self.engagement, "seat": seat,
            "waiting_for": self.pending_seats(),
        }

    def _game_over_event(self) -> Event:
        assert self.outcome is not None
        return {
            "type": "game_over", **self.outcome.to_json(), "engagement": self.engagement,
            "deck_counts": [len(deck) for deck in self.decks],
        }

    # --- what players see ---------------------------------------------------------------------------
    def view(self, seat: int | None, *, history: bool = True) -> dict[str, Any]:
        """What ``seat`` sees (``None``: a spectator); ``history=False`` leaves out ``played`` (a panel has no use
        for it, and it grows with every engagement).

        Keys: ``game``, ``seat``, ``rules``, ``engagement``, ``phase`` (``"ordering"`` or ``"over"``),
        ``stacks`` (both, as drawn: public), ``locked`` (per seat), ``waiting_for``, ``my_order`` (own
        locked order; ``None`` for spectators or before locking), ``deck_counts``, ``deck_bottoms`` (per
        deck: ``unknown_above`` and ``cards``, the cards known to lie at its bottom, top first),
        ``discards`` (top first), ``table`` (tied cards left when the game ended), ``outcome``, ``stats``;
        two players: ``played`` (every engagement played: ``stacks`` as drawn and ``orders`` as flipped).
        """
        if seat is not None:
            self._check_seat(seat)
        ordering = not self.is_over
        many = ({"played": self._played_json()} if history else {}) if self.n == 2 else {
            "players": self.n, "in_game": list(self.in_game), "out_order": list(self.out_order),
            "together": list(self.together)}
        return many | {
            "game": self.name,
            "seat": seat,
            "rules": dict(self.rules),
            "engagement": self.engagement,
            "phase": "ordering" if ordering else "over",
            "stack_size": self.stack_size,
            "stacks": [list(stack) for stack in self.stacks],
            "locked": [order is not None for order in self.orders],
            "waiting_for": self.pending_seats(),
            "my_order": None if seat is None or self.orders[seat] is None else list(self.orders[seat]),
            "deck_counts": [len(deck) for deck in self.decks],
            "deck_bottoms": [
                {"unknown_above": self.unknown[s], "cards": self.decks[s][self.unknown[s]:]} for s in self.seats
            ],
            "discards": [list(pile) for pile in self.discards],
            "table": [list(cards) for cards in self.table],
            "outcome": None if self.outcome is None else self.outcome.to_json(),
            "stats": self.stats.to_json(),
        }

    def hidden_from(self, seat: int | None) -> Counter[str]:
        """The unknown tops of both decks, from everyone alike (their owners have not seen them either).

        Everything else is face up: the stacks (a locked order only rearranges cards everyone sees), the known deck
        bottoms, the table and the discards.
        """
        if seat is not None:
            self._check_seat(seat)
        unknown = self.unknown
        return Counter(card for s in self.seats for card in self.decks[s][:unknown[s]])

    def draw_piles(self) -> list[list[str]]:
        return [list(deck) for deck in self.decks]

    def card_locations(self) -> dict[str, list[str]]:
        places: dict[str, list[str]] = {}
        for seat in self.seats:
            places[f"deck_{seat}"] = list(self.decks[seat])
            places[f"stack_{seat}"] = list(self.stacks[seat])
            places[f"table_{seat}"] = list(self.table[seat])
            places[f"discard_{seat}"] = list(self.discards[seat])
        return places

    # --- persistence --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            **self._saved_head(JSON_VERSION),
            "engagement": self.engagement,
            "decks": [list(deck) for deck in self.decks],
            "unknown": list(self.unknown),
            "stacks": [list(stack) for stack in self.stacks],
            "orders": [None if order is None else list(order) for order in self.orders],
            "table": [list(cards) for cards in self.table],
            "discards": [list(pile) for pile in self.discards],
            "outcome": None if self.outcome is None else self.outcome.to_json(),
            "stats": self.stats.to_json(),
            "opening_events": [dict(event) for event in self.opening_events],
        } | ({"played": self._played_json()} if self.n == 2 else {
            "in_game": list(self.in_game), "out_order": list(self.out_order), "kept": list(self.kept)}) | (
            {"together": list(self.together)} if self.together else {})

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> Self:
        game = cls._from_head(data, JSON_VERSION)
        n = game.n
        game.engagement = _count(data["engagement"], "engagement")
        game.decks = [game._saved_cards(pile, "deck") for pile in _per_seat(data["decks"], "decks", n)]
        unknown = [_count(count, "unknown") for count in _per_seat(data["unknown"], "unknown", n)]
        game.stacks = [game._saved_cards(pile, "stack") for pile in _per_seat(data["stacks"], "stacks", n)]
        game.orders = [None if o is None else game._saved_cards(o, "order")
                       for o in _per_seat(data["orders"], "orders", n)]
        game.table = [game._saved_cards(pile, "table") for pile in _per_seat(data["table"], "table", n)]
        game.discards = [game._saved_cards(pile, "discard") for pile in _per_seat(data["discards"], "discards", n)]
        if n != 2:
            in_game = _per_seat(data["in_game"], "in_game", n)
            if not all(isinstance(flag, bool) for flag in in_game):
                raise InvalidState("the saved in_game must be true or false per seat")
            game.in_game = list(in_game)
            game.kept = [_count(count, "kept") for count in _per_seat(data["kept"], "kept", n)]
            out_order = data["out_order"]
            if not isinstance(out_order, list) or sorted(out_order) != [s for s in game.seats if not in_game[s]]:
                raise InvalidState("the saved out_order must name each seat that is out, once")
            game.out_order = list(out_order)
            together = data.get("together", [])
            if not isinstance(together, list) or not set(together) <= set(out_order):
                raise InvalidState("the saved together must name seats that are out")
            game.together = list(together)
        outcome = data["outcome"]
        if outcome is not None:
            if not isinstance(outcome, Mapping) or outcome.get("winner") not in (None, *game.seats) \
                    or isinstance(outcome.get("winner"), bool) or not isinstance(outcome.get("reason"), str) \
                    or not isinstance(outcome.get("detail", ""), str):
                raise InvalidState("the saved outcome is damaged")
            game.outcome = Outcome.from_json(outcome)
        stats = data["stats"]
        game.stats = GameStats(_count(stats["rounds"], "rounds"), _count(stats["wars"], "wars"))
        events = data["opening_events"]
        if not isinstance(events, list) or not all(isinstance(e, dict) and isinstance(e.get("type"), str)
                                                    for e in events):
            raise InvalidState("the saved opening events are damaged")
        game.opening_events = [dict(event) for event in events]
        if n == 2:
            game.played = game._saved_played(data.get("played", []))
        game._check_position()
        if unknown != game.unknown:  # kept for the format only: the decks and discards decide it
            raise InvalidState(f"the saved unknown deck tops {unknown} do not match the decks and discards, "
                               f"which say {game.unknown}")
        return game

    def _check_position_of_many(self) -> None:
        size = self.stack_size
        for seat in self.seats:
            order = self.orders[seat]
            if order is not None and sorted(order) != sorted(self.stacks[seat]):
                raise InvalidState(f"seat {seat}'s saved order is not an order of its stack")
            if not self.in_game[seat] and (self.stacks[seat] or order is not None):
                raise InvalidState(f"seat {seat} is out but holds a stack or an order")
        if self.is_over:
            return
        if self.engagement < 1 or sum(self.in_game) < 2:
            raise InvalidState("a game in progress is in engagement 1 or later, with two players in or more")
        if any(len(self.stacks[s]) != size for s in self.seats if self.in_game[s]):
            raise InvalidState(f"each stack of a player in a game in progress must hold {size} cards")
        if any(self.table):
            raise InvalidState("cards are on the table between engagements")
        if not self.pending_seats():
            raise InvalidState("every order is locked but the engagement was not played")

    def _saved_cards(self, pile: Any, what: str) -> list[str]:
        if type(pile) is list:
            try:
                if _NOTATION_SEEN[self.tarot].issuperset(pile):  # (a saved game holds thousands: one check each)
                    return list(pile)
            except TypeError:  # something unhashable in it: said below
                pass
        if not isinstance(pile, list) or not all(isinstance(card, str) for card in pile):
            raise InvalidState(f"a saved {what} is not a list of cards")
        for card in pile:
            if not _in_notation(card, self.tarot):
                raise InvalidState(f"a saved {what} holds {card!r}, which is not written in card notation")
            _NOTATION_SEEN[self.tarot].add(card)
        return list(pile)

    def _played_json(self) -> list[dict[str, list[list[str]]]]:
        return [{key: [list(cards) for cards in piles] for key, piles in engagement.items()}
                for engagement in self.played]

    def _saved_played(self, played: Any) -> list[dict[str, list[list[str]]]]:
        engagements_played = self.engagement - (0 if self.is_over else 1)
        if not isinstance(played, list) or len(played) > engagements_played:
            raise InvalidState("the saved engagements played are damaged")
        engagements = []
        for engagement in played:
            if not isinstance(engagement, Mapping) or set(engagement) != {"stacks", "orders"}:
                raise InvalidState("a saved engagement played needs its stacks and orders")
            stacks = [self._saved_cards(pile, "stack played") for pile in _per_seat(engagement["stacks"], "stacks", 2)]
            orders = [self._saved_cards(pile, "order played") for pile in _per_seat(engagement["orders"], "orders", 2)]
            if any(sorted(order) != sorted(stack) for stack, order in zip(stacks, orders, strict=True)):
                raise InvalidState("a saved order played is not an order of its stack")
            engagements.append({"stacks": stacks, "orders": orders})
        return engagements

    def _check_position(self) -> None:
        """Raise InvalidState unless the loaded state is a position Air War can reach."""
        size = self.stack_size
        for seat in self.seats:
            self._check_cards_fit(
                seat, self.decks[seat] + self.stacks[seat] + self.table[seat] + self.discards[seat]
            )
        if self.n != 2:
            self._check_position_of_many()
            return
        if len(self.table[0]) != len(self.table[1]):
            raise InvalidState("the two sides of the table must hold as many cards each")
        if self.is_over:
            full = [len(stack) for stack in self.stacks] == [size, size]
            if self.stacks != [[], []] and not full:
                raise InvalidState("a finished game's stacks must be empty or full")
            if any(o is not None for o in self.orders) and not full:
                raise InvalidState("a finished game holds an order without its stack")
            if self.table[0] and self.stacks != [[], []]:
                raise InvalidState("a finished game cannot have both a tie on the table and stacks to play")
        else:
            if self.engagement < 1:
                raise InvalidState("a game in progress is in engagement 1 or later")
            if [len(stack) for stack in self.stacks] != [size, size]:
                raise InvalidState(f"each stack of a game in progress must hold {size} cards")
            if self.table != [[], []]:
                raise InvalidState("cards are on the table between engagements")
            if all(o is not None for o in self.orders):
                raise InvalidState("both orders are locked but the engagement was not played")
        for seat in SEATS:
            order = self.orders[seat]
            if order is not None and sorted(order) != sorted(self.stacks[seat]):
                raise InvalidState(f"seat {seat}'s saved order is not an order of its stack")


#: with or without tarot trumps: the cards found written in card notation so far (:meth:`AirWar._saved_cards`)
_NOTATION_SEEN: dict[bool, set[str]] = {False: set(), True: set()}


@functools.lru_cache(maxsize=512)
def _in_notation(card: str, tarot: bool) -> bool:
    """``card`` is a card written in card notation (a saved game holds thousands: each is checked once)."""
    try:
        return parse_card(card, tarot=tarot) == card
    except InvalidCard:
        return False


def finishing_places(winner: int | None, in_game: Sequence[bool], out_order: Sequence[int],
                     together: Sequence[int] = ()) -> list[int]:
    """Each seat's finishing place in a game of three or four (1: first; seats that finished together share a
    place): the winner; whoever was still in at the end; in a draw, the seats that went out last together (first
    place, shared); then the others, the last to go out first and the first out last."""
    places = [0] * len(in_game)
    groups: list[list[int]] = [[winner]] if winner is not None else []
    groups.append([seat for seat, flag in enumerate(in_game) if flag and seat != winner])
    groups.append([seat for seat in together if seat != winner])
    groups += [[seat] for seat in reversed(out_order) if seat != winner and seat not in together]
    place = 1
    for group in groups:
        for seat in group:
            places[seat] = place
        place += len(group)
    return places


def _per_seat(value: Any, what: str, seats: int) -> list[Any]:
    if not isinstance(value, list) or len(value) != seats:
        raise InvalidState(f"the saved {what} must be a list of {seats}, one per seat")
    return value


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidState(f"the saved {what} must be a whole number, 0 or more")
    return value
