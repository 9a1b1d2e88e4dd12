"""The displayed rating: openskill's own rescaled ordinal (1500 for a new player), whole, never negative, in the
stored order; provisional until the minimum games."""

from __future__ import annotations

import random

from openskill.models import PlackettLuce

from bot.match.ratings import DISPLAY_SCALE, DISPLAY_START, MIN_GAMES, Ratings, displayed, is_provisional


def test_a_new_player_shows_1500_and_a_first_loss_shows_less_but_not_a_negative_number():
    ratings = Ratings()
    new = ratings.initial()
    assert displayed(new.ordinal) == DISPLAY_START == 1500
    won, lost = ratings.rate([new, new], winner=0)
    assert DISPLAY_START > displayed(lost.ordinal) > 0 and displayed(won.ordinal) > DISPLAY_START
    assert displayed(-1e6) == 0  # the floor


def test_the_displayed_rating_is_openskills_ordinal_rescaled_by_the_library():
    model, ratings = PlackettLuce(), Ratings()
    rng = random.Random(3)
    players = [model.rating() for _ in range(6)]
    for _ in range(200):
        a, b = rng.sample(range(len(players)), 2)
        [[players[a]], [players[b]]] = model.rate([[players[a]], [players[b]]], ranks=[1, 2])
        for player in (players[a], players[b]):
            stored = ratings.skill(player.mu, player.sigma).ordinal
            library = player.ordinal(alpha=DISPLAY_SCALE, target=DISPLAY_START)
            assert displayed(stored) == max(0, round(library))


def test_the_displayed_rating_keeps_the_stored_order():
    rng = random.Random(5)
    ordinals = sorted(rng.uniform(-80, 60) for _ in range(2000))
    shown = [displayed(o) for o in ordinals]
    assert shown == sorted(shown) and min(shown) == 0 and all(isinstance(s, int) for s in shown)


def test_a_rating_is_provisional_until_the_minimum_games():
    assert [is_provisional(games) for games in range(MIN_GAMES + 2)] == [True] * MIN_GAMES + [False, False]
    assert is_provisional(4, min_games=5) and not is_provisional(5, min_games=5)


def test_a_game_of_four_is_rated_by_finishing_place():
    ratings = Ratings()
    new = ratings.initial()
    # seat 2 won, seat 0 second, seat 3 third, seat 1 out first
    after = ratings.rate([new] * 4, winner=2, places=[2, 4, 1, 3])
    change = [displayed(skill.ordinal) - DISPLAY_START for skill in after]
    assert change[2] > change[0] > change[3] > change[1]
    by_winner = ratings.rate([new] * 4, winner=2)  # without places: every loser alike
    assert len({round(skill.ordinal, 9) for index, skill in enumerate(by_winner) if index != 2}) == 1
    # a draw of the last two in: they share first place and gain more than the third (openskill alone would rate
    # a tie of three or more players below the place after it)
    tied = ratings.rate([new] * 4, winner=None, places=[3, 1, 1, 4])
    assert abs(tied[1].ordinal - tied[2].ordinal) < 1e-9 and tied[1].ordinal > tied[0].ordinal > tied[3].ordinal


def test_places_by_count_put_the_winner_first_then_the_most_cards():
    from bot.match.ratings import places_by_count

    assert places_by_count(2, [5, 0, 20, 5]) == [2, 4, 1, 2]  # two with 5 share second; the next place is fourth
    assert places_by_count(None, [10, 10, 3, 0]) == [1, 1, 3, 4]  # a draw: the leaders share first
    assert places_by_count(1, [0, 52, 0, 0]) == [2, 1, 2, 2]  # everyone else ran out: they share second
    assert places_by_count(0, [0, 3]) is None  # two players: the winner first, the other second
