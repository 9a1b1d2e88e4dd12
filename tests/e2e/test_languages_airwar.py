"""No English left in Air War: matches played in the pseudo-language (every catalogue string's letters swapped, see
:mod:`tests.bot.i18n.pseudo`), the server's public messages set to it and every player's client speaking it, then
every version of every message the bot showed anyone (the channel, the thread, the DMs, the ephemeral answers) is
read for plain English words: a string that never went through a catalogue.

Three matches: two players (the challenge, the status before and after accepting, a panel opened from the board and
one from the status, a refusal of a card tapped twice, the forfeit question kept, a missed deadline, a stale panel,
the flips to the result, the rematch), a lobby of three (a stranger's click, the status, its thread deleted
mid-match, a forfeit that puts a player out, the others playing on to the result) and a practice match against the
bot (the Hint, before and after the order is placed, a forfeit, the accuracy). Buttons and messages are found by
their custom ids and the database, never by their words."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from tests.bot.i18n.pseudo import PSEUDO, english_in_messages, pseudo_language
from tests.e2e.test_airwar import match_id_of, settled, slash, start, stored
from tests.localdiscord import Env, Message, User

pytestmark = pytest.mark.e2e

def every_message(env: Env) -> list[Message]:
    """Everything the bot showed: every channel's, thread's and DM's messages, the ephemeral answers too."""
    return [message for message in env.world.messages.values() if message.author.id == env.bot.user.id]


def english(env: Env, users: Sequence[User], *extra: str) -> list[str]:
    """The English left in every message the bot sent, the players' names (mentions, user and display names) and
    ``extra`` allowed."""
    names = [word for user in users for word in (f"<@{user.id}>", user.name, user.name.capitalize())]
    return english_in_messages(every_message(env), [*names, *extra])


def ids(message: Message) -> list[str]:
    return [button["custom_id"] for button in message.buttons]


def with_button(messages: Sequence[Message], custom_id: str) -> Message | None:
    """The latest of ``messages`` that has the button ``custom_id`` now."""
    return next((message for message in reversed(messages) if custom_id in ids(message)), None)


def panel_in(messages: Sequence[Message], match_id: int, step: int) -> Message | None:
    """The latest of ``messages`` that shows the panel buttons of ``step`` (by their custom ids, whatever words)."""
    prefix = f"aw:p:{match_id}:{step}:"
    return next((message for message in reversed(messages) if any(i.startswith(prefix) for i in ids(message))),
                None)


def cards_of(panel: Message) -> list[str]:
    return [i.split(":card:")[1] for i in ids(panel) if ":card:" in i]


async def press(env: Env, user: User, message: Message, custom_id: str):
    ix = await env.click(user, message, custom_id=custom_id)
    await ix.wait_response()
    return ix


async def key(env: Env, user: User, panel: Message, match_id: int, step: int, name: str):
    return await press(env, user, panel, f"aw:p:{match_id}:{step}:{name}")


async def lock_in(env: Env, user: User, panel: Message, match_id: int, step: int) -> None:
    """A draft changed every way (a tap, reset, as drawn), then locked in: the stack as drawn."""
    await key(env, user, panel, match_id, step, f"card:{cards_of(panel)[-1]}")
    await key(env, user, panel, match_id, step, "reset")
    await key(env, user, panel, match_id, step, "random")
    await key(env, user, panel, match_id, step, "undo")
    await key(env, user, panel, match_id, step, "drawn")
    await key(env, user, panel, match_id, step, "confirm")


async def dm_panels(env: Env, users: Sequence[User], match_id: int, step: int) -> list[Message]:
    def found():
        panels = [panel_in(env.messages(user), match_id, step) for user in users]
        return panels if all(panels) else None

    return await env.wait_for(found, timeout=20, message=f"no panels for engagement {step}")


