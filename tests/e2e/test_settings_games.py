"""The server's settings as War (and its variants) and Army obey them, end to end through `/settings` and the games'
own commands: a game refused in a channel where matches may not start (allowed in a listed channel and its
threads), a game played in the channel itself when thread per match is off, the server's default rules used when the
command gives none (the command's own options win), War's default pace, and the server's timer for turns."""

from __future__ import annotations

from typing import Any

import pytest

from bot.services.settings import SettingsService
from tests.e2e import test_army as army
from tests.e2e import test_war as war
from tests.e2e.test_airwar import version_texts
from tests.localdiscord import Env, Message, User

pytestmark = pytest.mark.e2e


def refused_here(env: Env, where, allowed) -> str:
    return f"Matches can't be started in <#{where.id}> on this server; start one in <#{allowed.id}>."


async def configure(env: Env, command: str, **options: Any) -> None:
    ix = await war.slash(env, env.owner, f"settings {command}", **options)
    assert ix.response.ephemeral and ix.message.text.startswith("Saved."), ix.message.text


def opened_in(env: Env, where) -> list[Message]:
    """The bot's public messages in ``where`` (challenges, lobbies, tables, results)."""
    return [m for m in env.messages(where) if m.author is env.bot_user]


async def no_open_match(service, *users: User) -> None:
    for user in users:
        for game in service.games:
            assert await service.find_match(user.id, game) is None, (user.name, game)


# --- War ----------------------------------------------------------------------------------------------------------


async def test_war_refused_outside_the_start_channels_and_allowed_in_them_and_their_threads(make_env, tmp_path):
    env = await war.start(make_env, tmp_path)
    alice, bob, carol, dave = (env.user(name) for name in ("alice", "bob", "carol", "dave"))
    general, games = env.channel(), env.channel("games")
    await configure(env, "channels", action="add", channel=games)

    for command, options in (("war challenge", {"opponent": bob}), ("war lobby", {}),
                             ("war challenge", {"opponent": bob, "variant": "drunkard", "pace": "flip"})):
        ix = await war.slash(env, alice, command, **options)
        assert ix.response.ephemeral and ix.message.text == refused_here(env, general, games), command
    assert opened_in(env, general) == [] and opened_in(env, games) == []
    await no_open_match(war.service(env), alice, bob)

    # a listed channel: the challenge is posted and played in a thread of its own
    ix = await war.slash(env, alice, "war challenge", opponent=bob, pace="instant")
    assert ix.response.ephemeral  # still #general
    ix = await env.slash(alice, "war challenge", opponent=bob, pace="instant", where=games)
    await ix.wait_response()
    assert not ix.response.ephemeral and ix.message.channel is games
    match_id = war.match_id_of(ix.message)
    await war.stored(env, match_id)
    await war.click(env, bob, ix.message, f"war:c:{match_id}:accept")
    thread = await env.wait_for(lambda: ix.message.thread, message="no thread for the game")
    await env.wait_for(lambda: war.results(env, thread) or None)
    await war.settled(env, match_id)

    # a thread of a listed channel is allowed too; one of another channel is not
    side = env.world.add_thread(games, "side talk", owner=carol)
    ix = await env.slash(carol, "war lobby", pace="instant", where=side)
    await ix.wait_response()
    assert not ix.response.ephemeral and "lobby" in war.title(ix.message)
    assert (await war.service(env).get_match(war.match_id_of(ix.message))).channel_id == side.id
    other = env.world.add_thread(general, "elsewhere", owner=dave)
    ix = await env.slash(dave, "war lobby", where=other)
    await ix.wait_response()
    assert ix.response.ephemeral and ix.message.text == refused_here(env, other, games)
    await no_open_match(war.service(env), dave)


