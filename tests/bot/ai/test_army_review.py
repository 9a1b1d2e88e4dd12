"""Army's hint and accuracy: the best card by the seat's own view, its reason true of the position, the best card
every round is 100% and the worst 0%, only the seats asked are graded."""

from __future__ import annotations

import numpy as np
import pytest

from bot.ai.army import decide
from bot.ai.army_review import card_values, hint_data, summary
from bot.cards import is_red
from bot.games.army.engine import FIGHTING_CARDS, Army, fighting_value


def test_while_the_armies_are_set_any_order_is_as_good():
    game = Army.new({}, seed=1)
    assert hint_data(game.view(0), 0) == {"phase": "arrange"}


def arranged(seed: int) -> Army:
    game = Army.new({"max_rounds": 40}, seed=seed)
    for seat in (0, 1):
        game.apply(seat, decide(game.view(seat), seat, "easy", f"{seed}:{seat}"))
    return game


@pytest.mark.parametrize("seed", range(8))
def test_the_hint_names_the_card_of_highest_value_and_a_true_reason(seed):
    game = arranged(seed)
    view = game.view(0)
    found = hint_data(view, 0)
    hand, values = card_values(view, 0)
    assert values[hand.index(found["best"])] == values.max()
    assert all(values[hand.index(card)] == pytest.approx(values.max()) for card in found["alike"])
    unseen = [card for card in FIGHTING_CARDS if card not in hand and card not in view["fighting_graveyard"]]
    assert set(game.hands[1]) <= set(unseen)  # what the opponent holds is among the cards counted, unseen
    reason, value = found["reason"], fighting_value(found["best"])
    if is_red(found["best"]):
        assert reason["kind"] == "attack" and reason["count"] == len(unseen)
        assert reason["won"] == len([card for card in unseen if fighting_value(card) < value])
    else:
        reds = [card for card in unseen if is_red(card)]
        assert reason["kind"] == "defend" and reason["reds"] == len(reds)
        assert reason["stopped"] == len([card for card in reds if fighting_value(card) <= value])


def test_the_hint_never_depends_on_the_opponents_hand():
    game = arranged(3)
    other = Army.from_json(game.to_json())
    # a card of the opponent's hand swapped with one still in the pile: what seat 0 may know is the same
    other.hands[1][0], other.fighting_pile[0] = other.fighting_pile[0], other.hands[1][0]
    assert other.hands[1] != game.hands[1]
    assert hint_data(game.view(0), 0) == hint_data(other.view(0), 0)


def played(seed: int, pick) -> dict:
    """Seat 0 plays the card ``pick`` chooses from its cards' values each round; seat 1 the hard player's."""
    game = Army.new({"max_rounds": 30}, seed=seed)
    armies = [decide(game.view(seat), seat, "easy", f"{seed}:{seat}")["armies"] for seat in (0, 1)]
    moves = [{"armies": armies}]
    game.apply_move(moves[0])
    while not game.is_over:
        hand, values = card_values(game.view(0), 0)
        theirs = decide(game.view(1), 1, "hard", f"{seed}:{game.stats.rounds}")["card"]
        move = {"plays": [hand[int(pick(values))], theirs]}
        moves.append(move)
        game.apply_move(move)
    return {"game": "army", "rules": {"max_rounds": 30}, "seed": seed, "moves": moves}


def test_the_best_card_every_round_is_100_and_the_worst_0_and_only_the_seats_asked_are_graded():
    best = summary(played(5, np.argmax), [0])
    assert best == {"players": {0: {"accuracy": 100.0, "costliest": None}}}
    worst = summary(played(5, np.argmin), [0])["players"][0]
    assert worst["accuracy"] == 0.0
    costliest = worst["costliest"]
    assert costliest["best"] != costliest["played"] and costliest["step"] >= 1
    assert list(summary(played(5, np.argmin), [1])["players"]) == [1]