async def play_out(env: Env, users: dict[int, User], match_id: int) -> None:
    """Every engagement from the current one to the end, each seat still in locking in by DM."""
    while True:
        await settled(env, match_id)
        match = await env.bot.matches.get_match(match_id)
        if match.status != "active":
            return
        view = await env.bot.matches.view(match_id)
        playing = [users[seat] for seat in users if (view.get("in_game") or [True] * len(match.seats))[seat]
                   and not view["locked"][seat]]
        for user, panel in zip(playing, await dm_panels(env, playing, match_id, match.step), strict=True):
            await lock_in(env, user, panel, match_id, match.step)


async def forfeit(env: Env, user: User, answer: str) -> Message:
    """``/airwar forfeit`` and the question's ``yes`` or ``no``: the answer."""
    ix = await slash(env, user, "airwar forfeit")
    [button] = [i for i in ids(ix.message) if i.endswith(f":{answer}")]
    await press(env, user, ix.message, button)
    return ix.message


async def test_a_two_player_match_shows_no_english_in_the_pseudo_language(make_env, tmp_path):
    with pseudo_language():
        env = await start(make_env, tmp_path)
        anna, ben = env.user("anna", locale=PSEUDO), env.user("ben", locale=PSEUDO)
        await env.bot.guild_settings.set_language(env.guild.id, PSEUDO)

        ix = await slash(env, anna, "airwar challenge", opponent=ben, stack=3, timer=30)
        public = ix.message
        match_id = match_id_of(public)
        await stored(env, match_id)
        await slash(env, anna, "airwar status")  # waiting for an answer
        await slash(env, ben, "airwar status")  # challenged
        await press(env, ben, public, f"aw:c:{match_id}:accept")
        thread = await env.wait_for(lambda: public.thread, message="no thread for the match")

        # engagement 1: anna arranges from the board's button (ephemeral), ben taps a card twice at once, opens his
        # panel from the status, keeps playing, then lets the deadline pass
        await settled(env, match_id)
        opener = f"aw:open:{match_id}:1"
        board = await env.wait_for(lambda: with_button(env.messages(thread), opener), message="no board")
        await press(env, anna, board, opener)
        mine = await env.wait_for(lambda: panel_in(env.ephemerals(anna), match_id, 1))
        await lock_in(env, anna, mine, match_id, 1)
        [ben_panel] = await dm_panels(env, [ben], match_id, 1)
        tap = f"aw:p:{match_id}:1:card:{cards_of(ben_panel)[0]}"
        twice = await asyncio.gather(env.click(ben, ben_panel, custom_id=tap), env.click(ben, ben_panel, custom_id=tap))
        for one in twice:
            await one.wait_response()
        assert any(one.response.ephemeral for one in twice)  # "... is already placed", in ben's language
        status = (await slash(env, ben, "airwar status")).message
        await press(env, ben, status, opener)
        from_status = await env.wait_for(lambda: panel_in(env.ephemerals(ben), match_id, 1))
        await forfeit(env, ben, "no")
        await settled(env, match_id)
        match = await env.bot.matches.get_match(match_id)
        env.clock.advance(match.deadline_at - env.clock.time() + 1)
        await env.wait_for(lambda: any(m.text.startswith("⏰") for m in env.messages(thread)), timeout=10)

        # engagement 2: ben's panel of engagement 1 is stale; then the match is played out
        await dm_panels(env, [anna, ben], match_id, 2)
        stale = await press(env, ben, from_status, f"aw:p:{match_id}:1:undo")
        assert stale.response.ephemeral
        await slash(env, anna, "airwar status")
        await play_out(env, {0: anna, 1: ben}, match_id)
        await settled(env, match_id)

        # the rematch: a new challenge from the result's button
        rematch = f"aw:rm:{match_id}"
        result = await env.wait_for(lambda: with_button(env.messages(env.channel()), rematch), message="no result")
        await press(env, anna, result, rematch)
        await env.wait_for(lambda: any(i.startswith("aw:c:") and not i.startswith(f"aw:c:{match_id}:")
                                       for m in env.messages(env.channel()) for i in ids(m)),
                           message="no rematch challenge")

        assert english(env, [anna, ben]) == []


