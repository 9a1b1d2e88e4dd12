"""Army's opponents: legal choices from the seat's own view, seeded, and a determinized equilibrium."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bot.ai.army import LEVELS, decide, payoff, strategy
from bot.games.army.engine import Army


def game_in_play(seed: int) -> Army:
    game = Army.new({}, seed=seed)
    for seat in (0, 1):
        game.apply(seat, game.legal_actions(seat)[0])
    return game


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_sets_its_armies_and_plays_a_card_of_its_hand(level):
    game = Army.new({}, seed=3)
    action = decide(game.view(1), 1, level, "k")
    assert action["type"] == "arrange" and sorted(action["armies"]) == sorted(a["army"] for a in
                                                                              game.view(1)["you"]["armies"])
    game = game_in_play(3)
    action = decide(game.view(0), 0, level, "k")
    assert action["type"] == "play" and action["card"] in game.view(0)["you"]["hand"]
    assert decide(game.view(0), 0, level, "k") == action  # same key, same card


def test_the_hard_mix_is_a_distribution_from_the_seats_own_view():
    game = game_in_play(5)
    hand, mix = strategy(game.view(0), 0, "hard", random.Random(1))
    assert mix.sum() == pytest.approx(1) and (mix >= 0).all() and len(mix) == len(hand)
    assert set(game.view(0)["players"][1]) == {"seat", "front", "armies_left", "hand_size", "chosen"}  # no cards
    again_hand, again = strategy(game.view(0), 0, "hard", random.Random(1))
    assert again_hand == hand and np.allclose(again, mix)


def test_a_winning_red_card_is_worth_a_stamina_point_and_the_last_one_more():
    me = {"front": {"army": "KS", "stamina": 3}, "armies_left": 3}
    them = {"front": {"army": "JD", "stamina": 1}, "armies_left": 1}
    table = payoff(["9H", "9S"], ["5C"], me, them)
    assert table[0, 0] > 4 and abs(table[1, 0]) < 1  # the red 9 ends the game; the black 9 only defends
