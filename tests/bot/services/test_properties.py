"""Random sequences of service calls, valid and invalid, by random users: the database always stays consistent.

After every call: a refused call (or a timer call with nothing to do) changed no row; the invariants of
``bot.storage.diagnostics.check_consistency`` hold (one open match per player and game, results only and always
for finished matches, ratings agreeing with the results, contiguous event and action numbers); every active match's
state loads; no other exception than the typed user errors ever escapes.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.games.airwar.engine import AirWar
from bot.match.errors import USER_ERRORS
from bot.match.kernel import MatchKernel
from bot.services.settings import SettingsService
from bot.storage import Database
from bot.storage.records import MatchRecord
from tests.bot.services.support import FakeClock, consistency, forfeit_mine, table_dump

USERS = (1, 2, 3, 4, 5)
GUILDS = (10, 20)
OPS = (
    "challenge", "accept", "decline", "withdraw", "tap", "undo", "reset", "random", "as_drawn", "confirm",
    "play", "play", "wait", "timeout", "forfeit", "forfeit_mine", "mark_shown", "settings", "status",
)
RULES = ({}, {"stack": 7}, {"stack": 3, "deck": "jokers"}, {"aces": "low"}, {"stack": 6, "deck": "tarot"},
         {"stack": 3}, {"stack": 4}, {"stack": 5}, {"stack": 2}, {"colour": "red"})  # the last two are refused

step = st.tuples(st.sampled_from(OPS), st.integers(0, 9), st.integers(0, 9), st.integers(0, 9))


async def run(ops: list[tuple[str, int, int, int]], path: Path) -> None:
    """``a``, ``b``, ``c`` (0-9) steer each call: mostly a plausible call (the right match and player), sometimes
    the wrong match, a missing one, the wrong player, a stale engagement or a bad card."""
    clock = FakeClock()
    database = await Database.open(path)
    service = MatchKernel(database, game="airwar", clock=clock, seed_source=iter(range(1000)).__next__,
                           draft_rng=random.Random(0))
    # every run starts with one active match (users 1 and 2) so that play is reached often
    first = await service.challenge(GUILDS[0], 1, USERS[0], USERS[1], rules={"stack": 7})
    await service.accept(first.match.id, USERS[1])
    match_ids: list[int] = [first.match.id]

    async def pick(status: str | None, b: int) -> MatchRecord | None:
        if b == 9:
            return None  # a match that does not exist
        records = [await service.get_match(match_id) for match_id in match_ids]
        pool = [m for m in records if status is None or m.status == status] if b != 8 else records
        pool = pool or records
        return pool[-1 - b % len(pool)]

    def player(match: MatchRecord | None, seat: int, c: int, a: int) -> int:
        if match is None or c >= 8:
            return USERS[a % len(USERS)]  # anyone, often an outsider
        return match.user_ids[seat if c < 7 else 1 - seat]

    try:
        for op, a, b, c in ops:
            before = await table_dump(database)
            wants = {"challenge": None, "accept": "challenge", "decline": "challenge", "withdraw": "challenge",
                     "mark_shown": None, "settings": None, "status": None}.get(op, "active")
            match = await pick(wants, b)
            match_id = 999 if match is None else match.id
            engagement = (match.step if match else 1) - (1 if c == 6 else 0)
            try:
                if op == "challenge":
                    busy = {u for m in await service.open_matches() for u in m.user_ids}
                    free = [u for u in USERS if u not in busy] if a < 7 else list(USERS)
                    if len(free) < 2:
                        free = list(USERS)
                    challenger = free[a % len(free)]
                    opponent = free[(a + 1 + b % (len(free) - 1)) % len(free)] if c != 8 else challenger
                    update = await service.challenge(
                        GUILDS[b % 2], 1, challenger, opponent, rules=RULES[c], arrange_seconds={6: 30, 7: 5}.get(a),
                    )
                    match_ids.append(update.match.id)
                    result = update
                elif op == "accept":
                    result = await service.accept(match_id, player(match, 1, c, a))
                elif op == "decline":
                    result = await service.decline(match_id, player(match, 1, c, a))
                elif op == "withdraw":
                    result = await service.withdraw(match_id, player(match, 0, c, a))
                elif op in ("tap", "undo", "reset", "random", "as_drawn", "confirm"):
                    user = player(match, a % 2, c, a)
                    if op == "tap":
                        try:
                            stack = list((await service.panel(match_id, user)).stack)
                        except USER_ERRORS:
                            stack = []
                        card = stack[b % len(stack)] if stack and c != 5 else "ZZ"
                        result = await service.tap(match_id, user, engagement, card)
                    else:
                        method = {"undo": service.undo, "reset": service.reset, "random": service.random_order,
                                  "as_drawn": service.as_drawn, "confirm": service.confirm}[op]
                        result = await method(match_id, user, engagement)
                elif op == "play":  # both orders in one go, the common path (several engagements when c > 5)
                    result = None
                    for _ in range(1 if c < 5 else 8):
                        current = await service.get_match(match_id) if match else None
                        if current is not None and current.status != "active":
                            break
                        for seat in (0, 1):
                            user = player(current, seat, c % 5, a)
                            turn = current.step if current else 1
                            if not (await service.panel(match_id, user)).locked:
                                await service.as_drawn(match_id, user, turn) if a % 2 else \
                                    await service.random_order(match_id, user, turn)
                                result = await service.confirm(match_id, user, turn)
                elif op == "wait":
                    clock.advance((1, 60, 130, 301, 1000)[c % 5])
                    result = await service.deadline_due(match_id)
                elif op == "timeout":
                    result = await service.step_timeout(match_id, engagement)
                elif op == "forfeit":
                    result = await service.forfeit(match_id, player(match, a % 2, c, a))
                elif op == "forfeit_mine":
                    result = await forfeit_mine(service, USERS[a % len(USERS)])
                elif op == "mark_shown":
                    result = await service.outbox.mark_shown(match_id, c * 3)
                elif op == "settings":
                    result = await SettingsService(database, clock=clock).set_arrange_seconds(GUILDS[b % 2],
                                                                                   (30, 120, 10, 600)[c % 4])
                else:
                    result = await service.status(USERS[a % len(USERS)])
            except USER_ERRORS as error:
                event(f"{op}: refused ({type(error).__name__})")
                if op != "play":  # a play step is several calls: the ones before the refusal stay
                    assert await table_dump(database) == before, f"{op} was refused but changed the database"
            else:
                event(f"{op}: {'nothing to do' if result is None else 'done'}")
                if getattr(result, "finished", False):
                    event(f"a match finished ({result.match.reason})")
                if result is None and op != "play":
                    assert await table_dump(database) == before, f"{op} did nothing but changed the database"
            problems = await consistency(database)
            assert problems == [], f"after {op}: {problems}"
            for match in await service.open_matches():
                if match.status == "active":
                    view = await service.view(match.id)
                    assert view["phase"] == "ordering" and view["engagement"] == match.step
                    assert AirWar.resolve_rules(match.rules) == match.rules
    finally:
        await database.close()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=1, max_size=50))
def test_random_service_calls_keep_the_database_consistent(ops):
    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(run(ops, Path(directory) / "airwar.db"))
