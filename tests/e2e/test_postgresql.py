"""The bot on PostgreSQL (``DATABASE_URL``) through the local Discord: a whole Air War match against the bot with a
restart mid-match, on a real PostgreSQL server of the test run."""

from __future__ import annotations

import asyncio

import pytest

from bot.match.kernel import OPPONENT_OPTION
from tests.e2e.test_airwar import PACE_MS, SEED, dm_panel, fast_bot, lift_rate_limits, lock_in, settled, stack_of, weave
from tests.e2e.test_airwar_bot import challenge_the_bot, play_against_the_bot, replayed_like_the_bot

pytestmark = pytest.mark.e2e


async def test_a_match_against_the_bot_on_postgresql_survives_a_restart(make_env, tmp_path, postgres):
    url = await postgres.url_for("e2e-airwar-bot")
    unused = tmp_path / "not-used.db"
    env = await make_env(fast_bot(unused, seed=SEED, database_url=url))
    lift_rate_limits(env)
    await env.bot.matches.set_settings(env.guild.id, flip_pace_ms=PACE_MS)
    assert type(env.bot.database).__name__ == "PostgresDatabase"
    alice = env.user("alice")
    match_id, thread = await challenge_the_bot(env, alice, "hard")
    await play_against_the_bot(env, alice, thread, until=2)
    panel = await env.wait_for(lambda: dm_panel(env, alice, 3))
    for _ in range(300):  # the bot has locked in engagement 3
        if await env.bot.matches.program_turn(match_id) is None:
            break
        await asyncio.sleep(0.02)
    await settled(env, match_id)

    await env.bot.close()
    env.bot = None
    await env.start_bot(fast_bot(unused, seed=SEED, database_url=url)(env))
    await asyncio.wait_for(env.bot.get_cog("AirWar").resumed.wait(), 5)
    assert await env.bot.matches.program_turn(match_id) is None  # its stored order stands
    await lock_in(env, alice, panel, weave(stack_of(panel)))
    await play_against_the_bot(env, alice, thread, first=4)
    await settled(env, match_id)
    match = await env.bot.matches.get_match(match_id)
    assert match.status == "finished" and match.options[OPPONENT_OPTION]["level"] == "hard"
    assert [result.rated for result in await env.bot.matches.results(match_id)] == [False, False]
    replayed_like_the_bot(await env.bot.matches.export(match_id), "hard")
    assert not unused.exists()  # nothing went to SQLite
