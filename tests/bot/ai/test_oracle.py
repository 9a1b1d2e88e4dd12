"""The equilibrium within a budget: double oracle reaches the full matrix's equilibrium, and stops in time."""

from __future__ import annotations

import random

import pytest

from bot.ai import oracle
from bot.ai.airwar import Engagement, Position
from bot.ai.matrix import exploitability, solve
from bot.ai.values import value_model
from bot.games.airwar.engine import AirWar


def engagement_of(stack: int, seed: int, played: int) -> Engagement:
    game = AirWar.new({"stack": stack}, seed=seed)
    chooser = random.Random(seed)
    for _ in range(played):
        for seat in (0, 1):
            order = list(game.stacks[seat])
            chooser.shuffle(order)
            game.apply(seat, {"type": "order", "cards": order})
    return Engagement(Position.from_view(game.view(None)), value_model(game.rules))


@pytest.mark.parametrize("seed", [3, 4])
def test_double_oracle_finds_the_full_matrixs_equilibrium(monkeypatch, seed):
    engagement = engagement_of(5, seed, 1)
    monkeypatch.setattr(oracle, "FULL_MATRIX_CELLS", 0)
    found = oracle.equilibrium(engagement, budget=30)
    matrix = engagement.matrix()
    assert found.complete
    assert exploitability(matrix, found.rows, found.columns) < 1e-6
    assert found.value == pytest.approx(solve(matrix).value, abs=1e-6)
    assert found.exploitability == pytest.approx(exploitability(matrix, found.rows, found.columns), abs=1e-9)


def test_a_seven_card_engagement_is_answered_within_the_budget_with_its_bound():
    engagement = engagement_of(7, 0, 1)
    found = oracle.equilibrium(engagement, budget=0.5)
    assert found.seconds < 0.5 + 0.4  # one round may finish after the budget
    assert found.exploitability >= 0 and found.rows.sum() == pytest.approx(1)
    assert len(found.rows) == len(engagement.orders[0]) and len(found.columns) == len(engagement.orders[1])
    support = found.rows.nonzero()[0]
    restricted = engagement.block(support, range(len(engagement.orders[1])))
    # the bound holds: no order of seat 1 does better against seat 0's mix than value - bound
    assert (found.rows[support] @ restricted).min() >= found.value - found.exploitability - 1e-9
