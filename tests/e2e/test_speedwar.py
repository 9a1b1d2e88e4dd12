"""Speed War end to end through the local Discord: a game of four rounds with a wrong press, a simultaneous press
(two interactions in the same millisecond of Discord's clock), a right press, a lone press settled by its window;
each press acknowledged without a message; reaction times shown in the round's live message once settled, in the
result and in /stats; spent round buttons removed; the match file replays to the stored result. A whole game of 30
rounds: one thread message per 10 rounds (each round shown by editing it), and every reaction time counted from the
edit that showed its round."""

from __future__ import annotations

import pytest

from bot.cards import strength_table
from bot.replay import replay
from tests.e2e.live_table_checks import assert_live_table_in_v2
from tests.e2e.test_airwar import fast_bot, lift_rate_limits, settled, slash, stored
from tests.localdiscord import Env, Message

pytestmark = pytest.mark.e2e

STRENGTH = strength_table(aces_high=True)
DEFERRED_UPDATE = 6


def service(env: Env):
    return env.bot.get_cog("SpeedWar").service


def round_message(env: Env, thread, number: int) -> Message | None:
    """The live message while it shows round ``number`` being played."""
    return next((m for m in env.messages(thread) if m.title == f"Speed War — round {number}"), None)


async def block_text(env: Env, match_id: int, number: int) -> str:
    """What the live message that showed round ``number`` says now."""
    match = await service(env).get_match(match_id)
    return env.world.messages[match.messages[f"block:{(number - 1) // 10}"]].text


def bot_messages(env: Env, thread) -> list[Message]:
    return [m for m in env.messages(thread) if m.author is env.bot_user]


def buttons_of(message: Message) -> dict[str, str]:
    """key (0, 1, tie) -> custom id."""
    return {b["custom_id"].rsplit(":", 1)[1]: b["custom_id"] for b in message.buttons}


def right_and_wrong(cards: list[str]) -> tuple[str, str]:
    first, second = STRENGTH[cards[0]], STRENGTH[cards[1]]
    right = "tie" if first == second else ("0" if first > second else "1")
    wrong = "0" if right != "0" else "1"
    return right, wrong


async def live_round(env: Env, match_id: int, thread, number: int) -> tuple[Message, list[str]]:
    message = await env.wait_for(lambda: (m := round_message(env, thread, number)) is not None and m.buttons and m,
                                 message=f"no round {number}")
    view = await service(env).view(match_id)
    assert view["round"] == number
    return message, view["cards"]


async def press(env: Env, user, message: Message, custom_id: str):
    ix = await env.click(user, message, custom_id=custom_id)
    response = await ix.wait_response()
    assert response.type == DEFERRED_UPDATE  # acknowledged without a message
    return ix


async def start(env: Env, rounds: int):
    alice, bob = env.user("alice"), env.user("bob")
    ix = await slash(env, alice, "speedwar challenge", opponent=bob, rounds=rounds)
    challenge = ix.message
    match_id = int(challenge.buttons[0]["custom_id"].split(":")[2])
    await stored(env, match_id)
    ix = await env.click(bob, challenge, custom_id=f"sw:c:{match_id}:accept")
    await ix.wait_response()
    thread = await env.wait_for(lambda: challenge.thread, message="no thread")
    return alice, bob, match_id, thread


