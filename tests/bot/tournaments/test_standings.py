"""Tie-breaks with hand-computed numbers: Buchholz, Sonneborn–Berger, head-to-head, seed."""

from __future__ import annotations

from bot.tournaments import Match, MatchOutcome, Tournament
from bot.tournaments.standings import scored_standings
from tests.bot.tournaments.support import find_match


def rows_by_player(tournament):
    return {row.player: row for row in tournament.standings()}


def test_buchholz_breaks_a_tie_on_score_in_swiss():
    tournament = Tournament.new("swiss", [1, 2, 3, 4], seeded=True, options={"rounds": 2})
    assert [m.players for m in tournament.rounds()[0].matches] == [(1, 3), (2, 4)]
    tournament.record_result("R1-1", 3)
    tournament.record_result("R1-2", 2)
    # ranked 2, 3 (one point), 1, 4 (none): 2 v 3 and 1 v 4
    assert [m.players for m in tournament.rounds()[1].matches] == [(2, 3), (1, 4)]
    tournament.record_result("R2-1", None)
    tournament.record_result("R2-2", 1)
    assert tournament.is_over
    # scores: 2 = 1 + 0.5 = 1.5; 3 = 1 + 0.5 = 1.5; 1 = 0 + 1 = 1; 4 = 0
    # Buchholz: 2 met 4 (0) and 3 (1.5) = 1.5; 3 met 1 (1) and 2 (1.5) = 2.5; 1 met 3 (1.5) and 4 (0) = 1.5;
    #           4 met 2 (1.5) and 1 (1) = 2.5
    # Sonneborn–Berger: 2 = beat 4 (0) + half of 3 (0.75) = 0.75; 3 = beat 1 (1) + half of 2 (0.75) = 1.75;
    #                   1 = beat 4 (0) = 0; 4 = 0
    rows = tournament.standings()
    assert [row.player for row in rows] == [3, 2, 1, 4]
    assert [(row.score, row.buchholz, row.sonneborn_berger) for row in rows] == [
        (1.5, 2.5, 1.75), (1.5, 1.5, 0.75), (1.0, 1.5, 0.0), (0.0, 2.5, 0.0)]
    assert [row.head_to_head for row in rows] == [None, None, None, None]
    assert tournament.champion == 3


def play_round_robin(results):
    tournament = Tournament.new("round_robin", [1, 2, 3, 4], seeded=True)
    for first, second, winner in results:
        tournament.record_result(find_match(tournament, first, second).key, winner)
    assert tournament.is_over
    return tournament


def test_sonneborn_berger_comes_before_head_to_head():
    # 1 beats 2, but 2 beat a stronger player: Sonneborn–Berger puts 2 first.
    tournament = play_round_robin([(1, 2, 1), (1, 3, 3), (1, 4, None), (2, 3, 2), (2, 4, None), (3, 4, 3)])
    # scores: 1 = 1 + 0 + 0.5 = 1.5; 2 = 0 + 1 + 0.5 = 1.5; 3 = 1 + 0 + 1 = 2; 4 = 0.5 + 0.5 + 0 = 1
    # SB: 1 = beat 2 (1.5) + half of 4 (0.5) = 2.0; 2 = beat 3 (2) + half of 4 (0.5) = 2.5;
    #     3 = beat 1 (1.5) + beat 4 (1) = 2.5; 4 = half of 1 (0.75) + half of 2 (0.75) = 1.5
    rows = tournament.standings()
    assert [row.player for row in rows] == [3, 2, 1, 4]
    assert [(row.score, row.sonneborn_berger) for row in rows] == [(2.0, 2.5), (1.5, 2.5), (1.5, 2.0), (1.0, 1.5)]
    assert all(row.buchholz is None for row in rows)  # not used in round robin
    assert all(row.head_to_head is None for row in rows)  # nobody tied on score and SB


