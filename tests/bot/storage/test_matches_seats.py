"""Seats joining and leaving an open match (a lobby), and the per-game filters of the restart queries."""

from __future__ import annotations

import pytest

from bot.storage import Database
from bot.storage import matches as store
from bot.storage.errors import ConstraintViolation


@pytest.fixture
async def db(tmp_path):
    database = await Database.open(tmp_path / "seats.db")
    yield database
    await database.close()


async def new_match(conn, game: str, users, now: float = 1.0) -> int:
    return await store.insert_match(conn, guild_id=1, channel_id=2, game=game, rules={}, arrange_seconds=None,
                                    user_ids=users, deadline_at=now + 60, now=now, options={"lobby": True})


async def test_seats_join_and_leave_staying_numbered_in_order(db):
    async with db.transaction() as conn:
        match_id = await new_match(conn, "war", [10])
        assert await store.add_seat(conn, match_id, 20) == 1
        assert await store.add_seat(conn, match_id, 30) == 2
        assert await store.add_seat(conn, match_id, 40) == 3
        assert await store.remove_seat(conn, match_id, 20) == 1
        assert await store.remove_seat(conn, match_id, 99) is None
        match = await store.load_match(conn, match_id)
        assert match.user_ids == (10, 30, 40) and [s.seat for s in match.seats] == [0, 1, 2]
        assert match.options == {"lobby": True}
        assert await store.add_seat(conn, match_id, 20) == 3
        assert (await store.load_match(conn, match_id)).user_ids == (10, 30, 40, 20)


async def test_a_seat_keeps_the_one_open_match_rule(db):
    async with db.transaction() as conn:
        first = await new_match(conn, "war", [10])
        second = await new_match(conn, "war", [20])
        await store.add_seat(conn, first, 30)
        with pytest.raises(ConstraintViolation):
            await store.add_seat(conn, second, 30)
        with pytest.raises(ConstraintViolation):
            await store.add_seat(conn, first, 10)
        await store.remove_seat(conn, first, 30)
        assert await store.add_seat(conn, second, 30) == 1


async def test_restart_queries_filter_by_game(db):
    async with db.transaction() as conn:
        war = await new_match(conn, "war", [10, 20])
        air = await new_match(conn, "airwar", [10, 20])
        await store.append_events(conn, war, [{"type": "x"}], 1.0)
        await store.append_events(conn, air, [{"type": "y"}], 1.0)
    async with db.read() as conn:
        assert await store.open_match_ids(conn) == [war, air]
        assert await store.open_match_ids(conn, ("airwar",)) == [air]
        assert await store.open_match_ids(conn, ("war", "drunkard")) == [war]
        assert await store.open_match_ids(conn, ()) == []
        assert await store.match_ids_with_unshown_events(conn) == [war, air]
        assert await store.match_ids_with_unshown_events(conn, ("airwar",)) == [air]
        assert await store.match_ids_with_unshown_events(conn, ("war",)) == [war]


async def test_open_matches_of_users_answers_for_every_user_and_game_in_one_statement(db):
    async with db.transaction() as conn:
        war = await new_match(conn, "war", [10, 20])
        air = await new_match(conn, "airwar", [10, 30])
        drunkard = await new_match(conn, "drunkard", [40, 50])
    async with db.read() as conn:
        assert await store.open_matches_of_users(conn, (10, 20, 30, 60), ("war", "drunkard")) == {10: war, 20: war}
        assert await store.open_matches_of_users(conn, (10, 30, 40), ("airwar",)) == {10: air, 30: air}
        assert await store.open_matches_of_users(conn, (40, 60), ("war", "drunkard")) == {40: drunkard}
        assert await store.open_matches_of_users(conn, (), ("war",)) == {}
        assert await store.open_matches_of_users(conn, (10,), ()) == {}
