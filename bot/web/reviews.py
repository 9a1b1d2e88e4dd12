"""Each finished Air War match's review: every order measured against the engagement's equilibrium (the ``hard``
level's strategy and value, :mod:`bot.ai.review`), computed once after the match ended and stored
(``match_reviews``), so a review page only reads it.

The web process computes them (:class:`Reviewer`): it looks for finished matches without a review every
:data:`POLL_SECONDS` and solves them in a worker process of its own, so neither the bot nor a page being served
waits for a solve.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bot.ai.oracle import BUDGET_SECONDS
from bot.ai.review import accuracy_percent, review
from bot.match.export import match_file
from bot.registry import registry
from bot.storage.port import Storage

log = logging.getLogger(__name__)

GAME = "airwar"
#: how often the reviewer looks for finished matches without a review
POLL_SECONDS = 5.0
#: matches solved per look
BATCH = 20


def review_data(match: Mapping[str, Any], budget: float = BUDGET_SECONDS) -> dict[str, Any]:
    """A match file's review as stored: per engagement each seat's ``regret`` and ``stake`` (value units: a sure
    win is 1), ``accuracy`` (0-100), the order ``played`` and the ``best`` one; per seat the match's ``accuracy``
    and its ``costliest`` engagement (``None``: every order was one of the best)."""
    reviewed = review(match, budget)
    engagements = [{
        "number": item.number,
        "regret": list(item.regrets), "stake": list(item.stakes),
        "accuracy": [round(accuracy_percent([item.regrets[seat]], [item.stakes[seat]]), 1) for seat in (0, 1)],
        "played": [list(item.played[0]), list(item.played[1])],
        "best": [list(item.best[0]), list(item.best[1])],
    } for item in reviewed.engagements]
    costliest = [reviewed.costliest(seat) for seat in (0, 1)]
    return {"level": "hard", "engagements": engagements,
            "accuracy": [round(reviewed.accuracy(seat), 1) for seat in (0, 1)],
            "costliest": [None if worst is None else worst.number for worst in costliest]}


async def export(db: Storage, match_id: int) -> dict[str, Any] | None:
    """The finished match's match file (``None``: no such finished match)."""
    async with db.read() as conn:
        match = await db.matches.load_match(conn, match_id)
        if match is None or match.status != "finished" or match.seed is None:
            return None
        log_ = await db.matches.actions(conn, match_id)
    return match_file(registry().entry(match.game).plugin.flow(), match, log_)


async def review_match(db: Storage, match_id: int, solve: Callable[[dict[str, Any]], Any],
                       clock: Callable[[], float] = time.time) -> bool:
    """Review one finished match and store it (``solve``: the match file -> :func:`review_data`, maybe in another
    process). ``False``: nothing to review (not a finished two-player Air War match)."""
    file = await export(db, match_id)
    if file is None or file["game"] != GAME or file["rules"].get("players", 2) != 2:
        return False
    data = await solve(file)
    async with db.transaction() as conn:
        await db.web.put_review(conn, match_id, data, clock())
    return True


class Reviewer:
    """Reviews the finished Air War matches without a review, in a worker process, until stopped."""

    def __init__(self, db: Storage, *, poll: float = POLL_SECONDS, budget: float = BUDGET_SECONDS) -> None:
        self.db = db
        self.poll = poll
        self.budget = budget
        self._pool: ProcessPoolExecutor | None = None
        self._task: asyncio.Task[None] | None = None
        #: matches without a review to make (three or four players) or whose review failed (a damaged match
        #: file): not tried again by this process
        self._skipped: set[int] = set()

    async def _solve(self, file: dict[str, Any]) -> dict[str, Any]:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=1)
        return await asyncio.get_running_loop().run_in_executor(self._pool, review_data, file, self.budget)

    async def run_once(self) -> int:
        """Review what is waiting now; how many were stored."""
        async with self.db.read() as conn:
            waiting = [match_id for match_id in await self.db.web.unreviewed(conn, GAME, BATCH + len(self._skipped))
                       if match_id not in self._skipped]
        done = 0
        for match_id in waiting[:BATCH]:
            try:
                reviewed = await review_match(self.db, match_id, self._solve)
            except Exception:
                log.exception("match %s could not be reviewed", match_id)
                reviewed = False
            if reviewed:
                done += 1
            else:
                self._skipped.add(match_id)
        return done

    async def _loop(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception:
                log.exception("the reviewer's look failed; trying again")
            await asyncio.sleep(self.poll)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="reviewer")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)


def engagement_table(data: Mapping[str, Any] | None) -> dict[int, Mapping[str, Any]]:
    """The stored review's engagements by number (empty without a review)."""
    return {} if data is None else {item["number"]: item for item in data["engagements"]}

