"""Round robin: the circle method meets every pair once, in n-1 rounds (even n) or n rounds with one bye each
(odd n); disqualification turns the remaining games into forfeits."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments import MatchOutcome, Tournament
from bot.tournaments.roundrobin import circle_schedule
from tests.bot.tournaments.support import assert_each_plays_once_per_round, find_match, play_out

SETTINGS = settings(max_examples=40, deadline=None)


@SETTINGS
@given(st.integers(2, 40))
def test_circle_schedule_meets_every_pair_once(players):
    field = [7 * i + 1 for i in range(players)]
    schedule = circle_schedule(field)
    assert len(schedule) == (players - 1 if players % 2 == 0 else players)
    meetings = Counter(frozenset(pair) for round_ in schedule for pair in round_ if pair[1] is not None)
    assert set(meetings) == {frozenset(pair) for pair in combinations(field, 2)}
    assert set(meetings.values()) == {1}
    for round_ in schedule:
        seated = [player for pair in round_ for player in pair if player is not None]
        assert sorted(seated) == sorted(field)
        byes = [pair for pair in round_ if pair[1] is None]
        assert len(byes) == players % 2
    if players % 2:
        assert sorted(pair[0] for round_ in schedule for pair in round_ if pair[1] is None) == sorted(field)


@SETTINGS
@given(st.integers(2, 16), st.integers(0, 2**32), st.sampled_from([0.0, 0.05]))
def test_round_robin_tournament_plays_every_pair_once(players, seed, dq_rate):
    rng = random.Random(seed)
    tournament = Tournament.new("round_robin", list(range(players)), rng=rng)
    rounds = tournament.rounds()
    assert len(rounds) == (players - 1 if players % 2 == 0 else players)
    assert all(sum(match.players[1] is None for match in round_.matches) == players % 2 for round_ in rounds)
    play_out(tournament, rng, dq_rate=dq_rate)
    assert_each_plays_once_per_round(tournament)
    games = Counter(frozenset(m.players) for m in tournament.matches() if None not in m.players)
    assert set(games) == {frozenset(pair) for pair in combinations(range(players), 2)}
    assert set(games.values()) == {1}
    rows = tournament.standings()
    assert sum(row.score for row in rows) == players * (players - 1) / 2 + (players if players % 2 else 0) - sum(
        m.outcome is MatchOutcome.VOID for m in tournament.matches())
    assert [row.place for row in rows] == list(range(1, players + 1))


def test_disqualified_player_forfeits_every_remaining_game():
    tournament = Tournament.new("round_robin", [1, 2, 3, 4], seeded=True)
    tournament.record_result(find_match(tournament, 1, 4).key, 1)
    events = tournament.disqualify(1)
    assert events[0] == {"type": "disqualified", "player": 1}
    assert find_match(tournament, 1, 4).outcome is MatchOutcome.WIN  # a result already played stands
    for opponent in (2, 3):
        match = find_match(tournament, 1, opponent)
        assert match.outcome is MatchOutcome.FORFEIT and match.winner == opponent
    rows = tournament.standings()
    assert rows[-1].player == 1 and rows[-1].status == "disqualified"
    assert all(1 not in match.players for match in tournament.pending_matches())
