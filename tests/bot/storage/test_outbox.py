"""The one outbox (``match_events``) holding matches' and tournaments' events, on SQLite and PostgreSQL: each owner
numbered from 1, read, marked and claimed on its own; and migration 14, which moves a tournament's queued events
out of the table they had into it."""

from __future__ import annotations

from bot.storage import Database
from bot.storage import matches as match_store
from bot.storage import tournaments as tournament_store
from bot.storage.database import load_migrations
from bot.storage.sql import POSTGRESQL, all_rows
from tests.bot.services.support import open_database

LEASE = 30.0


async def new_tournament(conn) -> int:
    return await tournament_store.insert_tournament(
        conn, guild_id=1, channel_id=2, name="Cup", game="war", format="swiss", rules={}, options={},
        organiser_id=3, seed=4, signup_closes_at=None, now=100.0)


async def test_a_match_and_a_tournament_queue_into_one_outbox_each_on_its_own(tmp_path, backend, databases):
    database = await open_database(tmp_path / "outbox.db", databases)
    matches, tournaments = match_store.EVENTS, tournament_store.EVENTS
    try:
        async with database.transaction() as conn:
            match_id = await match_store.insert_match(
                conn, guild_id=1, channel_id=2, game="airwar", rules={}, arrange_seconds=None, user_ids=[10, 20],
                deadline_at=50.0, now=1.0)
            tid = await new_tournament(conn)
            await matches.append(conn, match_id, [{"type": "challenge"}, {"type": "accepted", "engagement": 1}], 2.0)
            queued = await tournaments.append(conn, tid, [{"type": "created"}, {"type": "signup", "user_id": 10},
                                                          {"type": "signup", "user_id": 11}], 3.0)
        assert [(q.tournament_id, q.seq, q.type) for q in queued] == [
            (tid, 1, "created"), (tid, 2, "signup"), (tid, 3, "signup")]
        async with database.transaction() as conn:
            rows = await all_rows(conn, "SELECT match_id, tournament_id, seq FROM match_events")
            assert {(row["match_id"], row["tournament_id"], row["seq"]) for row in rows} == {
                (match_id, None, 1), (match_id, None, 2), (None, tid, 1), (None, tid, 2), (None, tid, 3)}
            assert await matches.owners_with_unshown(conn) == [match_id]
            assert await tournaments.owners_with_unshown(conn) == [tid]
            assert await tournaments.mark_shown(conn, tid, 2) == 2  # the match's events stay unshown
            assert [q.seq for q in await tournaments.unshown(conn, tid)] == [3]
            assert [(q.seq, q.step) for q in await matches.unshown(conn, match_id)] == [(1, None), (2, 1)]
            assert (await tournaments.last_event(conn, tid, ["signup"])).event == {"type": "signup", "user_id": 11}
            # a tournament's showing is claimed like a match's: one claimant at a time, until released
            assert await tournaments.claim(conn, tid, "a", 10.0, LEASE)
            assert not await tournaments.claim(conn, tid, "b", 10.0 + LEASE - 1, LEASE)
            assert await tournaments.release(conn, tid, "a")
            assert await tournaments.claim(conn, tid, "b", 11.0, LEASE)
            assert await tournaments.mark_shown(conn, tid, 3) == 1
            assert await tournaments.owners_with_unshown(conn) == []
            # claimed with nothing to show: it also brings the tournament's messages up to date
            assert await tournaments.claim(conn, tid, "b", 12.0, LEASE)
            assert await matches.mark_shown(conn, match_id, 2) == 2
            assert not await matches.claim(conn, match_id, "a", 12.0, LEASE)  # a match's: only with events to show
    finally:
        await database.close()


async def insert_old_event(conn, tid: int, seq: int, kind: str, shown: int) -> None:
    marks = ("$1", "$2", "$3", "$4", "$5") if conn.dialect == POSTGRESQL else ("?",) * 5
    await conn.execute("INSERT INTO tournament_events (tournament_id, seq, type, event, shown, created_at)"
                       f" VALUES ({', '.join(marks)}, 5.0)", (tid, seq, kind, f'{{"type": "{kind}"}}', shown))


async def test_migration_14_moves_a_tournaments_queued_events_into_the_outbox(tmp_path, backend, databases):
    if databases is None:
        migrations = load_migrations()

        async def open_at(count: int | None):
            return await Database.open(tmp_path / "old.db", migrations=migrations[:count] if count else None)
    else:
        from bot.storage.postgres import PostgresDatabase
        from bot.storage.postgres import load_migrations as postgres_migrations

        url = await databases.url_for(str(tmp_path / "old.db"))
        migrations = postgres_migrations()

        async def open_at(count: int | None):
            return await PostgresDatabase.open(url, migrations=migrations[:count] if count else None)

    before = [m for m in migrations if m.version < 14]
    old = await open_at(len(before))
    try:
        assert await old.schema_version() == 13
        async with old.transaction() as conn:
            tid = await new_tournament(conn)
            await insert_old_event(conn, tid, 1, "created", 1)
            await insert_old_event(conn, tid, 2, "signup", 0)
    finally:
        await old.close()
    database = await open_at(None)
    try:
        async with database.transaction() as conn:
            assert [(q.seq, q.type, q.shown) for q in await tournament_store.EVENTS.events(conn, tid)] == [
                (1, "created", True), (2, "signup", False)]
            assert await tournament_store.tournaments_with_unshown_events(conn) == [tid]
            queued = await tournament_store.append_events(conn, tid, [{"type": "check_in"}], 6.0)
            assert [q.seq for q in queued] == [3]  # numbered after the moved ones
            tables = ("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'"
                      if conn.dialect == POSTGRESQL else "SELECT name FROM sqlite_master WHERE type = 'table'")
            assert "tournament_events" not in {row["name"] for row in await all_rows(conn, tables)}
    finally:
        await database.close()
