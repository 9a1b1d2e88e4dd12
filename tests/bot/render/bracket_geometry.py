"""Checks on the geometry of a bracket's pictures: every match is joined by a drawn line to the match its winner
plays next, read from the layout the renderer draws (:func:`bot.render.bracket.parts_layout`) and, given the
PNGs, from the pixels themselves."""

from __future__ import annotations

import io
from collections.abc import Sequence
from itertools import pairwise

from PIL import Image

from bot.render import bracket
from bot.tournaments import Tournament
from bot.tournaments.model import Takes


def _points_on(line: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Every pixel strictly inside each segment of a polyline of horizontal and vertical segments."""
    points = []
    for (x1, y1), (x2, y2) in pairwise(line):
        if x1 == x2:
            points += [(x1, y) for y in range(min(y1, y2) + 1, max(y1, y2))]
        else:
            assert y1 == y2, "a connector goes across and down only"
            points += [(x, y1) for x in range(min(x1, x2) + 1, max(x1, x2))]
    return points


def unjoined_matches(tournament: Tournament, pngs: Sequence[bytes] | None = None) -> list[str]:
    """The matches (``key -> next key``) with no connector to the match their winner plays
    next, in any picture; with ``pngs`` (the pictures as posted, one per group), a connector counts only if every
    pixel of it is drawn in the line colour."""
    groups = bracket.picture_groups(tournament)
    layouts = [bracket.parts_layout(group) for group in groups]
    images = None if pngs is None else [Image.open(io.BytesIO(png)).convert("RGB") for png in pngs]
    if images is not None:
        assert len(images) == len(layouts), "one picture per group of regions"
    section = {round_.label: round_.bracket for round_ in tournament.rounds()}
    feeds = {}
    for match in tournament.matches():
        for source in match.sources:
            if (source is not None and source.takes is Takes.WINNER
                    and section[tournament.match(source.match).round] == section[match.round]):
                feeds[source.match] = match.key
    missing = []
    for key, next_key in feeds.items():
        joined = False
        for number, layout in enumerate(layouts):
            for here in (box for box in layout.boxes if box.match.key == key):
                there = [box for box in layout.boxes if box.match.key == next_key and box.part == here.part
                         and box.column == here.column + 1]
                for box in there:
                    for line in layout.connectors:
                        if line[0] != here.right_middle or line[-1] != box.left_middle:
                            continue
                        if images is None or all(images[number].getpixel(point) == bracket.LINE
                                                 for point in _points_on(line)):
                            joined = True
        if not joined:
            missing.append(f"{key} -> {next_key}")
    return missing
