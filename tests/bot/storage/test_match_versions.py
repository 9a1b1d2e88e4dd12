"""A match's version: every write of its row moves it on; a write held to a version the row has left writes nothing
and raises VersionConflict, checked in the write's own statement."""

from __future__ import annotations

import pytest

from bot.storage import Database
from bot.storage import matches as store
from bot.storage.errors import StorageConflict, VersionConflict
from bot.storage.pipeline import pipelined
from tests.bot.services.support import ALICE, BOB, FakeClock, as_drawn, open_service, play_engagement, reverse


@pytest.fixture
async def db(tmp_path):
    database = await Database.open(tmp_path / "versions.db")
    yield database
    await database.close()


async def new_match(db: Database) -> int:
    async with db.transaction() as conn:
        return await store.insert_match(conn, guild_id=1, channel_id=2, game="airwar", rules={}, arrange_seconds=None,
                                        user_ids=[10, 20], deadline_at=60.0, now=1.0)


async def stored(db: Database, match_id: int):
    async with db.read() as conn:
        return await store.load_match(conn, match_id)


async def test_every_update_of_the_row_moves_the_version_on(db):
    match_id = await new_match(db)
    assert (await stored(db, match_id)).version == 0
    async with db.transaction() as conn:
        assert await store.update_match(conn, match_id, 2.0, thread_id=5) == 1
        assert await store.update_match(conn, match_id, 3.0, expected_version=1, challenge_message_id=6) == 1
    match = await stored(db, match_id)
    assert (match.version, match.thread_id, match.challenge_message_id) == (2, 5, 6)


async def test_a_write_held_to_a_version_the_row_left_writes_nothing(db):
    match_id = await new_match(db)
    async with db.transaction() as conn:
        await store.update_match(conn, match_id, 2.0, thread_id=5)
    with pytest.raises(VersionConflict) as refused:
        async with db.transaction() as conn:
            await store.update_match(conn, match_id, 3.0, expected_version=0, thread_id=7)
    assert isinstance(refused.value, StorageConflict) and refused.value.expected_version == 0
    with pytest.raises(VersionConflict):
        async with db.statement() as conn:
            await store.update_seat(conn, match_id, 1, expected_version=0, draft=["a"])
    with pytest.raises(VersionConflict):
        async with db.statement() as conn:
            await store.set_message(conn, match_id, "result", 99, expected_version=0)
    match = await stored(db, match_id)
    assert (match.version, match.thread_id, match.seats[1].draft, match.messages) == (1, 5, (), {})


async def test_seats_and_messages_held_to_the_version_leave_it_as_it_is(db):
    match_id = await new_match(db)
    async with db.statement() as conn:
        await store.update_seat(conn, match_id, 1, expected_version=0, draft=["a", "b"])
    async with db.statement() as conn:
        await store.set_message(conn, match_id, "result", 99, expected_version=0)
    async with db.statement() as conn:
        await store.set_message(conn, match_id, "result", 98, expected_version=0)
    match = await stored(db, match_id)
    assert (match.version, match.seats[1].draft, match.messages) == (0, ("a", "b"), {"result": 98})


async def test_a_status_condition_that_refuses_is_no_conflict(db):
    match_id = await new_match(db)
    async with db.transaction() as conn:
        assert await store.update_match(conn, match_id, 2.0, expected_version=0, only_status="active",
                                        thread_id=5) == 0
    assert (await stored(db, match_id)).version == 0


async def test_a_conflicting_write_sent_without_waiting_fails_its_transaction(db):
    match_id = await new_match(db)
    async with db.transaction() as conn:
        await store.update_match(conn, match_id, 2.0, thread_id=5)
    with pytest.raises(VersionConflict):
        async with db.transaction() as conn, pipelined(conn) as watched:
            watched.send(lambda connection: store.set_message(connection, match_id, "board:1", 1))
            watched.send(lambda connection: store.update_match(connection, match_id, 3.0, expected_version=0,
                                                               thread_id=7))
    match = await stored(db, match_id)
    assert (match.version, match.thread_id, match.messages) == (1, 5, {})


async def test_the_record_the_kernel_keeps_in_memory_is_the_stored_one(tmp_path):
    service = await open_service(tmp_path / "kernel.db", FakeClock())
    try:
        update = await service.challenge(1, 10, ALICE, BOB)
        match_id = update.match.id
        steps = [
            lambda: service.outbox.set_challenge_message(match_id, 500),
            lambda: service.accept(match_id, BOB),
            lambda: service.outbox.set_thread(match_id, 600),
            lambda: service.outbox.set_dm(match_id, ALICE, 700, 701),
            lambda: service.outbox.set_board_message(match_id, 1, 800),
            lambda: play_engagement(service, match_id, (as_drawn, reverse)),
            lambda: play_engagement(service, match_id, (reverse, as_drawn)),
        ]
        for step in steps:
            await step()
            known = service._known(match_id)
            assert known is not None and known.match == await stored(service.db, match_id)
        assert known.match.version > 3
    finally:
        await service.db.close()
