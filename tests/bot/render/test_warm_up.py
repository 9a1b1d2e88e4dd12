"""What the bot does before it logs in: drawing what card pictures need."""

from __future__ import annotations

from bot.render import cards


def test_the_warm_start_draws_every_standard_card_so_a_board_draws_none():
    cards.warm_up()
    drawn_before = cards.card_tile.cache_info().misses
    cards._cached_png.cache_clear()
    cards.card_rows_png([cards.CardRow(["AS", "10H", None, cards.EMPTY], "Ann", ["win", "lose", "tie", None]),
                         cards.CardRow(["RJ", "2C", "QD", "KS"], "Bob")])
    assert cards.card_tile.cache_info().misses == drawn_before
