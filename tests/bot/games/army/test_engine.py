"""Army (version 2): every rule of the text, our choices where it is silent, bad input, JSON and the rules text."""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from bot.cards import standard_pack
from bot.errors import GameOver, IllegalAction, InvalidCard, InvalidRules, InvalidState, NotYourTurn
from bot.games.army.engine import ARMY_CARDS, FIGHTING_CARDS, Army
from bot.registry import game_class

RULES_TEXT = Path(__file__).resolve().parents[4] / "bot" / "games" / "army" / "rules" / "army.md"


# --- helpers -----------------------------------------------------------------------------------------------
def interleave(first, second):
    assert len(first) == len(second)
    return [card for pair in zip(first, second, strict=True) for card in pair]


def make_piles(armies0, armies1, hand0, hand1, draws0=(), draws1=()):
    """Starting piles (top first) that deal these armies and hands; seat 0 then seat 1 draw the given cards."""
    army_top = interleave(armies0, armies1)
    fighting_top = interleave(hand0, hand1) + interleave(draws0, draws1)
    army_pile = army_top + [card for card in ARMY_CARDS if card not in army_top]
    fighting_pile = fighting_top + [card for card in FIGHTING_CARDS if card not in fighting_top]
    return [army_pile, fighting_pile]


HAND0 = ["10H", "9D", "9C", "7H", "2H"]
HAND1 = ["10S", "8C", "7D", "3H", "2C"]


def start(armies0=("KH", "QH", "JH"), armies1=("KS", "QS", "JS"), hand0=HAND0, hand1=HAND1,
          draws0=(), draws1=(), rules=None):
    """A game dealt from explicit piles, armies set in the given orders (first fights first)."""
    game = Army.new(rules, seed=7, piles=make_piles(armies0, armies1, hand0, hand1, draws0, draws1))
    game.apply(0, {"type": "arrange", "armies": list(armies0)})
    game.apply(1, {"type": "arrange", "armies": list(armies1)})
    return game


def fight(game, card0, card1):
    """One round: seat 0 plays card0, seat 1 card1; return the events of the resolving action."""
    game.apply(0, {"type": "play", "card": card0})
    return game.apply(1, {"type": "play", "card": card1})


def of_type(events, kind):
    return [event for event in events if event["type"] == kind]


def front(game, seat):
    return game.view(None)["players"][seat]["front"]


# --- dealing and setting the armies ------------------------------------------------------------------------
def test_seeded_deal_uses_the_whole_pack_and_the_game_rng():
    game = Army.new(seed=42)
    army_pile, fighting_pile = list(ARMY_CARDS), list(FIGHTING_CARDS)
    rng = random.Random(42)
    rng.shuffle(army_pile)
    rng.shuffle(fighting_pile)
    assert game.armies == [army_pile[0:6:2], army_pile[1:6:2]]
    assert game.hands == [fighting_pile[0:10:2], fighting_pile[1:10:2]]
    assert game.draw_piles() == [fighting_pile[10:], army_pile[6:]]
    assert Counter(c for cards in game.card_locations().values() for c in cards) == Counter(standard_pack(52))
    assert all(card[:-1] in "AKQJ" for card in ARMY_CARDS) and len(ARMY_CARDS) == 16
    assert len(FIGHTING_CARDS) == 36 and not any(card[:-1] in "AKQJ" for card in FIGHTING_CARDS)


def test_explicit_piles_deal_one_card_at_a_time_seat_0_first():
    piles = make_piles(["AH", "KH", "QH"], ["AS", "KS", "QS"], HAND0, HAND1)
    game = Army.new(seed=1, piles=piles)
    assert game.armies == [["AH", "KH", "QH"], ["AS", "KS", "QS"]]
    assert game.hands == [HAND0, HAND1]
    assert game.fighting_pile == piles[1][10:]
    assert game.army_pile == piles[0][6:] and len(game.army_pile) == 10


