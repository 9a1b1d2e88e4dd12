"""Speed War end to end through the local Discord: a game of four rounds with a wrong press, a simultaneous press
(two interactions in the same millisecond of Discord's clock), a right press, a lone press settled by its window;
reaction times shown after each round, in the result and in /stats; spent round buttons removed; the match file
replays to the stored result."""

from __future__ import annotations

import pytest

from bot.cards import strength_table
from bot.replay import replay
from tests.e2e.live_table_checks import assert_live_table_in_v2
from tests.e2e.test_airwar import fast_bot, lift_rate_limits, settled, slash, stored
from tests.localdiscord import Env, Message

pytestmark = pytest.mark.e2e

STRENGTH = strength_table(aces_high=True)


def service(env: Env):
    return env.bot.get_cog("SpeedWar").service


def round_message(env: Env, thread, number: int) -> Message | None:
    return next((m for m in env.messages(thread) if m.title == f"Speed War — round {number}"), None)


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
    await ix.wait_response()
    return ix


async def test_a_game_with_a_wrong_press_and_a_simultaneous_press(make_env, tmp_path, monkeypatch):
    env = await make_env(fast_bot(tmp_path / "speedwar.db", real_pace=True))
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    ix = await slash(env, alice, "speedwar challenge", opponent=bob, rounds=4)
    challenge = ix.message
    match_id = int(challenge.buttons[0]["custom_id"].split(":")[2])
    await stored(env, match_id)
    await press(env, bob, challenge, f"sw:c:{match_id}:accept")
    thread = await env.wait_for(lambda: challenge.thread, message="no thread")

    # round 1: alice presses the wrong card first; bob the right one 50 ms later: alice's press gave them away
    message, cards = await live_round(env, match_id, thread, 1)
    right, wrong = right_and_wrong(cards)
    ids = buttons_of(message)
    first = await press(env, alice, message, ids[wrong])
    assert first.response.ephemeral and " ms**" in first.message.text
    env.clock.advance(0.05)
    await press(env, bob, message, ids[right])
    await settled(env, match_id)
    settled_text = round_message(env, thread, 1).text
    assert not round_message(env, thread, 1).buttons  # a spent round keeps no button
    assert "gives them away" in settled_text and "ms**" in settled_text

    # round 2: both press in the same millisecond of Discord's clock: alice right, bob wrong: alice takes
    message, cards = await live_round(env, match_id, thread, 2)
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
    events = [q.event for q in await service(env).events(match_id) if q.type == "settled"]
    assert events[1]["by"] == "simultaneous" and events[1]["taker"] == 0
    assert events[1]["presses"][0]["ms"] == events[1]["presses"][1]["ms"]
    assert "the one right press of two at once" in round_message(env, thread, 2).text

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
    events = [q.event for q in await service(env).events(match_id) if q.type == "settled"]
    assert [e["by"] for e in events] == ["wrong", "simultaneous", "right", "right"]
    assert [e["taker"] for e in events][:3] == [1, 0, 1] and events[3]["taker"] == 0
    assert all(not round_message(env, thread, n).buttons for n in (1, 2, 3, 4))
    assert_live_table_in_v2(env, [env.channel(), thread])

    match = await service(env).get_match(match_id)
    exported = await service(env).export(match_id)
    last = list(replay(exported))[-1]
    assert last["winner"] == match.result["winner"] and last["reason"] == match.result["reason"] == "capped"

    ix = await slash(env, alice, "stats", game="speedwar")
    assert "Reaction times (Speed War): median" in ix.message.text and "over 4 presses" in ix.message.text
