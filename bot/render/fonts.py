"""The fonts every picture draws its text in, and the one place text is split among them: :func:`runs`.

The stack, in order; each character is drawn by the first font whose character map has it:

1. DejaVu Sans (DejaVu Sans Bold for bold text), shipped inside matplotlib: Latin with its accents, Greek,
   Cyrillic, Armenian, Georgian, Hebrew, Arabic, punctuation (``— … ·``) and many symbols;
2. WenQuanYi Micro Hei (``data/fonts/``): Chinese, Japanese kana, Korean hangul;
3. Noto Emoji (``data/fonts/``): emoji, in the text's colour (a colour font here would be drawn in its own colours).

An emoji (a character from U+1F000 on, or one followed by U+FE0F, the request to show it as emoji) goes to the
first emoji font that has it. Characters that draw nothing by themselves (joiners, variation selectors, combining
marks) go with the character before them when its font has them, and are otherwise left out (a combining mark
then goes to the first font that has it); so do spaces, except after an emoji (an emoji font's space is wide).
A character no font has is drawn as U+FFFD (``�``): a name is never dropped nor drawn as boxes. Card faces put
Pillow's own Aileron before the stack (:data:`CARD_STACK`).

Pictures draw text with :func:`draw_text` (Pillow) or from :func:`runs` (the charts, through matplotlib);
:func:`recording` collects every text drawn meanwhile and the font each piece of it was drawn with.

Nothing is downloaded and no system font is read: the same text gives the same pixels on every machine.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib.util import find_spec
from pathlib import Path

from fontTools.ttLib import TTFont
from PIL import ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parents[2] / "data" / "fonts"
#: matplotlib's own fonts, found without importing matplotlib (a card picture needs none of it)
MATPLOTLIB_FONTS = Path(find_spec("matplotlib").origin).parent / "mpl-data" / "fonts" / "ttf"  # type: ignore[arg-type,union-attr]
REPLACEMENT = "\ufffd"
ELLIPSIS = "…"
_COLOUR_TABLES = ("COLR", "CBDT", "sbix", "SVG ")
_EMOJI_REQUEST = "\ufe0f"
_FIRST_EMOJI_PLANE = 0x1F000


class StackFont:
    """One font of a stack: its name, its file (or bytes), its character map and its faces by size."""

    def __init__(self, name: str, source: Path | Callable[[], bytes], *, emoji: bool = False) -> None:
        self.name = name
        self.source = source
        self.emoji = emoji

    def __repr__(self) -> str:
        return f"StackFont({self.name!r})"

    @property
    def path(self) -> Path:
        """The font's file (the charts hand it to matplotlib); fonts held in memory have none."""
        if not isinstance(self.source, Path):
            raise ValueError(f"{self.name} has no file")
        return self.source

    def _open(self) -> Path | io.BytesIO:
        return self.source if isinstance(self.source, Path) else io.BytesIO(self.source())

    @cached_property
    def _tables(self) -> tuple[frozenset[int], bool]:
        font = TTFont(self._open(), lazy=True)
        try:
            return frozenset(font.getBestCmap()), any(tag in font for tag in _COLOUR_TABLES)
        finally:
            font.close()

    @property
    def cmap(self) -> frozenset[int]:
        """The code points the font has a glyph for."""
        return self._tables[0]

    @property
    def colour(self) -> bool:
        """A colour font (its glyphs are drawn in their own colours)."""
        return self._tables[1]

    def has(self, char: str) -> bool:
        return ord(char) in self.cmap

    def face(self, size: int) -> ImageFont.FreeTypeFont:
        return _face(self, size)


@lru_cache(maxsize=256)
def _face(font: StackFont, size: int) -> ImageFont.FreeTypeFont:
    source = font._open()
    return ImageFont.truetype(str(source) if isinstance(source, Path) else source, size)


def _aileron() -> bytes:
    return ImageFont.load_default(size=10).font_bytes  # type: ignore[union-attr]


DEJAVU_SANS = StackFont("DejaVu Sans", MATPLOTLIB_FONTS / "DejaVuSans.ttf")
DEJAVU_SANS_BOLD = StackFont("DejaVu Sans Bold", MATPLOTLIB_FONTS / "DejaVuSans-Bold.ttf")
WENQUANYI = StackFont("WenQuanYi Micro Hei", FONT_DIR / "WenQuanYiMicroHei.ttf")
NOTO_EMOJI = StackFont("Noto Emoji", FONT_DIR / "NotoEmoji-Regular.ttf", emoji=True)
AILERON = StackFont("Aileron", _aileron)

STACK = (DEJAVU_SANS, WENQUANYI, NOTO_EMOJI)
BOLD_STACK = (DEJAVU_SANS_BOLD, WENQUANYI, NOTO_EMOJI)
#: card faces keep Pillow's Aileron (narrow figures for the corner index); anything else falls to the stack
CARD_STACK = (AILERON, *STACK)


@dataclass(frozen=True)
class Run:
    """A piece of text drawn with one font."""

    text: str
    font: StackFont


def _draws_nothing(char: str) -> bool:
    """Joiners, variation selectors, direction marks, tags, control characters: nothing to see by themselves."""
    code = ord(char)
    return (unicodedata.category(char) in ("Cf", "Cc") or 0xFE00 <= code <= 0xFE0F
            or 0xE0100 <= code <= 0xE01EF)


def _is_mark(char: str) -> bool:
    """A combining mark (an accent, an enclosing keycap): drawn on the character before it."""
    return unicodedata.category(char).startswith("M")


def _pick(char: str, stack: Sequence[StackFont], emoji: bool) -> StackFont | None:
    if emoji:
        for font in stack:
            if font.emoji and font.has(char):
                return font
    return next((font for font in stack if font.has(char)), None)


