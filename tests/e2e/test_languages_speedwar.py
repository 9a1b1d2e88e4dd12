"""No English left in Speed War: whole matches played in the pseudo-language (every catalogue string's letters
swapped, see :mod:`tests.bot.i18n.pseudo`), the server's public messages set to it and both players' clients
speaking it, then every version of every message the bot showed anyone (the channel, the thread, the ephemeral
answers) is read for plain English words: a string that never went through a catalogue.

The first match has a wrong press, a right one, a refused second press, the status, a round nobody pressed (its
deadline), a forfeit and the result's Rematch; the rematch is accepted and both players miss two rounds in a row (a
draw). Messages and buttons are found by their custom ids and the database, never by their words."""

from __future__ import annotations

import asyncio

import pytest

from bot.cards import strength_table
from tests.bot.i18n.pseudo import PSEUDO, english_in_messages, pseudo_language
from tests.e2e.test_airwar import fast_bot, lift_rate_limits, settled, slash, stored
from tests.localdiscord import Env, Message, User

pytestmark = pytest.mark.e2e

STRENGTH = strength_table(aces_high=True)

def every_message(env: Env) -> list[Message]:
    """Everything the bot showed: every channel's, thread's and DM's messages, the ephemeral answers too."""
    return [message for message in env.world.messages.values() if message.author.id == env.bot.user.id]


def service(env: Env):
    return env.bot.get_cog("SpeedWar").service


def message_named(env: Env, match, name: str) -> Message | None:
    """The match's message stored under ``name`` (``block:<n>``, ``result``...)."""
    message_id = match.messages.get(name)
    return None if not message_id else env.world.messages.get(message_id)


def right_and_wrong(cards: list[str]) -> tuple[str, str]:
    first, second = STRENGTH[cards[0]], STRENGTH[cards[1]]
    right = "tie" if first == second else ("0" if first > second else "1")
    return right, ("0" if right != "0" else "1")


async def live_round(env: Env, match_id: int, number: int) -> tuple[Message, dict[str, str], list[str]]:
    async def shown() -> Message | None:
        message = message_named(env, await service(env).get_match(match_id), f"block:{(number - 1) // 10}")
        showing = message is not None and message.buttons and message.buttons[0]["custom_id"].split(":")[3]
        return message if showing == str(number) else None

    message = None
    for _ in range(400):
        message = await shown()
        if message is not None:
            break
        await asyncio.sleep(0.05)
    assert message is not None, f"no round {number}"
    view = await service(env).view(match_id)
    assert view["round"] == number
    return message, {b["custom_id"].rsplit(":", 1)[1]: b["custom_id"] for b in message.buttons}, view["cards"]


async def press(env: Env, user: User, message: Message, custom_id: str):
    ix = await env.click(user, message, custom_id=custom_id)
    await ix.wait_response()
    return ix


async def test_speed_war_shows_no_english_in_the_pseudo_language(make_env, tmp_path):
    with pseudo_language():
        env = await make_env(fast_bot(tmp_path / "speedwar.db", real_pace=True))
        lift_rate_limits(env)
        anna, ben = env.user("anna", locale=PSEUDO), env.user("ben", locale=PSEUDO)
        await env.bot.guild_settings.set_language(env.guild.id, PSEUDO)

        ix = await slash(env, anna, "speedwar challenge", opponent=ben, rounds=50)
        challenge = ix.message
        match_id = int(challenge.buttons[0]["custom_id"].split(":")[2])
        await stored(env, match_id)
        await press(env, ben, challenge, f"sw:c:{match_id}:accept")
        await env.wait_for(lambda: challenge.thread, message="no thread")

        # round 1: anna presses the wrong card, ben the right one; anna presses again: refused
        message, ids, cards = await live_round(env, match_id, 1)
        right, wrong = right_and_wrong(cards)
        first = await press(env, anna, message, ids[wrong])
        assert first.response.type == 6  # a deferred update: no message
        again = await press(env, anna, message, ids[right])
        assert again.response.ephemeral and not again.message.text.startswith("⚡")  # a refusal, not a press
        await press(env, ben, message, ids[right])
        await settled(env, match_id)

        # round 2: ben right alone (the window settles it); the status mid-game
        message, ids, cards = await live_round(env, match_id, 2)
        right, _ = right_and_wrong(cards)
        await press(env, ben, message, ids[right])
        await live_round(env, match_id, 3)
        await slash(env, anna, "speedwar status")  # (anna has a press to make in round 3)
        await slash(env, ben, "speedwar status")

        # round 3: nobody presses before its deadline: the higher card takes them
        env.clock.advance(25)
        await live_round(env, match_id, 4)
        await settled(env, match_id)

        # a forfeit: the question, then yes
        ix = await slash(env, anna, "speedwar forfeit")
        await press(env, anna, ix.message, f"sw:ff:{match_id}:yes")
        await settled(env, match_id)
        match = await service(env).get_match(match_id)
        assert match.status == "finished" and match.result["reason"] == "forfeit"

        # the rematch: a new challenge, accepted; both miss two rounds in a row: a draw
        result = await env.wait_for(lambda: next((m for m in env.messages(challenge.channel) if any(
            b["custom_id"] == f"sw:rm:{match_id}" for b in m.buttons)), None), message="no Rematch button")
        await press(env, ben, result, f"sw:rm:{match_id}")
        rematch = await env.wait_for(lambda: next((m for m in env.messages(challenge.channel) if any(
            b["custom_id"].startswith("sw:c:") and b["custom_id"].split(":")[2] != str(match_id)
            for b in m.buttons)), None), message="no rematch challenge")
        second_id = int(rematch.buttons[0]["custom_id"].split(":")[2])
        await stored(env, second_id)
        await press(env, anna, rematch, f"sw:c:{second_id}:accept")
        await env.wait_for(lambda: rematch.thread, message="no thread for the rematch")
        await live_round(env, second_id, 1)
        env.clock.advance(25)
        await live_round(env, second_id, 2)
        env.clock.advance(25)
        for _ in range(200):
            await settled(env, second_id)
            if (await service(env).get_match(second_id)).status == "finished":
                break
            await asyncio.sleep(0.05)
        second = await service(env).get_match(second_id)
        assert second.status == "finished" and second.result["winner"] is None
        await settled(env, second_id)

        names = [f"<@{anna.id}>", f"<@{ben.id}>", "anna", "ben", "Anna", "Ben"]
        assert english_in_messages(every_message(env), names) == []
