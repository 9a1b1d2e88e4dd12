"""Playing anywhere: the app installed to users, its games played where the bot is no member (a group DM, a server
that did not add it, the DM with the bot), through the local Discord's model of user installs.

There the bot can only answer interactions: a match is one message, the answer to the challenge, edited with each
click's token; panels open privately from its button; server-only features refuse; a match whose tokens run out
pauses and resumes on the next click.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from tests.e2e.test_airwar import (
    SEED,
    TITLE,
    Played,
    appeared_at,
    board,
    click,
    contains,
    every_version,
    flip_lines,
    lock_in,
    match_id_of,
    panel_in,
    reference,
    reverse,
    settled,
    stack_of,
    versions,
    weave,
)
from tests.e2e.test_localdiscord_commands import call, refused_at
from tests.e2e.test_stats import replayed
from tests.localdiscord import Env, Message, User
from tests.localdiscord.airwar import airwar_bot_factory
from tests.records import match_results

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


def user_app_bot(database: Path, *, real_pace: bool = False, **options: Any):
    """The real bot with its commands synced globally (what a user install sees), the local Discord's clock, timers
    that look at it every 20 ms and flips that do not wait (``real_pace``: they do)."""

    def factory(env: Env):
        async def no_wait(seconds: float) -> None:
            await asyncio.sleep(seconds if real_pace else 0)

        async def timer_sleep(seconds: float) -> None:
            await asyncio.sleep(min(seconds, 0.02))

        return airwar_bot_factory(database, global_commands=True, clock=env.clock.time, seed_source=lambda: SEED,
                                  timer_sleep=timer_sleep, pace_sleep=no_wait, **options)(env)

    return factory


async def start(make_env, tmp_path: Path) -> Env:
    env = await make_env(user_app_bot(tmp_path / "airwar.db"))
    env.rate_limit("edits", limit=10_000, per=1.0)
    env.rate_limit("messages", limit=10_000, per=1.0)
    return env


def outsiders(env: Env, *names: str) -> list[User]:
    """Users who share no server with the bot and installed the app to themselves."""
    users = [env.user(name, member=False) for name in names]
    env.install(*users)
    return users


async def slash(env: Env, user: User, command: str, where, **options: Any):
    ix = await env.slash(user, command, where=where, **options)
    await ix.wait_response()
    return ix


def ephemeral_panel(env: Env, user: User, number: int) -> Message | None:
    return panel_in(env.ephemerals(user), number)


async def open_panel(env: Env, user: User, table: Message, number: int) -> Message:
    """The player's panel of engagement ``number``, opened privately from the table's Arrange button."""
    await env.wait_for(lambda: board(env, table.channel, number) is table and table.buttons, timeout=10,
                       message=f"the table never showed engagement {number} with its button")
    ix = await click(env, user, table, label="Arrange")
    assert ix.response.ephemeral
    return await env.wait_for(lambda: ephemeral_panel(env, user, number))


async def play_on_table(env: Env, players: list[User], table: Message, *, first: int = 1,
                        until: int | None = None) -> Played:
    """Engagements from ``first`` on through the panels opened from the table, until the table shows the result (or
    engagement ``until`` is locked in)."""
    played = Played()
    number = first
    while True:
        def next_step(n: int = number):
            if "wins" in table.title or "draw" in table.title:
                return "over"
            return board(env, table.channel, n) is table and table.buttons and "arranging" in table.text

        if await env.wait_for(next_step, timeout=20, message=f"engagement {number} never came") == "over":
            return played
        orders = []
        for user, policy in zip(players, (reverse, weave), strict=True):
            panel = await open_panel(env, user, table, number)
            order = policy(stack_of(panel))
            await lock_in(env, user, panel, order)
            orders.append(order)
        played.orders[number] = orders
        played.engagements = number
        if until is not None and number >= until:
            return played
        number += 1


def flips_on_table(table: Message, number: int) -> dict[int, float]:
    """When each flip of engagement ``number`` first showed on the match's one message."""
    shown_at: dict[int, float] = {}
    for version in versions(table):
        if version.title == f"{TITLE} — engagement {number}: flips":
            for k in range(1, flip_lines(version.text) + 1):
                shown_at.setdefault(k, appeared_at(version))
    return shown_at


