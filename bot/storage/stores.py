"""The stores a database hands out (:class:`bot.storage.port.Storage`'s): this package's modules, each holding its
statements in both databases' SQL side by side, so SQLite (:class:`bot.storage.database.Database`) and PostgreSQL
(:class:`bot.storage.postgres.PostgresDatabase`) run the same stores."""

from __future__ import annotations

from bot.storage import chips, matches, port, preferences, results, seasons, settings, stats, tournaments, web
from bot.storage.sql import Connection


class Stores:
    """The stores, each this package's module of the same name (a database class inherits them)."""

    matches: port.MatchStore[Connection] = matches
    results: port.ResultStore[Connection] = results
    settings: port.SettingsStore[Connection] = settings
    stats: port.StatsStore[Connection] = stats
    seasons: port.SeasonStore[Connection] = seasons
    tournaments: port.TournamentStore[Connection] = tournaments
    preferences: port.PreferenceStore[Connection] = preferences
    chips: port.ChipStore[Connection] = chips
    web: port.WebStore[Connection] = web
