"""What the bot tells a player in a practice match: a hint while ordering, and the accuracy of a finished match.

Both read public facts only: a hint is computed from the position every player sees (never the opponent's locked
order, which no view shows); the review of a finished match replays its match file.

**The best order.** Each engagement is a zero-sum game (:mod:`bot.ai.airwar`); its equilibrium gives the
opponent's best mix of orders. Every order of the seat is scored by what it gets against that mix (its value, in
``[-1, 1]``); the best order is the one that gets the most (at an exact equilibrium, every order the equilibrium
itself plays ties for best, and no order gets more).

* **Hint**: the best order (among equally good ones, the one the equilibrium plays most), a reason read from the
  position (:func:`_reason`), which other orders are just as good (or, when none is, a close second), and, for a
  complete order being built, how it compares with the best.
* **Accuracy**: each engagement's *regret* is what the chosen order gets less than the best order, and its *stake*
  what the best order gets more than the worst one (both against the opponent's best mix). A player's accuracy is
  ``100 · (1 − Σ regret / Σ stake)`` over the engagements they played: the share of what their choices could win
  or lose that they kept. 100% means the best order every engagement, 0% the worst one every engagement; an
  engagement where every order is worth the same counts for nothing (its stake is 0). No stake at all: 100%.
"""

from __future__ import annotations

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

#: two values closer than this are the same (a float's noise)
SAME = 1e-6
#: an order whose regret is at most this (a value unit: a sure win is 1) is "almost as good" as the best
CLOSE = 0.02
#: a probability from which something "most likely" happens
LIKELY = 0.5


def _strength(rules: Mapping[str, Any]) -> Mapping[str, int]:
    return strength_table(aces_high=rules["aces"] == "high", tarot=rules["deck"] == "tarot")


def accuracy_percent(regrets: Sequence[float], stakes: Sequence[float]) -> float:
    """``100 · (1 − Σ regrets / Σ stakes)``, clamped to 0–100 (100 when nothing was at stake): see the module
    docstring. Shared by every game whose plays are reviewed (:mod:`bot.ai.army_review`)."""
    stake = sum(stakes)
    if stake <= SAME:
        return 100.0
    return max(0.0, min(100.0, 100.0 * (1.0 - sum(regrets) / stake)))


def plays_alike(values: np.ndarray, best: int) -> tuple[list[int], int | None]:
    """The options as good as option ``best`` (``values``: each option's value), and, when there is none, the next
    best option if it is :data:`CLOSE` (else ``None``)."""
    top = float(values[best])
    alike = [index for index in np.flatnonzero(values >= top - SAME).tolist() if index != best]
    if alike:
        return alike, None
    others = [index for index in np.argsort(-values).tolist() if index != best]
    close = next(iter(others), None)
    return [], close if close is not None and top - float(values[close]) <= CLOSE else None


def draft_verdict(values: np.ndarray, chosen: int) -> str:
    """How option ``chosen`` compares with the best: ``best`` (as good), ``close`` (within :data:`CLOSE`) or
    ``weaker``."""
    regret = float(values.max() - values[chosen])
    return "best" if regret <= SAME else "close" if regret <= CLOSE else "weaker"


@dataclass(frozen=True)
class Hint:
    """``best``: the order to play (cards); ``reason``: why, as plain data (:func:`_reason`); ``alike``: which other
    orders are just as good (:func:`_alike`, ``None``: none is); ``close``: a close second (cards) when none is;
    ``draft``: a complete draft's :func:`draft_verdict` (``None`` while it is incomplete)."""

    best: list[str]
    reason: dict[str, Any]
    alike: dict[str, Any] | None
    close: list[str] | None
    draft: str | None


def _seat_view(engagement: Engagement, found: Solution, seat: int) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                           np.ndarray]:
    """The seat's payoff rows against the opponent's equilibrium support, the seat's mix, the opponent's mix (on
    that support) and the support (indexes into the opponent's orders)."""
    if seat == 0:
        support = np.flatnonzero(found.columns)
        rows = engagement.block(range(len(engagement.orders[0])), support)
        return rows, found.rows, found.columns[support], support
    support = np.flatnonzero(found.rows)
    rows = -engagement.block(support, range(len(engagement.orders[1]))).T
    return rows, found.columns, found.rows[support], support


