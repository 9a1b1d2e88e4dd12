"""Double War (rule text 001: "the top of the discarded capture pile is always a 'prize' in the centre; losing the
next round loses the prize as well. Slightly accelerates the game"): the prize card in the centre, case by case."""

from __future__ import annotations

import json

from bot import sim
from bot.games.war.engine import DoubleWar, War

PLAYED = {"return_order": "played"}


def game(piles, **rules) -> DoubleWar:
    return DoubleWar.new({**PLAYED, **rules}, seed=1, piles=piles)


def takes(events):
    return [event for event in events if event["type"] == "take"]


def test_the_top_card_of_a_rounds_winnings_stands_as_the_prize_and_counts_for_its_owner():
    g = game([["KS", "2C", "9D"], ["3H", "5C", "4D"]])
    take = takes(g.play_round())[0]
    # the pot laid as played, K♠ then 3♥: the 3♥ would land on top, so it stands in the centre
    assert take["seat"] == 0 and take["prize"] == "3H" and take["prize_seat"] == 0 and take["prize_taken"] is None
    assert take["cards"] == 2
    assert list(g._piles[0]) == ["2C", "9D", "KS"] and g.card_locations()["prize"] == ["3H"]
    assert g.view(None)["prize"] == {"card": "3H", "seat": 0}
    assert g.view(None)["card_counts"] == [4, 2]  # the prize is seat 0's


def test_the_next_rounds_loser_loses_the_prize_as_well():
    g = game([["KS", "2C", "9D"], ["3H", "5C", "4D"]])
    g.play_round()
    take = takes(g.play_round())[0]  # 2♣ against 5♣: seat 1 wins, and takes the 3♥ with the pot
    assert take["seat"] == 1 and take["prize_taken"] == "3H" and take["cards"] == 3
    assert take["prize"] == "5C" and take["prize_seat"] == 1  # the pot laid 2♣ then 5♣: 5♣ on top
    assert list(g._piles[1]) == ["4D", "3H", "2C"]
    assert g.view(None)["card_counts"] == [2, 4]


def test_winning_again_keeps_the_prize():
    g = game([["KS", "QC", "9D"], ["3H", "5C", "4D"]])
    g.play_round()
    take = takes(g.play_round())[0]
    assert take["seat"] == 0 and take["prize_taken"] == "3H" and take["prize"] == "5C"
    assert list(g._piles[0]) == ["9D", "KS", "3H", "QC"]


def test_a_wars_winner_takes_the_prize():
    g = game([["KS", "7C", "2D", "AD", "4S"], ["3H", "7H", "5C", "QD", "6S"]], face_down=1)
    g.play_round()  # K♠ beats 3♥: the 3♥ is seat 0's prize
    events = g.play_round()  # 7♣ 7♥: war, one down each, A♦ beats Q♦
    take = takes(events)[0]
    assert any(event["type"] == "war" for event in events)
    # the pot: 7♣ 2♦ A♦ 7♥ 5♣ Q♦, with the 3♥ under it: seven cards, Q♦ the new prize
    assert take["seat"] == 0 and take["prize_taken"] == "3H" and take["cards"] == 7 and take["face_down"] == 2
    assert take["prize"] == "QD"


def test_a_round_nobody_wins_leaves_the_prize_standing_and_the_end_sends_it_home():
    g = game([["KS", "7C"], ["3H", "7H", "2S"]], players=2)
    g.play_round()  # seat 0 wins: 3♥ is its prize, 7♣ and K♠ left in its pile
    events = g.play_round()  # 7♣ 7♥: a war seat 0 cannot fight (K♠ is its last card face up)...
    assert g.outcome is not None
    locations = g.card_locations()
    assert locations["prize"] == []  # at the end the prize went home
    held = [len(g._piles[seat]) for seat in (0, 1)]
    assert sum(held) + len(locations["aside"]) == 5
    assert events[-1]["type"] == "game_over"


def test_a_forfeit_takes_the_prize_aside_with_the_players_cards():
    g = game([["KS", "2C", "9D"], ["3H", "5C", "4D"], ["6H", "8C", "10D"]], players=3)
    g.play_round()  # K♠ wins over 3♥ and 6♥: the 6♥ (on top) is seat 0's prize
    assert g.view(None)["prize"] == {"card": "6H", "seat": 0}
    g.forfeit(0)
    assert g.view(None)["prize"] is None and g.card_locations()["prize"] == []
    assert sorted(g.card_locations()["aside"]) == sorted(["2C", "9D", "KS", "3H", "6H"])


def test_the_prize_survives_a_save():
    g = game([["KS", "2C", "9D"], ["3H", "5C", "4D"]])
    g.play_round()
    again = DoubleWar.from_json(json.loads(json.dumps(g.to_json())))
    assert again.view(None)["prize"] == {"card": "3H", "seat": 0}
    assert again.play_round() == g.play_round()


def test_the_rule_works_in_any_war_game_and_double_war_is_war_with_it_on():
    assert DoubleWar.resolve_rules({})["double"] is True and War.resolve_rules({})["double"] is False
    plain = War.new({"double": True}, seed=5)
    assert takes(plain.play_round())[0]["prize"] is not None


def test_double_war_is_faster_than_war():
    """"Slightly accelerates the game": the same deals, fewer rounds on average."""
    war = sim.run("war", 400, 1, {})
    double = sim.run("doublewar", 400, 1, {})
    assert double["mean_rounds"] < war["mean_rounds"]
