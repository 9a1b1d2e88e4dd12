"""Air War properties over random rules, seeds, starting piles and play orders (hypothesis)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cards import strength_table
from bot.games.airwar.engine import AirWar, pack_for

RULES = st.fixed_dictionaries({
    "aces": st.sampled_from(["high", "low"]),
    "stack": st.integers(3, 7),
    "deck": st.sampled_from(["standard", "jokers", "tarot"]),
})
SEEDS = st.integers(0, 2**32 - 1)
FAST = settings(max_examples=100, deadline=None)


def engagement_limit(game: AirWar) -> int:
    """Every completed engagement discards at least a stack's worth of cards, so this many always suffice."""
    total = sum(len(pile) for pile in game.card_locations().values())
    return total // game.stack_size + 1


def random_orders(game: AirWar, rng: random.Random) -> list[list[str]]:
    orders = []
    for stack in game.stacks:
        shuffled = list(stack)
        rng.shuffle(shuffled)
        orders.append(shuffled)
    return orders


def play_engagement(game: AirWar, rng: random.Random) -> list[dict]:
    """One engagement with random orders, sent either as one move or as two actions in a random order."""
    orders = random_orders(game, rng)
    if rng.random() < 0.5:
        return game.apply_move({"orders": orders})
    first = rng.randrange(2)
    events = game.apply(first, {"type": "order", "cards": orders[first]})
    return events + game.apply(1 - first, {"type": "order", "cards": orders[1 - first]})


def play_to_end(game: AirWar, rng: random.Random) -> list[dict]:
    events: list[dict] = []
    for _ in range(engagement_limit(game)):
        if game.is_over:
            break
        events += play_engagement(game, rng)
    assert game.is_over
    return events


def cards_in_play(game: AirWar) -> Counter:
    return Counter(card for pile in game.card_locations().values() for card in pile)


class PublicDecks:
    """Each deck as a spectator can know it from the events alone: top first, ``None`` for a card never shown.

    Every card a deck gives up is shown (in a stack or a deck flip) and every card it takes back is shown (a
    fight's ``kept``), and a deck holds each card at most once, so a card shown once is known wherever it goes.
    """

    def __init__(self, game: AirWar) -> None:
        opening = game.opening_events[0]
        assert opening["type"] == "engagement"
        self.decks: list[list[str | None]] = [[None] * (n + game.stack_size) for n in opening["deck_counts"]]
        self.seen: list[set[str]] = [set(), set()]
        self.see(game.opening_events)

    def draw(self, seat: int, card: str) -> None:
        top = self.decks[seat].pop(0)
        if top is None:
            assert card not in self.seen[seat], f"{card} came from seat {seat}'s unseen top but was shown before"
        else:
            assert card == top, f"seat {seat} drew {card} where everyone saw {top} go"
        self.seen[seat].add(card)

    def see(self, events: list[dict]) -> None:
        for event in events:
            if event["type"] == "engagement":
                for seat in (0, 1):
                    for card in event["stacks"][seat]:
                        self.draw(seat, card)
            elif event["type"] == "flip":
                for seat in (0, 1):
                    if event["sources"][seat] == "deck":
                        self.draw(seat, event["cards"][seat])
            elif event["type"] == "fight":
                self.decks[event["winner"]].extend(event["kept"])
            if "deck_counts" in event:
                assert [len(deck) for deck in self.decks] == event["deck_counts"], event

    def check(self, game: AirWar) -> None:
        """The views show exactly the known bottom; the real deck agrees; its hidden top holds no shown card."""
        for seat in (0, 1):
            deck = self.decks[seat]
            hidden = deck.count(None)
            assert deck[:hidden] == [None] * hidden  # unseen cards only ever lie on top
            known = deck[hidden:]
            for viewer in (None, 0, 1):
                assert game.view(viewer)["deck_bottoms"][seat] == {"unknown_above": hidden, "cards": known}
            real = game.draw_piles()[seat]
            assert real[hidden:] == known
            assert not set(real[:hidden]) & self.seen[seat]


