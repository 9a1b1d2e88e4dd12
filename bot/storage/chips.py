"""Chips: each player's balance in a server and the ledger of every movement (``0009_chips.sql``).

A balance moves only when a ledger row is inserted (a trigger adds its amount), and a row is inserted at most once
for its key -- (match, hand, seat, kind) for a match's movement, (guild, user, kind, day) for a grant -- so writing
the same movement again (a step retried after a crash) moves nothing. A balance never goes below zero (a CHECK): a
movement that would take it there fails its transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.storage.records import ChipBoardRow, ChipEntry
from bot.storage.sql import Connection, Placeholders, Statement

STAKE = "stake"
TOPUP = "topup"


_OPEN_BALANCE = Statement(
    sqlite=(
        "INSERT INTO chip_balances (guild_id, user_id, balance, topped_up_on, updated_at) VALUES (?, ?, 0, ?,"
        " ?) ON CONFLICT (guild_id, user_id) DO NOTHING"
    ),
    postgresql=(
        "INSERT INTO chip_balances (guild_id, user_id, balance, topped_up_on, updated_at) VALUES ($1, $2, 0,"
        " $3, $4) ON CONFLICT (guild_id, user_id) DO NOTHING"
    ),
)
_BALANCE = Statement(
    sqlite="SELECT balance, topped_up_on FROM chip_balances WHERE guild_id = ? AND user_id = ?",
    postgresql="SELECT balance, topped_up_on FROM chip_balances WHERE guild_id = $1 AND user_id = $2",
)
_MARK_TOPPED_UP = Statement(
    sqlite="UPDATE chip_balances SET topped_up_on = ? WHERE guild_id = ? AND user_id = ?",
    postgresql="UPDATE chip_balances SET topped_up_on = $1 WHERE guild_id = $2 AND user_id = $3",
)


async def sit_down(conn: Connection, guild_id: int, user_ids: Sequence[int], *, stake: int,
                   daily_topup: int, day: int, now: float) -> list[int]:
    """Each player's balance as they sit at a table, in the order given: a player new to the server's chips gets
    ``stake``; one below ``stake`` who had no top-up today gets up to ``daily_topup`` more (not beyond ``stake``)."""
    balances = []
    for user_id in user_ids:
        cursor = await conn.execute(
            _OPEN_BALANCE.on(conn), (guild_id, user_id, day, now))
        if cursor.rowcount == 1:
            await _grant(conn, guild_id, user_id, STAKE, day, stake, now)
        rows = await conn.execute_fetchall(
            _BALANCE.on(conn), (guild_id, user_id))
        balance, last = int(rows[0]["balance"]), int(rows[0]["topped_up_on"])
        if last < day and balance < stake and daily_topup > 0:
            amount = min(daily_topup, stake - balance)
            await conn.execute(_MARK_TOPPED_UP.on(conn),
                               (day, guild_id, user_id))
            balance += await _grant(conn, guild_id, user_id, TOPUP, day, amount, now)
        balances.append(balance)
    return balances


_GRANT = Statement(
    sqlite=(
        "INSERT INTO chip_ledger (guild_id, user_id, match_id, hand, seat, kind, amount, created_at) VALUES"
        " (?, ?, NULL, ?, 0, ?, ?, ?) ON CONFLICT DO NOTHING"
    ),
    postgresql=(
        "INSERT INTO chip_ledger (guild_id, user_id, match_id, hand, seat, kind, amount, created_at) VALUES"
        " ($1, $2, NULL, $3, 0, $4, $5, $6) ON CONFLICT DO NOTHING"
    ),
)


async def _grant(conn: Connection, guild_id: int, user_id: int, kind: str, day: int, amount: int,
                 now: float) -> int:
    cursor = await conn.execute(
        _GRANT.on(conn), (guild_id, user_id, day, kind, amount, now))
    return amount if cursor.rowcount == 1 else 0


_RECORD = Statement(
    sqlite=(
        "INSERT INTO chip_ledger (guild_id, user_id, match_id, hand, seat, kind, amount, created_at) VALUES"
        " (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
    ),
    postgresql=(
        "INSERT INTO chip_ledger (guild_id, user_id, match_id, hand, seat, kind, amount, created_at) VALUES"
        " ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING"
    ),
)


async def record(conn: Connection, entries: Iterable[ChipEntry], now: float) -> int:
    """Write a match's movements (each balance moves with its row); a movement written before is skipped. Returns
    how many were new."""
    written = 0
    for entry in entries:
        cursor = await conn.execute(
            _RECORD.on(conn),
            (entry.guild_id, entry.user_id, entry.match_id, entry.hand, entry.seat, entry.kind, entry.amount, now))
        written += cursor.rowcount
    return written


async def balances(conn: Connection, guild_id: int, user_ids: Iterable[int]) -> dict[int, int]:
    """The balances of those of the players who have one in the server."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return {}
    marks = Placeholders(conn)
    rows = await conn.execute_fetchall(
        f"SELECT user_id, balance FROM chip_balances WHERE guild_id = {marks(guild_id)}"
        f" AND user_id IN ({marks.each(wanted)})", marks.values)
    return {int(row["user_id"]): int(row["balance"]) for row in rows}


