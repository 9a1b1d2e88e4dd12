"""No English left in Army: whole matches played in the pseudo-language (every catalogue string's letters swapped,
see :mod:`tests.bot.i18n.pseudo`), the server's public messages set to it and the players' clients speaking it, then
every version of every message the bot showed anyone (the channel, the thread, the DMs, the ephemeral answers) is
read for plain English words: a string that never went through a catalogue.

The first match goes to the round limit: the armies set by DM (tap, undo, reset, confirm) and from the round
message's button, every round chosen, by DM and from the button, a missed deadline (the default card), a refused
click on a panel of a round that is over, an outsider's click, ``/army status`` before and during the match. The
second, made with the result's Rematch button, ends with ``/army forfeit`` (Keep playing first, then Forfeit)."""

from __future__ import annotations

import asyncio

import pytest

from tests.bot.i18n.pseudo import PSEUDO, english_in_messages, pseudo_language
from tests.e2e.test_army import click, keys, match_id_of, service, settled, slash, start
from tests.localdiscord import Env, Message, User

pytestmark = pytest.mark.e2e

def every_message(env: Env) -> list[Message]:
    """Everything the bot showed: every channel's, thread's and DM's messages, the ephemeral answers too."""
    return [message for message in env.world.messages.values() if message.author.id == env.bot.user.id]


def with_buttons(messages: list[Message], prefix: str) -> Message | None:
    """The last of ``messages`` with a button whose custom id begins with ``prefix`` (whatever its words)."""
    for message in reversed(messages):
        if any(button["custom_id"].startswith(prefix) for button in message.buttons):
            return message
    return None


def dm_panel(env: Env, user: User, match_id: int, step: int) -> Message | None:
    return with_buttons(env.messages(user), f"army:p:{match_id}:{step}:")


def round_message(env: Env, thread, match_id: int, step: int) -> Message | None:
    """The step's round message while it has its Choose button."""
    return with_buttons(env.messages(thread), f"army:open:{match_id}:{step}")


async def opened_panel(env: Env, user: User, thread, match_id: int, step: int) -> Message:
    """The player's panel of ``step`` opened from the round message's Choose button (an ephemeral answer)."""
    board = await env.wait_for(lambda: round_message(env, thread, match_id, step), timeout=20,
                               message=f"no round message for step {step}")
    ix = await click(env, user, board, f"open:{match_id}:{step}")
    assert ix.response.ephemeral
    return await env.wait_for(lambda: with_buttons(env.ephemerals(user), f"army:p:{match_id}:{step}:"),
                              message=f"no panel of step {step} from the button")


async def dm_of(env: Env, user: User, match_id: int, step: int) -> Message:
    return await env.wait_for(lambda: dm_panel(env, user, match_id, step), timeout=20,
                              message=f"no DM panel of step {step} for {user.name}")


async def accepted(env: Env, user: User, challenge: Message):
    match_id = match_id_of(challenge)
    await env.wait_for(lambda: challenge.buttons)
    for _ in range(500):
        if (await service(env).get_match(match_id)).challenge_message_id is not None:
            break
        await asyncio.sleep(0.01)
    await click(env, user, challenge, "accept")
    return await env.wait_for(lambda: challenge.thread, message="no thread for the match")


