"""A tournament as a picture and as text: the bracket (elimination) or the standings (round robin, Swiss).

Pure: takes a :class:`bot.tournaments.Tournament` and plain names (``names``: player id -> display name; a
picture cannot show a mention). The picture is a PNG drawn with Pillow's bundled font; an elimination bracket
is one column per round and one box per match (winners' bracket, then losers' bracket and the grand final),
the winner of a decided match in bold colour; standings are a table. Text: ``/tournament bracket`` and
``/tournament status`` show it, clamped to a message. A player who deleted their data (a negative id, see
:func:`bot.storage.tournaments.placeholder_for`) is shown as "deleted player".
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from bot.render.cards import font
from bot.render.common import MESSAGE_LIMIT, Picture, clamp
from bot.render.stats import DELETED
from bot.tournaments import Format, Match, MatchOutcome, Round, Tournament

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

FORMAT_NAMES = {
    Format.SINGLE_ELIMINATION: "single elimination",
    Format.DOUBLE_ELIMINATION: "double elimination",
    Format.ROUND_ROBIN: "round robin",
    Format.SWISS: "Swiss",
}
BRACKET_NAMES = {"winners": "Winners' bracket", "losers": "Losers' bracket", "grand_final": "Grand final"}


def mention(player: int | None) -> str:
    """A player in a message: a mention, or "deleted player" for one who deleted their data (a negative id)."""
    if player is None:
        return "nobody"
    return DELETED if player < 0 else f"<@{player}>"


def player_name(names: Mapping[int, str], player: int | None, tournament: Tournament | None = None) -> str:
    if player is None:
        return "bye"
    name = DELETED if player < 0 else names.get(player) or f"Player {player % 10_000}"
    if tournament is not None and player in tournament.players:
        return f"{name} ({tournament.seed_of(player)})"
    return name


def _fit(draw: ImageDraw.ImageDraw, text: str, width: int, size: int) -> str:
    face = font(size)
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…"


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=3)
    return buffer.getvalue()


def picture(tournament: Tournament, names: Mapping[int, str], title: str) -> Picture:
    """The bracket (elimination) or the standings table, as a PNG."""
    if tournament.is_elimination:
        png = _bracket_png(tournament, names, title)
        alt = f"{title}: the bracket, {len(tournament.players)} players"
    else:
        png = _standings_png(tournament, names, title)
        alt = f"{title}: the standings, {len(tournament.players)} players"
    if tournament.is_over:
        alt += f"; champion {player_name(names, tournament.champion) if tournament.champion is not None else 'none'}"
    return Picture(png, "bracket.png", alt[:1024])


def _sections(tournament: Tournament) -> list[tuple[str, list[Round]]]:
    sections: dict[str, list[Round]] = {}
    for round_ in tournament.rounds():
        sections.setdefault(round_.bracket, []).append(round_)
    return [(name, rounds) for name, rounds in sections.items()]


def _bracket_png(tournament: Tournament, names: Mapping[int, str], title: str) -> bytes:
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
    draw.text((MARGIN, MARGIN), _fit(draw, title, width - 2 * MARGIN, 20), fill=TITLE_COLOUR, font=font(20))
    top = MARGIN + HEADER
    for (name, rounds), section_height in zip(trimmed, heights, strict=True):
        if len(trimmed) > 1:
            draw.text((MARGIN, top), BRACKET_NAMES.get(name, name), fill=DIM, font=font(14))
        body_top = top + HEADER
        body_height = section_height - HEADER
        previous: dict[str, tuple[int, int]] = {}
        for column, round_ in enumerate(rounds):
            x = MARGIN + column * (BOX_W + GAP_X)
            count = len(round_.matches)
            slot = body_height / max(count, 1)
            draw.text((x, body_top - 16), round_.label, fill=DIM, font=font(12))
            centres: dict[str, tuple[int, int]] = {}
            for index, match in enumerate(round_.matches):
                y = int(body_top + slot * index + (slot - BOX_H) / 2)
                _box(draw, x, y, match, names, tournament)
                centres[match.key] = (x, y + BOX_H // 2)
                for source in match.sources:
                    if source is not None and source.match in previous:
                        px, py = previous[source.match]
                        mid = x - GAP_X // 2
                        draw.line([(px + BOX_W, py), (mid, py), (mid, y + BOX_H // 2), (x, y + BOX_H // 2)],
                                  fill=LINE, width=1)
            previous = centres
        top += section_height + HEADER
    return _png(image)


def _box(draw: ImageDraw.ImageDraw, x: int, y: int, match: Match, names: Mapping[int, str],
         tournament: Tournament) -> None:
    draw.rectangle([x, y, x + BOX_W, y + BOX_H], fill=BOX, outline=LINE)
    for slot in (0, 1):
        player = match.players[slot]
        known = match.known[slot]
        text = player_name(names, player, tournament) if known else "—"
        colour = TEXT
        if match.is_decided and match.winner is not None:
            colour = WIN if player == match.winner else DIM
        if player is None and known:
            colour = DIM
        draw.text((x + 6, y + 3 + slot * (BOX_H // 2)), _fit(draw, text, BOX_W - 12, 13), fill=colour, font=font(13))


STANDING_COLUMNS = ("#", "Player", "Pts", "W", "D", "L", "Bye", "Buch.", "SB")


def _standings_png(tournament: Tournament, names: Mapping[int, str], title: str) -> bytes:
    rows = tournament.standings()
    widths = [40, 220, 50, 40, 40, 40, 44, 60, 60]
    line = 24
    width = MARGIN * 2 + sum(widths)
    height = MARGIN * 2 + HEADER + line * (len(rows) + 1) + 20
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), _fit(draw, title, width - 2 * MARGIN, 20), fill=TITLE_COLOUR, font=font(20))
    y = MARGIN + HEADER
    x = MARGIN
    for label, w in zip(STANDING_COLUMNS, widths, strict=True):
        draw.text((x, y), label, fill=DIM, font=font(13))
        x += w
    for row in rows:
        y += line
        cells = [str(row.place), player_name(names, row.player, tournament), _points(row.score), str(row.wins),
                 str(row.draws), str(row.losses), str(row.byes),
                 "" if row.buchholz is None else _points(row.buchholz),
                 "" if row.sonneborn_berger is None else _points(row.sonneborn_berger)]
        colour = DIM if row.status == "disqualified" else (WIN if row.player == tournament.champion else TEXT)
        x = MARGIN
        for cell, w in zip(cells, widths, strict=True):
            draw.text((x, y), _fit(draw, cell, w - 6, 13), fill=colour, font=font(13))
            x += w
    round_ = tournament.current_round()
    footer = "Over." if tournament.is_over else f"Playing {round_.label}." if round_ else ""
    draw.text((MARGIN, y + line), footer, fill=DIM, font=font(12))
    return _png(image)


def _points(value: float) -> str:
    return f"{value:g}"


# --- text ------------------------------------------------------------------------------------------------


def outcome_text(match: Match, names: Mapping[int, str]) -> str:
    first, second = (player_name(names, p) if known else "?" for p, known in zip(match.players, match.known,
                                                                                   strict=True))
    if match.outcome is None:
        return f"`{match.key}` {first} vs {second}" + (" — playing" if match.is_ready else "")
    if match.outcome is MatchOutcome.BYE:
        return f"`{match.key}` {player_name(names, match.winner)} — bye"
    if match.outcome is MatchOutcome.VOID:
        return f"`{match.key}` — not played"
    if match.outcome is MatchOutcome.DRAW:
        return f"`{match.key}` {first} vs {second} — draw"
    winner = player_name(names, match.winner)
    how = " (forfeit)" if match.outcome is MatchOutcome.FORFEIT else ""
    return f"`{match.key}` {first} vs {second} — **{winner}** wins{how}"


def bracket_text(tournament: Tournament, names: Mapping[int, str], *, limit: int = MESSAGE_LIMIT) -> str:
    """Every round and its matches (elimination), or the rounds' results (round robin, Swiss); latest rounds kept
    when it does not fit."""
    blocks: list[str] = []
    for round_ in tournament.rounds():
        head = f"**{BRACKET_NAMES.get(round_.bracket, 'Round')} {round_.label}**" if round_.bracket != "rounds" \
            else f"**Round {round_.number}**"
        lines = [outcome_text(match, names) for match in round_.matches
                 if match.outcome is not MatchOutcome.VOID]
        blocks.append("\n".join([head, *lines]))
    return _keep_last(blocks, limit)


def standings_text(tournament: Tournament, names: Mapping[int, str], *, limit: int = MESSAGE_LIMIT,
                   top: int | None = None) -> str:
    rows = tournament.standings()[:top] if top else tournament.standings()
    lines = []
    for row in rows:
        name = player_name(names, row.player)
        if tournament.is_elimination:
            state = {"champion": "🏆 champion", "active": "still in", "disqualified": "disqualified"}.get(
                row.status, f"out in {row.eliminated_in}")
            lines.append(f"{row.place}. {name} — {state} ({row.wins}–{row.losses})")
        else:
            breaks = []
            if row.buchholz is not None:
                breaks.append(f"Buchholz {_points(row.buchholz)}")
            if row.sonneborn_berger is not None:
                breaks.append(f"SB {_points(row.sonneborn_berger)}")
            dq = " — disqualified" if row.status == "disqualified" else ""
            lines.append(f"{row.place}. {name} — {_points(row.score)} pts ({row.wins}W {row.draws}D {row.losses}L"
                         f"{f', {row.byes} bye' if row.byes else ''}){', ' + ', '.join(breaks) if breaks else ''}"
                         f"{dq}")
    return clamp("\n".join(lines), limit)


def _keep_last(blocks: Sequence[str], limit: int) -> str:
    kept: list[str] = []
    size = 0
    for block in reversed(blocks):
        if size + len(block) + 2 > limit - 40:
            kept.insert(0, f"… {len(blocks) - len(kept)} earlier rounds")
            break
        kept.insert(0, block)
        size += len(block) + 2
    return clamp("\n\n".join(kept), limit)
