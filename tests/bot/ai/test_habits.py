"""The expert: habits read from the engagements flipped, a shift toward the best reply, and its bound."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bot.ai.airwar import Engagement, Position
from bot.ai.habits import Habits, allowed_loss, shift
from bot.ai.oracle import equilibrium
from bot.ai.players import choose, equilibrium_strategy, expert_strategy
from bot.ai.values import value_model
from bot.cards import strength_table
from bot.games.airwar.engine import AirWar

STRENGTH = strength_table(aces_high=True)


def played_by(seed: int, engagements: int, lazy: int = 1, stack: int = 5) -> AirWar:
    """A game after ``engagements`` in which the ``lazy`` seat plays its stacks as drawn, the other random orders."""
    game = AirWar.new({"stack": stack}, seed=seed)
    rng = random.Random(seed)
    for _ in range(engagements):
        orders = [list(stack) if seat == lazy else rng.sample(stack, len(stack)) for seat, stack in
                  enumerate(game.stacks)]
        for seat in (0, 1):
            game.apply(seat, {"type": "order", "cards": orders[seat]})
        assert not game.is_over
    return game


def payoff_rows(engagement: Engagement, seat: int) -> np.ndarray:
    """Every order of ``seat`` (rows) against every order of the other seat, in ``seat``'s value."""
    matrix = engagement.matrix()
    return matrix if seat == 0 else -matrix.T


def test_habits_count_the_orders_played_as_drawn_and_where_the_strong_cards_went():
    game = played_by(4, 5)
    habits = Habits.of(game.view(None)["played"], 1, STRENGTH)
    assert habits.seen == 5 and habits.as_drawn == 5
    assert habits.placements.sum() == 5 * 5
    random_seat = Habits.of(game.view(None)["played"], 0, STRENGTH)
    assert random_seat.as_drawn < 5
    engagement = Engagement(Position.from_view(game.view(None)), value_model(game.rules))
    prediction = habits.predict(engagement.orders[1], engagement.position.stacks[1])
    assert prediction.sum() == pytest.approx(1.0)
    assert engagement.orders[1][int(prediction.argmax())] == engagement.position.stacks[1]
    assert prediction.max() > 0.75


def test_a_player_who_leads_with_the_strongest_cards_is_predicted_to_again():
    strong_first = [{"stacks": [[], ["2C", "9D", "AS", "5H", "KC"]], "orders": [[], ["AS", "KC", "9D", "5H", "2C"]]}]
    habits = Habits.of(strong_first * 4, 1, STRENGTH)
    assert habits.as_drawn == 0
    drawn = (3, 12, 4, 14, 7)
    orders = [(14, 12, 7, 4, 3), (3, 4, 7, 12, 14), (7, 3, 14, 4, 12), drawn]
    prediction = habits.predict(orders, drawn)
    assert prediction[0] > prediction[2] > prediction[1]


def test_with_nothing_seen_the_expert_plays_the_equilibrium():
    game = AirWar.new({"stack": 4}, seed=8)
    orders, probabilities, _ = equilibrium_strategy(game.view(None), 1)
    expert_orders, shifted = expert_strategy(game.view(None), 1)
    assert expert_orders == orders and shifted.share == 0.0
    assert np.allclose(shifted.strategy, probabilities)
    assert allowed_loss(Habits.of([], 1, STRENGTH)) == 0.0


@pytest.mark.parametrize("seed", [4, 11, 23])
@pytest.mark.parametrize("seat", [0, 1])
def test_the_shift_gains_against_the_habit_and_never_loses_more_than_its_bound(seed, seat):
    opponent = 1 - seat
    game = played_by(seed, 4, lazy=opponent, stack=4)
    habits = Habits.of(game.view(None)["played"], opponent, STRENGTH)
    assert habits.as_drawn == habits.seen == 4
    engagement = Engagement(Position.from_view(game.view(None)), value_model(game.rules))
    found = equilibrium(engagement)
    equilibrium_mix = found.rows if seat == 0 else found.columns
    shifted = shift(engagement, seat, found, habits)
    rows = payoff_rows(engagement, seat)
    assert shifted.strategy.sum() == pytest.approx(1.0) and (shifted.strategy >= 0).all()
    # the worst case, over every order the opponent could play, drops by at most the bound
    worst_before, worst_after = (equilibrium_mix @ rows).min(), (shifted.strategy @ rows).min()
    assert worst_after >= worst_before - allowed_loss(habits) - 1e-9
    # against the order as drawn (the habit) it does at least as well as the equilibrium, better when it moved
    drawn = engagement.orders[opponent].index(engagement.position.stacks[opponent])
    against_habit_before, against_habit_after = equilibrium_mix @ rows[:, drawn], shifted.strategy @ rows[:, drawn]
    assert against_habit_after >= against_habit_before - 1e-9
    if shifted.share > 0:
        assert against_habit_after > against_habit_before


def test_the_expert_order_is_seeded_and_ignores_a_locked_order():
    game = played_by(6, 3)
    before = choose(game.view(None), 0, "expert", random.Random(3))
    assert choose(game.view(1), 0, "expert", random.Random(3)) == before
    game.apply(1, {"type": "order", "cards": list(reversed(game.stacks[1]))})
    assert choose(game.view(0), 0, "expert", random.Random(3)) == before


def test_trust_grows_with_habits_that_foretell_the_next_order_and_not_with_random_play():
    lazy = Habits.of(played_by(4, 6).view(None)["played"], 1, STRENGTH)
    random_orders = Habits.of(played_by(4, 6).view(None)["played"], 0, STRENGTH)
    assert lazy.foresight > 5 * 2.0  # every order after the first foretold far better than chance
    assert random_orders.foresight < 0.5 * (random_orders.seen - 1)
    assert random_orders.confidence < 0.1 < 0.5 < lazy.confidence <= 1.0
    assert allowed_loss(random_orders) < allowed_loss(lazy)
    growing = [Habits.of(played_by(4, n).view(None)["played"], 1, STRENGTH).confidence for n in (1, 2, 4, 6)]
    assert growing[0] == 0.0 and growing == sorted(growing)
