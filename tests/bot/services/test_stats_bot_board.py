"""The board of matches against the bot: who ranks first."""

from __future__ import annotations

from bot.services.stats import bot_standings
from bot.storage.records import BotRecord

LEVELS = ("expert", "hard", "medium", "easy")


def test_the_strongest_level_beaten_ranks_first_then_wins_at_it_then_fewer_losses():
    records = [
        BotRecord(1, "easy", 9, 0, 0),  # many wins, but only at easy
        BotRecord(2, "hard", 1, 5, 0), BotRecord(2, "easy", 3, 0, 0),
        BotRecord(3, "expert", 1, 4, 0),  # one win at the strongest level
        BotRecord(4, "hard", 2, 0, 0),
        BotRecord(5, "expert", 0, 2, 1),  # never beat anything
        BotRecord(6, "expert", 0, 1, 0),
        BotRecord(7, "grandmaster", 5, 0, 0),  # no such level (any more): left out
    ]
    standings = bot_standings(records, LEVELS)
    assert [(s.rank, s.user_id, s.best_beaten) for s in standings] == [
        (1, 3, "expert"), (2, 4, "hard"), (3, 2, "hard"), (4, 1, "easy"), (5, 6, None), (6, 5, None)]
    assert [record.level for record in standings[2].records] == ["hard", "easy"]  # strongest first
