"""The stats texts: numbers, deleted players, the chart, the board, settings and seasons as players read them.
Ratings come in as stored ordinals and read on the displayed scale (1500 + 24 x ordinal, whole, never negative)."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.i18n import texts
from bot.render import stats as render
from bot.services.stats import BotBoard, BotStanding, GameLine, HeadToHead, HistoryPage, PlayerStats, Streak
from bot.storage.records import BotRecord, ChipBoardRow, LeaderboardPage, LeaderboardRow
from bot.storage.seasons import Season
from bot.storage.settings import GuildSettings
from bot.storage.stats import PlayedMatch, SharedMatch
from tests.bot.i18n.pseudo import PSEUDO, english_left, pseudo_language

ALICE, BOB = 100, 200


def player_stats(**changes) -> PlayerStats:
    values = dict(guild_id=1, user_id=ALICE, game=None, games=5, wins=3, losses=1, draws=1,
                  current_streak=Streak("win", 2), best_streak=2, rating=3.25, best_rating=4.0, provisional=False,
                  history=(("all", (0.0, 1.0, 3.25)), ("airwar", (0.0, 2.0)), ("war", (0.0, -1.0))),
                  most_played=(BOB, 4),
                  per_game=(GameLine("airwar", 3, 2, 1, 0, 2.0, 2.5, False),
                            GameLine("war", 2, 1, 0, 1, None, -1.0, False)))
    values.update(changes)
    return PlayerStats(**values)


def test_stats_read_the_record_the_streaks_and_a_line_per_game():
    surface = render.stats(player_stats(), f"<@{ALICE}>")
    assert surface.title == "Stats — All games"
    lines = surface.text.splitlines()
    assert lines[0] == f"**<@{ALICE}>** — 5 games: 3 wins · 1 loss · 1 draw (win rate 60%)"
    assert lines[1] == "Current streak: 2 wins · best winning streak: 2 wins"
    assert lines[2] == "This season's combined rating: 1578 · best ever: 1596"
    assert lines[3] == f"Most played opponent: <@{BOB}> (4 games)"
    assert lines[5:] == ["**Air War**: 3 games, 2W 1L 0D · rating 1548 · best 1560",
                         "**War**: 2 games, 1W 0L 1D · rating — · best 1476"]
    single = render.stats(player_stats(game="war", most_played=(-1, 2)), "x")
    assert single.title == "Stats — War" and "Most played opponent: deleted player (2 games)" in single.text
    assert "**War**:" not in single.text
    empty = render.stats(player_stats(games=0, game="army"), "x")
    assert empty.text == "x hasn't finished a game of Army on this server yet."


def test_the_rating_chart_is_a_png_with_alt_text():
    picture = render.rating_chart(player_stats(), "Alice")
    assert picture is not None and picture.filename == "rating.png"
    image = Image.open(io.BytesIO(picture.png))
    assert image.format == "PNG" and image.size == (800, 400)
    assert picture.alt == ("Rating history: All games from 1500 to 1578 over 2 matches; Air War from 1500 to 1548 "
                           "over 1 match; War from 1500 to 1476 over 1 match")
    assert render.rating_chart(player_stats(history=()), "Alice") is None


def test_history_and_head_to_head_show_deleted_players_and_links():
    matches = (
        PlayedMatch(7, "airwar", 10, 70, 1_700_000_000.0, 0, "win", 1.0, 2.5, "forfeit", 0, (ALICE, -2)),
        PlayedMatch(5, "war", 10, None, 1_699_000_000.0, 1, "draw", 0.0, 0.5, "max_rounds", None, (BOB, ALICE)),
    )
    text = render.history(HistoryPage(1, ALICE, 2, 3, 2, 6, matches), f"<@{ALICE}>").text
    lines = text.splitlines()
    assert lines[0] == f"**<@{ALICE}>** — 6 finished matches"
    assert lines[1] == ("**3.** ✅ Won (forfeit) · Air War vs deleted player · <t:1700000000:d> · <#70> · rating 1560 "
                        "(+36) · match 7")
    assert lines[2] == f"**4.** 🤝 Draw · War vs <@{BOB}> · <t:1699000000:d> · <#10> · rating 1512 (+12) · match 5"
    assert lines[3] == "Page 2 of 3"

    shared = (SharedMatch(9, "airwar", 10, 90, 1_700_000_000.0, "out_of_cards", BOB, (ALICE, BOB)),)
    h2h = render.head_to_head(HeadToHead(1, ALICE, BOB, "airwar", 3, 1, 1, 1, 0, shared))
    assert h2h.title == "Head to head — Air War"
    assert h2h.text.splitlines()[:2] == [f"<@{ALICE}> vs <@{BOB}>: 3 games",
                                         f"<@{ALICE}>: 1 win · <@{BOB}>: 1 win · 1 draw"]
    assert h2h.text.splitlines()[-1] == f"• Air War · <@{BOB}> won · <t:1700000000:d> · <#90>"


def test_settings_and_seasons():
    current = GuildSettings(1, 90, 2000, "auto", False, {"war": {"pack": 36, "capture_pile": True}}, (5, 6), "pl")
    text = render.settings(current, ("airwar", "war"))
    assert text.splitlines() == [
        "**Server settings**", "Air War arrangement timer: 90 s", "Air War flip pace: 2 s between flips",
        "War's default pace: auto", "Thread per match: off (matches play in the channel)",
        "Matches may start in: <#5>, <#6>", "Public messages in: Polski", "Default rules:",
        "• Air War: the game’s defaults",
        "• War: capture_pile=true pack=36"]
    seasons = render.seasons([Season(1, "Season 1", None, 1_700_000_000.0), Season(2, "Spring", 1_700_000_000.0,
                                                                                    None)])
    assert seasons.splitlines() == ["**Seasons**", "1. Season 1 to <t:1700000000:d>",
                                    "2. Spring from <t:1700000000:d> (current)"]


def test_a_first_loss_reads_as_a_provisional_rating_below_1500_and_never_negative():
    first_loss = player_stats(games=1, wins=0, losses=1, draws=0, current_streak=Streak("loss", 1), best_streak=0,
                              rating=-1.833, best_rating=-1.833, provisional=True, history=(("all", (0.0, -1.833)),),
                              per_game=(GameLine("airwar", 1, 0, 1, 0, -1.833, -1.833, True),))
    lines = render.stats(first_loss, "x").text.splitlines()
    assert lines[2] == "This season's combined rating: 1456 (provisional) · best ever: 1456"
    assert lines[-1] == "**Air War**: 1 game, 0W 1L 0D · rating 1456 (provisional) · best 1456"
    assert render.rating_chart(first_loss, "Alice").alt == "Rating history: All games from 1500 to 1456 over 1 match"
    hopeless = player_stats(rating=-80.0, best_rating=-70.0, history=(("all", (0.0, -80.0)),))
    assert "combined rating: 0 · best ever: 0" in render.stats(hopeless, "x").text
    assert "to 0 over" in render.rating_chart(hopeless, "x").alt


def board_page(rows, *, page=1, pages=1, unranked=0) -> LeaderboardPage:
    return LeaderboardPage(1, "airwar", page, pages, 10, 3, len(rows), unranked, tuple(rows))


def row(rank: int, user_id: int, ordinal: float, wins: int, losses: int, draws: int = 0) -> LeaderboardRow:
    games = wins + losses + draws
    return LeaderboardRow(rank, user_id, None, wins, losses, draws, games, wins / games, ordinal, 25.0, 1.0)


def shown_on_a_phone(line: str, names: dict[int, str]) -> str:
    """The line as Discord draws it: mentions as @name, no markdown stars."""
    return re.sub(r"<@(\d+)>", lambda m: "@" + names[int(m[1])], line).replace("**", "")


def test_a_board_is_one_short_line_per_player_ranked_by_the_displayed_rating():
    # a long line: a three-digit rank, an 18-digit id (Discord's are 17 to 19 digits), a name of 16 characters
    big = 999_999_999_999_999_999
    rows = [row(1, ALICE, 20.0, 12, 4), row(2, BOB, 3.2, 3, 2, 1), row(100, big, -70.0, 99, 99, 9)]
    surface = render.board(board_page(rows), "Air War leaderboard")
    lines = surface.text.splitlines()
    assert surface.title == "Air War leaderboard" and "```" not in surface.text
    assert lines == [f"**1.** <@{ALICE}> **1980** · 12W 4L", f"**2.** <@{BOB}> **1577** · 3W 2L 1D",
                     f"**100.** <@{big}> **0** · 99W 99L 9D"]
    ratings = [int(re.search(r"> \*\*(\d+)\*\*", line)[1]) for line in lines]
    assert ratings == sorted(ratings, reverse=True) and min(ratings) >= 0
    names = {ALICE: "Alice", BOB: "Bob", big: "Sixteen letters!"}
    assert all(len(shown_on_a_phone(line, names)) <= 40 for line in lines)


def test_the_board_footer_pages_counts_provisional_players_and_points_to_help():
    footer = render.board_footer("airwar", 3, page=2, pages=4, unranked=2)
    assert footer.splitlines() == ["Page 2 of 4", "2 provisional players (fewer than 3 games) not ranked yet.",
                                   "Ranked after 3 games; a new rating starts at 1500. /help explains the ratings."]
    assert render.board_footer("all", 1, unranked=1).splitlines() == [
        "1 provisional player (fewer than 1 game) not ranked yet.",
        "Ranked after 1 game; a new rating starts at 1500. One rating over the matches of every game. "
        "/help explains the ratings."]
    assert "μ" not in footer and "openskill" not in footer
    assert render.board_footer("war", 3, unranked=2, current=False).startswith(
        "2 provisional players (fewer than 3 games) not ranked.\n")


# --- languages ------------------------------------------------------------------------------------------------


def pair(surface) -> tuple[str, str]:
    return surface.title, surface.text


def every_surface(say) -> list[str]:
    """Every text of the area rendered in ``say``'s language, from the same data as the tests above."""
    matches = (PlayedMatch(7, "airwar", 10, 70, 1_700_000_000.0, 0, "win", 1.0, 2.5, "forfeit", 0, (ALICE, -2)),
               PlayedMatch(5, "war", 10, None, 1_699_000_000.0, 1, "draw", 0.0, 0.5, "max_rounds", None, (BOB,)))
    shared = (SharedMatch(9, "airwar", 10, 90, 1_700_000_000.0, "out_of_cards", BOB, (ALICE, BOB)),
              SharedMatch(8, "war", 10, 90, 1_690_000_000.0, "max_rounds", None, (ALICE, BOB)))
    stats = player_stats(reactions=(("speedwar", (420, 380, 1210)),))
    current = GuildSettings(1, 90, 1500, "flip", True, {"war": {"pack": 36}}, (), "de")
    seasons = [Season(1, "Season 1", None, 1_700_000_000.0), Season(2, "Spring", 1_700_000_000.0, 1_710_000_000.0),
               Season(3, "Season 3", 1_710_000_000.0, None)]
    board = render.board(board_page([row(1, ALICE, 20.0, 12, 4), row(2, BOB, 3.2, 3, 2, 1)], pages=2),
                         render.board_title("airwar", render.season_name(seasons[0], say), False, say), say)
    chips = render.chips_board([ChipBoardRow(1, ALICE, None, 1500, -20, 1), ChipBoardRow(2, BOB, None, 900, 400, 3)],
                               render.chips_title("casinowar", say), say)
    standing = BotStanding(1, ALICE, (BotRecord(ALICE, "expert", 3, 1, 0), BotRecord(ALICE, "hard", 5, 2, 1)),
                           "expert")
    bots = BotBoard("airwar", seasons[1], False, 1, 2, (standing,))
    texts_shown = [
        *pair(render.stats(stats, f"<@{ALICE}>", say)),
        *pair(render.stats(player_stats(games=0, game="army"), "x", say)),
        *pair(render.stats(player_stats(games=0), "x", say)), render.rating_chart(stats, "Alice", say).alt,
        *pair(render.history(HistoryPage(1, ALICE, 2, 3, 2, 6, matches), f"<@{ALICE}>", say)),
        *pair(render.history(HistoryPage(1, ALICE, 1, 1, 5, 0, ()), "x", say)),
        *pair(render.head_to_head(HeadToHead(1, ALICE, BOB, None, 3, 1, 1, 1, 1, shared), say)),
        *pair(render.head_to_head(HeadToHead(1, ALICE, BOB, "war", 0, 0, 0, 0, 0, ()), say)),
        *pair(board), *pair(chips), render.chips_footer(1, 2, say), *pair(render.bot_board(bots, say)),
        render.bot_board_footer(1, 2, say),
        render.board_footer("all", 3, page=1, pages=2, unranked=2, say=say),
        render.board_footer("airwar", 1, unranked=1, current=False, say=say),
        render.empty_board(3, 2, None, say), render.empty_board(3, 0, "Spring", say),
        render.no_bot_games("airwar", None, say), render.no_bot_games("army", "Spring", say),
        render.seasons(seasons, say), render.settings(current, ("airwar", "war"), say),
    ]
    return [text for text in texts_shown if text]


