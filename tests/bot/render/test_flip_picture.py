"""An Air War engagement's flip picture keeps one size from its first frame to its last, however many tie-breakers
are added (they overlap within the stack's width), so the message does not jump as the flips are shown."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.cards import tarot_pack
from bot.games.airwar import render
from bot.games.airwar.engine import AirWar

NAMES = ["Zoë Ångström", "山田太郎"]


def size_of(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def order(cards: list[str]) -> dict:
    return {"type": "order", "cards": list(cards)}


def frame_sizes(events: list[dict], engagement: int | None = None) -> set[tuple[int, int]]:
    total = render.flip_count(events, engagement)
    return {size_of(render.flips(events, NAMES, shown, engagement=engagement).picture.png)
            for shown in range(total + 1)}


def test_ties_past_the_stack_keep_the_width():
    pack = tarot_pack()
    game = AirWar.new({"deck": "tarot", "stack": 3}, piles=[pack[:10], pack[:10]])  # every flip ties
    events = list(game.opening_events)
    events += game.apply(0, order(game.view(0)["stacks"][0]))
    events += game.apply(1, order(game.view(1)["stacks"][1]))
    assert render.flip_count(events) == 10  # three from the stacks, seven tie-breakers from the decks
    assert len(frame_sizes(events)) == 1


def test_every_engagement_of_a_game_keeps_one_size_and_all_engagements_share_it():
    game = AirWar.new(seed=21)
    rng = random.Random(21)
    events = list(game.opening_events)
    sizes = set()
    ties = 0
    while not game.is_over:
        for seat in (0, 1):
            cards = list(game.view(seat)["stacks"][seat])
            rng.shuffle(cards)
            events += game.apply(seat, order(cards))
        number = game.view(None)["engagement"] - (0 if game.is_over else 1)
        found = frame_sizes(events, number)
        assert len(found) == 1, f"engagement {number} changed size: {found}"
        sizes |= found
        ties += render.flip_count(events, number) > 5
    assert ties, "the seed should give an engagement with tie-breakers"
    assert len(sizes) == 1