async def test_a_game_with_a_wrong_press_and_a_simultaneous_press(make_env, tmp_path, monkeypatch):
    env = await make_env(fast_bot(tmp_path / "speedwar.db", real_pace=True))
    lift_rate_limits(env)
    alice, bob, match_id, thread = await start(env, rounds=4)

    # round 1: alice presses the wrong card first; bob the right one 50 ms later: alice's press gave them away
    message, cards = await live_round(env, match_id, thread, 1)
    right, wrong = right_and_wrong(cards)
    ids = buttons_of(message)
    await press(env, alice, message, ids[wrong])
    env.clock.advance(0.05)
    await press(env, bob, message, ids[right])
    await settled(env, match_id)
    settled_text = await block_text(env, match_id, 1)
    assert "gives them away" in settled_text and " ms**" in settled_text  # each press's time, once settled

    # round 2: both press in the same millisecond of Discord's clock: alice right, bob wrong: alice takes
    message, cards = await live_round(env, match_id, thread, 2)
    assert message.id == round_message(env, thread, 2).id and len(bot_messages(env, thread)) == 1  # the same one
    right, wrong = right_and_wrong(cards)
    ids = buttons_of(message)
    frozen = env.clock.time()
    monkeypatch.setattr(env.clock, "time", lambda: frozen)
    one = await env.click(alice, message, custom_id=ids[right])
    two = await env.click(bob, message, custom_id=ids[wrong])
    await one.wait_response()
    await two.wait_response()
    monkeypatch.undo()
    await settled(env, match_id)
    events = [q.event for q in await service(env).outbox.events(match_id) if q.type == "settled"]
    assert events[1]["by"] == "simultaneous" and events[1]["taker"] == 0
    assert events[1]["presses"][0]["ms"] == events[1]["presses"][1]["ms"]
    assert "the one right press of two at once" in await block_text(env, match_id, 2)

    # round 3: bob right first, alice right later: bob takes
    message, cards = await live_round(env, match_id, thread, 3)
    right, _ = right_and_wrong(cards)
    ids = buttons_of(message)
    await press(env, bob, message, ids[right])
    await press(env, alice, message, ids[right])
    await settled(env, match_id)

    # round 4: only alice presses: the window closes and her press decides
    message, cards = await live_round(env, match_id, thread, 4)
    right, _ = right_and_wrong(cards)
    await press(env, alice, message, buttons_of(message)[right])
    result = await env.wait_for(lambda: next((m for m in env.messages(thread) if ("Speed War —"
                                              in m.title and "wins" in m.title)
                                              or (m.title == "Speed War — draw")),
                                             None), timeout=10, message="no result")
    assert "median reaction" in result.text
    await settled(env, match_id)
    events = [q.event for q in await service(env).outbox.events(match_id) if q.type == "settled"]
    assert [e["by"] for e in events] == ["wrong", "simultaneous", "right", "right"]
    assert [e["taker"] for e in events][:3] == [1, 0, 1] and events[3]["taker"] == 0
    # one message in the thread: the rounds' live message became the result, the four rounds under it, no button
    assert bot_messages(env, thread) == [result] and not result.buttons
    assert all(f"**{n}.**" in result.text for n in (1, 2, 3, 4))
    assert not env.ephemerals(alice) and not env.ephemerals(bob)  # no message per press
    assert_live_table_in_v2(env, [env.channel(), thread])

    match = await service(env).get_match(match_id)
    exported = await service(env).export(match_id)
    last = list(replay(exported))[-1]
    assert last["winner"] == match.result["winner"] and last["reason"] == match.result["reason"] == "capped"

    ix = await slash(env, alice, "stats", game="speedwar")
    assert "Reaction times (Speed War): median" in ix.message.text and "over 4 presses" in ix.message.text


async def test_a_whole_game_is_one_message_per_ten_rounds_timed_from_the_edit(make_env, tmp_path):
    env = await make_env(fast_bot(tmp_path / "speedwar.db", real_pace=True))
    lift_rate_limits(env)
    rounds = 30
    alice, bob, match_id, thread = await start(env, rounds=rounds)
    users = (alice, bob)
    for number in range(1, rounds + 1):
        message, cards = await live_round(env, match_id, thread, number)
        right, wrong = right_and_wrong(cards)
        ids = buttons_of(message)
        first = number % 2  # each in turn presses first, the other 50 ms later (a wrong press every third round)
        env.clock.advance(0.25)  # the round has been up 250 ms (its message's first round far longer ago)
        await press(env, users[first], message, ids[wrong if number % 3 == 0 else right])
        env.clock.advance(0.05)
        await press(env, users[1 - first], message, ids[right])
        env.clock.advance(1.0)  # a second between rounds: a time counted from the message's creation would show it
    await env.wait_for(lambda: next((m for m in env.messages(thread) if "wins" in m.title
                                     or m.title.endswith("draw")), None), timeout=10, message="no result")
    await settled(env, match_id)

    created = bot_messages(env, thread)
    print(f"Speed War, {rounds} rounds: {len(created)} thread messages, {sum(len(m.history) for m in created)} edits")
    assert len(created) <= rounds / 10, [m.title for m in created]  # one message per block of 10 rounds
    assert sum(len(m.history) for m in created) >= rounds - len(created)  # each next round an edit
    assert [m.title for m in created[:2]] == ["Speed War — rounds 1–10", "Speed War — rounds 11–20"]
    assert not any(m.buttons for m in created)
    assert all(m.text.count(" ✅ **") + m.text.count(" ❌ **") == 20 for m in created)  # each press of its 10 rounds
    assert not env.ephemerals(alice) and not env.ephemerals(bob)
    presses = [press for q in await service(env).outbox.events(match_id) if q.type == "settled"
               for press in q.event["presses"]]
    assert len(presses) == 2 * rounds
    # every time counts from the edit that showed the round: 250 ms (300 for the second), plus the bot's own lag
    assert all(250 <= press["ms"] < 900 for press in presses), [press["ms"] for press in presses
                                                              if not 250 <= press["ms"] < 900]
    assert_live_table_in_v2(env, [env.channel(), thread])
