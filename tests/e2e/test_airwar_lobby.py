"""Air War for three through the local Discord: ``/airwar lobby`` opened, joined and started, played to the end with
the real bot killed (SIGKILL, a real second process) in the middle of an arrangement; the match ends exactly as the
engine plays the same seed and orders, nobody's locked order is shown to anyone else before its flips, the result is
recorded for every player and the match file replays to it."""

from __future__ import annotations

import json

import pytest

from bot.games.airwar.engine import AirWar
from bot.replay import replay
from tests.e2e.test_airwar import (
    PACE_MS,
    SEED,
    Played,
    assert_flips_shown_once,
    assert_no_order_leaked,
    board,
    click,
    dm_panel,
    lift_rate_limits,
    lock_in,
    reference,
    results,
    reverse,
    settled,
    slash,
    stack_of,
    weave,
)
from tests.e2e.test_airwar_restart import BotProcess, board_text, restart_in_process
from tests.localdiscord import Env
from tests.records import leaderboard_page, match_results, rating_of

pytestmark = pytest.mark.e2e

RULES = {"players": 3}
POLICIES = (reverse, weave, reverse)  # one per seat (never the stack as drawn: that is public)


def lobby_id_of(message) -> int:
    return int(message.buttons[0]["custom_id"].split(":")[2])


def seats_in(played: Played, number: int) -> list[int]:
    """The seats still in at engagement ``number`` (the engine with the orders so far)."""
    game, _ = reference({n: played.orders[n] for n in range(1, number)}, RULES)
    return [seat for seat in range(3) if game.in_game[seat]] if not game.is_over else []


async def play_three(env: Env, players, thread, played: Played, first: int) -> Played:
    """Engagements from ``first`` on, each seat still in locking in its policy's order, until the result is out."""
    number = first
    while True:
        seats = seats_in(played, number)
        if not seats:
            await env.wait_for(lambda: results(env, thread) or None, timeout=20, message="no result")
            return played

        def ready(n: int = number, playing: list[int] = seats):
            found = [dm_panel(env, players[seat], n) for seat in playing]
            return found if all(found) else None

        panels = await env.wait_for(ready, timeout=20, message=f"no panels for engagement {number}")
        orders: list[list[str] | None] = [None, None, None]
        for seat, panel in zip(seats, panels, strict=True):
            if panel.buttons:
                order = POLICIES[seat](stack_of(panel))
                await lock_in(env, players[seat], panel, order)
            else:  # locked in before the restart
                order = played.orders[number][seat]
            orders[seat] = order
        played.orders[number] = orders  # type: ignore[assignment]
        played.engagements = number
        number += 1


async def test_a_lobby_of_three_played_to_the_end_through_a_kill(make_env, tmp_path):
    database = tmp_path / "airwar.db"
    env = await make_env()
    lift_rate_limits(env)
    alice, bob, carol = players = (env.user("alice"), env.user("bob"), env.user("carol"))
    channel = env.channel()
    first = await BotProcess.start(env, database, flip_seconds=0.0)
    try:
        await slash(env, env.owner, "settings pace", seconds=PACE_MS / 1000)
        ix = await slash(env, alice, "airwar lobby")
        lobby = ix.message
        assert not ix.response.ephemeral and "3–4 players" in lobby.text
        match_id = lobby_id_of(lobby)
        await click(env, bob, lobby, label="Join")
        await env.wait_for(lambda: "(2/4)" in lobby.text)
        start = next(b for b in lobby.buttons if b.get("label") == "Start")
        assert start.get("disabled"), "two are not enough: a lobby starts with three or four"
        await click(env, carol, lobby, label="Join")
        await env.wait_for(lambda: "(3/4)" in lobby.text)
        await click(env, alice, lobby, label="Start")
        thread = await env.wait_for(lambda: lobby.thread, message="no thread for the match")

        played = Played()
        # engagement 1 in full, then in engagement 2 alice locks in, bob places two cards ... and the bot dies
        panels = await env.wait_for(lambda: all(dm_panel(env, p, 1) for p in players)
                                    and [dm_panel(env, p, 1) for p in players])
        orders = [POLICIES[seat](stack_of(panel)) for seat, panel in enumerate(panels)]
        for player, panel, order in zip(players, panels, orders, strict=True):
            await lock_in(env, player, panel, order)
        played.orders[1], played.engagements = orders, 1
        alice_panel = await env.wait_for(lambda: dm_panel(env, alice, 2))
        bob_panel = await env.wait_for(lambda: dm_panel(env, bob, 2))
        alice_order = reverse(stack_of(alice_panel))
        await lock_in(env, alice, alice_panel, alice_order)
        bob_order = weave(stack_of(bob_panel))
        await click(env, bob, bob_panel, f"card:{bob_order[0]}")
        await click(env, bob, bob_panel, f"card:{bob_order[1]}")
        await env.wait_for(lambda: "✅ locked in" in board_text(env, thread, 2))
        await first.kill(env)
    finally:
        await first.ensure_dead()

    await restart_in_process(env, database)
    bot = env.bot
    await env.wait_for(lambda: bot.timers.armed(("airwar", match_id)), message="the deadline was not re-armed")
    for card in bob_order[2:]:  # the buttons of the message the dead bot sent
        await click(env, bob, bob_panel, f"card:{card}")
    await click(env, bob, bob_panel, "confirm")
    carol_panel = await env.wait_for(lambda: dm_panel(env, carol, 2))
    carol_order = reverse(stack_of(carol_panel))
    await lock_in(env, carol, carol_panel, carol_order)
    played.orders[2], played.engagements = [alice_order, bob_order, carol_order], 2
    played = await play_three(env, players, thread, played, first=3)
    await settled(env, match_id)

    # the same game as the engine's, with the same seed and orders
    game, _ = reference(played.orders, RULES)
    assert game.is_over and game.num_players == 3
    match = await bot.matches.get_match(match_id)
    assert match.status == "finished" and len(match.seats) == 3 and match.rules["players"] == 3
    assert (match.result["winner"], match.result["reason"]) == (game.outcome.winner, game.outcome.reason)
    final = await bot.matches.view(match_id)
    assert final["deck_counts"] == game.view(None)["deck_counts"]
    assert final["out_order"] == game.view(None)["out_order"]
    [in_thread] = results(env, thread)
    if game.outcome.winner is None:
        assert "It's a draw" in in_thread.text
    else:
        assert f"**<@{players[game.outcome.winner].id}>** wins!" in in_thread.text
    for player in players:
        assert f"**<@{player.id}>** · deck " in in_thread.text  # every player's line, winner first
    assert [m for m in env.messages(channel) if m.author is env.bot_user] == [lobby]  # the match's one message
    assert_flips_shown_once(env, thread, played.engagements)
    assert assert_no_order_leaked(env, thread, played.orders, players, rules=RULES) > 0
    assert board(env, thread, 1) is not None

    # stats, leaderboard, ratings: recorded once for each of the three; the winner wins against both others
    rows = await match_results(bot.matches.db, match_id)
    assert sorted(r.user_id for r in rows) == sorted(p.id for p in players)
    ratings = {p.id: await rating_of(bot.matches.db, env.guild.id, p.id) for p in players}
    assert all(r is not None and r.games == 1 for r in ratings.values())
    if game.outcome.winner is not None:
        winner = players[game.outcome.winner].id
        assert ratings[winner].wins == 1
        assert all(ratings[winner].rating > r.rating and r.losses == 1 for u, r in ratings.items() if u != winner)
    else:
        assert all(r.draws == 1 for r in ratings.values())

    board_page = await leaderboard_page(bot.matches.db, env.guild.id, "airwar", min_games=1)
    assert sorted(row.user_id for row in board_page.rows) == sorted(p.id for p in players)

    # the match file replays to the same result
    exported = await bot.matches.export(match_id)
    assert exported["rules"]["players"] == 3
    last = list(replay(json.loads(json.dumps(exported))))[-1]
    assert (last["winner"], last["reason"]) == (game.outcome.winner, game.outcome.reason)
    again = AirWar.new(exported["rules"], seed=SEED)
    for move in exported["moves"]:
        again.apply_move(move)
    assert again.to_json() == game.to_json()


