"""Hidden information never shows: two games that differ only in one seat's locked order look the same in every
public surface and in the opponent's DM until the first flip where the two orders differ is shown (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.cards import card_label
from bot.games.airwar import render
from bot.games.airwar.engine import AirWar
from bot.render.common import cards_line

NAMES = ["<@101>", "<@202>"]
IMAGE_NAMES = ["Alice", "Bob"]
DEADLINE = 1_800_000_000

RULES = st.fixed_dictionaries({
    "stack": st.integers(3, 7),
    "deck": st.sampled_from(["standard", "jokers", "tarot"]),
    "aces": st.sampled_from(["high", "low"]),
})


def order(cards) -> dict:
    return {"type": "order", "cards": list(cards)}


def advance(game: AirWar, engagements: int, rng: random.Random) -> list[dict]:
    """Play some engagements with random orders; return the events since the current engagement was drawn."""
    events = list(game.opening_events)
    for _ in range(engagements):
        if game.is_over:
            break
        for seat in (0, 1):
            cards = list(game.view(seat)["stacks"][seat])
            rng.shuffle(cards)
            events += game.apply(seat, order(cards))
    return [event for event in events if event["type"] == "engagement"][-1:]


def public_and_opponent(game: AirWar, opponent: int, draft: list[str]) -> list[object]:
    """Everything the secret seat's opponent and the public can see during ordering."""
    return [
        render.board(game.view(None), NAMES, deadline=DEADLINE, image_names=IMAGE_NAMES),
        render.dm_panel(game.view(opponent), NAMES, draft=draft, deadline=DEADLINE, image_names=IMAGE_NAMES),
        render.order_buttons(game.view(opponent), draft),
        render.status(game.view(opponent), NAMES, deadline=DEADLINE, draft=draft),
        render.status(game.view(None), NAMES, deadline=DEADLINE),
    ]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rules=RULES, seed=st.integers(0, 2**20), before=st.integers(0, 3),
       secret=st.sampled_from([0, 1]), secret_first=st.booleans())
def test_a_locked_order_stays_hidden_until_its_cards_are_flipped(data, rules, seed, before, secret, secret_first):
    game_a = AirWar.new(rules, seed)
    start = advance(game_a, before, random.Random(seed))
    assume(not game_a.is_over)
    game_b = AirWar.from_json(game_a.to_json())
    opponent = 1 - secret
    stack = game_a.view(secret)["stacks"][secret]
    order_a = data.draw(st.permutations(stack), label="secret order in game A")
    order_b = data.draw(st.permutations(stack), label="secret order in game B")
    theirs = data.draw(st.permutations(game_a.view(opponent)["stacks"][opponent]), label="opponent's order")
    draft = theirs[: data.draw(st.integers(0, len(theirs)), label="opponent's draft")]

    if secret_first:
        locked_a = game_a.apply(secret, order(order_a))
        locked_b = game_b.apply(secret, order(order_b))
        assert locked_a == locked_b
        assert public_and_opponent(game_a, opponent, draft) == public_and_opponent(game_b, opponent, draft)
        events_a = start + locked_a + game_a.apply(opponent, order(theirs))
        events_b = start + locked_b + game_b.apply(opponent, order(theirs))
    else:
        first = game_a.apply(opponent, order(theirs))
        assert first == game_b.apply(opponent, order(theirs))
        events_a = start + first + game_a.apply(secret, order(order_a))
        events_b = start + first + game_b.apply(secret, order(order_b))

    number = start[0]["number"]
    differ = next((i for i, (a, b) in enumerate(zip(order_a, order_b, strict=True)) if a != b), len(stack))
    for shown in range(differ + 1):  # flips 1..differ show the same cards in both games
        frame_a = render.flips(events_a, NAMES, shown, engagement=number)
        frame_b = render.flips(events_b, NAMES, shown, engagement=number)
        assert frame_a == frame_b, shown
    if differ < len(stack):  # the first differing flip is where they may part, and they do
        frame_a = render.flips(events_a, NAMES, differ + 1, engagement=number)
        frame_b = render.flips(events_b, NAMES, differ + 1, engagement=number)
        assert frame_a.text != frame_b.text


def test_the_opponents_dm_never_names_a_locked_order():
    game = AirWar.new({"stack": 7}, seed=9)
    stack = game.view(0)["stacks"][0]
    secret = list(reversed(stack))
    game.apply(0, order(secret))
    secret_text = cards_line(secret)
    for surface in (render.dm_panel(game.view(1), NAMES, deadline=DEADLINE),
                    render.board(game.view(None), NAMES, deadline=DEADLINE)):
        assert secret_text not in surface.text
        assert cards_line(secret[:2]) not in surface.text  # not even its start
    started = f"1 {card_label(secret[0])} · 2 {card_label(secret[1])}"
    assert started not in render.status(game.view(1), NAMES)
    assert started in render.status(game.view(0), NAMES)  # its owner sees it
