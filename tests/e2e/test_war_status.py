"""`/war forfeit` (asks first) and `/war status`, and the lobby's edge cases, end to end: the real bot against the
local Discord, players typing the commands and pressing the buttons."""

from __future__ import annotations

import pytest

from tests.e2e.test_airwar import settled
from tests.e2e.test_war import click, lobby, match_id_of, results, service, slash, start, stored, table_of
from tests.localdiscord import ComponentNotFound
from tests.records import match_results

pytestmark = pytest.mark.e2e

NOT_IN_A_GAME = ("You're not in a game of War, Drunkard, Tod und Leben or Double War. Start one with "
                 "`/war challenge` or `/war lobby`.")


async def test_forfeit_asks_first_and_a_stale_question_says_the_game_is_over(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")
    ix = await slash(env, alice, "war forfeit")
    assert ix.response.ephemeral and ix.message.text == NOT_IN_A_GAME
    opening = (await slash(env, alice, "war challenge", opponent=bob, pace="flip")).message
    match_id = match_id_of(opening)
    await stored(env, match_id)
    ix = await slash(env, bob, "war forfeit")
    assert ix.response.ephemeral and "hasn't started yet" in ix.message.text and "decline it" in ix.message.text
    await click(env, bob, opening, f"war:c:{match_id}:accept")
    thread = await env.wait_for(lambda: opening.thread)
    war = service(env)

    ix = await slash(env, bob, "war forfeit")
    question = ix.message
    assert ix.response.ephemeral and question.ephemeral_to == bob
    assert question.text == (f"Give up your War game (<#{thread.id}>)? **<@{alice.id}>** wins, and it counts as "
                                "a loss for you. This can't be undone.")
    assert [b["custom_id"] for b in question.buttons] == [f"war:ff:{match_id}:yes", f"war:ff:{match_id}:no"]
    with pytest.raises(ComponentNotFound):  # nobody else sees the question, so nobody else can answer it
        await env.click(carol, question, custom_id=f"war:ff:{match_id}:yes")
    await click(env, bob, question, f"war:ff:{match_id}:no")
    assert question.text == "Nothing changed: you're still in the game." and not question.buttons
    assert (await war.get_match(match_id)).status == "active"

    stale_yes = (await slash(env, bob, "war forfeit")).message
    stale_no = (await slash(env, bob, "war forfeit")).message
    question = (await slash(env, bob, "war forfeit")).message
    await click(env, bob, question, f"war:ff:{match_id}:yes")
    assert question.text == f"🏳️ You gave up your War game (<#{thread.id}>): **<@{alice.id}>** wins."
    await env.wait_for(lambda: results(env, thread), message="no result")
    match = await war.get_match(match_id)
    assert (match.status, match.reason, match.result["winner_id"]) == ("finished", "forfeit", alice.id)
    for message, answer in ((stale_yes, "yes"), (stale_no, "no")):
        await click(env, bob, message, f"war:ff:{match_id}:{answer}")
        assert message.text == "This game is over already; nothing changed." and not message.buttons
    assert sorted((r.user_id, r.outcome) for r in await match_results(war.db, match_id)) == [(alice.id, "win"),
                                                                                   (bob.id, "loss")]
    ix = await slash(env, bob, "war forfeit")
    assert ix.message.text == NOT_IN_A_GAME
    await settled(env, match_id)


async def test_a_player_out_of_a_three_player_game(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    players = alice, bob, carol = [env.user(name) for name in ("alice", "bob", "carol")]
    match_id, thread = await lobby(env, players, pace="flip", rules="max_rounds=50")
    question = (await slash(env, carol, "war forfeit")).message
    assert f"You're out and **<@{alice.id}>** and **<@{bob.id}>** play on" in question.text
    await click(env, carol, question, f"war:ff:{match_id}:yes")
    assert question.text == f"🏳️ You gave up your War game (<#{thread.id}>): the others play on."
    await settled(env, match_id)
    table = table_of(env, thread)
    assert f"🚫 **<@{carol.id}>** is out: gave up." in table.text and "(out)" in table.text
    assert (await service(env).get_match(match_id)).status == "active"
    ix = await slash(env, carol, "war forfeit")
    assert ix.message.text == ("You're out of this game already, so there's nothing to give up; the others play "
                                  "on without you.")
    assert "seat" not in ix.message.text and not ix.message.buttons
    ix = await slash(env, carol, "war status")
    assert ix.response.ephemeral and "You're out of this game; the others play on." in ix.message.text
    await click(env, carol, table, f"war:t:{match_id}:0:flip")
    assert env.ephemerals(carol)[-1].text.startswith("You're out of this game already, so there's nothing to flip")


async def test_status_shows_your_game_privately(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    ix = await slash(env, alice, "war status")
    assert ix.response.ephemeral and ix.message.text == NOT_IN_A_GAME
    ix = await slash(env, alice, "war challenge", opponent=bob, variant="drunkard", pace="flip")
    opening = ix.message
    match_id = match_id_of(opening)
    await stored(env, match_id)
    link = f"https://discord.com/channels/{env.guild.id}/{env.channel().id}/{opening.id}"
    ix = await slash(env, alice, "war status")
    assert ix.response.ephemeral
    assert f"Your Drunkard challenge to **<@{bob.id}>** is waiting for an answer. It expires <t:" in ix.message.text
    assert f"Withdraw it on {link}." in ix.message.text
    ix = await slash(env, bob, "war status")
    assert f"**<@{alice.id}>** challenged you to Drunkard." in ix.message.text and "Accept or decline" in \
        ix.message.text
    await click(env, bob, opening, f"war:c:{match_id}:accept")
    thread = await env.wait_for(lambda: opening.thread)
    table = await env.wait_for(lambda: table_of(env, thread))
    await click(env, alice, table, f"war:t:{match_id}:0:flip")
    await click(env, bob, table, f"war:t:{match_id}:0:vote:auto")
    await settled(env, match_id)
    match = await service(env).get_match(match_id)
    ix = await slash(env, alice, "war status")
    text = ix.message.text
    assert ix.response.ephemeral and not ix.message.buttons
    assert "**Your Drunkard game** · 2 players · pace: Flip · nothing played yet" in text
    assert f"Cards: <@{alice.id}> **17** · <@{bob.id}> **18**" in text
    assert f"Round 1: still to press **Flip**: **<@{bob.id}>**, due <t:{int(match.deadline_at)}:R>." in text
    assert f"Votes to speed up (every player still in must agree): Auto 1/2 (<@{bob.id}>)" in text
    table_link = f"https://discord.com/channels/{env.guild.id}/{thread.id}/{table.id}"
    assert text.endswith(f"The game: <#{thread.id}> · {table_link}")
    assert not [m for m in env.messages(thread) if "Your Drunkard game" in m.text]  # nothing in public


async def test_lobby_edge_cases_are_answered(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")
    # a two-player variant: full with two, Start only then
    ix = await slash(env, alice, "war lobby", variant="todundleben")
    message = ix.message
    match_id = match_id_of(message)
    await stored(env, match_id)
    start_button = next(b for b in message.buttons if b["custom_id"].endswith(":start"))
    assert start_button.get("disabled")  # one player can't start
    ix = await slash(env, alice, "war status")
    assert "**Your Tod und Leben lobby** is open (1/2 players: **<@" in ix.message.text
    ix = await slash(env, alice, "war forfeit")
    assert "lobby hasn't started yet" in ix.message.text and "Cancel it" in ix.message.text
    await click(env, alice, message, f"war:l:{match_id}:leave")
    assert env.ephemerals(alice)[-1].text == "You're the host: use Cancel to close the lobby."
    await click(env, bob, message, f"war:l:{match_id}:join")
    await env.wait_for(lambda: "Players (2/2)" in message.text)
    join = next(b for b in message.buttons if b["custom_id"].endswith(":join"))
    assert join.get("disabled")  # full
    ix = await slash(env, bob, "war status")
    assert f"You're in **<@{alice.id}>**'s Tod und Leben lobby (2/2 players" in ix.message.text
    await click(env, alice, message, f"war:l:{match_id}:cancel")
    await env.wait_for(lambda: "closed the lobby" in message.text and not message.buttons)
    # rules that need more players than have joined: Start says who can play them
    ix = await slash(env, bob, "war lobby", rules="target=20")
    message = ix.message
    match_id = match_id_of(message)
    await stored(env, match_id)
    await click(env, carol, message, f"war:l:{match_id}:join")
    await env.wait_for(lambda: "Players (2/4)" in message.text)
    await click(env, bob, message, f"war:l:{match_id}:start")
    refusal = env.ephemerals(bob)[-1].text
    assert "can't be played by 2 players" in refusal and "by 3 or 4 players" in refusal
    assert (await service(env).get_match(match_id)).status == "challenge" and message.buttons
