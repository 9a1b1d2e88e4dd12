"""Army properties over random seeds and random legal choices: cards kept, determinism, JSON, ending, secrecy."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cards import standard_pack
from bot.games.army.engine import Army, full_stamina

PACK = Counter(standard_pack(52))
seeds = st.integers(min_value=0, max_value=2**32 - 1)
caps = st.integers(min_value=1, max_value=60)


def step(game, chooser, passive=False):
    """One random legal action by a random seat that has something to decide; return (seat, action, events).
    A ``passive`` seat plays a black (defence) card whenever it holds one."""
    seat = chooser.choice(game.pending_seats())
    actions = game.legal_actions(seat)
    if passive:
        actions = [a for a in actions if a.get("card", "C")[-1] in "CS"] or actions
    action = chooser.choice(actions)
    return seat, action, game.apply(seat, action)


def play(game, chooser, check=None, limit=None, passive=False):
    """Random legal play to the end (or ``limit`` actions); ``check(game, events)`` after every action."""
    events = []
    count = 0
    while not game.is_over and (limit is None or count < limit):
        _, _, new = step(game, chooser, passive)
        events += new
        count += 1
        if check:
            check(game, new)
    return events


def strings(value):
    """Every string inside a JSON-ready value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def hidden_from(game, seat):
    """Cards ``seat`` (None: a spectator) must not see: others' hands, chosen cards, unrevealed armies, piles."""
    secret = set(game.fighting_pile) | set(game.army_pile)
    for other in range(2):
        if other == seat:
            continue
        secret |= set(game.hands[other])
        secret |= {game.played[other]} - {None}
        armies = game.armies[other]
        secret |= set(armies if game.phase == "arrange" else armies[1:])
    return secret


@settings(max_examples=100, deadline=None)
@given(seed=seeds, choices=seeds)
def test_no_card_is_created_or_lost(seed, choices):
    def check(game, _events):
        places = game.card_locations()
        assert Counter(card for cards in places.values() for card in cards) == PACK
        assert all(len(game.hands[s]) + (game.played[s] is not None) <= 5 for s in range(2))

    game = Army.new(seed=seed)
    check(game, [])
    play(game, random.Random(choices), check)


@settings(max_examples=50, deadline=None)
@given(seed=seeds, choices=seeds)
def test_same_seed_and_choices_give_the_same_events(seed, choices):
    first, second = Army.new(seed=seed), Army.new(seed=seed)
    assert play(first, random.Random(choices)) == play(second, random.Random(choices))
    assert first.to_json() == second.to_json()
    assert first.outcome == second.outcome


@settings(max_examples=80, deadline=None)
@given(seed=seeds, choices=seeds, cut=st.integers(min_value=0, max_value=80), cap=caps)
def test_json_round_trip_mid_game_gives_an_identical_future(seed, choices, cut, cap):
    game = Army.new({"max_rounds": cap}, seed=seed)
    chooser = random.Random(choices)
    play(game, chooser, limit=cut)
    restored = Army.from_json(json.loads(json.dumps(game.to_json())))
    assert restored.to_json() == game.to_json()
    twin_chooser = random.Random()
    twin_chooser.setstate(chooser.getstate())
    assert play(game, chooser) == play(restored, twin_chooser)
    assert restored.to_json() == game.to_json()
    assert restored.stats == game.stats and restored.outcome == game.outcome


@settings(max_examples=100, deadline=None)
@given(seed=seeds, choices=seeds, cap=st.one_of(caps, st.just(300)), passive=st.booleans())
def test_every_game_ends(seed, choices, cap, passive):
    game = Army.new({"max_rounds": cap}, seed=seed)
    events = play(game, random.Random(choices), limit=2 * (cap + 1), passive=passive)
    assert game.is_over and game.pending_seats() == []
    assert game.stats.rounds <= cap and game.stats.wars <= game.stats.rounds
    last = events[-1]
    assert last["type"] == "game_over" and last["reason"] in ("no_armies", "capped")
    assert last["armies_left"] == [len(line) for line in game.armies]
    if last["reason"] == "no_armies":
        winner = last["winner"]
        assert last["armies_left"][winner] > 0 and last["armies_left"][1 - winner] == 0
        assert last["front"][1 - winner] is None
        assert last["front"][winner] == {"army": game.armies[winner][0], "stamina": game.stamina[winner]}
        assert "stamina" not in last and "armies" not in last  # the winner's hidden armies stay hidden
    else:
        assert game.stats.rounds == cap
        totals = last["stamina"]
        assert totals == [sum(army["stamina"] for army in line) for line in last["armies"]]
        assert [[army["army"] for army in line] for line in last["armies"]] == game.armies
        assert last["winner"] == (None if totals[0] == totals[1] else totals.index(max(totals)))
    assert len([e for e in events if e["type"] == "reveal"]) == game.stats.rounds
    fallen = [e for e in events if e["type"] == "army_fallen"]
    assert len(fallen) == len(game.army_graveyard)


