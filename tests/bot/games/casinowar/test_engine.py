"""Casino War's rules, from the rule texts: 001 ("Casino War: ... player bets on each flip, ties allow a
'surrender' of half-bet or double-up for a war, and aces are the highest rank") and the README's facts ("one card
each, even money; on a tie the player surrenders half the bet or goes to war by raising an equal amount: the dealer
burns three cards and each gets one more; player equal or higher wins the raise and the original bet pushes (some
houses pay a bonus equal to the bet on a tie after a tie); an optional tie bet pays 10:1")."""

from __future__ import annotations

import pytest

from bot.errors import IllegalAction, InvalidRules
from bot.games.casinowar.engine import CasinoWar, bet_ladder
from bot.games.casinowar.odds import main_bet_edge, tie_bet_edge

FILLER = ["2C", "3D", "4H", "5S", "6C", "7D", "8H", "9S", "10C", "JD", "QH", "KS", "AC"] * 3
RULES = {"players": 1, "decks": 1, "cut_card": 13, "min_bet": 10, "max_bet": 100, "tie_bet": 10}


def table(shoe: list[str], **rules) -> CasinoWar:
    return CasinoWar.new({**RULES, **rules}, seed=1, piles=[shoe + FILLER])


def chips(events, seat: int = 0) -> dict[str, int]:
    return {e["kind"]: e["amount"] for e in events if e["type"] == "chips" and e["seat"] == seat}


def bet(game: CasinoWar, amount: int = 10, tie: int = 0, seat: int = 0):
    return game.apply(seat, {"type": "bet", "amount": amount, "tie": tie})


def test_the_higher_card_wins_even_money_and_aces_are_high():
    game = table(["AH", "KC"])
    events = bet(game, 20)
    assert chips(events) == {"bet": -20, "win": 40}
    assert game.stacks == [1020] and game.net == [20]
    game = table(["KC", "AH"])
    assert chips(bet(game, 20)) == {"bet": -20}
    assert game.stacks == [980]


def test_a_surrender_loses_half_the_bet():
    game = table(["7H", "7C"])
    events = bet(game, 20)
    assert any(e["type"] == "tie" for e in events)
    assert game.legal_actions(0) == [{"type": "surrender"}, {"type": "war"}]
    assert chips(game.apply(0, {"type": "surrender"})) == {"surrender": 10}
    assert game.stacks == [990]


def test_war_raises_the_bet_burns_three_cards_and_an_equal_or_higher_card_wins_the_raise_only():
    game = table(["7H", "7C", "2C", "3C", "4C", "9H", "8S"])
    bet(game, 20)
    events = game.apply(0, {"type": "war"})
    war = next(e for e in events if e["type"] == "war")
    assert war["burned"] == 3 and war["cards"] == ["9H"] and war["house"] == "8S"
    assert {"2C", "3C", "4C"} <= set(game.discard)  # burned face down
    assert chips(events) == {"raise": -20, "war_win": 60}
    assert game.net == [20]  # the raise won even money, the original bet pushed
    lost = table(["7H", "7C", "2C", "3C", "4C", "8H", "9S"])
    bet(lost, 20)
    assert chips(lost.apply(0, {"type": "war"})) == {"raise": -20}
    assert lost.net == [-40]


@pytest.mark.parametrize(("bonus", "net"), [(True, 40), (False, 20)])
def test_a_tie_after_a_tie_wins_the_raise_and_with_the_bonus_pays_the_bet_again(bonus, net):
    game = table(["7H", "7C", "2C", "3C", "4C", "9H", "9S"], tie_bonus=bonus)
    bet(game, 20)
    game.apply(0, {"type": "war"})
    assert game.net == [net]


def test_the_tie_bet_pays_ten_to_one_and_is_lost_without_a_tie():
    game = table(["QH", "QS"])
    events = bet(game, 10, tie=10)
    assert chips(events) == {"bet": -10, "tie_bet": -10, "tie_win": 110}
    game.apply(0, {"type": "surrender"})
    assert game.net == [-10 - 10 + 110 + 5]
    other = table(["QH", "JS"])
    assert chips(bet(other, 10, tie=10)) == {"bet": -10, "tie_bet": -10, "win": 20}
    assert other.net == [0]


