"""The bracket picture and text: every format draws a PNG of a sensible size, the winner is drawn in the winner's
colour, names and results show in the text, big brackets stay a reasonable size."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.render import bracket
from bot.tournaments import Format, Tournament
from tests.bot.tournaments.support import play_out

NAMES = {player: f"player-{player}" for player in range(300)}


def image_of(picture) -> Image.Image:
    return Image.open(io.BytesIO(picture.png))


@pytest.mark.parametrize("format", [f.value for f in Format])
@pytest.mark.parametrize("players", [2, 5, 8])
def test_every_format_draws_and_lists_the_champion(format, players):
    tournament = Tournament.new(format, list(range(players)), rng=random.Random(1))
    before = bracket.picture(tournament, NAMES, "Cup")
    play_out(tournament, random.Random(2))
    picture = bracket.picture(tournament, NAMES, "Cup")
    after = image_of(picture)
    assert picture.filename == "bracket.png" and after.format == "PNG"
    assert 200 < after.width < 4000 and 100 < after.height < 8000
    assert picture.png != before.png
    champion = tournament.champion
    if champion is not None:
        assert "champion" in picture.alt and NAMES[champion] in picture.alt
        assert NAMES[champion] in bracket.standings_text(tournament, NAMES)
    text = bracket.bracket_text(tournament, NAMES)
    assert len(text) <= 2000 and ("wins" in text or "draw" in text)


def test_a_decided_match_draws_its_winner_in_colour():
    tournament = Tournament.new("single_elimination", [1, 2], seeded=True)
    blank = image_of(bracket.picture(tournament, NAMES, "Final"))
    tournament.record_result("W1-1", 2)
    decided = image_of(bracket.picture(tournament, NAMES, "Final"))

    def green(image):
        return sum(1 for pixel in image.get_flattened_data() if pixel == bracket.WIN)
    assert green(blank) == 0 < green(decided)
    assert "**player-2 (2)** wins" not in bracket.bracket_text(tournament, NAMES)
    assert "**player-2** wins" in bracket.bracket_text(tournament, NAMES)


def test_a_256_player_bracket_stays_small_and_its_text_fits():
    tournament = Tournament.new("single_elimination", list(range(256)), rng=random.Random(3))
    play_out(tournament, random.Random(4))
    picture = image_of(bracket.picture(tournament, NAMES, "Big"))
    assert picture.height < (bracket.MAX_BOXES + 2) * (bracket.BOX_H + bracket.GAP_Y) + 200
    text = bracket.bracket_text(tournament, NAMES)
    assert len(text) <= 2000 and "earlier rounds" in text and "W8" in text


def test_standings_text_shows_tie_breaks_in_swiss():
    tournament = Tournament.new("swiss", list(range(6)), rng=random.Random(5))
    play_out(tournament, random.Random(6))
    text = bracket.standings_text(tournament, NAMES)
    assert text.count("\n") == 5 and "Buchholz" in text and "SB" in text
    assert text.startswith(f"1. {NAMES[tournament.standings()[0].player]}")
