"""A match's transaction hands the writes whose results it does not need to the database without waiting for each
(``bot.storage.pipeline.Pipelined.send``): they run in order, before any statement awaited after them and before
the commit, and a transaction that fails keeps none of them -- not even one handed over before it failed."""

from __future__ import annotations

import asyncio

import pytest

from bot.match.kernel import MatchKernel
from bot.storage import matches as store
from bot.storage.errors import ConstraintViolation
from tests.bot.services.support import ALICE, BOB, start_match


async def events_of(service: MatchKernel, match_id: int) -> list[tuple[int, str]]:
    return [(queued.seq, queued.type) for queued in await service.outbox.events(match_id)]


async def test_sent_writes_run_in_order_before_a_statement_awaited_after_them(service):
    match = await start_match(service)
    before = await events_of(service, match.id)
    async with service._work(match.id) as work:
        await work.queue([{"type": "note", "n": 1}])
        work.send_update(deadline_at=123.0)
        await work.queue([{"type": "note", "n": 2}])
        assert work.conn._sent  # handed over, not awaited yet
        seen = await store.events(work.conn, match.id)  # awaited after them: sees them all
        row = await store.load_match(work.conn, match.id)
        work.mirrored(row)
    assert [(q.seq, q.event.get("n")) for q in seen[-2:]] == [(len(before) + 1, 1), (len(before) + 2, 2)]
    assert row is not None and row.deadline_at == 123.0
    assert await events_of(service, match.id) == [*before, (len(before) + 1, "note"), (len(before) + 2, "note")]


async def test_a_sent_write_that_fails_rolls_back_every_write_of_the_transaction(service, opener, tmp_path):
    match = await start_match(service)
    reader = await opener(tmp_path / "airwar.db")
    before = await events_of(reader, match.id)
    stored = await reader.get_match(match.id)
    with pytest.raises(ConstraintViolation):
        async with service._work(match.id) as work:
            work.send_update(deadline_at=123.0)
            # an event numbered like one stored already: the primary key refuses it
            work.write(store.insert_events, store.numbered_events(match.id, [{"type": "clash"}], after_seq=0), 0.0)
            await work.queue([{"type": "note"}])
    assert await events_of(reader, match.id) == before
    assert await reader.get_match(match.id) == stored
    assert service._known(match.id) is None
    # the connection is clean: the service goes on
    panel = await service.panel(match.id, ALICE)
    await service.tap(match.id, ALICE, 1, panel.stack[0])
    assert (await reader.panel(match.id, ALICE)).draft == (panel.stack[0],)


async def test_writes_sent_before_the_transaction_fails_never_land(service, opener, tmp_path):
    match = await start_match(service)
    reader = await opener(tmp_path / "airwar.db")
    before = await events_of(reader, match.id)
    with pytest.raises(RuntimeError, match="refused"):
        async with service._work(match.id) as work:
            await work.queue([{"type": "note"}])
            work.send_update(deadline_at=123.0)
            raise RuntimeError("refused")
    await asyncio.sleep(0.05)  # a write still on its way would have landed by now
    assert await events_of(reader, match.id) == before
    assert (await reader.get_match(match.id)).deadline_at != 123.0


async def test_a_transaction_cancelled_after_it_sent_its_writes_keeps_none_of_them(service, opener, tmp_path):
    match = await start_match(service)
    reader = await opener(tmp_path / "airwar.db")
    before = await events_of(reader, match.id)
    sent = asyncio.Event()

    async def send_then_wait() -> None:
        async with service._work(match.id) as work:
            await work.queue([{"type": "note"}])
            work.send_update(deadline_at=123.0)
            sent.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(send_then_wait())
    await sent.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.sleep(0.05)
    assert await events_of(reader, match.id) == before
    assert (await reader.get_match(match.id)).deadline_at != 123.0
    assert (await service.panel(match.id, BOB)).engagement == 1