def test_the_area_in_german_is_the_catalogues_words():
    de = texts("de")
    stats = render.stats(player_stats(), f"<@{ALICE}>", de)
    assert stats.title == de("Stats — {game}", game=de("All games")) == "Statistik — Alle Spiele"
    assert stats.text.splitlines()[:4] == [
        f"**<@{ALICE}>** — 5 Spiele: 3 Siege · 1 Niederlage · 1 Unentschieden (Siegquote 60 %)",
        "Aktuelle Serie: 2 Siege · beste Siegesserie: 2 Siege",
        "Gesamtwertung dieser Saison: 1578 · beste aller Zeiten: 1596",
        f"Häufigster Gegner: <@{BOB}> (4 Spiele)"]
    assert stats.text.splitlines()[-2] == "**Luftkrieg**: 3 Spiele, 2S 1N 0U · Wertung 1548 · Bestwert 1560"
    assert render.rating_chart(player_stats(), "Alice", de).alt == (
        "Verlauf der Wertung: Alle Spiele von 1500 auf 1578 in 2 Partien; Luftkrieg von 1500 auf 1548 in 1 Partie; "
        "Krieg von 1500 auf 1476 in 1 Partie")
    assert render.board_footer("airwar", 3, page=2, pages=4, unranked=2, say=de).splitlines() == [
        "Seite 2 von 4", "2 vorläufige Spieler (weniger als 3 Spiele) noch nicht in der Rangliste.",
        "Mindestens 3 Spiele für die Rangliste; eine neue Wertung beginnt bei 1500. /hilfe erklärt die Wertungen."]
    chips = render.chips_board([ChipBoardRow(1, ALICE, None, 1500, -20, 1)], render.chips_title("casinowar", de), de)
    assert chips.title == "Casino War — Chips"
    assert chips.text == f"**1.** <@{ALICE}> — **1.500** Chips · netto -20 an 1 Tisch"
    assert render.seasons([Season(1, "Season 1", None, None)], de) == "**Saisons**\n1. Saison 1 (aktuell)"