@st.composite
def games(draw) -> AirWar:
    """A new game: shuffled full decks, or explicit piles taken from the chosen deck."""
    rules = draw(RULES)
    seed = draw(SEEDS)
    if not draw(st.booleans()):
        return AirWar.new(rules, seed)
    pack = pack_for(rules["deck"])
    piles = []
    for _seat in range(2):
        size = draw(st.integers(rules["stack"], len(pack)))
        piles.append(draw(st.permutations(pack))[:size])
    return AirWar.new(rules, seed, piles=piles)


@FAST
@given(game=games(), order_seed=SEEDS)
def test_no_card_created_or_lost_and_every_game_ends(game, order_seed):
    rng = random.Random(order_seed)
    start = cards_in_play(game)
    size = game.stack_size
    strength = strength_table(aces_high=game.rules["aces"] == "high", tarot=game.rules["deck"] == "tarot")
    limit = engagement_limit(game)
    completed = 0
    public = PublicDecks(game)
    public.check(game)
    while not game.is_over:
        discarded_before = sum(len(pile) for pile in game.discards)
        events = play_engagement(game, rng)
        assert cards_in_play(game) == start
        for event in events:
            assert json.loads(json.dumps(event)) == event
            if event["type"] == "flip":
                first, second = (strength[card] for card in event["cards"])
                if first == second:
                    assert event["result"] == "tie" and event["winner"] is None
                else:
                    assert event["winner"] == (0 if first > second else 1)
        if any(e["type"] == "engagement_end" for e in events):
            completed += 1
            assert sum(len(pile) for pile in game.discards) >= discarded_before + size
        assert game.stats.rounds == completed
        public.see(events)
        public.check(game)
        assert completed <= limit
    assert game.outcome is not None and game.outcome.reason in ("short_stack", "out_of_cards")
    if game.outcome.reason == "short_stack":
        short = [seat for seat in (0, 1) if len(game.draw_piles()[seat]) < size]
        assert short and game.outcome.winner == (None if len(short) == 2 else 1 - short[0])


@FAST
@given(rules=RULES, seed=SEEDS, order_seed=SEEDS)
def test_the_full_decks_hold_every_card(rules, seed, order_seed):
    game = AirWar.new(rules, seed)
    assert cards_in_play(game) == Counter(pack_for(rules["deck"]) * 2)
    play_to_end(game, random.Random(order_seed))
    assert cards_in_play(game) == Counter(pack_for(rules["deck"]) * 2)


@FAST
@given(rules=RULES, seed=SEEDS, order_seed=SEEDS)
def test_same_seed_and_orders_same_events(rules, seed, order_seed):
    first, second = AirWar.new(rules, seed), AirWar.new(rules, seed)
    assert first.opening_events == second.opening_events
    assert play_to_end(first, random.Random(order_seed)) == play_to_end(second, random.Random(order_seed))
    assert first.to_json() == second.to_json()
    assert first.outcome == second.outcome


@FAST
@given(game=games(), order_seed=SEEDS, before=st.integers(0, 30), half_locked=st.booleans())
def test_json_round_trip_mid_game_gives_the_same_future(game, order_seed, before, half_locked):
    rng = random.Random(order_seed)
    for _ in range(before):
        if game.is_over:
            break
        play_engagement(game, rng)
    if half_locked and not game.is_over:
        game.apply(1, {"type": "order", "cards": random_orders(game, rng)[1]})
    saved = json.loads(json.dumps(game.to_json()))
    restored = AirWar.from_json(saved)
    assert restored.to_json() == game.to_json()
    assert restored.view(0) == game.view(0) and restored.view(None) == game.view(None)
    future_seed = rng.randrange(2**32)

    def future(g: AirWar) -> list[dict]:
        r = random.Random(future_seed)
        events = []
        if not g.is_over and g.orders[1] is not None:
            events += g.apply(0, {"type": "order", "cards": random_orders(g, r)[0]})
        return events + (play_to_end(g, r) if not g.is_over else [])

    assert future(restored) == future(game)
    assert restored.outcome == game.outcome
    assert restored.to_json() == game.to_json()


