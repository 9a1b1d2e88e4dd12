"""A bot stand-in for the kill tests: plays one match through the service the way the cog will, from whatever
state the database is in, and can SIGKILL itself before its N-th SQL statement.

``python -m tests.bot.services.crash_driver DB SHOWN_LOG [KILL_AT]``: drive the match to its end (or die at
statement KILL_AT). "Showing" an event appends its seq to SHOWN_LOG (flushed and fsynced), then marks it shown,
like the cog edits a message and then marks the event. Prints the number of statements run.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import aiosqlite

from bot.match import errors
from bot.match.kernel import MatchKernel
from tests.bot.services.support import ALICE, BOB, CHANNEL, GUILD, FakeClock, open_service, reverse, rotate

POLICIES = (rotate, reverse)
statements = 0


def kill_at(limit: int | None) -> None:
    """Count every statement sent to SQLite; die (SIGKILL: no cleanup at all) before statement ``limit``."""
    for name in ("execute", "executemany", "execute_fetchall", "executescript"):
        original = getattr(aiosqlite.Connection, name)

        def counted(self, *args, __original=original, **kwargs):
            global statements
            statements += 1
            if limit is not None and statements >= limit:
                os.kill(os.getpid(), signal.SIGKILL)
            return __original(self, *args, **kwargs)

        setattr(aiosqlite.Connection, name, counted)


async def show_pending(service: MatchKernel, match_id: int, log: Path) -> None:
    for queued in await service.outbox.unshown_events(match_id):
        with log.open("a") as file:
            file.write(f"{queued.seq} {queued.type}\n")
            file.flush()
            os.fsync(file.fileno())
        await service.outbox.mark_shown(match_id, queued.seq)


async def drive(service: MatchKernel, log: Path) -> int:
    """Resume (or start) the match and play it to its end; returns its id."""
    for match in await service.open_matches():  # a restart: show what was not shown yet, first
        await show_pending(service, match.id, log)
    try:
        match = await service.get_match(1)
    except errors.MatchNotFound:
        match = (await service.challenge(GUILD, CHANNEL, ALICE, BOB)).match
    await show_pending(service, match.id, log)
    if match.status == "challenge":
        await service.accept(match.id, BOB)
        await show_pending(service, match.id, log)
    while (match := await service.get_match(match.id)).status == "active":
        for seat, policy in enumerate(POLICIES):
            user = match.seats[seat].user_id
            panel = await service.panel(match.id, user)
            if panel.locked:
                continue
            await service.reset(match.id, user, match.step)
            for card in policy(list(panel.stack)):
                await service.tap(match.id, user, match.step, card)
            await service.confirm(match.id, user, match.step)
            await show_pending(service, match.id, log)
    await show_pending(service, match.id, log)
    return match.id


async def main(database: Path, log: Path, limit: int | None) -> None:
    kill_at(limit)
    service = await open_service(database, FakeClock())
    await drive(service, log)
    await service.db.close()
    print(statements)


if __name__ == "__main__":
    _, db, shown, *rest = sys.argv
    asyncio.run(main(Path(db), Path(shown), int(rest[0]) if rest else None))
