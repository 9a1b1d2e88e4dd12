"""Air War opponents by level: each chooses its seat's play order from the public position only.

* ``easy`` (also ``random``): a uniformly random order;
* ``drawn``: the order as drawn (a baseline for the simulator);
* ``medium``: greedy: the order that does best if the opponent plays its stack as drawn;
* ``hard``: an order drawn from the engagement's equilibrium (:mod:`bot.ai.airwar`): no order of the opponent
  does better against it on average than the game's value;
* ``expert``: hard, shifted a bounded step toward the best reply to the opponent's habits in the engagements
  flipped so far (:mod:`bot.ai.habits`).

With three or four players the levels answer the others' likely orders instead (:mod:`bot.ai.many`).

A player's randomness comes from the ``random.Random`` it is given (the match's, for a seat of the bot), so the
same match and seed give the same choices; the chosen order is what a match stores, so a replay never solves again.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from bot.ai.airwar import Engagement, Position, ValueModel, card_order
from bot.ai.habits import SHIFT_RESERVE, Habits, Shift, shift
from bot.ai.many import choose_many
from bot.ai.oracle import BUDGET_SECONDS, equilibrium
from bot.ai.values import value_model
from bot.cards import strength_table

LEVELS = ("easy", "medium", "hard", "expert")
#: every player the simulator can seat: the levels and the baselines
PLAYERS = ("random", "drawn", *LEVELS)

Chooser = Callable[[Mapping[str, Any], int, random.Random], list[str]]


def _strength(view: Mapping[str, Any]) -> Mapping[str, int]:
    rules = view["rules"]
    return strength_table(aces_high=rules["aces"] == "high", tarot=rules["deck"] == "tarot")


def _engagement(view: Mapping[str, Any], model: ValueModel | None) -> Engagement:
    """The engagement's game, scored by ``model`` (default: the fitted model for the game's rules)."""
    return Engagement(Position.from_view(view), value_model(view["rules"]) if model is None else model)


def _greedy(engagement: Engagement, seat: int) -> tuple[int, ...]:
    """The seat's best strength order if the opponent plays its stack as drawn (the first of the best)."""
    drawn = engagement.position.stacks[1 - seat]
    sign = 1.0 if seat == 0 else -1.0
    def worth(order: tuple[int, ...]) -> float:
        return sign * (engagement.payoff(order, drawn) if seat == 0 else engagement.payoff(drawn, order))
    return max(engagement.orders[seat], key=worth)


def equilibrium_strategy(view: Mapping[str, Any], seat: int, model: ValueModel | None = None,
                         budget: float = BUDGET_SECONDS) -> tuple[list[tuple[int, ...]], np.ndarray, float]:
    """The seat's strength orders, the equilibrium's probability of each and the engagement's value to the seat
    (within ``budget`` seconds: the best strategy found by then, see :mod:`bot.ai.oracle`)."""
    engagement = _engagement(view, model)
    found = equilibrium(engagement, budget)
    if seat == 0:
        return engagement.orders[0], found.rows, found.value
    return engagement.orders[1], found.columns, -found.value


def choose(view: Mapping[str, Any], seat: int, level: str, rng: random.Random,
           model: ValueModel | None = None) -> list[str]:
    """The order (cards of the seat's stack) a player of ``level`` locks in; ``view`` is any view of the game."""
    if level not in PLAYERS:
        raise ValueError(f"no Air War player {level!r}; the players are {', '.join(PLAYERS)}")
    stack = list(view["stacks"][seat])
    if level == "drawn":
        return stack
    if level in ("random", "easy"):
        rng.shuffle(stack)
        return stack
    if len(view["stacks"]) > 2:
        return choose_many(view, seat, level, rng)
    if level == "medium":
        return card_order(stack, _greedy(_engagement(view, model), seat), _strength(view))
    if level == "expert":
        orders, shifted = expert_strategy(view, seat, model)
        probabilities = shifted.strategy
    else:
        orders, probabilities, _ = equilibrium_strategy(view, seat, model)
    return card_order(stack, orders[_sample(probabilities, rng)], _strength(view))


def expert_strategy(view: Mapping[str, Any], seat: int, model: ValueModel | None = None,
                    budget: float = BUDGET_SECONDS) -> tuple[list[tuple[int, ...]], Shift]:
    """The seat's strength orders and the expert's strategy: the equilibrium (solved within ``budget`` less the
    shift's reserve) shifted toward the best reply to the opponent's habits in the view's ``played`` engagements
    (none seen: the equilibrium)."""
    engagement = _engagement(view, model)
    found = equilibrium(engagement, budget - SHIFT_RESERVE)
    habits = Habits.of(view.get("played", []), 1 - seat, _strength(view))
    return engagement.orders[seat], shift(engagement, seat, found, habits)


def _sample(probabilities: np.ndarray, rng: random.Random) -> int:
    """An index drawn with ``probabilities`` from ``rng`` (one draw, whatever the mix: replays stay aligned)."""
    point = rng.random() * float(probabilities.sum())
    total = 0.0
    for index, probability in enumerate(probabilities):
        total += float(probability)
        if point < total:
            return index
    return int(np.flatnonzero(probabilities)[-1])


def decide(view: Mapping[str, Any], seat: int, level: str, key: str) -> dict[str, Any]:
    """The action the bot's seat plays (the game plugin's ``opponent``): its order, drawn with a generator seeded
    from ``key`` (the match's seed, step and seat: the same match chooses the same order again)."""
    return {"type": "order", "cards": choose(view, seat, level, random.Random(key))}