@FAST
@given(game=games(), order_seed=SEEDS, before=st.integers(0, 10), seat=st.sampled_from([0, 1]))
def test_an_order_stays_secret_until_its_cards_are_flipped(game, order_seed, before, seat):
    """Lock two different orders for one seat in two copies of a game: nothing the other seat or a spectator
    sees may differ; when both engagements are then played, the events may first differ at a flip."""
    rng = random.Random(order_seed)
    for _ in range(before):
        if game.is_over:
            return
        play_engagement(game, rng)
    if game.is_over:
        return
    size = game.stack_size
    stack = list(game.stacks[seat])
    public = json.dumps([list(s) for s in game.stacks])
    shared = rng.randrange(size - 1)  # the two orders agree on their first `shared` cards only
    order_a = list(stack)
    rng.shuffle(order_a)
    order_b = order_a[:shared] + order_a[shared:][::-1]
    twin = AirWar.from_json(game.to_json())
    seen_before = json.dumps([game.view(1 - seat), game.view(None)])
    locked_a = game.apply(seat, {"type": "order", "cards": order_a})
    locked_b = twin.apply(seat, {"type": "order", "cards": order_b})
    assert locked_a == locked_b
    other = 1 - seat
    assert game.view(other) == twin.view(other)
    assert game.view(None) == twin.view(None)
    assert game.view(seat)["my_order"] == order_a and twin.view(seat)["my_order"] == order_b
    text = json.dumps([game.view(other), game.view(None), locked_a])
    if order_a != stack:  # (an earlier engagement may have played the same cards in the same order, in public)
        assert text.count(json.dumps(order_a)) == seen_before.count(json.dumps(order_a))

    reply = list(game.stacks[other])
    rng.shuffle(reply)
    events_a = game.apply(other, {"type": "order", "cards": reply})
    events_b = twin.apply(other, {"type": "order", "cards": reply})
    flips_a = [i for i, e in enumerate(events_a) if e["type"] == "flip"]
    flips_b = [i for i, e in enumerate(events_b) if e["type"] == "flip"]
    # the first `shared` flips show the same cards; everything before the next flip must be identical
    cut = flips_a[shared] if shared < len(flips_a) else len(events_a)
    assert flips_b[:shared + 1] == flips_a[:shared + 1]
    assert events_a[:cut] == events_b[:cut]
    for events, played in ((events_a, order_a), (events_b, order_b)):
        stack_flips = [e["cards"][seat] for e in events if e["type"] == "flip" and e["sources"][seat] == "stack"]
        assert stack_flips == played
        # no event lists the cards still face down in their secret order (unless that is the public order)
        flips_seen = 0
        for event in events:
            if event["type"] == "flip":
                flips_seen += 1
            hidden = json.dumps(played[flips_seen:])
            if flips_seen < size - 1 and hidden not in public:
                assert hidden not in json.dumps(_cards_of_seat(event, seat))


def _cards_of_seat(event: dict, seat: int) -> dict:
    """The event without the other seat's cards: each player has a deck of their own, so the opponent may
    well play or discard the same cards in the same order without revealing anything."""
    other = 1 - seat
    mine = dict(event)
    for key in ("cards", "sources", "stacks"):
        if isinstance(mine.get(key), list) and len(mine[key]) == 2:
            mine[key] = [value if index == seat else None for index, value in enumerate(mine[key])]
    if mine.get("winner") == other:
        mine.pop("kept", None)
    if mine.get("loser") == other:
        mine.pop("discarded", None)
    return mine


@FAST
@given(game=games())
def test_legal_actions_are_the_permutations_of_the_stack(game):
    size = game.stack_size
    if size <= 5:  # 6 and 7 are checked in test_airwar.py; 5,040 orders each are too slow to repeat here
        actions = game.legal_actions(0)
        expected = {3: 6, 4: 24, 5: 120}[size]
        assert len(actions) == expected
        assert len({tuple(a["cards"]) for a in actions}) == expected
        assert all(Counter(a["cards"]) == Counter(game.stacks[0]) for a in actions)
    assert game.pending_seats() == [0, 1]
    game.apply(0, {"type": "order", "cards": list(game.stacks[0])})
    assert game.legal_actions(0) == [] and game.pending_seats() == [1]
