"""Card pictures: labelled rows of cards as one PNG, drawn with Pillow and nothing else.

A card is a string in card notation (see :mod:`bot.cards`): standard cards, jokers ``RJ``/``BJ``, tarot suit
cards (``PH`` page, ``NH`` knight) and trumps ``0T`` (the Fool) to ``21T``. In a row, ``None`` is a card face
down (hidden or unknown) and :data:`EMPTY` is an empty slot (a place still to fill, drawn as an outline).

Text is drawn in the bundled font stack of :mod:`bot.render.fonts` (labels and captions in any script, emoji
included; card faces in Pillow's Aileron), so pictures look the same on every machine. The pips are drawn as
shapes. Card faces are drawn three times larger and scaled down, which smooths the shapes. The same rows always
give the same PNG bytes.

A card's face has no words, only its index -- the rank as the bot's card notation writes it in every language
(``10``, ``J``, ``Q``, ``K``, ``A``; ``P``/``N`` for tarot, ``JK``, a trump's number) -- and pips: a picture is
drawn once for every reader, whatever their language (public boards, kept bytes, the card emoji), so it holds
nothing to translate.

Colours: red suits and the red joker in red, clubs, spades and the black joker in near-black, trumps in black
on a parchment card. Marks frame a card: ``"win"`` gold, ``"tie"`` blue, ``"lose"`` fades it.
"""

from __future__ import annotations

import math
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from isal import isal_zlib
from PIL import Image, ImageChops, ImageDraw

from bot.cards import is_joker, is_red, rank_of, standard_pack, suit_of
from bot.render.fonts import CARD_STACK, draw_text, fit, forget_on_recording, text_length

EMPTY = ""  #: an empty slot in a row (a position not filled yet)
MARKS = ("win", "lose", "tie")

CARD_WIDTH = 100  #: default card width in pixels; cards are 1.4 times as tall
MAX_WIDTH = 1000  #: pictures are never wider than this (rows overlap their cards, then shrink, to fit)

TABLE = (24, 84, 56)  # felt green
LABEL_INK = (246, 246, 240)
CAPTION_INK = (200, 224, 208)
RED = (204, 22, 34)
BLACK = (24, 24, 28)
PAPER = (255, 255, 255)
PARCHMENT = (246, 234, 200)
CARD_EDGE = (150, 150, 150)
BACK = (30, 58, 110)
BACK_LINE = (60, 96, 160)
WIN_FRAME = (255, 196, 30)
TIE_FRAME = (120, 196, 255)

SUPERSAMPLE = 3
MARGIN = 16
PAD = 5  # room around each card for its frame; two pads are the gap between cards
LABEL_SIZE = 20
CAPTION_SIZE = 19
ROW_GAP = 8
LABEL_H = LABEL_SIZE + 10  # a row's label and the room under it
CAPTION_H = CAPTION_SIZE + 8
MIN_STEP = 0.46  # overlapping cards still show this much of their width: the whole corner index

@dataclass(frozen=True)
class CardRow:
    """One row of a picture: its cards, a label above them, a mark and a caption under each card."""

    cards: Sequence[str | None]
    label: str = ""
    marks: Sequence[str | None] = field(default=())  # per card: "win", "lose", "tie" or None
    captions: Sequence[str] = field(default=())  # per card, drawn centred under it


# --- text -------------------------------------------------------------------------------------------


def _clean(text: str, fallback: str = "") -> str:
    """``text`` on one line, runs of spaces closed up; ``fallback`` when nothing is left."""
    return " ".join(text.split()) or fallback


# --- pips -------------------------------------------------------------------------------------------


