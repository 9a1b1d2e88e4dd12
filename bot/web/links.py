"""The web pages' addresses (``WEB_URL`` first: :attr:`bot.config.Settings.web_url`), and the link buttons the
bot adds to its messages when ``WEB_URL`` is set and the server's pages are public (``/settings web on``)."""

from __future__ import annotations


def review_url(base: str, match_id: int) -> str:
    return f"{base}/m/{match_id}"


def tournament_url(base: str, tournament_id: int) -> str:
    return f"{base}/t/{tournament_id}"


def board_url(base: str, guild_id: int, game: str) -> str:
    return f"{base}/s/{guild_id}/{game}"


def player_url(base: str, guild_id: int, game: str, user_id: int) -> str:
    return f"{base}/s/{guild_id}/{game}/p/{user_id}"
