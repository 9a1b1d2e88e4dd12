"""Two bot processes on one database: two kernels, each with its own connection to the same SQLite file (or its
own pool on the same PostgreSQL database, where each match transaction also takes the match's advisory lock).

Shared (``Database.open(..., shared=True)``), they keep no match in memory, one of them runs each due deadline and
one shows each match's events. On its own file a kernel keeps matches in memory; another writer's change then
makes its next write fail the version check (MatchChanged, nothing changed) instead of overwriting a step it has not
seen.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.match import errors
from bot.match.kernel import CLAIM_SECONDS, MatchKernel
from bot.storage import Database
from tests.bot.services.support import ALICE, BOB, SEED, build_and_confirm, reverse, start_match, table_dump


@pytest.fixture
async def two_processes(tmp_path, clock, databases):
    path = tmp_path / "shared.db"
    if databases is None:
        opened = [await Database.open(path, shared=True), await Database.open(path, shared=True)]
    else:
        from bot.storage.postgres import PostgresDatabase

        url = await databases.url_for(str(path))
        opened = [await PostgresDatabase.open(url, shared=True), await PostgresDatabase.open(url, shared=True)]
    yield [MatchKernel(database, game="airwar", clock=clock, seed_source=lambda: SEED) for database in opened]
    for database in opened:
        await database.close()


async def test_one_process_runs_a_due_deadline(two_processes, clock):
    first, second = two_processes
    match = await start_match(first)
    assert (await second.panel(match.id, BOB)).engagement == 1  # the other process sees the match
    clock.advance(10_000)
    updates = await asyncio.gather(first.deadline_due(match.id), second.deadline_due(match.id))
    assert sum(update is not None for update in updates) == 1
    timeouts = [q for q in await first.outbox.events(match.id) if q.type == "arrange_timeout"]
    assert len(timeouts) == 1 and timeouts[0].event["as_drawn"] == [0, 1]
    assert (await second.get_match(match.id)).step == 2
    # the claim ended with the deadline it ran: the next one is the next engagement's, unclaimed
    clock.advance(10_000)
    assert await second.deadline_due(match.id) is not None


async def test_a_deadline_claimed_by_a_process_that_died_waits_for_its_lease(two_processes, clock):
    first, second = two_processes
    match = await start_match(first)
    clock.advance(10_000)
    async with first.db.statement() as conn:  # a process claims the deadline, then dies before running it
        assert await first.store.claim_deadline(conn, match.id, "arrange", 1, "gone", clock(), CLAIM_SECONDS)
    assert await second.deadline_due(match.id) is None
    assert (await second.get_match(match.id)).step == 1  # not run
    clock.advance(CLAIM_SECONDS)
    assert (await second.deadline_due(match.id)).match.step == 2


async def test_each_process_plays_the_match_as_stored(two_processes):
    first, second = two_processes
    match = await start_match(first)
    await build_and_confirm(first, match.id, ALICE, reverse)
    assert (await second.panel(match.id, ALICE)).locked  # nothing stale kept in the other process
    update = await build_and_confirm(second, match.id, BOB, reverse)
    assert update.match.step == 2
    assert (await first.get_match(match.id)).step == 2


async def test_the_same_click_in_both_processes_at_once_is_one_action(two_processes):
    first, second = two_processes
    match = await start_match(first)
    panel = await first.panel(match.id, ALICE)
    for card in reverse(list(panel.stack)):  # the order built in the first process
        await first.tap(match.id, ALICE, 1, card)
    outcomes = await asyncio.gather(first.confirm(match.id, ALICE, 1), second.confirm(match.id, ALICE, 1),
                                    return_exceptions=True)
    confirmed = [outcome for outcome in outcomes if not isinstance(outcome, BaseException)]
    refused = [outcome for outcome in outcomes if isinstance(outcome, BaseException)]
    assert len(confirmed) == 1 and len(refused) == 1
    assert not isinstance(refused[0], errors.MatchChanged), refused[0]  # waited for the other, then saw it
    assert isinstance(refused[0], errors.ServiceError)
    async with second.db.read() as conn:
        choices = [action for action in await second.store.actions(conn, match.id) if action.seat == 0]
    assert len(choices) == 1  # one order stored, once


async def test_one_process_shows_a_matchs_events(two_processes):
    first, second = two_processes
    match = await start_match(first)
    assert await first.outbox.claim_events(match.id) and await first.outbox.claim_events(match.id)  # (a renewal)
    assert not await second.outbox.claim_events(match.id)
    await first.outbox.release_events(match.id)
    assert await second.outbox.claim_events(match.id)
    assert not await first.outbox.claim_events(match.id)


async def test_a_stale_match_in_memory_is_refused_by_the_version_check(tmp_path, clock):
    path = tmp_path / "alone.db"
    mine, other = await Database.open(path), await Database.open(path)
    try:
        remembering = MatchKernel(mine, game="airwar", clock=clock, seed_source=lambda: SEED)
        writer = MatchKernel(other, game="airwar", clock=clock, seed_source=lambda: SEED)
        match = await start_match(remembering)
        await build_and_confirm(remembering, match.id, ALICE, reverse)  # the match is in memory now
        await build_and_confirm(writer, match.id, BOB, reverse)  # another writer plays engagement 1 out
        before = await table_dump(mine)
        with pytest.raises(errors.MatchChanged):
            await remembering.forfeit(match.id, BOB)
        assert await table_dump(mine) == before
        assert (await remembering.get_match(match.id)).step == 2  # read again after the refusal
        assert (await remembering.forfeit(match.id, BOB)).match.result["winner_id"] == ALICE
    finally:
        await mine.close()
        await other.close()


async def test_both_players_ready_at_once_in_two_processes_deal_one_game(two_processes, clock):
    import random

    from tests.bot.services.test_tournaments import ORGANISER, World, create

    worlds = [World(kernel.db, clock, random.Random(index)) for index, kernel in enumerate(two_processes)]
    tid = await create(worlds[0], "single_elimination", 2, no_show=600, game="airwar", rules={"stack": 3},
                       pace=None)
    await worlds[0].service.start(tid, ORGANISER)
    [called] = await worlds[1].service.bracket_matches(tid)
    outcomes = await asyncio.gather(*(world.service.ready(tid, called.key, player)
                                      for world, player in zip(worlds, called.players, strict=True)),
                                    return_exceptions=True)
    assert not [outcome for outcome in outcomes if isinstance(outcome, BaseException)]
    games = await worlds[1].service.games(tid)
    assert len(games) == 1  # one game dealt, whichever process saw both players ready
    [row] = await worlds[0].service.bracket_matches(tid)
    assert row.status == "playing" and row.ready == (True, True) and row.match_id == games[0].match_id
