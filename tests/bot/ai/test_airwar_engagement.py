"""Air War's engagement as a matrix game: the payoff agrees with the engine, the equilibrium is one."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from bot.ai.airwar import MATERIAL, Engagement, Position, card_order
from bot.ai.matrix import exploitability, solve
from bot.cards import strength_table
from bot.games.airwar.engine import AirWar

SAMPLES = 400


def position_after(seed: int, engagements: int, stack: int = 3, deck: str = "standard") -> AirWar:
    """A game played ``engagements`` engagements by seeded random orders (the position to test)."""
    game = AirWar.new({"stack": stack, "deck": deck}, seed=seed)
    chooser = random.Random(seed)
    for _ in range(engagements):
        for seat in (0, 1):
            if not game.is_over:
                game.apply(seat, chooser.choice(game.legal_actions(seat)))
    return game


def engine_ending(game: AirWar, orders: tuple[list[str], list[str]],
                  shuffler: random.Random) -> tuple[tuple[int, int], float | None]:
    """Play the engagement in a copy of the engine whose unseen deck tops are shuffled again: the cards each seat
    lost, and the game's end for seat 0 (1 won, 0 drawn, -1 lost; ``None``: it goes on)."""
    copy = AirWar.from_json(game.to_json())
    for seat, unknown in enumerate(copy.unknown):
        top = copy.decks[seat][:unknown]
        shuffler.shuffle(top)
        copy.decks[seat][:unknown] = top
    before = [len(pile) for pile in copy.discards]
    copy.apply(0, {"type": "order", "cards": orders[0]})
    copy.apply(1, {"type": "order", "cards": orders[1]})
    lost = (len(copy.discards[0]) - before[0], len(copy.discards[1]) - before[1])
    if copy.outcome is None:
        return lost, None
    return lost, {0: 1.0, 1: -1.0, None: 0.0}[copy.outcome.winner]


def engine_value(game: AirWar, ending: tuple[tuple[int, int], float | None]) -> float:
    """An ending scored the way the payoff does (material, every card weighing one)."""
    lost, ended = ending
    if ended is not None:
        return ended
    owned = [len(deck) + len(stack) for deck, stack in zip(game.decks, game.stacks, strict=True)]
    return MATERIAL.worth(owned[0] - owned[1] + lost[1] - lost[0])


def tied_positions(count: int, stack: int = 3) -> list[AirWar]:
    """Positions where some pair of orders leaves a tie for the decks to settle."""
    found = []
    for seed in range(500):
        game = position_after(seed, seed % 5)
        if game.is_over:
            continue
        stacks = Position.from_view(game.view(None)).stacks
        if set(stacks[0]) & set(stacks[1]):
            found.append(game)
        if len(found) == count:
            return found
    raise AssertionError("no position with a shared strength in 500 seeds")


def test_the_payoff_agrees_with_the_engine_on_every_cell_tie_tails_included():
    shuffler = random.Random(99)
    tails = 0
    for game in tied_positions(3):
        position = Position.from_view(game.view(1))
        strength = strength_table(aces_high=True)
        engagement = Engagement(position)
        matrix = engagement.matrix()
        for row, first in enumerate(engagement.orders[0]):
            for column, second in enumerate(engagement.orders[1]):
                orders = (card_order(game.stacks[0], first, strength), card_order(game.stacks[1], second, strength))
                endings = engagement.endings(first, second)
                assert matrix[row, column] == pytest.approx(engagement.payoff(first, second), abs=1e-12)
                if len(endings) == 1:
                    # no tie outlasts the stacks (or the decks' tops are known): the engine gives exactly this
                    played = engine_ending(game, orders, shuffler)
                    assert played == (endings[0][1].lost, endings[0][1].ended)
                    assert engine_value(game, played) == pytest.approx(matrix[row, column], abs=1e-12)
                    continue
                tails += 1
                samples = [engine_ending(game, orders, shuffler) for _ in range(SAMPLES)]
                predicted: dict[tuple, float] = {}
                for probability, ending in endings:
                    assert ending.advantage == ending.lost[1] - ending.lost[0]  # every card weighs one
                    key = (ending.lost, ending.ended)
                    predicted[key] = predicted.get(key, 0.0) + probability
                seen = {key: sum(sample == key for sample in samples) / SAMPLES for key in {*samples, *predicted}}
                for key, frequency in seen.items():  # every way it ends, as often as the payoff says
                    expected = predicted.get(key, 0.0)
                    error = math.sqrt(max(expected * (1 - expected), 1e-4) / SAMPLES)
                    assert abs(frequency - expected) <= 3 * error, (first, second, key, frequency, expected)
                values = [engine_value(game, sample) for sample in samples]
                error = float(np.std(values, ddof=1)) / math.sqrt(SAMPLES)
                assert abs(float(np.mean(values)) - matrix[row, column]) <= 3 * error + 1e-9
    assert tails > 0, "the sampled positions exercise tie tails"


