"""Air War of three or four: the flips scored as the engine plays them, and every level's order legal and seeded."""

from __future__ import annotations

import random

import pytest

from bot.ai.airwar import strength_orders
from bot.ai.many import _score, choose_many, lost_cards
from bot.cards import strength_table
from bot.games.airwar.engine import AirWar

STRENGTH = strength_table(aces_high=True)


def test_the_highest_card_keeps_its_own_the_others_lose_theirs_and_a_tie_goes_on_among_the_tied():
    assert lost_cards({0: [14, 5], 1: [14, 3], 2: [9, 9]}) == {0: 0.0, 1: 2.0, 2: 1.0}
    # a tie still open when the stacks run out is settled from the decks: even odds among the tied
    assert lost_cards({0: [7], 1: [7], 2: [2]}) == {0: 0.5, 1: 0.5, 2: 1.0}
    # a player out of the fight sits out the rest of it; the next fight is everyone's again
    assert lost_cards({0: [10, 2, 8], 1: [10, 4, 3], 2: [5, 13, 2]}) == {0: 3.0, 1: 1.0, 2: 1.0}


@pytest.mark.parametrize("players", [3, 4])
def test_the_cards_lost_are_the_engines_whenever_no_tie_reaches_the_decks(players):
    checked = 0
    for seed in range(40):
        game = game_of(players, seed)
        rng = random.Random(seed)
        orders = {seat: rng.sample(stack, len(stack)) for seat, stack in enumerate(game.stacks)}
        before = [len(pile) for pile in game.discards]
        events = []
        for seat, order in orders.items():
            events += game.apply(seat, {"type": "order", "cards": order})
        if any("deck" in (event.get("sources") or []) for event in events if event["type"] == "flip"):
            continue
        lost = lost_cards({seat: [STRENGTH[card] for card in order] for seat, order in orders.items()})
        assert lost == {seat: float(len(game.discards[seat]) - before[seat]) for seat in orders}
        checked += 1
    assert checked >= 20


def game_of(players: int, seed: int, stack: int = 4) -> AirWar:
    return AirWar.new({"players": players, "stack": stack}, seed=seed)


@pytest.mark.parametrize("level", ["easy", "drawn", "medium", "hard", "expert"])
@pytest.mark.parametrize("players", [3, 4])
def test_every_level_locks_in_a_legal_order_the_same_for_the_same_seed(level, players):
    from bot.ai.players import choose

    game = game_of(players, 7)
    order = choose(game.view(None), 1, level, random.Random(3))
    assert sorted(order) == sorted(game.stacks[1])
    assert choose(game.view(0), 1, level, random.Random(3)) == order  # any seat's view: the same facts
    game.apply(1, {"type": "order", "cards": order})


def test_medium_plays_the_best_order_against_others_who_play_as_drawn():
    game = game_of(3, 11)
    view = game.view(None)
    stacks = {seat: [STRENGTH[card] for card in stack] for seat, stack in enumerate(view["stacks"])}
    chosen = tuple(STRENGTH[card] for card in choose_many(view, 0, "medium", random.Random(1)))
    best = max(_score(0, {**stacks, 0: order}) for order in strength_orders(tuple(stacks[0])))
    assert _score(0, {**stacks, 0: chosen}) == best


def test_the_bot_plays_through_whole_games_of_three_and_four():
    from bot.ai.players import choose

    for players in (3, 4):
        game = game_of(players, 5, stack=3)
        rngs = [random.Random(seat) for seat in range(players)]
        while not game.is_over:
            view = game.view(None)
            for seat in game.pending_seats():
                game.apply(seat, {"type": "order", "cards": choose(view, seat, "hard", rngs[seat])})
                if game.is_over:
                    break
        assert game.outcome is not None