def runs(text: str, stack: Sequence[StackFont] = STACK) -> tuple[Run, ...]:
    """``text`` (NFC, spacing as spaces) cut into runs, each drawn by the first font of ``stack`` that has its
    characters (see the module's text for emoji, joiners and characters no font has)."""
    return _runs(text, tuple(stack))


@lru_cache(maxsize=8192)
def _runs(text: str, stack: tuple[StackFont, ...]) -> tuple[Run, ...]:
    chars = list(unicodedata.normalize("NFC", text))
    pieces: list[tuple[StackFont, list[str]]] = []
    current: StackFont | None = None
    for index, char in enumerate(chars):
        if char.isspace():
            char = " "
        elif _draws_nothing(char) or _is_mark(char):
            if current is not None and current.has(char):
                pieces[-1][1].append(char)
                continue
            if _draws_nothing(char):
                continue
        if char == " " and current is not None and not current.emoji and current.has(char):
            pieces[-1][1].append(char)
            continue
        emoji = ord(char) >= _FIRST_EMOJI_PLANE or chars[index + 1:index + 2] == [_EMOJI_REQUEST]
        font = _pick(char, stack, emoji)
        if font is None:
            char, font = REPLACEMENT, _pick(REPLACEMENT, stack, False)
            if font is None:
                raise ValueError("no font of the stack draws U+FFFD")
        if font is current:
            pieces[-1][1].append(char)
        else:
            pieces.append((font, [char]))
            current = font
    return tuple(Run("".join(chars_), font) for font, chars_ in pieces)


# --- what was drawn --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Drawn:
    """A text drawn in a picture and the runs it was drawn in."""

    text: str
    runs: tuple[Run, ...]


_recordings: list[list[Drawn]] = []
_caches: list[Callable[[], None]] = []


def forget_on_recording(clear: Callable[[], None]) -> None:
    """Have :func:`recording` call ``clear`` first (a cache of pictures: a picture found there draws no text)."""
    _caches.append(clear)


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Collect every text drawn (by :func:`draw_text` or a chart) while the block runs, with its runs."""
    for clear in _caches:
        clear()
    drawn: list[Drawn] = []
    _recordings.append(drawn)
    try:
        yield drawn
    finally:
        _recordings.remove(drawn)


def note_drawn(text: str, pieces: tuple[Run, ...]) -> None:
    """Tell :func:`recording` that ``text`` is drawn in ``pieces``."""
    for drawn in _recordings:
        drawn.append(Drawn(text, pieces))


# --- drawing with Pillow -----------------------------------------------------------------------------------


def text_length(text: str, size: int, stack: Sequence[StackFont] = STACK) -> float:
    """How wide ``text`` is drawn at ``size`` pixels, in pixels."""
    stack = tuple(stack)
    if stack == STACK:
        return _text_length(text, size)
    return sum(run.font.face(size).getlength(run.text) for run in runs(text, stack))


@lru_cache(maxsize=8192)
def _text_length(text: str, size: int) -> float:  # (text and size only: a key the garbage collector can ignore)
    return sum(run.font.face(size).getlength(run.text) for run in runs(text, STACK))


def fit(text: str, size: int, width: float, stack: Sequence[StackFont] = STACK) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels at ``size`` (whole characters: an emoji's joiners
    and selectors go with it)."""
    if text_length(text, size, stack) <= width:
        return text
    while text:
        text = text[:-1]
        while text and (_draws_nothing(text[-1]) or _is_mark(text[-1])):
            text = text[:-1]
        if text_length(text.rstrip() + ELLIPSIS, size, stack) <= width:
            return text.rstrip() + ELLIPSIS
    return ""


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *, size: int,
              fill: tuple[int, ...], anchor: str = "la", stack: Sequence[StackFont] = STACK,
              stroke_width: int = 0) -> float:
    """Draw ``text`` at ``xy`` like Pillow's ``ImageDraw.text`` with ``anchor`` (horizontal ``l m r``, vertical
    ``a t m s b d``), each run in its font on one baseline; returns the width drawn. The ascender, middle and
    descender lines are those of the stack's first font, so a name's baseline does not move with its script."""
    pieces = runs(text, stack)
    if not pieces:
        return 0.0
    note_drawn(text, pieces)
    faces = [run.font.face(size) for run in pieces]
    widths = [face.getlength(run.text) for face, run in zip(faces, pieces, strict=True)]
    total = sum(widths)
    horizontal, vertical = anchor[0], anchor[1]
    x = xy[0] - {"l": 0.0, "m": total / 2, "r": total}[horizontal]
    ascent, descent = stack[0].face(size).getmetrics()
    if vertical == "a":
        baseline = xy[1] + ascent
    elif vertical == "d":
        baseline = xy[1] - descent
    elif vertical == "m":
        baseline = xy[1] + (ascent - descent) / 2
    elif vertical == "s":
        baseline = xy[1]
    else:  # "t" or "b": the text's own ink
        boxes = [face.getbbox(run.text, anchor="ls") for face, run in zip(faces, pieces, strict=True)]
        baseline = xy[1] - (min(box[1] for box in boxes) if vertical == "t" else max(box[3] for box in boxes))
    colour_ok = draw.mode in ("RGB", "RGBA")
    for run, face, width in zip(pieces, faces, widths, strict=True):
        draw.text((x, baseline), run.text, font=face, fill=fill, anchor="ls", stroke_width=stroke_width,
                  stroke_fill=fill if stroke_width else None, embedded_color=run.font.colour and colour_ok)
        x += width
    return total