async def test_war_with_threads_off_plays_in_the_channel(make_env, tmp_path):
    env = await war.start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()
    await configure(env, "threads", enabled=False)

    ix = await war.slash(env, alice, "war challenge", opponent=bob, pace="instant", **war.SMALL)
    opening = ix.message
    match_id = war.match_id_of(opening)
    await war.stored(env, match_id)
    await war.click(env, bob, opening, f"war:c:{match_id}:accept")
    await env.wait_for(lambda: war.results(env, channel) or None, message="no result")
    await war.settled(env, match_id)
    assert not env.threads and opening.thread is None
    assert any("it is played right here" in text for text in version_texts(opening))
    assert war.table_of(env, channel) is not None and len(war.results(env, channel)) == 1
    assert f"/{channel.id}/{war.results(env, channel)[0].id})" in opening.text  # then it links the result
    match = await war.service(env).get_match(match_id)
    assert match.status == "finished" and match.thread_id is None and match.play_channel_id == channel.id

    # a lobby too
    carol = env.user("carol")
    match_id, _ = await open_and_start_lobby(env, [carol, alice], pace="instant", **war.SMALL)
    await env.wait_for(lambda: len(war.results(env, channel)) == 2, message="no lobby result")
    await war.settled(env, match_id)
    assert not env.threads and (await war.service(env).get_match(match_id)).thread_id is None


async def open_and_start_lobby(env: Env, players: list[User], **options: Any) -> tuple[int, Message]:
    ix = await war.slash(env, players[0], "war lobby", **options)
    message = ix.message
    match_id = war.match_id_of(message)
    await war.stored(env, match_id)
    for user in players[1:]:
        await war.click(env, user, message, f"war:l:{match_id}:join")
    await env.wait_for(lambda: f"Players ({len(players)}/" in message.text)
    await war.click(env, players[0], message, f"war:l:{match_id}:start")
    return match_id, message


async def test_war_uses_the_servers_default_rules_pace_and_timer(make_env, tmp_path):
    env = await war.start(make_env, tmp_path)
    alice, bob, carol, dave = (env.user(name) for name in ("alice", "bob", "carol", "dave"))
    service = war.service(env)
    guild = env.guild.id

    # nothing set: the server's stored War pace is what a game without a pace gets
    unset = (await SettingsService(env.bot.db).get(guild)).war_pace
    ix = await war.slash(env, alice, "war challenge", opponent=bob)
    match = await service.get_match(war.match_id_of(ix.message))
    assert match.options["pace"] == unset and f"pace: {unset}" in ix.message.text
    await war.stored(env, match.id)
    await war.click(env, alice, ix.message, f"war:c:{match.id}:withdraw")
    await war.settled(env, match.id)

    await configure(env, "rules", game="war", rules="pack=32 aces=low max_rounds=12")
    await configure(env, "rules", game="drunkard", rules="max_rounds=7")
    await configure(env, "warpace", pace="instant")
    await configure(env, "timer", seconds=45)

    # no options: every default of the server, shown on the challenge and stored
    ix = await war.slash(env, alice, "war challenge", opponent=bob)
    match = await service.get_match(war.match_id_of(ix.message))
    assert (match.rules["pack"], match.rules["aces"], match.rules["max_rounds"]) == (32, "low", 12)
    assert match.options["pace"] == "instant"
    assert "Rules: aces low · 32-card pack · at most 12 rounds · pace: instant" in ix.message.text
    await war.stored(env, match.id)
    await war.click(env, bob, ix.message, f"war:c:{match.id}:accept")
    thread = await env.wait_for(lambda: ix.message.thread, message="no thread for the game")
    await war.assert_result(env, match.id, thread, [alice, bob], "war", {"pack": 32, "aces": "low", "max_rounds": 12})

    # the command's own options win; the other defaults stay; the flip-pace turn timer is the server's
    ix = await war.slash(env, carol, "war challenge", opponent=dave, rules="pack=36", pace="flip")
    match = await service.get_match(war.match_id_of(ix.message))
    assert (match.rules["pack"], match.rules["aces"], match.rules["max_rounds"]) == (36, "low", 12)
    assert match.options["pace"] == "flip" and "pace: flip" in ix.message.text
    await war.stored(env, match.id)
    await war.click(env, dave, ix.message, f"war:c:{match.id}:accept")
    await env.wait_for(lambda: ix.message.thread, message="no thread for the game")
    await war.settled(env, match.id)
    match = await service.get_match(match.id)
    assert match.arrange_seconds == 45 and match.deadline_kind == "turn"
    assert match.deadline_at == pytest.approx(match.started_at + 45)

    # a variant has its own defaults (War's are not Drunkard's); a lobby uses them as well
    erin, fay = env.user("erin"), env.user("fay")
    ix = await war.slash(env, erin, "war lobby", variant="drunkard")
    match = await service.get_match(war.match_id_of(ix.message))
    assert match.game == "drunkard" and match.options["pace"] == "instant"
    assert (match.rules["pack"], match.rules["aces"], match.rules["max_rounds"]) == (36, "high", 7)
    assert "Rules: at most 7 rounds · pace: instant" in ix.message.text
    await war.stored(env, match.id)
    await war.click(env, erin, ix.message, f"war:l:{match.id}:cancel")
    await war.settled(env, match.id)

    # defaults the command's options can't be played with: refused, naming the server's defaults
    await configure(env, "rules", game="war", rules="target=20")
    ix = await war.slash(env, fay, "war challenge", opponent=erin)
    assert ix.response.ephemeral
    assert ix.message.text.startswith("Those rules can't be played:")
    assert "This server's default rules for War were added: target=20" in ix.message.text
    await no_open_match(service, fay, erin)
    ix = await war.slash(env, fay, "war challenge", opponent=erin, rules="target=40")  # its own target wins
    assert not ix.response.ephemeral
    assert (await service.get_match(war.match_id_of(ix.message))).rules["target"] == 40


