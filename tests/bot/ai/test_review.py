"""The hint and the accuracy: public facts only, an equilibrium order costs nothing, a bad one is found."""

from __future__ import annotations

import random

import pytest

from bot.ai.players import choose
from bot.ai.review import hint, review
from bot.games.airwar.engine import AirWar


def test_the_hint_never_depends_on_the_opponents_locked_order():
    game = AirWar.new({"stack": 4}, seed=8)
    before = hint(game.view(1), 1)
    for order in (list(game.stacks[0]), list(reversed(game.stacks[0]))):
        locked = AirWar.from_json(game.to_json())
        locked.apply(0, {"type": "order", "cards": order})
        assert hint(locked.view(1), 1) == before  # what seat 1 is told is the same whatever seat 0 locked
    assert abs(sum(p for _, p in before.orders) - 1) < 1e-6 or len(before.orders) == 3
    assert all(sorted(order) == sorted(game.stacks[1]) for order, _ in before.orders)


def test_a_complete_draft_gets_its_value_and_the_best_order_gets_the_games_value():
    game = AirWar.new({"stack": 4}, seed=3)
    empty = hint(game.view(0), 0)
    assert empty.draft_value is None
    best = empty.orders[0][0]
    assert hint(game.view(0), 0, best).draft_value == pytest.approx(empty.value, abs=1e-6)


def match_played_by(levels: tuple[str, str], seed: int, engagements: int) -> dict:
    game = AirWar.new({"stack": 3}, seed=seed)
    choosers = [random.Random(seed + seat) for seat in (0, 1)]
    moves = []
    for _ in range(engagements):
        if game.is_over:
            break
        orders = [choose(game.view(None), seat, levels[seat], choosers[seat]) for seat in (0, 1)]
        moves.append({"orders": orders})
        game.apply_move({"orders": orders})
    return {"game": "airwar", "rules": {"stack": 3}, "seed": seed, "moves": moves}


def test_the_equilibrium_plays_at_full_accuracy_and_a_blunder_is_the_costliest_engagement():
    match = match_played_by(("hard", "drawn"), 5, 8)
    reviewed = review(match)
    assert len(reviewed.engagements) == len(match["moves"])
    assert reviewed.accuracy(0) == pytest.approx(100.0, abs=1e-3)
    assert reviewed.costliest(0) is None
    assert all(engagement.regrets[0] < 1e-6 for engagement in reviewed.engagements)
    if reviewed.costliest(1) is not None:
        assert reviewed.accuracy(1) < 100.0
        worst = reviewed.costliest(1)
        assert worst.regrets[1] == max(engagement.regrets[1] for engagement in reviewed.engagements)


def test_a_review_is_the_same_twice():
    match = match_played_by(("easy", "medium"), 2, 6)
    assert review(match) == review(match)
