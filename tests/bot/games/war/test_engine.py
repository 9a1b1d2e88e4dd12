"""War, Drunkard and Tod und Leben: the rules of the texts, our choices where they are silent, bad input, JSON,
views, speed and the rules texts. Almost every game here starts from explicit piles (top card first)."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from bot.cards import is_red, standard_pack
from bot.errors import GameOver, IllegalAction, InvalidRules, InvalidState, NotYourTurn
from bot.games.war.engine import Drunkard, TodUndLeben, War
from bot.registry import game_class
from bot.rules_text import rules_text

RULES_DIR = Path(__file__).resolve().parents[4] / "bot" / "games" / "war" / "rules"
FLIP = {"type": "flip"}


# --- helpers -----------------------------------------------------------------------------------------------
def start(*piles, cls=War, seed=1, **rules):
    return cls.new(rules, seed=seed, piles=[list(pile) for pile in piles])


def of_type(events, kind):
    return [event for event in events if event["type"] == kind]


def cards_in_play(game):
    return Counter(card for cards in game.card_locations().values() for card in cards)


def state(game):
    """The game state without the display-only list of last events."""
    data = game.to_json()
    data.pop("last_events")
    return data


def hearts(*ranks):
    return [rank + "H" for rank in ranks]


def spades(*ranks):
    return [rank + "S" for rank in ranks]


# --- the basic game ----------------------------------------------------------------------------------------
def test_the_higher_card_takes_both_cards_to_the_bottom_of_its_pile():
    game = start(["KS", "3C"], ["2H", "4D"], return_order="played")
    events = game.play_round()
    assert events[0] == {"type": "battle", "round": 1, "cards": ["KS", "2H"], "winner": 0, "tied": []}
    assert events[1] == {
        "type": "take",
        "round": 1,
        "seat": 0,
        "cards": 2,
        "face_down": 0,
        "to": "pile",
        "counts": [3, 1],
    }
    assert len(events) == 2
    assert game.draw_piles() == [["3C", "KS", "2H"], ["4D"]]
    assert (game.stats.rounds, game.stats.wars, game.outcome) == (1, 0, None)


def test_suits_do_not_matter_and_the_game_ends_when_one_player_has_every_card():
    game = start(["KS"], ["QH"])
    events = game.play_round()
    assert [event["type"] for event in events] == ["battle", "take", "out", "game_over"]
    assert events[2] == {"type": "out", "round": 1, "seat": 1, "reason": "no_cards", "forfeit": 0}
    assert events[3]["winner"] == 0 and events[3]["reason"] == "all_cards"
    assert game.outcome.winner == 0 and game.outcome.reason == "all_cards"
    assert sorted(game.draw_piles()[0]) == ["KS", "QH"]


def test_a_tie_is_a_war_with_one_card_face_down_and_one_face_up_and_the_winner_takes_all_six():
    # 002: "the player ... with the higher value gets to take all of the six cards that are currently on the table"
    game = start(["5H", "9C", "KD", "4H"], ["5S", "8C", "3D", "6S"], return_order="played")
    events = game.play_round()
    assert events[0] == {"type": "battle", "round": 1, "cards": ["5H", "5S"], "winner": None, "tied": [0, 1]}
    assert of_type(events, "war") == [
        {
            "type": "war",
            "round": 1,
            "war": 1,
            "seats": [0, 1],
            "face_down": [1, 1],
            "cards": ["KD", "3D"],
            "winner": 0,
            "tied": [],
        }
    ]
    take = of_type(events, "take")[0]
    assert (take["seat"], take["cards"], take["face_down"]) == (0, 6, 2)
    assert game.draw_piles() == [["4H", "5H", "5S", "9C", "KD", "8C", "3D"], ["6S"]]
    # the face-down cards are never named
    assert "9C" not in json.dumps(events) and "8C" not in json.dumps(events)


def test_chained_wars_are_one_round_and_each_war_counts():
    game = start(["5H", "9C", "QD", "2C", "AH", "4H"], ["5S", "8C", "QS", "3C", "KH", "6S"])
    events = game.play_round()
    wars = of_type(events, "war")
    assert [(war["war"], war["cards"], war["winner"], war["tied"]) for war in wars] == [
        (1, ["QD", "QS"], None, [0, 1]),
        (2, ["AH", "KH"], 0, []),
    ]
    assert of_type(events, "take")[0]["cards"] == 10
    assert game.stats.to_json() == {"rounds": 1, "wars": 2, "longest_chain": 2, "biggest_pot": 10}


def test_three_face_down_cards_make_a_war_of_ten_cards():
    # 001: "ten cards in total for a standard war"
    game = start(["5H", "2C", "3C", "4C", "KD", "4H"], ["5S", "2D", "3D", "4D", "QD", "6S"], face_down=3)
    events = game.play_round()
    assert of_type(events, "war")[0]["face_down"] == [3, 3]
    assert of_type(events, "war")[0]["cards"] == ["KD", "QD"]
    take = of_type(events, "take")[0]
    assert (take["seat"], take["cards"], take["face_down"]) == (0, 10, 6)


def test_no_face_down_cards_the_next_face_up_card_settles_a_tie():
    game = start(["5H", "KD", "4H"], ["5S", "QD", "6S"], face_down=0)
    events = game.play_round()
    assert of_type(events, "war")[0]["face_down"] == [0, 0]
    assert of_type(events, "take")[0]["cards"] == 4


# --- running out in a war ----------------------------------------------------------------------------------
def test_short_play_out_the_last_card_is_laid_face_up_and_can_win():
    # 002: A is down to the last card, which is placed face up; B lays two; A's king beats B's 6: all five cards.
    game = start(["5H", "KC"], ["5S", "2D", "6H", "9C"])
    events = game.play_round()
    assert of_type(events, "war")[0]["face_down"] == [0, 1]
    assert of_type(events, "war")[0]["cards"] == ["KC", "6H"]
    assert of_type(events, "take")[0]["cards"] == 5
    assert game.outcome is None and [len(pile) for pile in game.draw_piles()] == [5, 1]


def test_short_play_out_with_three_face_down_lays_what_it_has():
    game = start(["5H", "2C", "KC"], ["5S", "2D", "3D", "4D", "6H", "9C"], face_down=3)
    events = game.play_round()
    assert of_type(events, "war")[0]["face_down"] == [1, 3]
    assert of_type(events, "take")[0]["cards"] == 8


def test_a_tie_on_the_last_card_loses_when_there_is_no_card_for_the_war():
    # 002: "if Player B was down to his or her last card and both ... drew a seven, Player A wins despite the tie"
    game = start(["7H", "2C", "3C"], ["7S"])
    events = game.play_round()
    assert [event["type"] for event in events] == ["battle", "out", "take", "game_over"]
    assert events[1] == {"type": "out", "round": 1, "seat": 1, "reason": "short_war", "forfeit": 0}
    assert game.outcome.winner == 0 and game.outcome.reason == "short_war"
    assert sorted(game.draw_piles()[0]) == ["2C", "3C", "7H", "7S"]
    assert game.stats.wars == 0  # no war was fought


def test_short_lose_a_player_who_cannot_lay_the_whole_war_loses_at_once():
    # 001: "If a player runs out of cards mid-war, they lose immediately."
    piles = (["5H", "2C", "3C", "4C"], ["5S", "2D", "3D", "4D", "6H", "9C"])
    game = start(*piles, face_down=3, short="lose")
    events = game.play_round()
    assert of_type(events, "out") == [{"type": "out", "round": 1, "seat": 0, "reason": "short_war", "forfeit": 3}]
    assert game.outcome.winner == 1 and game.outcome.reason == "short_war"
    assert sorted(game.draw_piles()[1]) == sorted(piles[0] + piles[1])
    # the same piles under play_out: seat 0 lays its three cards and loses the war, then has none
    game = start(*piles, face_down=3)
    game.play_round()
    assert game.outcome.winner == 1 and game.outcome.reason == "all_cards"


def test_both_players_out_at_once_is_a_draw():
    game = start(["7H"], ["7S"])
    events = game.play_round()
    assert of_type(events, "pot_aside") == [{"type": "pot_aside", "round": 1, "cards": 2}]
    assert game.outcome.winner is None and game.outcome.reason == "all_out"
    assert sorted(game.card_locations()["aside"]) == ["7H", "7S"]
    # after a war that ties on the last cards
    game = start(["7H", "2C"], ["7S", "2D"])
    game.play_round()
    assert (game.outcome.winner, game.outcome.reason, game.stats.wars) == (None, "all_out", 1)
    # short: lose, both short
    game = start(["5H", "2C"], ["5S", "2D"], short="lose")
    game.play_round()
    assert (game.outcome.winner, game.outcome.reason) == (None, "all_out")
    assert len(game.card_locations()["aside"]) == 4


# --- three and four players --------------------------------------------------------------------------------
PILES_3 = (["KH", "2C", "3C"], ["KS", "4C", "5C"], ["2D", "9D", "AH"])


def test_three_players_only_the_tied_players_go_to_war_and_the_others_card_is_in_the_pot():
    game = start(*PILES_3, return_order="played")
    events = game.play_round()
    assert of_type(events, "war") == [
        {
            "type": "war",
            "round": 1,
            "war": 1,
            "seats": [0, 1],
            "face_down": [1, 1, None],
            "cards": ["3C", "5C", None],
            "winner": 1,
            "tied": [],
        }
    ]
    assert game.draw_piles() == [[], ["KH", "KS", "2D", "2C", "3C", "4C", "5C"], ["9D", "AH"]]
    assert of_type(events, "out")[0]["seat"] == 0 and game.outcome is None


def test_three_players_war_joins_all_everyone_lays_cards_and_anyone_can_win():
    game = start(*PILES_3, return_order="played", war_joins="all")
    events = game.play_round()
    war = of_type(events, "war")[0]
    assert war["seats"] == [0, 1, 2] and war["face_down"] == [1, 1, 1] and war["cards"] == ["3C", "5C", "AH"]
    assert war["winner"] == 2
    assert game.draw_piles()[2] == ["KH", "KS", "2D", "2C", "3C", "4C", "5C", "9D", "AH"]
    assert game.outcome.winner == 2 and game.outcome.reason == "last_standing"


def test_players_with_no_cards_drop_out_and_the_last_one_standing_wins():
    game = start(["KH", "QH"], ["2C", "3C"], ["4D"])
    events = game.play_round()
    assert of_type(events, "out") == [{"type": "out", "round": 1, "seat": 2, "reason": "no_cards", "forfeit": 0}]
    assert game.legal_actions(2) == [] and game.view(None)["in_game"] == [True, True, False]
    game.play_round()
    assert game.outcome.winner == 0 and game.outcome.reason == "last_standing"


def test_the_pot_is_set_aside_when_every_tied_player_drops_out():
    game = start(["KH"], ["KS"], ["2D", "3D"], ["4D", "5D"])
    events = game.play_round()
    assert of_type(events, "pot_aside")[0]["cards"] == 4
    assert game.outcome is None and game.view(None)["in_game"] == [False, False, True, True]
    assert sorted(game.card_locations()["aside"]) == ["2D", "4D", "KH", "KS"]


@pytest.mark.parametrize(("players", "each", "aside"), [(2, 26, 0), (3, 17, 1), (4, 13, 0)])
def test_the_deal_is_even_and_the_remainder_is_set_aside(players, each, aside):
    game = War.new({"players": players}, seed=11)
    assert [len(pile) for pile in game.draw_piles()] == [each] * players
    assert len(game.card_locations()["aside"]) == aside
    assert cards_in_play(game) == Counter(standard_pack(52))
    assert War.new({"players": players}, seed=11).to_json() == game.to_json()
    assert War.new({"players": players}, seed=12).draw_piles() != game.draw_piles()


# --- Război -------------------------------------------------------------------------------------------------
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


@pytest.mark.parametrize(
    ("tied", "count"), [("2", 2), ("7", 7), ("10", 10), ("J", 10), ("Q", 10), ("K", 10), ("A", 11), ("RJ", 11)]
)
def test_razboi_a_war_is_as_many_cards_as_the_tied_cards_value_the_last_face_up(tied, count):
    if tied == "RJ":
        first, other = ["RJ", "BJ"], RANKS
    else:
        first, other = [tied + "H", tied + "S"], [rank for rank in RANKS if rank != tied]
    deciders = ["AC", "3D"] if tied == "K" else ["KC", "3D"]
    seat0 = [first[0], *hearts(*other[: count - 1]), deciders[0], "2C"]
    seat1 = [first[1], *spades(*other[: count - 1]), deciders[1], "2D"]
    game = start(seat0, seat1, face_down="razboi", jokers=2)
    events = game.play_round()
    war = of_type(events, "war")[0]
    assert war["face_down"] == [count - 1, count - 1] and war["cards"] == deciders and war["winner"] == 0
    assert of_type(events, "take")[0]["cards"] == 2 * count + 2
    assert game.draw_piles()[1] == ["2D"]


def test_razboi_ace_counts_11_even_when_aces_are_low():
    seat0 = ["AH", *hearts(*RANKS[:10]), "KC"]
    seat1 = ["AS", *spades(*RANKS[:10]), "QC"]
    events = start(seat0, seat1, face_down="razboi", aces="low").play_round()
    assert of_type(events, "war")[0]["face_down"] == [10, 10]


def test_razboi_when_someone_has_fewer_cards_everyone_lays_as_many_as_the_fewest():
    seat0 = ["9H", "2H", "3H", "4H", "KH"]
    seat1 = ["9S", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "10S", "JS"]
    game = start(seat0, seat1, face_down="razboi", return_order="played")
    events = game.play_round()
    assert of_type(events, "war")[0]["face_down"] == [3, 3]
    assert of_type(events, "war")[0]["cards"] == ["KH", "5S"]
    assert game.draw_piles()[1] == ["6S", "7S", "8S", "10S", "JS"]
    # under short: lose the player who cannot lay all nine loses instead
    game = start(seat0, seat1, face_down="razboi", short="lose")
    game.play_round()
    assert game.outcome.winner == 1 and game.outcome.reason == "short_war"


def test_razboi_a_participant_with_no_cards_loses():
    game = start(["9H"], ["9S", "2S"], face_down="razboi")
    game.play_round()
    assert game.outcome.winner == 1 and game.outcome.reason == "short_war"


# --- ranks: jokers, aces low, two decks, six beats ace --------------------------------------------------------
def test_jokers_are_above_the_ace_and_tie_with_each_other():
    assert start(["AS"], ["RJ"], jokers=2).play_round()[0]["winner"] == 1
    assert start(["BJ", "KC", "2C"], ["RJ", "QC", "3C"], jokers=2).play_round()[0]["tied"] == [0, 1]
    with pytest.raises(InvalidState, match="RJ"):
        start(["AS"], ["RJ"])


def test_a_pack_with_jokers_is_dealt_with_both_jokers():
    game = War.new({"jokers": 2}, seed=4)
    assert [len(pile) for pile in game.draw_piles()] == [27, 27]
    assert cards_in_play(game) == Counter(standard_pack(52, jokers=2))


@pytest.mark.parametrize(("players", "decks", "each"), [(2, 1, 1), (2, 2, 2), (4, 2, 1)])
def test_joker_each_buries_the_jokers_evenly_at_random_places(players, decks, each):
    places = set()
    for seed in range(30):
        game = War.new({"jokers": 2, "joker_each": True, "players": players, "decks": decks}, seed=seed)
        for pile in game.draw_piles():
            jokers = [index for index, card in enumerate(pile) if card in ("RJ", "BJ")]
            assert len(jokers) == each
            places.update(jokers)
        assert cards_in_play(game) == Counter(standard_pack(52, jokers=2, decks=decks))
    assert len(places) > 5


def test_joker_each_is_refused_when_the_jokers_cannot_be_shared_evenly():
    with pytest.raises(InvalidRules, match="joker_each"):
        War.new({"jokers": 2, "joker_each": True, "players": 3})
    with pytest.raises(InvalidRules, match="jokers: 2"):
        War.new({"joker_each": True})


def test_aces_low_puts_the_ace_below_the_two():
    assert start(["AS"], ["2H"]).play_round()[0]["winner"] == 0
    assert start(["AS"], ["2H"], aces="low").play_round()[0]["winner"] == 1


def test_two_decks_identical_cards_just_tie():
    events = start(["AS", "2C", "KD"], ["AS", "3C", "QD"], decks=2).play_round()
    assert events[0]["tied"] == [0, 1] and of_type(events, "war")[0]["winner"] == 0
    with pytest.raises(InvalidState, match="AS"):
        start(["AS"], ["AS"])
    game = War.new({"decks": 2}, seed=3)
    assert [len(pile) for pile in game.draw_piles()] == [52, 52]
    assert set(cards_in_play(game).values()) == {2}


def test_six_beats_ace_in_war_only_when_the_rule_is_on():
    assert start(["6H"], ["AS"]).play_round()[0]["winner"] == 1
    assert start(["6H"], ["AS"], six_beats_ace=True).play_round()[0]["winner"] == 0


# --- return order ------------------------------------------------------------------------------------------
WAR_WON_BY_0 = (["5H", "9C", "KD", "4H"], ["5S", "8C", "3D", "6S"])
WAR_WON_BY_1 = (["5H", "9C", "3D", "4H"], ["5S", "8C", "KD", "6S"])


@pytest.mark.parametrize(
    ("order", "seat", "expected"),
    [
        ("played", 0, ["4H", "5H", "5S", "9C", "KD", "8C", "3D"]),
        ("reversed", 0, ["4H", "3D", "8C", "KD", "9C", "5S", "5H"]),
        ("winner_first", 0, ["4H", "5H", "9C", "KD", "5S", "8C", "3D"]),
        ("loser_first", 0, ["4H", "5S", "8C", "3D", "5H", "9C", "KD"]),
        ("played", 1, ["6S", "5H", "5S", "9C", "3D", "8C", "KD"]),
        ("reversed", 1, ["6S", "KD", "8C", "3D", "9C", "5S", "5H"]),
        ("winner_first", 1, ["6S", "5S", "8C", "KD", "5H", "9C", "3D"]),
        ("loser_first", 1, ["6S", "5H", "9C", "3D", "5S", "8C", "KD"]),
    ],
)
def test_each_return_order_card_for_card_after_a_war(order, seat, expected):
    game = start(*(WAR_WON_BY_0 if seat == 0 else WAR_WON_BY_1), return_order=order)
    game.play_round()
    assert game.draw_piles()[seat] == expected


@pytest.mark.parametrize(
    ("order", "won_by_0", "won_by_1"),
    [
        ("played", ["KS", "QS"], ["2C", "3C"]),
        ("reversed", ["QS", "KS"], ["3C", "2C"]),
        ("winner_first", ["KS", "QS"], ["3C", "2C"]),
        ("loser_first", ["QS", "KS"], ["2C", "3C"]),
    ],
)
def test_each_return_order_after_a_plain_battle(order, won_by_0, won_by_1):
    game = start(["KS", "5C"], ["QS", "6C"], return_order=order)
    game.play_round()
    assert game.draw_piles()[0] == ["5C", *won_by_0]
    game = start(["2C", "5C"], ["3C", "6C"], return_order=order)
    game.play_round()
    assert game.draw_piles()[1] == ["6C", *won_by_1]


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        ("winner_first", ["KS", "4C", "5C", "KH", "2C", "3C", "2D"]),
        ("loser_first", ["KH", "2C", "3C", "2D", "KS", "4C", "5C"]),
    ],
)
def test_winner_first_and_loser_first_take_the_others_by_seat(order, expected):
    game = start(*PILES_3, return_order=order)
    game.play_round()
    assert game.draw_piles()[1] == expected


def test_random_return_order_shuffles_with_the_games_rng():
    orders = set()
    for seed in range(40):
        game = start(*WAR_WON_BY_0, seed=seed)
        game.play_round()
        pile = game.draw_piles()[0]
        assert pile[0] == "4H" and sorted(pile[1:]) == sorted(["5H", "5S", "9C", "KD", "8C", "3D"])
        orders.add(tuple(pile))
        again = start(*WAR_WON_BY_0, seed=seed)
        again.play_round()
        assert again.draw_piles() == game.draw_piles()
    assert len(orders) > 20


# --- capture pile ------------------------------------------------------------------------------------------
def test_capture_pile_won_cards_wait_there_until_the_stock_runs_out_then_are_shuffled_in():
    game = start(["KS"], ["2H", "3H", "4H"], capture_pile=True)
    events = game.play_round()
    assert of_type(events, "take")[0]["to"] == "capture"
    locations = game.card_locations()
    assert locations["pile_0"] == [] and sorted(locations["capture_0"]) == ["2H", "KS"]
    assert game.outcome is None and game.legal_actions(0) == [FLIP]
    assert game.view(0)["capture_counts"] == [2, 0]
    events = game.play_round()
    assert events[0] == {"type": "reshuffle", "round": 2, "seat": 0, "cards": 2}
    flipped = events[1]["cards"][0]
    assert flipped in ("KS", "2H") and events[1]["cards"][1] == "3H"
    locations = game.card_locations()
    assert locations["pile_0"] == [{"KS": "2H", "2H": "KS"}[flipped]]
    winner = events[1]["winner"]
    assert winner == (0 if flipped == "KS" else 1)
    assert sorted(locations[f"capture_{winner}"]) == sorted([flipped, "3H"])


def test_capture_pile_is_shuffled_in_during_a_war_when_the_stock_runs_out():
    game = start(["KC", "5H", "2C"], ["2D", "5S", "6H", "9C"], capture_pile=True)
    game.play_round()  # KC beats 2D into the capture pile
    events = game.play_round()  # 5s tie; seat 0 lays 2C face down, then needs a card from its capture pile
    assert [event["type"] for event in events[:3]] == ["battle", "reshuffle", "war"]
    assert events[1] == {"type": "reshuffle", "round": 2, "seat": 0, "cards": 2}
    assert of_type(events, "war")[0]["face_down"] == [1, 1]
    assert cards_in_play(game) == Counter(["KC", "5H", "2C", "2D", "5S", "6H", "9C"])


# --- other ends --------------------------------------------------------------------------------------------
def test_target_the_first_to_hold_n_cards_wins():
    game = start(["KS", "QS"], ["2H", "3H"], target=3)
    game.play_round()
    assert game.outcome.winner == 0 and game.outcome.reason == "target"
    game = start(["KS", "QS", "JS"], ["2H", "3H", "4H"], target=5, capture_pile=True)
    game.play_round()
    assert game.outcome is None
    events = game.play_round()
    assert game.outcome.winner == 0 and game.outcome.reason == "target" and events[-1]["type"] == "game_over"


@pytest.mark.parametrize("target", [2, 5])
def test_a_target_that_cannot_be_a_goal_is_refused(target):
    with pytest.raises(InvalidRules, match="target"):
        start(["KS", "QS"], ["2H", "3H"], target=target)


def test_max_rounds_the_most_cards_wins_or_equal_is_a_draw():
    game = start(["KS", "2C"], ["3H", "4C", "5C"], max_rounds=1)
    events = game.play_out()
    assert game.outcome.winner == 0 and game.outcome.reason == "capped" and game.stats.rounds == 1
    assert events[-1]["type"] == "game_over" and events[-1]["reason"] == "capped"
    game = start(["KS", "2C"], ["3H", "4C"], max_rounds=2)
    game.play_out()
    assert game.outcome.winner is None and game.outcome.reason == "capped"


def test_a_repeated_position_under_a_fixed_return_order_is_a_draw_long_before_the_cap():
    # Q beats 4, J beats 3, Q beats 3, J beats 4: after four rounds the piles are back where they started.
    game = start(["QC", "3S"], ["4S", "JD"], return_order="played")
    events = game.play_out()
    assert game.outcome.winner is None and game.outcome.reason == "cycle"
    assert game.stats.rounds == 4 and game.draw_piles() == [["QC", "3S"], ["4S", "JD"]]
    assert events[-1]["type"] == "game_over" and events[-1]["reason"] == "cycle"
    # with random returns the same start is no cycle
    game = start(["QC", "3S"], ["4S", "JD"], max_rounds=500)
    game.play_out()
    assert game.outcome.reason != "cycle"


def test_every_default_game_ends():
    for seed in range(50):
        game = War.new(seed=seed)
        game.play_out(record=False)
        assert game.outcome is not None and game.stats.rounds <= 1_000 == War.resolve_rules({})["max_rounds"]


# --- Drunkard ----------------------------------------------------------------------------------------------
def test_drunkard_defaults_a_36_card_pack_and_six_beats_ace():
    rules = Drunkard.resolve_rules({})
    assert (rules["pack"], rules["six_beats_ace"], rules["face_down"]) == (36, True, 1)
    assert game_class("drunkard") is Drunkard and Drunkard.name == "drunkard"
    for players, each in ((2, 18), (3, 12), (4, 9)):
        game = Drunkard.new({"players": players}, seed=2)
        assert [len(pile) for pile in game.draw_piles()] == [each] * players
        assert cards_in_play(game) == Counter(standard_pack(36))
        assert all(card[:-1] not in ("2", "3", "4", "5") for pile in game.draw_piles() for card in pile)


def test_drunkard_a_six_beats_an_ace_in_a_battle_and_in_a_war():
    assert start(["6H"], ["AS"], cls=Drunkard).play_round()[0]["winner"] == 0
    events = start(["9H", "7C", "AS"], ["9S", "8C", "6H"], cls=Drunkard).play_round()
    assert of_type(events, "war")[0]["winner"] == 1


@pytest.mark.parametrize(
    ("piles", "winner"),
    [
        ((["AS", "7C"], ["6H", "8C"], ["KD", "9C"]), 2),  # the ace faces a six: it counts lowest, the king wins
        ((["AS", "7C"], ["AH", "8C"], ["6D", "9C"]), 2),  # both aces count lowest: the six wins
        ((["AS", "7C"], ["KH", "8C"], ["9D", "10C"]), 0),  # no six on the table: the ace is highest
    ],
)
def test_drunkard_with_three_players_an_ace_facing_a_six_counts_lowest(piles, winner):
    events = start(*piles, cls=Drunkard).play_round()
    assert events[0]["winner"] == winner


def test_drunkard_house_choice_the_next_face_up_card_settles_a_tie():
    events = start(["9H", "AS"], ["9S", "KD"], cls=Drunkard, face_down=0).play_round()
    assert of_type(events, "war")[0]["face_down"] == [0, 0]
    assert of_type(events, "war")[0]["cards"] == ["AS", "KD"]


# --- Tod und Leben -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("pack", "each"), [(52, 26), (32, 16)])
def test_tod_und_leben_death_takes_every_black_card_and_life_every_red_card(pack, each):
    game = TodUndLeben.new({"pack": pack}, seed=5)
    death, life = game.draw_piles()
    assert len(death) == len(life) == each
    assert Counter(death) == Counter(card for card in standard_pack(pack) if not is_red(card))
    assert Counter(life) == Counter(card for card in standard_pack(pack) if is_red(card))
    black = [card for card in standard_pack(pack) if not is_red(card)]
    assert death != black  # shuffled
    assert TodUndLeben.new({"pack": pack}, seed=6).draw_piles() != [death, life]
    assert game_class("todundleben") is TodUndLeben


def test_tod_und_leben_plays_war_with_one_face_down_card_and_the_jokers_follow_their_colour():
    assert TodUndLeben.resolve_rules({})["face_down"] == 1
    death, life = TodUndLeben.new({"jokers": 2}, seed=1).draw_piles()
    assert "BJ" in death and "RJ" in life
    game = TodUndLeben.new(seed=9)
    game.play_out(record=False)
    assert game.outcome is not None


@pytest.mark.parametrize(("rules", "fragment"), [({"players": 3}, "players"), ({"pack": 36}, "pack")])
def test_tod_und_leben_refuses_other_player_counts_and_packs(rules, fragment):
    with pytest.raises(InvalidRules, match=fragment):
        TodUndLeben.new(rules)


# --- rules ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("rules", "fragment"),
    [
        ({"colour": "red"}, "unknown rule 'colour'"),
        ({"players": 5}, "'players' must be at most 4"),
        ({"players": 1}, "'players' must be at least 2"),
        ({"face_down": 2}, "'face_down' takes one of 1, 3, 0, razboi"),
        ({"short": "maybe"}, "'short'"),
        ({"war_joins": "some"}, "'war_joins'"),
        ({"return_order": "sorted"}, "'return_order'"),
        ({"capture_pile": "perhaps"}, "'capture_pile' takes true or false"),
        ({"jokers": 1}, "'jokers'"),
        ({"decks": 3}, "'decks'"),
        ({"pack": 40}, "'pack'"),
        ({"aces": "middle"}, "'aces'"),
        ({"six_beats_ace": True, "pack": 32}, "six_beats_ace"),
        ({"target": 26}, "'target' must be more than the 26 cards"),
        ({"target": 53}, "at most the 52 cards"),
        ({"target": 0}, "'target' must be at least 1"),
        ({"max_rounds": 0}, "'max_rounds' must be at least 1"),
    ],
)
def test_invalid_rules_are_refused_with_a_clear_message(rules, fragment):
    with pytest.raises(InvalidRules, match=fragment):
        War.new(rules, seed=1)


def test_rule_values_may_be_given_as_text():
    rules = War.resolve_rules({"face_down": "Razboi", "capture_pile": "yes", "target": "none", "players": "3"})
    assert (rules["face_down"], rules["capture_pile"], rules["target"], rules["players"]) == ("razboi", True, None, 3)
    assert War.resolve_rules({"face_down": "3"})["face_down"] == 3


@pytest.mark.parametrize(
    "piles",
    [
        [["AS"]],
        [["AS"], []],
        [["AS"], ["ZZ"]],
        [["AS"], ["AS"]],
        "ASKS",
        [["AS"], "KS"],
        [["AS"], ["KS"], ["QS"], ["JS"], ["10S"]],
    ],
)
def test_impossible_starting_piles_are_refused(piles):
    with pytest.raises(InvalidState):
        War.new(seed=1, piles=piles)


def test_piles_and_players_must_agree():
    with pytest.raises(InvalidState, match="3 piles"):
        War.new({"players": 2}, piles=[["AS"], ["KS"], ["QS"]])
    assert War.new(piles=[["AS"], ["KS"], ["QS"]]).num_players == 3


# --- actions -----------------------------------------------------------------------------------------------
def test_every_seat_flips_once_and_the_last_flip_resolves_the_round():
    game = start(["KS", "3C"], ["2H", "4D"], return_order="played")
    assert game.legal_actions(0) == [FLIP] and game.legal_actions(1) == [FLIP]
    assert game.apply(1, FLIP) == [{"type": "flip", "round": 1, "seat": 1, "card": "2H"}]
    assert game.legal_actions(1) == [] and game.pending_seats() == [0]
    assert game.view(0)["table"] == [None, "2H"] and game.card_locations()["table"] == ["2H"]
    events = game.apply(0, FLIP)
    assert events[0] == {"type": "flip", "round": 1, "seat": 0, "card": "KS"}
    assert events[1]["type"] == "battle" and events[1]["cards"] == ["KS", "2H"]
    assert game.draw_piles() == [["3C", "KS", "2H"], ["4D"]] and game.stats.rounds == 1
    reference = start(["KS", "3C"], ["2H", "4D"], return_order="played")
    reference.play_round()
    assert state(game) == state(reference)


def test_play_round_finishes_a_round_some_seats_have_flipped_for():
    game = War.new(seed=8)
    game.apply(0, FLIP)
    events = game.play_round()
    assert events[0]["type"] == "battle" and game.stats.rounds == 1
    assert game.legal_actions(0) == [FLIP]


def test_an_illegal_action_raises_and_changes_nothing():
    game = War.new(seed=3)
    game.play_out(max_steps=5)
    before = game.to_json()
    for seat, action, error in [
        (0, {"type": "play"}, IllegalAction),
        (0, {"type": "flip", "card": "AS"}, IllegalAction),
        (0, "flip", IllegalAction),
        (2, FLIP, IllegalAction),
        (-1, FLIP, IllegalAction),
    ]:
        with pytest.raises(error):
            game.apply(seat, action)
        assert game.to_json() == before
    game.apply(0, FLIP)
    before = game.to_json()
    with pytest.raises(NotYourTurn):
        game.apply(0, FLIP)
    assert game.to_json() == before
    with pytest.raises(IllegalAction, match="war takes no moves"):
        game.apply_move({"orders": []})
    assert game.to_json() == before


def test_nothing_can_be_played_after_the_end():
    game = start(["KS"], ["QH"])
    game.play_round()
    before = game.to_json()
    with pytest.raises(GameOver):
        game.apply(0, FLIP)
    with pytest.raises(GameOver):
        game.play_round()
    assert game.play_out() == [] and game.to_json() == before
    assert game.legal_actions(0) == [] and game.pending_seats() == []


def test_a_player_who_is_out_cannot_flip():
    game = start(["KH", "QH"], ["2C", "3C"], ["4D"])
    game.play_round()
    with pytest.raises(NotYourTurn):
        game.apply(2, FLIP)


def test_play_out_plays_max_steps_rounds():
    game = War.new(seed=4)
    events = game.play_out(max_steps=7)
    assert game.stats.rounds == 7 and len(of_type(events, "battle")) == 7
    assert game.play_out(max_steps=0) == [] and game.stats.rounds == 7
    with pytest.raises(IllegalAction):
        game.play_out(max_steps=-1)


def test_automatic_and_the_class_facts():
    assert War.automatic and Drunkard.automatic and TodUndLeben.automatic
    assert (War.min_players, War.max_players, TodUndLeben.max_players) == (2, 4, 2)
    assert game_class("war") is War


# --- record and fast path ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "rules",
    [
        {},
        {"return_order": "played"},
        {"capture_pile": True, "face_down": 3},
        {"face_down": "razboi", "short": "lose", "jokers": 2},
        {"players": 3},
        {"players": 4, "war_joins": "all", "return_order": "winner_first"},
        {"target": 80, "aces": "low", "decks": 2},
    ],
)
def test_record_true_and_false_end_in_identical_states(rules):
    for seed in range(15):
        recorded = War.new(rules, seed=seed)
        events = recorded.play_out()
        fast = War.new(rules, seed=seed)
        assert fast.play_out(record=False) == []
        assert state(recorded) == state(fast)
        assert events[-1]["type"] == "game_over" and events[-1]["reason"] == recorded.outcome.reason


def test_the_two_player_fast_path_agrees_with_the_general_round(monkeypatch):
    chooser = random.Random(5)
    options = {
        "face_down": [1, 3, 0, "razboi"],
        "short": ["play_out", "lose"],
        "capture_pile": [False, True],
        "return_order": ["random", "winner_first", "loser_first", "played", "reversed"],
        "jokers": [0, 2],
        "aces": ["high", "low"],
        "decks": [1, 2],
    }
    cases = []
    for _ in range(60):
        rules = {key: chooser.choice(values) for key, values in options.items()}
        rules["max_rounds"] = 400
        cls = chooser.choice([War, Drunkard, TodUndLeben])
        cases.append((cls, rules, chooser.randrange(2**32)))
    results = []
    for fast in (True, False):
        monkeypatch.setattr(War, "fast_path", fast)
        run = []
        for cls, rules, seed in cases:
            game = cls.new(rules, seed=seed)
            run.append((game.play_out(), state(game)))
        results.append(run)
    assert results[0] == results[1]


# --- JSON --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", [War, Drunkard, TodUndLeben])
def test_a_saved_game_continues_identically(cls):
    game = cls.new({"return_order": "played", "capture_pile": False}, seed=21)
    game.play_out(max_steps=30)
    game.apply(0, FLIP)
    copy_ = cls.from_json(json.loads(json.dumps(game.to_json())))
    assert copy_.to_json() == game.to_json()
    assert copy_.view(None) == game.view(None)
    assert copy_.play_out() == game.play_out()
    assert copy_.outcome == game.outcome and copy_.to_json() == game.to_json()


def corrupt(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        if value is KeyError:
            del target[path[-1]]
        else:
            target[path[-1]] = value(target[path[-1]]) if callable(value) else value

    return change


@pytest.mark.parametrize(
    "change",
    [
        corrupt(["game"], "drunkard"),
        corrupt(["version"], 99),
        corrupt(["rules"], KeyError),
        corrupt(["rules", "players"], 7),
        corrupt(["rules", "colour"], "red"),
        corrupt(["piles", 0], lambda pile: pile[1:]),
        corrupt(["piles", 0, 0], "ZZ"),
        corrupt(["piles", 0, 0], "10h"),
        corrupt(["piles", 0], lambda pile: [*pile[1:], pile[2]]),
        corrupt(["piles"], lambda piles: [*piles, []]),
        corrupt(["captures", 0], lambda cap: ["XX"]),
        corrupt(["in_game", 1], False),
        corrupt(["in_game", 1], "yes"),
        corrupt(["rng"], [3, [1, 2], None]),
        corrupt(["stats", "rounds"], -1),
        corrupt(["stats", "rounds"], 10_001),
        corrupt(["stats"], KeyError),
        corrupt(["seen"], ["nothex"]),
        corrupt(["outcome"], {"winner": 5, "reason": "x"}),
        corrupt(["table"], lambda table: ["AS", "AS"]),
        corrupt(["seed"], "seven"),
        corrupt(["last_events"], [{"no": "type"}]),
    ],
)
def test_a_damaged_saved_game_is_refused(change):
    game = War.new(seed=2)
    game.play_out(max_steps=3)
    data = copy.deepcopy(game.to_json())
    change(data)
    with pytest.raises(InvalidState):
        War.from_json(data)


def test_a_saved_game_that_is_not_a_json_object_is_refused():
    with pytest.raises(InvalidState):
        War.from_json(["war"])
    with pytest.raises(InvalidState):
        War.from_json({})


def test_capture_piles_need_the_capture_rule_in_a_saved_game():
    game = War.new({"capture_pile": True}, seed=2)
    game.play_out(max_steps=3)
    data = game.to_json()
    assert any(data["captures"])
    data["rules"]["capture_pile"] = False
    with pytest.raises(InvalidState, match="capture"):
        War.from_json(data)


# --- views -------------------------------------------------------------------------------------------------
def test_the_view_shows_counts_and_face_up_cards_never_the_order_of_a_pile():
    game = start(["5H", "9C", "KD", "4H"], ["5S", "8C", "3D", "6S"], return_order="played")
    game.play_round()
    view = game.view(0)
    assert view["pile_counts"] == [7, 1] and view["card_counts"] == [7, 1] and view["round"] == 1
    assert view["to_flip"] == [0, 1] and view["table"] == [None, None]
    text = json.dumps(view)
    assert "9C" not in text and "8C" not in text and "4H" not in text and "6S" not in text
    assert view["last_events"] == game.to_json()["last_events"]
    assert game.view(None)["seat"] is None and game.view(1)["seat"] == 1
    with pytest.raises(IllegalAction):
        game.view(2)


def test_the_view_does_not_change_when_the_face_down_piles_are_rearranged():
    game = War.new({"capture_pile": True, "players": 3}, seed=6)
    game.play_out(max_steps=60)
    game.apply(1, FLIP)
    data = game.to_json()
    shuffler = random.Random(1)
    for pile in data["piles"] + data["captures"]:
        shuffler.shuffle(pile)
    other = War.from_json(data)
    assert other.draw_piles() != game.draw_piles()
    for seat in (None, 0, 1, 2):
        assert other.view(seat) == game.view(seat)


# --- the players' rules texts -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "title", "facts"),
    [
        (
            "war",
            "# War",
            [
                "**1 card face down**",
                "J Q K **10**",
                "A **11**",
                "jokers **11**",
                "as many as the player with fewest",
                "the pot is set aside",
                "`winner_first`",
                "`played`",
                "`reversed`",
                "`loser_first`",
                "comes back up first",
                "**draw**",
                "position already seen",
                "default **1,000**, so that a game fits a sitting",
                "**Next war**",
                "about 2–3 minutes",
                "aces count lowest",
                "one with 3 players",
                "other player counts are refused",
                "you lose it and you are out",
                "each war of a chain counts",
            ],
        ),
        (
            "drunkard",
            "# Drunkard",
            [
                "36 cards",
                "6 beats an ace",
                "every ace counts lowest",
                "the king wins",
                "one card face down, then one face up",
                "`face_down: 0`",
                "**out**",
            ],
        ),
        (
            "todundleben",
            "# Tod und Leben",
            [
                "**Death**",
                "**black**",
                "**Life**",
                "**red**",
                "32-card pack",
                "one card face down, then one face up",
                "shuffled on their own",
                "black joker goes to Death",
            ],
        ),
    ],
)
def test_the_rules_texts_state_our_choices(name, title, facts):
    text = (RULES_DIR / f"{name}.md").read_text(encoding="utf-8")
    assert text.splitlines()[0] == title
    assert len(text) < 4000  # /rules shows it in one embed (4096 characters)
    shown = rules_text(name).body  # (as /rules shows it: placeholders filled with the reader's words)
    for fact in facts:
        assert fact in shown, fact


# --- forfeit -----------------------------------------------------------------------------------------------
def test_a_two_player_forfeit_makes_the_other_player_win_and_sets_the_cards_aside():
    game = start(["KS", "3C"], ["2H", "4D"])
    before = cards_in_play(game)
    events = game.forfeit(1)
    assert events == [
        {"type": "out", "round": 1, "seat": 1, "reason": "forfeit", "forfeit": 0, "aside": 2},
        {
            "type": "game_over",
            "round": 1,
            "winner": 0,
            "reason": "forfeit",
            "detail": "seat 1 forfeited: seat 0 is the last player in",
        },
    ]
    assert (game.outcome.winner, game.outcome.reason) == (0, "forfeit")
    assert game.card_locations()["aside"] == ["2H", "4D"] and game.draw_piles() == [["KS", "3C"], []]
    assert cards_in_play(game) == before
    assert game.view(None)["in_game"] == [True, False] and game.view(None)["last_events"] == events
    assert game.pending_seats() == [] and game.play_out() == []


def test_a_two_player_forfeit_between_flips_clears_the_table():
    # the winner's flipped card goes back on top of their stock, the loser's flipped card is set aside
    game = start(["KS", "3C"], ["2H", "4D"])
    game.apply(0, FLIP)
    events = game.forfeit(1, "timeout")
    assert events[0] == {"type": "out", "round": 1, "seat": 1, "reason": "timeout", "forfeit": 0, "aside": 2}
    assert (game.outcome.winner, game.outcome.reason) == (0, "timeout")
    assert game.draw_piles() == [["KS", "3C"], []] and game.view(None)["table"] == [None, None]
    game = start(["KS", "3C"], ["2H", "4D"])
    game.apply(1, FLIP)
    assert game.forfeit(1)[0]["aside"] == 2
    assert game.card_locations()["aside"] == ["2H", "4D"] and game.card_locations()["table"] == []
    assert game.outcome.winner == 0


@pytest.mark.parametrize("cls", [War, Drunkard, TodUndLeben])
def test_a_dealt_two_player_game_can_be_forfeited_mid_game(cls):
    game = cls.new(seed=9)
    game.play_out(max_steps=25)
    game.apply(1, FLIP)
    before = cards_in_play(game)
    events = game.forfeit(0)
    assert [event["type"] for event in events] == ["out", "game_over"]
    assert (game.outcome.winner, game.outcome.reason) == (1, "forfeit")
    assert cards_in_play(game) == before
    assert cls.from_json(json.loads(json.dumps(game.to_json()))).to_json() == game.to_json()


def test_a_three_player_forfeit_mid_game_goes_on_with_two_and_ends_normally():
    game = War.new({"players": 3}, seed=2)
    game.play_out(max_steps=20)
    assert game.outcome is None and game.view(None)["in_game"] == [True, True, True]
    before = cards_in_play(game)
    held = game.view(None)["card_counts"][2]
    events = game.forfeit(2)
    assert events == [{"type": "out", "round": 21, "seat": 2, "reason": "forfeit", "forfeit": 0, "aside": held}]
    assert game.outcome is None and game.view(None)["in_game"] == [True, True, False]
    assert game.legal_actions(2) == [] and game.pending_seats() == [0, 1]
    with pytest.raises(NotYourTurn):
        game.apply(2, FLIP)
    rest = game.play_out()
    assert all(event["cards"][2] is None for event in of_type(rest, "battle"))
    assert (game.outcome.winner, game.outcome.reason) == (0, "last_standing")
    assert game.view(None)["card_counts"] == [sum(before.values()) - held - 1, 0, 0]  # 1: the 3-player remainder
    assert cards_in_play(game) == before


def test_a_target_out_of_reach_after_a_forfeit_leaves_the_other_endings():
    game = start(["KH", "2C"], ["QS", "3C"], ["AD", "4D", "5D", "6D"], seed=3, target=7)
    game.forfeit(2)  # 4 cards left in play: nobody can hold 7
    game.play_out()
    assert (game.outcome.winner, game.outcome.reason) == (0, "last_standing")
    assert game.view(None)["card_counts"] == [4, 0, 0]
    game = start(["KH", "2C"], ["QS", "3C"], ["AD", "4D", "5D", "6D"], seed=3, target=7, max_rounds=2)
    game.forfeit(2)
    game.play_out()
    assert game.outcome.reason == "capped"


PILES_4 = (["KH", "2H"], ["KS", "3S"], ["5D", "4D"], ["9C", "8C"])


def test_a_four_player_forfeit_after_flipping_takes_the_flipped_card_out_of_the_round():
    # seats 0 and 1 flipped kings: the tie is gone with seat 0's king, the round goes on among the other three
    game = start(*PILES_4, return_order="played")
    before = cards_in_play(game)
    game.apply(0, FLIP)
    game.apply(1, FLIP)
    assert game.forfeit(0) == [{"type": "out", "round": 1, "seat": 0, "reason": "forfeit", "forfeit": 0, "aside": 2}]
    assert game.view(None)["table"] == [None, "KS", None, None] and game.pending_seats() == [2, 3]
    assert game.apply(2, FLIP) == [{"type": "flip", "round": 1, "seat": 2, "card": "5D"}]
    events = game.apply(3, FLIP)
    assert events[1] == {"type": "battle", "round": 1, "cards": [None, "KS", "5D", "9C"], "winner": 1, "tied": []}
    assert game.card_locations()["aside"] == ["KH", "2H"] and cards_in_play(game) == before
    reference = start([], *PILES_4[1:], return_order="played")
    reference.play_round()
    assert game.draw_piles() == reference.draw_piles() == [[], ["3S", "KS", "5D", "9C"], ["4D"], ["8C"]]
    assert game.stats.to_json() == reference.stats.to_json()


def test_a_four_player_forfeit_by_the_last_seat_to_flip_resolves_the_round():
    game = start(*PILES_4, return_order="played")
    before = cards_in_play(game)
    for seat in (0, 1, 2):
        game.apply(seat, FLIP)
    events = game.forfeit(3)
    assert [event["type"] for event in events] == ["out", "battle", "war", "take", "out"]
    assert events[0] == {"type": "out", "round": 1, "seat": 3, "reason": "forfeit", "forfeit": 0, "aside": 2}
    assert events[1]["cards"] == ["KH", "KS", "5D", None] and events[1]["tied"] == [0, 1]
    assert events[2]["cards"] == ["2H", "3S", None, None] and events[2]["winner"] == 1
    assert events[4] == {"type": "out", "round": 1, "seat": 0, "reason": "no_cards", "forfeit": 0}
    assert game.stats.rounds == 1 and game.view(None)["table"] == [None] * 4 and game.pending_seats() == [1, 2]
    assert game.view(None)["last_events"] == events
    assert game.card_locations()["aside"] == ["9C", "8C"] and cards_in_play(game) == before
    game.play_out()
    assert (game.outcome.winner, game.outcome.reason) == (1, "last_standing")
    assert cards_in_play(game) == before


def test_forfeits_down_to_the_last_player_in_a_four_player_game():
    game = War.new({"players": 4}, seed=4)
    game.play_out(max_steps=10)
    game.apply(3, FLIP)
    before = cards_in_play(game)
    assert game.forfeit(0)[0]["seat"] == 0 and game.outcome is None
    assert game.forfeit(1)[0]["seat"] == 1 and game.outcome is None
    events = game.forfeit(2)
    assert [event["type"] for event in events] == ["out", "game_over"]
    assert (game.outcome.winner, game.outcome.reason) == (3, "forfeit")
    assert game.view(None)["table"] == [None] * 4 and game.card_locations()["table"] == []
    assert cards_in_play(game) == before
    assert War.from_json(game.to_json()).to_json() == game.to_json()


def test_a_forfeit_that_is_not_allowed_raises_and_changes_nothing():
    game = start(["KH", "QH"], ["2C", "3C"], ["4D"])
    game.play_round()  # seat 2 runs out
    game.apply(0, FLIP)
    before = game.to_json()
    for seat, reason, error in [
        (2, "forfeit", NotYourTurn),
        (3, "forfeit", IllegalAction),
        (-1, "forfeit", IllegalAction),
        (True, "forfeit", IllegalAction),
        ("0", "forfeit", IllegalAction),
        (0, "", IllegalAction),
        (0, None, IllegalAction),
    ]:
        with pytest.raises(error):
            game.forfeit(seat, reason)
        assert game.to_json() == before
    game.forfeit(1)
    assert game.outcome.winner == 0
    after = game.to_json()
    for seat in (0, 1, 2):
        with pytest.raises(GameOver):
            game.forfeit(seat)
        assert game.to_json() == after
    # and after an ordinary end
    game = start(["KS"], ["QH"])
    game.play_round()
    after = game.to_json()
    with pytest.raises(GameOver):
        game.forfeit(1)
    assert game.to_json() == after


@pytest.mark.parametrize(
    "rules",
    [
        {"players": 3},
        {"players": 4, "return_order": "played"},
        {"players": 4, "capture_pile": True, "war_joins": "all"},
        {"players": 3, "face_down": "razboi", "short": "lose", "return_order": "winner_first"},
    ],
)
def test_a_saved_game_continues_identically_after_a_forfeit(rules):
    chooser = random.Random(7)
    for seed in range(6):
        game = War.new(rules, seed=seed)
        game.play_out(max_steps=chooser.randrange(40))
        if game.outcome is not None:
            continue
        pack = cards_in_play(game)
        for seat in chooser.sample(game.pending_seats(), chooser.randrange(len(game.pending_seats()))):
            game.apply(seat, FLIP)
        quitter = chooser.choice([seat for seat in range(game.num_players) if game.view(None)["in_game"][seat]])
        twin = War.from_json(json.loads(json.dumps(game.to_json())))
        events = game.forfeit(quitter)
        assert twin.forfeit(quitter) == events and twin.to_json() == game.to_json()
        assert cards_in_play(game) == pack
        copy_ = War.from_json(json.loads(json.dumps(game.to_json())))
        assert copy_.to_json() == game.to_json() and copy_.view(None) == game.view(None)
        assert copy_.play_out() == game.play_out()
        assert copy_.to_json() == game.to_json() and copy_.outcome == game.outcome
        assert cards_in_play(game) == pack