@settings(max_examples=100, deadline=None)
@given(seed=seeds, choices=seeds)
def test_views_and_events_never_show_hidden_cards(seed, choices):
    def check(game, events):
        json.dumps(events)
        # The two cards a reveal shows are public from then on, even if a reshuffle puts them back in the pile.
        revealed = {card for event in events if event["type"] == "reveal" for card in event["cards"]}
        assert not set(strings(events)) & (hidden_from(game, None) - revealed), events
        for seat in (None, 0, 1):
            view = game.view(seat)
            json.dumps(view)
            assert not set(strings(view)) & hidden_from(game, seat), (seat, view)
        for seat in (0, 1):
            assert game.view(seat)["you"]["hand"] == game.hands[seat]
            assert game.view(seat)["you"]["chosen"] == game.played[seat]

    game = Army.new(seed=seed)
    check(game, [])
    play(game, random.Random(choices), check)


def hidden_twin(game, seat, keep, chooser):
    """A copy of ``game`` (still in the arrange phase) in which ``seat``'s armies other than ``keep`` are swapped
    for unused army-pile cards of another SP each and another SP in total; returns (twin, swap)."""
    data = game.to_json()
    hidden = [card for card in data["armies"][seat] if card != keep]
    total = sum(full_stamina(card) for card in hidden)
    choices = [spares for spares in itertools.permutations(data["army_pile"], len(hidden))
               if sum(full_stamina(card) for card in spares) != total
               and all(full_stamina(a) != full_stamina(b) for a, b in zip(hidden, spares, strict=True))]
    spares = chooser.choice(choices)
    swap = dict(zip(hidden, spares, strict=True)) | dict(zip(spares, hidden, strict=True))
    data["armies"][seat] = [swap.get(card, card) for card in data["armies"][seat]]
    data["army_pile"] = [swap.get(card, card) for card in data["army_pile"]]
    data["stamina"][seat] = full_stamina(data["armies"][seat][0])
    return Army.from_json(data), swap


def public(game, seat):
    """Everything the other seat and a spectator see of ``game`` when ``seat``'s secrets are hidden from them."""
    return json.dumps([game.view(None), game.view(1 - seat)], sort_keys=True)


@settings(max_examples=100, deadline=None)
@given(seed=seeds, choices=seeds, seat=st.sampled_from([0, 1]), cap=st.one_of(caps, st.just(300)))
def test_hidden_armies_change_nothing_public_until_they_are_revealed(seed, choices, seat, cap):
    """Two games that differ only in the armies ``seat`` keeps hidden behind its front army (other cards, other SP,
    another total) must look the same to the other seat and to spectators, event for event and view for view,
    including a forfeit at any moment and the end when the other seat runs out of armies, until one of those
    armies comes face up (an army of ``seat`` falls) or the round cap reveals them all."""
    chooser = random.Random(choices)
    game = Army.new({"max_rounds": cap}, seed=seed)
    order = list(game.armies[seat])
    chooser.shuffle(order)
    twin, swap = hidden_twin(game, seat, order[0], chooser)
    twin_order = [swap.get(card, card) for card in order]
    while True:
        assert public(game, seat) == public(twin, seat)
        if game.is_over:
            return
        quitter = chooser.randrange(2)
        gave_up = [Army.from_json(g.to_json()).forfeit(quitter) for g in (game, twin)]
        assert gave_up[0] == gave_up[1]
        actor = chooser.choice(game.pending_seats())
        if game.phase == "arrange" and actor == seat:
            actions = [{"type": "arrange", "armies": order}, {"type": "arrange", "armies": twin_order}]
        else:
            action = chooser.choice(game.legal_actions(actor))
            actions = [action, action]
        events, twin_events = game.apply(actor, actions[0]), twin.apply(actor, actions[1])
        reveal = next((i for i, e in enumerate(events) if (e["type"] == "army_fallen" and e["seat"] == seat)
                       or (e["type"] == "game_over" and e["reason"] == "capped")), None)
        if reveal is not None:
            assert events[:reveal] == twin_events[:reveal]
            if events[reveal]["type"] == "game_over":  # the cap shows every army left, so the count can be checked
                for g, e in ((game, events[reveal]), (twin, twin_events[reveal])):
                    assert e["armies"] == [[{"army": army, "stamina": g.stamina[s] if i == 0 else full_stamina(army)}
                                            for i, army in enumerate(g.armies[s])] for s in (0, 1)]
                    assert e["stamina"] == [sum(a["stamina"] for a in line) for line in e["armies"]]
            return
        assert events == twin_events


@settings(max_examples=50, deadline=None)
@given(seed=seeds, choices=seeds)
def test_match_file_moves_replay_a_live_game(seed, choices):
    live = Army.new(seed=seed)
    chooser = random.Random(choices)
    live_events = []
    moves = []
    pending = {}
    while not live.is_over:
        seat, action, events = step(live, chooser)
        live_events += events
        pending[seat] = action["armies"] if action["type"] == "arrange" else action["card"]
        if len(pending) == 2:
            moves.append({"armies" if action["type"] == "arrange" else "plays": [pending[0], pending[1]]})
            pending = {}
    replay = Army.new(seed=seed)
    replay_events = [event for move in moves for event in replay.apply_move(move)]
    assert replay.to_json() == live.to_json()
    assert [e for e in replay_events if e["type"] != "chosen"] == [e for e in live_events if e["type"] != "chosen"]
