"""``python -m bot migrate-db --to postgresql://... [--from data/airwar.db]``: a bot's SQLite database moved into an
empty PostgreSQL database, and checked.

The SQLite file is first brought to the newest schema (as the bot would), the PostgreSQL database to the same
version (its baseline). :func:`bot.storage.move.copy_into` copies every table in one PostgreSQL transaction and
compares each with the file, row by row; before it commits, every finished match replays from its stored moves to
its stored result. Anything that fails rolls the whole copy back: the PostgreSQL database stays empty.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from bot.storage.database import Database
from bot.storage.move import CopyRefused, copy_into, finished_matches


class MigrationRefused(Exception):
    """The move cannot be made (the message says why); nothing was written."""


@dataclass
class MoveReport:
    """What was moved: rows per table, and the finished matches replayed to their stored result."""

    rows: dict[str, int] = field(default_factory=dict)
    replayed: int = 0

    def lines(self) -> list[str]:
        width = max(map(len, self.rows)) if self.rows else 0
        lines = [f"{table:<{width}}  {count:>8} rows, every one equal" for table, count in self.rows.items()]
        lines.append(f"{self.replayed} finished matches replayed to their stored result")
        return lines


async def move(source_path: Path, url: str) -> MoveReport:
    """Copy the SQLite database at ``source_path`` into the empty PostgreSQL database at ``url`` and check it (the
    caller checks the file exists: opening a missing one would make a new, empty database)."""
    from bot.storage.postgres import PostgresDatabase

    source = await Database.open(source_path)
    try:
        target = await PostgresDatabase.open(url)
        try:
            report = MoveReport()

            async def replay_every_finished_match() -> None:
                report.replayed = await _replay_finished(source)

            report.rows = await copy_into(source, target, replay_every_finished_match)
            return report
        except CopyRefused as error:
            raise MigrationRefused(str(error)) from None
        finally:
            await target.close()
    finally:
        await source.close()


async def _replay_finished(source: Database) -> int:
    """Replay every finished match of the file from its moves; raise MigrationRefused if one does not end as
    stored. (The file's rows and the copy's are equal by then: the file is what is read.)"""
    from bot.match.kernel import MatchKernel
    from bot.registry import registry
    from bot.replay import MatchFileError, replay

    kernels: dict[str, MatchKernel] = {}
    finished = await finished_matches(source)
    for match_id, game, stored in finished:
        family = registry().entry(game).plugin.name
        kernel = kernels.get(family) or kernels.setdefault(family, MatchKernel(source, game=family))
        result = json.loads(stored)
        try:
            last = list(replay(await kernel.export(match_id)))[-1]
        except MatchFileError as error:
            raise MigrationRefused(f"match {match_id} does not replay: {error}") from None
        if (last.get("winner"), last.get("reason")) != (result.get("winner"), result.get("reason")):
            raise MigrationRefused(f"match {match_id} replays to {last.get('winner')}/{last.get('reason')}, not its "
                                   f"stored {result.get('winner')}/{result.get('reason')}")
    return len(finished)
