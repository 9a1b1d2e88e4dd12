"""Migration 3 (stats, seasons, settings) on a database that already has settings, players and finished matches:
nothing is lost, the new settings take their defaults, old results belong to season 1 and count in the combined
rating; and the new tables' checks hold."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot.services.settings import SettingsService
from bot.services.stats import COMBINED, StatsService
from bot.storage import Database
from bot.storage.database import load_migrations
from bot.storage.errors import ConstraintViolation
from bot.storage.settings import GuildSettings, get_settings, put_settings
from tests.bot.services.support import ALICE, BOB, CHANNEL, GUILD, START, FakeClock


async def test_an_existing_database_keeps_its_data_and_gains_the_new_settings(tmp_path):
    path = tmp_path / "old.db"
    clock = FakeClock(START + 100)
    migrations = load_migrations()
    assert [m.name for m in migrations][:3] == ["0001_initial", "0002_games", "0003_stats"]
    old = await Database.open(path, migrations[:2])
    # what a bot at schema 2 wrote: settings, a name, three finished Air War matches (alice won two), ratings
    async with old.transaction() as conn:
        await conn.execute("INSERT INTO guild_settings VALUES (?, 90, 2500, ?)", (GUILD, START))
        await conn.execute("INSERT INTO players VALUES (?, ?, 'Alice', ?, ?)", (GUILD, ALICE, START, START))
        for match_id, winner in ((1, 0), (2, 1), (3, 0)):
            result = f'{{"winner": {winner}, "winner_id": {(ALICE, BOB)[winner]}, "reason": "forfeit"}}'
            await conn.execute(
                "INSERT INTO matches (id, guild_id, channel_id, game, rules, seed, status, reason, state, result,"
                " created_at, updated_at, finished_at) VALUES (?, ?, ?, 'airwar', '{}', 1, 'finished', 'forfeit',"
                " '{}', ?, ?, ?, ?)", (match_id, GUILD, CHANNEL, result, START, START, START + match_id))
            for seat, user in enumerate((ALICE, BOB)):
                await conn.execute("INSERT INTO match_seats (match_id, seat, user_id, game) VALUES (?, ?, ?, 'airwar')",
                                   (match_id, seat, user))
                await conn.execute(
                    "INSERT INTO results VALUES (?, ?, ?, 'airwar', ?, ?, 0, 0, ?)",
                    (match_id, seat, GUILD, user, "win" if seat == winner else "loss", START))
        for user, wins, losses, rating in ((ALICE, 2, 1, 1.5), (BOB, 1, 2, -1.5)):
            await conn.execute("INSERT INTO ratings VALUES (?, 'airwar', ?, 25, 8, ?, 3, ?, ?, 0, ?)",
                               (GUILD, user, rating, wins, losses, START))
    await old.close()

    database = await Database.open(path)
    try:
        assert await database.schema_version() == len(migrations)
        settings = await SettingsService(database).get(GUILD)
        assert (settings.arrange_seconds, settings.flip_pace_ms, settings.war_pace, settings.thread_per_match) == \
            (90, 2500, "auto", True)
        stats = StatsService(database, clock=clock)
        alice = await stats.player_stats(GUILD, ALICE)
        assert (alice.games, alice.wins, alice.losses) == (3, 2, 1)
        board = await stats.leaderboard(GUILD, COMBINED)
        assert [row.user_id for row in board.page.rows] == [ALICE, BOB]
        per_game = await stats.leaderboard(GUILD, "airwar")
        assert [(row.user_id, row.rating) for row in per_game.page.rows] == [(ALICE, 1.5), (BOB, -1.5)]
        assert [row.games for row in board.page.rows] == [3, 3]
        model = PlackettLuce()
        a, b = model.rating(), model.rating()
        for alice_won in (True, False, True):  # in the order the matches finished
            [[a], [b]] = model.rate([[a], [b]], ranks=[1, 2] if alice_won else [2, 1])
        assert [row.rating for row in board.page.rows] == pytest.approx([a.ordinal(), b.ordinal()])
        assert board.page.rows[0].display_name == "Alice"
        async with database.read() as conn:
            assert [tuple(r) for r in await conn.execute_fetchall("SELECT DISTINCT season FROM results")] == [(1,)]
    finally:
        await database.close()


async def test_the_settings_tables_refuse_what_the_service_would(tmp_path):
    database = await Database.open(tmp_path / "new.db")
    try:
        async with database.transaction() as conn:
            # the positional form the match service builds keeps working and stores timer and pace only
            await put_settings(conn, GuildSettings(GUILD, 200, 3000), START)
            assert await get_settings(conn, GUILD) == GuildSettings(GUILD, 200, 3000, "auto", True, {}, ())
        for sql in ("UPDATE guild_settings SET war_pace = 'slow'", "UPDATE guild_settings SET thread_per_match = 2",
                    "INSERT INTO guild_default_rules VALUES (1, 'war', '[1]', 0)",
                    "INSERT INTO seasons VALUES (1, 0, 'x', NULL, NULL)"):
            with pytest.raises(ConstraintViolation):
                async with database.transaction() as conn:
                    await conn.execute(sql)
        with pytest.raises(ConstraintViolation):  # one current season per server
            async with database.transaction() as conn:
                await conn.execute("INSERT INTO seasons VALUES (1, 1, 'a', NULL, NULL)")
                await conn.execute("INSERT INTO seasons VALUES (1, 2, 'b', NULL, NULL)")
    finally:
        await database.close()
