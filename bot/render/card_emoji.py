"""The card emoji set: every card the games use, and a card's back, as the app's own emoji (Discord shows an
application's emoji inline in text and on buttons, wherever the app speaks).

An emoji is shown small (about 22 px in text, 18 on a button), so it is not a card picture scaled down: its rank
fills the top half and its suit the bottom half, in the cards' colours (:mod:`bot.render.cards`), on a white card
that fills the square's height. Each is a 128 x 128 PNG (Discord's emoji size), the same bytes every time.

Names are ``c_<card>`` in card notation (``c_QS``, ``c_10D``, ``c_RJ``, ``c_0T``) and ``c_back``: letters,
digits and underscores, as Discord wants an emoji's name. No Discord here: uploading them is
:mod:`cogs.kit.emoji`'s.
"""

from __future__ import annotations

import io
from functools import cache

from PIL import Image, ImageDraw

from bot.cards import TAROT_TRUMPS, is_joker, is_red, rank_of, standard_pack, suit_of
from bot.render.cards import BLACK, CARD_EDGE, PAPER, PARCHMENT, RED, SUPERSAMPLE, _draw_back, _pip, _text

SIZE = 128  #: Discord's emoji size (it scales down from it)
PREFIX = "c_"
BACK = "back"  #: the name of a card face down in the set (not a card)
#: the tarot's court cards beside the standard ones (page, knight) in each suit
TAROT_COURT = tuple(f"{rank}{suit}" for suit in "CDHS" for rank in ("P", "N"))
#: every card that has an emoji, and the back
CARDS: tuple[str, ...] = (*standard_pack(jokers=2), *TAROT_COURT, *TAROT_TRUMPS, BACK)
#: the emoji's names, in the order of :data:`CARDS`
NAMES: tuple[str, ...] = tuple(PREFIX + card for card in CARDS)


def emoji_name(card: str | None) -> str:
    """The emoji's name of ``card`` (``None``: a card face down)."""
    return PREFIX + (BACK if card is None else card)


def card_of(name: str) -> str | None:
    """The card an emoji's name stands for (``None`` for the back); ``KeyError`` for a name not in the set."""
    card = name.removeprefix(PREFIX)
    if not name.startswith(PREFIX) or card not in CARDS:
        raise KeyError(name)
    return None if card == BACK else card


@cache  # (drawn once a process: a set uploads once, and a test run starts many bots)
def emoji_png(card: str | None) -> bytes:
    """The card's emoji, a 128 x 128 PNG with a transparent background (``None``: a card face down)."""
    k = SUPERSAMPLE
    size = SIZE * k
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    width = round(size * 0.78)
    x0 = (size - width) // 2
    box = (x0, k, x0 + width - 1, size - 1 - k)
    radius = round(0.12 * width)
    if card is None or card == BACK:
        _draw_back(image, draw, box, radius, width)
    else:
        _draw_big_face(draw, card, box, radius)
    out = io.BytesIO()
    image.resize((SIZE, SIZE), Image.Resampling.LANCZOS).save(out, "PNG", optimize=True)
    return out.getvalue()


def _draw_big_face(draw: ImageDraw.ImageDraw, card: str, box: tuple[int, int, int, int], radius: int) -> None:
    x0, y0, x1, y1 = box
    width, height = x1 - x0, y1 - y0
    suit, rank = suit_of(card), rank_of(card)
    ink = RED if is_red(card) else BLACK
    trump = suit == "T" and not is_joker(card)
    draw.rounded_rectangle(box, radius=radius, fill=PARCHMENT if trump else PAPER, outline=CARD_EDGE,
                           width=SUPERSAMPLE * 3)
    cx = (x0 + x1) / 2
    label = "JK" if is_joker(card) else rank
    size = round(height * (0.40 if len(label) > 1 else 0.48))
    _text(draw, (cx, y0 + 0.05 * height), label, size, ink, "mt")
    _pip(draw, "*" if is_joker(card) or trump else suit, cx, y0 + 0.74 * height, 0.42 * width, ink)