def test_head_to_head_breaks_a_tie_on_score_and_sonneborn_berger():
    tournament = play_round_robin([(1, 2, 2), (1, 3, 1), (1, 4, None), (2, 3, None), (2, 4, 4), (3, 4, 4)])
    # scores: 1 = 0 + 1 + 0.5 = 1.5; 2 = 1 + 0.5 + 0 = 1.5; 3 = 0 + 0.5 + 0 = 0.5; 4 = 0.5 + 1 + 1 = 2.5
    # SB: 1 = beat 3 (0.5) + half of 4 (1.25) = 1.75; 2 = beat 1 (1.5) + half of 3 (0.25) = 1.75;
    #     3 = half of 2 (0.75) = 0.75; 4 = half of 1 (0.75) + beat 2 (1.5) + beat 3 (0.5) = 2.75
    # 1 and 2 are tied on both; 2 beat 1, so 2 comes first although 1 is the better seed.
    by_player = rows_by_player(tournament)
    assert (by_player[1].sonneborn_berger, by_player[2].sonneborn_berger) == (1.75, 1.75)
    assert (by_player[1].head_to_head, by_player[2].head_to_head) == (0.0, 1.0)
    assert [row.player for row in tournament.standings()] == [4, 2, 1, 3]
    assert [row.place for row in tournament.standings()] == [1, 2, 3, 4]


def test_seed_breaks_a_complete_tie():
    # 1 beats 2, 2 beats 3, 3 beats 1, and all three draw with 4
    tournament = play_round_robin([(1, 2, 1), (2, 3, 2), (1, 3, 3), (1, 4, None), (2, 4, None), (3, 4, None)])
    # scores: 1, 2, 3 = 1 + 0.5 = 1.5; 4 = 1.5. SB for 1, 2, 3: beat 1.5 + half of 1.5 = 2.25; 4: 3 * 0.75 = 2.25
    # head-to-head among all four is their whole score again: a full tie, so seed order.
    rows = tournament.standings()
    assert [row.player for row in rows] == [1, 2, 3, 4]
    assert {(row.score, row.sonneborn_berger, row.head_to_head) for row in rows} == {(1.5, 2.25, 1.5)}


def test_buchholz_comes_before_sonneborn_berger():
    def win(key, winner, loser):
        return Match(key, "R", (winner, loser), outcome=MatchOutcome.WIN, winner=winner)

    matches = [win("a", 1, 3), win("b", 4, 1), win("c", 2, 5), win("d", 6, 2), win("e", 3, 5), win("f", 6, 4),
               win("g", 6, 7)]
    # scores: 6 = 3; 1, 2, 3, 4 = 1; 5, 7 = 0
    # Buchholz: 1 = s3 + s4 = 2; 2 = s5 + s6 = 3; 3 = s1 + s5 = 1; 4 = s1 + s6 = 4; 5 = s2 + s3 = 2; 7 = s6 = 3
    # Sonneborn–Berger: 1 = s3 = 1; 2 = s5 = 0; 3 = s5 = 0; 4 = s1 = 1 (it alone would put 1 before 2)
    rows = scored_standings([1, 2, 3, 4, 5, 6, 7], matches, [], use_buchholz=True)
    assert [row.player for row in rows] == [6, 4, 2, 1, 3, 7, 5]
    assert [(row.score, row.buchholz, row.sonneborn_berger) for row in rows[1:5]] == [
        (1.0, 4.0, 1.0), (1.0, 3.0, 0.0), (1.0, 2.0, 1.0), (1.0, 1.0, 0.0)]


def test_a_bye_adds_nothing_to_buchholz_and_a_forfeit_counts_the_opponent():
    matches = [
        Match("R1-1", "R1", (1, 2), outcome=MatchOutcome.WIN, winner=1),
        Match("R1-2", "R1", (3, None), outcome=MatchOutcome.BYE, winner=3),
        Match("R2-1", "R2", (3, 1), outcome=MatchOutcome.FORFEIT, winner=3),
        Match("R2-2", "R2", (2, None), outcome=MatchOutcome.BYE, winner=2),
    ]
    rows = {row.player: row for row in scored_standings([1, 2, 3], matches, [1], use_buchholz=True)}
    # scores: 1 = 1; 2 = 1 (bye); 3 = 2 (bye + forfeit). Buchholz: 1 met 2 and 3 = 3; 2 met 1 = 1; 3 met 1 = 1
    assert {p: (r.score, r.buchholz) for p, r in rows.items()} == {1: (1.0, 3.0), 2: (1.0, 1.0), 3: (2.0, 1.0)}
    assert (rows[3].wins, rows[3].byes, rows[1].losses) == (1, 1, 1)
    # the disqualified player 1 comes last despite the better tie-break
    assert [row.player for row in scored_standings([1, 2, 3], matches, [1], use_buchholz=True)] == [3, 2, 1]
