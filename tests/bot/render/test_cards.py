"""Card pictures: valid PNGs of the expected size, deterministic, red and black where they should be."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.cards import standard_pack, tarot_pack
from bot.render import cards as pictures
from bot.render import fonts
from bot.render.cards import EMPTY, CardRow, card_row_png, card_rows_png, card_tile


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGB")


def near(pixel: tuple[int, int, int], colour: tuple[int, int, int], tolerance: int = 40) -> bool:
    return sum(abs(a - b) for a, b in zip(pixel, colour, strict=True)) <= tolerance


def pixels_near(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 40) -> int:
    colours = image.getcolors(maxcolors=1 << 20) or []
    return sum(n for n, pixel in colours if near(pixel, colour, tolerance))


def test_one_row_is_a_png_of_the_expected_size():
    image = open_png(card_row_png(["AS", "10H", "QD", "KC", "2S"]))
    tile_w = pictures.CARD_WIDTH + 2 * pictures.PAD
    tile_h = round(pictures.CARD_WIDTH * 1.4) + 2 * pictures.PAD
    assert image.size == (2 * pictures.MARGIN + 5 * tile_w, 2 * pictures.MARGIN + tile_h)


def test_two_labelled_rows_with_captions_are_taller_and_line_up():
    one = open_png(card_row_png(["AS", "KH"]))
    two = open_png(card_rows_png([CardRow(["AS", "KH"], "Alice", captions=["1", "2"]), CardRow(["QS", "QH"], "Bob")]))
    assert two.width == one.width
    assert two.height > 2 * one.height - 2 * pictures.MARGIN


def test_same_rows_give_the_same_bytes_even_with_cold_caches():
    rows = [CardRow(["AS", None, EMPTY, "RJ"], "Zoë", ["win", "lose", None, "tie"], ["1", "2", "", "4 tie"])]
    first = card_rows_png(rows)
    card_tile.cache_clear()
    pictures._cached_png.cache_clear()
    pictures._paletted_tile.cache_clear()
    pictures._text_piece.cache_clear()
    fonts._face.cache_clear()
    fonts._runs.cache_clear()
    fonts._text_length.cache_clear()
    assert card_rows_png(rows) == first


@pytest.mark.parametrize("rows", [
    [CardRow(["AS", "KH", "10D", None, None], "Alice", ["win", "lose", "tie", None, None], ["1", "2", "3 tie", "", ""]),
     CardRow(["2S", "QH", "10C", None, None], "Bob", ["lose", "win", "tie", None, None])],
    [CardRow(["AS", None, EMPTY, "RJ"], "Zoë 中文 😀 Ωμέγα", ["win", "lose", None, "tie"], ["1", "2", "", "4 tie"])],
    [CardRow(["21T", "0T", "PH", "NC"], "x" * 300, captions=["ß", "12 deck tie", "Ж", "👍"])],
    [CardRow(standard_pack()[:20], "overlapping", captions=[str(i) for i in range(20)])],
])
@pytest.mark.parametrize("size", [{}, {"width_cards": 7}, {"min_cards": 5}])
def test_a_picture_put_together_from_pieces_is_the_picture_drawn_whole(rows, size):
    """Cards side by side are pasted from pieces already in the palette; the bytes are those of drawing the whole
    picture and mapping it to the palette (and overlapping cards are drawn whole)."""
    assert card_rows_png(rows, **size) == pictures._png(pictures.card_rows_image(rows, **size))


def test_red_cards_have_red_ink_and_black_cards_none():
    hearts = open_png(card_row_png(["AH"]))
    spades = open_png(card_row_png(["AS"]))
    assert pixels_near(hearts, pictures.RED) > 300
    assert pixels_near(spades, pictures.RED) == 0
    assert pixels_near(spades, pictures.BLACK) > 300
    assert pixels_near(open_png(card_row_png(["RJ"])), pictures.RED) > 300
    assert pixels_near(open_png(card_row_png(["BJ"])), pictures.RED) == 0
    assert pixels_near(open_png(card_row_png(["21T"])), pictures.RED) == 0


def test_red_and_black_in_the_right_row():
    image = open_png(card_rows_png([CardRow(["KH", "QD"], "red"), CardRow(["KS", "QC"], "black")]))
    top = image.crop((0, 0, image.width, image.height // 2))
    bottom = image.crop((0, image.height // 2, image.width, image.height))
    assert pixels_near(top, pictures.RED) > 500
    assert pixels_near(bottom, pictures.RED) == 0
    assert pixels_near(bottom, pictures.BLACK) > 500


def test_the_suits_are_drawn_as_different_shapes():
    faces = {suit: card_tile("7" + suit).tobytes() for suit in "CDHS"}
    assert len(set(faces.values())) == 4


def test_a_face_down_card_differs_from_every_face():
    back = open_png(card_row_png([None]))
    assert pixels_near(back, pictures.BACK, 20) > 2000
    for card in ("AS", "AH", "RJ", "0T", "PH"):
        assert card_row_png([card]) != card_row_png([None])
        assert pixels_near(open_png(card_row_png([card])), pictures.BACK, 20) == 0


def test_an_empty_slot_is_neither_a_card_nor_a_back():
    assert len({card_row_png([EMPTY]), card_row_png([None]), card_row_png(["AS"])}) == 3


def test_marks_change_the_picture():
    plain = card_row_png(["AS"])
    assert len({plain, *(card_row_png(["AS"], marks=[mark]) for mark in pictures.MARKS)}) == 4
    assert pixels_near(open_png(card_row_png(["AS"], marks=["win"])), pictures.WIN_FRAME) > 200
    assert pixels_near(open_png(card_row_png(["AS"], marks=["tie"])), pictures.TIE_FRAME) > 200


@pytest.mark.parametrize("card", sorted(set(standard_pack(jokers=2)) | set(tarot_pack())))
def test_every_card_renders(card):
    tile = card_tile(card)
    assert tile.size == (pictures.CARD_WIDTH + 2 * pictures.PAD, round(pictures.CARD_WIDTH * 1.4) + 2 * pictures.PAD)
    assert tile.getbbox() is not None


def test_every_card_is_its_own_picture():
    pack = sorted(set(standard_pack(jokers=2)) | set(tarot_pack()))
    assert len({card_tile(card).tobytes() for card in pack}) == len(pack)


def test_a_whole_pack_stays_within_the_width_and_small():
    data = card_rows_png([CardRow(tarot_pack(), "tarot"), CardRow(standard_pack(jokers=2), "jokers")])
    image = open_png(data)
    assert image.width <= pictures.MAX_WIDTH
    assert len(data) < 60_000


def test_the_largest_flip_picture_is_small_enough():
    rows = [CardRow(["21T", "20T", "KH", "NS", "PD", "10C", "0T", "AS", "9H"], "A" * 40,
                    ["win", "lose", "tie", "tie", "win", "lose", "win", "tie", "win"], [str(i) for i in range(9)]),
            CardRow(["19T", "21T", "KD", "NC", "QD", "PC", "4T", "AH", "8H"], "B" * 40)]
    data = card_rows_png(rows)
    image = open_png(data)
    assert image.width <= pictures.MAX_WIDTH
    assert len(data) < 60_000


def test_bad_rows_are_refused():
    with pytest.raises(ValueError):
        card_rows_png([])
    with pytest.raises(ValueError):
        card_rows_png([CardRow(["AS", "KS"], marks=["win"])])
    with pytest.raises(ValueError):
        card_rows_png([CardRow(["AS"], captions=["1", "2"])])
    with pytest.raises(ValueError):
        card_row_png(["AS"], marks=["bold"])


def test_a_label_in_any_script_is_drawn_whole_and_a_long_one_is_cut():
    with fonts.recording() as drawn:
        card_row_png(["AS"], label="中文 Zoë 😀", captions=["ß"])
    assert {"中文 Zoë 😀", "ß"} <= {text.text for text in drawn}
    with fonts.recording() as drawn:
        long_label = open_png(card_row_png(["AS"], label="x" * 500))
    assert long_label.width == 320  # the label is cut, the picture does not grow
    label = next(text.text for text in drawn if text.text.startswith("x"))
    assert label.endswith("…") and 10 < len(label) < 500


def test_width_cards_keeps_the_picture_one_size_as_cards_are_added():
    sizes = {open_png(card_rows_png([CardRow(["AS"] * count, "Ann", captions=[""] * count),
                                     CardRow(["KH"] * count, "Bob")], width_cards=5)).size
             for count in range(1, 12)}
    assert len(sizes) == 1
    assert sizes == {open_png(card_rows_png([CardRow([None] * 5, "Ann", captions=[""] * 5),
                                             CardRow([None] * 5, "Bob")])).size}
