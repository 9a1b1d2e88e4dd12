"""Line charts as PNG, drawn by matplotlib (Agg, no pyplot) in the bundled font stack; the same input gives the
same bytes.

:func:`line_chart` draws one line per series over a shared x axis (the values' positions: 0, 1, 2, ..., scaled by
``x_step`` from ``x_start``), with a title, axis labels, round-numbered ticks (whole numbers when the x values are:
rounds, matches) and a legend. Used for a War game's card counts over the rounds and for rating histories.

Every text goes through :func:`bot.render.fonts.runs`: each run is laid out in its own font (side by side, on one
baseline), so a name in any script, emoji included, is drawn by a font that has it.
"""

from __future__ import annotations

import io
import math
import warnings
from collections.abc import Sequence
from functools import lru_cache

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.offsetbox import AnchoredOffsetbox, DrawingArea, HPacker, TextArea, VPacker
from matplotlib.patches import Rectangle

from bot.i18n import Texts, texts
from bot.render.fonts import StackFont, fit, note_drawn, runs, text_length

BACKGROUND = (250, 250, 247)
PLOT_AREA = (255, 255, 255)
GRID = (226, 226, 222)
AXIS = (90, 90, 96)
INK = (30, 30, 36)
#: line colours, distinguishable for the common colour-vision deficiencies (Okabe-Ito)
PALETTE = ((0, 114, 178), (213, 94, 0), (0, 158, 115), (204, 121, 167), (230, 159, 0), (86, 180, 233),
           (120, 120, 120), (240, 228, 66))
TITLE_SIZE = 20
LABEL_SIZE = 14
TICK_SIZE = 12
MIN_WIDTH, MIN_HEIGHT = 200, 150
MAX_SIDE = 4000
DPI = 72  #: one point is one pixel, so sizes in points are sizes in pixels
SWATCH = 18  #: a legend entry's colour swatch, then a gap of SWATCH_GAP before its name
SWATCH_GAP = 6
ENTRY_GAP = 18  #: between legend entries


def nice_ticks(low: float, high: float, count: int = 5, *, whole: bool = False) -> list[float]:
    """About ``count`` round values (1, 2 or 5 times a power of ten apart) covering ``low`` .. ``high``; with
    ``whole``, whole numbers only (at least 1 apart)."""
    if not math.isfinite(low) or not math.isfinite(high):
        return [0.0]
    if high < low:
        low, high = high, low
    if high == low:
        high = low + 1
    raw = (high - low) / max(1, count)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    if whole:
        step = max(1, round(step))
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    if ticks[-1] < high:
        ticks.append(round(value, 10))
    return ticks


def _label(value: float, say: Texts | None = None) -> str:
    """A tick's number in ``say``'s language (English by default): ``1,500``, ``2.5`` (``1.500``, ``2,5`` in
    German)."""
    say = say or texts("en")
    if abs(value - round(value)) < 1e-9:
        return say.number(round(value), digits=0)
    digits = 1 if abs(value * 10 - round(value * 10)) < 1e-9 else 2
    return say.number(value, digits=digits)