def test_armies_are_set_secretly_then_both_first_armies_are_revealed():
    game = Army.new(seed=1, piles=make_piles(["JH", "QH", "AH"], ["AS", "KS", "QS"], HAND0, HAND1))
    assert game.pending_seats() == [0, 1]
    assert len(game.legal_actions(0)) == 6
    assert sorted(tuple(a["armies"]) for a in game.legal_actions(0)) == sorted(
        itertools.permutations(["JH", "QH", "AH"]))
    events = game.apply(1, {"type": "arrange", "armies": ["QS", "AS", "KS"]})
    assert events == [{"type": "chosen", "seat": 1, "phase": "arrange"}]
    assert game.view(0)["players"][1] == {"seat": 1, "front": None, "armies_left": 3, "hand_size": 5, "chosen": True}
    assert game.view(1)["you"]["armies"] == [{"army": "QS", "stamina": 2}, {"army": "AS", "stamina": 4},
                                             {"army": "KS", "stamina": 3}]
    assert game.pending_seats() == [0]
    events = game.apply(0, {"type": "arrange", "armies": ["ah", "JH", "QH"]})
    assert events == [
        {"type": "chosen", "seat": 0, "phase": "arrange"},
        {"type": "armies_set", "armies": [{"seat": 0, "army": "AH", "stamina": 4, "armies_left": 3},
                                          {"seat": 1, "army": "QS", "stamina": 2, "armies_left": 3}]},
    ]
    assert front(game, 0) == {"army": "AH", "stamina": 4}
    assert front(game, 1) == {"army": "QS", "stamina": 2}
    assert game.legal_actions(0) == [{"type": "play", "card": card} for card in HAND0]


# --- a whole game -----------------------------------------------------------------------------------------
def test_scripted_game_to_the_end():
    game = start(armies0=("AH", "KH", "QH"), armies1=("JS", "QS", "KS"),
                 hand0=["10H", "10D", "9H", "9D", "8H"], hand1=["2C", "2S", "3C", "3S", "4C"],
                 draws0=["8D", "7H", "7D", "6H", "6D"], draws1=["10C", "4S", "5C", "5S", "6C"])
    script = [
        # card 0, card 1, seat 1's front after, its SP after, falls?
        ("10H", "2C", "QS", 2, True),     # the jack falls after 1 SP: the queen comes up
        ("10D", "2S", "QS", 1, False),
        ("9H", "10C", "QS", 1, False),    # a black 10 defends: nothing
        ("9D", "3C", "KS", 3, True),      # the queen falls after 2 SP: the king comes up
        ("8H", "3S", "KS", 2, False),
        ("8D", "4C", "KS", 1, False),
    ]
    stamina_steps = []
    for round_number, (card0, card1, next_front, sp, falls) in enumerate(script, start=1):
        events = fight(game, card0, card1)
        reveal = of_type(events, "reveal")[0]
        assert reveal["round"] == round_number and reveal["cards"] == [card0, card1]
        stamina_steps.append(reveal["stamina"])
        assert bool(of_type(events, "army_fallen")) == falls
        assert front(game, 1) == {"army": next_front, "stamina": sp}
        assert front(game, 0) == {"army": "AH", "stamina": 4}
        assert game.outcome is None
    assert stamina_steps == [0, 1, None, 0, 2, 1]
    events = fight(game, "7H", "4S")
    assert [e["type"] for e in events] == ["chosen", "reveal", "army_fallen", "game_over"]
    assert events[2] == {"type": "army_fallen", "seat": 1, "army": "KS", "next": None, "stamina": None,
                         "armies_left": 0}
    assert events[3] == {"type": "game_over", "winner": 0, "reason": "no_armies",
                         "detail": "seat 1 has no armies left", "front": [{"army": "AH", "stamina": 4}, None],
                         "armies_left": [3, 0]}  # seat 0's KH and QH stay hidden: no total SP
    assert game.outcome.winner == 0 and game.outcome.reason == "no_armies"
    assert game.stats.rounds == 7 and game.stats.wars == 0
    assert game.army_graveyard == ["KS", "QS", "JS"]
    assert game.pending_seats() == [] and game.legal_actions(0) == []
    assert game.view(0)["phase"] == "over"
    with pytest.raises(GameOver):
        game.apply(0, {"type": "play", "card": game.hands[0][0]})


# --- each rule of the text ---------------------------------------------------------------------------------
def test_a_winning_red_card_costs_the_opposing_army_one_sp():
    game = start()
    events = fight(game, "7H", "2C")
    assert of_type(events, "reveal") == [{
        "type": "reveal", "round": 1, "cards": ["7H", "2C"], "winner": 0, "result": "attack", "damage": 1,
        "damaged_seat": 1, "army": "KS", "stamina": 2}]
    assert front(game, 1) == {"army": "KS", "stamina": 2}
    assert front(game, 0) == {"army": "KH", "stamina": 3}


