"""The card emoji set: every card the games use and a back, each named as Discord wants an emoji's name and drawn as
a 128 x 128 PNG within Discord's size limit, the same bytes every time; names map back to their cards."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.cards import TAROT_TRUMPS, standard_pack
from bot.render.card_emoji import CARDS, NAMES, card_of, emoji_name, emoji_png


def test_every_card_of_the_games_has_one_emoji_and_so_has_the_back():
    assert set(standard_pack(jokers=2)) | set(TAROT_TRUMPS) <= set(CARDS)
    assert len(set(NAMES)) == len(NAMES) == len(CARDS) == 85
    assert all(re.fullmatch(r"[A-Za-z0-9_]{2,32}", name) for name in NAMES)
    assert [card_of(name) for name in NAMES][:2] == [CARDS[0], CARDS[1]]
    assert card_of("c_back") is None and emoji_name(None) == "c_back" and emoji_name("10D") == "c_10D"
    with pytest.raises(KeyError):
        card_of("c_1X")


@pytest.mark.parametrize("card", ["QS", "10D", "RJ", "21T", "NH", None])
def test_an_emoji_is_a_square_png_under_discords_limit_the_same_every_time(card):
    data = emoji_png(card)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (128, 128) and image.mode == "RGBA"
    assert len(data) < 256 * 1024
    assert image.getpixel((0, 64))[3] == 0  # a transparent background beside the card
    emoji_png.cache_clear()
    assert emoji_png(card) == data


def test_red_and_black_cards_are_drawn_in_their_colours():
    def reddest(card: str) -> int:
        data = Image.open(io.BytesIO(emoji_png(card))).convert("RGB").tobytes()
        pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
        return sum(1 for r, g, b in pixels if r > 150 and g < 80 and b < 80)

    assert reddest("QH") > 500 and reddest("QS") == 0
