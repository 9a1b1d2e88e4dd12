"""Casino War end to end through the local Discord: a table of two players over a cut-card reshuffle, a surrender,
a war and tie bets, played by the real bot in a separate process that is killed with SIGKILL between storing a
hand's payout and showing it, then by a new bot on the same database. The engine, dealt from the same seed with the
same bets and decisions, says what every balance must be: no bet is lost and none is paid twice, and the hand the
kill cut off is shown once."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot.games.casinowar.engine import CasinoWar
from bot.storage.port import Storage
from tests.e2e.live_table_checks import assert_live_table_in_v2
from tests.e2e.test_airwar import lift_rate_limits
from tests.e2e.test_airwar_restart import BotProcess, creates, restart_in_process
from tests.localdiscord import Env, Message, User
from tests.localdiscord.airwar import open_test_database
from tests.records import match_results

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
#: dealt from this seed with these rules, the table ties in hands 1 and 5 (a surrender and wars) and the cut card
#: comes out in hand 3
SEED = 6
RULES = {"players": 2, "decks": 1, "cut_card": 39, "hands": 6, "min_bet": 10, "max_bet": 100, "tie_bet": 10}
STAKE = 1000
KILLED_HAND = 4


async def start_process(env: Env, database: Path) -> BotProcess:
    log = database.with_suffix(".log")
    with log.open("wb") as stderr:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.e2e.test_casinowar", env.discord.api_base, env.discord.gateway_url,
            env.token, str(database), str(env.guild.id), str(env.owner.id), cwd=ROOT,
            stdout=asyncio.subprocess.PIPE, stderr=stderr)
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), 30)
    assert line.strip() == b"ready", log.read_text()
    return BotProcess(process, log)


def panel(env: Env, user: User, match_id: int, step: int) -> Message | None:
    prefix = f"cw:p:{match_id}:{step}:"
    return next((m for m in reversed(env.messages(env.dm(user)))
                 if any(b.get("custom_id", "").startswith(prefix) for b in m.buttons)), None)


async def choose(env: Env, user: User, match_id: int, step: int, key: str) -> None:
    message = await env.wait_for(lambda: panel(env, user, match_id, step), message=f"no panel of step {step}")
    ix = await env.click(user, message, None, custom_id=f"cw:p:{match_id}:{step}:{key}")
    await ix.wait_response()


def decision(seat: int, surrendered: list[bool]) -> str:
    """Alice surrenders her first tie and goes to war after; bob always goes to war."""
    if seat == 0 and not surrendered[0]:
        surrendered[0] = True
        return "surrender"
    return "war"


async def play_step(env: Env, users: tuple[User, User], match_id: int, engine: CasinoWar,
                    surrendered: list[bool]) -> list[dict]:
    step, events = engine.step, []
    for seat in engine.waiting():
        if engine.phase == "bet":
            key, action = "tie:10", {"type": "bet", "amount": 10, "tie": 10}
        else:
            key = decision(seat, surrendered)
            action = {"type": key}
        await choose(env, users[seat], match_id, step, key)
        events += engine.apply(seat, action)
    return events


async def balances(env: Env, database: Storage, users: tuple[User, User]) -> list[int]:
    async with database.read() as conn:
        found = await database.chips.balances(conn, env.guild.id, [user.id for user in users])
    return [found[user.id] for user in users]


def thread_lines(env: Env, thread, start: str) -> list[Message]:
    return [m for m in env.messages(thread) if m.text.startswith(start)]


async def test_a_table_over_a_reshuffle_a_surrender_and_a_war_survives_a_kill_between_payout_and_showing(
        make_env, tmp_path):
    database_path = tmp_path / "casinowar.db"
    env = await make_env()
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    users = (alice, bob)
    env.channel()
    engine = CasinoWar.new({**RULES, "stacks": [STAKE, STAKE]}, seed=SEED)
    surrendered = [False]
    seen: list[dict] = []
    first = await start_process(env, database_path)
    try:
        ix = await env.slash(env.owner, "settings rules", game="casinowar", rules="decks=1 cut_card=39")
        await ix.wait_response()
        ix = await env.slash(alice, "casinowar table", min_bet=10, max_bet=100, hands=6, tie_bet=10)
        await ix.wait_response()
        table = ix.message
        match_id = int(table.buttons[0]["custom_id"].split(":")[2])
        for user, action in ((bob, "join"), (alice, "start")):
            click = await env.click(user, table, None, custom_id=f"cw:l:{match_id}:{action}")
            await click.wait_response()
        thread = await env.wait_for(lambda: table.thread, message="no thread for the table")
        while engine.hand < KILLED_HAND:
            seen += await play_step(env, users, match_id, engine, surrendered)
        assert any(e["type"] == "reshuffle" for e in seen)  # the cut card came out before the kill
        # hand 4: the bets are dealt and paid (stored), the hand's line is created ... and the bot dies before it
        # hears that it was
        hold = env.hold(creates(thread, lambda body: (body.get("content") or "").startswith(
            f"🂠 **Hand {KILLED_HAND}**")), after=True)
        seen += await play_step(env, users, match_id, engine, surrendered)
        await hold.wait(timeout=10)
        await first.kill(env)
        hold.release()
    finally:
        await first.ensure_dead()

    database = await open_test_database(database_path)
    try:
        assert await balances(env, database, users) == engine.stacks  # the hand's payout is in: stored before shown
    finally:
        await database.close()

    await restart_in_process(env, database_path)
    service = env.bot.service_for("casinowar")
    while not engine.is_over:
        seen += await play_step(env, users, match_id, engine, surrendered)
    kinds = {e.get("kind") for e in seen}
    assert {"surrender", "raise", "tie_win"} <= kinds
    await env.wait_for(lambda: thread_lines(env, thread, "🏁") or any(
        "closed" in m.title for m in env.messages(thread)),
        message="the table's result was not shown")
    match = await service.get_match(match_id)
    assert match.status == "finished"
    assert await balances(env, service.db, users) == engine.stacks
    async with service.db.read() as conn:
        ledger = await service.db.chips.ledger(conn, match_id)
    moves = [e for e in seen if e["type"] == "chips"]
    assert [(entry.hand, entry.seat, entry.kind, entry.amount) for entry in ledger] == [
        (e["hand"], e["seat"], e["kind"], e["amount"]) for e in moves]  # every movement once, none twice
    for hand in range(1, RULES["hands"] + 1):
        assert len(thread_lines(env, thread, f"🂠 **Hand {hand}**")) == 1, f"hand {hand} shown other than once"
    assert_live_table_in_v2(env, [env.channel(), thread])
    ix = await env.slash(alice, "leaderboard", game="casinowar")  # the chips board, beside the skill boards
    await ix.wait_response()
    board = ix.message.body
    assert all(f"<@{user.id}> — **{stack:,}** chips" in board for user, stack in zip(users, engine.stacks, strict=True))
    assert [r.outcome for r in await match_results(service.db, match_id)] == [
        "win" if net > 0 else "loss" if net < 0 else "draw" for net in engine.net]


def main(argv: list[str]) -> None:
    """``python -m tests.e2e.test_casinowar API GATEWAY TOKEN DATABASE GUILD OWNER``: the real bot against a local
    Discord started by a test, dealing from :data:`SEED`; prints ``ready`` once connected; logs to stderr."""
    from bot.client import CardGameBot
    from bot.config import Settings
    from tests.localdiscord.airwar import run_bot_process

    api, gateway, token, database, guild, owner = argv

    def make_bot() -> CardGameBot:
        settings = Settings(token=token, database_path=Path(database), dev_guild_id=int(guild),
                            owner_ids=frozenset({int(owner)}), log_level="INFO",
                            database_url=os.environ.get("AIRWAR_TEST_DATABASE_URL") or None)
        return CardGameBot(settings, seed_source=lambda: SEED, guild_ready_timeout=0.05)

    run_bot_process(api, gateway, token, make_bot)


if __name__ == "__main__":
    main(sys.argv[1:])
