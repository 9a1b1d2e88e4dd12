"""Seeding: rating order, random order among the unrated, byes to the top seeds, standard placement."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments import InvalidTournament, Tournament, bracket_positions, bracket_size, first_round, seed_order
from tests.bot.tournaments.support import play_out

SETTINGS = settings(max_examples=60, deadline=None)


def test_positions_of_eight_are_the_standard_ones():
    assert bracket_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_positions(2) == [1, 2]


def test_bracket_size_is_the_next_power_of_two():
    assert [bracket_size(n) for n in (2, 3, 4, 5, 8, 9, 256, 257)] == [2, 4, 4, 8, 8, 16, 256, 512]


@SETTINGS
@given(st.integers(2, 300))
def test_byes_go_to_the_top_seeds(players):
    size = bracket_size(players)
    with_bye = sorted(top for top, bottom in first_round(players) if bottom is None)
    assert with_bye == list(range(1, size - players + 1))
    seated = sorted(seed for pair in first_round(players) for seed in pair if seed is not None)
    assert seated == list(range(1, players + 1))


@SETTINGS
@given(st.integers(1, 9))
def test_top_seeds_are_spread_over_the_bracket(exponent):
    """The top 2**m seeds sit in different sections of size/2**m slots: seeds 1 and 2 in opposite halves,
    1-4 in different quarters, and so on."""
    size = 2**exponent
    positions = bracket_positions(size)
    assert sorted(positions) == list(range(1, size + 1))
    assert positions.index(1) < size // 2 <= positions.index(2)
    sections = 1
    while sections <= size:
        width = size // sections
        section_of = {seed: positions.index(seed) // width for seed in range(1, sections + 1)}
        assert len(set(section_of.values())) == sections
        sections *= 2


@SETTINGS
@given(st.integers(2, 64), st.integers(0, 2**32))
def test_seeds_one_and_two_can_only_meet_in_the_final(players, seed):
    rng = random.Random(seed)
    tournament = Tournament.new("single_elimination", list(range(players)), seeded=True)
    play_out(tournament, rng)
    final = tournament.rounds()[-1].matches[0]
    for match in tournament.matches():
        if set(match.players) == {0, 1}:
            assert match.key == final.key


@SETTINGS
@given(st.integers(2, 64))
def test_first_round_byes_in_a_tournament_go_to_the_top_seeds(players):
    tournament = Tournament.new("double_elimination", [1000 + i for i in range(players)], seeded=True)
    byes = sorted(tournament.seed_of(match.winner) for match in tournament.rounds()[0].matches if match.is_bye)
    assert byes == list(range(1, bracket_size(players) - players + 1))


def test_rated_players_come_first_highest_rating_first():
    ratings = {10: 1200, 11: None, 12: 1800, 13: 1500}
    order = seed_order([10, 11, 12, 13, 14], ratings, random.Random(1))
    assert order[:3] == [12, 13, 10]
    assert set(order[3:]) == {11, 14}


def test_unrated_order_comes_from_the_rng_and_not_from_the_listing():
    players = list(range(20))
    first = seed_order(players, {}, random.Random(5))
    assert first == seed_order(players[::-1], {}, random.Random(5))
    assert sorted(first) == players
    assert any(seed_order(players, {}, random.Random(s)) != first for s in range(6, 10))


def test_equal_ratings_are_ordered_by_the_rng():
    orders = {tuple(seed_order([1, 2, 3], {1: 1500, 2: 1500, 3: 1600}, random.Random(s))) for s in range(30)}
    assert orders == {(3, 1, 2), (3, 2, 1)}


def test_seeding_without_an_rng_needs_distinct_ratings():
    assert seed_order([1, 2, 3], {1: 1, 2: 3, 3: 2}) == [2, 3, 1]
    assert seed_order([7], {}) == [7]
    with pytest.raises(InvalidTournament):
        seed_order([1, 2], {1: 1500, 2: 1500})
    with pytest.raises(InvalidTournament):
        Tournament.new("swiss", [1, 2, 3])


def test_a_tournament_seeds_by_rating():
    tournament = Tournament.new("single_elimination", [5, 6, 7, 8], ratings={5: 1000, 6: 2000, 7: 1500, 8: 500})
    assert tournament.players == (6, 7, 5, 8)
    assert [match.players for match in tournament.rounds()[0].matches] == [(6, 8), (7, 5)]