def test_a_winning_red_card_of_seat_1_hurts_seat_0():
    game = start()
    fight(game, "2H", "7D")
    assert front(game, 0) == {"army": "KH", "stamina": 2}
    assert front(game, 1) == {"army": "KS", "stamina": 3}


@pytest.mark.parametrize(("card0", "card1", "winner"), [("9C", "3H", 0), ("2H", "10S", 1), ("7H", "8C", 1)])
def test_a_winning_black_card_costs_nothing(card0, card1, winner):
    game = start()
    reveal = of_type(fight(game, card0, card1), "reveal")[0]
    assert (reveal["winner"], reveal["result"], reveal["damage"], reveal["damaged_seat"]) == (
        winner, "defence", 0, None)
    assert [front(game, s)["stamina"] for s in (0, 1)] == [3, 3]


def test_two_black_cards_cost_nothing_even_when_different():
    game = start()
    reveal = of_type(fight(game, "9C", "2C"), "reveal")[0]
    assert reveal["winner"] == 0 and reveal["damage"] == 0 and reveal["result"] == "defence"
    assert [front(game, s)["stamina"] for s in (0, 1)] == [3, 3]
    assert game.stats.wars == 0


@pytest.mark.parametrize(("card0", "card1"), [("7H", "7D"), ("9C", "9H"), ("9D", "9H")])
def test_a_tie_costs_nothing_and_counts_as_a_war(card0, card1):
    hand1 = ["9H", "8C", "7D", "3H", "2C"]
    game = start(hand1=hand1)
    reveal = of_type(fight(game, card0, card1), "reveal")[0]
    assert reveal["winner"] is None and reveal["result"] == "tie" and reveal["damage"] == 0
    assert [front(game, s)["stamina"] for s in (0, 1)] == [3, 3]
    assert game.stats.rounds == 1 and game.stats.wars == 1


@pytest.mark.parametrize(("army", "sp"), [("JS", 1), ("QS", 2), ("KS", 3), ("AS", 4)])
def test_an_army_falls_after_its_stamina_and_the_next_comes_face_up(army, sp):
    others = [card for card in ("KC", "QC", "JC") if card[0] != army[0]][:2]
    order = [army, *others]
    red_hand = ["10H", "10D", "9H", "9D", "8H"]
    game = start(armies1=tuple(order), hand0=red_hand, hand1=["2C", "2S", "3C", "3S", "4C"],
                 draws0=["8D", "7H", "7D"], draws1=["4S", "5C", "5S"])
    plays0 = ["10H", "10D", "9H", "9D"]
    plays1 = ["2C", "2S", "3C", "3S"]
    for hit in range(1, sp + 1):
        events = fight(game, plays0[hit - 1], plays1[hit - 1])
        if hit < sp:
            assert not of_type(events, "army_fallen")
            assert front(game, 1) == {"army": army, "stamina": sp - hit}
    assert of_type(events, "army_fallen") == [{"type": "army_fallen", "seat": 1, "army": army, "next": order[1],
                                               "stamina": 3 if order[1][0] == "K" else 2, "armies_left": 2}]
    assert front(game, 1) == {"army": order[1], "stamina": 3 if order[1][0] == "K" else 2}
    assert game.army_graveyard == [army]
    assert game.view(None)["army_graveyard"] == [army]
    assert game.view(0)["players"][1]["armies_left"] == 2
    assert game.view(1)["you"]["armies"][0]["army"] == order[1]


def test_both_cards_go_to_the_graveyard_and_each_draws_back_to_five_seat_0_first():
    game = start()
    top = list(game.fighting_pile[:2])
    events = fight(game, "9C", "8C")
    assert game.fighting_graveyard == ["8C", "9C"]
    assert game.hands[0] == ["10H", "9D", "7H", "2H", top[0]]
    assert game.hands[1] == ["10S", "7D", "3H", "2C", top[1]]
    assert of_type(events, "draw") == [
        {"type": "draw", "seat": 0, "cards": 1, "hand_size": 5, "pile_left": 25},
        {"type": "draw", "seat": 1, "cards": 1, "hand_size": 5, "pile_left": 24},
    ]
    assert game.view(None)["fighting_graveyard"] == ["8C", "9C"]
    assert game.view(None)["fighting_pile"] == 24


