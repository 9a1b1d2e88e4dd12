"""Speed War's rules (rule text 001: "Both players keep flipping as fast as they can without taking turns; the
faster reader may scoop the cards before the slower player notices"), as the players' rules text words them."""

from __future__ import annotations

import json

import pytest

from bot.errors import IllegalAction, NotYourTurn
from bot.games.speedwar.engine import SpeedWar, simulate


def game(first=("KS", "2C", "5D"), second=("7H", "2D", "9C"), **rules) -> SpeedWar:
    return SpeedWar.new(rules, seed=1, piles=[list(first), list(second)])


def press(choice, ms):
    return {"type": "press", "choice": choice, "ms": ms}


def settled(events):
    return next(event for event in events if event["type"] == "settled")


def test_both_cards_are_up_at_once_and_the_right_button_is_the_higher_card():
    g = game()
    assert g.opening_events == [{"type": "round", "round": 1, "cards": ["KS", "7H"], "counts": [3, 3]}]
    assert g.right_choice() == "0"


def test_the_fastest_right_press_takes_both_cards():
    g = game()
    assert g.apply(1, press("0", 420)) == [{"type": "pressed", "round": 1, "seat": 1}]  # nothing told yet
    event = settled(g.apply(0, press("0", 510)))
    assert event["taker"] == 1 and event["by"] == "right" and event["deciding"] == 1
    assert list(g.piles[1])[-2:] == ["7H", "KS"] and event["counts"] == [2, 4]


def test_a_wrong_press_gives_the_cards_away():
    g = game()
    g.apply(0, press("1", 300))  # seat 0 says 7♥ is higher: wrong
    event = settled(g.apply(1, press("0", 350)))
    assert event["by"] == "wrong" and event["taker"] == 1 and event["deciding"] == 0


def test_the_order_is_discords_clock_not_arrival():
    g = game()
    g.apply(0, press("0", 480))  # heard first, but slower
    event = settled(g.apply(1, press("0", 410)))
    assert event["taker"] == 1 and event["deciding"] == 1


def test_equal_ranks_want_the_equal_button():
    g = game(first=("2C", "KS"), second=("2D", "7H"))
    assert g.right_choice() == "tie"
    event = settled(g.apply(0, press("tie", 500)) + g.apply(1, press("0", 700)))
    assert event["taker"] == 0 and g.stats.wars == 1


@pytest.mark.parametrize(("choices", "taker"), [(("0", "1"), 0), (("1", "0"), 1), (("0", "0"), None),
                                                (("1", "1"), None)])
def test_simultaneous_presses(choices, taker):
    g = game()
    g.apply(0, press(choices[0], 333))
    event = settled(g.apply(1, press(choices[1], 333)))
    assert event["by"] == "simultaneous" and event["taker"] == taker
    if taker is None:  # each takes their own card back
        assert list(g.piles[0])[-1] == "KS" and list(g.piles[1])[-1] == "7H"


def test_a_lone_press_is_settled_when_its_window_closes():
    g = game()
    g.apply(0, press("0", 300))
    event = settled(g.settle_round())
    assert event["taker"] == 0 and event["presses"][1] is None


def test_nobody_pressing_lets_the_higher_card_take():
    g = game()
    g.apply(0, press(None, None))
    event = settled(g.apply(1, press(None, None)))
    assert event["by"] == "absent" and event["taker"] == 0


def test_refusals_change_nothing():
    g = game()
    before = json.dumps(g.to_json())
    for bad in (press("2", 100), press("0", -1), press("0", None), {"type": "flip"}, press("0", True)):
        with pytest.raises(IllegalAction):
            g.apply(0, bad)
    g.apply(0, press("0", 100))
    with pytest.raises(NotYourTurn):
        g.apply(0, press("0", 150))
    assert json.loads(before)["presses"] == [None, None]


def test_no_cards_left_loses_and_the_cap_counts_cards():
    g = game(first=("KS",), second=("7H", "2D"))
    events = g.apply(0, press("1", 100)) + g.apply(1, press("0", 300))  # seat 0's wrong press: its last card
    assert g.outcome.winner == 1 and g.outcome.reason == "all_cards" and events[-1]["type"] == "game_over"
    capped = game(max_rounds=1)
    capped.apply(0, press("0", 100))
    capped.settle_round()
    assert capped.outcome.reason == "capped" and capped.outcome.winner == 0


def test_scripted_players_faster_wins_and_wrong_presses_are_counted():
    report = simulate(200, 1, {}, reactions=(300, 500), errors=(0.1, 0.1))
    assert report["wins"][0] > report["wins"][1]
    assert 0.05 < report["rounds_decided_by_a_wrong_press"] < 0.2
    assert simulate(50, 1, {}, reactions=(400, 400), errors=(0, 0))["rounds_decided_by_a_wrong_press"] == 0
