"""Line charts as PNG, drawn with Pillow and its bundled font only (the same input gives the same bytes).

:func:`line_chart` draws one line per series over a shared x axis (the values' positions: 0, 1, 2, ...,
scaled by ``x_step`` from ``x_start``), with a title, axis labels, round-numbered ticks and a legend. Used for a
War game's card counts over the rounds and for rating histories.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render.cards import drawable, font

BACKGROUND = (250, 250, 247)
PLOT_AREA = (255, 255, 255)
GRID = (226, 226, 222)
AXIS = (90, 90, 96)
INK = (30, 30, 36)
#: line colours, distinguishable for the common colour-vision deficiencies (Okabe-Ito)
PALETTE = ((0, 114, 178), (213, 94, 0), (0, 158, 115), (204, 121, 167), (230, 159, 0), (86, 180, 233),
           (120, 120, 120), (240, 228, 66))
SUPERSAMPLE = 2
TITLE_SIZE = 20
LABEL_SIZE = 14
TICK_SIZE = 12
MIN_WIDTH, MIN_HEIGHT = 200, 150
MAX_SIDE = 4000


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About ``count`` round values (1, 2 or 5 times a power of ten apart) covering ``low`` .. ``high``."""
    if not math.isfinite(low) or not math.isfinite(high):
        return [0.0]
    if high < low:
        low, high = high, low
    if high == low:
        high = low + 1
    raw = (high - low) / max(1, count)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    if ticks[-1] < high:
        ticks.append(round(value, 10))
    return ticks


def _label(value: float) -> str:
    if abs(value - round(value)) < 1e-9:
        return f"{round(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def line_chart(series: Sequence[tuple[str, Sequence[float]]], *, title: str, x_label: str, y_label: str,
               width: int = 800, height: int = 400, x_start: float = 0, x_step: float = 1) -> bytes:
    """A PNG line chart: one line per ``(name, values)`` (value ``i`` at x = ``x_start + i * x_step``), a legend
    with the names, ``title`` above, ``x_label`` under the x axis and ``y_label`` over the y axis. Series may
    differ in length; an empty series draws nothing; a single value is drawn as a dot. ``width`` and ``height``
    are clamped to 200x150 .. 4000x4000 pixels. Raises ``ValueError`` for a non-finite value."""
    width = min(max(int(width), MIN_WIDTH), MAX_SIDE)
    height = min(max(int(height), MIN_HEIGHT), MAX_SIDE)
    for _, values in series:
        for value in values:
            if not math.isfinite(value):
                raise ValueError(f"a chart value must be a finite number, not {value!r}")
    scale = SUPERSAMPLE
    image = Image.new("RGB", (width * scale, height * scale), BACKGROUND)
    draw = ImageDraw.Draw(image)

    def s(value: float) -> float:
        return value * scale

    title_font, label_font, tick_font = font(TITLE_SIZE * scale), font(LABEL_SIZE * scale), font(TICK_SIZE * scale)
    longest = max((len(values) for _, values in series), default=0)
    all_values = [float(v) for _, values in series for v in values]
    y_low = min(all_values, default=0.0)
    y_high = max(all_values, default=1.0)
    if y_low >= 0 and y_high > 0 and y_low <= y_high * 0.25:
        y_low = 0.0  # counts and the like: start the axis at zero
    y_ticks = nice_ticks(y_low, y_high)
    x_high = x_start + max(1, longest - 1) * x_step
    x_ticks = [t for t in nice_ticks(x_start, x_high, 6) if x_start - 1e-9 <= t <= x_high + 1e-9] or [x_start]

    tick_width = max(tick_font.getlength(_label(t)) for t in y_ticks) / scale
    left = 18 + tick_width + 10
    top = 14 + TITLE_SIZE + 10 + LABEL_SIZE + 8
    names = [drawable(name, f"Series {index + 1}") for index, (name, _) in enumerate(series)]
    legend_rows = _legend_rows(names, width - left - 16, label_font, scale)
    bottom = height - (8 + TICK_SIZE + 8 + LABEL_SIZE + 10 + len(legend_rows) * (LABEL_SIZE + 8))
    right = width - 20
    if bottom - top < 40:
        bottom = top + 40

    draw.text((s(width / 2), s(14)), drawable(title, "Chart"), font=title_font, fill=INK, anchor="mt")
    draw.text((s(left), s(14 + TITLE_SIZE + 10)), drawable(y_label), font=label_font, fill=AXIS, anchor="lt")
    draw.rectangle((s(left), s(top), s(right), s(bottom)), fill=PLOT_AREA)

    y_span = (y_ticks[-1] - y_ticks[0]) or 1.0
    x_span = (x_high - x_start) or 1.0

    def px(x: float) -> float:
        return left + (x - x_start) / x_span * (right - left)

    def py(y: float) -> float:
        return bottom - (y - y_ticks[0]) / y_span * (bottom - top)

    for tick in y_ticks:
        y = py(tick)
        draw.line((s(left), s(y), s(right), s(y)), fill=GRID, width=scale)
        draw.text((s(left - 6), s(y)), _label(tick), font=tick_font, fill=AXIS, anchor="rm")
    for tick in x_ticks:
        x = px(tick)
        draw.line((s(x), s(top), s(x), s(bottom)), fill=GRID, width=scale)
        draw.text((s(x), s(bottom + 6)), _label(tick), font=tick_font, fill=AXIS, anchor="mt")
    draw.line((s(left), s(top), s(left), s(bottom), s(right), s(bottom)), fill=AXIS, width=scale)
    draw.text((s((left + right) / 2), s(bottom + 6 + TICK_SIZE + 8)), drawable(x_label), font=label_font,
              fill=AXIS, anchor="mt")

    for index, (_, values) in enumerate(series):
        colour = PALETTE[index % len(PALETTE)]
        points = [(s(px(x_start + i * x_step)), s(py(float(v)))) for i, v in enumerate(values)]
        if len(points) == 1:
            x, y = points[0]
            r = 3 * scale
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
        elif points:
            draw.line(points, fill=colour, width=3 * scale, joint="curve")

    y = bottom + 6 + TICK_SIZE + 8 + LABEL_SIZE + 10
    for row in legend_rows:
        x = left
        for index in row:
            colour = PALETTE[index % len(PALETTE)]
            draw.rectangle((s(x), s(y + 3), s(x + 18), s(y + LABEL_SIZE - 3)), fill=colour)
            draw.text((s(x + 24), s(y)), names[index], font=label_font, fill=INK, anchor="lt")
            x += 24 + label_font.getlength(names[index]) / scale + 18
        y += LABEL_SIZE + 8

    image = image.resize((width, height), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def _legend_rows(names: Sequence[str], room: float, label_font, scale: int) -> list[list[int]]:
    """The legend's entries (series indexes) laid out in rows that fit ``room`` pixels."""
    rows: list[list[int]] = []
    used = room + 1
    for index, name in enumerate(names):
        entry = 24 + label_font.getlength(name) / scale + 18
        if not rows or used + entry > room:
            rows.append([])
            used = 0.0
        rows[-1].append(index)
        used += entry
    return rows
