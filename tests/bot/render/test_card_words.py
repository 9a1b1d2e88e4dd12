"""A card picture holds no words to translate: what is drawn on a card is its index (the bot's card notation, the
same in every language) and pips, so one picture serves readers of every language."""

from __future__ import annotations

import pytest
from PIL import ImageDraw

from bot.cards import rank_of, standard_pack, tarot_pack
from bot.render import card_emoji, cards

EVERY_CARD = sorted(set(standard_pack(jokers=2)) | set(tarot_pack()))


@pytest.fixture
def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string Pillow is asked to draw (cached tiles forgotten first, so each card is drawn again)."""
    texts: list[str] = []
    original = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, xy, text, *args, **kwargs):
        texts.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    cards.card_tile.cache_clear()
    card_emoji.emoji_png.cache_clear()
    yield texts
    cards.card_tile.cache_clear()
    card_emoji.emoji_png.cache_clear()


def index_of(card: str) -> str:
    """The card's index as the bot's notation writes it (a joker's: JK)."""
    return "JK" if card in ("RJ", "BJ") else rank_of(card)


@pytest.mark.parametrize("card", EVERY_CARD)
def test_a_card_picture_draws_only_its_index(card: str, drawn_texts: list[str]):
    cards.card_tile(card)
    joined, index = "".join(drawn_texts), index_of(card)
    assert joined  # (the drawing was seen; "10" may be drawn a digit at a time)
    assert joined == index * (len(joined) // len(index))


def test_no_court_card_or_joker_is_named_in_english(drawn_texts: list[str]):
    cards.card_rows_png([cards.CardRow(EVERY_CARD, "")])
    words = {"JACK", "QUEEN", "KING", "PAGE", "KNIGHT", "JOKER", "TRUMP", "FOOL"}
    assert drawn_texts and not words & {text.upper() for text in drawn_texts}


@pytest.mark.parametrize("card", ["JH", "QS", "KD", "PC", "NH", "RJ", "0T", "21T"])
def test_a_card_emoji_draws_only_its_index(card: str, drawn_texts: list[str]):
    card_emoji.emoji_png(card)
    joined, index = "".join(drawn_texts), index_of(card)
    assert joined and joined == index * (len(joined) // len(index))
