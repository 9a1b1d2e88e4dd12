"""Single and double elimination played out with random results: one champion, everyone else out exactly once,
two losses before a double-elimination exit, the grand-final reset exactly when the losers'-bracket champion wins."""

from __future__ import annotations

import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.tournaments import MatchOutcome, Tournament
from tests.bot.tournaments.support import (
    assert_each_plays_once_per_round,
    eliminated_events,
    play_out,
    played_losses,
)

SETTINGS = settings(max_examples=40, deadline=None)


@SETTINGS
@given(st.integers(2, 256), st.integers(0, 2**32))
@example(2, 0)
@example(256, 1)
@example(129, 2)
def test_single_elimination_ends_with_one_champion(players, seed):
    rng = random.Random(seed)
    tournament = Tournament.new("single_elimination", [10 * i + 3 for i in range(players)], rng=rng)
    play_out(tournament, rng)
    champion = tournament.champion
    assert champion in tournament.players
    out = eliminated_events(tournament)
    assert champion not in out
    assert set(out) == set(tournament.players) - {champion}
    assert set(out.values()) == {1}
    assert tournament.active_players() == [champion]
    assert played_losses(tournament)[champion] == 0
    assert sum(match.outcome is MatchOutcome.WIN for match in tournament.matches()) == players - 1
    assert_each_plays_once_per_round(tournament)
    rows = tournament.standings()
    assert rows[0].player == champion and rows[0].status == "champion" and rows[0].place == 1
    assert [row.status for row in rows[1:]] == ["eliminated"] * (players - 1)


def test_single_elimination_standings_share_places_by_round():
    tournament = Tournament.new("single_elimination", list(range(8)), seeded=True)
    play_out(tournament, random.Random(3))
    places = [row.place for row in tournament.standings()]
    assert places == [1, 2, 3, 3, 5, 5, 5, 5]


@SETTINGS
@given(st.integers(2, 96), st.integers(0, 2**32))
@example(2, 0)
@example(96, 1)
def test_double_elimination_needs_two_losses_and_ends_with_one_champion(players, seed):
    rng = random.Random(seed)
    tournament = Tournament.new("double_elimination", list(range(players)), rng=rng)
    while not tournament.is_over:
        match = rng.choice(tournament.pending_matches())
        events = tournament.record_result(match.key, rng.choice(match.players))
        lost = played_losses(tournament)
        for event in events:
            if event["type"] == "eliminated":
                assert lost[event["player"]] >= 2, f"player {event['player']} went out with one loss"
        assert all(lost[player] < 2 for player in tournament.active_players())
    champion = tournament.champion
    out = eliminated_events(tournament)
    assert champion not in out
    assert set(out) == set(tournament.players) - {champion}
    assert set(out.values()) == {1}
    assert played_losses(tournament)[champion] <= 1
    assert_each_plays_once_per_round(tournament)

    grand_final = tournament.match("GF")
    losers_champion_won = grand_final.winner == grand_final.players[1]
    labels = [round_.label for round_ in tournament.rounds()]
    assert ("GF2" in labels) == losers_champion_won
    resets = [event for event in tournament.events if event["type"] == "grand_final_reset"]
    assert len(resets) == losers_champion_won
    if losers_champion_won:
        reset = tournament.match("GF2")
        assert set(reset.players) == set(grand_final.players)
        assert champion == reset.winner
    else:
        assert champion == grand_final.winner
    # the grand final opposes the winners'-bracket champion (no loss) and the losers'-bracket one (one loss)
    first, second = grand_final.players
    winners_final = f"W{sum(label.startswith('W') for label in labels)}-1"
    assert first == tournament.match(winners_final).winner
    assert played_losses(tournament)[first] == 0 or losers_champion_won
    assert second != first


def test_grand_final_reset_example():
    tournament = Tournament.new("double_elimination", [1, 2], seeded=True)
    assert [m.key for m in tournament.pending_matches()] == ["W1-1"]
    tournament.record_result("W1-1", 1)
    assert tournament.match("GF").players == (1, 2)
    events = tournament.record_result("GF", 2)
    assert [event["type"] for event in events] == ["result", "grand_final_reset", "match_ready"]
    assert not tournament.is_over
    assert tournament.match("GF2").players == (1, 2)
    tournament.record_result("GF2", 2)
    assert tournament.is_over and tournament.champion == 2
    assert [row.player for row in tournament.standings()] == [2, 1]


def test_no_reset_when_the_winners_bracket_champion_wins_the_final():
    tournament = Tournament.new("double_elimination", [1, 2, 3, 4], seeded=True)
    for key, winner in [("W1-1", 1), ("W1-2", 2), ("W2-1", 1), ("L1-1", 4), ("L2-1", 2), ("GF", 1)]:
        tournament.record_result(key, winner)
    assert tournament.is_over and tournament.champion == 1
    assert "GF2" not in [round_.label for round_ in tournament.rounds()]
    rows = tournament.standings()
    assert [(row.player, row.place) for row in rows] == [(1, 1), (2, 2), (4, 3), (3, 4)]


def test_losers_bracket_takes_the_winners_bracket_losers():
    tournament = Tournament.new("double_elimination", list(range(1, 9)), seeded=True)
    for match in list(tournament.pending_matches()):
        tournament.record_result(match.key, min(match.players))  # the favourites win W1
    assert [m.players for m in tournament.rounds()[2].matches] == [(8, 5), (7, 6)]  # L1
    for match in list(tournament.pending_matches()):
        if match.round == "W2":
            tournament.record_result(match.key, min(match.players))
    l2 = tournament.rounds()[3]
    assert l2.label == "L2"
    assert [m.sources[1].match for m in l2.matches] == ["W2-2", "W2-1"]  # dropped in reversed


def test_byes_flow_through_both_brackets():
    tournament = Tournament.new("double_elimination", [1, 2, 3], seeded=True)
    assert tournament.match("W1-1").is_bye
    assert [m.key for m in tournament.pending_matches()] == ["W1-2"]
    tournament.record_result("W1-2", 3)
    assert tournament.match("L1-1").outcome is MatchOutcome.BYE and tournament.match("L1-1").winner == 2
    assert {m.key for m in tournament.pending_matches()} == {"W2-1"}