def _values(engagement: Engagement, found: Solution, seat: int) -> tuple[np.ndarray, np.ndarray, list[tuple[float,
                                                                                                   tuple[int, ...]]]]:
    """Each of the seat's orders against the opponent's best mix, the seat's own mix, and that mix of the
    opponent's as (probability, strength order) pairs."""
    rows, mix, opponent_mix, support = _seat_view(engagement, found, seat)
    theirs = engagement.orders[1 - seat]
    return rows @ opponent_mix, mix, [(float(p), theirs[index]) for p, index in zip(opponent_mix, support,
                                                                                   strict=True) if p > SAME]


def _reason(order: Sequence[int], cards: Sequence[str], their_cards: Sequence[str],
            strength: Mapping[str, int], their_mix: Sequence[tuple[float, tuple[int, ...]]]) -> dict[str, Any]:
    """Why ``order`` (strengths; ``cards`` the same order as cards) is good, read from the position and the
    opponent's best mix ``their_mix``, the first of these that holds:

    * ``last``: the seat's strongest card comes last, and the opponent's strongest card that matches or beats it
      is most likely (:data:`LIKELY`) played before it (``mine``, ``theirs``);
    * ``spent``: the seat's weakest card most likely meets the opponent's strongest one, which beats it: the weak
      card is spent on it (``mine``, ``theirs``);
    * ``fights``: none of those; how many of the flips the order most likely wins (``won``, of ``count``): the
      sum over the flips of the chance its card there beats the opponent's."""
    their_strengths = [strength[card] for card in their_cards]
    strongest = max(order)
    last = len(order) - 1
    threats = [card for card in their_cards if strength[card] >= strongest]
    if order[last] == strongest and threats:
        threat = max(threats, key=lambda card: strength[card])
        level = strength[threat]
        before = sum(p for p, theirs in their_mix if level in theirs[:last])
        if before >= LIKELY:
            return {"kind": "last", "mine": cards[last], "theirs": threat}
    weakest = min(order)
    where = order.index(weakest)
    top = max(their_strengths)
    if top > weakest and sum(p for p, theirs in their_mix if theirs[where] == top) >= LIKELY:
        theirs_card = next(card for card in their_cards if strength[card] == top)
        return {"kind": "spent", "mine": cards[where], "theirs": theirs_card}
    won = sum(p * sum(mine > other for mine, other in zip(order, theirs, strict=True)) for p, theirs in their_mix)
    return {"kind": "fights", "won": round(won), "count": len(order)}


def _alike(orders: Sequence[tuple[int, ...]], alike: Sequence[int], best: int, cards: Sequence[str],
           strength: Mapping[str, int]) -> dict[str, Any] | None:
    """The orders as good as the best (``cards``: the best order), in a few words, the first that is exact:

    * ``any``: every order;
    * ``first``/``last`` with ``card``: exactly the orders with that card there;
    * ``kept`` with ``cards``: exactly the orders that keep those cards where the best order has them;
    * ``not_first``/``not_last`` with ``card``: exactly the orders without that card there;
    * else ``count``: how many others."""
    if not alike:
        return None
    tied = {*alike, best}
    everything = set(range(len(orders)))
    if tied == everything:
        return {"kind": "any"}
    top = orders[best]
    last = len(top) - 1

    def having(position: int, level: int) -> set[int]:
        return {index for index, order in enumerate(orders) if order[position] == level}

    for kind, position in (("first", 0), ("last", last)):
        if having(position, top[position]) == tied:
            return {"kind": kind, "card": cards[position]}
    fixed = [position for position in range(len(top)) if all(orders[index][position] == top[position]
                                                              for index in tied)]
    if fixed and set.intersection(*(having(position, top[position]) for position in fixed)) == tied:
        return {"kind": "kept", "cards": [cards[position] for position in fixed]}
    for kind, position in (("not_first", 0), ("not_last", last)):
        for level in sorted(set(top)):
            if everything - having(position, level) == tied:
                return {"kind": kind, "card": next(card for card in cards if strength[card] == level)}
    return {"kind": "count", "count": len(alike)}


def _best(values: np.ndarray, mix: np.ndarray) -> int:
    """The best order (an index): among the orders that get the most, the one the equilibrium plays most."""
    return max(range(len(values)), key=lambda index: (bool(values[index] >= values.max() - SAME), mix[index]))


