"""What tests read of a server's stored results and ratings, through the store and the service that serve them: a
match's results rows, a player's rating on a game, a page of a game's board."""

from __future__ import annotations

from bot.services.stats import StatsService
from bot.storage.port import Storage
from bot.storage.records import LeaderboardPage, RatingRecord, ResultRecord


async def match_results(database: Storage, match_id: int) -> list[ResultRecord]:
    """The match's results rows, by seat."""
    async with database.read() as conn:
        return await database.results.results_of_match(conn, match_id)


async def rating_of(database: Storage, guild_id: int, user_id: int, game: str = "airwar") -> RatingRecord | None:
    """The player's rating on the game in the server (``None``: no rated match yet)."""
    async with database.read() as conn:
        return await database.results.get_rating(conn, guild_id, game, user_id)


async def leaderboard_page(database: Storage, guild_id: int, game: str = "airwar", *, page: int = 1, per_page: int = 10,
                min_games: int = 3) -> LeaderboardPage:
    """A page of the game's board of the server's current season, as ``/leaderboard`` reads it (players with at
    least ``min_games`` games ranked)."""
    return (await StatsService(database, min_games=min_games).leaderboard(guild_id, game, page=page,
                                                                          per_page=per_page)).page