def test_the_graveyard_is_reshuffled_when_the_pile_runs_out_mid_draw():
    game = start()
    data = game.to_json()
    # Leave one card on the pile: seat 0 draws it, then the graveyard (the two cards just played too) is shuffled.
    data["fighting_graveyard"] = data["fighting_pile"][1:]
    data["fighting_pile"] = data["fighting_pile"][:1]
    game = Army.from_json(data)
    last = game.fighting_pile[0]
    graveyard = list(game.fighting_graveyard)
    events = fight(game, "9C", "8C")
    assert [e["type"] for e in events] == ["chosen", "reveal", "draw", "reshuffle", "draw"]
    assert events[3] == {"type": "reshuffle", "cards": len(graveyard) + 2}
    assert game.hands[0][-1] == last
    assert game.fighting_graveyard == []
    assert len(game.fighting_pile) == len(graveyard) + 1
    assert Counter([*game.fighting_pile, game.hands[1][-1]]) == Counter(["8C", "9C", *graveyard])


def test_the_reshuffle_uses_the_game_rng_and_happens_in_the_fourteenth_round():
    """26 cards are left after the deal; 13 rounds empty the pile; round 14 reshuffles all 28 used cards."""
    game = start(armies0=("AH", "AD", "AC"), armies1=("AS", "KH", "KD"), rules={"max_rounds": 14})
    rng_copy = random.Random()
    for round_number in range(1, 15):
        pair = next(((a, b) for a in game.hands[0] for b in game.hands[1]
                     if a[:-1] == b[:-1] or (a[-1] in "CS" and b[-1] in "CS")), None)
        if pair is None:  # no harmless pair: the higher card is red, someone loses 1 SP (12 and 10 SP suffice)
            pair = (game.hands[0][0], game.hands[1][0])
        if round_number == 14:
            assert game.fighting_pile == [] and len(game.fighting_graveyard) == 26
            rng_copy.setstate(game.rng.getstate())
            expected = [pair[1], pair[0], *game.fighting_graveyard]
            rng_copy.shuffle(expected)
        events = fight(game, *pair)
        assert bool(of_type(events, "reshuffle")) == (round_number == 14)
    assert of_type(events, "reshuffle") == [{"type": "reshuffle", "cards": 28}]
    assert [game.hands[0][-1], game.hands[1][-1], *game.fighting_pile] == expected
    assert game.outcome.reason == "capped"


def test_a_player_with_no_armies_left_loses_and_nobody_draws():
    game = start(armies1=("JS", "JC", "JD"), hand0=["10H", "10D", "9H", "9D", "8H"],
                 draws0=["8D", "7H"], draws1=["4S", "5C"])
    fight(game, "10H", "2C")
    fight(game, "10D", "3H")
    pile = len(game.fighting_pile)
    events = fight(game, "9H", "7D")
    assert [e["type"] for e in events] == ["chosen", "reveal", "army_fallen", "game_over"]
    assert events[-1]["winner"] == 0 and events[-1]["reason"] == "no_armies"
    assert len(game.fighting_pile) == pile and [len(h) for h in game.hands] == [4, 4]
    assert game.army_graveyard == ["JD", "JC", "JS"]
    assert game.view(1)["you"]["armies"] == [] and game.view(0)["players"][1]["front"] is None


# --- the round limit ---------------------------------------------------------------------------------------
def test_the_cap_ends_in_a_draw_on_equal_stamina():
    game = start(rules={"max_rounds": 2})
    fight(game, "9C", "8C")
    events = fight(game, "7H", "7D")
    assert events[-1] == {"type": "game_over", "winner": None, "reason": "capped",
                          "detail": "2 rounds fought; stamina left 6 (seat 0) against 6 (seat 1)",
                          "front": [{"army": "KH", "stamina": 3}, {"army": "KS", "stamina": 3}],
                          "armies_left": [3, 3],
                          "armies": [[{"army": "KH", "stamina": 3}, {"army": "QH", "stamina": 2},
                                      {"army": "JH", "stamina": 1}],
                                     [{"army": "KS", "stamina": 3}, {"army": "QS", "stamina": 2},
                                      {"army": "JS", "stamina": 1}]],
                          "stamina": [6, 6]}
    assert game.outcome.winner is None and game.stats.rounds == 2 and game.stats.wars == 1