def test_the_shoe_is_reshuffled_after_the_hand_the_cut_card_comes_out_in():
    game = CasinoWar.new({**RULES, "hands": 5}, seed=3, piles=[FILLER[:17]])  # 17 cards, cut card 13 from the end
    events = bet(game)
    assert not any(e["type"] == "reshuffle" for e in events) and len(game.shoe) == 15
    events = bet(game)
    reshuffle = next(e for e in events if e["type"] == "reshuffle")
    assert [e["type"] for e in events].index("reshuffle") > [e["type"] for e in events].index("hand_over")
    assert reshuffle["cards"] == 17 and len(game.shoe) == 17 and game.discard == [] and game.reshuffles == 1


def test_chips_never_go_below_zero():
    game = CasinoWar.new({**RULES, "stacks": [25]}, seed=1, piles=[["7H", "7C", *FILLER]])
    assert {a["amount"] for a in game.legal_actions(0) if a["type"] == "bet"} == {10, 20}
    with pytest.raises(IllegalAction):
        bet(game, 50)
    assert game.stacks == [25]
    bet(game, 20)  # a tie with 5 chips left: no raise of 20, only surrender
    assert game.legal_actions(0) == [{"type": "surrender"}]
    with pytest.raises(IllegalAction):
        game.apply(0, {"type": "war"})
    game.apply(0, {"type": "surrender"})
    assert game.stacks == [15]


def test_a_seat_without_the_smallest_bet_stands_up_and_an_empty_table_closes():
    game = CasinoWar.new({**RULES, "players": 2, "stacks": [5, 100]}, seed=1)
    assert game.seated == [False, True]
    with pytest.raises(InvalidRules):
        CasinoWar.new({**RULES, "min_bet": 50, "max_bet": 10})
    broke = CasinoWar.new({**RULES, "stacks": [10]}, seed=1, piles=[["2H", "KC", *FILLER]])
    events = bet(broke, 10)
    assert broke.is_over and broke.outcome.reason == "table_empty" and broke.stacks == [0]
    assert any(e["type"] == "stood_up" and e["reason"] == "chips" for e in events)


def test_bets_stay_secret_until_every_seat_has_chosen_and_sitting_out_costs_nothing():
    game = CasinoWar.new({**RULES, "players": 2}, seed=5)
    first = bet(game, 50)
    assert first == [{"type": "chosen", "hand": 1, "seat": 0}]
    assert game.view(1)["bets"] == [None, None] and "choice" not in str(game.view(None))
    events = game.apply(1, {"type": "sit_out"})
    dealt = next(e for e in events if e["type"] == "dealt")
    assert dealt["bets"][0] == {"main": 50, "tie": 0} and dealt["bets"][1] is None and dealt["cards"][1] is None
    assert game.stacks[1] == 1000


def test_the_table_closes_after_its_hands_and_a_leaving_seat_plays_no_more():
    game = CasinoWar.new({**RULES, "players": 2, "hands": 2}, seed=7)
    game.forfeit(1)
    assert game.seated == [True, False] and not game.is_over
    while not game.is_over:
        game.apply(0, game.legal_actions(0)[-1])
    assert game.outcome.reason == "hand_limit" and game.stats.rounds == 2


def test_the_bet_ladder_runs_from_the_minimum_to_the_maximum():
    assert bet_ladder(10, 100) == [10, 20, 50, 100]
    assert bet_ladder(5, 5) == [5]
    assert bet_ladder(25, 500) == [25, 50, 125, 250, 500]


def test_the_house_edge_matches_the_published_figures_for_six_decks():
    assert round(float(main_bet_edge(6, bonus=False)) * 100, 2) == 2.88
    assert round(float(main_bet_edge(6, bonus=True)) * 100, 2) == 2.33
    assert round(float(main_bet_edge(6, war=False)) * 100, 2) == 3.70
    assert round(float(tie_bet_edge(6)) * 100, 2) == 18.65
