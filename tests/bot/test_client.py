"""What the bot's process does once, when its first bot starts."""

from __future__ import annotations

import gc

from bot import client
from bot.render import cards


def test_the_objects_alive_when_the_first_bot_started_are_frozen_once():
    client._freeze_what_lasts()  # (what setup_hook does; a bot of an earlier test may have done it already)
    frozen = gc.get_freeze_count()
    assert frozen > 0
    made_later = [[index] for index in range(1000)]
    client._freeze_what_lasts()
    assert gc.get_freeze_count() == frozen  # the objects made later are still collected as usual
    assert made_later


def test_the_warm_start_draws_every_standard_card_so_a_board_draws_none():
    cards.warm_up()
    drawn_before = cards.card_tile.cache_info().misses
    cards._cached_png.cache_clear()
    cards.card_rows_png([cards.CardRow(["AS", "10H", None, cards.EMPTY], "Ann", ["win", "lose", "tie", None]),
                         cards.CardRow(["RJ", "2C", "QD", "KS"], "Bob")])
    assert cards.card_tile.cache_info().misses == drawn_before