async def test_a_lobby_of_three_shows_no_english_in_the_pseudo_language(make_env, tmp_path):
    with pseudo_language():
        env = await start(make_env, tmp_path)
        anna, ben, cara = (env.user(name, locale=PSEUDO) for name in ("anna", "ben", "cara"))
        await env.bot.guild_settings.set_language(env.guild.id, PSEUDO)

        ix = await slash(env, anna, "airwar lobby", stack=3)
        lobby = ix.message
        match_id = match_id_of(lobby)
        await stored(env, match_id)
        await press(env, ben, lobby, f"aw:l:{match_id}:join")
        await env.wait_for(lambda: len(lobby.history) >= 1)
        await press(env, cara, lobby, f"aw:l:{match_id}:join")
        await env.wait_for(lambda: f"<@{cara.id}>" in lobby.text)
        await slash(env, ben, "airwar status")  # the lobby, not started yet
        await press(env, anna, lobby, f"aw:l:{match_id}:start")
        thread = await env.wait_for(lambda: lobby.thread, message="no thread for the match")
        await settled(env, match_id)
        opener = f"aw:open:{match_id}:1"
        board = await env.wait_for(lambda: with_button(env.messages(thread), opener), message="no board")
        stranger = await press(env, env.user("dora", locale=PSEUDO), board, opener)
        assert stranger.response.ephemeral  # not her match

        players = {0: anna, 1: ben, 2: cara}
        panels = await dm_panels(env, list(players.values()), match_id, 1)
        env.world.delete_channel(thread)  # a moderator deletes the thread: the match goes on in the channel
        for user, panel in zip(players.values(), panels, strict=True):
            await lock_in(env, user, panel, match_id, 1)
        await settled(env, match_id)
        await env.wait_for(lambda: any(m.text.startswith("⚠️") for m in env.messages(env.channel())),
                           message="no note that the thread is gone")
        await dm_panels(env, list(players.values()), match_id, 2)
        await slash(env, anna, "airwar status")
        await forfeit(env, cara, "yes")  # out; the others play on
        await play_out(env, players, match_id)
        await settled(env, match_id)
        assert (await env.bot.matches.get_match(match_id)).status == "finished"

        assert english(env, players.values()) == []


async def test_a_practice_match_against_the_bot_shows_no_english_in_the_pseudo_language(make_env, tmp_path):
    with pseudo_language():
        env = await start(make_env, tmp_path)
        anna = env.user("anna", locale=PSEUDO)
        await env.bot.guild_settings.set_language(env.guild.id, PSEUDO)

        ix = await slash(env, anna, "airwar challenge", opponent=env.bot_user, stack=3, level="medium")
        match_id = match_id_of(ix.message)
        thread = await env.wait_for(lambda: ix.message.thread, message="the bot did not take its own challenge")
        for step in (1, 2):
            [panel] = await dm_panels(env, [anna], match_id, step)
            await key(env, anna, panel, match_id, step, "hint")  # before the order is placed
            await key(env, anna, panel, match_id, step, "drawn")
            await key(env, anna, panel, match_id, step, "hint")  # and after: what the order gets
            await key(env, anna, panel, match_id, step, "confirm")
            await settled(env, match_id)
        await dm_panels(env, [anna], match_id, 3)
        await forfeit(env, anna, "yes")
        await settled(env, match_id)
        await env.wait_for(lambda: [m for m in env.messages(thread) if "🎯" in m.text], timeout=30,
                           message="no accuracy after the match")
        hints = [m for m in env.ephemerals(anna) if "💡" in m.text]
        assert len(hints) == 4

        # the bot's own name ("Air War", a display name) stands in the result's title: allowed here only
        assert english(env, [anna, env.bot_user], "Air War") == []
