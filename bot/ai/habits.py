"""The expert: the equilibrium, shifted a bounded step toward the best reply to what the opponent has shown.

Every engagement of two players is public once flipped (the view's ``played``: the stack each player drew and the
order they flipped it in). A habit model predicts the opponent's next order from those:

* how often they played their stack as drawn (a player who never arranges, or lets the deadline pass);
* where they put their strong and weak cards: a table of (third of the order, third of the stack's ranks),
  counted with a pseudo-count in every cell; an order's likelihood is the product of its cells.

The prediction keeps the :data:`TOP` orders the model finds likeliest, and the expert's best reply to it is found
among all its own orders. The expert then plays the equilibrium mixed with that reply, with the largest share of
the reply whose worst case loses at most :func:`allowed_loss` against the equilibrium's own worst case: a bound
that starts at nothing and grows as the habits foretell the orders that follow them better than chance, so it
cannot be lured far from the equilibrium, and against a player with no habit it stays there.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bot.ai.airwar import Engagement, strength_orders
from bot.ai.oracle import Solution

#: the order and the stack's ranks are each cut into this many parts for the placement table
PARTS = 3
#: the opponent's orders the prediction keeps (the likeliest)
TOP = 48
#: the most the shift may give up in the worst case, in the engagement's value (a win is 1, a loss -1), reached once
#: the habits foretold the orders seen at least this much better than chance (mean log-likelihood ratio, nats) ...
MAX_LOSS = 0.08
FULL_FORESIGHT = 1.0
#: ... and approached as orders are foretold: half of it after this many
EVIDENCE = 3
#: seconds of the expert's budget kept for the shift (the rest goes to the equilibrium)
SHIFT_RESERVE = 0.4
#: a reply must gain at least this much over the equilibrium against the prediction to be mixed in
MIN_GAIN = 1e-6


def allowed_loss(habits: Habits) -> float:
    """How much worst-case value the expert may give up against a player of these habits."""
    return MAX_LOSS * habits.confidence


def _ranks(strengths: Sequence[int]) -> dict[int, float]:
    """Each strength's rank in the stack, 0 for the weakest (cards of one strength share their mean rank)."""
    ordered = sorted(strengths)
    return {level: float(np.mean([i for i, s in enumerate(ordered) if s == level])) for level in set(ordered)}


def _part(index: np.ndarray | float, size: int) -> np.ndarray:
    return np.minimum((PARTS * (np.asarray(index) + 0.5) / size).astype(int), PARTS - 1)


