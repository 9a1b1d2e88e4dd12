"""Swiss: no rematch while a rematch-free pairing exists (checked by brute force on small fields), never a second
bye, the bye to the lowest-ranked player without one, top half against bottom half within a score group."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments import InvalidTournament, MatchOutcome, Tournament
from bot.tournaments.swiss import default_rounds, pair_round
from tests.bot.tournaments.support import assert_each_plays_once_per_round, step

SETTINGS = settings(max_examples=60, deadline=None)


def rematch_free_pairing_exists(field, met, had_bye):
    """Brute force: can ``field`` be paired (one bye to a player without one, if odd) with no rematch?"""
    field = list(field)

    def perfect(players):
        if not players:
            return True
        first, rest = players[0], players[1:]
        return any(frozenset((first, other)) not in met and perfect([p for p in rest if p != other])
                   for other in rest)

    if len(field) % 2 == 0:
        return perfect(field)
    return any(perfect([p for p in field if p != bye]) for bye in field if bye not in had_bye)


def history_before(tournament, round_index):
    met, had_bye = set(), set()
    for round_ in tournament.rounds()[:round_index]:
        for match in round_.matches:
            if match.is_bye:
                had_bye.add(match.winner)
            elif None not in match.players:
                met.add(frozenset(match.players))
    return met, had_bye


def check_new_rounds(tournament, checked):
    rounds = tournament.rounds()
    for index in range(checked, len(rounds)):
        met, had_bye = history_before(tournament, index)
        matches = rounds[index].matches
        field = [player for match in matches for player in match.players if player is not None]
        byes = [match.winner for match in matches if match.is_bye]
        assert len(byes) == len(field) % 2
        assert not set(byes) & had_bye, "a second bye"
        rematches = [match.key for match in matches if not match.is_bye and frozenset(match.players) in met]
        if rematches:
            assert not rematch_free_pairing_exists(field, met, had_bye), f"avoidable rematch {rematches}"
    return len(rounds)


@SETTINGS
@given(st.integers(2, 8), st.data(), st.integers(0, 2**32), st.sampled_from([0.0, 0.0, 0.08]))
def test_no_avoidable_rematch_and_no_second_bye(players, data, seed, dq_rate):
    most = players if players % 2 else players - 1
    rounds = data.draw(st.integers(1, most))
    rng = random.Random(seed)
    tournament = Tournament.new("swiss", list(range(players)), rng=rng, options={"rounds": rounds})
    checked = check_new_rounds(tournament, 0)
    while not tournament.is_over:
        step(tournament, rng, dq_rate=dq_rate)
        checked = check_new_rounds(tournament, checked)
        for round_ in tournament.rounds():
            for player in tournament.disqualified:
                assert all(player not in m.players or m.is_decided for m in round_.matches)
    assert_each_plays_once_per_round(tournament)
    byes = Counter(match.winner for match in tournament.matches() if match.is_bye)
    assert not byes or max(byes.values()) == 1
    if not dq_rate:
        assert len(tournament.rounds()) == rounds


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 64), st.integers(0, 2**32))
def test_larger_fields_play_once_per_round_with_one_bye_each_at_most(players, seed):
    rng = random.Random(seed)
    tournament = Tournament.new("swiss", list(range(players)), rng=rng)
    assert tournament.options["rounds"] == max(1, math.ceil(math.log2(players)))
    while not tournament.is_over:
        step(tournament, rng, dq_rate=0.02)
    assert_each_plays_once_per_round(tournament)
    byes = Counter(match.winner for match in tournament.matches() if match.is_bye)
    assert not byes or max(byes.values()) == 1


def test_default_rounds():
    assert [default_rounds(n) for n in (2, 3, 4, 5, 8, 9, 16, 17)] == [1, 2, 2, 3, 3, 4, 4, 5]


def test_first_round_pairs_top_half_against_bottom_half():
    tournament = Tournament.new("swiss", [1, 2, 3, 4, 5, 6], seeded=True)
    assert [m.players for m in tournament.rounds()[0].matches] == [(1, 4), (2, 5), (3, 6)]


def test_bye_goes_to_the_lowest_ranked_player_without_one_and_counts_as_a_win():
    tournament = Tournament.new("swiss", [1, 2, 3, 4, 5], seeded=True, options={"rounds": 3})
    first = tournament.rounds()[0].matches
    assert [m.players for m in first] == [(1, 3), (2, 4), (5, None)]
    assert first[-1].outcome is MatchOutcome.BYE and first[-1].winner == 5
    tournament.record_result("R1-1", 1)
    tournament.record_result("R1-2", 2)
    # scores 1, 2, 5: one point; 3, 4: none. Player 4 ranks last and has had no bye. In the odd group of the
    # leaders 1 meets 2 (top half against bottom half) and 5, the lowest, floats down to meet 3.
    second = tournament.rounds()[1].matches
    assert second[-1].players == (4, None)
    assert [m.players for m in second[:-1]] == [(1, 2), (5, 3)]
    row = next(row for row in tournament.standings() if row.player == 5)
    assert (row.score, row.byes, row.wins) == (1.0, 1, 0)


def test_pairing_floats_down_to_avoid_a_rematch():
    # 1 and 2 lead alone and have met: each meets the best of the next group instead
    pairing = pair_round([1, 2, 3, 4], {1: 2, 2: 2, 3: 1, 4: 1}, {frozenset((1, 2))}, set())
    assert pairing.pairs == [(1, 3), (2, 4)] and pairing.bye is None and pairing.rematches == 0


def test_unavoidable_rematches_are_kept_to_the_fewest():
    met = {frozenset(pair) for pair in [(1, 2), (1, 3), (1, 4), (2, 3)]}
    pairing = pair_round([1, 2, 3, 4], dict.fromkeys(range(1, 5), 0.0), met, set())
    assert pairing.rematches == 1
    assert pair_round([1], {1: 0.0}, set(), set()) is None
    assert pair_round([1, 2, 3], dict.fromkeys((1, 2, 3), 0.0), set(), {1, 2, 3}) is None


def test_disqualified_player_forfeits_and_is_no_longer_paired():
    tournament = Tournament.new("swiss", [1, 2, 3, 4], seeded=True, options={"rounds": 3})
    tournament.record_result("R1-1", 1)
    events = tournament.disqualify(4)
    assert tournament.match("R1-2").outcome is MatchOutcome.FORFEIT and tournament.match("R1-2").winner == 2
    assert [event["type"] for event in events] == ["disqualified", "result", "round_started", "match_ready",
                                                   "result"]
    assert all(4 not in match.players for match in tournament.rounds()[1].matches)
    assert any(match.is_bye for match in tournament.rounds()[1].matches)


def test_swiss_ends_early_when_nobody_is_left_to_pair():
    tournament = Tournament.new("swiss", [1, 2, 3], seeded=True, options={"rounds": 3})
    assert [m.players for m in tournament.rounds()[0].matches] == [(1, 2), (3, None)]
    tournament.disqualify(2)
    assert [m.players for m in tournament.rounds()[1].matches] == [(1, 3)]
    events = tournament.disqualify(3)
    assert events[-1] == {"type": "tournament_over", "champion": 1, "reason": "no_pairing"}
    assert tournament.is_over and tournament.champion == 1


def test_rounds_option_is_checked():
    with pytest.raises(InvalidTournament):
        Tournament.new("swiss", [1, 2, 3, 4], seeded=True, options={"rounds": 4})
    assert Tournament.new("swiss", [1, 2, 3], seeded=True, options={"rounds": 3}).options == {"rounds": 3}


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 10), st.data())
def test_guided_search_makes_the_same_choice_as_backtracking(players, data):
    """Past its step budget the backtracking hands over to the matching-guided search: same pairing either way."""
    ranked = list(range(players))
    scores = {player: data.draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0])) for player in ranked}
    ranked.sort(key=lambda player: (-scores[player], player))
    pairs = list(itertools.combinations(ranked, 2))
    met = {frozenset(pair) for pair in data.draw(st.sets(st.sampled_from(pairs)))}
    had_bye = set(data.draw(st.sets(st.sampled_from(ranked))))
    exhaustive = pair_round(ranked, scores, met, had_bye, budget=10**9)
    guided = pair_round(ranked, scores, met, had_bye, budget=0)
    assert guided == exhaustive
    if exhaustive is not None:
        assert exhaustive.rematches == 0 or not rematch_free_pairing_exists(ranked, met, had_bye)
