"""Kill the bot and start it again: every match goes on where it was.

The first bot runs in a real separate process (``python -m tests.e2e.test_airwar_restart ...``, the entry point
at the bottom) connected to the test's local Discord, and is killed with SIGKILL: no cleanup, no goodbye, the
database as the kill left it. A new bot (in the test's process, so the fixture checks its logs and
interactions) then starts on the same database file. The match must end exactly as the engine plays it with the
same seed and the same orders; the buttons of the messages the dead bot sent must keep working; no flip may be
shown twice and the result must be recorded once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import sys
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pytest

from bot.cards import card_label
from tests.e2e.test_airwar import (
    PACE_MS,
    SEED,
    TITLE,
    accept,
    assert_finished_like_reference,
    assert_flips_shown_once,
    assert_no_order_leaked,
    board,
    challenge,
    click,
    dm_panel,
    dm_shown,
    fast_bot,
    flip_lines,
    lift_rate_limits,
    lock_in,
    match_id_of,
    play,
    results,
    settled,
    slash,
    stack_of,
    title,
    weave,
)
from tests.localdiscord import Env
from tests.localdiscord.server import HeldRequest, Hold
from tests.localdiscord.state import walk_components
from tests.records import match_results

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """The real bot in a child process, pointed at the test's local Discord."""

    def __init__(self, process: asyncio.subprocess.Process, log: Path) -> None:
        self.process = process
        self.log = log

    @classmethod
    async def start(cls, env: Env, database: Path, *, flip_seconds: float) -> BotProcess:
        log = database.with_suffix(".log")
        with log.open("wb") as stderr:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.e2e.test_airwar_restart", env.discord.api_base,
                env.discord.gateway_url, env.token, str(database), str(env.guild.id), str(env.owner.id),
                str(flip_seconds), cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=stderr,
            )
        bot = cls(process, log)
        assert process.stdout is not None
        try:
            line = await asyncio.wait_for(process.stdout.readline(), 30)
        except TimeoutError:
            line = b""
        assert line.strip() == b"ready", f"the bot process did not get ready:\n{log.read_text()}"
        return bot

    async def kill(self, env: Env) -> None:
        self.process.send_signal(signal.SIGKILL)
        assert await self.process.wait() == -signal.SIGKILL
        await env.wait_for(lambda: not env.discord.hub.sessions, message="the killed bot's gateway stayed open")
        errors = [line for line in self.log.read_text().splitlines() if line.startswith(("ERROR", "CRITICAL"))]
        assert errors == [], self.log.read_text()

    async def ensure_dead(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


def board_text(env: Env, thread, number: int) -> str:
    message = board(env, thread, number)
    return message.text if message is not None else ""


async def restart_in_process(env: Env, database: Path) -> None:
    """The second life: the real bot in this process, on the dead bot's database."""
    bot = fast_bot(database)(env)
    await env.start_bot(bot)
    await asyncio.wait_for(bot.resumed.wait(), 5)  # its deadlines moved, its events on their way, its timers armed


async def test_a_kill_mid_arrangement_loses_nothing(make_env, tmp_path):
    database = tmp_path / "airwar.db"
    env = await make_env()
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()
    first = await BotProcess.start(env, database, flip_seconds=0.0)
    try:
        await slash(env, env.owner, "settings pace", seconds=PACE_MS / 1000)
        message = await challenge_without_bot(env, alice, bob)
        match_id = match_id_of(message)
        thread = await accept(env, bob, message)
        played = await play(env, (alice, bob), thread, until=1)
        # engagement 2: alice locks in, bob places two cards ... and the bot dies
        alice_panel = await env.wait_for(lambda: dm_panel(env, alice, 2))
        bob_panel = await env.wait_for(lambda: dm_panel(env, bob, 2))
        alice_order = list(reversed(stack_of(alice_panel)))
        bob_order = weave(stack_of(bob_panel))
        for card in alice_order:
            await click(env, alice, alice_panel, f"card:{card}")
        await click(env, alice, alice_panel, "confirm")
        await click(env, bob, bob_panel, f"card:{bob_order[0]}")
        await click(env, bob, bob_panel, f"card:{bob_order[1]}")
        await env.wait_for(lambda: "✅ locked in" in board_text(env, thread, 2))
        await first.kill(env)
    finally:
        await first.ensure_dead()

    await restart_in_process(env, database)
    bot = env.bot
    await env.wait_for(lambda: bot.timers.armed(("airwar", match_id)), message="the deadline was not re-armed")
    assert (await bot.matches.get_match(match_id)).deadline_kind == "arrange"
    # bob goes on with the buttons of the message the dead bot sent
    assert f"1 {card_label(bob_order[0])}" in bob_panel.text and f"2 {card_label(bob_order[1])}" in bob_panel.text
    for card in bob_order[2:]:
        await click(env, bob, bob_panel, f"card:{card}")
    await click(env, bob, bob_panel, "confirm")
    played.orders[2] = [alice_order, bob_order]
    played.engagements = 2
    played = await play(env, (alice, bob), thread, first=3, played=played)

    await assert_finished_like_reference(env, match_id, played, thread, channel, (alice, bob))
    assert_flips_shown_once(env, thread, played.engagements)
    assert_no_order_leaked(env, thread, played.orders, (alice, bob))
    assert [m for m in env.messages(channel) if m.author is env.bot_user] == [message]  # the match's one message


async def test_a_kill_mid_flips_shows_no_flip_twice(make_env, tmp_path):
    database = tmp_path / "airwar.db"
    env = await make_env()
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()
    first = await BotProcess.start(env, database, flip_seconds=0.3)  # slow flips: time to kill in the middle
    try:
        await slash(env, env.owner, "settings pace", seconds=PACE_MS / 1000)
        message = await challenge_without_bot(env, alice, bob)
        match_id = match_id_of(message)
        thread = await accept(env, bob, message)
        played = await play(env, (alice, bob), thread, until=2)
        await env.wait_for(lambda: flip_lines(board_text(env, thread, 2)) >= 2, timeout=10)
        flipping = board(env, thread, 2)
        await first.kill(env)
    finally:
        await first.ensure_dead()
    shown_at_kill = flip_lines(flipping.text)
    assert "Engagement 2 over" not in flipping.text, "the flips ended before the kill; slow them down"
    assert dm_panel(env, alice, 3) is None

    await restart_in_process(env, database)
    await env.wait_for(lambda: "Engagement 2 over" in board(env, thread, 2).text)
    assert flip_lines(board(env, thread, 2).text) > shown_at_kill
    played = await play(env, (alice, bob), thread, first=3, played=played)

    await assert_finished_like_reference(env, match_id, played, thread, channel, (alice, bob))
    assert_flips_shown_once(env, thread, played.engagements)
    assert_no_order_leaked(env, thread, played.orders, (alice, bob))


async def test_a_deadline_that_passed_while_the_bot_was_away_is_moved_not_missed(make_env, tmp_path):
    """Nobody can click while the bot is down: a deadline that passed meanwhile moves to now + the match's timer
    (the thread is told, the board and the panels show it) instead of counting as missed -- twice in a row too."""
    database = tmp_path / "airwar.db"
    env = await make_env(fast_bot(database))
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    message = await challenge(env, alice, bob, timer=30)
    match_id = match_id_of(message)
    thread = await accept(env, bob, message)
    await env.wait_for(lambda: board(env, thread, 1) and dm_panel(env, alice, 1) and dm_panel(env, bob, 1))
    panel = dm_panel(env, alice, 1)
    await lock_in(env, alice, panel, list(reversed(stack_of(panel))))
    await settled(env, match_id)

    for outage in (1, 2):
        await env.bot.close()
        env.bot = None
        env.clock.advance(45)  # the bot is away past the deadline
        await restart_in_process(env, database)
        notes = await env.wait_for(lambda n=outage: (found := [m for m in env.messages(thread)
                                                               if m.text.startswith("⏳")]) and len(found) == n
                                   and found)
        await settled(env, match_id)
        match = await env.bot.matches.get_match(match_id)
        assert match.status == "active" and match.step == 1 and [s.misses for s in match.seats] == [0, 0]
        assert abs(match.deadline_at - (env.clock.time() + 30)) < 2
        due = f"<t:{int(match.deadline_at)}:R>"
        assert notes[-1].text == (f"⏳ The bot was away when the orders of engagement 1 were due, so nobody "
                                     f"missed the deadline: **<@{bob.id}>**, the deadline is now {due}.")
        assert bob in notes[-1].mentions and alice not in notes[-1].mentions  # alice has locked in
        assert due in dm_panel(env, bob, 1).text and dm_panel(env, bob, 1).buttons
        assert due in board(env, thread, 1).text
    assert not [m for m in env.messages(thread) if m.text.startswith("⏰")]
    assert await match_results(env.bot.matches.db, match_id) == []

    env.clock.advance(31)  # the moved deadline counts like any other
    note = await env.wait_for(lambda: next((m for m in env.messages(thread) if m.text.startswith("⏰")), None))
    assert f"**<@{bob.id}>** did not lock in an order" in note.text
    await env.wait_for(lambda: not (shown := dm_shown(env, bob, 1)).buttons and "played as drawn" in shown.text)


# --- a crash between a message being sent and its id being stored -----------------------------------------------


def creates(where, test: Callable[[dict], bool]) -> Callable[[HeldRequest], bool]:
    """A message the bot creates in ``where`` whose body passes ``test``."""
    return lambda r: (r.method == "POST" and r.template == "/channels/{channel_id}/messages"
                      and int(r.params["channel_id"]) == where.id and test(r.body or {}))


def edits(message, test: Callable[[dict], bool]) -> Callable[[HeldRequest], bool]:
    """An edit of ``message`` whose body passes ``test``."""
    return lambda r: (r.method == "PATCH" and r.template == "/channels/{channel_id}/messages/{message_id}"
                      and int(r.params["message_id"]) == message.id and test(r.body or {}))


def titled(text: str) -> Callable[[dict], bool]:
    """A body whose message has the title ``text``: an embed's, or a V2 message's heading."""
    def test(body: dict) -> bool:
        if any(embed.get("title") == text for embed in body.get("embeds") or []):
            return True
        return any((c.get("content") or "").split("\n", 1)[0] == f"### {text}"
                   for c in walk_components(body.get("components") or []) if c.get("type") == 10)
    return test


async def crash(env: Env, hold: Hold) -> None:
    """The bot dies while Discord holds the answer to a message it created: the message exists, the bot never
    heard its id (its database says it was not sent)."""
    await hold.wait(timeout=10)
    bot, task = env.bot, env._bot_task
    await bot.close()
    with contextlib.suppress(Exception):
        await task
    hold.release()
    env.bot = None
    await asyncio.sleep(0.05)
    for record in env.take_error_logs():  # a command of the dying bot, cut off mid-request (a killed one is silent)
        error, causes = (record.exc_info[1] if record.exc_info else None), []
        while error is not None:
            causes.append(error)
            error = error.__cause__ or error.__context__
        assert any(isinstance(e, aiohttp.ClientConnectionError) for e in causes), record.getMessage()


async def test_a_crash_between_sending_and_storing_sends_nothing_twice(make_env, tmp_path):
    """Every public message and DM is sent once and its id stored after; the bot dies in between, again and again,
    and the restarted bot, finding the id missing, sends again -- with the same nonce, so Discord answers with the
    message it already made (the challenge, an interaction's answer without a nonce, is found by its buttons)."""
    database = tmp_path / "airwar.db"
    env = await make_env(fast_bot(database))
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()

    hold = env.hold(lambda r: r.template.endswith("/callback") and "aw:c:" in json.dumps(r.body), after=True)
    ix = await env.slash(alice, "airwar challenge", opponent=bob, timer=30)
    await crash(env, hold)
    await restart_in_process(env, database)
    message = ix.message
    match_id = match_id_of(message)
    await env.wait_for(lambda: message.buttons)
    await settled(env, match_id)
    assert (await env.bot.matches.get_match(match_id)).challenge_message_id == message.id

    # the accept: the card's edit and the first DM panel go out side by side (a panel never waits for the channel);
    # both made, neither heard, when the bot dies
    hold = env.hold(edits(message, lambda body: "follow the match" in json.dumps(body.get("components"))), after=True)
    panel_hold = env.hold(creates(env.dm(alice), titled(f"{TITLE} — engagement 1: your battle order")), after=True)
    await click(env, bob, message, label="Accept")
    await panel_hold.wait(timeout=10)
    await crash(env, hold)
    panel_hold.release()
    thread = message.thread
    assert thread is not None
    hold = env.hold(creates(thread, titled(f"{TITLE} — engagement 1")), after=True)
    await restart_in_process(env, database)
    await crash(env, hold)
    await restart_in_process(env, database)
    await env.wait_for(lambda: board(env, thread, 1) and dm_panel(env, alice, 1) and dm_panel(env, bob, 1))
    await settled(env, match_id)

    # engagement 1: alice locks in, bob lets the time run out ... the bot dies posting the note
    panel = dm_panel(env, alice, 1)
    await lock_in(env, alice, panel, list(reversed(stack_of(panel))))
    hold = env.hold(creates(thread, lambda body: body.get("content", "").startswith("⏰")), after=True)
    env.clock.advance(31)
    await crash(env, hold)
    await restart_in_process(env, database)
    await env.wait_for(lambda: dm_panel(env, alice, 2) and dm_panel(env, bob, 2), timeout=10)
    await settled(env, match_id)

    # bob forfeits: the bot dies making the match's message in the channel the result, then posting it in the thread
    hold = env.hold(edits(message, lambda body: "wins" in json.dumps(body.get("components"))), after=True)
    ix = await slash(env, bob, "airwar forfeit")
    await click(env, bob, ix.message, label="Forfeit")
    await crash(env, hold)
    hold = env.hold(creates(thread, lambda body: "wins" in json.dumps(body.get("components"))), after=True)
    await restart_in_process(env, database)
    await crash(env, hold)
    await restart_in_process(env, database)
    await env.wait_for(lambda: results(env, thread))
    await settled(env, match_id)

    # each once
    assert [m for m in env.messages(channel) if m.author is env.bot_user] == [message]  # the match's one message
    assert [b["label"] for b in message.buttons] == ["Rematch"]
    assert len(env.messages(alice)) == 1  # one DM for the whole match, sent once
    assert len([m for m in env.messages(thread) if re.fullmatch(rf"{TITLE} — engagement 1(: flips)?", title(m))]) == 1
    assert len([m for m in env.messages(thread) if m.text.startswith("⏰")]) == 1
    assert len(results(env, thread)) == len(results(env, channel)) == 1
    # every send after a crash got the message made before it: at least the four held above (the crash at the
    # accepted edit may also catch the first panels sent and not yet recorded: they no longer wait for that edit)
    assert env.discord.rest.nonce_hits >= 4
    assert len(await match_results(env.bot.matches.db, match_id)) == 2


async def test_a_kill_between_posting_the_result_and_storing_its_id_posts_it_once(make_env, tmp_path):
    """The same with a real SIGKILL of a bot process: Discord has made the result message, the process dies before
    it hears the id; the new bot posts the result again with the same nonce and gets that message back."""
    database = tmp_path / "airwar.db"
    env = await make_env()
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()
    first = await BotProcess.start(env, database, flip_seconds=0.0)
    try:
        message = await challenge_without_bot(env, alice, bob)
        match_id = match_id_of(message)
        thread = await accept(env, bob, message)
        await env.wait_for(lambda: dm_panel(env, alice, 1) and board(env, thread, 1))
        hold = env.hold(creates(thread, lambda body: "wins" in json.dumps(body.get("components"))), after=True)
        ix = await slash(env, bob, "airwar forfeit")
        await click(env, bob, ix.message, label="Forfeit")
        await hold.wait(timeout=10)
        await first.kill(env)
        hold.release()
    finally:
        await first.ensure_dead()
    assert len(results(env, thread)) == len(results(env, channel)) == 1  # the channel's first, then the thread's

    await restart_in_process(env, database)
    await settled(env, match_id)
    assert len(results(env, thread)) == len(results(env, channel)) == 1
    assert env.discord.rest.nonce_hits == 1


async def challenge_without_bot(env: Env, challenger, opponent):
    """:func:`challenge` for a bot in another process (its database is not ours to read)."""
    ix = await slash(env, challenger, "airwar challenge", opponent=opponent)
    assert not ix.response.ephemeral, ix.message.text
    await asyncio.sleep(0.2)  # the bot stores the challenge message's id right after answering
    return ix.message


async def test_a_restarted_bot_rearms_the_deadlines(make_env, tmp_path):
    """The timers live in memory: a new bot arms them again from the stored deadlines."""
    database = tmp_path / "airwar.db"
    env = await make_env(fast_bot(database))
    alice, bob, carol, dave = (env.user(name) for name in ("alice", "bob", "carol", "dave"))
    waiting = await challenge(env, alice, bob)
    playing = await challenge(env, carol, dave, timer=30)
    playing_id = match_id_of(playing)
    thread = await accept(env, dave, playing)
    await env.wait_for(lambda: board(env, thread, 1) and dm_panel(env, carol, 1) and dm_panel(env, dave, 1))
    await env.bot.close()  # the database stays as it was; the new bot knows nothing else
    env.bot = None
    await restart_in_process(env, database)
    await env.wait_for(lambda: env.bot.timers.armed(("airwar", playing_id)), message="not re-armed")

    env.clock.advance(31)  # carol and dave miss the arrangement deadline: their stacks play as drawn
    note = await env.wait_for(lambda: next((m for m in env.messages(thread) if m.text.startswith("⏰")), None))
    assert "neither" in note.text and "both stacks play as drawn" in note.text
    env.clock.advance(300)  # the challenge that was never answered expires
    await env.wait_for(lambda: "expired" in waiting.text)
    assert not waiting.buttons


# --- the bot process --------------------------------------------------------------------------------------------


def main(argv: list[str]) -> None:
    """``python -m tests.e2e.test_airwar_restart API GATEWAY TOKEN DATABASE GUILD OWNER FLIP_SECONDS``: the real bot
    against a local Discord started by a test; prints ``ready`` once connected; logs to stderr."""
    from bot.client import CardGameBot
    from bot.config import Settings
    from tests.localdiscord.airwar import run_bot_process

    api, gateway, token, database, guild, owner, flip_seconds = argv

    async def pace_sleep(seconds: float) -> None:
        await asyncio.sleep(float(flip_seconds))

    def make_bot() -> CardGameBot:
        settings = Settings(token=token, database_path=Path(database), dev_guild_id=int(guild),
                            owner_ids=frozenset({int(owner)}), log_level="INFO",
                            database_url=os.environ.get("AIRWAR_TEST_DATABASE_URL") or None)
        return CardGameBot(settings, seed_source=lambda: SEED, pace_sleep=pace_sleep, guild_ready_timeout=0.05)

    run_bot_process(api, gateway, token, make_bot)


if __name__ == "__main__":
    main(sys.argv[1:])
