"""line_chart: a real PNG of the asked size, deterministic, lines where the values are, refusals."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image

from bot.render.plots import PALETTE, line_chart, nice_ticks


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def colour_columns(picture: Image.Image, colour: tuple[int, int, int], tolerance: int = 40) -> dict[int, list[int]]:
    """Column -> the rows where a pixel is close to ``colour``."""
    found: dict[int, list[int]] = {}
    pixels = picture.load()
    for x in range(picture.width):
        for y in range(picture.height):
            if all(abs(a - b) <= tolerance for a, b in zip(pixels[x, y], colour, strict=True)):
                found.setdefault(x, []).append(y)
    return found


def test_a_png_of_the_size_asked_and_the_same_bytes_every_time():
    series = [("Alice", [26, 30, 40, 52]), ("Bob", [26, 22, 12, 0])]
    png = line_chart(series, title="Cards", x_label="round", y_label="cards", width=640, height=320)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert image(png).size == (640, 320)
    assert png == line_chart(series, title="Cards", x_label="round", y_label="cards", width=640, height=320)
    assert png != line_chart(series[::-1], title="Cards", x_label="round", y_label="cards", width=640, height=320)


def test_a_rising_line_goes_up_and_a_falling_one_down():
    picture = image(line_chart([("up", [0, 10, 20, 30]), ("down", [30, 20, 10, 0])], title="t", x_label="x",
                               y_label="y"))
    up = colour_columns(picture, PALETTE[0])
    down = colour_columns(picture, PALETTE[1])
    # the plotted parts (ignore the legend swatches at the bottom): compare the left and right ends
    plot_up = {x: min(ys) for x, ys in up.items() if min(ys) < picture.height - 60}
    plot_down = {x: min(ys) for x, ys in down.items() if min(ys) < picture.height - 60}
    left, right = min(plot_up), max(plot_up)
    assert plot_up[right] < plot_up[left] - 100  # higher on the right (smaller y)
    left, right = min(plot_down), max(plot_down)
    assert plot_down[right] > plot_down[left] + 100


def test_edge_cases_draw_and_bad_values_are_refused():
    for series in ([], [("one", [5])], [("empty", [])], [("flat", [3, 3, 3])], [("neg", [-5, 5, -2])]):
        assert image(line_chart(series, title="t", x_label="x", y_label="y")).size == (800, 400)
    assert image(line_chart([("a", [1, 2])], title="t", x_label="x", y_label="y", width=5, height=5)).size == \
        (200, 150)
    with pytest.raises(ValueError):
        line_chart([("bad", [1.0, float("nan")])], title="t", x_label="x", y_label="y")


def test_nice_ticks_cover_the_range_with_round_steps():
    assert nice_ticks(0, 52) == [0, 20, 40, 60]
    ticks = nice_ticks(3, 1234)
    assert ticks[0] <= 3 and ticks[-1] >= 1234
    steps = {round(b - a, 6) for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1


def test_the_ticks_are_written_in_the_charts_language():
    from bot.i18n import texts
    from bot.render.plots import _label

    assert [_label(value) for value in (1500, 2.5, 0.25)] == ["1,500", "2.5", "0.25"]
    assert [_label(value, texts("de")) for value in (1500, 2.5, 0.25)] == ["1.500", "2,5", "0,25"]
    assert _label(1500, texts("ru")) == "1\xa0500" and _label(1500, texts("fr")) == "1\u202f500"
    for language in ("fr", "ru", "pl"):  # a tick's number, its group separator too, is drawn in one font
        png = line_chart([("Ŕéŧíñĝ", [1400, 1650, 2100])], title="История", x_label="", y_label="",
                         say=texts(language))
        assert image(png).size == (800, 400)