async def test_a_lobby_with_the_bot_in_a_seat_plays_to_the_end_unrated(make_env, tmp_path):
    import asyncio
    import time

    from bot.ai.players import decide
    from bot.match.kernel import OPPONENT_OPTION
    from tests.e2e.test_airwar import fast_bot

    env = await make_env(fast_bot(tmp_path / "airwar.db", seed=SEED))
    lift_rate_limits(env)
    alice, bob = env.user("alice"), env.user("bob")
    ix = await slash(env, alice, "airwar lobby", level="medium", stack=3)
    lobby = ix.message
    assert not ix.response.ephemeral and "(2/4)" in lobby.text and f"<@{env.bot_user.id}>" in lobby.text
    match_id = lobby_id_of(lobby)
    await click(env, bob, lobby, label="Join")
    await env.wait_for(lambda: "(3/4)" in lobby.text)
    await click(env, alice, lobby, label="Start")
    thread = await env.wait_for(lambda: lobby.thread, message="no thread for the match")
    matches = env.bot.matches
    assert (await matches.get_match(match_id)).options[OPPONENT_OPTION] == {"seat": 1, "level": "medium"}
    humans = {0: alice, 2: bob}
    locked: set[tuple[int, int]] = set()
    deadline = time.monotonic() + 60
    while (view := await matches.view(match_id))["phase"] != "over":
        assert time.monotonic() < deadline, "the lobby's game did not end"
        number = view["engagement"]
        for seat, user in humans.items():
            panel = dm_panel(env, user, number)
            if view["in_game"][seat] and (seat, number) not in locked and panel is not None and panel.buttons:
                assert not any("Hint" in b.get("label", "") for b in panel.buttons)
                await lock_in(env, user, panel, weave(stack_of(panel)))
                locked.add((seat, number))
        await asyncio.sleep(0.02)
    await settled(env, match_id)
    await env.wait_for(lambda: results(env, thread) or None, timeout=20, message="no result")
    match = await matches.get_match(match_id)
    assert match.status == "finished" and match.rules["players"] == 3
    assert [result.rated for result in await match_results(matches.db, match_id)] == [False, False, False]
    # the bot's account is named like the game: its win never reads "Air War — Air War wins"
    title = results(env, thread)[-1].title
    assert title != "Air War — Air War wins"
    if match.result["winner"] == 1:
        assert title == "Air War — won by the player named Air War"
    assert env.messages(env.dm(env.bot_user)) == []
    export = await matches.export(match_id)
    game = AirWar.new(export["rules"], seed=export["seed"])
    for number, move in enumerate(export["moves"], start=1):
        if "orders" not in move:
            break
        if move["orders"][1] is not None:  # the bot's seat chose what its player chooses from the same position
            assert move["orders"][1] == decide(game.view(1), 1, "medium", f"{export['seed']}:{number}:1")["cards"]
        game.apply_move(move)
    last = list(replay(export))[-1]
    assert (last["winner"], last["reason"]) == (match.result["winner"], match.result["reason"])
