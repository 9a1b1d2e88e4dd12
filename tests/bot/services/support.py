"""Shared helpers of the service tests: a fake clock, a service on a real SQLite file, playing whole matches."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from bot.match.kernel import MatchKernel, MatchUpdate
from bot.storage import Database
from bot.storage.diagnostics import check_consistency, dump_tables
from bot.storage.records import MatchRecord

GUILD = 1
CHANNEL = 10
ALICE = 100  # challenger, seat 0
BOB = 200  # opponent, seat 1
CAROL = 300
SEED = 20240611
START = 1_700_000_000.0


class FakeClock:
    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


async def open_database(path: Path, postgres=None):
    """The storage of a test: the SQLite file at ``path``, or (``postgres``: :class:`tests.postgres.Databases`) a
    PostgreSQL database of its own for that path."""
    if postgres is None:
        return await Database.open(path)
    from bot.storage.postgres import PostgresDatabase

    return await PostgresDatabase.open(await postgres.url_for(str(path)))


async def open_service(path: Path, clock: FakeClock, seed: int = SEED, postgres=None) -> MatchKernel:
    database = await open_database(path, postgres)
    return MatchKernel(database, game="airwar", clock=clock, seed_source=lambda: seed, draft_rng=random.Random(7))


async def forfeit_mine(service: MatchKernel, user_id: int, game: str | None = None) -> MatchUpdate:
    """Give up the user's match as ``forfeit`` does: the match its "really?" question is about, then its Forfeit."""
    match = await service.forfeit_target(user_id, game)
    return await service.forfeit(match.id, user_id)


async def start_match(service: MatchKernel, a: int = ALICE, b: int = BOB, **options) -> MatchRecord:
    update = await service.challenge(GUILD, CHANNEL, a, b, **options)
    return (await service.accept(update.match.id, b)).match


def reverse(stack: list[str]) -> list[str]:
    return list(reversed(stack))


def as_drawn(stack: list[str]) -> list[str]:
    return list(stack)


def rotate(stack: list[str]) -> list[str]:
    return stack[1:] + stack[:1]


Policy = Callable[[list[str]], list[str]]


async def build_and_confirm(service: MatchKernel, match_id: int, user_id: int, policy: Policy) -> MatchUpdate:
    """Build the seat's order in the DM panel by tapping the cards one by one (with an undo), then confirm."""
    match = await service.get_match(match_id)
    engagement = match.step
    panel = await service.panel(match_id, user_id)
    order = policy(list(panel.stack))
    update = await service.tap(match_id, user_id, engagement, order[0])
    update = await service.undo(match_id, user_id, engagement)
    assert update.panel.draft == ()
    for card in order:
        update = await service.tap(match_id, user_id, engagement, card)
    assert update.panel.complete and list(update.panel.draft) == order
    return await service.confirm(match_id, user_id, engagement)


async def play_engagement(service: MatchKernel, match_id: int, policies: tuple[Policy, Policy]) -> MatchUpdate:
    match = await service.get_match(match_id)
    update = None
    for seat, policy in enumerate(policies):
        update = await build_and_confirm(service, match_id, match.seats[seat].user_id, policy)
    assert update is not None
    return update


async def play_to_the_end(
    service: MatchKernel, match_id: int, policies: tuple[Policy, Policy] = (as_drawn, reverse), limit: int = 200
) -> MatchRecord:
    for _ in range(limit):
        match = await service.get_match(match_id)
        if match.status != "active":
            return match
        await play_engagement(service, match_id, policies)
    raise AssertionError("the match did not end")


async def table_dump(database: Database) -> dict[str, list[tuple]]:
    """Every row of every table (to show that a refused call changed nothing)."""
    async with database.read() as conn:
        return await dump_tables(conn)


async def consistency(database: Database) -> list[str]:
    async with database.read() as conn:
        return await check_consistency(conn)