# --- Army ---------------------------------------------------------------------------------------------------------


async def test_army_refused_outside_the_start_channels_and_allowed_in_them(make_env, tmp_path):
    env = await army.start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    general, games = env.channel(), env.channel("games")
    await configure(env, "channels", action="add", channel=games)

    ix = await army.slash(env, alice, "army challenge", opponent=bob)
    assert ix.response.ephemeral and ix.message.text == refused_here(env, general, games)
    assert opened_in(env, general) == [] and opened_in(env, games) == []
    await no_open_match(army.service(env), alice, bob)

    ix = await env.slash(alice, "army challenge", opponent=bob, where=games)
    await ix.wait_response()
    assert not ix.response.ephemeral and army.title(ix.message) == "Army challenge"
    assert ix.message.channel is games
    side = env.world.add_thread(games, "side talk", owner=env.user("carol"))
    ix = await env.slash(env.user("carol"), "army challenge", opponent=env.user("dave"), where=side)
    await ix.wait_response()
    assert not ix.response.ephemeral and army.title(ix.message) == "Army challenge"


async def test_army_with_threads_off_plays_in_the_channel(make_env, tmp_path):
    env = await army.start(make_env, tmp_path)
    alice, bob = env.user("alice"), env.user("bob")
    channel = env.channel()
    await configure(env, "threads", enabled=False)

    message = await army.challenge(env, alice, bob)
    match_id = army.match_id_of(message)
    await army.click(env, bob, message, label="Accept")
    await env.wait_for(lambda: army.round_message(env, channel, 1), message="no round message in the channel")
    assert "the match is on right here" in message.text
    assert army.dm_panel(env, alice, 1) is not None
    ix = await army.slash(env, alice, "army forfeit")
    await army.click(env, alice, ix.message, label="Forfeit")
    await env.wait_for(lambda: army.results(env, channel) or None, message="no result")
    await army.settled(env, match_id)
    assert not env.threads and message.thread is None and len(army.results(env, channel)) == 1
    match = await army.service(env).get_match(match_id)
    assert match.thread_id is None and match.play_channel_id == channel.id and match.reason == "forfeit"


async def test_army_uses_the_servers_default_rules_and_timer(make_env, tmp_path):
    env = await army.start(make_env, tmp_path)
    alice, bob, carol, dave = (env.user(name) for name in ("alice", "bob", "carol", "dave"))
    await configure(env, "rules", game="army", rules="max_rounds=40")
    await configure(env, "timer", seconds=45)

    message = await army.challenge(env, alice, bob)
    match = await army.service(env).get_match(army.match_id_of(message))
    assert match.rules["max_rounds"] == 40 and "round limit 40" in message.text
    await army.accept(env, bob, message)
    await army.settled(env, match.id)
    match = await army.service(env).get_match(match.id)
    turn = next(q.event for q in await army.service(env).outbox.events(match.id) if q.type == "turn")
    assert turn["seconds"] == 45 and match.deadline_at == pytest.approx(match.started_at + 45)

    other = await army.challenge(env, carol, dave, rounds=12, timer=60)  # its own options win
    match = await army.service(env).get_match(army.match_id_of(other))
    assert match.rules["max_rounds"] == 12 and "round limit 12" in other.text and match.arrange_seconds == 60