def _pip(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, s: float, ink: tuple[int, int, int]) -> None:
    """Draw a suit symbol of size ``s`` centred on (cx, cy): ``C D H S``, or ``*`` for a star."""

    def circle(x: float, y: float, r: float) -> None:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=ink)

    if suit == "D":
        draw.polygon([(cx, cy - 0.5 * s), (cx + 0.38 * s, cy), (cx, cy + 0.5 * s), (cx - 0.38 * s, cy)], fill=ink)
    elif suit == "H":
        circle(cx - 0.22 * s, cy - 0.2 * s, 0.25 * s)
        circle(cx + 0.22 * s, cy - 0.2 * s, 0.25 * s)
        draw.polygon([(cx - 0.465 * s, cy - 0.12 * s), (cx + 0.465 * s, cy - 0.12 * s), (cx, cy + 0.44 * s)],
                     fill=ink)
    elif suit == "S":
        circle(cx - 0.22 * s, cy + 0.08 * s, 0.25 * s)
        circle(cx + 0.22 * s, cy + 0.08 * s, 0.25 * s)
        draw.polygon([(cx - 0.465 * s, cy + 0.0 * s), (cx + 0.465 * s, cy + 0.0 * s), (cx, cy - 0.5 * s)], fill=ink)
        draw.polygon([(cx, cy + 0.1 * s), (cx - 0.16 * s, cy + 0.5 * s), (cx + 0.16 * s, cy + 0.5 * s)], fill=ink)
    elif suit == "C":
        circle(cx, cy - 0.25 * s, 0.21 * s)
        circle(cx - 0.24 * s, cy + 0.09 * s, 0.21 * s)
        circle(cx + 0.24 * s, cy + 0.09 * s, 0.21 * s)
        circle(cx, cy + 0.02 * s, 0.13 * s)
        draw.polygon([(cx, cy + 0.02 * s), (cx - 0.16 * s, cy + 0.5 * s), (cx + 0.16 * s, cy + 0.5 * s)], fill=ink)
    else:  # a five-pointed star
        points = []
        for i in range(10):
            radius = 0.5 * s if i % 2 == 0 else 0.2 * s
            angle = -math.pi / 2 + i * math.pi / 5
            points.append((cx + radius * math.cos(angle), cy + 0.04 * s + radius * math.sin(angle)))
        draw.polygon(points, fill=ink)