def test_the_cap_gives_the_game_to_more_stamina_left():
    game = start(armies0=("JH", "QH", "KH"), armies1=("AS", "QS", "JS"), rules={"max_rounds": 3})
    fight(game, "2H", "7D")  # seat 0's jack falls: 5 SP left (Q 2 + K 3) against 7 (A 4 + Q 2 + J 1)
    fight(game, "10H", "2C")  # seat 1's ace is down to 3: 5 against 6
    events = fight(game, "9D", "3H")  # the ace is down to 2: 5 against 5
    assert events[-1]["reason"] == "capped" and events[-1]["stamina"] == [5, 5] and events[-1]["winner"] is None
    game = start(armies0=("JH", "QH", "KH"), armies1=("AS", "QS", "JS"), rules={"max_rounds": 2})
    fight(game, "2H", "7D")
    events = fight(game, "9C", "8C")
    assert events[-1]["winner"] == 1 and events[-1]["stamina"] == [5, 7]
    assert events[-1]["armies"] == [[{"army": "QH", "stamina": 2}, {"army": "KH", "stamina": 3}],
                                    [{"army": "AS", "stamina": 4}, {"army": "QS", "stamina": 2},
                                     {"army": "JS", "stamina": 1}]]
    assert game.outcome.reason == "capped"


def test_the_default_cap_is_300_and_the_rules_are_checked():
    assert Army.resolve_rules(None) == {"max_rounds": 300}
    assert Army.resolve_rules({"max_rounds": "50"}) == {"max_rounds": 50}
    for bad in ({"max_rounds": 0}, {"max_rounds": "many"}, {"max_rounds": True}, {"max_rounds": 1.5},
                {"max_rounds": 100_001}, {"jokers": 2}):
        with pytest.raises(InvalidRules):
            Army.new(bad, seed=1)
    assert game_class("army") is Army


# --- bad actions change nothing ---------------------------------------------------------------------------
def assert_refused(game, error, seat, action):
    before = json.dumps(game.to_json())
    with pytest.raises(error) as raised:
        game.apply(seat, action)
    assert str(raised.value)
    assert json.dumps(game.to_json()) == before


def test_bad_actions_in_the_arrange_phase():
    game = Army.new(seed=3, piles=make_piles(["KH", "QH", "JH"], ["KS", "QS", "JS"], HAND0, HAND1))
    assert_refused(game, IllegalAction, 0, {"type": "play", "card": "10H"})
    assert_refused(game, IllegalAction, 0, {"type": "arrange", "armies": ["KS", "QH", "JH"]})
    assert_refused(game, IllegalAction, 0, {"type": "arrange", "armies": ["KH", "KH", "JH"]})
    assert_refused(game, IllegalAction, 0, {"type": "arrange", "armies": ["KH", "QH"]})
    assert_refused(game, IllegalAction, 0, {"type": "arrange", "armies": "KH QH JH"})
    assert_refused(game, IllegalAction, 0, {"type": "arrange"})
    assert_refused(game, InvalidCard, 0, {"type": "arrange", "armies": ["KH", "QH", "XX"]})
    assert_refused(game, IllegalAction, 0, {"type": "attack"})
    assert_refused(game, IllegalAction, 0, {"armies": ["KH", "QH", "JH"]})
    assert_refused(game, IllegalAction, 0, "arrange")
    assert_refused(game, IllegalAction, 2, {"type": "arrange", "armies": ["KH", "QH", "JH"]})
    assert_refused(game, IllegalAction, True, {"type": "arrange", "armies": ["KH", "QH", "JH"]})
    game.apply(0, {"type": "arrange", "armies": ["KH", "QH", "JH"]})
    assert_refused(game, NotYourTurn, 0, {"type": "arrange", "armies": ["QH", "KH", "JH"]})
    assert game.legal_actions(0) == []


def test_bad_actions_in_a_round():
    game = start()
    assert_refused(game, IllegalAction, 0, {"type": "arrange", "armies": ["KH", "QH", "JH"]})
    assert_refused(game, IllegalAction, 0, {"type": "play", "card": "10S"})  # the opponent's card
    assert_refused(game, IllegalAction, 0, {"type": "play", "card": "KH"})  # an army is not a fighting card
    assert_refused(game, IllegalAction, 0, {"type": "play", "card": game.fighting_pile[0]})
    assert_refused(game, IllegalAction, 0, {"type": "play"})
    assert_refused(game, InvalidCard, 0, {"type": "play", "card": "11H"})
    assert_refused(game, InvalidCard, 0, {"type": "play", "card": 7})
    game.apply(0, {"type": "play", "card": "7H"})
    assert_refused(game, NotYourTurn, 0, {"type": "play", "card": "9C"})
    assert_refused(game, IllegalAction, 0, {"type": "play", "card": "7H"})
    assert game.pending_seats() == [1]


