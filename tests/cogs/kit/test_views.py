"""Every view the kit builds for a game's step can be built: random Bundle War games of 2-4 players and Air War games
of 3-4 (every stack size) are played to the end, and at every step each seat's panel and the step's board are
rendered and turned into the kit's views, which Discord's limits (five buttons a row, five rows) must hold. A view
that cannot be built is a match nobody can play on: the players see an error and time out."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.airwar import render as airwar_render
from bot.games.airwar.engine import AirWar
from bot.games.bundlewar import render as bundle_render
from bot.games.bundlewar.engine import BundleWar
from bot.games.bundlewar.flow import BundlePanel, item_of
from bot.render.common import Button
from cogs.airwar.ui import BUTTONS as AIRWAR_BUTTONS
from cogs.bundlewar.ui import BUTTONS as BUNDLE_BUTTONS
from cogs.kit.items import MAX_ROWS, ROW_WIDTH, fit_rows

NAMES = ["<@1>", "<@2>", "<@3>", "<@4>"]


def check_layout(view: discord.ui.View | None, buttons: list[Button]) -> None:
    """The view holds every button, in order, within Discord's rows."""
    if view is None:
        assert not buttons
        return
    items = view.children
    assert [item.custom_id.rsplit(":", 1)[-1] for item in items] == [b.key.rsplit(":", 1)[-1] for b in buttons]
    rows: dict[int, int] = {}
    for item in items:
        assert item.row is not None and 0 <= item.row < MAX_ROWS
        rows[item.row] = rows.get(item.row, 0) + 1
    assert max(rows.values()) <= ROW_WIDTH
    assert [item.row for item in items] == sorted(item.row for item in items)  # the render's order kept


def bundle_views(players: int, seed: int, small: bool) -> int:
    """Plays a random Bundle War game, building every panel's and board's view; returns the widest pick."""
    game = BundleWar.new({"players": players, **({"pack": 32} if small else {})}, seed=seed)
    rng = random.Random(seed)
    widest = 0
    for _ in range(5000):
        if game.is_over:
            break
        for seat in game.pending_seats():
            legal = game.legal_actions(seat)
            panel = BundlePanel(match_id=1, seat=seat, user_id=seat + 1, locked=False, opponent_locked=False,
                                deadline_at=1_800_000_000, finished=False, view=game.view(seat), step=game.step,
                                choices=tuple(item_of(action) for action in legal))
            surface = bundle_render.panel(panel, NAMES[:players])
            check_layout(BUNDLE_BUTTONS.panel_view(1, game.step, surface), surface.buttons)
            widest = max(widest, len(surface.buttons))
        event = {"type": "turn", "step": game.step, "round": 1, "phase": game.phase, "seats": game.pending_seats(),
                 "tops": game.tops(), "counts": game.counts()}
        bundle_render.board(event, NAMES[:players], deadline=1_800_000_000)
        BUNDLE_BUTTONS.board_view(1, game.step, "Choose")
        for seat in game.pending_seats():
            legal = game.legal_actions(seat)
            game.apply(seat, legal[0] if rng.random() < 0.5 else rng.choice(legal))
    assert game.is_over
    return widest


def airwar_views(players: int, stack: int, seed: int) -> None:
    """Plays a random Air War game of three or four, rendering each engagement's board and building every seat's
    panel view at every draft length."""
    game = AirWar.new({"players": players, "stack": stack}, seed=seed)
    rng = random.Random(seed)
    names = NAMES[:players]
    for _ in range(400):
        if game.is_over:
            break
        airwar_render.board(game.view(None), names, deadline=1_800_000_000)
        for seat in game.pending_seats():
            view: Any = game.view(seat)
            order = list(view["stacks"][seat])
            rng.shuffle(order)
            for placed in range(len(order) + 1):
                surface = airwar_render.dm_panel(view, names, draft=order[:placed])
                check_layout(AIRWAR_BUTTONS.panel_view(1, 1, surface), surface.buttons)
            game.apply(seat, {"type": "order", "cards": order})


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), small=st.booleans())
def test_every_bundle_war_view_of_a_random_game_can_be_built(players, seed, small):
    asyncio.run(_in_loop(bundle_views, players, seed, small))


def test_bundle_wars_biggest_pick_offers_one_button_per_rank():
    # seed 8's default game: six face-up cards won after a war (10♠ 10♦ J♠ J♦ Q♠ A♥), four ranks
    assert asyncio.run(_in_loop(bundle_views, 2, 8, False)) >= 4
    # the engine offers one card of each rank (the jokers are one), the first won
    game = BundleWar.new(seed=1)
    game.shown = ["10S", "10D", "JS", "JD", "QS", "AH", "RJ", "BJ"]
    game.phase, game.deciders, game.choices = "top", [0], {}
    choices = tuple(item_of(action) for action in game.legal_actions(0))
    assert choices == ("top:10S", "top:JS", "top:QS", "top:AH", "top:RJ")
    panel = BundlePanel(match_id=1, seat=0, user_id=1, locked=False, opponent_locked=False, deadline_at=None,
                        finished=False, view={"phase": "top"}, step=3, choices=choices)
    assert [b.key for b in bundle_render.panel(panel, NAMES[:2]).buttons] == list(choices)


@settings(max_examples=8, deadline=None)
@given(players=st.integers(3, 4), stack=st.integers(3, 7), seed=st.integers(0, 2**32))
def test_every_air_war_view_of_a_random_game_of_three_or_four_can_be_built(players, stack, seed):
    asyncio.run(_in_loop(airwar_views, players, stack, seed))


@pytest.mark.parametrize(("wanted", "rows"), [
    ([0] * 6, [0] * 5 + [1]),
    ([0, 0, 1, 1, 1], [0, 0, 1, 1, 1]),
    ([0] * 5 + [1] * 5, [0] * 5 + [1] * 5),
    ([0] * 7 + [1, 2], [0] * 5 + [1, 1, 1, 2]),
    ([2, 0], [2, 2]),
])
def test_rows_hold_five_buttons_and_keep_the_order(wanted, rows):
    assert fit_rows(wanted) == rows


def test_more_than_twenty_five_buttons_is_a_renders_bug():
    with pytest.raises(ValueError, match="26 buttons"):
        fit_rows([0] * 26)


async def _in_loop(function: Any, *args: Any) -> Any:
    return function(*args)  # (a discord.py view is made in a running event loop)
