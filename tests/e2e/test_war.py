"""War end to end: the real bot (cogs/war/) against the local Discord, players pressing real buttons.

Challenges and 4-player lobbies played to the end at every pace, a capped game, a vote to speed up, a missed
turn, refusals, and restarts (flip pace: deadlines moved and old buttons working; auto pace: rounds continue).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.registry import game_class
from tests.e2e.live_table_checks import assert_live_table_in_v2
from tests.e2e.test_airwar import SEED, fast_bot, lift_rate_limits, settled, version_texts
from tests.localdiscord import Env, InvalidOptions, Message, User
from tests.records import rating_of

pytestmark = pytest.mark.e2e


async def start(make_env, tmp_path: Path, **options: Any) -> Env:
    env = await make_env(fast_bot(tmp_path / "war.db", **options))
    lift_rate_limits(env)
    return env


def service(env: Env):
    return env.bot.get_cog("War").service


def title(message: Message) -> str:
    return message.title


def match_id_of(message: Message) -> int:
    return int(message.buttons[0]["custom_id"].split(":")[2])


def table_of(env: Env, where) -> Message | None:
    for message in env.messages(where):
        if " — round " in title(message) or title(message).endswith("— the deal"):
            return message
    return None


def results(env: Env, where) -> list[Message]:
    """The results with their chart (uploaded, or shown from the upload of the game's message in the channel)."""
    return [m for m in env.messages(where) if m.images
            and (" wins" in title(m) or title(m).endswith("draw"))]


async def slash(env: Env, user: User, command: str, **options: Any):
    ix = await env.slash(user, command, **options)
    await ix.wait_response()
    return ix


async def stored(env: Env, match_id: int) -> None:
    for _ in range(500):
        if (await service(env).get_match(match_id)).challenge_message_id is not None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the challenge message was never stored")


async def click(env: Env, user: User, message: Message, custom_id: str):
    ix = await env.click(user, message, custom_id=custom_id)
    await ix.wait_response()
    return ix


async def challenge(env: Env, alice: User, bob: User, **options: Any) -> tuple[int, Any]:
    ix = await slash(env, alice, "war challenge", opponent=bob, **options)
    assert not ix.response.ephemeral, ix.message.text
    message = ix.message
    match_id = match_id_of(message)
    await stored(env, match_id)
    await click(env, bob, message, f"war:c:{match_id}:accept")
    thread = await env.wait_for(lambda: message.thread, message="no thread for the game")
    return match_id, thread


async def lobby(env: Env, players: list[User], **options: Any) -> tuple[int, Any]:
    ix = await slash(env, players[0], "war lobby", **options)
    message = ix.message
    match_id = match_id_of(message)
    await stored(env, match_id)
    assert "Players (1/4)" in message.text and "<t:" in message.text
    for number, user in enumerate(players[1:], start=2):
        await click(env, user, message, f"war:l:{match_id}:join")
        await env.wait_for(lambda n=number: f"Players ({n}/4)" in message.text)
    await click(env, players[0], message, f"war:l:{match_id}:start")
    thread = await env.wait_for(lambda: message.thread, message="no thread for the game")
    return match_id, thread


def flip_id(match_id: int) -> str:
    return f"war:t:{match_id}:0:flip"


async def table_at(env: Env, match_id: int, thread, number: int) -> Message:
    """The table once it shows round ``number`` waiting for flips (and everything before is shown)."""
    await settled(env, match_id)
    return await env.wait_for(lambda: (t := table_of(env, thread)) is not None and f"**Round {number}:**" in t.text
                              and any(b["custom_id"] == flip_id(match_id) for b in t.buttons) and t,
                              message=f"no Flip for round {number}")


async def flip_to_the_end(env: Env, match_id: int, players: list[User], thread, *, until: int | None = None) -> None:
    """Everyone still in presses Flip on the table, round after round, until the game is over (or round
    ``until`` is played)."""
    war = service(env)
    while True:
        match = await war.get_match(match_id)
        if match.status != "active" or (until is not None and match.step >= until):
            return
        view = await war.view(match_id)
        table = await table_at(env, match_id, thread, match.step + 1)
        for seat in view["to_flip"]:
            ix = await click(env, players[seat], table, flip_id(match_id))
            assert not ix.response.ephemeral, ix.message.text  # a flip that counts changes the table, says nothing
        await settled(env, match_id)


def reference(game: str, rules: dict[str, Any], players: int = 2):
    cls = game_class(game)
    engine = cls.new(cls.resolve_rules({**rules, "players": players}), seed=SEED)
    engine.play_out()
    return engine


async def assert_result(env: Env, match_id: int, thread, players: list[User], game: str, rules: dict[str, Any]):
    """The game ended as the engine alone ends it; the result (with its chart) is in the thread and the channel,
    recorded once for everyone."""
    war = service(env)
    expected = reference(game, rules, len(players))
    await env.wait_for(lambda: len(results(env, thread)) == 1 and len(results(env, env.channel())) == 1,
                       message="no result posted")
    match = await war.get_match(match_id)
    assert match.status == "finished"
    assert match.result["winner"] == expected.outcome.winner and match.result["reason"] == expected.outcome.reason
    assert match.step == expected.stats.rounds
    in_thread, in_channel = results(env, thread)[0], results(env, env.channel())[0]
    [picture] = in_channel.attachments  # uploaded once: the thread's result shows it from there
    assert not in_thread.attachments and in_thread.images[0] == picture.url
    assert picture.content_type == "image/png" and picture.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert picture.description.startswith("Line chart of each player's cards by round.")
    for message in (in_thread, in_channel):
        text = message.text
        stats = expected.stats
        assert f"Rounds: {stats.rounds} · wars: {stats.wars}" in text
        if expected.outcome.winner is not None:
            assert f"**<@{players[expected.outcome.winner].id}>** wins!" in text
        assert "started with" in text  # the chart in words beside it
    for user in players:
        rating = await rating_of(war.db, env.guild.id, user.id, game)
        assert rating is not None and rating.games == 1
    await settled(env, match_id)
    return expected


SMALL = {"rules": "pack=32 max_rounds=12"}
SMALL_RULES = {"pack": 32, "max_rounds": 12}


@pytest.mark.parametrize("pace", ["flip", "auto", "instant"])
async def test_two_player_challenge_to_the_end(make_env, tmp_path, pace):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    match_id, thread = await challenge(env, alice, bob, pace=pace, **SMALL)
    [game_message] = [m for m in env.messages(env.channel()) if m.author is env.bot_user]
    live = f"follow the game in <#{thread.id}>"
    await env.wait_for(lambda: any(live in text for text in version_texts(game_message)))
    if pace == "flip":
        await flip_to_the_end(env, match_id, [alice, bob], thread)
    expected = await assert_result(env, match_id, thread, [alice, bob], "war", SMALL_RULES)
    table = table_of(env, thread)
    assert table is not None and not table.buttons and f"round {expected.stats.rounds}" in title(table)
    assert_live_table_in_v2(env, [env.channel(), thread], cards_shown=pace != "instant")


@pytest.mark.parametrize("pace", ["flip", "auto", "instant"])
async def test_four_player_lobby_to_the_end(make_env, tmp_path, pace):
    env = await start(make_env, tmp_path)
    players = [env.user(name) for name in ("alice", "bob", "carol", "dave")]
    rules = {"max_rounds": 4 if pace == "flip" else 40}
    match_id, thread = await lobby(env, players, pace=pace, rules=f"max_rounds={rules['max_rounds']}")
    if pace == "flip":
        await flip_to_the_end(env, match_id, players, thread)
    await assert_result(env, match_id, thread, players, "war", rules)


async def test_a_capped_game_says_so(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    match_id, thread = await challenge(env, alice, bob, variant="drunkard", pace="instant", rules="max_rounds=5")
    expected = await assert_result(env, match_id, thread, [alice, bob], "drunkard", {"max_rounds": 5})
    assert expected.outcome.reason == "capped"
    assert "reached the 5-round limit (max_rounds)" in results(env, thread)[0].text


async def test_vote_to_speed_up(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    match_id, thread = await challenge(env, alice, bob, pace="flip", rules="return_order=played")
    await flip_to_the_end(env, match_id, [alice, bob], thread, until=2)
    table = await env.wait_for(lambda: table_of(env, thread))
    assert "Every player still in must agree" in table.text
    await click(env, alice, table, f"war:t:{match_id}:0:vote:auto")
    assert "Your vote for the auto pace is in" in env.ephemerals(alice)[-1].text
    await env.wait_for(lambda: "Auto 1/2" in table.text)
    await click(env, alice, table, f"war:t:{match_id}:0:vote:auto")  # taken back
    assert "Your vote for the auto pace is taken back" in env.ephemerals(alice)[-1].text
    await click(env, alice, table, f"war:t:{match_id}:0:vote:instant")
    await env.wait_for(lambda: "Instant 1/2" in table.text and "Auto" not in table.text.split("Votes:")[-1])
    carol = env.user("carol")
    ix = await env.click(carol, table, custom_id=f"war:t:{match_id}:0:vote:instant")
    await ix.wait_response()
    assert env.ephemerals(carol)[-1].text == "This isn't your match."
    assert (await service(env).get_match(match_id)).options["pace"] == "flip"
    await click(env, bob, table, f"war:t:{match_id}:0:vote:instant")
    assert "Everyone agreed: the game is now at the instant pace" in env.ephemerals(bob)[-1].text
    await env.wait_for(lambda: any("from Flip to **Instant** pace" in m.text for m in env.messages(thread)))
    await assert_result(env, match_id, thread, [alice, bob], "war", {"return_order": "played"})


async def test_a_missed_turn_is_flipped_for_then_forfeits(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    match_id, thread = await challenge(env, alice, bob, pace="flip")
    for number in (1, 2):
        table = await table_at(env, match_id, thread, number)
        await click(env, alice, table, flip_id(match_id))
        ix = await env.click(alice, table, custom_id=flip_id(match_id))
        await ix.wait_response()
        assert f"You've flipped already in round {number}" in env.ephemerals(alice)[-1].text
        env.clock.advance(121)
        await env.wait_for(lambda n=number: any(m.text.startswith(f"⏰ Round {n}:") for m in env.messages(thread)))
    notes = [m.text for m in env.messages(thread) if m.text.startswith("⏰")]
    assert "flipped for <@" in notes[0] and "missed two rounds in a row and forfeited" in notes[1]
    await env.wait_for(lambda: results(env, thread))
    match = await service(env).get_match(match_id)
    assert match.reason == "timeout" and match.result["winner_id"] == alice.id
    await settled(env, match_id)


async def test_refusals_are_private(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")
    ix = await slash(env, alice, "war challenge", opponent=alice)
    assert ix.response.ephemeral and "yourself" in ix.message.text
    ix = await slash(env, alice, "war challenge", opponent=env.bot_user)
    assert ix.response.ephemeral and "is a bot" in ix.message.text
    ix = await slash(env, alice, "war challenge", opponent=bob, rules="joker_each=true")
    assert ix.response.ephemeral and "joker_each" in ix.message.text
    ix = await slash(env, alice, "war lobby", variant="todundleben", rules="pack=36")
    assert ix.response.ephemeral and "can't be played" in ix.message.text and "52, 32" in ix.message.text
    for bad, why in (("pack", "isn't one"), ("colour=red", "colour"), ("pack=32 pack=36", "given twice"),
                     ("players=3", "the game sets it itself")):
        ix = await slash(env, alice, "war challenge", opponent=bob, rules=bad)
        assert ix.response.ephemeral and why in ix.message.text, (bad, ix.message.text)
    await challenge(env, alice, bob, pace="flip")
    ix = await slash(env, carol, "war challenge", opponent=bob, variant="drunkard")
    assert ix.response.ephemeral and "already in a Drunkard match" in ix.message.text
    ix = await slash(env, alice, "war lobby")
    assert ix.response.ephemeral and "You're already in a War match" in ix.message.text
    with pytest.raises(InvalidOptions):
        await env.slash(alice, "war challenge", opponent=bob, pace="slow")
    assert not any(m.author is env.bot_user and "lobby" in title(m) for m in env.messages(env.channel()))


async def test_lobby_leave_cancel_and_expiry(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")
    ix = await slash(env, alice, "war lobby", pace="flip")
    message = ix.message
    match_id = match_id_of(message)
    await stored(env, match_id)
    await click(env, bob, message, f"war:l:{match_id}:join")
    await env.wait_for(lambda: "Players (2/4)" in message.text)
    await click(env, bob, message, f"war:l:{match_id}:start")
    assert "Only the host" in env.ephemerals(bob)[-1].text
    await click(env, carol, message, f"war:l:{match_id}:leave")
    assert env.ephemerals(carol)[-1].text == "You haven't joined, so there is nothing to leave."
    await click(env, bob, message, f"war:l:{match_id}:leave")
    await env.wait_for(lambda: "Players (1/4)" in message.text)
    await click(env, alice, message, f"war:l:{match_id}:cancel")
    await env.wait_for(lambda: "closed the lobby" in message.text and not message.buttons)
    # a second lobby, left idle: it expires
    ix = await slash(env, bob, "war lobby")
    second = ix.message
    env.clock.advance(601)
    await env.wait_for(lambda: "lobby closed: nobody joined" in second.text, timeout=10)


async def test_restart_moves_turn_deadlines_and_old_buttons_work(make_env, tmp_path):
    database = tmp_path / "war.db"
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    match_id, thread = await challenge(env, alice, bob, pace="flip", **SMALL)
    await flip_to_the_end(env, match_id, [alice, bob], thread, until=2)
    table = await env.wait_for(lambda: table_of(env, thread))
    await env.bot.close()
    env.bot = None
    env.clock.advance(500)  # away past the deadline: nobody missed it
    bot = fast_bot(database)(env)
    await env.start_bot(bot)
    await env.wait_for(lambda: any("The bot was away" in m.text for m in env.messages(thread)))
    match = await service(env).get_match(match_id)
    assert match.deadline_kind == "turn" and match.deadline_at > env.clock.time() + 100
    await click(env, alice, table, flip_id(match_id))  # the button of the message sent before
    await flip_to_the_end(env, match_id, [alice, bob], thread)
    await assert_result(env, match_id, thread, [alice, bob], "war", SMALL_RULES)
    assert not [m for m in env.messages(thread) if m.text.startswith("⏰")]


async def test_restart_continues_auto_rounds(make_env, tmp_path):
    database = tmp_path / "war.db"
    env = await start(make_env, tmp_path, real_pace=True)
    alice, bob = env.user("alice"), env.user("bob")
    match_id, thread = await challenge(env, alice, bob, pace="auto", **SMALL)
    war = service(env)
    for _ in range(400):  # the first round after a real 2 s wait
        if (await war.get_match(match_id)).step >= 1:
            break
        await asyncio.sleep(0.01)
    played = (await war.get_match(match_id)).step
    await env.bot.close()
    env.bot = None
    assert 1 <= played < 12
    bot = fast_bot(database)(env)
    await env.start_bot(bot)
    await assert_result(env, match_id, thread, [alice, bob], "war", SMALL_RULES)
    rounds = [q.event["round"] for q in await service(env).outbox.events(match_id) if q.type == "battle"]
    assert rounds == list(range(1, 13))  # every round once, across both lives
