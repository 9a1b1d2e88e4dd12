"""No English left in War: games played end to end in the pseudo-language (every catalogue string's letters
swapped, see :mod:`tests.bot.i18n.pseudo`), the server's public messages set to it and every player's client
speaking it, then every version of every message the bot showed anyone (the channel, the threads, the DMs, the
ephemeral answers) is read for plain English words: a string that never went through a catalogue.

What is played: refused ``rules``; a challenge and its ``/war status``; a two-player game at flip pace (flips, a
second Flip refused, a missed round flipped for, votes for auto given and taken back, the run to the next war,
``/war forfeit`` answered "keep playing", a vote for instant pace, the result with its chart); its Rematch, declined;
a three-player lobby at auto pace played to the end; a three-player lobby at flip pace where one player gives up
and the others play on; a withdrawn challenge and a lobby left to expire. Messages and buttons are found by their
custom ids and the database, never by their words."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.bot.i18n.pseudo import PSEUDO, english_in_messages, english_left, pseudo_language
from tests.e2e.test_airwar import settled
from tests.e2e.test_war import click, flip_id, match_id_of, service, slash, start, stored
from tests.localdiscord import Env, Message, User

pytestmark = pytest.mark.e2e

def every_message(env: Env) -> list[Message]:
    """Everything the bot showed: every channel's, thread's and DM's messages, the ephemeral answers too."""
    return [message for message in env.world.messages.values() if message.author.id == env.bot.user.id]


def table(env: Env, match) -> Message:
    return env.world.messages[match.messages["table"]]


async def opened(env: Env, user: User, command: str, **options: Any) -> tuple[int, Message]:
    ix = await slash(env, user, command, **options)
    assert not ix.response.ephemeral, ix.message.text
    match_id = match_id_of(ix.message)
    await stored(env, match_id)
    return match_id, ix.message


async def flip_round(env: Env, match_id: int, players: list[User]) -> None:
    """Everyone who still has to flip presses Flip on the table (found by the database)."""
    war = service(env)
    await settled(env, match_id)
    match = await war.get_match(match_id)
    for seat in (await war.view(match_id))["to_flip"]:
        await click(env, players[seat], table(env, match), flip_id(match_id))
    await settled(env, match_id)


async def finished(env: Env, match_id: int) -> None:
    war = service(env)
    for _ in range(200):
        await settled(env, match_id)
        if (await war.get_match(match_id)).status == "finished":
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"game {match_id} never finished")


