"""War properties over random rule combinations (2-4 players, the presets) and random seeds: no card created or
lost, determinism, JSON round trips, every game ends, record and fast paths agree, views keep piles secret."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cards import standard_pack
from bot.games.war.engine import Drunkard, TodUndLeben, War

FLIP = {"type": "flip"}
SETTINGS = settings(max_examples=80, deadline=None)


@st.composite
def setups(draw, max_rounds=(1, 600)):
    """(class, rules, seed) for a valid random game."""
    cls = draw(st.sampled_from([War, Drunkard, TodUndLeben]))
    players = 2 if cls is TodUndLeben else draw(st.integers(2, 4))
    rules = {
        "players": players,
        "face_down": draw(st.sampled_from([1, 3, 0, "razboi"])),
        "short": draw(st.sampled_from(["play_out", "lose"])),
        "war_joins": draw(st.sampled_from(["tied", "all"])),
        "return_order": draw(st.sampled_from(["random", "winner_first", "loser_first", "played", "reversed"])),
        "capture_pile": draw(st.booleans()),
        "jokers": draw(st.sampled_from([0, 2])),
        "decks": draw(st.sampled_from([1, 2])),
        "aces": draw(st.sampled_from(["high", "low"])),
        "pack": draw(st.sampled_from([52, 32] if cls is TodUndLeben else [52, 36, 32])),
        "max_rounds": draw(st.integers(*max_rounds)),
    }
    rules["six_beats_ace"] = rules["pack"] != 32 and draw(st.booleans())
    rules["joker_each"] = rules["jokers"] == 2 and (2 * rules["decks"]) % players == 0 and draw(st.booleans())
    seed = draw(st.integers(0, 2**64))
    if draw(st.booleans()):
        piles = cls.new(rules, seed=seed).draw_piles()
        most, total = max(map(len, piles)), sum(map(len, piles))
        rules["target"] = draw(st.integers(most + 1, total))
    return cls, rules, seed


def dealt_pack(rules):
    return Counter(standard_pack(rules["pack"], jokers=rules["jokers"], decks=rules["decks"]))


def everything(game):
    return Counter(card for cards in game.card_locations().values() for card in cards)


def state(game):
    data = game.to_json()
    data.pop("last_events")
    return data


def play_some(game, chooser, rounds):
    """Up to ``rounds`` rounds, each by ``play_round`` or by flips in a random seat order; the events."""
    events = []
    for _ in range(rounds):
        if game.is_over:
            break
        if chooser.random() < 0.5:
            events += game.play_round()
        else:
            seats = game.pending_seats()
            chooser.shuffle(seats)
            for seat in seats:
                events += game.apply(seat, FLIP)
    return events


@SETTINGS
@given(setups())
def test_no_card_is_created_or_lost(setup):
    cls, rules, seed = setup
    game = cls.new(rules, seed=seed)
    pack = dealt_pack(rules)
    assert everything(game) == pack
    chooser = random.Random(seed)
    while not game.is_over:
        seats = game.pending_seats()
        if chooser.random() < 0.3:  # a partly flipped round counts too
            game.apply(chooser.choice(seats), FLIP)
            assert everything(game) == pack
        game.play_round()
        assert everything(game) == pack
    assert game.stats.rounds <= rules["max_rounds"]


@SETTINGS
@given(setups())
def test_the_same_seed_gives_the_same_events(setup):
    cls, rules, seed = setup
    first, second = cls.new(rules, seed=seed), cls.new(rules, seed=seed)
    assert first.play_out() == second.play_out()
    assert first.to_json() == second.to_json()


@SETTINGS
@given(setups(), st.integers(0, 200), st.booleans())
def test_a_json_round_trip_mid_game_has_the_same_future(setup, rounds, half_flipped):
    cls, rules, seed = setup
    game = cls.new(rules, seed=seed)
    play_some(game, random.Random(seed), rounds)
    if half_flipped and not game.is_over:
        game.apply(game.pending_seats()[-1], FLIP)
    copy = cls.from_json(json.loads(json.dumps(game.to_json())))
    assert copy.to_json() == game.to_json()
    assert copy.play_out() == game.play_out()
    assert copy.outcome == game.outcome and copy.to_json() == game.to_json()


@SETTINGS
@given(setups(max_rounds=(1, 2000)))
def test_every_game_ends_within_max_rounds_and_record_does_not_change_the_state(setup):
    cls, rules, seed = setup
    recorded, silent = cls.new(rules, seed=seed), cls.new(rules, seed=seed)
    events = recorded.play_out()
    assert silent.play_out(record=False) == []
    assert recorded.outcome is not None and recorded.stats.rounds <= rules["max_rounds"]
    assert events[-1] == {"type": "game_over", "round": recorded.stats.rounds, **recorded.outcome.to_json()}
    assert state(recorded) == state(silent)
    assert recorded.outcome.reason in (
        "all_cards",
        "last_standing",
        "short_war",
        "target",
        "capped",
        "cycle",
        "all_out",
    )
    if recorded.outcome.reason == "cycle":
        assert rules["return_order"] != "random" and not rules["capture_pile"]


@SETTINGS
@given(setups(max_rounds=(1, 1000)))
def test_the_two_player_fast_path_agrees_with_the_general_round(setup):
    cls, rules, seed = setup
    rules = {**rules, "players": 2, "joker_each": rules["joker_each"] and rules["jokers"] == 2}
    rules.pop("target", None)
    fast = cls.new(rules, seed=seed)
    fast_events = fast.play_out()
    War.fast_path = False
    try:
        general = cls.new(rules, seed=seed)
        general_events = general.play_out()
    finally:
        War.fast_path = True
    assert fast_events == general_events
    assert fast.to_json() == general.to_json()


@SETTINGS
@given(setups(), st.integers(0, 200))
def test_a_view_never_holds_the_order_of_a_face_down_pile(setup, rounds):
    cls, rules, seed = setup
    game = cls.new(rules, seed=seed)
    chooser = random.Random(seed)
    play_some(game, chooser, rounds)
    if not game.is_over and chooser.random() < 0.5:
        game.apply(game.pending_seats()[0], FLIP)
    data = game.to_json()
    for pile in [*data["piles"], *data["captures"], data["aside"]]:
        chooser.shuffle(pile)
    rearranged = cls.from_json(data)
    face_up = set(card for card in game.view(None)["table"] if card)
    for event in game.view(None)["last_events"]:
        if event["type"] in ("battle", "war", "flip"):
            face_up.update(card for card in event.get("cards", [event.get("card")]) if card)
    for seat in [None, *range(game.num_players)]:
        view = game.view(seat)
        assert rearranged.view(seat) == view
        assert set(cards_named(view)) <= face_up


def cards_named(value):
    """Every card string inside a JSON-ready value (rules and event types are not cards)."""
    known = set(standard_pack(52, jokers=2))
    if isinstance(value, str):
        if value in known:
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from cards_named(item)
    elif isinstance(value, list):
        for item in value:
            yield from cards_named(item)
