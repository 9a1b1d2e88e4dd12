"""Air War's opponents: each level's order is legal, seeded and from the public position only."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bot.ai.airwar import Engagement, Position, card_order
from bot.ai.fit import fit
from bot.ai.players import PLAYERS, choose, equilibrium_strategy
from bot.ai.values import value_model
from bot.cards import strength_table
from bot.games.airwar.engine import AirWar


def game_at(seed: int, stack: int = 4) -> AirWar:
    game = AirWar.new({"stack": stack}, seed=seed)
    chooser = random.Random(seed)
    for _ in range(seed % 4):
        for seat in (0, 1):
            game.apply(seat, chooser.choice(game.legal_actions(seat)))
    return game


@pytest.mark.parametrize("level", PLAYERS)
def test_every_player_locks_in_a_legal_order_the_engine_takes(level):
    game = game_at(3)
    for seat in (0, 1):
        order = choose(game.view(None), seat, level, random.Random(5))
        assert sorted(order) == sorted(game.stacks[seat])
    game.apply(0, {"type": "order", "cards": choose(game.view(0), 0, level, random.Random(5))})


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_same_match_and_seed_give_the_same_order(level):
    game = game_at(7)
    orders = {tuple(choose(game.view(seat), 1, level, random.Random(42))) for seat in (0, 1, None)}
    assert len(orders) == 1  # whoever's view it reads: they hold the same public facts


def test_the_hard_order_is_one_the_equilibrium_plays_and_ignores_a_locked_order():
    game = game_at(2)
    before = choose(game.view(None), 1, "hard", random.Random(9))
    orders, probabilities, _ = equilibrium_strategy(game.view(None), 1)
    strength = strength_table(aces_high=True)
    played = tuple(strength[card] for card in before)
    assert probabilities[orders.index(played)] > 0
    game.apply(0, {"type": "order", "cards": list(reversed(game.stacks[0]))})  # seat 0 locks in
    assert choose(game.view(1), 1, "hard", random.Random(9)) == before


@pytest.mark.parametrize("seat", [0, 1])
def test_medium_plays_the_best_answer_to_an_opponent_who_plays_as_drawn(seat):
    game = game_at(1, stack=5)
    view = game.view(None)
    engagement = Engagement(Position.from_view(view), value_model(view["rules"]))
    strength = strength_table(aces_high=True)
    drawn = engagement.position.stacks[1 - seat]

    def worth(order):  # to the seat choosing
        return engagement.payoff(order, drawn) if seat == 0 else -engagement.payoff(drawn, order)

    chosen = tuple(strength[card] for card in choose(view, seat, "medium", random.Random(1)))
    assert worth(chosen) == pytest.approx(max(worth(order) for order in engagement.orders[seat]))
    assert worth(chosen) > worth(engagement.position.stacks[seat]) or chosen == engagement.position.stacks[seat]


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="no Air War player"):
        choose(game_at(1).view(None), 0, "grandmaster", random.Random(1))


def test_the_shipped_value_model_weighs_the_ace_most():
    model = value_model(AirWar.resolve_rules({"stack": 5}))
    ace, king = model.weight(14), model.weight(13)
    assert ace > king > max(model.weight(level) for level in range(2, 13))


def test_the_fit_recovers_known_weights():
    rng = np.random.default_rng(3)
    features = rng.integers(-3, 4, size=(20000, 3)).astype(float)
    truth = np.array([1.0, 0.3, 0.0])
    labels = (rng.random(20000) < 1 / (1 + np.exp(-features @ truth))).astype(float)
    assert np.allclose(fit(features, labels), truth, atol=0.05)


def test_card_order_of_a_strength_order_is_a_permutation_of_the_stack():
    strength = strength_table(aces_high=True)
    stack = ["KH", "2C", "KS", "9D"]
    assert sorted(card_order(stack, (13, 13, 9, 2), strength)) == sorted(stack)
