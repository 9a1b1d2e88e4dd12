"""The bot on PostgreSQL (``DATABASE_URL``) through the local Discord: a whole Air War match against the bot with a
restart mid-match, on a real PostgreSQL server of the test run."""

from __future__ import annotations

import asyncio

import pytest

from bot.match.kernel import OPPONENT_OPTION
from bot.services.settings import SettingsService
from tests.e2e.test_airwar import PACE_MS, SEED, dm_panel, fast_bot, lift_rate_limits, lock_in, settled, stack_of, weave
from tests.e2e.test_airwar_bot import challenge_the_bot, play_against_the_bot, replayed_like_the_bot
from tests.records import match_results

pytestmark = pytest.mark.e2e


async def test_a_match_against_the_bot_on_postgresql_survives_a_restart(make_env, tmp_path, postgres):
    url = await postgres.url_for("e2e-airwar-bot")
    unused = tmp_path / "not-used.db"
    env = await make_env(fast_bot(unused, seed=SEED, database_url=url))
    lift_rate_limits(env)
    await SettingsService(env.bot.matches.db).set_flip_pace_ms(env.guild.id, PACE_MS)
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
    assert [result.rated for result in await match_results(env.bot.matches.db, match_id)] == [False, False]
    replayed_like_the_bot(await env.bot.matches.export(match_id), "hard")
    await env.wait_for(lambda: any("🎯" in m.text for m in env.messages(thread)), timeout=30,
                       message="no accuracy after the match")
    assert not unused.exists()  # nothing went to SQLite


# The core of the e2e suite again, with the bot on PostgreSQL (AIRWAR_TEST_DATABASE_URL makes every bot the tests
# build use a fresh database of the run's server): a whole match of each game played against each other, a lobby
# and a tournament with the bot in a seat, a tournament, a restart and a kill.
CORE = [
    ("test_airwar", "test_a_full_match_from_challenge_to_result", {}),
    ("test_airwar_restart", "test_a_deadline_that_passed_while_the_bot_was_away_is_moved_not_missed", {}),
    ("test_airwar_restart", "test_a_kill_mid_arrangement_loses_nothing", {}),
    ("test_airwar_lobby", "test_a_lobby_with_the_bot_in_a_seat_plays_to_the_end_unrated", {}),
    ("test_war", "test_two_player_challenge_to_the_end", {"pace": "auto"}),
    ("test_war", "test_four_player_lobby_to_the_end", {"pace": "instant"}),
    ("test_army", "test_an_army_match_from_challenge_to_result", {}),
    ("test_casinowar", "test_a_table_over_a_reshuffle_a_surrender_and_a_war_survives_a_kill_between_payout_and_showing",
     {}),
    ("test_bundlewar", "test_a_game_with_a_steal_and_a_war_to_the_end", {}),
    ("test_speedwar", "test_a_game_with_a_wrong_press_and_a_simultaneous_press", {"monkeypatch": None}),
    ("test_tournament", "test_eight_player_single_elimination_with_a_no_show", {}),
    ("test_tournament_games", "test_an_odd_round_robin_seats_the_bot_at_its_level_always_ready_and_unrated", {}),
]


@pytest.mark.parametrize(("module", "name", "extra"), CORE, ids=[f"{m}::{n}" for m, n, _ in CORE])
async def test_the_core_on_postgresql(module, name, extra, make_env, tmp_path, postgres, monkeypatch):
    import importlib

    test = getattr(importlib.import_module(f"tests.e2e.{module}"), name)
    monkeypatch.setenv("AIRWAR_TEST_DATABASE_URL", await postgres.url_for(f"core:{module}:{name}"))
    arguments = {key: monkeypatch if key == "monkeypatch" else value for key, value in extra.items()}
    await test(make_env, tmp_path, **arguments)
    assert not any(tmp_path.glob("*.db")), "the bot wrote to SQLite"
