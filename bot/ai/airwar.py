"""Air War's engagement as a zero-sum matrix game over the two stacks' play orders.

Everything in Air War is public except the orders being chosen: both stacks, every flip, the discards, the known
bottom of each deck and how many unseen cards lie above it. The seat to choose therefore plays one matrix game per
engagement. Its strategies are the *distinct strength orders* of its stack (two cards of one strength are the same
card to the fight), and the payoff of a pair of orders is the expected value, to seat 0, of the position the
engagement leaves:

* the flips while the stacks last follow from the two orders alone;
* a tie left when the stacks are spent is settled from the deck tops. Each deck's unseen top part is a shuffle of
  exactly the cards of its owner's pack that nobody has seen (decks never mix), and below it lies the known bottom
  (cards won back, in order, this engagement's included), so the tie's expectation is exact: every draw is
  enumerated with its probability;
* the position is scored by a :class:`ValueModel`: the game's end (a player out of tie-breakers, or unable to draw
  the next stack) is worth ±1, otherwise a logistic win probability of the strength-weighted material each seat
  keeps, mapped to ``[-1, 1]``.

The module is pure: it reads an engine's public view and never its hidden deck tops.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from bot.cards import strength_table
from bot.games.airwar.engine import pack_for

#: the outcome of one engagement for the value model: seat 0's winning, a draw, seat 1's winning, or play goes on
WIN, DRAW, LOSS, ON = 1.0, 0.0, -1.0, None
#: tied draws from the decks in a row after which the next draw settles the tie (see ``Engagement._tail``)
MAX_TIE_DRAWS = 2


@dataclass(frozen=True)
class ValueModel:
    """A position's worth to seat 0 in ``[-1, 1]``: ``2·σ(scale · Σ weight(strength) · (n₀ − n₁)) − 1`` over the
    cards each seat owns (deck and stack), with ``weights`` by strength (a strength not listed weighs
    ``default_weight``)."""

    scale: float = 0.15
    weights: Mapping[int, float] = field(default_factory=dict)
    default_weight: float = 1.0

    def weight(self, strength: int) -> float:
        return self.weights.get(strength, self.default_weight)

    def worth(self, advantage: float) -> float:
        """The value of a weighted material ``advantage`` to seat 0 (a game still being played)."""
        return 2.0 / (1.0 + math.exp(-self.scale * advantage)) - 1.0


MATERIAL = ValueModel()


@dataclass(frozen=True)
class Position:
    """An engagement as both players see it before ordering (strengths only; top card first everywhere)."""

    stacks: tuple[tuple[int, ...], tuple[int, ...]]
    unseen: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]  # per seat: (strength, count), sorted
    bottoms: tuple[tuple[int, ...], tuple[int, ...]]
    owned: tuple[tuple[int, ...], tuple[int, ...]]  # every card each seat owns: its deck and its stack
    stack_size: int

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Position:
        """The position of an Air War view (a seat's or a spectator's: they hold the same public facts)."""
        if len(view["stacks"]) != 2:
            raise ValueError("an engagement's matrix game is played by two; see bot.ai.many for more")
        rules = view["rules"]
        tarot = rules["deck"] == "tarot"
        strength = strength_table(aces_high=rules["aces"] == "high", tarot=tarot)
        stacks = tuple(tuple(strength[card] for card in stack) for stack in view["stacks"])
        bottoms = tuple(tuple(strength[card] for card in deck["cards"]) for deck in view["deck_bottoms"])
        unseen = []
        owned = []
        for seat in (0, 1):
            left = Counter(pack_for(rules["deck"]))
            seen = [*view["stacks"][seat], *view["deck_bottoms"][seat]["cards"], *view["discards"][seat],
                    *view["table"][seat]]
            left.subtract(seen)
            cards = Counter(strength[card] for card, count in left.items() for _ in range(count))
            if sum(cards.values()) != view["deck_bottoms"][seat]["unknown_above"]:
                raise ValueError(f"seat {seat}'s unseen cards do not add up to its deck's unknown top")
            unseen.append(tuple(sorted(cards.items())))
            owned.append(tuple(sorted([*stacks[seat], *bottoms[seat], *cards.elements()])))
        return cls(stacks, tuple(unseen), bottoms, tuple(owned), int(view["stack_size"]))  # type: ignore[arg-type]


def strength_orders(stack: Sequence[int]) -> list[tuple[int, ...]]:
    """The distinct orders of a stack's strengths, in a fixed order (sorted)."""
    return sorted(set(itertools.permutations(stack)))


def card_order(cards: Sequence[str], order: Sequence[int], strength: Mapping[str, int]) -> list[str]:
    """The stack's cards in ``order`` (strengths); cards of one strength go in the order they were drawn."""
    left = list(cards)
    chosen = []
    for wanted in order:
        card = next(card for card in left if strength[card] == wanted)
        left.remove(card)
        chosen.append(card)
    return chosen


