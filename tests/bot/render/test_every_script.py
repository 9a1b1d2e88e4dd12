"""Every kind of picture the bot makes draws every name, whatever its script: each character by a font of the
bundled stack whose character map has it (read from the font files with fontTools), none dropped, none replaced.

The kinds: any row of cards, War's chart of the card counts, the rating chart of /stats, the tournament bracket
(whole and split) and the standings (whole and split). (Air War's live table is text: it draws no picture.)
"""

from __future__ import annotations

import io
import random
import unicodedata
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from PIL import Image

from bot.games.war import render as war
from bot.games.war.engine import War
from bot.render import bracket, fonts
from bot.render import stats as stats_render
from bot.render.cards import CardRow, card_rows_png
from bot.render.common import Picture
from bot.services.stats import PlayerStats, Streak
from bot.tournaments import Tournament
from tests.bot.tournaments.support import step

NAMES = ["Zoë Ångström", "Αλέξανδρος", "Дмитрий", "山田太郎", "김민준", "さくら", "🦊 Fox"]
MENTIONS = ["<@1>", "<@2>"]


def cmap_of(font: fonts.StackFont) -> set[int]:
    """The font's character map read straight from its file (not the stack's cached copy)."""
    source = font.source if isinstance(font.source, Path) else io.BytesIO(font.source())
    return set(TTFont(source, lazy=True).getBestCmap())


CMAPS: dict[fonts.StackFont, set[int]] = {}


def check_drawn(drawn: list[fonts.Drawn], names: list[str]) -> None:
    """Each text drawn is drawn whole, each character by a font that has it; each name is among the texts."""
    assert drawn, "nothing was drawn"
    for text in drawn:
        pieces = "".join(run.text for run in text.runs)
        assert pieces == unicodedata.normalize("NFC", text.text), f"{text.text!r} was drawn as {pieces!r}"
        for run in text.runs:
            cmap = CMAPS.setdefault(run.font, cmap_of(run.font))
            missing = [char for char in run.text if ord(char) not in cmap]
            assert not missing, f"{missing} drawn with {run.font.name}, which lacks them ({text.text!r})"
            assert fonts.REPLACEMENT not in run.text
    for name in names:
        assert any(name in text.text for text in drawn), f"{name!r} was not drawn"
        used = {run.font.name for text in drawn if name in text.text for run in text.runs}
        assert used <= {"DejaVu Sans", "DejaVu Sans Bold", "WenQuanYi Micro Hei", "Noto Emoji"}


def is_png(picture: Picture | bytes) -> Image.Image:
    data = picture.png if isinstance(picture, Picture) else picture
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


def test_a_row_of_cards_draws_every_label_and_caption():
    rows = [CardRow(["AS", "10H", None], name, captions=[name, "2 deck tie", "—"]) for name in NAMES]
    with fonts.recording() as drawn:
        is_png(card_rows_png(rows))
    check_drawn(drawn, NAMES)
    assert any(text.text == "—" for text in drawn)


def test_war_chart_draws_every_player():
    game = War.new(War.resolve_rules({"max_rounds": 30}), seed=4)
    points = [game.view(None)["card_counts"]]
    while not game.is_over:
        game.play_round()
        points.append(game.view(None)["card_counts"])
    for seats in (NAMES[:2], NAMES[2:4], NAMES[4:6], [NAMES[6], NAMES[0]]):
        with fonts.recording() as drawn:
            surface = war.result(game.view(None), MENTIONS, "war", image_names=seats, points=points,
                                 rounds=list(range(len(points))))
            is_png(surface.picture)
        check_drawn(drawn, seats)


def test_rating_chart_draws_the_name_and_whole_match_ticks():
    for name in NAMES:
        data = PlayerStats(guild_id=1, user_id=5, game="airwar", games=1, wins=0, losses=1, draws=0,
                           current_streak=Streak("loss", 1), best_streak=0, rating=-1.8, best_rating=0.0,
                           provisional=True, history=(("airwar", (0.0, -1.8)),), most_played=None, per_game=())
        with fonts.recording() as drawn:
            picture = stats_render.rating_chart(data, name)
            is_png(picture)
        check_drawn(drawn, [name])
        texts = {text.text for text in drawn}
        # x: 0 and 1 matches played, nothing between
        assert {"0", "1"} <= texts and not texts & {"0.2", "0.4", "0.5", "0.6", "0.8"}


@pytest.mark.parametrize("format", ["single_elimination", "double_elimination", "round_robin", "swiss"])
def test_bracket_and_standings_draw_every_name_and_fill_empty_slots_with_a_dash(format):
    players = list(range(1, 15))
    names = {player: NAMES[player % len(NAMES)] + ("" if player <= len(NAMES) else " 2") for player in players}
    tournament = Tournament.new(format, players, rng=random.Random(1))
    rng = random.Random(2)
    for _ in range(5):
        step(tournament, rng, draws=False)
    with fonts.recording() as drawn:
        is_png(bracket.picture(tournament, names, "Cup 🏆 — 杯"))
    check_drawn(drawn, [*names.values(), "Cup 🏆 — 杯"])
    if tournament.is_elimination:
        assert any(text.text == bracket.EMPTY_SLOT for text in drawn)
    with fonts.recording() as drawn:
        for picture in bracket.pictures(tournament, names, "Cup 🏆 — 杯"):
            assert is_png(picture).width == bracket.PREVIEW_WIDTH
    check_drawn(drawn, [*names.values(), "Cup 🏆 — 杯"])
