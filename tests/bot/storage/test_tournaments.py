"""Tournament storage on a real SQLite file: migration 4, the rows round trip, the event queue, games counted once."""

from __future__ import annotations

import pytest

from bot.storage import Database
from bot.storage import matches as match_store
from bot.storage import tournaments as store
from bot.storage.errors import ConstraintViolation


@pytest.fixture
async def db(tmp_path):
    database = await Database.open(tmp_path / "t.db")
    yield database
    await database.close()


async def make(conn, **overrides):
    fields = dict(guild_id=1, channel_id=2, name="Cup", game="war", format="swiss", rules={"pack": 32},
                  options={"best_of": 1}, organiser_id=3, seed=4, signup_closes_at=None, now=100.0)
    return await store.insert_tournament(conn, **{**fields, **overrides})


async def test_tournament_players_and_queue_round_trip(db):
    assert await db.schema_version() >= 4
    async with db.transaction() as conn:
        tid = await make(conn)
        assert await store.add_entrant(conn, tid, 10, "a", 101.0)
        assert not await store.add_entrant(conn, tid, 10, "a", 102.0)
        assert await store.add_entrant(conn, tid, 11, None, 103.0)
        assert await store.check_in(conn, tid, 11) and not await store.check_in(conn, tid, 11)
        queued = await store.append_events(conn, tid, [{"type": "created"}, {"type": "signup", "user_id": 10}], 104)
        assert [q.seq for q in queued] == [1, 2]
    async with db.read() as conn:
        tournament = await store.load_tournament(conn, tid)
        assert tournament.rules == {"pack": 32} and tournament.status == "signup" and tournament.is_open
        assert [(e.user_id, e.checked_in) for e in await store.entrants(conn, tid)] == [(10, False), (11, True)]
        assert await store.names(conn, tid) == {10: "a"}
        assert [e.type for e in await store.unshown_events(conn, tid)] == ["created", "signup"]
        assert await store.tournaments_with_unshown_events(conn) == [tid]
    async with db.transaction() as conn:
        assert await store.mark_shown(conn, tid, 1) == 1
        assert await store.update_tournament(conn, tid, 105.0, status="running", state={"x": 1},
                                             only_status="finished") == 0
        with pytest.raises(ConstraintViolation):  # running needs the bracket state
            await store.update_tournament(conn, tid, 105.0, status="running")
    async with db.read() as conn:
        assert [e.seq for e in await store.unshown_events(conn, tid)] == [2]
        assert (await store.load_tournament(conn, tid)).status == "signup"


async def test_a_game_is_counted_once_and_only_when_its_match_is_over(db):
    async with db.transaction() as conn:
        tid = await make(conn)
        await store.update_tournament(conn, tid, 100.0, status="running", state={"bracket": True})
        await store.insert_bracket_match(conn, tid, "R1-1", "R1", [10, 11], None, 100.0)
        match_id = await match_store.insert_match(conn, guild_id=1, channel_id=2, game="war", rules={},
                                                  arrange_seconds=None, user_ids=(10, 11), deadline_at=900.0,
                                                  now=100.0)
        assert await store.insert_game(conn, tid, "R1-1", match_id) == 1
        assert await store.bracket_match_of_game(conn, match_id) == (tid, "R1-1")
        assert await store.finished_uncounted_games(conn) == []
        await match_store.update_match(conn, match_id, 101.0, status="cancelled", reason="expired",
                                       deadline_at=None, deadline_kind=None)
        assert await store.finished_uncounted_games(conn) == [(tid, "R1-1", match_id)]
        assert await store.count_game(conn, match_id, None)
        assert not await store.count_game(conn, match_id, 10)
        assert await store.finished_uncounted_games(conn) == []
        row = await store.load_bracket_match(conn, tid, "R1-1")
        assert row.players == (10, 11) and row.slot_of(11) == 1 and row.status == "called"
        with pytest.raises(ValueError):
            await store.update_bracket_match(conn, tid, "R1-1", players=1)


async def test_history_lists_past_tournaments_newest_first(db):
    async with db.transaction() as conn:
        first = await make(conn)
        second = await make(conn, channel_id=5)
        await make(conn, channel_id=6)  # still open: not history
        await store.update_tournament(conn, first, 200.0, status="cancelled", finished_at=200.0)
        await store.update_tournament(conn, second, 300.0, status="finished", state={}, champion_id=10,
                                      finished_at=300.0)
    async with db.read() as conn:
        rows, total = await store.past_tournaments(conn, 1, limit=10)
        assert [r.id for r in rows] == [second, first] and total == 2
        assert [t.channel_id for t in await store.open_tournaments(conn)] == [6]


async def test_bracket_matches_by_round_and_call_message_and_the_last_event_of_a_kind(db):
    async with db.transaction() as conn:
        tid = await make(conn)
        await store.update_tournament(conn, tid, 100.0, status="running", state={"bracket": True})
        for key, round_, players in (("R1-1", "R1", [10, 11]), ("R1-2", "R1", [12, 13]), ("R2-1", "R2", [10, 12])):
            await store.insert_bracket_match(conn, tid, key, round_, players, None, 100.0)
        for key in ("R1-1", "R1-2"):
            await store.update_bracket_match(conn, tid, key, call_message_id=500)
        await store.append_events(conn, tid, [{"type": "paused", "by": 3}, {"type": "resumed", "by": 3},
                                              {"type": "paused", "by": 4}], 101.0)
    async with db.read() as conn:
        assert [r.key for r in await store.bracket_matches(conn, tid, round="R1")] == ["R1-1", "R1-2"]
        assert [r.key for r in await store.bracket_matches(conn, tid, call_message_id=500)] == ["R1-1", "R1-2"]
        assert await store.bracket_matches(conn, tid, round="R2", call_message_id=500) == []
        last = await store.last_event(conn, tid, ["paused"])
        assert (last.seq, last.event["by"]) == (3, 4)
        assert (await store.last_event(conn, tid, ["resumed", "cancelled"])).seq == 2
        assert await store.last_event(conn, tid, ["cancelled"]) is None