def _colour(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    return (rgb[0] / 255, rgb[1] / 255, rgb[2] / 255)


@lru_cache(maxsize=64)
def _properties(font: StackFont, size: int) -> FontProperties:
    return FontProperties(fname=font.path, size=size)


def _text_box(text: str, size: int, colour: tuple[int, int, int]) -> HPacker:
    """``text`` as matplotlib boxes, one per run in its font, side by side on one baseline. Spaces at a run's
    ends become gaps (matplotlib measures a text by its ink, which leaves them out)."""
    pieces = runs(text)
    note_drawn(text, pieces)
    children: list[TextArea | DrawingArea] = []
    for run in pieces:
        space = run.font.face(size).getlength(" ")
        core = run.text.strip(" ")
        lead = len(run.text) - len(run.text.lstrip(" "))
        trail = len(run.text) - len(run.text.rstrip(" ")) if core else 0
        if lead:
            children.append(DrawingArea(lead * space, 0))
        if core:
            children.append(TextArea(core, textprops={"fontproperties": _properties(run.font, size),
                                                      "color": _colour(colour)}))
        if trail:
            children.append(DrawingArea(trail * space, 0))
    return HPacker(children=children, align="baseline", pad=0, sep=0)


def _place(figure: Figure, box: HPacker | VPacker, loc: str, x: float, y: float) -> None:
    """Put ``box`` with its ``loc`` corner at (x, y) pixels from the figure's bottom left."""
    width, height = figure.bbox.width, figure.bbox.height
    figure.add_artist(AnchoredOffsetbox(loc=loc, child=box, pad=0, borderpad=0, frameon=False,
                                        bbox_to_anchor=(x / width, y / height), bbox_transform=figure.transFigure))


def _tick_font(text: str) -> FontProperties:
    """The one font a tick label (a number) is drawn in."""
    pieces = runs(text)
    if len(pieces) != 1:
        raise ValueError(f"a tick label is drawn in one font: {text!r}")
    note_drawn(text, pieces)
    return _properties(pieces[0].font, TICK_SIZE)


def line_chart(series: Sequence[tuple[str, Sequence[float]]], *, title: str, x_label: str, y_label: str,
               width: int = 800, height: int = 400, x_start: float = 0, x_step: float = 1,
               say: Texts | None = None) -> bytes:
    """A PNG line chart: one line per ``(name, values)`` (value ``i`` at x = ``x_start + i * x_step``), a legend
    with the names, ``title`` above, ``x_label`` under the x axis and ``y_label`` over the y axis. Series may
    differ in length; an empty series draws nothing; a single value is drawn as a dot. ``width`` and ``height``
    are clamped to 200x150 .. 4000x4000 pixels. Raises ``ValueError`` for a non-finite value. The ticks' numbers
    (and the words put in for a missing title or name) are in ``say``'s language (English by default); the texts
    given are drawn as they are."""
    _ = say = say or texts("en")
    width = min(max(int(width), MIN_WIDTH), MAX_SIDE)
    height = min(max(int(height), MIN_HEIGHT), MAX_SIDE)
    for _, values in series:
        for value in values:
            if not math.isfinite(value):
                raise ValueError(f"a chart value must be a finite number, not {value!r}")
    longest = max((len(values) for _, values in series), default=0)
    all_values = [float(v) for _, values in series for v in values]
    y_low = min(all_values, default=0.0)
    y_high = max(all_values, default=1.0)
    if y_low >= 0 and y_high > 0 and y_low <= y_high * 0.25:
        y_low = 0.0  # counts and the like: start the axis at zero
    y_ticks = nice_ticks(y_low, y_high)
    x_high = x_start + max(1, longest - 1) * x_step
    whole = float(x_start).is_integer() and float(x_step).is_integer()
    x_ticks = [t for t in nice_ticks(x_start, x_high, 6, whole=whole)
               if x_start - 1e-9 <= t <= x_high + 1e-9] or [x_start]

    left = 18 + max(text_length(_label(t, say), TICK_SIZE) for t in y_ticks) + 10
    right = width - 20
    names = [fit(" ".join(name.split()) or _("Series {number}", number=index + 1), LABEL_SIZE,
                 right - left - SWATCH - SWATCH_GAP) for index, (name, _values) in enumerate(series)]
    legend_rows = _legend_rows(names, right - left)
    top = 14 + TITLE_SIZE + 10 + LABEL_SIZE + 8  # from the figure's top
    bottom = 8 + TICK_SIZE + 8 + LABEL_SIZE + 10 + len(legend_rows) * (LABEL_SIZE + 8)  # from its bottom
    if height - top - bottom < 40:
        bottom = height - top - 40

    figure = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, facecolor=_colour(BACKGROUND))
    FigureCanvasAgg(figure)
    axes = figure.add_axes((left / width, bottom / height, (right - left) / width, (height - top - bottom) / height))
    axes.set_facecolor(_colour(PLOT_AREA))
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    for side in ("left", "bottom"):
        axes.spines[side].set_color(_colour(AXIS))
    axes.tick_params(colors=_colour(AXIS), length=3, pad=6)
    axes.grid(True, color=_colour(GRID), linewidth=1)
    axes.set_axisbelow(True)
    axes.set_xlim(x_start, x_high)
    axes.set_ylim(y_ticks[0], y_ticks[-1])
    for ticks, setter, labels in ((x_ticks, axes.set_xticks, axes.get_xticklabels),
                                  (y_ticks, axes.set_yticks, axes.get_yticklabels)):
        shown = [_label(t, say) for t in ticks]
        setter(ticks, shown)
        for label, text in zip(labels(), shown, strict=True):
            label.set_fontproperties(_tick_font(text))

    for index, (_, values) in enumerate(series):
        colour = _colour(PALETTE[index % len(PALETTE)])
        xs = [x_start + i * x_step for i in range(len(values))]
        if len(values) == 1:
            axes.plot(xs, list(values), "o", color=colour, markersize=6, clip_on=False)
        elif values:
            axes.plot(xs, list(values), color=colour, linewidth=3, solid_joinstyle="round",
                      solid_capstyle="round", clip_on=False)

    _place(figure, _text_box(fit(" ".join(title.split()) or _("Chart"), TITLE_SIZE, width - 24), TITLE_SIZE, INK),
           "upper center", width / 2, height - 12)
    if y_label:
        _place(figure, _text_box(y_label, LABEL_SIZE, AXIS), "upper left", left, height - (14 + TITLE_SIZE + 10))
    if x_label:
        _place(figure, _text_box(x_label, LABEL_SIZE, AXIS), "upper center", (left + right) / 2,
               bottom - 6 - TICK_SIZE - 8)
    if legend_rows:
        rows = []
        for row in legend_rows:
            entries = []
            for index in row:
                swatch = DrawingArea(SWATCH, LABEL_SIZE)
                swatch.add_artist(Rectangle((0, 3), SWATCH, LABEL_SIZE - 6,
                                            color=_colour(PALETTE[index % len(PALETTE)])))
                entries.append(HPacker(children=[swatch, _text_box(names[index], LABEL_SIZE, INK)], align="center",
                                       pad=0, sep=SWATCH_GAP))
            rows.append(HPacker(children=entries, align="baseline", pad=0, sep=ENTRY_GAP))
        _place(figure, VPacker(children=rows, align="left", pad=0, sep=8), "upper left", left,
               bottom - 6 - TICK_SIZE - 8 - LABEL_SIZE - 10)

    out = io.BytesIO()
    with warnings.catch_warnings():
        # matplotlib measures every text's height on "lp", which an emoji font lacks; the runs' own characters are
        # all in their fonts (see fonts.runs)
        warnings.filterwarnings("ignore", message="Glyph .* missing from font", category=UserWarning)
        figure.savefig(out, format="png", dpi=DPI, facecolor=figure.get_facecolor(), metadata={"Software": None})
    return out.getvalue()


def _legend_rows(names: Sequence[str], room: float) -> list[list[int]]:
    """The legend's entries (series indexes) laid out in rows that fit ``room`` pixels."""
    rows: list[list[int]] = []
    used = room + 1
    for index, name in enumerate(names):
        entry = SWATCH + SWATCH_GAP + text_length(name, LABEL_SIZE) + ENTRY_GAP
        if not rows or used + entry > room:
            rows.append([])
            used = 0.0
        rows[-1].append(index)
        used += entry
    return rows
