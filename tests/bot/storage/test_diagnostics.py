"""The consistency checks know seasons (ratings count the current season) and anonymised players."""

import pytest

from bot.services.stats import StatsService
from bot.storage import Database
from bot.storage.diagnostics import check_consistency

GUILD = 1


@pytest.fixture
async def database(tmp_path):
    database = await Database.open(tmp_path / "airwar.db")
    yield database
    await database.close()


async def finished_match(conn, match_id: int, winner: int, loser: int) -> None:
    await conn.execute(
        "INSERT INTO matches (id, guild_id, channel_id, game, rules, status, seed, state, result, created_at,"
        " updated_at) VALUES (?, ?, 2, 'airwar', '{}', 'finished', 5, '{}', '{\"winner\": 0}', 0, 0)",
        (match_id, GUILD),
    )
    for seat, (user_id, outcome) in enumerate(((winner, "win"), (loser, "loss"))):
        await conn.execute("INSERT INTO match_seats (match_id, seat, user_id, game) VALUES (?, ?, ?, 'airwar')",
                           (match_id, seat, user_id))
        await conn.execute(
            "INSERT INTO results (match_id, seat, guild_id, game, user_id, outcome, rating_before, rating_after,"
            " created_at) VALUES (?, ?, ?, 'airwar', ?, ?, 0, 0, 0)", (match_id, seat, GUILD, user_id, outcome))
        await conn.execute(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, rating, games, wins, losses, draws, updated_at)"
            " VALUES (?, 'airwar', ?, 25, 8, 0, 1, ?, ?, 0, 0) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
            " games = games + 1, wins = wins + excluded.wins, losses = losses + excluded.losses",
            (GUILD, user_id, outcome == "win", outcome == "loss"))


async def test_a_new_season_and_a_deleted_player_keep_the_database_consistent(database):
    async with database.transaction() as conn:
        await finished_match(conn, 1, 10, 11)
        assert await check_consistency(conn) == []
    stats = StatsService(database)
    await stats.start_season(GUILD, "Spring")
    async with database.transaction() as conn:
        assert await check_consistency(conn) == []  # the old season's results are not on the new board
        await finished_match(conn, 2, 11, 10)
        assert await check_consistency(conn) == []
    await stats.delete_player(GUILD, 10)
    async with database.read() as conn:
        assert await check_consistency(conn) == []


async def test_a_rating_that_miscounts_this_seasons_results_is_reported(database):
    async with database.transaction() as conn:
        await finished_match(conn, 1, 10, 11)
        await conn.execute("UPDATE ratings SET games = 2, wins = 2 WHERE user_id = 10")
        problems = await check_consistency(conn)
    assert len(problems) == 1 and problems[0].startswith("a rating's games disagree with its results")
