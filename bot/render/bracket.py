"""A tournament as pictures and as text: the bracket (elimination) or the standings (round robin, Swiss).

Pure: takes a :class:`bot.tournaments.Tournament` and plain names (``names``: player id -> display name; a
picture cannot show a mention). Pictures are PNGs drawn with Pillow in the bundled font stack
(:mod:`bot.render.fonts`), so every name shows whatever its script. An elimination bracket is one column per round
and one box per match (winners' bracket, then losers' bracket and the grand final), the winner of a decided match
in bold colour; standings are a table.

:func:`picture` draws the whole tournament as one picture. :func:`pictures` draws it as several, each readable at
the width Discord shows a picture at (:data:`PREVIEW_WIDTH`): a bracket by region (every round beside the round it
feeds, joined by lines; at most :data:`PART_ROWS` matches of a round and the matches they feed), standings by
:data:`STANDINGS_ROWS` places. A single-elimination bracket is one bracket: only a double elimination's regions
name their section (winners', losers', grand final).

Text: ``/tournament bracket`` and ``/tournament status`` show it, clamped to a message. A player who deleted their
data (a negative id, see :func:`bot.storage.tournaments.placeholder_for`) is shown as "deleted player".

Every text (pictures, alt text, messages) is in the language of ``say`` (a :class:`~bot.i18n.Texts`, English by
default); match keys (``W1-2``, ``GF``) stay as they are, like card labels.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.i18n import N_, Texts
from bot.render.common import ALT_TEXT_LIMIT, ENGLISH, MESSAGE_LIMIT, Picture, clamp, clamp_line, join_words
from bot.render.fonts import draw_text, fit
from bot.tournaments import Format, Match, MatchOutcome, Round, StandingRow, Tournament, TournamentError

BOX_W, BOX_H, GAP_X, GAP_Y, MARGIN, HEADER = 190, 40, 36, 8, 16, 30
BACKGROUND = (32, 34, 37)
BOX = (54, 57, 63)
LINE = (114, 118, 125)
TEXT = (220, 221, 222)
DIM = (142, 146, 151)
WIN = (87, 242, 135)
TITLE_COLOUR = (255, 255, 255)
#: beyond this many first-round boxes a bracket picture shows the later rounds only (it would be too tall)
MAX_BOXES = 64
EMPTY_SLOT = "—"  #: a slot whose player is not known yet

#: Discord shows a picture in a message about this wide: each of :func:`pictures` is drawn at this width
PREVIEW_WIDTH = 550
#: a part of a split bracket: at most this many boxes in its first column, and two rounds side by side
PART_ROWS, PART_COLUMNS = 8, 2
PART_BOX_W, PART_BOX_H, PART_GAP_X, PART_MARGIN = 235, 46, 32, 12
PART_NAME_SIZE, PART_LABEL_SIZE, PART_TITLE_SIZE = 15, 13, 18
#: parts small enough are stacked in one picture up to this height
PART_MAX_HEIGHT = 640
#: places per picture of split standings
STANDINGS_ROWS = 20
#: Discord takes at most this many attachments on one message
MAX_PICTURES = 10

#: each format's name (said with ``say(FORMAT_NAMES[format])``)
FORMAT_NAMES = {
    Format.SINGLE_ELIMINATION: N_("single elimination"),
    Format.DOUBLE_ELIMINATION: N_("double elimination"),
    Format.ROUND_ROBIN: N_("round robin"),
    Format.SWISS: N_("Swiss"),
}
BRACKET_NAMES = {"winners": N_("Winners' bracket"), "losers": N_("Losers' bracket"),
                 "grand_final": N_("Grand final")}
DELETED = N_("deleted player")


def mention(player: int | None, say: Texts = ENGLISH) -> str:
    """A player in a message: a mention, or "deleted player" for one who deleted their data (a negative id)."""
    _ = say
    if player is None:
        return _("nobody")
    return say(DELETED) if player < 0 else f"<@{player}>"


def player_name(names: Mapping[int, str], player: int | None, tournament: Tournament | None = None,
                say: Texts = ENGLISH) -> str:
    _ = say
    if player is None:
        return say.pgettext("no opponent", "bye")
    name = say(DELETED) if player < 0 else (" ".join(str(names.get(player) or "").split())
                                            or _("Player {number}", number=player % 10_000))
    if tournament is not None and player in tournament.players:
        return f"{name} ({tournament.seed_of(player)})"
    return name


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=3)
    return buffer.getvalue()


def round_name(bracket: Tournament, label: str, say: Texts = ENGLISH) -> str:
    """A round as players call it: ``Semifinals``, ``Losers' round 2``, ``Grand final``, ``Round 3 of 5``."""
    _ = say
    rounds = bracket.rounds()
    found = next((round_ for round_ in rounds if round_.label == label), None)
    if found is None:  # a match key (``W3-1``): its round
        try:
            label = bracket.match(label).round
        except TournamentError:
            return _("Round {label}", label=label)
        found = next(round_ for round_ in rounds if round_.label == label)
    if found.bracket == "rounds":
        total = len(rounds) if bracket.format is Format.ROUND_ROBIN else bracket.options.get("rounds")
        return (_("Round {number} of {total}", number=found.number, total=total) if total
                else _("Round {number}", number=found.number))
    if found.bracket == "grand_final":
        return _("Grand final") if found.number == 1 else _("Grand final reset")
    from_end = sum(1 for round_ in rounds if round_.bracket == found.bracket) - found.number
    if bracket.format is Format.SINGLE_ELIMINATION:
        named = {0: N_("Final"), 1: N_("Semifinals"), 2: N_("Quarterfinals")}.get(from_end)
        return say(named) if named else _("Round {number}", number=found.number)
    if found.bracket == "winners":
        return _("Winners' final") if from_end == 0 else _("Winners' round {number}", number=found.number)
    return _("Losers' final") if from_end == 0 else _("Losers' round {number}", number=found.number)