# --- one card -----------------------------------------------------------------------------------------


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, ink: tuple[int, int, int],
          anchor: str) -> None:
    stroke = max(1, size // 22)  # bold
    if len(text) == 2 and text.isdigit():  # "10" .. "21": close the digits up so the index stays narrow
        tight = -0.08 * size
        widths = [text_length(ch, size, CARD_STACK) for ch in text]
        total = sum(widths) + tight
        x = xy[0] - total / 2 if anchor[0] == "m" else xy[0]
        for ch, width in zip(text, widths, strict=True):
            draw_text(draw, (x, xy[1]), ch, size=size, fill=ink, anchor="l" + anchor[1], stack=CARD_STACK,
                      stroke_width=stroke)
            x += width + tight
        return
    draw_text(draw, xy, text, size=size, fill=ink, anchor=anchor, stack=CARD_STACK, stroke_width=stroke)


@lru_cache(maxsize=512)
def card_tile(card: str | None, width: int = CARD_WIDTH, mark: str | None = None) -> Image.Image:
    """One card with room for its frame around it: an RGBA image ``width + 2*PAD`` wide (treat as read-only)."""
    if mark is not None and mark not in MARKS:
        raise ValueError(f"a card mark is one of {', '.join(MARKS)}, not {mark!r}")
    k = SUPERSAMPLE
    w, h, pad = width * k, round(width * 1.4) * k, PAD * k
    tile = Image.new("RGBA", (w + 2 * pad, h + 2 * pad), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    box = (pad, pad, pad + w - 1, pad + h - 1)
    radius = round(0.08 * w)
    if mark in ("win", "tie"):
        frame = WIN_FRAME if mark == "win" else TIE_FRAME
        draw.rounded_rectangle((0, 0, w + 2 * pad - 1, h + 2 * pad - 1), radius=radius + pad, fill=frame)
    if card is None:
        _draw_back(tile, draw, box, radius, w)
    elif card == EMPTY:
        draw.rounded_rectangle(box, radius=radius, outline=(*CAPTION_INK, 150), width=2 * k)
    else:
        _draw_face(draw, card, box, radius, w, h)
    if mark == "lose":
        fade = Image.new("RGBA", tile.size, (*TABLE, 0))
        ImageDraw.Draw(fade).rounded_rectangle(box, radius=radius, fill=(*TABLE, 120))
        tile = Image.alpha_composite(tile, fade)
    return tile.resize((tile.width // k, tile.height // k), Image.Resampling.LANCZOS)


def _draw_back(tile: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], radius: int,
               w: int) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=radius, fill=PAPER, outline=CARD_EDGE, width=3)
    inset = round(0.07 * w)
    inner = (x0 + inset, y0 + inset, x1 - inset, y1 - inset)
    draw.rounded_rectangle(inner, radius=max(1, radius - inset // 2), fill=BACK)
    # a diamond lattice, clipped to the inner panel by drawing it on its own layer
    ix0, iy0, ix1, iy1 = inner
    layer = Image.new("L", (ix1 - ix0 + 1, iy1 - iy0 + 1), 0)
    lattice = ImageDraw.Draw(layer)
    step = round(0.16 * w)
    span = layer.width + layer.height
    for offset in range(-span, span, step):
        lattice.line((offset, 0, offset + layer.height, layer.height), fill=255, width=max(2, w // 60))
        lattice.line((offset, layer.height, offset + layer.height, 0), fill=255, width=max(2, w // 60))
    mask = Image.new("L", layer.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, layer.width - 1, layer.height - 1),
                                           radius=max(1, radius - inset // 2), fill=255)
    layer = Image.composite(layer, Image.new("L", layer.size, 0), mask)
    tile.paste(Image.new("RGBA", layer.size, (*BACK_LINE, 255)), (ix0, iy0), layer)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = 0.2 * w
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BACK, outline=PAPER, width=max(2, w // 50))
    _pip(draw, "*", cx, cy, 0.26 * w, PAPER)


def _draw_face(draw: ImageDraw.ImageDraw, card: str, box: tuple[int, int, int, int], radius: int,
               w: int, h: int) -> None:
    x0, y0, _x1, _y1 = box
    suit, rank = suit_of(card), rank_of(card)
    ink = RED if is_red(card) else BLACK
    trump = suit == "T" and not is_joker(card)
    draw.rounded_rectangle(box, radius=radius, fill=PARCHMENT if trump else PAPER, outline=CARD_EDGE, width=3)
    index_x = x0 + 0.22 * w
    rank_size = round(0.36 * w)
    if is_joker(card):
        _pip(draw, "*", index_x, y0 + 0.14 * h, 0.3 * w, ink)
        _text(draw, (index_x, y0 + 0.27 * h), "JK", round(0.2 * w), ink, "mt")
        _pip(draw, "*", x0 + 0.56 * w, y0 + 0.66 * h, 0.62 * w, ink)
        return
    if trump:
        _text(draw, (index_x, y0 + 0.05 * h), rank, rank_size, ink, "mt")
        _pip(draw, "*", index_x, y0 + 0.39 * h, 0.2 * w, ink)
        if rank == "0":
            _pip(draw, "*", x0 + 0.6 * w, y0 + 0.66 * h, 0.5 * w, ink)
        else:
            _text(draw, (x0 + 0.6 * w, y0 + 0.66 * h), rank, round(0.5 * w), ink, "mm")
        return
    _text(draw, (index_x, y0 + 0.05 * h), rank, rank_size, ink, "mt")
    _pip(draw, suit, index_x, y0 + 0.39 * h, 0.22 * w, ink)
    _pip(draw, suit, x0 + 0.6 * w, y0 + 0.66 * h, 0.5 * w, ink)


# --- rows --------------------------------------------------------------------------------------------


def _layout(count: int, width: int, max_width: int) -> tuple[int, int]:
    """(card width, step between cards) so ``count`` cards fit in ``max_width``."""
    avail = max_width - 2 * MARGIN
    tile = width + 2 * PAD
    if count <= 1 or count * tile <= avail:
        return width, tile
    step = (avail - tile) // (count - 1)
    if step >= MIN_STEP * width:
        return width, step
    # even overlapped they do not fit: shrink the cards
    width = int((avail - 2 * PAD) / (1 + MIN_STEP * (count - 1)))
    width = max(width, 24)
    tile = width + 2 * PAD
    return width, max(1, (avail - tile) // (count - 1))


def card_rows_png(rows: Sequence[CardRow], *, card_width: int = CARD_WIDTH, max_width: int = MAX_WIDTH,
                  min_cards: int = 0, width_cards: int = 0) -> bytes:
    """A PNG of the rows, one under the other, columns lined up across rows.

    Each row has an optional label above its cards and optional captions under them (a row given captions,
    even all blank, keeps room for them). ``min_cards`` keeps the picture at least that many cards wide (so
    pictures of one game keep their size); ``width_cards`` makes it exactly that many cards wide, whatever the
    rows hold (a picture that gains cards, such as an engagement's flips, keeps its width). Rows with more cards
    than fit in ``max_width`` (or ``width_cards``) overlap their cards (each still shows its corner) or, if need
    be, draw them smaller.
    The same rows give the same bytes, so recent pictures are kept and not drawn again (a board whose text
    changed, a panel back where it was, a result posted twice).
    """
    key = tuple((tuple(row.cards), row.label, tuple(row.marks), tuple(row.captions)) for row in rows)
    return _cached_png(key, card_width, max_width, min_cards, width_cards)


# (200 matches at once keep about 2,000 pictures in use: a board's stacks while its players lock in, each seat's
# panel while it is edited; fewer, and a picture is drawn again before its match needs it the next time)
@lru_cache(maxsize=2048)
def _cached_png(rows: tuple[tuple[tuple[str | None, ...], str, tuple[str | None, ...], tuple[str, ...]], ...],
                card_width: int, max_width: int, min_cards: int, width_cards: int) -> bytes:
    card_rows = [CardRow(*row) for row in rows]
    layout = _Layout.of(card_rows, card_width, max_width, min_cards, width_cards)
    if layout.overlapping:
        image = Image.new("RGB", layout.size, TABLE)
        _paint(card_rows, layout, _Canvas(image))
        return _png(image)
    # cards side by side: every piece (card, label, caption) lies on the bare table, so the picture is put
    # together from pieces kept already in the palette, as the whole picture would be mapped to it
    paletted = Image.new("P", layout.size, _table_index())
    paletted.putpalette(_palette().getpalette())
    _paint(card_rows, layout, _PalettedCanvas(paletted))
    return _encoded(paletted)


forget_on_recording(_cached_png.cache_clear)


@dataclass(frozen=True)
class _Layout:
    """Where a picture's rows go: card width, step between cards, sizes."""

    width: int
    step: int
    card_width: int
    width_cards: int
    image_w: int
    shapes: tuple[tuple[bool, bool], ...]  # per row: has a label, has captions

    @classmethod
    def of(cls, rows: Sequence[CardRow], card_width: int, max_width: int, min_cards: int,
           width_cards: int) -> _Layout:
        if not rows:
            raise ValueError("a card picture needs at least one row")
        for row in rows:
            if row.marks and len(row.marks) != len(row.cards):
                raise ValueError("a row needs one mark (or None) per card")
            if row.captions and len(row.captions) != len(row.cards):
                raise ValueError("a row needs one caption (or '') per card")
        count = max([len(row.cards) for row in rows] + [min_cards, width_cards, 1])
        if width_cards:
            max_width = min(max_width, 2 * MARGIN + width_cards * (card_width + 2 * PAD))
        width, step = _layout(count, card_width, max_width)
        tile_w = width + 2 * PAD
        image_w = max(max_width if width_cards else 2 * MARGIN + tile_w + step * (count - 1), 320)
        shapes = tuple((bool(row.label), bool(row.captions)) for row in rows)
        return cls(width, step, card_width, width_cards, image_w, shapes)

    @property
    def heights(self) -> list[int]:
        return [(LABEL_H if label else 0) + self.slot_h + (CAPTION_H if captions else 0)
                for label, captions in self.shapes]

    @property
    def tile_w(self) -> int:
        return self.width + 2 * PAD

    @property
    def tile_h(self) -> int:
        return round(self.width * 1.4) + 2 * PAD

    @property
    def slot_h(self) -> int:
        # a picture of fixed width keeps its height too: cards shrunk to fit stay centred in a full-height slot
        return round(self.card_width * 1.4) + 2 * PAD if self.width_cards else self.tile_h

    @property
    def overlapping(self) -> bool:
        return self.step < self.tile_w

    @property
    def size(self) -> tuple[int, int]:
        return self.image_w, 2 * MARGIN + sum(self.heights) + ROW_GAP * (len(self.heights) - 1)


class _Canvas:
    """Draws a picture's pieces on an RGB image."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)

    def text(self, xy: tuple[float, float], text: str, size: int, ink: tuple[int, int, int], anchor: str) -> None:
        draw_text(self.draw, xy, text, size=size, fill=ink, anchor=anchor)

    def card(self, xy: tuple[int, int], card: str | None, width: int, mark: str | None) -> None:
        tile = card_tile(card, width, mark)
        self.image.paste(tile, xy, tile)


class _PalettedCanvas:
    """Puts a picture together on a palette image from pieces drawn once on the table and mapped to the palette:
    the same pixels as drawing on RGB and mapping the whole picture, for pieces that do not overlap."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image

    def text(self, xy: tuple[float, float], text: str, size: int, ink: tuple[int, int, int], anchor: str) -> None:
        x, y = math.floor(xy[0]), math.floor(xy[1])
        piece = _text_piece(text, size, ink, anchor, xy[0] - x, xy[1] - y)
        if piece is not None:
            _paste(self.image, piece, x, y)

    def card(self, xy: tuple[int, int], card: str | None, width: int, mark: str | None) -> None:
        _paste(self.image, _paletted_tile(card, width, mark), *xy)


def _paint(rows: Sequence[CardRow], layout: _Layout, canvas: _Canvas | _PalettedCanvas) -> None:
    width, step, tile_w, tile_h, slot_h = layout.width, layout.step, layout.tile_w, layout.tile_h, layout.slot_h
    image_w = layout.image_w
    y = MARGIN
    for row, row_h in zip(rows, layout.heights, strict=True):
        top = y
        if row.label:
            text = fit(_clean(row.label, "?"), LABEL_SIZE, image_w - 2 * MARGIN - PAD)
            canvas.text((MARGIN + PAD, y + 2), text, LABEL_SIZE, LABEL_INK, "la")
            y += LABEL_H
        for i, card in enumerate(row.cards):
            mark = row.marks[i] if row.marks else None
            canvas.card((MARGIN + i * step, y + (slot_h - tile_h) // 2), card, width, mark)
        y += slot_h
        if row.captions:
            last_right = -1.0  # crowded captions (overlapping cards) are skipped rather than drawn over each other
            for i, caption in enumerate(row.captions):
                text = _clean(caption)
                if text_length(text, CAPTION_SIZE) > max(step, tile_w) - 4:
                    text = text.split(" ")[0]  # crowded: the first word ("12" of "12 deck tie") only
                text = fit(text, CAPTION_SIZE, tile_w + 8)
                if not text:
                    continue
                centre = MARGIN + i * step + tile_w / 2
                half = text_length(text, CAPTION_SIZE) / 2
                if centre - half < last_right + 6:
                    continue
                canvas.text((centre, y + 2), text, CAPTION_SIZE, CAPTION_INK, "mt")
                last_right = centre + half
        y = top + row_h + ROW_GAP


def card_rows_image(rows: Sequence[CardRow], *, card_width: int = CARD_WIDTH, max_width: int = MAX_WIDTH,
                    min_cards: int = 0, width_cards: int = 0) -> Image.Image:
    """The picture :func:`card_rows_png` encodes, as an RGB Pillow image (drawn whole, before its colours are
    mapped to the palette)."""
    layout = _Layout.of(rows, card_width, max_width, min_cards, width_cards)
    image = Image.new("RGB", layout.size, TABLE)
    _paint(rows, layout, _Canvas(image))
    return image


# The kept pieces are bytes, not images: the bot's process keeps thousands of them, and a Pillow image is several
# objects the garbage collector walks at every full collection (bytes are none).
Piece = tuple[bytes, int, int, int, int]  #: palette indices, width, height, and where it goes from its point


def _piece(paletted: Image.Image, dx: int = 0, dy: int = 0) -> Piece:
    return paletted.tobytes(), paletted.width, paletted.height, dx, dy


def _paste(image: Image.Image, piece: Piece, x: int, y: int) -> None:
    data, width, height, dx, dy = piece
    image.paste(Image.frombytes("P", (width, height), data), (x + dx, y + dy))


@lru_cache(maxsize=1024)
def _paletted_tile(card: str | None, width: int, mark: str | None) -> Piece:
    tile = card_tile(card, width, mark)
    on_table = Image.new("RGB", tile.size, TABLE)
    on_table.paste(tile, (0, 0), tile)
    return _piece(_in_palette(on_table))


@lru_cache(maxsize=4096)
def _text_piece(text: str, size: int, ink: tuple[int, int, int], anchor: str, x_fraction: float,
                y_fraction: float) -> Piece | None:
    """``text`` drawn on the table and mapped to the palette, cut to its ink (placed from the whole-pixel part of
    the point the text is drawn at); ``None`` when it draws nothing. Drawn at the same fraction of a pixel as in
    the picture, so it has the very pixels drawing there would give."""
    margin = 3 * size
    length = math.ceil(text_length(text, size))
    room = (length + 2 * margin, 2 * margin + size)
    # a whole number of pixels from the picture's point, so the text falls on the same fractions of pixels
    shift = (margin + {"l": 0, "m": (length + 1) // 2, "r": length}[anchor[0]], margin)
    strip = Image.new("RGB", room, TABLE)
    draw_text(ImageDraw.Draw(strip), (shift[0] + x_fraction, shift[1] + y_fraction), text, size=size, fill=ink,
              anchor=anchor)
    inked = ImageChops.difference(strip, Image.new("RGB", room, TABLE)).getbbox()
    if inked is None:
        return None
    return _piece(_in_palette(strip.crop(inked)), inked[0] - shift[0], inked[1] - shift[1])


forget_on_recording(_text_piece.cache_clear)


def card_row_png(cards: Sequence[str | None], *, label: str = "", marks: Sequence[str | None] = (),
                 captions: Sequence[str] = (), card_width: int = CARD_WIDTH) -> bytes:
    """A PNG of one row of cards (``None`` face down, :data:`EMPTY` an empty slot)."""
    return card_rows_png([CardRow(cards, label, marks, captions)], card_width=card_width)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The 256 colours every picture is drawn in: those of a sample of every kind of card, mark, label and
    caption. One fixed palette maps a picture in a tenth of the time choosing colours for each picture takes
    (a few ms less per picture), and looks the same."""
    faces = ["AS", "KH", "QD", "JC", "10S", "2H", "9D", "7C", "RJ", "BJ", "0T", "21T", "PH", "NC", "5S"]
    sample = [
        CardRow(faces[:8], "Your stack (as drawn) - Player 1 0123456789", ["win", "tie", "lose", None] * 2,
                ["1", "2 deck tie", "3", "4", "5", "6", "7", "8"]),
        CardRow([*faces[8:], None, EMPTY], "Another label", ["lose", None, "win", None, "tie", None, None, "lose",
                                                              None], [str(i) for i in range(9)]),
        CardRow(faces * 2, "overlapping cards"),
        CardRow([None, EMPTY, "AS", "AH"], "faded", ["lose"] * 4),
    ]
    inks = [TABLE, LABEL_INK, CAPTION_INK, RED, BLACK, PAPER, PARCHMENT, CARD_EDGE, BACK, BACK_LINE, WIN_FRAME,
            TIE_FRAME]  # exact, so the large areas of one colour keep it
    chosen = card_rows_image(sample, max_width=2000).quantize(colors=256 - len(inks),
                                                              method=Image.Quantize.FASTOCTREE,
                                                              dither=Image.Dither.NONE)
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for ink in inks for channel in ink] + chosen.getpalette()[:3 * (256 - len(inks))])
    return palette


def _in_palette(image: Image.Image) -> Image.Image:
    """An RGB image mapped to the fixed 256-colour :func:`_palette` (no dithering: each pixel to its nearest)."""
    return image.quantize(palette=_palette(), dither=Image.Dither.NONE)


@lru_cache(maxsize=1)
def _table_index() -> int:
    return _in_palette(Image.new("RGB", (1, 1), TABLE)).getpixel((0, 0))  # type: ignore[return-value]


def warm_up() -> None:
    """Make what card pictures need before the first is asked for on the event loop: the palette (drawn from a
    sample of cards) and every standard card, face down and empty, with each mark (together about half a second
    the first time; one card drawn at the first need takes a couple of ms of the loop)."""
    _table_index()
    for card in [*standard_pack(jokers=2), None, EMPTY]:
        for mark in (None, *MARKS):
            _paletted_tile(card, CARD_WIDTH, mark)


def _png(image: Image.Image) -> bytes:
    """PNG bytes of an RGB image in the fixed 256-colour :func:`_palette` (so the same every time)."""
    return _encoded(_in_palette(image))


def _encoded(paletted: Image.Image) -> bytes:
    """A palette image as PNG bytes, compressed with ISA-L's deflate (several times faster than zlib's for the
    same size: compressing is most of a card picture's cost)."""
    width, height = paletted.size
    framed = Image.new("P", (width + 1, height), 0)
    framed.paste(paletted, (1, 0))  # each scanline starts with its filter type, 0 (none): a column of zeros
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette indices
    return b"".join((PNG_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", bytes(paletted.getpalette() or ())),
                     _chunk(b"IDAT", isal_zlib.compress(framed.tobytes(), 2)), _chunk(b"IEND", b"")))


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