def hint(view: Mapping[str, Any], seat: int, draft: Sequence[str] = (), budget: float = BUDGET_SECONDS) -> Hint:
    """The hint for ``seat`` from any view of the position (it reads only what everyone sees)."""
    engagement = Engagement(Position.from_view(view), value_model(view["rules"]))
    values, mix, their_mix = _values(engagement, equilibrium(engagement, budget), seat)
    strength = _strength(view["rules"])
    stack, their_stack = view["stacks"][seat], view["stacks"][1 - seat]
    orders = engagement.orders[seat]
    best = _best(values, mix)
    alike, close = plays_alike(values, best)
    cards = card_order(stack, orders[best], strength)
    verdict = None
    if len(draft) == len(stack):
        verdict = draft_verdict(values, orders.index(tuple(strength[card] for card in draft)))
    return Hint(cards, _reason(orders[best], cards, their_stack, strength, their_mix),
                _alike(orders, alike, best, cards, strength),
                None if close is None else card_order(stack, orders[close], strength), verdict)


@dataclass(frozen=True)
class EngagementReview:
    """One engagement, per seat: the ``regrets`` and ``stakes`` (value units, see the module docstring) and the
    ``best`` order (cards) it could have played."""

    number: int
    regrets: tuple[float, float]
    stakes: tuple[float, float]
    best: tuple[tuple[str, ...], tuple[str, ...]]
    played: tuple[tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True)
class Review:
    engagements: list[EngagementReview]

    def accuracy(self, seat: int) -> float:
        """How close the seat's orders came to the best ones, 0–100 (:func:`accuracy_percent`)."""
        return accuracy_percent([review.regrets[seat] for review in self.engagements],
                                [review.stakes[seat] for review in self.engagements])

    def costliest(self, seat: int) -> EngagementReview | None:
        worst = max(self.engagements, key=lambda review: review.regrets[seat], default=None)
        return worst if worst is not None and worst.regrets[seat] > SAME else None


def review(match: Mapping[str, Any], budget: float = BUDGET_SECONDS) -> Review:
    """Every engagement of an Air War match file, each seat's order measured against the best one."""
    game = new_game(match)
    if not isinstance(game, AirWar):
        raise ValueError("only Air War matches are reviewed here")
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
    regrets, stakes, best = [], [], []
    for seat in (0, 1):
        values, mix, _ = _values(engagement, found, seat)
        chosen = engagement.orders[seat].index(tuple(strength[card] for card in orders[seat]))
        top = _best(values, mix)
        regrets.append(max(0.0, float(values[top] - values[chosen])))
        stakes.append(float(values[top] - values.min()))
        best.append(tuple(card_order(view["stacks"][seat], engagement.orders[seat][top], strength)))
    return EngagementReview(game.engagement, (regrets[0], regrets[1]), (stakes[0], stakes[1]),
                            (best[0], best[1]), (tuple(orders[0]), tuple(orders[1])))


def player_summary(accuracy: float, step: int | None, best: Sequence[str], played: Sequence[str]) -> dict[str, Any]:
    """One player's review as plain data: the accuracy (one decimal) and the costliest step (``None``: every play
    was one of the best) with the best play there and the play made."""
    costliest = None if step is None else {"step": step, "best": list(best), "played": list(played)}
    return {"accuracy": round(accuracy, 1), "costliest": costliest}


def summary(match: Mapping[str, Any], seats: Sequence[int] = (0, 1),
            budget: float = BUDGET_SECONDS) -> dict[str, Any]:
    """A finished match's review as plain data (what the bot posts), for the ``seats`` asked (the human players):
    ``{"players": {seat: player_summary}}``."""
    reviewed = review(match, budget)
    players = {}
    for seat in seats:
        worst = reviewed.costliest(seat)
        players[seat] = player_summary(reviewed.accuracy(seat), None if worst is None else worst.number,
                                       () if worst is None else worst.best[seat],
                                       () if worst is None else worst.played[seat])
    return {"players": players}


def hint_data(view: Mapping[str, Any], seat: int, draft: Sequence[str] = ()) -> dict[str, Any]:
    """:func:`hint` as plain data (what a click asks the thinking process for)."""
    found = hint(view, seat, draft)
    return {"best": found.best, "reason": found.reason, "alike": found.alike, "close": found.close,
            "draft": found.draft}
