"""Whole-database checks: a dump of every table, and the invariants the match service keeps (for tests, and for
an operator who suspects damage), on either database. Returns findings; changes nothing. The checks are written
once, in SQL both databases run as it is (they take no parameters)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.registry import seat_ranges as registered_seat_ranges
from bot.storage.sql import POSTGRESQL, Connection, Statement


async def dump_tables(conn: Connection) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table: in rowid order on SQLite; on PostgreSQL (which has no rowid) sorted by value."""
    postgres = conn.dialect == POSTGRESQL
    tables = [row["name"] for row in await conn.execute_fetchall(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'"
        " AND table_name != 'schema_version' ORDER BY table_name" if postgres else
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    dump = {}
    for table in tables:
        rows = await conn.execute_fetchall(f'SELECT * FROM "{table}"' + ("" if postgres else " ORDER BY rowid"))
        dump[table] = sorted((tuple(row) for row in rows), key=repr) if postgres else [tuple(row) for row in rows]
    return dump


_SEASON = "COALESCE((SELECT number FROM seasons WHERE guild_id = g.guild_id AND ended_at IS NULL), 1)"

_CHECKS = {
    "a player is in two open matches of one game":
        "SELECT s.game, s.user_id FROM match_seats s JOIN matches m ON m.id = s.match_id"
        " WHERE m.status IN ('challenge', 'active') GROUP BY s.game, s.user_id HAVING COUNT(*) > 1",
    "a seat's open flag disagrees with its match's status":
        "SELECT s.match_id, s.seat FROM match_seats s JOIN matches m ON m.id = s.match_id"
        " WHERE (m.status IN ('challenge', 'active')) != (s.open IS NOT NULL)",
    "results of a match that is not finished":
        "SELECT r.match_id FROM results r JOIN matches m ON m.id = r.match_id WHERE m.status != 'finished'",
    "a finished match without a result row for every seat":
        "SELECT m.id FROM matches m WHERE m.status = 'finished'"
        " AND (SELECT COUNT(*) FROM results r WHERE r.match_id = m.id)"
        " != (SELECT COUNT(*) FROM match_seats s WHERE s.match_id = m.id)",
    "an open match without its deadline":
        "SELECT id FROM matches WHERE status IN ('challenge', 'active') AND deadline_at IS NULL",
    "a deadline of the wrong kind":
        "SELECT id FROM matches WHERE (status = 'challenge'"
        " AND (deadline_kind IS NULL OR deadline_kind != 'challenge'))"
        " OR (status = 'active' AND deadline_kind NOT IN ('arrange', 'turn', 'round'))",
    "a match with no seat, or more than four":
        "SELECT id FROM (SELECT m.id, m.status, (SELECT COUNT(*) FROM match_seats s WHERE s.match_id = m.id) AS seats"
        " FROM matches m) AS counted WHERE seats = 0 OR seats > 4",
    # Ratings are the current season's board: they count that season's results. Anonymised results (a player
    # who deleted their data) have negative user ids and no rating.
    "a rating's games disagree with its results":
        f"SELECT g.guild_id, g.game, g.user_id FROM ratings g WHERE g.games != (SELECT COUNT(*) FROM results r"
        f" WHERE r.guild_id = g.guild_id AND r.game = g.game AND r.user_id = g.user_id AND r.rated = 1"
        f" AND r.season = {_SEASON})"
        f" OR g.wins != (SELECT COUNT(*) FROM results r WHERE r.guild_id = g.guild_id AND r.game = g.game"
        f" AND r.user_id = g.user_id AND r.outcome = 'win' AND r.season = {_SEASON})",
    "results of this season without a rating":
        f"SELECT DISTINCT r.user_id FROM results r LEFT JOIN ratings g ON g.guild_id = r.guild_id"
        f" AND g.game = r.game AND g.user_id = r.user_id WHERE g.user_id IS NULL AND r.user_id >= 0 AND r.rated = 1"
        f" AND r.season = {_SEASON.replace('g.guild_id', 'r.guild_id')}",
    "event numbers with gaps":
        "SELECT match_id FROM match_events WHERE match_id IS NOT NULL GROUP BY match_id HAVING MAX(seq) != COUNT(*)",
    "tournament event numbers with gaps":
        "SELECT tournament_id FROM match_events WHERE tournament_id IS NOT NULL GROUP BY tournament_id"
        " HAVING MAX(seq) != COUNT(*)",
    "action numbers with gaps":
        "SELECT match_id FROM match_actions GROUP BY match_id HAVING MAX(seq) != COUNT(*)",
    "a chip balance that disagrees with its ledger":
        "SELECT b.guild_id, b.user_id FROM chip_balances b WHERE b.balance != (SELECT COALESCE(SUM(l.amount), 0)"
        " FROM chip_ledger l WHERE l.guild_id = b.guild_id AND l.user_id = b.user_id)",
}


_SEATS_OUTSIDE = Statement(
    sqlite=(
        "SELECT id, game, seats FROM (SELECT m.id, m.game, m.status, (SELECT COUNT(*) FROM match_seats s"
        " WHERE s.match_id = m.id) AS seats FROM matches m WHERE m.game = ?) AS counted"
        " WHERE seats > ? OR (seats < ? AND status != 'challenge')"
    ),
    postgresql=(
        "SELECT id, game, seats FROM (SELECT m.id, m.game, m.status, (SELECT COUNT(*) FROM match_seats s"
        " WHERE s.match_id = m.id) AS seats FROM matches m WHERE m.game = $1) AS counted"
        " WHERE seats > $2 OR (seats < $3 AND status != 'challenge')"
    ),
)
_OUTCOMES = Statement(
    sqlite="SELECT seat, outcome FROM results WHERE match_id = ?",
    postgresql="SELECT seat, outcome FROM results WHERE match_id = $1",
)


async def check_consistency(conn: Connection,
                            seat_ranges: Mapping[str, tuple[int, int]] | None = None) -> list[str]:
    """Every broken invariant, one line each (empty: all is well). ``seat_ranges``: per game, the fewest and most
    seats a started match has (default: every registered game's)."""
    if seat_ranges is None:
        seat_ranges = registered_seat_ranges()
    problems = []
    for what, sql in _CHECKS.items():
        rows = await conn.execute_fetchall(sql)
        if rows:
            problems.append(f"{what}: {[tuple(row) for row in rows][:5]}")
    for game, (fewest, most) in seat_ranges.items():
        rows = await conn.execute_fetchall(_SEATS_OUTSIDE.on(conn), (game, most, fewest))
        if rows:
            problems.append(f"a {game} match with other than {fewest}-{most} seats: {[tuple(r) for r in rows][:5]}")
    for row in await conn.execute_fetchall("SELECT id, status, result FROM matches WHERE status = 'finished'"):
        result = json.loads(row["result"])
        outcomes = {r["seat"]: r["outcome"] for r in await conn.execute_fetchall(
            _OUTCOMES.on(conn), (row["id"],))}
        expected = {seat: "draw" if result["winner"] is None else "win" if seat == result["winner"] else "loss"
                    for seat in outcomes}
        if "outcomes" in result:  # a game against the house: each seat's own outcome
            expected = {seat: result["outcomes"][seat] for seat in outcomes}
        if outcomes != expected:
            problems.append(f"match {row['id']}'s results {outcomes} disagree with its result {result}")
    return problems
