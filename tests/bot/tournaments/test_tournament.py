"""The tournament state machine: every format plays each player at most once per round, JSON round trips
mid-tournament continue identically, the typed errors, disqualification in elimination, events."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import GameError, GameOver, IllegalAction, InvalidRules, InvalidState
from bot.i18n import texts
from bot.tournaments import (
    DamagedTournament,
    DrawNotAllowed,
    Format,
    InvalidTournament,
    MatchNotReady,
    MatchOutcome,
    PlayerAlreadyOut,
    PlayerNotInMatch,
    ResultAlreadyRecorded,
    Tournament,
    TournamentError,
    TournamentOver,
    UnknownMatch,
    UnknownPlayer,
)
from tests.bot.i18n.pseudo import PSEUDO, english_left, pseudo_language
from tests.bot.tournaments.support import assert_each_plays_once_per_round, eliminated_events, play_out, step

SETTINGS = settings(max_examples=40, deadline=None)
FORMATS = [f.value for f in Format]


def sizes(format):
    return st.integers(2, 48 if format.endswith("elimination") else 14)


@st.composite
def setups(draw):
    format = draw(st.sampled_from(FORMATS))
    players = draw(sizes(format))
    ratings = {player: draw(st.one_of(st.none(), st.integers(800, 2000))) for player in range(players)}
    return format, list(range(players)), ratings, draw(st.integers(0, 2**32))


@SETTINGS
@given(setups(), st.sampled_from([0.0, 0.04]))
def test_every_round_seats_a_player_at_most_once(setup, dq_rate):
    format, players, ratings, seed = setup
    rng = random.Random(seed)
    tournament = Tournament.new(format, players, ratings=ratings, rng=rng)
    while not tournament.is_over:
        step(tournament, rng, dq_rate=dq_rate)
        assert_each_plays_once_per_round(tournament)
    assert tournament.pending_matches() == []
    assert tournament.current_round() is None
    assert all(match.is_decided for match in tournament.matches())
    assert sorted(row.player for row in tournament.standings()) == sorted(players)
    assert [event["type"] for event in tournament.events].count("tournament_over") == 1


@SETTINGS
@given(setups(), st.integers(0, 400), st.sampled_from([0.0, 0.04]))
def test_json_round_trip_mid_tournament_continues_identically(setup, stop, dq_rate):
    format, players, ratings, seed = setup
    rng = random.Random(seed)
    tournament = Tournament.new(format, players, ratings=ratings, rng=rng)
    for _ in range(stop):
        if tournament.is_over:
            break
        step(tournament, rng, dq_rate=dq_rate)
    saved = tournament.to_json()
    restored = Tournament.from_json(json.loads(json.dumps(saved)))
    assert restored.to_json() == saved
    assert restored == tournament
    assert [r.label for r in restored.rounds()] == [r.label for r in tournament.rounds()]
    assert restored.pending_matches() == tournament.pending_matches()
    assert restored.standings() == tournament.standings()
    assert restored.current_round() == tournament.current_round()
    continuation = random.Random(seed + 1)
    play_out(tournament, copy.deepcopy(continuation), dq_rate=dq_rate)
    play_out(restored, copy.deepcopy(continuation), dq_rate=dq_rate)
    assert restored.to_json() == tournament.to_json()
    assert restored.champion == tournament.champion


@settings(max_examples=20, deadline=None)
@given(setups())
def test_same_inputs_and_rng_seed_give_the_same_tournament(setup):
    format, players, ratings, seed = setup
    runs = []
    for _ in range(2):
        rng = random.Random(seed)
        tournament = Tournament.new(format, players, ratings=ratings, rng=rng)
        play_out(tournament, rng)
        runs.append(tournament.to_json())
    assert runs[0] == runs[1]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["single_elimination", "double_elimination"]), st.integers(2, 40), st.integers(0, 2**32))
def test_disqualified_players_play_no_more(format, players, seed):
    rng = random.Random(seed)
    tournament = Tournament.new(format, list(range(players)), rng=rng)
    while not tournament.is_over:
        step(tournament, rng, dq_rate=0.15)
    dq_at = {event["player"]: index for index, event in enumerate(tournament.events)
             if event["type"] == "disqualified"}
    for index, event in enumerate(tournament.events):
        if event["type"] == "result" and event["outcome"] == "win":
            assert all(dq_at.get(player, len(tournament.events)) > index for player in event["players"])
    out = eliminated_events(tournament)
    assert not set(out) & set(dq_at)
    assert set(out.values()) <= {1}
    assert set(out) | set(dq_at) | {tournament.champion} >= set(range(players)) - {None}
    assert tournament.champion not in dq_at


def test_forfeit_in_single_elimination_and_later_matches():
    tournament = Tournament.new("single_elimination", [1, 2, 3, 4], seeded=True)
    tournament.disqualify(4)
    assert tournament.match("W1-1").outcome is MatchOutcome.FORFEIT and tournament.match("W1-1").winner == 1
    events = tournament.disqualify(2)
    assert [e["type"] for e in events] == ["disqualified", "result", "match_ready"]
    assert tournament.match("W1-2").winner == 3
    assert tournament.match("W2-1").is_ready
    tournament.record_result("W2-1", 3)
    assert tournament.champion == 3
    rows = tournament.standings()
    assert [(row.player, row.status) for row in rows] == [
        (3, "champion"), (1, "eliminated"), (2, "disqualified"), (4, "disqualified")]


def test_waiting_match_of_a_disqualified_player_is_forfeited_when_known():
    tournament = Tournament.new("double_elimination", [1, 2, 3, 4], seeded=True)
    tournament.record_result("W1-1", 1)
    tournament.disqualify(1)  # waiting for W2-1
    assert not tournament.match("W2-1").is_decided
    events = tournament.record_result("W1-2", 2)
    assert tournament.match("W2-1").outcome is MatchOutcome.FORFEIT and tournament.match("W2-1").winner == 2
    assert tournament.match("L2-1").known == (False, True) and tournament.match("L2-1").players[1] is None
    assert "match_ready" in [e["type"] for e in events]  # L1-1: 4 v 3


def test_events_of_a_small_single_elimination():
    tournament = Tournament.new("single_elimination", [7, 8, 9], seeded=True)
    tournament.record_result("W1-2", 9)
    tournament.record_result("W2-1", 7)
    assert tournament.events == [
        {"type": "tournament_started", "format": "single_elimination", "players": [7, 8, 9], "options": {}},
        {"type": "result", "match": "W1-1", "round": "W1", "players": [7, None], "outcome": "bye", "winner": 7},
        {"type": "match_ready", "match": "W1-2", "round": "W1", "players": [8, 9]},
        {"type": "result", "match": "W1-2", "round": "W1", "players": [8, 9], "outcome": "win", "winner": 9},
        {"type": "eliminated", "player": 8, "match": "W1-2"},
        {"type": "match_ready", "match": "W2-1", "round": "W2", "players": [7, 9]},
        {"type": "result", "match": "W2-1", "round": "W2", "players": [7, 9], "outcome": "win", "winner": 7},
        {"type": "eliminated", "player": 9, "match": "W2-1"},
        {"type": "tournament_over", "champion": 7, "reason": "final_decided"},
    ]


def test_current_round_and_rounds_accessors():
    tournament = Tournament.new("round_robin", [1, 2, 3], seeded=True)
    current = tournament.current_round()
    assert (current.label, current.bracket, current.number) == ("R1", "rounds", 1)
    assert [m.key for m in current.matches] == ["R1-1", "R1-2"]
    assert current.matches[1].is_bye
    tournament.record_result("R1-1", None)
    assert tournament.current_round().label == "R2"
    assert tournament.rounds()[0].is_complete


# --- the typed errors -----------------------------------------------------------------------------------
def unchanged(tournament, call, error):
    before = tournament.to_json()
    with pytest.raises(error):
        call()
    assert tournament.to_json() == before


def test_record_result_errors():
    tournament = Tournament.new("double_elimination", [1, 2, 3, 4], seeded=True)
    unchanged(tournament, lambda: tournament.record_result("W9-1", 1), UnknownMatch)
    unchanged(tournament, lambda: tournament.record_result(["W1-1"], 1), UnknownMatch)
    unchanged(tournament, lambda: tournament.record_result("W2-1", 1), MatchNotReady)
    unchanged(tournament, lambda: tournament.record_result("W1-1", 2), PlayerNotInMatch)
    unchanged(tournament, lambda: tournament.record_result("W1-1", True), PlayerNotInMatch)
    unchanged(tournament, lambda: tournament.record_result("W1-1", None), DrawNotAllowed)
    tournament.record_result("W1-1", 1)
    unchanged(tournament, lambda: tournament.record_result("W1-1", 1), ResultAlreadyRecorded)
    with pytest.raises(UnknownMatch) as caught:
        tournament.match("nope")
    assert str(caught.value) == "there is no match 'nope' in this tournament"


def test_draws_are_fine_outside_elimination():
    for format in ("round_robin", "swiss"):
        tournament = Tournament.new(format, [1, 2], seeded=True)
        tournament.record_result("R1-1", None)
        assert tournament.match("R1-1").outcome is MatchOutcome.DRAW
        assert tournament.is_over and tournament.champion == 1  # the better seed on a full tie


def test_tournament_over_errors():
    tournament = Tournament.new("single_elimination", [1, 2], seeded=True)
    tournament.record_result("W1-1", 2)
    assert tournament.champion == 2
    unchanged(tournament, lambda: tournament.record_result("W1-1", 2), TournamentOver)
    unchanged(tournament, lambda: tournament.disqualify(1), TournamentOver)


def test_disqualify_errors():
    tournament = Tournament.new("single_elimination", [1, 2, 3, 4], seeded=True)
    unchanged(tournament, lambda: tournament.disqualify(5), UnknownPlayer)
    unchanged(tournament, lambda: tournament.disqualify("1"), UnknownPlayer)
    tournament.record_result("W1-1", 1)
    unchanged(tournament, lambda: tournament.disqualify(4), PlayerAlreadyOut)
    tournament.disqualify(2)
    unchanged(tournament, lambda: tournament.disqualify(2), PlayerAlreadyOut)
    with pytest.raises(UnknownPlayer):
        tournament.seed_of(99)


@pytest.mark.parametrize(("format", "players", "kwargs"), [
    ("knockout", [1, 2], {}),
    ("swiss", [1], {"seeded": True}),
    ("swiss", [1, 1, 2], {"seeded": True}),
    ("swiss", [1, "2"], {"seeded": True}),
    ("swiss", [1, True], {"seeded": True}),
    ("swiss", list(range(1025)), {"seeded": True}),
    ("swiss", [1, 2], {"ratings": {1: 1500, 3: 1500}}),
    ("swiss", [1, 2], {"ratings": {1: "high", 2: 1500}}),
    ("swiss", [1, 2], {"ratings": {1: float("nan"), 2: 1500}}),
    ("swiss", [1, 2], {"ratings": {1: True, 2: 1500}}),
    ("swiss", [1, 2], {"seeded": True, "options": {"best_of": 3}}),
    ("round_robin", [1, 2], {"seeded": True, "options": {"rounds": 1}}),
    ("swiss", [1, 2, 3, 4], {"seeded": True, "options": {"rounds": 0}}),
    ("swiss", [1, 2, 3, 4], {"seeded": True, "options": {"rounds": "2"}}),
    ("single_elimination", [1, 2], {}),  # unrated players and no rng
])
def test_invalid_tournaments(format, players, kwargs):
    with pytest.raises(InvalidTournament):
        Tournament.new(format, players, **kwargs)


def test_errors_are_game_errors_of_the_matching_kind():
    assert issubclass(InvalidTournament, InvalidRules)
    assert issubclass(DamagedTournament, InvalidState)
    assert issubclass(TournamentOver, GameOver)
    for error in (UnknownMatch, MatchNotReady, ResultAlreadyRecorded, PlayerNotInMatch, DrawNotAllowed,
                  UnknownPlayer, PlayerAlreadyOut):
        assert issubclass(error, IllegalAction) and issubclass(error, GameError)


def damaged_copies():
    tournament = Tournament.new("double_elimination", [1, 2, 3, 4, 5], seeded=True)
    tournament.record_result("W1-2", 4)
    good = tournament.to_json()

    def damaged(change):
        data = copy.deepcopy(good)
        change(data)
        return data

    return good, [
        damaged(lambda d: d.update(version=2)),
        damaged(lambda d: d.update(format="knockout")),
        damaged(lambda d: d.update(players=[1, 1, 2, 3, 4])),
        damaged(lambda d: d.update(ratings=[None])),
        damaged(lambda d: d.pop("matches")),
        damaged(lambda d: d["matches"][0].update(players=[1, 99])),
        damaged(lambda d: d["matches"][0].update(outcome="won")),
        damaged(lambda d: d["matches"].append(d["matches"][0])),
        damaged(lambda d: d["matches"].reverse()),
        damaged(lambda d: d["rounds"].pop()),
        damaged(lambda d: d["rounds"][0].update(number=0)),
        damaged(lambda d: d.update(disqualified=[42])),
        damaged(lambda d: d.update(finish={"champion": 42, "reason": "final_decided"})),
        damaged(lambda d: d.update(options={"rounds": 3})),
        "not a tournament",
    ]


def test_damaged_json_is_refused():
    good, damaged = damaged_copies()
    assert Tournament.from_json(good).to_json() == good
    for data in damaged:
        with pytest.raises(DamagedTournament):
            Tournament.from_json(data)


def test_saved_state_holds_no_events_and_stays_the_size_of_the_bracket():
    tournament = Tournament.new("single_elimination", list(range(1, 17)), seeded=True)
    sizes = []
    rng = random.Random(5)
    while not tournament.is_over:
        sizes.append(len(json.dumps(tournament.to_json())))
        step(tournament, rng)
    assert "events" not in tournament.to_json()
    assert tournament.events  # still held in memory since the start
    # results fill winners in; the state does not grow with the history (a list of events would)
    assert max(sizes) - min(sizes) < 0.25 * min(sizes)
    loaded = Tournament.from_json(tournament.to_json())
    assert loaded == tournament and loaded.events == []


@pytest.mark.parametrize("format", FORMATS)
def test_replace_player_renames_them_everywhere_and_forgets_their_rating(format):
    players = [201, 202, 203, 204, 205]
    tournament = Tournament.new(format, players, ratings={p: 500.0 + p for p in players}, rng=random.Random(3))
    rng = random.Random(8)
    for _ in range(3):
        step(tournament, rng)
    before = tournament.to_json()
    tournament.replace_player(203, -987)
    after = tournament.to_json()
    assert 203 not in tournament.players and tournament.seed_of(-987) == before["players"].index(203) + 1
    assert tournament.ratings[-987] is None and tournament.ratings[201] == 701.0
    assert "203" not in json.dumps(after) and "203" not in json.dumps(tournament.events)
    assert json.dumps(after).count("-987") == json.dumps(before).count("203")
    # the bracket plays on as before, the placeholder in the deleted player's place
    twin = Tournament.from_json(before)
    play_out(tournament, random.Random(1))
    play_out(twin, random.Random(1))
    swapped = json.loads(json.dumps(twin.to_json()).replace("203", "-987"))
    swapped["ratings"] = after["ratings"]
    assert tournament.to_json() == swapped


def test_replace_player_refuses_an_unknown_player_or_a_taken_id():
    tournament = Tournament.new("round_robin", [1, 2, 3], seeded=True)
    with pytest.raises(UnknownPlayer):
        tournament.replace_player(9, -1)
    with pytest.raises(InvalidTournament):
        tournament.replace_player(1, 2)
    assert tournament.players == (1, 2, 3)


def test_the_logics_refusals_are_said_in_a_players_language():
    """``str`` stays the English; ``said`` puts the template in the language (the pseudo-language: no English)."""
    tournament = Tournament.new("single_elimination", [1, 2, 3, 4], seeded=True)
    errors = []
    for call in (lambda: tournament.match("nope"), lambda: tournament.record_result("W2-1", 1),
                 lambda: tournament.record_result("W1-1", 2), lambda: tournament.record_result("W1-1", None),
                 lambda: tournament.disqualify(9), lambda: Tournament.new("nope", [1, 2]),
                 lambda: Tournament.new("single_elimination", [1, 1]), lambda: Tournament.new("swiss", [1, 2, 3],
                                                                                             options={"rounds": 9}),
                 lambda: Tournament.new("round_robin", [1, 2], options={"rounds": 1}),
                 lambda: Tournament.new("round_robin", [1, 2], ratings={1: "high"}),
                 lambda: Tournament.new("round_robin", [1, 2], ratings={3: 1500})):
        with pytest.raises(TournamentError) as caught:
            call()
        errors.append(caught.value)
    tournament.disqualify(1)
    with pytest.raises(TournamentError) as caught:
        tournament.disqualify(1)
    errors.append(caught.value)
    assert str(errors[0]) == "there is no match 'nope' in this tournament"
    assert errors[0].said(texts("ru")) == "в этом турнире нет матча 'nope'"
    assert errors[-1].said(texts("de")) == "Spieler 1 ist schon aus diesem Turnier raus (disqualifiziert)"
    with pseudo_language():
        said = [error.said(texts(PSEUDO)) for error in errors]
    codes = ["nope", "single_elimination", "double_elimination", "round_robin", "swiss", "rounds", "none", "high"]
    assert [english_left(text, codes) for text in said] == [[]] * len(said), said
