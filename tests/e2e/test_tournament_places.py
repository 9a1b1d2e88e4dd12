"""Where players finish, end to end (the real bot, the local Discord):

* a two-player single elimination of Air War whose first game is a draw: the call says so ("Game 1 was a draw:
  ▶️ playing game 2"), the game is played again in the same thread (one "thread started" notice in the channel),
  and the final's loser reads as the runner-up (the summary, ``/tournament status``), never as "out in Round W1-1";
* an eight-player single elimination's bracket picture: no "Winners' bracket", and every match drawn joined to the
  match its winner plays next (read from the picture's own pixels);
* a four-player Air War lobby: each player's rating moves by their finishing place, and the result lists them
  first to last, each with their own change.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import time

import pytest

from bot.games.airwar.engine import finishing_places
from bot.match.ratings import displayed
from bot.services.settings import SettingsService
from tests.bot.render.bracket_geometry import unjoined_matches
from tests.e2e.test_airwar import (
    click,
    dm_panel,
    fast_bot,
    lift_rate_limits,
    lock_in,
    results,
    settled,
    slash,
    stack_of,
)
from tests.e2e.test_tournament import (
    call_messages,
    create,
    note,
    press_ready,
    start,
    status_message,
    summaries,
    tournament_rows,
    wait_over,
)
from tests.e2e.test_tournament_games import lock_in_as_drawn, open_panels
from tests.localdiscord.state import MSG_THREAD_CREATED
from tests.records import match_results

pytestmark = pytest.mark.e2e

#: the tournament's seed, then a deal that Air War (stacks of 7, every stack played as drawn) draws, then one it wins
DRAW_THEN_WIN = [8, 8, 5]


async def test_a_drawn_final_is_played_again_in_its_thread_and_its_loser_is_the_runner_up(make_env, tmp_path):
    env = await make_env(fast_bot(tmp_path / "t.db", seeds=DRAW_THEN_WIN))
    lift_rate_limits(env)
    await SettingsService(env.bot.matches.db).set_flip_pace_ms(env.guild.id, 1000)
    organiser = env.user("org")
    players = [env.user("hal"), env.user("gus")]
    tid = await create(env, organiser, "single elimination", players, no_show=1, game="airwar", rules="stack=7")
    ix = await env.slash(organiser, "tournament start")
    await ix.wait_response()
    service = tournament_rows(env)
    await env.wait_for(lambda: call_messages(env))
    await press_ready(env, players, set())

    async def play_until(done, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while not await done():
            assert time.monotonic() < deadline, "the game did not get there"
            moves = [(user, panel) for user in players for panel in open_panels(env, user)]
            await asyncio.gather(*(lock_in_as_drawn(env, user, panel) for user, panel in moves))
            if not moves:
                await asyncio.sleep(0.02)

    async def second_game_dealt() -> bool:
        return len(await service.games(tid)) == 2

    await play_until(second_game_dealt)
    first, second = await service.games(tid)
    matches = env.bot.matches
    drawn = await matches.get_match(first.match_id)
    assert drawn.status == "finished" and drawn.result["winner_id"] is None  # the draw counts for nobody
    # the call says what happened and which game is on, with no dangling comma
    call = call_messages(env)[0]
    await env.wait_for(lambda: "Game 1 was a draw: ▶️ playing game 2" in call.text, timeout=10)
    assert ",\n" not in call.text and not call.text.rstrip().endswith(",")
    ix = await env.slash(players[0], "tournament status")
    await ix.wait_response()
    assert "Game 1 was a draw: ▶️ playing game 2" in await note(env, players[0])
    # the replay goes on in the first game's thread: one notice of a thread in the channel, not one per game
    replay = await matches.get_match(second.match_id)
    assert replay.thread_id is not None and replay.thread_id == drawn.thread_id

    async def over() -> bool:
        return not (await service.get(tid)).is_open

    await play_until(over)
    await wait_over(env)
    for game in await service.games(tid):
        await settled(env, game.match_id)
    notices = [m for m in env.messages() if m.type == MSG_THREAD_CREATED]
    assert len(notices) == 1, [m.text for m in notices]
    thread = env.world.get_channel(drawn.thread_id)
    assert [m.title for m in results(env, thread)][:1] == ["Air War — draw"]  # both games' results, in order
    assert len(results(env, thread)) == 2

    tournament = await service.get(tid)
    champion = tournament.champion_id
    loser = next(p for p in players if p.id != champion)
    row = (await service.bracket_matches(tid))[0]
    await env.wait_for(lambda: f"🏁 <@{champion}> wins (after 1 drawn game)" in call_messages(env)[0].text)
    assert f"🥈 Runner-up: {loser.mention} (lost the final)" in summaries(env)[-1].text
    assert row.draws == 1 and sum(row.wins) == 1
    ix = await env.slash(loser, "tournament status")
    await ix.wait_response()
    status = await note(env, loser)
    assert f"2. {loser.global_name or loser.name.capitalize()} — 🥈 runner-up: lost the final" in status, status
    assert not re.search(r"\bW\d+-\d+\b", status)


async def test_a_single_elimination_picture_joins_every_round_to_the_next(make_env, tmp_path):
    env = await start(make_env, tmp_path / "t.db")
    organiser = env.user("org")
    players = [env.user(f"p{n}") for n in range(8)]
    tid = await create(env, organiser, "single elimination", players, no_show=0)
    ix = await env.slash(organiser, "tournament start")
    await ix.wait_response()
    final = await wait_over(env)
    bracket = await tournament_rows(env).bracket(tid)
    await env.wait_for(lambda: len(status_message(env).attachments) == 1)
    (picture,) = status_message(env).attachments
    assert "Winners' bracket" not in picture.description
    assert "Quarterfinals and Semifinals; Semifinals and Final" in picture.description
    assert unjoined_matches(bracket, [picture.data]) == []
    assert final.attachments


async def test_a_lobby_of_four_is_rated_by_place_and_its_result_lists_the_players_first_to_last(make_env, tmp_path):
    env = await make_env(fast_bot(tmp_path / "airwar.db"))
    lift_rate_limits(env)
    users = [env.user(name) for name in ("ann", "ben", "cy", "dave")]
    ix = await slash(env, users[0], "airwar lobby", stack=3)
    lobby = ix.message
    match_id = int(lobby.buttons[0]["custom_id"].split(":")[2])
    for user in users[1:]:
        await click(env, user, lobby, label="Join")
    await env.wait_for(lambda: "(4/4)" in lobby.text)
    await click(env, users[0], lobby, label="Start")
    thread = await env.wait_for(lambda: lobby.thread, message="no thread for the match")
    matches = env.bot.matches
    deadline = time.monotonic() + 60
    locked: set[tuple[int, int]] = set()
    while (view := await matches.view(match_id))["phase"] != "over":
        assert time.monotonic() < deadline, "the lobby's game did not end"
        number = view["engagement"]
        for seat, user in enumerate(users):
            panel = dm_panel(env, user, number)
            if view["in_game"][seat] and (seat, number) not in locked and panel is not None and panel.buttons:
                await lock_in(env, user, panel, stack_of(panel))
                locked.add((seat, number))
        await asyncio.sleep(0.02)
    await settled(env, match_id)
    (result,) = await env.wait_for(lambda: results(env, thread) or None, timeout=20, message="no result")
    match = await matches.get_match(match_id)
    places = finishing_places(match.result["winner"], view["in_game"], view["out_order"], view.get("together", []))
    assert sorted(places)[-1] == 4 and places[view["out_order"][0]] == 4  # the first out finished last
    stored = {record.seat: record for record in await match_results(matches.db, match_id)}
    change = {seat: displayed(record.rating_after) - displayed(record.rating_before) for seat, record in stored.items()}
    order = sorted(range(4), key=lambda seat: (places[seat], seat))
    for better, worse in itertools.pairwise(order):
        if places[better] < places[worse]:
            assert change[better] > change[worse], (places, change)
        else:
            assert change[better] == change[worse], (places, change)
    # the result: one line per player, first to last, each with that player's own change
    lines = [line for line in result.text.splitlines() if " · rating " in line]
    named = [next(user for user in users if f"**{user.name}**" in line or user.mention in line) for line in lines]
    assert named == [users[seat] for seat in order], result.text
    for line, seat in zip(lines, order, strict=True):
        assert f"({change[seat]:+d}" in line
    assert lines[-1].startswith("4. ") and "out first" in lines[-1] and "Ratings:" not in result.text
    assert len({change[seat] for seat in range(4)}) >= 3  # not one change for every loser