@dataclass(frozen=True)
class Habits:
    """What a player's past orders show: how many were ``seen``, how many were played ``as_drawn``, the
    ``placements`` table (rows: a third of the order, columns: a third of the stack's ranks, counts) and the
    ``foresight``: how much better than chance the habits of the orders before each one foretold it (the sum, over
    every order after the first, of the log of its predicted probability times the number of orders it was one of).
    A player with no habit leaves it near 0 or below; one who plays by a rule drives it up."""

    seen: int
    as_drawn: int
    placements: np.ndarray
    foresight: float = 0.0

    @classmethod
    def of(cls, played: Sequence[Mapping[str, Any]], seat: int, strength: Mapping[str, int]) -> Habits:
        """The habits of ``seat`` in the engagements ``played`` (a view's ``played``)."""
        habits = cls(0, 0, np.zeros((PARTS, PARTS)))
        for engagement in played:
            habits = habits.after(tuple(strength[card] for card in engagement["stacks"][seat]),
                                  tuple(strength[card] for card in engagement["orders"][seat]))
        return habits

    def after(self, stack: tuple[int, ...], order: tuple[int, ...]) -> Habits:
        """These habits and one more order (strengths) of a stack drawn as ``stack``."""
        foresight = self.foresight
        if self.seen:
            orders = strength_orders(stack)
            foresight += math.log(self.predict(orders, stack)[orders.index(order)] * len(orders))
        placements = self.placements.copy()
        ranks = _ranks(stack)
        for place, level in enumerate(order):
            placements[_part(place, len(order)), _part(ranks[level], len(order))] += 1
        return Habits(self.seen + 1, self.as_drawn + (order == stack), placements, foresight)

    @property
    def confidence(self) -> float:
        """How far to trust the habits, 0 to 1: their foresight per order foretold against :data:`FULL_FORESIGHT`,
        times the share the orders foretold so far give (half after :data:`EVIDENCE`)."""
        foretold = self.seen - 1
        if foretold < 1:
            return 0.0
        return min(1.0, max(0.0, self.foresight / foretold / FULL_FORESIGHT)) * foretold / (foretold + EVIDENCE)

    def predict(self, orders: Sequence[tuple[int, ...]], drawn: tuple[int, ...]) -> np.ndarray:
        """The probability of each of the player's ``orders`` (strength orders of a stack drawn as ``drawn``)."""
        size = len(drawn)
        array = np.array(orders, dtype=int).reshape(len(orders), size)
        ranks = _ranks(drawn)
        rank_parts = _part(np.vectorize(ranks.__getitem__, otypes=[float])(array), size) if array.size else array
        smoothed = self.placements + 1.0
        log_cells = np.log(smoothed / smoothed.sum(axis=1, keepdims=True))
        place_parts = _part(np.arange(size), size)
        likelihood = log_cells[place_parts[None, :], rank_parts].sum(axis=1)
        placed = np.exp(likelihood - likelihood.max())
        placed /= placed.sum()
        drawn_share = (self.as_drawn + 0.5) / (self.seen + 2)
        prediction = (1 - drawn_share) * placed
        prediction[list(orders).index(drawn)] += drawn_share
        return prediction


@dataclass(frozen=True)
class Shift:
    """The expert's strategy over the seat's orders, the share of the best reply in it and what that reply was
    expected to gain over the equilibrium against the prediction."""

    strategy: np.ndarray
    share: float
    gain: float


def _seat_block(engagement: Engagement, seat: int, mine: Sequence[int], theirs: Sequence[int]) -> np.ndarray:
    """Payoffs to ``seat``: rows its orders ``mine``, columns the opponent's ``theirs``."""
    if seat == 0:
        return engagement.block(mine, theirs)
    return -engagement.block(theirs, mine).T


def shift(engagement: Engagement, seat: int, found: Solution, habits: Habits) -> Shift:
    """The equilibrium ``found`` for ``seat``, shifted toward the best reply to the ``habits``' prediction."""
    equilibrium_mix = found.rows if seat == 0 else found.columns
    allowed = allowed_loss(habits)
    if allowed <= 0:
        return Shift(equilibrium_mix, 0.0, 0.0)
    other = 1 - seat
    prediction = habits.predict(engagement.orders[other], engagement.position.stacks[other])
    likeliest = np.argsort(-prediction, kind="stable")[:TOP]
    weights = prediction[likeliest] / prediction[likeliest].sum()
    against = _seat_block(engagement, seat, range(len(engagement.orders[seat])), likeliest) @ weights
    reply = int(np.argmax(against))
    gain = float(against[reply] - equilibrium_mix @ against)
    if gain <= MIN_GAIN:
        return Shift(equilibrium_mix, 0.0, gain)
    support = sorted(set(np.flatnonzero(equilibrium_mix).tolist()) | {reply})
    rows = _seat_block(engagement, seat, support, range(len(engagement.orders[other])))
    equilibrium_row = equilibrium_mix[support] @ rows
    reply_row = rows[support.index(reply)]
    guaranteed = float(equilibrium_row.min())

    def loss(share: float) -> float:
        return guaranteed - float(((1 - share) * equilibrium_row + share * reply_row).min())

    low, high = 0.0, 1.0
    if loss(high) > allowed:  # the loss is convex in the share and 0 at 0: bisect its edge
        for _ in range(30):
            middle = (low + high) / 2
            low, high = (middle, high) if loss(middle) <= allowed else (low, middle)
    else:
        low = high
    strategy = (1 - low) * equilibrium_mix
    strategy[reply] += low
    return Shift(strategy, low, gain)