def test_after_the_end_everything_is_refused():
    game = start()
    game.forfeit(1)
    assert_refused(game, GameOver, 0, {"type": "play", "card": "7H"})
    before = json.dumps(game.to_json())
    with pytest.raises(GameOver):
        game.apply_move({"plays": ["7H", "2C"]})
    with pytest.raises(GameOver):
        game.forfeit(0)
    assert json.dumps(game.to_json()) == before


def test_forfeit_gives_the_game_to_the_other_seat():
    game = start()
    fight(game, "7H", "2C")
    game.apply(0, {"type": "play", "card": "9C"})
    events = game.forfeit(0, "timeout")
    assert events == [{"type": "game_over", "winner": 1, "reason": "timeout", "detail": "seat 0 forfeited",
                       "front": [{"army": "KH", "stamina": 3}, {"army": "KS", "stamina": 2}],
                       "armies_left": [3, 3]}]  # only the face-up armies: the ones behind them stay hidden
    assert game.pending_seats() == []
    assert Army.from_json(json.loads(json.dumps(game.to_json()))).to_json() == game.to_json()


def test_a_forfeit_shows_only_public_facts():
    # seat 1 holds AS, QS, KS (9 SP in all): a forfeit while the armies are still being set shows none of them
    game = Army.new(seed=3, piles=make_piles(["KH", "QH", "JH"], ["AS", "QS", "KS"], HAND0, HAND1))
    game.apply(1, {"type": "arrange", "armies": ["QS", "AS", "KS"]})
    events = game.forfeit(0)
    assert events == [{"type": "game_over", "winner": 1, "reason": "forfeit", "detail": "seat 0 forfeited",
                       "front": [None, None], "armies_left": [3, 3]}]
    for shown in (events, game.view(None), game.view(0)):
        assert not {"AS", "QS", "KS"} & set(json.dumps(shown).replace('"', " ").replace(",", " ").split())
    # the same game with other armies behind seat 1's front gives the very same event
    other = Army.new(seed=3, piles=make_piles(["KH", "QH", "JH"], ["JS", "QS", "JC"], HAND0, HAND1))
    other.apply(1, {"type": "arrange", "armies": ["QS", "JS", "JC"]})
    assert other.forfeit(0) == events


def test_seeds_must_be_whole_numbers():
    for seed in ("abc", "3", 1.5, True, False, None, [1], {"seed": 1}):
        with pytest.raises(InvalidRules, match="seed"):
            Army.new(seed=seed)
    for seed in (0, 7, 2**40, -5):
        game = Army.new(seed=seed)
        assert Army.from_json(json.loads(json.dumps(game.to_json()))).to_json() == game.to_json()


# --- match-file moves ---------------------------------------------------------------------------------------
def test_match_file_moves_replay_a_game_like_the_actions():
    live = Army.new(seed=11)
    replay = Army.new(seed=11)
    orders = [list(reversed(live.armies[0])), list(live.armies[1])]
    live_events = live.apply(0, {"type": "arrange", "armies": orders[0]})
    live_events += live.apply(1, {"type": "arrange", "armies": orders[1]})
    assert replay.apply_move({"armies": orders}) == live_events
    for _ in range(5):
        cards = [live.hands[0][0], live.hands[1][-1]]
        live_events = live.apply(0, {"type": "play", "card": cards[0]})
        live_events += live.apply(1, {"type": "play", "card": cards[1]})
        assert replay.apply_move({"plays": cards}) == live_events
    assert replay.to_json() == live.to_json()


