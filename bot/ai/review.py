"""What the equilibrium says to a player: a hint while ordering, and the accuracy of a finished match.

Both read public facts only: a hint is computed from the position every player sees (never the opponent's locked
order, which no view shows); the review of a finished match replays its match file.

* **Hint**: the orders the equilibrium plays most, with their probabilities, the engagement's value to the seat,
  and, for a complete order being built, what it gets against the opponent's equilibrium mix.
* **Accuracy**: each engagement's *regret* is what the chosen order loses, against the opponent's equilibrium mix,
  next to the equilibrium's own mix (0 for an order the equilibrium plays). Values are in ``[-1, 1]`` (a win is 1),
  so a regret read as win chances is ``50 · regret`` points; accuracy maps the mean of those the way chess sites
  do, ``103.1668 · e^(−0.04354 · loss) − 3.1669``, clamped to 0–100 (100: every order an equilibrium order).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bot.ai.airwar import Engagement, Position, card_order
from bot.ai.oracle import BUDGET_SECONDS, Solution, equilibrium
from bot.ai.values import value_model
from bot.cards import strength_table
from bot.games.airwar.engine import AirWar
from bot.replay import apply_move, moves_of, new_game

HINT_ORDERS = 3


def _strength(rules: Mapping[str, Any]) -> Mapping[str, int]:
    return strength_table(aces_high=rules["aces"] == "high", tarot=rules["deck"] == "tarot")


@dataclass(frozen=True)
class Hint:
    """``orders``: the equilibrium's most played orders (cards) with their probabilities, most played first;
    ``value``: the engagement's value to the seat; ``draft_value``: what a complete draft gets against the
    opponent's equilibrium mix (``None`` while it is incomplete)."""

    orders: list[tuple[list[str], float]]
    value: float
    draft_value: float | None


def _seat_view(engagement: Engagement, found: Solution, seat: int) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                           float]:
    """The seat's payoff rows against the opponent's equilibrium support, both mixes and the value (to the seat)."""
    if seat == 0:
        support = np.flatnonzero(found.columns)
        rows = engagement.block(range(len(engagement.orders[0])), support)
        return rows, found.rows, found.columns[support], found.value
    support = np.flatnonzero(found.rows)
    rows = -engagement.block(support, range(len(engagement.orders[1]))).T
    return rows, found.columns, found.rows[support], -found.value


def hint(view: Mapping[str, Any], seat: int, draft: Sequence[str] = (), budget: float = BUDGET_SECONDS) -> Hint:
    """The hint for ``seat`` from any view of the position (it reads only what everyone sees)."""
    engagement = Engagement(Position.from_view(view), value_model(view["rules"]))
    rows, mix, opponent_mix, value = _seat_view(engagement, equilibrium(engagement, budget), seat)
    strength = _strength(view["rules"])
    stack = view["stacks"][seat]
    ranked = sorted(np.flatnonzero(mix > 1e-9).tolist(), key=lambda index: -mix[index])[:HINT_ORDERS]
    orders = [(card_order(stack, engagement.orders[seat][index], strength), float(mix[index])) for index in ranked]
    draft_value = None
    if len(draft) == len(stack):
        index = engagement.orders[seat].index(tuple(strength[card] for card in draft))
        draft_value = float(rows[index] @ opponent_mix)
    return Hint(orders, value, draft_value)


@dataclass(frozen=True)
class EngagementReview:
    number: int
    regrets: tuple[float, float]  # per seat, in value units (0: an equilibrium order)


@dataclass(frozen=True)
class Review:
    engagements: list[EngagementReview]

    def accuracy(self, seat: int) -> float:
        if not self.engagements:
            return 100.0
        loss = 50.0 * sum(review.regrets[seat] for review in self.engagements) / len(self.engagements)
        return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * loss) - 3.1669))

    def costliest(self, seat: int) -> EngagementReview | None:
        worst = max(self.engagements, key=lambda review: review.regrets[seat], default=None)
        return worst if worst is not None and worst.regrets[seat] > 1e-9 else None


def review(match: Mapping[str, Any], budget: float = BUDGET_SECONDS) -> Review:
    """Every engagement of an Air War match file, each seat's order measured against the equilibrium."""
    game = new_game(match)
    if not isinstance(game, AirWar):
        raise ValueError("only Air War matches are reviewed")
    reviews = []
    for move in moves_of(match):
        if game.is_over:
            break
        orders = move.get("orders") if isinstance(move, Mapping) else None
        if orders is not None:
            reviews.append(_review_engagement(game, orders, budget))
        apply_move(game, move)
    return Review(reviews)


def _review_engagement(game: AirWar, orders: Sequence[Sequence[str]], budget: float) -> EngagementReview:
    view = game.view(None)
    engagement = Engagement(Position.from_view(view), value_model(game.rules))
    strength = _strength(game.rules)
    found = equilibrium(engagement, budget)
    regrets = []
    for seat in (0, 1):
        rows, mix, opponent_mix, _ = _seat_view(engagement, found, seat)
        against = rows @ opponent_mix  # each of the seat's orders against the opponent's equilibrium mix
        chosen = engagement.orders[seat].index(tuple(strength[card] for card in orders[seat]))
        regrets.append(max(0.0, float(mix @ against - against[chosen])))
    return EngagementReview(game.engagement, (regrets[0], regrets[1]))


def summary(match: Mapping[str, Any], budget: float = BUDGET_SECONDS) -> dict[str, Any]:
    """A finished match's review as plain data (what the bot posts): each seat's accuracy, and its costliest
    engagement with what it cost in win-chance points (``None``: every order was an equilibrium order)."""
    reviewed = review(match, budget)
    costliest = []
    for seat in (0, 1):
        worst = reviewed.costliest(seat)
        costliest.append(None if worst is None else {"engagement": worst.number,
                                                     "points": round(50.0 * worst.regrets[seat], 1)})
    return {"accuracy": [round(reviewed.accuracy(seat), 1) for seat in (0, 1)], "costliest": costliest}


def hint_data(view: Mapping[str, Any], seat: int, draft: Sequence[str] = ()) -> dict[str, Any]:
    """:func:`hint` as plain data (what a click asks the thinking process for)."""
    found = hint(view, seat, draft)
    return {"orders": [[order, probability] for order, probability in found.orders], "value": found.value,
            "draft_value": found.draft_value}