def _alt(title: str, tournament: Tournament, names: Mapping[int, str], what: str, say: Texts) -> str:
    _ = say
    alt = _.ngettext("{title}: {what}, {count} player", "{title}: {what}, {count} players", len(tournament.players),
                     title=title, what=what)
    if tournament.is_over:
        alt += (_("; champion {player}", player=player_name(names, tournament.champion, say=say))
                if tournament.champion is not None else _("; no champion"))
    return alt


def picture(tournament: Tournament, names: Mapping[int, str], title: str, say: Texts = ENGLISH) -> Picture:
    """The bracket (elimination) or the standings table, as one PNG (see :func:`pictures` for pictures that
    read at Discord's preview width)."""
    _ = say
    if tournament.is_elimination:
        png = _bracket_png(tournament, names, title, say)
        alt = _alt(title, tournament, names, _("the bracket"), say)
    else:
        png = _standings_png(tournament, names, title, tournament.standings(), say=say)
        alt = _alt(title, tournament, names, _("the standings"), say)
    return Picture(png, "bracket.png", clamp_line(alt, ALT_TEXT_LIMIT))


def _sections(tournament: Tournament) -> list[tuple[str, list[Round]]]:
    sections: dict[str, list[Round]] = {}
    for round_ in tournament.rounds():
        sections.setdefault(round_.bracket, []).append(round_)
    return [(name, rounds) for name, rounds in sections.items()]