@dataclass(frozen=True)
class _Ending:
    """How an engagement left the game: weighted material seat 1 lost minus seat 0's, the cards each lost, and
    the game's end when a tie-breaker was missing (``WIN``/``DRAW``/``LOSS`` for seat 0; ``ON``: none)."""

    advantage: float
    lost: tuple[int, int]
    ended: float | None = ON


_Unseen = tuple[tuple[int, int], ...]  # a deck's unseen cards: (strength, count), by strength


@dataclass(frozen=True)
class _Tail:
    """How a tie settled from the decks ended: the ``loser`` of the fight, the ``weight`` of the cards it drew
    and how many ``draws`` each seat made; or the game's end (``ended``) when a seat had no card to draw."""

    loser: int = 0
    weight: float = 0.0
    draws: int = 0
    ended: float | None = ON


class Engagement:
    """The payoff of every pair of orders of one position (see the module docstring)."""

    def __init__(self, position: Position, model: ValueModel = MATERIAL) -> None:
        self.position = position
        self.model = model
        self.orders = (strength_orders(position.stacks[0]), strength_orders(position.stacks[1]))
        weight = model.weight
        self._before = sum(weight(s) for s in position.owned[0]) - sum(weight(s) for s in position.owned[1])
        self._owned = (len(position.owned[0]), len(position.owned[1]))
        self._tail = lru_cache(maxsize=None)(self._tail_uncached)
        # every order as a row of strengths, and of the model's weights (built once: blocks index them)
        self._arrays = tuple(np.array(orders, dtype=float).reshape(len(orders), -1) for orders in self.orders)
        levels = {level: weight(level) for stack in position.stacks for level in stack}
        self._weights = tuple(np.vectorize(levels.__getitem__, otypes=[float])(array) if array.size else array
                              for array in self._arrays)

    def value_of(self, ending: _Ending) -> float:
        if ending.ended is not ON:
            return ending.ended
        short = [self._owned[seat] - ending.lost[seat] < self.position.stack_size for seat in (0, 1)]
        if short[0] and short[1]:
            return DRAW
        if short[0] or short[1]:
            return LOSS if short[0] else WIN
        return self.model.worth(self._before + ending.advantage)

    def payoff(self, first: Sequence[int], second: Sequence[int]) -> float:
        """Seat 0's expected value when seat 0 plays ``first`` and seat 1 plays ``second`` (strength orders)."""
        return sum(probability * self.value_of(ending) for probability, ending in self.endings(first, second))

    def matrix(self) -> np.ndarray:
        """The payoff of every pair: rows are seat 0's :attr:`orders`, columns seat 1's."""
        return self.block(range(len(self.orders[0])), range(len(self.orders[1])))

    def block(self, rows: Sequence[int], columns: Sequence[int]) -> np.ndarray:
        """The payoff of the pairs of ``rows`` (indexes into seat 0's :attr:`orders`) and ``columns`` (seat 1's).

        The flips of all pairs are played at once, flip by flip. A pair whose last fight is still tied is settled
        from the decks. Pairs that reach the tie the same way (the same material, tied cards and, when a tie can get
        through a deck's known bottom to the cards won this engagement, the same first of those) share one
        settlement, every tail of it scored at once."""
        rows, columns = np.asarray(rows, dtype=int), np.asarray(columns, dtype=int)
        firsts, seconds = self._arrays[0][rows], self._arrays[1][columns]
        first_weights, second_weights = self._weights[0][rows], self._weights[1][columns]
        shape = (len(rows), len(columns))
        flips = firsts.shape[1]
        unseen, bottoms = self.position.unseen, self.position.bottoms
        needed = [max(0, MAX_TIE_DRAWS + 1 - sum(count for _, count in cards)) for cards in unseen]
        beyond = [max(0, needed[seat] - len(bottoms[seat])) for seat in (0, 1)]  # won cards a tail may reach
        owner = np.full((*shape, flips), -1, dtype=np.int8) if any(beyond) else None  # who won each flip's cards
        advantage = np.zeros(shape)
        lost = [np.zeros(shape), np.zeros(shape)]
        pending = [np.zeros(shape), np.zeros(shape)]
        tied = np.zeros(shape)
        for flip in range(flips):
            first, second = firsts[:, flip][:, None], seconds[:, flip][None, :]
            pending[0] = pending[0] + first_weights[:, flip][:, None]
            pending[1] = pending[1] + second_weights[:, flip][None, :]
            tied = tied + 1
            won, beaten = first > second, first < second
            advantage += np.where(won, pending[1], 0.0) - np.where(beaten, pending[0], 0.0)
            lost[1] += np.where(won, tied, 0.0)
            lost[0] += np.where(beaten, tied, 0.0)
            settled = won | beaten
            if owner is not None:
                for earlier in range(flip + 1):  # the fight's flips: from its first tie to this one
                    in_fight = settled & (flip - tied < earlier)
                    owner[..., earlier] = np.where(in_fight, np.where(won, 0, 1), owner[..., earlier])
            pending = [np.where(settled, 0.0, pending[0]), np.where(settled, 0.0, pending[1])]
            tied = np.where(settled, 0.0, tied)
        payoff = self._score(advantage, lost[0], lost[1])
        open_ties = tied > 0
        if not open_ties.any():
            return payoff
        cells = np.nonzero(open_ties)
        key_columns = [advantage[cells], tied[cells], pending[0][cells], pending[1][cells], lost[0][cells],
                       lost[1][cells]]
        if owner is not None:
            cards = (np.broadcast_to(firsts[:, None, :], (*shape, flips)),
                     np.broadcast_to(seconds[None, :, :], (*shape, flips)))
            for seat in (0, 1):
                own = owner[cells] == seat
                place = np.cumsum(own, axis=1)
                for index in range(beyond[seat]):
                    hit = own & (place == index + 1)
                    key_columns.append(np.where(hit.any(axis=1), (cards[seat][cells] * hit).sum(axis=1), -1.0))
        ways, which = np.unique(np.stack(key_columns, axis=1), axis=0, return_inverse=True)
        if owner is None:
            reach = _reachable(unseen[0], bottoms[0], unseen[1], bottoms[1], 0)
            values = self._tails_value(ways, self._tail(unseen[0], unseen[1], *reach))
        else:
            values = np.empty(len(ways))
            won, at = np.unique(ways[:, 6:], axis=0, return_inverse=True)  # ways that reach the same cards
            at = at.reshape(-1)
            for index, cards_won in enumerate(won):
                firsts_won = (cards_won[:beyond[0]], cards_won[beyond[0]:])
                reach = tuple((*bottoms[seat], *(int(c) for c in firsts_won[seat] if c >= 0))[:needed[seat]]
                              for seat in (0, 1))
                alike = at == index
                values[alike] = self._tails_value(ways[alike, :6], self._tail(unseen[0], unseen[1], *reach))
        payoff[cells] = values[which.reshape(-1)]
        return payoff

    def _tails_value(self, ways: np.ndarray, tails: Sequence[tuple[float, _Tail]]) -> np.ndarray:
        """The expected value of each way to a tie left open (rows of ``ways``: weighted material so far, tied
        cards on the table, what seat 0's and seat 1's tied cards weigh, the cards each lost) over the ``tails``."""
        base, cards = ways[:, 0:1], ways[:, 1:2]
        owed, dropped = (ways[:, 2:3], ways[:, 3:4]), (ways[:, 4:5], ways[:, 5:6])
        value = np.full(len(ways), sum(probability * tail.ended for probability, tail in tails
                                       if tail.ended is not ON), dtype=float)
        for loser in (0, 1):
            going_on = [(probability, tail) for probability, tail in tails if tail.ended is ON and tail.loser == loser]
            if not going_on:
                continue
            probabilities = np.array([probability for probability, _ in going_on])
            weights = np.array([tail.weight for _, tail in going_on])[None, :]
            draws = np.array([tail.draws for _, tail in going_on], dtype=float)[None, :]
            given = owed[loser] + weights  # ways x tails
            lost_now = [dropped[0] + 0 * draws, dropped[1] + 0 * draws]
            lost_now[loser] = dropped[loser] + cards + draws
            value += self._score(base + (given if loser == 1 else -given), *lost_now) @ probabilities
        return value

    def _score(self, advantage: np.ndarray, lost_0: np.ndarray, lost_1: np.ndarray) -> np.ndarray:
        """:meth:`value_of`, for arrays of endings that played on."""
        short_0 = self._owned[0] - lost_0 < self.position.stack_size
        short_1 = self._owned[1] - lost_1 < self.position.stack_size
        worth = 2.0 / (1.0 + np.exp(-self.model.scale * (self._before + advantage))) - 1.0
        return np.where(short_0 & short_1, DRAW, np.where(short_0, LOSS, np.where(short_1, WIN, worth)))

    def endings(self, first: Sequence[int], second: Sequence[int]) -> list[tuple[float, _Ending]]:
        """Every way the engagement can end, with its probability (one way unless a tie outlasts the stacks)."""
        weight = self.model.weight
        bottoms = [list(self.position.bottoms[0]), list(self.position.bottoms[1])]
        table: list[list[int]] = [[], []]
        advantage = 0.0
        lost = [0, 0]
        for card_0, card_1 in zip(first, second, strict=True):
            table[0].append(card_0)
            table[1].append(card_1)
            if card_0 == card_1:
                continue
            winner = 0 if card_0 > card_1 else 1
            loser = 1 - winner
            bottoms[winner].extend(table[winner])
            lost[loser] += len(table[loser])
            advantage += (1 if loser == 1 else -1) * sum(weight(s) for s in table[loser])
            table = [[], []]
        if not table[0]:
            return [(1.0, _Ending(advantage, (lost[0], lost[1])))]
        unseen = self.position.unseen
        pending = (sum(weight(s) for s in table[0]), sum(weight(s) for s in table[1]))
        reachable = _reachable(unseen[0], tuple(bottoms[0]), unseen[1], tuple(bottoms[1]), 0)
        endings = []
        for probability, tail in self._tail(unseen[0], unseen[1], *reachable):
            if tail.ended is not ON:
                endings.append((probability, _Ending(advantage, (lost[0], lost[1]), tail.ended)))
                continue
            loser = tail.loser
            given = pending[loser] + tail.weight
            lost_now = [lost[0], lost[1]]
            lost_now[loser] += len(table[loser]) + tail.draws
            endings.append((probability, _Ending(advantage + (given if loser == 1 else -given),
                                                 (lost_now[0], lost_now[1]))))
        return endings

    def _tail_uncached(self, unseen_0: _Unseen, unseen_1: _Unseen, bottom_0: tuple[int, ...],
                       bottom_1: tuple[int, ...], draws: int = 0) -> list[tuple[float, _Tail]]:
        """A tie settled from the deck tops: each seat draws its deck's top card (a uniformly random unseen card
        while any is left, then the known bottom in order) until the pair differs or a seat has no card. After
        :data:`MAX_TIE_DRAWS` tied draws in a row the next draw settles the fight as if it could not tie (its
        other outcomes in proportion). What the tied cards already on the table weigh is added by the caller:
        the tail is the same for every pair of orders, and cached."""
        empty = [not unseen_0 and not bottom_0, not unseen_1 and not bottom_1]
        if empty[0] or empty[1]:
            return [(1.0, _Tail(ended=DRAW if empty[0] and empty[1] else (LOSS if empty[0] else WIN)))]
        weight = self.model.weight
        tops_0 = dict(_tops(unseen_0, bottom_0))
        tops_1 = dict(_tops(unseen_1, bottom_1))
        outcomes: Counter[_Tail] = Counter()
        for loser, losing, winning in ((1, tops_1, tops_0), (0, tops_0, tops_1)):
            strengths = sorted(winning)
            above = [*reversed([*itertools.accumulate(winning[card][0] for card in reversed(strengths))]), 0.0]
            for card, (chance, _, _) in losing.items():
                beaten_by = above[bisect.bisect_right(strengths, card)]
                if beaten_by:
                    outcomes[_Tail(loser=loser, weight=weight(card), draws=1)] += chance * beaten_by
        if draws >= MAX_TIE_DRAWS:  # settle the fight at this draw, as if a tie could not happen again
            settled = sum(outcomes.values())
            return [(probability / settled, tail) for tail, probability in outcomes.items()] if settled \
                else [(0.5, _Tail(loser=1, draws=1)), (0.5, _Tail(loser=0, draws=1))]
        for card, (chance_0, rest_0, next_bottom_0) in tops_0.items():
            if card not in tops_1:
                continue
            chance_1, rest_1, next_bottom_1 = tops_1[card]
            reachable = _reachable(rest_0, next_bottom_0, rest_1, next_bottom_1, draws + 1)
            for inner, tail in self._tail(rest_0, rest_1, *reachable, draws + 1):
                if tail.ended is not ON:
                    outcomes[tail] += chance_0 * chance_1 * inner
                else:
                    longer = _Tail(loser=tail.loser, weight=tail.weight + weight(card), draws=tail.draws + 1)
                    outcomes[longer] += chance_0 * chance_1 * inner
        return [(probability, tail) for tail, probability in outcomes.items()]


def _reachable(unseen_0: _Unseen, bottom_0: tuple[int, ...], unseen_1: _Unseen, bottom_1: tuple[int, ...],
               draws: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The part of each known bottom a tail can still reach (the rest never matters, so the cache shares it)."""
    left = MAX_TIE_DRAWS - draws + 1
    return (bottom_0[:max(0, left - sum(count for _, count in unseen_0))],
            bottom_1[:max(0, left - sum(count for _, count in unseen_1))])


def _tops(unseen: tuple[tuple[int, int], ...], bottom: tuple[int, ...]):
    """A deck's possible top cards: ``(strength, (probability, unseen left, bottom left))``."""
    total = sum(count for _, count in unseen)
    if not total:
        yield bottom[0], (1.0, unseen, bottom[1:])
        return
    for index, (strength, count) in enumerate(unseen):
        rest = unseen[:index] + (((strength, count - 1),) if count > 1 else ()) + unseen[index + 1:]
        yield strength, (count / total, rest, bottom)