async def test_army_matches_show_no_english_in_the_pseudo_language(make_env, tmp_path):
    with pseudo_language():
        env = await start(make_env, tmp_path)
        anna, ben = env.user("anna", locale=PSEUDO), env.user("ben", locale=PSEUDO)
        carl = env.user("carl", locale=PSEUDO)
        await env.bot.guild_settings.set_language(env.guild.id, PSEUDO)

        ix = await slash(env, anna, "army challenge", opponent=ben, rounds=4, timer=60)
        challenge = ix.message
        match_id = match_id_of(challenge)
        await slash(env, ben, "army status")  # a challenge waiting for an answer, both sides
        await slash(env, anna, "army status")
        thread = await accepted(env, ben, challenge)

        # the armies: anna by DM (tap, undo, reset, tap all three, confirm); ben from the round message's button
        panel = await dm_of(env, anna, match_id, 1)
        armies = keys(panel, "army")
        await click(env, anna, panel, f"army:{armies[0]}")
        await click(env, anna, panel, "undo")
        await click(env, anna, panel, f"army:{armies[2]}")
        await click(env, anna, panel, "reset")
        for army in reversed(armies):
            await click(env, anna, panel, f"army:{army}")
        await click(env, anna, panel, "confirm")
        board = await env.wait_for(lambda: round_message(env, thread, match_id, 1))
        await click(env, carl, board, f"open:{match_id}:1")  # an outsider: refused
        panel = await opened_panel(env, ben, thread, match_id, 1)
        await click(env, ben, panel, "dealt")
        await click(env, ben, panel, "confirm")

        # round 1: anna by DM, ben from the button
        panel = await dm_of(env, anna, match_id, 2)
        await click(env, anna, panel, f"play:{keys(panel, 'play')[0]}")
        panel = await opened_panel(env, ben, thread, match_id, 2)
        await click(env, ben, panel, f"play:{keys(panel, 'play')[-1]}")

        # round 2: ben opens his panel but misses the deadline: his lowest card is played; his old panel is refused
        panel = await dm_of(env, anna, match_id, 3)
        await click(env, anna, panel, f"play:{keys(panel, 'play')[0]}")
        late = await opened_panel(env, ben, thread, match_id, 3)
        await settled(env, match_id)
        match = await service(env).get_match(match_id)
        env.clock.advance(match.deadline_at - env.clock.time() + 1)
        await env.wait_for(lambda: round_message(env, thread, match_id, 4), timeout=20)
        ix = await click(env, ben, late, f"play:{keys(late, 'play')[0]}")
        assert ix.response.ephemeral and ix.message.text and not ix.message.buttons  # refused, privately
        assert any(m.text.startswith(f"⌛ <@{ben.id}>") for m in env.messages(thread))  # the missed deadline

        # rounds 3 and 4 by DM, /army status and its panel button on the way: the round limit ends the match
        for step in (4, 5):
            if step == 4:
                ix = await slash(env, ben, "army status")
                await click(env, ben, ix.message, f"open:{match_id}:{step}")
            for user in (anna, ben):
                panel = await dm_of(env, user, match_id, step)
                await click(env, user, panel, f"play:{keys(panel, 'play')[-1]}")
        await settled(env, match_id)
        match = await service(env).get_match(match_id)
        assert match.status == "finished" and match.reason == "capped"

        # the rematch from the result, then /army forfeit: Keep playing first, then Forfeit
        ix = await click(env, anna, challenge, f"rm:{match_id}")
        rematch = ix.message
        second = match_id_of(rematch)
        await accepted(env, ben, rematch)
        await dm_of(env, anna, second, 1)
        ix = await slash(env, anna, "army forfeit")
        await click(env, anna, ix.message, "no")
        ix = await slash(env, anna, "army forfeit")
        await click(env, anna, ix.message, "yes")
        await settled(env, second)
        assert (await service(env).get_match(second)).reason == "forfeit"

        players = (anna, ben, carl)
        names = [f"<@{user.id}>" for user in players] + [user.name for user in players] + ["Anna", "Ben", "Carl"]
        assert english_in_messages(every_message(env), names) == []


async def test_a_practice_match_against_the_bot_shows_no_english_in_the_pseudo_language(make_env, tmp_path):
    """The Hint while the armies are set and in every round, and the accuracy after the match."""
    with pseudo_language():
        env = await start(make_env, tmp_path)
        anna = env.user("anna", locale=PSEUDO)
        await env.bot.guild_settings.set_language(env.guild.id, PSEUDO)

        ix = await slash(env, anna, "army challenge", opponent=env.bot_user, rounds=3, level="hard")
        match_id = match_id_of(ix.message)
        thread = await env.wait_for(lambda: ix.message.thread, message="the bot did not take its own challenge")
        panel = await dm_of(env, anna, match_id, 1)
        await click(env, anna, panel, "hint")
        await click(env, anna, panel, "dealt")
        await click(env, anna, panel, "confirm")
        for step in (2, 3, 4):
            panel = await dm_of(env, anna, match_id, step)
            await click(env, anna, panel, "hint")
            await click(env, anna, panel, f"play:{keys(panel, 'play')[0]}")
        await settled(env, match_id)
        await env.wait_for(lambda: [m for m in env.messages(thread) if "🎯" in m.text], timeout=30,
                           message="no accuracy after the match")
        assert len([m for m in env.ephemerals(anna) if "💡" in m.text]) == 4
        names = [f"<@{anna.id}>", anna.name, "Anna", f"<@{env.bot_user.id}>", env.bot_user.name]
        assert english_in_messages(every_message(env), names) == []