def _bracket_png(tournament: Tournament, names: Mapping[int, str], title: str, say: Texts) -> bytes:
    sections = _sections(tournament)
    # a big bracket: leave out its early rounds (the picture would be too tall); the text lists them
    trimmed: list[tuple[str, list[Round]]] = []
    for name, rounds in sections:
        while len(rounds) > 1 and len(rounds[0].matches) > MAX_BOXES:
            rounds = rounds[1:]
        trimmed.append((name, rounds))
    columns = max(len(rounds) for _, rounds in trimmed)
    heights = [max(len(r.matches) for r in rounds) * (BOX_H + GAP_Y) + HEADER for _, rounds in trimmed]
    width = MARGIN * 2 + columns * (BOX_W + GAP_X)
    height = MARGIN * 2 + HEADER + sum(heights) + HEADER * (len(trimmed) - 1)
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw_text(draw, (MARGIN, MARGIN), fit(title, 20, width - 2 * MARGIN), size=20, fill=TITLE_COLOUR)
    top = MARGIN + HEADER
    for (name, rounds), section_height in zip(trimmed, heights, strict=True):
        if len(trimmed) > 1:
            draw_text(draw, (MARGIN, top), say(BRACKET_NAMES[name]) if name in BRACKET_NAMES else name, size=14,
                      fill=DIM)
        body_top = top + HEADER
        body_height = section_height - HEADER
        previous: dict[str, tuple[int, int]] = {}
        for column, round_ in enumerate(rounds):
            x = MARGIN + column * (BOX_W + GAP_X)
            count = len(round_.matches)
            slot = body_height / max(count, 1)
            draw_text(draw, (x, body_top - 16), fit(round_name(tournament, round_.label, say), 12, BOX_W), size=12,
                      fill=DIM)
            centres: dict[str, tuple[int, int]] = {}
            for index, match in enumerate(round_.matches):
                y = int(body_top + slot * index + (slot - BOX_H) / 2)
                _box(draw, (x, y, BOX_W, BOX_H), match, names, tournament, 13, say)
                centres[match.key] = (x, y + BOX_H // 2)
                _join(draw, previous, match, (x, y + BOX_H // 2), BOX_W, GAP_X)
            previous = centres
        top += section_height + HEADER
    return _png(image)


def _join(draw: ImageDraw.ImageDraw, previous: Mapping[str, tuple[int, int]], match: Match,
          left_middle: tuple[int, int], box_w: int, gap_x: int) -> None:
    """Lines from the boxes of the matches that feed ``match`` (those in ``previous``) to its box."""
    x, y = left_middle
    for source in match.sources:
        if source is not None and source.match in previous:
            px, py = previous[source.match]
            mid = x - gap_x // 2
            draw.line([(px + box_w, py), (mid, py), (mid, y), (x, y)], fill=LINE, width=1)


def _box(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], match: Match, names: Mapping[int, str],
         tournament: Tournament, size: int, say: Texts) -> None:
    x, y, box_w, box_h = box
    draw.rectangle([x, y, x + box_w, y + box_h], fill=BOX, outline=LINE)
    for slot in (0, 1):
        player = match.players[slot]
        known = match.known[slot]
        text = player_name(names, player, tournament, say) if known else EMPTY_SLOT
        colour = TEXT
        if match.is_decided and match.winner is not None:
            colour = WIN if player == match.winner else DIM
        if player is None and known:
            colour = DIM
        middle = y + box_h / 4 + slot * box_h / 2
        draw_text(draw, (x + 6, middle), fit(text, size, box_w - 12), size=size, fill=colour, anchor="lm")


# --- split pictures ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Part:
    """A region of a bracket: up to two rounds of one section, each with the matches it shows."""

    section: str
    columns: tuple[tuple[Round, tuple[Match, ...]], ...]
    window: int  # which window of the first round's matches (0, 1, ...)
    windows: int

    @property
    def rows(self) -> int:
        return max(len(matches) for _, matches in self.columns)

    @property
    def height(self) -> int:
        return PART_LABEL_SIZE + 26 + PART_LABEL_SIZE + 8 + self.rows * (PART_BOX_H + GAP_Y)

    @property
    def matches(self) -> list[Match]:
        return [match for _, matches in self.columns for match in matches]

    def heading(self, tournament: Tournament, say: Texts = ENGLISH) -> str:
        _ = say
        where = join_words([round_name(tournament, round_.label, say) for round_, _ in self.columns], say)
        if tournament.format is Format.DOUBLE_ELIMINATION:  # a single elimination is one bracket: no section
            section = say(BRACKET_NAMES[self.section]) if self.section in BRACKET_NAMES else self.section
            where = f"{section} · {where}"
        if self.windows == 1:
            return where
        return _("{where} · part {number} of {total}", where=where, number=self.window + 1, total=self.windows)


def _parts(tournament: Tournament) -> list[_Part]:
    """The regions of a bracket, in play order: every two rounds of a section that follow each other (each round
    with the round it feeds, so every match is drawn joined to the match its winner plays next), a round of many
    matches split in windows of :data:`PART_ROWS`."""
    parts = []
    for section, rounds in _sections(tournament):
        groups = [rounds[index:index + PART_COLUMNS] for index in range(max(1, len(rounds) - PART_COLUMNS + 1))]
        for group in groups:
            first = len(group[0].matches)
            windows = max(1, math.ceil(first / PART_ROWS))
            for window in range(windows):
                columns = []
                for round_ in group:
                    count = len(round_.matches)
                    # the matches in this window's share of the round: by position, scaled to the first round's
                    shown = tuple(match for index, match in enumerate(round_.matches)
                                  if index * first // max(count, 1) // PART_ROWS == window)
                    columns.append((round_, shown))
                if any(matches for _, matches in columns):
                    parts.append(_Part(section, tuple(columns), window, windows))
    return parts


def _match_words(match: Match, names: Mapping[int, str], say: Texts) -> str:
    """A match as :func:`outcome_text` says it, without its markdown (for alt text)."""
    return outcome_text(match, names, say).replace("`", "").replace("**", "")


@dataclass(frozen=True)
class PlacedBox:
    """A match's box in a picture of parts: which part (index), which column of it, and its rectangle."""

    part: int
    column: int
    match: Match
    x: int
    y: int
    width: int
    height: int

    @property
    def left_middle(self) -> tuple[int, int]:
        return (self.x, self.y + self.height // 2)

    @property
    def right_middle(self) -> tuple[int, int]:
        return (self.x + self.width, self.y + self.height // 2)


@dataclass(frozen=True)
class PartsLayout:
    """Where everything of a picture of parts goes: its height (its width is :data:`PREVIEW_WIDTH`), each part's
    top, each round's column (part, left edge), every match's box and every connector (a polyline from a box's
    right edge to the left edge of the box of the match its player goes on to)."""

    height: int
    tops: tuple[int, ...]
    columns: tuple[tuple[int, int, int], ...]  # (part, column, x)
    boxes: tuple[PlacedBox, ...]
    connectors: tuple[tuple[tuple[int, int], ...], ...]


def parts_layout(parts: Sequence[_Part]) -> PartsLayout:
    """The geometry of one picture of ``parts`` (what :func:`_part_image` draws)."""
    height = PART_MARGIN * 2 + PART_TITLE_SIZE + 10 + sum(part.height for part in parts)
    top = PART_MARGIN + PART_TITLE_SIZE + 10
    tops, columns, boxes, connectors = [], [], [], []
    for number, part in enumerate(parts):
        tops.append(top)
        body_top = top + PART_LABEL_SIZE + 26 + PART_LABEL_SIZE + 8
        body_height = part.rows * (PART_BOX_H + GAP_Y)
        used = len(part.columns) * PART_BOX_W + (len(part.columns) - 1) * PART_GAP_X
        left = (PREVIEW_WIDTH - used) // 2
        previous: dict[str, PlacedBox] = {}
        for column, (_round, matches) in enumerate(part.columns):
            x = left + column * (PART_BOX_W + PART_GAP_X)
            columns.append((number, column, x))
            slot = body_height / max(len(matches), 1)
            placed: dict[str, PlacedBox] = {}
            for index, match in enumerate(matches):
                y = int(body_top + slot * index + (slot - PART_BOX_H) / 2)
                box = PlacedBox(number, column, match, x, y, PART_BOX_W, PART_BOX_H)
                boxes.append(box)
                placed[match.key] = box
                connectors += _connectors(previous, box, PART_GAP_X)
            previous = placed
        top += part.height
    return PartsLayout(height, tuple(tops), tuple(columns), tuple(boxes), tuple(connectors))


def _connectors(previous: Mapping[str, PlacedBox], box: PlacedBox,
                gap_x: int) -> list[tuple[tuple[int, int], ...]]:
    """The lines from the boxes of the matches that feed ``box``'s match (those in ``previous``) to it."""
    x, y = box.left_middle
    lines = []
    for source in box.match.sources:
        if source is not None and source.match in previous:
            px, py = previous[source.match].right_middle
            mid = x - gap_x // 2
            lines.append(((px, py), (mid, py), (mid, y), (x, y)))
    return lines


def _part_image(parts: Sequence[_Part], names: Mapping[int, str], tournament: Tournament, title: str,
                say: Texts) -> bytes:
    drawn = parts_layout(parts)
    image = Image.new("RGB", (PREVIEW_WIDTH, drawn.height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw_text(draw, (PART_MARGIN, PART_MARGIN), fit(title, PART_TITLE_SIZE, PREVIEW_WIDTH - 2 * PART_MARGIN),
              size=PART_TITLE_SIZE, fill=TITLE_COLOUR)
    for part, top in zip(parts, drawn.tops, strict=True):
        draw_text(draw, (PART_MARGIN, top + 8), fit(part.heading(tournament, say), PART_LABEL_SIZE + 1,
                                                    PREVIEW_WIDTH - 24),
                  size=PART_LABEL_SIZE + 1, fill=DIM)
    for number, column, x in drawn.columns:
        round_ = parts[number].columns[column][0]
        label_y = drawn.tops[number] + PART_LABEL_SIZE + 26 + 8 - 6
        draw_text(draw, (x, label_y), fit(round_name(tournament, round_.label, say), PART_LABEL_SIZE, PART_BOX_W),
                  size=PART_LABEL_SIZE, fill=DIM)
    for line in drawn.connectors:
        draw.line(list(line), fill=LINE, width=1)
    for box in drawn.boxes:
        _box(draw, (box.x, box.y, box.width, box.height), box.match, names, tournament, PART_NAME_SIZE, say)
    return _png(image)


def picture_groups(tournament: Tournament) -> list[list[_Part]]:
    """The regions of an elimination bracket each of its pictures shows (:func:`pictures` draws them, numbered
    from 1, before leaving any out; :func:`parts_layout` has each one's geometry)."""
    groups: list[list[_Part]] = []
    for part in _parts(tournament):
        if groups and sum(p.height for p in groups[-1]) + part.height <= PART_MAX_HEIGHT - 60:
            groups[-1].append(part)
        else:
            groups.append([part])
    return groups


def _bracket_pictures(tournament: Tournament, names: Mapping[int, str], title: str, say: Texts) -> list[Picture]:
    _ = say
    groups = picture_groups(tournament)
    pictures_ = []
    for number, group in enumerate(groups, 1):
        png = _part_image(group, names, tournament, title, say)
        shown = "; ".join(part.heading(tournament, say) for part in group)
        words = "; ".join(_match_words(match, names, say) for part in group for match in part.matches)
        about = _alt(title, tournament, names, _("the bracket"), say)
        alt = _("{about}. Picture {number} of {total}: {shown}. {matches}", about=about, number=number,
                total=len(groups), shown=shown, matches=words)
        pictures_.append((group, Picture(png, f"bracket-{number}.png", clamp_line(alt, ALT_TEXT_LIMIT))))
    return _keep(pictures_)


def _keep(pictures_: list[tuple[list[_Part], Picture]]) -> list[Picture]:
    """At most :data:`MAX_PICTURES`: the first pictures whose matches are all decided go first (the text lists
    them), then those just before the last (the matches furthest from being played; the last holds the final)."""
    kept = list(pictures_)
    while len(kept) > MAX_PICTURES and all(match.is_decided for part in kept[0][0] for match in part.matches):
        kept.pop(0)
    if len(kept) > MAX_PICTURES:
        kept = kept[:MAX_PICTURES - 1] + kept[-1:]
    return [picture_ for _, picture_ in kept]


def pictures(tournament: Tournament, names: Mapping[int, str], title: str, say: Texts = ENGLISH) -> list[Picture]:
    """The tournament as pictures :data:`PREVIEW_WIDTH` pixels wide, each readable where Discord shows it: an
    elimination bracket by region (two rounds side by side, each round beside the round it feeds, at most
    :data:`PART_ROWS` matches of the first; small regions share a picture), standings by :data:`STANDINGS_ROWS`
    places. At most :data:`MAX_PICTURES` (one message's attachments): the earliest regions all decided are left
    out first, then those just before the last (the final stays). Files are ``bracket-1.png``,
    ``bracket-2.png``, ... (numbered among all the regions, so a left-out one leaves a gap); each alt text says
    what its picture holds."""
    _ = say
    if tournament.is_elimination:
        return _bracket_pictures(tournament, names, title, say)
    rows = tournament.standings()
    chunks = [rows[start:start + STANDINGS_ROWS] for start in range(0, len(rows), STANDINGS_ROWS)] or [[]]
    result = []
    for number, chunk in enumerate(chunks[:MAX_PICTURES], 1):
        what = _("the standings") if len(chunks) == 1 else _("the standings (places {first}–{last})",
                                                                   first=chunk[0].place, last=chunk[-1].place)
        heading = title if len(chunks) == 1 else _("{title} (places {first}–{last})", title=title,
                                                         first=chunk[0].place, last=chunk[-1].place)
        png = _standings_png(tournament, names, heading, chunk, last=number == len(chunks), say=say)
        alt = _alt(title, tournament, names, what, say)
        result.append(Picture(png, f"bracket-{number}.png", clamp_line(alt, ALT_TEXT_LIMIT)))
    return result


#: the standings table's column heads in English: place, player, points, wins, draws, losses, byes, Buchholz,
#: Sonneborn-Berger (:func:`standing_columns` in a language)
STANDING_COLUMNS = ("#", "Player", "Pts", "W", "D", "L", "Bye", "Buch.", "SB")


def standing_columns(say: Texts = ENGLISH) -> tuple[str, ...]:
    """The standings table's column heads in ``say``'s language (short: each fits its column)."""
    return ("#", say.pgettext("standings column", "Player"), say.pgettext("standings column", "Pts"),
            say.pgettext("standings column", "W"), say.pgettext("standings column", "D"),
            say.pgettext("standings column", "L"), say.pgettext("standings column", "Bye"),
            say.pgettext("standings column", "Buch."), say.pgettext("standings column", "SB"))
STANDING_WIDTHS = (36, 200, 46, 36, 36, 36, 40, 50, 46)  # with the margins, PREVIEW_WIDTH


def _standings_png(tournament: Tournament, names: Mapping[int, str], title: str, rows: Sequence, *,
                   last: bool = True, say: Texts = ENGLISH) -> bytes:
    _ = say
    line = 24
    margin = (PREVIEW_WIDTH - sum(STANDING_WIDTHS)) // 2
    width = margin * 2 + sum(STANDING_WIDTHS)
    height = margin * 2 + HEADER + line * (len(rows) + 1) + 20
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw_text(draw, (margin, margin), fit(title, 20, width - 2 * margin), size=20, fill=TITLE_COLOUR)
    y = margin + HEADER
    x = margin
    for label, w in zip(standing_columns(say), STANDING_WIDTHS, strict=True):
        draw_text(draw, (x, y), fit(label, 13, w - 4), size=13, fill=DIM)
        x += w
    for row in rows:
        y += line
        cells = [str(row.place), player_name(names, row.player, tournament, say), points_text(row.score, say),
                 str(row.wins), str(row.draws), str(row.losses), str(row.byes),
                 "" if row.buchholz is None else points_text(row.buchholz, say),
                 "" if row.sonneborn_berger is None else points_text(row.sonneborn_berger, say)]
        colour = DIM if row.status == "disqualified" else (WIN if row.player == tournament.champion else TEXT)
        x = margin
        for cell, w in zip(cells, STANDING_WIDTHS, strict=True):
            draw_text(draw, (x, y), fit(cell, 13, w - 6), size=13, fill=colour)
            x += w
    if last:
        round_ = tournament.current_round()
        footer = (_("Over.") if tournament.is_over
                  else _("Playing: {round}.", round=round_name(tournament, round_.label, say)) if round_ else "")
        draw_text(draw, (margin, y + line), footer, size=12, fill=DIM)
    return _png(image)


def points_text(value: float, say: Texts = ENGLISH) -> str:
    """Points as the language writes them (``1.5``, ``1,5``), a whole number without decimals."""
    return say.number(int(value)) if float(value).is_integer() else say.number(value)


# --- text ------------------------------------------------------------------------------------------------


def outcome_text(match: Match, names: Mapping[int, str], say: Texts = ENGLISH) -> str:
    _ = say
    first, second = (player_name(names, p, say=say) if known else "?"
                     for p, known in zip(match.players, match.known, strict=True))
    key = f"`{match.key}`"
    if match.outcome is None:
        if match.is_ready:
            return _("{key} {first} vs {second} — playing", key=key, first=first, second=second)
        return _("{key} {first} vs {second}", key=key, first=first, second=second)
    if match.outcome is MatchOutcome.BYE:
        return _("{key} {player} — bye", key=key, player=player_name(names, match.winner, say=say))
    if match.outcome is MatchOutcome.VOID:
        return _("{key} — not played", key=key)
    if match.outcome is MatchOutcome.DRAW:
        return _("{key} {first} vs {second} — draw", key=key, first=first, second=second)
    winner = player_name(names, match.winner, say=say)
    if match.outcome is MatchOutcome.FORFEIT:
        return _("{key} {first} vs {second} — **{winner}** wins (forfeit)", key=key, first=first, second=second,
                 winner=winner)
    return _("{key} {first} vs {second} — **{winner}** wins", key=key, first=first, second=second, winner=winner)


def bracket_text(tournament: Tournament, names: Mapping[int, str], *, limit: int = MESSAGE_LIMIT,
                 say: Texts = ENGLISH) -> str:
    """Every round and its matches (elimination), or the rounds' results (round robin, Swiss); latest rounds kept
    when it does not fit."""
    blocks: list[str] = []
    for round_ in tournament.rounds():
        head = f"**{round_name(tournament, round_.label, say)}**"
        lines = [outcome_text(match, names, say) for match in round_.matches
                 if match.outcome is not MatchOutcome.VOID]
        blocks.append("\n".join([head, *lines]))
    return _keep_last(blocks, limit, say)


def standings_text(tournament: Tournament, names: Mapping[int, str], *, limit: int = MESSAGE_LIMIT,
                   top: int | None = None, say: Texts = ENGLISH) -> str:
    _ = say
    rows = tournament.standings()[:top] if top else tournament.standings()
    lines = []
    for row in rows:
        name = player_name(names, row.player, say=say)
        if tournament.is_elimination:
            state = finish_words(tournament, row, say)
            lines.append(_("{place}. {player} — {state} ({wins}–{losses})", place=row.place, player=name,
                           state=state, wins=row.wins, losses=row.losses))
        else:
            record = _("{wins}W {draws}D {losses}L", wins=row.wins, draws=row.draws, losses=row.losses)
            if row.byes:
                record += ", " + _.ngettext("{count} bye", "{count} byes", row.byes)
            breaks = []
            if row.buchholz is not None:
                breaks.append(_("Buchholz {points}", points=points_text(row.buchholz, say)))
            if row.sonneborn_berger is not None:
                breaks.append(_("SB {points}", points=points_text(row.sonneborn_berger, say)))
            line = _("{place}. {player} — {points} pts ({record})", place=row.place, player=name,
                     points=points_text(row.score, say), record=record)
            if breaks:
                line += ", " + ", ".join(breaks)
            if row.status == "disqualified":
                line += " — " + _("disqualified")
            elif tournament.is_over and row.player == tournament.champion:
                line += " — " + _("🏆 champion")
            lines.append(line)
    return clamp("\n".join(lines), limit, say)


def finish_words(tournament: Tournament, row: StandingRow, say: Texts = ENGLISH) -> str:
    """Where an elimination player finished, in words: champion, runner-up (the final's loser), out in a named
    round ("out in the Semifinals"), still in, disqualified; never a match key."""
    _ = say
    if row.status == "champion":
        return _("🏆 champion")
    if row.status == "active":
        return _("still in")
    if row.status == "disqualified":
        return _("disqualified")
    key = row.eliminated_in or ""
    if key == tournament.matches()[-1].key:
        return _("🥈 runner-up: lost the final")
    return _("out in {round}", round=round_name(tournament, key, say))  # (the round of the match)


def _keep_last(blocks: Sequence[str], limit: int, say: Texts = ENGLISH) -> str:
    kept: list[str] = []
    size = 0
    for block in reversed(blocks):
        if size + len(block) + 2 > limit - 40:
            left = len(blocks) - len(kept)
            kept.insert(0, say.ngettext("… {count} earlier round", "… {count} earlier rounds", left))
            break
        kept.insert(0, block)
        size += len(block) + 2
    return clamp("\n\n".join(kept), limit, say)