_LEDGER = Statement(
    sqlite="SELECT * FROM chip_ledger WHERE match_id = ? ORDER BY id",
    postgresql="SELECT * FROM chip_ledger WHERE match_id = $1 ORDER BY id",
)


async def ledger(conn: Connection, match_id: int) -> list[ChipEntry]:
    """A match's movements in the order they were written."""
    rows = await conn.execute_fetchall(_LEDGER.on(conn), (match_id,))
    return [ChipEntry(row["guild_id"], row["user_id"], row["match_id"], row["hand"], row["seat"], row["kind"],
                      row["amount"]) for row in rows]


_BOARD_COUNT = Statement(
    sqlite="SELECT COUNT(*) AS n FROM chip_balances WHERE guild_id = ?",
    postgresql="SELECT COUNT(*) AS n FROM chip_balances WHERE guild_id = $1",
)


async def board_count(conn: Connection, guild_id: int) -> int:
    rows = await conn.execute_fetchall(_BOARD_COUNT.on(conn), (guild_id,))
    return int(next(iter(rows))["n"])


_BOARD_ROWS = Statement(
    sqlite=(
        "SELECT b.user_id, b.balance, p.display_name, (SELECT COALESCE(SUM(l.amount), 0) FROM chip_ledger AS"
        " l WHERE l.guild_id = b.guild_id AND l.user_id = b.user_id AND l.match_id IS NOT NULL) AS net,"
        " (SELECT COUNT(DISTINCT l.match_id) FROM chip_ledger AS l WHERE l.guild_id = b.guild_id AND"
        " l.user_id = b.user_id AND l.match_id IS NOT NULL) AS tables FROM chip_balances AS b LEFT JOIN"
        " players AS p ON p.guild_id = b.guild_id AND p.user_id = b.user_id WHERE b.guild_id = ? ORDER BY"
        " b.balance DESC, b.user_id ASC LIMIT ? OFFSET ?"
    ),
    postgresql=(
        "SELECT b.user_id, b.balance, p.display_name, (SELECT COALESCE(SUM(l.amount), 0) FROM chip_ledger AS"
        " l WHERE l.guild_id = b.guild_id AND l.user_id = b.user_id AND l.match_id IS NOT NULL) AS net,"
        " (SELECT COUNT(DISTINCT l.match_id) FROM chip_ledger AS l WHERE l.guild_id = b.guild_id AND"
        " l.user_id = b.user_id AND l.match_id IS NOT NULL) AS tables FROM chip_balances AS b LEFT JOIN"
        " players AS p ON p.guild_id = b.guild_id AND p.user_id = b.user_id WHERE b.guild_id = $1 ORDER BY"
        " b.balance DESC, b.user_id ASC LIMIT $2 OFFSET $3"
    ),
)


async def board_rows(conn: Connection, guild_id: int, *, limit: int, offset: int) -> list[ChipBoardRow]:
    """The server's players by chips, most first: each with the net of their tables and how many they sat at."""
    rows = await conn.execute_fetchall(
        _BOARD_ROWS.on(conn),
        (guild_id, limit, offset))
    return [ChipBoardRow(offset + index + 1, int(row["user_id"]), row["display_name"], int(row["balance"]),
                         int(row["net"]), int(row["tables"])) for index, row in enumerate(rows)]


_DELETE_LEDGER = Statement(
    sqlite="DELETE FROM chip_ledger WHERE guild_id = ? AND user_id = ?",
    postgresql="DELETE FROM chip_ledger WHERE guild_id = $1 AND user_id = $2",
)
_DELETE_BALANCE = Statement(
    sqlite="DELETE FROM chip_balances WHERE guild_id = ? AND user_id = ?",
    postgresql="DELETE FROM chip_balances WHERE guild_id = $1 AND user_id = $2",
)


async def delete_player(conn: Connection, guild_id: int, user_id: int) -> None:
    """Forget the player's chips in the server (their balance and the ledger's rows naming them)."""
    await conn.execute(_DELETE_LEDGER.on(conn), (guild_id, user_id))
    await conn.execute(_DELETE_BALANCE.on(conn), (guild_id, user_id))
