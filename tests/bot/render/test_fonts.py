"""The font stack: each character goes to the first font that has it, emoji to the emoji font, nothing is
dropped; the fonts come with the project (data/fonts/) or with matplotlib, never from the system."""

from __future__ import annotations

import unicodedata

import pytest
from PIL import Image, ImageDraw

from bot.render import fonts
from bot.render.fonts import NOTO_EMOJI, STACK, WENQUANYI, fit, runs, text_length

DEJAVU = fonts.DEJAVU_SANS


def fonts_of(text: str) -> list[tuple[str, str]]:
    return [(run.text, run.font.name) for run in runs(text)]


def test_the_fonts_are_bundled_files():
    for font in (*fonts.STACK, *fonts.BOLD_STACK):
        assert font.path.is_file()
        assert font.path.parent in (fonts.FONT_DIR, fonts.MATPLOTLIB_FONTS)
        assert font.path.parent.parts[:2] != ("/", "usr")
    assert fonts.FONT_DIR.parts[-2:] == ("data", "fonts")


@pytest.mark.parametrize(("text", "expected"), [
    ("Zoë Ångström", [("Zoë Ångström", "DejaVu Sans")]),
    ("Αλέξανδρος", [("Αλέξανδρος", "DejaVu Sans")]),
    ("Дмитрий", [("Дмитрий", "DejaVu Sans")]),
    ("山田太郎", [("山田太郎", "WenQuanYi Micro Hei")]),
    ("김민준 さくら", [("김민준 さくら", "WenQuanYi Micro Hei")]),
    ("🦊 Fox", [("🦊", "Noto Emoji"), (" Fox", "DejaVu Sans")]),
    ("Ann—山", [("Ann—", "DejaVu Sans"), ("山", "WenQuanYi Micro Hei")]),
])
def test_each_script_goes_to_the_first_font_that_has_it(text, expected):
    assert fonts_of(text) == expected


def test_decomposed_accents_are_composed_and_kept():
    decomposed = unicodedata.normalize("NFD", "Zoë")
    assert fonts_of(decomposed) == [("Zoë", "DejaVu Sans")]


def test_emoji_sequences_stay_in_the_emoji_font():
    family = "👨\u200d👩\u200d👧"
    assert fonts_of(family) == [(family, "Noto Emoji")]
    # U+2764 is in DejaVu, but U+FE0F asks for the emoji
    assert fonts_of("❤\ufe0f") == [("❤\ufe0f", "Noto Emoji")]
    assert fonts_of("❤") == [("❤", "DejaVu Sans")]


def test_a_character_no_font_has_is_drawn_as_a_replacement_not_dropped():
    private = "\ue000"
    assert all(ord(private) not in font.cmap for font in STACK)
    assert fonts_of(f"a{private}b") == [("a\ufffdb", "DejaVu Sans")]
    tag = "\U000e0041"  # a tag character: draws nothing, and DejaVu has none: left out
    assert not DEJAVU.has(tag)
    assert fonts_of(f"a{tag}b") == [("ab", "DejaVu Sans")]


def test_every_run_is_in_its_fonts_map():
    text = "Zoë Αλέξανδρος Дмитрий 山田太郎 김민준 さくら 🦊 Fox ♠♥ — …"
    pieces = runs(text)
    assert "".join(run.text for run in pieces) == text
    assert {run.font for run in pieces} == {DEJAVU, WENQUANYI, NOTO_EMOJI}
    for run in pieces:
        assert all(ord(char) in run.font.cmap for char in run.text)


def test_fit_cuts_whole_characters_with_an_ellipsis():
    text = "Ann 👨\u200d👩\u200d👧 " * 4
    for width in range(20, 400, 7):
        cut = fit(text, 16, width)
        assert text_length(cut, 16) <= width
        assert cut == text or cut.endswith("…")
        assert not cut.rstrip("…").endswith("\u200d")
    assert fit("short", 16, 400) == "short"


def test_draw_text_lines_runs_up_on_one_baseline_and_records_them():
    image = Image.new("RGB", (400, 60), (0, 0, 0))
    draw = ImageDraw.Draw(image)
    with fonts.recording() as drawn:
        width = fonts.draw_text(draw, (200, 30), "Zoë 山田 🦊", size=20, fill=(255, 255, 255), anchor="mm")
    assert [(d.text, [r.font.name for r in d.runs]) for d in drawn] == \
        [("Zoë 山田 🦊", ["DejaVu Sans", "WenQuanYi Micro Hei", "Noto Emoji"])]
    left, top, right, bottom = image.getbbox()
    assert abs((left + right) / 2 - 200) <= 3 and abs(right - left - width) <= 4
    assert top >= 10 and bottom <= 50
