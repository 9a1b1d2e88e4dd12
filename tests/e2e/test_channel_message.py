"""One message per match in the channel, edited through its life (challenge, then live, then result), the result's
picture uploaded once, board edits that upload nothing when the picture has not changed, and the Rematch button:
the real bot against the local Discord, for Air War, Army and War."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e import test_army as army
from tests.e2e import test_war as war
from tests.e2e.test_airwar import (
    accept,
    board,
    challenge,
    click,
    dm_panel,
    lock_in,
    match_id_of,
    results,
    settled,
    slash,
    stack_of,
    start,
    title,
)
from tests.localdiscord import Env, Message, User
from tests.localdiscord.server import HeldRequest
from tests.localdiscord.state import walk_components

pytestmark = pytest.mark.e2e


def in_channel(env: Env, channel) -> list[Message]:
    """What the bot put in the channel for everyone (not its private answers)."""
    return [m for m in env.messages(channel) if m.author is env.bot_user and m.ephemeral_to is None]


def uploads_named(env: Env, filename: str) -> int:
    return sum(1 for attachment in env.world.attachments.values() if attachment.filename == filename)


async def forfeit(env: Env, user: User, game: str) -> None:
    ix = await slash(env, user, f"{game} forfeit")
    await click(env, user, ix.message, label="Forfeit")


def removes_buttons(message: Message):
    def matches(request: HeldRequest) -> bool:
        body = request.body or {}
        return (request.method == "PATCH" and request.params.get("message_id") == str(message.id)
                and "components" in body
                and not any(c.get("type") == 2 for c in walk_components(body["components"] or [])))
    return matches


# --- Air War --------------------------------------------------------------------------------------------------


async def test_an_air_war_match_is_one_channel_message_from_challenge_to_result(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()

    message = await challenge(env, alice, bob)
    match_id = match_id_of(message)
    assert in_channel(env, channel) == [message]
    assert [b["label"] for b in message.buttons] == ["Accept", "Decline", "Withdraw"]

    thread = await accept(env, bob, message)
    # live: who plays and where, and no buttons that mean nothing now
    await env.wait_for(lambda: f"<#{thread.id}>" in message.text and not message.buttons)
    assert f"<@{alice.id}> vs <@{bob.id}>" in message.text and "follow the match" in message.text
    assert not message.embeds and not message.attachments

    # the board is text and card emoji: posted, then edited as players lock in, nothing ever uploaded
    first = await env.wait_for(lambda: board(env, thread, 1))
    panel = await env.wait_for(lambda: dm_panel(env, alice, 1))
    await lock_in(env, alice, panel, list(reversed(stack_of(panel))))
    await env.wait_for(lambda: "✅ locked in" in first.text)
    assert first.history and first.edited  # posted, then edited (alice locked in)
    assert not any(version.attachments for version in first.history) and not first.attachments

    # the result: the same message, now the result, with a Rematch button; the thread has it too
    await forfeit(env, bob, "airwar")
    await env.wait_for(lambda: results(env, channel) and results(env, thread), message="no result")
    await settled(env, match_id)
    assert in_channel(env, channel) == [message]
    assert title(message) == "Air War — Alice wins" and f"<#{thread.id}>" in message.text
    assert f"**<@{alice.id}>** wins!" in message.text and not message.content
    assert [b["label"] for b in message.buttons] == ["Rematch"]
    [in_thread] = results(env, thread)
    assert f"**<@{alice.id}>** wins!" in in_thread.text and not in_thread.buttons


async def test_without_a_thread_the_result_follows_the_play_and_the_first_message_links_it(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()
    ix = await slash(env, env.owner, "settings threads", enabled=False)
    assert ix.response.ephemeral and ix.message.text.startswith("Saved.")

    message = await challenge(env, alice, bob)
    match_id = match_id_of(message)
    await click(env, bob, message, label="Accept")
    await env.wait_for(lambda: "the match is on right here" in message.text and not message.buttons)
    await env.wait_for(lambda: board(env, channel, 1))
    await forfeit(env, alice, "airwar")
    [result] = await env.wait_for(lambda: results(env, channel) or None, message="no result")
    await settled(env, match_id)
    assert not env.threads
    assert in_channel(env, channel)[-1] is result and [b["label"] for b in result.buttons] == ["Rematch"]
    assert f"/{channel.id}/{result.id})" in message.text and "Air War — Bob wins" in message.text
    assert not message.buttons and not message.embeds


# --- Army -----------------------------------------------------------------------------------------------------


async def test_an_army_match_is_one_channel_message_from_challenge_to_result(make_env, tmp_path):
    env = await army.start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()

    message = await army.challenge(env, alice, bob)
    match_id = army.match_id_of(message)
    assert in_channel(env, channel) == [message]
    await army.click(env, bob, message, label="Accept")
    thread = await env.wait_for(lambda: message.thread)
    await env.wait_for(lambda: f"<#{thread.id}>" in message.text and not message.buttons)
    await env.wait_for(lambda: army.round_message(env, thread, 1))
    assert in_channel(env, channel) == [message]

    await forfeit(env, alice, "army")
    await env.wait_for(lambda: army.results(env, channel) and army.results(env, thread), message="no result")
    await army.settled(env, match_id)
    assert in_channel(env, channel) == [message]
    assert army.title(message) == "Army — Bob wins"
    assert f"<#{thread.id}>" in message.text and [b["label"] for b in message.buttons] == ["Rematch"]
    assert not army.results(env, thread)[0].buttons


# --- War: the chart, once -------------------------------------------------------------------------------------


async def test_a_war_result_uploads_its_chart_once(make_env, tmp_path):
    env = await war.start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()

    match_id, thread = await war.challenge(env, alice, bob, pace="instant", **war.SMALL)
    [message] = in_channel(env, channel)
    await env.wait_for(lambda: war.results(env, channel) and war.results(env, thread), message="no result")
    await settled(env, match_id)
    assert in_channel(env, channel) == [message] and war.match_id_of(message) == match_id
    [chart] = message.attachments
    assert chart.filename == "war-cards.png" and uploads_named(env, "war-cards.png") == 1
    assert message.images[0] == chart.url
    [in_thread] = war.results(env, thread)
    assert not in_thread.attachments and in_thread.images[0] == chart.url
    assert [b["label"] for b in message.buttons] == ["Rematch"] and not in_thread.buttons


# --- Rematch --------------------------------------------------------------------------------------------------


async def finished_air_war(env: Env, alice: User, bob: User, **rules: Any) -> tuple[Message, int]:
    message = await challenge(env, alice, bob, **rules)
    match_id = match_id_of(message)
    await accept(env, bob, message)
    await env.wait_for(lambda: dm_panel(env, alice, 1))
    await forfeit(env, bob, "airwar")
    await env.wait_for(lambda: [b["label"] for b in message.buttons] == ["Rematch"], message="no Rematch")
    await settled(env, match_id)
    return message, match_id


async def test_rematch_challenges_the_other_player_with_the_same_rules_once(make_env, tmp_path: Path):
    env = await start(make_env, tmp_path)
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")
    channel = env.channel()
    result, old_id = await finished_air_war(env, alice, bob, aces="low", stack=3, timer=45)
    matches = env.bot.matches
    old = await matches.get_match(old_id)

    # someone else's click changes nothing
    ix = await click(env, carol, result, label="Rematch")
    assert ix.response.ephemeral and "isn't your match" in ix.message.text.lower()

    # bob asks for the rematch: a challenge from bob to alice, the same game and rules; the Rematch is spent
    hold = env.hold(removes_buttons(result))
    ix = await click(env, bob, result, label="Rematch")
    assert not ix.response.ephemeral
    rematch = ix.message
    assert rematch.channel is channel and f"<@{alice.id}>" in rematch.text and alice in rematch.mentions
    assert [b["label"] for b in rematch.buttons] == ["Accept", "Decline", "Withdraw"]
    new_id = match_id_of(rematch)
    await settled(env, new_id)
    new = await matches.get_match(new_id)
    assert new.user_ids == (bob.id, alice.id) and new.game == old.game and new.rules == old.rules
    assert new.rules["aces"] == "low" and new.rules["stack"] == 3 and new.arrange_seconds == 45
    # alice's click, while the button is still on her screen, is told what happened, privately
    await hold.wait()
    ix = await click(env, alice, result, label="Rematch")
    assert ix.response.ephemeral and "asked for already" in ix.message.text
    assert f"/{channel.id}/{rematch.id}" in ix.message.text
    hold.release()
    await env.wait_for(lambda: not result.buttons, message="the Rematch button stayed")
    assert title(result) == "Air War — Alice wins"  # the result itself is unchanged

    # the rematch is a challenge like any other
    await click(env, alice, rematch, label="Accept")
    await env.wait_for(lambda: rematch.thread, message="no thread for the rematch")
    assert (await matches.get_match(new_id)).status == "active"


async def test_a_refused_rematch_is_private_and_leaves_the_button(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")
    channel = env.channel()
    result, _ = await finished_air_war(env, alice, bob)
    pending = await challenge(env, carol, alice)  # alice is in another challenge meanwhile

    ix = await click(env, bob, result, label="Rematch")
    assert ix.response.ephemeral and f"<@{alice.id}>" in ix.message.text
    assert [b["label"] for b in result.buttons] == ["Rematch"]
    assert [m for m in in_channel(env, channel) if m.buttons and m is not result] == [pending]

    await click(env, carol, pending, label="Withdraw")
    await env.wait_for(lambda: not pending.buttons)
    ix = await click(env, bob, result, label="Rematch")
    assert not ix.response.ephemeral and [b["label"] for b in ix.message.buttons] == ["Accept", "Decline",
                                                                                      "Withdraw"]
    await env.wait_for(lambda: not result.buttons)


async def test_the_rematch_of_a_lobby_game_is_a_new_lobby_inviting_the_other_players(make_env, tmp_path):
    env = await war.start(make_env, tmp_path)
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")
    channel = env.channel()
    match_id, thread = await war.lobby(env, [alice, bob, carol], pace="instant", rules="max_rounds=30")
    [message] = in_channel(env, channel)
    await env.wait_for(lambda: war.results(env, channel) and war.results(env, thread), message="no result")
    await settled(env, match_id)
    assert [b["label"] for b in message.buttons] == ["Rematch"]
    old = await env.bot.matches.get_match(match_id)

    ix = await click(env, carol, message, label="Rematch")
    assert not ix.response.ephemeral
    lobby = ix.message
    assert f"<@{alice.id}>" in lobby.text and f"<@{bob.id}>" in lobby.text
    assert {alice, bob} <= set(lobby.mentions) and carol not in lobby.mentions
    assert "Players (1/4)" in lobby.text
    new_id = war.match_id_of(lobby)
    await settled(env, new_id)
    new = await env.bot.matches.get_match(new_id)
    assert new.user_ids == (carol.id,) and new.options["lobby"] and new.options["pace"] == "instant"
    assert new.game == old.game and new.rules["max_rounds"] == 30
    await env.wait_for(lambda: not message.buttons, message="the Rematch button stayed")
    # the others join the new lobby as any lobby
    await war.click(env, alice, lobby, f"war:l:{new_id}:join")
    await env.wait_for(lambda: "Players (2/4)" in lobby.text)