def test_a_bad_move_changes_nothing():
    game = Army.new(seed=5)
    before = json.dumps(game.to_json())
    good = list(game.armies[0])
    for move, error in [
        ({"armies": [good, ["AS", "KS", "QS"] if "AS" not in good else ["AH", "KH", "QH"]]}, IllegalAction),
        ({"armies": [good]}, IllegalAction),
        ({"plays": [game.hands[0][0], game.hands[1][0]]}, IllegalAction),
        ({"armies": [good, list(game.armies[1])], "plays": []}, IllegalAction),
        ({}, IllegalAction),
        ("armies", IllegalAction),
    ]:
        with pytest.raises(error):
            game.apply_move(move)
        assert json.dumps(game.to_json()) == before
    game.apply_move({"armies": [good, list(game.armies[1])]})
    before = json.dumps(game.to_json())
    for move, error in [
        ({"plays": [game.hands[0][0], game.hands[0][1]]}, IllegalAction),  # seat 1 does not hold that card
        ({"plays": [game.hands[0][0], "ZZ"]}, InvalidCard),
        ({"armies": [good, list(game.armies[1])]}, IllegalAction),
    ]:
        with pytest.raises(error):
            game.apply_move(move)
        assert json.dumps(game.to_json()) == before
    game.apply(1, {"type": "play", "card": game.hands[1][0]})
    before = json.dumps(game.to_json())
    with pytest.raises(NotYourTurn):
        game.apply_move({"plays": [game.hands[0][0], game.hands[1][0]]})
    assert json.dumps(game.to_json()) == before


# --- views and piles ----------------------------------------------------------------------------------------
def test_the_view_shows_own_cards_and_only_public_facts_of_the_opponent():
    game = start()
    game.apply(1, {"type": "play", "card": "10S"})
    mine, theirs, spectator = game.view(1), game.view(0), game.view(None)
    assert set(mine) == {"game", "seat", "phase", "round", "max_rounds", "players", "fighting_pile", "army_pile",
                         "fighting_graveyard", "army_graveyard", "outcome", "you"}
    assert "you" not in spectator and spectator["seat"] is None
    assert mine["you"] == {"hand": ["8C", "7D", "3H", "2C"],
                           "armies": [{"army": "KS", "stamina": 3}, {"army": "QS", "stamina": 2},
                                      {"army": "JS", "stamina": 1}],
                           "arranged": True, "chosen": "10S"}
    assert theirs["you"]["chosen"] is None
    assert theirs["players"][1] == {"seat": 1, "front": {"army": "KS", "stamina": 3}, "armies_left": 3,
                                    "hand_size": 4, "chosen": True}
    assert "10S" not in json.dumps(theirs) and "10S" not in json.dumps(spectator)
    assert "QS" not in json.dumps(theirs) and "8C" not in json.dumps(spectator)
    assert (spectator["fighting_pile"], spectator["army_pile"]) == (26, 10)
    with pytest.raises(IllegalAction):
        game.view(2)


def test_draw_piles_are_the_shared_fighting_and_army_piles():
    game = start()
    assert game.draw_piles() == [game.fighting_pile, game.army_pile]
    locations = game.card_locations()
    assert set(locations) == {"army_pile", "army_graveyard", "fighting_pile", "fighting_graveyard", "hand_0",
                              "hand_1", "armies_0", "armies_1", "played_0", "played_1"}
    game.apply(0, {"type": "play", "card": "7H"})
    assert game.card_locations()["played_0"] == ["7H"] and "7H" not in game.card_locations()["hand_0"]


# --- JSON -------------------------------------------------------------------------------------------------
def test_json_round_trip_continues_identically():
    game = start()
    fight(game, "7H", "2C")
    game.apply(1, {"type": "play", "card": "8C"})
    copy_ = Army.from_json(json.loads(json.dumps(game.to_json())))
    assert copy_.to_json() == game.to_json()
    for g in (game, copy_):
        g.apply(0, {"type": "play", "card": "9D"})
    rng = random.Random(3)
    while not game.is_over:
        seat = rng.choice(game.pending_seats())
        action = rng.choice(game.legal_actions(seat))
        assert game.apply(seat, action) == copy_.apply(seat, copy.deepcopy(action))
    assert copy_.to_json() == game.to_json()


def damaged(mutate):
    game = start()
    fight(game, "7H", "2C")
    data = json.loads(json.dumps(game.to_json()))
    mutate(data)
    return data


