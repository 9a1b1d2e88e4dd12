"""The hint and the accuracy: public facts only, the best order and what is as good said exactly, the best play every
engagement is 100% and the worst one 0%, only the seats asked are graded."""

from __future__ import annotations

import random
from itertools import permutations

import numpy as np
import pytest

from bot.ai.airwar import Engagement, Position, card_order
from bot.ai.oracle import equilibrium
from bot.ai.players import choose
from bot.ai.review import _values, accuracy_percent, hint, review, summary
from bot.ai.values import value_model
from bot.cards import strength_table
from bot.games.airwar.engine import AirWar

STRENGTH = strength_table(aces_high=True, tarot=False)


def test_the_hint_never_depends_on_the_opponents_locked_order():
    game = AirWar.new({"stack": 4}, seed=8)
    before = hint(game.view(1), 1)
    for order in (list(game.stacks[0]), list(reversed(game.stacks[0]))):
        locked = AirWar.from_json(game.to_json())
        locked.apply(0, {"type": "order", "cards": order})
        assert hint(locked.view(1), 1) == before  # what seat 1 is told is the same whatever seat 0 locked
    assert sorted(before.best) == sorted(game.stacks[1])


def orders_as_good_as_the_best(game: AirWar, seat: int) -> set[tuple[str, ...]]:
    """Every order of the seat's stack whose complete draft the hint calls one of the best."""
    stack = game.stacks[seat]
    return {order for order in set(permutations(stack)) if hint(game.view(seat), seat, order).draft == "best"}


@pytest.mark.parametrize("seed", range(12))
def test_the_best_order_and_the_orders_said_to_be_as_good_are_exactly_the_best_ones(seed):
    game = AirWar.new({"stack": 4}, seed=seed)
    found = hint(game.view(0), 0)
    best = orders_as_good_as_the_best(game, 0)
    assert tuple(found.best) in best
    said = found.alike or {"kind": "none"}
    orders = set(permutations(game.stacks[0]))

    def same(a: tuple[str, ...], b: tuple[str, ...]) -> bool:  # one strength, one card to the fight
        return [STRENGTH[card] for card in a] == [STRENGTH[card] for card in b]

    def like(wanted) -> set[tuple[str, ...]]:
        return {order for order in orders if wanted(order)}

    described = {
        "none": like(lambda order: same(order, tuple(found.best))),
        "any": orders,
        "first": like(lambda order: STRENGTH[order[0]] == STRENGTH[said.get("card", "2C")]),
        "last": like(lambda order: STRENGTH[order[-1]] == STRENGTH[said.get("card", "2C")]),
        "not_first": like(lambda order: STRENGTH[order[0]] != STRENGTH[said.get("card", "2C")]),
        "not_last": like(lambda order: STRENGTH[order[-1]] != STRENGTH[said.get("card", "2C")]),
        "kept": like(lambda order: all(STRENGTH[order[found.best.index(card)]] == STRENGTH[card]
                                       for card in said.get("cards", ()))),
    }.get(said["kind"])
    if described is not None:
        assert described == best, said
    else:  # a count of the others: the distinct strength orders as good, less the best
        assert said["count"] == len({tuple(STRENGTH[card] for card in order) for order in best}) - 1


@pytest.mark.parametrize("seed", range(30))
def test_the_reason_is_true_of_the_position(seed):
    game = AirWar.new({"stack": 5}, seed=seed)
    found = hint(game.view(0), 0)
    reason, mine, theirs = found.reason, game.stacks[0], game.stacks[1]
    if reason["kind"] == "last":
        assert found.best[-1] == reason["mine"] and STRENGTH[reason["mine"]] == max(STRENGTH[c] for c in mine)
        assert reason["theirs"] in theirs and STRENGTH[reason["theirs"]] >= STRENGTH[reason["mine"]]
    elif reason["kind"] == "spent":
        assert STRENGTH[reason["mine"]] == min(STRENGTH[c] for c in mine)
        assert STRENGTH[reason["theirs"]] == max(STRENGTH[c] for c in theirs) > STRENGTH[reason["mine"]]
    else:
        assert reason["kind"] == "fights" and 0 <= reason["won"] <= reason["count"] == len(mine)


def match_played_by(levels: tuple[str, str], seed: int, engagements: int, stack: int = 3) -> dict:
    game = AirWar.new({"stack": stack}, seed=seed)
    choosers = [random.Random(seed + seat) for seat in (0, 1)]
    moves = []
    for _ in range(engagements):
        if game.is_over:
            break
        orders = [choose(game.view(None), seat, levels[seat], choosers[seat]) for seat in (0, 1)]
        moves.append({"orders": orders})
        game.apply_move({"orders": orders})
    return {"game": "airwar", "rules": {"stack": stack}, "seed": seed, "moves": moves}


def match_played_at(pick, seed: int, engagements: int) -> dict:
    """Seat 0 plays the order ``pick`` chooses from each order's value against seat 1's best mix; seat 1 as drawn."""
    game = AirWar.new({"stack": 4}, seed=seed)
    moves = []
    for _ in range(engagements):
        if game.is_over:
            break
        view = game.view(None)
        engagement = Engagement(Position.from_view(view), value_model(game.rules))
        values = _values(engagement, equilibrium(engagement), 0)[0]
        order = card_order(game.stacks[0], engagement.orders[0][int(pick(values))], STRENGTH)
        move = {"orders": [order, list(game.stacks[1])]}
        moves.append(move)
        game.apply_move(move)
    return {"game": "airwar", "rules": {"stack": 4}, "seed": seed, "moves": moves}


def test_the_best_order_every_engagement_is_100_and_the_worst_every_engagement_0():
    best = review(match_played_at(np.argmax, 4, 10))
    assert best.accuracy(0) == pytest.approx(100.0) and best.costliest(0) is None
    worst = review(match_played_at(np.argmin, 4, 10))
    assert any(engagement.stakes[0] > 0 for engagement in worst.engagements)
    assert worst.accuracy(0) == pytest.approx(0.0)
    costliest = worst.costliest(0)
    assert costliest.regrets[0] == max(engagement.regrets[0] for engagement in worst.engagements)
    assert list(costliest.played[0]) != list(costliest.best[0])


def test_the_accuracy_is_the_share_of_the_stakes_kept():
    assert accuracy_percent([0.0, 0.1], [0.2, 0.2]) == pytest.approx(75.0)
    assert accuracy_percent([0.0, 0.0], [0.0, 0.0]) == 100.0  # nothing at stake: every play was the best
    assert accuracy_percent([], []) == 100.0


def test_the_equilibrium_plays_at_full_accuracy_and_a_summary_grades_only_the_seats_asked():
    match = match_played_by(("hard", "drawn"), 5, 8)
    reviewed = review(match)
    assert len(reviewed.engagements) == len(match["moves"])
    assert reviewed.accuracy(0) == pytest.approx(100.0, abs=1e-3)
    assert reviewed.costliest(0) is None
    found = summary(match, [1])
    assert list(found["players"]) == [1]  # the bot's seat (0 here) is not graded
    assert found["players"][1]["accuracy"] == round(reviewed.accuracy(1), 1)
    worst = reviewed.costliest(1)
    if worst is not None:
        assert found["players"][1]["costliest"] == {"step": worst.number, "best": list(worst.best[1]),
                                                    "played": list(worst.played[1])}


def test_a_review_is_the_same_twice():
    match = match_played_by(("easy", "medium"), 2, 6)
    assert review(match) == review(match)