def test_the_area_in_russian_counts_in_russian():
    ru = texts("ru")
    assert render.board_footer("airwar", 3, unranked=5, say=ru).splitlines()[0] == (
        "5 игроков с предварительным рейтингом (меньше чем 3 игры) пока не в таблице.")
    h2h = render.head_to_head(HeadToHead(1, ALICE, BOB, "airwar", 22, 21, 1, 0, 0, ()), ru)
    assert h2h.title == "Личные встречи — Воздушная война"
    assert h2h.text.splitlines()[:2] == [f"<@{ALICE}> против <@{BOB}>: 22 игры",
                                         f"<@{ALICE}>: 21 победа · <@{BOB}>: 1 победа · 0 ничьих"]
    assert render.empty_board(3, 0, None, ru) == "В таблице пока никого: сыграй 3 игры, чтобы попасть в неё."


@pytest.mark.parametrize("language", ["de", "fr", "es", "pt_BR", "ru", "ro", "pl"])
def test_no_english_is_left_in_any_language(language):
    say = texts(language)
    english = every_surface(texts("en"))
    shown = every_surface(say)
    assert len(shown) == len(english)
    allowed = ["pack=36", "Spring", "Alice", "ms", "auto", "expert", "dm"]  # typed, names, units, loanwords
    for text, original in zip(shown, english, strict=True):
        assert text != original or not english_left(text, allowed), text


def test_the_pseudo_language_finds_no_english_in_the_area():
    with pseudo_language():
        for text in every_surface(texts(PSEUDO)):
            assert english_left(text, ["pack=36", "Spring", "Alice", "Deutsch"]) == [], text  # (a language's own name)
