"""Bundle War's rules from the rule text 003 ("a sort of hybrid of War and Stealing Bundles"), case by case."""

from __future__ import annotations

import json

import pytest

from bot.cards import JOKERS
from bot.errors import IllegalAction, NotYourTurn
from bot.games.bundlewar.engine import BundleWar

PLAY = {"type": "play"}


def steal(victim: int) -> dict:
    return {"type": "steal", "victim": victim}


def game(*packets, piles=None) -> BundleWar:
    g = BundleWar.new({"players": len(packets)}, seed=1, piles=[list(p) for p in packets])
    for seat, pile in enumerate(piles or []):
        g.piles[seat] = list(pile)
    return g


def test_you_look_at_your_card_and_may_steal_a_pile_whose_top_matches_it():
    # "If the rank of your card matches the top card of an opponent's face-up pile, then instead of playing it
    # normally you can use it to steal that pile."
    g = game(["7C", "9S"], ["KD", "2H"], piles=[["3S"], ["4C", "7D"]])
    assert g.view(0)["looking"] == "7C" and g.view(1)["looking"] == "KD" and g.view(None)["looking"] is None
    assert steal(1) in g.legal_actions(0) and g.legal_actions(1) == [PLAY]
    g.apply(0, steal(1))
    events = g.apply(1, PLAY)
    played = next(e for e in events if e["type"] == "step_played")
    # "You put your card face up on top of the pile you are stealing and then take the whole of the stolen pile and
    # place it on top of your own pile without changing the order of the cards."
    assert g.piles[0] == ["3S", "4C", "7D", "7C"] and g.piles[1] == []
    assert played["steals"] == [{"seat": 0, "victim": 1, "card": "7C", "cards": 3}]
    assert g.view(0)["looking"] == "9S" and g.pending_seats() == [0]  # "You then look at the next card"


def test_two_players_stealing_each_other_exchange_their_piles():
    # "If each player's card matches the top card of the other player's capture pile, they can both steal and the
    # two capture piles are exchanged."
    g = game(["7C", "9S"], ["5D", "2H"], piles=[["5S"], ["7D"]])
    g.apply(0, steal(1))
    g.apply(1, steal(0))
    assert g.piles[0] == ["7D", "7C"] and g.piles[1] == ["5S", "5D"]


def test_a_card_played_that_matches_your_own_pile_protects_it():
    # "if you play a card that matches your own pile, it protects your pile from being stolen during that turn"
    g = game(["9C", "3S"], ["9D", "2H"], piles=[["4S"], ["9H"]])
    g.apply(0, steal(1))
    events = g.apply(1, PLAY)
    played = next(e for e in events if e["type"] == "step_played")
    assert played["protected"] == [1] and played["failed"] == [0]
    assert g.piles[1] == ["9H"] and g.view(0)["looking"] == "9C" and g.pending_seats() == [0]
    g.apply(0, steal(1))  # still protected for the round
    assert g.piles[1] == ["9H"]


def test_two_steals_of_one_pile_go_to_the_first_after_its_owner():
    g = game(["6C", "2S"], ["6D", "3S"], ["KH", "4S"], piles=[[], [], ["6S"]])
    g.apply(0, steal(2))
    g.apply(1, steal(2))
    g.apply(2, PLAY)
    assert g.piles[0] == ["6S", "6C"] and g.piles[1] == [] and g.pending_seats() == [0, 1]


def test_the_highest_card_takes_the_table_and_its_winner_picks_the_top():
    # "Newly won cards are added to the top of the pile and the winner can choose which of the new cards to place
    # on top."
    g = game(["KC", "2S"], ["4D", "3H"])
    g.apply(0, PLAY)
    events = g.apply(1, PLAY)
    assert any(e["type"] == "battle" and e["winner"] == 0 for e in events)
    assert g.legal_actions(0) == [{"type": "top", "card": "KC"}, {"type": "top", "card": "4D"}]
    g.apply(0, {"type": "top", "card": "4D"})
    assert g.piles[0] == ["KC", "4D"] and g.stats.rounds == 1


