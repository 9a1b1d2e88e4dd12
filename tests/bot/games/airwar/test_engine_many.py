"""Air War for three or four players, from the rule text ("a card game involving two (or more?) players, each with
their own deck of cards"; "The higher card wins ... The winning card is placed face down at the bottom of the
winner's deck and the losing card is discarded"; "In the case of a tie the next card is drawn from the stack and
compared"; "If a player has no more cards to draw then they lose the game"; "The game is over when a player is unable
to draw a complete stack") and the choices written in ``bot/games/airwar/rules/airwar.md``."""

from __future__ import annotations

import json
import random

import pytest

from bot.errors import IllegalAction, NotYourTurn
from bot.games.airwar.engine import AirWar
from tests.bot.games.airwar.test_engine import all_cards, cards, of_type, order


def play(game: AirWar, *orders: str | None) -> list[dict]:
    events = []
    for seat, text in enumerate(orders):
        if text is not None:
            events += game.apply(seat, order(text))
    return events


#: three decks of 7: a stack of 5 and two cards to draw (stack 5)
A = cards("AS 9S 5S 4S 3S 2C 3C")
B = cards("KH 9H 6H 4H 2H 5C 6C")
C = cards("QD 9D 7D 4D 2D 7C 8C")


def test_the_highest_of_three_keeps_its_card_and_the_others_discard_theirs():
    game = AirWar.new(piles=[A, B, C])
    assert game.num_players == 3 and game.rules["players"] == 3
    events = play(game, "AS 9S 5S 4S 3S", "KH 9H 6H 4H 2H", "QD 9D 7D 4D 2D")
    first = of_type(events, "flip")[0]
    assert first["cards"] == ["AS", "KH", "QD"] and first["winner"] == 0 and first["result"] == "win"
    fight = of_type(events, "fight")[0]
    assert fight["winner"] == 0 and fight["kept"] == ["AS"] and fight["losers"] == [1, 2]
    assert fight["discarded"] == [[], ["KH"], ["QD"]]
    assert game.discards[1][-1] == "KH" and game.discards[2][-1] == "QD"


def test_a_tie_for_highest_goes_on_among_the_tied_only():
    """9 9 9 is a three-way tie; 5 6 7: seat 2 wins the fight, keeps 9 7; then 4 4 4 ties again and 3 2 2 ends it."""
    game = AirWar.new(piles=[A, B, C])
    events = play(game, "9S 5S AS 4S 3S", "9H 6H KH 4H 2H", "9D 7D QD 4D 2D")
    flips = of_type(events, "flip")
    assert flips[0]["result"] == "tie" and flips[0]["tied"] == [0, 1, 2]
    assert flips[1]["cards"] == ["5S", "6H", "7D"] and flips[1]["winner"] == 2
    fights = of_type(events, "fight")
    assert fights[0]["kept"] == ["9D", "7D"] and fights[0]["discarded"] == [["9S", "5S"], ["9H", "6H"], []]


def test_a_player_not_tied_for_highest_loses_at_once_and_sits_out_the_tie_break():
    """K K 9: seat 2 loses the fight at once (its 9 discarded) and does not flip while seats 0 and 1 break the tie."""
    a, b, c = cards("KS QS 2S 3S 4S 5C 6C"), cards("KH JH 2H 3H 4H 5D 6D"), cards("9D 8D 7D 6D 5D 4C 3C")
    game = AirWar.new(piles=[a, b, c])
    events = play(game, "KS QS 2S 3S 4S", "KH JH 2H 3H 4H", "9D 8D 7D 6D 5D")
    flips = of_type(events, "flip")
    assert flips[0]["tied"] == [0, 1]
    assert flips[1]["cards"] == ["QS", "JH", None] and flips[1]["winner"] == 0
    first = of_type(events, "fight")[0]
    assert first["winner"] == 0 and first["kept"] == ["KS", "QS"]
    assert first["discarded"] == [[], ["KH", "JH"], ["9D"]] and first["losers"] == [2, 1]
    # seat 2 has a stack card more than the others when the tie-breakers used theirs up: nobody can fight it, so it
    # goes back under its deck, unopposed
    unopposed = of_type(events, "unopposed")
    assert unopposed == [{**unopposed[0], "seat": 2, "cards": ["5D"]}]
    assert game.decks[2][-1:] == ["5D"]
    assert sum(all_cards(game).values()) == 21


def test_a_tied_player_without_a_tie_breaker_is_out_and_the_other_tied_player_takes_the_fight():
    """The rule text: "If a player has no more cards to draw then they lose the game" -- with three, that player is
    out, and the only tied player left keeps his cards without another flip."""
    a, b, c = cards("2S 3S 4S 5S AS"), cards("2H 3H 4H 5H AH 9H"), cards("2D 3D 4D 5D KD 9D")
    game = AirWar.new(piles=[a, b, c])
    events = play(game, "2S 3S 4S 5S AS", "2H 3H 4H 5H AH", "2D 3D 4D 5D KD")
    outs = of_type(events, "out")
    assert outs[0]["seat"] == 0 and outs[0]["reason"] == "out_of_cards"
    last_fight = of_type(events, "fight")[-1]
    assert last_fight["winner"] == 1 and last_fight["kept"] == cards("2H 3H 4H 5H AH")
    assert last_fight["discarded"][0] == cards("2S 3S 4S 5S AS")
    assert last_fight["discarded"][2] == cards("2D 3D 4D 5D KD")  # not tied for highest at the A A K flip
    # seat 2 is left with one card: it cannot field the next stack, and seat 1 is the last one standing
    assert game.out_order == [0, 2] and game.outcome is not None and game.outcome.winner == 1


