"""Claims on a match's due deadline and unshown events, made by two connections to one SQLite file (two bot
processes): one claimant wins, the others find it claimed until the claim is given up or runs out."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import Database
from bot.storage import matches as store

DEADLINE = 100.0
LEASE = 30.0


@pytest.fixture
async def databases(tmp_path):
    first = await Database.open(tmp_path / "shared.db")
    second = await Database.open(tmp_path / "shared.db")
    yield first, second
    await first.close()
    await second.close()


@pytest.fixture
async def match_id(databases):
    async with databases[0].transaction() as conn:
        match_id = await store.insert_match(conn, guild_id=1, channel_id=2, game="airwar", rules={},
                                            arrange_seconds=None, user_ids=[10, 20], deadline_at=DEADLINE, now=1.0)
        await store.update_match(conn, match_id, 1.0, status="active", seed=1, state={}, step=3,
                                 deadline_at=DEADLINE, deadline_kind="arrange")
    return match_id


async def claim_deadline(database: Database, match_id: int, owner: str, now: float, *, step: int = 3) -> bool:
    async with database.statement() as conn:
        return await store.claim_deadline(conn, match_id, "arrange", step, owner, now, LEASE)


async def claim_unshown(database: Database, match_id: int, owner: str, now: float) -> bool:
    async with database.statement() as conn:
        return await store.claim_unshown(conn, match_id, owner, now, LEASE)


async def test_one_claimant_of_a_due_deadline_wins(databases, match_id):
    first, second = databases
    won = await asyncio.gather(*(claim_deadline(database, match_id, f"{name}-{n}", DEADLINE)
                                 for n in range(3) for name, database in (("a", first), ("b", second))))
    assert sorted(won) == [False] * 5 + [True]
    winner = f"{'ab'[won.index(True) % 2]}-{won.index(True) // 2}"
    assert await claim_deadline(second, match_id, "c", DEADLINE + LEASE - 1) is False
    assert await claim_deadline(first, match_id, winner, DEADLINE + LEASE - 1) is True  # renewed
    assert await claim_deadline(second, match_id, "c", DEADLINE + 2 * LEASE - 2) is False


async def test_an_expired_claim_is_taken_over(databases, match_id):
    first, second = databases
    assert await claim_deadline(first, match_id, "a", DEADLINE)
    assert await claim_deadline(second, match_id, "b", DEADLINE + LEASE)
    assert await claim_deadline(first, match_id, "a", DEADLINE + LEASE + 1) is False


async def test_only_the_due_deadline_of_the_step_can_be_claimed(databases, match_id):
    first, _ = databases
    assert await claim_deadline(first, match_id, "a", DEADLINE - 1) is False
    assert await claim_deadline(first, match_id, "a", DEADLINE, step=2) is False
    async with first.statement() as conn:
        assert await store.claim_deadline(conn, match_id, "challenge", 3, "a", DEADLINE, LEASE) is False


async def test_a_released_claim_or_a_new_deadline_frees_the_deadline(databases, match_id):
    first, second = databases
    assert await claim_deadline(first, match_id, "a", DEADLINE)
    async with second.statement() as conn:
        assert await store.release_deadline(conn, match_id, "b") is False
    async with first.statement() as conn:
        assert await store.release_deadline(conn, match_id, "a") is True
    assert await claim_deadline(second, match_id, "b", DEADLINE)
    async with second.transaction() as conn:  # b ran the timeout: the next step's deadline
        await store.update_match(conn, match_id, DEADLINE, step=4, deadline_at=DEADLINE + 10)
    assert await claim_deadline(first, match_id, "a", DEADLINE + 10, step=3) is False
    assert await claim_deadline(first, match_id, "a", DEADLINE + 10, step=4) is True


async def test_one_claimant_shows_the_unshown_events(databases, match_id):
    first, second = databases
    assert await claim_unshown(first, match_id, "a", 1.0) is False  # nothing to show
    async with first.transaction() as conn:
        await store.append_events(conn, match_id, [{"type": "one"}, {"type": "two"}], 1.0)
    won = await asyncio.gather(claim_unshown(first, match_id, "a", 2.0), claim_unshown(second, match_id, "b", 2.0))
    assert sorted(won) == [False, True]
    winner, loser = ("a", "b") if won[0] else ("b", "a")
    assert await claim_unshown(first, match_id, loser, 2.0 + LEASE - 1) is False
    assert await claim_unshown(first, match_id, winner, 2.0 + LEASE - 1) is True  # renewed
    # the holder dies: once its claim ran out, the other takes over
    assert await claim_unshown(second, match_id, loser, 2.0 + 2 * LEASE - 1) is True
    async with second.statement() as conn:
        assert await store.release_unshown(conn, match_id, winner) is False
        assert await store.release_unshown(conn, match_id, loser) is True
    assert await claim_unshown(first, match_id, winner, 3.0 + 2 * LEASE)
    async with first.statement() as conn:
        assert await store.mark_shown(conn, match_id, 2) == 2
    assert await claim_unshown(first, match_id, winner, 4.0 + 2 * LEASE) is False  # all shown


async def test_claims_leave_the_match_and_its_version_as_they_are(databases, match_id):
    first, _ = databases
    async with first.read() as conn:
        before = await store.load_match(conn, match_id)
    async with first.transaction() as conn:
        await store.append_events(conn, match_id, [{"type": "one"}], 1.0)
    assert await claim_deadline(first, match_id, "a", DEADLINE)
    assert await claim_unshown(first, match_id, "a", DEADLINE)
    async with first.read() as conn:
        assert await store.load_match(conn, match_id) == before