@pytest.mark.parametrize("mutate", [
    lambda d: d.pop("hands"),
    lambda d: d.update(game="war"),
    lambda d: d.update(rng="nonsense"),
    lambda d: d.update(rng=[3, [1, 2], None]),
    lambda d: d.update(phase="fighting"),
    lambda d: d.update(rules={"max_rounds": -1}),
    lambda d: d.update(seed="x"),
    lambda d: d["hands"][0].__setitem__(0, d["hands"][1][0]),
    lambda d: d["hands"][0].append(d["fighting_pile"].pop()),
    lambda d: d["hands"][0].__setitem__(0, "ZZ"),
    lambda d: d.update(stamina=[3, 4]),
    lambda d: d.update(stamina=[0, 2]),
    lambda d: d.update(arranged=[True, "yes"]),
    lambda d: d.update(played=["7H", None]),
    lambda d: d.update(hands=d["hands"][:1]),
    lambda d: d["armies"][0].__setitem__(0, d["army_pile"].pop(0)) or d["army_pile"].append("2C"),
    lambda d: d.update(stats={"rounds": 1, "wars": 2}),
    lambda d: d.update(stats={"rounds": 301, "wars": 0}),
    lambda d: d.update(outcome={"winner": 5, "reason": "capped"}),
    lambda d: d.update(outcome={"winner": 0, "reason": ""}),
    lambda d: d.update(outcome={"winner": True, "reason": "capped"}),
    lambda d: d.update(outcome="won"),
    lambda d: d.update(phase="arrange"),
    lambda d: d.update(army_graveyard=["JS"], army_pile=[c for c in d["army_pile"] if c != "JS"] + ["XX"]),
])
def test_damaged_json_is_refused(mutate):
    with pytest.raises(InvalidState):
        Army.from_json(damaged(mutate))


def unset_with_both_arranged():
    data = Army.new(seed=1).to_json()
    data["arranged"] = [True, True]
    return data


def both_played():
    game = start()
    data = game.to_json()
    for s in (0, 1):
        data["played"][s] = data["hands"][s].pop(0)
    return data


def last_round_fought_but_not_over():
    game = start(rules={"max_rounds": 2})
    fight(game, "9C", "8C")
    data = game.to_json()
    data["rules"]["max_rounds"] = 1
    return data


@pytest.mark.parametrize("position", [unset_with_both_arranged, both_played, last_round_fought_but_not_over])
def test_positions_that_would_wait_for_ever_are_refused(position):
    """Each of these has no seat to act (or one past the cap) and can never come out of play."""
    with pytest.raises(InvalidState):
        Army.from_json(position())


def test_the_positions_next_to_the_unreachable_ones_load():
    game = Army.new(seed=1)
    game.apply(1, {"type": "arrange", "armies": list(game.armies[1])})  # one seat has set its armies
    assert Army.from_json(game.to_json()).pending_seats() == [0]
    game = start(rules={"max_rounds": 2})
    fight(game, "9C", "8C")
    game.apply(1, {"type": "play", "card": "7D"})  # one card chosen in the last round allowed
    assert Army.from_json(game.to_json()).pending_seats() == [0]
    game.apply(0, {"type": "play", "card": "7H"})
    assert game.is_over and Army.from_json(game.to_json()).to_json() == game.to_json()


def test_damaged_json_that_is_not_a_dict_is_refused():
    for data in (None, [], "army", {"game": "army"}):
        with pytest.raises(InvalidState):
            Army.from_json(data)


@pytest.mark.parametrize("piles", [
    [list(ARMY_CARDS)],
    [list(ARMY_CARDS), list(FIGHTING_CARDS)[1:]],
    [list(FIGHTING_CARDS), list(ARMY_CARDS)],
    [list(ARMY_CARDS), [*list(FIGHTING_CARDS)[1:], FIGHTING_CARDS[1]]],
    [[*list(ARMY_CARDS)[1:], "2C"], list(FIGHTING_CARDS)],
    [list(ARMY_CARDS), [*list(FIGHTING_CARDS)[1:], "ZZ"]],
    "AHKH",
    [list(ARMY_CARDS), "2C"],
])
def test_impossible_starting_piles_are_refused(piles):
    with pytest.raises(InvalidState):
        Army.new(seed=1, piles=piles)


# --- the players' rules text -------------------------------------------------------------------------------
def test_the_rules_text_states_our_choices():
    text = RULES_TEXT.read_text(encoding="utf-8")
    assert text.splitlines()[0] == "# Army"
    assert len(text) < 3500
    for fact in ("max_rounds", "300", "draw", "first player first", "one at a time", "Ace **4**", "King **3**",
                 "Queen **2**", "Jack **1**", "just played", "no armies left"):
        assert fact in text, fact
    assert str(Army.options[0].default) in text