def test_a_player_who_cannot_field_a_stack_is_out_and_the_others_play_on():
    a = cards("2S 3S 4S 5S 6S")  # no card after the stack: out at the next engagement whatever happens
    b = cards("AH KH QH JH 10H 9H 8H 7H 6H 5H")
    c = cards("KD QD JD 10D 9D 8D 7D 6D 5D 4D")
    game = AirWar.new(piles=[a, b, c])
    events = play(game, "2S 3S 4S 5S 6S", "AH KH QH JH 10H", "KD QD JD 10D 9D")
    out = of_type(events, "out")
    assert [(e["seat"], e["reason"]) for e in out] == [(0, "short_stack")]
    assert not game.is_over and game.view(None)["in_game"] == [False, True, True]
    assert game.stacks[0] == [] and len(game.stacks[1]) == 5
    with pytest.raises(NotYourTurn):
        game.apply(0, order("2S 3S 4S 5S 6S"))
    assert of_type(events, "engagement")[-1]["in_game"] == [False, True, True]


def test_the_last_one_standing_wins():
    a = cards("2S 3S 4S 5S 6S")
    b = cards("2H 3H 4H 5H 6H")
    c = cards("AD KD QD JD 10D 9D 8D 7D 6D 5D")
    game = AirWar.new(piles=[a, b, c])
    events = play(game, "2S 3S 4S 5S 6S", "2H 3H 4H 5H 6H", "AD KD QD JD 10D")
    assert game.outcome is not None and game.outcome.winner == 2 and game.outcome.reason == "short_stack"
    assert of_type(events, "game_over")[0]["winner"] == 2
    assert game.view(None)["out_order"] == [0, 1]


def test_nobody_able_to_field_a_stack_the_most_cards_win_and_equal_most_draw():
    # nobody is left with five: seat 1 keeps three, seat 0 two, seat 2 none
    a = cards("AS 2S 3S 4S 5S")
    b = cards("2H AH AC 3H 7H")
    c = cards("3D 3C 2D 2C 6D")
    game = AirWar.new(piles=[a, b, c])
    play(game, "AS 2S 3S 4S 5S", "2H AH AC 3H 7H", "3D 3C 2D 2C 6D")
    assert [len(deck) for deck in game.decks] == [2, 3, 0] and game.outcome.winner == 1
    assert game.outcome is not None and game.outcome.reason == "most_cards"
    counts = [len(deck) for deck in game.decks]
    assert counts[game.outcome.winner] == max(counts) and counts.count(max(counts)) == 1
    even = AirWar.new(piles=[cards("AS 2S 3S 4S 5S"), cards("AH 2H 3H 4H 5H"), cards("AD 2D 3D 4D 5D")])
    play(even, "AS 2S 3S 4S 5S", "AH 2H 3H 4H 5H", "AD 2D 3D 4D 5D")
    assert even.outcome is not None and even.outcome.winner is None  # every flip a three-way tie: all discarded


def test_a_forfeit_puts_one_seat_out_and_the_others_play_on():
    game = AirWar.new({"players": 4}, seed=7)
    game.apply(0, {"type": "order", "cards": game.stacks[0]})
    game.apply(2, {"type": "order", "cards": game.stacks[2]})
    game.apply(3, {"type": "order", "cards": game.stacks[3]})
    stack = list(game.stacks[1])
    events = game.forfeit(1)
    assert of_type(events, "out")[0] == {"type": "out", "engagement": 1, "seat": 1, "reason": "forfeit",
                                         "deck_count": 47}
    assert of_type(events, "flip"), "the others had locked in: the engagement is played at once"
    assert game.engagement == 2 and game.pending_seats() == [0, 2, 3]
    assert sorted(stack) == sorted(game.discards[1])
    with pytest.raises(NotYourTurn):
        game.forfeit(1)
    game.forfeit(0)
    events = game.forfeit(3)
    assert game.outcome is not None and (game.outcome.winner, game.outcome.reason) == (2, "forfeit")
    assert of_type(events, "game_over")[0]["winner"] == 2


@pytest.mark.parametrize("players", [3, 4])
def test_a_whole_game_replays_from_its_moves_and_survives_json(players):
    chooser = random.Random(players)
    game = AirWar.new({"players": players}, seed=11)
    moves, pending = [], {}
    while not game.is_over:
        seat = chooser.choice(game.pending_seats())
        action = chooser.choice(game.legal_actions(seat))
        step = game.engagement
        pending[seat] = action["cards"]
        game.apply(seat, action)
        if game.engagement != step or game.is_over:
            moves.append({"orders": [pending.get(s) for s in range(players)]})
            pending = {}
        game = AirWar.from_json(json.loads(json.dumps(game.to_json())))
    again = AirWar.new({"players": players}, seed=11)
    for move in moves:
        again.apply_move(move)
    assert again.outcome == game.outcome and again.to_json() == game.to_json()


def test_a_move_must_leave_a_seat_that_is_out_null():
    game = AirWar.new({"players": 3}, seed=2)
    game.forfeit(2)
    stacks = [list(stack) for stack in game.stacks]
    with pytest.raises(IllegalAction, match="out of the game"):
        game.apply_move({"orders": [stacks[0], stacks[1], ["AS"]]})
    game.apply_move({"orders": [stacks[0], stacks[1], None]})
    assert game.engagement == 2 or game.is_over


def test_no_view_holds_another_seats_locked_order():
    game = AirWar.new({"players": 4}, seed=3)
    chooser = random.Random(3)
    while not game.is_over:
        for seat in (None, 0, 1, 2, 3):
            view = game.view(seat)
            assert view["my_order"] == (None if seat is None else game.orders[seat])
            assert "orders" not in view
        assert sum(all_cards(game).values()) == 4 * 52
        seat = chooser.choice(game.pending_seats())
        game.apply(seat, chooser.choice(game.legal_actions(seat)))
