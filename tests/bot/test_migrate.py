"""``python -m bot migrate-db``: a SQLite database with every table populated by the services moves into an empty
PostgreSQL database; the counts, every row and every finished match's replay agree; a database that is not empty
is refused and nothing is written."""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path

from bot.match.kernel import MatchKernel
from bot.registry import use_registry
from bot.replay import replay
from bot.services.preferences import PreferencesService
from bot.services.settings import SettingsService
from bot.services.stats import COMBINED, StatsService
from bot.storage import Database
from bot.storage.diagnostics import dump_tables
from bot.storage.move import TABLES
from bot.storage.postgres import PostgresDatabase
from bot.web.reviews import review_data, review_match
from tests.bot.games.casinowar.test_table import play_table
from tests.bot.services.support import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    FakeClock,
    play_engagement,
    reverse,
    rotate,
    start_match,
)
from tests.bot.services.test_settings import with_war_declaring_a_setting
from tests.bot.services.test_tournaments import ORGANISER, World, create, drive

ROOT = Path(__file__).resolve().parents[2]


async def migrate_db(*arguments: str) -> tuple[int, str, str]:
    """``python -m bot migrate-db ...`` in a process of its own: exit code, stdout, stderr."""
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "migrate-db", *arguments, cwd=ROOT,
                                                   stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 300)
    return process.returncode or 0, out.decode(), err.decode()


async def populate(path: Path) -> None:
    """Every table gets rows, each through the service that writes it."""
    database = await Database.open(path)
    clock = FakeClock()
    try:
        settings = SettingsService(database, clock=clock)
        await settings.set_default_rules(GUILD, "airwar", {"stack": 3})
        await settings.add_start_channel(GUILD, CHANNEL)
        await settings.set_arrange_seconds(GUILD, 90)
        previous = use_registry(with_war_declaring_a_setting())  # (no game of the project declares a setting yet)
        try:
            await settings.set_game_setting(GUILD, "war", "table", "square")
        finally:
            use_registry(previous)
        await PreferencesService(database, clock=clock).set_panel_place(ALICE, "here")
        await play_table(MatchKernel(database, game="casinowar", clock=clock, seed_source=lambda: 4))
        world = World(database, clock, random.Random(5))
        tournament = await create(world, "single_elimination", 2)
        await world.service.start(tournament, ORGANISER)
        await drive(world, tournament)
        stats = StatsService(database, clock=clock)
        await stats.start_season(GUILD, "Autumn")  # season 1's boards archived
        airwar = MatchKernel(database, game="airwar", clock=clock, seed_source=lambda: 7)
        match = await start_match(airwar)
        await airwar.outbox.set_thread(match.id, 555)
        await airwar.outbox.set_challenge_message(match.id, 556)
        await airwar.outbox.set_message(match.id, "result", 557)
        while (await airwar.get_match(match.id)).status == "active":
            await play_engagement(airwar, match.id, (reverse, rotate))
        await stats.leaderboard(GUILD, COMBINED)  # the combined board counts the matches
        await settings.set_web_public(GUILD, True)
        assert await review_match(database, match.id, lambda file: asyncio.to_thread(review_data, file, 0.2))
    finally:
        await database.close()


async def test_every_table_moves_checked_and_a_database_with_rows_is_refused(tmp_path, postgres):
    source = tmp_path / "airwar.db"
    await populate(source)
    sqlite = await Database.open(source)
    try:
        async with sqlite.read() as conn:
            before = await dump_tables(conn)
    finally:
        await sqlite.close()
    assert set(TABLES) == set(before), "migrate-db names every table"
    assert [table for table in TABLES if not before[table]] == [], "every table has rows"
    url = await postgres.url_for("migrate-db")
    code, out, err = await migrate_db("--from", str(source), "--to", url)
    assert code == 0, err
    finished = sum(1 for row in before["matches"] if row[10] == "finished")
    assert finished >= 3 and f"{finished} finished matches replayed to their stored result" in out
    for table in TABLES:
        line = next(line for line in out.splitlines() if line.startswith(table + " "))
        assert f"{len(before[table])} rows, every one equal" in line
    moved = await PostgresDatabase.open(url)
    try:
        async with moved.read() as conn:
            counts = {table: len(rows) for table, rows in (await dump_tables(conn)).items()}
        assert counts == {table: len(rows) for table, rows in before.items()}
        # the bot goes on on PostgreSQL: new ids follow the moved ones
        kernel = MatchKernel(moved, game="airwar", clock=FakeClock(), seed_source=lambda: 8)
        fresh = await start_match(kernel, ALICE, BOB)
        assert fresh.id > max(row[0] for row in before["matches"])
        moved_match = next(row[0] for row in before["matches"] if row[5] == "airwar" and row[10] == "finished")
        export = await kernel.export(moved_match)  # read back from PostgreSQL, it replays to its result
        last = list(replay(json.loads(json.dumps(export))))[-1]
        stored = await kernel.get_match(moved_match)
        assert export["moves"]
        assert (last["winner"], last["reason"]) == (stored.result["winner"], stored.result["reason"])
    finally:
        await moved.close()
    code, _, err = await migrate_db("--from", str(source), "--to", url)
    assert code == 1 and "is not empty" in err and "nothing was written" in err
    code, _, err = await migrate_db("--from", str(tmp_path / "none.db"), "--to", url)
    assert code == 1 and "there is no SQLite database" in err


async def test_a_match_that_does_not_replay_to_its_result_stops_the_move_and_nothing_is_written(tmp_path, postgres):
    source = tmp_path / "airwar.db"
    database = await Database.open(source)
    try:
        airwar = MatchKernel(database, game="airwar", clock=FakeClock(), seed_source=lambda: 7)
        match = await start_match(airwar)
        while (await airwar.get_match(match.id)).status == "active":
            await play_engagement(airwar, match.id, (reverse, rotate))
        finished = await airwar.get_match(match.id)
        wrong = {**finished.result, "winner": None if finished.result["winner"] is not None else 0}
        async with database.transaction() as conn:  # damage: a stored result the moves do not lead to
            await conn.execute("UPDATE matches SET result = ? WHERE id = ?", (json.dumps(wrong), match.id))
    finally:
        await database.close()
    url = await postgres.url_for("migrate-db-damaged")
    code, _, err = await migrate_db("--from", str(source), "--to", url)
    assert code == 1 and f"match {match.id} replays to" in err and "nothing was written" in err
    target = await PostgresDatabase.open(url)
    try:
        async with target.read() as conn:
            assert all(not rows for rows in (await dump_tables(conn)).values())
    finally:
        await target.close()