async def test_war_shows_no_english_in_the_pseudo_language(make_env, tmp_path):
    with pseudo_language():
        env = await start(make_env, tmp_path)
        anna, ben, cleo = (env.user(name, locale=PSEUDO) for name in ("anna", "ben", "cleo"))
        await env.bot.guild_settings.set_language(env.guild.id, PSEUDO)
        war = service(env)

        # refused rules (the engine's own checks), privately
        for bad in ("joker_each=true", "pack=32 six_beats_ace=true"):
            ix = await slash(env, anna, "war challenge", opponent=ben, rules=bad)
            assert ix.response.ephemeral
        ix = await slash(env, anna, "war status")
        assert ix.response.ephemeral

        # a withdrawn challenge
        match_id, message = await opened(env, anna, "war challenge", opponent=ben, pace="flip")
        await slash(env, ben, "war status")
        await click(env, anna, message, f"war:c:{match_id}:withdraw")
        await settled(env, match_id)

        # a two-player game at flip pace
        match_id, message = await opened(env, anna, "war challenge", opponent=ben, pace="flip",
                                         rules="pack=32 max_rounds=60 face_down=3")
        await slash(env, anna, "war status")
        await slash(env, ben, "war status")
        await click(env, ben, message, f"war:c:{match_id}:accept")
        await env.wait_for(lambda: message.thread, message="no thread for the game")
        players = [anna, ben]
        await settled(env, match_id)
        match = await war.get_match(match_id)
        await click(env, anna, table(env, match), flip_id(match_id))
        await click(env, anna, table(env, match), flip_id(match_id))  # refused: flipped already
        await click(env, ben, table(env, match), flip_id(match_id))
        await settled(env, match_id)
        # round 2: Ben misses it, and is flipped for
        match = await war.get_match(match_id)
        await click(env, anna, table(env, match), flip_id(match_id))
        env.clock.advance(121)
        await env.wait_for(lambda: any(m.text.startswith("⏰") for m in env.messages(message.thread)),
                           message="no time-out note")
        await flip_round(env, match_id, players)
        await slash(env, ben, "war status")
        match = await war.get_match(match_id)
        for _ in range(2):  # a vote for auto, then taken back
            await click(env, anna, table(env, match), f"war:t:{match_id}:0:vote:auto")
        await click(env, anna, table(env, match), f"war:t:{match_id}:0:vote:next_war")
        await slash(env, ben, "war status")
        await click(env, ben, table(env, match), f"war:t:{match_id}:0:vote:next_war")
        await settled(env, match_id)
        ix = await slash(env, ben, "war forfeit")
        await click(env, ben, ix.message, f"war:ff:{match_id}:no")
        match = await war.get_match(match_id)
        if match.status == "active":
            await click(env, anna, table(env, match), f"war:t:{match_id}:0:vote:instant")
            await click(env, ben, table(env, match), f"war:t:{match_id}:0:vote:instant")
        await finished(env, match_id)
        match = await war.get_match(match_id)
        result = env.world.messages[match.challenge_message_id]
        assert result.attachments and result.attachments[0].description  # the chart, with its alt text
        # its Rematch, declined
        rematch = await env.wait_for(lambda: next((b for b in result.buttons if ":rm:" in b["custom_id"]), None))
        ix = await click(env, anna, result, rematch["custom_id"])
        again = await env.wait_for(lambda: next((m for m in env.messages(env.channel()) if m.buttons and m.buttons[0][
            "custom_id"].startswith("war:c:") and match_id_of(m) != match_id), None), message="no rematch")
        again_id = match_id_of(again)
        await stored(env, again_id)
        await click(env, ben, again, f"war:c:{again_id}:decline")
        await settled(env, again_id)

        # a three-player lobby at auto pace, played to the end
        match_id, message = await opened(env, anna, "war lobby", pace="auto", rules="max_rounds=25")
        await click(env, ben, message, f"war:l:{match_id}:join")
        await click(env, ben, message, f"war:l:{match_id}:leave")
        for user in (ben, cleo):
            await click(env, user, message, f"war:l:{match_id}:join")
        await slash(env, cleo, "war status")
        await click(env, anna, message, f"war:l:{match_id}:start")
        await finished(env, match_id)

        # a three-player lobby at flip pace: Cleo gives up, the others play on to the end
        match_id, message = await opened(env, ben, "war lobby", pace="flip", rules="max_rounds=30 war_joins=all")
        for user in (anna, cleo):
            await click(env, user, message, f"war:l:{match_id}:join")
        await click(env, ben, message, f"war:l:{match_id}:start")
        await env.wait_for(lambda: message.thread, message="no thread for the lobby's game")
        players = [ben, anna, cleo]
        await flip_round(env, match_id, players)
        ix = await slash(env, cleo, "war forfeit")
        await click(env, cleo, ix.message, f"war:ff:{match_id}:yes")
        await settled(env, match_id)
        await slash(env, cleo, "war status")
        match = await war.get_match(match_id)
        await click(env, cleo, table(env, match), flip_id(match_id))  # refused: out of the game
        await flip_round(env, match_id, players)
        for user in (ben, anna):
            await click(env, user, table(env, match), f"war:t:{match_id}:0:vote:instant")
        await finished(env, match_id)

        # a lobby nobody joins: it expires
        match_id, message = await opened(env, cleo, "war lobby")
        env.clock.advance(601)
        await env.wait_for(lambda: not message.buttons, timeout=10, message="the lobby never expired")
        await settled(env, match_id)

        names = [f"<@{user.id}>" for user in (anna, ben, cleo)] + ["anna", "ben", "cleo", "Anna", "Ben", "Cleo"]
        threads = [channel for channel in env.world.channels.values() if channel.is_thread]
        assert threads and all(english_left(thread.name, names) == []
                               for thread in threads), [thread.name for thread in threads]
        found = english_in_messages(every_message(env), names)
        assert found == [], "\n".join(found)