@pytest.mark.parametrize("stack", [3, 4, 5])
def test_the_equilibrium_cannot_be_exploited(stack):
    for seed in range(4):
        game = position_after(seed, seed, stack=stack)
        if game.is_over:
            continue
        matrix = Engagement(Position.from_view(game.view(0))).matrix()
        equilibrium = solve(matrix)
        assert exploitability(matrix, equilibrium.rows, equilibrium.columns) < 1e-6
        assert equilibrium.rows.sum() == pytest.approx(1) and equilibrium.columns.sum() == pytest.approx(1)
        # a pure order is beaten somewhere unless it is one the equilibrium may play
        worst_pure = max(range(len(matrix)), key=lambda row: -matrix[row].min())
        assert matrix[worst_pure].min() <= equilibrium.value + 1e-9


def test_with_no_shared_strength_a_uniform_order_is_an_equilibrium():
    position = Position(stacks=((2, 5, 9), (3, 7, 13)), unseen=((), ()), bottoms=((4, 6, 8, 10), (4, 6, 8, 10)),
                        owned=((2, 4, 5, 6, 8, 9, 10), (3, 4, 6, 7, 8, 10, 13)), stack_size=3)
    matrix = Engagement(position).matrix()
    uniform_rows, uniform_columns = (np.full(n, 1 / n) for n in matrix.shape)
    assert exploitability(matrix, uniform_rows, uniform_columns) < 1e-12
    assert np.ptp(matrix) > 0  # the orders do matter pair by pair; only the mix is indifferent


def test_the_game_seen_from_the_other_seat_is_the_negated_transpose():
    game = tied_positions(1)[0]
    position = Position.from_view(game.view(None))
    swapped = Position(stacks=position.stacks[::-1], unseen=position.unseen[::-1], bottoms=position.bottoms[::-1],
                       owned=position.owned[::-1], stack_size=position.stack_size)
    assert np.allclose(Engagement(swapped).matrix(), -Engagement(position).matrix().T, atol=1e-12)


def test_every_seat_sees_the_same_position_and_no_hidden_card():
    game = position_after(5, 3)
    views = [Position.from_view(game.view(seat)) for seat in (0, 1, None)]
    assert views[0] == views[1] == views[2]
    hidden = sorted(strength_table(aces_high=True)[card] for card in game.decks[0][:game.unknown[0]])
    assert sorted(n for n, count in views[0].unseen[0] for _ in range(count)) == hidden  # the multiset, no order


def test_card_order_keeps_drawn_order_within_a_strength():
    strength = strength_table(aces_high=True)
    assert card_order(["7H", "AS", "7C"], (7, 14, 7), strength) == ["7H", "AS", "7C"]
    assert card_order(["7H", "AS", "7C"], (14, 7, 7), strength) == ["AS", "7H", "7C"]


def endgame_positions(count: int) -> tuple[list[Engagement], list[Engagement]]:
    """Positions with a shared strength where a deck has at most MAX_TIE_DRAWS unseen cards, so a tie can reach its
    known bottom: ``count`` whose known bottoms are long enough that no card won this engagement is reached, and
    ``count`` where it may be."""
    from bot.ai.airwar import MAX_TIE_DRAWS, _reachable
    from bot.ai.values import value_model

    fixed: list[Engagement] = []
    reached: list[Engagement] = []
    for seed in range(300):
        game = AirWar.new({"stack": 3}, seed=seed)
        chooser = random.Random(seed)
        while not game.is_over and (len(fixed) < count or len(reached) < count):
            position = Position.from_view(game.view(None))
            if min(game.unknown) <= MAX_TIE_DRAWS and set(position.stacks[0]) & set(position.stacks[1]):
                reach = _reachable(position.unseen[0], position.bottoms[0], position.unseen[1], position.bottoms[1], 0)
                needed = [max(0, MAX_TIE_DRAWS + 1 - sum(n for _, n in cards)) for cards in position.unseen]
                found = fixed if all(len(reach[s]) == needed[s] for s in (0, 1)) else reached
                if len(found) < count:
                    found.append(Engagement(position, value_model(game.rules)))
            for seat in (0, 1):
                if not game.is_over:
                    game.apply(seat, chooser.choice(game.legal_actions(seat)))
        if len(fixed) == len(reached) == count:
            return fixed, reached
    raise AssertionError("too few endgame positions in 300 seeds")


def test_blocks_of_endgame_positions_agree_with_the_pair_by_pair_payoff():
    for engagements in endgame_positions(8):
        for engagement in engagements:
            matrix = engagement.matrix()
            for row, first in enumerate(engagement.orders[0]):
                for column, second in enumerate(engagement.orders[1]):
                    assert matrix[row, column] == pytest.approx(engagement.payoff(first, second), abs=1e-12)
