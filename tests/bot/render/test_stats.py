"""The stats texts: numbers, deleted players, the chart, settings and seasons as players read them."""

from __future__ import annotations

import io

from PIL import Image

from bot.render import stats as render
from bot.services.stats import GameLine, HeadToHead, HistoryPage, PlayerStats, Streak
from bot.storage.seasons import Season
from bot.storage.settings import GuildSettings
from bot.storage.stats import PlayedMatch, SharedMatch

ALICE, BOB = 100, 200


def player_stats(**changes) -> PlayerStats:
    values = dict(guild_id=1, user_id=ALICE, game=None, games=5, wins=3, losses=1, draws=1,
                  current_streak=Streak("win", 2), best_streak=2, rating=3.25, best_rating=4.0,
                  history=(("all", (0.0, 1.0, 3.25)), ("airwar", (0.0, 2.0)), ("war", (0.0, -1.0))),
                  most_played=(BOB, 4),
                  per_game=(GameLine("airwar", 3, 2, 1, 0, 2.0, 2.5), GameLine("war", 2, 1, 0, 1, None, -1.0)))
    values.update(changes)
    return PlayerStats(**values)


def test_stats_read_the_record_the_streaks_and_a_line_per_game():
    surface = render.stats(player_stats(), f"<@{ALICE}>")
    assert surface.title == "Stats — All games"
    lines = surface.text.splitlines()
    assert lines[0] == f"**<@{ALICE}>** — 5 games: 3 wins · 1 loss · 1 draw (win rate 60%)"
    assert lines[1] == "Current streak: 2 wins · best winning streak: 2 wins"
    assert lines[2] == "This season's combined rating: 3.2 · best ever: 4.0"
    assert lines[3] == f"Most played opponent: <@{BOB}> (4 games)"
    assert lines[5:] == ["**Air War**: 3 games, 2W 1L 0D · rating 2.0 (best 2.5)",
                         "**War**: 2 games, 1W 0L 1D · rating — (best -1.0)"]
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
    assert picture.alt == ("Rating history: All games from 0.0 to 3.2 over 2 matches; Air War from 0.0 to 2.0 over "
                           "1 match; War from 0.0 to -1.0 over 1 match")
    assert render.rating_chart(player_stats(history=()), "Alice") is None


def test_history_and_head_to_head_show_deleted_players_and_links():
    matches = (
        PlayedMatch(7, "airwar", 10, 70, 1_700_000_000.0, 0, "win", 1.0, 2.5, "forfeit", 0, (ALICE, -2)),
        PlayedMatch(5, "war", 10, None, 1_699_000_000.0, 1, "draw", 0.0, 0.5, "max_rounds", None, (BOB, ALICE)),
    )
    text = render.history(HistoryPage(1, ALICE, 2, 3, 2, 6, matches), f"<@{ALICE}>").text
    lines = text.splitlines()
    assert lines[0] == f"**<@{ALICE}>** — 6 finished matches"
    assert lines[1] == ("**3.** ✅ Won (forfeit) · Air War vs deleted player · <t:1700000000:d> · <#70> · rating 2.5 "
                        "(+1.5) · match 7")
    assert lines[2] == f"**4.** 🤝 Draw · War vs <@{BOB}> · <t:1699000000:d> · <#10> · rating 0.5 (+0.5) · match 5"
    assert lines[3] == "Page 2 of 3"

    shared = (SharedMatch(9, "airwar", 10, 90, 1_700_000_000.0, "out_of_cards", BOB, (ALICE, BOB)),)
    h2h = render.head_to_head(HeadToHead(1, ALICE, BOB, "airwar", 3, 1, 1, 1, 0, shared))
    assert h2h.title == "Head to head — Air War"
    assert h2h.text.splitlines()[:2] == [f"<@{ALICE}> vs <@{BOB}>: 3 games",
                                         f"<@{ALICE}>: 1 win · <@{BOB}>: 1 win · 1 draw"]
    assert h2h.text.splitlines()[-1] == f"• Air War · <@{BOB}> won · <t:1700000000:d> · <#90>"


def test_settings_and_seasons():
    current = GuildSettings(1, 90, 2000, "auto", False, {"war": {"pack": 36, "capture_pile": True}}, (5, 6))
    text = render.settings(current, ("airwar", "war"))
    assert text.splitlines() == [
        "**Server settings**", "Air War arrangement timer: 90 s", "Air War flip pace: 2 s between flips",
        "War's default pace: auto", "Thread per match: off (matches play in the channel)",
        "Matches may start in: <#5>, <#6>", "Default rules:", "• Air War: the game’s defaults",
        "• War: capture_pile=true pack=36"]
    seasons = render.seasons([Season(1, "Season 1", None, 1_700_000_000.0), Season(2, "Spring", 1_700_000_000.0,
                                                                                    None)])
    assert seasons.splitlines() == ["**Seasons**", "1. Season 1 to <t:1700000000:d>",
                                    "2. Spring from <t:1700000000:d> (current)"]
