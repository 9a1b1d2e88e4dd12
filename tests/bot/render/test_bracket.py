"""The bracket picture and text: every format draws a PNG of a sensible size, the winner is drawn in the winner's
colour, names and results show in the text, big brackets stay a reasonable size."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image

from bot.i18n import texts
from bot.render import bracket
from bot.tournaments import Format, Tournament
from tests.bot.i18n.pseudo import PSEUDO, english_left, pseudo_language
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


def first_round_keys(tournament: Tournament) -> set[str]:
    return {match.key for match in tournament.rounds()[0].matches}


@pytest.mark.parametrize("format", ["single_elimination", "double_elimination", "round_robin", "swiss"])
@pytest.mark.parametrize("players", [2, 4, 9, 64])
def test_pictures_read_at_discords_preview_width(format, players):
    tournament = Tournament.new(format, list(range(players)), rng=random.Random(7))
    pictures = bracket.pictures(tournament, NAMES, "Cup")
    assert 1 <= len(pictures) <= bracket.MAX_PICTURES
    assert len({picture.filename for picture in pictures}) == len(pictures)
    for picture in pictures:
        image = image_of(picture)
        assert image.width == bracket.PREVIEW_WIDTH and image.height <= bracket.PART_MAX_HEIGHT
        assert "Cup" in picture.alt and len(picture.alt) <= 1024
    if tournament.is_elimination and players < 64:  # every first-round match is in a picture (its alt says)
        shown = " ".join(picture.alt for picture in pictures)
        assert all(f"{key} " in shown for key in first_round_keys(tournament))
    assert pictures == bracket.pictures(tournament, NAMES, "Cup")  # the same bytes again


def test_a_64_player_bracket_is_split_by_region_and_its_first_round_is_all_there():
    tournament = Tournament.new("single_elimination", list(range(64)), rng=random.Random(8))
    pictures = bracket.pictures(tournament, NAMES, "Big")
    whole = image_of(bracket.picture(tournament, NAMES, "Big"))
    assert whole.width > 4 * bracket.PREVIEW_WIDTH // 2  # the one picture is far too wide to read in Discord
    # each round beside the round it feeds: W1-W2 in four regions of 8 + 4 matches, W2-W3 in two, W3-W4 on, the
    # last regions stacked in one picture
    assert len(pictures) == 8
    alts = [picture.alt for picture in pictures]
    for number in range(1, 33):
        assert sum(f"W1-{number} " in alt for alt in alts) == 1
    assert "W6-1" in alts[-1]


def test_over_ten_pictures_leave_out_decided_regions_first_and_keep_the_final():
    tournament = Tournament.new("double_elimination", list(range(64)), rng=random.Random(9))
    pictures = bracket.pictures(tournament, NAMES, "Big")
    assert len(pictures) == bracket.MAX_PICTURES and "GF" in pictures[-1].alt and "W1-1 " in pictures[0].alt
    for label in ("W1", "W2"):  # the first region of the winners' bracket all decided
        for match in next(round_ for round_ in tournament.rounds() if round_.label == label).matches:
            tournament.record_result(match.key, match.players[0])
    later = bracket.pictures(tournament, NAMES, "Big")
    assert len(later) <= bracket.MAX_PICTURES and "GF" in later[-1].alt
    assert not any("W1-1 " in picture.alt for picture in later)


def test_standings_are_split_by_twenty_places():
    tournament = Tournament.new("round_robin", list(range(45)), rng=random.Random(10))
    pictures = bracket.pictures(tournament, NAMES, "League")
    assert len(pictures) == 3
    assert "places 1–20" in pictures[0].alt and "places 41–45" in pictures[2].alt


# --- in other languages ------------------------------------------------------------------------------------------


def test_the_pictures_and_texts_speak_russian():
    ru = texts("ru")
    tournament = Tournament.new("single_elimination", list(range(4)), rng=random.Random(1))
    play_out(tournament, random.Random(2))
    pictures = bracket.pictures(tournament, NAMES, "Cup", ru)
    alt = pictures[0].alt
    assert alt.startswith("Cup: сетка, 4 игрока; чемпион: player-")
    assert "Картинка 1 из 1: Полуфиналы и Финал." in alt and "Верхняя сетка" not in alt  # one bracket only
    assert english_left(alt, ["Cup", *NAMES.values()]) == []
    assert pictures != bracket.pictures(tournament, NAMES, "Cup")  # the picture's own words too
    text = bracket.bracket_text(tournament, NAMES, say=ru)
    assert text.splitlines()[0] == "**Полуфиналы**" and "побеждает" in text
    assert english_left(text, ["Cup", *NAMES.values()]) == []
    standings = bracket.standings_text(tournament, NAMES, say=ru)
    assert "🏆 чемпион" in standings and english_left(standings, list(NAMES.values())) == []


def test_the_standings_table_speaks_german():
    de = texts("de")
    assert bracket.standing_columns(de) == ("#", "Spieler", "Pkt.", "S", "U", "N", "Frei", "Buchh.", "SB")
    tournament = Tournament.new("swiss", list(range(5)), rng=random.Random(3))
    play_out(tournament, random.Random(4))
    text = bracket.standings_text(tournament, NAMES, say=de)
    assert " Pkt. (" in text and "Buchholz " in text and " pts" not in text
    assert bracket.points_text(1.5, de) == "1,5" and bracket.points_text(2.0, de) == "2"
    pictures = bracket.pictures(tournament, NAMES, "Liga", de)
    assert pictures[0].alt.startswith("Liga: die Tabelle, 5 Spieler")


@pytest.mark.parametrize("format", [f.value for f in Format])
def test_every_picture_and_text_goes_through_the_catalogues(format):
    """In the pseudo-language no alt text, bracket text or standings text shows English (the match keys, ``W1-2``,
    stay as they are: one letter)."""
    with pseudo_language():
        say = texts(PSEUDO)
        tournament = Tournament.new(format, list(range(6)), rng=random.Random(5))
        for _ in range(2):
            shown = [picture.alt for picture in bracket.pictures(tournament, NAMES, "Cup", say)]
            shown.append(bracket.picture(tournament, NAMES, "Cup", say).alt)
            shown.append(bracket.bracket_text(tournament, NAMES, say=say))
            shown.append(bracket.standings_text(tournament, NAMES, say=say))
            shown.append(" ".join(bracket.standing_columns(say)))
            names = ["Cup", *NAMES.values(), "GF", "GF2"]  # the grand final's match keys
            assert [english_left(text, names) for text in shown] == [[]] * len(shown), shown
            play_out(tournament, random.Random(6))


@pytest.mark.parametrize("format", ["single_elimination", "double_elimination"])
@pytest.mark.parametrize("players", [3, 4, 8, 12, 16, 64])
def test_every_round_of_the_pictures_is_joined_to_the_next(format, players):
    from tests.bot.render.bracket_geometry import unjoined_matches

    tournament = Tournament.new(format, list(range(players)), rng=random.Random(1))
    play_out(tournament, random.Random(2))
    pngs = [bracket._part_image(group, NAMES, tournament, "Cup", texts("en"))
            for group in bracket.picture_groups(tournament)]
    assert unjoined_matches(tournament, pngs) == []


def test_a_single_elimination_is_not_called_a_winners_bracket():
    single = Tournament.new("single_elimination", list(range(8)), rng=random.Random(1))
    double = Tournament.new("double_elimination", list(range(8)), rng=random.Random(1))
    single_alt = " ".join(picture.alt for picture in bracket.pictures(single, NAMES, "Cup"))
    double_alt = " ".join(picture.alt for picture in bracket.pictures(double, NAMES, "Cup"))
    assert "Winners' bracket" not in single_alt and "Quarterfinals and Semifinals" in single_alt
    assert "Winners' bracket" in double_alt and "Losers' bracket" in double_alt


def test_the_standings_say_each_elimination_place_in_words():
    tournament = Tournament.new("single_elimination", [1, 2, 3, 4], seeded=True)
    for key, winner in (("W1-1", 1), ("W1-2", 2), ("W2-1", 1)):
        tournament.record_result(key, winner)
    text = bracket.standings_text(tournament, NAMES)
    assert "1. player-1 — 🏆 champion" in text
    assert "2. player-2 — 🥈 runner-up: lost the final" in text
    assert "3. player-3 — out in Semifinals" in text and "3. player-4 — out in Semifinals" in text
    assert not re.search(r"\bW\d+-\d+\b", text)
    double = Tournament.new("double_elimination", [1, 2, 3, 4], seeded=True)
    play_out(double, random.Random(5))
    text = bracket.standings_text(double, NAMES)
    assert "runner-up" in text and "out in Losers'" in text and not re.search(r"\b(?:[WL]\d+-\d+|GF2?)\b", text)


def test_a_round_robin_champion_is_named_in_the_standings():
    tournament = Tournament.new("round_robin", [1, 2, 3], seeded=True)
    play_out(tournament, random.Random(5))
    first = bracket.standings_text(tournament, NAMES).splitlines()[0]
    assert first.startswith("1. ") and first.endswith("— 🏆 champion")
