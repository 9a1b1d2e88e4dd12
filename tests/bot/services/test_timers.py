import asyncio
import logging
import time

from bot.match.timers import Timers
from tests.bot.services.support import FakeClock


async def test_a_timer_fires_once_its_time_has_come_by_the_clock():
    clock = FakeClock(100.0)
    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:  # the wall clock moves less than asked at first (drift)
        sleeps.append(seconds)
        clock.advance(seconds / 2 if len(sleeps) == 1 else seconds)
        await asyncio.sleep(0)

    timers = Timers(clock=clock, sleep=sleep)
    fired: list[float] = []

    async def fire() -> None:
        fired.append(clock())

    await timers.arm("a", 110.0, fire)
    assert fired == [110.0]
    assert sleeps == [10.0, 5.0]
    assert not timers.armed("a")


async def test_a_time_in_the_past_fires_at_once_and_rearming_replaces():
    timers = Timers()
    fired: list[str] = []

    async def fire(name: str) -> None:
        fired.append(name)

    first = timers.arm("k", time.time() + 3600, lambda: fire("old"))
    second = timers.arm("k", time.time() - 1, lambda: fire("new"))
    await second
    await asyncio.sleep(0)
    assert first.cancelled()
    assert fired == ["new"]
    assert len(timers) == 0


async def test_cancel_and_cancel_all():
    timers = Timers()
    fired: list[str] = []

    async def fire() -> None:
        fired.append("x")

    timers.arm(1, time.time() + 60, fire)
    timers.arm(2, time.time() + 60, fire)
    assert timers.cancel(1) is True
    assert timers.cancel(1) is False
    assert timers.keys() == [2]
    await timers.cancel_all()
    assert len(timers) == 0
    assert fired == []


async def test_a_callback_may_rearm_its_own_key():
    timers = Timers()
    runs: list[int] = []
    done = asyncio.Event()
    async def fire() -> None:
        runs.append(len(runs))
        if len(runs) < 3:
            timers.arm("match", time.time(), fire)
            await asyncio.sleep(0)  # still running after re-arming: it was not cancelled
            runs.append(-1)
        else:
            done.set()

    timers.arm("match", time.time(), fire)
    await asyncio.wait_for(done.wait(), 2)
    assert runs.count(-1) == 2 and len([r for r in runs if r >= 0]) == 3


async def test_an_exception_in_a_callback_is_logged(caplog):
    timers = Timers()

    async def boom() -> None:
        raise ValueError("kaboom")

    with caplog.at_level(logging.ERROR, logger="bot.match.timers"):
        await timers.arm(("match", 7), time.time(), boom)
    assert any("kaboom" in (r.exc_text or "") or r.exc_info for r in caplog.records)
    assert "('match', 7)" in caplog.text
