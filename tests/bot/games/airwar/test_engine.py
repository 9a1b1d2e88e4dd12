"""Air War rules engine: the worked example of the rule text, card for card, and every rule choice."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from bot.cards import standard_pack, tarot_pack
from bot.errors import GameOver, IllegalAction, InvalidCard, InvalidRules, InvalidState, NotYourTurn
from bot.games.airwar.engine import AirWar
from bot.registry import game_class


def cards(text: str) -> list[str]:
    return text.split()


def order(text: str) -> dict:
    return {"type": "order", "cards": cards(text)}


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [event for event in events if event["type"] == kind]


def all_cards(game: AirWar) -> Counter:
    return Counter(card for pile in game.card_locations().values() for card in pile)


# --- the worked example (rule text, "Player 1" is seat 0, "Player 2" is seat 1) ----------------------------

P1_PILE = cards("AS QS 10S 4S 3S 8S 2C 5C 6C 7C 9C JC")  # stack A Q 10 4 3, then 8 on top of the deck
P2_PILE = cards("KH QH JH 9H 3H 6H 2D 4D 5D 7D 8D 10D")  # stack K Q J 9 3, then 6 on top of the deck


def test_worked_example_card_for_card():
    game = AirWar.new(piles=[P1_PILE, P2_PILE])
    opening = game.opening_events
    assert opening == [{
        "type": "engagement", "number": 1, "stack_size": 5,
        "stacks": [["AS", "QS", "10S", "4S", "3S"], ["KH", "QH", "JH", "9H", "3H"]],
        "deck_counts": [7, 7], "discard_counts": [0, 0],
    }]

    first = game.apply(0, order("QS 10S AS 4S 3S"))
    assert first == [{"type": "order_locked", "engagement": 1, "seat": 0, "waiting_for": [1]}]
    events = game.apply(1, order("QH KH 9H JH 3H"))

    flips = [(e["cards"], e["sources"], e["result"], e["winner"]) for e in of_type(events, "flip")]
    assert flips == [
        (["QS", "QH"], ["stack", "stack"], "tie", None),   # Q vs Q: a tie, next stack card
        (["10S", "KH"], ["stack", "stack"], "win", 1),     # 10 vs K: Player 2 wins
        (["AS", "9H"], ["stack", "stack"], "win", 0),      # A vs 9: Player 1 wins
        (["4S", "JH"], ["stack", "stack"], "win", 1),      # 4 vs J: Player 2 wins
        (["3S", "3H"], ["stack", "stack"], "tie", None),   # 3 vs 3: a tie with the stacks used up
        (["8S", "6H"], ["deck", "deck"], "win", 0),        # deck tops 8 vs 6: Player 1 wins
    ]
    fights = [(e["winner"], e["kept"], e["discarded"]) for e in of_type(events, "fight")]
    assert fights == [
        (1, ["QH", "KH"], ["QS", "10S"]),  # P2 puts Q then K at her deck bottom; P1 discards Q and 10
        (0, ["AS"], ["9H"]),               # P1 keeps A; P2 discards 9
        (1, ["JH"], ["4S"]),               # P2 keeps J; P1 discards 4
        (0, ["3S", "8S"], ["3H", "6H"]),   # P1 keeps 3 then 8; P2 discards 3 and 6
    ]
    # the events come in the order of play: each fight right after the flip that settled it
    assert [e["type"] for e in events] == [
        "order_locked", "flip", "flip", "fight", "flip", "fight", "flip", "fight", "flip", "flip", "fight",
        "engagement_end", "engagement",
    ]
    end = of_type(events, "engagement_end")[0]
    assert end == {"type": "engagement_end", "engagement": 1, "fights": 4, "ties": 2,
                   "deck_counts": [9, 9], "discard_counts": [3, 3]}

    # the next stacks were drawn at once from the unknown cards; the won cards lie below, in order
    assert game.stacks == [["2C", "5C", "6C", "7C", "9C"], ["2D", "4D", "5D", "7D", "8D"]]
    assert game.draw_piles() == [["JC", "AS", "3S", "8S"], ["10D", "QH", "KH", "JH"]]
    assert game.discards == [["4S", "10S", "QS"], ["6H", "3H", "9H"]]  # top (last discarded) first
    view = game.view(None)
    assert view["deck_bottoms"] == [
        {"unknown_above": 1, "cards": ["AS", "3S", "8S"]},
        {"unknown_above": 1, "cards": ["QH", "KH", "JH"]},
    ]
    assert view["discards"] == [["4S", "10S", "QS"], ["6H", "3H", "9H"]]
    assert game.stats.rounds == 1 and game.stats.wars == 2
    assert game.outcome is None and game.pending_seats() == [0, 1]


def test_worked_example_as_one_move():
    by_actions = AirWar.new(piles=[P1_PILE, P2_PILE])
    by_actions.apply(0, order("QS 10S AS 4S 3S"))
    expected = by_actions.apply(1, order("QH KH 9H JH 3H"))
    by_move = AirWar.new(piles=[P1_PILE, P2_PILE])
    events = by_move.apply_move({"orders": [["QS", "10S", "AS", "4S", "3S"], ["QH", "KH", "9H", "JH", "3H"]]})
    assert events[0] == {"type": "order_locked", "engagement": 1, "seat": 0, "waiting_for": [1]}
    assert events[1:] == expected
    assert by_move.to_json() == by_actions.to_json()


# --- ties, running dry, short stacks ------------------------------------------------------------------------

def test_tie_runs_past_the_stack_into_the_deck():
    game = AirWar.new({"stack": 3}, piles=[
        cards("5S 6S 7S 9S JS 2S 3S 4S"),
        cards("5H 6H 7H 9H 10H 3H 4H"),
    ])
    events = game.apply_move({"orders": [["5S", "6S", "7S"], ["5H", "6H", "7H"]]})
    flips = [(e["cards"], e["sources"], e["result"]) for e in of_type(events, "flip")]
    assert flips == [
        (["5S", "5H"], ["stack", "stack"], "tie"),
        (["6S", "6H"], ["stack", "stack"], "tie"),
        (["7S", "7H"], ["stack", "stack"], "tie"),
        (["9S", "9H"], ["deck", "deck"], "tie"),
        (["JS", "10H"], ["deck", "deck"], "win"),
    ]
    (fight,) = of_type(events, "fight")
    assert fight["winner"] == 0 and fight["ties"] == 4
    assert fight["kept"] == ["5S", "6S", "7S", "9S", "JS"]
    assert fight["discarded"] == ["5H", "6H", "7H", "9H", "10H"]
    assert game.stats.wars == 4 and game.stats.rounds == 1
    # seat 0: 2S 3S 4S drawn as the next stack, the five won cards make the deck; seat 1 is short
    assert game.outcome is not None and game.outcome.winner == 0 and game.outcome.reason == "short_stack"


def test_must_add_a_tie_breaker_and_has_none_loses():
    game = AirWar.new({"stack": 3}, piles=[cards("5S 6S 7S"), cards("5H 6H 7H 2H")])
    events = game.apply_move({"orders": [["5S", "6S", "7S"], ["5H", "6H", "7H"]]})
    assert [e["type"] for e in events][-1] == "game_over"
    over = events[-1]
    assert over["winner"] == 1 and over["reason"] == "out_of_cards"
    assert "seat 0" in over["detail"]
    assert game.outcome is not None and game.outcome.winner == 1
    # the tied cards stay on the table; seat 1 never had to flip its 2
    assert game.card_locations()["table_0"] == ["5S", "6S", "7S"]
    assert game.card_locations()["table_1"] == ["5H", "6H", "7H"]
    assert game.draw_piles() == [[], ["2H"]]
    assert game.stats.rounds == 0 and game.stats.wars == 3
    with pytest.raises(GameOver):
        game.apply(0, order("5S 6S 7S"))
    assert game.legal_actions(0) == [] and game.pending_seats() == []


def test_both_have_no_tie_breaker_is_a_draw():
    game = AirWar.new({"stack": 3}, piles=[cards("5S 6S 7S 9S"), cards("5H 6H 7H 9H")])
    events = game.apply_move({"orders": [["5S", "6S", "7S"], ["5H", "6H", "7H"]]})
    assert of_type(events, "flip")[-1]["cards"] == ["9S", "9H"]
    assert events[-1]["type"] == "game_over"
    assert events[-1]["winner"] is None and events[-1]["reason"] == "out_of_cards"
    assert game.outcome is not None and game.outcome.winner is None
    assert Counter(game.card_locations()["table_0"]) == Counter(cards("5S 6S 7S 9S"))


def test_short_stack_at_the_next_engagement_loses():
    # seat 0 wins every fight and keeps its 3 cards; seat 1 loses 3 and has 2 left: short of a stack
    game = AirWar.new({"stack": 3}, piles=[cards("QS KS AS"), cards("2H 3H 4H 5H 6H")])
    events = game.apply_move({"orders": [["QS", "KS", "AS"], ["2H", "3H", "4H"]]})
    assert [e["type"] for e in events][-2:] == ["engagement_end", "game_over"]
    assert events[-1]["winner"] == 0 and events[-1]["reason"] == "short_stack"
    assert game.outcome is not None and game.outcome.winner == 0
    assert game.stats.rounds == 1
    assert game.draw_piles() == [["QS", "KS", "AS"], ["5H", "6H"]]
    assert game.stacks == [[], []]


def test_both_short_is_a_draw():
    game = AirWar.new({"stack": 3}, piles=[cards("QS 2S 9S"), cards("2H QH 10H")])
    events = game.apply_move({"orders": [["QS", "2S", "9S"], ["2H", "QH", "10H"]]})
    # Q beats 2, 2 loses to Q, 9 loses to 10: one card against two, each short of a stack of 3
    assert game.draw_piles() == [["QS"], ["QH", "10H"]]
    assert events[-1]["type"] == "game_over" and events[-1]["reason"] == "short_stack"
    assert events[-1]["winner"] is None
    assert game.outcome is not None and game.outcome.winner is None


def test_won_cards_come_back_up_in_the_next_stack():
    game = AirWar.new({"stack": 3}, piles=[cards("KS AS QS 2S"), cards("2H 3H 4H 5H 6H 7H")])
    events = game.apply_move({"orders": [["KS", "AS", "QS"], ["2H", "3H", "4H"]]})
    assert of_type(events, "engagement")[0]["stacks"] == [["2S", "KS", "AS"], ["5H", "6H", "7H"]]
    assert game.view(1)["deck_bottoms"][0] == {"unknown_above": 0, "cards": ["QS"]}


# --- ranking ---------------------------------------------------------------------------------------------------

def fight_once(rules: dict, card0: str, card1: str, fill0: str = "", fill1: str = "") -> int | None:
    """Who wins one flip of card0 against card1 (the other stack cards always lose to / beat nothing)."""
    size = rules.get("stack", 3)
    game = AirWar.new({**rules, "stack": size}, piles=[[card0, *fill0.split()], [card1, *fill1.split()]])
    events = game.apply_move({"orders": [game.stacks[0], game.stacks[1]]})
    return of_type(events, "flip")[0]["winner"]


def test_aces_high_and_low():
    assert fight_once({}, "AS", "KH", "3S 4S", "5H 6H") == 0
    assert fight_once({}, "AS", "2H", "3S 4S", "5H 6H") == 0
    assert fight_once({"aces": "low"}, "AS", "2H", "3S 4S", "5H 6H") == 1
    assert fight_once({"aces": "LOW"}, "2S", "AH", "3S 4S", "5H 6H") == 0


def test_jokers_deck():
    game = AirWar.new({"deck": "jokers"}, seed=3)
    assert sum(len(pile) for pile in game.card_locations().values()) == 108
    assert all_cards(game)["RJ"] == 2 and all_cards(game)["BJ"] == 2
    assert fight_once({"deck": "jokers"}, "RJ", "AH", "3S 4S", "5H 6H") == 0
    assert fight_once({"deck": "jokers"}, "RJ", "BJ", "3S 4S 9S", "5H 6H 8H") is None
    with pytest.raises(InvalidState, match="not in a standard deck"):
        AirWar.new(piles=[["RJ", "2S", "3S", "4S", "5S"], ["2H", "3H", "4H", "5H", "6H"]])


def test_tarot_deck_ranking():
    game = AirWar.new({"deck": "tarot"}, seed=5)
    assert all_cards(game) == Counter(tarot_pack() * 2)
    tarot = {"deck": "tarot"}
    assert fight_once(tarot, "1T", "KH", "3S 4S", "5H 6H") == 0     # a trump beats a king
    assert fight_once(tarot, "KH", "0T", "3S 4S", "5H 6H") == 1     # even the Fool beats a king
    assert fight_once(tarot, "0T", "1T", "3S 4S", "5H 6H") == 1     # the Fool is the lowest trump
    assert fight_once(tarot, "21T", "20T", "3S 4S", "5H 6H") == 0
    assert fight_once(tarot, "KH", "QS", "3S 4S", "5H 6H") == 0     # king over queen over knight over page
    assert fight_once(tarot, "NH", "PS", "3S 4S", "5H 6H") == 0
    assert fight_once(tarot, "AH", "KS", "3S 4S", "5H 6H") == 0     # aces high: above the king
    assert fight_once({**tarot, "aces": "low"}, "AH", "2S", "3S 4S", "5H 6H") == 1
    with pytest.raises(InvalidState):
        AirWar.new(tarot, piles=[["JS", "2S", "3S", "4S", "5S"], ["2H", "3H", "4H", "5H", "6H"]])


# --- stacks and seeds ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", [3, 7])
def test_stack_size(size):
    game = AirWar.new({"stack": size}, seed=11)
    assert [len(stack) for stack in game.stacks] == [size, size]
    assert game.opening_events[0]["stack_size"] == size
    actions = game.legal_actions(0)
    assert len(actions) == {3: 6, 7: 5040}[size]
    assert len({tuple(a["cards"]) for a in actions}) == len(actions)
    assert all(sorted(a["cards"]) == sorted(game.stacks[0]) for a in actions)
    events = game.apply_move({"orders": [actions[-1]["cards"], game.legal_actions(1)[0]["cards"]]})
    assert len([e for e in of_type(events, "flip") if e["sources"] == ["stack", "stack"]]) == size
    assert game.view(None)["stack_size"] == size


def test_each_deck_is_shuffled_once_by_the_games_own_rng():
    game = AirWar.new({"deck": "standard"}, seed=42)
    rng = random.Random(42)
    first, second = standard_pack(), standard_pack()
    rng.shuffle(first)
    rng.shuffle(second)
    assert game.stacks[0] + game.draw_piles()[0] == first
    assert game.stacks[1] + game.draw_piles()[1] == second
    assert game.view(0)["deck_bottoms"] == [{"unknown_above": 47, "cards": []}] * 2
    assert AirWar.new(seed=42).to_json() == game.to_json()
    assert AirWar.new(seed=43).to_json() != game.to_json()


def test_registry_points_here():
    assert game_class("airwar") is AirWar
    assert AirWar.new().rules == {"aces": "high", "stack": 5, "deck": "standard"}


# --- bad orders change nothing ---------------------------------------------------------------------------------

@pytest.fixture
def fresh() -> AirWar:
    return AirWar.new(piles=[P1_PILE, P2_PILE])


@pytest.mark.parametrize(("seat", "action", "error", "message"), [
    (0, order("QS 10S AS 4S 2S"), IllegalAction, "2♠ is not in your stack"),
    (0, order("QS 10S AS 4S 4S"), IllegalAction, "4♠ appears 2 times"),
    (0, order("QS 10S AS 4S"), IllegalAction, "missing 3♠"),
    (0, order("QS 10S AS 4S 3S 3S"), IllegalAction, "3♠ appears 2 times"),
    (0, order("KH QH JH 9H 3H"), IllegalAction, "K♥ is not in your stack"),
    (1, order("QS 10S AS 4S 3S"), IllegalAction, "Q♠ is not in your stack"),
    (0, order(""), IllegalAction, "missing"),
    (0, {"type": "order", "cards": "QS 10S AS 4S 3S"}, IllegalAction, "a list"),
    (0, {"type": "order"}, IllegalAction, "a list"),
    (0, order("QS 10S AS 4S ZZ"), InvalidCard, "not a card"),
    (0, {"type": "flip"}, IllegalAction, "one action, order"),
    (0, ["QS"], IllegalAction, "one action, order"),
    (2, order("QS 10S AS 4S 3S"), IllegalAction, "no seat 2"),
])
def test_bad_orders_raise_and_change_nothing(fresh, seat, action, error, message):
    before = fresh.to_json()
    with pytest.raises(error, match=message):
        fresh.apply(seat, action)
    assert fresh.to_json() == before


def test_orders_are_normalised(fresh):
    events = fresh.apply(0, order("qs 10s as 4s 3s"))
    assert events[0]["type"] == "order_locked"
    assert fresh.view(0)["my_order"] == ["QS", "10S", "AS", "4S", "3S"]


def test_ordering_twice_is_not_your_turn(fresh):
    fresh.apply(0, order("QS 10S AS 4S 3S"))
    before = fresh.to_json()
    with pytest.raises(NotYourTurn, match="already locked"):
        fresh.apply(0, order("AS QS 10S 4S 3S"))
    assert fresh.to_json() == before
    assert fresh.legal_actions(0) == [] and len(fresh.legal_actions(1)) == 120
    assert fresh.pending_seats() == [1]
    with pytest.raises(NotYourTurn):
        fresh.apply_move({"orders": [["QS", "10S", "AS", "4S", "3S"], ["QH", "KH", "9H", "JH", "3H"]]})
    assert fresh.to_json() == before


def test_apply_move_checks_both_orders_before_playing(fresh):
    before = fresh.to_json()
    with pytest.raises(IllegalAction, match="Q♠ is not in your stack"):
        fresh.apply_move({"orders": [["QS", "10S", "AS", "4S", "3S"], ["QS", "KH", "9H", "JH", "3H"]]})
    with pytest.raises(IllegalAction, match="orders"):
        fresh.apply_move({"orders": [["QS", "10S", "AS", "4S", "3S"]]})
    with pytest.raises(IllegalAction):
        fresh.apply_move({})
    assert fresh.to_json() == before


def test_after_the_game_is_over_nothing_plays():
    game = AirWar.new({"stack": 3}, piles=[cards("QS KS AS"), cards("2H 3H 4H 5H 6H")])
    game.apply_move({"orders": [["QS", "KS", "AS"], ["2H", "3H", "4H"]]})
    before = game.to_json()
    with pytest.raises(GameOver, match="over"):
        game.apply(0, order("QS KS AS"))
    with pytest.raises(GameOver):
        game.apply_move({"orders": [["QS", "KS", "AS"], ["5H", "6H", "2H"]]})
    with pytest.raises(GameOver):
        game.forfeit(1)
    assert game.to_json() == before


def test_forfeit(fresh):
    fresh.apply(0, order("QS 10S AS 4S 3S"))
    events = fresh.forfeit(1)
    assert events == [{"type": "game_over", "winner": 0, "reason": "forfeit", "detail": "seat 1 forfeited",
                       "engagement": 1, "deck_counts": [7, 7]}]
    assert fresh.view(None)["my_order"] is None
    assert fresh.view(1)["my_order"] is None
    assert fresh.view(0)["my_order"] == ["QS", "10S", "AS", "4S", "3S"]
    assert "QS 10S AS" not in json.dumps(fresh.view(1)).replace('", "', " ")
    restored = AirWar.from_json(json.loads(json.dumps(fresh.to_json())))
    assert restored.to_json() == fresh.to_json()


# --- rules and saved games -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("rules", "message"), [
    ({"stack": 2}, "'stack' must be at least 3"),
    ({"stack": 8}, "'stack' must be at most 7"),
    ({"stack": "many"}, "'stack' takes a whole number"),
    ({"deck": "uno"}, "'deck' takes one of standard, jokers, tarot"),
    ({"aces": "middle"}, "'aces' takes one of high, low"),
    ({"players": 5}, "'players' must be at most 4"),
])
def test_invalid_rules(rules, message):
    with pytest.raises(InvalidRules, match=message):
        AirWar.new(rules)


def test_rules_from_text():
    game = AirWar.new({"stack": "4", "deck": "Jokers", "aces": "low"})
    assert game.rules == {"aces": "low", "stack": 4, "deck": "jokers"}


@pytest.mark.parametrize(("piles", "message"), [
    ([P1_PILE], "exactly two"),
    ([P1_PILE, P2_PILE, P2_PILE, P2_PILE, P2_PILE], "exactly two"),
    ([P1_PILE, cards("KH QH")], "at least a full stack of 5"),
    ([P1_PILE, ["KH", "KH", "QH", "JH", "9H"]], "KH 2 times"),
    ([P1_PILE, ["XX", "KH", "QH", "JH", "9H"]], "seat 1's pile"),
    ([P1_PILE, "KH QH JH 9H 3H"], "list of cards"),
])
def test_invalid_piles(piles, message):
    with pytest.raises(InvalidState, match=message):
        AirWar.new(piles=piles)


def test_the_same_card_in_both_decks_is_fine():
    game = AirWar.new(piles=[P1_PILE, P1_PILE])
    assert game.stacks[0] == game.stacks[1]


def damage(data: dict, path: tuple, value) -> dict:
    broken = copy.deepcopy(data)
    target = broken
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return broken


@pytest.mark.parametrize(("path", "value"), [
    (("game",), "war"),
    (("version",), 99),
    (("rules",), {"stack": 9}),
    (("seed",), "x"),
    (("rng",), [3, [1, 2], None, 4]),
    (("decks",), KeyError),
    (("decks", 0, 0), "QS"),                 # QS twice in seat 0's cards
    (("decks", 0, 0), "qs"),                 # not written in notation
    (("decks", 0, 0), 7),
    (("decks",), [[]]),
    (("unknown", 0), 99),
    (("unknown", 1), -1),
    (("stacks", 0), ["QS", "10S", "AS", "4S"]),
    (("orders", 0), ["QS", "QS", "AS", "4S", "3S"]),
    (("orders",), [["QS", "10S", "AS", "4S", "3S"], ["QH", "KH", "9H", "JH", "3H"]]),
    (("table", 0), ["2C"]),
    (("discards", 1), ["2D"]),             # 2D is still in seat 1's deck
    (("outcome",), {"winner": 5, "reason": "x"}),
    (("stats", "rounds"), -1),
    (("engagement",), 0),
    (("opening_events",), [1]),
])
def test_damaged_saves_are_refused(path, value):
    game = AirWar.new(piles=[P1_PILE, P2_PILE])
    data = game.to_json()
    assert AirWar.from_json(data).to_json() == data
    with pytest.raises(InvalidState):
        AirWar.from_json(damage(data, path, value))
    with pytest.raises(InvalidState):
        AirWar.from_json([])


@pytest.mark.parametrize("unknown", [[0, 0], [0, 47], [46, 47], [47, 46], [48, 47], [47, 52]])
def test_a_saved_game_cannot_claim_other_unknown_deck_tops(unknown):
    """A lower count would make ``view`` show the real order of unseen cards as the known deck bottom."""
    data = AirWar.new(seed=1).to_json()
    assert data["unknown"] == [47, 47]
    with pytest.raises(InvalidState, match="unknown"):
        AirWar.from_json(data | {"unknown": unknown})


def test_mid_game_the_unknown_deck_tops_follow_from_the_decks_and_discards():
    game = AirWar.new(seed=1)
    rng = random.Random(4)
    while not (game.discards[0] and game.discards[1]):
        game.apply_move({"orders": [rng.sample(stack, len(stack)) for stack in game.stacks]})
    data = json.loads(json.dumps(game.to_json()))
    assert data["unknown"] == [len(game.decks[s]) - len(game.discards[1 - s]) for s in (0, 1)]
    assert all(0 < n < len(deck) for n, deck in zip(data["unknown"], game.decks, strict=True))
    assert AirWar.from_json(data).view(0) == game.view(0)
    for seat in (0, 1):
        for change in (-1, 1):
            forged = copy.deepcopy(data)
            forged["unknown"][seat] += change
            with pytest.raises(InvalidState, match="unknown"):
                AirWar.from_json(forged)


def test_json_round_trip_after_game_over_with_cards_on_the_table():
    game = AirWar.new({"stack": 3}, piles=[cards("5S 6S 7S"), cards("5H 6H 7H 2H")])
    game.apply_move({"orders": [["5S", "6S", "7S"], ["5H", "6H", "7H"]]})
    data = json.loads(json.dumps(game.to_json()))
    restored = AirWar.from_json(data)
    assert restored.to_json() == game.to_json()
    assert restored.outcome == game.outcome
    assert restored.card_locations() == game.card_locations()


# --- what each seat sees ---------------------------------------------------------------------------------------

def test_views(fresh):
    fresh.apply(1, order("QH KH 9H JH 3H"))
    mine, theirs, spectator = fresh.view(1), fresh.view(0), fresh.view(None)
    assert set(mine) == {
        "game", "seat", "rules", "engagement", "phase", "stack_size", "stacks", "locked", "waiting_for",
        "my_order", "deck_counts", "deck_bottoms", "discards", "table", "outcome", "stats", "played",
    }
    assert mine["my_order"] == ["QH", "KH", "9H", "JH", "3H"]
    assert theirs["my_order"] is None and spectator["my_order"] is None
    for view in (mine, theirs, spectator):
        assert view["stacks"] == [["AS", "QS", "10S", "4S", "3S"], ["KH", "QH", "JH", "9H", "3H"]]
        assert view["locked"] == [False, True]
        assert view["waiting_for"] == [0]
        assert view["deck_counts"] == [7, 7]
        assert view["phase"] == "ordering"
        assert view["engagement"] == 1
        assert view["played"] == []
    # the other seat's view does not depend on seat 1's order at all
    other = AirWar.new(piles=[P1_PILE, P2_PILE])
    other.apply(1, order("3H 9H JH KH QH"))
    assert other.view(0) == theirs and other.view(None) == spectator
    with pytest.raises(IllegalAction):
        fresh.view(5)


def test_every_view_shows_the_engagements_played_once_flipped(fresh):
    stacks = [list(stack) for stack in fresh.stacks]
    fresh.apply(1, order("QH KH 9H JH 3H"))
    assert all(view["played"] == [] for view in (fresh.view(0), fresh.view(None)))  # a locked order stays secret
    fresh.apply(0, order("3S 4S 10S QS AS"))
    played = [{"stacks": stacks, "orders": [cards("3S 4S 10S QS AS"), cards("QH KH 9H JH 3H")]}]
    assert fresh.view(0)["played"] == fresh.view(1)["played"] == fresh.view(None)["played"] == played
    data = json.loads(json.dumps(fresh.to_json()))
    assert AirWar.from_json(data).view(None)["played"] == played
    older = {key: value for key, value in data.items() if key != "played"}  # saved before the record existed
    assert AirWar.from_json(older).view(None)["played"] == []
    for damage in ([played[0], played[0]], [{"stacks": stacks}],
                   [{"stacks": stacks, "orders": [cards("3S 4S 10S QS 2S"), played[0]["orders"][1]]}]):
        with pytest.raises(InvalidState, match="played"):
            AirWar.from_json(data | {"played": damage})