def assert_no_order_leaked_on_table(env: Env, table: Message, orders: dict[int, list[list[str]]],
                                    players: list[User]) -> int:
    """No version of any message anyone but the player could see named two or more of the player's not yet flipped
    cards in their locked order before the table showed those flips (the one-message form of
    :func:`tests.e2e.test_airwar.assert_no_order_leaked`). Returns how many versions were checked."""
    _, events = reference(orders)
    seen = every_version(env)
    for number, seat_orders in orders.items():
        flips = [e for e in events if e["type"] == "flip" and e["engagement"] == number]
        shown_at = flips_on_table(table, number)
        assert shown_at, f"engagement {number}: the table never showed its flips"
        for seat, player in enumerate(players):
            for version in seen:
                if version.audience == player.name:
                    continue
                public = sum(1 for k in shown_at if shown_at[k] <= version.at)
                flipped = {f["cards"][seat] for f in flips[:public] if f["sources"][seat] == "stack"}
                hidden = [card for card in seat_orders[seat] if card not in flipped]
                if len(hidden) >= 2:
                    assert not any(contains(run, hidden) for run in version.runs), (
                        f"engagement {number}: {player.name}'s order {hidden} shown to {version.audience}: "
                        f"{version.text[:400]}")
    return len(seen)


async def test_two_friends_play_a_whole_air_war_match_in_a_group_dm(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = outsiders(env, "alice", "bob")
    group = env.group_dm("friends", alice, bob)

    ix = await slash(env, alice, "airwar challenge", group, opponent=bob)
    table = ix.message
    assert not ix.response.ephemeral and table.channel is group
    assert ix.context == 2 and ix.owners == {"1": str(alice.id)}  # a group DM, through alice's own install
    match_id = match_id_of(table)
    assert [b["label"] for b in table.buttons] == ["Accept", "Decline", "Withdraw"]
    await click(env, bob, table, label="Accept")

    played = await play_on_table(env, [alice, bob], table)
    match = await env.bot.matches.get_match(match_id)
    assert match.status == "finished" and match.guild_id == group.id
    game, _ = reference(played.orders)
    assert match.result["winner"] == game.outcome.winner and played.engagements == game.engagement
    winner = "It's a draw" if game.outcome.winner is None else f"**<@{(alice, bob)[game.outcome.winner].id}>** wins!"
    await env.wait_for(lambda: winner in table.text, message="the table never showed the result")
    await settled(env, match_id)

    # one message in the group DM for the whole match; panels were private; the flips edited the table
    assert env.messages(group) == [table]
    assert all(m.ephemeral_to in (alice, bob) for m in env.ephemerals(alice) + env.ephemerals(bob))
    assert env.messages(env.dm(alice)) == [] and env.messages(env.dm(bob)) == []  # no DM panels
    flips = [version for version in table.history if ": flips" in version.text]
    assert len(flips) > played.engagements
    # the bot never posted, read or made a thread in the group DM, and never used an expired token
    refused = [r for r in env.requests if r.template in ("/channels/{channel_id}/messages",
                                                         "/channels/{channel_id}/threads")
               and r.method in ("POST", "GET") and str(group.id) in r.path]
    assert refused == []
    assert not env.take_problems("expired_interaction_token")
    # the leak check: no order was shown to the other player before its flips
    assert assert_no_order_leaked_on_table(env, table, played.orders, [alice, bob]) > 50

    # the result counts in the group DM's place; the export replays it
    rows = await match_results(env.bot.matches.db, match_id)
    assert sorted(r.user_id for r in rows) == sorted([alice.id, bob.id])
    ix = await slash(env, bob, "history", group, player=alice)
    export = await click(env, bob, ix.message, label="Export 1")
    [attachment] = env.ephemerals(bob)[-1].attachments
    assert export.response.ephemeral and attachment.filename == f"match-{match_id}.json"
    last = await replayed(tmp_path, attachment)
    assert (last["winner"], last["reason"]) == (match.result["winner"], match.result["reason"])
    assert json.loads(attachment.data)["game"] == "airwar"


async def test_every_synced_command_declares_its_installs_and_contexts(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    assert env.guild_commands == [] and len(env.global_commands) >= 10
    for command in env.global_commands:
        assert command["integration_types"] == [0, 1], command["name"]
        assert command["contexts"] == [0, 1, 2], command["name"]
    # the local Discord refuses a global command that leaves either out, and a user install the app does not enable
    bare = {"type": 1, "name": "bare", "description": "a command"}
    status, body = await call(env, "PUT", "/commands", [bare])
    assert refused_at(status, body, "0", "integration_types"), body
    status, body = await call(env, "PUT", "/commands", [{**bare, "integration_types": [0, 1]}])
    assert refused_at(status, body, "0", "contexts"), body
    env.world.enabled_installs = frozenset({0})
    status, body = await call(env, "POST", "/commands", {**bare, "integration_types": [0, 1], "contexts": [0]})
    assert refused_at(status, body, "integration_types"), body
    # a guild's commands need neither (Discord ignores them there)
    status, _ = await call(env, "PUT", f"/guilds/{env.guild.id}/commands", [bare])
    assert status == 200
    assert len(env.global_commands) >= 10  # (the refused bodies changed nothing)


async def test_server_only_features_are_refused_where_the_bot_is_no_member(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = outsiders(env, "alice", "bob")
    elsewhere = env.add_guild("Elsewhere", with_bot=False)
    owner = env.world.users_by_name["owner of Elsewhere"]
    env.install(owner)
    env.join(alice, elsewhere)
    general = env.channel(guild=elsewhere)
    group = env.group_dm("friends", alice, bob)

    refusals = [
        await slash(env, owner, "settings show", general),
        await slash(env, alice, "tournament create", group, name="Friday", game="Air War", format="swiss"),
        await slash(env, alice, "tournament status", general),
        await slash(env, alice, "season list", group),
        await slash(env, alice, "casinowar table", group),
        await slash(env, alice, "leaderboard", general),
        await slash(env, alice, "privacy delete", group),
    ]
    for ix in refusals:
        assert ix.response.ephemeral, ix.describe()
        assert "works only in a server that added me" in ix.message.text, ix.message.text
        assert "`/airwar challenge`" in ix.message.text
    assert env.messages(general) == [] and env.messages(group) == []
    assert not env.bot.guilds or all(g.id != elsewhere.id for g in env.bot.guilds)
    # a challenge to someone who can't see the group DM, or to someone else in a DM with the bot
    carol = env.user("carol", member=False)
    ix = await slash(env, alice, "airwar challenge", group, opponent=carol)
    assert ix.response.ephemeral and ix.message.text == f"<@{carol.id}> isn't in this group DM; challenge someone " \
                                                        "who is."
    ix = await slash(env, alice, "airwar challenge", env.dm(alice), opponent=bob)
    assert ix.response.ephemeral and ix.message.text.startswith("Only you and I are in this DM: challenge me")
    # a lobby (anyone may join it) needs a server that added the bot too
    ix = await slash(env, alice, "war lobby", group)
    assert ix.response.ephemeral
    assert ix.message.text == "A War lobby works only in a server that added me. Here, challenge one player with " \
                              "`challenge`."
    assert await env.bot.get_cog("War").service.open_matches() == []


async def test_a_server_that_refuses_external_apps_gets_the_plain_explanation(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = outsiders(env, "alice", "bob")
    strict = env.add_guild("Strict", with_bot=False, external_apps=False)
    for user in (alice, bob):
        env.join(user, strict)
    ix = await slash(env, alice, "airwar challenge", env.channel(guild=strict), opponent=bob)
    # Discord turns the answer ephemeral there; the bot says why and how to play instead
    assert ix.response.ephemeral
    assert "does not let members use external apps" in ix.message.text
    assert "Play in a DM or a group DM" in ix.message.text
    assert env.messages(env.channel(guild=strict)) == []
    assert await env.bot.matches.open_matches() == []


def server_without_the_bot(env: Env, *players: User):
    """A server that never added the bot, the players its members with the app installed to themselves."""
    server = env.add_guild("No Bot Here", with_bot=False)
    for player in players:
        env.join(player, server)
    env.install(*players)
    return env.channel(guild=server)


async def test_war_at_auto_pace_in_a_server_where_only_the_players_installed_the_app(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = env.user("alice", member=False), env.user("bob", member=False)
    channel = server_without_the_bot(env, alice, bob)

    # War at auto pace: the table plays itself out, every round an edit of the one message, through bob's click
    ix = await slash(env, alice, "war challenge", channel, opponent=bob, pace="auto", rules="pack=32 max_rounds=12")
    table = ix.message
    war_id = int(table.buttons[0]["custom_id"].split(":")[2])
    await click(env, bob, table, label="Accept")
    war = env.bot.get_cog("War").service
    await env.wait_for(lambda: " wins" in table.title or table.title.endswith("draw"), timeout=20,
                       message="the War table never showed the result")
    await settled_in(war, war_id)
    expected = war_reference({"pack": 32, "max_rounds": 12})
    match = await war.get_match(war_id)
    assert match.status == "finished" and match.guild_id == channel.guild.id
    assert match.result["winner"] == expected.outcome.winner and match.step == expected.stats.rounds
    assert f"Rounds: {expected.stats.rounds} · wars: {expected.stats.wars}" in table.text
    rounds_shown = {version.title for version in versions(table) if " — round " in version.title}
    assert len(rounds_shown) >= 3  # the rounds went by on the table, edit after edit
    assert table.attachments and table.attachments[0].content_type == "image/png"  # the result's chart
    assert env.messages(channel) == [table]
    assert not [r for r in env.requests if r.method == "POST" and r.template == "/channels/{channel_id}/messages"]


async def test_speed_war_in_a_server_where_only_the_players_installed_the_app(make_env, tmp_path):
    env = await make_env(user_app_bot(tmp_path / "speedwar.db", real_pace=True))
    env.rate_limit("edits", limit=10_000, per=1.0)
    alice, bob = env.user("alice", member=False), env.user("bob", member=False)
    channel = server_without_the_bot(env, alice, bob)
    ix = await slash(env, alice, "speedwar challenge", channel, opponent=bob, rounds=3)
    board_message = ix.message
    speed_id = int(board_message.buttons[0]["custom_id"].split(":")[2])
    speed = env.bot.get_cog("SpeedWar").service
    await click(env, bob, board_message, label="Accept")
    for number in range(1, 4):
        await env.wait_for(lambda n=number: f"round {n}" in board_message.title and board_message.buttons,
                           timeout=10, message=f"no round {number}")
        view = await speed.view(speed_id)
        right = speed_right(view["cards"])
        ids = {b["custom_id"].rsplit(":", 1)[1]: b["custom_id"] for b in board_message.buttons}
        press = await env.click(alice, board_message, custom_id=ids[right])
        await press.wait_response()
    await env.wait_for(lambda: " wins" in board_message.title or board_message.title.endswith("draw"), timeout=10,
                       message="the Speed War message never showed the result")
    match = await speed.get_match(speed_id)
    assert match.status == "finished" and match.result["winner"] == 0  # alice pressed right every round
    assert env.messages(channel) == [board_message]
    assert not [r for r in env.requests if r.method == "POST" and r.template == "/channels/{channel_id}/messages"]


async def settled_in(service: Any, match_id: int) -> None:
    for _ in range(500):
        if not await service.outbox.unshown_events(match_id):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"match {match_id} still has events to show")


def war_reference(rules: dict[str, Any]):
    from bot.registry import game_class

    cls = game_class("war")
    engine = cls.new(cls.resolve_rules({**rules, "players": 2}), seed=SEED)
    engine.play_out()
    return engine


def speed_right(cards: list[str]) -> str:
    from bot.cards import strength_table

    strength = strength_table(aces_high=True)
    first, second = strength[cards[0]], strength[cards[1]]
    return "tie" if first == second else ("0" if first > second else "1")


async def test_army_against_the_bot_in_a_dm_with_the_bot(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    [alice] = outsiders(env, "alice")
    dm = env.dm(alice)
    ix = await slash(env, alice, "army challenge", dm, opponent=env.bot_user, rounds=4, level="easy")
    table = ix.message
    assert not ix.response.ephemeral and table.channel is dm
    army = env.bot.get_cog("Army").service
    match_id = int(table.buttons[0]["custom_id"].split(":")[2])

    def opener(step: int) -> str | None:
        return next((b["custom_id"] for b in table.buttons if b["custom_id"].endswith(f":open:{match_id}:{step}")),
                    None)

    step = 1
    while True:
        shown = await env.wait_for(lambda s=step: (("wins" in table.title or "draw" in table.title) and "over")
                                   or opener(s), timeout=20, message=f"no Army step {step}")
        if shown == "over":
            break
        await (await env.click(alice, table, custom_id=shown)).wait_response()
        panel = env.ephemerals(alice)[-1]
        ids = [b["custom_id"] for b in panel.buttons]
        keys = ["dealt", "confirm"] if step == 1 else [next(i for i in ids if ":play:" in i).split(":", 4)[4]]
        for key in keys:
            chosen = next(b["custom_id"] for b in panel.buttons if b["custom_id"].endswith(f":{key}"))
            await (await env.click(alice, panel, custom_id=chosen)).wait_response()
        assert not panel.buttons
        step += 1
    await settled_in(army, match_id)
    match = await army.get_match(match_id)
    assert match.status == "finished" and match.guild_id == dm.id
    # the DM holds the match's one message (and the accuracy after it, a followup of the last click)
    assert env.messages(dm)[0] is table and all(m.webhook_id for m in env.messages(dm))
    assert not [r for r in env.requests if r.method == "POST" and r.template == "/channels/{channel_id}/messages"]
    # the bot kept the DM's newest token, not the interaction (its message and components), and forgets the DM once
    # that token is about to run out with no match shown there
    delivery = env.bot.interaction_delivery
    kept = delivery.fresh(dm.id)
    assert kept is not None and not isinstance(kept, discord.Interaction)
    assert not any(isinstance(value, discord.Interaction) for value in (getattr(kept, name) for name in kept.__slots__))
    assert delivery.serves(dm.id)
    env.clock.advance(14.2 * 60)
    await env.wait_for(lambda: not delivery.serves(dm.id), message="the DM's token was kept after its match")


async def group_match_at_engagement_2(make_env, tmp_path: Path, *, timer: int) -> tuple[Any, ...]:
    """Two players who installed the app play an Air War match in their group DM (arrangement ``timer``) through
    its first engagement: (env, alice, bob, the group DM, the match's one message, its id, what was played)."""
    env = await start(make_env, tmp_path)
    alice, bob = outsiders(env, "alice", "bob")
    group = env.group_dm("friends", alice, bob)
    ix = await slash(env, alice, "airwar challenge", group, opponent=bob, timer=timer)
    table = ix.message
    match_id = match_id_of(table)
    await click(env, bob, table, label="Accept")
    played = await play_on_table(env, [alice, bob], table, until=1)
    await env.wait_for(lambda: board(env, group, 2) is table and table.buttons, message="no engagement 2")
    await settled(env, match_id)
    return env, alice, bob, group, table, match_id, played


async def test_a_match_whose_tokens_run_out_pauses_and_resumes_with_the_deadline_applied(make_env, tmp_path):
    env, alice, bob, group, table, match_id, played = await group_match_at_engagement_2(make_env, tmp_path, timer=600)
    before = await env.bot.matches.get_match(match_id)
    assert before.step == 2 and before.deadline_at is not None

    # 14 minutes after the last click (its deadline passed too): the match pauses while the token can still say so
    env.clock.advance(14.2 * 60)
    assert env.clock.time() > before.deadline_at
    await env.wait_for(lambda: "Paused" in table.text and "Continue" in [b["label"] for b in table.buttons],
                       message="the table never said the match is paused")
    assert "Press **Continue** to go on; nothing is lost." in table.text
    assert (await env.bot.matches.get_match(match_id)).step == 2  # the deadline waits
    # every token runs out: nothing more is tried with them
    env.clock.advance(2 * 60)
    await asyncio.sleep(0.3)
    assert (await env.bot.matches.get_match(match_id)).step == 2 and "Paused" in table.text
    assert not env.take_problems("expired_interaction_token")

    # Continue: the pause line goes, the deadline that passed is applied (both stacks played as drawn), the match
    # goes on from engagement 3 and plays to its end
    resume = await env.click(bob, table, "Continue")
    assert (await resume.wait_response()).type == 6
    await env.wait_for(lambda: board(env, group, 3) is table and table.buttons and "Paused" not in table.text,
                       timeout=10, message="the match did not go on after Continue")
    events = [q.event for q in await env.bot.matches.outbox.events(match_id)]
    [timeout] = [e for e in events if e["type"] == "arrange_timeout"]
    assert timeout["engagement"] == 2 and timeout["seats"] == [0, 1]
    rest = await play_on_table(env, [alice, bob], table, first=3)
    match = await env.bot.matches.get_match(match_id)
    assert match.status == "finished" and rest.engagements >= 3 and played.orders[1]
    assert not env.take_problems("expired_interaction_token")


async def forfeit_match(env: Env, winner: User, loser: User, where) -> int:
    """A challenge from ``winner``, accepted, then forfeited by ``loser``; the match's id once its result is shown."""
    ix = await slash(env, winner, "airwar challenge", where, opponent=loser)
    match_id = match_id_of(ix.message)
    await click(env, loser, ix.message, label="Accept")
    await env.wait_for(lambda: board(env, ix.message.channel, 1) is not None or ix.message.thread,
                       message="the match never started")
    question = await slash(env, loser, "airwar forfeit", where)
    await click(env, loser, question.message, label="Forfeit")
    await settled(env, match_id)
    assert (await env.bot.matches.get_match(match_id)).status == "finished"
    return match_id


async def test_a_group_dm_has_its_own_board_and_stats_count_every_place(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob, carol = env.user("alice"), env.user("bob"), env.user("carol")
    env.install(alice, bob, carol)
    group = env.group_dm("friends", alice, bob, carol)
    for winner, loser in ((alice, bob), (carol, alice), (bob, carol), (alice, carol), (bob, alice)):
        await forfeit_match(env, winner, loser, group)  # each of them 3 games or more: ranked
    await forfeit_match(env, bob, alice, env.channel())  # in the server that added the bot

    # the group DM's board: its own three players, its own games only
    ix = await slash(env, carol, "leaderboard", group)
    assert not ix.response.ephemeral
    board_text = ix.message.text
    for player in (alice, bob, carol):
        assert f"<@{player.id}>" in board_text, board_text
    assert "1." in board_text and "3." in board_text
    # the server's board counts only what was played there: two players, one game each
    ix = await slash(env, alice, "leaderboard", env.channel())
    assert ix.message.text == ("No ranked players yet: play 3 games to be ranked.\n"
                               "2 players have played fewer than 3 games so far."), ix.message.text

    # /stats anywhere: the place's record, then every place the player played
    ix = await slash(env, alice, "stats", group)
    text = ix.message.text
    assert "**Everywhere:** 5 games in 2 places: 2 wins · 3 losses · 0 draws" in text, text
    assert "· here: 4 games (2W 2L 0D)" in text
    assert f"· {env.guild.name}: 1 game (0W 1L 0D)" in text
    ix = await slash(env, alice, "stats", env.channel())
    assert "**Everywhere:** 5 games in 2 places" in ix.message.text and "· here: 1 game (0W 1L 0D)" in ix.message.text
    # a player who played in one place only gets no such lines
    ix = await slash(env, carol, "stats", group)
    assert "Everywhere" not in ix.message.text


async def test_bundle_war_for_two_in_a_group_dm(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = outsiders(env, "alice", "bob")
    group = env.group_dm("friends", alice, bob)
    ix = await slash(env, alice, "bundlewar challenge", group, opponent=bob)
    table = ix.message
    assert not ix.response.ephemeral
    match_id = int(table.buttons[0]["custom_id"].split(":")[2])
    await click(env, bob, table, label="Accept")
    bundle = env.bot.get_cog("BundleWar").service
    opener = await env.wait_for(lambda: next((b for b in table.buttons if ":open:" in b["custom_id"]), None),
                                timeout=10, message="the Bundle War table never showed its button")
    opened = await env.click(alice, table, custom_id=opener["custom_id"])
    assert (await opened.wait_response()).ephemeral  # the panel, privately
    question = await slash(env, bob, "bundlewar forfeit", group)
    await click(env, bob, question.message, label="Yes, give up")
    await settled_in(bundle, match_id)
    match = await bundle.get_match(match_id)
    assert match.status == "finished" and match.result["winner"] == 0
    await env.wait_for(lambda: "wins" in table.title, message="the table never showed the result")
    assert env.messages(group) == [table]


async def raw(env: Env, method: str, path: str, body: object | None = None) -> tuple[int, Any]:
    """A request to the local Discord as the bot (its token), outside discord.py."""
    headers = {"Authorization": f"Bot {env.token}"}
    async with aiohttp.ClientSession() as session, session.request(
            method, f"{env.discord.api_base}{path}", json=body, headers=headers) as answer:
        return answer.status, (await answer.json() if answer.status != 204 else None)


async def test_the_local_discord_refuses_what_an_app_may_not_do_where_it_is_no_member(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = outsiders(env, "alice", "bob")
    group = env.group_dm("friends", alice, bob)
    elsewhere = server_without_the_bot(env, alice)
    # no message, no thread, no history where the bot is no member: 403 Missing Access
    for channel in (group, elsewhere):
        for method, path, body in (("POST", f"/channels/{channel.id}/messages", {"content": "hi"}),
                                   ("GET", f"/channels/{channel.id}/messages", None),
                                   ("POST", f"/channels/{channel.id}/threads", {"name": "t", "type": 11})):
            status, answer = await raw(env, method, path, body)
            assert (status, answer["code"]) == (403, 50001), (channel, method, path, answer)
    assert env.messages(group) == [] and env.messages(elsewhere) == []

    # the interaction tells where it came from and who installed the app
    ix = await slash(env, alice, "rules", group, game="Air War")
    assert ix.context == 2 and ix.owners == {"1": str(alice.id)}
    in_dm = await slash(env, alice, "rules", env.dm(alice), game="Air War")
    assert in_dm.context == 1 and in_dm.owners == {"0": "0", "1": str(alice.id)}
    in_server = await slash(env, alice, "rules", elsewhere, game="Air War")
    assert in_server.context == 0 and in_server.owners == {"1": str(alice.id)}

    # at most 5 followups per interaction where the app is no member; none is refused in its own server
    hook = f"/webhooks/{env.application_id}/{ix.token}"
    for number in range(5):
        status, _ = await raw(env, "POST", f"{hook}?wait=true", {"content": f"followup {number}"})
        assert status == 200
    status, answer = await raw(env, "POST", f"{hook}?wait=true", {"content": "one too many"})
    assert (status, answer["code"]) == (400, 40094)
    home = await slash(env, env.user("carol"), "rules", env.channel(), game="Air War")
    for number in range(6):
        status, _ = await raw(env, "POST", f"/webhooks/{env.application_id}/{home.token}?wait=true",
                              {"content": f"followup {number}"})
        assert status == 200

    # a token lives 15 minutes: 401 after
    env.clock.advance(15 * 60 + 1)
    status, answer = await raw(env, "PATCH", f"{hook}/messages/@original", {"content": "late"})
    assert (status, answer["code"]) == (401, 50027)
    assert env.take_problems("expired_interaction_token")

    # a server that refuses external apps: every answer is ephemeral, even one the bot makes public
    strict = env.add_guild("Strict", with_bot=False, external_apps=False)
    env.join(alice, strict)
    shared = await slash(env, alice, "stats", env.channel(guild=strict), share=True)
    assert shared.response.ephemeral and shared.message.ephemeral_to is alice


async def test_a_match_whose_tokens_all_ran_out_at_once_resumes_on_any_click(make_env, tmp_path):
    env, alice, _, group, table, match_id, _ = await group_match_at_engagement_2(make_env, tmp_path, timer=300)

    # the clock jumps past every token's end (the bot was busy, or away): nothing is tried with an expired token
    env.clock.advance(16 * 60)
    await asyncio.sleep(0.3)
    assert (await env.bot.matches.get_match(match_id)).step == 2
    assert board(env, group, 2) is table and "Paused" not in table.text  # too late to say so
    # any click on the match resumes it: the deadline that passed is applied, the match goes on
    await (await env.click(alice, table, "Arrange")).wait_response()
    await env.wait_for(lambda: board(env, group, 3) is table and table.buttons, timeout=10,
                       message="the match did not go on after the click")
    assert not env.take_problems("expired_interaction_token")


async def test_a_restart_mid_match_goes_on_with_the_next_click(make_env, tmp_path):
    factory = user_app_bot(tmp_path / "airwar.db")
    env = await make_env(factory)
    env.rate_limit("edits", limit=10_000, per=1.0)
    alice, bob = outsiders(env, "alice", "bob")
    group = env.group_dm("friends", alice, bob)
    ix = await slash(env, alice, "airwar challenge", group, opponent=bob)
    table = ix.message
    match_id = match_id_of(table)
    await click(env, bob, table, label="Accept")
    await play_on_table(env, [alice, bob], table, until=1)
    await env.wait_for(lambda: board(env, group, 2) is table and table.buttons, message="no engagement 2")
    await settled(env, match_id)

    await env.bot.close()
    await env._bot_task
    await env.start_bot(factory(env))  # a new process: it knows no token of the group DM
    rest = await play_on_table(env, [alice, bob], table, first=2)
    match = await env.bot.matches.get_match(match_id)
    assert match.status == "finished" and rest.engagements >= 2
    assert env.messages(group) == [table]
    assert not env.take_problems("expired_interaction_token")


async def test_war_at_flip_pace_in_a_group_dm_flips_by_the_tables_button(make_env, tmp_path):
    env = await start(make_env, tmp_path)
    alice, bob = outsiders(env, "alice", "bob")
    group = env.group_dm("friends", alice, bob)
    ix = await slash(env, alice, "war challenge", group, opponent=bob, pace="flip", rules="pack=32 max_rounds=12")
    table = ix.message
    war_id = int(table.buttons[0]["custom_id"].split(":")[2])
    await click(env, bob, table, label="Accept")
    war = env.bot.get_cog("War").service
    flip = f"war:t:{war_id}:0:flip"
    while (match := await war.get_match(war_id)).status == "active":
        view = await war.view(war_id)
        await env.wait_for(lambda n=match.step + 1: f"**Round {n}:**" in table.text
                           and any(b["custom_id"] == flip for b in table.buttons), message="no Flip")
        for seat in view["to_flip"]:
            pressed = await env.click((alice, bob)[seat], table, custom_id=flip)
            assert not (await pressed.wait_response()).ephemeral
        await settled_in(war, war_id)
    expected = war_reference({"pack": 32, "max_rounds": 12})
    assert match.status == "finished" and match.result["winner"] == expected.outcome.winner
    await env.wait_for(lambda: " wins" in table.title or table.title.endswith("draw"), message="no result")
    assert env.messages(group) == [table] and not table.buttons