def test_the_top_is_picked_from_one_card_of_each_rank_and_one_rank_leaves_no_choice():
    # only a pile top's rank matters (a steal matches ranks): the tied kings are one choice, the first shown
    g = game(["KC", "2S", "3S", "4S", "QS", "5C"], ["KD", "2H", "3H", "4H", "7H", "6C"])
    g.apply(0, PLAY)
    g.apply(1, PLAY)  # the kings tie: a war, three down, then a card each to look at
    g.apply(0, PLAY)
    g.apply(1, PLAY)
    assert g.shown == ["KC", "KD", "QS", "7H"]
    assert g.legal_actions(0) == [{"type": "top", "card": card} for card in ("KC", "QS", "7H")]
    # a match file that named the other king still plays: any won face-up card is accepted
    g.apply(0, {"type": "top", "card": "KD"})
    assert g.piles[0][-1] == "KD"
    one_rank = game(["KC", "2S"], ["4D", "3H"])
    one_rank.shown = ["KC", "KD"]
    one_rank.phase, one_rank.deciders, one_rank.choices = "top", [0], {}
    assert one_rank.legal_actions(0) == [{"type": "top", "card": "KC"}]
    joker_pair = game(["KC", "2S"], ["4D", "3H"])
    joker_pair.shown = [*sorted(JOKERS), "9C"]
    joker_pair.phase, joker_pair.deciders, joker_pair.choices = "top", [0], {}
    assert joker_pair.legal_actions(0) == [{"type": "top", "card": sorted(JOKERS)[0]}, {"type": "top", "card": "9C"}]


def test_jokers_are_the_highest_cards():
    # "The deck includes two jokers, which are the highest cards."
    joker = sorted(JOKERS)[0]
    g = game(["AC", "2S"], [joker, "3H"])
    g.apply(0, PLAY)
    events = g.apply(1, PLAY)
    assert next(e for e in events if e["type"] == "battle")["winner"] == 1


def test_a_war_lays_three_face_down_and_the_next_card_may_steal():
    # "wars consist of three cards played face down followed by one face up ... The three cards played face down
    # during a war are not looked at and cannot be used to steal an opponent's pile, but the following card can be
    # used to steal instead of competing to win the war if it matches an opponent's pile."
    g = game(["9C", "2S", "3S", "4S", "QH", "5C"], ["9D", "2H", "3H", "4H", "8C", "6C"], piles=[[], ["QD"]])
    g.apply(0, PLAY)
    events = g.apply(1, PLAY)
    assert any(e["type"] == "war" and e["seats"] == [0, 1] for e in events)
    assert g.view(0)["looking"] == "QH" and steal(1) in g.legal_actions(0)
    assert g.table[0] == ["9C", "2S", "3S", "4S"]  # the three face-down cards are not offered: never looked at
    assert "2S" in g.hidden_from(1)


def test_a_player_who_runs_out_in_a_war_loses_at_once():
    # "A player who runs out of cards during a war loses immediately."
    g = game(["9C", "2S"], ["9D", "2H", "3H", "4H", "8C", "6C"])
    g.apply(0, PLAY)
    events = g.apply(1, PLAY)
    assert any(e["type"] == "out" and e["seat"] == 0 and e["reason"] == "short_war" for e in events)
    assert g.outcome is not None and g.outcome.winner == 1


def test_an_empty_packet_is_refilled_from_the_shuffled_pile():
    # "As soon as a player's packet of face down cards runs out, the player's face-up pile is turned over and
    # shuffled to make a new face-down packet of cards to play from."
    g = game(["KC"], ["4D", "3H", "2C"])
    g.apply(0, PLAY)
    g.apply(1, PLAY)
    events = g.apply(0, {"type": "top", "card": "KC"})
    assert any(e["type"] == "reshuffle" and e["seat"] == 0 for e in events)
    assert sorted([g.view(0)["looking"], *g.packets[0]]) == ["4D", "KC"]


def test_refusals_change_nothing_and_a_save_goes_on_the_same():
    g = game(["7C", "9S"], ["KD", "2H"], piles=[["3S"], ["4C", "7D"]])
    before = json.dumps(g.to_json())
    with pytest.raises(IllegalAction):
        g.apply(1, steal(0))  # K♦ doesn't match 3♠
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "top", "card": "7C"})
    g.apply(0, PLAY)
    with pytest.raises(NotYourTurn):
        g.apply(0, PLAY)
    assert json.loads(before)["choices"] == {}
    again = BundleWar.from_json(json.loads(json.dumps(g.to_json())))
    assert again.apply(1, PLAY) == g.apply(1, PLAY)
