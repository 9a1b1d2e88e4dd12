"""The reviewer of the web process: every finished two-player Air War match gets its review once, stored; other
games and three- or four-player matches get none, and are not asked about again."""

from __future__ import annotations

from bot.ai.review import review
from bot.web.reviews import Reviewer, export
from tests.bot.web.data import add_finished

GUILD = 1


async def test_the_reviewer_stores_each_finished_air_war_match_s_review_once(db):
    duel = [await add_finished(db, GUILD, "airwar", [11, 12], seed, 100.0 + seed, {"stack": 3}) for seed in (1, 2)]
    many = await add_finished(db, GUILD, "airwar", [11, 12, 13], 3, 103.0)
    war = await add_finished(db, GUILD, "war", [11, 12], 4, 104.0, {"max_rounds": 20})
    reviewer = Reviewer(db, budget=0.3)
    try:
        assert await reviewer.run_once() == 2
        assert await reviewer.run_once() == 0  # nothing left: stored once, the others not asked about again
    finally:
        await reviewer.stop()
    async with db.read() as conn:
        stored = {match_id: await db.web.get_review(conn, match_id) for match_id in [*duel, many, war]}
        assert await db.web.unreviewed(conn, "airwar", 10) == [many]
    assert stored[many] is None and stored[war] is None
    for match_id in duel:
        expected = review(await export(db, match_id), 0.3)
        data = stored[match_id]
        assert [item["number"] for item in data["engagements"]] == [item.number for item in expected.engagements]
        assert [item["played"] for item in data["engagements"]] == [[list(p) for p in item.played]
                                                                  for item in expected.engagements]
        assert data["accuracy"] == [round(expected.accuracy(seat), 1) for seat in (0, 1)]
        assert data["level"] == "hard"
